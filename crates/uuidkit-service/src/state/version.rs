//! The time-based versions a durable generator (and the service) hands out.

use core::fmt;

/// The versions a [`DurableGenerator`](crate::state::DurableGenerator) (and the service) hands out.
///
/// ```
/// use uuidkit_service::state::TimeVersion;
/// assert_eq!(TimeVersion::from_u8(7), Some(TimeVersion::V7));
/// assert_eq!(TimeVersion::V6.as_u8(), 6);
/// assert_eq!(TimeVersion::from_u8(4), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeVersion {
    /// Version 1 (RFC 9562 §5.1).
    V1,
    /// Version 6 (RFC 9562 §5.6).
    V6,
    /// Version 7 (RFC 9562 §5.7).
    V7,
}

impl TimeVersion {
    /// The version number.
    ///
    /// ```
    /// use uuidkit_service::state::TimeVersion;
    /// assert_eq!(TimeVersion::V1.as_u8(), 1);
    /// assert_eq!(TimeVersion::V7.as_u8(), 7);
    /// // `Display` writes the number after a `v`.
    /// assert_eq!(TimeVersion::V6.to_string(), "v6");
    /// ```
    pub const fn as_u8(self) -> u8 {
        match self {
            TimeVersion::V1 => 1,
            TimeVersion::V6 => 6,
            TimeVersion::V7 => 7,
        }
    }

    /// The version for a number: 1, 6 or 7.
    ///
    /// ```
    /// use uuidkit_service::state::TimeVersion;
    /// for v in [TimeVersion::V1, TimeVersion::V6, TimeVersion::V7] {
    ///     assert_eq!(TimeVersion::from_u8(v.as_u8()), Some(v));
    /// }
    /// // v2 has no durable generator; 0 and 8 are no time-based version at all.
    /// assert_eq!(TimeVersion::from_u8(2), None);
    /// assert_eq!(TimeVersion::from_u8(0), None);
    /// assert_eq!(TimeVersion::from_u8(8), None);
    /// ```
    pub const fn from_u8(n: u8) -> Option<TimeVersion> {
        match n {
            1 => Some(TimeVersion::V1),
            6 => Some(TimeVersion::V6),
            7 => Some(TimeVersion::V7),
            _ => None,
        }
    }
}

impl fmt::Display for TimeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.as_u8())
    }
}

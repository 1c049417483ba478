//! Whether a UUID is covered by the state file.

/// Whether a UUID is covered by the state file, so that no restart or crash can make it
/// repeat (`Durable`), or was generated while the file could not be written (`Volatile`: still
/// unique within this run and very likely beyond, but without the guarantee). libuuid calls the
/// first kind "safe".
///
/// ```
/// use uuidkit_service::state::Safety;
/// assert!(Safety::Durable.is_durable());
/// assert_eq!(Safety::Durable.and(Safety::Volatile), Safety::Volatile);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Safety {
    /// Covered by a successful write of the state file.
    Durable,
    /// Not covered: the state file could not be written (the error is in
    /// [`DurableGenerator::last_write_error`](crate::state::DurableGenerator::last_write_error)),
    /// or this is a forked child.
    Volatile,
}

impl Safety {
    /// Whether this is [`Safety::Durable`].
    ///
    /// ```
    /// use uuidkit_service::state::Safety;
    /// assert!(Safety::Durable.is_durable());
    /// assert!(!Safety::Volatile.is_durable());
    /// ```
    pub const fn is_durable(self) -> bool {
        matches!(self, Safety::Durable)
    }

    /// Durable only if both are.
    ///
    /// Useful to combine the safety of several batches into one answer.
    ///
    /// ```
    /// use uuidkit_service::state::Safety::{Durable, Volatile};
    /// assert_eq!(Durable.and(Durable), Durable);
    /// assert_eq!(Durable.and(Volatile), Volatile);
    /// assert_eq!(Volatile.and(Durable), Volatile);
    /// assert_eq!(Volatile.and(Volatile), Volatile);
    /// ```
    pub const fn and(self, other: Safety) -> Safety {
        if self.is_durable() && other.is_durable() {
            Safety::Durable
        } else {
            Safety::Volatile
        }
    }
}

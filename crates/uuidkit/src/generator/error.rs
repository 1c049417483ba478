//! The one error of the time-based generators, [`GenError`]: overflow, clock regression, time
//! out of range, bad configuration or a stalled clock, each with a `Display` text that names
//! what happened and the numbers.

use core::fmt;
use std::time::Duration;

use crate::Timestamp;

/// The kind of a [`GenError`], for matching.
///
/// ```
/// use uuidkit::generator::{FixedClock, GenErrorKind, OverflowPolicy, ThreadRng, V7Builder, V7Method};
/// use uuidkit::Timestamp;
/// // A 12-bit counter on a frozen clock runs out after at most 4096 UUIDs.
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1_000));
/// let mut g = V7Builder::new()
///     .method(V7Method::Counter { bits: 12 })
///     .overflow(OverflowPolicy::Error)
///     .build(clock, ThreadRng)?;
/// let err = (0..5000).find_map(|_| g.next().err()).unwrap();
/// assert_eq!(err.kind(), GenErrorKind::Overflow);
/// assert!(err.is_overflow());
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GenErrorKind {
    /// The counter or the ticks of a clock reading are used up and the policy is
    /// [`OverflowPolicy::Error`](crate::generator::OverflowPolicy::Error).
    Overflow,
    /// The clock went back by more than the threshold and the policy is
    /// [`RegressionPolicy::Error`](crate::generator::RegressionPolicy::Error).
    ClockRegression,
    /// The time is outside the range the layout's timestamp field can hold (v1/v6: 1582-10-15
    /// to 5236-03-31; v7: 1970-01-01 to 10889-08-02), or advancing would leave it.
    TimeRange,
    /// A generator was configured with a value out of its allowed range.
    Config,
    /// Under [`OverflowPolicy::Wait`](crate::generator::OverflowPolicy::Wait), the clock did not
    /// advance when it should have.
    ClockStalled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    Overflow {
        layout: &'static str,
        at_nanos: i128,
        counter_bits: u32,
        issued: u64,
        span: u64,
    },
    Regression {
        from_nanos: i128,
        to_nanos: i128,
        threshold_nanos: u128,
    },
    TimeRange {
        layout: &'static str,
        at_nanos: i128,
        min_nanos: i128,
        max_nanos: i128,
    },
    Config {
        what: &'static str,
        value: i128,
        unit: &'static str,
        min: i128,
        max: i128,
    },
    /// A value outside a set that one range cannot say; `allowed` says it.
    ConfigRule {
        what: &'static str,
        value: i128,
        unit: &'static str,
        allowed: &'static str,
    },
    Stalled {
        waited: Duration,
        until_nanos: i128,
    },
}

/// The error of the time-based generators: overflow, clock regression, time out of range, bad
/// configuration, or a stalled clock. Its `Display` text names what happened and the numbers.
///
/// ```
/// use uuidkit::generator::{GenErrorKind, V7Builder, V7Method};
/// let err = V7Builder::new()
///     .method(V7Method::Counter { bits: 43 })
///     .build(uuidkit::generator::SystemClock, uuidkit::generator::ThreadRng)
///     .unwrap_err();
/// assert_eq!(err.kind(), GenErrorKind::Config);
/// assert_eq!(
///     err.to_string(),
///     "invalid generator configuration: v7 counter width is 43 bits, allowed 12 to 42"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenError {
    detail: Detail,
}

impl GenError {
    /// The kind of error.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, GenErrorKind, ThreadRng, V1Generator, V7Generator};
    /// use uuidkit::Timestamp;
    /// // 1582-10-15 starts the v1 time but lies before the v7 epoch (1970).
    /// let clock = FixedClock::new(Timestamp::from_gregorian_ticks(0));
    /// assert!(V1Generator::new(clock, ThreadRng).next().is_ok());
    /// let err = V7Generator::new(clock, ThreadRng).next().unwrap_err();
    /// assert_eq!(err.kind(), GenErrorKind::TimeRange);
    /// ```
    pub const fn kind(&self) -> GenErrorKind {
        match self.detail {
            Detail::Overflow { .. } => GenErrorKind::Overflow,
            Detail::Regression { .. } => GenErrorKind::ClockRegression,
            Detail::TimeRange { .. } => GenErrorKind::TimeRange,
            Detail::Config { .. } | Detail::ConfigRule { .. } => GenErrorKind::Config,
            Detail::Stalled { .. } => GenErrorKind::ClockStalled,
        }
    }

    /// Whether the counter (or the ticks of a clock reading) ran out under
    /// [`OverflowPolicy::Error`](crate::generator::OverflowPolicy::Error).
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // A frozen clock of 1-ns resolution allows one 100-ns v1 tick.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = GregorianBuilder::new()
    ///     .overflow(OverflowPolicy::Error)
    ///     .build_v1(clock, ThreadRng)?;
    /// g.next()?;
    /// let err = g.next().unwrap_err();
    /// assert!(err.is_overflow() && !err.is_time_range());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn is_overflow(&self) -> bool {
        matches!(self.detail, Detail::Overflow { .. })
    }

    /// Whether the clock went back beyond the threshold under
    /// [`RegressionPolicy::Error`](crate::generator::RegressionPolicy::Error).
    ///
    /// ```
    /// use uuidkit::generator::{ReplayClock, RegressionPolicy, ThreadRng, V7Builder};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis;
    /// let clock = ReplayClock::new([t(60_000), t(30_000)]); // 30 s back
    /// let mut g = V7Builder::new()
    ///     .regression(RegressionPolicy::Error)
    ///     .build(clock, ThreadRng)?;
    /// g.next()?;
    /// let err = g.next().unwrap_err();
    /// assert!(err.is_clock_regression());
    /// assert!(err.to_string().contains("went back 30000000000 ns"));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn is_clock_regression(&self) -> bool {
        matches!(self.detail, Detail::Regression { .. })
    }

    /// Whether the time is outside the layout's timestamp range.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V1Generator};
    /// use uuidkit::Timestamp;
    /// // v1 time starts at 1582-10-15T00:00:00Z (tick 0); a second earlier has no tick.
    /// let first = FixedClock::new(Timestamp::parse_rfc3339("1582-10-15T00:00:00Z")?);
    /// assert_eq!(V1Generator::new(first, ThreadRng).next()?.gregorian_ticks(), Some(0));
    /// let early = FixedClock::new(Timestamp::parse_rfc3339("1582-10-14T23:59:59Z")?);
    /// assert!(V1Generator::new(early, ThreadRng).next().unwrap_err().is_time_range());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn is_time_range(&self) -> bool {
        matches!(self.detail, Detail::TimeRange { .. })
    }

    /// Whether a configuration value is out of range.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, SystemClock, ThreadRng};
    /// let layout = DistributedLayout::new(12, 10)?; // a 12-bit counter, a 10-bit node id
    /// let err = DistributedBuilder::new(layout)
    ///     .node_id(1 << 10) // one more than 10 bits hold
    ///     .build(SystemClock, ThreadRng)
    ///     .unwrap_err();
    /// assert!(err.is_config());
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid generator configuration: v8 node id is 1024, allowed 0 to 1023"
    /// );
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn is_config(&self) -> bool {
        matches!(
            self.detail,
            Detail::Config { .. } | Detail::ConfigRule { .. }
        )
    }

    /// Whether the clock stalled while waiting under
    /// [`OverflowPolicy::Wait`](crate::generator::OverflowPolicy::Wait).
    ///
    /// A stall takes at least a second of real waiting on a clock that does not move, too slow for
    /// an example; this one shows the waiting that ends well, and an error of another kind:
    ///
    /// ```
    /// use uuidkit::generator::{GregorianBuilder, OverflowPolicy, StepClock, ThreadRng};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::UNIX_EPOCH).with_auto_step(50); // +50 ns per reading
    /// let mut g = GregorianBuilder::new()
    ///     .overflow(OverflowPolicy::Wait)
    ///     .build_v6(&clock, ThreadRng)?;
    /// let a = g.next()?;
    /// let b = g.next()?; // 50 ns is still a's 100-ns tick: waits, reads the clock again at 100 ns
    /// assert_eq!(b.gregorian_ticks(), a.gregorian_ticks().map(|t| t + 1));
    /// assert_eq!(clock.peek().unix_nanos(), 150); // three readings
    /// let err = GregorianBuilder::new().clock_seq(0x4000).build_v6(&clock, ThreadRng).unwrap_err();
    /// assert!(!err.is_clock_stalled() && err.is_config());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn is_clock_stalled(&self) -> bool {
        matches!(self.detail, Detail::Stalled { .. })
    }

    /// `what` is `value` `unit`, outside `min..=max`.
    pub(crate) const fn config(
        what: &'static str,
        value: i128,
        unit: &'static str,
        min: i128,
        max: i128,
    ) -> GenError {
        GenError {
            detail: Detail::Config {
                what,
                value,
                unit,
                min,
                max,
            },
        }
    }

    /// `Ok` if `value` lies in `min..=max`, else the configuration error naming `what` (with
    /// `unit` after the value: `" bits"`, `" ns"` or `""`): the one range check of every
    /// generator setting.
    pub(crate) fn check_range(
        what: &'static str,
        value: i128,
        unit: &'static str,
        min: i128,
        max: i128,
    ) -> Result<(), GenError> {
        if value < min || value > max {
            Err(GenError::config(what, value, unit, min, max))
        } else {
            Ok(())
        }
    }

    /// `what` is `value` `unit`, which is not in the set `allowed` describes.
    pub(crate) const fn config_rule(
        what: &'static str,
        value: i128,
        unit: &'static str,
        allowed: &'static str,
    ) -> GenError {
        GenError {
            detail: Detail::ConfigRule {
                what,
                value,
                unit,
                allowed,
            },
        }
    }

    pub(crate) const fn time_range(
        layout: &'static str,
        at_nanos: i128,
        min_nanos: i128,
        max_nanos: i128,
    ) -> GenError {
        GenError {
            detail: Detail::TimeRange {
                layout,
                at_nanos,
                min_nanos,
                max_nanos,
            },
        }
    }

    pub(crate) const fn regression(
        from_nanos: i128,
        to_nanos: i128,
        threshold_nanos: u128,
    ) -> GenError {
        GenError {
            detail: Detail::Regression {
                from_nanos,
                to_nanos,
                threshold_nanos,
            },
        }
    }

    pub(crate) const fn stalled(waited: Duration, until_nanos: i128) -> GenError {
        GenError {
            detail: Detail::Stalled {
                waited,
                until_nanos,
            },
        }
    }

    pub(crate) const fn overflow(
        layout: &'static str,
        at_nanos: i128,
        counter_bits: u32,
        issued: u64,
        span: u64,
    ) -> GenError {
        GenError {
            detail: Detail::Overflow {
                layout,
                at_nanos,
                counter_bits,
                issued,
                span,
            },
        }
    }
}

/// Writes a time as RFC 3339 with nanoseconds, or as raw nanoseconds when no [`Timestamp`]
/// can hold it.
struct Nanos(i128);

impl fmt::Display for Nanos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Timestamp::from_unix_nanos(self.0) {
            Some(t) => write!(f, "{}", t.to_rfc3339(9)),
            None => write!(f, "{} ns from the Unix epoch", self.0),
        }
    }
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.detail {
            Detail::Overflow {
                layout,
                at_nanos,
                counter_bits,
                issued,
                span,
            } => {
                if counter_bits > 0 {
                    write!(
                        f,
                        "counter overflow: the {counter_bits}-bit counter of the {layout} is \
                         exhausted after {issued} UUIDs at {}; the overflow policy is Error",
                        Nanos(at_nanos)
                    )
                } else {
                    write!(
                        f,
                        "timestamp overflow: all {span} ticks of the {layout} that the clock \
                         reading {} allows are used; the overflow policy is Error",
                        Nanos(at_nanos)
                    )
                }
            }
            Detail::Regression {
                from_nanos,
                to_nanos,
                threshold_nanos,
            } => write!(
                f,
                "clock regression: the clock went back {} ns, from {} to {}, more than the \
                 threshold of {threshold_nanos} ns; the regression policy is Error",
                from_nanos - to_nanos,
                Nanos(from_nanos),
                Nanos(to_nanos)
            ),
            Detail::TimeRange {
                layout,
                at_nanos,
                min_nanos,
                max_nanos,
            } => write!(
                f,
                "time out of range: {} is outside the {layout} ({} to {})",
                Nanos(at_nanos),
                Nanos(min_nanos),
                Nanos(max_nanos)
            ),
            Detail::Config {
                what,
                value,
                unit,
                min,
                max,
            } => write!(
                f,
                "invalid generator configuration: {what} is {value}{unit}, allowed {min} to {max}"
            ),
            Detail::ConfigRule {
                what,
                value,
                unit,
                allowed,
            } => write!(
                f,
                "invalid generator configuration: {what} is {value}{unit}, allowed {allowed}"
            ),
            Detail::Stalled {
                waited,
                until_nanos,
            } => write!(
                f,
                "clock stalled: waited {} ms for the clock to reach {} under the Wait overflow \
                 policy, and it did not",
                waited.as_millis(),
                Nanos(until_nanos)
            ),
        }
    }
}

impl std::error::Error for GenError {}

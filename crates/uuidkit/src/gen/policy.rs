//! What the time-based generators do when time misbehaves, and the one error they report.
//!
//! RFC 9562 §6.2 leaves two situations to the implementation: a counter (or, for v1/v6, the
//! ticks of one clock reading) running out within one timestamp ("Counter Rollover Handling"),
//! and a clock that steps backwards ("Monotonic Error Checking"). Both are policies the caller
//! chooses here ([`OverflowPolicy`], [`RegressionPolicy`]) rather than hidden behaviour, and
//! every failure is a [`GenError`].
//!
//! The crate-private `Sequencer` is the state machine that all per-instance time-based
//! generators (v1, v2, v6, v7, v8) share: it turns clock readings into strictly increasing
//! (timestamp tick, counter) pairs and applies the policies.

use core::fmt;
use std::time::Duration;

use super::{Clock, RandomSource};
use crate::Timestamp;

/// What a generator does when it has used every value one timestamp allows: the counter is
/// exhausted (v7, v8) or, for v1/v6, every 100-ns tick of the current clock reading is taken
/// (RFC 9562 §6.1 "Error Handling", §6.2 "Counter Rollover Handling").
///
/// Whatever the policy, a generator never returns a duplicate and never a UUID that sorts
/// before the previous one.
///
/// ```
/// use uuidkit::gen::OverflowPolicy;
/// assert_eq!(OverflowPolicy::default(), OverflowPolicy::Advance);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OverflowPolicy {
    /// Move the embedded timestamp one tick ahead of the clock and start a fresh counter
    /// (the default). The timestamp runs ahead of the clock only by as many ticks as the
    /// overflows need, and falls back in step once the clock catches up.
    #[default]
    Advance,
    /// Wait (sleeping or yielding) until the clock reaches the next tick. If the clock does not
    /// get there within the needed time plus one second of real time, the generator gives up
    /// with a [`GenErrorKind::ClockStalled`] error instead of hanging. On
    /// `wasm32-unknown-unknown` (feature `js`) JavaScript's thread cannot sleep: the wait spins
    /// on the clock.
    Wait,
    /// Return a [`GenErrorKind::Overflow`] error; the next call succeeds once the clock has
    /// moved on.
    Error,
}

/// What a generator does when the clock reads earlier than it did before by more than the
/// regression threshold (RFC 9562 §6.2 "Monotonic Error Checking").
///
/// A step back within the threshold (default [`DEFAULT_REGRESSION_THRESHOLD`], 10 s) never
/// reaches the policy: the generator keeps using its last timestamp and increments from there,
/// so order is kept.
///
/// ```
/// use uuidkit::gen::RegressionPolicy;
/// assert_eq!(RegressionPolicy::default(), RegressionPolicy::Reset);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RegressionPolicy {
    /// Follow the clock back (the default). **This breaks the order**: the next UUID sorts
    /// before the previous ones. v1, v2 and v6 generators also pick a new random clock
    /// sequence, so that the repeated timestamps cannot produce a duplicate (RFC 9562 §5.1);
    /// v7 and v8 rely on their fresh random bits.
    #[default]
    Reset,
    /// Return a [`GenErrorKind::ClockRegression`] error until the clock is back within the
    /// threshold of its highest reading.
    Error,
}

/// The default regression threshold: 10 seconds.
///
/// ```
/// assert_eq!(uuidkit::gen::DEFAULT_REGRESSION_THRESHOLD.as_secs(), 10);
/// ```
pub const DEFAULT_REGRESSION_THRESHOLD: Duration = Duration::from_secs(10);

/// The kind of a [`GenError`], for matching.
///
/// ```
/// use uuidkit::gen::{FixedClock, GenErrorKind, OverflowPolicy, ThreadRng, V7Builder, V7Method};
/// use uuidkit::Timestamp;
/// // A 12-bit counter on a frozen clock runs out after at most 4096 UUIDs.
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1_000));
/// let mut gen = V7Builder::new()
///     .method(V7Method::Counter { bits: 12 })
///     .overflow(OverflowPolicy::Error)
///     .build(clock, ThreadRng)?;
/// let err = (0..5000).find_map(|_| gen.next().err()).unwrap();
/// assert_eq!(err.kind(), GenErrorKind::Overflow);
/// assert!(err.is_overflow());
/// # Ok::<(), uuidkit::gen::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GenErrorKind {
    /// The counter or the ticks of a clock reading are used up and the policy is
    /// [`OverflowPolicy::Error`].
    Overflow,
    /// The clock went back by more than the threshold and the policy is
    /// [`RegressionPolicy::Error`].
    ClockRegression,
    /// The time is outside the range the layout's timestamp field can hold (v1/v6: 1582-10-15
    /// to 5236-03-31; v7: 1970-01-01 to 10889-08-02), or advancing would leave it.
    TimeRange,
    /// A generator was configured with a value out of its allowed range.
    Config,
    /// Under [`OverflowPolicy::Wait`], the clock did not advance when it should have.
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
    Stalled {
        waited: Duration,
        until_nanos: i128,
    },
}

/// The error of the time-based generators: overflow, clock regression, time out of range, bad
/// configuration, or a stalled clock. Its `Display` text names what happened and the numbers.
///
/// ```
/// use uuidkit::gen::{GenErrorKind, V7Builder, V7Method};
/// let err = V7Builder::new()
///     .method(V7Method::Counter { bits: 43 })
///     .build(uuidkit::gen::SystemClock, uuidkit::gen::ThreadRng)
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
    /// use uuidkit::gen::{FixedClock, GenErrorKind, ThreadRng, V1Generator, V7Generator};
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
            Detail::Config { .. } => GenErrorKind::Config,
            Detail::Stalled { .. } => GenErrorKind::ClockStalled,
        }
    }

    /// Whether the counter (or the ticks of a clock reading) ran out under
    /// [`OverflowPolicy::Error`].
    ///
    /// ```
    /// use uuidkit::gen::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // A frozen clock of 1-ns resolution allows one 100-ns v1 tick.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut gen = GregorianBuilder::new()
    ///     .overflow(OverflowPolicy::Error)
    ///     .build_v1(clock, ThreadRng)?;
    /// gen.next()?;
    /// let err = gen.next().unwrap_err();
    /// assert!(err.is_overflow() && !err.is_time_range());
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub const fn is_overflow(&self) -> bool {
        matches!(self.detail, Detail::Overflow { .. })
    }

    /// Whether the clock went back beyond the threshold under [`RegressionPolicy::Error`].
    ///
    /// ```
    /// use uuidkit::gen::{ReplayClock, RegressionPolicy, ThreadRng, V7Builder};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis;
    /// let clock = ReplayClock::new([t(60_000), t(30_000)]); // 30 s back
    /// let mut gen = V7Builder::new()
    ///     .regression(RegressionPolicy::Error)
    ///     .build(clock, ThreadRng)?;
    /// gen.next()?;
    /// let err = gen.next().unwrap_err();
    /// assert!(err.is_clock_regression());
    /// assert!(err.to_string().contains("went back 30000000000 ns"));
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub const fn is_clock_regression(&self) -> bool {
        matches!(self.detail, Detail::Regression { .. })
    }

    /// Whether the time is outside the layout's timestamp range.
    ///
    /// ```
    /// use uuidkit::gen::{FixedClock, ThreadRng, V1Generator};
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
    /// use uuidkit::gen::{DistributedBuilder, DistributedLayout, SystemClock, ThreadRng};
    /// let layout = DistributedLayout::new(48, 1_000_000, 10, 12)?;
    /// let err = DistributedBuilder::new(layout)
    ///     .node_id(1 << 10) // one more than 10 bits hold
    ///     .build(SystemClock, ThreadRng)
    ///     .unwrap_err();
    /// assert!(err.is_config());
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid generator configuration: v8 node id is 1024, allowed 0 to 1023"
    /// );
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub const fn is_config(&self) -> bool {
        matches!(self.detail, Detail::Config { .. })
    }

    /// Whether the clock stalled while waiting under [`OverflowPolicy::Wait`].
    ///
    /// A stall takes at least a second of real waiting on a clock that does not move, too slow for
    /// an example; this one shows the waiting that ends well, and an error of another kind:
    ///
    /// ```
    /// use uuidkit::gen::{GregorianBuilder, OverflowPolicy, StepClock, ThreadRng};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::UNIX_EPOCH).with_auto_step(50); // +50 ns per reading
    /// let mut gen = GregorianBuilder::new()
    ///     .overflow(OverflowPolicy::Wait)
    ///     .build_v6(&clock, ThreadRng)?;
    /// let a = gen.next()?;
    /// let b = gen.next()?; // 50 ns is still a's 100-ns tick: waits, reads the clock again at 100 ns
    /// assert_eq!(b.gregorian_ticks(), a.gregorian_ticks().map(|t| t + 1));
    /// assert_eq!(clock.peek().unix_nanos(), 150); // three readings
    /// let err = GregorianBuilder::new().clock_seq(0x4000).build_v6(&clock, ThreadRng).unwrap_err();
    /// assert!(!err.is_clock_stalled() && err.is_config());
    /// # Ok::<(), uuidkit::gen::GenError>(())
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

    const fn overflow(
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

// ---- the shared sequencing engine ------------------------------------------------------------

/// How a layout's timestamp field counts time: `tick = floor((t - epoch) * num / den)` for a
/// time `t` in Unix nanoseconds, valid for `0 <= tick < max_tick`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scale {
    /// Names the field in error messages.
    pub(crate) layout: &'static str,
    pub(crate) epoch_nanos: i128,
    pub(crate) num: i128,
    pub(crate) den: i128,
    /// Exclusive upper bound of the tick.
    pub(crate) max_tick: u64,
}

impl Scale {
    /// The tick of a time, or the time-range error.
    pub(crate) fn tick_of(&self, nanos: i128) -> Result<u64, GenError> {
        let tick = nanos
            .checked_sub(self.epoch_nanos)
            .and_then(|rel| rel.checked_mul(self.num))
            .map(|v| v.div_euclid(self.den));
        match tick {
            Some(t) if t >= 0 && t < self.max_tick as i128 => Ok(t as u64),
            _ => Err(self.range_error(nanos)),
        }
    }

    /// The earliest time whose tick is `tick`.
    pub(crate) fn nanos_of(&self, tick: u64) -> i128 {
        // ceil(tick * den / num). Saturating: a v8 layout may pair 63 timestamp bits with a
        // unit of up to 2^64 ns, beyond what i128 nanoseconds hold (and any Timestamp).
        let v = (tick as i128).saturating_mul(self.den);
        let q = v.saturating_add(self.num - 1).div_euclid(self.num);
        self.epoch_nanos.saturating_add(q)
    }

    /// How many ticks one clock reading covers: the clock's resolution in ticks, at least 1.
    /// Rounded down, so that the ticks simulated for one reading stay below the next reading's
    /// tick (RFC 9562 §6.1 "Sub-second Precision and Accuracy").
    pub(crate) fn span(&self, resolution_nanos: u64) -> u64 {
        let s = (resolution_nanos as i128 * self.num) / self.den;
        s.clamp(1, u64::MAX as i128) as u64
    }

    pub(crate) fn range_error(&self, at_nanos: i128) -> GenError {
        GenError::time_range(
            self.layout,
            at_nanos,
            self.nanos_of(0),
            self.nanos_of(self.max_tick).saturating_sub(1),
        )
    }
}

/// How the counter after the timestamp behaves (RFC 9562 §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counter {
    /// No counter: v1/v6 and the v8 example only step the timestamp.
    None,
    /// Method 1 fixed-length counter of `bits` (1..=63): seeded randomly with its top bit clear
    /// (the rollover guard), incremented by 1.
    Fixed { bits: u32 },
    /// Method 2 monotonic random over `bits` (<= 74): seeded fully at random, incremented by a
    /// random amount in `1..=2^inc_bits`.
    Random { bits: u32, inc_bits: u32 },
    /// Starts at 0 for every new tick and counts by 1 (the v2 clock-sequence offset).
    Sequential { bits: u32 },
}

impl Counter {
    pub(crate) const fn bits(&self) -> u32 {
        match *self {
            Counter::None => 0,
            Counter::Fixed { bits }
            | Counter::Random { bits, .. }
            | Counter::Sequential { bits } => bits,
        }
    }

    fn seed<R: RandomSource + ?Sized>(&self, rng: &mut R) -> u128 {
        match *self {
            Counter::None | Counter::Sequential { .. } => 0,
            Counter::Fixed { bits } => {
                if bits <= 1 {
                    0
                } else {
                    (rng.next_u64() & mask64(bits - 1)) as u128
                }
            }
            Counter::Random { bits, .. } => rand74(rng) & mask128(bits),
        }
    }

    fn increment<R: RandomSource + ?Sized>(&self, c: u128, rng: &mut R) -> Option<u128> {
        let (bits, inc) = match *self {
            Counter::None => return None,
            Counter::Fixed { bits } | Counter::Sequential { bits } => (bits, 1u128),
            Counter::Random { bits, inc_bits } => {
                (bits, (rng.next_u64() & mask64(inc_bits)) as u128 + 1)
            }
        };
        let next = c.checked_add(inc)?;
        if next >> bits == 0 {
            Some(next)
        } else {
            None
        }
    }
}

/// The low `bits` bits set (`bits` <= 64).
pub(crate) const fn mask64(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The low `bits` bits set (`bits` <= 128).
pub(crate) const fn mask128(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// 74 random bits, drawn as 10 bytes laid where they would stand in octets 6 to 15 of a UUID,
/// skipping the version nibble and the variant bits: the first two bytes give the 12 bits of
/// `rand_a` (their top nibble is dropped), the last eight the 62 bits of `rand_b` (their top
/// two bits are dropped). A replayed random UUID's octets 6–15 therefore come back unchanged.
pub(crate) fn rand74<R: RandomSource + ?Sized>(rng: &mut R) -> u128 {
    let mut b = [0u8; 10];
    rng.fill_bytes(&mut b);
    rand74_of(&b)
}

/// The 74 bits [`rand74`] makes of the 10 bytes it draws.
#[inline(always)]
pub(crate) fn rand74_of(b: &[u8; 10]) -> u128 {
    let a = u16::from_be_bytes([b[0], b[1]]) as u128 & 0xfff;
    let rest = u64::from_be_bytes([b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9]]) as u128;
    (a << 62) | (rest & mask128(62))
}

/// A clock reading translated into the layout's ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The reading in Unix nanoseconds, after the configured offset.
    pub(crate) nanos: i128,
    pub(crate) tick: u64,
    /// Ticks this reading covers (the clock's resolution).
    pub(crate) span: u64,
}

/// One issued (tick, counter) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Issued {
    pub(crate) tick: u64,
    pub(crate) counter: u128,
    /// The clock went back beyond the threshold and the state was reset to it: v1/v2/v6
    /// generators must change their clock sequence.
    pub(crate) reset: bool,
}

/// Why [`Sequencer::step`] did not issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Overflow under [`OverflowPolicy::Wait`]: the clock must first reach `until_nanos`.
    Wait {
        until_nanos: i128,
    },
    Fail(GenError),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Last {
    tick: u64,
    counter: u128,
    /// UUIDs issued at `tick`, for the overflow message.
    issued: u64,
    /// The highest clock reading seen (ticks and nanoseconds): the reference for regression.
    reading_tick: u64,
    reading_nanos: i128,
}

/// The state machine behind every per-instance time-based generator.
///
/// Invariant: each issued (tick, counter) pair is greater than the previous one, unless the
/// clock went back beyond the threshold under [`RegressionPolicy::Reset`] (then
/// [`Issued::reset`] says so).
#[derive(Debug, Clone)]
pub(crate) struct Sequencer {
    pub(crate) scale: Scale,
    pub(crate) counter: Counter,
    pub(crate) overflow: OverflowPolicy,
    pub(crate) regression: RegressionPolicy,
    pub(crate) threshold_nanos: u128,
    pub(crate) offset_nanos: i128,
    last: Option<Last>,
}

impl Sequencer {
    pub(crate) fn new(scale: Scale, counter: Counter, p: &Policies) -> Sequencer {
        Sequencer {
            scale,
            counter,
            overflow: p.overflow,
            regression: p.regression,
            threshold_nanos: p.threshold.as_nanos(),
            offset_nanos: p.offset_nanos,
            last: None,
        }
    }

    /// Reads the clock, applies the time offset and converts to ticks.
    pub(crate) fn read<C: Clock + ?Sized>(&self, clock: &C) -> Result<Reading, GenError> {
        let raw = clock.now().unix_nanos();
        let nanos = raw.saturating_add(self.offset_nanos);
        let tick = self.scale.tick_of(nanos)?;
        Ok(Reading {
            nanos,
            tick,
            span: self.scale.span(clock.resolution_nanos()),
        })
    }

    /// Drops all state: the next reading starts afresh (used after a fork).
    pub(crate) fn forget(&mut self) {
        self.last = None;
    }

    /// The last issued tick.
    pub(crate) fn last_tick(&self) -> Option<u64> {
        self.last.map(|l| l.tick)
    }

    /// The last issued counter.
    pub(crate) fn last_counter(&self) -> Option<u128> {
        self.last.map(|l| l.counter)
    }

    /// Continues after a position issued before (by this generator in an earlier run, read
    /// back from stable storage, RFC 9562 §6.3): the next pair is greater than
    /// `(tick, counter)`, as if that pair had just been issued at a clock reading of `tick`.
    /// A clock that reads earlier than `tick` is a regression like any other: within the
    /// threshold the generator counts on from `tick`, beyond it the policy applies.
    pub(crate) fn resume(&mut self, tick: u64, counter: u128) {
        self.last = Some(Last {
            tick,
            counter,
            issued: 1,
            reading_tick: tick,
            reading_nanos: self.scale.nanos_of(tick),
        });
    }

    /// Issues the next (tick, counter) pair for a reading.
    pub(crate) fn step<R: RandomSource + ?Sized>(
        &mut self,
        r: &Reading,
        rng: &mut R,
    ) -> Result<Issued, Stop> {
        let mut reset = false;
        let mut eff_tick = r.tick;
        let mut eff_nanos = r.nanos;
        if let Some(last) = self.last {
            if r.tick < last.reading_tick {
                let back = (last.reading_nanos - r.nanos).max(0) as u128;
                if back <= self.threshold_nanos {
                    // §6.2: reuse the previous timestamp and increment from there.
                    eff_tick = last.reading_tick;
                    eff_nanos = last.reading_nanos;
                } else {
                    match self.regression {
                        RegressionPolicy::Reset => {
                            self.last = None;
                            reset = true;
                        }
                        RegressionPolicy::Error => {
                            return Err(Stop::Fail(GenError {
                                detail: Detail::Regression {
                                    from_nanos: last.reading_nanos,
                                    to_nanos: r.nanos,
                                    threshold_nanos: self.threshold_nanos,
                                },
                            }))
                        }
                    }
                }
            } else {
                eff_nanos = eff_nanos.max(last.reading_nanos);
            }
        }
        let (tick, counter, issued) = match self.last {
            Some(last) if eff_tick <= last.tick => {
                if let Some(c) = self.counter.increment(last.counter, rng) {
                    (last.tick, c, last.issued + 1)
                } else if (last.tick as u128 + 1) < eff_tick as u128 + r.span as u128
                    && last.tick + 1 < self.scale.max_tick
                {
                    // A simulated finer tick within this clock reading (§6.1), never past the
                    // end of the field: beyond it the overflow policy decides (and Advance
                    // reports the time-range error).
                    (last.tick + 1, self.counter.seed(rng), 1)
                } else {
                    match self.overflow {
                        OverflowPolicy::Advance => {
                            let t = last.tick + 1;
                            if t >= self.scale.max_tick {
                                return Err(Stop::Fail(
                                    self.scale.range_error(self.scale.nanos_of(t)),
                                ));
                            }
                            (t, self.counter.seed(rng), 1)
                        }
                        OverflowPolicy::Wait => {
                            return Err(Stop::Wait {
                                until_nanos: self.scale.nanos_of(last.tick + 1),
                            })
                        }
                        OverflowPolicy::Error => {
                            let at = if self.counter.bits() > 0 {
                                self.scale.nanos_of(last.tick)
                            } else {
                                eff_nanos
                            };
                            return Err(Stop::Fail(GenError::overflow(
                                self.scale.layout,
                                at,
                                self.counter.bits(),
                                last.issued,
                                r.span,
                            )));
                        }
                    }
                }
            }
            _ => (eff_tick, self.counter.seed(rng), 1),
        };
        self.last = Some(Last {
            tick,
            counter,
            issued,
            reading_tick: eff_tick,
            reading_nanos: eff_nanos,
        });
        Ok(Issued {
            tick,
            counter,
            reset,
        })
    }

    /// Up to `max` pairs for the same reading as the previous call, when each is a plain
    /// increment of a counter that draws no randomness: exactly what `max` calls of
    /// [`step`](Self::step) would issue and record, without its general checks. Returns the
    /// tick, the first counter and how many (at least 1); the counters are `first..first + n`,
    /// all in range. `None` means: take the general path (a new reading, a random or exhausted
    /// counter, nothing issued yet). The batch loops use it to pack a run of UUIDs without
    /// stepping the state for each.
    pub(crate) fn issue_run(&mut self, r: &Reading, max: usize) -> Option<(u64, u128, usize)> {
        let bits = match self.counter {
            Counter::Fixed { bits } | Counter::Sequential { bits } => bits,
            Counter::None | Counter::Random { .. } => return None,
        };
        let last = self.last.as_mut()?;
        // `step` with this reading: no regression, effective tick and nanoseconds unchanged,
        // and the tick not past the last one, so it increments the counter.
        if r.tick != last.reading_tick || r.nanos != last.reading_nanos || r.tick > last.tick {
            return None;
        }
        let first = last.counter.checked_add(1)?;
        // Counters left before the field overflows, counting `first`.
        let room = mask128(bits).checked_sub(last.counter)?;
        let n = (max as u128).min(room);
        if n == 0 {
            return None;
        }
        last.counter += n;
        last.issued = last.issued.saturating_add(n as u64);
        Some((last.tick, first, n as usize))
    }

    /// Issues the next pair for `reading`, waiting for the clock (and re-reading it into
    /// `reading`) under [`OverflowPolicy::Wait`].
    pub(crate) fn next<C: Clock + ?Sized, R: RandomSource + ?Sized>(
        &mut self,
        clock: &C,
        reading: &mut Reading,
        rng: &mut R,
    ) -> Result<Issued, GenError> {
        let mut waiter: Option<Waiter> = None;
        loop {
            match self.step(reading, rng) {
                Ok(i) => return Ok(i),
                Err(Stop::Fail(e)) => return Err(e),
                Err(Stop::Wait { until_nanos }) => {
                    let deficit = until_nanos - reading.nanos;
                    let w = waiter.get_or_insert_with(|| Waiter::new(deficit));
                    w.pause(deficit, until_nanos)?;
                    *reading = self.read(clock)?;
                }
            }
        }
    }
}

/// Waits for a clock under [`OverflowPolicy::Wait`], with a real-time budget so that a clock
/// that does not advance (a frozen test clock, a broken system clock) ends in an error.
struct Waiter {
    start: crate::sys::Instant,
    budget: Duration,
}

impl Waiter {
    fn new(deficit_nanos: i128) -> Waiter {
        let deficit = Duration::from_nanos(deficit_nanos.clamp(0, u64::MAX as i128) as u64);
        Waiter {
            start: crate::sys::Instant::now(),
            budget: deficit.saturating_add(Duration::from_secs(1)),
        }
    }

    fn pause(&self, deficit_nanos: i128, until_nanos: i128) -> Result<(), GenError> {
        let waited = self.start.elapsed();
        if waited > self.budget {
            return Err(GenError {
                detail: Detail::Stalled {
                    waited,
                    until_nanos,
                },
            });
        }
        // Sleep through long gaps in short slices (the clock may be a test clock that moves
        // at its own pace), and only yield for short ones.
        if deficit_nanos > 2_000_000 {
            let nap = (deficit_nanos - 1_000_000).min(10_000_000) as u64;
            crate::sys::sleep(Duration::from_nanos(nap));
        } else {
            std::thread::yield_now();
        }
        Ok(())
    }
}

/// The policy settings every time-based generator builder carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policies {
    pub(crate) overflow: OverflowPolicy,
    pub(crate) regression: RegressionPolicy,
    pub(crate) threshold: Duration,
    pub(crate) offset_nanos: i128,
}

impl Policies {
    pub(crate) const DEFAULT: Policies = Policies {
        overflow: OverflowPolicy::Advance,
        regression: RegressionPolicy::Reset,
        threshold: DEFAULT_REGRESSION_THRESHOLD,
        offset_nanos: 0,
    };
}

/// The builder methods every time-based generator builder shares.
macro_rules! policy_setters {
    () => {
        /// Sets what happens when a counter or a clock reading's ticks run out (default
        /// [`OverflowPolicy::Advance`](crate::gen::OverflowPolicy::Advance)).
        ///
        /// ```
        /// use uuidkit::gen::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
        /// use uuidkit::Timestamp;
        /// // Shown with v1 generators; every time-based builder has this setter. A frozen clock of
        /// // 1-ns resolution gives one 100-ns v1 tick per reading.
        /// let clock = FixedClock::new(Timestamp::from_gregorian_ticks(1_000));
        /// let mut ahead = GregorianBuilder::new()
        ///     .overflow(OverflowPolicy::Advance)
        ///     .build_v1(clock, ThreadRng)?;
        /// ahead.next()?;
        /// assert_eq!(ahead.next()?.gregorian_ticks(), Some(1_001)); // one tick ahead of the clock
        /// let mut strict = GregorianBuilder::new()
        ///     .overflow(OverflowPolicy::Error)
        ///     .build_v1(clock, ThreadRng)?;
        /// strict.next()?;
        /// assert!(strict.next().unwrap_err().is_overflow());
        /// # Ok::<(), uuidkit::gen::GenError>(())
        /// ```
        pub const fn overflow(mut self, policy: $crate::gen::OverflowPolicy) -> Self {
            self.policies.overflow = policy;
            self
        }

        /// Sets what happens when the clock goes back by more than the regression threshold
        /// (default [`RegressionPolicy::Reset`](crate::gen::RegressionPolicy::Reset)).
        ///
        /// ```
        /// use uuidkit::gen::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
        /// use uuidkit::Timestamp;
        /// // Shown with v7 generators; every time-based builder has this setter.
        /// let clock = StepClock::new(Timestamp::from_unix_millis(100_000));
        /// let reset = V7Builder::new().regression(RegressionPolicy::Reset);
        /// let (mut follow, mut refuse) = (
        ///     reset.build(&clock, ThreadRng)?,
        ///     reset.regression(RegressionPolicy::Error).build(&clock, ThreadRng)?,
        /// );
        /// let a = follow.next()?;
        /// refuse.next()?;
        /// clock.step_back(60_000_000_000); // a minute: beyond the 10-s threshold
        /// let b = follow.next()?;
        /// assert_eq!(b.unix_ts_ms(), Some(40_000)); // follows the clock back,
        /// assert!(b < a); // and so breaks the order
        /// assert!(refuse.next().unwrap_err().is_clock_regression());
        /// # Ok::<(), uuidkit::gen::GenError>(())
        /// ```
        pub const fn regression(mut self, policy: $crate::gen::RegressionPolicy) -> Self {
            self.policies.regression = policy;
            self
        }

        /// Sets how far the clock may go back before the regression policy applies; within it
        /// the last timestamp is reused (default 10 s, RFC 9562 §6.2).
        ///
        /// ```
        /// use std::time::Duration;
        /// use uuidkit::gen::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
        /// use uuidkit::Timestamp;
        /// // Shown with a v7 generator; every time-based builder has this setter.
        /// let clock = StepClock::new(Timestamp::from_unix_millis(100_000));
        /// let mut gen = V7Builder::new()
        ///     .regression(RegressionPolicy::Error)
        ///     .regression_threshold(Duration::from_millis(500))
        ///     .build(&clock, ThreadRng)?;
        /// let a = gen.next()?;
        /// clock.step_back(400_000_000); // 0.4 s: within the threshold, the last millisecond is reused
        /// let b = gen.next()?;
        /// assert!(b > a && b.unix_ts_ms() == Some(100_000));
        /// clock.step_back(200_000_000); // now 0.6 s behind the highest reading
        /// assert!(gen.next().unwrap_err().is_clock_regression());
        /// # Ok::<(), uuidkit::gen::GenError>(())
        /// ```
        pub const fn regression_threshold(mut self, threshold: std::time::Duration) -> Self {
            self.policies.threshold = threshold;
            self
        }

        /// Shifts every embedded time by a fixed signed number of nanoseconds, for those who do
        /// not want UUIDs to reveal their creation time (RFC 9562 §6.1 "Altering, Fuzzing, or
        /// Smearing"). Readings shifted out of the layout's range are errors.
        ///
        /// ```
        /// use uuidkit::gen::{FixedClock, GregorianBuilder, ThreadRng, V7Builder};
        /// use uuidkit::Timestamp;
        /// // Shown with v6 and v7 generators; every time-based builder has this setter.
        /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
        /// let day: i128 = 86_400_000_000_000;
        /// let mut gen = GregorianBuilder::new().time_offset_nanos(-day).build_v6(clock, ThreadRng)?;
        /// // Source: RFC 9562 Appendix A.5 (this time is 0x1EC9414C232AB00 ticks of 100 ns).
        /// assert_eq!(gen.next()?.gregorian_ticks(), Some(0x1EC9414C232AB00 - 864_000_000_000));
        /// let before_1970 = -1_645_557_742_001 * 1_000_000;
        /// let mut gen = V7Builder::new().time_offset_nanos(before_1970).build(clock, ThreadRng)?;
        /// assert!(gen.next().unwrap_err().is_time_range()); // no silent wrap
        /// # Ok::<(), uuidkit::gen::GenError>(())
        /// ```
        pub const fn time_offset_nanos(mut self, nanos: i128) -> Self {
            self.policies.offset_nanos = nanos;
            self
        }
    };
}
pub(crate) use policy_setters;

#[cfg(test)]
mod tests {
    use super::*;

    struct Zero;
    impl RandomSource for Zero {
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            dest.fill(0)
        }
    }

    const MS: Scale = Scale {
        layout: "test",
        epoch_nanos: 0,
        num: 1,
        den: 1_000_000,
        max_tick: 1 << 48,
    };

    fn reading(nanos: i128, span: u64) -> Reading {
        Reading {
            nanos,
            tick: MS.tick_of(nanos).unwrap(),
            span,
        }
    }

    #[test]
    fn scale_round_trips_tick_boundaries() {
        let s = Scale {
            layout: "t",
            epoch_nanos: 0,
            num: 4096,
            den: 1_000_000,
            max_tick: 1 << 60,
        };
        for tick in [0u64, 1, 4095, 4096, 123_456_789] {
            let n = s.nanos_of(tick);
            assert_eq!(s.tick_of(n).unwrap(), tick);
            if tick > 0 {
                assert_eq!(s.tick_of(n - 1).unwrap(), tick - 1);
            } else {
                assert!(s.tick_of(n - 1).unwrap_err().is_time_range());
            }
        }
        assert_eq!(s.span(1_000_000), 4096);
        assert_eq!(s.span(1), 1);
    }

    #[test]
    fn fixed_counter_exhausts_then_errors() {
        let p = Policies {
            overflow: OverflowPolicy::Error,
            ..Policies::DEFAULT
        };
        let mut seq = Sequencer::new(MS, Counter::Fixed { bits: 4 }, &p);
        let r = reading(5_000_000, 1);
        for want in 0..16u128 {
            let i = seq.step(&r, &mut Zero).unwrap();
            assert_eq!((i.tick, i.counter), (5, want));
        }
        match seq.step(&r, &mut Zero) {
            Err(Stop::Fail(e)) => assert!(e.is_overflow(), "{e}"),
            other => panic!("expected overflow, got {other:?}"),
        }
    }

    #[test]
    fn regression_within_threshold_reuses_the_last_tick() {
        let mut seq = Sequencer::new(MS, Counter::Fixed { bits: 8 }, &Policies::DEFAULT);
        let a = seq.step(&reading(9_000_000_000, 1), &mut Zero).unwrap();
        let b = seq.step(&reading(1_000_000_000, 1), &mut Zero).unwrap();
        assert_eq!(b.tick, a.tick);
        assert_eq!(b.counter, a.counter + 1);
        assert!(!b.reset);
    }
}

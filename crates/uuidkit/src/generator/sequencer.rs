//! The sequencer: what the time-based generators do when time misbehaves.
//!
//! RFC 9562 §6.2 leaves two situations to the implementation: a counter (or, for v1/v6, the
//! ticks of one clock reading) running out within one timestamp ("Counter Rollover Handling"),
//! and a clock that steps backwards ("Monotonic Error Checking"). Both are policies the caller
//! chooses here ([`OverflowPolicy`], [`RegressionPolicy`]) rather than hidden behaviour, and
//! every failure is a [`GenError`].
//!
//! The crate-private `Sequencer` is the state machine that all per-instance time-based
//! generators (v1, v2, v6, v7, v8) share: it turns clock readings into strictly increasing
//! (timestamp tick, counter) pairs and applies the policies (only
//! [`RegressionPolicy::Reset`] breaks the increase, by design, when it follows the clock back).

use std::time::Duration;

use super::bits::{mask128, mask64, rand74};
use super::error::GenError;
#[cfg(doc)]
use super::error::GenErrorKind;
use super::source::{Clock, RandomSource};

/// What a generator does when it has used every value one timestamp allows: the counter is
/// exhausted (v7, v8) or, for v1/v6, every 100-ns tick of the current clock reading is taken
/// (RFC 9562 §6.1 "Error Handling", §6.2 "Counter Rollover Handling").
///
/// Whatever the policy, an overflow never makes a generator return a duplicate or a UUID that
/// sorts before the previous one (a step back of the clock is the [`RegressionPolicy`]'s
/// matter).
///
/// ```
/// use uuidkit::generator::OverflowPolicy;
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
/// regression threshold (RFC 9562 §6.2 "Monotonic Error Checking": "ensure that the next UUID
/// generated is greater than the previous, or ... at least report an appropriate error").
///
/// A step back within the threshold (default [`DEFAULT_REGRESSION_THRESHOLD`], 10 s) never
/// reaches the policy: the generator keeps using its last timestamp and increments from there,
/// so order is kept. Beyond it:
///
/// | policy | the next UUID | the caller sees |
/// |---|---|---|
/// | [`Continue`](Self::Continue) (default) | greater than the previous one | nothing to see: order and uniqueness are kept |
/// | [`Error`](Self::Error) | none: an error | [`GenErrorKind::ClockRegression`] |
/// | [`Reset`](Self::Reset) | at the clock's time, **less than** the previous one | the generator's `resets()` count and `last_reset()` event |
///
/// ```
/// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V7Generator};
/// use uuidkit::Timestamp;
/// assert_eq!(RegressionPolicy::default(), RegressionPolicy::Continue);
/// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
/// let mut g = V7Generator::new(&clock, ThreadRng);
/// let a = g.next()?;
/// clock.step_back(3_600_000_000_000); // an hour back
/// let b = g.next()?;
/// assert!(b > a && b.unix_ts_ms() == Some(1645557742000)); // the last millisecond, counting on
/// assert_eq!(g.resets(), 0); // nothing to report
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RegressionPolicy {
    /// Keep the last timestamp and count on from it until the clock catches up (the default),
    /// as within the threshold: every UUID is greater than the previous one, whatever the
    /// clock does. When the counter (or, for v1, v6 and the time-based v8, the ticks of that
    /// timestamp) runs out meanwhile, the [`OverflowPolicy`] decides: `Advance` moves the
    /// timestamp on, ahead of the clock; `Wait` waits for the clock to come back (as long as
    /// the step back, plus one second, before [`GenErrorKind::ClockStalled`]); `Error`
    /// reports [`GenErrorKind::Overflow`] until the clock has come back.
    #[default]
    Continue,
    /// Follow the clock back: the next UUID carries the clock's time and so **sorts before the
    /// previous ones**. The generator counts each such reset and keeps the last one
    /// ([`ClockReset`]), so the caller can see what happened (`resets()` and `last_reset()` on
    /// every time-based generator). v1 and v6 generators move to the next clock sequence
    /// (RFC 9562 §5.1), so that the repeated timestamps do not repeat a UUID for 16,384 resets;
    /// v7 and v8 rely on their fresh random bits (a v8 layout without random bits can then
    /// repeat a UUID). v2 generators never follow the clock back, whatever the policy: with a
    /// time step of about 7 minutes, any step back leads into a time step they have issued in
    /// (or, once the clock moves on, to one), where their 6-bit clock sequence has counted;
    /// under `Reset` they do as under `Continue`.
    Reset,
    /// Return a [`GenErrorKind::ClockRegression`] error until the clock is back within the
    /// threshold of its highest reading; nothing is issued meanwhile.
    Error,
}

/// A step back of the clock that a generator followed under [`RegressionPolicy::Reset`]: the
/// event every time-based generator reports through `last_reset()` (and counts in
/// `resets()`).
///
/// ```
/// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
/// use uuidkit::Timestamp;
/// let clock = StepClock::new(Timestamp::from_unix_millis(100_000));
/// let mut g = V7Builder::new()
///     .regression(RegressionPolicy::Reset)
///     .build(&clock, ThreadRng)?;
/// let a = g.next()?;
/// clock.step_back(60_000_000_000); // a minute: beyond the 10-s threshold
/// let b = g.next()?;
/// assert!(b < a); // Reset followed the clock back...
/// assert_eq!(g.resets(), 1); // ...and says so
/// let reset = g.last_reset().unwrap();
/// assert_eq!(reset.from_unix_nanos(), 100_000_000_000); // 100 s after 1970
/// assert_eq!(reset.to_unix_nanos(), 40_000_000_000);
/// assert_eq!(reset.back_nanos(), 60_000_000_000);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockReset {
    from_nanos: i128,
    to_nanos: i128,
}

impl ClockReset {
    /// The highest clock reading before the step back, in nanoseconds since the Unix epoch
    /// (after the generator's time offset).
    ///
    /// ```
    /// # use uuidkit::generator::{RegressionPolicy, ReplayClock, ThreadRng, V7Builder};
    /// # use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis;
    /// let clock = ReplayClock::new([t(50_000), t(20_000)]);
    /// let mut g = V7Builder::new().regression(RegressionPolicy::Reset).build(clock, ThreadRng)?;
    /// g.next()?;
    /// g.next()?;
    /// assert_eq!(g.last_reset().map(|r| r.from_unix_nanos()), Some(50_000_000_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn from_unix_nanos(&self) -> i128 {
        self.from_nanos
    }

    /// The reading the generator followed back to, in nanoseconds since the Unix epoch.
    ///
    /// ```
    /// # use uuidkit::generator::{RegressionPolicy, ReplayClock, ThreadRng, V7Builder};
    /// # use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis;
    /// let clock = ReplayClock::new([t(50_000), t(20_000)]);
    /// let mut g = V7Builder::new().regression(RegressionPolicy::Reset).build(clock, ThreadRng)?;
    /// g.next()?;
    /// let u = g.next()?;
    /// assert_eq!(g.last_reset().map(|r| r.to_unix_nanos()), Some(20_000_000_000));
    /// assert_eq!(u.unix_ts_ms(), Some(20_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn to_unix_nanos(&self) -> i128 {
        self.to_nanos
    }

    /// How far the clock went back, in nanoseconds.
    ///
    /// ```
    /// # use uuidkit::generator::{RegressionPolicy, ReplayClock, ThreadRng, V7Builder};
    /// # use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis;
    /// let clock = ReplayClock::new([t(50_000), t(20_000)]);
    /// let mut g = V7Builder::new().regression(RegressionPolicy::Reset).build(clock, ThreadRng)?;
    /// g.next()?;
    /// g.next()?;
    /// assert_eq!(g.last_reset().map(|r| r.back_nanos()), Some(30_000_000_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn back_nanos(&self) -> u128 {
        self.from_nanos.abs_diff(self.to_nanos)
    }
}

/// The default regression threshold: 10 seconds.
///
/// ```
/// assert_eq!(uuidkit::generator::DEFAULT_REGRESSION_THRESHOLD.as_secs(), 10);
/// ```
pub const DEFAULT_REGRESSION_THRESHOLD: Duration = Duration::from_secs(10);

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
    /// The clock went back beyond the threshold and the state was reset to it: v1/v6
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
    /// No more counter values at `tick`: the next pair takes a later tick (set in a forked
    /// child, which must not continue its parent's counter).
    exhausted: bool,
}

/// The state machine behind every per-instance time-based generator.
///
/// Invariant: each issued (tick, counter) pair is greater than the previous one, unless the
/// clock went back beyond the threshold under [`RegressionPolicy::Reset`] (then
/// [`Issued::reset`] says so, and `resets`/`last_reset` record it).
#[derive(Debug, Clone)]
pub(crate) struct Sequencer {
    pub(crate) scale: Scale,
    pub(crate) counter: Counter,
    pub(crate) overflow: OverflowPolicy,
    pub(crate) regression: RegressionPolicy,
    pub(crate) threshold_nanos: u128,
    pub(crate) offset_nanos: i128,
    last: Option<Last>,
    resets: u64,
    last_reset: Option<ClockReset>,
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
            resets: 0,
            last_reset: None,
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

    /// In a forked child: the counter of the last tick must not go on (the parent goes on
    /// with it), so the next pair takes a later tick with a fresh counter seed; the order
    /// after the last pair is kept.
    pub(crate) fn renew(&mut self) {
        if let Some(last) = self.last.as_mut() {
            last.exhausted = true;
        }
    }

    /// How many times the generator followed the clock back under [`RegressionPolicy::Reset`].
    pub(crate) fn resets(&self) -> u64 {
        self.resets
    }

    /// The last step back the generator followed under [`RegressionPolicy::Reset`].
    pub(crate) fn last_reset(&self) -> Option<ClockReset> {
        self.last_reset
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
            exhausted: false,
        });
    }

    /// `n` (at least 1) consecutive ticks at once, for layouts without a counter: the first
    /// is what [`step`](Self::step) issues for `r`, the others follow it one by one, and the
    /// last is recorded as issued. Under [`OverflowPolicy::Advance`] they may run ahead of the
    /// clock; under the other policies a block beyond the reading's ticks is refused with the
    /// overflow error, and then (as on every error) nothing is taken.
    pub(crate) fn step_ticks<R: RandomSource + ?Sized>(
        &mut self,
        r: &Reading,
        n: u64,
        rng: &mut R,
    ) -> Result<Issued, Stop> {
        let before = (self.last, self.resets, self.last_reset);
        let first = self.step(r, rng)?;
        let extra = n.saturating_sub(1);
        let Some(last) = self.last.as_mut() else {
            return Ok(first);
        };
        let end = first.tick as u128 + extra as u128;
        let fail = if end >= self.scale.max_tick as u128 {
            Some(
                self.scale
                    .range_error(self.scale.nanos_of(self.scale.max_tick)),
            )
        } else if self.overflow != OverflowPolicy::Advance
            && end >= last.reading_tick as u128 + r.span as u128
        {
            Some(GenError::overflow(
                self.scale.layout,
                last.reading_nanos,
                self.counter.bits(),
                n,
                r.span,
            ))
        } else {
            None
        };
        if let Some(e) = fail {
            (self.last, self.resets, self.last_reset) = before;
            return Err(Stop::Fail(e));
        }
        last.tick = end as u64;
        last.issued = last.issued.saturating_add(extra);
        Ok(first)
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
                if back <= self.threshold_nanos || self.regression == RegressionPolicy::Continue {
                    // §6.2: reuse the previous timestamp and increment from there.
                    eff_tick = last.reading_tick;
                    eff_nanos = last.reading_nanos;
                } else {
                    match self.regression {
                        RegressionPolicy::Continue | RegressionPolicy::Reset => {
                            self.last = None;
                            reset = true;
                            self.resets += 1;
                            self.last_reset = Some(ClockReset {
                                from_nanos: last.reading_nanos,
                                to_nanos: r.nanos,
                            });
                        }
                        RegressionPolicy::Error => {
                            return Err(Stop::Fail(GenError::regression(
                                last.reading_nanos,
                                r.nanos,
                                self.threshold_nanos,
                            )))
                        }
                    }
                }
            } else {
                eff_nanos = eff_nanos.max(last.reading_nanos);
            }
        }
        let (tick, counter, issued) = match self.last {
            Some(last) if eff_tick <= last.tick => {
                let more = if last.exhausted {
                    None
                } else {
                    self.counter.increment(last.counter, rng)
                };
                if let Some(c) = more {
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
            exhausted: false,
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
        let last = self.last.as_mut().filter(|l| !l.exhausted)?;
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
        self.waiting(clock, reading, |s, r| s.step(r, rng))
    }
}

impl Sequencer {
    /// [`step_ticks`](Self::step_ticks) for `reading`, waiting for the clock (and re-reading
    /// it into `reading`) under [`OverflowPolicy::Wait`] as [`next`](Self::next) does.
    pub(crate) fn next_ticks<C: Clock + ?Sized, R: RandomSource + ?Sized>(
        &mut self,
        clock: &C,
        reading: &mut Reading,
        n: u64,
        rng: &mut R,
    ) -> Result<Issued, GenError> {
        self.waiting(clock, reading, |s, r| s.step_ticks(r, n, rng))
    }

    /// `step` (a call of [`step`](Self::step) or [`step_ticks`](Self::step_ticks)) for
    /// `reading` until it issues or fails; each time it asks to wait, waits for the clock and
    /// re-reads it into `reading`.
    #[inline(always)]
    fn waiting<C: Clock + ?Sized>(
        &mut self,
        clock: &C,
        reading: &mut Reading,
        mut step: impl FnMut(&mut Sequencer, &Reading) -> Result<Issued, Stop>,
    ) -> Result<Issued, GenError> {
        let mut waiter: Option<Waiter> = None;
        loop {
            match step(self, reading) {
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
            return Err(GenError::stalled(waited, until_nanos));
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
        regression: RegressionPolicy::Continue,
        threshold: DEFAULT_REGRESSION_THRESHOLD,
        offset_nanos: 0,
    };
}

/// The builder methods every time-based generator builder shares.
macro_rules! policy_setters {
    () => {
        /// Sets what happens when a counter or a clock reading's ticks run out (default
        /// [`OverflowPolicy::Advance`](crate::generator::OverflowPolicy::Advance)).
        ///
        /// ```
        /// use uuidkit::generator::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
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
        /// # Ok::<(), uuidkit::generator::GenError>(())
        /// ```
        pub const fn overflow(mut self, policy: $crate::generator::OverflowPolicy) -> Self {
            self.policies.overflow = policy;
            self
        }

        /// Sets what happens when the clock goes back by more than the regression threshold
        /// (default [`RegressionPolicy::Continue`](crate::generator::RegressionPolicy::Continue):
        /// count on from the last timestamp).
        ///
        /// ```
        /// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
        /// use uuidkit::Timestamp;
        /// // Shown with v7 generators; every time-based builder has this setter.
        /// let clock = StepClock::new(Timestamp::from_unix_millis(100_000));
        /// let policy = |p| V7Builder::new().regression(p).build(&clock, ThreadRng);
        /// let mut keep = policy(RegressionPolicy::Continue)?;
        /// let mut follow = policy(RegressionPolicy::Reset)?;
        /// let mut refuse = policy(RegressionPolicy::Error)?;
        /// let (k, f, _) = (keep.next()?, follow.next()?, refuse.next()?);
        /// clock.step_back(60_000_000_000); // a minute: beyond the 10-s threshold
        /// let k2 = keep.next()?;
        /// assert!(k2 > k && k2.unix_ts_ms() == Some(100_000)); // counts on,
        /// let f2 = follow.next()?;
        /// assert_eq!(f2.unix_ts_ms(), Some(40_000)); // follows the clock back,
        /// assert!(f2 < f && follow.resets() == 1); // breaks the order and says so,
        /// assert!(refuse.next().unwrap_err().is_clock_regression()); // or refuses
        /// # Ok::<(), uuidkit::generator::GenError>(())
        /// ```
        pub const fn regression(mut self, policy: $crate::generator::RegressionPolicy) -> Self {
            self.policies.regression = policy;
            self
        }

        /// Sets how far the clock may go back before the regression policy applies; within it
        /// the last timestamp is reused (default 10 s, RFC 9562 §6.2).
        ///
        /// ```
        /// use std::time::Duration;
        /// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
        /// use uuidkit::Timestamp;
        /// // Shown with a v7 generator; every time-based builder has this setter.
        /// let clock = StepClock::new(Timestamp::from_unix_millis(100_000));
        /// let mut g = V7Builder::new()
        ///     .regression(RegressionPolicy::Error)
        ///     .regression_threshold(Duration::from_millis(500))
        ///     .build(&clock, ThreadRng)?;
        /// let a = g.next()?;
        /// clock.step_back(400_000_000); // 0.4 s: within the threshold, the last millisecond is reused
        /// let b = g.next()?;
        /// assert!(b > a && b.unix_ts_ms() == Some(100_000));
        /// clock.step_back(200_000_000); // now 0.6 s behind the highest reading
        /// assert!(g.next().unwrap_err().is_clock_regression());
        /// # Ok::<(), uuidkit::generator::GenError>(())
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
        /// use uuidkit::generator::{FixedClock, GregorianBuilder, ThreadRng, V7Builder};
        /// use uuidkit::Timestamp;
        /// // Shown with v6 and v7 generators; every time-based builder has this setter.
        /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
        /// let day: i128 = 86_400_000_000_000;
        /// let mut g = GregorianBuilder::new().time_offset_nanos(-day).build_v6(clock, ThreadRng)?;
        /// // Source: RFC 9562 Appendix A.5 (this time is 0x1EC9414C232AB00 ticks of 100 ns).
        /// assert_eq!(g.next()?.gregorian_ticks(), Some(0x1EC9414C232AB00 - 864_000_000_000));
        /// let before_1970 = -1_645_557_742_001 * 1_000_000;
        /// let mut g = V7Builder::new().time_offset_nanos(before_1970).build(clock, ThreadRng)?;
        /// assert!(g.next().unwrap_err().is_time_range()); // no silent wrap
        /// # Ok::<(), uuidkit::generator::GenError>(())
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

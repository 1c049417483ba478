//! Version 7 generator (RFC 9562 §5.7): 48-bit Unix milliseconds, then `rand_a` (12 bits) and
//! `rand_b` (62 bits), with each of the three monotonicity methods of §6.2:
//!
//! | [`V7Method`] | bits after the timestamp |
//! |---|---|
//! | `Counter { bits }` (Method 1, default 42 bits) | counter (12–42 bits, in `rand_a` then the top of `rand_b`), then random per UUID |
//! | `MonotonicRandom { increment_bits }` (Method 2) | 74 random bits, incremented by a random 1..=2^increment_bits within a millisecond |
//! | `SubMillis { fraction_bits, counter_bits }` (Method 3) | the fraction of the millisecond scaled to 2^fraction_bits (1–12 bits), then an optional counter (0 for none, or 12–42 bits), then random |
//!
//! A Method 1 counter is seeded randomly at each new millisecond with its top bit clear (the
//! rollover guard of §6.2), so at least 2^(bits−1) UUIDs fit in every millisecond before the
//! [`OverflowPolicy`](super::OverflowPolicy) applies. A Method 2 counter is seeded with 74
//! random bits. A Method 3 counter is seeded like a Method 1 counter at every new fraction
//! tick.
//!
//! The module also reads the time of the 2021 draft's UUIDv7 layout:
//! [`Uuid::draft_v7_timestamp`].

use super::bits::{mask128, mask64, rand74, rand74_of};
use super::clock::SystemClock;
use super::driver::Driver;
use super::error::GenError;
use super::rng::ThreadRng;
use super::sequencer::{policy_setters, ClockReset, Counter, Policies, Scale, Sequencer};
use super::source::{Clock, RandomSource};
use crate::{Timestamp, Uuid, Variant};

/// Which RFC 9562 §6.2 method a v7 generator uses to stay monotonic within a millisecond.
///
/// ```
/// use uuidkit::generator::V7Method;
/// assert_eq!(V7Method::default(), V7Method::Counter { bits: 42 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum V7Method {
    /// Method 1, fixed bit-length dedicated counter of `bits` bits (12 to 42) right after the
    /// timestamp; the remaining `74 − bits` bits are random for every UUID.
    Counter {
        /// Counter width, 12 to 42.
        bits: u8,
    },
    /// Method 2, monotonic random: all 74 bits are random at each new millisecond and then
    /// incremented by a random amount from 1 to 2^`increment_bits` for each UUID.
    MonotonicRandom {
        /// Width of the random increment, 1 to 64 (smaller: more UUIDs per millisecond;
        /// larger: harder to guess the next one).
        increment_bits: u8,
    },
    /// Method 3, increased clock precision: the fraction of the millisecond, scaled to
    /// 2^`fraction_bits` and rounded down, follows the timestamp; then a counter of
    /// `counter_bits` (0 for none), then random bits.
    SubMillis {
        /// Width of the fraction, 1 to 12.
        fraction_bits: u8,
        /// Width of the counter after it: 0 (none) or 12 to 42 (RFC 9562 §6.2: "the counter
        /// SHOULD be at least 12 bits but no longer than 42 bits").
        counter_bits: u8,
    },
}

impl Default for V7Method {
    fn default() -> Self {
        V7Method::Counter { bits: 42 }
    }
}

/// What a Method 3 counter may be, in the words of RFC 9562 §6.2.
const METHOD3_COUNTER_RULE: &str = "0 (no counter) or 12 to 42 (RFC 9562 §6.2: \"the counter \
     SHOULD be at least 12 bits but no longer than 42 bits\")";

/// The default Method 2 increment width.
const DEFAULT_INCREMENT_BITS: u8 = 32;

impl V7Method {
    /// Method 2 with the default increment width (32 bits).
    ///
    /// ```
    /// use uuidkit::generator::{ThreadRng, SystemClock, V7Builder, V7Method};
    /// let mut g = V7Builder::new().method(V7Method::monotonic_random()).build(SystemClock, ThreadRng)?;
    /// assert!(g.next()? < g.next()?);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn monotonic_random() -> V7Method {
        V7Method::MonotonicRandom {
            increment_bits: DEFAULT_INCREMENT_BITS,
        }
    }
}

/// The validated layout of the 74 bits after the timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    frac_bits: u32,
    counter: Counter,
    /// Random bits after the counter (0 for Method 2, whose counter is all 74 bits).
    random_bits: u32,
}

impl Layout {
    fn of(method: V7Method) -> Result<Layout, GenError> {
        let width = |what, v: u8, min, max| {
            GenError::check_range(what, v.into(), " bits", min, max).map(|()| u32::from(v))
        };
        Ok(match method {
            V7Method::Counter { bits } => {
                let bits = width("v7 counter width", bits, 12, 42)?;
                Layout {
                    frac_bits: 0,
                    counter: Counter::Fixed { bits },
                    random_bits: 74 - bits,
                }
            }
            V7Method::MonotonicRandom { increment_bits } => {
                let inc_bits = width("v7 monotonic random increment width", increment_bits, 1, 64)?;
                Layout {
                    frac_bits: 0,
                    counter: Counter::Random { bits: 74, inc_bits },
                    random_bits: 0,
                }
            }
            V7Method::SubMillis {
                fraction_bits,
                counter_bits,
            } => {
                let f = width("v7 sub-millisecond fraction width", fraction_bits, 1, 12)?;
                let c = u32::from(counter_bits);
                if c != 0 && !(12..=42).contains(&c) {
                    return Err(GenError::config_rule(
                        "v7 Method 3 counter width",
                        c.into(),
                        " bits",
                        METHOD3_COUNTER_RULE,
                    ));
                }
                Layout {
                    frac_bits: f,
                    counter: if c == 0 {
                        Counter::None
                    } else {
                        Counter::Fixed { bits: c }
                    },
                    random_bits: 74 - f - c,
                }
            }
        })
    }

    fn scale(&self) -> Scale {
        Scale {
            layout: "UUIDv7 48-bit millisecond timestamp",
            epoch_nanos: 0,
            num: 1 << self.frac_bits,
            den: 1_000_000,
            max_tick: 1 << (48 + self.frac_bits),
        }
    }

    fn make<R: RandomSource + ?Sized>(&self, tick: u64, counter: u128, rng: &mut R) -> Uuid {
        let ms = tick >> self.frac_bits;
        let frac = (tick as u128) & mask128(self.frac_bits);
        let bits = if self.random_bits == 0 {
            counter
        } else {
            let random = rand74(rng) & mask128(self.random_bits);
            (frac << (74 - self.frac_bits)) | (counter << self.random_bits) | random
        };
        Uuid::from_v7_parts(ms, (bits >> 62) as u16, bits as u64)
    }

    /// [`make`](Self::make) for the counters `first..first + slots.len()` at one tick: the
    /// same UUIDs from the same random bytes (10 per UUID, as `rand74` draws them), but drawn
    /// in one request per chunk and packed in a loop with nothing else in it. Only layouts
    /// with random bits get here: the Method 2 counter (all 74 bits) never issues runs.
    fn make_run<R: RandomSource + ?Sized>(
        &self,
        tick: u64,
        first: u128,
        slots: &mut [Uuid],
        rng: &mut R,
    ) {
        const CHUNK: usize = 64;
        let ms = tick >> self.frac_bits;
        let frac = ((tick as u128) & mask128(self.frac_bits)) << (74 - self.frac_bits);
        // The fraction and the counter, in place: the counter steps by one, so this steps by
        // one unit of its position (no variable 128-bit shift per UUID). The three fields fill
        // at most 74 bits, so nothing carries out.
        let mut high = frac | (first << self.random_bits);
        let step = 1u128 << self.random_bits;
        let random_mask = mask128(self.random_bits);
        let mut bytes = [0u8; CHUNK * 10];
        for chunk in slots.chunks_mut(CHUNK) {
            let Some(drawn) = bytes.get_mut(..chunk.len() * 10) else {
                break;
            };
            rng.fill_bytes(drawn);
            for (slot, b) in chunk.iter_mut().zip(drawn.chunks_exact(10)) {
                let random = b.first_chunk::<10>().map_or(0, rand74_of) & random_mask;
                let bits = high | random;
                *slot = Uuid::from_v7_parts(ms, (bits >> 62) as u16, bits as u64);
                high += step;
            }
        }
    }
}

/// Configures a [`V7Generator`]: the §6.2 method, the policies and a time offset.
///
/// ```
/// use std::time::Duration;
/// use uuidkit::generator::{OverflowPolicy, RegressionPolicy, ThreadRng, V7Builder, V7Method};
/// use uuidkit::generator::FixedClock;
/// use uuidkit::Timestamp;
///
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let mut g = V7Builder::new()
///     .method(V7Method::SubMillis { fraction_bits: 12, counter_bits: 14 })
///     .overflow(OverflowPolicy::Error)
///     .regression(RegressionPolicy::Error)
///     .regression_threshold(Duration::from_secs(1))
///     .time_offset_nanos(-3_600_000_000_000) // embed the time an hour early
///     .build(clock, ThreadRng)?;
/// let u = g.next()?;
/// assert_eq!(u.unix_ts_ms(), Some(1645557742000 - 3_600_000));
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct V7Builder {
    method: V7Method,
    policies: Policies,
}

impl Default for V7Builder {
    fn default() -> Self {
        V7Builder::new()
    }
}

impl V7Builder {
    /// Method 1 with a 42-bit counter, default policies, no time offset.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V7Builder};
    /// use uuidkit::Timestamp;
    /// assert_eq!(V7Builder::new(), V7Builder::default());
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1));
    /// let mut g = V7Builder::new().build(clock, ThreadRng)?;
    /// let u = g.next()?;
    /// let counter = g.last_counter().unwrap_or(u128::MAX);
    /// assert!(counter < 1 << 41); // seeded with its top bit clear (RFC 9562 §6.2)
    /// // 42 counter bits: the 12 of rand_a, then the top 30 of rand_b.
    /// assert_eq!(u.rand_a().map(u128::from), Some(counter >> 30));
    /// assert_eq!(u.rand_b().map(|b| u128::from(b >> 32)), Some(counter & ((1 << 30) - 1)));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn new() -> V7Builder {
        V7Builder {
            method: V7Method::Counter { bits: 42 },
            policies: Policies::DEFAULT,
        }
    }

    /// Chooses the §6.2 method (default: Method 1 with 42 counter bits).
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V7Builder, V7Method};
    /// use uuidkit::Timestamp;
    /// // Method 3: the fraction of the millisecond, in 12 bits, fills rand_a.
    /// let clock = FixedClock::new(Timestamp::parse_rfc3339("1970-01-01T00:00:01.0005Z")?);
    /// let method = V7Method::SubMillis { fraction_bits: 12, counter_bits: 0 };
    /// let mut g = V7Builder::new().method(method).build(clock, ThreadRng)?;
    /// let u = g.next()?;
    /// assert_eq!(u.unix_ts_ms(), Some(1_000));
    /// assert_eq!(u.rand_a(), Some(0x800)); // half a millisecond: 2048 of 4096
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn method(mut self, method: V7Method) -> Self {
        self.method = method;
        self
    }

    policy_setters!();

    /// Builds the generator; fails on a width outside its range.
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, FixedClock, SystemClock, ThreadRng};
    /// use uuidkit::generator::{V7Builder, V7Method};
    /// use uuidkit::Timestamp;
    /// // Source: RFC 9562 Appendix A.6. Its time, and its random octets 6 to 15 replayed: Method 2
    /// // takes all 74 random bits of a new millisecond as they come.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(0x017F22E279B0));
    /// let rng = ReplayRandom::new([0x7C, 0xC3, 0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F]);
    /// let mut g = V7Builder::new().method(V7Method::monotonic_random()).build(clock, rng)?;
    /// assert_eq!(g.next()?.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// // A width out of range is refused when building.
    /// let narrow = V7Builder::new().method(V7Method::Counter { bits: 8 });
    /// assert!(narrow.build(SystemClock, ThreadRng).unwrap_err().is_config());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn build<C: Clock, R: RandomSource>(
        self,
        clock: C,
        rng: R,
    ) -> Result<V7Generator<C, R>, GenError> {
        let layout = Layout::of(self.method)?;
        Ok(V7Generator {
            driver: Driver::new(
                Sequencer::new(layout.scale(), layout.counter, &self.policies),
                clock,
                rng,
            ),
            layout,
        })
    }
}

/// A version 7 generator for one thread (`&mut self`); see the [module docs](self) for the
/// methods and [`global`](super::global) for the process-wide one.
///
/// Every UUID is greater than the previous one, whatever the clock does (unless the caller
/// chose [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), which follows a step
/// back beyond the threshold and reports it in [`resets`](Self::resets)). In a forked child
/// the generator leaves its last millisecond (or fraction) for a later one with a new random
/// counter seed, so the child's UUIDs still follow those issued before the fork; against the
/// parent's later UUIDs, uniqueness rests on the random bits.
///
/// ```
/// let mut g = uuidkit::generator::V7Generator::system();
/// let mut batch = [uuidkit::Uuid::NIL; 100];
/// g.fill(&mut batch)?;
/// assert!(batch.windows(2).all(|w| w[0] < w[1]));
/// assert!(g.next()? > batch[99]);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone)]
pub struct V7Generator<C = SystemClock, R = ThreadRng> {
    driver: Driver<C, R>,
    layout: Layout,
}

impl V7Generator<SystemClock, ThreadRng> {
    /// Method 1 (42-bit counter) on the system clock and the thread's CSPRNG.
    ///
    /// ```
    /// let mut g = uuidkit::generator::V7Generator::system();
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert_eq!(a.version_num(), 7);
    /// assert!(a < b);
    /// assert!(a.unix_ts_ms() > Some(1_600_000_000_000)); // the system clock: after 2020
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn system() -> Self {
        V7Generator::new(SystemClock, ThreadRng)
    }
}

impl<C: Clock, R: RandomSource> V7Generator<C, R> {
    /// Method 1 (42-bit counter) with default policies.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V7Generator};
    /// use uuidkit::{Timestamp, Uuid};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(0x017F22E279B0));
    /// let mut g = V7Generator::new(clock, ThreadRng);
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert_eq!((a.unix_ts_ms(), b.unix_ts_ms()), (Some(0x017F22E279B0), Some(0x017F22E279B0)));
    /// // The 42-bit counter: rand_a, then the top 30 bits of rand_b; one more for each UUID.
    /// let counter = |u: Uuid| Some(u64::from(u.rand_a()?) << 30 | u.rand_b()? >> 32);
    /// assert_eq!(counter(b), counter(a).map(|c| c + 1));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn new(clock: C, rng: R) -> Self {
        match V7Builder::new().build(clock, rng) {
            Ok(g) => g,
            // The default method is valid (this function's example runs it).
            Err(e) => unreachable!("the default v7 builder failed: {e}"),
        }
    }

    /// The builder.
    ///
    /// ```
    /// use uuidkit::generator::{SystemClock, ThreadRng, V7Builder, V7Generator, V7Method};
    /// // `<…>` takes the default type parameters.
    /// assert_eq!(<V7Generator>::builder(), V7Builder::new());
    /// let method = V7Method::MonotonicRandom { increment_bits: 8 };
    /// let mut g = <V7Generator>::builder().method(method).build(SystemClock, ThreadRng)?;
    /// assert!(g.next()? < g.next()?);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn builder() -> V7Builder {
        V7Builder::new()
    }

    /// The next UUID, greater than the previous one (unless
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset) follows the clock back).
    ///
    /// ```
    /// use uuidkit::generator::{StepClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_000));
    /// let mut g = V7Generator::new(&clock, ThreadRng);
    /// let a = g.next()?;
    /// clock.step_back(5_000_000); // 5 ms back: within the regression threshold
    /// let b = g.next()?;
    /// assert!(b > a && b.unix_ts_ms() == Some(1_000)); // the last timestamp is kept
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    // Not `Iterator::next`: generation never ends and can fail, which `Option` cannot say;
    // the error must reach the caller.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Uuid, GenError> {
        let layout = &self.layout;
        self.driver
            .next_with(|i, rng| layout.make(i.tick, i.counter, rng))
    }

    /// Fills `out` with increasing UUIDs from one clock reading (RFC 9562 §6.2 batches; under
    /// [`OverflowPolicy::Wait`](super::OverflowPolicy::Wait) the clock is read again while
    /// waiting). On an error, the UUIDs before the failing one are written and count as
    /// issued.
    ///
    /// ```
    /// let mut g = uuidkit::generator::V7Generator::system();
    /// let mut ids = [uuidkit::Uuid::NIL; 1000];
    /// g.fill(&mut ids)?;
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// assert_eq!(g.last_unix_ms(), ids[999].unix_ts_ms());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn fill(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
        let layout = &self.layout;
        self.driver.fill_runs(
            out,
            |i, rng| layout.make(i.tick, i.counter, rng),
            |tick, first, slots, rng| layout.make_run(tick, first, slots, rng),
        )
    }

    /// The clock the generator reads.
    ///
    /// ```
    /// use uuidkit::generator::{StepClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// let mut g = V7Generator::new(StepClock::new(Timestamp::from_unix_millis(5)), ThreadRng);
    /// assert_eq!(g.next()?.unix_ts_ms(), Some(5));
    /// g.clock().advance(2_000_000); // 2 ms
    /// assert_eq!(g.next()?.unix_ts_ms(), Some(7));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn clock(&self) -> &C {
        &self.driver.clock
    }

    /// The embedded millisecond of the last UUID, if any.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// let mut g = V7Generator::new(FixedClock::new(Timestamp::from_unix_millis(77)), ThreadRng);
    /// assert_eq!(g.last_unix_ms(), None);
    /// let u = g.next()?;
    /// assert_eq!(g.last_unix_ms(), Some(77));
    /// assert_eq!(u.unix_ts_ms(), g.last_unix_ms());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn last_unix_ms(&self) -> Option<u64> {
        self.driver
            .seq
            .last_tick()
            .map(|t| t >> self.layout.frac_bits)
    }

    /// The counter of the last UUID, if any: the Method 1 or Method 3 counter, or Method 2's
    /// 74-bit value (0 for Method 3 without a counter). With [`last_unix_ms`](Self::last_unix_ms)
    /// it is the position to persist and give back to [`resume_after`](Self::resume_after).
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(9));
    /// let mut first = V7Generator::new(clock, ThreadRng);
    /// let last = first.next()?;
    /// let (ms, counter) = (first.last_unix_ms(), first.last_counter()); // persisted…
    /// assert_eq!(ms, Some(9));
    /// let mut second = V7Generator::new(clock, ThreadRng); // …and read back by a later run
    /// second.resume_after(9, counter);
    /// assert!(second.next()? > last); // same millisecond, counter one higher
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn last_counter(&self) -> Option<u128> {
        self.driver.seq.last_counter()
    }

    /// Continues after UUIDs issued before, typically by an earlier run whose position was kept
    /// in stable storage (RFC 9562 §6.3): every later UUID is greater than every UUID with a
    /// millisecond before `unix_ms`, and than those at `unix_ms` whose counter is at most
    /// `counter` (`None`: the whole millisecond counts as used). For Method 3 the counter is
    /// not comparable across fractions and the whole millisecond counts as used.
    ///
    /// A clock reading earlier than `unix_ms` is handled like any regression: under the default
    /// [`RegressionPolicy::Continue`](super::RegressionPolicy::Continue) (and within the
    /// [threshold](V7Builder::regression_threshold) under any policy) the generator counts on
    /// after the given position; beyond the threshold `Reset` follows the clock back and
    /// `Error` refuses.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    ///
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1_000));
    /// let mut g = V7Generator::new(clock, ThreadRng);
    /// g.resume_after(1_005, None); // an earlier run reserved up to 1005 ms
    /// assert_eq!(g.next()?.unix_ts_ms(), Some(1_006));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn resume_after(&mut self, unix_ms: u64, counter: Option<u128>) {
        self.driver.check_fork();
        let full = mask128(self.layout.counter.bits());
        let (tick, counter) = match counter {
            Some(c) if self.layout.frac_bits == 0 => (unix_ms, c.min(full)),
            _ => (
                (unix_ms << self.layout.frac_bits) | mask64(self.layout.frac_bits),
                full,
            ),
        };
        self.driver.seq.resume(tick, counter);
    }

    /// How many times the generator followed the clock back under
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset); always 0 under the other
    /// policies.
    ///
    /// ```
    /// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let reset = V7Builder::new().regression(RegressionPolicy::Reset);
    /// let mut g = reset.build(&clock, ThreadRng)?;
    /// let a = g.next()?;
    /// clock.step_back(3_600_000_000_000); // an hour
    /// let b = g.next()?;
    /// assert!(b < a); // followed the clock back, and says so:
    /// assert_eq!(g.resets(), 1);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn resets(&self) -> u64 {
        self.driver.seq.resets()
    }

    /// The last step back of the clock the generator followed under
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), if any.
    ///
    /// ```
    /// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V7Builder};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let reset = V7Builder::new().regression(RegressionPolicy::Reset);
    /// let mut g = reset.build(&clock, ThreadRng)?;
    /// g.next()?;
    /// assert_eq!(g.last_reset(), None);
    /// clock.step_back(60_000_000_000); // a minute
    /// g.next()?;
    /// assert_eq!(g.last_reset().map(|r| r.back_nanos()), Some(60_000_000_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn last_reset(&self) -> Option<ClockReset> {
        self.driver.seq.last_reset()
    }
}

impl Uuid {
    /// The time of a UUID read with the layout of the **2021 draft's** UUIDv7
    /// (draft-peabody-dispatch-new-uuid-format-01 §4.4): 36 bits of Unix seconds, then a binary
    /// fraction of a second in the 12 + 12 + 62 bits around the version and variant, read to
    /// the nanosecond (rounded down).
    ///
    /// Some early generators emitted this layout with version 7; RFC 9562's v7 is different
    /// (48-bit milliseconds), and every such UUID reads either way, so ask only when you know
    /// which one you have. `None` unless the variant is RFC 9562's and the version 7.
    ///
    /// ```
    /// // unixts = 2^35 s, subsec_a = 0x800: a fraction of one half.
    /// let u = uuidkit::Uuid::from_u128(0x8000_0000_0800_7000_8000_0000_0000_0000);
    /// let t = u.draft_v7_timestamp().unwrap();
    /// assert_eq!((t.unix_seconds(), t.subsec_nanos()), (1 << 35, 500_000_000));
    /// // The draft's worked example (§4.4.4.2): sub-second bits 0101 0101 0101 0101, i.e.
    /// // 0x5555 / 65536 s = 0.3333282 s, here after 2021-04-27T00:00:00Z.
    /// let u = uuidkit::Uuid::parse_str("06087540-0555-7500-8000-000000000000")?;
    /// let t = u.draft_v7_timestamp().unwrap();
    /// assert_eq!(t.to_rfc3339(9).to_string(), "2021-04-27T00:00:00.333328247Z");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub fn draft_v7_timestamp(&self) -> Option<Timestamp> {
        if self.variant() != Variant::Rfc9562 || self.version_num() != 7 {
            return None;
        }
        let v = self.as_u128();
        let secs = (v >> 92) as i64;
        let subsec_a = (v >> 80) & 0xfff;
        let subsec_b = (v >> 64) & 0xfff;
        let rest = v & mask128(62);
        // 86 fraction bits; times 10^9 (< 2^30) stays below 2^116.
        let frac = (subsec_a << 74) | (subsec_b << 62) | rest;
        let nanos = ((frac * 1_000_000_000) >> 86) as u32;
        Timestamp::from_unix(secs, nanos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draft_fraction_reads_each_sub_field() {
        // unixts = 1, subsec_a = 0x800 (one half) → 1.5 s.
        let u = Uuid::from_u128(0x0000_0000_1800_7000_8000_0000_0000_0000);
        let t = u.draft_v7_timestamp().unwrap();
        assert_eq!((t.unix_seconds(), t.subsec_nanos()), (1, 500_000_000));
        // subsec_b = 0x800 is 2^-13 s = 122070.3125 ns → 122070.
        let u = Uuid::from_u128(0x0000_0000_0000_7800_8000_0000_0000_0000);
        assert_eq!(u.draft_v7_timestamp().unwrap().subsec_nanos(), 122_070);
        // Not v7 or not the RFC variant: no reading.
        assert_eq!(Uuid::NAMESPACE_DNS.draft_v7_timestamp(), None);
        let wrong_variant = Uuid::from_u128(0x0000_0000_0000_7000_0000_0000_0000_0000);
        assert_eq!(wrong_variant.draft_v7_timestamp(), None);
    }
}

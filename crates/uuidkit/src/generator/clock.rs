//! Clocks for the generators: the system's wall clock, and fixed, steppable and replayed clocks
//! that let tests drive time (clock regression, equal readings, counter overflow; RFC 9562 §6.1,
//! §6.2).

use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::Clock;
use crate::Timestamp;

/// The system's wall clock: `CLOCK_REALTIME` on Unix, `SystemTime` on Windows and WASI,
/// JavaScript's `Date.now()` on `wasm32-unknown-unknown` (feature `js`).
///
/// Its readings can go backwards (NTP steps, manual changes); the generators handle that
/// (RFC 9562 §6.2). [`resolution_nanos`](Clock::resolution_nanos) asks the OS once
/// (`clock_getres` on Unix) and caches the answer; where that fails it reports 1 ns. It is
/// 1 ms for `Date.now()`, and 100 ns (the `FILETIME` tick) on the other platforms.
///
/// ```
/// use uuidkit::generator::{clock::SystemClock, Clock};
/// let t = SystemClock.now();
/// assert!(t.unix_seconds() > 1_600_000_000);
/// assert!(SystemClock.resolution_nanos() >= 1);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SystemClock;

impl SystemClock {
    /// The system clock.
    ///
    /// ```
    /// use uuidkit::generator::{clock::SystemClock, Clock};
    /// const CLOCK: SystemClock = SystemClock::new(); // usable in constants
    /// assert_eq!(CLOCK, SystemClock::default());
    /// assert!(CLOCK.now().unix_seconds() > 1_600_000_000); // the real time: after 2020
    /// ```
    pub const fn new() -> SystemClock {
        SystemClock
    }
}

/// Cached resolution; 0 means not asked yet.
static SYSTEM_RESOLUTION: AtomicU64 = AtomicU64::new(0);

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }

    fn resolution_nanos(&self) -> u64 {
        match SYSTEM_RESOLUTION.load(Ordering::Relaxed) {
            0 => {
                let r = crate::sys::clock_resolution_nanos();
                SYSTEM_RESOLUTION.store(r, Ordering::Relaxed);
                r
            }
            r => r,
        }
    }
}

/// A clock that always reads the same time.
///
/// ```
/// use uuidkit::generator::{clock::FixedClock, Clock};
/// use uuidkit::Timestamp;
/// let c = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// assert_eq!(c.now(), c.now());
/// assert_eq!(c.now().unix_millis(), Some(1645557742000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedClock {
    at: Timestamp,
    resolution: u64,
}

impl FixedClock {
    /// A clock stopped at `at`, claiming a resolution of 1 ns.
    ///
    /// ```
    /// use uuidkit::generator::{clock::FixedClock, Clock};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis(1645557742000);
    /// let clock = FixedClock::new(t);
    /// assert_eq!((clock.now(), clock.now()), (t, t));
    /// assert_eq!(clock.resolution_nanos(), 1);
    /// ```
    pub const fn new(at: Timestamp) -> FixedClock {
        FixedClock { at, resolution: 1 }
    }

    /// The same clock claiming another resolution (0 is read as 1), to test how generators use
    /// it (RFC 9562 §6.1).
    ///
    /// ```
    /// use uuidkit::generator::{clock::FixedClock, Clock};
    /// use uuidkit::Timestamp;
    /// let ms = FixedClock::new(Timestamp::UNIX_EPOCH).with_resolution(1_000_000);
    /// assert_eq!(ms.resolution_nanos(), 1_000_000);
    /// assert_eq!(ms.now(), Timestamp::UNIX_EPOCH); // the time is unchanged
    /// assert_eq!(ms.with_resolution(0).resolution_nanos(), 1);
    /// ```
    pub const fn with_resolution(self, nanos: u64) -> FixedClock {
        FixedClock {
            at: self.at,
            resolution: if nanos == 0 { 1 } else { nanos },
        }
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        self.at
    }
    fn resolution_nanos(&self) -> u64 {
        self.resolution
    }
}

/// The earliest and latest `Timestamp`s, where stepping saturates.
const MIN_TS: i128 = i64::MIN as i128 * 1_000_000_000;
const MAX_TS: i128 = i64::MAX as i128 * 1_000_000_000 + 999_999_999;

fn ts_saturating(nanos: i128) -> Timestamp {
    let clamped = nanos.clamp(MIN_TS, MAX_TS);
    Timestamp::from_unix_nanos(clamped).unwrap_or(Timestamp::UNIX_EPOCH)
}

#[derive(Debug)]
struct StepState {
    nanos: i128,
    auto_step: i128,
}

/// A clock the test moves by hand: set it, advance it, step it back; optionally it also
/// advances by a fixed amount after every reading.
///
/// Shared between threads by reference (`Sync`): the time is kept as 128-bit nanoseconds,
/// which no stable atomic type holds, so a `Mutex` guards it; a reading is a few nanoseconds
/// and this is a test clock. Moving beyond the range of [`Timestamp`] saturates.
///
/// ```
/// use uuidkit::generator::{clock::StepClock, Clock};
/// use uuidkit::Timestamp;
/// let c = StepClock::new(Timestamp::from_unix_millis(1_000));
/// c.advance(1_500_000);
/// assert_eq!(c.now().unix_millis(), Some(1_001));
/// c.step_back(2_000_000);
/// assert_eq!(c.now().unix_nanos(), 999_500_000);
///
/// let auto = StepClock::new(Timestamp::UNIX_EPOCH).with_auto_step(100);
/// assert_eq!(auto.now().unix_nanos(), 0);
/// assert_eq!(auto.now().unix_nanos(), 100);
/// ```
#[derive(Debug)]
pub struct StepClock {
    state: Mutex<StepState>,
    resolution: u64,
}

impl StepClock {
    /// A clock reading `at` until moved.
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, Clock};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis(1_000);
    /// let clock = StepClock::new(t);
    /// assert_eq!((clock.now(), clock.now()), (t, t)); // it moves only when told to
    /// ```
    pub fn new(at: Timestamp) -> StepClock {
        StepClock {
            state: Mutex::new(StepState {
                nanos: at.unix_nanos(),
                auto_step: 0,
            }),
            resolution: 1,
        }
    }

    /// The same clock, advancing by `nanos` after every reading (negative: going backwards).
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// // One millisecond later at every reading, so every v7 UUID gets its own millisecond.
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_000)).with_auto_step(1_000_000);
    /// let mut g = V7Generator::new(&clock, ThreadRng);
    /// assert_eq!(g.next()?.unix_ts_ms(), Some(1_000));
    /// assert_eq!(g.next()?.unix_ts_ms(), Some(1_001));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn with_auto_step(self, nanos: i128) -> StepClock {
        self.lock().auto_step = nanos;
        self
    }

    /// The same clock claiming another resolution (0 is read as 1; RFC 9562 §6.1).
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, Clock};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::UNIX_EPOCH).with_resolution(15_625_000); // 1/64 s
    /// assert_eq!(clock.resolution_nanos(), 15_625_000);
    /// assert_eq!(clock.with_resolution(0).resolution_nanos(), 1);
    /// ```
    pub fn with_resolution(mut self, nanos: u64) -> StepClock {
        self.resolution = nanos.max(1);
        self
    }

    // The state is two integers written together under the lock and no code that can panic
    // runs while it is held, so a poisoned lock still guards a consistent state.
    fn lock(&self) -> MutexGuard<'_, StepState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the time.
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::UNIX_EPOCH);
    /// let mut g = V7Generator::new(&clock, ThreadRng);
    /// clock.set(Timestamp::from_unix_millis(1645557742000)); // the generator sees the change
    /// assert_eq!(g.next()?.unix_ts_ms(), Some(1645557742000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn set(&self, at: Timestamp) {
        self.lock().nanos = at.unix_nanos();
    }

    /// Moves the time forward by `nanos` (backward if negative).
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, Clock};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::UNIX_EPOCH);
    /// clock.advance(2_500_000);
    /// assert_eq!(clock.now().unix_nanos(), 2_500_000);
    /// clock.advance(-500_000);
    /// assert_eq!(clock.now().unix_nanos(), 2_000_000);
    /// ```
    pub fn advance(&self, nanos: i128) {
        let mut s = self.lock();
        s.nanos = s.nanos.saturating_add(nanos).clamp(MIN_TS, MAX_TS);
    }

    /// Moves the time backward by `nanos`, as an NTP step or a manual change does.
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, RegressionPolicy, ThreadRng, V7Builder};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(60_000));
    /// let mut g = V7Builder::new()
    ///     .regression(RegressionPolicy::Error)
    ///     .build(&clock, ThreadRng)?;
    /// g.next()?;
    /// clock.step_back(11_000_000_000); // 11 s: more than the default threshold of 10 s
    /// assert_eq!(clock.peek().unix_millis(), Some(49_000));
    /// assert!(g.next().unwrap_err().is_clock_regression());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn step_back(&self, nanos: i128) {
        let mut s = self.lock();
        s.nanos = s.nanos.saturating_sub(nanos).clamp(MIN_TS, MAX_TS);
    }

    /// The current time, without the auto-step a [`Clock::now`] reading applies.
    ///
    /// ```
    /// use uuidkit::generator::{clock::StepClock, Clock};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::UNIX_EPOCH).with_auto_step(100);
    /// assert_eq!(clock.peek().unix_nanos(), 0);
    /// assert_eq!(clock.peek().unix_nanos(), 0); // peeking does not step
    /// assert_eq!(clock.now().unix_nanos(), 0);
    /// assert_eq!(clock.peek().unix_nanos(), 100); // a reading does
    /// ```
    pub fn peek(&self) -> Timestamp {
        ts_saturating(self.lock().nanos)
    }
}

impl Clock for StepClock {
    fn now(&self) -> Timestamp {
        let mut s = self.lock();
        let t = ts_saturating(s.nanos);
        s.nanos = s.nanos.saturating_add(s.auto_step).clamp(MIN_TS, MAX_TS);
        t
    }
    fn resolution_nanos(&self) -> u64 {
        self.resolution
    }
}

/// A clock that returns given readings in order, then the last one forever; for ordering and
/// fuzz tests that need an exact sequence of times, including regressions and repeats.
///
/// An empty sequence reads as the Unix epoch.
///
/// ```
/// use uuidkit::generator::{clock::ReplayClock, Clock};
/// use uuidkit::Timestamp;
/// let t = |ms| Timestamp::from_unix_millis(ms);
/// let c = ReplayClock::new([t(5), t(3), t(9)]);
/// let seen: Vec<_> = (0..5).map(|_| c.now().unix_millis().unwrap()).collect();
/// assert_eq!(seen, [5, 3, 9, 9, 9]);
/// assert_eq!(c.readings(), 5);
/// ```
#[derive(Debug)]
pub struct ReplayClock {
    times: Vec<Timestamp>,
    next: AtomicUsize,
    resolution: u64,
}

impl ReplayClock {
    /// A clock replaying `times`.
    ///
    /// ```
    /// use uuidkit::generator::{clock::ReplayClock, Clock, ThreadRng, V7Generator};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis;
    /// // The clock steps back 2 ms: within the threshold, the generator keeps its millisecond.
    /// let mut g = V7Generator::new(ReplayClock::new([t(5), t(3)]), ThreadRng);
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert_eq!((a.unix_ts_ms(), b.unix_ts_ms()), (Some(5), Some(5)));
    /// assert!(b > a);
    /// assert_eq!(ReplayClock::new(Vec::new()).now(), Timestamp::UNIX_EPOCH);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn new(times: impl Into<Vec<Timestamp>>) -> ReplayClock {
        ReplayClock {
            times: times.into(),
            next: AtomicUsize::new(0),
            resolution: 1,
        }
    }

    /// The same clock claiming another resolution (0 is read as 1; RFC 9562 §6.1).
    ///
    /// ```
    /// use uuidkit::generator::{clock::ReplayClock, Clock};
    /// use uuidkit::Timestamp;
    /// let clock = ReplayClock::new([Timestamp::UNIX_EPOCH]).with_resolution(100);
    /// assert_eq!(clock.resolution_nanos(), 100);
    /// assert_eq!(clock.with_resolution(0).resolution_nanos(), 1);
    /// ```
    pub fn with_resolution(mut self, nanos: u64) -> ReplayClock {
        self.resolution = nanos.max(1);
        self
    }

    /// How many readings have been taken so far.
    ///
    /// ```
    /// use uuidkit::generator::{clock::ReplayClock, ThreadRng, V7Generator};
    /// use uuidkit::{Timestamp, Uuid};
    /// let clock = ReplayClock::new([Timestamp::from_unix_millis(7)]);
    /// let mut g = V7Generator::new(&clock, ThreadRng);
    /// assert_eq!(clock.readings(), 0);
    /// g.fill(&mut [Uuid::NIL; 8])?;
    /// assert_eq!(clock.readings(), 1); // a batch reads the clock once
    /// g.next()?;
    /// assert_eq!(clock.readings(), 2);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn readings(&self) -> usize {
        self.next.load(Ordering::Relaxed)
    }
}

impl Clock for ReplayClock {
    fn now(&self) -> Timestamp {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        match self.times.get(i).or(self.times.last()) {
            Some(t) => *t,
            None => Timestamp::UNIX_EPOCH,
        }
    }
    fn resolution_nanos(&self) -> u64 {
        self.resolution
    }
}

//! Process-wide v1, v6 and v7 generators, usable from any thread: [`v1`], [`v6`], [`v7`],
//! [`v7_batch`] (re-exported at the crate root) and their `try_` forms.
//!
//! # Promise
//!
//! Each UUID a process-wide generator returns is greater than every UUID it returned before,
//! on any thread (for v1, whose byte order is not time order: its timestamp is greater). They
//! read the system clock and draw from the calling thread's CSPRNG
//! ([`ThreadRng`]).
//!
//! # Design: one compare-and-swap, no lock
//!
//! - **v7** keeps one `AtomicU64`: the 48-bit millisecond of the last UUID and a 16-bit
//!   counter. A call reads the clock and swaps in either (the clock's millisecond, a random
//!   15-bit seed) if the clock has moved past the stored millisecond, or (the same
//!   millisecond, counter + 1). The packed value strictly increases, and it is the most
//!   significant part of the UUID (`unix_ts_ms`, then the counter in `rand_a` and the top 4
//!   bits of `rand_b`), so the UUIDs strictly increase; the remaining 58 bits of `rand_b` are
//!   random for every UUID. This is RFC 9562 §6.2 Method 1 with a 16-bit counter.
//!   **Limit:** a millisecond holds at least 2^15 = 32,768 UUIDs (on average 49,152); past
//!   that, the millisecond advances ahead of the clock (§6.2 "increment the timestamp ahead of
//!   the actual time") and falls back in step when the clock catches up.
//! - **v1 and v6** each keep one `AtomicU64` with the last 60-bit tick; a call swaps in the
//!   larger of the clock's tick and the last tick + 1. The clock sequence and the random node
//!   (multicast bit set, §6.10) are fixed per process. **Limit:** one UUID per 100 ns
//!   (10 million per second) before the timestamp runs ahead of the clock. This is the
//!   sub-tick simulation of §6.1 with an unbounded count: the process-wide generators always
//!   use the `Advance` policy.
//! - **Clock regression.** These generators never follow the clock back (their promise is
//!   order): after a step back they continue from their last timestamp, counting, until the
//!   clock catches up: [`RegressionPolicy::Continue`](super::RegressionPolicy::Continue),
//!   the per-instance generators' default too, which also offer `Reset` and `Error`.
//! - **Fork.** The state is tagged with [`fork_generation`]: the first call in a forked child
//!   renews it — v7 leaves the last millisecond for a later one with a new counter seed, v1/v6
//!   take a new clock sequence and random node — so that the child does not continue the
//!   parent's sequence, while its UUIDs still follow those issued before the fork. Against the
//!   parent's later UUIDs no order is kept; uniqueness is (v1/v6: the clock sequence differs
//!   from the parent's; v7: random bits). The re-initialisation is itself lock-free, so a fork taken while another thread
//!   was inside it cannot leave the child waiting on a lock nobody holds.
//!
//! # Time range
//!
//! The `try_` functions return [`GenErrorKind::TimeRange`](super::GenErrorKind::TimeRange)
//! when the system clock reads outside the layout's range (v7: before 1970 or from
//! 10889-08-02T05:31:50.656Z on; v1/v6: before 1582-10-15 or from 5236-03-31T21:21:00.6846976Z
//! on) or when counting ahead would leave it; [`v1`], [`v6`], [`v7`] and [`v7_batch`] panic
//! then, since they have no other way to refuse — no silent wrap.

use core::sync::atomic::{AtomicU64, Ordering};

use super::bits::mask64;
use super::clock::SystemClock;
use super::error::GenError;
use super::gregorian::{new_clock_seq, random_node, GREGORIAN};
use super::rng::{fork_generation, random_u64, with_thread_rng, ThreadRng};
use super::sequencer::Scale;
use super::source::{Clock, RandomSource};
use crate::Uuid;

/// Runs a re-initialisation once per fork generation, without a lock.
///
/// The word holds `generation << 1 | busy`. A thread that finds another generation's mark
/// (including a busy mark copied from a parent, where the thread that set it does not exist)
/// claims the word with a compare-and-swap and re-initialises; threads of the same generation
/// that find it busy yield until it is ready.
struct ForkGuard {
    word: AtomicU64,
}

impl ForkGuard {
    /// No generation yet: the first call initialises.
    const fn new() -> ForkGuard {
        ForkGuard {
            word: AtomicU64::new(u64::MAX),
        }
    }

    #[inline]
    fn ensure(&self, init: impl FnOnce()) {
        let g = fork_generation();
        if self.word.load(Ordering::Acquire) != g << 1 {
            self.slow(g, init);
        }
    }

    #[cold]
    fn slow(&self, g: u64, init: impl FnOnce()) {
        let ready = g << 1;
        let busy = ready | 1;
        loop {
            let w = self.word.load(Ordering::Acquire);
            if w == ready {
                return;
            }
            if w == busy {
                std::thread::yield_now();
                continue;
            }
            if self
                .word
                .compare_exchange(w, busy, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                init();
                self.word.store(ready, Ordering::Release);
                return;
            }
        }
    }
}

// ---- the clock --------------------------------------------------------------------------------

/// A reading of the system clock (what [`SystemClock`] reads), as seconds
/// (negative before 1970) and nanoseconds.
///
/// The process-wide generators read it directly and convert with plain `u64` arithmetic:
/// `SystemTime::duration_since` and [`Timestamp`](crate::Timestamp)'s `i128` nanoseconds
/// (several 128-bit divisions) together cost more than the clock read itself. Readings before
/// 1970 or out of a layout's range take the general path, which also produces the errors.
#[derive(Clone, Copy)]
struct Reading {
    secs: i64,
    nanos: u32,
}

impl Reading {
    #[inline]
    fn now() -> Reading {
        match crate::sys::wall_clock() {
            Some((secs, nanos)) => Reading { secs, nanos },
            None => Reading::system(),
        }
    }

    /// The reading as [`SystemClock`] gives it.
    #[cold]
    fn system() -> Reading {
        let ts = SystemClock.now();
        Reading {
            secs: ts.unix_seconds(),
            nanos: ts.subsec_nanos(),
        }
    }

    /// Seconds and nanoseconds since 1970, for a reading at or after 1970.
    #[inline]
    fn since_1970(self) -> Option<(u64, u32)> {
        u64::try_from(self.secs).ok().map(|s| (s, self.nanos))
    }

    /// Nanoseconds since 1970, for the general path.
    #[cold]
    fn unix_nanos(self) -> i128 {
        self.secs as i128 * 1_000_000_000 + self.nanos as i128
    }
}

// ---- v7 ----------------------------------------------------------------------------------------

const V7_COUNTER_BITS: u32 = 16;
const V7_COUNTER_MAX: u64 = (1 << V7_COUNTER_BITS) - 1;
const V7_TAIL_BITS: u32 = 62 - (V7_COUNTER_BITS - 12);
const V7_MS_LIMIT: u64 = 1 << 48;

/// The v7 timestamp, for range errors.
const V7_SCALE: Scale = Scale {
    layout: "UUIDv7 48-bit millisecond timestamp",
    epoch_nanos: 0,
    num: 1,
    den: 1_000_000,
    max_tick: V7_MS_LIMIT,
};

struct V7State {
    guard: ForkGuard,
    /// `unix_ts_ms << 16 | counter`.
    packed: AtomicU64,
}

static V7: V7State = V7State {
    guard: ForkGuard::new(),
    packed: AtomicU64::new(0),
};

fn v7_now_ms() -> Result<u64, GenError> {
    // At the first call and in a forked child: leave the last millisecond for a later one with
    // a fresh counter seed (a full counter forces that), so that a child neither continues its
    // parent's counter nor goes below the UUIDs issued before the fork.
    V7.guard.ensure(|| {
        V7.packed.fetch_or(V7_COUNTER_MAX, Ordering::Relaxed);
    });
    let t = Reading::now();
    if let Some((secs, nanos)) = t.since_1970() {
        // u64 arithmetic for the common case; `secs` below 2^44 cannot overflow.
        if secs < 1 << 44 {
            let ms = secs * 1000 + (nanos / 1_000_000) as u64;
            if ms < V7_MS_LIMIT {
                return Ok(ms);
            }
        }
    }
    V7_SCALE.tick_of(t.unix_nanos())
}

/// A fresh 15-bit counter seed: the top counter bit stays clear as a rollover guard.
fn v7_seed() -> u64 {
    random_u64() & (V7_COUNTER_MAX >> 1)
}

/// Reserves up to `want` (>= 1) consecutive counter values; returns the millisecond, the first
/// counter value and how many were reserved.
fn v7_reserve(now_ms: u64, want: usize) -> Result<(u64, u64, u64), GenError> {
    let mut seed = None;
    let mut cur = V7.packed.load(Ordering::Relaxed);
    loop {
        let (ms, c) = (cur >> V7_COUNTER_BITS, cur & V7_COUNTER_MAX);
        let (run_ms, first) = if now_ms > ms {
            (now_ms, *seed.get_or_insert_with(v7_seed))
        } else if c < V7_COUNTER_MAX {
            (ms, c + 1)
        } else if ms + 1 < V7_MS_LIMIT {
            (ms + 1, *seed.get_or_insert_with(v7_seed))
        } else {
            return Err(V7_SCALE.range_error(V7_SCALE.nanos_of(V7_MS_LIMIT)));
        };
        let n = (want as u64).min(V7_COUNTER_MAX + 1 - first);
        let next = (run_ms << V7_COUNTER_BITS) | (first + n - 1);
        match V7
            .packed
            .compare_exchange_weak(cur, next, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => return Ok((run_ms, first, n)),
            Err(actual) => cur = actual,
        }
    }
}

fn v7_make(ms: u64, counter: u64) -> Uuid {
    v7_with_tail(ms, counter, random_u64())
}

#[inline]
fn v7_with_tail(ms: u64, counter: u64, random: u64) -> Uuid {
    let tail = random & mask64(V7_TAIL_BITS);
    let rand_a = (counter >> (V7_COUNTER_BITS - 12)) as u16;
    let rand_b = ((counter & mask64(V7_COUNTER_BITS - 12)) << V7_TAIL_BITS) | tail;
    Uuid::from_v7_parts(ms, rand_a, rand_b)
}

/// A v7 UUID from the process-wide generator, or the time-range error.
///
/// ```
/// let a = uuidkit::gen::global::try_v7()?;
/// let b = uuidkit::gen::global::try_v7()?;
/// assert!(a < b);
/// # Ok::<(), uuidkit::gen::GenError>(())
/// ```
pub fn try_v7() -> Result<Uuid, GenError> {
    let now = v7_now_ms()?;
    let (ms, c, _) = v7_reserve(now, 1)?;
    Ok(v7_make(ms, c))
}

/// A v7 UUID (RFC 9562 §5.7) from the process-wide generator: greater than every v7 UUID
/// this function returned before, on any thread. See the [module docs](self) for the design.
///
/// # Panics
///
/// When the system clock reads before 1970 or after 10889-08-02T05:31:50.655Z, the end of the
/// 48-bit millisecond field (or the generator has counted past it): no v7 UUID can carry such
/// a time and a wrapped one would break the order. [`try_v7`] returns the error instead.
///
/// ```
/// let a = uuidkit::v7();
/// let b = uuidkit::v7();
/// assert!(a < b);
/// assert_eq!(a.version_num(), 7);
/// ```
pub fn v7() -> Uuid {
    match try_v7() {
        Ok(u) => u,
        Err(e) => panic!("uuidkit::v7: {e}"),
    }
}

/// Fills `out` with increasing v7 UUIDs from the process-wide generator, from one clock
/// reading; or returns the time-range error (the UUIDs before it are written).
///
/// ```
/// let mut batch = [uuidkit::Uuid::NIL; 1000];
/// uuidkit::gen::global::try_v7_batch(&mut batch)?;
/// assert!(batch.windows(2).all(|w| w[0] < w[1]));
/// # Ok::<(), uuidkit::gen::GenError>(())
/// ```
pub fn try_v7_batch(out: &mut [Uuid]) -> Result<(), GenError> {
    if out.is_empty() {
        return Ok(());
    }
    let now = v7_now_ms()?;
    let mut rest = out;
    while !rest.is_empty() {
        let (ms, first, n) = v7_reserve(now, rest.len())?;
        let (run, tail) = rest.split_at_mut(n as usize);
        // One borrow of the thread's CSPRNG for the whole run.
        with_thread_rng(|rng| {
            for (slot, c) in run.iter_mut().zip(first..) {
                *slot = v7_with_tail(ms, c, rng.next_u64());
            }
        });
        rest = tail;
    }
    Ok(())
}

/// Fills `out` with increasing v7 UUIDs from the process-wide generator, all from one clock
/// reading: greater than every v7 UUID it returned before (UUIDs other threads get meanwhile
/// may fall between them). Reserving whole runs of the counter, it is cheaper per UUID than
/// [`v7`].
///
/// # Panics
///
/// As [`v7`]; [`try_v7_batch`] returns the error instead.
///
/// ```
/// let mut ids = vec![uuidkit::Uuid::NIL; 100_000];
/// uuidkit::v7_batch(&mut ids);
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// ```
pub fn v7_batch(out: &mut [Uuid]) {
    if let Err(e) = try_v7_batch(out) {
        panic!("uuidkit::v7_batch: {e}")
    }
}

// ---- v1 and v6 ---------------------------------------------------------------------------------

struct GregorianState {
    guard: ForkGuard,
    /// The last 60-bit tick.
    tick: AtomicU64,
    /// `clock_seq << 48 | node`, fixed per process.
    ident: AtomicU64,
}

impl GregorianState {
    const fn new() -> GregorianState {
        GregorianState {
            guard: ForkGuard::new(),
            tick: AtomicU64::new(0),
            ident: AtomicU64::new(0),
        }
    }

    fn reinit(&self) {
        let old_seq = (self.ident.load(Ordering::Relaxed) >> 48) as u16;
        let mut rng = ThreadRng;
        let seq = new_clock_seq(&mut rng, 14, old_seq);
        let node = random_node(&mut rng);
        let mut n = [0u8; 8];
        n[2..].copy_from_slice(&node);
        self.ident.store(
            ((seq as u64) << 48) | u64::from_be_bytes(n),
            Ordering::Relaxed,
        );
        // The tick stays: a forked child goes on above the last tick issued before the fork
        // (with its own clock sequence and node); at the first call it is 0.
    }

    fn next(&self) -> Result<(u64, u16, [u8; 6]), GenError> {
        self.guard.ensure(|| self.reinit());
        let t = Reading::now();
        let now = match t.since_1970() {
            // 100-ns ticks since 1582 in u64: below 2^60 whenever `secs` is below 2^32.
            Some((secs, nanos)) if secs < 1 << 32 => {
                secs * 10_000_000 + (nanos / 100) as u64 + crate::GREGORIAN_OFFSET_TICKS
            }
            _ => GREGORIAN.tick_of(t.unix_nanos())?,
        };
        let mut cur = self.tick.load(Ordering::Relaxed);
        let tick = loop {
            let next = now.max(cur + 1);
            if next >= GREGORIAN.max_tick {
                return Err(GREGORIAN.range_error(GREGORIAN.nanos_of(next)));
            }
            match self
                .tick
                .compare_exchange_weak(cur, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => break next,
                Err(actual) => cur = actual,
            }
        };
        let ident = self.ident.load(Ordering::Relaxed);
        let b = ident.to_be_bytes();
        Ok((
            tick,
            (ident >> 48) as u16,
            [b[2], b[3], b[4], b[5], b[6], b[7]],
        ))
    }
}

static V1: GregorianState = GregorianState::new();
static V6: GregorianState = GregorianState::new();

/// A v1 UUID from the process-wide generator, or the time-range error.
///
/// ```
/// let u = uuidkit::gen::global::try_v1()?;
/// assert_eq!(u.node().unwrap()[0] & 1, 1); // random node, multicast bit set
/// # Ok::<(), uuidkit::gen::GenError>(())
/// ```
pub fn try_v1() -> Result<Uuid, GenError> {
    let (t, seq, node) = V1.next()?;
    Ok(Uuid::from_v1_parts(t, seq, node))
}

/// A v6 UUID from the process-wide generator, or the time-range error.
///
/// ```
/// let a = uuidkit::gen::global::try_v6()?;
/// assert!(uuidkit::gen::global::try_v6()? > a);
/// # Ok::<(), uuidkit::gen::GenError>(())
/// ```
pub fn try_v6() -> Result<Uuid, GenError> {
    let (t, seq, node) = V6.next()?;
    Ok(Uuid::from_v6_parts(t, seq, node))
}

/// A v1 UUID (RFC 9562 §5.1) from the process-wide generator: its timestamp is greater than
/// that of every v1 UUID this function returned before, on any thread; random node with the
/// multicast bit set, random clock sequence. See the [module docs](self).
///
/// # Panics
///
/// When the system clock reads outside 1582-10-15 to 5236-03-31T21:21:00.6846975Z (the 60-bit
/// field); [`try_v1`] returns the error instead.
///
/// ```
/// let (a, b) = (uuidkit::v1(), uuidkit::v1());
/// assert!(a.gregorian_ticks() < b.gregorian_ticks());
/// ```
pub fn v1() -> Uuid {
    match try_v1() {
        Ok(u) => u,
        Err(e) => panic!("uuidkit::v1: {e}"),
    }
}

/// A v6 UUID (RFC 9562 §5.6) from the process-wide generator: greater than every v6 UUID this
/// function returned before, on any thread. See the [module docs](self).
///
/// # Panics
///
/// As [`v1`]; [`try_v6`] returns the error instead.
///
/// ```
/// let (a, b) = (uuidkit::v6(), uuidkit::v6());
/// assert!(a < b);
/// ```
pub fn v6() -> Uuid {
    match try_v6() {
        Ok(u) => u,
        Err(e) => panic!("uuidkit::v6: {e}"),
    }
}

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
//! # Design: no lock; v7 with one `fetch_add` per call
//!
//! - **v7** is RFC 9562 §6.2 Method 1 with a **26-bit counter** (`rand_a`, then the top 14
//!   bits of `rand_b`), seeded at each new millisecond with 25 random bits (the top counter
//!   bit clear: the rollover guard), and **48 random bits** per UUID after it. At least 2^25
//!   (33.5 million) UUIDs fit in every millisecond, so the timestamp does not run ahead of the
//!   clock at any rate a process reaches (a batch fills about 250 million per second on one
//!   core: 1/134 of that room).
//!
//!   The state is one `AtomicU64` on a cache line of its own, `epoch (6 bits) | millisecond
//!   offset (32) | counter (26)`, and two base slots `epoch (16) | base millisecond (48)`, one
//!   per epoch parity; a UUID's millisecond is its epoch's base plus the offset. The word
//!   holds the last value issued, and strictly increases in that order, so:
//!   - **One `fetch_add`** takes the next value (a batch: a run of up to 2^24) while the
//!     millisecond stays, from any number of threads at once, with no retry; each caller
//!     then reads its epoch's base slot (a line written only when a new base is taken) and
//!     checks its tag.
//!   - **A compare-and-swap moves the millisecond** when the caller's clock reading has passed
//!     the word's millisecond: to (the clock's millisecond, a fresh seed). The caller's
//!     `fetch_add` result is dropped; a failed swap re-reads the word (another thread may have
//!     moved it already). This happens once per millisecond, not per UUID.
//!   - **A full counter carries into the millisecond** (the word's `fetch_add` does it): the
//!     timestamp moves one millisecond ahead of the clock (§6.2 "increment the timestamp
//!     ahead of the actual time") and the clock takes over again when it passes it.
//!   - **A new base (epoch)** is taken when the millisecond to move to is 3 × 2^30 ms
//!     (37 days) or more past the base, e.g. after a long run or a clock jump of any size:
//!     the next epoch's slot is published first (compare-and-swap from the epoch two back),
//!     then the word moves into that epoch with one compare-and-swap, so that no value is ever
//!     read against the wrong base. Any thread can finish a move another one started.
//!     The margin above 3 × 2^30 is 2^30 carries (2^55 UUIDs) deep, so the offset never
//!     overflows into the epoch.
//!   - **Invariants:** the word's (millisecond, counter) strictly increases in its
//!     modification order, and every value a call returns was its own `fetch_add`'s or
//!     compare-and-swap's, so a UUID is greater than every UUID whose call returned before
//!     this one started, on any thread; a slot is written only for an epoch the word has not
//!     entered yet, and a reader whose slot shows another epoch drops its value and retries.
//!     (The tag check, and the compare-and-swap on the word, could only be fooled by 64 new
//!     bases, each 37 days of clock or a clock jump, taken while one thread is stopped inside
//!     a call.)
//!
//!   The unit tests drive this core with a fixed or stepped clock and a layout of 4 counter
//!   and 6 offset bits, where carries and new bases come every few calls.
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
//!   renews it — v7 restarts (epoch 0) at the millisecond after its last one with a new
//!   counter seed, v1/v6
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

    /// A time given as nanoseconds since 1970 (a caller's clock, not the system's); one too far
    /// out for an `i64` of seconds is clamped, which the general path reports as out of range.
    fn from_unix_nanos(nanos: i128) -> Reading {
        let secs = nanos.div_euclid(1_000_000_000);
        Reading {
            secs: i64::try_from(secs).unwrap_or(if secs < 0 { i64::MIN } else { i64::MAX }),
            nanos: nanos.rem_euclid(1_000_000_000) as u32,
        }
    }

    /// Nanoseconds since 1970, for the general path.
    #[cold]
    fn unix_nanos(self) -> i128 {
        self.secs as i128 * 1_000_000_000 + self.nanos as i128
    }
}

// ---- v7 ----------------------------------------------------------------------------------------

/// Counter bits of the process-wide v7 generator (RFC 9562 §6.2 Method 1): `rand_a` and the top
/// 14 bits of `rand_b`.
const V7_COUNTER_BITS: u32 = 26;
/// Random bits at the end of every UUID: the rest of `rand_b`.
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

/// The fields of the v7 state word, from the top: the epoch (which of the two base slots the
/// millisecond offset is counted from), the millisecond offset from that base, the counter.
#[derive(Clone, Copy)]
struct V7Layout {
    ctr_bits: u32,
    off_bits: u32,
    epoch_bits: u32,
}

/// The process-wide generator's layout: 6 + 32 + 26 bits.
const V7_LAYOUT: V7Layout = V7Layout {
    ctr_bits: V7_COUNTER_BITS,
    off_bits: 32,
    epoch_bits: 6,
};

impl V7Layout {
    #[inline]
    fn ctr(self, w: u64) -> u64 {
        w & mask64(self.ctr_bits)
    }
    #[inline]
    fn off(self, w: u64) -> u64 {
        (w >> self.ctr_bits) & mask64(self.off_bits)
    }
    #[inline]
    fn epoch(self, w: u64) -> u64 {
        w >> (self.ctr_bits + self.off_bits)
    }
    #[inline]
    fn word(self, epoch: u64, off: u64, ctr: u64) -> u64 {
        ((epoch & mask64(self.epoch_bits)) << (self.ctr_bits + self.off_bits))
            | (off << self.ctr_bits)
            | ctr
    }
    /// Offsets from this on are not used: a new base is taken first. The quarter of the range
    /// above it is a margin that counter carries cannot cross (2^(off_bits − 2) carries).
    #[inline]
    fn limit(self) -> u64 {
        3 << (self.off_bits - 2)
    }
    /// The most counter values one reservation takes: a seed (below 2^(ctr_bits − 1)) plus a
    /// run stays within the counter.
    #[inline]
    fn max_run(self) -> u64 {
        1 << (self.ctr_bits - 2)
    }
    /// A counter seed for a new millisecond: random with the top bit clear (RFC 9562 §6.2's
    /// rollover guard), so that at least 2^(ctr_bits − 1) UUIDs fit before a carry.
    #[inline]
    fn seed(self, random: u64) -> u64 {
        random & mask64(self.ctr_bits - 1)
    }
    /// A base slot: the epoch in the top 16 bits, the base millisecond in the low 48.
    #[inline]
    fn slot(self, epoch: u64, base: u64) -> u64 {
        ((epoch & mask64(self.epoch_bits)) << 48) | base
    }
}

/// One reservation: the state words `first ..= first + n − 1`, whose millisecond offsets count
/// from `base`.
#[derive(Clone, Copy, Debug)]
struct V7Run {
    base: u64,
    first: u64,
    n: u64,
}

impl V7Run {
    /// The millisecond and counter of the `i`-th UUID of the run.
    #[inline]
    fn at(self, lay: V7Layout, i: u64) -> (u64, u64) {
        let w = self.first + i;
        (self.base + lay.off(w), lay.ctr(w))
    }

    /// The run, or the time-range error when its last millisecond is past the 48-bit field.
    fn checked(self, lay: V7Layout) -> Result<V7Run, GenError> {
        if self.at(lay, self.n - 1).0 < V7_MS_LIMIT {
            Ok(self)
        } else {
            Err(V7_SCALE.range_error(V7_SCALE.nanos_of(V7_MS_LIMIT)))
        }
    }
}

/// A value on a cache line of its own (two lines: adjacent-line prefetch), so that the hot
/// word shares its line with nothing that is read on every call.
#[repr(align(128))]
struct Padded<T>(T);

/// The state of a process-wide v7 generator (RFC 9562 §6.2 Method 1, lock-free): see the
/// [module docs](self) for the scheme and its invariants.
struct V7Core {
    /// `epoch | millisecond offset | counter` of the last UUID issued (or reserved).
    word: Padded<AtomicU64>,
    /// The base millisecond of each epoch, in slot `epoch & 1`, tagged with the epoch.
    slots: [AtomicU64; 2],
}

impl V7Core {
    /// Epoch 0 from millisecond 0; slot 1 holds "epoch −1", so that epoch 1 can be published.
    const fn new(lay: V7Layout) -> V7Core {
        V7Core {
            word: Padded(AtomicU64::new(0)),
            slots: [
                AtomicU64::new(0),
                AtomicU64::new(mask64(lay.epoch_bits) << 48),
            ],
        }
    }

    /// The base of the epoch of `w`, unless its slot has been taken by a later epoch (then `w`
    /// is stale: the word has moved on).
    #[inline]
    fn base_of(&self, lay: V7Layout, w: u64) -> Option<u64> {
        let e = lay.epoch(w);
        let s = self.slots[(e & 1) as usize].load(Ordering::Acquire);
        (s >> 48 == e).then_some(s & mask64(48))
    }

    /// The base of epoch `e` (the one after the epoch of the caller's view of the word),
    /// publishing `base` for it if nobody has yet. `None` when the slot already belongs to a
    /// later epoch: the caller's view is stale.
    fn publish(&self, lay: V7Layout, e: u64, base: u64) -> Option<u64> {
        let e = e & mask64(lay.epoch_bits);
        let slot = &self.slots[(e & 1) as usize];
        let before = e.wrapping_sub(2) & mask64(lay.epoch_bits);
        let mut s = slot.load(Ordering::Acquire);
        loop {
            match s >> 48 {
                t if t == e => return Some(s & mask64(48)),
                t if t == before => {}
                _ => return None,
            }
            match slot.compare_exchange(s, lay.slot(e, base), Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(base),
                Err(actual) => s = actual,
            }
        }
    }

    /// The millisecond of the last UUID issued (for re-initialisation, with no other thread
    /// inside the generator).
    fn last_ms(&self, lay: V7Layout) -> u64 {
        let w = self.word.0.load(Ordering::Acquire);
        match self.base_of(lay, w) {
            Some(base) => base + lay.off(w),
            // Not reachable (a slot is published before the word enters its epoch); stay
            // above anything the word could express.
            None => {
                let b = |i: usize| self.slots[i].load(Ordering::Relaxed) & mask64(48);
                b(0).max(b(1)) + (1 << lay.off_bits)
            }
        }
    }

    /// Restarts at millisecond `ms` with counter `ctr` as the last value issued, epoch 0. Only
    /// with no other thread inside the generator (first call, forked child).
    fn reset(&self, lay: V7Layout, ms: u64, ctr: u64) {
        self.slots[0].store(lay.slot(0, ms), Ordering::Relaxed);
        self.slots[1].store(lay.slot(mask64(lay.epoch_bits), 0), Ordering::Relaxed);
        self.word.0.store(lay.word(0, 0, ctr), Ordering::Release);
    }

    /// Reserves up to `want` (≥ 1) consecutive counter values at a millisecond at or after
    /// `now` (the clock's), greater than every value reserved before: one `fetch_add` while the
    /// millisecond stays; a compare-and-swap to move it to `now` when the clock has passed it;
    /// a new base (epoch) when `now` is beyond the offset's range. `random` gives the seed of a
    /// new millisecond.
    #[inline]
    fn reserve(
        &self,
        lay: V7Layout,
        now: u64,
        want: u64,
        random: &mut impl FnMut() -> u64,
    ) -> Result<V7Run, GenError> {
        if want <= 1 {
            // The common case, inline: one `fetch_add`, the slot's tag, the clock.
            let w = self.word.0.fetch_add(1, Ordering::AcqRel);
            let s = self.slots[(lay.epoch(w) & 1) as usize].load(Ordering::Acquire);
            let first = w.wrapping_add(1);
            let ms = (s & mask64(48)) + lay.off(first);
            if s >> 48 == lay.epoch(w)
                && ms >= now
                && lay.off(first) < lay.limit()
                && ms < V7_MS_LIMIT
            {
                return Ok(V7Run {
                    base: s & mask64(48),
                    first,
                    n: 1,
                });
            }
            return self.reserve_slow(lay, now, 1, random, Some(w));
        }
        self.reserve_slow(lay, now, want, random, None)
    }

    /// [`reserve`](Self::reserve) beyond a plain `fetch_add`: batches, moving the millisecond,
    /// new bases. `taken`: the word before the caller's `fetch_add` of one.
    #[inline(never)]
    fn reserve_slow(
        &self,
        lay: V7Layout,
        now: u64,
        want: u64,
        random: &mut impl FnMut() -> u64,
        taken: Option<u64>,
    ) -> Result<V7Run, GenError> {
        let k = want.clamp(1, lay.max_run());
        // A single UUID goes straight to the `fetch_add`; a batch looks first, so as not to
        // reserve (and drop) a long run when the millisecond has to move.
        let (mut w, mut reserved) = match taken {
            Some(w) => (w, true),
            None if k == 1 => (self.word.0.fetch_add(1, Ordering::AcqRel), true),
            None => (self.word.0.load(Ordering::Acquire), false),
        };
        loop {
            let Some(base) = self.base_of(lay, w) else {
                // Stale (a newer epoch took the slot): look again.
                (w, reserved) = (self.word.0.load(Ordering::Acquire), false);
                continue;
            };
            if reserved {
                let (first, last) = (w.wrapping_add(1), w.wrapping_add(k));
                if base + lay.off(first) >= now && lay.off(last) < lay.limit() {
                    return V7Run { base, first, n: k }.checked(lay);
                }
                // The clock has passed the millisecond (or the offset needs a new base): this
                // reservation is dropped, and the word moved on from where it left it.
                (w, reserved) = (last, false);
                continue;
            }
            let ms = base + lay.off(w);
            if ms >= now && lay.off(w) < lay.limit() {
                (w, reserved) = (self.word.0.fetch_add(k, Ordering::AcqRel), true);
                continue;
            }
            // Move the millisecond: to the clock's, or one on when the offset ran out (counter
            // carries; the clock behind).
            let target = now.max(ms + 1);
            let seed = lay.seed(random());
            let (next, issued) = if target - base < lay.limit() {
                let off = target - base;
                (lay.word(lay.epoch(w), off, seed + k - 1), Some((base, off)))
            } else {
                let e = lay.epoch(w) + 1;
                let Some(nb) = self.publish(lay, e, target) else {
                    (w, reserved) = (self.word.0.load(Ordering::Acquire), false);
                    continue;
                };
                if nb > ms {
                    // A millisecond after the last one, at or after the new base: the
                    // target, or the base itself when the target is out of its range.
                    let at = if target > nb && target - nb < lay.limit() {
                        target
                    } else {
                        nb
                    };
                    let off = at - nb;
                    (lay.word(e, off, seed + k - 1), Some((nb, off)))
                } else {
                    // Only after counter carries past the limit: the same value in the new
                    // epoch; the next round moves the millisecond.
                    (lay.word(e, ms - nb, lay.ctr(w)), None)
                }
            };
            match self
                .word
                .0
                .compare_exchange(w, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => match issued {
                    Some((b, off)) => {
                        let first = lay.word(lay.epoch(next), off, seed);
                        return V7Run {
                            base: b,
                            first,
                            n: k,
                        }
                        .checked(lay);
                    }
                    None => (w, reserved) = (next, false),
                },
                Err(actual) => (w, reserved) = (actual, false),
            }
        }
    }
}

struct V7State {
    guard: Padded<ForkGuard>,
    core: V7Core,
}

static V7: V7State = V7State {
    guard: Padded(ForkGuard::new()),
    core: V7Core::new(V7_LAYOUT),
};

fn v7_ms(t: Reading) -> Result<u64, GenError> {
    // At the first call and in a forked child: leave the last millisecond for a later one with
    // a fresh counter seed, so that a child neither continues its parent's counter nor goes
    // below the UUIDs issued before the fork.
    V7.guard.0.ensure(|| {
        let ms = V7.core.last_ms(V7_LAYOUT);
        V7.core
            .reset(V7_LAYOUT, ms + 1, V7_LAYOUT.seed(random_u64()));
    });
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
/// let a = uuidkit::generator::global::try_v7()?;
/// let b = uuidkit::generator::global::try_v7()?;
/// assert!(a < b);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v7() -> Result<Uuid, GenError> {
    v7_from(Reading::now())
}

/// [`try_v7`] with `unix_nanos` (nanoseconds since 1970) in place of the system clock's
/// reading, for a caller whose time comes from elsewhere (a test's frozen or mocked clock).
/// The UUID takes its place in the same process-wide sequence: a time behind the generator's
/// last millisecond is continued from there, as after a step back of the clock.
///
/// ```
/// let at = 1_645_557_742_000_000_000; // 2022-02-22T19:22:22Z
/// let u = uuidkit::generator::global::try_v7_at(at)?;
/// assert!(u.unix_ts_ms() >= Some(1_645_557_742_000));
/// assert!(uuidkit::generator::global::try_v7_at(at)? > u);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v7_at(unix_nanos: i128) -> Result<Uuid, GenError> {
    v7_from(Reading::from_unix_nanos(unix_nanos))
}

fn v7_from(t: Reading) -> Result<Uuid, GenError> {
    let now = v7_ms(t)?;
    let run = V7.core.reserve(V7_LAYOUT, now, 1, &mut random_u64)?;
    let (ms, c) = run.at(V7_LAYOUT, 0);
    Ok(v7_with_tail(ms, c, random_u64()))
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
/// uuidkit::generator::global::try_v7_batch(&mut batch)?;
/// assert!(batch.windows(2).all(|w| w[0] < w[1]));
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v7_batch(out: &mut [Uuid]) -> Result<(), GenError> {
    v7_runs(out, |part, run| fill_v7_run(part, run, 0))
}

/// Reserves runs of the process-wide v7 sequence for the whole of `out`, from one clock reading,
/// and hands each run with its part of `out` to `fill`.
fn v7_runs(out: &mut [Uuid], mut fill: impl FnMut(&mut [Uuid], V7Run)) -> Result<(), GenError> {
    if out.is_empty() {
        return Ok(());
    }
    let now = v7_ms(Reading::now())?;
    let mut rest = out;
    while !rest.is_empty() {
        let run = V7
            .core
            .reserve(V7_LAYOUT, now, rest.len() as u64, &mut random_u64)?;
        let (part, tail) = rest.split_at_mut(run.n as usize);
        fill(part, run);
        rest = tail;
    }
    Ok(())
}

/// [`try_v7_batch`] with the filling of each reserved run split over up to `threads` threads
/// (scoped; each draws its random bits from its own CSPRNG): the same reservations, so the same
/// order and the same guarantees. For the `arrow` feature's large columns.
#[cfg(feature = "arrow")]
pub(crate) fn try_v7_batch_threads(out: &mut [Uuid], threads: usize) -> Result<(), GenError> {
    v7_runs(out, |part, run| {
        // Pieces taken in turn from a queue, so that a thread whose core is busy elsewhere
        // holds the others up by one piece at most; a thread that cannot be started leaves
        // its share to the others, and the calling thread works too.
        // 2^17 UUIDs: 2 MiB, one huge page of the `arrow` feature's aligned mappings.
        const PIECE: usize = 1 << 17;
        let queue = std::sync::Mutex::new(part.chunks_mut(PIECE).enumerate());
        let work = || loop {
            let next = match queue.lock() {
                Ok(mut q) => q.next(),
                Err(_) => None,
            };
            let Some((k, piece)) = next else {
                return;
            };
            fill_v7_run(piece, run, (k * PIECE) as u64);
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                let _ = std::thread::Builder::new().spawn_scoped(scope, work);
            }
            work();
        });
    })
}

/// Fills `part` with the UUIDs `start ..` of `run`, from the thread's CSPRNG.
fn fill_v7_run(part: &mut [Uuid], run: V7Run, start: u64) {
    if part.is_empty() {
        return;
    }
    let (ms, first) = run.at(V7_LAYOUT, start);
    with_thread_rng(|rng| {
        if first + part.len() as u64 - 1 <= mask64(V7_COUNTER_BITS) {
            for (slot, c) in part.iter_mut().zip(first..) {
                *slot = v7_with_tail(ms, c, rng.next_u64());
            }
        } else {
            for (slot, i) in part.iter_mut().zip(start..) {
                let (ms, c) = run.at(V7_LAYOUT, i);
                *slot = v7_with_tail(ms, c, rng.next_u64());
            }
        }
    });
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

    fn next(&self, t: Reading) -> Result<(u64, u16, [u8; 6]), GenError> {
        self.guard.ensure(|| self.reinit());
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
/// let u = uuidkit::generator::global::try_v1()?;
/// assert_eq!(u.node().unwrap()[0] & 1, 1); // random node, multicast bit set
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v1() -> Result<Uuid, GenError> {
    let (t, seq, node) = V1.next(Reading::now())?;
    Ok(Uuid::from_v1_parts(t, seq, node))
}

/// [`try_v1`] with `unix_nanos` (nanoseconds since 1970) in place of the system clock's
/// reading (see [`try_v7_at`]): the timestamp is the larger of that time and the last one + 1.
///
/// ```
/// let at = 1_645_557_742_000_000_000;
/// let u = uuidkit::generator::global::try_v1_at(at)?;
/// assert!(u.gregorian_ticks() >= Some(at as u64 / 100 + 0x01B2_1DD2_1381_4000));
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v1_at(unix_nanos: i128) -> Result<Uuid, GenError> {
    let (t, seq, node) = V1.next(Reading::from_unix_nanos(unix_nanos))?;
    Ok(Uuid::from_v1_parts(t, seq, node))
}

/// A v6 UUID from the process-wide generator, or the time-range error.
///
/// ```
/// let a = uuidkit::generator::global::try_v6()?;
/// assert!(uuidkit::generator::global::try_v6()? > a);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v6() -> Result<Uuid, GenError> {
    let (t, seq, node) = V6.next(Reading::now())?;
    Ok(Uuid::from_v6_parts(t, seq, node))
}

/// [`try_v6`] with `unix_nanos` (nanoseconds since 1970) in place of the system clock's
/// reading (see [`try_v7_at`]).
///
/// ```
/// let at = 1_645_557_742_000_000_000;
/// let a = uuidkit::generator::global::try_v6_at(at)?;
/// assert!(uuidkit::generator::global::try_v6_at(at)? > a);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub fn try_v6_at(unix_nanos: i128) -> Result<Uuid, GenError> {
    let (t, seq, node) = V6.next(Reading::from_unix_nanos(unix_nanos))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::sync::Mutex;

    /// A small layout: 16 counter values, a 64-ms offset range (new base from 48 ms on), four
    /// epochs; carries and new bases come after a few calls.
    const SMALL: V7Layout = V7Layout {
        ctr_bits: 4,
        off_bits: 6,
        epoch_bits: 2,
    };

    /// [`SMALL`] with 16 epoch bits, for threads: with 2, the whole word has 4,096 values, and
    /// a thread stopped inside a call (the machine is busy) can find the word back at the very
    /// value it saw four new bases ago, which the process-wide layout (64 epochs, 2^64 values)
    /// rules out in practice.
    const SMALL_THREADS: V7Layout = V7Layout {
        ctr_bits: 4,
        off_bits: 6,
        epoch_bits: 16,
    };

    /// The (millisecond, counter) pairs of one reservation, as one sortable key each.
    fn take(core: &V7Core, lay: V7Layout, now: u64, want: u64, seed: u64) -> Vec<u128> {
        let run = core.reserve(lay, now, want, &mut || seed).unwrap();
        (0..run.n)
            .map(|i| {
                let (ms, c) = run.at(lay, i);
                assert!(c <= mask64(lay.ctr_bits));
                ((ms as u128) << 64) | c as u128
            })
            .collect()
    }

    fn ms(k: u128) -> u64 {
        (k >> 64) as u64
    }

    fn ctr(k: u128) -> u64 {
        k as u64
    }

    fn increasing(keys: &[u128]) -> bool {
        keys.windows(2).all(|w| w[0] < w[1])
    }

    #[test]
    fn a_full_counter_carries_into_the_next_millisecond_and_the_clock_takes_over() {
        let core = V7Core::new(SMALL);
        // The largest seed with the top counter bit clear: 7; then 8 more fit at 1000 ms.
        let mut keys = Vec::new();
        for _ in 0..9 {
            keys.extend(take(&core, SMALL, 1000, 1, 7));
        }
        assert_eq!(keys.iter().map(|&k| ms(k)).max(), Some(1000));
        assert_eq!((ctr(keys[0]), ctr(keys[8])), (7, 15));
        // Full: the next ones count on at 1001 from counter 0, ahead of the clock.
        for _ in 0..20 {
            keys.extend(take(&core, SMALL, 1000, 1, 7));
        }
        assert_eq!((ms(keys[9]), ctr(keys[9])), (1001, 0));
        assert_eq!((ms(keys[28]), ctr(keys[28])), (1002, 3));
        // The clock at 1002 has not passed 1002: counting goes on; at 1003 it takes over with
        // a fresh seed.
        keys.extend(take(&core, SMALL, 1002, 1, 5));
        assert_eq!((ms(keys[29]), ctr(keys[29])), (1002, 4));
        keys.extend(take(&core, SMALL, 1003, 1, 5));
        assert_eq!((ms(keys[30]), ctr(keys[30])), (1003, 5));
        assert!(increasing(&keys));
    }

    #[test]
    fn a_run_crossing_the_counter_end_continues_in_the_next_millisecond() {
        let core = V7Core::new(SMALL);
        let mut keys = take(&core, SMALL, 500, 1, 6);
        // max_run is 4: runs of at most 4.
        while keys.len() < 40 {
            let run = take(&core, SMALL, 500, 100, 6);
            assert!(!run.is_empty() && run.len() <= 4);
            keys.extend(run);
        }
        assert!(increasing(&keys));
        assert_eq!(ms(keys[0]), 500);
        assert!(keys.iter().any(|&k| ms(k) == 501 && ctr(k) == 0));
    }

    #[test]
    fn no_drift_while_a_millisecond_holds_two_to_the_twenty_uuids() {
        // The process-wide layout at a frozen clock: 2^20 UUIDs in batches and 2^12 single
        // ones all carry the clock's millisecond (the 26-bit counter seeded below 2^25 has room
        // for at least 2^25).
        let core = V7Core::new(V7_LAYOUT);
        let now = 1_700_000_000_000;
        let mut last = 0u128;
        let mut made = 0u64;
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            seed
        };
        while made < 1 << 20 {
            let run = core.reserve(V7_LAYOUT, now, 1000, &mut rnd).unwrap();
            for i in 0..run.n {
                let (m, c) = run.at(V7_LAYOUT, i);
                assert_eq!(m, now, "UUID {} ran ahead of the clock", made + i);
                let k = ((m as u128) << 64) | c as u128;
                assert!(k > last);
                last = k;
            }
            made += run.n;
        }
        for _ in 0..1 << 12 {
            let run = core.reserve(V7_LAYOUT, now, 1, &mut rnd).unwrap();
            assert_eq!(run.at(V7_LAYOUT, 0).0, now);
        }
    }

    #[test]
    fn the_clock_going_back_continues_from_the_last_millisecond() {
        let core = V7Core::new(SMALL);
        let mut keys = take(&core, SMALL, 10_000, 1, 2);
        keys.extend(take(&core, SMALL, 9_000, 1, 2)); // a second back
        keys.extend(take(&core, SMALL, 10_000, 2, 2)); // caught up with the millisecond
        assert!(keys.iter().all(|&k| ms(k) == 10_000));
        assert_eq!(
            keys.iter().map(|&k| ctr(k)).collect::<Vec<_>>(),
            [2, 3, 4, 5]
        );
        keys.extend(take(&core, SMALL, 10_001, 1, 2));
        assert_eq!(ms(keys[4]), 10_001);
        assert!(increasing(&keys));
    }

    #[test]
    fn clock_jumps_of_any_size_take_new_bases_and_keep_the_order() {
        // With 6 offset bits, every step of 48 ms or more needs a new base (epoch); four
        // epochs wrap around many times here.
        let core = V7Core::new(SMALL);
        let mut keys = Vec::new();
        let mut now = 5u64;
        let mut x = 99u64;
        for step in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = x >> 33;
            now = match r % 6 {
                0 => now + 1,
                1 => now + 47 + r % 3,
                2 => now + (r % 1_000_000),
                3 => now.saturating_sub(r % 100),
                4 => now.saturating_sub(r % 1_000_000),
                _ => now,
            };
            let want = 1 + (r >> 8) % 6;
            let got = take(&core, SMALL, now, want, (r >> 16) & 7);
            // Never below the clock after it passed the last millisecond.
            if let Some(&prev) = keys.last() {
                if now > ms(prev) {
                    assert!(got.iter().all(|&k| ms(k) >= now), "step {step}");
                }
            }
            keys.extend(got);
        }
        assert!(increasing(&keys));
    }

    #[test]
    fn a_reset_as_after_fork_starts_above_everything_issued() {
        let core = V7Core::new(SMALL);
        let mut keys = Vec::new();
        for now in [100, 200, 200, 200, 1_000_000] {
            keys.extend(take(&core, SMALL, now, 3, 1));
        }
        let last = core.last_ms(SMALL);
        assert_eq!(Some(last), keys.last().map(|&k| ms(k)));
        core.reset(SMALL, last + 1, 5);
        let next = take(&core, SMALL, 5, 1, 0); // the clock far back
        assert_eq!((ms(next[0]), ctr(next[0])), (last + 1, 6));
        assert!(next[0] > keys[keys.len() - 1]);
    }

    /// Threads share a generator with the small layout (carries and new bases all the time) and
    /// a clock one of them moves at random, forward, back and by jumps. Every UUID must be
    /// greater than every UUID whose call returned before its own call started, on any
    /// thread; a log under a mutex gives that order: a thread notes the length of the log
    /// before it calls (everything in the log had returned by then), and appends its UUID
    /// after the call.
    #[test]
    fn every_uuid_is_greater_than_all_returned_before_on_any_thread() {
        const THREADS: usize = 4;
        const CALLS: usize = 10_000;
        let core = V7Core::new(SMALL_THREADS);
        let clock = AtomicU64::new(1_000);
        let log: Mutex<Vec<u128>> = Mutex::new(Vec::new());
        let checks: Vec<Vec<(usize, u128)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let (core, clock, log) = (&core, &clock, &log);
                    s.spawn(move || {
                        let mut x = t as u64 + 1;
                        let mut mine = Vec::with_capacity(CALLS);
                        for _ in 0..CALLS {
                            x = x
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            let r = x >> 33;
                            if t == 0 {
                                let now = clock.load(Ordering::Relaxed);
                                let next = match r % 8 {
                                    0 => now + 1 + r % 3,
                                    1 => now + 40 + r % 80,
                                    2 => now.saturating_sub(r % 30),
                                    3 if r % 64 == 0 => now + 100_000,
                                    _ => now,
                                };
                                clock.store(next, Ordering::Relaxed);
                            }
                            let now = clock.load(Ordering::Relaxed);
                            let before = log.lock().unwrap().len();
                            let want = if r % 4 == 0 { 1 + (r >> 4) % 5 } else { 1 };
                            let run = core
                                .reserve(SMALL_THREADS, now, want, &mut || r >> 7)
                                .unwrap();
                            let keys: Vec<u128> = (0..run.n)
                                .map(|i| {
                                    let (m, c) = run.at(SMALL_THREADS, i);
                                    ((m as u128) << 64) | c as u128
                                })
                                .collect();
                            assert!(increasing(&keys));
                            let mut l = log.lock().unwrap();
                            l.extend_from_slice(&keys);
                            drop(l);
                            mine.push((before, keys[0]));
                        }
                        mine
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let log = log.into_inner().unwrap();
        // max_before[i]: the largest of the first i UUIDs of the log.
        let mut max_before = vec![0u128; log.len() + 1];
        for (i, &k) in log.iter().enumerate() {
            max_before[i + 1] = max_before[i].max(k);
        }
        let mut all = log.clone();
        all.sort_unstable();
        assert!(increasing(&all), "a value was issued twice");
        let mut overlapping = 0;
        for (before, first) in checks.into_iter().flatten() {
            assert!(
                first > max_before[before],
                "{first:#x} is not above {:#x}, returned before its call",
                max_before[before]
            );
            overlapping += usize::from(log.len() > before);
        }
        assert!(overlapping > 0);
    }
}

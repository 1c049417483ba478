//! Model-based test of every time-based generator under every policy (RFC 9562 §6.1, §6.2):
//! a random walk of clock readings (forward, frozen, small and large steps back, jumps to and
//! past the ends of the layout's range) and of calls (`next`, `fill` of random sizes, a real
//! `fork` in between), each result checked against a plain reference of what the generator
//! promises:
//!
//! - order: every UUID is greater than the previous one (v1: its timestamp; v2: its time step,
//!   then its place in the step's count), except the first one after a step back that the
//!   generator reported following under `RegressionPolicy::Reset`;
//! - regression: beyond the threshold, `Continue` (the default) counts on, `Error` refuses
//!   with a regression error and issues nothing, `Reset` follows the clock to exactly its tick
//!   and counts one more reset; within it, all three count on;
//! - time: a UUID's tick is never below the clock's reading, and never ahead of the clock by
//!   more than the overflow policy allows (`Advance`: one tick past the previous UUID; `Wait`
//!   and `Error`: none);
//! - errors: only those the reference expects or allows (time range outside the layout,
//!   overflow under the `Error` policy once the reading's ticks are used up);
//! - uniqueness against every UUID issued before, in the same process and, after a fork, in
//!   the child; the exceptions are those the documentation states (under `Reset`, a v7/v8
//!   layout with fewer than 32 random bits, and a v1/v6 child that inherited resets, rest on
//!   chance rather than a guarantee).
//!
//! The process-wide generators (`uuidkit::v1()` …) read the system clock; their walk is of
//! calls and forks only.
//!
//! Environment: `UUIDKIT_MODEL_SECONDS` runs cases until that many seconds have passed (the
//! `scripts/model-check` script sets it); otherwise `UUIDKIT_MODEL_CASES` cases (default 500)
//! run. `UUIDKIT_MODEL_SEED` sets the first case's seed (default: fixed, so that CI runs the
//! same cases every time); each failure names its case seed.

#![cfg(all(target_os = "linux", feature = "std"))]

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use uuidkit::generator::{
    Clock, DistributedBuilder, DistributedGenerator, DistributedLayout, GenError, GenErrorKind,
    GregorianBuilder, OverflowPolicy, RegressionPolicy, SeqRandom, V1Generator, V2Generator,
    V6Generator, V7Builder, V7Generator, V7Method, V8TimeBuilder, V8TimeGenerator,
};
use uuidkit::{Domain, Timestamp, Uuid, GREGORIAN_OFFSET_TICKS};

const SEC: i128 = 1_000_000_000;
const DAY: i128 = 86_400 * SEC;

// ---- a small deterministic PRNG for the walk ----------------------------------------------------

struct Walk(u64);

impl Walk {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn range(&mut self, lo: i128, hi: i128) -> i128 {
        if hi <= lo {
            lo
        } else {
            lo + (self.next() as u128 % (hi - lo) as u128) as i128
        }
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

// ---- the clock the walk moves --------------------------------------------------------------------

struct ClockState {
    now: i128,
    /// Readings taken in the current call.
    reads: Vec<i128>,
    /// A reading after the first one in a call is a generator waiting for the clock: the clock
    /// has moved on meanwhile, to at least `catch_up`, one `unit` more at each further reading.
    catch_up: i128,
    unit: i128,
}

struct ModelClock {
    state: Mutex<ClockState>,
    resolution: u64,
}

impl ModelClock {
    fn new(now: i128, resolution: u64) -> ModelClock {
        ModelClock {
            state: Mutex::new(ClockState {
                now,
                reads: Vec::new(),
                catch_up: now,
                unit: 1,
            }),
            resolution,
        }
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, ClockState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn now_nanos(&self) -> i128 {
        self.lock().now
    }
    fn set(&self, n: i128) {
        self.lock().now = n;
    }
    fn begin_call(&self, catch_up: i128, unit: i128) {
        let mut s = self.lock();
        s.reads.clear();
        s.catch_up = catch_up;
        s.unit = unit.max(1);
    }
    fn end_call(&self) -> Vec<i128> {
        std::mem::take(&mut self.lock().reads)
    }
}

impl Clock for ModelClock {
    fn now(&self) -> Timestamp {
        let mut s = self.lock();
        if !s.reads.is_empty() {
            let k = s.reads.len() as i128 - 1;
            let target = s.catch_up.saturating_add(k.saturating_mul(s.unit));
            s.now = s.now.saturating_add(s.unit).max(target);
        }
        let n = s.now;
        s.reads.push(n);
        Timestamp::from_unix_nanos(n).unwrap_or(Timestamp::UNIX_EPOCH)
    }
    fn resolution_nanos(&self) -> u64 {
        self.resolution
    }
}

// ---- the layouts, as the reference reads them ------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    V1,
    V6,
    V2,
    V7(V7Method),
    B1,
    Dist(DistributedLayout),
}

/// `tick = floor((t - epoch) * num / den)`, `0 <= tick < max`: the same arithmetic as the
/// library's, written out again from RFC 9562's field definitions.
#[derive(Debug, Clone, Copy)]
struct Scale {
    epoch: i128,
    num: i128,
    den: i128,
    max: u64,
}

impl Scale {
    fn tick(&self, nanos: i128) -> Option<u64> {
        let t = (nanos - self.epoch)
            .checked_mul(self.num)?
            .div_euclid(self.den);
        (t >= 0 && t < self.max as i128).then_some(t as u64)
    }
    fn nanos(&self, tick: u64) -> i128 {
        let v = (tick as i128).saturating_mul(self.den);
        self.epoch
            .saturating_add(v.saturating_add(self.num - 1).div_euclid(self.num))
    }
    fn span(&self, resolution: u64) -> u64 {
        ((resolution as i128 * self.num) / self.den).clamp(1, u64::MAX as i128) as u64
    }
}

const GREG_EPOCH: i128 = -(GREGORIAN_OFFSET_TICKS as i128) * 100;

impl Kind {
    fn scale(&self) -> Scale {
        match *self {
            Kind::V1 | Kind::V6 => Scale {
                epoch: GREG_EPOCH,
                num: 1,
                den: 100,
                max: 1 << 60,
            },
            Kind::V2 => Scale {
                epoch: GREG_EPOCH,
                num: 1,
                den: 100 << 32,
                max: 1 << 28,
            },
            Kind::V7(m) => {
                let f = frac_bits(m);
                Scale {
                    epoch: 0,
                    num: 1 << f,
                    den: 1_000_000,
                    max: 1 << (48 + f),
                }
            }
            Kind::B1 => Scale {
                epoch: 0,
                num: 1,
                den: 10,
                max: 1 << 60,
            },
            // 48-bit Unix milliseconds, as v7.
            Kind::Dist(_) => Scale {
                epoch: 0,
                num: 1,
                den: 1_000_000,
                max: 1 << 48,
            },
        }
    }

    /// The tick a UUID carries.
    fn tick_of(&self, u: Uuid) -> u64 {
        match *self {
            Kind::V1 | Kind::V6 => u.gregorian_ticks().unwrap_or(0),
            Kind::V2 => u.v2_ticks().unwrap_or(0) >> 32,
            Kind::V7(m) => {
                let f = frac_bits(m);
                let ms = u.unix_ts_ms().unwrap_or(0);
                let a = u64::from(u.rand_a().unwrap_or(0));
                (ms << f) | (a >> (12 - f))
            }
            Kind::B1 => (u.custom_a().unwrap_or(0) << 12) | u64::from(u.custom_b().unwrap_or(0)),
            Kind::Dist(_) => u.custom_a().unwrap_or(0),
        }
    }

    /// Random bits per UUID: what uniqueness rests on where no guarantee holds.
    fn random_bits(&self) -> u32 {
        match *self {
            Kind::V1 | Kind::V6 | Kind::V2 => 0,
            Kind::V7(V7Method::Counter { bits }) => 74 - u32::from(bits),
            Kind::V7(V7Method::MonotonicRandom { .. }) => 74,
            Kind::V7(V7Method::SubMillis {
                fraction_bits,
                counter_bits,
            }) => 74 - u32::from(fraction_bits) - u32::from(counter_bits),
            Kind::B1 => 62,
            Kind::Dist(l) => u32::from(l.random_bits()),
        }
    }
}

fn frac_bits(m: V7Method) -> u32 {
    match m {
        V7Method::SubMillis { fraction_bits, .. } => u32::from(fraction_bits),
        _ => 0,
    }
}

// ---- the generators behind one interface ---------------------------------------------------------

enum Gen<'c> {
    V1(V1Generator<&'c ModelClock, SeqRandom>),
    V6(V6Generator<&'c ModelClock, SeqRandom>),
    V2(V2Generator<&'c ModelClock, SeqRandom>),
    V7(V7Generator<&'c ModelClock, SeqRandom>),
    B1(V8TimeGenerator<&'c ModelClock, SeqRandom>),
    Dist(DistributedGenerator<&'c ModelClock, SeqRandom>),
}

impl Gen<'_> {
    /// `next` for one slot, `fill` for more (v2 has no `fill`: one `next` per call).
    fn fill(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
        if let [one] = out {
            *one = match self {
                Gen::V1(g) => g.next(),
                Gen::V6(g) => g.next(),
                Gen::V2(g) => g.next(Domain::Org, 7),
                Gen::V7(g) => g.next(),
                Gen::B1(g) => g.next(),
                Gen::Dist(g) => g.next(),
            }?;
            return Ok(());
        }
        match self {
            Gen::V1(g) => g.fill(out),
            Gen::V6(g) => g.fill(out),
            Gen::V2(_) => unreachable!("v2 is called one UUID at a time"),
            Gen::V7(g) => g.fill(out),
            Gen::B1(g) => g.fill(out),
            Gen::Dist(g) => g.fill(out),
        }
    }
    fn resets(&self) -> u64 {
        match self {
            Gen::V1(g) => g.resets(),
            Gen::V6(g) => g.resets(),
            Gen::V2(g) => g.resets(),
            Gen::V7(g) => g.resets(),
            Gen::B1(g) => g.resets(),
            Gen::Dist(g) => g.resets(),
        }
    }
    /// Clock sequence and node, for the Gregorian layouts.
    fn ident(&self) -> Option<(u16, [u8; 6])> {
        match self {
            Gen::V1(g) => Some((g.clock_seq(), g.node())),
            Gen::V6(g) => Some((g.clock_seq(), g.node())),
            Gen::V2(g) => Some((g.clock_seq().into(), g.node())),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Config {
    kind: Kind,
    overflow: OverflowPolicy,
    regression: RegressionPolicy,
    threshold: Duration,
    resolution: u64,
}

impl Config {
    fn random(w: &mut Walk) -> Config {
        let kinds = [
            Kind::V1,
            Kind::V6,
            Kind::V2,
            Kind::V7(V7Method::Counter { bits: 12 }),
            Kind::V7(V7Method::Counter { bits: 42 }),
            Kind::V7(V7Method::MonotonicRandom { increment_bits: 60 }),
            Kind::V7(V7Method::MonotonicRandom { increment_bits: 8 }),
            Kind::V7(V7Method::SubMillis {
                fraction_bits: 12,
                counter_bits: 0,
            }),
            Kind::V7(V7Method::SubMillis {
                fraction_bits: 6,
                counter_bits: 12,
            }),
            Kind::B1,
            Kind::Dist(DistributedLayout::default()),
            // The narrowest counter, 12 bits: it runs out within 4,096 UUIDs of a millisecond.
            Kind::Dist(DistributedLayout::new(12, 8).unwrap_or_default()),
            // The widest counter, 42 bits, and a 32-bit node id: no random bits.
            Kind::Dist(DistributedLayout::new(42, 32).unwrap_or_default()),
            // A 26-bit counter (as `uuidkit::v7()`'s) and a 48-bit node id.
            Kind::Dist(DistributedLayout::new(26, 48).unwrap_or_default()),
            // A 62-bit node id after a 12-bit counter: no random bits either.
            Kind::Dist(DistributedLayout::new(12, 62).unwrap_or_default()),
        ];
        Config {
            kind: w.pick(&kinds),
            overflow: w.pick(&[
                OverflowPolicy::Advance,
                OverflowPolicy::Wait,
                OverflowPolicy::Error,
            ]),
            regression: w.pick(&[
                RegressionPolicy::Continue,
                RegressionPolicy::Reset,
                RegressionPolicy::Error,
            ]),
            threshold: w.pick(&[
                uuidkit::generator::DEFAULT_REGRESSION_THRESHOLD,
                Duration::from_millis(1),
                Duration::from_secs(3600),
            ]),
            resolution: w.pick(&[1, 1, 100, 1_000, 1_000_000, 15_625_000]),
        }
    }

    fn build<'c>(&self, clock: &'c ModelClock, seed: u64) -> Gen<'c> {
        let rng = SeqRandom::new(seed);
        macro_rules! policies {
            ($b:expr) => {
                $b.overflow(self.overflow)
                    .regression(self.regression)
                    .regression_threshold(self.threshold)
            };
        }
        let g = policies!(GregorianBuilder::new());
        let built = match self.kind {
            Kind::V1 => g.build_v1(clock, rng).map(Gen::V1),
            Kind::V6 => g.build_v6(clock, rng).map(Gen::V6),
            Kind::V2 => g.build_v2(clock, rng).map(Gen::V2),
            Kind::V7(m) => policies!(V7Builder::new().method(m))
                .build(clock, rng)
                .map(Gen::V7),
            Kind::B1 => Ok(Gen::B1(policies!(V8TimeBuilder::new()).build(clock, rng))),
            Kind::Dist(l) => policies!(DistributedBuilder::new(l))
                .build(clock, rng)
                .map(Gen::Dist),
        };
        match built {
            Ok(g) => g,
            Err(e) => panic!("{self:?}: {e}"),
        }
    }

    /// The policy in effect: v2 never follows the clock back, and does under `Reset` as under
    /// `Continue`.
    fn regression(&self) -> RegressionPolicy {
        match (self.kind, self.regression) {
            (Kind::V2, RegressionPolicy::Reset) => RegressionPolicy::Continue,
            (_, p) => p,
        }
    }
}

// ---- the reference -------------------------------------------------------------------------------

#[derive(Default, Clone, Copy)]
struct Stats {
    cases: u64,
    steps: u64,
    calls: u64,
    uuids: u64,
    forks: u64,
    resets: u64,
    errors: u64,
    violations: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.cases += o.cases;
        self.steps += o.steps;
        self.calls += o.calls;
        self.uuids += o.uuids;
        self.forks += o.forks;
        self.resets += o.resets;
        self.errors += o.errors;
        self.violations += o.violations;
    }
}

#[derive(Clone)]
struct Model {
    cfg: Config,
    scale: Scale,
    /// The last UUID: its tick and its order key.
    prev: Option<(Uuid, u64, u128)>,
    /// The highest clock reading of the calls that issued, since the start or the last reset.
    reference: Option<i128>,
    seen: HashSet<Uuid>,
    /// Uniqueness rests on chance, not a guarantee, from here on (see the module docs).
    by_chance: bool,
    v2_base: u16,
    stats: Stats,
    failures: Vec<String>,
}

impl Model {
    fn new(cfg: Config) -> Model {
        Model {
            cfg,
            scale: cfg.kind.scale(),
            prev: None,
            reference: None,
            seen: HashSet::new(),
            by_chance: cfg.regression() == RegressionPolicy::Reset && cfg.kind.random_bits() < 32,
            v2_base: 0,
            stats: Stats::default(),
            failures: Vec::new(),
        }
    }

    fn fail(&mut self, what: String) {
        self.stats.violations += 1;
        if self.failures.len() < 5 {
            self.failures.push(what);
        }
    }

    fn key(&self, u: Uuid, tick: u64) -> u128 {
        match self.cfg.kind {
            Kind::V1 => tick.into(),
            Kind::V2 => {
                let k = u
                    .v2_clock_seq()
                    .unwrap_or(0)
                    .wrapping_sub(self.v2_base as u8)
                    & 0x3f;
                (u128::from(tick) << 6) | u128::from(k)
            }
            _ => u.as_u128(),
        }
    }

    /// One call of `n` UUIDs, checked.
    fn call(&mut self, g: &mut Gen, clock: &ModelClock, n: usize) {
        self.stats.calls += 1;
        let s = self.scale;
        let unit = (s.nanos(1) - s.nanos(0)).max(1);
        let catch_up = match self.prev {
            Some((_, t, _)) => s.nanos(t.saturating_add(1).min(s.max)),
            None => clock.now_nanos(),
        };
        clock.begin_call(catch_up, unit);
        let resets_before = g.resets();
        let mut out = vec![Uuid::NIL; n];
        let res = g.fill(&mut out);
        let reads = clock.end_call();
        let issued = out.iter().take_while(|u| **u != Uuid::NIL).count();
        if let Some((seq, _)) = g.ident() {
            self.v2_base = seq;
        }
        self.stats.uuids += issued as u64;
        let span = s.span(clock.resolution);
        let policy = self.cfg.regression();
        let shown: Vec<i128> = reads.iter().take(3).copied().collect();
        let where_ = |m: &Model| {
            format!(
                "{:?}, call of {n}, {} readings {shown:?}…, reference {:?}",
                m.cfg,
                reads.len(),
                m.reference
            )
        };

        let Some(&r0) = reads.first() else {
            if n > 0 {
                self.fail(format!("no clock reading: {}", where_(self)));
            }
            return;
        };
        let r0_tick = s.tick(r0);
        let out_of_range = reads.iter().any(|&r| s.tick(r).is_none());
        // The highest reading the generator could use: those in the range, and the reference
        // it keeps counting from after a step back.
        let rmax = reads.iter().copied().filter(|&r| s.tick(r).is_some()).max();
        let reference_tick = self.reference.and_then(|r| s.tick(r));
        let rmax_tick = rmax.and_then(|r| s.tick(r)).unwrap_or(0);
        let eff_tick = if expect_reset_pending(self, &reads, s) {
            rmax_tick
        } else {
            rmax_tick.max(reference_tick.unwrap_or(0))
        };
        // The step back beyond the threshold that the policy decides on.
        let beyond = beyond_threshold(self, r0, s);
        let expect_reset = beyond && policy == RegressionPolicy::Reset;
        let expect_regression_error = beyond && policy == RegressionPolicy::Error;

        // Resets: exactly one when the reference expects one, else none.
        let resets_after = g.resets();
        let want_resets = resets_before + u64::from(expect_reset && issued > 0);
        if resets_after != want_resets {
            self.fail(format!(
                "resets {resets_before} -> {resets_after}, expected {want_resets}: {}",
                where_(self)
            ));
        }
        self.stats.resets += resets_after - resets_before;

        for (i, &u) in out.iter().take(issued).enumerate() {
            let t = self.cfg.kind.tick_of(u);
            let k = self.key(u, t);
            if expect_reset && i == 0 {
                if Some(t) != r0_tick {
                    self.fail(format!(
                        "reset to tick {t}, not the clock's {r0_tick:?}: {}",
                        where_(self)
                    ));
                }
            } else {
                if let Some((p, pt, pk)) = self.prev {
                    if k <= pk {
                        self.fail(format!(
                            "{u} (tick {t}) does not follow {p} (tick {pt}): {}",
                            where_(self)
                        ));
                    }
                }
                if r0_tick.is_some_and(|r| t < r) {
                    self.fail(format!(
                        "{u}: tick {t} below the reading's {r0_tick:?}: {}",
                        where_(self)
                    ));
                }
                let prev_tick = self.prev.map(|p| p.1);
                let ahead_ok = match self.cfg.overflow {
                    OverflowPolicy::Advance => prev_tick.map_or(0, |p| p + 1),
                    _ => prev_tick.unwrap_or(0),
                }
                .max(eff_tick + span - 1);
                if t > ahead_ok {
                    self.fail(format!(
                        "{u}: tick {t} ahead of the allowed {ahead_ok}: {}",
                        where_(self)
                    ));
                }
            }
            if !self.seen.insert(u) && !self.by_chance {
                self.fail(format!("duplicate {u}: {}", where_(self)));
            }
            self.prev = Some((u, t, k));
        }

        match res {
            Ok(()) => {
                if issued != n {
                    self.fail(format!("Ok with {issued} of {n} written: {}", where_(self)));
                }
                if out_of_range && r0_tick.is_none() {
                    self.fail(format!(
                        "Ok although the clock read outside the range: {}",
                        where_(self)
                    ));
                }
                if expect_regression_error {
                    self.fail(format!("no regression error: {}", where_(self)));
                }
            }
            Err(e) => {
                self.stats.errors += 1;
                let prev_tick = self.prev.map(|p| p.1);
                let ok = match e.kind() {
                    GenErrorKind::TimeRange => {
                        out_of_range || prev_tick.is_some_and(|p| p + 1 >= s.max)
                    }
                    GenErrorKind::ClockRegression => expect_regression_error && issued == 0,
                    GenErrorKind::Overflow => {
                        self.cfg.overflow == OverflowPolicy::Error
                            && prev_tick.is_some_and(|p| eff_tick + span - 1 <= p || p + 1 >= s.max)
                    }
                    _ => false,
                };
                if !ok {
                    self.fail(format!("unexpected error {e}: {}", where_(self)));
                }
                if r0_tick.is_none() && issued > 0 {
                    self.fail(format!(
                        "issued from a reading outside the range: {}",
                        where_(self)
                    ));
                }
            }
        }
        if let (true, Some(rmax)) = (issued > 0, rmax) {
            self.reference = Some(if expect_reset {
                rmax
            } else {
                self.reference.map_or(rmax, |r| r.max(rmax))
            });
        }
    }
}

/// Whether the first reading `r0` of a call lies more than the threshold below the reference,
/// in an earlier tick: the step back the regression policy decides on.
fn beyond_threshold(m: &Model, r0: i128, s: Scale) -> bool {
    match (m.reference, s.tick(r0)) {
        (Some(reference), Some(t)) => {
            s.tick(reference).is_some_and(|rt| t < rt)
                && reference > r0
                && (reference - r0).unsigned_abs() > m.cfg.threshold.as_nanos()
        }
        _ => false,
    }
}

/// Whether the call starts with a reset the reference expects.
fn expect_reset_pending(m: &Model, reads: &[i128], s: Scale) -> bool {
    m.cfg.regression() == RegressionPolicy::Reset
        && reads.first().is_some_and(|&r0| beyond_threshold(m, r0, s))
}

// ---- the walk ------------------------------------------------------------------------------------

/// Moves the clock one step of the walk.
fn move_clock(w: &mut Walk, clock: &ModelClock, cfg: &Config, base: i128) {
    let s = cfg.kind.scale();
    let unit = (s.nanos(1) - s.nanos(0)).max(1);
    let threshold = cfg.threshold.as_nanos() as i128;
    let now = clock.now_nanos();
    let n = match w.below(100) {
        0..=19 => now,                                     // frozen
        20..=44 => now + w.range(0, 3 * unit + 1),         // a tick or three
        45..=54 => now + w.range(0, 2_000),                // nanoseconds
        55..=62 => now + w.range(SEC, 30 * DAY),           // far forward
        63..=72 => now - w.range(1, threshold + 1),        // back, within the threshold
        73..=77 => now - threshold - w.range(1, 1_000),    // just beyond it
        78..=86 => now - threshold - w.range(1, 30 * DAY), // far back
        87..=89 => s.nanos(s.max) - w.range(1, 5 * unit),  // just before the end of the range
        90..=91 => s.nanos(s.max) + w.range(0, DAY),       // past it
        92 => s.nanos(0) - w.range(1, DAY),                // before its start
        _ => base + w.range(-DAY, DAY),                    // back to the present, from anywhere
    };
    clock.set(n);
}

/// A call size: mostly one, often a small batch, sometimes a large one.
fn call_size(w: &mut Walk, cfg: &Config) -> usize {
    if cfg.kind == Kind::V2 {
        return 1;
    }
    let cap = if cfg.overflow == OverflowPolicy::Wait {
        64
    } else {
        4_000
    };
    match w.below(10) {
        0..=4 => 1,
        5..=8 => w.range(0, 65) as usize,
        _ => w.range(65, cap + 1) as usize,
    }
}

/// One case: a generator and a walk of `steps` steps; forks (at most one, if `may_fork`) run the
/// rest of the walk in the child too. Returns the parent's statistics and failures.
fn run_case(seed: u64, steps: usize, may_fork: bool) -> (Stats, Vec<String>) {
    let mut w = Walk(seed);
    let cfg = Config::random(&mut w);
    let base = 1_645_557_742 * SEC + w.range(-365 * DAY, 365 * DAY);
    let clock = ModelClock::new(base, cfg.resolution);
    let mut g = cfg.build(&clock, w.next());
    let mut m = Model::new(cfg);
    m.stats.cases = 1;
    let fork_at = if may_fork && w.chance(3) {
        Some(w.below(steps as u64) as usize)
    } else {
        None
    };
    for step in 0..steps {
        if Some(step) == fork_at {
            m.stats.forks += 1;
            m.stats.steps += 1;
            fork_and_check(&mut w, &clock, &mut g, &mut m, base);
            continue;
        }
        m.stats.steps += 1;
        if w.chance(2) {
            move_clock(&mut w, &clock, &cfg, base);
        } else {
            let n = call_size(&mut w, &cfg);
            m.call(&mut g, &clock, n);
        }
    }
    let failures = m
        .failures
        .iter()
        .map(|f| format!("case seed {seed:#x}: {f}"))
        .collect();
    (m.stats, failures)
}

/// Steps the child of a fork takes before it reports.
const CHILD_STEPS: usize = 24;

/// Forks. The child checks its first UUIDs against everything issued before the fork (order
/// and uniqueness; v1, v2, v6: a new clock sequence and random node), walks on for
/// `CHILD_STEPS` steps and exits with the number of violations; the parent waits for it and
/// counts them.
fn fork_and_check(w: &mut Walk, clock: &ModelClock, g: &mut Gen, m: &mut Model, base: i128) {
    let child_seed = w.next();
    let ident_before = g.ident();
    // A child that inherited resets of a v1/v6 generator under Reset may take a random clock
    // sequence that one of the earlier sequences had: its uniqueness against the UUIDs before
    // the fork then rests on chance (the documentation says so).
    let inherited_resets = g.resets() > 0;
    // SAFETY: the child runs only this thread's code on memory it owns a copy of, and leaves
    // with `_exit`, never returning into the test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut cw = Walk(child_seed);
            let mut cm = m.clone();
            cm.failures.clear();
            cm.stats = Stats::default();
            if inherited_resets && matches!(cm.cfg.kind, Kind::V1 | Kind::V6) {
                cm.by_chance = true;
            }
            let mut checked_ident = false;
            for _ in 0..CHILD_STEPS {
                if cw.chance(2) {
                    move_clock(&mut cw, clock, &cm.cfg, base);
                } else {
                    let n = call_size(&mut cw, &cm.cfg);
                    let before = cm.stats.uuids;
                    cm.call(g, clock, n);
                    if !checked_ident && cm.stats.uuids > before {
                        checked_ident = true;
                        if let (Some((s0, n0)), Some((s1, n1))) = (ident_before, g.ident()) {
                            if s0 == s1 {
                                cm.fail(format!("child kept the clock sequence {s0}"));
                            }
                            if n0 == n1 && n0[0] & 1 == 1 {
                                cm.fail(format!("child kept the random node {n0:02x?}"));
                            }
                        }
                    }
                }
            }
            for f in &cm.failures {
                eprintln!("fork child, {:?}: {f}", cm.cfg);
            }
            cm.stats.violations.min(100) as i32
        }))
        .unwrap_or(101);
        // SAFETY: ends the child without running the parent's atexit handlers or destructors.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: `pid` is our child and `status` a writable int.
    let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
    let code = if waited == pid && libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        102
    };
    m.stats.steps += CHILD_STEPS as u64;
    if code != 0 {
        m.fail(format!(
            "fork child reported {code} violation(s) (its stderr names them)"
        ));
    }
}

// ---- the process-wide generators -------------------------------------------------------------------

/// A walk of calls of the process-wide v1, v6 and v7 generators (system clock) with forks:
/// each version's UUIDs strictly increase (v1: by timestamp) and never repeat, in the process
/// and in a forked child against everything before the fork.
fn run_global(seed: u64, steps: usize) -> (Stats, Vec<String>) {
    use uuidkit::generator::global::{try_v1, try_v6, try_v7, try_v7_batch};
    let mut w = Walk(seed);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    let mut seen: HashSet<Uuid> = HashSet::new();
    let mut last = [0u128; 3];
    let mut check = |v: usize, u: Uuid, stats: &mut Stats, failures: &mut Vec<String>| {
        let key = if v == 0 {
            u.gregorian_ticks().unwrap_or(0).into()
        } else {
            u.as_u128()
        };
        stats.uuids += 1;
        if key <= last[v] || !seen.insert(u) {
            stats.violations += 1;
            failures.push(format!(
                "global v{}: {u} does not follow or repeats",
                [1, 6, 7][v]
            ));
        }
        last[v] = key;
    };
    let mut in_child = false;
    let mut child_left = 0;
    for _ in 0..steps {
        stats.steps += 1;
        if in_child {
            if child_left == 0 {
                // SAFETY: as in `fork_and_check`.
                unsafe { libc::_exit(stats.violations.min(100) as i32) };
            }
            child_left -= 1;
        } else if w.chance(40) {
            stats.forks += 1;
            // SAFETY: as in `fork_and_check`.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                in_child = true;
                child_left = 30;
                stats.violations = 0;
                continue;
            }
            let mut status = 0;
            // SAFETY: as in `fork_and_check`.
            let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
            if !(waited == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
                stats.violations += 1;
                failures.push(format!("global: fork child failed (status {status:#x})"));
            }
            continue;
        }
        stats.calls += 1;
        let v = w.below(4) as usize;
        let r = match v {
            0 => try_v1().map(|u| vec![u]),
            1 => try_v6().map(|u| vec![u]),
            2 => try_v7().map(|u| vec![u]),
            _ => {
                let mut b = vec![Uuid::NIL; w.range(0, 3_000) as usize];
                try_v7_batch(&mut b).map(|()| b)
            }
        };
        match r {
            Ok(us) => us
                .into_iter()
                .for_each(|u| check(v.min(2), u, &mut stats, &mut failures)),
            Err(e) => {
                stats.violations += 1;
                failures.push(format!("global: {e}"));
            }
        }
    }
    if in_child {
        for f in &failures {
            eprintln!("fork child: {f}");
        }
        // SAFETY: as in `fork_and_check`.
        unsafe { libc::_exit(stats.violations.min(100) as i32) };
    }
    (stats, failures)
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

#[test]
fn every_generator_and_policy_keeps_its_promise_on_a_random_walk() {
    let seconds = env_u64("UUIDKIT_MODEL_SECONDS");
    let cases = env_u64("UUIDKIT_MODEL_CASES").unwrap_or(500);
    let mut seed = env_u64("UUIDKIT_MODEL_SEED").unwrap_or(0x5EED_0016);
    let start = Instant::now();
    let mut total = Stats::default();
    let mut failures = Vec::new();
    let mut global = Stats::default();
    let mut case = 0u64;
    loop {
        let done = match seconds {
            Some(s) => start.elapsed() >= Duration::from_secs(s),
            None => case >= cases,
        };
        if done {
            break;
        }
        let steps = 50 + (Walk(seed).next() % 350) as usize;
        let (stats, f) = run_case(seed, steps, true);
        total.add(&stats);
        failures.extend(f);
        if case % 25 == 0 {
            let (stats, f) = run_global(seed ^ 0x600D, 200);
            global.add(&stats);
            failures.extend(f);
        }
        seed = Walk(seed).next();
        case += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "model: {} cases, {} steps ({} calls, {} UUIDs, {} forks, {} resets reported, {} errors \
         expected), {} violations; process-wide: {} steps, {} UUIDs, {} forks, {} violations; \
         {secs:.1} s",
        total.cases,
        total.steps,
        total.calls,
        total.uuids,
        total.forks,
        total.resets,
        total.errors,
        total.violations,
        global.steps,
        global.uuids,
        global.forks,
        global.violations
    );
    assert!(
        failures.is_empty() && total.violations == 0 && global.violations == 0,
        "{} violations, first ones:\n{}",
        total.violations + global.violations,
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

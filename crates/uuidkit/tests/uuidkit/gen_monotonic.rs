//! Monotonicity, overflow and clock-regression behaviour of the per-instance time-based
//! generators (RFC 9562 §6.1, §6.2), driven by fixed, stepped and replayed clocks.

#![cfg(feature = "std")]

use std::collections::HashSet;
use std::time::Duration;

use uuidkit::generator::{
    Clock, DistributedBuilder, DistributedLayout, FixedClock, GenErrorKind, GregorianBuilder,
    OverflowPolicy, RegressionPolicy, ReplayClock, SeqRandom, StepClock, V1Generator, V2Generator,
    V6Generator, V7Builder, V7Generator, V7Method, V8TimeBuilder, V8TimeGenerator,
};
use uuidkit::{Domain, Timestamp, Uuid};

const N: usize = 1 << 20;
const HOUR: i128 = 3_600_000_000_000;
const MS: i128 = 1_000_000;

fn t0() -> Timestamp {
    Timestamp::from_unix_millis(1_645_557_742_000)
}

fn t0_ms() -> u64 {
    1_645_557_742_000
}

fn t0_ticks() -> u64 {
    t0().gregorian_ticks().unwrap()
}

/// The Method 1 counter of a v7 UUID whose counter is `bits` wide.
fn counter_of(u: Uuid, bits: u32) -> u64 {
    let field = ((u.rand_a().unwrap() as u128) << 62) | u.rand_b().unwrap() as u128;
    (field >> (74 - bits)) as u64
}

fn assert_strictly_increasing(v: &[Uuid]) {
    for (i, w) in v.windows(2).enumerate() {
        assert!(
            w[0] < w[1],
            "UUID {} ({}) is not below UUID {} ({})",
            i,
            w[0],
            i + 1,
            w[1]
        );
    }
}

fn assert_ticks_strictly_increasing(v: &[Uuid]) {
    for (i, w) in v.windows(2).enumerate() {
        let (a, b) = (w[0].gregorian_ticks(), w[1].gregorian_ticks());
        assert!(
            a < b,
            "tick of UUID {i} ({a:?}) is not below the next ({b:?})"
        );
    }
}

fn assert_no_duplicates(v: &[Uuid]) {
    let set: HashSet<Uuid> = v.iter().copied().collect();
    assert_eq!(set.len(), v.len(), "duplicates among {} UUIDs", v.len());
}

// ---- frozen clock: 2^20 UUIDs -----------------------------------------------------------------

#[test]
fn v1_frozen_clock_advances_one_tick_per_uuid() {
    let mut g = V1Generator::new(FixedClock::new(t0()), SeqRandom::new(1));
    let v: Vec<Uuid> = (0..N).map(|_| g.next().unwrap()).collect();
    assert_ticks_strictly_increasing(&v);
    assert_no_duplicates(&v);
    // A 1-ns clock covers one tick per reading: every further UUID is an overflow that moved
    // the timestamp one tick ahead, and no more.
    assert_eq!(v[0].gregorian_ticks(), Some(t0_ticks()));
    assert_eq!(v[N - 1].gregorian_ticks(), Some(t0_ticks() + N as u64 - 1));
    assert!(v.iter().all(|u| u.clock_seq() == v[0].clock_seq()));
}

#[test]
fn v6_frozen_clock_strictly_increasing() {
    let mut g = V6Generator::new(FixedClock::new(t0()), SeqRandom::new(2));
    let mut v = vec![Uuid::NIL; N];
    for chunk in v.chunks_mut(1000) {
        g.fill(chunk).unwrap();
    }
    assert_strictly_increasing(&v);
    assert_no_duplicates(&v);
    assert_eq!(v[0].gregorian_ticks(), Some(t0_ticks()));
    assert_eq!(v[N - 1].gregorian_ticks(), Some(t0_ticks() + N as u64 - 1));
}

/// Generates N v7 UUIDs at a frozen clock and returns them after the common checks.
fn v7_frozen(method: V7Method, seed: u64) -> Vec<Uuid> {
    let mut g = V7Builder::new()
        .method(method)
        .build(FixedClock::new(t0()), SeqRandom::new(seed))
        .unwrap();
    let v: Vec<Uuid> = (0..N).map(|_| g.next().unwrap()).collect();
    assert_strictly_increasing(&v);
    assert_no_duplicates(&v);
    assert_eq!(v[0].unix_ts_ms(), Some(t0_ms()), "{method:?}");
    v
}

#[test]
fn v7_method1_42_bits_frozen_clock_stays_on_the_clock() {
    let v = v7_frozen(V7Method::Counter { bits: 42 }, 3);
    // 2^20 increments fit in the 2^41 a seeded 42-bit counter has left: no overflow, so the
    // timestamp must not run ahead.
    assert_eq!(v[N - 1].unix_ts_ms(), Some(t0_ms()));
    assert_eq!(
        counter_of(v[N - 1], 42),
        counter_of(v[0], 42) + N as u64 - 1
    );
    assert!(counter_of(v[0], 42) < 1 << 41, "rollover guard bit set");
}

#[test]
fn v7_method1_12_bits_frozen_clock_overflows_ahead() {
    let v = v7_frozen(V7Method::Counter { bits: 12 }, 4);
    let last = v[N - 1].unix_ts_ms().unwrap();
    // Each millisecond holds 2^11 to 2^12 UUIDs (seed below 2^11): 256 to 512 ms ahead.
    let ahead = last - t0_ms();
    assert!((256..=512).contains(&ahead), "{ahead} ms ahead");
    // Every new millisecond starts at a seed with the top counter bit clear.
    for w in v.windows(2) {
        if w[1].unix_ts_ms() != w[0].unix_ts_ms() {
            assert_eq!(w[1].unix_ts_ms(), Some(w[0].unix_ts_ms().unwrap() + 1));
            assert!(counter_of(w[1], 12) < 1 << 11);
        } else {
            assert_eq!(counter_of(w[1], 12), counter_of(w[0], 12) + 1);
        }
    }
}

#[test]
fn v7_method2_frozen_clock() {
    // 32-bit increments: about 2^51 of the 2^74 space used, no overflow with this seed.
    let v = v7_frozen(V7Method::monotonic_random(), 5);
    assert_eq!(v[N - 1].unix_ts_ms(), Some(t0_ms()));
    // 64-bit increments cannot fit 2^20 times in 74 bits: the overflow path must be taken.
    let v = v7_frozen(V7Method::MonotonicRandom { increment_bits: 64 }, 6);
    assert!(v[N - 1].unix_ts_ms().unwrap() > t0_ms());
    // Within a millisecond the 74 bits after the timestamp grow by 1 to 2^64.
    let bits = |u: Uuid| ((u.rand_a().unwrap() as u128) << 62) | u.rand_b().unwrap() as u128;
    for w in v.windows(2) {
        if w[0].unix_ts_ms() == w[1].unix_ts_ms() {
            let d = bits(w[1]) - bits(w[0]);
            assert!((1..=1 << 64).contains(&d), "increment {d}");
        }
    }
}

#[test]
fn v7_method3_frozen_clock() {
    // No counter: every UUID after the first takes the next 1/4096 ms, ahead of the clock.
    let v = v7_frozen(
        V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 0,
        },
        7,
    );
    let tick = |u: Uuid| (u.unix_ts_ms().unwrap() << 12) | u.rand_a().unwrap() as u64;
    assert_eq!(tick(v[N - 1]) - tick(v[0]), N as u64 - 1);
    assert_eq!(
        v[N - 1].unix_ts_ms(),
        Some(t0_ms() + ((N as u64 - 1) >> 12))
    );
    // With a 20-bit counter after a 4-bit fraction: at least 2^19 UUIDs per fraction tick, so
    // 2^20 UUIDs need one or two overflows.
    let v = v7_frozen(
        V7Method::SubMillis {
            fraction_bits: 4,
            counter_bits: 20,
        },
        8,
    );
    let tick = |u: Uuid| (u.unix_ts_ms().unwrap() << 4) | (u.rand_a().unwrap() >> 8) as u64;
    let ahead = tick(v[N - 1]) - tick(v[0]);
    assert!((1..=2).contains(&ahead), "{ahead} fraction ticks ahead");
}

// ---- Wait and Error policies ------------------------------------------------------------------

#[test]
fn wait_policy_never_runs_ahead_of_a_clock_that_moves_when_read() {
    let clock = StepClock::new(t0()).with_auto_step(50_000);
    let mut g = V7Builder::new()
        .method(V7Method::Counter { bits: 12 })
        .overflow(OverflowPolicy::Wait)
        .build(&clock, SeqRandom::new(9))
        .unwrap();
    let mut v = Vec::with_capacity(1 << 16);
    for _ in 0..1 << 16 {
        let u = g.next().unwrap();
        assert!(
            u.unix_ts_ms() <= clock.peek().unix_millis(),
            "{u} ahead of the clock"
        );
        v.push(u);
    }
    assert_strictly_increasing(&v);
    // 2^16 UUIDs cannot fit in one millisecond: waiting did happen.
    assert!(v[v.len() - 1].unix_ts_ms().unwrap() > t0_ms());

    let clock = StepClock::new(t0()).with_auto_step(100);
    let mut g = GregorianBuilder::new()
        .overflow(OverflowPolicy::Wait)
        .build_v1(&clock, SeqRandom::new(10))
        .unwrap();
    let mut v = Vec::with_capacity(1 << 16);
    for _ in 0..1 << 16 {
        let u = g.next().unwrap();
        assert!(u.gregorian_ticks() <= clock.peek().gregorian_ticks());
        v.push(u);
    }
    assert_ticks_strictly_increasing(&v);
}

#[test]
fn wait_policy_gives_up_on_a_frozen_clock() {
    let mut g = V7Builder::new()
        .method(V7Method::Counter { bits: 12 })
        .overflow(OverflowPolicy::Wait)
        .build(FixedClock::new(t0()), SeqRandom::new(11))
        .unwrap();
    let err = loop {
        if let Err(e) = g.next() {
            break e;
        }
    };
    assert_eq!(err.kind(), GenErrorKind::ClockStalled);
    assert!(
        err.to_string().contains("2022-02-22T19:22:22.001000000Z"),
        "{err}"
    );
}

#[test]
fn error_policy_fails_exactly_when_the_12_bit_counter_is_exhausted() {
    let clock = StepClock::new(t0());
    let mut g = V7Builder::new()
        .method(V7Method::Counter { bits: 12 })
        .overflow(OverflowPolicy::Error)
        .build(&clock, SeqRandom::new(12))
        .unwrap();
    let first = g.next().unwrap();
    let seed = counter_of(first, 12);
    assert!(seed < 2048);
    let mut prev = first;
    for _ in seed + 1..4096 {
        let u = g.next().unwrap();
        assert!(u > prev);
        prev = u;
    }
    assert_eq!(counter_of(prev, 12), 4095);
    let err = g.next().unwrap_err();
    assert!(err.is_overflow());
    assert_eq!(
        err.to_string(),
        format!(
            "counter overflow: the 12-bit counter of the UUIDv7 48-bit millisecond timestamp is \
             exhausted after {} UUIDs at 2022-02-22T19:22:22.000000000Z; the overflow policy \
             is Error",
            4096 - seed
        )
    );
    // Still exhausted until the clock moves; then fine again.
    assert!(g.next().unwrap_err().is_overflow());
    clock.advance(MS);
    let u = g.next().unwrap();
    assert!(u > prev);
    assert_eq!(u.unix_ts_ms(), Some(t0_ms() + 1));
}

// ---- coarse clocks: simulated sub-ticks (§6.1) ------------------------------------------------

#[test]
fn coarse_clock_gives_distinct_increasing_ticks_within_the_millisecond() {
    for v6 in [false, true] {
        let clock = FixedClock::new(t0()).with_resolution(1_000_000);
        let b = GregorianBuilder::new().overflow(OverflowPolicy::Error);
        let mut next: Box<dyn FnMut() -> Result<Uuid, uuidkit::generator::GenError>> = if v6 {
            let mut g = b.build_v6(clock, SeqRandom::new(13)).unwrap();
            Box::new(move || g.next())
        } else {
            let mut g = b.build_v1(clock, SeqRandom::new(13)).unwrap();
            Box::new(move || g.next())
        };
        // A 1-ms reading covers 10,000 ticks of 100 ns: exactly that many UUIDs, each on its
        // own tick inside the millisecond, then the overflow.
        for i in 0..10_000u64 {
            assert_eq!(next().unwrap().gregorian_ticks(), Some(t0_ticks() + i));
        }
        let err = next().unwrap_err();
        assert!(err.is_overflow());
        assert!(err.to_string().contains("all 10000 ticks"), "{err}");
    }
}

#[test]
fn coarse_clock_readings_are_not_overtaken() {
    // A 1-ms clock moving 1 ms every 3 readings: ticks stay within each reading's millisecond.
    let clock = StepClock::new(t0()).with_resolution(1_000_000);
    let mut g = V6Generator::new(&clock, SeqRandom::new(14));
    let mut v = Vec::new();
    for _ in 0..1000 {
        for _ in 0..3 {
            let u = g.next().unwrap();
            let now = clock.peek().gregorian_ticks().unwrap();
            assert!((now..now + 10_000).contains(&u.gregorian_ticks().unwrap()));
            v.push(u);
        }
        clock.advance(MS);
    }
    assert_strictly_increasing(&v);
}

// ---- clock regression -------------------------------------------------------------------------

/// Steps a clock back an hour and forward again around UUIDs from `next`, with a threshold
/// above an hour: no UUID may be at or below its predecessor.
fn back_and_forth(clock: &StepClock, mut next: impl FnMut() -> Uuid, key: fn(&Uuid) -> u128) {
    let mut prev = next();
    let mut check = |prev: &mut Uuid| {
        for _ in 0..1000 {
            let u = next();
            assert!(key(&u) > key(prev), "{u} not above {prev}");
            *prev = u;
        }
    };
    check(&mut prev);
    clock.advance(5 * MS);
    check(&mut prev);
    clock.step_back(HOUR);
    check(&mut prev);
    clock.advance(HOUR + 20 * MS);
    check(&mut prev);
}

#[test]
fn stepping_back_an_hour_and_forward_never_goes_below() {
    let two_hours = Duration::from_secs(7200);
    let clock = StepClock::new(t0());
    let mut g7 = V7Builder::new()
        .regression_threshold(two_hours)
        .build(&clock, SeqRandom::new(15))
        .unwrap();
    back_and_forth(&clock, || g7.next().unwrap(), |u| u.as_u128());

    let clock = StepClock::new(t0());
    let mut g6 = GregorianBuilder::new()
        .regression_threshold(two_hours)
        .build_v6(&clock, SeqRandom::new(16))
        .unwrap();
    back_and_forth(&clock, || g6.next().unwrap(), |u| u.as_u128());

    let clock = StepClock::new(t0());
    let mut g1 = GregorianBuilder::new()
        .regression_threshold(two_hours)
        .build_v1(&clock, SeqRandom::new(17))
        .unwrap();
    back_and_forth(
        &clock,
        || g1.next().unwrap(),
        |u| u.gregorian_ticks().unwrap() as u128,
    );
}

#[test]
fn regression_with_error_policy_reports_and_never_goes_below() {
    let clock = StepClock::new(t0());
    let mut g = V7Builder::new()
        .regression(RegressionPolicy::Error)
        .build(&clock, SeqRandom::new(18))
        .unwrap();
    let prev = g.next().unwrap();
    clock.step_back(HOUR);
    let err = g.next().unwrap_err();
    assert!(err.is_clock_regression());
    assert_eq!(
        err.to_string(),
        "clock regression: the clock went back 3600000000000 ns, from \
         2022-02-22T19:22:22.000000000Z to 2022-02-22T18:22:22.000000000Z, more than the \
         threshold of 10000000000 ns; the regression policy is Error"
    );
    clock.advance(HOUR - 10_000 * MS - 1); // 10 s + 1 ns behind: still beyond
    assert!(g.next().unwrap_err().is_clock_regression());
    clock.advance(1); // exactly 10 s behind: within, the last timestamp is reused
    let u = g.next().unwrap();
    assert!(u > prev);
    assert_eq!(u.unix_ts_ms(), prev.unix_ts_ms());
    clock.advance(10_000 * MS + MS);
    let w = g.next().unwrap();
    assert!(w > u);
    assert_eq!(w.unix_ts_ms(), Some(t0_ms() + 1));
}

#[test]
fn regression_by_default_continues_above_the_last_timestamp() {
    // The default policy (Continue): an hour back, the generator keeps its millisecond and
    // counts on, and reports no reset, for there was none.
    let clock = StepClock::new(t0());
    let mut g = V7Generator::new(&clock, SeqRandom::new(19));
    let prev = g.next().unwrap();
    clock.step_back(HOUR);
    let u = g.next().unwrap();
    assert!(u > prev, "{u} does not follow {prev}");
    assert_eq!(u.unix_ts_ms(), Some(t0_ms()));
    assert_eq!(counter_of(u, 42), counter_of(prev, 42) + 1);
    assert_eq!((g.resets(), g.last_reset()), (0, None));
    // Once the clock has caught up, the timestamp follows it again.
    clock.advance(HOUR + 5 * MS);
    assert_eq!(g.next().unwrap().unix_ts_ms(), Some(t0_ms() + 5));

    // v1 and v6: the same clock sequence, the next tick.
    let clock = StepClock::new(t0());
    let mut g = V6Generator::new(&clock, SeqRandom::new(20));
    let a = g.next().unwrap();
    clock.step_back(HOUR);
    let b = g.next().unwrap();
    assert!(b > a);
    assert_eq!(b.gregorian_ticks(), Some(t0_ticks() + 1));
    assert_eq!((b.clock_seq(), g.resets()), (a.clock_seq(), 0));
}

#[test]
fn regression_with_reset_follows_the_clock_reports_it_and_changes_the_clock_sequence() {
    // v7: the chosen break of order, reported.
    let clock = StepClock::new(t0());
    let mut g = V7Builder::new()
        .regression(RegressionPolicy::Reset)
        .build(&clock, SeqRandom::new(19))
        .unwrap();
    let prev = g.next().unwrap();
    assert_eq!((g.resets(), g.last_reset()), (0, None));
    clock.step_back(HOUR);
    let u = g.next().unwrap();
    assert!(u < prev, "Reset follows the clock back");
    assert_eq!(u.unix_ts_ms(), Some(t0_ms() - 3_600_000));
    assert_eq!(g.resets(), 1);
    let event = g.last_reset().unwrap();
    assert_eq!(event.back_nanos(), HOUR as u128);
    assert_eq!(event.from_unix_nanos(), t0().unix_nanos());
    assert_eq!(event.to_unix_nanos(), t0().unix_nanos() - HOUR);
    assert!(g.next().unwrap() > u, "and is monotonic again from there");
    assert_eq!(g.resets(), 1);

    // v1 and v6: the clock sequence moves to the next value, the timestamp follows the clock.
    for v6 in [false, true] {
        let clock = StepClock::new(t0());
        let b = GregorianBuilder::new().regression(RegressionPolicy::Reset);
        let (a, after, seq_before, seq_after) = if v6 {
            let mut g = b.build_v6(&clock, SeqRandom::new(20)).unwrap();
            let a = g.next().unwrap();
            let s = g.clock_seq();
            clock.step_back(HOUR);
            (a, g.next().unwrap(), s, g.clock_seq())
        } else {
            let mut g = b.build_v1(&clock, SeqRandom::new(20)).unwrap();
            let a = g.next().unwrap();
            let s = g.clock_seq();
            clock.step_back(HOUR);
            (a, g.next().unwrap(), s, g.clock_seq())
        };
        assert_eq!(seq_after, (seq_before + 1) & 0x3FFF);
        assert_eq!(a.clock_seq(), Some(seq_before));
        assert_eq!(after.clock_seq(), Some(seq_after));
        assert_eq!(after.gregorian_ticks(), Some(t0_ticks() - 36_000_000_000));
        assert_eq!(after.node(), a.node());
    }
}

#[test]
fn step_back_within_ten_seconds_reuses_the_last_timestamp() {
    let clock = StepClock::new(t0());
    let mut g = V7Generator::new(&clock, SeqRandom::new(21));
    let prev = g.next().unwrap();
    clock.step_back(5_000 * MS);
    for i in 1..=100 {
        let u = g.next().unwrap();
        assert_eq!(u.unix_ts_ms(), Some(t0_ms()));
        assert_eq!(counter_of(u, 42), counter_of(prev, 42) + i);
    }

    let clock = StepClock::new(t0());
    let mut g = V1Generator::new(&clock, SeqRandom::new(22));
    let prev = g.next().unwrap();
    clock.step_back(9_999 * MS);
    let u = g.next().unwrap();
    assert_eq!(u.gregorian_ticks(), Some(t0_ticks() + 1));
    assert_eq!(u.clock_seq(), prev.clock_seq());
}

#[test]
fn timestamp_follows_an_advancing_clock_exactly() {
    // Without overflow the embedded time is the clock's: never ahead.
    let clock = StepClock::new(t0()).with_auto_step(MS);
    let mut g = V7Generator::new(&clock, SeqRandom::new(23));
    for i in 0..1000 {
        assert_eq!(g.next().unwrap().unix_ts_ms(), Some(t0_ms() + i));
    }
    let clock = StepClock::new(t0()).with_auto_step(100);
    let mut g = V6Generator::new(&clock, SeqRandom::new(24));
    for i in 0..1000 {
        assert_eq!(g.next().unwrap().gregorian_ticks(), Some(t0_ticks() + i));
    }
}

// ---- batches ----------------------------------------------------------------------------------

#[test]
fn fill_uses_one_clock_reading() {
    let clock = ReplayClock::new([t0(), t0().checked_add_nanos(HOUR).unwrap()]);
    let mut g = V7Generator::new(&clock, SeqRandom::new(25));
    let mut batch = vec![Uuid::NIL; 100_000];
    g.fill(&mut batch).unwrap();
    assert_eq!(clock.readings(), 1);
    assert_strictly_increasing(&batch);
    assert!(batch.iter().all(|u| u.unix_ts_ms() == Some(t0_ms())));
    let next = g.next().unwrap();
    assert_eq!(clock.readings(), 2);
    assert!(next > batch[batch.len() - 1]);

    let clock = ReplayClock::new([t0()]);
    let mut g = V1Generator::new(&clock, SeqRandom::new(26));
    let mut batch = [Uuid::NIL; 64];
    g.fill(&mut batch).unwrap();
    assert_eq!(clock.readings(), 1);
    for (i, u) in batch.iter().enumerate() {
        assert_eq!(u.gregorian_ticks(), Some(t0_ticks() + i as u64));
    }
}

/// Two generators from `$build`: one gives `size + 1` UUIDs by `next` per size, the other a
/// `fill` of `size` and then one `next`; checks that both give the same UUIDs and returns
/// the second one's.
macro_rules! fill_matches_next {
    ($what:expr, $build:expr, $sizes:expr) => {{
        let build = $build;
        let (mut one, mut many) = (build(), build());
        let (mut singles, mut batched) = (Vec::new(), Vec::new());
        for size in $sizes {
            for _ in 0..size + 1 {
                singles.push(one.next().unwrap());
            }
            let mut batch = vec![Uuid::NIL; size];
            many.fill(&mut batch).unwrap();
            batched.extend_from_slice(&batch);
            batched.push(many.next().unwrap());
        }
        assert_eq!(singles.len(), batched.len());
        if let Some(i) = (0..singles.len()).find(|&i| singles[i] != batched[i]) {
            panic!(
                "{}: UUID {i} differs: next {} fill {}",
                $what, singles[i], batched[i]
            );
        }
        batched
    }};
}

/// The batch path packs runs of counters in one loop; it must issue exactly what the same
/// number of single calls issues, from the same random bytes, through counter overflows
/// (Advance moves the tick on) and for every method.
#[test]
fn fill_issues_what_successive_next_calls_issue() {
    let methods = [
        V7Method::Counter { bits: 12 },
        V7Method::Counter { bits: 26 },
        V7Method::Counter { bits: 42 },
        V7Method::monotonic_random(),
        V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 0,
        },
        V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 14,
        },
        V7Method::SubMillis {
            fraction_bits: 4,
            counter_bits: 12,
        },
    ];
    for (m, method) in methods.into_iter().enumerate() {
        let build = || {
            V7Builder::new()
                .method(method)
                .build(FixedClock::new(t0()), SeqRandom::new(40 + m as u64))
                .unwrap()
        };
        // Batches of uneven sizes, with a single call between them, across several overflows
        // of the 12-bit counters.
        let batched = fill_matches_next!(
            format!("{method:?}"),
            build,
            [1usize, 7, 64, 65, 1000, 4096, 9000]
        );
        assert_strictly_increasing(&batched);
    }
}

/// The same for the other generators with a batch path: v1 and v6 (a tick per UUID), the B.1
/// v8 layout, and distributed v8 layouts on a frozen clock, among them 12-bit counters that run
/// out within the 5,233 UUIDs (Advance moves the tick on), with and without random bits.
#[test]
fn other_fills_issue_what_successive_next_calls_issue() {
    macro_rules! compare {
        ($what:expr, $build:expr) => {
            fill_matches_next!($what, $build, [1usize, 7, 64, 65, 1000, 4096])
        };
    }
    let clock = FixedClock::new(t0());
    compare!("v1", || V1Generator::new(clock, SeqRandom::new(1)));
    compare!("v6", || V6Generator::new(clock, SeqRandom::new(2)));
    compare!("v8 B.1", || V8TimeGenerator::new(clock, SeqRandom::new(3)));
    let layouts = [
        (12, 16),
        (12, 62), // no random bits
        (20, 10),
        (42, 8),
    ];
    for (i, (counter, node)) in layouts.into_iter().enumerate() {
        let layout = DistributedLayout::new(counter, node).unwrap();
        compare!(format!("v8 {layout:?}"), || {
            DistributedBuilder::new(layout)
                .node_id(5)
                .build(clock, SeqRandom::new(10 + i as u64))
                .unwrap()
        });
    }
}

#[test]
fn fill_stops_at_the_error_with_the_earlier_uuids_written() {
    let mut g = V7Builder::new()
        .method(V7Method::Counter { bits: 12 })
        .overflow(OverflowPolicy::Error)
        .build(FixedClock::new(t0()), SeqRandom::new(27))
        .unwrap();
    let mut batch = vec![Uuid::NIL; 5000];
    assert!(g.fill(&mut batch).unwrap_err().is_overflow());
    let written = batch.iter().take_while(|u| !u.is_nil()).count();
    assert_eq!(written as u64, 4096 - counter_of(batch[0], 12));
    assert_strictly_increasing(&batch[..written]);
}

// ---- time range -------------------------------------------------------------------------------

#[test]
fn v7_time_range_limits() {
    let end = Timestamp::from_unix_millis((1 << 48) - 1);
    let mut g = V7Builder::new()
        .method(V7Method::Counter { bits: 12 })
        .build(FixedClock::new(end), SeqRandom::new(28))
        .unwrap();
    let first = g.next().unwrap();
    assert_eq!(first.unix_ts_ms(), Some((1 << 48) - 1));
    let mut n = 1;
    let err = loop {
        match g.next() {
            Ok(u) => {
                assert_eq!(u.unix_ts_ms(), Some((1 << 48) - 1), "wrapped");
                n += 1;
            }
            Err(e) => break e,
        }
    };
    // Advancing past the last millisecond is refused, not wrapped.
    assert_eq!(n, 4096 - counter_of(first, 12));
    assert!(err.is_time_range());
    assert_eq!(
        err.to_string(),
        "time out of range: 10889-08-02T05:31:50.656000000Z is outside the UUIDv7 48-bit \
         millisecond timestamp (1970-01-01T00:00:00.000000000Z to \
         10889-08-02T05:31:50.655999999Z)"
    );

    let beyond = Timestamp::from_unix_millis(1 << 48);
    let before = Timestamp::from_unix_nanos(-1).unwrap();
    for t in [beyond, before] {
        let mut g = V7Generator::new(FixedClock::new(t), SeqRandom::new(29));
        assert_eq!(g.next().unwrap_err().kind(), GenErrorKind::TimeRange);
    }

    // A time offset moves the embedded time; out of range it is an error too.
    let mut g = V7Builder::new()
        .time_offset_nanos(HOUR)
        .build(FixedClock::new(t0()), SeqRandom::new(30))
        .unwrap();
    assert_eq!(g.next().unwrap().unix_ts_ms(), Some(t0_ms() + 3_600_000));
    let mut g = V7Builder::new()
        .time_offset_nanos(-t0().unix_nanos() - 1)
        .build(FixedClock::new(t0()), SeqRandom::new(31))
        .unwrap();
    assert!(g.next().unwrap_err().is_time_range());
}

#[test]
fn v1_v6_time_range_limits() {
    let last = Timestamp::from_gregorian_ticks((1 << 60) - 1);
    assert_eq!(
        last.to_rfc3339(7).to_string(),
        "5236-03-31T21:21:00.6846975Z"
    );
    let mut g = V6Generator::new(FixedClock::new(last), SeqRandom::new(32));
    assert_eq!(g.next().unwrap().gregorian_ticks(), Some((1 << 60) - 1));
    let err = g.next().unwrap_err();
    assert!(err.is_time_range());
    assert!(
        err.to_string()
            .ends_with("to 5236-03-31T21:21:00.684697599Z)"),
        "{err}"
    );

    let beyond = Timestamp::from_gregorian_ticks(1 << 60);
    let before = Timestamp::from_gregorian_ticks(0)
        .checked_add_nanos(-1)
        .unwrap();
    for t in [beyond, before] {
        let mut g = V1Generator::new(FixedClock::new(t), SeqRandom::new(33));
        let err = g.next().unwrap_err();
        assert!(err.is_time_range());
        assert!(
            err.to_string()
                .contains("(1582-10-15T00:00:00.000000000Z to "),
            "{err}"
        );
    }
}

#[test]
fn v8_time_based_range_and_order() {
    // 2^60 steps of 10 ns end in 2335; later (or before 1970) is an error, not a wrap.
    let end_nanos = ((1i128 << 60) - 1) * 10;
    let end = Timestamp::from_unix_nanos(end_nanos).unwrap();
    assert_eq!(
        end.to_rfc3339(9).to_string(),
        "2335-05-07T23:44:06.068469750Z"
    );
    let mut g = V8TimeGenerator::new(FixedClock::new(end), SeqRandom::new(34));
    assert_eq!(g.next().unwrap().custom_a(), Some((1 << 48) - 1));
    assert!(g.next().unwrap_err().is_time_range());
    let before = Timestamp::from_unix_nanos(-10).unwrap();
    assert!(
        V8TimeGenerator::new(FixedClock::new(before), SeqRandom::new(35))
            .next()
            .unwrap_err()
            .is_time_range()
    );

    let mut g = V8TimeBuilder::new().build(FixedClock::new(t0()), SeqRandom::new(36));
    let mut v = vec![Uuid::NIL; 10_000];
    g.fill(&mut v).unwrap();
    assert_strictly_increasing(&v);
}

// ---- nodes and clock sequences ----------------------------------------------------------------

#[test]
fn default_node_has_the_multicast_bit() {
    let mut raw_even = 0;
    for seed in 0..256 {
        let g = V1Generator::new(FixedClock::new(t0()), SeqRandom::new(seed));
        assert_eq!(g.node()[0] & 1, 1, "seed {seed}");
        // The same stream's node byte before the bit was set: about half must have been even,
        // or the test would not show that the generator sets the bit.
        let mut r = SeqRandom::new(seed);
        let _seq = uuidkit::generator::RandomSource::next_u64(&mut r);
        let mut node = [0u8; 6];
        uuidkit::generator::RandomSource::fill_bytes(&mut r, &mut node);
        raw_even += (node[0] & 1 == 0) as u32;
    }
    assert!(raw_even > 64, "{raw_even}");
    assert_eq!(uuidkit::v1().node().unwrap()[0] & 1, 1);
    assert_eq!(uuidkit::v6().node().unwrap()[0] & 1, 1);

    // A given node is kept as it is.
    let mac = [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6];
    let mut g = GregorianBuilder::new()
        .node(mac)
        .build_v1(FixedClock::new(t0()), SeqRandom::new(37))
        .unwrap();
    assert_eq!(g.next().unwrap().node(), Some(mac));
}

#[test]
fn clock_sequence_changes_on_node_change() {
    let mut g = V6Generator::new(FixedClock::new(t0()), SeqRandom::new(38));
    let a = g.next().unwrap();
    let node = g.node();
    g.set_node(node);
    assert_eq!(
        g.clock_seq(),
        a.clock_seq().unwrap(),
        "same node: no change"
    );
    let other = [0x02, 0, 0, 0, 0, 1];
    g.set_node(other);
    assert_ne!(g.clock_seq(), a.clock_seq().unwrap());
    let b = g.next().unwrap();
    assert_eq!(b.node(), Some(other));
    assert_eq!(b.clock_seq(), Some(g.clock_seq()));
    assert!(b > a);
}

// ---- v2 -----------------------------------------------------------------------------------------

#[test]
fn v2_sixty_four_per_time_step_then_overflow() {
    let mut g = GregorianBuilder::new()
        .overflow(OverflowPolicy::Error)
        .build_v2(FixedClock::new(t0()), SeqRandom::new(39))
        .unwrap();
    let mut seen = HashSet::new();
    for i in 0..64u32 {
        let u = g.next(Domain::Person, 1000).unwrap();
        assert_eq!(u.local_id(), Some(1000));
        assert_eq!(u.local_domain(), Some(Domain::Person));
        assert_eq!(u.v2_ticks(), Some(t0_ticks() >> 32 << 32));
        assert_eq!(u.v2_clock_seq(), Some((g.clock_seq() + i as u8) & 0x3f));
        assert!(seen.insert(u));
    }
    assert!(g.next(Domain::Org, 7).unwrap_err().is_overflow());

    // Advance: the coarse time moves one step ahead.
    let mut g = V2Generator::new(FixedClock::new(t0()), SeqRandom::new(40));
    let v: Vec<Uuid> = (0..65).map(|_| g.next(Domain::Group, 5).unwrap()).collect();
    assert_eq!(v[64].v2_ticks(), Some(((t0_ticks() >> 32) + 1) << 32));
    assert_no_duplicates(&v);
}

#[cfg(unix)]
#[test]
fn v2_person_and_group_use_the_process_ids() {
    let mut g = V2Generator::system();
    // SAFETY: getuid/getgid have no preconditions and cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let p = g.next_person().unwrap();
    assert_eq!(
        (p.local_domain(), p.local_id()),
        (Some(Domain::Person), Some(uid))
    );
    let g = g.next_group().unwrap();
    assert_eq!(
        (g.local_domain(), g.local_id()),
        (Some(Domain::Group), Some(gid))
    );
}

// ---- v8 distributed ---------------------------------------------------------------------------

/// The distributed layout (RFC 9562 §6.2 Method 1 with a §6.4 node id): 48-bit milliseconds,
/// then the counter (custom_b and the top of custom_c), then the node id, then random bits.
#[test]
fn v8_distributed_layout() {
    let layout = DistributedLayout::new(16, 12).unwrap();
    assert_eq!(layout.random_bits(), 46);
    let clock = StepClock::new(t0()).with_auto_step(MS / 4);
    let mut g = DistributedBuilder::new(layout)
        .node_id(0xABC)
        .build(&clock, SeqRandom::new(41))
        .unwrap();
    let v: Vec<Uuid> = (0..100_000).map(|_| g.next().unwrap()).collect();
    assert_strictly_increasing(&v);
    let counter = |u: &Uuid| (u.custom_b().unwrap() << 4) | (u.custom_c().unwrap() >> 58) as u16;
    for w in v.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert_eq!(b.version_num(), 8);
        assert!(b.custom_a().unwrap() >= t0_ms());
        assert_eq!(
            b.custom_c().map(|c| c >> 46 & 0xFFF),
            Some(0xABC),
            "node id right after the 16-bit counter"
        );
        if a.custom_a() == b.custom_a() {
            assert_eq!(counter(b), counter(a) + 1, "{a} then {b}");
        } else {
            assert!(counter(b) < 1 << 15, "seeded with its top bit clear: {b}");
        }
    }
    // Node ids that do not fit are refused.
    let err = DistributedBuilder::new(layout)
        .node_id(0x1000)
        .build(FixedClock::new(t0()), SeqRandom::new(42))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid generator configuration: v8 node id is 4096, allowed 0 to 4095"
    );
    // The last millisecond the 48 bits hold, then none.
    let end = Timestamp::from_unix_millis((1 << 48) - 1);
    let mut g = DistributedBuilder::new(layout)
        .build(FixedClock::new(end), SeqRandom::new(44))
        .unwrap();
    assert_eq!(g.next().unwrap().custom_a(), Some((1 << 48) - 1));
    let mut g = DistributedBuilder::new(layout)
        .build(
            FixedClock::new(Timestamp::from_unix_millis(1 << 48)),
            SeqRandom::new(45),
        )
        .unwrap();
    let err = g.next().unwrap_err();
    assert!(err.is_time_range(), "{err}");
    let mut g = DistributedBuilder::new(layout)
        .build(
            FixedClock::new(Timestamp::from_unix_nanos(-1).unwrap()),
            SeqRandom::new(45),
        )
        .unwrap();
    assert!(g.next().unwrap_err().is_time_range());
    // A 12-bit counter exhausted under the Error policy: between 2,049 and 4,096 UUIDs fit.
    let mut g = DistributedBuilder::new(DistributedLayout::new(12, 8).unwrap())
        .overflow(OverflowPolicy::Error)
        .build(FixedClock::new(t0()), SeqRandom::new(43))
        .unwrap();
    let ok = (0..5000).take_while(|_| g.next().is_ok()).count();
    assert!((2049..=4096).contains(&ok), "{ok}");
}

// ---- configuration ----------------------------------------------------------------------------

#[test]
fn configuration_errors_name_the_value_and_the_range() {
    let build = |m| {
        V7Builder::new()
            .method(m)
            .build(FixedClock::new(t0()), SeqRandom::new(0))
    };
    let msg = |m| build(m).unwrap_err().to_string();
    assert_eq!(
        msg(V7Method::Counter { bits: 11 }),
        "invalid generator configuration: v7 counter width is 11 bits, allowed 12 to 42"
    );
    assert_eq!(
        msg(V7Method::Counter { bits: 43 }),
        "invalid generator configuration: v7 counter width is 43 bits, allowed 12 to 42"
    );
    assert_eq!(
        msg(V7Method::MonotonicRandom { increment_bits: 0 }),
        "invalid generator configuration: v7 monotonic random increment width is 0 bits, \
         allowed 1 to 64"
    );
    assert_eq!(
        msg(V7Method::SubMillis {
            fraction_bits: 13,
            counter_bits: 0
        }),
        "invalid generator configuration: v7 sub-millisecond fraction width is 13 bits, \
         allowed 1 to 12"
    );
    assert!(build(V7Method::SubMillis {
        fraction_bits: 12,
        counter_bits: 43
    })
    .unwrap_err()
    .is_config());
    for ok in [12, 42] {
        assert!(build(V7Method::Counter { bits: ok }).is_ok());
    }
    let err = GregorianBuilder::new()
        .clock_seq(0x4000)
        .build_v1(FixedClock::new(t0()), SeqRandom::new(0))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid generator configuration: v1 clock sequence is 16384, allowed 0 to 16383"
    );
    assert!(GregorianBuilder::new()
        .clock_seq(64)
        .build_v2(FixedClock::new(t0()), SeqRandom::new(0))
        .unwrap_err()
        .is_config());
    // The distributed v8 layout's Method 1 counter: 12 to 42 bits, as v7's.
    assert_eq!(
        DistributedLayout::new(64, 16).unwrap_err().to_string(),
        "invalid generator configuration: v8 counter width is 64 bits, allowed 12 to 42"
    );
    assert_eq!(
        DistributedLayout::new(16, 64).unwrap_err().to_string(),
        "invalid generator configuration: v8 counter + node id width is 80 bits, allowed at \
         most 74 (the bits of a v8 UUID after its version, variant and 48-bit timestamp)"
    );
}

#[test]
fn generators_and_errors_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<uuidkit::generator::GenError>();
    send_sync::<V7Generator>();
    send_sync::<V1Generator>();
    send_sync::<V6Generator>();
    send_sync::<V2Generator>();
    send_sync::<V8TimeGenerator>();
    // A clock that is read once per UUID; the trait object works too.
    let clock: &dyn Clock = &FixedClock::new(t0());
    assert!(V7Generator::new(clock, SeqRandom::new(0)).next().is_ok());
}

// ---- any clock: a reference model of the regression rule ---------------------------------------

mod model {
    use super::*;
    use proptest::prelude::*;

    const THRESHOLD: i128 = 10_000 * MS;

    /// Moves `clock` by `deltas` (µs, some far back) around UUIDs from `next` and checks each
    /// against the rule of `policy`: under `Continue` (the default) every UUID is greater than
    /// the previous one; under `Reset` too, unless the clock read more than the threshold below
    /// the highest reading since the last reset — and then it is a reset, counted by `resets`.
    fn check(
        policy: RegressionPolicy,
        clock: &StepClock,
        deltas: &[i64],
        mut next: impl FnMut() -> (Uuid, u64),
        key: fn(&Uuid) -> u128,
    ) {
        let (mut prev, mut resets) = next();
        assert_eq!(resets, 0);
        let mut reference = clock.peek().unix_nanos();
        for &d in deltas {
            clock.advance(d as i128 * 1000);
            let reading = clock.peek().unix_nanos();
            let (u, now_resets) = next();
            if policy == RegressionPolicy::Reset && reference - reading > THRESHOLD {
                reference = reading; // the generator followed the clock back
                assert!(key(&u) < key(&prev), "{u} after {prev} at delta {d} µs");
                assert_eq!(now_resets, resets + 1, "the reset is reported");
            } else {
                assert!(key(&u) > key(&prev), "{u} after {prev} at delta {d} µs");
                assert_eq!(now_resets, resets, "no reset to report");
                reference = reference.max(reading);
            }
            (prev, resets) = (u, now_resets);
        }
    }

    fn deltas() -> impl Strategy<Value = Vec<i64>> {
        prop::collection::vec(
            prop_oneof![
                4 => 0i64..3_000,
                2 => -9_000_000i64..0,
                1 => -40_000_000i64..-10_000_001,
                1 => 0i64..40_000_000,
            ],
            1..300,
        )
    }

    fn policy(reset: bool) -> RegressionPolicy {
        if reset {
            RegressionPolicy::Reset
        } else {
            RegressionPolicy::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn v7_every_method_follows_the_rule(
            d in deltas(), seed in any::<u64>(), m in 0usize..4, reset in any::<bool>(),
        ) {
            let method = [
                V7Method::Counter { bits: 12 },
                V7Method::Counter { bits: 42 },
                V7Method::MonotonicRandom { increment_bits: 60 },
                V7Method::SubMillis { fraction_bits: 8, counter_bits: 12 },
            ][m];
            let clock = StepClock::new(t0());
            let mut g = V7Builder::new()
                .method(method)
                .regression(policy(reset))
                .build(&clock, SeqRandom::new(seed))
                .unwrap();
            check(policy(reset), &clock, &d, || (g.next().unwrap(), g.resets()), |u| u.as_u128());
        }

        #[test]
        fn v1_v6_follow_the_rule(
            d in deltas(), seed in any::<u64>(), coarse in any::<bool>(), reset in any::<bool>(),
        ) {
            let b = GregorianBuilder::new().regression(policy(reset));
            let clock = StepClock::new(t0()).with_resolution(if coarse { 1_000_000 } else { 1 });
            let mut g6 = b.build_v6(&clock, SeqRandom::new(seed)).unwrap();
            check(policy(reset), &clock, &d, || (g6.next().unwrap(), g6.resets()), |u| u.as_u128());
            let clock = StepClock::new(t0()).with_resolution(if coarse { 1_000_000 } else { 1 });
            let mut g1 = b.build_v1(&clock, SeqRandom::new(seed)).unwrap();
            let key = |u: &Uuid| u.gregorian_ticks().unwrap() as u128;
            check(policy(reset), &clock, &d, || (g1.next().unwrap(), g1.resets()), key);
        }
    }
}

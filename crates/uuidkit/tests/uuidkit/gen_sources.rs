//! Clocks and random sources behave as documented; the v4 generator sets its fixed bits and
//! produces no duplicates.

#![cfg(feature = "std")]

use std::collections::HashSet;
use std::sync::Arc;

use uuidkit::generator::rng::{fill_random, random_u64};
use uuidkit::generator::v4::{fill_v4, v4, v4_from};
use uuidkit::generator::{
    fork_generation, with_thread_rng, Clock, Csprng, FixedClock, OsRandom, RandomSource,
    ReplayClock, ReplayRandom, SeqRandom, StepClock, SystemClock, ThreadRng,
};
use uuidkit::{Timestamp, Uuid, Variant, Version};

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn auto_traits() {
    assert_send_sync::<SystemClock>();
    assert_send_sync::<FixedClock>();
    assert_send_sync::<StepClock>();
    assert_send_sync::<ReplayClock>();
    assert_send_sync::<ThreadRng>();
    assert_send::<Csprng>();
    assert_send::<ReplayRandom>();
    assert_send::<SeqRandom>();
}

// ---- clocks -----------------------------------------------------------------------------------

#[test]
fn system_clock_reads_the_present() {
    let t = SystemClock.now();
    // 2020-09-13 and 2100-01-01: a wall clock outside this is broken or misread.
    assert!(t.unix_seconds() > 1_600_000_000, "{t:?}");
    assert!(t.unix_seconds() < 4_102_444_800, "{t:?}");
    let r = SystemClock.resolution_nanos();
    assert!((1..=1_000_000_000).contains(&r), "resolution {r}");
    assert_eq!(SystemClock.resolution_nanos(), r, "cached value changed");
}

#[test]
fn fixed_clock() {
    let at = Timestamp::from_unix_millis(1_645_557_742_000);
    let c = FixedClock::new(at);
    for _ in 0..3 {
        assert_eq!(c.now(), at);
    }
    assert_eq!(c.resolution_nanos(), 1);
    assert_eq!(c.with_resolution(1_000_000).resolution_nanos(), 1_000_000);
    assert_eq!(c.with_resolution(0).resolution_nanos(), 1);
    // Through the blanket `&C` impl.
    let r: &dyn Clock = &c;
    assert_eq!((&r).now(), at);
}

#[test]
fn step_clock_moves_as_told() {
    let c = StepClock::new(Timestamp::from_unix_nanos(1_000).unwrap());
    assert_eq!(c.now().unix_nanos(), 1_000);
    assert_eq!(c.now().unix_nanos(), 1_000, "no auto-step by default");
    c.advance(250);
    assert_eq!(c.now().unix_nanos(), 1_250);
    c.step_back(2_000);
    assert_eq!(c.now().unix_nanos(), -750);
    c.advance(-50);
    assert_eq!(c.peek().unix_nanos(), -800);
    let later = Timestamp::from_gregorian_ticks((1 << 60) - 1);
    c.set(later);
    assert_eq!(c.now(), later);
    assert_eq!(c.resolution_nanos(), 1);

    let auto = StepClock::new(Timestamp::UNIX_EPOCH)
        .with_auto_step(100)
        .with_resolution(100);
    let seen: Vec<i128> = (0..4).map(|_| auto.now().unix_nanos()).collect();
    assert_eq!(seen, [0, 100, 200, 300]);
    assert_eq!(auto.peek().unix_nanos(), 400);
    assert_eq!(auto.resolution_nanos(), 100);

    let back = StepClock::new(Timestamp::UNIX_EPOCH).with_auto_step(-1);
    assert_eq!(back.now().unix_nanos(), 0);
    assert_eq!(back.now().unix_nanos(), -1);
}

#[test]
fn step_clock_saturates_at_the_ends() {
    let c = StepClock::new(Timestamp::UNIX_EPOCH);
    c.advance(i128::MAX);
    let top = c.now();
    assert_eq!(top.unix_seconds(), i64::MAX);
    assert_eq!(top.subsec_nanos(), 999_999_999);
    c.advance(1);
    assert_eq!(c.now(), top);
    c.step_back(i128::MAX);
    c.step_back(i128::MAX);
    assert_eq!(c.now().unix_seconds(), i64::MIN);
    assert_eq!(c.now().subsec_nanos(), 0);
}

#[test]
fn step_clock_is_shared_between_threads() {
    let c = Arc::new(StepClock::new(Timestamp::UNIX_EPOCH).with_auto_step(1));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let c = Arc::clone(&c);
            std::thread::spawn(move || (0..1_000).map(|_| c.now()).collect::<Vec<_>>())
        })
        .collect();
    let mut all = HashSet::new();
    for h in handles {
        for t in h.join().unwrap() {
            assert!(all.insert(t), "reading {t:?} handed out twice");
        }
    }
    assert_eq!(all.len(), 4_000);
    assert_eq!(c.peek().unix_nanos(), 4_000);
}

#[test]
fn replay_clock_replays_then_holds() {
    let t = |ms| Timestamp::from_unix_millis(ms);
    let c = ReplayClock::new(vec![t(10), t(10), t(5), t(20)]);
    let seen: Vec<u64> = (0..7).map(|_| c.now().unix_millis().unwrap()).collect();
    assert_eq!(seen, [10, 10, 5, 20, 20, 20, 20]);
    assert_eq!(c.readings(), 7);

    let empty = ReplayClock::new(Vec::new());
    assert_eq!(empty.now(), Timestamp::UNIX_EPOCH);
    assert_eq!(
        ReplayClock::new([t(1)])
            .with_resolution(7)
            .resolution_nanos(),
        7
    );
}

// ---- random sources ---------------------------------------------------------------------------

#[test]
fn csprng_instances_differ() {
    let mut outputs = HashSet::new();
    for _ in 0..16 {
        let mut rng = Csprng::new().unwrap();
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        assert!(outputs.insert(b), "two generators started alike");
    }
    // Threads have generators of their own.
    let here = with_thread_rng(|r| r.next_16());
    let there = std::thread::spawn(|| with_thread_rng(|r| r.next_16()))
        .join()
        .unwrap();
    assert_ne!(here, there);
}

/// Every 16-byte block of a long stream, read in uneven pieces across many refills and past the
/// 1 MiB reseed point, is new.
#[test]
fn csprng_long_stream_has_no_repeated_block() {
    let mut rng = Csprng::new().unwrap();
    let mut stream = vec![0u8; (1 << 20) + (256 << 10)];
    let mut at = 0;
    for piece in [1usize, 7, 16, 33, 1000, 1024, 4096, 5].iter().cycle() {
        if at >= stream.len() {
            break;
        }
        let end = (at + piece).min(stream.len());
        rng.fill_bytes(&mut stream[at..end]);
        at = end;
    }
    let mut blocks: Vec<[u8; 16]> = stream
        .chunks_exact(16)
        .map(|c| c.try_into().unwrap())
        .collect();
    let n = blocks.len();
    blocks.sort_unstable();
    blocks.dedup();
    assert_eq!(blocks.len(), n);
}

#[test]
fn nested_thread_rng_use_does_not_panic() {
    let (outer, inner) = with_thread_rng(|r| {
        let a = r.next_u64();
        let b = random_u64(); // the thread's generator is borrowed: a temporary one serves
        (a, b)
    });
    assert_ne!(outer, inner);
}

/// Frequency (monobit) test of NIST SP 800-22 §2.1 on 10^6 bits: the count of ones must lie
/// within 6 standard deviations (σ = √n / 2 = 500) of n / 2. A fair source fails with
/// probability about 2·10^-9.
fn assert_balanced(name: &str, rng: &mut dyn RandomSource) {
    const BITS: u64 = 1_000_000;
    let mut bytes = vec![0u8; (BITS / 8) as usize];
    rng.fill_bytes(&mut bytes);
    let ones: u64 = bytes.iter().map(|b| u64::from(b.count_ones())).sum();
    let dev = ones.abs_diff(BITS / 2);
    assert!(dev < 3_000, "{name}: {ones} ones in {BITS} bits");
}

#[test]
fn frequency_sanity() {
    assert_balanced("Csprng", &mut Csprng::new().unwrap());
    assert_balanced("ThreadRng", &mut ThreadRng);
    assert_balanced("OsRandom", &mut OsRandom);
    assert_balanced("SeqRandom", &mut SeqRandom::new(1));
    // And the test itself rejects a biased source.
    let mut biased = ReplayRandom::new([0xff, 0x00, 0x01]);
    let mut bytes = vec![0u8; 125_000];
    biased.fill_bytes(&mut bytes);
    let ones: u64 = bytes.iter().map(|b| u64::from(b.count_ones())).sum();
    assert!(ones.abs_diff(500_000) >= 3_000);
}

#[test]
fn convenience_functions_give_fresh_bytes() {
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    fill_random(&mut a);
    fill_random(&mut b);
    assert_ne!(a, b);
    assert_ne!(random_u64(), random_u64());
    let mut c = [0u8; 32];
    OsRandom.try_fill(&mut c).unwrap();
    assert_ne!(a, c);
}

#[test]
fn replay_random_replays_in_order_then_wraps() {
    let mut r = ReplayRandom::new(vec![1, 2, 3, 4, 5]);
    let mut b = [0u8; 3];
    r.fill_bytes(&mut b);
    assert_eq!(b, [1, 2, 3]);
    assert_eq!(r.remaining(), 2);
    let mut b = [0u8; 4];
    r.fill_bytes(&mut b);
    assert_eq!(b, [4, 5, 1, 2]);
    assert_eq!(r.consumed(), 7);
    // next_u64 is little-endian over the next 8 bytes.
    let mut r = ReplayRandom::new((1u8..=8).collect::<Vec<_>>());
    assert_eq!(r.next_u64(), 0x0807_0605_0403_0201);
    // An empty sequence gives zeros.
    let mut z = ReplayRandom::new(Vec::new());
    let mut b = [9u8; 4];
    z.fill_bytes(&mut b);
    assert_eq!(b, [0; 4]);
}

#[test]
fn seq_random_is_splitmix64() {
    // Source: splitmix64.c by S. Vigna (prng.di.unimi.it), seeded with 0: the first outputs.
    let mut r = SeqRandom::new(0);
    assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    // Reading in pieces gives the same bytes as reading at once.
    let mut whole = [0u8; 40];
    SeqRandom::new(42).fill_bytes(&mut whole);
    let mut pieces = [0u8; 40];
    let mut s = SeqRandom::new(42);
    let (a, rest) = pieces.split_at_mut(3);
    let (b, c) = rest.split_at_mut(13);
    s.fill_bytes(a);
    s.fill_bytes(b);
    s.fill_bytes(c);
    assert_eq!(whole, pieces);
}

#[test]
fn fork_generation_is_stable_without_fork() {
    let g = fork_generation();
    for _ in 0..1_000 {
        v4();
    }
    assert_eq!(fork_generation(), g);
}

// ---- v4 ---------------------------------------------------------------------------------------

#[test]
fn v4_batch_sets_version_and_variant_and_has_no_duplicate() {
    const N: usize = 1_000_000;
    let mut ids = vec![Uuid::NIL; N];
    fill_v4(&mut ids[..N / 2]);
    for u in &mut ids[N / 2..] {
        *u = v4();
    }
    let (mut all_or, mut all_and) = (0u128, u128::MAX);
    for u in &ids {
        assert_eq!(u.version(), Some(Version::Random));
        assert_eq!(u.variant(), Variant::Rfc9562);
        all_or |= u.as_u128();
        all_and &= u.as_u128();
    }
    // The 6 fixed bits are the only ones that never change (RFC 9562 §5.4, Figure 8).
    let fixed_mask = (0xf << 76) | (0b11 << 62);
    let fixed_value = (0x4 << 76) | (0b10 << 62);
    assert_eq!(all_or, !fixed_mask | fixed_value);
    assert_eq!(all_and, fixed_value);

    ids.sort_unstable();
    for w in ids.windows(2) {
        assert_ne!(w[0], w[1], "duplicate v4");
    }
}

#[test]
fn v4_from_uses_the_given_source() {
    let mut a = SeqRandom::new(5);
    let mut b = SeqRandom::new(5);
    let x = v4_from(&mut a);
    let mut raw = [0u8; 16];
    b.fill_bytes(&mut raw);
    assert_eq!(x, Uuid::new_v4_from_bytes(raw));
    // Works through `dyn` too.
    let dynamic: &mut dyn RandomSource = &mut a;
    assert_eq!(v4_from(dynamic).version(), Some(Version::Random));
}

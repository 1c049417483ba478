//! Bounded versions of `scripts/stress` (which runs `examples/stress.rs` at full size): the
//! process-wide v7 generator in forked processes with several threads each, every UUID
//! written out and checked for duplicates by sorting; and every per-instance time-based
//! generator on a frozen, a stepped and a jittering clock, strictly increasing throughout.
//!
//! `UUIDKIT_STRESS_SCALE` multiplies the counts (default 1: 400,000 v7 UUIDs across 2
//! processes x 4 threads, and 20,000 UUIDs per clock and generator).

use uuidkit_test_support::stress;

use stress::{clock_run, count_duplicates, radix_sort, v7_fork_threads, ClockKind, GenKind};

fn scale() -> u64 {
    std::env::var("UUIDKIT_STRESS_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

// One test function, so that the fork happens while no other test of this binary runs.
#[test]
fn v7_across_forked_processes_and_threads_then_every_clock() {
    let dir = std::env::temp_dir().join(format!("uuidkit-stress-{}", std::process::id()));
    let per_thread = 50_000 * scale();
    let r = v7_fork_threads(&dir, 2, 4, per_thread).expect("stress run");
    let (records, dups, torn) = count_duplicates(&r.files).expect("read back");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.failed_children, 0, "{r:?}");
    assert_eq!(r.out_of_order, 0, "{r:?}");
    assert_eq!(torn, 0);
    assert_eq!(
        records,
        1000 + 2 * 4 * per_thread,
        "every UUID written came back"
    );
    assert_eq!(dups, 0, "duplicates among {records} v7 UUIDs");

    for clock in ClockKind::ALL {
        for g in GenKind::ALL {
            let n = 20_000 * scale();
            let r = clock_run(clock, g, n, 7);
            assert!(r.generated >= n, "{clock:?} {g:?}: {r:?}");
            assert_eq!(r.not_increasing, 0, "{clock:?} {g:?}: {r:?}");
            assert_eq!(r.errors, 0, "{clock:?} {g:?}: {r:?}");
        }
    }
}

#[test]
fn the_duplicate_counter_finds_duplicates() {
    // The checker itself: a sort that lost or invented records would hide duplicates.
    let mut v: Vec<u128> = (1..100_000u128)
        .map(|i| (i * 0x9e37_79b9_7f4a_7c15) ^ (i << 100))
        .collect();
    v.push(v[500]);
    v.push(u128::MAX);
    v.push(0);
    let mut sorted = v.clone();
    radix_sort(&mut sorted);
    let mut want = v.clone();
    want.sort_unstable();
    assert_eq!(sorted, want);
    assert_eq!(sorted.windows(2).filter(|w| w[0] == w[1]).count(), 1);
}

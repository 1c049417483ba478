//! The process-wide generators (`uuidkit::v1`, `v6`, `v7`, `v7_batch`) under threads and
//! across `fork()`: no duplicate anywhere, each thread's UUIDs strictly increasing, and a UUID
//! obtained after another (in happens-before order, on any thread) greater than it.
//!
//! `UUIDKIT_THREAD_COUNT` sets the v7 UUIDs per thread (default 200,000; v1 and v6 make a
//! quarter of that); `UUIDKIT_FORK_COUNT` the UUIDs of each kind on each side of the fork
//! (default 100,000).

#![cfg(feature = "std")]

use std::sync::mpsc;
use std::sync::Barrier;

use uuidkit::{Uuid, Version};

const THREADS: usize = 8;

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(default)
}

fn per_thread() -> usize {
    env_count("UUIDKIT_THREAD_COUNT", 200_000)
}

/// Runs `make` on `THREADS` threads released together; returns each thread's UUIDs in order.
fn on_threads(make: impl Fn(&mut Vec<Uuid>) + Sync) -> Vec<Vec<Uuid>> {
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut v = Vec::new();
                    barrier.wait();
                    make(&mut v);
                    v
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Sorts all UUIDs together and counts equal neighbours.
fn duplicates(lists: &[Vec<Uuid>]) -> (usize, usize) {
    let mut all: Vec<Uuid> = lists.iter().flatten().copied().collect();
    all.sort_unstable();
    let dups = all.windows(2).filter(|w| w[0] == w[1]).count();
    (all.len(), dups)
}

fn check_per_thread(lists: &[Vec<Uuid>], key: impl Fn(&Uuid) -> u128, version: Version) {
    for (t, v) in lists.iter().enumerate() {
        assert!(v.iter().all(|u| u.version() == Some(version)));
        for (i, w) in v.windows(2).enumerate() {
            assert!(
                key(&w[0]) < key(&w[1]),
                "thread {t}: UUID {i} {} not below UUID {} {}",
                w[0],
                i + 1,
                w[1]
            );
        }
    }
}

#[test]
fn v7_eight_threads_no_duplicate_each_increasing() {
    let n = per_thread();
    let lists = on_threads(|v| v.extend((0..n).map(|_| uuidkit::v7())));
    check_per_thread(&lists, |u| u.as_u128(), Version::SortRand);
    let (total, dups) = duplicates(&lists);
    // Informative only (no timing assertions): how far the newest UUID is ahead of the clock
    // (the 26-bit counter leaves room for 2^25 UUIDs per millisecond: none expected).
    let newest = lists
        .iter()
        .filter_map(|v| v.last())
        .max()
        .copied()
        .unwrap_or(Uuid::NIL);
    let now = uuidkit::Timestamp::now().unix_millis().unwrap_or(0);
    let ahead = newest.unix_ts_ms().unwrap_or(0).saturating_sub(now);
    println!("v7: {THREADS} threads x {n} = {total} UUIDs, {dups} duplicates, newest {ahead} ms ahead of the clock");
    assert_eq!(total, THREADS * n);
    assert_eq!(dups, 0);
}

#[test]
fn v7_batch_eight_threads_no_duplicate_each_increasing() {
    let n = per_thread();
    let lists = on_threads(|v| {
        let mut chunk = vec![Uuid::NIL; 1000];
        while v.len() < n {
            let take = (n - v.len()).min(chunk.len());
            uuidkit::v7_batch(&mut chunk[..take]);
            v.extend_from_slice(&chunk[..take]);
        }
    });
    check_per_thread(&lists, |u| u.as_u128(), Version::SortRand);
    let (total, dups) = duplicates(&lists);
    println!("v7_batch: {THREADS} threads x {n} = {total} UUIDs, {dups} duplicates");
    assert_eq!(total, THREADS * n);
    assert_eq!(dups, 0);
}

#[test]
fn v6_eight_threads_no_duplicate_each_increasing() {
    let n = per_thread() / 4;
    let lists = on_threads(|v| v.extend((0..n).map(|_| uuidkit::v6())));
    check_per_thread(&lists, |u| u.as_u128(), Version::SortMac);
    let (total, dups) = duplicates(&lists);
    println!("v6: {THREADS} threads x {n} = {total} UUIDs, {dups} duplicates");
    assert_eq!(total, THREADS * n);
    assert_eq!(dups, 0);
}

#[test]
fn v1_eight_threads_no_duplicate_each_increasing() {
    let n = per_thread() / 4;
    let lists = on_threads(|v| v.extend((0..n).map(|_| uuidkit::v1())));
    // v1 bytes do not sort by time: each thread's timestamps increase.
    check_per_thread(
        &lists,
        |u| u.gregorian_ticks().unwrap() as u128,
        Version::Mac,
    );
    let (total, dups) = duplicates(&lists);
    // One clock sequence and node per process: the ticks alone must be distinct.
    let mut ticks: Vec<u64> = lists
        .iter()
        .flatten()
        .map(|u| u.gregorian_ticks().unwrap())
        .collect();
    ticks.sort_unstable();
    let tick_dups = ticks.windows(2).filter(|w| w[0] == w[1]).count();
    println!("v1: {THREADS} threads x {n} = {total} UUIDs, {dups} duplicates, {tick_dups} repeated ticks");
    assert_eq!(total, THREADS * n);
    assert_eq!(dups, 0);
    assert_eq!(tick_dups, 0);
}

/// Two threads take turns, each passing its UUID to the other: the one made after receiving
/// must be greater (the promise holds across threads, not only within one).
fn ping_pong(make: fn() -> Uuid, key: fn(&Uuid) -> u128) {
    let (to_b, from_a) = mpsc::channel::<Uuid>();
    let (to_a, from_b) = mpsc::channel::<Uuid>();
    const ROUNDS: usize = 10_000;
    std::thread::scope(|s| {
        s.spawn(move || {
            for _ in 0..ROUNDS {
                let got = from_a.recv().unwrap();
                let mine = make();
                assert!(key(&mine) > key(&got), "{mine} after {got}");
                to_a.send(mine).unwrap();
            }
        });
        let mut last = make();
        for _ in 0..ROUNDS {
            to_b.send(last).unwrap();
            let got = from_b.recv().unwrap();
            let mine = make();
            assert!(key(&got) > key(&last) && key(&mine) > key(&got));
            last = mine;
        }
    });
}

#[test]
fn later_uuids_are_greater_across_threads() {
    ping_pong(uuidkit::v7, |u| u.as_u128());
    ping_pong(uuidkit::v6, |u| u.as_u128());
    ping_pong(uuidkit::v1, |u| u.gregorian_ticks().unwrap() as u128);
}

// ---- fork ---------------------------------------------------------------------------------------

#[cfg(target_os = "linux")]
mod fork {
    use super::*;
    use uuidkit::generator::{fork_generation, V1Generator, V7Generator};

    /// Forks; the child fills `child_buf` (allocated before the fork, so the child does not
    /// allocate) with `child`, writes it to a pipe and `_exit`s (code 3 if `child` failed); the
    /// parent runs `parent` and then reads the child's bytes back.
    fn fork_run<T>(
        mut child_buf: Vec<u8>,
        child: impl FnOnce(&mut [u8]) -> bool,
        parent: impl FnOnce() -> T,
    ) -> (T, Vec<u8>) {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` is a writable array of two ints, as pipe(2) wants.
        let rc = unsafe { libc::pipe(fds.as_mut_ptr()) };
        assert_eq!(rc, 0, "pipe");
        // SAFETY: the child touches only its copy of memory this thread owns (the buffer and
        // the generators' state), makes system calls, and ends with `_exit` without returning
        // into the test harness.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork");
        if pid == 0 {
            let ok = child(&mut child_buf);
            let mut off = 0;
            let mut code = if ok { 0 } else { 3 };
            while ok && off < child_buf.len() {
                let rest = &child_buf[off..];
                // SAFETY: `rest` is initialised memory of `rest.len()` bytes; fds[1] is open.
                let w = unsafe { libc::write(fds[1], rest.as_ptr().cast(), rest.len()) };
                if w <= 0 {
                    code = 2;
                    break;
                }
                off += w as usize;
            }
            // SAFETY: leaves the child at once, running no destructors or atexit handlers.
            unsafe { libc::_exit(code) }
        }
        // SAFETY: fds[1] is open and only the child writes to it.
        unsafe { libc::close(fds[1]) };
        let out = parent();
        let mut got = vec![0u8; child_buf.len()];
        let mut off = 0;
        while off < got.len() {
            let rest = &mut got[off..];
            // SAFETY: `rest` is writable memory of `rest.len()` bytes; fds[0] is open.
            let r = unsafe { libc::read(fds[0], rest.as_mut_ptr().cast(), rest.len()) };
            assert!(r > 0, "the child sent {off} of {} bytes", got.len());
            off += r as usize;
        }
        let mut status = 0;
        // SAFETY: fds[0] is open; `pid` is our child and `status` a writable int.
        unsafe {
            libc::close(fds[0]);
            assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
        }
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "child status {status:#x}"
        );
        (out, got)
    }

    fn to_uuids(bytes: &[u8]) -> Vec<Uuid> {
        bytes
            .chunks_exact(16)
            .map(|c| {
                let mut b = [0u8; 16];
                b.copy_from_slice(c);
                Uuid::from_bytes(b)
            })
            .collect()
    }

    fn dups(a: &[Uuid], b: &[Uuid]) -> usize {
        let mut all: Vec<Uuid> = a.iter().chain(b).copied().collect();
        all.sort_unstable();
        all.windows(2).filter(|w| w[0] == w[1]).count()
    }

    /// Four runs of `n` UUIDs: process-wide v7, process-wide v1, and the per-instance v7 and
    /// v1 generators created before the fork.
    fn make_all(
        n: usize,
        g7: &mut V7Generator,
        g1: &mut V1Generator,
        mut put: impl FnMut(usize, Uuid),
    ) -> bool {
        for i in 0..n {
            put(i, uuidkit::v7());
        }
        for i in 0..n {
            put(n + i, uuidkit::v1());
        }
        for i in 0..n {
            match g7.next() {
                Ok(u) => put(2 * n + i, u),
                Err(_) => return false,
            }
        }
        for i in 0..n {
            match g1.next() {
                Ok(u) => put(3 * n + i, u),
                Err(_) => return false,
            }
        }
        true
    }

    #[test]
    fn parent_and_child_never_collide_after_a_warmed_up_fork() {
        let n = env_count("UUIDKIT_FORK_COUNT", 100_000);
        // Warm up: the process-wide and per-instance state exists and is mid-sequence.
        let mut g7 = V7Generator::system();
        let mut g1 = V1Generator::system();
        let mut warm = Vec::new();
        for _ in 0..1000 {
            warm.extend([
                uuidkit::v7(),
                uuidkit::v1(),
                g7.next().unwrap(),
                g1.next().unwrap(),
            ]);
        }
        let gen_before = fork_generation();
        let parent_v1_seq = uuidkit::v1().clock_seq();
        // The child's copies of the instances: what fork would copy, byte for byte.
        let (mut c7, mut c1) = (g7.clone(), g1.clone());

        let (parent, child_bytes) = fork_run(
            vec![0u8; 4 * n * 16],
            |buf| {
                make_all(n, &mut c7, &mut c1, |i, u| {
                    buf[16 * i..16 * i + 16].copy_from_slice(u.as_bytes())
                })
            },
            || {
                let mut v = vec![Uuid::NIL; 4 * n];
                assert!(make_all(n, &mut g7, &mut g1, |i, u| v[i] = u));
                v
            },
        );
        assert_eq!(fork_generation(), gen_before);
        let child = to_uuids(&child_bytes);
        assert_eq!(child.len(), 4 * n);

        let runs = [
            "v7 process-wide",
            "v1 process-wide",
            "v7 instance",
            "v1 instance",
        ];
        for (k, name) in runs.iter().enumerate() {
            let (p, c) = (&parent[k * n..(k + 1) * n], &child[k * n..(k + 1) * n]);
            let d = dups(p, c);
            println!("fork, {name}: parent {n} + child {n} UUIDs, {d} duplicates");
            assert_eq!(d, 0, "{name}");
            let want = if k % 2 == 0 {
                Version::SortRand
            } else {
                Version::Mac
            };
            assert!(c.iter().all(|u| u.version() == Some(want)), "{name}");
        }
        // The v1 state was renewed in the child: another clock sequence and node than the
        // parent's, for the process-wide generator and the instance alike.
        for k in [1, 3] {
            let (p, c) = (parent[k * n], child[k * n]);
            assert_ne!(
                c.clock_seq(),
                p.clock_seq(),
                "run {k}: clock sequence continued"
            );
            assert_ne!(c.node(), p.node(), "run {k}: random node continued");
            assert_eq!(c.node().unwrap()[0] & 1, 1);
        }
        assert_eq!(parent[n].clock_seq(), parent_v1_seq);
        // Nothing either side made repeats a warm-up UUID.
        let mut all = warm;
        all.extend_from_slice(&parent);
        all.extend_from_slice(&child);
        let total = all.len();
        all.sort_unstable();
        let d = all.windows(2).filter(|w| w[0] == w[1]).count();
        println!("fork, everything: {total} UUIDs, {d} duplicates");
        assert_eq!(d, 0);
    }
}

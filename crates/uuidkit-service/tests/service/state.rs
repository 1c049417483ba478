//! The durable generator and its state file (RFC 9562 §6.3, RFC 4122 §4.2.1): restarts, crashes
//! (a forked child that dies without flushing), clock regression, locking, corrupt files and
//! write failures.
//!
//! These tests run as root in CI, where permission bits do not stop writes; a write failure is
//! produced by planting a non-empty directory where the temporary file must be created.
#![cfg(unix)]

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use uuidkit::generator::StepClock;
use uuidkit::{Timestamp, Uuid};
use uuidkit_service::state::{
    DurableGenerator, Safety, State, StateErrorKind, StateOptions, TickRange, TimeVersion,
    WarningKind, STATE_LEN,
};

// A fresh directory, removed when dropped.
use uuidkit_test_support::TempDir;

/// 2022-02-22T19:22:22Z, the time of RFC 9562's examples.
const T0_MS: u64 = 1645557742000;

fn clock_at(ms: u64) -> StepClock {
    StepClock::new(Timestamp::from_unix_millis(ms))
}

fn kinds(g: &DurableGenerator<impl uuidkit::Clock>) -> Vec<WarningKind> {
    g.warnings().iter().map(|w| w.kind()).collect()
}

/// (ticks, clock sequence, node) of a v1 or v6 UUID.
fn tuple(u: Uuid) -> (u64, u16, [u8; 6]) {
    (
        u.gregorian_ticks().unwrap(),
        u.clock_seq().unwrap(),
        u.node().unwrap(),
    )
}

#[test]
fn first_use_creates_a_private_file_and_covers_what_it_issues() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    assert_eq!(kinds(&g), [WarningKind::Missing]);
    let (v7, s7) = g.next(TimeVersion::V7).unwrap();
    let (v6, s6) = g.next(TimeVersion::V6).unwrap();
    let (v1, s1) = g.next(TimeVersion::V1).unwrap();
    assert_eq!(
        (s7, s6, s1),
        (Safety::Durable, Safety::Durable, Safety::Durable)
    );
    assert_eq!(
        (v7.version_num(), v6.version_num(), v1.version_num()),
        (7, 6, 1)
    );
    // v1 and v6 share one timeline: the v1 came after the v6.
    assert!(v1.gregorian_ticks() > v6.gregorian_ticks());

    let meta = fs::symlink_metadata(&p).unwrap();
    assert_eq!(meta.len(), STATE_LEN as u64);
    assert_eq!(meta.mode() & 0o777, 0o600);
    let s = State::read(&p).unwrap();
    assert!(!s.clean);
    assert!(s.gregorian_ticks >= v1.gregorian_ticks().unwrap());
    assert!(s.v7_unix_ms >= v7.unix_ts_ms().unwrap());
    assert_eq!(s.clock_seq, v1.clock_seq().unwrap());
    assert_eq!(s.node, v1.node().unwrap());
    assert_eq!(
        s.node[0] & 1,
        1,
        "a random node has the multicast bit (RFC 9562 §6.10)"
    );
}

#[test]
fn a_clean_restart_keeps_the_clock_sequence_and_the_order() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    let mut first = [Uuid::NIL; 100];
    g.fill(TimeVersion::V7, &mut first).unwrap();
    let (a6, _) = g.next(TimeVersion::V6).unwrap();
    let seq = g.clock_seq();
    g.close().unwrap();
    let s = State::read(&p).unwrap();
    assert!(s.clean);
    assert_eq!(s.gregorian_ticks, a6.gregorian_ticks().unwrap());
    assert_eq!(s.v7_unix_ms, first[99].unix_ts_ms().unwrap());

    let mut g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    assert_eq!(g.clock_seq(), seq);
    let (b7, _) = g.next(TimeVersion::V7).unwrap();
    let (b6, _) = g.next(TimeVersion::V6).unwrap();
    assert!(b7 > first[99]);
    assert!(b6 > a6);
}

#[test]
fn writes_are_reservations_not_one_per_uuid() {
    let d = TempDir::new();
    let p = d.path("state");
    // A frozen clock: everything below happens "within one millisecond".
    let mut g =
        DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(T0_MS)).unwrap();
    let writes0 = State::read(&p).unwrap().writes;
    let mut buf = vec![Uuid::NIL; 10_000];
    for _ in 0..10 {
        assert_eq!(g.fill(TimeVersion::V7, &mut buf).unwrap(), Safety::Durable);
        assert_eq!(g.fill(TimeVersion::V6, &mut buf).unwrap(), Safety::Durable);
    }
    // 100,000 v6 take 10 ms of 100-ns ticks, far inside the 1 s reserve.
    assert_eq!(State::read(&p).unwrap().writes, writes0);
    // Moving the clock past half the reserve renews it (in the background: wait for it).
    g.clock().advance(600_000_000);
    assert_eq!(g.next(TimeVersion::V7).unwrap().1, Safety::Durable);
    let t = std::time::Instant::now();
    let mut s = State::read(&p).unwrap();
    while s.writes == writes0 && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
        s = State::read(&p).unwrap();
    }
    assert_eq!(s.writes, writes0 + 1);
    assert!(s.v7_unix_ms >= T0_MS + 600 + 1000);
}

/// Forks a child that opens the state, issues UUIDs, sends them over a pipe and dies with
/// `_exit` — no flush, no destructor: a crash right after issuing.
fn crash_child(path: &Path, clock_ms: u64, n: usize) -> Vec<Uuid> {
    crash_child_with(path, clock_ms, |g| {
        (0..n)
            .map(|i| {
                let v = [TimeVersion::V7, TimeVersion::V6, TimeVersion::V1][i % 3];
                let (u, s) = g.next(v).unwrap();
                assert_eq!(s, Safety::Durable);
                u
            })
            .collect()
    })
}

/// As [`crash_child`], the child issuing what `issue` returns.
fn crash_child_with(
    path: &Path,
    clock_ms: u64,
    issue: impl FnOnce(&mut DurableGenerator<StepClock>) -> Vec<Uuid>,
) -> Vec<Uuid> {
    let mut fds = [0i32; 2];
    // SAFETY: `fds` is a writable array of two ints, as pipe requires.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child only runs code that is safe after fork in a process whose other threads
    // are test threads that hold no lock it needs (glibc's malloc has fork handlers), and ends
    // with _exit.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0);
    if pid == 0 {
        // Close what the child inherited from the other test threads at once: a state lock
        // they hold would otherwise stay held by this copy of its descriptor until the child
        // ends, and their next open of that file would find it locked.
        for fd in 3..1024 {
            if fd != fds[1] {
                // SAFETY: closing a descriptor this child owns a copy of (or none: EBADF).
                unsafe { libc::close(fd) };
            }
        }
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // A frozen clock never passes the reservation: no catch-up wait.
            let opts = StateOptions::new().catch_up(false);
            let mut g = DurableGenerator::open_with_clock(path, opts, clock_at(clock_ms)).unwrap();
            let out: Vec<u8> = issue(&mut g).iter().flat_map(|u| *u.as_bytes()).collect();
            // SAFETY: fds[1] is the pipe's write end, open in the child; `out` is live.
            let w = unsafe { libc::write(fds[1], out.as_ptr().cast(), out.len()) };
            assert_eq!(w as usize, out.len());
            std::mem::forget(g);
        }))
        .map_or(1, |_| 0);
        // SAFETY: ends the child at once, running no destructor and no atexit handler.
        unsafe { libc::_exit(code) };
    }
    // SAFETY: fds[1] is open in the parent and no longer needed there.
    unsafe { libc::close(fds[1]) };
    // SAFETY: fds[0] is the pipe's read end, owned from here on by the File.
    let mut r = unsafe { <fs::File as std::os::fd::FromRawFd>::from_raw_fd(fds[0]) };
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes).unwrap();
    let mut status = 0;
    // SAFETY: waits for the child forked above; `status` is writable.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child failed"
    );
    bytes
        .chunks_exact(16)
        .map(|c| Uuid::from_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn after_a_crash_nothing_repeats_and_v7_keeps_increasing() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut v7_max = Uuid::NIL;
    let mut tuples = HashSet::new();
    let mut seqs = HashSet::new();
    // Five crashed runs at the same clock reading (a restart faster than the clock moves),
    // then one where the clock went back an hour.
    for (run, ms) in [T0_MS, T0_MS, T0_MS, T0_MS + 1, T0_MS + 1, T0_MS - 3_600_000]
        .into_iter()
        .enumerate()
    {
        let got = crash_child(&p, ms, 300);
        assert_eq!(got.len(), 300);
        let v7: Vec<Uuid> = got
            .iter()
            .copied()
            .filter(|u| u.version_num() == 7)
            .collect();
        assert!(
            v7.windows(2).all(|w| w[0] < w[1]),
            "run {run}: v7 out of order"
        );
        assert!(
            v7[0] > v7_max,
            "run {run}: v7 {} not above the previous runs' {v7_max}",
            v7[0]
        );
        v7_max = v7[v7.len() - 1];
        for u in got.iter().filter(|u| u.version_num() != 7) {
            assert!(tuples.insert(tuple(*u)), "run {run}: repeated {u}");
            seqs.insert(u.clock_seq().unwrap());
        }
    }
    // Every restart found the reservation ahead of the clock: the clock sequence moved on each
    // time (RFC 4122 §4.2.1), six distinct values for six runs.
    assert_eq!(seqs.len(), 6, "{seqs:?}");
}

/// A reserved block of v1/v6 timestamps as (first, last) UUIDs, laid out as v1.
fn ends(r: &TickRange) -> [Uuid; 2] {
    [r.v1(0).unwrap(), r.v1(r.count - 1).unwrap()]
}

#[test]
fn reserved_ticks_never_overlap_and_survive_crashes() {
    let d = TempDir::new();
    let p = d.path("state");
    // Every (clock sequence, node, first ticks, last ticks) handed out, all runs.
    let mut spans: Vec<(u16, [u8; 6], u64, u64)> = Vec::new();
    // Crashed runs at the same clock reading and one after the clock went back an hour; each
    // mixes single UUIDs, blocks (one larger than the 1-s reserve) and a batch.
    for (run, ms) in [T0_MS, T0_MS, T0_MS + 1, T0_MS - 3_600_000]
        .into_iter()
        .enumerate()
    {
        // Pairs of UUIDs: the ends of what was handed out, in issue order.
        let got = crash_child_with(&p, ms, |g| {
            let one = |u: Uuid| [u, u];
            let mut out = one(g.next(TimeVersion::V1).unwrap().0).to_vec();
            for count in [5_000, 1, 11_000_000, 3] {
                let r = g.reserve_ticks(count).unwrap();
                assert_eq!((r.count, r.safety), (count, Safety::Durable));
                // Covered before it is handed out.
                let s = State::read(g.path()).unwrap();
                assert!(s.gregorian_ticks >= r.last_ticks().unwrap());
                assert_eq!((s.clock_seq, s.node), (r.clock_seq, r.node));
                out.extend(ends(&r));
                out.extend(one(g.next(TimeVersion::V6).unwrap().0));
            }
            let mut batch = [Uuid::NIL; 10];
            g.fill(TimeVersion::V1, &mut batch).unwrap();
            out.extend(batch.iter().flat_map(|u| one(*u)));
            out
        });
        assert_eq!(got.len(), 2 * (1 + 4 * 2 + 10));
        let run_spans: Vec<_> = got
            .chunks_exact(2)
            .map(|p| {
                let (t0, seq, node) = tuple(p[0]);
                let (t1, seq1, node1) = tuple(p[1]);
                assert_eq!(
                    (seq, node),
                    (seq1, node1),
                    "run {run}: one block, one sequence"
                );
                (seq, node, t0, t1)
            })
            .collect();
        // One timeline: strictly increasing timestamps in issue order.
        assert!(
            run_spans
                .windows(2)
                .all(|w| w[0].3 < w[1].2 && w[1].2 <= w[1].3),
            "run {run}: timestamps out of order: {run_spans:?}"
        );
        for a in &run_spans {
            for b in &spans {
                let overlap = (a.0, a.1) == (b.0, b.1) && a.2 <= b.3 && b.2 <= a.3;
                assert!(!overlap, "run {run}: {a:?} overlaps an earlier run's {b:?}");
            }
        }
        spans.extend(run_spans);
    }
}

#[test]
fn reserved_v7_ranges_survive_crashes_in_order() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut v7_max = Uuid::NIL;
    // Crashed runs at one clock reading (restarts faster than the clock), then one after the
    // clock went back an hour: every v7 of a run, ranges and single ones, above the runs
    // before, and increasing in issue order.
    for (run, ms) in [T0_MS, T0_MS, T0_MS, T0_MS - 3_600_000]
        .into_iter()
        .enumerate()
    {
        let got = crash_child_with(&p, ms, |g| {
            let mut out = vec![g.next(TimeVersion::V7).unwrap().0];
            for count in [1, 50_000, 3] {
                let r = g.reserve_v7(count).unwrap();
                assert_eq!((r.count, r.safety), (count, Safety::Durable));
                let s = State::read(g.path()).unwrap();
                assert!(s.v7_unix_ms >= r.unix_ms, "covered before it is handed out");
                // The ends, with the lowest and the highest random bits.
                out.push(r.uuid(0, 0).unwrap());
                out.push(r.uuid(count - 1, u64::MAX).unwrap());
                out.push(g.next(TimeVersion::V7).unwrap().0);
            }
            out
        });
        assert!(
            got.windows(2).all(|w| w[0] < w[1]),
            "run {run}: v7 out of order: {got:?}"
        );
        assert!(got[0] > v7_max, "run {run}: {} not above {v7_max}", got[0]);
        v7_max = got[got.len() - 1];
    }
}

#[test]
fn reserved_ticks_follow_the_write_rules_and_strict_mode() {
    let d = TempDir::new();
    let p = d.path("state");
    let opts = StateOptions::new().strict(true);
    let mut g = DurableGenerator::open_with_clock(&p, opts, clock_at(T0_MS)).unwrap();
    let empty = g.reserve_ticks(0).unwrap();
    assert_eq!((empty.count, empty.last_ticks()), (0, None));
    let a = g.reserve_ticks(100).unwrap();
    assert_eq!(a.safety, Safety::Durable);
    let obstacle = block_writes(&p);
    // Within the reservation (1 s of ticks ahead of the clock): still durable.
    assert_eq!(g.reserve_ticks(1_000).unwrap().safety, Safety::Durable);
    // Beyond it: an error, no block.
    let e = g.reserve_ticks(20_000_000).unwrap_err();
    assert_eq!(e.kind(), StateErrorKind::Write);
    fs::remove_dir_all(&obstacle).unwrap();
    let b = g.reserve_ticks(20_000_000).unwrap();
    assert_eq!(b.safety, Safety::Durable);
    assert!(b.first_ticks > a.last_ticks().unwrap());
    assert!(State::read(&p).unwrap().gregorian_ticks >= b.last_ticks().unwrap());
    drop(g);

    // Not strict: the same block is handed out, marked volatile.
    let mut g =
        DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(T0_MS)).unwrap();
    let obstacle = block_writes(&p);
    let c = g.reserve_ticks(20_000_000).unwrap();
    assert_eq!(c.safety, Safety::Volatile);
    assert!(g.next(TimeVersion::V1).unwrap().0.gregorian_ticks() > c.last_ticks());
    fs::remove_dir_all(&obstacle).unwrap();
    g.close().unwrap();
    let e = DurableGenerator::open(&p, StateOptions::new())
        .unwrap()
        .reserve_ticks(1);
    assert!(e.is_ok());
}

/// Issue 28: a restart with the clock set back an hour. v6 and v7 issued after it sort above
/// those issued before (they continue above the stored bounds, ahead of the clock until it
/// catches up); v1 shares v6's timeline, so its timestamps continue too, and it takes the
/// next clock sequence (RFC 4122 §4.2.1.2): unique, with a clock sequence that says the clock
/// went back.
#[test]
fn clock_set_back_an_hour_keeps_v6_and_v7_in_order_and_gives_v1_a_new_clock_sequence() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut g =
        DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(T0_MS)).unwrap();
    let (a1, _) = g.next(TimeVersion::V1).unwrap();
    let (a6, _) = g.next(TimeVersion::V6).unwrap();
    let (a7, _) = g.next(TimeVersion::V7).unwrap();
    let ra = g.reserve_ticks(1000).unwrap();
    g.close().unwrap();

    let back = T0_MS - 3_600_000;
    let mut g = DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(back)).unwrap();
    let k = kinds(&g);
    assert!(k.contains(&WarningKind::ClockSequenceChanged), "{k:?}");
    assert!(k.contains(&WarningKind::V7AheadOfClock), "{k:?}");
    let msg = g.warnings()[0].to_string();
    assert!(msg.contains("clock was set back"), "{msg}");
    assert!(msg.contains("continue above the stored one"), "{msg}");
    assert_eq!(g.clock_seq(), (a1.clock_seq().unwrap() + 1) & 0x3FFF);
    let (b1, _) = g.next(TimeVersion::V1).unwrap();
    let (b6, _) = g.next(TimeVersion::V6).unwrap();
    let (b7, _) = g.next(TimeVersion::V7).unwrap();
    let rb = g.reserve_ticks(1000).unwrap();
    eprintln!("before the restart (clock {T0_MS} ms): v1 {a1} v6 {a6} v7 {a7}");
    eprintln!("after (clock an hour back):          v1 {b1} v6 {b6} v7 {b7}");
    eprintln!(
        "clock sequence {:#06x} -> {:#06x}; v6 timestamp {} -> {} (the clock reads {})",
        a1.clock_seq().unwrap(),
        b1.clock_seq().unwrap(),
        a6.timestamp().unwrap().to_rfc3339(7),
        b6.timestamp().unwrap().to_rfc3339(7),
        Timestamp::from_unix_millis(back).to_rfc3339(7),
    );
    // v6 and v7 keep their order (byte order), and so do the v6 of a range.
    assert!(b6 > a6, "v6 after the restart sorts below the one before");
    assert!(rb.v6(0).unwrap() > ra.v6(999).unwrap());
    assert!(b7 > a7, "v7 after the restart sorts below the one before");
    // v1: unique, its clock sequence the next one.
    assert_ne!(tuple(a1), tuple(b1));
    assert_ne!(b1.clock_seq(), a1.clock_seq());
    assert_eq!(b1.clock_seq(), Some((a1.clock_seq().unwrap() + 1) & 0x3FFF));
    // Its timestamp continues the one timeline too (above every v1/v6 before).
    assert!(b1.gregorian_ticks() > ra.last_ticks());
    // One timeline: no timestamp issued twice across the restart, in either layout.
    let mut seen = HashSet::new();
    for u in [a1, a6, b1, b6] {
        assert!(
            seen.insert(u.gregorian_ticks().unwrap()),
            "{u} repeats a timestamp"
        );
    }
}

#[test]
fn a_new_node_gets_a_new_clock_sequence() {
    let d = TempDir::new();
    let p = d.path("state");
    let g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    let old = (g.clock_seq(), g.node());
    g.close().unwrap();
    let node = [0x02, 0x00, 0x5E, 0x10, 0x00, 0x01];
    let g = DurableGenerator::open(&p, StateOptions::new().node(node)).unwrap();
    assert_eq!(kinds(&g), [WarningKind::NodeChanged]);
    assert_eq!(g.node(), node);
    assert_ne!(g.clock_seq(), old.0);
    drop(g);
    assert_eq!(State::read(&p).unwrap().node, node);
}

#[test]
fn a_second_generator_on_one_file_fails_or_waits() {
    let d = TempDir::new();
    let p = d.path("state");
    let g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    let e = DurableGenerator::open(&p, StateOptions::new()).unwrap_err();
    assert_eq!(e.kind(), StateErrorKind::Locked);
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("in use by process {}", std::process::id())),
        "{msg}"
    );
    // With a wait, the second one gets the file once the first lets go.
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        drop(g);
    });
    let opts = StateOptions::new().lock_wait(Some(Duration::from_secs(10)));
    let mut g2 = DurableGenerator::open(&p, opts).unwrap();
    releaser.join().unwrap();
    assert_eq!(g2.next(TimeVersion::V7).unwrap().1, Safety::Durable);
}

/// What opening a damaged state file must do, in non-strict and strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Opens in both modes with this warning and a fresh state.
    Both(WarningKind),
    /// Opens with this warning and keeps the stored clock sequence.
    Keep(WarningKind),
    /// Non-strict: opens with this warning and a fresh state; strict: this error.
    Fresh(WarningKind, StateErrorKind),
    /// An error in both modes.
    Refuse(StateErrorKind),
}

fn valid_state() -> State {
    State {
        gregorian_ticks: 0x1EC9414C232AB00,
        clock_seq: 0x1234,
        node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x47],
        v7_unix_ms: T0_MS,
        v7_counter: None,
        clean: true,
        writes: 7,
    }
}

/// Runs one row of the table: `make` damages the state at the given path and returns the path
/// to open.
fn check_row(name: &str, make: &dyn Fn(&Path) -> PathBuf, expect: Expect, table: &mut Vec<String>) {
    let mut outcome = Vec::new();
    for strict in [false, true] {
        let d = TempDir::new();
        let p = make(&d.path("state"));
        let opts = StateOptions::new().strict(strict);
        // Clock an hour after the stored state: a kept state keeps its clock sequence.
        let r = DurableGenerator::open_with_clock(&p, opts, clock_at(T0_MS + 3_600_000));
        match (expect, strict, r) {
            (Expect::Keep(w), _, Ok(mut g)) => {
                assert!(kinds(&g).contains(&w), "{name}: {:?}", g.warnings());
                assert_eq!(g.clock_seq(), 0x1234, "{name}");
                assert_eq!(g.next(TimeVersion::V7).unwrap().1, Safety::Durable);
                outcome.push(format!("ok, {w:?}"));
            }
            (Expect::Fresh(w, _), false, Ok(mut g)) | (Expect::Both(w), _, Ok(mut g)) => {
                assert!(kinds(&g).contains(&w), "{name}: {:?}", g.warnings());
                let (_, s) = g.next(TimeVersion::V6).unwrap();
                if w == WarningKind::Unlocked {
                    assert_eq!(s, Safety::Volatile, "{name}");
                    assert!(!g.is_durable(), "{name}");
                } else {
                    assert_eq!(s, Safety::Durable, "{name}");
                    // The damaged file was replaced by a valid, private one.
                    State::read(&p).unwrap();
                    assert_eq!(fs::metadata(&p).unwrap().mode() & 0o777, 0o600);
                }
                outcome.push(format!("ok, {w:?}"));
            }
            (Expect::Fresh(_, k), true, Err(e)) | (Expect::Refuse(k), _, Err(e)) => {
                assert_eq!(e.kind(), k, "{name}: {e}");
                outcome.push(format!("error {k:?}"));
            }
            (_, _, Ok(g)) => panic!("{name} (strict {strict}): opened, {:?}", g.warnings()),
            (_, _, Err(e)) => panic!("{name} (strict {strict}): {e}"),
        }
    }
    table.push(format!("| {name} | {} | {} |", outcome[0], outcome[1]));
}

/// The row of the damaged-state table that needs root (giving the file to another user):
/// ignored in the default run; `scripts/root-tests` runs it as root, and it fails otherwise.
#[test]
#[ignore = "needs root: scripts/root-tests runs it"]
fn root_state_file_owned_by_another_user_is_untrusted() {
    // SAFETY: geteuid takes no arguments and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    assert!(
        root,
        "not root: cannot give a file to another user; this test fails rather than pass unchecked"
    );
    let good = valid_state().encode();
    let mut table = Vec::new();
    check_row(
        "owned by another user (uid 4242)",
        &|p| {
            fs::write(p, good).unwrap();
            fs::set_permissions(p, fs::Permissions::from_mode(0o600)).unwrap();
            std::os::unix::fs::chown(p, Some(4242), None).unwrap();
            p.to_path_buf()
        },
        Expect::Fresh(WarningKind::Discarded, StateErrorKind::Untrusted),
        &mut table,
    );
    eprintln!("{}", table.join("\n"));
}

#[test]
fn damaged_state_files_table() {
    use Expect::*;
    use StateErrorKind as E;
    use WarningKind as W;
    let mut table = vec![
        "| state file | default | --strict |".to_string(),
        "|---|---|---|".to_string(),
    ];
    let good = valid_state().encode();
    let write = |p: &Path, b: &[u8]| -> PathBuf {
        fs::write(p, b).unwrap();
        fs::set_permissions(p, fs::Permissions::from_mode(0o600)).unwrap();
        p.to_path_buf()
    };

    check_row(
        "missing",
        &|p| p.to_path_buf(),
        Both(W::Missing),
        &mut table,
    );
    for len in 0..STATE_LEN {
        check_row(
            &format!("truncated to {len} bytes"),
            &|p| write(p, &good[..len]),
            Fresh(W::Discarded, E::Corrupt),
            &mut table,
        );
    }
    for i in 0..STATE_LEN {
        check_row(
            &format!("byte {i} flipped"),
            &|p| {
                let mut b = good;
                b[i] ^= 0x20;
                write(p, &b)
            },
            Fresh(W::Discarded, E::Corrupt),
            &mut table,
        );
    }
    check_row(
        "64 random bytes",
        &|p| {
            let mut b = [0u8; 64];
            uuidkit::generator::fill_random(&mut b);
            write(p, &b)
        },
        Fresh(W::Discarded, E::Corrupt),
        &mut table,
    );
    check_row(
        "10 MiB",
        &|p| write(p, &vec![0x5A; 10 << 20]),
        Fresh(W::Discarded, E::Corrupt),
        &mut table,
    );
    check_row(
        "valid state + 1 byte",
        &|p| write(p, &[&good[..], &[0][..]].concat()),
        Fresh(W::Discarded, E::Corrupt),
        &mut table,
    );
    check_row(
        "symlink to a valid state",
        &|p| {
            let target = p.with_file_name("elsewhere");
            write(&target, &good);
            std::os::unix::fs::symlink(&target, p).unwrap();
            p.to_path_buf()
        },
        Refuse(E::Unsafe),
        &mut table,
    );
    check_row(
        "dangling symlink",
        &|p| {
            std::os::unix::fs::symlink("/nonexistent/x", p).unwrap();
            p.to_path_buf()
        },
        Refuse(E::Unsafe),
        &mut table,
    );
    check_row(
        "a directory",
        &|p| {
            fs::create_dir(p).unwrap();
            p.to_path_buf()
        },
        Refuse(E::Unsafe),
        &mut table,
    );
    check_row(
        "a FIFO (must not hang)",
        &|p| {
            let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            p.to_path_buf()
        },
        Refuse(E::Unsafe),
        &mut table,
    );
    check_row(
        "mode 0644 (readable by others)",
        &|p| {
            write(p, &good);
            fs::set_permissions(p, fs::Permissions::from_mode(0o644)).unwrap();
            p.to_path_buf()
        },
        Keep(W::Permissions),
        &mut table,
    );
    check_row(
        "mode 0666 (writable by others)",
        &|p| {
            write(p, &good);
            fs::set_permissions(p, fs::Permissions::from_mode(0o666)).unwrap();
            p.to_path_buf()
        },
        Fresh(W::Discarded, E::Untrusted),
        &mut table,
    );
    // "owned by another user": root_state_file_owned_by_another_user_is_untrusted (chown).
    check_row(
        "parent is a regular file",
        &|p| {
            fs::write(p, b"not a directory").unwrap();
            p.join("state")
        },
        Fresh(W::Unlocked, E::Io),
        &mut table,
    );
    let mut future = valid_state().encode();
    future[9] = 2; // format version 2, checksum fixed up below
    let c = {
        use sha2::Digest;
        let d = sha2::Sha256::digest(&future[..56]);
        let mut c = [0u8; 8];
        c.copy_from_slice(&d[..8]);
        c
    };
    future[56..].copy_from_slice(&c);
    check_row(
        "format version 2 (valid checksum)",
        &|p| write(p, &future),
        Fresh(W::Discarded, E::Corrupt),
        &mut table,
    );
    eprintln!("{}", table.join("\n"));
}

/// Makes every write fail: a non-empty directory where the temporary file must be created
/// (root ignores permission bits, not this).
fn block_writes(state: &Path) -> PathBuf {
    let tmp = PathBuf::from(format!("{}.tmp", state.display()));
    fs::create_dir(&tmp).unwrap();
    fs::write(tmp.join("keep"), b"x").unwrap();
    tmp
}

#[test]
fn a_failed_write_marks_uuids_volatile_until_a_write_succeeds() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut g =
        DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(T0_MS)).unwrap();
    assert_eq!(g.next(TimeVersion::V1).unwrap().1, Safety::Durable);
    let obstacle = block_writes(&p);
    // Past the reservation: the renewal fails, and the UUIDs are not covered.
    g.clock().advance(2_000_000_000);
    let (a, s) = g.next(TimeVersion::V1).unwrap();
    assert_eq!(s, Safety::Volatile);
    let (b, s) = g.next(TimeVersion::V7).unwrap();
    assert_eq!(s, Safety::Volatile);
    let e = g.last_write_error().expect("the failure is kept");
    assert_eq!(e.kind(), StateErrorKind::Write);
    assert!(e.to_string().contains("state.tmp"), "{e}");
    // Still unique and ordered in memory.
    assert!(g.next(TimeVersion::V1).unwrap().0.gregorian_ticks() > a.gregorian_ticks());
    assert!(g.next(TimeVersion::V7).unwrap().0 > b);

    // Once writing works again (a retry waits 1 s of real time), UUIDs are durable again.
    fs::remove_dir_all(&obstacle).unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(g.next(TimeVersion::V6).unwrap().1, Safety::Durable);
    assert!(g.last_write_error().is_none());
}

#[test]
fn strict_mode_refuses_uuids_the_file_does_not_cover() {
    let d = TempDir::new();
    let p = d.path("state");
    let opts = StateOptions::new().strict(true);
    let mut g = DurableGenerator::open_with_clock(&p, opts, clock_at(T0_MS)).unwrap();
    let (a, s) = g.next(TimeVersion::V7).unwrap();
    assert_eq!(s, Safety::Durable);
    let obstacle = block_writes(&p);
    // Within the reservation: still durable, though the early renewal fails.
    g.clock().advance(700_000_000);
    assert_eq!(g.next(TimeVersion::V7).unwrap().1, Safety::Durable);
    // Beyond it: an error, no UUID.
    g.clock().advance(2_000_000_000);
    let e = g.next(TimeVersion::V7).unwrap_err();
    assert_eq!(e.kind(), StateErrorKind::Write);
    fs::remove_dir_all(&obstacle).unwrap();
    let (b, s) = g.next(TimeVersion::V7).unwrap();
    assert_eq!(s, Safety::Durable);
    assert!(b > a);

    // Strict mode cannot even start when the first write fails.
    drop(g);
    block_writes(&p);
    let e = DurableGenerator::open(&p, StateOptions::new().strict(true)).unwrap_err();
    assert_eq!(e.kind(), StateErrorKind::Write);
    // Non-strict mode starts, says so, and marks its UUIDs.
    let mut g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    assert!(
        kinds(&g).contains(&WarningKind::WriteFailed),
        "{:?}",
        g.warnings()
    );
    assert_eq!(g.next(TimeVersion::V7).unwrap().1, Safety::Volatile);
}

#[test]
fn a_forked_child_never_writes_the_parents_state() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    let (parent_v1, _) = g.next(TimeVersion::V1).unwrap();
    let before = fs::read(&p).unwrap();
    let mut fds = [0i32; 2];
    // SAFETY: `fds` is a writable array of two ints.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: see crash_child; the child ends with _exit.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let r = g.next(TimeVersion::V1);
        // The UUID, whether it is volatile, and the clock sequence and node the child's
        // generator reports after issuing it.
        let mut msg = [0u8; 25];
        if let Ok((u, s)) = r {
            msg[..16].copy_from_slice(u.as_bytes());
            msg[16] = u8::from(s == Safety::Volatile);
        }
        msg[17..19].copy_from_slice(&g.clock_seq().to_be_bytes());
        msg[19..].copy_from_slice(&g.node());
        let _ = g.flush(); // must not write
                           // SAFETY: the pipe's write end; `msg` is live.
        unsafe { libc::write(fds[1], msg.as_ptr().cast(), msg.len()) };
        // SAFETY: ends the child without destructors.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: the parent's copy of the write end is not needed.
    unsafe { libc::close(fds[1]) };
    // SAFETY: the read end, owned by the File from here on.
    let mut r = unsafe { <fs::File as std::os::fd::FromRawFd>::from_raw_fd(fds[0]) };
    let mut msg = Vec::new();
    r.read_to_end(&mut msg).unwrap();
    let mut status = 0;
    // SAFETY: waits for our child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(msg.len(), 25);
    assert_eq!(msg[16], 1, "the child's UUIDs are volatile");
    let child_v1 = Uuid::from_bytes(msg[..16].try_into().unwrap());
    assert_ne!(child_v1.clock_seq(), parent_v1.clock_seq());
    // The child's accessors report what its UUIDs carry, not the parent's values.
    let child_seq = u16::from_be_bytes([msg[17], msg[18]]);
    assert_eq!(child_v1.clock_seq(), Some(child_seq));
    assert_eq!(
        child_v1.node().map(|n| n.to_vec()),
        Some(msg[19..].to_vec())
    );
    assert_eq!(
        (g.clock_seq(), g.node()),
        (parent_v1.clock_seq().unwrap(), parent_v1.node().unwrap())
    );
    assert_eq!(fs::read(&p).unwrap(), before, "the child wrote the state");
    assert_eq!(g.next(TimeVersion::V1).unwrap().1, Safety::Durable);
}

#[test]
fn resume_after_continues_above_a_floor() {
    // The additive hooks this module relies on, checked directly on the generators.
    use uuidkit::generator::{FixedClock, ThreadRng, V1Generator, V7Generator};
    let clock = FixedClock::new(Timestamp::from_unix_millis(T0_MS));
    let mut g = V1Generator::new(clock, ThreadRng);
    let floor = Timestamp::from_unix_millis(T0_MS + 5)
        .gregorian_ticks()
        .unwrap();
    g.resume_after(floor);
    assert_eq!(g.next().unwrap().gregorian_ticks(), Some(floor + 1));
    assert_eq!(g.last_ticks(), Some(floor + 1));

    let mut g = V7Generator::new(clock, ThreadRng);
    g.resume_after(T0_MS, Some(41));
    let u = g.next().unwrap();
    assert_eq!(u.unix_ts_ms(), Some(T0_MS));
    assert_eq!(g.last_counter(), Some(42));
    // Counter 42 sits in the top of rand_a / rand_b (Method 1, 42 bits).
    let bits = ((u.rand_a().unwrap() as u128) << 62) | u.rand_b().unwrap() as u128;
    assert_eq!(bits >> 32, 42);
}

#[test]
fn after_a_crash_opening_waits_for_the_clock_to_pass_the_v7_reservation() {
    let d = TempDir::new();
    let p = d.path("state");
    crash_child(&p, T0_MS, 3);
    let reserved = State::read(&p).unwrap().v7_unix_ms;
    assert!(reserved >= T0_MS + 1000);
    // A clock that moves 1 ms per reading, starting where the crashed run was.
    let clock = clock_at(T0_MS).with_auto_step(1_000_000);
    let mut g = DurableGenerator::open_with_clock(&p, StateOptions::new(), clock).unwrap();
    assert!(
        kinds(&g).contains(&WarningKind::WaitedForClock),
        "{:?}",
        g.warnings()
    );
    let (u, _) = g.next(TimeVersion::V7).unwrap();
    let ms = u.unix_ts_ms().unwrap();
    // Above the reservation, and not a whole reserve beyond it.
    assert!(ms > reserved && ms < reserved + 500, "{ms} vs {reserved}");
    drop(g);

    // A clean shutdown leaves nothing to wait for.
    let g = DurableGenerator::open(&p, StateOptions::new()).unwrap();
    assert!(!kinds(&g).contains(&WarningKind::WaitedForClock));
}

/// Two generators on one state file whose lock cannot be taken (here `state.lock` is a
/// directory, so opening it fails with EISDIR — as root, a read-only file system is not needed
/// to get there): both run unlocked at the same clock reading, and must not both reuse the
/// stored clock sequence and node (RFC 9562 §6.3: state unavailable).
#[test]
fn two_generators_on_a_file_whose_lock_cannot_be_taken_never_repeat() {
    let d = TempDir::new();
    let p = d.path("state");
    let mut g =
        DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(T0_MS)).unwrap();
    g.next(TimeVersion::V6).unwrap();
    g.close().unwrap();
    let stored = State::read(&p).unwrap();
    let lock = d.path("state.lock");
    assert!(!lock.exists(), "a clean stop removes the lock file");
    fs::create_dir(&lock).unwrap();

    let later = T0_MS + 1_000;
    let mut a = DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(later))
        .expect("runs without the lock when not strict");
    let mut b = DurableGenerator::open_with_clock(&p, StateOptions::new(), clock_at(later))
        .expect("a second one too: nothing stops it");
    let texts: Vec<Vec<String>> = [&a, &b]
        .iter()
        .map(|g| g.warnings().iter().map(|w| w.to_string()).collect())
        .collect();
    let mut seen = HashSet::new();
    let mut dups = 0;
    for i in 0..4_000 {
        let v = if i % 2 == 0 {
            TimeVersion::V1
        } else {
            TimeVersion::V6
        };
        for g in [&mut a, &mut b] {
            let (u, s) = g.next(v).unwrap();
            assert_eq!(s, Safety::Volatile);
            if !seen.insert(tuple(u)) {
                dups += 1;
            }
        }
    }
    let used = [(a.clock_seq(), a.node()), (b.clock_seq(), b.node())];
    drop((a, b));
    assert_eq!(dups, 0, "identical v1/v6 from two unlocked generators");
    for text in texts {
        assert!(
            text.iter().any(|t| t.contains("running without the lock")
                && t.contains("random clock sequence")
                && t.contains("random node")),
            "the warning says what happens: {text:?}"
        );
    }
    for (seq, node) in used {
        assert_ne!(
            seq, stored.clock_seq,
            "the stored clock sequence was reused"
        );
        assert_ne!(node, stored.node, "the stored node was reused");
        assert_eq!(node[0] & 1, 1, "a random node has the multicast bit set");
    }
    // Never written without the lock.
    assert_eq!(State::read(&p).unwrap(), stored);
}

/// The crash loop of issue 17: the clock steps back 5 s, then the generator crashes (no flush)
/// and restarts 20 times, issuing each time. Each restart may move v7 at most 1 ms past the
/// last v7 issued before it (the stored bound stays where issuing is), so v7 runs at most the
/// step back + the reserve + 20 ms ahead of the clock — not one more reserve per restart.
/// v6 keeps its order across the restarts too (issue 28), and each restart moves the v1/v6
/// timeline at most a tenth of the reserve past the last timestamp issued before it.
#[test]
fn a_crash_loop_after_a_clock_step_back_keeps_v6_and_v7_within_a_bound() {
    const RESERVE_MS: u64 = 1_000; // the default
    const STEP_BACK_MS: u64 = 5_000;
    const RESTARTS: u64 = 20;
    let d = TempDir::new();
    let p = d.path("state");
    let first = crash_child(&p, T0_MS, 30);
    let mut last = first.iter().copied().filter(|u| u.version_num() == 7).max();
    let mut tuples: HashSet<_> = first
        .iter()
        .filter(|u| u.version_num() != 7)
        .map(|u| tuple(*u))
        .collect();
    let mut last6 = first.iter().copied().filter(|u| u.version_num() == 6).max();
    let mut ahead = Vec::new();
    let mut ahead6 = Vec::new();
    for k in 0..RESTARTS {
        // 5 s behind the first run; a little time passes between restarts.
        let clock_ms = T0_MS - STEP_BACK_MS + 10 * k;
        let got = crash_child(&p, clock_ms, 30);
        let v7: Vec<Uuid> = got
            .iter()
            .copied()
            .filter(|u| u.version_num() == 7)
            .collect();
        assert!(
            v7.windows(2).all(|w| w[0] < w[1]),
            "restart {k}: out of order"
        );
        assert!(
            Some(v7[0]) > last,
            "restart {k}: v7 not above the runs before"
        );
        last = v7.last().copied();
        let v6: Vec<Uuid> = got
            .iter()
            .copied()
            .filter(|u| u.version_num() == 6)
            .collect();
        assert!(
            v6.windows(2).all(|w| w[0] < w[1]) && Some(v6[0]) > last6,
            "restart {k}: v6 out of order"
        );
        last6 = v6.last().copied();
        let t6 = last6.and_then(|u| u.gregorian_ticks()).unwrap();
        let now6 = Timestamp::from_unix_millis(clock_ms)
            .gregorian_ticks()
            .unwrap();
        ahead6.push((t6 - now6) / 10_000);
        for u in got.iter().filter(|u| u.version_num() != 7) {
            assert!(tuples.insert(tuple(*u)), "restart {k}: repeated {u}");
        }
        let ms = last.and_then(|u| u.unix_ts_ms()).unwrap();
        ahead.push(ms - clock_ms);
    }
    eprintln!("v7 ahead of the clock after each restart (ms): {ahead:?}");
    eprintln!("v6 ahead of the clock after each restart (ms): {ahead6:?}");
    // v1/v6: a tenth of the reserve per restart (and 20 timestamps issued in each).
    let bound6 = STEP_BACK_MS + RESERVE_MS + RESTARTS * (RESERVE_MS / 10 + 1);
    let worst6 = *ahead6.iter().max().unwrap();
    assert!(
        worst6 <= bound6,
        "v6 ran {worst6} ms ahead of the clock; the bound is {bound6} ms: {ahead6:?}"
    );
    let bound = STEP_BACK_MS + RESERVE_MS + RESTARTS;
    let worst = *ahead.iter().max().unwrap();
    assert!(
        worst <= bound,
        "v7 ran {worst} ms ahead of the clock; the bound is {bound} ms: {ahead:?}"
    );
    // And the stored bound is where the last v7 was issued, not a reserve beyond it.
    let stored = State::read(&p).unwrap().v7_unix_ms;
    assert_eq!(Some(stored), last.and_then(|u| u.unix_ts_ms()));
}

//! The shared v1/v6 timeline against the clock (issue 28): v6 (and v7) keep their order across
//! a restart with the clock set back, and no client — nor all clients of one user — can push
//! the timeline far ahead of the clock.
#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use uuidkit::generator::{Clock, StepClock, SystemClock, ThreadRng};
use uuidkit::{Timestamp, Uuid};
use uuidkit_service::client::Connection;
use uuidkit_service::protocol::{ReplyHeader, Request, Status, MAX_RANGE};
use uuidkit_service::server::uuidd::MAX_BULK_TIME;
use uuidkit_service::server::{
    RunSummary, Server, ServerConfig, ServerError, ShutdownHandle, TICK_BURST,
};
use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};

use uuidkit_test_support::TempDir;

struct Running {
    handle: ShutdownHandle,
    thread: Option<JoinHandle<Result<RunSummary, ServerError>>>,
}

impl Running {
    fn stop(mut self) {
        if let Some(t) = self.thread.take() {
            self.handle.shutdown();
            t.join().expect("server thread").expect("clean stop");
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            self.handle.shutdown();
            let _ = t.join();
        }
    }
}

fn start<C: Clock + Send + Sync + 'static>(cfg: ServerConfig, g: DurableGenerator<C>) -> Running {
    let server = Server::bind(cfg, g).unwrap();
    let handle = server.shutdown_handle();
    let thread = Some(std::thread::spawn(move || server.run()));
    Running { handle, thread }
}

fn now_ticks() -> u64 {
    SystemClock.now().gregorian_ticks().unwrap()
}

/// Ticks (100 ns) as seconds.
fn secs(ticks: i128) -> f64 {
    ticks as f64 / 1e7
}

/// One attacker connection: range requests for `MAX_RANGE` v1, 64 in flight, until `stop`.
fn range_attacker(sock: PathBuf, stop: Arc<AtomicBool>, taken: Arc<AtomicU64>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut s = UnixStream::connect(&sock).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let req = Request::range(TimeVersion::V1, MAX_RANGE).encode();
        let mut burst = Vec::new();
        for _ in 0..64 {
            burst.extend_from_slice(&req);
        }
        s.write_all(&burst).unwrap();
        let mut in_flight = 64;
        while in_flight > 0 {
            let mut len = [0u8; 4];
            if s.read_exact(&mut len).is_err() {
                return;
            }
            let mut p = vec![0u8; u32::from_be_bytes(len) as usize];
            if s.read_exact(&mut p).is_err() {
                return;
            }
            in_flight -= 1;
            let h = ReplyHeader::parse(&p).unwrap();
            if h.status == Status::Ok {
                taken.fetch_add(1, Ordering::Relaxed);
            }
            if !stop.load(Ordering::Relaxed) && s.write_all(&req).is_ok() {
                in_flight += 1;
            }
        }
    })
}

/// One attacker on the uuidd socket: bulk time requests of `MAX_BULK_TIME`, one a connection.
fn uuidd_attacker(sock: PathBuf, stop: Arc<AtomicBool>, taken: Arc<AtomicU64>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            let Ok(mut s) = UnixStream::connect(&sock) else {
                continue;
            };
            let mut req = vec![4u8];
            req.extend_from_slice(&(MAX_BULK_TIME as i32).to_ne_bytes());
            if s.write_all(&req).is_err() {
                continue;
            }
            let mut reply = Vec::new();
            if s.read_to_end(&mut reply).is_ok() && reply.len() == 4 + 20 {
                taken.fetch_add(1, Ordering::Relaxed);
            }
        }
    })
}

/// How far the timeline is ahead of the clock: a v6 now (its timestamp is the timeline's
/// next one) against the clock read right after the reply. Negative: behind.
fn ahead(c: &mut Connection) -> i128 {
    let mut out = Vec::new();
    c.generate(TimeVersion::V6, 1, &mut out).unwrap();
    let t = out[0].gregorian_ticks().unwrap();
    i128::from(t) - i128::from(now_ticks())
}

/// The attack of issue 28 §5 — v1 ranges of 65,536 timestamps, 64 requests in flight, from
/// four connections of one user (and, at once, the largest bulk time requests on the uuidd
/// socket) — for 5 s. The timeline must stay within 10 s of the clock (the issue's
/// requirement) and within the per-user burst of 1 s (the budget's bound), and once the
/// attack stops a single v1 request of the same user is served. Run as root (CI), it shows
/// that root is bounded too.
#[test]
fn one_user_cannot_push_the_timeline_ahead_of_the_clock() {
    let dir = TempDir::new();
    let sock = dir.path("s.sock");
    let uuidd = dir.path("uuidd.sock");
    let g = DurableGenerator::open(dir.path("state"), StateOptions::new()).unwrap();
    let server = start(ServerConfig::new(&sock).uuidd_socket(&uuidd), g);

    let stop = Arc::new(AtomicBool::new(false));
    let (ranges, bulks) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut attackers: Vec<_> = (0..4)
        .map(|_| range_attacker(sock.clone(), Arc::clone(&stop), Arc::clone(&ranges)))
        .collect();
    attackers.push(uuidd_attacker(
        uuidd.clone(),
        Arc::clone(&stop),
        Arc::clone(&bulks),
    ));

    let mut monitor = Connection::connect(&sock, Duration::from_secs(20)).unwrap();
    let started = Instant::now();
    let mut max_ahead = i128::MIN;
    let mut max_stored = i128::MIN;
    while started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(250));
        max_ahead = max_ahead.max(ahead(&mut monitor));
        let s = State::read(dir.path("state")).unwrap();
        max_stored = max_stored.max(i128::from(s.gregorian_ticks) - i128::from(now_ticks()));
    }
    let at_end = ahead(&mut monitor);
    max_ahead = max_ahead.max(at_end);
    stop.store(true, Ordering::Relaxed);
    for a in attackers {
        a.join().unwrap();
    }
    let (ranges, bulks) = (
        ranges.load(Ordering::Relaxed),
        bulks.load(Ordering::Relaxed),
    );
    let ticks = ranges as f64 * f64::from(MAX_RANGE) + bulks as f64 * f64::from(MAX_BULK_TIME);
    eprintln!(
        "attack for {:.1} s: {ranges} ranges of {MAX_RANGE} and {bulks} uuidd bulks of \
         {MAX_BULK_TIME} served ({:.1} s of timestamps); timeline ahead of the clock: at most \
         {:.3} s, {:.3} s at the end; state file's bound at most {:.3} s ahead",
        started.elapsed().as_secs_f64(),
        ticks / 1e7,
        secs(max_ahead),
        secs(at_end),
        secs(max_stored),
    );
    // The requirement: at most 10 s ahead after 5 s of the attack.
    assert!(
        max_ahead <= 10 * 10_000_000,
        "the timeline ran {:.3} s ahead of the clock",
        secs(max_ahead)
    );
    // The budget's own bound, whatever the scheduling: the user's burst (the timeline started
    // at the clock), plus 0.5 s for the monitor's and the clocks' reading.
    assert!(
        max_ahead <= i128::from(TICK_BURST) + 5_000_000,
        "the timeline ran {:.3} s ahead of the clock, more than the per-user burst of {:.1} s",
        secs(max_ahead),
        secs(TICK_BURST.into())
    );
    // The attack is over: a single v1 of the same user is served (by a new connection, as a
    // one-off client would ask).
    let mut c = Connection::connect(&sock, Duration::from_secs(20)).unwrap();
    let mut out = Vec::new();
    let asked = Instant::now();
    c.generate(TimeVersion::V1, 1, &mut out).unwrap();
    eprintln!(
        "a single v1 after the attack: served in {:.3} s",
        asked.elapsed().as_secs_f64()
    );
    assert_eq!((out.len(), out[0].version_num()), (1, 1));
    server.stop();
}

/// One UUID of `v` from the server at `sock`.
fn one(sock: &Path, v: TimeVersion) -> Uuid {
    let mut c = Connection::connect(sock, Duration::from_secs(10)).unwrap();
    let mut out = Vec::new();
    c.generate(v, 1, &mut out).unwrap();
    out[0]
}

/// Issue 28 through the real server: it stops (cleanly), and starts again on the same state
/// file with the clock an hour back. The v6 and v7 it issues then sort above those it issued
/// before; v1 is unique and has the next clock sequence.
#[test]
fn v6_and_v7_keep_their_order_across_a_server_restart_with_the_clock_set_back() {
    const T0_MS: u64 = 1_645_557_742_000;
    let dir = TempDir::new();
    let sock = dir.path("s.sock");
    let state = dir.path("state");
    let clock = StepClock::new(Timestamp::from_unix_millis(T0_MS));
    let g = DurableGenerator::open_with_clock(&state, StateOptions::new(), clock).unwrap();
    let server = start(ServerConfig::new(&sock), g);
    let (a1, a6, a7) = (
        one(&sock, TimeVersion::V1),
        one(&sock, TimeVersion::V6),
        one(&sock, TimeVersion::V7),
    );
    let ra = Connection::connect(&sock, Duration::from_secs(10))
        .unwrap()
        .range(TimeVersion::V6, 100)
        .unwrap()
        .expect("a range");
    server.stop();

    let clock = StepClock::new(Timestamp::from_unix_millis(T0_MS - 3_600_000));
    let g = DurableGenerator::open_with_clock(&state, StateOptions::new(), clock).unwrap();
    let warnings: Vec<String> = g.warnings().iter().map(|w| w.to_string()).collect();
    let server = start(ServerConfig::new(&sock), g);
    let (b1, b6, b7) = (
        one(&sock, TimeVersion::V1),
        one(&sock, TimeVersion::V6),
        one(&sock, TimeVersion::V7),
    );
    server.stop();
    eprintln!("restart warnings: {warnings:#?}");
    eprintln!("before: v1 {a1}  v6 {a6}  v7 {a7}");
    eprintln!("after:  v1 {b1}  v6 {b6}  v7 {b7}");
    let mut expand = vec![Uuid::NIL; ra.count as usize];
    ra.expand(0, &mut expand, &mut ThreadRng);
    assert!(b6 > a6 && b6 > *expand.last().unwrap(), "v6 lost its order");
    assert!(b7 > a7, "v7 lost its order");
    assert_ne!(b1, a1);
    assert_eq!(
        b1.clock_seq(),
        Some((a1.clock_seq().unwrap() + 1) & 0x3FFF),
        "v1 takes the next clock sequence"
    );
    assert!(b1.gregorian_ticks() > expand.last().unwrap().gregorian_ticks());
}

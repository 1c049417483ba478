//! The server's log while it hands out UUIDs its state file does not cover (a failed write:
//! disk full, here a directory planted where the temporary file must go — the tests run as
//! root, where permission bits do not stop writes): one line when an episode starts, one when
//! it ends, not one per request and not silence.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use uuidkit_service::client::Connection;
use uuidkit_service::server::{Server, ServerConfig};
use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};

use uuidkit_test_support::TempDir;

fn block_writes(state: &Path) -> PathBuf {
    let tmp = PathBuf::from(format!("{}.tmp", state.display()));
    // A write under way has its temporary file there for a moment: wait for the rename.
    let start = Instant::now();
    while let Err(e) = fs::create_dir(&tmp) {
        assert!(
            e.kind() == std::io::ErrorKind::AlreadyExists
                && start.elapsed() < Duration::from_secs(20),
            "{e}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    fs::write(tmp.join("keep"), b"x").unwrap();
    tmp
}

/// Asks for v7 UUIDs one request at a time until one reply is `want` (at most 20 s: a hang
/// guard, not a timing assertion); how many requests that took.
fn until(c: &mut Connection, want: Safety) -> usize {
    let start = Instant::now();
    let mut out = Vec::new();
    let mut n = 0;
    while start.elapsed() < Duration::from_secs(20) {
        n += 1;
        out.clear();
        if c.generate(TimeVersion::V7, 10, &mut out).unwrap() == want {
            return n;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("no {want:?} reply after {n} requests");
}

fn count(lines: &Mutex<Vec<String>>, needle: &str) -> usize {
    lines
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains(needle))
        .count()
}

#[test]
fn non_durable_uuids_are_logged_once_per_episode() {
    let d = TempDir::new();
    let state = d.path("state");
    let sock = d.path("s.sock");
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&lines);
    // A 20 ms reserve: issuing passes the reservation soon after a write starts failing.
    let opts = StateOptions::new().reserve(Duration::from_millis(20));
    let g = DurableGenerator::open(&state, opts).unwrap();
    let cfg = ServerConfig::new(&sock).log(move |l| sink.lock().unwrap().push(l.to_string()));
    let server = Server::bind(cfg, g).unwrap();
    let stop = server.shutdown_handle();
    let running = std::thread::spawn(move || server.run());
    let mut c = Connection::connect(&sock, Duration::from_secs(5)).unwrap();
    until(&mut c, Safety::Durable);
    assert_eq!(count(&lines, "does not cover"), 0);

    let volatile = "does not cover";
    let durable = "durable again";
    for episode in 1..=2 {
        let obstacle = block_writes(&state);
        until(&mut c, Safety::Volatile);
        // Many more volatile replies: still one line for the episode.
        let mut out = Vec::new();
        for _ in 0..200 {
            out.clear();
            c.generate(TimeVersion::V7, 10, &mut out).unwrap();
        }
        assert_eq!(
            count(&lines, volatile),
            episode,
            "{:?}",
            lines.lock().unwrap()
        );
        let line = lines
            .lock()
            .unwrap()
            .iter()
            .find(|l| l.contains(volatile))
            .cloned()
            .unwrap();
        assert!(line.contains("state.tmp"), "the line says why: {line}");
        // Writing works again (a retry comes at most a second later): one line for the end.
        fs::remove_dir_all(&obstacle).unwrap();
        until(&mut c, Safety::Durable);
        for _ in 0..50 {
            out.clear();
            c.generate(TimeVersion::V7, 10, &mut out).unwrap();
        }
        assert_eq!(
            count(&lines, durable),
            episode,
            "{:?}",
            lines.lock().unwrap()
        );
    }
    stop.shutdown();
    running.join().unwrap().unwrap();
}

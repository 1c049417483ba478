//! `uuidkit serve` and its state file, as real processes: stop signals during start-up (the
//! catch-up wait after an unclean shutdown) and after it (SIGHUP, SIGQUIT), two servers on a
//! state file whose lock cannot be taken, and `uuidkit state reset`. Unix only, as the
//! service is. The tests run as root: a lock that cannot be taken is made by putting a
//! directory at `STATE.lock` (EISDIR), not by permission bits.
#![cfg(unix)]

use std::collections::HashSet;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use uuidkit::{Timestamp, Uuid};
use uuidkit_service::client::Connection;
use uuidkit_service::state::State;

const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

use uuidkit_test_support::TempDir;

use crate::common;

/// A hang guard for waits on a child process, not a timing assertion.
const GUARD: Duration = Duration::from_secs(30);

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("UUIDKIT_SOCKET")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `uuidkit serve` on `sock` and `state`, its standard error read line by line into a channel.
struct Serve {
    child: Child,
    lines: mpsc::Receiver<String>,
    log: Vec<String>,
}

impl Serve {
    fn spawn(sock: &Path, state: &Path, extra: &[&str]) -> Serve {
        let mut child = Command::new(BIN)
            .args(["serve", "--socket"])
            .arg(sock)
            .arg("--state")
            .arg(state)
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let err = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Serve {
            child,
            lines,
            log: Vec::new(),
        }
    }

    /// Waits for a log line containing `needle`; false if none came (or the process ended).
    fn wait_line(&mut self, needle: &str) -> bool {
        let start = Instant::now();
        while start.elapsed() < GUARD {
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(l) => {
                    let hit = l.contains(needle);
                    self.log.push(l);
                    if hit {
                        return true;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return false,
            }
        }
        false
    }

    fn signal(&self, sig: &str) {
        common::kill(sig, self.child.id());
    }

    /// Waits for the process to end: its exit code (`None`: killed by a signal) and its log.
    fn wait(mut self) -> (Option<i32>, String) {
        let start = Instant::now();
        let st = loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                break st;
            }
            assert!(start.elapsed() < GUARD, "uuidkit serve did not stop");
            std::thread::sleep(Duration::from_millis(10));
        };
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.log.push(l);
        }
        (st.code(), self.log.join("\n"))
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the server on `sock` answers as process `pid`.
fn wait_ready(sock: &Path, s: &mut Serve) {
    let start = Instant::now();
    while start.elapsed() < GUARD {
        if let Ok(mut c) = Connection::connect(sock, Duration::from_secs(5)) {
            if c.info().is_ok_and(|i| i.pid == s.child.id()) {
                return;
            }
        }
        if let Ok(Some(st)) = s.child.try_wait() {
            let mut rest = String::new();
            while let Ok(l) = s.lines.recv_timeout(Duration::from_secs(1)) {
                rest.push_str(&l);
                rest.push('\n');
            }
            panic!("uuidkit serve exited with {st}: {rest}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("uuidkit serve did not become ready");
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// Writes `s` as a private state file at `path`.
fn write_state(path: &Path, s: &State) {
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .unwrap();
    f.write_all(&s.encode()).unwrap();
}

/// What a crash leaves when the clock then steps back: an unclean state whose v7 reservation
/// lies `ahead_ms` ahead of the clock.
fn crashed_state(ahead_ms: u64) -> State {
    let now = now_ms();
    State {
        gregorian_ticks: Timestamp::from_unix_millis(now).gregorian_ticks().unwrap(),
        clock_seq: 0x0123,
        node: [0x03, 0, 0, 0, 0, 1],
        v7_unix_ms: now + ahead_ms,
        v7_counter: None,
        clean: false,
        writes: 5,
    }
}

#[test]
fn sigterm_during_the_catch_up_wait_stops_cleanly_and_the_wait_is_logged_first() {
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    // A 30 s reservation ahead, and a 60 s reserve: the start waits up to 30 s.
    let crashed = crashed_state(30_000);
    write_state(&state, &crashed);
    let mut s = Serve::spawn(&sock, &state, &["--reserve", "60000"]);
    // Once the server holds the state file's lock, it is in (or just before) the wait.
    let lock = d.path("state.lock");
    let pid = s.child.id().to_string();
    let start = Instant::now();
    while fs::read_to_string(&lock).map_or(true, |h| h.trim() != pid) {
        assert!(start.elapsed() < GUARD, "the state file was never locked");
        std::thread::sleep(Duration::from_millis(5));
    }
    s.signal("-TERM");
    let logged = s.wait_line("waiting up to");
    let (code, log) = s.wait();
    assert_eq!(code, Some(0), "stopped, not killed: {log}");
    assert!(logged, "the wait is logged before it starts: {log}");
    assert!(log.contains("stopped by SIGTERM during start-up"), "{log}");
    // Nothing was written: the next start finds the same state and waits again.
    assert_eq!(State::read(&state).unwrap(), crashed);
    assert!(!sock.exists());
}

#[test]
fn sighup_and_sigquit_stop_the_server_cleanly() {
    for (sig, name) in [("-HUP", "SIGHUP"), ("-QUIT", "SIGQUIT"), ("-INT", "SIGINT")] {
        let d = TempDir::new();
        let (sock, state) = (d.path("s.sock"), d.path("state"));
        let mut s = Serve::spawn(&sock, &state, &[]);
        wait_ready(&sock, &mut s);
        let o = run(&[
            "gen",
            "v7",
            "--system",
            "--socket",
            &sock.display().to_string(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        s.signal(sig);
        let (code, log) = s.wait();
        assert_eq!(code, Some(0), "{name}: {log}");
        assert!(log.contains(&format!("stopped by {name}")), "{log}");
        assert!(
            State::read(&state).unwrap().clean,
            "{name}: the exact state was written"
        );
        assert!(!sock.exists(), "{name}: the socket is removed");
    }
}

/// v1 and v6 from one server, `n` of each, as (timestamp, clock sequence, node).
fn v1_v6_tuples(sock: &Path, n: usize) -> Vec<(u64, u16, [u8; 6])> {
    let mut all = Vec::with_capacity(2 * n);
    for v in ["v1", "v6"] {
        let o = run(&[
            "gen",
            v,
            "--system",
            "--socket",
            &sock.display().to_string(),
            "-C",
            &n.to_string(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        for l in text(&o.stdout).lines() {
            let u: Uuid = l.parse().unwrap();
            all.push((
                u.gregorian_ticks().unwrap(),
                u.clock_seq().unwrap(),
                u.node().unwrap(),
            ));
        }
    }
    assert_eq!(all.len(), 2 * n);
    all
}

#[test]
fn two_servers_on_a_state_file_whose_lock_cannot_be_taken_never_repeat() {
    const N: usize = 100_000;
    let d = TempDir::new();
    let state = d.path("state");
    // A first, normal run leaves a clean state.
    let sock0 = d.path("0.sock");
    let mut s = Serve::spawn(&sock0, &state, &[]);
    wait_ready(&sock0, &mut s);
    s.signal("-TERM");
    assert_eq!(s.wait().0, Some(0));
    let stored = State::read(&state).unwrap();
    let lock = d.path("state.lock");
    assert!(!lock.exists(), "a clean stop removes the lock file");
    fs::create_dir(&lock).unwrap();

    let (sa, sb) = (d.path("a.sock"), d.path("b.sock"));
    let mut a = Serve::spawn(&sa, &state, &[]);
    let mut b = Serve::spawn(&sb, &state, &[]);
    wait_ready(&sa, &mut a);
    wait_ready(&sb, &mut b);
    let (ta, tb) = std::thread::scope(|sc| {
        let ta = sc.spawn(|| v1_v6_tuples(&sa, N));
        let tb = sc.spawn(|| v1_v6_tuples(&sb, N));
        (ta.join().unwrap(), tb.join().unwrap())
    });
    a.signal("-TERM");
    b.signal("-TERM");
    let (ca, la) = a.wait();
    let (cb, lb) = b.wait();
    let mut seen = HashSet::with_capacity(4 * N);
    let mut dups = 0usize;
    for t in ta.iter().chain(&tb) {
        if !seen.insert(*t) {
            dups += 1;
        }
    }
    eprintln!(
        "{} v1/v6 from two unlocked servers: {dups} identical",
        4 * N
    );
    assert_eq!(
        dups, 0,
        "identical v1/v6 from two servers on one unlocked state file"
    );
    for (t, log) in [(&ta, &la), (&tb, &lb)] {
        assert_ne!(
            t[0].1, stored.clock_seq,
            "the stored clock sequence was reused: {log}"
        );
        assert_ne!(t[0].2, stored.node, "the stored node was reused: {log}");
        assert!(log.contains("running without the lock"), "{log}");
    }
    assert_eq!((ca, cb), (Some(0), Some(0)), "{la}\n{lb}");
    // Never written without the lock.
    assert_eq!(State::read(&state).unwrap(), stored);
}

/// `uuidkit state reset`: refused while a server holds the state file; afterwards it turns a
/// state whose v7 bound is at the end of its range (v7 unavailable for good) into one the
/// server can go on from, with a new clock sequence and the same node.
#[test]
fn state_reset_is_refused_while_in_use_and_makes_an_exhausted_v7_usable() {
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    let sock_s = sock.display().to_string();
    let state_s = state.display().to_string();
    let g = |v: &str| run(&["gen", v, "--system", "--socket", &sock_s, "-C", "3"]);

    // A state whose v7 bound is the last millisecond there is.
    let exhausted = State {
        v7_unix_ms: (1 << 48) - 1,
        clean: true,
        ..crashed_state(0)
    };
    write_state(&state, &exhausted);
    let mut s = Serve::spawn(&sock, &state, &[]);
    wait_ready(&sock, &mut s);
    let o = g("v7");
    assert_ne!(
        o.status.code(),
        Some(0),
        "v7 is unavailable before the reset"
    );
    let v1_before: Vec<Uuid> = text(&g("v1").stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(v1_before.len(), 3);

    // Refused while the server runs; the file is left alone.
    let before = State::read(&state).unwrap();
    let o = run(&["state", "reset", &state_s]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!("in use by process {}", s.child.id())),
        "{err}"
    );
    assert_eq!(State::read(&state).unwrap(), before);

    s.signal("-TERM");
    assert_eq!(s.wait().0, Some(0));
    let old = State::read(&state).unwrap();
    let t0 = now_ms();
    let o = run(&["state", "reset", &state_s]);
    let t1 = now_ms();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("before: clock sequence"), "{out}");
    assert!(
        out.contains("may sort before"),
        "the note on v7 order: {out}"
    );
    let new = State::read(&state).unwrap();
    assert_ne!(new.clock_seq, old.clock_seq, "a new clock sequence");
    assert_eq!(new.node, old.node, "the node is kept");
    assert!(new.clean);
    assert!(
        (t0..=t1).contains(&new.v7_unix_ms),
        "the v7 bound is the clock: {} not in {t0}..={t1}",
        new.v7_unix_ms
    );
    assert_eq!(new.writes, old.writes + 1);

    // The server goes on from it: v7 works again, v1 with the new clock sequence.
    let mut s = Serve::spawn(&sock, &state, &[]);
    wait_ready(&sock, &mut s);
    let o = g("v7");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v1_after: Vec<Uuid> = text(&g("v1").stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(v1_after
        .iter()
        .all(|u| u.clock_seq() == Some(new.clock_seq) && u.node() == Some(old.node)));
    assert!(v1_before.iter().all(|u| !v1_after.contains(u)));
    s.signal("-TERM");
    assert_eq!(s.wait().0, Some(0));

    let last = State::read(&state).unwrap();
    // Nothing to reset, and a symbolic link: errors.
    let o = run(&["state", "reset", &d.path("missing").display().to_string()]);
    common::fails_with(&o, 2, "nothing to reset");
    common::state_refuses_a_symlink("reset", &state, &d.path("link"));
    assert_eq!(
        State::read(&state).unwrap(),
        last,
        "not reset through the link"
    );
}

//! `uuidkit serve`, `uuidkit state show` and `uuidkit gen --system`, run as real processes:
//! start and stop by signal, single instance, stale sockets, kill -9 under load and restart,
//! a state file that cannot be written (`ulimit -f 0`, which stops writes even for root, where
//! permission bits do not), and the client side of the CLI. All run as any user, but one
//! `--group` test that needs root (ignored here; `scripts/root-tests` runs it). Unix only, as the service is.
#![cfg(unix)]

use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use uuidkit::Uuid;
use uuidkit_service::client::Connection;
use uuidkit_service::state::TimeVersion;

const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

use crate::common;
use uuidkit_test_support::TempDir;

fn run(args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).env_remove("UUIDKIT_SOCKET");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// A running `uuidkit serve`; killed (SIGKILL) if still running when dropped.
struct Serve {
    child: Child,
    sock: PathBuf,
}

impl Serve {
    fn start(sock: &Path, state: &Path, extra: &[&str]) -> Serve {
        let mut args = vec![
            "serve".to_string(),
            "--foreground".into(),
            "--socket".into(),
            sock.display().to_string(),
            "--state".into(),
            state.display().to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let child = Command::new(BIN)
            .args(&args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut s = Serve {
            child,
            sock: sock.to_path_buf(),
        };
        s.wait_ready();
        s
    }

    /// Waits until the socket answers (10 s at most).
    fn wait_ready(&mut self) {
        let (sock, pid) = (self.sock.clone(), self.child.id());
        common::wait_ready(&mut self.child, &sock.display().to_string(), || {
            Connection::connect(&sock, Duration::from_secs(5))
                .is_ok_and(|mut c| c.info().is_ok_and(|i| i.pid == pid))
        });
    }

    fn signal(&self, sig: &str) {
        common::kill(sig, self.child.id());
    }

    /// SIGTERM, then the exit code and standard error.
    fn terminate(mut self) -> (i32, String) {
        self.signal("-TERM");
        let st = self.child.wait().unwrap();
        let mut e = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut e)
            .unwrap();
        (st.code().expect("exited, not killed"), e)
    }

    fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_help_documents_every_option() {
    let o = run(&["serve", "--help"], &[]);
    assert_eq!(o.status.code(), Some(0));
    let h = text(&o.stdout);
    for flag in [
        "--socket",
        "--state",
        "--mode",
        "--group",
        "--foreground",
        "--strict",
        "--reserve",
        "--max-connections",
        "--max-connections-per-user",
        "--timeout",
        "--verbose",
    ] {
        assert!(h.contains(flag), "{flag} missing from serve --help");
    }
    for words in [
        "foreground only",
        "SIGTERM",
        "stale socket",
        "/run/uuidkit/uuidkit.sock",
    ] {
        assert!(h.contains(words), "{words:?} missing from serve --help");
    }
    let o = run(&["gen", "--help"], &[]);
    assert!(text(&o.stdout).contains("--system"));
    assert!(text(&o.stdout).contains("--server-uid"));
}

fn lines(o: &Output) -> Vec<Uuid> {
    text(&o.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

#[test]
fn serve_answers_gen_system_and_stops_cleanly_on_sigterm() {
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    let s = Serve::start(&sock, &state, &["--verbose"]);
    let sock_s = sock.display().to_string();

    let o = run(
        &["gen", "v7", "--system", "--socket", &sock_s, "-C", "20000"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v7 = lines(&o);
    assert_eq!(v7.len(), 20000);
    assert!(v7.windows(2).all(|w| w[0] < w[1]));
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));

    // The socket from the environment.
    let o = run(
        &["gen", "v1", "--system", "-C", "5"],
        &[("UUIDKIT_SOCKET", &sock)],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v1 = lines(&o);
    assert!(v1.iter().all(|u| u.version_num() == 1));
    let o = run(
        &["gen", "v6", "--system", "--socket", &sock_s, "-C", "5"],
        &[],
    );
    let v6 = lines(&o);
    // v1 and v6 share one timeline: the v6 came later.
    assert!(v6[0].gregorian_ticks() > v1[4].gregorian_ticks());

    // A second server on the same socket fails at once and leaves the state alone.
    let o = run(
        &[
            "serve",
            "--socket",
            &sock_s,
            "--state",
            &d.path("other").display().to_string(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("already running"),
        "{}",
        text(&o.stderr)
    );
    assert!(!d.path("other").exists());

    let (code, err) = s.terminate();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("listening on"), "{err}");
    assert!(err.contains("stopped by SIGTERM"), "{err}");
    assert!(err.contains("connection 0: open"), "{err}");
    assert!(!sock.exists(), "the socket is removed");

    // The node as six lowercase hex octets with colons, in the log and in `state show`.
    let node = uuidkit_service::state::State::read(&state).unwrap().node;
    let node_s = node.map(|b| format!("{b:02x}")).join(":");
    assert!(err.contains(&format!(", node {node_s}, pid ")), "{err}");

    let o = run(&["state", "show", &state.display().to_string()], &[]);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(out.contains("shutdown:        clean"), "{out}");
    let note = if node[0] & 1 == 1 {
        " (multicast bit set: random)"
    } else {
        ""
    };
    assert!(
        out.contains(&format!("\nnode:            {node_s}{note}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "v7 millisecond:  {} ",
            v7[19999].unix_ts_ms().unwrap()
        )),
        "{out}"
    );
}

#[test]
fn a_stale_socket_left_by_kill_9_is_replaced() {
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    let s = Serve::start(&sock, &state, &[]);
    s.kill9();
    assert!(sock.exists(), "kill -9 leaves the socket file");
    let s = Serve::start(&sock, &state, &[]);
    let (code, err) = s.terminate();
    assert_eq!(code, 0);
    assert!(err.contains("replacing stale socket"), "{err}");
    // The restart found the reservation of the killed run ahead of the clock.
    assert!(err.contains("without a clean shutdown"), "{err}");
}

/// A client that asks for UUIDs one request after another, reconnecting when the server
/// goes away, and keeps all it got in order.
fn load(sock: PathBuf, stop: Arc<AtomicBool>, versions: &'static [TimeVersion]) -> Vec<Uuid> {
    let mut all = Vec::new();
    let mut conn: Option<Connection> = None;
    let mut i = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let c = match conn.as_mut() {
            Some(c) => c,
            None => match Connection::connect(&sock, Duration::from_secs(5)) {
                Ok(c) => conn.insert(c),
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                }
            },
        };
        let v = versions[i % versions.len()];
        i += 1;
        if c.generate(v, 64, &mut all).is_err() {
            conn = None;
        }
    }
    all
}

#[test]
fn kill_9_under_load_and_restart_never_repeats_and_v7_keeps_increasing() {
    let kills: usize = std::env::var("UUIDKIT_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    let mut server = Some(Serve::start(&sock, &state, &[]));
    let stop = Arc::new(AtomicBool::new(false));
    let seq = {
        let (s, st) = (sock.clone(), stop.clone());
        std::thread::spawn(move || load(s, st, &[TimeVersion::V7]))
    };
    let mixed = {
        let (s, st) = (sock.clone(), stop.clone());
        std::thread::spawn(move || {
            load(s, st, &[TimeVersion::V1, TimeVersion::V6, TimeVersion::V7])
        })
    };
    // Kill at moments that do not line up with anything: 50 to 300 ms apart.
    let mut x = uuidkit::generator::random_u64();
    for _ in 0..kills {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        std::thread::sleep(Duration::from_millis(50 + x % 250));
        if let Some(s) = server.take() {
            s.kill9();
        }
        server = Some(Serve::start(&sock, &state, &[]));
    }
    std::thread::sleep(Duration::from_millis(100));
    stop.store(true, Ordering::Relaxed);
    let seq = seq.join().unwrap();
    let mixed = mixed.join().unwrap();
    let (code, err) = server.take().unwrap().terminate();
    assert_eq!(code, 0, "{err}");

    // One client, one request after another: across every restart, each v7 greater than all
    // before it.
    assert!(seq.len() > 1000, "too little load: {}", seq.len());
    for (i, w) in seq.windows(2).enumerate() {
        assert!(w[0] < w[1], "v7 #{i} {} then {}", w[0], w[1]);
    }
    let mut v7: HashSet<Uuid> = seq.iter().copied().collect();
    let mut greg = HashSet::new();
    for u in &mixed {
        let fresh = match u.version_num() {
            7 => v7.insert(*u),
            _ => greg.insert((u.gregorian_ticks(), u.clock_seq(), u.node())),
        };
        assert!(fresh, "repeated {u}");
    }
    eprintln!(
        "{kills} kills: {} v7 in order from one client, {} v1/v6/v7 from another, no repeat",
        seq.len(),
        mixed.len()
    );
}

#[test]
fn an_unwritable_state_file_is_reported_and_uuids_are_marked() {
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    // `ulimit -f 0`: every write to a file fails (EFBIG), even as root.
    let sh = format!(
        "ulimit -f 0 && exec {BIN} serve --socket {} --state {} {{}}",
        sock.display(),
        state.display()
    );
    let child = Command::new("sh")
        .args(["-c", &sh.replace("{}", "")])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut s = Serve {
        child,
        sock: sock.clone(),
    };
    s.wait_ready();
    let o = run(
        &[
            "gen",
            "v7",
            "--system",
            "--socket",
            &sock.display().to_string(),
            "-C",
            "3",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(lines(&o).len(), 3);
    let err = text(&o.stderr);
    assert!(
        err.contains("warning") && err.contains("not durably"),
        "{err}"
    );
    let (code, err) = s.terminate();
    assert!(err.contains("NOT writable"), "{err}");
    assert!(err.contains("File too large"), "{err}");
    // The final write fails as well: reported, status 2.
    assert_eq!(code, 2, "{err}");

    // --strict refuses to start.
    let o = Command::new("sh")
        .args(["-c", &sh.replace("{}", "--strict")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("File too large"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn state_show_reports_corrupt_and_unsafe_files() {
    let d = TempDir::new();
    let p = d.path("state");
    fs::write(&p, [0u8; 10]).unwrap();
    let o = run(&["state", "show", &p.display().to_string()], &[]);
    common::fails_with(&o, 1, "corrupt: 10 bytes, expected 64");
    common::state_refuses_a_symlink("show", &p, &d.path("link"));
    let o = run(
        &["state", "show", &d.path("none").display().to_string()],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn gen_system_errors() {
    let d = TempDir::new();
    let sock = d.path("none.sock").display().to_string();
    let o = run(&["gen", "v7", "--system", "--socket", &sock], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("cannot reach the uuidkit service"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&["gen", "v4", "--system", "--socket", &sock], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--system applies to v1, v6 and v7"));
    let o = run(&["gen", "v7", "--socket", &sock], &[]);
    assert_eq!(o.status.code(), Some(2), "--socket needs --system");
}

/// A group this user may give a file to: one of its supplementary groups other than its
/// primary one if it has one (so that `--group` visibly changes the socket's group), else the
/// primary one.
fn own_group() -> u32 {
    // SAFETY: getegid takes no arguments and cannot fail.
    let primary = unsafe { libc::getegid() };
    let mut groups = vec![0 as libc::gid_t; 256];
    // SAFETY: `groups` has room for the 256 entries the call is told of.
    let n = unsafe { libc::getgroups(groups.len() as libc::c_int, groups.as_mut_ptr()) };
    groups.truncate(n.max(0) as usize);
    groups
        .into_iter()
        .find(|&g| g != primary)
        .unwrap_or(primary)
}

/// `--group GID` and `--mode`: the socket gets that group and mode 0660 (with `--group`).
fn serve_with_group(gid: u32) {
    use std::os::unix::fs::MetadataExt;
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    let s = Serve::start(&sock, &state, &["--group", &gid.to_string()]);
    let m = fs::metadata(&sock).unwrap();
    assert_eq!((m.mode() & 0o777, m.gid()), (0o660, gid));
    s.terminate();
}

/// As root, a group root is not in (nogroup): the socket's group really changes.
#[test]
#[ignore = "needs root: scripts/root-tests runs it"]
fn root_serve_group_of_another_user() {
    // SAFETY: geteuid takes no arguments and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    assert!(
        root,
        "not root: giving the socket a group of another user needs root; this test fails \
         rather than pass unchecked"
    );
    serve_with_group(65534);
}

#[test]
fn serve_mode_and_group() {
    use std::os::unix::fs::MetadataExt;
    serve_with_group(own_group());
    let d = TempDir::new();
    let (sock, state) = (d.path("s.sock"), d.path("state"));
    let s = Serve::start(&sock, &state, &["--mode", "640"]);
    assert_eq!(fs::metadata(&sock).unwrap().mode() & 0o777, 0o640);
    s.terminate();
    let o = run(
        &["serve", "--mode", "999", "--socket", "x", "--state", "y"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--mode"));
}

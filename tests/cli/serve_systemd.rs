//! `uuidkit serve` under systemd's conventions, with the real `systemd-socket-activate`
//! (Debian package systemd; it needs no systemd running as PID 1) and a notification socket
//! the test owns: socket activation on one and several named listeners, `NOTIFY_SOCKET`
//! (path and abstract address) with READY=1, STATUS= and STOPPING=1, `--idle-exit`, the
//! refusal of wrong `LISTEN_*` values, and a clean stop that leaves only the state file.
//! Unix only, as the service is; the activation tests need Linux's systemd tools.
#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use uuidkit_service::client::Connection;
use uuidkit_service::state::{State, TimeVersion};

const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

use uuidkit_test_support::TempDir;

/// The path of `systemd-socket-activate`; the test fails, saying what to install, without it.
fn socket_activate() -> PathBuf {
    for dir in [
        "/usr/bin",
        "/bin",
        "/usr/local/bin",
        "/lib/systemd",
        "/usr/lib/systemd",
    ] {
        let p = Path::new(dir).join("systemd-socket-activate");
        if p.exists() {
            return p;
        }
    }
    panic!(
        "systemd-socket-activate not found: install the Debian package systemd \
         (apt-get install systemd; scripts/ci-packages does it in CI)"
    );
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A process whose standard error is collected by a thread as it comes.
struct Proc {
    child: Child,
    stderr: Option<std::thread::JoinHandle<String>>,
}

/// A command for `program` without the variables of the test's own environment that would
/// change what it does (a caller may set them again).
fn cmd(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    for v in [
        "UUIDKIT_SOCKET",
        "NOTIFY_SOCKET",
        "LISTEN_FDS",
        "LISTEN_PID",
        "LISTEN_FDNAMES",
    ] {
        c.env_remove(v);
    }
    c
}

impl Proc {
    fn spawn(mut c: Command) -> Proc {
        let mut child = c
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut e = String::new();
            let _ = err.read_to_string(&mut e);
            e
        });
        Proc {
            child,
            stderr: Some(stderr),
        }
    }

    fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill only sends a signal to our own child.
        unsafe { libc::kill(self.child.id() as i32, sig) };
    }

    /// Waits for the process to end by itself (60 s at most, else killed and the test fails):
    /// its exit status and standard error.
    fn wait(mut self) -> (ExitStatus, String) {
        let t = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                let err = self.stderr.take().unwrap().join().unwrap();
                return (st, err);
            }
            if t.elapsed() > Duration::from_secs(60) {
                let _ = self.child.kill();
                let _ = self.child.wait();
                let err = self.stderr.take().unwrap().join().unwrap();
                panic!("the process did not end within 60 s; stderr:\n{err}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn still_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `systemd-socket-activate` listening on `socks` (named `names`, colon-separated), running
/// `uuidkit serve ARGS` on the first connection, with `env` set for it (passed with `-E`).
fn activate(socks: &[&Path], names: &str, env: &[(&str, &str)], args: &[&str]) -> Proc {
    let mut c = cmd(socket_activate());
    for s in socks {
        c.arg("-l").arg(s);
    }
    c.arg(format!("--fdname={names}"));
    for (k, v) in env {
        c.arg("-E").arg(format!("{k}={v}"));
    }
    c.arg("--").arg(BIN).arg("serve").args(args);
    let p = Proc::spawn(c);
    // systemd-socket-activate binds before it says anything; wait until every socket exists.
    let t = Instant::now();
    while !socks.iter().all(|s| s.exists()) {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "systemd-socket-activate did not bind {socks:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    p
}

fn connect(sock: &Path) -> Connection {
    Connection::connect(sock, Duration::from_secs(30)).unwrap()
}

fn v7(c: &mut Connection, n: u32) -> Vec<uuidkit::Uuid> {
    let mut out = Vec::new();
    c.generate(TimeVersion::V7, n, &mut out).unwrap();
    assert_eq!(out.len(), n as usize);
    out
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A notification socket the test owns, bound at a path; datagrams are read with a timeout.
fn notify_socket(path: &Path) -> UnixDatagram {
    let s = UnixDatagram::bind(path).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

/// The next notice (30 s at most).
fn next_notice(s: &UnixDatagram) -> String {
    let mut buf = [0u8; 4096];
    // A receive with a timeout fails with EINTR when this process is stopped and continued, or
    // gets a signal, even with SA_RESTART (signal(7)): receive again.
    let n = loop {
        match s.recv(&mut buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => break r.expect("no notice from the server within 30 s"),
        }
    };
    text(&buf[..n])
}

#[test]
fn socket_activation_serves_every_listener_with_one_generator() {
    let d = TempDir::new();
    let (a, b, u) = (d.path("a.sock"), d.path("b.sock"), d.path("u.sock"));
    let state = d.path("state");
    let p = activate(
        &[&a, &b, &u],
        "uuidkit:unknown:uuidd",
        &[],
        &["--state", state.to_str().unwrap(), "-v"],
    );
    // The first connection starts the server; both uuidkit listeners reach one generator.
    let mut ca = connect(&a);
    let first = v7(&mut ca, 3);
    let mut cb = connect(&b);
    let second = v7(&mut cb, 3);
    let third = v7(&mut ca, 1);
    assert!(first[2] < second[0] && second[2] < third[0], "one sequence");
    let (ia, ib) = (ca.info().unwrap(), cb.info().unwrap());
    assert_eq!(ia.pid, ib.pid);
    assert_eq!(
        ia.pid,
        p.child.id(),
        "systemd-socket-activate execs the server in place"
    );
    drop((ca, cb));
    p.signal(libc::SIGTERM);
    let (st, err) = p.wait();
    eprintln!("{err}");
    assert_eq!(st.code(), Some(0), "{err}");
    assert!(
        err.contains("listening on descriptor 3 (uuidkit), descriptor 4 (unknown), descriptor 5 (uuidd) [uuidd protocol]"),
        "{err}"
    );
    // No --socket given: none of its own bound, none removed; the passed sockets are
    // systemd's (here systemd-socket-activate's) and stay; the state lock is gone.
    assert_eq!(
        listing(&d.0),
        ["a.sock", "b.sock", "state", "u.sock"],
        "{err}"
    );
    assert!(State::read(&state).unwrap().clean);
}

#[test]
fn socket_activation_with_an_explicit_socket_serves_both() {
    let d = TempDir::new();
    let (a, own) = (d.path("a.sock"), d.path("own.sock"));
    let p = activate(
        &[&a],
        "uuidkit",
        &[],
        &[
            "--state",
            d.path("state").to_str().unwrap(),
            "--socket",
            own.to_str().unwrap(),
        ],
    );
    let pid = connect(&a).info().unwrap().pid;
    // Bound by the server itself once it runs: its own socket, removed at stop.
    assert_eq!(connect(&own).info().unwrap().pid, pid);
    p.signal(libc::SIGTERM);
    let (st, err) = p.wait();
    assert_eq!(st.code(), Some(0), "{err}");
    assert_eq!(listing(&d.0), ["a.sock", "state"], "{err}");
}

/// READY=1 (with a STATUS= line) is sent before the server accepts anything, so it is already
/// there when the first reply comes; STOPPING=1 follows SIGTERM. The path form of
/// NOTIFY_SOCKET, under socket activation.
#[test]
fn notify_socket_gets_ready_before_the_first_reply_and_stopping_on_sigterm() {
    let d = TempDir::new();
    let a = d.path("a.sock");
    let notify = notify_socket(&d.path("notify"));
    let p = activate(
        &[&a],
        "uuidkit",
        &[("NOTIFY_SOCKET", d.path("notify").to_str().unwrap())],
        &["--state", d.path("state").to_str().unwrap()],
    );
    let mut c = connect(&a);
    v7(&mut c, 1);
    // The reply came, so READY=1 is already queued: it must be there without waiting.
    notify.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 4096];
    let n = notify
        .recv(&mut buf)
        .expect("READY=1 was not sent before the first reply");
    let ready = text(&buf[..n]);
    eprintln!("notice: {ready:?}");
    assert!(ready.starts_with("READY=1\n"), "{ready:?}");
    assert!(
        ready.contains("STATUS=serving on descriptor 3 (uuidkit)"),
        "{ready:?}"
    );
    notify.set_nonblocking(false).unwrap();
    drop(c);
    p.signal(libc::SIGTERM);
    let stopping = next_notice(&notify);
    eprintln!("notice: {stopping:?}");
    assert!(stopping.starts_with("STOPPING=1\n"), "{stopping:?}");
    assert!(stopping.contains("STATUS=stopping"), "{stopping:?}");
    let (st, err) = p.wait();
    assert_eq!(st.code(), Some(0), "{err}");
}

/// The abstract form of NOTIFY_SOCKET (`@name`), without socket activation; after an unclean
/// stop, a STATUS= line says the start waits for the clock, before READY=1.
#[cfg(target_os = "linux")]
#[test]
fn notify_socket_abstract_address_and_the_status_of_the_clock_wait() {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::SocketAddr;
    let d = TempDir::new();
    let name = format!("uk-notify-{}", std::process::id());
    let notify =
        UnixDatagram::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    notify
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let sock = d.path("s.sock");
    let serve = |notify_to: Option<&str>| {
        let mut c = cmd(BIN);
        c.args(["serve", "--reserve", "2000", "--socket"])
            .arg(&sock)
            .arg("--state")
            .arg(d.path("state"));
        if let Some(n) = notify_to {
            c.env("NOTIFY_SOCKET", n);
        }
        Proc::spawn(c)
    };
    // A first run, killed: the state file keeps a reservation ahead of the clock.
    let first = serve(None);
    let t = Instant::now();
    while Connection::connect(&sock, Duration::from_secs(5)).is_err() {
        assert!(t.elapsed() < Duration::from_secs(30), "first server not up");
        std::thread::sleep(Duration::from_millis(10));
    }
    v7(&mut connect(&sock), 1);
    first.signal(libc::SIGKILL);
    let _ = first.wait();
    let at = format!("@{name}");
    let second = serve(Some(&at));
    let waiting = next_notice(&notify);
    eprintln!("notice: {waiting:?}");
    assert!(
        waiting.starts_with("STATUS=waiting for the clock"),
        "{waiting:?}"
    );
    let ready = next_notice(&notify);
    eprintln!("notice: {ready:?}");
    assert!(
        ready.starts_with("READY=1\nSTATUS=serving on "),
        "{ready:?}"
    );
    assert!(ready.contains(sock.to_str().unwrap()), "{ready:?}");
    second.signal(libc::SIGTERM);
    assert!(next_notice(&notify).starts_with("STOPPING=1\n"));
    let (st, err) = second.wait();
    assert_eq!(st.code(), Some(0), "{err}");
}

/// `--idle-exit`: started on demand, the server serves, then, with no connection open for the
/// idle time, writes the exact state and exits with status 0 by itself.
#[test]
fn idle_exit_after_activation_leaves_a_clean_state_and_status_0() {
    let d = TempDir::new();
    let a = d.path("a.sock");
    let state = d.path("state");
    let p = activate(
        &[&a],
        "uuidkit",
        &[],
        &["--state", state.to_str().unwrap(), "--idle-exit", "1"],
    );
    let got = v7(&mut connect(&a), 5);
    let (st, err) = p.wait();
    eprintln!("{err}");
    assert_eq!(st.code(), Some(0), "{err}");
    assert!(
        err.contains("stopped after 1 s without connections"),
        "{err}"
    );
    let s = State::read(&state).unwrap();
    assert!(s.clean, "the exact state was written");
    assert_eq!(Some(s.v7_unix_ms), got[4].unix_ts_ms());
    assert_eq!(listing(&d.0), ["a.sock", "state"]);
}

/// While a connection is open the server stays, however long past the idle time; once it
/// closes, the server exits by itself.
#[test]
fn idle_exit_waits_while_a_connection_is_open() {
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let mut c = cmd(BIN);
    c.args(["serve", "--idle-exit", "1", "--socket"])
        .arg(&sock)
        .arg("--state")
        .arg(d.path("state"));
    let mut p = Proc::spawn(c);
    let t = Instant::now();
    let mut held = loop {
        if let Ok(c) = Connection::connect(&sock, Duration::from_secs(5)) {
            break c;
        }
        assert!(
            p.still_running(),
            "the server exited before anyone connected"
        );
        assert!(t.elapsed() < Duration::from_secs(30), "server not up");
        std::thread::sleep(Duration::from_millis(10));
    };
    v7(&mut held, 1);
    // Three idle times with the connection open and silent: still there.
    std::thread::sleep(Duration::from_secs(3));
    assert!(p.still_running(), "exited with a connection open");
    v7(&mut held, 1); // and still serving it
    drop(held);
    let (st, err) = p.wait();
    assert_eq!(st.code(), Some(0), "{err}");
    assert!(err.contains("without connections"), "{err}");
    assert_eq!(listing(&d.0), ["state"], "{err}");
}

/// Runs `uuidkit serve` through `sh`, so that `LISTEN_PID` can be the server's own pid (`$$`,
/// kept by `exec`), with the shell redirections `redir` (e.g. `3</dev/null`) and `env`.
fn serve_via_sh(d: &TempDir, pid: &str, redir: &str, env: &[(&str, &str)]) -> Output {
    let script = format!("LISTEN_PID={pid} exec \"$0\" serve --state \"$1\" {redir}");
    let mut c = cmd("sh");
    c.arg("-c").arg(script).arg(BIN).arg(d.path("state"));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// Wrong LISTEN_* values, or a descriptor that is not a listening Unix stream socket: an error
/// naming what is wrong, exit status 2, nothing served and no state file written.
#[test]
fn wrong_listen_variables_or_descriptors_are_refused_with_status_2() {
    let d = TempDir::new();
    // LISTEN_PID (shell syntax), redirections, variables, the error wanted.
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        (
            "1",
            "",
            &[("LISTEN_FDS", "1")],
            "LISTEN_PID=1 is not this process",
        ),
        (
            "$$",
            "",
            &[("LISTEN_FDS", "x")],
            "LISTEN_FDS=\"x\": expected a number",
        ),
        ("$$", "", &[("LISTEN_FDS", "0")], "LISTEN_FDS=\"0\""),
        (
            "$$",
            "3</dev/null",
            &[("LISTEN_FDS", "1"), ("LISTEN_FDNAMES", "a:b")],
            "has 2 names for 1 descriptors",
        ),
        (
            "$$",
            "3</dev/null",
            &[("LISTEN_FDS", "1")],
            "descriptor 3 (no name) is not a socket",
        ),
        (
            "$$",
            "3<&-",
            &[("LISTEN_FDS", "1"), ("LISTEN_FDNAMES", "uuidkit")],
            "descriptor 3 (named \"uuidkit\") is not open",
        ),
    ];
    for (pid, redir, env, want) in cases {
        let o = serve_via_sh(&d, pid, redir, env);
        let err = text(&o.stderr);
        eprintln!("LISTEN_PID={pid} {env:?} {redir}: {}", err.trim());
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "wanted {want:?} in: {err}");
        assert!(!d.path("state").exists(), "{err}");
    }
    // LISTEN_FDS without LISTEN_PID.
    let o = cmd(BIN)
        .args(["serve", "--state"])
        .arg(d.path("state"))
        .env("LISTEN_FDS", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("LISTEN_FDS is set but LISTEN_PID is not"),
        "{}",
        text(&o.stderr)
    );
}

/// A datagram socket passed by the real systemd-socket-activate (`--datagram`, a unit's
/// ListenDatagram=) is refused, naming the descriptor.
#[test]
fn a_datagram_socket_from_systemd_socket_activate_is_refused() {
    let d = TempDir::new();
    let dg = d.path("dg.sock");
    let mut c = cmd(socket_activate());
    c.args(["--datagram", "-l"])
        .arg(&dg)
        .arg("--fdname=uuidkit")
        .arg("--")
        .arg(BIN)
        .args(["serve", "--state"])
        .arg(d.path("state"));
    let p = Proc::spawn(c);
    let t = Instant::now();
    while !dg.exists() {
        assert!(t.elapsed() < Duration::from_secs(30), "not bound");
        std::thread::sleep(Duration::from_millis(10));
    }
    // A datagram starts the server.
    UnixDatagram::unbound().unwrap().send_to(b"x", &dg).unwrap();
    let (st, err) = p.wait();
    eprintln!("{err}");
    assert_eq!(st.code(), Some(2), "{err}");
    assert!(
        err.contains("descriptor 3 (named \"uuidkit\") is a datagram socket"),
        "{err}"
    );
}

/// A clean stop leaves only the state file: the socket, `SOCKET.lock` and `STATE.lock` are gone.
#[test]
fn a_clean_stop_leaves_only_the_state_file() {
    let d = TempDir::new();
    let sock = d.path("uuidkit.sock");
    let mut c = cmd(BIN);
    c.args(["serve", "--socket"])
        .arg(&sock)
        .arg("--state")
        .arg(d.path("state"));
    let mut p = Proc::spawn(c);
    let t = Instant::now();
    let mut conn = loop {
        if let Ok(c) = Connection::connect(&sock, Duration::from_secs(5)) {
            break c;
        }
        assert!(p.still_running() && t.elapsed() < Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(10));
    };
    v7(&mut conn, 2);
    assert_eq!(
        listing(&d.0),
        ["state", "state.lock", "uuidkit.sock", "uuidkit.sock.lock"]
    );
    p.signal(libc::SIGTERM);
    let (st, err) = p.wait();
    assert_eq!(st.code(), Some(0), "{err}");
    assert_eq!(listing(&d.0), ["state"], "{err}");
    // And the next server starts on the same paths.
    let mut c = cmd(BIN);
    c.args(["serve", "--idle-exit", "1", "--socket"])
        .arg(&sock)
        .arg("--state")
        .arg(d.path("state"));
    let (st, err) = Proc::spawn(c).wait();
    assert_eq!(st.code(), Some(0), "{err}");
    assert!(!err.contains("warning"), "a clean state was found: {err}");
    assert_eq!(listing(&d.0), ["state"], "{err}");
}

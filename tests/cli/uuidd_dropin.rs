//! `uuidkit serve --uuidd-socket` as a drop-in for util-linux uuidd, shown with the real
//! programs of Debian's uuid-runtime and uuid-dev (util-linux 2.38): `uuidd` in client mode
//! (`-t`, `-r`, `-t -n`), `uuidgen -t`, and a C program calling libuuid's
//! `uuid_generate_time_safe()`, compiled here with gcc. Their UUIDs must carry the clock
//! sequence and node of uuidkit's state file, be unique across concurrent clients, and bulk
//! blocks must lie within what the state file covers. Malformed requests are closed without
//! a reply, and the server goes on serving. A listener passed by a service manager under the
//! name `uuidd` (systemd-socket-activate, Debian package systemd) speaks the same protocol.
//!
//! libuuid has the socket path /run/uuidd/request compiled in, so the libuuid test serves
//! there: it needs root, and is ignored in the default run; `scripts/root-tests` runs it as
//! root with a private, empty `/run` (a mount namespace of its own), so that the machine's
//! /run/uuidd is never touched; run any other way it fails. The other tests use temporary
//! directories and run as any user. A missing program fails the test, naming the package.
#![cfg(unix)]

use std::collections::HashSet;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use uuidkit::Uuid;
use uuidkit_service::client::Connection;
use uuidkit_service::state::{State, TimeVersion};

const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

use crate::common;
use crate::root;
use uuidkit_test_support::TempDir;

/// The path libuuid and uuidd use (util-linux `UUIDD_SOCKET_PATH`).
const SYSTEM_REQUEST: &str = "/run/uuidd/request";

/// Where `program` is: on `PATH`, or in /usr/sbin or /sbin, which a normal user's `PATH` lacks
/// on Debian (uuidd is /usr/sbin/uuidd).
fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Fails, naming the package, when `program` cannot be found; else its path.
fn require(program: &str, package: &str) -> PathBuf {
    find(program).unwrap_or_else(|| {
        panic!(
            "{program} not found: install the Debian package {package} (apt-get install -y \
             {package}); this test needs it and fails rather than pass unchecked"
        )
    })
}

/// util-linux's uuidd (Debian package uuid-runtime).
fn uuidd() -> PathBuf {
    require("uuidd", "uuid-runtime")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(o: Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what}: {}\nstdout: {}\nstderr: {}",
        o.status,
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// One uuidd request on a raw connection: what the server sent before closing (a close
/// that leaves the request unread is a reset: nothing sent either).
fn raw(sock: &Path, request: &[u8]) -> Vec<u8> {
    let mut c = UnixStream::connect(sock).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    match c.write_all(request) {
        Ok(()) => {}
        // Closed before it read the request (a refused connection).
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Vec::new(),
        Err(e) => panic!("sending {request:?}: {e}"),
    }
    let mut reply = Vec::new();
    match c.read_to_end(&mut reply) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => panic!("reading the reply to {request:?}: {e}"),
    }
    reply
}

/// A running `uuidkit serve` with a uuidd socket; killed if still running when dropped.
struct Serve {
    child: Child,
    uuidd: PathBuf,
    state: PathBuf,
}

impl Serve {
    /// Starts it; `uuidd` is the value of --uuidd-socket (`None`: the flag alone).
    fn start(dir: &Path, uuidd: Option<&Path>, extra: &[&str]) -> Serve {
        let state = dir.join("state");
        let mut c = Command::new(BIN);
        c.args(["serve", "--socket"])
            .arg(dir.join("s.sock"))
            .arg("--state")
            .arg(&state)
            .arg("--uuidd-socket");
        if let Some(u) = uuidd {
            c.arg(u);
        }
        let child = c.args(extra).stderr(Stdio::piped()).spawn().unwrap();
        let mut s = Serve {
            child,
            uuidd: uuidd.map_or(PathBuf::from(SYSTEM_REQUEST), Path::to_path_buf),
            state,
        };
        s.wait_ready();
        s
    }

    /// Waits until the uuidd socket answers "get pid" with this server's pid (10 s at most).
    fn wait_ready(&mut self) {
        let want = format!("{}\0", self.child.id());
        let uuidd = self.uuidd.clone();
        common::wait_ready(&mut self.child, &uuidd.display().to_string(), || {
            let Ok(mut c) = UnixStream::connect(&uuidd) else {
                return false;
            };
            let mut reply = Vec::new();
            if c.write_all(&[0]).is_err() || c.read_to_end(&mut reply).is_err() {
                return false;
            }
            assert!(reply.len() > 4, "get pid: {reply:?}");
            reply[4..] == *want.as_bytes()
        });
    }

    /// SIGTERM; the exit code and standard error.
    fn terminate(mut self) -> (i32, String) {
        let st = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(st.success());
        let st = self.child.wait().unwrap();
        let mut e = String::new();
        let _ = self.child.stderr.take().unwrap().read_to_string(&mut e);
        (st.code().expect("exited, not killed"), e)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The clock sequence and node a v1 UUID carries.
fn seq_node(u: &Uuid) -> (u16, [u8; 6]) {
    (u.clock_seq().unwrap(), u.node().unwrap())
}

fn parse(s: &str) -> Uuid {
    s.trim()
        .parse()
        .unwrap_or_else(|e| panic!("{s:?} is not a UUID: {e}"))
}

/// `uuidd -t -n N` prints "FIRST and N-1 subsequent UUIDs": the block's first UUID and size.
fn parse_block(out: &str) -> (Uuid, u64) {
    let line = out.lines().next().unwrap_or("");
    let mut w = line.split_whitespace();
    let first = parse(w.next().unwrap_or(""));
    assert_eq!(w.next(), Some("and"), "{out}");
    let rest: u64 = w.next().and_then(|n| n.parse().ok()).expect(line);
    (first, rest + 1)
}

/// The `n` UUIDs of a block: the first one's timestamp plus 0 .. n, as the clients expand it.
fn expand(first: &Uuid, n: u64) -> Vec<Uuid> {
    let t = first.gregorian_ticks().unwrap();
    let (seq, node) = seq_node(first);
    (0..n)
        .map(|i| Uuid::from_v1_parts(t + i, seq, node))
        .collect()
}

fn uuidd_client(sock: &Path, args: &[&str]) -> String {
    let o = Command::new(uuidd())
        .args(args)
        .arg("-s")
        .arg(sock)
        .output()
        .unwrap();
    ok(o, &format!("uuidd {args:?}"))
}

#[test]
fn uuidd_clients_get_v1_with_uuidkit_clock_sequence_and_node() {
    uuidd();
    let dir = TempDir::new();
    let sock = dir.path("request");
    let serve = Serve::start(&dir.0, Some(&sock), &[]);
    // The socket lets every local user connect, as uuidd's does.
    let mode = fs::metadata(&sock).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666);

    let one = parse(&uuidd_client(&sock, &["-t"]));
    let random = parse(&uuidd_client(&sock, &["-r"]));
    let bulk = uuidd_client(&sock, &["-t", "-n", "100"]);
    let (first, n) = parse_block(&bulk);
    let list = uuidd_client(&sock, &["-r", "-n", "5"]);
    println!("uuidd -t:         {one}\nuuidd -r:         {random}\nuuidd -t -n 100:  {bulk}uuidd -r -n 5:\n{list}");
    // While it runs, the state file covers the whole block.
    let running = State::read(&serve.state).unwrap();
    let last = first.gregorian_ticks().unwrap() + n - 1;
    assert!(
        running.gregorian_ticks >= last,
        "{running:?} does not cover {last}"
    );

    let (code, log) = serve.terminate();
    assert_eq!(code, 0, "{log}");
    // A clean stop removes the socket and its lock file.
    assert!(
        !sock.exists() && !dir.path("request.lock").exists(),
        "{log}"
    );
    let state = State::read(dir.path("state")).unwrap();
    println!(
        "state file: clock sequence {:#06x}, node {:02x?}, last v1/v6 timestamp {}",
        state.clock_seq, state.node, state.gregorian_ticks
    );
    let theirs = (state.clock_seq, state.node);
    assert_eq!(one.version_num(), 1);
    assert_eq!(seq_node(&one), theirs, "{one}");
    assert_eq!(seq_node(&first), theirs, "{first}");
    assert_eq!(n, 100);
    assert!(first.gregorian_ticks() > one.gregorian_ticks());
    // After a clean stop the file holds the last timestamp issued: the block's end.
    assert_eq!(state.gregorian_ticks, last);
    assert_eq!(random.version_num(), 4);
    let listed: Vec<Uuid> = list.lines().skip(1).map(parse).collect();
    assert_eq!(listed.len(), 5, "{list}");
    assert!(listed.iter().all(|u| u.version_num() == 4));
    assert_eq!(listed.iter().collect::<HashSet<_>>().len(), 5);
}

#[test]
fn four_concurrent_uuidd_bulk_clients_get_disjoint_blocks() {
    uuidd();
    let dir = TempDir::new();
    let sock = dir.path("request");
    let serve = Serve::start(&dir.0, Some(&sock), &[]);
    let mut all = HashSet::new();
    let mut blocks = Vec::new();
    for round in 0..5 {
        let children: Vec<Child> = (0..4)
            .map(|_| {
                Command::new(uuidd())
                    .args(["-t", "-n", "1000", "-s"])
                    .arg(&sock)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = ok(c.wait_with_output().unwrap(), "uuidd -t -n 1000");
            if round == 0 {
                print!("{out}");
            }
            let (first, n) = parse_block(&out);
            assert_eq!(n, 1000);
            blocks.push(first);
            for u in expand(&first, n) {
                assert!(all.insert(u), "duplicate {u}");
            }
        }
        // uuidkit's own clients draw from the same v1 timeline.
        let mut c = Connection::connect(dir.path("s.sock"), Duration::from_secs(5)).unwrap();
        let mut own = Vec::new();
        c.generate(TimeVersion::V1, 1000, &mut own).unwrap();
        assert_eq!(own.len(), 1000);
        for u in own {
            assert!(all.insert(u), "duplicate {u}");
        }
    }
    let (code, log) = serve.terminate();
    assert_eq!(code, 0, "{log}");
    let state = State::read(dir.path("state")).unwrap();
    let theirs = (state.clock_seq, state.node);
    assert!(blocks.iter().all(|b| seq_node(b) == theirs));
    assert_eq!(all.len(), 25 * 1000);
    let last = all.iter().map(|u| u.gregorian_ticks().unwrap()).max();
    assert_eq!(Some(state.gregorian_ticks), last);
    println!(
        "20 concurrent uuidd blocks of 1000 and 5 uuidkit v1 batches of 1000: {} distinct \
         UUIDs, clock sequence {:#06x}, node {:02x?}",
        all.len(),
        state.clock_seq,
        state.node
    );
}

#[test]
fn malformed_uuidd_requests_are_closed_without_reply_and_serving_goes_on() {
    uuidd();
    let dir = TempDir::new();
    let sock = dir.path("request");
    let serve = Serve::start(&dir.0, Some(&sock), &[]);
    let pid = serve.child.id();

    // Get pid and get max op: NUL-terminated decimal text, after a native-endian length.
    let r = raw(&sock, &[0]);
    let pid_text = format!("{pid}\0");
    assert_eq!(r[..4], (pid_text.len() as i32).to_ne_bytes());
    assert_eq!(r[4..], *pid_text.as_bytes());
    assert_eq!(raw(&sock, &[1]), [&2i32.to_ne_bytes()[..], b"5\0"].concat());
    // A count below 1 gets one UUID, and the count says 1.
    let r = raw(&sock, &[[4].as_slice(), &(-5i32).to_ne_bytes()].concat());
    assert_eq!(r.len(), 24);
    assert_eq!(r[..4], 20i32.to_ne_bytes());
    assert_eq!(r[20..], 1i32.to_ne_bytes());
    // Bulk random is clamped to 63, as uuidd's reply buffer holds.
    let r = raw(&sock, &[[5].as_slice(), &1000i32.to_ne_bytes()].concat());
    assert_eq!(r[..4], (4 + 63 * 16i32).to_ne_bytes());
    assert_eq!(r[4..8], 63i32.to_ne_bytes());

    // Unknown operations, a short count, a block too large, nothing at all: no reply.
    for bad in [
        vec![6],
        vec![0xff],
        vec![4, 1, 0],
        [[4].as_slice(), &(1i32 << 21).to_ne_bytes()].concat(),
        vec![],
    ] {
        let start = Instant::now();
        assert_eq!(raw(&sock, &bad), b"", "request {bad:?}");
        println!(
            "request {bad:?}: closed without a reply after {:?}",
            start.elapsed()
        );
    }

    assert!(uuidd_client(&sock, &["-t"]).trim().len() == 36);
    let (code, log) = serve.terminate();
    assert_eq!(code, 0, "{log}");

    // The connection limit is shared with uuidkit's own socket: two connections held open
    // there, and a uuidd client is closed without a reply (the protocol has no busy answer).
    let dir = TempDir::new();
    let sock = dir.path("request");
    let limits = ["--max-connections", "2", "--max-connections-per-user", "2"];
    let serve = Serve::start(&dir.0, Some(&sock), &limits);
    // (A connection just closed counts until the server's thread has seen it close.)
    let t = Instant::now();
    let mut held = Vec::new();
    while held.len() < 2 {
        let mut c = Connection::connect(dir.path("s.sock"), Duration::from_secs(5)).unwrap();
        if c.info().is_ok() {
            held.push(c);
        } else {
            assert!(t.elapsed() < Duration::from_secs(10), "not admitted");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    assert_eq!(raw(&sock, &[2]), b"");
    held.pop();
    drop(held);
    // Once the server has seen them close (it notices on its own threads), uuidd is served.
    let t = Instant::now();
    let one = loop {
        let r = raw(&sock, &[2]);
        if r.len() == 20 {
            break Uuid::from_bytes(r[4..].try_into().unwrap());
        }
        assert!(t.elapsed() < Duration::from_secs(10), "not served again");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(one.version_num(), 1);
    assert!(uuidd_client(&sock, &["-t"]).trim().len() == 36);
    let (code, log) = serve.terminate();
    assert_eq!(code, 0, "{log}");
}

/// Serves on libuuid's compiled-in path for the time of a test: /run/uuidd is created if
/// missing and removed afterwards with what the server left there.
struct SystemSocket {
    made_dir: bool,
}

impl SystemSocket {
    fn take() -> SystemSocket {
        // SAFETY: geteuid takes no arguments and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        assert!(
            root,
            "not root: libuuid's socket path {SYSTEM_REQUEST} needs root; this test needs it \
             and fails rather than pass unchecked"
        );
        root::require_private_run(SYSTEM_REQUEST);
        assert!(
            UnixStream::connect(SYSTEM_REQUEST).is_err(),
            "a server (uuidd?) already listens on {SYSTEM_REQUEST}: stop it first (systemctl \
             stop uuidd.socket uuidd.service, or uuidd -k)"
        );
        SystemSocket {
            made_dir: !Path::new("/run/uuidd").exists(),
        }
    }
}

impl Drop for SystemSocket {
    fn drop(&mut self) {
        let _ = fs::remove_file(format!("{SYSTEM_REQUEST}.lock"));
        if self.made_dir {
            let _ = fs::remove_dir_all("/run/uuidd");
        }
    }
}

const C_PROGRAM: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <uuid/uuid.h>

/* Prints N lines "RESULT UUID" from uuid_generate_time_safe(). */
int main(int argc, char **argv)
{
    int i, n = argc > 1 ? atoi(argv[1]) : 1;
    for (i = 0; i < n; i++) {
        uuid_t u;
        char s[37];
        int r = uuid_generate_time_safe(u);
        uuid_unparse_lower(u, s);
        printf("%d %s\n", r, s);
    }
    return 0;
}
"#;

#[test]
#[ignore = "needs root and a private /run: scripts/root-tests runs it"]
fn root_libuuid_and_uuidgen_get_safe_v1_from_uuidkit_on_the_system_path() {
    require("uuidgen", "uuid-runtime");
    require("gcc", "gcc");
    assert!(
        Path::new("/usr/include/uuid/uuid.h").exists(),
        "uuid/uuid.h not found: install the Debian package uuid-dev (apt-get install -y \
         uuid-dev); this test needs it and fails rather than pass unchecked"
    );
    let dir = TempDir::new();
    let src = dir.path("gen.c");
    fs::write(&src, C_PROGRAM).unwrap();
    let exe = dir.path("gen");
    let o = Command::new("gcc")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .arg("-luuid")
        .output()
        .unwrap();
    ok(o, "gcc gen.c -luuid");

    let guard = SystemSocket::take();
    // The flag alone: libuuid's path.
    let serve = Serve::start(&dir.0, None, &[]);
    assert_eq!(
        fs::metadata(SYSTEM_REQUEST).unwrap().permissions().mode() & 0o777,
        0o666
    );
    let mut seen = HashSet::new();
    let mut uuidgen = Vec::new();
    for _ in 0..3 {
        let u = parse(&ok(
            Command::new("uuidgen").arg("-t").output().unwrap(),
            "uuidgen -t",
        ));
        assert!(seen.insert(u), "duplicate {u}");
        uuidgen.push(u);
    }
    // Two processes at once, 300 UUIDs each (several blocks of libuuid's cache).
    let children: Vec<Child> = (0..2)
        .map(|_| {
            Command::new(&exe)
                .arg("300")
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut from_c = Vec::new();
    for c in children {
        let out = ok(c.wait_with_output().unwrap(), "gen 300");
        for line in out.lines() {
            let (r, u) = line.split_once(' ').expect(line);
            assert_eq!(
                r, "0",
                "uuid_generate_time_safe did not report safe: {line}"
            );
            let u = parse(u);
            assert!(seen.insert(u), "duplicate {u}");
            from_c.push(u);
        }
    }
    assert_eq!(from_c.len(), 600);
    let (code, log) = serve.terminate();
    assert_eq!(code, 0, "{log}");
    assert!(
        !Path::new(SYSTEM_REQUEST).exists(),
        "the socket is left behind"
    );
    let lock = format!("{SYSTEM_REQUEST}.lock");
    assert!(!Path::new(&lock).exists(), "{lock} is left behind");
    drop(guard);

    let state = State::read(dir.path("state")).unwrap();
    let theirs = (state.clock_seq, state.node);
    println!(
        "state file: clock sequence {:#06x}, node {:02x?}",
        state.clock_seq, state.node
    );
    println!("uuidgen -t: {uuidgen:?}");
    println!(
        "uuid_generate_time_safe: 600 UUIDs, all returned 0, first {} last {}",
        from_c[0], from_c[599]
    );
    for u in uuidgen.iter().chain(&from_c) {
        assert_eq!(u.version_num(), 1, "{u}");
        assert_eq!(seq_node(u), theirs, "{u} is not uuidkit's");
        assert!(u.gregorian_ticks().unwrap() <= state.gregorian_ticks);
    }
}

#[test]
fn a_socket_activated_uuidd_listener_serves_the_uuidd_protocol() {
    uuidd();
    require("systemd-socket-activate", "systemd");
    let dir = TempDir::new();
    let sock = dir.path("request");
    // The service manager's socket, named `uuidd` (FileDescriptorName=uuidd in a unit);
    // systemd-socket-activate starts the server at the first connection.
    let mut child = Command::new("systemd-socket-activate")
        .arg("-l")
        .arg(&sock)
        .arg("--fdname=uuidd")
        .arg(BIN)
        .args(["serve", "--socket"])
        .arg(dir.path("s.sock"))
        .arg("--state")
        .arg(dir.path("state"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !sock.exists() {
        assert!(t.elapsed() < Duration::from_secs(10), "no socket");
        std::thread::sleep(Duration::from_millis(10));
    }
    let one = parse(&uuidd_client(&sock, &["-t"]));
    let (first, n) = parse_block(&uuidd_client(&sock, &["-t", "-n", "10"]));
    // The server is the activated process (systemd-socket-activate execs it).
    let pid = format!("{}\0", child.id());
    assert_eq!(raw(&sock, &[0])[4..], *pid.as_bytes());
    let st = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let st = child.wait().unwrap();
    let mut log = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut log);
    assert!(st.success(), "{st}: {log}");
    assert!(log.contains("(uuidd) [uuidd protocol]"), "{log}");
    let state = State::read(dir.path("state")).unwrap();
    println!(
        "activated: uuidd -t {one}; uuidd -t -n 10: {first} and {}",
        n - 1
    );
    assert_eq!(seq_node(&one), (state.clock_seq, state.node));
    assert_eq!(seq_node(&first), (state.clock_seq, state.node));
    assert_eq!(state.gregorian_ticks, first.gregorian_ticks().unwrap() + 9);
}

#[test]
fn a_running_uuidd_is_not_displaced() {
    uuidd();
    let dir = TempDir::new();
    let sock = dir.path("request");
    // The real uuidd, in the foreground, on the test's own path.
    let mut uuidd = Command::new(uuidd())
        .args(["-F", "-P", "-q", "-T", "60", "-s"])
        .arg(&sock)
        // It reports every probe of the test (an empty connection) there.
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while UnixStream::connect(&sock).is_err() {
        assert!(t.elapsed() < Duration::from_secs(10), "uuidd did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut o = Command::new(BIN)
        .args(["serve", "--socket"])
        .arg(dir.path("s.sock"))
        .arg("--state")
        .arg(dir.path("state"))
        .arg("--uuidd-socket")
        .arg(&sock)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Bounded: a server that starts anyway (the failure looked for) is stopped, not waited on.
    let t = Instant::now();
    while o.try_wait().unwrap().is_none() && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    if o.try_wait().unwrap().is_none() {
        let _ = o.kill();
    }
    let o = o.wait_with_output().unwrap();
    let err = text(&o.stderr);
    let _ = uuidd.kill();
    let _ = uuidd.wait();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("already listening"), "{err}");
    // Nothing of the server's is left: not its own socket either.
    assert!(!dir.path("s.sock").exists(), "{err}");
    println!("{}", err.trim());
}

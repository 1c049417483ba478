//! `uuidkit serve` and `uuidkit gen --system` as real processes under the attacks and limits of
//! issue 17: an impostor on the socket run by another user, socket paths and directories that
//! must be refused at start, file descriptors running out (`RLIMIT_NOFILE`, set for the server
//! alone), 1,000 clients that never read their replies, and `--help`/`--version` on a full
//! standard output. The figures are printed (`--nocapture`) for RELIABILITY.md.
//!
//! Every test runs as a normal user but the impostor test, which needs root to run a process
//! as `nobody`: it is ignored in the default run and run by `scripts/root-tests` (as root, in
//! CI), where it fails when not root. The descriptor tests need a hard limit of at least 2,200
//! open files (Debian's default is 524,288) and fail, saying so, under a lower one.
#![cfg(unix)]

use std::fs;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use uuidkit_service::client::Connection;
use uuidkit_service::protocol::{ReplyHeader, Request, Status};
use uuidkit_service::state::TimeVersion;

const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

use uuidkit_test_support::impostor;
use uuidkit_test_support::TempDir;

/// `nobody`.
const OTHER_UID: u32 = 65534;

fn is_root() -> bool {
    // SAFETY: geteuid takes no arguments and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("UUIDKIT_SOCKET")
        .env_remove("UUIDKIT_SERVER_UID")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Raises this process's soft open-file limit to the hard one (the clients' descriptors).
fn raise_own_fd_limit() -> libc::rlim_t {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `r` is a live, writable rlimit; setrlimit only reads it.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut r), 0);
        r.rlim_cur = r.rlim_max;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &r), 0);
    }
    r.rlim_cur
}

/// One field of /proc/PID/status, in its own unit (kB for memory).
fn proc_status(pid: u32, field: &str) -> u64 {
    let s = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

fn fd_count(pid: u32) -> usize {
    fs::read_dir(format!("/proc/{pid}/fd")).unwrap().count()
}

/// Waits (5 s at most) until the socket answers an info request from this process's user.
fn wait_listening(sock: &Path, child: &mut Child) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        if let Ok(mut c) = Connection::connect(sock, Duration::from_secs(5)) {
            if c.info().is_ok() {
                return;
            }
        }
        if let Ok(Some(st)) = child.try_wait() {
            let mut e = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut e);
            panic!("uuidkit serve exited with {st}: {e}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("uuidkit serve did not become ready");
}

/// A running `uuidkit serve` and the thread that collects its standard error (read as it
/// comes, so that a flooding log cannot block the server on a full pipe).
struct Served {
    child: Child,
    stderr: std::thread::JoinHandle<String>,
}

impl Served {
    fn id(&self) -> u32 {
        self.child.id()
    }
}

/// `uuidkit serve` on `sock`, with `limit` (soft, hard) for its open files and `inherit`
/// extra descriptors left open in it (dup'ed from /dev/null), standard error collected.
fn serve(
    d: &TempDir,
    sock: &Path,
    extra: &[&str],
    limit: Option<(u64, u64)>,
    inherit: i32,
) -> Served {
    let null = fs::File::open("/dev/null").unwrap();
    let null_fd = null.as_raw_fd();
    let mut c = Command::new(BIN);
    c.args(["serve", "--socket"])
        .arg(sock)
        .arg("--state")
        .arg(d.path("state"))
        .args(extra)
        .stderr(Stdio::piped());
    // SAFETY: the closure calls only async-signal-safe functions (dup2, setrlimit) on values
    // copied into it, between fork and exec.
    unsafe {
        c.pre_exec(move || {
            for fd in 0..inherit {
                if libc::dup2(null_fd, 100 + fd) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if let Some((soft, hard)) = limit {
                let r = libc::rlimit {
                    rlim_cur: soft as libc::rlim_t,
                    rlim_max: hard as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &r) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = c.spawn().unwrap();
    drop(null);
    wait_listening(sock, &mut child);
    let mut err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut e = String::new();
        let _ = err.read_to_string(&mut e);
        e
    });
    Served { child, stderr }
}

/// SIGTERM (SIGKILL if it has not ended 10 s later), then standard error.
fn stop(mut s: Served) -> String {
    // SAFETY: kill only sends a signal to our own child.
    unsafe { libc::kill(s.child.id() as i32, libc::SIGTERM) };
    let t = Instant::now();
    while s.child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(10) {
            let _ = s.child.kill();
            let _ = s.child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    s.stderr.join().unwrap()
}

/// Helper: binds `UK_HELPER` (a socket path) as whoever runs it and answers every request
/// with the same two v7 UUIDs. Ends after 60 s.
#[test]
#[ignore = "a helper process run by root_gen_system_refuses_an_impostor_and_exits_non_zero"]
fn impostor_process() {
    let Ok(sock) = std::env::var("UK_HELPER") else {
        return;
    };
    impostor::serve_forged(&sock);
}

/// Issue 17, item 2: `nobody` binds the socket first in a sticky, world-writable directory
/// (as /tmp). Root's `gen --system` refuses it (status 2, no UUID written, the reason on
/// stderr) instead of printing its repeated UUIDs with status 0; `--server-uid` names it as
/// trusted; and the real server refuses to start on the taken socket.
#[test]
#[ignore = "needs root and a second user: scripts/root-tests runs it"]
fn root_gen_system_refuses_an_impostor_and_exits_non_zero() {
    if !is_root() {
        panic!("not root: cannot run an impostor as another user: this test needs it and fails rather than pass unchecked");
    }
    let d = TempDir::new();
    let sock = impostor::shared_dir(&d.0, "tmp").join("uuidkit.sock");
    let sock_s = sock.display().to_string();
    let mut imp = impostor::spawn_as(OTHER_UID, "serve_defences::impostor_process", &sock);

    let o = run(&["gen", "v7", "--system", "--socket", &sock_s, "-C", "4"]);
    let err = text(&o.stderr);
    eprintln!(
        "gen --system against nobody's socket: status {:?}: {err}",
        o.status.code()
    );
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty(), "UUIDs written: {}", text(&o.stdout));
    assert!(err.contains("runs as uid 65534"), "{err}");
    assert!(
        err.contains("another user may have bound the socket"),
        "{err}"
    );

    let uid = OTHER_UID.to_string();
    let o = run(&[
        "gen",
        "v7",
        "--system",
        "--socket",
        &sock_s,
        "--server-uid",
        &uid,
        "-C",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // Exactly what an impostor does: the same UUIDs again and again.
    let got: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!((got.len(), got[0] == got[2]), (4, true));

    let o = run(&[
        "serve",
        "--socket",
        &sock_s,
        "--state",
        &d.path("state").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("already listening"),
        "{}",
        text(&o.stderr)
    );
    let _ = imp.kill();
    let _ = imp.wait();
}

/// Runs `uuidkit serve` with `args` and waits (10 s at most) for it to end on its own; a
/// server still running then is killed and its stderr returned with `None`.
fn serve_must_exit(args: &[&str]) -> (Option<i32>, String) {
    let mut c = Command::new(BIN)
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let code = loop {
        if let Some(st) = c.try_wait().unwrap() {
            break st.code();
        }
        if t.elapsed() > Duration::from_secs(10) {
            let _ = c.kill();
            let _ = c.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut e = String::new();
    let _ = c.stderr.take().unwrap().read_to_string(&mut e);
    (code, e)
}

/// Issue 17, items 7 and 2: a socket path too long for a socket address, or in a directory
/// others may write, is refused at start with status 2 and a message saying why, before the
/// state file is touched (before: the server said "listening" on a socket no client could
/// reach, or one another user could take).
#[test]
fn serve_refuses_unreachable_or_unsafe_socket_paths_at_start() {
    let d = TempDir::new();
    // SAFETY: sockaddr_un is plain old data; zeroes are a valid value.
    let max = unsafe { std::mem::zeroed::<libc::sockaddr_un>() }
        .sun_path
        .len()
        - 1;
    let dir_len = d.0.as_os_str().len() + 1;
    let long = d.path(&"s".repeat(max + 1 - dir_len)).display().to_string();
    let open = d.path("open");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    let in_open = open.join("s.sock").display().to_string();
    let state = d.path("state").display().to_string();
    for (sock, want) in [
        (
            &long,
            format!(
                "is {} bytes long; a Unix socket address holds at most {max}",
                max + 1
            ),
        ),
        (&in_open, "is writable by other users".to_string()),
    ] {
        let (code, err) = serve_must_exit(&["serve", "--socket", sock, "--state", &state]);
        eprintln!(
            "serve --socket ({} bytes): {code:?}: {}",
            sock.len(),
            err.trim()
        );
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(&want), "{err}");
        assert!(!Path::new(&state).exists(), "the state file was touched");
        assert!(!Path::new(sock).exists(), "a socket was made");
    }
}

/// Opens `n` connections, sends each a v7 request, and reads each reply (15 s in all at
/// most): how many were served, told Busy, or got nothing.
fn crowd(sock: &Path, n: usize) -> (usize, usize, usize, Vec<UnixStream>) {
    let mut conns = Vec::new();
    for _ in 0..n {
        let s = UnixStream::connect(sock).unwrap();
        let _ = (&s).write_all(&Request::generate(TimeVersion::V7, 1).encode());
        conns.push(s);
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    let (mut ok, mut busy, mut none) = (0, 0, 0);
    for s in &mut conns {
        let left = deadline.saturating_duration_since(Instant::now());
        s.set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .unwrap();
        let mut len = [0u8; 4];
        let got = s.read_exact(&mut len).and_then(|()| {
            let mut p = vec![0u8; u32::from_be_bytes(len) as usize];
            s.read_exact(&mut p).map(|()| p)
        });
        match got.ok().and_then(|p| ReplyHeader::parse(&p).ok()) {
            Some(h) if h.status == Status::Ok => ok += 1,
            Some(h) if h.status == Status::Busy => busy += 1,
            _ => none += 1,
        }
    }
    (ok, busy, none, conns)
}

/// Issue 17, item 5: under systemd's default soft limit (1024 open files) a server with the
/// default --max-connections ran out of descriptors at about 510 connections, and the clients
/// past that hung. Now the soft limit is raised to the hard one (4096 here) and every client
/// is answered: served, or Busy past the per-user limit (512).
#[test]
fn serve_raises_its_open_file_limit_and_answers_every_client() {
    if raise_own_fd_limit() < 2000 {
        panic!(
            "fewer than 2000 descriptors allowed (ulimit -Hn): this test needs them and fails rather than pass unchecked"
        );
    }
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let child = serve(&d, &sock, &[], Some((1024, 4096)), 0);
    let pid = child.id();
    let (ok, busy, none, conns) = crowd(&sock, 600);
    let fds = fd_count(pid);
    let limits = fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let soft: u64 = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .and_then(|l| l.split_whitespace().nth(3)?.parse().ok())
        .unwrap();
    drop(conns);
    let err = stop(child);
    eprintln!(
        "soft limit 1024, hard 4096, 600 clients: {ok} served, {busy} busy, {none} unanswered; \
         the server's soft limit {soft}, {fds} descriptors open; accept-failure lines: {}",
        err.matches("accept failed").count()
    );
    assert_eq!(none, 0, "clients left hanging; server log:\n{err}");
    assert_eq!(soft, 4096);
    assert_eq!((ok, busy), (512, 88));
}

/// Issue 17, item 5: with no room to raise it (soft = hard = 256) and 150 descriptors already
/// taken by something else, the server lowers its connection limit to what the limit allows
/// and says so, and when `accept` fails anyway it frees its reserve descriptor to tell the
/// client Busy; the log line about it is rate-limited (before: ~100 lines per second, and the
/// clients hung).
#[test]
fn serve_out_of_descriptors_answers_busy_and_logs_sparingly() {
    // Only lowered for the server: no privilege needed.
    raise_own_fd_limit();
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let child = serve(&d, &sock, &[], Some((256, 256)), 150);
    let pid = child.id();
    let t = Instant::now();
    let (ok, busy, none, conns) = crowd(&sock, 300);
    let fds = fd_count(pid);
    // Keep them open a moment and knock again, to give a flooding log the time to show.
    for _ in 0..20 {
        let _ = crowd(&sock, 10);
    }
    let elapsed = t.elapsed();
    drop(conns);
    let err = stop(child);
    let fail_lines = err.matches("accept failed").count();
    eprintln!(
        "soft = hard = 256, 150 taken, 300 + 200 clients in {elapsed:?}: {ok} served, {busy} \
         busy, {none} unanswered; {fds} descriptors open; {fail_lines} accept-failure lines"
    );
    eprintln!(
        "{}",
        err.lines()
            .filter(|l| l.contains("connections") || l.contains("accept"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(none, 0, "clients left hanging; server log:\n{err}");
    assert!(ok > 0 && busy > 0);
    assert!(
        err.contains("at most 224 connections instead of 1024"),
        "{err}"
    );
    assert!(
        fail_lines as u64 <= 2 + elapsed.as_secs() / 5,
        "{fail_lines} lines in {elapsed:?}"
    );
}

/// Issue 17, item 6: 1,000 clients that each ask for 4 × 8192 UUIDs and never read. Before,
/// each connection pinned 256 KiB (here RSS 151 MB, 117–150 MB left after they went); now large
/// replies share a 16 MiB budget and the rest use 8 KiB per connection, all freed once written
/// or when the connection ends.
#[test]
fn serve_memory_stays_bounded_with_clients_that_never_read() {
    if raise_own_fd_limit() < 2200 {
        panic!("fewer than 2200 descriptors: cannot open 1,000 clients: this test needs it and fails rather than pass unchecked");
    }
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let child = serve(&d, &sock, &["--max-connections", "2100"], None, 0);
    let pid = child.id();
    let base_rss = proc_status(pid, "VmRSS:");
    let big = Request::generate(TimeVersion::V7, 8192).encode();
    let mut stuck = Vec::new();
    for _ in 0..1000 {
        let mut s = UnixStream::connect(&sock).unwrap();
        for _ in 0..4 {
            s.write_all(&big).unwrap();
        }
        stuck.push(s);
    }
    // Until every connection has its thread (each has read its requests by then), 30 s at most.
    let t = Instant::now();
    while proc_status(pid, "Threads:") < 1000 && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let threads = proc_status(pid, "Threads:");
    let during = proc_status(pid, "VmRSS:");
    drop(stuck);
    let t = Instant::now();
    while proc_status(pid, "Threads:") > 40 && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let after = proc_status(pid, "VmRSS:");
    let peak = proc_status(pid, "VmHWM:");
    let _ = stop(child);
    eprintln!(
        "1,000 clients not reading 4 × 8192 v7: RSS {} MB at start, {} MB with them ({threads} \
         threads), peak {} MB, {} MB after they left",
        base_rss / 1024,
        during / 1024,
        peak / 1024,
        after / 1024
    );
    assert!(
        threads >= 1000,
        "only {threads} threads: the clients were not all served"
    );
    assert!(peak < 100 * 1024, "peak RSS {peak} kB");
    assert!(after < 64 * 1024, "RSS {after} kB after the clients left");
}

/// Issue 17, "Smaller": `--help` and `--version` on a full standard output exit with status 2
/// and say so, like every other command's output; a closed pipe still ends quietly with 0.
#[test]
fn help_and_version_on_a_full_stdout_exit_2() {
    let full = || {
        fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        &["--help"][..],
        &["--version"],
        &["gen", "--help"],
        &["help", "serve"],
    ] {
        let o = Command::new(BIN)
            .args(args)
            .stdout(full())
            .output()
            .unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("writing standard output"), "{args:?}: {err}");
    }
    let mut c = Command::new(BIN)
        .arg("--help")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    drop(c.stdout.take());
    assert_eq!(c.wait().unwrap().code(), Some(0));
}

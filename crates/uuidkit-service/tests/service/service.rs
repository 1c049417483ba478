//! The service (RFC 9562 §6.3 system-wide generator): an in-process server on a temporary
//! socket, real client processes (this test binary run again), idle and malformed connections,
//! single-instance rules, shutdown, and the client's cache and fallback.
//!
//! `UUIDKIT_STRESS_N` sets how many UUIDs of each version every client thread takes in
//! `many_processes_and_threads_get_unique_increasing_uuids` (default 2000; 100000 for the full
//! run of 4 processes × 4 threads × 10^5).
#![cfg(unix)]

use std::collections::HashSet;
use std::fs;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use uuidkit::Uuid;
use uuidkit_service::client::{
    ClientConfig, Connection, ServiceErrorKind, Source, SystemGenerator,
};
use uuidkit_service::protocol::{uuids_frame, ReplyHeader, Request, Status, MAX_COUNT};
use uuidkit_service::server::{Server, ServerConfig, ShutdownHandle};
use uuidkit_service::state::{DurableGenerator, Safety, State, StateOptions, TimeVersion};

use uuidkit_test_support::TempDir;

use crate::running::{connect, start, start_with};

/// Sends raw bytes, then reads one reply frame: `None` if the server closed the connection.
fn raw_reply(s: &mut UnixStream) -> Option<(ReplyHeader, Vec<u8>)> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).ok()?;
    let mut p = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut p).ok()?;
    let h = ReplyHeader::parse(&p).unwrap();
    Some((h, p))
}

fn raw(sock: &Path) -> UnixStream {
    let s = UnixStream::connect(sock).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Reads until the server closes the connection (or 10 s pass, which fails the test).
fn assert_closed(s: &mut UnixStream) {
    let mut b = [0u8; 64];
    loop {
        match s.read(&mut b) {
            Ok(0) => return,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return,
            Err(e) => panic!("connection not closed: {e}"),
        }
    }
}

#[test]
fn serves_each_version_in_order() {
    let d = TempDir::new();
    let r = start(&d);
    let mut c = connect(&r.sock);
    for v in [TimeVersion::V1, TimeVersion::V6, TimeVersion::V7] {
        let mut out = Vec::new();
        assert_eq!(c.generate(v, 1000, &mut out).unwrap(), Safety::Durable);
        assert_eq!(out.len(), 1000);
        let mut more = Vec::new();
        c.generate(v, 1, &mut more).unwrap();
        assert!(out.iter().all(|u| u.version_num() == v.as_u8()));
        // The client checks order inside a reply; across replies, here.
        match v {
            TimeVersion::V1 => assert!(more[0].gregorian_ticks() > out[999].gregorian_ticks()),
            _ => assert!(more[0] > out[999]),
        }
    }
    let info = c.info().unwrap();
    assert_eq!(info.max_count, MAX_COUNT);
    assert_eq!(info.pid, std::process::id());
    assert!(info.durable && !info.strict);
    r.stop().unwrap(); // Ok: the state was written at shutdown
}

fn stress_n() -> usize {
    std::env::var("UUIDKIT_STRESS_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

/// One client process of the stress test: 4 threads share one `SystemGenerator` (block
/// cache), each takes N v7 and N v1 and writes them to DIR/p{i}t{j}.v{7,1}.
#[test]
#[ignore = "a helper process run by many_processes_and_threads_get_unique_increasing_uuids"]
fn stress_client_process() {
    let Ok(spec) = std::env::var("UUIDKIT_STRESS_CHILD") else {
        return;
    };
    let (sock, rest) = spec.split_once(';').unwrap();
    let (dir, idx) = rest.split_once(';').unwrap();
    let n = stress_n();
    let generator = SystemGenerator::new(ClientConfig::new(sock).fallback(false));
    std::thread::scope(|s| {
        for t in 0..4 {
            let generator = &generator;
            s.spawn(move || {
                for v in [TimeVersion::V7, TimeVersion::V1] {
                    let mut bytes = Vec::with_capacity(n * 16);
                    for _ in 0..n {
                        let g = generator.next(v).unwrap();
                        assert_eq!(g.source, Source::Service);
                        bytes.extend_from_slice(g.uuid.as_bytes());
                    }
                    let f = Path::new(dir).join(format!("p{idx}t{t}.v{}", v.as_u8()));
                    fs::write(f, bytes).unwrap();
                }
            });
        }
    });
}

fn read_uuids(p: &Path) -> Vec<Uuid> {
    fs::read(p)
        .unwrap()
        .chunks_exact(16)
        .map(|c| Uuid::from_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn many_processes_and_threads_get_unique_increasing_uuids() {
    let d = TempDir::new();
    let r = start(&d);
    let n = stress_n();
    let exe = std::env::current_exe().unwrap();
    let t0 = Instant::now();
    let children: Vec<_> = (0..4)
        .map(|i| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "service::stress_client_process",
                    "--ignored",
                    "--quiet",
                ])
                .env(
                    "UUIDKIT_STRESS_CHILD",
                    format!("{};{};{i}", r.sock.display(), d.0.display()),
                )
                .env("UUIDKIT_STRESS_N", n.to_string())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "a client process failed");
    }
    let elapsed = t0.elapsed();
    let mut v7 = HashSet::new();
    let mut v1 = HashSet::new();
    for i in 0..4 {
        for t in 0..4 {
            let a = read_uuids(&d.path(&format!("p{i}t{t}.v7")));
            let b = read_uuids(&d.path(&format!("p{i}t{t}.v1")));
            assert_eq!((a.len(), b.len()), (n, n));
            assert!(
                a.windows(2).all(|w| w[0] < w[1]),
                "v7 of p{i}t{t} not increasing"
            );
            assert!(
                b.windows(2)
                    .all(|w| w[0].gregorian_ticks() < w[1].gregorian_ticks()),
                "v1 of p{i}t{t} not increasing"
            );
            v7.extend(a);
            v1.extend(
                b.iter()
                    .map(|u| (u.gregorian_ticks(), u.clock_seq(), u.node())),
            );
        }
    }
    assert_eq!(v7.len(), 16 * n, "duplicate v7");
    assert_eq!(v1.len(), 16 * n, "duplicate v1");
    eprintln!(
        "4 processes x 4 threads x {n} (v7 + v1): {} UUIDs, no duplicate, in {elapsed:?} ({:.0}/s)",
        32 * n,
        (32 * n) as f64 / elapsed.as_secs_f64()
    );
    r.stop().unwrap();
}

#[test]
fn idle_connections_do_not_delay_a_working_client() {
    let d = TempDir::new();
    let r = start(&d);
    let mut idle = Vec::new();
    for i in 0..500 {
        let mut s = UnixStream::connect(&r.sock).unwrap();
        if i % 2 == 0 {
            // Half of them stop in the middle of a frame.
            s.write_all(&[0, 0]).unwrap();
        }
        idle.push(s);
    }
    let mut c = connect(&r.sock);
    let mut lat = Vec::new();
    let mut out = Vec::new();
    for _ in 0..2000 {
        let t = Instant::now();
        out.clear();
        c.generate(TimeVersion::V7, 1, &mut out).unwrap();
        lat.push(t.elapsed());
        assert_eq!(out.len(), 1);
    }
    let first = lat[0];
    lat.sort();
    eprintln!(
        "500 idle connections + 1 client, 2000 single requests: p50 {:?}, p99 {:?}, max {:?} \
         (the first: {first:?})",
        lat[lat.len() / 2],
        lat[lat.len() * 99 / 100],
        lat[lat.len() - 1]
    );
    // The idle ones are still there and still served.
    let mut s = idle.pop().unwrap();
    s.write_all(&Request::generate(TimeVersion::V6, 3).encode())
        .unwrap();
    let (h, _) = raw_reply(&mut s).unwrap();
    assert_eq!((h.status, h.n), (Status::Ok, 3));
    drop(idle);
    r.stop().unwrap();
}

/// A small deterministic generator for random frames (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn malformed_frames_get_an_error_or_a_closed_connection_and_the_service_carries_on() {
    let d = TempDir::new();
    let r = start_with(&d, |c| c.timeout(Duration::from_millis(300)));

    // count 0 and count 2^32-1 (clamped).
    let mut s = raw(&r.sock);
    s.write_all(&Request::generate(TimeVersion::V7, 0).encode())
        .unwrap();
    let (h, _) = raw_reply(&mut s).unwrap();
    assert_eq!((h.status, h.n), (Status::Ok, 0));
    s.write_all(&Request::generate(TimeVersion::V7, u32::MAX).encode())
        .unwrap();
    let (h, p) = raw_reply(&mut s).unwrap();
    assert_eq!((h.status, h.n), (Status::Ok, MAX_COUNT));
    assert_eq!(p.len(), 8 + 16 * MAX_COUNT as usize);

    // Errors that keep the connection: unknown op, UUID version, flags.
    for (frame, want) in [
        ([0, 0, 0, 8, 1, 9, 7, 0, 0, 0, 0, 1], Status::BadOp),
        // Range is protocol 2's: in protocol 1 an unknown operation, as it always was.
        ([0, 0, 0, 8, 1, 3, 7, 0, 0, 0, 0, 1], Status::BadOp),
        ([0, 0, 0, 8, 1, 1, 4, 0, 0, 0, 0, 1], Status::BadUuidVersion),
        ([0, 0, 0, 8, 1, 1, 7, 0x80, 0, 0, 0, 1], Status::BadFlags),
    ] {
        s.write_all(&frame).unwrap();
        let (h, p) = raw_reply(&mut s).unwrap();
        assert_eq!(h.status, want);
        assert!(!p[8..].is_empty(), "an error reply carries a message");
    }
    s.write_all(&Request::generate(TimeVersion::V1, 2).encode())
        .unwrap();
    assert_eq!(raw_reply(&mut s).unwrap().0.status, Status::Ok);

    // Errors that close it: bad lengths, another protocol version.
    for frame in [
        vec![0, 0, 0, 0],
        vec![0xFF, 0xFF, 0xFF, 0xFF],
        vec![0, 0, 1, 1],
        vec![0, 0, 0, 8, 3, 1, 7, 0, 0, 0, 0, 1],
    ] {
        let mut s = raw(&r.sock);
        s.write_all(&frame).unwrap();
        let (h, _) = raw_reply(&mut s).unwrap();
        assert!(
            matches!(h.status, Status::BadFrame | Status::BadProtocol),
            "{:?}",
            h.status
        );
        assert_closed(&mut s);
    }

    // Half a frame, then silence: closed after the timeout.
    let mut s = raw(&r.sock);
    s.write_all(&[0, 0, 0, 8, 1]).unwrap();
    assert_closed(&mut s);

    // Random frames.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut replies, mut closes) = (0, 0);
    for _ in 0..300 {
        let mut s = raw(&r.sock);
        let len = (rng.next() % 300) as u32;
        let mut frame = len.to_be_bytes().to_vec();
        let sent = (rng.next() % (len as u64 + 1)) as usize;
        frame.extend((0..sent).map(|_| rng.next() as u8));
        // Sometimes a valid protocol byte, to get past the first check.
        if sent > 0 && rng.next() % 2 == 0 {
            frame[4] = 1;
        }
        let _ = s.write_all(&frame);
        let _ = s.shutdown(std::net::Shutdown::Write);
        match raw_reply(&mut s) {
            Some(_) => replies += 1,
            None => closes += 1,
        }
    }
    eprintln!("300 random frames: {replies} error or OK replies, {closes} closed connections");
    // Still serving.
    let mut c = connect(&r.sock);
    let mut out = Vec::new();
    c.generate(TimeVersion::V7, 5, &mut out).unwrap();
    assert_eq!(out.len(), 5);
    r.stop().unwrap();
}

#[test]
fn connections_beyond_the_limit_are_refused_as_busy() {
    let d = TempDir::new();
    let r = start_with(&d, |c| c.max_connections(3).max_connections_per_user(3));
    let held: Vec<_> = (0..3).map(|_| connect(&r.sock)).collect();
    // Let the server register them.
    let mut first = held.into_iter().collect::<Vec<_>>();
    let mut out = Vec::new();
    first[0].generate(TimeVersion::V7, 1, &mut out).unwrap();
    let mut s = raw(&r.sock);
    let (h, p) = raw_reply(&mut s).unwrap();
    assert_eq!(h.status, Status::Busy);
    assert!(String::from_utf8_lossy(&p[8..]).contains("at most 3"));
    assert_closed(&mut s);
    // A closed connection frees its place: once the server has seen the three go, a new one
    // is served (retried, since the server notices a close only when its thread reads it).
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut c = connect(&r.sock);
        match c.generate(TimeVersion::V7, 1, &mut out) {
            Ok(_) => break,
            // Refused: a Busy reply, or the hang-up after it if that came first.
            Err(e) if e.is_unreachable() && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Err(e) => panic!("no connection admitted after three closed: {e}"),
        }
    }
    r.stop().unwrap();
}

#[test]
fn one_server_per_socket_and_stale_sockets_are_replaced() {
    let d = TempDir::new();
    let sock = d.path("s.sock");
    // A stale socket: bound, then its listener gone (connect is refused).
    drop(UnixListener::bind(&sock).unwrap());
    let r = start(&d);
    let mut c = connect(&r.sock);
    let mut out = Vec::new();
    c.generate(TimeVersion::V7, 1, &mut out).unwrap();

    // A second server on the same socket fails at once, naming the first.
    let generator = DurableGenerator::open(d.path("other-state"), StateOptions::new()).unwrap();
    let e = Server::bind(ServerConfig::new(&sock), generator).unwrap_err();
    assert!(e.to_string().contains("already running"), "{e}");
    r.stop().unwrap();

    // Something that is not a socket is never replaced.
    let d2 = TempDir::new();
    fs::write(d2.path("s.sock"), b"precious").unwrap();
    let generator = DurableGenerator::open(d2.path("state"), StateOptions::new()).unwrap();
    let e = Server::bind(ServerConfig::new(d2.path("s.sock")), generator).unwrap_err();
    assert!(e.to_string().contains("is not a socket"), "{e}");
    assert_eq!(fs::read(d2.path("s.sock")).unwrap(), b"precious");

    // A live foreign listener is not replaced either.
    let d3 = TempDir::new();
    let _live = UnixListener::bind(d3.path("s.sock")).unwrap();
    let generator = DurableGenerator::open(d3.path("state"), StateOptions::new()).unwrap();
    let e = Server::bind(ServerConfig::new(d3.path("s.sock")), generator).unwrap_err();
    assert!(e.to_string().contains("already listening"), "{e}");
}

#[test]
fn the_socket_gets_the_mode_asked_for() {
    use std::os::unix::fs::PermissionsExt;
    let d = TempDir::new();
    let r = start(&d);
    assert_eq!(
        fs::metadata(&r.sock).unwrap().permissions().mode() & 0o777,
        0o600
    );
    r.stop().unwrap();
    let d = TempDir::new();
    let r = start_with(&d, |c| c.mode(0o660));
    assert_eq!(
        fs::metadata(&r.sock).unwrap().permissions().mode() & 0o777,
        0o660
    );
    // No temporary directory is left behind.
    let names: Vec<_> = fs::read_dir(&d.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with(".uk")), "{names:?}");
    r.stop().unwrap();
}

#[test]
fn shutdown_flushes_the_state_removes_the_socket_and_closes_connections() {
    let d = TempDir::new();
    let r = start(&d);
    let mut c = connect(&r.sock);
    let mut out = Vec::new();
    c.generate(TimeVersion::V7, 10, &mut out).unwrap();
    // A second connection, served once (so surely accepted), then idle.
    let mut idle = raw(&r.sock);
    idle.write_all(&Request::info().encode()).unwrap();
    assert_eq!(raw_reply(&mut idle).unwrap().0.status, Status::Ok);
    let (sock, state) = (r.sock.clone(), r.state.clone());
    // Ok: the exact state was written at shutdown.
    let summary = r.stop().unwrap();
    assert_eq!(summary.connections, 2);
    assert!(!sock.exists());
    let s = State::read(&state).unwrap();
    assert!(s.clean);
    assert_eq!(s.v7_unix_ms, out[9].unix_ts_ms().unwrap());
    assert_closed(&mut idle);
}

#[test]
fn state_write_failure_is_reported_to_clients() {
    let d = TempDir::new();
    let state = d.path("state");
    fs::create_dir(d.path("state.tmp")).unwrap();
    fs::write(d.path("state.tmp/keep"), b"x").unwrap();
    let generator = DurableGenerator::open(&state, StateOptions::new()).unwrap();
    assert!(generator.last_write_error().is_some());
    let server = Server::bind(ServerConfig::new(d.path("s.sock")), generator).unwrap();
    let h = server.shutdown_handle();
    let t = std::thread::spawn(move || server.run());
    let mut c = connect(&d.path("s.sock"));
    assert!(!c.info().unwrap().durable);
    let mut out = Vec::new();
    assert_eq!(
        c.generate(TimeVersion::V7, 3, &mut out).unwrap(),
        Safety::Volatile
    );
    h.shutdown();
    // The final write fails too, and says so.
    let e = t.join().unwrap().unwrap_err();
    assert!(e.to_string().contains("flushing the state"), "{e}");
}

#[test]
fn the_client_falls_back_to_local_and_comes_back() {
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let cfg = ClientConfig::new(&sock)
        .block(16)
        .retry_after(Duration::from_millis(50));
    let generator = SystemGenerator::new(cfg.clone());
    let g = generator.next(TimeVersion::V7).unwrap();
    assert_eq!((g.source, g.safety), (Source::Local, Safety::Volatile));

    let r = start(&d);
    std::thread::sleep(Duration::from_millis(60));
    let a = generator.next(TimeVersion::V7).unwrap();
    assert_eq!((a.source, a.safety), (Source::Service, Safety::Durable));
    // The rest of the block comes from the cache, in order.
    let b = generator.next(TimeVersion::V7).unwrap();
    assert!(b.uuid > a.uuid && b.source == Source::Service);
    let mut many = [Uuid::NIL; 100];
    let f = generator.fill(TimeVersion::V6, &mut many).unwrap();
    assert_eq!(f.from_service, 100);
    assert!(many.windows(2).all(|w| w[0] < w[1]));

    r.stop().unwrap();
    // Service gone: the cached v7 are still handed out, then local ones.
    let mut sources = Vec::new();
    for _ in 0..20 {
        sources.push(generator.next(TimeVersion::V7).unwrap().source);
    }
    assert_eq!(sources[0], Source::Service);
    assert_eq!(sources[19], Source::Local);

    // Without fallback: an error that says what is wrong.
    let strict = SystemGenerator::new(cfg.fallback(false));
    let e = strict.next(TimeVersion::V1).unwrap_err();
    assert_eq!(e.kind(), ServiceErrorKind::Unavailable);
    assert!(
        e.to_string().contains("cannot reach the uuidkit service"),
        "{e}"
    );
}

/// A `sockaddr_un` for `path` and its length.
fn unix_addr(path: &Path) -> (libc::sockaddr_un, libc::socklen_t) {
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid empty address.
    let mut addr: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    addr.sun_family = libc::AF_UNIX as libc::sa_family_t;
    let bytes = path.as_os_str().as_bytes();
    assert!(bytes.len() < addr.sun_path.len(), "{}", path.display());
    for (d, b) in addr.sun_path.iter_mut().zip(bytes) {
        *d = *b as libc::c_char;
    }
    (
        addr,
        std::mem::size_of::<libc::sockaddr_un>() as libc::socklen_t,
    )
}

/// A new Unix stream socket with extra `flags` (such as `SOCK_NONBLOCK`).
fn unix_socket(flags: i32) -> OwnedFd {
    // SAFETY: socket takes no pointers; a non-negative result is a new descriptor.
    let fd = unsafe {
        libc::socket(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC | flags,
            0,
        )
    };
    assert!(fd >= 0, "socket: {}", std::io::Error::last_os_error());
    // SAFETY: `fd` was just returned by socket and is owned by nothing else.
    unsafe { OwnedFd::from_raw_fd(fd) }
}

/// A listening socket with a backlog of one that never accepts: its queue fills after a couple
/// of connections, and a plain `connect` to it then blocks until the server accepts.
fn unaccepting_listener(path: &Path) -> OwnedFd {
    let fd = unix_socket(0);
    let (addr, len) = unix_addr(path);
    // SAFETY: `addr` is a live, initialised sockaddr_un of the length passed.
    let rc = unsafe { libc::bind(fd.as_raw_fd(), (&raw const addr).cast(), len) };
    assert_eq!(rc, 0, "bind: {}", std::io::Error::last_os_error());
    // SAFETY: listen takes no pointers.
    assert_eq!(unsafe { libc::listen(fd.as_raw_fd(), 1) }, 0);
    fd
}

/// Connects without blocking; `None` once the listener's queue is full (EAGAIN).
fn connect_nonblocking(path: &Path) -> Option<UnixStream> {
    let fd = unix_socket(libc::SOCK_NONBLOCK);
    let (addr, len) = unix_addr(path);
    // SAFETY: `addr` is a live, initialised sockaddr_un of the length passed.
    let rc = unsafe { libc::connect(fd.as_raw_fd(), (&raw const addr).cast(), len) };
    (rc == 0).then(|| UnixStream::from(fd))
}

/// A server whose accept queue is full (hung, or overwhelmed) must not hang the client: the
/// timeout covers connecting too, and the error is one the fallback takes over from.
#[test]
fn connecting_to_a_full_accept_queue_times_out() {
    let d = TempDir::new();
    let sock = d.path("full.sock");
    let _listener = unaccepting_listener(&sock);
    let mut queued = Vec::new();
    while let Some(s) = connect_nonblocking(&sock) {
        queued.push(s);
        assert!(queued.len() < 64, "the backlog of 1 never filled");
    }
    assert!(!queued.is_empty());
    let (tx, rx) = std::sync::mpsc::channel();
    let s2 = sock.clone();
    std::thread::spawn(move || {
        let direct = Connection::connect(&s2, Duration::from_millis(200)).map(|_| ());
        let cfg = ClientConfig::new(&s2).timeout(Duration::from_millis(200));
        let fallback = SystemGenerator::new(cfg)
            .next(TimeVersion::V7)
            .map(|g| g.source);
        let _ = tx.send((direct, fallback));
    });
    let (direct, fallback) = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("connecting to a full queue hung instead of timing out");
    let e = direct.unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ServiceErrorKind::Unavailable | ServiceErrorKind::Io
        ),
        "{e}"
    );
    assert!(e.is_unreachable(), "{e}");
    assert!(e.to_string().contains("full.sock"), "{e}");
    assert!(e.to_string().contains("not accepting connections"), "{e}");
    assert_eq!(fallback.unwrap(), Source::Local);
}

#[test]
fn a_socket_path_too_long_for_an_address_is_a_clear_error() {
    let long = PathBuf::from(format!("/tmp/{}.sock", "x".repeat(200)));
    let e = Connection::connect(&long, Duration::from_secs(1)).unwrap_err();
    assert_eq!(e.kind(), ServiceErrorKind::Unavailable);
    assert!(e.to_string().contains("210 bytes long"), "{e}");
    let e = Connection::connect("/tmp/a\0b.sock", Duration::from_secs(1)).unwrap_err();
    assert!(e.to_string().contains("NUL"), "{e}");
}

/// A stand-in server on `sock` that answers the request of each of `replies.len()` connections,
/// in turn, with the next whole reply frame.
fn stand_in(sock: &Path, replies: Vec<Vec<u8>>) -> JoinHandle<()> {
    let listener = UnixListener::bind(sock).unwrap();
    std::thread::spawn(move || {
        for reply in replies {
            let (mut s, _) = listener.accept().unwrap();
            let mut req = [0u8; 12];
            s.read_exact(&mut req).unwrap();
            s.write_all(&reply).unwrap();
        }
    })
}

/// The client checks every reply: no more UUIDs than asked for, of the version asked, in
/// increasing order; a reply that breaks any of that is a protocol error and leaves the
/// caller's vector as it was. `fill` reports the same error (without fallback).
#[test]
fn replies_that_break_the_protocol_are_refused() {
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let mut v7 = [Uuid::NIL; 3];
    uuidkit::generator::global::v7_batch(&mut v7);
    let frame = |v, u: &[Uuid]| {
        let mut f = Vec::new();
        uuids_frame(v, true, u, &mut f);
        f
    };
    // v7[1] made a v8: still greater than v7[0], but not a v7.
    let mut v8 = v7[1].as_bytes().to_owned();
    v8[6] = (v8[6] & 0x0f) | 0x80;
    let bad = [
        (frame(TimeVersion::V7, &v7), "3 UUIDs in 48 bytes"),
        (frame(TimeVersion::V6, &v7[..2]), "reply for version 6"),
        (frame(TimeVersion::V7, &[v7[1], v7[0]]), "increasing order"),
        (
            frame(TimeVersion::V7, &[v7[0], Uuid::from_bytes(v8)]),
            "increasing order",
        ),
    ];
    let mut replies: Vec<Vec<u8>> = bad.iter().map(|(f, _)| f.clone()).collect();
    replies.push(frame(TimeVersion::V7, &v7[..2]));
    replies.push(frame(TimeVersion::V7, &[v7[1], v7[0]]));
    let server = stand_in(&sock, replies);
    for (_, want) in &bad {
        let mut out = vec![Uuid::MAX];
        let e = connect(&sock)
            .generate(TimeVersion::V7, 2, &mut out)
            .unwrap_err();
        assert_eq!(e.kind(), ServiceErrorKind::Protocol, "{e}");
        assert!(e.to_string().contains(want), "{e}");
        assert_eq!(out, [Uuid::MAX], "a refused reply adds nothing");
    }
    let mut out = vec![Uuid::MAX];
    let s = connect(&sock)
        .generate(TimeVersion::V7, 2, &mut out)
        .unwrap();
    assert_eq!(
        (s, &out[..]),
        (Safety::Durable, &[Uuid::MAX, v7[0], v7[1]][..])
    );
    let generator = SystemGenerator::new(ClientConfig::new(&sock).fallback(false));
    let e = generator
        .fill(TimeVersion::V7, &mut [Uuid::NIL; 2])
        .unwrap_err();
    assert_eq!(e.kind(), ServiceErrorKind::Protocol, "{e}");
    server.join().unwrap();
}

#[test]
fn a_forked_child_does_not_reuse_the_parents_cached_block() {
    let d = TempDir::new();
    let r = start(&d);
    let generator = SystemGenerator::new(ClientConfig::new(&r.sock).block(64));
    let first = generator.next(TimeVersion::V7).unwrap();
    assert_eq!(first.source, Source::Service);
    let mut fds = [0i32; 2];
    // SAFETY: a writable array of two ints.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child uses the client (no threads) and ends with _exit.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let mut msg = [0u8; 17];
        if let Ok(g) = generator.next(TimeVersion::V7) {
            msg[..16].copy_from_slice(g.uuid.as_bytes());
            msg[16] = u8::from(g.source == Source::Service);
        }
        // SAFETY: the pipe's write end; `msg` is live.
        unsafe { libc::write(fds[1], msg.as_ptr().cast(), msg.len()) };
        // SAFETY: ends the child without destructors.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: the parent's copy of the write end.
    unsafe { libc::close(fds[1]) };
    // SAFETY: the read end, owned by the File from here on.
    let mut rd = unsafe { <fs::File as std::os::fd::FromRawFd>::from_raw_fd(fds[0]) };
    let mut msg = Vec::new();
    rd.read_to_end(&mut msg).unwrap();
    let mut status = 0;
    // SAFETY: waits for our child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(msg.len(), 17);
    assert_eq!(msg[16], 1, "the child got its UUID from the service");
    let child = Uuid::from_bytes(msg[..16].try_into().unwrap());
    // The parent goes on with its cached block; the child's UUID is in none of it, and
    // (a new block, issued later) greater than all of it.
    let mut parent = Vec::new();
    for _ in 0..63 {
        let g = generator.next(TimeVersion::V7).unwrap();
        parent.push(g.uuid);
    }
    assert!(!parent.contains(&child));
    assert!(parent.iter().all(|u| *u < child));
    // And the parent's connection still works after the child closed its copy.
    assert_eq!(
        generator.next(TimeVersion::V7).unwrap().source,
        Source::Service
    );
    r.stop().unwrap();
}

#[test]
fn public_types_are_send_and_sync_where_they_should_be() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<DurableGenerator>();
    send::<Connection>();
    send_sync::<SystemGenerator>();
    send_sync::<ShutdownHandle>();
    send_sync::<uuidkit_service::client::ServiceError>();
    send_sync::<uuidkit_service::state::StateError>();
    send::<Server>();
}

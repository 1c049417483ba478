//! A child forked while another thread of the parent is inside the process-wide client
//! ([`SystemGenerator::next`] or [`SystemGenerator::fill`], holding its lock, waiting for the
//! service's reply) must carry on on its own: a fresh connection, no cache, no wait on the
//! lock that the vanished thread held.
//!
//! A stand-in service (of protocol 1, so that the UUIDs travel and can be compared) holds its
//! reply to the parent's thread until the test lets it go, and answers any later request (the
//! child's) at once. The parent waits for the child's
//! answer with a bound; a child that does not answer within it is killed and the test fails.
#![cfg(target_os = "linux")]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::os::unix::net::UnixListener;
use std::sync::mpsc;
use std::time::Duration;

use uuidkit::Uuid;
use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
use uuidkit_service::protocol::{error_frame, uuids_frame, Status};
use uuidkit_service::state::TimeVersion;

use uuidkit_test_support::TempDir;

/// How long the parent waits for the child's answer before calling it hung. Generous: the
/// child only connects to a local socket and reads one reply.
const CHILD_BOUND: Duration = Duration::from_secs(30);

/// A whole reply frame carrying `uuids` (v7, durable).
fn frame(uuids: &[Uuid]) -> Vec<u8> {
    let mut f = Vec::new();
    uuids_frame(TimeVersion::V7, true, uuids, &mut f);
    f
}

/// Which call the parent's thread is inside at the fork, and which the child makes.
#[derive(Clone, Copy, Debug)]
enum Call {
    Next,
    Fill,
}

fn call(g: &SystemGenerator, how: Call) -> Option<(Uuid, Source)> {
    match how {
        Call::Next => g.next(TimeVersion::V7).ok().map(|g| (g.uuid, g.source)),
        Call::Fill => {
            let mut out = [Uuid::NIL; 2];
            let f = g.fill(TimeVersion::V7, &mut out).ok()?;
            Some((out[0], f.source_of(0)))
        }
    }
}

fn child_carries_on_while_a_parent_thread_is_inside(how: Call) {
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let listener = UnixListener::bind(&sock).unwrap();
    let mut made = [Uuid::NIL; 4];
    uuidkit::generator::global::v7_batch(&mut made);
    let (for_parent, for_child) = (frame(&made[..2]), frame(&made[2..]));

    // The stand-in, a server of protocol 1 only: a range request (protocol 2) is refused with
    // BadProtocol and its connection closed, as such a server does, and the client asks again
    // for a list on a new connection. The first list request (the parent's thread) gets its
    // reply when `release` says so; every later one (the child's) at once.
    let (got_request, request_seen) = mpsc::channel::<()>();
    let (release, released) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        let mut held = false;
        let mut released = Some(released);
        let mut for_parent = Some(for_parent);
        while let Ok((mut s, _)) = listener.accept() {
            let mut req = [0u8; 12];
            if s.read_exact(&mut req).is_err() {
                continue;
            }
            if req[4] != 1 {
                let mut f = Vec::new();
                error_frame(Status::BadProtocol, 0, "protocol 1 only", &mut f);
                let _ = s.write_all(&f);
                continue;
            }
            if held {
                let _ = s.write_all(&for_child);
                continue;
            }
            held = true;
            let _ = got_request.send(());
            let (released, reply) = (released.take(), for_parent.take());
            std::thread::spawn(move || {
                if let (Some(r), Some(reply)) = (released, reply) {
                    let _ = r.recv();
                    let _ = s.write_all(&reply);
                }
            });
        }
    });
    let g = SystemGenerator::new(ClientConfig::new(&sock).block(2));
    std::thread::scope(|scope| {
        let inside = scope.spawn(|| call(&g, how));
        // The stand-in has the request: the thread is inside the call, holding the lock,
        // waiting for the reply.
        request_seen.recv().unwrap();

        let mut fds = [0i32; 2];
        // SAFETY: a writable array of two ints.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: fork(3) in a multi-threaded process: the child runs the client (whose
        // allocations fork(3) makes safe in glibc by resetting the allocator's locks) and
        // ends with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let mut msg = [0u8; 17];
            if let Some((uuid, source)) = call(&g, how) {
                msg[..16].copy_from_slice(uuid.as_bytes());
                msg[16] = 1 + u8::from(source == Source::Service);
            }
            // SAFETY: the pipe's write end; `msg` is live.
            unsafe { libc::write(fds[1], msg.as_ptr().cast(), msg.len()) };
            // SAFETY: ends the child without destructors or the harness.
            unsafe { libc::_exit(0) };
        }
        // SAFETY: the parent's copy of the write end.
        unsafe { libc::close(fds[1]) };

        let mut pfd = libc::pollfd {
            fd: fds[0],
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = CHILD_BOUND.as_millis() as libc::c_int;
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut pfd, 1, ms) };
        if ready != 1 {
            // SAFETY: our child; then reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            let mut status = 0;
            // SAFETY: waits for our child.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            let _ = release.send(());
            panic!(
                "{how:?}: the child did not answer within {CHILD_BOUND:?} (hung on the \
                 parent's lock?); killed"
            );
        }
        // SAFETY: the read end, owned by the File from here on.
        let mut rd = unsafe { File::from_raw_fd(fds[0]) };
        let mut msg = Vec::new();
        rd.read_to_end(&mut msg).unwrap();
        let mut status = 0;
        // SAFETY: waits for our child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert_eq!(msg.len(), 17, "{how:?}: the child sent {msg:?}");
        assert_eq!(
            msg[16], 2,
            "{how:?}: the child's UUID came from the service"
        );
        let child = Uuid::from_bytes(msg[..16].try_into().unwrap());
        // Its own connection's reply, not the parent's (whose reply was still held back).
        assert_eq!(child, made[2], "{how:?}: the child's UUID");

        release.send(()).unwrap();
        let parent = inside.join().unwrap();
        assert_eq!(
            parent,
            Some((made[0], Source::Service)),
            "{how:?}: the parent's thread finished its call"
        );
        println!("{how:?}: child answered with {child} while the parent's thread was inside");
    });
}

#[test]
fn a_child_forked_while_a_thread_is_inside_next_carries_on() {
    child_carries_on_while_a_parent_thread_is_inside(Call::Next);
}

#[test]
fn a_child_forked_while_a_thread_is_inside_fill_carries_on() {
    child_carries_on_while_a_parent_thread_is_inside(Call::Fill);
}

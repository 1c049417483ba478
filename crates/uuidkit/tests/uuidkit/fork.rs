//! Fork safety of the random sources (RFC 9562 §6.9): a forked child must not continue its
//! parent's keystream, even with keystream already buffered at the moment of the fork, however
//! it was made: `fork()` (which runs the `pthread_atfork` handlers), glibc's `_Fork()` and a
//! raw `clone` system call (which run none), and a grandchild.
//!
//! Each test forks the test process; the child generates into a buffer allocated before the
//! fork (so that it neither allocates nor panics), writes it to a pipe and `_exit`s; the parent
//! generates its own share, then reads the child's and compares.
//!
//! `UUIDKIT_FORK_COUNT` sets how many v4 UUIDs each side makes (default 100,000).

#![cfg(all(target_os = "linux", feature = "std"))]

use std::cell::RefCell;
use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::os::fd::FromRawFd;

use uuidkit::generator::{fork_generation, v4::v4, with_thread_rng, Csprng, RandomSource};
use uuidkit::{Uuid, Version};

fn count() -> usize {
    std::env::var("UUIDKIT_FORK_COUNT")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100_000)
}

/// Forks with the C library's `fork()`, which runs the `pthread_atfork` handlers.
fn libc_fork() -> libc::pid_t {
    // SAFETY: see `fork_with`: the child only runs what the tests give it, then `_exit`s.
    unsafe { libc::fork() }
}

/// Forks with glibc's `_Fork()` (POSIX.1-2024, glibc 2.34 and later), which runs no
/// `pthread_atfork` handler. Looked up at run time, so that the test binary also links with an
/// older glibc (where this test then fails, saying why).
fn underscore_fork() -> libc::pid_t {
    // SAFETY: a NUL-terminated symbol name looked up in the already loaded objects.
    let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"_Fork".as_ptr()) };
    assert!(
        !sym.is_null(),
        "this C library has no _Fork (glibc < 2.34?)"
    );
    // SAFETY: `_Fork` is declared `pid_t _Fork(void)`.
    let f: extern "C" fn() -> libc::pid_t = unsafe { std::mem::transmute(sym) };
    f()
}

/// Forks with the `clone` system call itself (flags `SIGCHLD`: a plain fork), past the C
/// library: no handler of any kind runs in the child.
fn raw_clone() -> libc::pid_t {
    // (flags, stack, ...) everywhere but s390x, which takes (stack, flags, ...).
    let (a, b) = if cfg!(target_arch = "s390x") {
        (0, libc::c_long::from(libc::SIGCHLD))
    } else {
        (libc::c_long::from(libc::SIGCHLD), 0)
    };
    // SAFETY: clone with only SIGCHLD and no new stack duplicates the calling thread like fork;
    // the child only runs what the tests give it, then `_exit`s.
    let r = unsafe { libc::syscall(libc::SYS_clone, a, b, 0usize, 0usize, 0usize) };
    r as libc::pid_t
}

/// Forks with `fork()`. The child runs `child` on a zeroed buffer of `len` bytes, sends the
/// buffer to the parent and exits; the parent runs `parent`, then returns its result with the
/// child's buffer.
fn fork_and_collect<R>(
    len: usize,
    child: impl FnOnce(&mut [u8]),
    parent: impl FnOnce() -> R,
) -> (R, Vec<u8>) {
    fork_with(libc_fork, len, child, parent)
}

/// [`fork_and_collect`] with another way of forking.
fn fork_with<R>(
    fork: fn() -> libc::pid_t,
    len: usize,
    child: impl FnOnce(&mut [u8]),
    parent: impl FnOnce() -> R,
) -> (R, Vec<u8>) {
    let mut child_buf = vec![0u8; len];
    let mut fds = [0i32; 2];
    // SAFETY: `fds` is a writable array of two `c_int`, as `pipe` requires.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe failed");
    let [read_fd, write_fd] = fds;

    // The child only touches memory it owns a copy of (the buffer allocated above, the
    // thread-local and global generator state), makes system calls (getrandom, write) and
    // leaves with `_exit`, never returning into the test harness. It does not allocate: after
    // `_Fork` or a raw clone, another test thread may have held the allocator's lock.
    let pid = fork();
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        child(&mut child_buf);
        let mut rest: &[u8] = &child_buf;
        let mut code = 0;
        while !rest.is_empty() {
            // SAFETY: `rest` is a valid, initialised slice and `write_fd` an open descriptor.
            let n = unsafe { libc::write(write_fd, rest.as_ptr().cast(), rest.len()) };
            if n <= 0 {
                code = 2;
                break;
            }
            rest = &rest[n as usize..];
        }
        // SAFETY: ends the child without running the parent's atexit handlers or destructors.
        unsafe { libc::_exit(code) };
    }

    // SAFETY: `write_fd` is open and owned here; the parent writes nothing.
    unsafe { libc::close(write_fd) };
    let result = parent();
    // SAFETY: `read_fd` is an open descriptor that nothing else owns; `File` closes it.
    let mut reader = unsafe { File::from_raw_fd(read_fd) };
    let mut got = vec![0u8; len];
    reader
        .read_exact(&mut got)
        .expect("the child sent less than expected");
    let mut status = 0;
    // SAFETY: `pid` is our child and `status` a writable `c_int`.
    let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(waited, pid, "waitpid failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child failed: status {status:#x}"
    );
    (result, got)
}

fn records(bytes: &[u8]) -> impl Iterator<Item = Uuid> + '_ {
    bytes
        .chunks_exact(16)
        .map(|c| Uuid::from_bytes(c.try_into().unwrap()))
}

#[test]
fn v4_parent_and_child_never_collide() {
    let n = count();
    // Warm up: seed the thread generator and leave keystream half-used in its buffer, which is
    // what a child would inherit and must not hand out again.
    let warm: Vec<Uuid> = (0..1_001).map(|_| v4()).collect();
    let gen_before = fork_generation();

    let (parent_ids, child_bytes) = fork_and_collect(
        8 + 16 * n,
        |buf| {
            let (head, body) = buf.split_at_mut(8);
            head.copy_from_slice(&fork_generation().to_le_bytes());
            for rec in body.chunks_exact_mut(16) {
                rec.copy_from_slice(v4().as_bytes());
            }
        },
        || (0..n).map(|_| v4()).collect::<Vec<_>>(),
    );

    let child_gen = u64::from_le_bytes(child_bytes[..8].try_into().unwrap());
    assert_eq!(
        fork_generation(),
        gen_before,
        "the parent's generation moved"
    );
    assert_ne!(child_gen, gen_before, "the child did not see the fork");

    let child_ids: Vec<Uuid> = records(&child_bytes[8..]).collect();
    assert_eq!(child_ids.len(), n);
    assert!(child_ids
        .iter()
        .all(|u| u.version() == Some(Version::Random)));
    // Without fork detection the child's first UUID would be the parent's next one.
    assert_ne!(child_ids[0], parent_ids[0]);

    let mut all: Vec<Uuid> = warm;
    all.extend_from_slice(&parent_ids);
    all.extend_from_slice(&child_ids);
    let total = all.len();
    all.sort_unstable();
    let dups = all.windows(2).filter(|w| w[0] == w[1]).count();
    println!(
        "fork: {total} v4 (warm-up 1001, parent {n}, child {n}), {dups} duplicates, \
         fork generation {gen_before} -> {child_gen} in the child"
    );
    assert_eq!(dups, 0);
}

/// Every 16-byte window of the child's stream, at any byte offset, against the parent's blocks:
/// catches a shared keystream even if the two streams were read from different offsets.
fn assert_disjoint(what: &str, parent: &[u8], child: &[u8]) {
    let blocks: HashSet<&[u8]> = parent.chunks_exact(16).collect();
    let shared = child.windows(16).filter(|w| blocks.contains(w)).count();
    println!(
        "fork raw stream ({what}): {} + {} bytes, {shared} shared 16-byte blocks",
        parent.len(),
        child.len()
    );
    assert_eq!(shared, 0, "{what}: parent and child share keystream");
}

#[test]
fn raw_streams_share_no_block() {
    const LEN: usize = 64 << 10;
    // Leave both generators mid-buffer at the fork.
    let owned = RefCell::new(Csprng::new().unwrap());
    let mut skip = [0u8; 100];
    owned.borrow_mut().fill_bytes(&mut skip);
    with_thread_rng(|r| r.fill_bytes(&mut skip));

    let ((parent_thread, parent_owned), child) = fork_and_collect(
        2 * LEN,
        |buf| {
            let (a, b) = buf.split_at_mut(LEN);
            with_thread_rng(|r| r.fill_bytes(a));
            owned.borrow_mut().fill_bytes(b);
        },
        || {
            let mut a = vec![0u8; LEN];
            let mut b = vec![0u8; LEN];
            with_thread_rng(|r| r.fill_bytes(&mut a));
            owned.borrow_mut().fill_bytes(&mut b);
            (a, b)
        },
    );
    let (child_thread, child_owned) = child.split_at(LEN);
    assert_ne!(child_thread, &[0u8; LEN][..], "the child sent nothing");
    assert_disjoint("thread Csprng", &parent_thread, child_thread);
    assert_disjoint("owned Csprng", &parent_owned, child_owned);
}

/// How many v4 each side of the handler-less forks makes: the report saw the child repeat the
/// parent's next 100 exactly.
const NEXT: usize = 100;

/// A child made without the C library's fork handlers: its first [`NEXT`] v4 and its v7 must
/// differ from the parent's next ones, and its fork generation from the parent's.
fn handlerless_child_does_not_repeat_the_parent(what: &str, fork: fn() -> libc::pid_t) {
    // Leave keystream buffered in the thread generator and a v7 millisecond in use: what a
    // child without fork detection would continue.
    let warm: Vec<Uuid> = (0..37).map(|_| v4()).collect();
    let last_v7 = uuidkit::generator::global::v7();
    let gen_before = fork_generation();

    let ((parent_v4, parent_v7), child_bytes) = fork_with(
        fork,
        8 + 16 * (NEXT + 1),
        |buf| {
            let (head, body) = buf.split_at_mut(8);
            head.copy_from_slice(&fork_generation().to_le_bytes());
            let (ids, v7) = body.split_at_mut(16 * NEXT);
            for rec in ids.chunks_exact_mut(16) {
                rec.copy_from_slice(v4().as_bytes());
            }
            v7.copy_from_slice(uuidkit::generator::global::v7().as_bytes());
        },
        || {
            let ids: Vec<Uuid> = (0..NEXT).map(|_| v4()).collect();
            (ids, uuidkit::generator::global::v7())
        },
    );

    let child_gen = u64::from_le_bytes(child_bytes[..8].try_into().unwrap());
    let child_all: Vec<Uuid> = records(&child_bytes[8..]).collect();
    let (child_v4, child_v7) = (&child_all[..NEXT], child_all[NEXT]);
    assert!(child_v4
        .iter()
        .all(|u| u.version() == Some(Version::Random)));
    assert_eq!(child_v7.version_num(), 7);
    let parent_set: HashSet<Uuid> = parent_v4.iter().chain(&warm).copied().collect();
    let repeated = child_v4.iter().filter(|u| parent_set.contains(u)).count();
    println!(
        "{what}: child's {NEXT} v4 vs parent's: {repeated} repeated; v7 parent {parent_v7}, \
         child {child_v7} (last before the fork {last_v7}); fork generation {gen_before} -> \
         {child_gen} in the child"
    );
    assert_eq!(repeated, 0, "{what}: the child repeated the parent's v4");
    assert_ne!(
        child_v7, parent_v7,
        "{what}: the child repeated the parent's v7"
    );
    assert!(child_v7 > last_v7, "{what}: the child's v7 went back");
    assert_ne!(
        child_gen, gen_before,
        "{what}: the child did not see the fork"
    );
    assert_eq!(
        fork_generation(),
        gen_before,
        "the parent's generation moved"
    );
}

#[test]
fn a_child_of_underscore_fork_does_not_repeat_the_parent() {
    handlerless_child_does_not_repeat_the_parent("_Fork", underscore_fork);
}

#[test]
fn a_child_of_a_raw_clone_does_not_repeat_the_parent() {
    handlerless_child_does_not_repeat_the_parent("raw clone", raw_clone);
}

/// The same check through `fork()` (with its handlers), and through a grandchild made without
/// them: the page that tells a child from its parent must also tell a grandchild from a child.
#[test]
fn children_of_fork_and_grandchildren_do_not_repeat_their_parent() {
    handlerless_child_does_not_repeat_the_parent("fork", libc_fork);
    let ((), status) = fork_and_collect(
        1,
        |status| {
            // In the child: run the whole check against a raw-clone grandchild; report a
            // failure (a panic) as a 1 rather than unwinding into the harness.
            let ok = std::panic::catch_unwind(|| {
                handlerless_child_does_not_repeat_the_parent("raw clone of a child", raw_clone)
            })
            .is_ok();
            status[0] = u8::from(ok);
        },
        || (),
    );
    assert_eq!(
        status,
        [1],
        "the check failed in the child (its output is above)"
    );
}

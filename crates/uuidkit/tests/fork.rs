//! Fork safety of the random sources (RFC 9562 §6.9): a forked child must not continue its
//! parent's keystream, even with keystream already buffered at the moment of the fork.
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

use uuidkit::gen::{fork_generation, v4::v4, with_thread_rng, Csprng, RandomSource};
use uuidkit::{Uuid, Version};

fn count() -> usize {
    std::env::var("UUIDKIT_FORK_COUNT")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100_000)
}

/// Forks. The child runs `child` on a zeroed buffer of `len` bytes, sends the buffer to the
/// parent and exits; the parent runs `parent`, then returns its result with the child's buffer.
fn fork_and_collect<R>(
    len: usize,
    child: impl FnOnce(&mut [u8]),
    parent: impl FnOnce() -> R,
) -> (R, Vec<u8>) {
    let mut child_buf = vec![0u8; len];
    let mut fds = [0i32; 2];
    // SAFETY: `fds` is a writable array of two `c_int`, as `pipe` requires.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe failed");
    let [read_fd, write_fd] = fds;

    // SAFETY: the child only touches memory it owns a copy of (the buffer allocated above, the
    // thread-local and global generator state), makes system calls (getrandom, write) and
    // leaves with `_exit`, never returning into the test harness.
    let pid = unsafe { libc::fork() };
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

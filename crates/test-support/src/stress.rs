//! The stress runs, shared by uuidkit's `examples/stress.rs` (the big runs of `scripts/stress`)
//! and its `stress` test module (the same code at a size CI can afford). Everything is counted and
//! returned, not asserted, so that the script can print figures; the callers judge them.
//!
//! - [`v7_fork_threads`]: the process-wide `uuidkit::v7()` / `v7_batch()` in forked processes,
//!   each running several threads, every UUID written as a raw 16-byte record to one file per
//!   thread; each thread checks its own stream is strictly increasing.
//! - [`count_duplicates`]: loads every record, sorts them (an in-memory LSD radix sort, 16 bytes
//!   per UUID, no hash set) and counts equal neighbours.
//! - [`clock_run`]: a per-instance generator on a frozen, stepped or jittering clock, checking
//!   that every UUID is strictly greater than the one before.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use uuidkit::generator::{
    Clock, FixedClock, GregorianBuilder, SeqRandom, StepClock, V7Builder, V7Method,
};
use uuidkit::{Timestamp, Uuid};

/// What [`v7_fork_threads`] did.
#[derive(Debug, Default, Clone)]
pub struct ForkReport {
    /// UUIDs written, over all processes and threads (and the parent's, before the forks).
    pub generated: u64,
    /// Places where a thread's UUID was not greater than its previous one.
    pub out_of_order: u64,
    /// Children that did not exit with status 0.
    pub failed_children: u64,
    /// The record files.
    pub files: Vec<PathBuf>,
}

/// Writes `uuids` as raw records and returns how many were not greater than their predecessor.
fn write_and_check(w: &mut impl Write, prev: &mut Uuid, uuids: &[Uuid]) -> io::Result<u64> {
    let mut bad = 0;
    for u in uuids {
        if *u <= *prev {
            bad += 1;
        }
        *prev = *u;
        w.write_all(u.as_bytes())?;
    }
    Ok(bad)
}

/// One thread's share: `n` UUIDs from `v7()` (even threads) or `v7_batch` (odd threads) into
/// `path`; returns the out-of-order count.
fn thread_share(path: &Path, n: u64, batch: bool) -> io::Result<u64> {
    let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let mut prev = Uuid::NIL;
    let mut bad = 0;
    let mut left = n;
    let mut buf = vec![Uuid::NIL; 1024];
    while left > 0 {
        let k = left.min(buf.len() as u64) as usize;
        if batch {
            uuidkit::v7_batch(&mut buf[..k]);
        } else {
            for slot in &mut buf[..k] {
                *slot = uuidkit::v7();
            }
        }
        bad += write_and_check(&mut w, &mut prev, &buf[..k])?;
        left -= k as u64;
    }
    w.flush()?;
    Ok(bad)
}

/// `procs` forked processes × `threads` threads × `per_thread` v7 UUIDs, into `dir`.
///
/// The parent makes 1,000 UUIDs before forking (so that every child inherits a used
/// generator state and must not continue it) and writes them too. A child reports its
/// out-of-order count in its exit status (0 = none, 1 = some, 2 = an I/O error).
pub fn v7_fork_threads(
    dir: &Path,
    procs: usize,
    threads: usize,
    per_thread: u64,
) -> io::Result<ForkReport> {
    std::fs::create_dir_all(dir)?;
    let mut report = ForkReport::default();
    let parent_path = dir.join("parent.bin");
    let mut w = BufWriter::new(File::create(&parent_path)?);
    let mut prev = Uuid::NIL;
    let before: Vec<Uuid> = (0..1000).map(|_| uuidkit::v7()).collect();
    report.out_of_order += write_and_check(&mut w, &mut prev, &before)?;
    w.flush()?;
    drop(w);
    report.generated += before.len() as u64;
    report.files.push(parent_path);

    let mut children = Vec::new();
    for p in 0..procs {
        let paths: Vec<PathBuf> = (0..threads)
            .map(|t| dir.join(format!("p{p}-t{t}.bin")))
            .collect();
        report.files.extend(paths.iter().cloned());
        // SAFETY: fork has no memory-safety preconditions. The child only runs Rust code that
        // glibc makes fork-safe (malloc is reset by its atfork handlers; the stress callers
        // fork from one thread) and leaves with `_exit`, never returning into the caller.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            let code = match child(&paths, per_thread) {
                Ok(0) => 0,
                Ok(_) => 1,
                Err(_) => 2,
            };
            // SAFETY: ends the child at once, without running the parent's exit handlers or
            // destructors a second time.
            unsafe { libc::_exit(code) };
        }
        children.push(pid);
    }
    for pid in children {
        let mut status = 0;
        // SAFETY: `status` is a valid out-pointer; `pid` is our own child.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
            report.failed_children += 1;
            if r == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 1 {
                report.out_of_order += 1;
            }
        }
    }
    report.generated += procs as u64 * threads as u64 * per_thread;
    Ok(report)
}

fn child(paths: &[PathBuf], per_thread: u64) -> io::Result<u64> {
    std::thread::scope(|s| {
        let handles: Vec<_> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| s.spawn(move || thread_share(p, per_thread, i % 2 == 1)))
            .collect();
        let mut bad = 0;
        for h in handles {
            bad += h
                .join()
                .map_err(|_| io::Error::other("thread panicked"))??;
        }
        Ok(bad)
    })
}

/// Sorts 128-bit keys in place with a least-significant-digit radix sort, 16 bits per pass
/// (8 passes, one scratch buffer of the same size).
pub fn radix_sort(v: &mut Vec<u128>) {
    let mut tmp = vec![0u128; v.len()];
    for pass in 0..8 {
        let shift = pass * 16;
        let mut counts = vec![0usize; 1 << 16];
        for &x in v.iter() {
            counts[((x >> shift) & 0xffff) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &x in v.iter() {
            let d = ((x >> shift) & 0xffff) as usize;
            tmp[counts[d]] = x;
            counts[d] += 1;
        }
        std::mem::swap(v, &mut tmp);
    }
}

/// Loads every 16-byte record of `files`, sorts them and counts equal neighbours: returns
/// (records, duplicates, files whose length is not a multiple of 16).
pub fn count_duplicates(files: &[PathBuf]) -> io::Result<(u64, u64, u64)> {
    let mut total = 0u64;
    for f in files {
        total += std::fs::metadata(f)?.len() / 16;
    }
    let mut all: Vec<u128> = Vec::with_capacity(total as usize);
    let mut torn = 0;
    for f in files {
        let mut bytes = Vec::new();
        File::open(f)?.read_to_end(&mut bytes)?;
        if bytes.len() % 16 != 0 {
            torn += 1;
        }
        all.extend(
            bytes
                .chunks_exact(16)
                .map(|c| u128::from_be_bytes(c.try_into().unwrap_or([0; 16]))),
        );
    }
    radix_sort(&mut all);
    let dups = all.windows(2).filter(|w| w[0] == w[1]).count() as u64;
    Ok((all.len() as u64, dups, torn))
}

/// A clock that moves forward by `step_nanos` per reading and adds a pseudo-random jitter of
/// up to ±`jitter_nanos` to every reading (so that readings often go backwards a little).
pub struct JitterClock {
    base: AtomicU64,
    state: AtomicU64,
    step_nanos: u64,
    jitter_nanos: u64,
}

impl JitterClock {
    /// Starting at `start_nanos` (Unix, positive).
    pub fn new(start_nanos: u64, step_nanos: u64, jitter_nanos: u64, seed: u64) -> JitterClock {
        JitterClock {
            base: AtomicU64::new(start_nanos),
            state: AtomicU64::new(seed | 1),
            step_nanos,
            jitter_nanos,
        }
    }
}

impl Clock for JitterClock {
    fn now(&self) -> Timestamp {
        let base = self.base.fetch_add(self.step_nanos, Ordering::Relaxed);
        let mut x = self.state.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state.store(x, Ordering::Relaxed);
        let span = 2 * self.jitter_nanos + 1;
        let t = i128::from(base) + i128::from(x % span) - i128::from(self.jitter_nanos);
        Timestamp::from_unix_nanos(t).unwrap_or(Timestamp::UNIX_EPOCH)
    }
}

/// The clocks of [`clock_run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockKind {
    /// Never moves.
    Frozen,
    /// Moves 250 ns per reading.
    Stepped,
    /// Moves 1 µs per reading with ±5 ms of jitter (within the 10 s regression threshold).
    Jitter,
}

impl ClockKind {
    /// Every clock, in the order the runs report them.
    pub const ALL: [ClockKind; 3] = [ClockKind::Frozen, ClockKind::Stepped, ClockKind::Jitter];
}

/// The generators of [`clock_run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenKind {
    /// v7 Method 1, 42-bit counter (the default).
    V7Counter42,
    /// v7 Method 1, 12-bit counter (overflows into the next millisecond on a frozen clock).
    V7Counter12,
    /// v7 Method 2 with the default 32-bit increment.
    V7Monotonic,
    /// v7 Method 3, 12 fraction bits and a 14-bit counter.
    V7SubMillis,
    /// v6 (a clock reading's ticks, then one tick ahead each).
    V6,
    /// v1 (ordered by its timestamp).
    V1,
}

impl GenKind {
    /// Every generator, in the order the runs report them.
    pub const ALL: [GenKind; 6] = [
        GenKind::V7Counter42,
        GenKind::V7Counter12,
        GenKind::V7Monotonic,
        GenKind::V7SubMillis,
        GenKind::V6,
        GenKind::V1,
    ];
}

/// What [`clock_run`] saw.
#[derive(Debug, Default, Clone, Copy)]
pub struct ClockReport {
    /// UUIDs made.
    pub generated: u64,
    /// UUIDs not strictly greater than the one before (v1: by timestamp).
    pub not_increasing: u64,
    /// Calls that returned an error.
    pub errors: u64,
    /// How far the last UUID's time ran ahead of the clock's last reading, in milliseconds.
    pub ahead_ms: i128,
}

const START: u64 = 1_645_539_742_000_000_000;

/// `n` UUIDs from `gen` on `clock`, in batches of 64 every fourth round.
pub fn clock_run(clock: ClockKind, g: GenKind, n: u64, seed: u64) -> ClockReport {
    match clock {
        ClockKind::Frozen => run_on(
            &FixedClock::new(
                Timestamp::from_unix_nanos(i128::from(START)).unwrap_or(Timestamp::UNIX_EPOCH),
            ),
            g,
            n,
            seed,
        ),
        ClockKind::Stepped => run_on(
            &StepClock::new(
                Timestamp::from_unix_nanos(i128::from(START)).unwrap_or(Timestamp::UNIX_EPOCH),
            )
            .with_auto_step(250),
            g,
            n,
            seed,
        ),
        ClockKind::Jitter => run_on(&JitterClock::new(START, 1_000, 5_000_000, seed), g, n, seed),
    }
}

fn run_on<C: Clock>(clock: &C, g: GenKind, n: u64, seed: u64) -> ClockReport {
    let rng = SeqRandom::new(seed);
    let key_v1 = |u: &Uuid| u128::from(u.gregorian_ticks().unwrap_or(0));
    let key_all = |u: &Uuid| u.as_u128();
    let v7 = |m: V7Method| {
        V7Builder::new()
            .method(m)
            .build(clock, SeqRandom::new(seed))
    };
    let mut report = ClockReport::default();
    let mut last = Uuid::NIL;
    let mut batch = vec![Uuid::NIL; 64];
    macro_rules! drive {
        ($g:expr, $key:expr) => {{
            let mut g = $g;
            let mut prev_key = 0u128;
            let mut round = 0u64;
            while report.generated < n {
                round += 1;
                let k = if round % 4 == 0 { 64 } else { 1 };
                let out = &mut batch[..k];
                let r = if k == 1 {
                    g.next().map(|u| out[0] = u)
                } else {
                    g.fill(out)
                };
                if r.is_err() {
                    // The first error ends the run: retrying a generator that keeps failing
                    // would loop for ever instead of reporting it (the callers require none).
                    report.errors += 1;
                    break;
                }
                for u in out.iter() {
                    let key = $key(u);
                    if key <= prev_key {
                        report.not_increasing += 1;
                    }
                    prev_key = key;
                }
                report.generated += k as u64;
                last = out[k - 1];
            }
        }};
    }
    match g {
        GenKind::V7Counter42 => match v7(V7Method::Counter { bits: 42 }) {
            Ok(g) => drive!(g, key_all),
            Err(_) => report.errors += 1,
        },
        GenKind::V7Counter12 => match v7(V7Method::Counter { bits: 12 }) {
            Ok(g) => drive!(g, key_all),
            Err(_) => report.errors += 1,
        },
        GenKind::V7Monotonic => match v7(V7Method::monotonic_random()) {
            Ok(g) => drive!(g, key_all),
            Err(_) => report.errors += 1,
        },
        GenKind::V7SubMillis => match v7(V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 14,
        }) {
            Ok(g) => drive!(g, key_all),
            Err(_) => report.errors += 1,
        },
        GenKind::V6 => match GregorianBuilder::new().build_v6(clock, rng) {
            Ok(g) => drive!(g, key_all),
            Err(_) => report.errors += 1,
        },
        GenKind::V1 => match GregorianBuilder::new().build_v1(clock, rng) {
            Ok(g) => drive!(g, key_v1),
            Err(_) => report.errors += 1,
        },
    }
    if let (Some(t), Some(now)) = (last.timestamp(), Some(clock.now())) {
        report.ahead_ms = (t.unix_nanos() - now.unix_nanos()) / 1_000_000;
    }
    report
}

//! Random sources: the default fork-safe CSPRNG (RFC 9562 §6.9), its thread-local handle, the
//! operating system's generator, and deterministic sources for tests.
//!
//! # The default generator
//!
//! [`Csprng`] is ChaCha8 keyed from the OS (`getrandom`) and used with *fast key erasure*: each
//! refill of its keystream buffer (4 KiB) spends the first 32 bytes as the key of the next refill,
//! and every byte handed out is wiped from the buffer. Whoever later reads the generator's memory
//! therefore cannot recover output it already gave (backtracking resistance). In addition, after
//! every 1 MiB of output fresh OS entropy is mixed into the key, so that a state that leaked
//! once stops predicting the output. A UUID costs a copy of 16 bytes from the buffer, no system
//! call. A request of a refill's worth or more (bulk fills: the `arrow` feature's v4 columns)
//! takes each refill straight into its own memory instead: the next key from the refill's first
//! block, the rest of the keystream written into the request, the same key erasure with no copy
//! or wipe of the buffer.
//!
//! # Fork safety
//!
//! §6.9 asks that the CSPRNG state be reseeded when the process forks: otherwise parent and
//! child continue the same keystream and produce the same UUIDs. The process-wide *fork
//! generation* ([`fork_generation`]) tells a child from its parent: each [`Csprng`] remembers
//! the generation it was seeded in and, when it reads another one (one atomic load per draw),
//! wipes its buffer and reseeds from the OS. Generators that cache other state (v1 clock
//! sequences, v7 counters, a client's block of UUIDs) use [`fork_generation`] the same way.
//!
//! Where the current generation lives, set up once per process by [`ensure_fork_detection`]:
//!
//! - **Linux ≥ 4.14, FreeBSD ≥ 12, OpenBSD, NetBSD:** in a word on a page the kernel zeroes in
//!   the child of *every* fork (`MADV_WIPEONFORK`; `minherit` with "inherit zero"). The word is
//!   never zero in a process that has read it, so a zero means "copied into a child": the first
//!   reader there writes a new generation, drawn from a counter that is always at least the
//!   word's value, so it differs from the parent's. This covers `fork()`, glibc's `_Fork()`,
//!   raw `fork`/`clone` system calls and `vfork`-style children alike, with no handler to run.
//! - **Elsewhere (macOS, older kernels):** in a counter that a `pthread_atfork` child handler
//!   increments: `fork()` is covered, a child made without the C library's fork handlers
//!   (`_Fork()`, a raw system call) is not. If even the handler cannot be registered, every
//!   draw compares process ids.
//!
//! A child that shares its parent's memory (`vfork`, `posix_spawn`, `clone(CLONE_VM)`) runs no
//! code of ours before `exec` and is not a concern.
//!
//! Windows has no `fork()`: a new process starts from a
//! fresh image and seeds its own generators, so there is nothing to detect, and the fork
//! generation stays 0. WASM (WASI and `wasm32-unknown-unknown`) has no processes at all; a
//! host that snapshots and clones an instance's memory is outside what a library can see.

use core::cell::RefCell;
use core::fmt;
use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use super::RandomSource;

/// Bytes of keystream produced per refill; the first [`KEY_LEN`] of them key the next refill.
const BUF_LEN: usize = 4096;
const KEY_LEN: usize = 32;
/// Output after which fresh OS entropy is mixed into the key.
const RESEED_INTERVAL: usize = 1 << 20;
/// Requests of at least this many bytes (with the buffer empty) get the keystream written into
/// them directly: a refill's worth after its block of the next key.
const DIRECT_FROM: usize = BUF_LEN - 64;
/// Attempts at reading the OS generator before giving up (`getrandom` already retries `EINTR`).
const OS_ATTEMPTS: usize = 3;

// ---- fork detection ---------------------------------------------------------------------------

/// Never zero. With the atfork handler it is the current generation (the handler increments
/// it in every child); with a page zeroed in children it is where new generations are drawn
/// from, and is always at least the page word's value.
static FORK_COUNTER: AtomicU64 = AtomicU64::new(1);
/// Where the current generation is read: a word on a page zeroed in every child, or
/// [`FORK_COUNTER`]; null until [`ensure_fork_detection`] has run.
static GENERATION_WORD: AtomicPtr<AtomicU64> = AtomicPtr::new(core::ptr::null_mut());
/// Set when neither a zeroed page nor the atfork handler is available: generators then compare
/// process ids.
static FORK_HANDLER_FAILED: core::sync::atomic::AtomicBool =
    core::sync::atomic::AtomicBool::new(false);

/// The atfork child handler, used where there is no page zeroed in children. It runs in the
/// child between `fork()` and its return, where only async-signal-safe operations are allowed:
/// a lock-free atomic increment is one.
extern "C" fn on_fork_child() {
    FORK_COUNTER.fetch_add(1, Ordering::Relaxed);
}

/// The word that holds the current generation, set up on first use.
#[inline]
fn generation_word() -> &'static AtomicU64 {
    let p = GENERATION_WORD.load(Ordering::Acquire);
    if p.is_null() {
        return set_up_generation_word();
    }
    // SAFETY: only `set_up_generation_word` stores here, and only a `&'static AtomicU64`.
    unsafe { &*p }
}

/// Chooses the generation word: without a lock (a `Once` or a mutex that a thread vanished by
/// a fork held would leave the child waiting forever). Threads that race here each do the work
/// and the first to publish wins: a lost page stays mapped (one page), a second atfork
/// handler only makes the counter step by two.
#[cold]
#[inline(never)]
fn set_up_generation_word() -> &'static AtomicU64 {
    let word: &'static AtomicU64 = match crate::sys::zeroed_in_child_word() {
        Some(w) => w,
        None => {
            // SAFETY: `on_fork_child` does nothing but an async-signal-safe atomic increment.
            if !unsafe { crate::sys::register_fork_child(on_fork_child) } {
                FORK_HANDLER_FAILED.store(true, Ordering::Relaxed);
            }
            &FORK_COUNTER
        }
    };
    let ptr = (word as *const AtomicU64).cast_mut();
    match GENERATION_WORD.compare_exchange(
        core::ptr::null_mut(),
        ptr,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        Ok(_) => word,
        // SAFETY: the winner stored a `&'static AtomicU64`, as above.
        Err(winner) => unsafe { &*winner },
    }
}

/// The generation in `word`, or, if the word reads zero (a page wiped in a forked child, or
/// never written), a new one written there.
#[inline]
fn generation_in(word: &AtomicU64) -> u64 {
    match word.load(Ordering::Relaxed) {
        0 => new_generation(word),
        g => g,
    }
}

/// Writes a new generation into a zeroed word. The counter is raised *before* the word is
/// written, so that in every process the counter is at least the word's value: a child forked
/// at any point of this draws a value greater than its parent's generation.
#[cold]
#[inline(never)]
fn new_generation(word: &AtomicU64) -> u64 {
    let fresh = FORK_COUNTER.fetch_add(1, Ordering::SeqCst).wrapping_add(1);
    match word.compare_exchange(0, fresh, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => fresh,
        // Another thread of this process wrote first: its value is the generation.
        Err(current) => current,
    }
}

/// Sets up fork detection, once per process; later calls cost one atomic load.
///
/// [`Csprng::new`] and [`fork_generation`] call it, so generators built on them need not; a
/// generator that caches state without touching either should call it in its constructor, so
/// that detection is in place before the first fork that could copy that state (this matters
/// only where the `pthread_atfork` handler is the mechanism; see the [module docs](self)).
///
/// ```
/// uuidkit::generator::rng::ensure_fork_detection();
/// ```
pub fn ensure_fork_detection() {
    generation_word();
}

/// An identifier of the process's place in its fork history: it changes in the child of every
/// detected fork (see the [module docs](self) for which forks each platform detects) and stays
/// the same otherwise.
///
/// A value cached together with state that must differ between parent and child (a CSPRNG key,
/// a clock sequence, a counter) tells, when it differs from the current value, that the state
/// was inherited from a parent and must be renewed. Only equality is meaningful: the values
/// are not consecutive. Sets up fork detection on first use; lock-free, so it can be called in
/// a child forked while another thread was anywhere in this library.
///
/// ```
/// let g = uuidkit::generator::rng::fork_generation();
/// assert_eq!(uuidkit::generator::rng::fork_generation(), g); // no fork in between
/// ```
pub fn fork_generation() -> u64 {
    generation_in(generation_word())
}

// ---- errors -----------------------------------------------------------------------------------

/// The operating system's random number generator failed.
///
/// On Linux this needs a kernel without `getrandom(2)` and without `/dev/urandom`; in practice it
/// does not happen, but it is reported rather than hidden.
///
/// ```
/// use uuidkit::generator::rng::{OsRandom, RandomError};
/// // The error that seeding a generator or reading the OS can return; it is a std error.
/// fn session_key() -> Result<[u8; 32], Box<dyn std::error::Error>> {
///     let mut key = [0u8; 32];
///     OsRandom.try_fill(&mut key)?;
///     Ok(key)
/// }
/// assert_ne!(session_key()?, [0u8; 32]);
/// fn is_error<E: std::error::Error + Send + Sync + 'static>() {}
/// is_error::<RandomError>();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomError(getrandom::Error);

impl RandomError {
    /// The OS error code, when the failure came from a system call.
    ///
    /// A working OS generator cannot be made to fail from a test, so this example only shows how
    /// the code is read when it does:
    ///
    /// ```
    /// use uuidkit::generator::rng::OsRandom;
    /// let mut buf = [0u8; 16];
    /// match OsRandom.try_fill(&mut buf) {
    ///     Ok(()) => assert_ne!(buf, [0u8; 16]),
    ///     // An errno from a failed system call is positive; other failures carry none.
    ///     Err(e) => assert!(e.raw_os_error().map_or(true, |code| code > 0), "{e}"),
    /// }
    /// ```
    pub fn raw_os_error(&self) -> Option<i32> {
        self.0.raw_os_error()
    }
}

impl fmt::Display for RandomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the OS random number generator failed: {}", self.0)
    }
}

impl std::error::Error for RandomError {}

/// Fills `dest` from the OS, retrying a failing call a few times.
fn os_fill(dest: &mut [u8]) -> Result<(), RandomError> {
    let mut last = None;
    for _ in 0..OS_ATTEMPTS {
        match getrandom::fill(dest) {
            Ok(()) => return Ok(()),
            Err(e) => last = Some(e),
        }
    }
    match last {
        Some(e) => Err(RandomError(e)),
        None => Ok(()),
    }
}

/// Ends the process after a failure of the OS generator where no error can be returned.
///
/// Going on would mean producing "random" UUIDs from a known or inherited state, i.e.
/// duplicates; stopping loudly is the lesser harm.
#[cold]
fn os_failure(context: &str, e: RandomError) -> ! {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "uuidkit: {context}: {e}; aborting");
    std::process::abort()
}

// ---- the CSPRNG -------------------------------------------------------------------------------

/// The default random source: ChaCha8 with fast key erasure, seeded from the OS, reseeded
/// after a fork and every 1 MiB of output (RFC 9562 §6.9). See the [module docs](self).
///
/// Most code uses the per-thread instance through [`ThreadRng`], [`with_thread_rng`] or
/// [`crate::generator::v4::v4`]; an owned `Csprng` is for callers that keep their own.
///
/// ```
/// use uuidkit::generator::rng::Csprng;
/// use uuidkit::generator::RandomSource;
///
/// let mut a = Csprng::new()?;
/// let mut b = Csprng::new()?;
/// assert_ne!(a.next_u64(), b.next_u64());
/// # Ok::<(), uuidkit::generator::rng::RandomError>(())
/// ```
pub struct Csprng {
    key: [u8; KEY_LEN],
    /// Keystream; bytes before `pos` have been handed out (and wiped) or used as the next key.
    buf: [u8; BUF_LEN],
    pos: usize,
    /// Keystream bytes produced since the key last received OS entropy.
    since_reseed: usize,
    /// The fork generation the key was seeded in; [`NO_GENERATION`] when there is no fork
    /// detection (every call then takes the slow path and compares process ids) and in the
    /// unseeded thread-local state.
    generation: u64,
    /// The word the generation is read from (see [`generation_word`]), kept here so that the
    /// check on each draw is one load.
    fork_word: &'static AtomicU64,
    /// Process id at seeding; only consulted when the fork handler could not be registered.
    pid: u32,
    check_pid: bool,
    /// False only for the thread-local instance before its first use: it is seeded on its
    /// first refill, which keeps an "is it there yet?" test off the hot path.
    seeded: bool,
}

/// A fork generation no real one reaches (it would take 2^64 forks): makes the one comparison
/// of the hot path fail, so that the slow path decides.
const NO_GENERATION: u64 = u64::MAX;

impl Csprng {
    /// A generator seeded from the OS. Registers fork detection if not done yet.
    ///
    /// Fails only if the OS generator does.
    ///
    /// ```
    /// use uuidkit::generator::{rng::Csprng, SystemClock, V7Generator};
    /// // An owned generator as the random source of a UUID generator.
    /// let mut g = V7Generator::new(SystemClock, Csprng::new()?);
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert!(a < b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new() -> Result<Csprng, RandomError> {
        let mut rng = Csprng::unseeded();
        rng.reseed()?;
        Ok(rng)
    }

    /// The state of the thread-local instance before first use: no key, an empty buffer (so
    /// the first draw goes to [`Csprng::refill`], which seeds it) and a generation that sends
    /// the first draw through the fork check's slow path.
    const fn unseeded() -> Csprng {
        Csprng {
            key: [0; KEY_LEN],
            buf: [0; BUF_LEN],
            pos: BUF_LEN,
            since_reseed: 0,
            generation: NO_GENERATION,
            fork_word: &FORK_COUNTER,
            pid: 0,
            check_pid: false,
            seeded: false,
        }
    }

    /// Replaces the key with fresh OS entropy and discards the buffered keystream.
    ///
    /// Never needed for correctness (forks are detected and periodic reseeding is automatic);
    /// offered for callers with their own policy, e.g. after restoring from a VM snapshot.
    ///
    /// ```
    /// use uuidkit::generator::rng::Csprng;
    /// let mut rng = Csprng::new()?;
    /// let before = rng.next_16();
    /// rng.reseed()?; // e.g. after the VM was restored from a snapshot
    /// assert_ne!(rng.next_16(), before);
    /// # Ok::<(), uuidkit::generator::rng::RandomError>(())
    /// ```
    pub fn reseed(&mut self) -> Result<(), RandomError> {
        let word = generation_word();
        let mut key = [0u8; KEY_LEN];
        os_fill(&mut key)?;
        self.key = key;
        wipe(&mut key);
        self.buf.fill(0);
        self.pos = BUF_LEN;
        self.since_reseed = 0;
        self.check_pid = FORK_HANDLER_FAILED.load(Ordering::Relaxed);
        self.fork_word = word;
        self.generation = if self.check_pid {
            NO_GENERATION
        } else {
            generation_in(word)
        };
        self.pid = crate::sys::process_id();
        self.seeded = true;
        Ok(())
    }

    /// Reseeds if this state was copied into a forked child. One relaxed load and one
    /// comparison on the fast path: in a child the word reads zero (a wiped page) or a
    /// greater count (the atfork handler), never the generation seeded in.
    #[inline(always)]
    fn check_fork(&mut self) {
        if self.generation != self.fork_word.load(Ordering::Relaxed) {
            self.check_fork_slow();
        }
    }

    /// The generation differs: a fork happened, or this instance is unseeded, or there is no
    /// fork handler and the process id decides.
    #[cold]
    #[inline(never)]
    fn check_fork_slow(&mut self) {
        if !self.seeded {
            // Seeded by the first refill, which is where the empty buffer sends this draw.
            return;
        }
        if self.check_pid && self.pid == crate::sys::process_id() {
            return;
        }
        self.reseed_after_fork();
    }

    #[cold]
    #[inline(never)]
    fn reseed_after_fork(&mut self) {
        // Wipe first: even if the process is about to abort, the parent's keystream must not be
        // handed out here.
        self.buf.fill(0);
        self.pos = BUF_LEN;
        if let Err(e) = self.reseed() {
            os_failure("cannot reseed the CSPRNG in a forked child", e);
        }
    }

    /// Seeds an unseeded instance and mixes in OS entropy when the interval has passed: what
    /// every key change starts with.
    fn before_new_key(&mut self) {
        if !self.seeded {
            if let Err(e) = self.reseed() {
                os_failure("cannot seed the CSPRNG", e);
            }
        }
        if self.since_reseed >= RESEED_INTERVAL {
            // Mixing (rather than replacing) keeps the key as strong as the stronger of the two.
            // A failing OS generator is not fatal here: the key is still good, so try again
            // after the next interval.
            let mut fresh = [0u8; KEY_LEN];
            if os_fill(&mut fresh).is_ok() {
                for (k, f) in self.key.iter_mut().zip(fresh.iter()) {
                    *k ^= f;
                }
            }
            wipe(&mut fresh);
            self.since_reseed = 0;
        }
    }

    fn refill(&mut self) {
        self.before_new_key();
        // A fresh key per refill makes the all-zero nonce safe: no (key, nonce) pair repeats.
        super::chacha::keystream(&self.key, &mut self.buf);
        let (next_key, _) = self.buf.split_at_mut(KEY_LEN);
        self.key.copy_from_slice(next_key);
        next_key.fill(0);
        self.pos = KEY_LEN;
        // Counted here, per refill, rather than per byte handed out: the hot path stays free of
        // bookkeeping, and the interval is still measured in output.
        self.since_reseed += BUF_LEN - KEY_LEN;
    }

    /// A refill written straight into `dest` (at least [`DIRECT_FROM`] bytes) instead of the
    /// buffer, for large requests: the same keystream per key (`BUF_LEN` bytes, the next key
    /// first), with no copy and no wipe of a buffer. Returns the bytes written (whole blocks).
    fn refill_into(&mut self, dest: &mut [u8]) -> usize {
        self.before_new_key();
        let n = dest.len().min(DIRECT_FROM) / 64 * 64;
        let mut first = [0u8; 64];
        // The next key comes first, as in `refill`; the rest of its block is never used.
        super::chacha::keystream_split(&self.key, &mut first, &mut dest[..n]);
        self.key.copy_from_slice(&first[..KEY_LEN]);
        wipe(&mut first);
        self.since_reseed += n;
        n
    }

    /// Copies buffered keystream into `dest`, wiping what it hands out; large requests take
    /// the keystream straight from [`refill_into`](Self::refill_into).
    #[inline(never)]
    fn take(&mut self, dest: &mut [u8]) {
        let mut dest = dest;
        while !dest.is_empty() {
            if self.pos >= BUF_LEN {
                if dest.len() >= DIRECT_FROM {
                    let n = self.refill_into(dest);
                    dest = &mut dest[n..];
                    continue;
                }
                self.refill();
            }
            let avail = &mut self.buf[self.pos..];
            let n = avail.len().min(dest.len());
            let (out, rest) = dest.split_at_mut(n);
            out.copy_from_slice(&avail[..n]);
            avail[..n].fill(0);
            self.pos += n;
            dest = rest;
        }
    }

    /// `N` bytes of keystream, wiped from the buffer. The common case (they are all buffered)
    /// is a fixed-size copy and clear, inlined, with no loop and no `memcpy`/`memset` call.
    #[inline(always)]
    fn take_array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let pos = self.pos;
        match self.buf.get_mut(pos..pos + N) {
            Some(chunk) => {
                out.copy_from_slice(chunk);
                chunk.fill(0);
                self.pos = pos + N;
            }
            None => self.take(&mut out),
        }
        out
    }

    /// 16 random bytes: the cost of one v4 UUID.
    ///
    /// ```
    /// use uuidkit::generator::rng::Csprng;
    /// let mut rng = Csprng::new()?;
    /// let bytes = rng.next_16();
    /// assert_ne!(bytes, rng.next_16());
    /// let u = uuidkit::Uuid::new_v4_from_bytes(bytes);
    /// assert_eq!(u.version_num(), 4);
    /// # Ok::<(), uuidkit::generator::rng::RandomError>(())
    /// ```
    #[inline]
    pub fn next_16(&mut self) -> [u8; 16] {
        self.check_fork();
        self.take_array::<16>()
    }
}

impl RandomSource for Csprng {
    #[inline]
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.check_fork();
        let pos = self.pos;
        if dest.len() < 16 {
            if let Some(chunk) = self.buf.get_mut(pos..pos + dest.len()) {
                move_small(chunk, dest);
                self.pos = pos + dest.len();
                return;
            }
        }
        self.take(dest);
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.check_fork();
        u64::from_le_bytes(self.take_array::<8>())
    }
}

impl fmt::Debug for Csprng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The state is secret.
        f.debug_struct("Csprng").finish_non_exhaustive()
    }
}

impl Drop for Csprng {
    fn drop(&mut self) {
        wipe(&mut self.key);
        wipe(&mut self.buf);
    }
}

/// Moves fewer than 16 bytes from `src` to `dst` (same length), zeroing `src`: in pieces of
/// 1, 2, 4 and 8 bytes, each a fixed-size move, where a plain `copy_from_slice` of a variable
/// length would call `memcpy` and `memset` for a handful of bytes (the generators draw 2, 8 or
/// 10 at a time). Smallest piece first, so that a caller reading a short field and then a
/// word (as `rand74` does) loads exactly what one store wrote, which the CPU can forward.
#[inline(always)]
fn move_small(src: &mut [u8], dst: &mut [u8]) {
    let n = dst.len().min(src.len());
    let mut at = 0;
    macro_rules! piece {
        ($k:literal) => {
            if n & $k != 0 {
                if let (Some(d), Some(s)) = (dst.get_mut(at..at + $k), src.get_mut(at..at + $k)) {
                    d.copy_from_slice(s);
                    s.fill(0);
                }
                at += $k;
            }
        };
    }
    piece!(1);
    piece!(2);
    piece!(4);
    piece!(8);
    let _ = at;
}

/// Best-effort erasure of secret bytes: `black_box` keeps the compiler from proving the stores
/// dead (not a guarantee, but without a `zeroize` dependency the best safe Rust offers).
fn wipe(bytes: &mut [u8]) {
    bytes.fill(0);
    core::hint::black_box(bytes);
}

// ---- the thread-local instance ----------------------------------------------------------------

std::thread_local! {
    static THREAD_RNG: RefCell<Csprng> = const { RefCell::new(Csprng::unseeded()) };
}

fn seeded_or_abort() -> Csprng {
    match Csprng::new() {
        Ok(rng) => rng,
        Err(e) => os_failure("cannot seed the CSPRNG", e),
    }
}

/// Runs `f` with this thread's [`Csprng`], seeding it on first use.
///
/// No lock and no system call after the first use. If the OS generator fails when the
/// generator is first seeded (or reseeded in a forked child) the process is **aborted** with a
/// message on standard error: there is no error to return here, and continuing with a
/// predictable or inherited state would produce duplicate UUIDs. Use [`Csprng::new`] to handle
/// that failure instead.
///
/// A nested call from inside `f`, or a call during thread teardown, gets a freshly seeded
/// temporary generator rather than a panic.
///
/// ```
/// use uuidkit::generator::RandomSource;
/// let x = uuidkit::generator::rng::with_thread_rng(|rng| rng.next_u64());
/// let y = uuidkit::generator::rng::with_thread_rng(|rng| rng.next_u64());
/// assert_ne!(x, y);
/// ```
#[inline]
pub fn with_thread_rng<T>(f: impl FnOnce(&mut Csprng) -> T) -> T {
    let mut f = Some(f);
    let done = THREAD_RNG.try_with(|cell| {
        let mut rng = cell.try_borrow_mut().ok()?;
        // `f` is still there: it is only taken here, once.
        f.take().map(|f| f(&mut rng))
    });
    match done {
        Ok(Some(v)) => v,
        _ => with_temporary(f),
    }
}

/// A nested call, or a call during thread teardown: a freshly seeded temporary generator.
#[cold]
#[inline(never)]
fn with_temporary<T>(f: Option<impl FnOnce(&mut Csprng) -> T>) -> T {
    match f {
        Some(f) => f(&mut seeded_or_abort()),
        // `f` is taken only right before it is called and its result returned.
        None => unreachable!("thread RNG closure neither ran nor was returned"),
    }
}

/// A handle on the calling thread's [`Csprng`]: the default [`RandomSource`] of the generators.
///
/// Zero-sized and `Copy`; each call borrows the generator of the thread it runs on. Same failure
/// policy as [`with_thread_rng`].
///
/// ```
/// use uuidkit::generator::{rng::ThreadRng, RandomSource};
/// let mut rng = ThreadRng;
/// let mut key = [0u8; 32];
/// rng.fill_bytes(&mut key);
/// assert_ne!(key, [0u8; 32]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadRng;

impl RandomSource for ThreadRng {
    #[inline]
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        with_thread_rng(|rng| rng.fill_bytes(dest))
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        with_thread_rng(|rng| rng.next_u64())
    }
}

/// A random `u64` from this thread's [`Csprng`].
///
/// ```
/// assert_ne!(uuidkit::generator::rng::random_u64(), uuidkit::generator::rng::random_u64());
/// ```
#[inline]
pub fn random_u64() -> u64 {
    with_thread_rng(|rng| rng.next_u64())
}

/// Fills `dest` from this thread's [`Csprng`].
///
/// ```
/// let mut b = [0u8; 16];
/// uuidkit::generator::rng::fill_random(&mut b);
/// assert_ne!(b, [0u8; 16]);
/// ```
#[inline]
pub fn fill_random(dest: &mut [u8]) {
    with_thread_rng(|rng| rng.fill_bytes(dest))
}

// ---- the OS generator -------------------------------------------------------------------------

/// The operating system's generator, one `getrandom` call per request.
///
/// Simple and slow (a system call per UUID); fork-safe by construction. Through
/// [`RandomSource`] a failure aborts the process as for [`with_thread_rng`];
/// [`OsRandom::try_fill`] reports it instead.
///
/// ```
/// use uuidkit::generator::{rng::OsRandom, RandomSource};
/// let mut b = [0u8; 16];
/// OsRandom.try_fill(&mut b)?;
/// assert_ne!(b, [0u8; 16]);
/// # Ok::<(), uuidkit::generator::rng::RandomError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OsRandom;

impl OsRandom {
    /// Fills `dest` from the OS, or says why it could not.
    ///
    /// ```
    /// use uuidkit::generator::rng::OsRandom;
    /// let mut seed = [0u8; 64];
    /// OsRandom.try_fill(&mut seed)?;
    /// assert_ne!(seed, [0u8; 64]);
    /// OsRandom.try_fill(&mut [])?; // nothing asked, nothing read
    /// # Ok::<(), uuidkit::generator::rng::RandomError>(())
    /// ```
    pub fn try_fill(&self, dest: &mut [u8]) -> Result<(), RandomError> {
        os_fill(dest)
    }
}

impl RandomSource for OsRandom {
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        if let Err(e) = os_fill(dest) {
            os_failure("cannot read the OS random number generator", e);
        }
    }
}

// ---- deterministic sources for tests ----------------------------------------------------------

/// Replays given bytes in order; for reproducing spec examples and pinning generator output in
/// tests.
///
/// When the bytes run out it starts again from the first (it cannot fail through
/// [`RandomSource`]); [`consumed`](ReplayRandom::consumed) tells how many bytes were taken, so a
/// test can check that it did not wrap. An empty sequence yields zeros.
///
/// ```
/// use uuidkit::generator::{rng::ReplayRandom, RandomSource};
/// let mut r = ReplayRandom::new([1, 2, 3]);
/// let mut b = [0u8; 5];
/// r.fill_bytes(&mut b);
/// assert_eq!(b, [1, 2, 3, 1, 2]);
/// assert_eq!(r.consumed(), 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayRandom {
    bytes: Vec<u8>,
    pos: usize,
    consumed: u64,
}

impl ReplayRandom {
    /// A source replaying `bytes`.
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, RandomSource};
    /// let mut one = ReplayRandom::new(vec![0xAB]);
    /// assert_eq!(one.next_u64(), 0xABAB_ABAB_ABAB_ABAB); // the single byte, again and again
    /// let mut empty = ReplayRandom::new(Vec::new());
    /// let mut b = [1u8; 4];
    /// empty.fill_bytes(&mut b);
    /// assert_eq!(b, [0u8; 4]);
    /// ```
    pub fn new(bytes: impl Into<Vec<u8>>) -> ReplayRandom {
        ReplayRandom {
            bytes: bytes.into(),
            pos: 0,
            consumed: 0,
        }
    }

    /// Total bytes handed out so far (more than the sequence's length once it has wrapped).
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, v4::v4_from};
    /// let mut rng = ReplayRandom::new([7u8; 16]);
    /// let u = v4_from(&mut rng);
    /// assert_eq!(rng.consumed(), 16); // a v4 takes exactly 16 bytes: nothing was replayed twice
    /// assert_eq!(u.as_bytes()[0], 7);
    /// ```
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Bytes left before the sequence starts again.
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, RandomSource};
    /// let mut rng = ReplayRandom::new([1, 2, 3]);
    /// assert_eq!(rng.remaining(), 3);
    /// rng.fill_bytes(&mut [0u8; 2]);
    /// assert_eq!(rng.remaining(), 1);
    /// rng.fill_bytes(&mut [0u8; 2]); // the last byte, then the first again
    /// assert_eq!(rng.remaining(), 2);
    /// ```
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }
}

impl RandomSource for ReplayRandom {
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.consumed += dest.len() as u64;
        if self.bytes.is_empty() {
            dest.fill(0);
            return;
        }
        for d in dest.iter_mut() {
            if self.pos >= self.bytes.len() {
                self.pos = 0;
            }
            *d = self.bytes[self.pos];
            self.pos += 1;
        }
    }
}

/// A deterministic, well-mixed, *not* secure stream for tests: the SplitMix64 function applied
/// to a counter started at `seed`.
///
/// The same seed always gives the same bytes (little-endian `u64`s), on every platform.
///
/// ```
/// use uuidkit::generator::{rng::SeqRandom, RandomSource};
/// let (mut a, mut b) = (SeqRandom::new(7), SeqRandom::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(a.next_u64(), SeqRandom::new(8).next_u64());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeqRandom {
    counter: u64,
    /// Bytes of the last word not yet handed out, and how many.
    spare: [u8; 8],
    spare_len: usize,
}

impl SeqRandom {
    /// A stream starting at `seed`.
    ///
    /// ```
    /// use uuidkit::generator::{rng::SeqRandom, RandomSource};
    /// let mut rng = SeqRandom::new(0);
    /// // The first two SplitMix64 outputs from state 0, as published with the algorithm.
    /// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    /// assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    /// ```
    pub const fn new(seed: u64) -> SeqRandom {
        SeqRandom {
            counter: seed,
            spare: [0; 8],
            spare_len: 0,
        }
    }

    fn next_word(&mut self) -> u64 {
        // SplitMix64 (Steele, Lea, Flood 2014): Weyl sequence and a bijective finaliser.
        self.counter = self.counter.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.counter;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl RandomSource for SeqRandom {
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for d in dest.iter_mut() {
            if self.spare_len == 0 {
                self.spare = self.next_word().to_le_bytes();
                self.spare_len = 8;
            }
            *d = self.spare[8 - self.spare_len];
            self.spare_len -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large request takes each refill's keystream straight into itself: exactly the bytes
    /// after the refill's first block, with the next key taken from that block and never handed
    /// out; a small request afterwards continues from the buffer as before.
    #[test]
    fn a_large_request_gets_the_keystream_after_each_next_key() {
        let mut rng = Csprng::new().unwrap();
        // An empty buffer and a known key: the next refill starts from it.
        let k0: [u8; KEY_LEN] = core::array::from_fn(|i| (i * 13 + 1) as u8);
        rng.key = k0;
        rng.buf.fill(0);
        rng.pos = BUF_LEN;
        rng.since_reseed = 0;
        let mut out = vec![0u8; 2 * DIRECT_FROM + 100];
        rng.fill_bytes(&mut out);
        let mut s0 = [0u8; BUF_LEN];
        super::super::chacha::keystream(&k0, &mut s0);
        assert_eq!(
            out[..DIRECT_FROM],
            s0[64..],
            "the first refill, after its key block"
        );
        let k1: [u8; KEY_LEN] = s0[..KEY_LEN].try_into().unwrap();
        let mut s1 = [0u8; BUF_LEN];
        super::super::chacha::keystream(&k1, &mut s1);
        assert_eq!(
            out[DIRECT_FROM..2 * DIRECT_FROM],
            s1[64..],
            "keyed by the first's block"
        );
        // The last 100 bytes through the buffer: a refill keyed by the second's block.
        let k2: [u8; KEY_LEN] = s1[..KEY_LEN].try_into().unwrap();
        let mut s2 = [0u8; BUF_LEN];
        super::super::chacha::keystream(&k2, &mut s2);
        assert_eq!(out[2 * DIRECT_FROM..], s2[KEY_LEN..KEY_LEN + 100]);
        for key in [&k1[..], &k2[..], &s2[..KEY_LEN]] {
            assert!(
                !out.windows(KEY_LEN).any(|w| w == key),
                "a key was handed out"
            );
        }
        assert_eq!(
            rng.key[..],
            s2[..KEY_LEN],
            "the key now is the last refill's next key"
        );
        // Counted as output: each direct refill what it wrote, the buffered one its 4064.
        assert_eq!(rng.since_reseed, 2 * DIRECT_FROM + (BUF_LEN - KEY_LEN));
    }

    /// What the kernel does to the page in a child (zero the word) gives a generation that no
    /// process before had, and the counter stays at least the word's value.
    #[test]
    fn a_zeroed_word_gets_a_generation_unlike_the_parents() {
        let word: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let first = generation_in(word);
        assert_ne!(first, 0);
        assert_eq!(generation_in(word), first, "no fork: the same generation");
        assert!(FORK_COUNTER.load(Ordering::SeqCst) >= first);
        word.store(0, Ordering::SeqCst); // a child's copy of the page
        let child = generation_in(word);
        assert_ne!(child, first);
        assert!(FORK_COUNTER.load(Ordering::SeqCst) >= child);
        // A generator seeded in that generation keeps its key while the word holds it, and
        // reseeds (taking the process's word again) on the first draw after it is zeroed.
        let mut rng = Csprng::new().unwrap();
        rng.fork_word = word;
        rng.generation = child;
        let _ = rng.next_u64();
        assert!(
            core::ptr::eq(rng.fork_word, word),
            "reseeded without a fork"
        );
        word.store(0, Ordering::SeqCst);
        let _ = rng.next_u64();
        assert!(
            core::ptr::eq(rng.fork_word, generation_word()),
            "the draw after the fork did not reseed"
        );
    }

    /// The atfork handler moves the counter, which is the generation where no page is used.
    #[test]
    fn the_atfork_handler_moves_the_counter() {
        let before = generation_in(&FORK_COUNTER);
        on_fork_child();
        assert_ne!(generation_in(&FORK_COUNTER), before);
    }
}

//! Generator state in stable storage (RFC 9562 §6.3; RFC 4122 §4.2.1.1–§4.2.1.3), and a
//! v1/v6/v7 generator built on it that stays unique and ordered across restarts and crashes.
//!
//! # What is stored
//!
//! One small file holds, for v1 and v6 (which share one timeline here), a timestamp bound, the
//! clock sequence and the node; and for v7 a millisecond bound and a counter. Each bound is at
//! least as large as every UUID issued so far with that clock sequence and node (v1/v6), or at
//! least as large as every v7 issued.
//!
//! # Written ahead, not per UUID
//!
//! While generating, the stored bounds are *reservations* ahead of the clock (by the
//! [reserve](StateOptions::reserve), default 1 s): a UUID is handed out only when the file
//! already covers it, and the reservation is renewed when issuing comes within half the reserve
//! of it. Under steady load that is two writes a second, whatever the rate. A clean
//! [`flush`](DurableGenerator::flush) writes the exact last values instead.
//!
//! # After a restart (or a crash at any moment)
//!
//! - **v7**: generation continues above the stored bound, so every v7 is greater than every
//!   v7 issued before, even when the clock has gone back (the timestamps then run ahead of the
//!   clock until it catches up). After an unclean shutdown the stored bound is a reservation up
//!   to one reserve ahead of the clock; opening first waits for the clock to pass it (at most
//!   the reserve plus 1 s, [`StateOptions::catch_up`]), so that a crash loop does not push v7
//!   timestamps ever further ahead.
//! - **v1/v6**: if the clock reads later than the stored timestamp, the clock sequence is kept
//!   and generation continues above it. Otherwise — the usual case right after a crash, whose
//!   reservation lies ahead, or a clock set back — the clock sequence is incremented (RFC 4122
//!   §4.2.1) and the timestamps follow the clock. A changed node also gets a new, random clock
//!   sequence. Either way no (timestamp, clock sequence, node) repeats.
//! - **Missing, unreadable or corrupt file**: a [`StateWarning`], a random clock sequence,
//!   and generation continues; with [`strict`](StateOptions::strict) an error instead (a
//!   missing file is then still accepted as the first use, with a warning).
//!
//! # Writes
//!
//! A temporary file next to the state file is created exclusively (`O_CREAT|O_EXCL`, mode
//! 0600), written, `fsync`ed and renamed over the state file, and the directory is `fsync`ed.
//! The state file is opened with `O_NOFOLLOW`: a symbolic link there is an error, never
//! followed. A write that fails (disk full, read-only file system) is reported: the UUIDs that
//! the file no longer covers are marked [`Safety::Volatile`] (like libuuid's
//! `uuid_generate_time_safe`), or, in strict mode, not issued at all.
//!
//! # One process at a time
//!
//! The generator holds an exclusive `flock` on `PATH.lock` for its whole life. A second
//! generator on the same file fails at once with [`StateErrorKind::Locked`] naming the holder's
//! process id, or waits up to [`lock_wait`](StateOptions::lock_wait) for it. The lock file is
//! never removed (removing it would let two processes lock two different files).
//!
//! # File format (version 1)
//!
//! 64 bytes, big-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `b"uuidkitS"` |
//! | 8 | 2 | format version, 1 |
//! | 10 | 2 | flags: bit 0 set when the bounds are exact (clean shutdown); other bits 0 |
//! | 12 | 4 | reserved, 0 |
//! | 16 | 8 | v1/v6 timestamp bound (60-bit count of 100-ns ticks since 1582-10-15) |
//! | 24 | 2 | clock sequence (14 bits) |
//! | 26 | 6 | node |
//! | 32 | 8 | v7 millisecond bound (48 bits) |
//! | 40 | 8 | v7 counter at that millisecond; `0xFFFF_FFFF_FFFF_FFFF`: the whole millisecond |
//! | 48 | 8 | number of writes so far |
//! | 56 | 8 | checksum: the first 8 bytes of SHA-256 of bytes 0..56 |

use core::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use uuidkit::gen::{
    fork_generation, v1, Clock, GenError, GregorianBuilder, SystemClock, ThreadRng, V6Generator,
    V7Builder, V7Generator,
};
use uuidkit::{Timestamp, Uuid};

/// The size of a state file in bytes.
///
/// ```
/// use uuidkit_service::state::{State, STATE_LEN};
/// assert_eq!(STATE_LEN, 64);
/// let err = State::decode(&[0u8; STATE_LEN - 1]).unwrap_err();
/// assert_eq!(err.to_string(), "state file: corrupt: 63 bytes, expected 64");
/// ```
pub const STATE_LEN: usize = 64;
/// The state file format this version writes and reads.
///
/// ```
/// use uuidkit_service::state::{State, FORMAT_VERSION};
/// # let s = State { gregorian_ticks: 0, clock_seq: 0, node: [0; 6], v7_unix_ms: 0,
/// #     v7_counter: None, clean: true, writes: 1 };
/// // Bytes 8..10 of every file, big-endian.
/// assert_eq!(s.encode()[8..10], FORMAT_VERSION.to_be_bytes());
/// assert_eq!(FORMAT_VERSION, 1);
/// ```
pub const FORMAT_VERSION: u16 = 1;
const MAGIC: [u8; 8] = *b"uuidkitS";
const FLAG_CLEAN: u16 = 1;
const WHOLE_MS: u64 = u64::MAX;
const CLOCK_SEQ_MASK: u16 = 0x3FFF;
/// The default reserve: how far ahead of the clock the stored bounds are set.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::state::{StateOptions, DEFAULT_RESERVE};
/// assert_eq!(DEFAULT_RESERVE, Duration::from_secs(1));
/// assert_eq!(StateOptions::new(), StateOptions::new().reserve(DEFAULT_RESERVE));
/// ```
pub const DEFAULT_RESERVE: Duration = Duration::from_secs(1);
/// In non-strict mode, how often a failed write is tried again.
const RETRY_INTERVAL: Duration = Duration::from_secs(1);

// ---- the time-based versions ------------------------------------------------------------------

/// The versions a [`DurableGenerator`] (and the service) hands out.
///
/// ```
/// use uuidkit_service::state::TimeVersion;
/// assert_eq!(TimeVersion::from_u8(7), Some(TimeVersion::V7));
/// assert_eq!(TimeVersion::V6.as_u8(), 6);
/// assert_eq!(TimeVersion::from_u8(4), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeVersion {
    /// Version 1 (RFC 9562 §5.1).
    V1,
    /// Version 6 (RFC 9562 §5.6).
    V6,
    /// Version 7 (RFC 9562 §5.7).
    V7,
}

impl TimeVersion {
    /// The version number.
    ///
    /// ```
    /// use uuidkit_service::state::TimeVersion;
    /// assert_eq!(TimeVersion::V1.as_u8(), 1);
    /// assert_eq!(TimeVersion::V7.as_u8(), 7);
    /// // `Display` writes the number after a `v`.
    /// assert_eq!(TimeVersion::V6.to_string(), "v6");
    /// ```
    pub const fn as_u8(self) -> u8 {
        match self {
            TimeVersion::V1 => 1,
            TimeVersion::V6 => 6,
            TimeVersion::V7 => 7,
        }
    }

    /// The version for a number: 1, 6 or 7.
    ///
    /// ```
    /// use uuidkit_service::state::TimeVersion;
    /// for v in [TimeVersion::V1, TimeVersion::V6, TimeVersion::V7] {
    ///     assert_eq!(TimeVersion::from_u8(v.as_u8()), Some(v));
    /// }
    /// // v2 has no durable generator; 0 and 8 are no time-based version at all.
    /// assert_eq!(TimeVersion::from_u8(2), None);
    /// assert_eq!(TimeVersion::from_u8(0), None);
    /// assert_eq!(TimeVersion::from_u8(8), None);
    /// ```
    pub const fn from_u8(n: u8) -> Option<TimeVersion> {
        match n {
            1 => Some(TimeVersion::V1),
            6 => Some(TimeVersion::V6),
            7 => Some(TimeVersion::V7),
            _ => None,
        }
    }
}

impl fmt::Display for TimeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.as_u8())
    }
}

/// Whether a UUID is covered by the state file, so that no restart or crash can make it
/// repeat (`Durable`), or was generated while the file could not be written (`Volatile`: still
/// unique within this run and very likely beyond, but without the guarantee). libuuid calls the
/// first kind "safe".
///
/// ```
/// use uuidkit_service::state::Safety;
/// assert!(Safety::Durable.is_durable());
/// assert_eq!(Safety::Durable.and(Safety::Volatile), Safety::Volatile);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Safety {
    /// Covered by a successful write of the state file.
    Durable,
    /// Not covered: the state file could not be written (the error is in
    /// [`DurableGenerator::last_write_error`]), or this is a forked child.
    Volatile,
}

impl Safety {
    /// Whether this is [`Safety::Durable`].
    ///
    /// ```
    /// use uuidkit_service::state::Safety;
    /// assert!(Safety::Durable.is_durable());
    /// assert!(!Safety::Volatile.is_durable());
    /// ```
    pub const fn is_durable(self) -> bool {
        matches!(self, Safety::Durable)
    }

    /// Durable only if both are.
    ///
    /// Useful to combine the safety of several batches into one answer.
    ///
    /// ```
    /// use uuidkit_service::state::Safety::{Durable, Volatile};
    /// assert_eq!(Durable.and(Durable), Durable);
    /// assert_eq!(Durable.and(Volatile), Volatile);
    /// assert_eq!(Volatile.and(Durable), Volatile);
    /// assert_eq!(Volatile.and(Volatile), Volatile);
    /// ```
    pub const fn and(self, other: Safety) -> Safety {
        if self.is_durable() && other.is_durable() {
            Safety::Durable
        } else {
            Safety::Volatile
        }
    }
}

// ---- errors and warnings ----------------------------------------------------------------------

/// The kind of a [`StateError`].
///
/// The enum is `#[non_exhaustive]`: a `match` on it needs a `_` arm.
///
/// ```
/// use uuidkit_service::state::{State, StateErrorKind};
/// // 64 bytes of zeros: the right length, but not the magic `uuidkitS`.
/// let err = State::decode(&[0u8; 64]).unwrap_err();
/// assert_eq!(err.kind(), StateErrorKind::Corrupt);
/// let retry = match err.kind() {
///     StateErrorKind::Locked => true,
///     _ => false,
/// };
/// assert!(!retry);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StateErrorKind {
    /// Opening or reading failed (permissions, I/O error, a parent that is not a directory).
    Io,
    /// The content is not a valid state file: wrong length, magic, version, checksum or field.
    Corrupt,
    /// The path is a symbolic link (never followed) or not a regular file.
    Unsafe,
    /// The file is owned by another user or writable by group or others, so its content
    /// cannot be trusted.
    Untrusted,
    /// Another process (or another generator in this one) holds the state file's lock.
    Locked,
    /// Writing the state file failed.
    Write,
    /// This is a forked child of the process that opened the generator: it must not write the
    /// parent's state (strict mode only; otherwise its UUIDs are volatile).
    Forked,
    /// The generator was closed.
    Closed,
    /// The underlying generator failed (time out of range).
    Generator,
}

#[derive(Debug)]
enum Cause {
    None,
    Io(io::Error),
    Gen(GenError),
}

/// An error of the state file or the [`DurableGenerator`]: its `Display` names the file and
/// what went wrong.
///
/// ```
/// use uuidkit_service::state::{State, StateErrorKind};
/// let err = State::decode(&[0u8; 10]).unwrap_err();
/// assert_eq!(err.kind(), StateErrorKind::Corrupt);
/// assert_eq!(err.to_string(), "state file: corrupt: 10 bytes, expected 64");
/// ```
#[derive(Debug)]
pub struct StateError {
    // Boxed: errors are rare, and a small `Result` keeps the success path cheap.
    inner: Box<ErrorInner>,
}

#[derive(Debug)]
struct ErrorInner {
    kind: StateErrorKind,
    path: Option<PathBuf>,
    msg: String,
    cause: Cause,
}

impl StateError {
    fn boxed(inner: ErrorInner) -> StateError {
        StateError {
            inner: Box::new(inner),
        }
    }

    fn new(kind: StateErrorKind, path: Option<&Path>, msg: impl Into<String>) -> StateError {
        StateError::boxed(ErrorInner {
            kind,
            path: path.map(Path::to_path_buf),
            msg: msg.into(),
            cause: Cause::None,
        })
    }

    fn io(kind: StateErrorKind, path: &Path, what: impl Into<String>, e: io::Error) -> StateError {
        StateError::boxed(ErrorInner {
            kind,
            path: Some(path.to_path_buf()),
            msg: what.into(),
            cause: Cause::Io(e),
        })
    }

    fn gen(path: &Path, e: GenError) -> StateError {
        StateError::boxed(ErrorInner {
            kind: StateErrorKind::Generator,
            path: Some(path.to_path_buf()),
            msg: "generating".into(),
            cause: Cause::Gen(e),
        })
    }

    /// A copy (an `io::Error` is not `Clone`: its kind, OS code and text are kept).
    fn duplicate(&self) -> StateError {
        StateError::boxed(ErrorInner {
            kind: self.inner.kind,
            path: self.inner.path.clone(),
            msg: self.inner.msg.clone(),
            cause: match &self.inner.cause {
                Cause::None => Cause::None,
                Cause::Gen(e) => Cause::Gen(*e),
                Cause::Io(e) => Cause::Io(match e.raw_os_error() {
                    Some(code) => io::Error::from_raw_os_error(code),
                    None => io::Error::new(e.kind(), e.to_string()),
                }),
            },
        })
    }

    /// The kind of error.
    ///
    /// ```
    /// use uuidkit_service::state::{State, StateErrorKind};
    /// # let s = State { gregorian_ticks: 1, clock_seq: 2, node: [3; 6], v7_unix_ms: 4,
    /// #     v7_counter: Some(5), clean: false, writes: 6 };
    /// let mut bytes = s.encode();
    /// bytes[25] ^= 1; // flip a bit of the clock sequence: the checksum no longer matches
    /// let err = State::decode(&bytes).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Corrupt);
    /// assert_eq!(err.to_string(), "state file: corrupt: checksum mismatch (bytes 56..64)");
    /// ```
    pub const fn kind(&self) -> StateErrorKind {
        self.inner.kind
    }

    /// The state file concerned, if known.
    ///
    /// ```
    /// use uuidkit_service::state::State;
    /// // Decoding bytes involves no file; reading one does.
    /// assert_eq!(State::decode(&[]).unwrap_err().path(), None);
    /// let dir = std::env::temp_dir().join(format!("uuidkit-doc-StateError-path-{}", std::process::id()));
    /// let missing = dir.join("state"); // `dir` is never created
    /// assert_eq!(State::read(&missing).unwrap_err().path(), Some(missing.as_path()));
    /// ```
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// The operating system's error, if one caused this.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use uuidkit_service::state::State;
    /// let dir = std::env::temp_dir().join(format!("uuidkit-doc-io_error-{}", std::process::id()));
    /// let err = State::read(dir.join("state")).unwrap_err(); // `dir` is never created
    /// assert_eq!(err.io_error().map(|e| e.kind()), Some(ErrorKind::NotFound));
    /// // A corrupt content has no OS error behind it.
    /// assert!(State::decode(&[1, 2, 3]).unwrap_err().io_error().is_none());
    /// ```
    pub fn io_error(&self) -> Option<&io::Error> {
        match &self.inner.cause {
            Cause::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.path {
            Some(p) => write!(f, "state file {}: ", p.display())?,
            None => f.write_str("state file: ")?,
        }
        if self.inner.kind == StateErrorKind::Corrupt {
            f.write_str("corrupt: ")?;
        }
        f.write_str(&self.inner.msg)?;
        match &self.inner.cause {
            Cause::None => Ok(()),
            Cause::Io(e) => write!(f, ": {e}"),
            Cause::Gen(e) => write!(f, ": {e}"),
        }
    }
}

impl std::error::Error for StateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.cause {
            Cause::None => None,
            Cause::Io(e) => Some(e),
            Cause::Gen(e) => Some(e),
        }
    }
}

/// What a [`StateWarning`] is about.
///
/// The enum is `#[non_exhaustive]`. Here the clock reads a minute earlier than at the last
/// run, so the clock sequence is incremented rather than risk repeating a timestamp (RFC 9562
/// §6.3, RFC 4122 §4.2.1.2):
///
/// ```
/// use uuidkit::gen::FixedClock;
/// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion, WarningKind};
/// use uuidkit::Timestamp;
/// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-WarningKind-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("state");
/// let t = 1_645_557_742_000; // Unix milliseconds
/// let clock = FixedClock::new(Timestamp::from_unix_millis(t));
/// let mut gen = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
/// gen.next(TimeVersion::V6)?;
/// let seq = gen.clock_seq();
/// gen.close()?;
///
/// let earlier = FixedClock::new(Timestamp::from_unix_millis(t - 60_000));
/// let gen = DurableGenerator::open_with_clock(&path, StateOptions::new(), earlier)?;
/// let kinds: Vec<WarningKind> = gen.warnings().iter().map(|w| w.kind()).collect();
/// assert_eq!(kinds, [WarningKind::ClockSequenceChanged]);
/// assert_eq!(gen.clock_seq(), (seq + 1) & 0x3FFF);
/// # drop(gen);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// There was no state file: a fresh state (random clock sequence) was created.
    Missing,
    /// The state file could not be read, was corrupt or untrusted: a fresh state was created.
    Discarded,
    /// The clock reads earlier than the stored v1/v6 timestamp (after a crash, whose
    /// reservation lies ahead, or a clock set back): the clock sequence was incremented.
    ClockSequenceChanged,
    /// The node differs from the stored one: a new random clock sequence was chosen.
    NodeChanged,
    /// The stored v7 bound is far ahead of the clock: v7 timestamps run ahead until the clock
    /// catches up.
    V7AheadOfClock,
    /// After an unclean shutdown, opening waited for the clock to pass the stored v7
    /// reservation ([`StateOptions::catch_up`]).
    WaitedForClock,
    /// The state file was readable by other users; it is rewritten with mode 0600.
    Permissions,
    /// The state file could not be written: UUIDs are volatile until a write succeeds.
    WriteFailed,
}

/// Something the caller should know about, found when the state was opened.
///
/// Its `Display` text is meant for a log or the user.
///
/// ```
/// use uuidkit_service::state::{DurableGenerator, StateOptions, WarningKind};
/// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-StateWarning-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("state");
/// let gen = DurableGenerator::open(&path, StateOptions::new())?;
/// let w = &gen.warnings()[0];
/// assert_eq!(w.kind(), WarningKind::Missing);
/// assert_eq!(
///     w.to_string(),
///     format!("state file {} does not exist: starting a new state with a random clock sequence",
///             path.display())
/// );
/// # drop(gen);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateWarning {
    kind: WarningKind,
    msg: String,
}

impl StateWarning {
    fn new(kind: WarningKind, msg: impl Into<String>) -> StateWarning {
        StateWarning {
            kind,
            msg: msg.into(),
        }
    }

    /// What the warning is about.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-StateWarning-kind-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let gen = DurableGenerator::open(&path, StateOptions::new().node([0x02, 0, 0, 0, 0, 1]))?;
    /// let seq = gen.clock_seq();
    /// gen.close()?;
    /// // Another node: a new random clock sequence, different from the stored one (RFC 9562 §6.3).
    /// let gen = DurableGenerator::open(&path, StateOptions::new().node([0x02, 0, 0, 0, 0, 2]))?;
    /// assert_eq!(gen.warnings().len(), 1);
    /// assert_eq!(gen.warnings()[0].kind(), WarningKind::NodeChanged);
    /// assert_ne!(gen.clock_seq(), seq);
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn kind(&self) -> WarningKind {
        self.kind
    }
}

impl fmt::Display for StateWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

// ---- the stored values ------------------------------------------------------------------------

/// The content of a state file.
///
/// ```
/// use uuidkit_service::state::State;
/// let s = State {
///     gregorian_ticks: 0x1EC9414C232AB00,
///     clock_seq: 0x33C8,
///     node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46],
///     v7_unix_ms: 1645557742000,
///     v7_counter: None,
///     clean: false,
///     writes: 3,
/// };
/// assert_eq!(State::decode(&s.encode())?, s);
/// # Ok::<(), uuidkit_service::state::StateError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Every v1/v6 UUID issued with this clock sequence and node has a timestamp at most this
    /// (100-ns ticks since 1582-10-15).
    pub gregorian_ticks: u64,
    /// The v1/v6 clock sequence (14 bits).
    pub clock_seq: u16,
    /// The v1/v6 node.
    pub node: [u8; 6],
    /// Every v7 UUID issued has a millisecond at most this.
    pub v7_unix_ms: u64,
    /// At [`v7_unix_ms`](Self::v7_unix_ms), the highest counter issued (42-bit, RFC 9562 §6.2
    /// Method 1); `None` when the whole millisecond counts as used (a reservation).
    pub v7_counter: Option<u64>,
    /// Whether the bounds are exact values written at a clean shutdown rather than
    /// reservations.
    pub clean: bool,
    /// How many times the file has been written.
    pub writes: u64,
}

fn be_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    if let Some(s) = b.get(at..at + 8) {
        a.copy_from_slice(s);
    }
    u64::from_be_bytes(a)
}

fn be_u16(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(&[x, y]) => u16::from_be_bytes([x, y]),
        _ => 0,
    }
}

fn checksum(body: &[u8]) -> [u8; 8] {
    let d = Sha256::digest(body);
    let mut c = [0u8; 8];
    c.copy_from_slice(&d[..8]);
    c
}

impl State {
    /// The 64-byte encoding (see the [module docs](self) for the layout).
    ///
    /// ```
    /// use uuidkit_service::state::State;
    /// let s = State {
    ///     gregorian_ticks: 0x1EC9414C232AB00,
    ///     clock_seq: 0x33C8,
    ///     node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46],
    ///     v7_unix_ms: 0x017F22E279B0,
    ///     v7_counter: None,
    ///     clean: true,
    ///     writes: 2,
    /// };
    /// let b = s.encode();
    /// assert_eq!(&b[0..8], b"uuidkitS");
    /// assert_eq!(b[8..12], [0, 1, 0, 1]); // version 1, flags: clean
    /// assert_eq!(b[16..24], 0x1EC9414C232AB00u64.to_be_bytes());
    /// assert_eq!(b[24..32], [0x33, 0xC8, 0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]);
    /// assert_eq!(b[32..40], [0, 0, 0x01, 0x7F, 0x22, 0xE2, 0x79, 0xB0]);
    /// assert_eq!(b[40..48], [0xFF; 8]); // no counter: the whole millisecond
    /// assert_eq!(b[48..56], 2u64.to_be_bytes());
    /// ```
    pub fn encode(&self) -> [u8; STATE_LEN] {
        let mut b = [0u8; STATE_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&FORMAT_VERSION.to_be_bytes());
        let flags = if self.clean { FLAG_CLEAN } else { 0 };
        b[10..12].copy_from_slice(&flags.to_be_bytes());
        b[16..24].copy_from_slice(&self.gregorian_ticks.to_be_bytes());
        b[24..26].copy_from_slice(&self.clock_seq.to_be_bytes());
        b[26..32].copy_from_slice(&self.node);
        b[32..40].copy_from_slice(&self.v7_unix_ms.to_be_bytes());
        b[40..48].copy_from_slice(&self.v7_counter.unwrap_or(WHOLE_MS).to_be_bytes());
        b[48..56].copy_from_slice(&self.writes.to_be_bytes());
        let c = checksum(&b[..56]);
        b[56..64].copy_from_slice(&c);
        b
    }

    /// Decodes and checks a state file's bytes: length, magic, version, checksum, flags and
    /// field ranges. Errors are [`StateErrorKind::Corrupt`] and say which check failed.
    ///
    /// ```
    /// use uuidkit_service::state::{State, StateErrorKind};
    /// # let s = State { gregorian_ticks: 1, clock_seq: 2, node: [3; 6], v7_unix_ms: 4,
    /// #     v7_counter: Some(5), clean: false, writes: 6 };
    /// let mut b = s.encode();
    /// assert_eq!(State::decode(&b)?, s);
    /// b[9] = 2; // a format version from the future
    /// let err = State::decode(&b).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Corrupt);
    /// assert_eq!(
    ///     err.to_string(),
    ///     "state file: corrupt: format version 2 at byte 8, this program reads version 1"
    /// );
    /// # Ok::<(), uuidkit_service::state::StateError>(())
    /// ```
    pub fn decode(b: &[u8]) -> Result<State, StateError> {
        let corrupt = |msg: String| Err(StateError::new(StateErrorKind::Corrupt, None, msg));
        if b.len() != STATE_LEN {
            return corrupt(format!("{} bytes, expected {STATE_LEN}", b.len()));
        }
        if b.get(0..8) != Some(&MAGIC[..]) {
            return corrupt("not a uuidkit state file (bad magic at byte 0)".into());
        }
        let version = be_u16(b, 8);
        if version != FORMAT_VERSION {
            return corrupt(format!(
                "format version {version} at byte 8, this program reads version {FORMAT_VERSION}"
            ));
        }
        if b.get(56..64) != Some(&checksum(&b[..56])[..]) {
            return corrupt("checksum mismatch (bytes 56..64)".into());
        }
        let flags = be_u16(b, 10);
        if flags & !FLAG_CLEAN != 0 || b.get(12..16) != Some(&[0u8; 4][..]) {
            return corrupt(format!(
                "unknown flags {flags:#06x} or reserved bytes set (bytes 10..16)"
            ));
        }
        let gregorian_ticks = be_u64(b, 16);
        if gregorian_ticks >= 1 << 60 {
            return corrupt(format!(
                "v1/v6 timestamp {gregorian_ticks} at byte 16 exceeds 60 bits"
            ));
        }
        let clock_seq = be_u16(b, 24);
        if clock_seq > CLOCK_SEQ_MASK {
            return corrupt(format!(
                "clock sequence {clock_seq:#x} at byte 24 exceeds 14 bits"
            ));
        }
        let mut node = [0u8; 6];
        node.copy_from_slice(&b[26..32]);
        let v7_unix_ms = be_u64(b, 32);
        if v7_unix_ms >= 1 << 48 {
            return corrupt(format!(
                "v7 millisecond {v7_unix_ms} at byte 32 exceeds 48 bits"
            ));
        }
        let counter = be_u64(b, 40);
        Ok(State {
            gregorian_ticks,
            clock_seq,
            node,
            v7_unix_ms,
            v7_counter: if counter == WHOLE_MS {
                None
            } else {
                Some(counter)
            },
            clean: flags & FLAG_CLEAN != 0,
            writes: be_u64(b, 48),
        })
    }

    /// Reads and checks a state file without locking it (writes replace the file atomically,
    /// so a reader sees one whole version). Symbolic links are not followed; a file owned by
    /// another user or writable by others is [`StateErrorKind::Untrusted`].
    ///
    /// ```
    /// let err = uuidkit_service::state::State::read("/nonexistent/state").unwrap_err();
    /// assert_eq!(err.kind(), uuidkit_service::state::StateErrorKind::Io);
    /// ```
    pub fn read(path: impl AsRef<Path>) -> Result<State, StateError> {
        let path = path.as_ref();
        match read_state(path)? {
            Read_::Missing(e) => Err(StateError::io(StateErrorKind::Io, path, "cannot open", e)),
            Read_::Found {
                untrusted: Some(why),
                ..
            } => Err(StateError::new(StateErrorKind::Untrusted, Some(path), why)),
            Read_::Found { state, .. } => Ok(state),
        }
    }
}

// ---- file access ------------------------------------------------------------------------------

enum Read_ {
    /// The file does not exist (the error says so).
    Missing(io::Error),
    Found {
        state: State,
        /// The file is readable by group or others.
        readable_by_others: bool,
        /// Why the content cannot be trusted (owner, write permissions), if so.
        untrusted: Option<String>,
    },
}

fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, cannot fail and has no side effects.
    unsafe { libc::geteuid() }
}

/// Opens and checks the state file. `Err` for everything except a missing file.
fn read_state(path: &Path) -> Result<Read_, StateError> {
    let file = OpenOptions::new()
        .read(true)
        // O_NONBLOCK: opening a FIFO planted at the path must not hang.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let mut file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Read_::Missing(e)),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(StateError::new(
                StateErrorKind::Unsafe,
                Some(path),
                "is a symbolic link; refusing to follow it",
            ))
        }
        Err(e) => return Err(StateError::io(StateErrorKind::Io, path, "cannot open", e)),
    };
    let meta = file
        .metadata()
        .map_err(|e| StateError::io(StateErrorKind::Io, path, "cannot stat", e))?;
    if !meta.file_type().is_file() {
        return Err(StateError::new(
            StateErrorKind::Unsafe,
            Some(path),
            "is not a regular file",
        ));
    }
    let euid = effective_uid();
    let untrusted = if meta.uid() != euid {
        Some(format!(
            "is owned by uid {}, not by this process (uid {euid}); its content is not trusted",
            meta.uid()
        ))
    } else if meta.mode() & 0o022 != 0 {
        Some(format!(
            "is writable by group or others (mode {:04o}); its content is not trusted",
            meta.mode() & 0o7777
        ))
    } else {
        None
    };
    if meta.len() != STATE_LEN as u64 {
        // Never read a huge file into memory: the length alone says it is not ours.
        return Err(StateError::new(
            StateErrorKind::Corrupt,
            Some(path),
            format!("{} bytes, expected {STATE_LEN}", meta.len()),
        ));
    }
    let mut buf = [0u8; STATE_LEN + 1];
    let mut n = 0;
    loop {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => {
                n += k;
                if n == buf.len() {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(StateError::io(StateErrorKind::Io, path, "cannot read", e)),
        }
    }
    let state = State::decode(&buf[..n]).map_err(|mut e| {
        e.inner.path = Some(path.to_path_buf());
        e
    })?;
    Ok(Read_::Found {
        state,
        readable_by_others: meta.mode() & 0o044 != 0,
        untrusted,
    })
}

/// `PATH` + suffix, in the same directory.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// The lock, the directory (for `fsync` after a rename) and the paths.
#[derive(Debug)]
struct StateFile {
    path: PathBuf,
    tmp: PathBuf,
    /// Held open for the generator's life; `None` if it could not be created (non-strict):
    /// then the state file is never written.
    lock: Option<File>,
    dir: Option<File>,
}

impl StateFile {
    /// Takes the lock (failing, or waiting up to `wait`, when another holds it).
    fn open(path: &Path, wait: Option<Duration>) -> Result<StateFile, StateError> {
        let lock_path = sibling(path, ".lock");
        let mut lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&lock_path)
            .map_err(|e| {
                if e.raw_os_error() == Some(libc::ELOOP) {
                    StateError::new(
                        StateErrorKind::Unsafe,
                        Some(path),
                        format!(
                            "lock file {} is a symbolic link; refusing to follow it",
                            lock_path.display()
                        ),
                    )
                } else {
                    StateError::io(
                        StateErrorKind::Io,
                        path,
                        format!("cannot open lock file {}", lock_path.display()),
                        e,
                    )
                }
            })?;
        let start = Instant::now();
        loop {
            // SAFETY: the descriptor belongs to `lock`, which is open for the whole call;
            // flock only changes the lock state of that open file description.
            let rc = unsafe {
                libc::flock(
                    std::os::fd::AsRawFd::as_raw_fd(&lock),
                    libc::LOCK_EX | libc::LOCK_NB,
                )
            };
            if rc == 0 {
                break;
            }
            let e = io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::EWOULDBLOCK) => {
                    if let Some(w) = wait {
                        if start.elapsed() < w {
                            std::thread::sleep(Duration::from_millis(10));
                            continue;
                        }
                    }
                    let mut holder = String::new();
                    let _ = lock.read_to_string(&mut holder);
                    let holder = holder.trim();
                    let who = if holder.is_empty() {
                        "another process".to_string()
                    } else {
                        format!("process {holder}")
                    };
                    return Err(StateError::new(
                        StateErrorKind::Locked,
                        Some(path),
                        format!(
                            "in use by {who} (lock {}); one generator per state file",
                            lock_path.display()
                        ),
                    ));
                }
                _ => {
                    return Err(StateError::io(
                        StateErrorKind::Io,
                        path,
                        format!("cannot lock {}", lock_path.display()),
                        e,
                    ))
                }
            }
        }
        // Record the holder for the error message above; failure here only costs that message.
        let _ = lock
            .set_len(0)
            .and_then(|_| lock.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(lock, "{}", std::process::id()));
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Ok(StateFile {
            path: path.to_path_buf(),
            tmp: sibling(path, ".tmp"),
            lock: Some(lock),
            dir: File::open(parent).ok(),
        })
    }

    /// Without the lock: reading only.
    fn unlocked(path: &Path) -> StateFile {
        StateFile {
            path: path.to_path_buf(),
            tmp: sibling(path, ".tmp"),
            lock: None,
            dir: None,
        }
    }

    /// Replaces the state file atomically and durably.
    fn write(&self, state: &State) -> Result<(), StateError> {
        if self.lock.is_none() {
            return Err(StateError::new(
                StateErrorKind::Write,
                Some(&self.path),
                "not written: its lock file could not be opened",
            ));
        }
        let fail =
            |what: &str, e: io::Error| StateError::io(StateErrorKind::Write, &self.path, what, e);
        match fs::remove_file(&self.tmp) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(fail(
                    &format!("cannot remove stale temporary file {}", self.tmp.display()),
                    e,
                ))
            }
        }
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&self.tmp)
            .map_err(|e| fail(&format!("cannot create {}", self.tmp.display()), e))?;
        let written = f
            .write_all(&state.encode())
            .and_then(|_| f.sync_all())
            .map_err(|e| fail(&format!("cannot write {}", self.tmp.display()), e));
        drop(f);
        if let Err(e) = written {
            let _ = fs::remove_file(&self.tmp);
            return Err(e);
        }
        if let Err(e) = fs::rename(&self.tmp, &self.path) {
            let _ = fs::remove_file(&self.tmp);
            return Err(fail("cannot rename the temporary file over it", e));
        }
        match &self.dir {
            Some(d) => d
                .sync_all()
                .map_err(|e| fail("cannot sync its directory", e)),
            None => {
                let parent = match self.path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                File::open(parent)
                    .and_then(|d| d.sync_all())
                    .map_err(|e| fail("cannot sync its directory", e))
            }
        }
    }
}

// ---- the durable generator --------------------------------------------------------------------

/// How a [`DurableGenerator`] opens its state.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::state::StateOptions;
/// let opts = StateOptions::new()
///     .strict(true)
///     .reserve(Duration::from_millis(500))
///     .lock_wait(Some(Duration::from_secs(2)));
/// assert!(opts.is_strict());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateOptions {
    strict: bool,
    reserve: Duration,
    lock_wait: Option<Duration>,
    node: Option<[u8; 6]>,
    catch_up: bool,
}

impl Default for StateOptions {
    fn default() -> Self {
        StateOptions::new()
    }
}

impl StateOptions {
    /// Not strict, a 1 s reserve, fail at once when locked, the stored (or a random) node.
    ///
    /// ```
    /// use uuidkit_service::state::{StateOptions, DEFAULT_RESERVE};
    /// let opts = StateOptions::new();
    /// assert!(!opts.is_strict());
    /// assert_eq!(opts, StateOptions::default());
    /// assert_eq!(opts, opts.strict(false).reserve(DEFAULT_RESERVE).lock_wait(None));
    /// ```
    pub const fn new() -> StateOptions {
        StateOptions {
            strict: false,
            reserve: DEFAULT_RESERVE,
            lock_wait: None,
            node: None,
            catch_up: true,
        }
    }

    /// Strict safety: an unreadable, corrupt or untrusted state file is an error rather than a
    /// warning, and no UUID is issued that the file does not cover (a failed write is an
    /// error). A missing file is still accepted as the first use.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateErrorKind, StateOptions, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-strict-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// std::fs::write(&path, b"not a state file")?;
    ///
    /// let err = DurableGenerator::open(&path, StateOptions::new().strict(true)).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Corrupt);
    ///
    /// // Not strict: a warning, and a fresh state replaces the damaged one.
    /// let gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(gen.warnings().iter().any(|w| w.kind() == WarningKind::Discarded));
    /// # drop(gen);
    /// assert!(uuidkit_service::state::State::read(&path).is_ok());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Whether strict safety is on.
    ///
    /// ```
    /// use uuidkit_service::state::StateOptions;
    /// assert!(StateOptions::new().strict(true).is_strict());
    /// assert!(!StateOptions::new().strict(true).strict(false).is_strict());
    /// ```
    pub const fn is_strict(&self) -> bool {
        self.strict
    }

    /// How far ahead of the clock reservations are written (default 1 s; at least 1 ms).
    /// Larger: fewer writes; after a crash, v7 timestamps may run up to this far ahead.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit::gen::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-reserve-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let now = Timestamp::from_unix_millis(1_645_557_742_000);
    /// let opts = StateOptions::new().reserve(Duration::from_secs(5));
    /// let gen = DurableGenerator::open_with_clock(&path, opts, FixedClock::new(now))?;
    /// // Opening wrote a first reservation, 5 s ahead of the clock on both timelines.
    /// let s = State::read(&path)?;
    /// assert!(!s.clean);
    /// assert_eq!(s.v7_unix_ms, 1_645_557_742_000 + 5_000);
    /// assert_eq!(Some(s.gregorian_ticks), now.gregorian_ticks().map(|t| t + 50_000_000));
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn reserve(mut self, reserve: Duration) -> Self {
        self.reserve = reserve;
        self
    }

    /// How long to wait for another holder of the lock to let go (default `None`: fail at
    /// once with [`StateErrorKind::Locked`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::state::{DurableGenerator, StateErrorKind, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-lock_wait-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let first = DurableGenerator::open(&path, StateOptions::new())?;
    /// // The lock is held for the first generator's whole life: waiting 20 ms does not help.
    /// let opts = StateOptions::new().lock_wait(Some(Duration::from_millis(20)));
    /// let err = DurableGenerator::open(&path, opts).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Locked);
    /// assert!(err.to_string().contains(&format!("in use by process {}", std::process::id())));
    /// drop(first);
    /// assert!(DurableGenerator::open(&path, opts).is_ok());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn lock_wait(mut self, wait: Option<Duration>) -> Self {
        self.lock_wait = wait;
        self
    }

    /// After an unclean shutdown, wait until the clock passes the stored v7 reservation before
    /// opening (default true). The wait is at most the reserve plus one second, and is skipped
    /// when the gap is larger (the clock was set back: v7 then runs ahead of it). Without the
    /// wait, each crash could leave v7 timestamps up to one reserve further ahead of the clock.
    ///
    /// ```
    /// use uuidkit::gen::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion, WarningKind};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-catch_up-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let t = 1_645_557_742_000;
    /// // What a crash leaves behind: a reservation 500 ms ahead of the clock, not marked clean.
    /// let crashed = State { gregorian_ticks: 0, clock_seq: 7, node: [0x03, 0, 0, 0, 0, 1],
    ///                       v7_unix_ms: t + 500, v7_counter: None, clean: false, writes: 9 };
    /// # use std::io::Write;
    /// # use std::os::unix::fs::OpenOptionsExt;
    /// // Mode 0600: a file that others may write is not trusted.
    /// let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
    /// f.write_all(&crashed.encode())?;
    ///
    /// // This clock never moves: waiting for it would time out, so do not wait.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(t));
    /// let opts = StateOptions::new().catch_up(false);
    /// let mut gen = DurableGenerator::open_with_clock(&path, opts, clock)?;
    /// assert!(gen.warnings().iter().all(|w| w.kind() != WarningKind::WaitedForClock));
    /// // v7 continues above the whole reserved millisecond, ahead of the clock.
    /// let (u, _) = gen.next(TimeVersion::V7)?;
    /// assert!(u.unix_ts_ms() > Some(t + 500));
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn catch_up(mut self, wait: bool) -> Self {
        self.catch_up = wait;
        self
    }

    /// The v1/v6 node to use (for example a MAC address). If it differs from the stored node,
    /// the clock sequence gets a new random value (RFC 9562 §6.3). Default: the stored node,
    /// or 48 random bits with the multicast bit set for a new state (§6.10).
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-StateOptions-node-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mac = [0x02, 0x00, 0x5E, 0x10, 0x00, 0x01];
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new().node(mac))?;
    /// assert_eq!(gen.next(TimeVersion::V1)?.0.node(), Some(mac));
    /// assert_eq!(gen.next(TimeVersion::V6)?.0.node(), Some(mac));
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn node(mut self, node: [u8; 6]) -> Self {
        self.node = Some(node);
        self
    }
}

/// A clock shared by the two inner generators.
#[derive(Debug)]
struct SharedClock<C>(Arc<C>);

impl<C: Clock> Clock for SharedClock<C> {
    fn now(&self) -> Timestamp {
        self.0.now()
    }
    fn resolution_nanos(&self) -> u64 {
        self.0.resolution_nanos()
    }
}

/// Sleeps until `clock` reads a millisecond after `ms`, or `limit_ms` of real time (plus a
/// little) has passed — a clock that does not move must not hang the caller.
fn wait_for_clock<C: Clock + ?Sized>(clock: &C, ms: u64, limit_ms: u64) -> Duration {
    let start = Instant::now();
    let limit = Duration::from_millis(limit_ms + 100);
    loop {
        let now = clock.now().unix_millis().unwrap_or(0);
        if now > ms || start.elapsed() >= limit {
            return start.elapsed();
        }
        std::thread::sleep(Duration::from_millis((ms - now).clamp(1, 10)));
    }
}

/// The background writer: one write in flight at most.
#[derive(Debug)]
struct Writer {
    tx: mpsc::Sender<State>,
    rx: mpsc::Receiver<Result<State, StateError>>,
    thread: Option<std::thread::JoinHandle<()>>,
    in_flight: bool,
}

impl Writer {
    fn start(file: &Arc<StateFile>) -> Option<Writer> {
        let (tx, jobs) = mpsc::channel::<State>();
        let (done, rx) = mpsc::channel();
        let file = Arc::clone(file);
        let thread = std::thread::Builder::new()
            .name("uuidkit-state".into())
            .stack_size(64 * 1024)
            .spawn(move || {
                for s in jobs {
                    if done.send(file.write(&s).map(|()| s)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Writer {
            tx,
            rx,
            thread: Some(thread),
            in_flight: false,
        })
    }
}

/// A (millisecond, counter) v7 position; `None` counter: the whole millisecond.
type V7Pos = (u64, Option<u64>);

/// Whether `a <= b` as v7 positions.
fn v7_le(a: V7Pos, b: V7Pos) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1.unwrap_or(WHOLE_MS) <= b.1.unwrap_or(WHOLE_MS))
}

/// v1, v6 and v7 generators whose state lives in a file, so that no restart or crash makes
/// them repeat (see the [module docs](self)).
///
/// v1 and v6 share one timeline (one clock sequence and node, each timestamp used once), so a
/// v1 converted to v6 never equals a v6 issued here. Each version's UUIDs increase (v1 by
/// timestamp) while the generator runs; the clock going back does not change that (the
/// timestamps run ahead of it instead).
///
/// ```
/// use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};
/// let dir = std::env::temp_dir().join(format!("uuidkit-doc-DurableGenerator-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("state");
/// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
/// let (a, safety) = gen.next(TimeVersion::V7)?;
/// assert_eq!(safety, Safety::Durable);
/// gen.close()?;
///
/// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
/// assert!(gen.warnings().is_empty());
/// assert!(gen.next(TimeVersion::V7)?.0 > a);
/// # drop(gen);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), uuidkit_service::state::StateError>(())
/// ```
#[derive(Debug)]
pub struct DurableGenerator<C: Clock = SystemClock> {
    file: Arc<StateFile>,
    /// Writes early renewals in the background, so that issuing does not wait for `fsync`
    /// while the current reservation still covers it. `None` without the lock, or if the
    /// thread could not start (writes are then synchronous).
    writer: Option<Writer>,
    clock: Arc<C>,
    gen6: V6Generator<SharedClock<C>, ThreadRng>,
    gen7: V7Generator<SharedClock<C>, ThreadRng>,
    /// The v1/v6 position issued before this run with the current clock sequence, if any.
    greg_floor: Option<u64>,
    /// The v7 position issued before this run, if any.
    v7_floor: Option<V7Pos>,
    /// What the file covers now, for the current clock sequence and node.
    durable_greg: Option<u64>,
    durable_v7: Option<V7Pos>,
    writes: u64,
    reserve: Duration,
    strict: bool,
    warnings: Vec<StateWarning>,
    write_error: Option<StateError>,
    last_attempt: Option<Instant>,
    fork_gen: u64,
    closed: bool,
}

impl DurableGenerator<SystemClock> {
    /// Opens (or creates) the state file at `path` on the system clock, takes its lock and
    /// writes a first reservation.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, Safety, State, StateOptions, TimeVersion, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-open-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert_eq!(gen.warnings()[0].kind(), WarningKind::Missing); // the first use
    /// assert_eq!(std::fs::metadata(&path)?.len(), 64);
    /// let (u, safety) = gen.next(TimeVersion::V7)?;
    /// assert_eq!((u.version_num(), safety), (7, Safety::Durable));
    /// // The file already covers `u`: a reservation ahead of it.
    /// assert!(Some(State::read(&path)?.v7_unix_ms) >= u.unix_ts_ms());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(path: impl AsRef<Path>, opts: StateOptions) -> Result<Self, StateError> {
        DurableGenerator::open_with_clock(path, opts, SystemClock)
    }
}

impl<C: Clock> DurableGenerator<C> {
    /// [`open`](DurableGenerator::open) with another clock (tests use a steppable one).
    ///
    /// ```
    /// use uuidkit::gen::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-open_with_clock-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// // The instant of RFC 9562 Appendix A.6: 2022-02-22T19:22:22Z.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(0x017F22E279B0));
    /// let mut gen = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// let (a, _) = gen.next(TimeVersion::V7)?;
    /// let (b, _) = gen.next(TimeVersion::V7)?;
    /// // A clock that stands still: the same millisecond, ordered by the counter.
    /// assert_eq!(a.unix_ts_ms(), Some(0x017F22E279B0));
    /// assert_eq!(b.unix_ts_ms(), Some(0x017F22E279B0));
    /// assert!(a < b);
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_with_clock(
        path: impl AsRef<Path>,
        opts: StateOptions,
        clock: C,
    ) -> Result<Self, StateError> {
        let path = path.as_ref();
        let strict = opts.strict;
        let mut warnings = Vec::new();
        let file = match StateFile::open(path, opts.lock_wait) {
            Ok(f) => f,
            Err(e) if strict || e.kind() != StateErrorKind::Io => return Err(e),
            Err(e) => {
                // Typically a read-only file system: the state cannot be written either, so
                // generation goes on from what can be read, and every UUID is volatile.
                warnings.push(StateWarning::new(
                    WarningKind::WriteFailed,
                    format!(
                        "{e}; the state file will not be written and UUIDs are not durably safe"
                    ),
                ));
                StateFile::unlocked(path)
            }
        };

        let stored = match read_state(path) {
            Ok(Read_::Found {
                untrusted: Some(why),
                ..
            }) => {
                let e = StateError::new(StateErrorKind::Untrusted, Some(path), why);
                if strict {
                    return Err(e);
                }
                warnings.push(StateWarning::new(
                    WarningKind::Discarded,
                    format!("{e}; starting a new state with a random clock sequence"),
                ));
                None
            }
            Ok(Read_::Found {
                state,
                readable_by_others,
                untrusted: None,
            }) => {
                if readable_by_others {
                    warnings.push(StateWarning::new(
                        WarningKind::Permissions,
                        format!(
                            "state file {} was readable by other users; rewriting it with mode 0600",
                            path.display()
                        ),
                    ));
                }
                Some(state)
            }
            Ok(Read_::Missing(_)) => {
                warnings.push(StateWarning::new(
                    WarningKind::Missing,
                    format!(
                        "state file {} does not exist: starting a new state with a random clock sequence",
                        path.display()
                    ),
                ));
                None
            }
            Err(e) => {
                // A symbolic link or a non-file is a set-up mistake (or an attack), not damage:
                // always an error.
                if strict || e.kind() == StateErrorKind::Unsafe {
                    return Err(e);
                }
                warnings.push(StateWarning::new(
                    WarningKind::Discarded,
                    format!("{e}; starting a new state with a random clock sequence"),
                ));
                None
            }
        };

        let clock = Arc::new(clock);
        let now = clock.now();
        let now_ticks = now.gregorian_ticks().unwrap_or(0);
        let now_ms = now.unix_millis().unwrap_or(0);
        let mut rng = ThreadRng;
        let (clock_seq, node, greg_floor, v7_floor, writes) = match stored {
            None => (
                v1::random_clock_seq(&mut rng, 14),
                opts.node.unwrap_or_else(|| v1::random_node(&mut rng)),
                None,
                None,
                0,
            ),
            Some(s) => {
                let node = opts.node.unwrap_or(s.node);
                let (seq, floor) = if node != s.node {
                    let seq = v1::new_clock_seq(&mut rng, 14, s.clock_seq);
                    warnings.push(StateWarning::new(
                        WarningKind::NodeChanged,
                        format!(
                            "node changed from {} to {}: new random clock sequence {seq:#06x}",
                            hex_node(&s.node),
                            hex_node(&node)
                        ),
                    ));
                    (seq, None)
                } else if now_ticks > s.gregorian_ticks {
                    (s.clock_seq, Some(s.gregorian_ticks))
                } else {
                    let seq = (s.clock_seq + 1) & CLOCK_SEQ_MASK;
                    let why = if s.clean {
                        "the clock was set back"
                    } else {
                        "the last run ended without a clean shutdown, and its reservation lies ahead"
                    };
                    warnings.push(StateWarning::new(
                        WarningKind::ClockSequenceChanged,
                        format!(
                            "the clock ({}) reads before the stored v1/v6 timestamp ({}): {why}; \
                             clock sequence {:#06x} -> {seq:#06x}",
                            now.to_rfc3339(7),
                            Timestamp::from_gregorian_ticks(s.gregorian_ticks).to_rfc3339(7),
                            s.clock_seq
                        ),
                    ));
                    (seq, None)
                };
                let slack = opts.reserve.as_millis() as u64 + 10_000;
                let catch_up_limit = opts.reserve.as_millis() as u64 + 1_000;
                if opts.catch_up
                    && !s.clean
                    && s.v7_unix_ms >= now_ms
                    && s.v7_unix_ms - now_ms <= catch_up_limit
                {
                    let waited = wait_for_clock(&*clock, s.v7_unix_ms, catch_up_limit);
                    warnings.push(StateWarning::new(
                        WarningKind::WaitedForClock,
                        format!(
                            "waited {} ms for the clock to pass the v7 reservation of the last \
                             run, which did not end cleanly",
                            waited.as_millis()
                        ),
                    ));
                } else if s.v7_unix_ms > now_ms.saturating_add(slack) {
                    warnings.push(StateWarning::new(
                        WarningKind::V7AheadOfClock,
                        format!(
                            "the stored v7 bound ({}) is {} ms ahead of the clock: v7 timestamps \
                             run ahead until the clock catches up",
                            Timestamp::from_unix_millis(s.v7_unix_ms).to_rfc3339(3),
                            s.v7_unix_ms - now_ms
                        ),
                    ));
                }
                (
                    seq,
                    node,
                    floor,
                    Some((s.v7_unix_ms, s.v7_counter)),
                    s.writes,
                )
            }
        };

        // The service's promise is order: the generators never follow the clock back while
        // running (they count on from their last timestamp instead).
        let gen6 = GregorianBuilder::new()
            .node(node)
            .clock_seq(clock_seq)
            .regression_threshold(Duration::MAX)
            .build_v6(SharedClock(Arc::clone(&clock)), ThreadRng)
            .map_err(|e| StateError::gen(path, e))?;
        let gen7 = V7Builder::new()
            .regression_threshold(Duration::MAX)
            .build(SharedClock(Arc::clone(&clock)), ThreadRng)
            .map_err(|e| StateError::gen(path, e))?;
        let mut g = DurableGenerator {
            file: Arc::new(file),
            writer: None,
            clock,
            gen6,
            gen7,
            greg_floor,
            v7_floor,
            durable_greg: None,
            durable_v7: None,
            writes,
            reserve: opts.reserve.max(Duration::from_millis(1)),
            strict,
            warnings,
            write_error: None,
            last_attempt: None,
            fork_gen: fork_generation(),
            closed: false,
        };
        if let Some(t) = greg_floor {
            g.gen6.resume_after(t);
        }
        if let Some((ms, c)) = v7_floor {
            g.gen7.resume_after(ms, c.map(u128::from));
        }
        if g.file.lock.is_some() {
            let first = g.reservation();
            if let Err(e) = g.write_now(first) {
                if strict {
                    return Err(e);
                }
                g.warnings.push(StateWarning::new(
                    WarningKind::WriteFailed,
                    format!("{e}; UUIDs are not durably safe until a write succeeds"),
                ));
                g.write_error = Some(e);
            }
            g.writer = Writer::start(&g.file);
        }
        Ok(g)
    }

    fn reserve_ticks(&self) -> u64 {
        (self.reserve.as_nanos() / 100).min(1 << 40) as u64
    }

    fn reserve_ms(&self) -> u64 {
        (self.reserve.as_millis()).clamp(1, 1 << 30) as u64
    }

    /// The last v1/v6 timestamp issued with the current clock sequence, this run or before.
    fn greg_high(&self) -> Option<u64> {
        match (self.gen6.last_ticks(), self.greg_floor) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// The last v7 position issued, this run or before.
    fn v7_high(&self) -> Option<V7Pos> {
        let issued = self.gen7.last_unix_ms().map(|ms| {
            let c = self
                .gen7
                .last_counter()
                .and_then(|c| u64::try_from(c).ok())
                .filter(|&c| c != WHOLE_MS);
            (ms, c)
        });
        match (issued, self.v7_floor) {
            (Some(a), Some(b)) => Some(if v7_le(a, b) { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// A new reservation: every bound a reserve ahead of the later of the clock and the last
    /// position issued.
    fn reservation(&self) -> State {
        let now = self.clock.now();
        let now_ticks = now.gregorian_ticks().unwrap_or(0);
        let now_ms = now.unix_millis().unwrap_or(0);
        let greg = self
            .greg_high()
            .unwrap_or(0)
            .max(now_ticks)
            .saturating_add(self.reserve_ticks())
            .min((1 << 60) - 1);
        let v7 = self
            .v7_high()
            .map_or(0, |p| p.0)
            .max(now_ms)
            .saturating_add(self.reserve_ms())
            .min((1 << 48) - 1);
        State {
            gregorian_ticks: greg,
            clock_seq: self.gen6.clock_seq(),
            node: self.gen6.node(),
            v7_unix_ms: v7,
            v7_counter: None,
            clean: false,
            writes: self.writes.wrapping_add(1),
        }
    }

    /// Writes `s` now, in this thread (after any background write has finished).
    fn write_now(&mut self, s: State) -> Result<(), StateError> {
        self.wait_writer();
        self.last_attempt = Some(Instant::now());
        let r = self.file.write(&s).map(|()| s);
        match r {
            Ok(s) => {
                self.applied(Ok(s));
                Ok(())
            }
            Err(e) => {
                let copy = e.duplicate();
                self.applied(Err(e));
                Err(copy)
            }
        }
    }

    /// Records the outcome of a write.
    fn applied(&mut self, r: Result<State, StateError>) {
        match r {
            Ok(s) => {
                self.writes = s.writes;
                self.durable_greg = Some(s.gregorian_ticks);
                self.durable_v7 = Some((s.v7_unix_ms, s.v7_counter));
                self.write_error = None;
            }
            Err(e) => self.write_error = Some(e),
        }
    }

    /// Starts writing a new reservation in the background (or, without the writer thread,
    /// writes it now).
    fn start_renewal(&mut self) {
        let s = self.reservation();
        self.last_attempt = Some(Instant::now());
        if let Some(w) = &mut self.writer {
            if !w.in_flight {
                if w.tx.send(s).is_ok() {
                    w.in_flight = true;
                    return;
                }
                self.writer = None;
            } else {
                return;
            }
        }
        let _ = self.write_now(s);
    }

    /// Collects the background write's outcome if it is done.
    fn poll_writer(&mut self) {
        let Some(w) = &mut self.writer else { return };
        if !w.in_flight {
            return;
        }
        match w.rx.try_recv() {
            Ok(r) => {
                w.in_flight = false;
                self.applied(r);
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => self.writer = None,
        }
    }

    /// Waits for the background write, if one is in flight.
    fn wait_writer(&mut self) {
        let Some(w) = &mut self.writer else { return };
        if !w.in_flight {
            return;
        }
        match w.rx.recv() {
            Ok(r) => {
                w.in_flight = false;
                self.applied(r);
            }
            Err(_) => self.writer = None,
        }
    }

    /// Whether a write may be tried now: always without a previous failure (or in strict
    /// mode); after one, at most once per RETRY_INTERVAL — each UUID paying for a failing
    /// `fsync` would be worse than useless.
    fn write_due(&self) -> bool {
        self.file.lock.is_some()
            && (self.strict
                || self.write_error.is_none()
                || self
                    .last_attempt
                    .is_none_or(|t| t.elapsed() >= RETRY_INTERVAL))
    }

    /// Whether this is a forked child of the process that opened the generator.
    fn forked(&self) -> bool {
        fork_generation() != self.fork_gen
    }

    fn check_open(&self) -> Result<(), StateError> {
        if self.closed {
            return Err(StateError::new(
                StateErrorKind::Closed,
                Some(&self.file.path),
                "the generator is closed",
            ));
        }
        if self.strict && self.forked() {
            return Err(StateError::new(
                StateErrorKind::Forked,
                Some(&self.file.path),
                "this is a forked child of the process that holds the state; it cannot issue \
                 durable UUIDs",
            ));
        }
        Ok(())
    }

    /// Renews the reservation when issuing came near it, and says whether the file covers
    /// `greg`/`v7` (the last positions just issued).
    fn cover(&mut self, greg: Option<u64>, v7: Option<V7Pos>) -> Result<Safety, StateError> {
        if self.forked() {
            return Ok(Safety::Volatile);
        }
        let covered = |s: &Self| {
            greg.is_none_or(|t| s.durable_greg.is_some_and(|d| t <= d))
                && v7.is_none_or(|p| s.durable_v7.is_some_and(|d| v7_le(p, d)))
        };
        let half_t = self.reserve_ticks() / 2;
        let half_ms = self.reserve_ms() / 2;
        let near = greg.is_some_and(|t| {
            self.durable_greg
                .is_none_or(|d| t.saturating_add(half_t) > d)
        }) || v7.is_some_and(|p| {
            self.durable_v7
                .is_none_or(|d| p.0.saturating_add(half_ms) > d.0)
        });
        self.poll_writer();
        let in_flight = self.writer.as_ref().is_some_and(|w| w.in_flight);
        if near && !in_flight && self.write_due() {
            // Renew early, in the background: the current reservation still covers issuing.
            self.start_renewal();
        }
        if !covered(self) {
            // Beyond the reservation: wait for the renewal under way, and if it does not cover
            // these UUIDs (a large batch, a failure), write one now.
            self.wait_writer();
            if !covered(self) && self.write_due() {
                let s = self.reservation();
                let _ = self.write_now(s);
            }
        }
        if covered(self) {
            Ok(Safety::Durable)
        } else if self.strict {
            Err(match self.write_error.take() {
                Some(e) => e,
                None => StateError::new(
                    StateErrorKind::Write,
                    Some(&self.file.path),
                    "the state file does not cover the UUIDs",
                ),
            })
        } else {
            Ok(Safety::Volatile)
        }
    }

    /// The next UUID of `version`, and whether the state file covers it.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-next-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// let (v1, safety) = gen.next(TimeVersion::V1)?;
    /// let (v6, _) = gen.next(TimeVersion::V6)?;
    /// assert_eq!((v1.version_num(), v6.version_num(), safety), (1, 6, Safety::Durable));
    /// // One timeline for v1 and v6: the v6 comes later, with the same clock sequence and node.
    /// assert!(v6.gregorian_ticks() > v1.gregorian_ticks());
    /// assert_eq!(v6.clock_seq(), v1.clock_seq());
    /// assert_eq!(v6.node(), v1.node());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // Not `Iterator::next`: generation can fail and takes an argument.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self, version: TimeVersion) -> Result<(Uuid, Safety), StateError> {
        let mut one = [Uuid::NIL];
        let safety = self.fill(version, &mut one)?;
        Ok((one[0], safety))
    }

    /// Fills `out` with increasing UUIDs of `version` (v1: increasing timestamps), and says
    /// whether the state file covers all of them. In strict mode, UUIDs the file does not
    /// cover are never returned: the call fails with [`StateErrorKind::Write`].
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};
    /// use uuidkit::Uuid;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-fill-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// let mut batch = [Uuid::NIL; 4];
    /// assert_eq!(gen.fill(TimeVersion::V7, &mut batch)?, Safety::Durable);
    /// assert!(batch.windows(2).all(|w| w[0] < w[1]));
    /// assert!(batch.iter().all(|u| u.version_num() == 7));
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill(&mut self, version: TimeVersion, out: &mut [Uuid]) -> Result<Safety, StateError> {
        self.check_open()?;
        if out.is_empty() {
            return Ok(Safety::Durable);
        }
        match version {
            TimeVersion::V1 | TimeVersion::V6 => {
                // One v1/v6 timeline: the v6 generator issues both layouts.
                let r = if version == TimeVersion::V1 {
                    self.gen6.fill_v1(out)
                } else {
                    self.gen6.fill(out)
                };
                r.map_err(|e| StateError::gen(&self.file.path, e))?;
                let last = self.gen6.last_ticks();
                self.cover(last, None)
            }
            TimeVersion::V7 => {
                self.gen7
                    .fill(out)
                    .map_err(|e| StateError::gen(&self.file.path, e))?;
                let last = self.v7_high();
                self.cover(None, last)
            }
        }
    }

    /// Writes the exact last positions (marked clean), so that the next run continues right
    /// after them instead of after the reservation. Generation may go on afterwards (the next
    /// UUID renews the reservation). In a forked child, does nothing.
    ///
    /// ```
    /// use uuidkit::gen::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-flush-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1_645_557_742_000));
    /// let mut gen = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// let (v6, _) = gen.next(TimeVersion::V6)?;
    /// let (v7, _) = gen.next(TimeVersion::V7)?;
    /// assert_eq!(State::read(&path)?.v7_unix_ms, 1_645_557_742_000 + 1_000); // the reservation
    /// gen.flush()?;
    /// let s = State::read(&path)?;
    /// assert!(s.clean);
    /// assert_eq!(Some(s.gregorian_ticks), v6.gregorian_ticks());
    /// assert_eq!(Some(s.v7_unix_ms), v7.unix_ts_ms());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flush(&mut self) -> Result<(), StateError> {
        if self.forked() {
            return Ok(());
        }
        let greg = self.greg_high().unwrap_or(0);
        let (v7_ms, v7_counter) = self.v7_high().unwrap_or((0, None));
        if self.file.lock.is_none() {
            return Ok(());
        }
        self.wait_writer();
        self.write_now(State {
            gregorian_ticks: greg,
            clock_seq: self.gen6.clock_seq(),
            node: self.gen6.node(),
            v7_unix_ms: v7_ms,
            v7_counter,
            clean: true,
            writes: self.writes.wrapping_add(1),
        })
    }

    /// Flushes and closes: later calls fail with [`StateErrorKind::Closed`]. The lock is
    /// released when the generator is dropped.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-close-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// gen.next(TimeVersion::V7)?;
    /// gen.close()?;
    /// assert!(State::read(&path)?.clean);
    /// // The lock is free again.
    /// let gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn close(mut self) -> Result<(), StateError> {
        let r = self.flush();
        self.closed = true;
        r
    }

    /// Flushes and refuses further UUIDs, without dropping the generator (a server shares it
    /// between threads and shuts down while they still hold it).
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateErrorKind, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-shut_down-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// gen.next(TimeVersion::V6)?;
    /// gen.shut_down()?;
    /// assert!(State::read(&path)?.clean);
    /// let err = gen.next(TimeVersion::V6).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Closed);
    /// gen.shut_down()?; // a second call does nothing
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shut_down(&mut self) -> Result<(), StateError> {
        if self.closed {
            return Ok(());
        }
        let r = self.flush();
        self.closed = true;
        r
    }

    /// What was found when the state was opened (missing file, corruption, clock sequence
    /// changes, a failed first write).
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-warnings-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert_eq!(gen.warnings().len(), 1);
    /// assert_eq!(gen.warnings()[0].kind(), WarningKind::Missing);
    /// gen.close()?;
    /// // A clean shutdown and a clock that went on: nothing to report.
    /// let gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(gen.warnings().is_empty());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn warnings(&self) -> &[StateWarning] {
        &self.warnings
    }

    /// Whether the state file is being kept: the lock is held, the last write succeeded, and
    /// this is not a forked child. When false, new UUIDs are (or soon become) volatile.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-is_durable-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(gen.is_durable());
    /// // A directory where the temporary file must go makes every write fail.
    /// let tmp = dir.join("state.tmp");
    /// std::fs::create_dir(&tmp)?;
    /// assert!(gen.flush().is_err());
    /// assert!(!gen.is_durable());
    /// std::fs::remove_dir(&tmp)?;
    /// gen.flush()?;
    /// assert!(gen.is_durable());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_durable(&self) -> bool {
        self.file.lock.is_some() && self.write_error.is_none() && !self.forked()
    }

    /// The error of the last write, while writes fail; `None` once one succeeds again.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateErrorKind, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-last_write_error-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(gen.last_write_error().is_none());
    /// // A directory where the temporary file must go makes every write fail.
    /// let tmp = dir.join("state.tmp");
    /// std::fs::create_dir(&tmp)?;
    /// let _ = gen.flush();
    /// let err = gen.last_write_error().map(|e| (e.kind(), e.path().map(|p| p.to_path_buf())));
    /// assert_eq!(err, Some((StateErrorKind::Write, Some(path.clone()))));
    /// std::fs::remove_dir(&tmp)?;
    /// gen.flush()?;
    /// assert!(gen.last_write_error().is_none());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn last_write_error(&self) -> Option<&StateError> {
        self.write_error.as_ref()
    }

    /// The state file's path.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-path-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert_eq!(gen.path(), path);
    /// // Beside it: the lock file, kept for good.
    /// assert!(dir.join("state.lock").exists());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.file.path
    }

    /// The v1/v6 clock sequence in use.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-clock_seq-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(gen.clock_seq() <= 0x3FFF); // 14 bits
    /// assert_eq!(gen.next(TimeVersion::V1)?.0.clock_seq(), Some(gen.clock_seq()));
    /// assert_eq!(State::read(&path)?.clock_seq, gen.clock_seq());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clock_seq(&self) -> u16 {
        self.gen6.clock_seq()
    }

    /// The v1/v6 node in use.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-node-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut gen = DurableGenerator::open(&path, StateOptions::new())?;
    /// // No node given: random, with the multicast bit set (RFC 9562 §6.10).
    /// assert_eq!(gen.node()[0] & 0x01, 0x01);
    /// assert_eq!(gen.next(TimeVersion::V6)?.0.node(), Some(gen.node()));
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node(&self) -> [u8; 6] {
        self.gen6.node()
    }

    /// Whether strict safety is on.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-DurableGenerator-is_strict-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let gen = DurableGenerator::open(dir.join("state"), StateOptions::new().strict(true))?;
    /// assert!(gen.is_strict());
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The clock the generator reads.
    ///
    /// ```
    /// use uuidkit::gen::StepClock;
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-clock-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_645_557_742_000));
    /// let mut gen = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// gen.clock().advance(5_000_000); // 5 ms, in nanoseconds
    /// assert_eq!(gen.next(TimeVersion::V7)?.0.unix_ts_ms(), Some(1_645_557_742_005));
    /// # drop(gen);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clock(&self) -> &C {
        &self.clock
    }
}

impl<C: Clock> Drop for DurableGenerator<C> {
    fn drop(&mut self) {
        if !self.closed {
            let _ = self.flush();
        }
        if let Some(mut w) = self.writer.take() {
            let thread = w.thread.take();
            // Closing the job channel ends the thread.
            drop(w);
            if let Some(t) = thread {
                if self.forked() {
                    // The thread exists only in the parent: joining it here would wait for
                    // nothing that can end.
                    std::mem::forget(t);
                } else {
                    let _ = t.join();
                }
            }
        }
    }
}

/// The state file a system-wide generator uses by default: `/var/lib/uuidkit/state` for
/// root; otherwise `$XDG_STATE_HOME/uuidkit/state`, or `~/.local/state/uuidkit/state`; `None`
/// when neither variable is set.
///
/// ```
/// use std::path::Path;
/// std::env::set_var("XDG_STATE_HOME", "/srv/state");
/// let path = uuidkit_service::state::default_state_path();
/// // Under $XDG_STATE_HOME, unless this runs as root.
/// assert!(path.as_deref() == Some(Path::new("/srv/state/uuidkit/state"))
///     || path.as_deref() == Some(Path::new("/var/lib/uuidkit/state")));
/// ```
pub fn default_state_path() -> Option<PathBuf> {
    if effective_uid() == 0 {
        return Some(PathBuf::from("/var/lib/uuidkit/state"));
    }
    let base = match std::env::var_os("XDG_STATE_HOME") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match std::env::var_os("HOME") {
            Some(h) if !h.is_empty() => Path::new(&h).join(".local/state"),
            _ => return None,
        },
    };
    Some(base.join("uuidkit/state"))
}

/// `xx:xx:xx:xx:xx:xx`.
pub(crate) fn hex_node(n: &[u8; 6]) -> String {
    format!(
        "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
        n[0], n[1], n[2], n[3], n[4], n[5]
    )
}

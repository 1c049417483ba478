//! The errors of the state file and the durable generator, and the warnings found when the
//! state is opened.

use core::fmt;
use std::io;
use std::path::{Path, PathBuf};

use uuidkit::generator::GenError;

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
    /// Opening was interrupted while it waited for the clock
    /// ([`StateOptions::interrupt_wait`](crate::state::StateOptions::interrupt_wait)); the
    /// state file was left as it was.
    Interrupted,
    /// The underlying generator failed (time out of range).
    Generator,
}

#[derive(Debug)]
enum Cause {
    None,
    Io(io::Error),
    Gen(GenError),
}

/// An error of the state file or the [`DurableGenerator`](crate::state::DurableGenerator): its
/// `Display` names the file and what went wrong.
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

    pub(super) fn new(
        kind: StateErrorKind,
        path: Option<&Path>,
        msg: impl Into<String>,
    ) -> StateError {
        StateError::boxed(ErrorInner {
            kind,
            path: path.map(Path::to_path_buf),
            msg: msg.into(),
            cause: Cause::None,
        })
    }

    pub(super) fn io(
        kind: StateErrorKind,
        path: &Path,
        what: impl Into<String>,
        e: io::Error,
    ) -> StateError {
        StateError::boxed(ErrorInner {
            kind,
            path: Some(path.to_path_buf()),
            msg: what.into(),
            cause: Cause::Io(e),
        })
    }

    pub(super) fn generator(path: &Path, e: GenError) -> StateError {
        StateError::boxed(ErrorInner {
            kind: StateErrorKind::Generator,
            path: Some(path.to_path_buf()),
            msg: "generating".into(),
            cause: Cause::Gen(e),
        })
    }

    /// The same error, about the file at `path` (decoding knows no path; reading does).
    pub(super) fn at(mut self, path: &Path) -> StateError {
        self.inner.path = Some(path.to_path_buf());
        self
    }

    /// A copy (an `io::Error` is not `Clone`: its kind, OS code and text are kept).
    pub(super) fn duplicate(&self) -> StateError {
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
/// use uuidkit::generator::FixedClock;
/// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion, WarningKind};
/// use uuidkit::Timestamp;
/// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-WarningKind-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("state");
/// let t = 1_645_557_742_000; // Unix milliseconds
/// let clock = FixedClock::new(Timestamp::from_unix_millis(t));
/// let mut g = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
/// g.next(TimeVersion::V6)?;
/// let seq = g.clock_seq();
/// g.close()?;
///
/// let earlier = FixedClock::new(Timestamp::from_unix_millis(t - 60_000));
/// let g = DurableGenerator::open_with_clock(&path, StateOptions::new(), earlier)?;
/// let kinds: Vec<WarningKind> = g.warnings().iter().map(|w| w.kind()).collect();
/// assert_eq!(kinds, [WarningKind::ClockSequenceChanged]);
/// assert_eq!(g.clock_seq(), (seq + 1) & 0x3FFF);
/// # drop(g);
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
    /// reservation lies ahead, or a clock set back): the clock sequence was incremented (the
    /// timestamps continue above the stored one, so v6 keeps its order).
    ClockSequenceChanged,
    /// The node differs from the stored one: a new random clock sequence was chosen.
    NodeChanged,
    /// The stored v7 bound is far ahead of the clock: v7 timestamps run ahead until the clock
    /// catches up.
    V7AheadOfClock,
    /// After an unclean shutdown, opening waited for the clock to pass the stored v7 and
    /// v1/v6 reservations ([`StateOptions::catch_up`](crate::state::StateOptions::catch_up)).
    WaitedForClock,
    /// The state file was readable by other users; it is rewritten with mode 0600.
    Permissions,
    /// The state file could not be written: UUIDs are volatile until a write succeeds.
    WriteFailed,
    /// The state file's lock could not be taken (its lock file cannot be opened: a read-only
    /// file system, a directory at `PATH.lock`): another generator may be using the same file,
    /// so v1/v6 use a new random clock sequence and a random node, never the stored ones; the
    /// file is never written and every UUID is volatile.
    Unlocked,
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
/// let g = DurableGenerator::open(&path, StateOptions::new())?;
/// let w = &g.warnings()[0];
/// assert_eq!(w.kind(), WarningKind::Missing);
/// assert_eq!(
///     w.to_string(),
///     format!("state file {} does not exist: starting a new state with a random clock sequence",
///             path.display())
/// );
/// # drop(g);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateWarning {
    kind: WarningKind,
    msg: String,
}

impl StateWarning {
    pub(super) fn new(kind: WarningKind, msg: impl Into<String>) -> StateWarning {
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
    /// let g = DurableGenerator::open(&path, StateOptions::new().node([0x02, 0, 0, 0, 0, 1]))?;
    /// let seq = g.clock_seq();
    /// g.close()?;
    /// // Another node: a new random clock sequence, different from the stored one (RFC 9562 §6.3).
    /// let g = DurableGenerator::open(&path, StateOptions::new().node([0x02, 0, 0, 0, 0, 2]))?;
    /// assert_eq!(g.warnings().len(), 1);
    /// assert_eq!(g.warnings()[0].kind(), WarningKind::NodeChanged);
    /// assert_ne!(g.clock_seq(), seq);
    /// # drop(g);
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

//! Reading the state file (checked: no symbolic link, a regular file, owned by this user and
//! written by nobody else), and replacing it atomically and durably.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::error::{StateError, StateErrorKind};
use super::format::{State, STATE_LEN};
use super::lock;
use crate::sys;

pub(super) enum ReadOutcome {
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

impl State {
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
            ReadOutcome::Missing(e) => {
                Err(StateError::io(StateErrorKind::Io, path, "cannot open", e))
            }
            ReadOutcome::Found {
                untrusted: Some(why),
                ..
            } => Err(StateError::new(StateErrorKind::Untrusted, Some(path), why)),
            ReadOutcome::Found { state, .. } => Ok(state),
        }
    }
}

/// Opens and checks the state file. `Err` for everything except a missing file.
pub(super) fn read_state(path: &Path) -> Result<ReadOutcome, StateError> {
    let file = OpenOptions::new()
        .read(true)
        // O_NONBLOCK: opening a FIFO planted at the path must not hang.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let mut file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(ReadOutcome::Missing(e)),
        Err(e) if sys::is_symlink_refused(&e) => {
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
    let euid = sys::effective_uid();
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
    let state = State::decode(&buf[..n]).map_err(|e| e.at(path))?;
    Ok(ReadOutcome::Found {
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
pub(super) struct StateFile {
    pub(super) path: PathBuf,
    tmp: PathBuf,
    /// Held open for the generator's life; `None` if it could not be created (non-strict):
    /// then the state file is never written.
    pub(super) lock: Option<File>,
    lock_path: PathBuf,
    /// The process that took the lock: a forked child leaves the lock file alone.
    locker: u32,
    dir: Option<File>,
}

impl StateFile {
    /// Takes the lock (failing, or waiting up to `wait`, when another holds it).
    pub(super) fn open(path: &Path, wait: Option<Duration>) -> Result<StateFile, StateError> {
        let lock_path = sibling(path, ".lock");
        let lock = lock::lock(path, &lock_path, wait)?;
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Ok(StateFile {
            path: path.to_path_buf(),
            tmp: sibling(path, ".tmp"),
            lock: Some(lock),
            lock_path,
            locker: std::process::id(),
            dir: File::open(parent).ok(),
        })
    }

    /// Removes the lock file, still holding the lock (see the `lock` module): for when the
    /// state file will not be written again (the generator is closed, or being dropped).
    /// Nothing in a forked child, nor without the lock, nor when the file at the path is no
    /// longer the one locked; a second call does nothing.
    pub(super) fn remove_lock_file(&self) {
        if let Some(lock) = &self.lock {
            if self.locker == std::process::id() {
                sys::remove_held_lock_file(lock, &self.lock_path);
            }
        }
    }

    /// Without the lock: reading only.
    pub(super) fn unlocked(path: &Path) -> StateFile {
        StateFile {
            path: path.to_path_buf(),
            tmp: sibling(path, ".tmp"),
            lock: None,
            lock_path: sibling(path, ".lock"),
            locker: std::process::id(),
            dir: None,
        }
    }

    /// Replaces the state file atomically and durably.
    pub(super) fn write(&self, state: &State) -> Result<(), StateError> {
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

impl Drop for StateFile {
    fn drop(&mut self) {
        self.remove_lock_file();
    }
}

/// The state file a system-wide generator uses by default: `/var/lib/uuidkit/state` for
/// root; otherwise `$XDG_STATE_HOME/uuidkit/state`, or `~/.local/state/uuidkit/state`; `None`
/// when neither variable is set.
///
/// ```
/// use std::path::Path;
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::set_var("XDG_STATE_HOME", "/srv/state");
/// }
/// let path = uuidkit_service::state::default_state_path();
/// // Under $XDG_STATE_HOME, unless this runs as root.
/// assert!(path.as_deref() == Some(Path::new("/srv/state/uuidkit/state"))
///     || path.as_deref() == Some(Path::new("/var/lib/uuidkit/state")));
/// ```
pub fn default_state_path() -> Option<PathBuf> {
    if sys::effective_uid() == 0 {
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

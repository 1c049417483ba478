//! One generator per state file: the exclusive `flock` on `PATH.lock`, held for the
//! generator's whole life. The lock file holds the holder's process id, for the error a second
//! generator gets; it is never removed (removing it would let two processes lock two different
//! files).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use super::error::{StateError, StateErrorKind};
use crate::sys;

/// Takes the lock `lock_path` for the state file `path` (failing at once, or waiting up to
/// `wait`, when another holds it), and writes this process's id into it.
pub(super) fn lock(
    path: &Path,
    lock_path: &Path,
    wait: Option<Duration>,
) -> Result<File, StateError> {
    let mut lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(lock_path)
        .map_err(|e| {
            if sys::is_symlink_refused(&e) {
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
        let e = match sys::try_lock_exclusive(&lock) {
            Ok(()) => break,
            Err(e) => e,
        };
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
    Ok(lock)
}

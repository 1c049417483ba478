//! One generator per state file: the exclusive `flock` on `PATH.lock`, held for the
//! generator's whole life. The lock file holds the holder's process id, for the error a second
//! generator gets.
//!
//! The holder removes the file when it is done, while it still holds the lock, so that a clean
//! stop leaves nothing behind. That alone would let two processes lock two different files (one
//! opens the old file, the holder removes it and lets go, the first locks the removed file while
//! a third creates and locks a new one), so a taker checks, once it has the lock, that the file
//! it locked is still the one at the path, and starts over with a new `open` when it is not.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use super::error::{StateError, StateErrorKind};
use crate::sys;

/// How often a taker starts over because the file it locked was removed meanwhile: each time,
/// a holder let go; more than this many in a row is not a race but a fault.
const LOCK_ATTEMPTS: usize = 100;

/// Takes the lock `lock_path` for the state file `path` (failing at once, or waiting up to
/// `wait`, when another holds it), and writes this process's id into it.
pub(super) fn lock(
    path: &Path,
    lock_path: &Path,
    wait: Option<Duration>,
) -> Result<File, StateError> {
    let start = Instant::now();
    for _ in 0..LOCK_ATTEMPTS {
        if let Some(f) = try_lock(path, lock_path, wait, start)? {
            return Ok(f);
        }
    }
    Err(StateError::new(
        StateErrorKind::Io,
        Some(path),
        format!(
            "cannot lock {}: it was removed and created again {LOCK_ATTEMPTS} times while \
             being locked",
            lock_path.display()
        ),
    ))
}

/// One attempt: the locked file, or `None` when it was removed from the path between the
/// `open` and the `flock` (the taker must start over).
fn try_lock(
    path: &Path,
    lock_path: &Path,
    wait: Option<Duration>,
    start: Instant,
) -> Result<Option<File>, StateError> {
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
    if !sys::is_same_file(&lock, lock_path) {
        // Its holder removed it after we opened it: a lock on it protects nothing.
        return Ok(None);
    }
    // Record the holder for the error message above; failure here only costs that message.
    let _ = lock
        .set_len(0)
        .and_then(|_| lock.seek(SeekFrom::Start(0)))
        .and_then(|_| writeln!(lock, "{}", std::process::id()));
    Ok(Some(lock))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Takers racing a holder that removes the lock file as it lets go are never two holders
    /// at once. Takers that wait (`lock_wait`) retry `flock` on the file they opened, so they
    /// often lock one that was removed meanwhile: without the check that it is still the
    /// file at the path, two of them hold two different files within a few iterations.
    #[test]
    fn removing_the_lock_file_on_release_keeps_one_holder() {
        let dir = std::env::temp_dir().join(format!("uk-slock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = Arc::new(dir.join("state"));
        let lock_path = Arc::new(dir.join("state.lock"));
        let holders = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (path, lock_path, holders) = (
                    Arc::clone(&path),
                    Arc::clone(&lock_path),
                    Arc::clone(&holders),
                );
                std::thread::spawn(move || {
                    for _ in 0..500 {
                        let wait = Some(Duration::from_secs(10));
                        let Ok(f) = lock(&path, &lock_path, wait) else {
                            continue;
                        };
                        assert_eq!(holders.fetch_add(1, Ordering::SeqCst), 0, "two holders");
                        holders.fetch_sub(1, Ordering::SeqCst);
                        sys::remove_held_lock_file(&f, &lock_path);
                        drop(f);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert!(!lock_path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

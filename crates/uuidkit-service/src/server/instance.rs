//! One server per socket: the exclusive `flock` on `SOCKET.lock`, taken before anything else
//! and held for the server's life. The lock file is removed when the lock is released, while
//! it is still held; a taker that locked a file no longer at the path (removed between its
//! `open` and its `flock`) starts over, so that two servers never hold two different files.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::error::ServerError;
use crate::sys;

/// The exclusive lock on `SOCKET.lock` that makes a server the only one on its socket.
///
/// [`Server::bind`](crate::server::Server::bind) takes it itself; a program that wants to fail
/// before doing anything else (opening the state file) takes it first and passes it to
/// [`Server::bind_locked`](crate::server::Server::bind_locked).
///
/// ```
/// use uuidkit_service::server::InstanceLock;
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-ilock", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let sock = dir.join("s.sock");
/// let first = InstanceLock::acquire(&sock)?;
/// // A second server on the same socket fails at once, naming the holder.
/// let e = InstanceLock::acquire(&sock).unwrap_err();
/// assert!(e.to_string().contains(&format!("pid {}", std::process::id())), "{e}");
/// drop(first);
/// let _again = InstanceLock::acquire(&sock)?;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct InstanceLock {
    file: File,
    pub(super) socket: PathBuf,
    lock_path: PathBuf,
    /// The process that took it: a forked child that drops its copy leaves the file alone.
    pid: u32,
}

impl InstanceLock {
    /// Takes the lock for `socket`; fails at once, naming the holder's process id, when
    /// another server holds it.
    ///
    /// ```
    /// use uuidkit_service::server::InstanceLock;
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-acquire", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let _lock = InstanceLock::acquire(dir.join("s.sock"))?;
    /// // The lock file next to the socket names the holder.
    /// let holder = std::fs::read_to_string(dir.join("s.sock.lock"))?;
    /// assert_eq!(holder.trim(), std::process::id().to_string());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn acquire(socket: impl AsRef<Path>) -> Result<InstanceLock, ServerError> {
        let socket = socket.as_ref();
        let mut p = socket.as_os_str().to_os_string();
        p.push(".lock");
        let lock_path = PathBuf::from(p);
        Ok(InstanceLock {
            file: take_instance_lock(socket, &lock_path)?,
            socket: socket.to_path_buf(),
            lock_path,
            pid: std::process::id(),
        })
    }

    /// Releases the lock and removes its file (also done when it is dropped).
    ///
    /// ```
    /// use uuidkit_service::server::InstanceLock;
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-irelease", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let lock = InstanceLock::acquire(dir.join("s.sock"))?;
    /// assert!(dir.join("s.sock.lock").exists());
    /// lock.release();
    /// assert!(!dir.join("s.sock.lock").exists()); // nothing left behind
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn release(self) {
        drop(self);
    }
}

impl Drop for InstanceLock {
    fn drop(&mut self) {
        if self.pid == std::process::id() {
            sys::remove_held_lock_file(&self.file, &self.lock_path);
        }
    }
}

/// How often a taker starts over because the file it locked was removed meanwhile: each
/// time, a server released the lock; more than this many in a row is not a race but a fault.
const LOCK_ATTEMPTS: usize = 100;

/// `SOCKET.lock`, held for the server's life.
fn take_instance_lock(socket: &Path, lock_path: &Path) -> Result<File, ServerError> {
    for _ in 0..LOCK_ATTEMPTS {
        if let Some(f) = try_instance_lock(socket, lock_path)? {
            return Ok(f);
        }
    }
    Err(ServerError::new(format!(
        "cannot lock {}: it was removed and created again {LOCK_ATTEMPTS} times while \
         being locked",
        lock_path.display()
    )))
}

/// One attempt: the locked file, or `None` when it was removed from the path meanwhile.
fn try_instance_lock(socket: &Path, lock_path: &Path) -> Result<Option<File>, ServerError> {
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(lock_path)
        .map_err(|e| ServerError::io(format!("cannot open {}", lock_path.display()), e))?;
    loop {
        let e = match sys::try_lock_exclusive(&f) {
            Ok(()) => break,
            Err(e) => e,
        };
        if e.kind() == io::ErrorKind::Interrupted {
            continue;
        }
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            let mut pid = String::new();
            let _ = f.read_to_string(&mut pid);
            let pid = pid.trim();
            return Err(ServerError::new(format!(
                "another uuidkit serve{} is already running on {} (lock {})",
                if pid.is_empty() {
                    String::new()
                } else {
                    format!(" (pid {pid})")
                },
                socket.display(),
                lock_path.display()
            )));
        }
        return Err(ServerError::io(
            format!("cannot lock {}", lock_path.display()),
            e,
        ));
    }
    if !sys::is_same_file(&f, lock_path) {
        // Its holder removed it after we opened it: a lock on it protects nothing.
        return Ok(None);
    }
    let _ = f.set_len(0);
    let _ = writeln!(f, "{}", std::process::id());
    Ok(Some(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Threads that take and release the lock over and over (each release removes the lock
    /// file) are never two holders at once: a taker that locked a file removed meanwhile sees
    /// it and starts over. Without that check, two takers end up holding two different files.
    #[test]
    fn removing_the_lock_file_on_release_keeps_one_holder() {
        let dir = std::env::temp_dir().join(format!("uk-ilock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sock = Arc::new(dir.join("s.sock"));
        let holders = Arc::new(AtomicUsize::new(0));
        let taken = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (sock, holders, taken) =
                    (Arc::clone(&sock), Arc::clone(&holders), Arc::clone(&taken));
                std::thread::spawn(move || {
                    for _ in 0..2000 {
                        let Ok(lock) = InstanceLock::acquire(&*sock) else {
                            continue; // held by another thread: try again
                        };
                        assert_eq!(holders.fetch_add(1, Ordering::SeqCst), 0, "two holders");
                        taken.fetch_add(1, Ordering::SeqCst);
                        holders.fetch_sub(1, Ordering::SeqCst);
                        lock.release();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert!(taken.load(Ordering::SeqCst) > 0);
        assert!(!dir.join("s.sock.lock").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

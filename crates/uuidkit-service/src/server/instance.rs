//! One server per socket: the exclusive `flock` on `SOCKET.lock`, taken before anything else
//! and held for the server's life.

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
    pub(super) file: File,
    pub(super) socket: PathBuf,
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
        Ok(InstanceLock {
            file: take_instance_lock(socket)?,
            socket: socket.to_path_buf(),
        })
    }
}

/// `SOCKET.lock`, held for the server's life.
fn take_instance_lock(socket: &Path) -> Result<File, ServerError> {
    let mut p = socket.as_os_str().to_os_string();
    p.push(".lock");
    let lock_path = PathBuf::from(p);
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&lock_path)
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
    let _ = f.set_len(0);
    let _ = writeln!(f, "{}", std::process::id());
    Ok(f)
}

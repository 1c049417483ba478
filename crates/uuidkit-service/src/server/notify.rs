//! Notices to a service manager (systemd's `sd_notify` protocol): one datagram of
//! `VARIABLE=value` lines to the Unix socket named by `NOTIFY_SOCKET`, a path or, with a
//! leading `@`, a Linux abstract address. The server sends `READY=1` once its listeners are up
//! and its state file is open, `STATUS=…` lines saying what it does, and `STOPPING=1` when it
//! begins to stop. A notice that cannot be sent is an error for the caller to log, never a
//! reason to stop.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixDatagram;
use std::path::PathBuf;

use crate::sys;

/// The environment variable that names the service manager's notification socket.
pub const NOTIFY_SOCKET_ENV: &str = "NOTIFY_SOCKET";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Path(PathBuf),
    /// An abstract address (Linux): the name without its leading `@`.
    Abstract(Vec<u8>),
    /// A value that names no Unix socket: every notice fails, saying so.
    Invalid(OsString),
}

/// Where notices go: the service manager's socket, or nowhere.
///
/// ```
/// use std::os::unix::net::UnixDatagram;
/// use uuidkit_service::server::Notifier;
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-notify", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let manager = UnixDatagram::bind(dir.join("notify"))?;
/// let n = Notifier::to(dir.join("notify"));
/// n.notify("READY=1\nSTATUS=serving")?;
/// let mut buf = [0u8; 64];
/// let len = manager.recv(&mut buf)?;
/// assert_eq!(&buf[..len], b"READY=1\nSTATUS=serving");
/// // Nowhere: nothing is sent, and that is no error.
/// assert!(!Notifier::none().is_enabled());
/// Notifier::none().notify("READY=1")?;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notifier {
    target: Option<Target>,
}

impl Notifier {
    /// Notices go nowhere.
    pub fn none() -> Notifier {
        Notifier::default()
    }

    /// Notices go to the socket `addr`: a path, or `@name` for a Linux abstract address.
    /// Anything else (a relative path, systemd's `vsock:` addresses) makes every notice fail
    /// with an error saying so. Empty means nowhere.
    pub fn to(addr: impl AsRef<OsStr>) -> Notifier {
        let addr = addr.as_ref();
        let b = addr.as_bytes();
        let target = match b.first() {
            None => None,
            Some(b'/') => Some(Target::Path(PathBuf::from(addr))),
            Some(b'@') if b.len() > 1 => Some(Target::Abstract(b[1..].to_vec())),
            Some(_) => Some(Target::Invalid(addr.to_os_string())),
        };
        Notifier { target }
    }

    /// Notices go to `$NOTIFY_SOCKET` (nowhere if it is unset or empty), which is then removed
    /// from the environment so that child processes do not notify in the server's name. Call
    /// it early, from the main thread, before other threads read the environment.
    ///
    /// ```
    /// use uuidkit_service::server::{Notifier, NOTIFY_SOCKET_ENV};
    /// // SAFETY: one thread: nothing reads the environment meanwhile.
    /// unsafe {
    ///     std::env::set_var(NOTIFY_SOCKET_ENV, "@uuidkit-doc-notify");
    /// }
    /// let n = Notifier::from_env();
    /// assert!(n.is_enabled());
    /// assert!(std::env::var_os(NOTIFY_SOCKET_ENV).is_none());
    /// assert_eq!(n, Notifier::to("@uuidkit-doc-notify"));
    /// ```
    pub fn from_env() -> Notifier {
        let v = std::env::var_os(NOTIFY_SOCKET_ENV);
        // SAFETY: the documented contract above: called early, from the main thread, before
        // other threads read the environment (`uuidkit serve` calls it first), so no getenv
        // runs beside this change.
        unsafe { std::env::remove_var(NOTIFY_SOCKET_ENV) };
        v.map_or_else(Notifier::none, Notifier::to)
    }

    /// Whether notices go anywhere.
    pub fn is_enabled(&self) -> bool {
        self.target.is_some()
    }

    /// Sends `state` (newline-separated `VARIABLE=value` lines, such as `READY=1`) in one
    /// datagram; `Ok` without sending when notices go nowhere.
    ///
    /// ```
    /// use uuidkit_service::server::Notifier;
    /// // Nobody listens there: an error for the caller to log.
    /// let e = Notifier::to("/nonexistent/notify").notify("READY=1").unwrap_err();
    /// assert!(e.to_string().contains("/nonexistent/notify"), "{e}");
    /// let e = Notifier::to("vsock:2:1234").notify("READY=1").unwrap_err();
    /// assert!(e.to_string().contains("not a Unix socket"), "{e}");
    /// ```
    pub fn notify(&self, state: &str) -> io::Result<()> {
        let Some(target) = &self.target else {
            return Ok(());
        };
        let context = |e: io::Error, to: &dyn std::fmt::Display| {
            io::Error::new(e.kind(), format!("notifying {to}: {e}"))
        };
        match target {
            Target::Invalid(v) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{NOTIFY_SOCKET_ENV}={v:?} is not a Unix socket address (an absolute path \
                     or @name)"
                ),
            )),
            Target::Path(p) => {
                let s = UnixDatagram::unbound().map_err(|e| context(e, &p.display()))?;
                s.send_to(state.as_bytes(), p)
                    .map_err(|e| context(e, &p.display()))?;
                Ok(())
            }
            Target::Abstract(name) => {
                let shown = format!("@{}", String::from_utf8_lossy(name));
                let s = UnixDatagram::unbound().map_err(|e| context(e, &shown))?;
                sys::send_to_abstract(&s, name, state.as_bytes())
                    .map_err(|e| context(e, &shown))?;
                Ok(())
            }
        }
    }
}

//! The errors of talking to the service (or of the local fallback).

use core::fmt;
use std::io;

use crate::protocol::Status;

/// The kind of a [`ServiceError`].
///
/// ```
/// use std::os::unix::net::UnixListener;
/// use std::time::Duration;
/// use uuidkit_service::client::{Connection, ServiceErrorKind};
/// use uuidkit_service::state::TimeVersion;
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-kind", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// // Nobody listens on `nobody.sock`: unavailable.
/// let e = Connection::connect(dir.join("nobody.sock"), Duration::from_secs(5)).unwrap_err();
/// assert_eq!(e.kind(), ServiceErrorKind::Unavailable);
/// // A listener that never answers: the read times out, an I/O error.
/// let _silent = UnixListener::bind(dir.join("silent.sock"))?;
/// let mut c = Connection::connect(dir.join("silent.sock"), Duration::from_millis(10))?;
/// let e = c.generate(TimeVersion::V7, 1, &mut Vec::new()).unwrap_err();
/// assert_eq!(e.kind(), ServiceErrorKind::Io);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ServiceErrorKind {
    /// No socket path: neither given nor found in the environment.
    NoSocket,
    /// Connecting failed (no server, permission denied).
    Unavailable,
    /// Reading or writing the connection failed, or it timed out.
    Io,
    /// The reply did not follow the protocol.
    Protocol,
    /// The server answered with an error status.
    Server,
    /// The local fallback generator failed.
    Local,
    /// The process listening on the socket runs as a user the client does not trust (neither
    /// root, nor the client's own user, nor the one configured with
    /// [`ClientConfig::server_uid`](crate::client::ClientConfig::server_uid)): another user may
    /// have bound the socket first. Never a reason to fall back silently.
    Untrusted,
}

/// An error talking to the service (or of the local fallback).
///
/// ```
/// use std::error::Error;
/// use std::time::Duration;
/// use uuidkit_service::client::Connection;
/// let e = Connection::connect("/nonexistent/uuidkit.sock", Duration::from_secs(5)).unwrap_err();
/// // The message names the socket and the operating system's reason, which is the source.
/// assert!(e.to_string().contains("/nonexistent/uuidkit.sock"), "{e}");
/// let os = e.source().and_then(|s| s.downcast_ref::<std::io::Error>());
/// assert_eq!(os.map(|o| o.kind()), Some(std::io::ErrorKind::NotFound));
/// ```
#[derive(Debug)]
pub struct ServiceError {
    kind: ServiceErrorKind,
    msg: String,
    status: Option<Status>,
    io: Option<io::Error>,
}

impl ServiceError {
    /// The server answered `status` with the text `msg`.
    pub(super) fn server(status: Status, msg: String) -> ServiceError {
        ServiceError {
            kind: ServiceErrorKind::Server,
            msg,
            status: Some(status),
            io: None,
        }
    }

    pub(super) fn new(kind: ServiceErrorKind, msg: impl Into<String>) -> ServiceError {
        ServiceError {
            kind,
            msg: msg.into(),
            status: None,
            io: None,
        }
    }

    pub(super) fn io(kind: ServiceErrorKind, msg: impl Into<String>, e: io::Error) -> ServiceError {
        ServiceError {
            kind,
            msg: msg.into(),
            status: None,
            io: Some(e),
        }
    }

    /// The kind of error.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, ServiceErrorKind, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// // Without fallback, an unreachable service is an error of its own kind.
    /// let cfg = ClientConfig::new("/nonexistent/uuidkit.sock").fallback(false);
    /// let e = SystemGenerator::new(cfg).next(TimeVersion::V1).unwrap_err();
    /// assert_eq!(e.kind(), ServiceErrorKind::Unavailable);
    /// assert_eq!(e.status(), None); // no server answered
    /// ```
    pub const fn kind(&self) -> ServiceErrorKind {
        self.kind
    }

    /// The server's status, for [`ServiceErrorKind::Server`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::{Connection, ServiceErrorKind};
    /// use uuidkit_service::protocol::Status;
    /// use uuidkit_service::state::TimeVersion;
    /// # use std::io::{Read, Write};
    /// # use uuidkit_service::protocol::error_frame;
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-status", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let listener = std::os::unix::net::UnixListener::bind(&sock)?;
    /// # let fake = std::thread::spawn(move || -> std::io::Result<()> {
    /// #     let (mut s, _) = listener.accept()?;
    /// #     s.read_exact(&mut [0u8; 12])?;
    /// #     let mut out = Vec::new();
    /// #     error_frame(Status::Generator, 7, "state file not writable", &mut out);
    /// #     s.write_all(&out)
    /// # });
    ///
    /// // The server at `sock` (a stand-in here) cannot generate: strict mode, state not writable.
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// let e = c.generate(TimeVersion::V7, 1, &mut Vec::new()).unwrap_err();
    /// assert_eq!((e.kind(), e.status()), (ServiceErrorKind::Server, Some(Status::Generator)));
    /// assert!(e.to_string().contains("state file not writable"), "{e}");
    /// # fake.join().map_err(|_| "stand-in server panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn status(&self) -> Option<Status> {
        self.status
    }

    /// Whether the service could not be reached or stopped answering (as opposed to answering
    /// with an error): the cases where falling back to local generation makes sense. Having no
    /// socket path at all ([`ServiceErrorKind::NoSocket`]) counts: with no service to ask, a
    /// generator with fallback on generates locally.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::protocol::Status;
    /// use uuidkit_service::state::TimeVersion;
    /// # use std::io::{Read, Write};
    /// # use uuidkit_service::protocol::error_frame;
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-unreach", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let listener = std::os::unix::net::UnixListener::bind(&sock)?;
    /// # let fake = std::thread::spawn(move || -> std::io::Result<()> {
    /// #     let (mut s, _) = listener.accept()?;
    /// #     s.read_exact(&mut [0u8; 12])?;
    /// #     let mut out = Vec::new();
    /// #     error_frame(Status::ShuttingDown, 7, "shutting down", &mut out);
    /// #     s.write_all(&out)
    /// # });
    ///
    /// let e = Connection::connect(dir.join("nobody.sock"), Duration::from_secs(5)).unwrap_err();
    /// assert!(e.is_unreachable());
    /// // A server that is stopping (a stand-in at `sock` here) is as good as gone.
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// let e = c.generate(TimeVersion::V7, 1, &mut Vec::new()).unwrap_err();
    /// assert_eq!(e.status(), Some(Status::ShuttingDown));
    /// assert!(e.is_unreachable());
    /// # fake.join().map_err(|_| "stand-in server panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn is_unreachable(&self) -> bool {
        matches!(
            self.kind,
            ServiceErrorKind::NoSocket
                | ServiceErrorKind::Unavailable
                | ServiceErrorKind::Io
                | ServiceErrorKind::Protocol
        ) || matches!(self.status, Some(Status::ShuttingDown | Status::Busy))
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)?;
        if let Some(e) = &self.io {
            write!(f, ": {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ServiceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io.as_ref().map(|e| e as _)
    }
}

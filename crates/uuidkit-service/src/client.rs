//! Clients of `uuidkit serve`: one blocking [`Connection`], and the [`SystemGenerator`] that
//! caches a block of UUIDs per process (RFC 9562 §6.3) and falls back to the in-process
//! generators when the service cannot be reached.
//!
//! ```
//! use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
//! use uuidkit_service::state::{Safety, TimeVersion};
//! # use uuidkit_service::server::{Server, ServerConfig};
//! # use uuidkit_service::state::{DurableGenerator, StateOptions};
//! # let dir = std::env::temp_dir().join(format!("uk-doc-{}-client", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let sock = dir.join("s.sock");
//! # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
//! # let server = Server::bind(ServerConfig::new(&sock), gen)?;
//! # let stop = server.shutdown_handle();
//! # let running = std::thread::spawn(move || server.run());
//! // `sock` is where `uuidkit serve` listens (here: a server run by this process).
//! let gen = SystemGenerator::new(ClientConfig::new(&sock).block(1));
//! let a = gen.next(TimeVersion::V7)?;
//! assert_eq!((a.source, a.safety), (Source::Service, Safety::Durable));
//! // Once the service is gone, the in-process generator takes over.
//! stop.shutdown();
//! # running.join().map_err(|_| "server thread panicked")??;
//! let b = gen.next(TimeVersion::V7)?;
//! assert_eq!((b.source, b.safety), (Source::Local, Safety::Volatile));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::protocol::{
    Info, ReplyHeader, Request, Status, FLAG_DURABLE, MAX_COUNT, MAX_REPLY_LEN, REPLY_HEADER_LEN,
};
use crate::state::{Safety, TimeVersion};
use uuidkit::gen::{fork_generation, global, GenError};
use uuidkit::{Uuid, Variant};

/// The environment variable that names the service's socket.
pub const SOCKET_ENV: &str = "UUIDKIT_SOCKET";

/// The socket a client uses when none is given: `$UUIDKIT_SOCKET`, else the server's default
/// ([`default_server_socket`]).
///
/// ```
/// use std::path::PathBuf;
/// use uuidkit_service::client::{default_server_socket, default_socket, SOCKET_ENV};
/// std::env::set_var(SOCKET_ENV, "/tmp/my-uuidkit.sock");
/// assert_eq!(default_socket(), Some(PathBuf::from("/tmp/my-uuidkit.sock")));
/// // Empty counts as unset: the server's default applies.
/// std::env::set_var(SOCKET_ENV, "");
/// assert_eq!(default_socket(), default_server_socket());
/// ```
pub fn default_socket() -> Option<PathBuf> {
    match std::env::var_os(SOCKET_ENV) {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => default_server_socket(),
    }
}

/// The socket `uuidkit serve` listens on by default: `/run/uuidkit/uuidkit.sock` for root,
/// `$XDG_RUNTIME_DIR/uuidkit.sock` for other users; `None` when neither applies.
///
/// ```
/// use std::path::PathBuf;
/// use uuidkit_service::client::default_server_socket;
/// std::env::remove_var("XDG_RUNTIME_DIR");
/// let root = default_server_socket().is_some(); // without it, only root has a default
/// std::env::set_var("XDG_RUNTIME_DIR", "/run/user/1000");
/// let want = if root { "/run/uuidkit/uuidkit.sock" } else { "/run/user/1000/uuidkit.sock" };
/// assert_eq!(default_server_socket(), Some(PathBuf::from(want)));
/// ```
pub fn default_server_socket() -> Option<PathBuf> {
    // SAFETY: geteuid takes no arguments, cannot fail and has no side effects.
    if unsafe { libc::geteuid() } == 0 {
        return Some(PathBuf::from("/run/uuidkit/uuidkit.sock"));
    }
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(d) if !d.is_empty() => Some(Path::new(&d).join("uuidkit.sock")),
        _ => None,
    }
}

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
    fn new(kind: ServiceErrorKind, msg: impl Into<String>) -> ServiceError {
        ServiceError {
            kind,
            msg: msg.into(),
            status: None,
            io: None,
        }
    }

    fn io(kind: ServiceErrorKind, msg: impl Into<String>, e: io::Error) -> ServiceError {
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

/// One connection to the service. Blocking; not shared between threads (use
/// [`SystemGenerator`] for that).
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::client::Connection;
/// use uuidkit_service::state::{Safety, TimeVersion};
/// # use uuidkit_service::server::{Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-conn", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
/// # let stop = server.shutdown_handle();
/// # let running = std::thread::spawn(move || server.run());
/// // `sock` is where `uuidkit serve` listens (here: a server run by this process).
/// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
/// let mut out = Vec::new();
/// let safety = c.generate(TimeVersion::V7, 100, &mut out)?;
/// assert_eq!(out.len(), 100);
/// assert!(out.windows(2).all(|w| w[0] < w[1]));
/// assert_eq!(safety, Safety::Durable); // the server's state file covers them
/// # stop.shutdown();
/// # running.join().map_err(|_| "server thread panicked")??;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Connection {
    stream: UnixStream,
    path: PathBuf,
    buf: Vec<u8>,
}

impl Connection {
    /// Connects, giving up after `timeout` (a server whose accept queue is full counts as
    /// unreachable), with the same `timeout` on every later read and write.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::{Connection, ServiceErrorKind};
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-connect", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// assert_eq!(c.info()?.pid, std::process::id()); // this process runs the server here
    /// let e = Connection::connect(dir.join("nobody.sock"), Duration::from_secs(5)).unwrap_err();
    /// assert_eq!(e.kind(), ServiceErrorKind::Unavailable);
    /// assert!(e.to_string().contains("nobody.sock"), "{e}");
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn connect(path: impl AsRef<Path>, timeout: Duration) -> Result<Connection, ServiceError> {
        let path = path.as_ref();
        let t = timeout.max(Duration::from_millis(1));
        let stream = connect_within(path, t).map_err(|e| {
            ServiceError::io(
                ServiceErrorKind::Unavailable,
                format!("cannot reach the uuidkit service at {}", path.display()),
                e,
            )
        })?;
        let _ = stream.set_read_timeout(Some(t));
        let _ = stream.set_write_timeout(Some(t));
        Ok(Connection {
            stream,
            path: path.to_path_buf(),
            buf: Vec::new(),
        })
    }

    fn io_err(&self, what: &str, e: io::Error) -> ServiceError {
        ServiceError::io(
            ServiceErrorKind::Io,
            format!("uuidkit service at {}: {what}", self.path.display()),
            e,
        )
    }

    fn proto_err(&self, what: impl fmt::Display) -> ServiceError {
        ServiceError::new(
            ServiceErrorKind::Protocol,
            format!("uuidkit service at {}: {what}", self.path.display()),
        )
    }

    /// Sends a request and reads the reply's header and body into `self.buf`.
    fn round_trip(&mut self, req: &Request) -> Result<ReplyHeader, ServiceError> {
        self.stream
            .write_all(&req.encode())
            .map_err(|e| self.io_err("sending the request", e))?;
        let mut len = [0u8; 4];
        self.stream
            .read_exact(&mut len)
            .map_err(|e| self.io_err("reading the reply", e))?;
        let len = u32::from_be_bytes(len);
        if len < REPLY_HEADER_LEN as u32 || len > MAX_REPLY_LEN {
            return Err(self.proto_err(format_args!(
                "reply length {len} outside {REPLY_HEADER_LEN}..={MAX_REPLY_LEN}"
            )));
        }
        self.buf.resize(len as usize, 0);
        let mut buf = std::mem::take(&mut self.buf);
        let read = self.stream.read_exact(&mut buf);
        self.buf = buf;
        read.map_err(|e| self.io_err("reading the reply", e))?;
        let h = ReplyHeader::parse(&self.buf).map_err(|m| self.proto_err(m))?;
        if h.status != Status::Ok {
            let msg = String::from_utf8_lossy(self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]));
            return Err(ServiceError {
                kind: ServiceErrorKind::Server,
                msg: format!(
                    "uuidkit service at {}: {:?}: {msg}",
                    self.path.display(),
                    h.status
                ),
                status: Some(h.status),
                io: None,
            });
        }
        Ok(h)
    }

    /// Asks for `count` UUIDs of `version` (the server sends at most
    /// [`MAX_COUNT`]) and appends them to `out`, in the order issued. Checks that each is of
    /// the version asked and that they increase (v1: by timestamp).
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::protocol::MAX_COUNT;
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-generate", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// let mut out = Vec::new();
    /// c.generate(TimeVersion::V1, 10, &mut out)?;
    /// c.generate(TimeVersion::V1, MAX_COUNT + 1, &mut out)?; // appended; MAX_COUNT at most
    /// assert_eq!(out.len(), 10 + MAX_COUNT as usize);
    /// assert!(out.iter().all(|u| u.version_num() == 1));
    /// // v1 does not sort by its bytes; its 60-bit timestamps increase.
    /// assert!(out.windows(2).all(|w| w[0].gregorian_ticks() < w[1].gregorian_ticks()));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate(
        &mut self,
        version: TimeVersion,
        count: u32,
        out: &mut Vec<Uuid>,
    ) -> Result<Safety, ServiceError> {
        let start = out.len();
        out.resize(start + count.min(MAX_COUNT) as usize, Uuid::NIL);
        let r = self.generate_into(version, &mut out[start..]);
        out.truncate(start + r.as_ref().map_or(0, |&(n, _)| n));
        r.map(|(_, safety)| safety)
    }

    /// Asks for `out.len()` UUIDs of `version` (at most [`MAX_COUNT`] come) and writes them to
    /// the front of `out`, checked as in [`generate`](Self::generate); how many came. On an
    /// error, what `out` holds is unspecified.
    fn generate_into(
        &mut self,
        version: TimeVersion,
        out: &mut [Uuid],
    ) -> Result<(usize, Safety), ServiceError> {
        let count = u32::try_from(out.len()).unwrap_or(u32::MAX);
        let h = self.round_trip(&Request::generate(version, count))?;
        let body = self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]);
        let n = h.n as usize;
        let got = match out.get_mut(..n) {
            Some(got) if h.n <= MAX_COUNT && body.len() == n * 16 => got,
            _ => {
                return Err(self.proto_err(format_args!(
                    "{} UUIDs in {} bytes for a request of {count}",
                    h.n,
                    body.len()
                )))
            }
        };
        if h.version != version.as_u8() {
            return Err(self.proto_err(format_args!(
                "reply for version {} to a request for {version}",
                h.version
            )));
        }
        // Copied first, then checked in place: a pass of each takes about half the CPU time of
        // one pass doing both (measured with examples/service_bench.rs).
        for (slot, chunk) in got.iter_mut().zip(body.chunks_exact(16)) {
            let mut b = [0u8; 16];
            b.copy_from_slice(chunk);
            *slot = Uuid::from_bytes(b);
        }
        let mut prev: Option<&Uuid> = None;
        let bad = got.iter().find(|&u| {
            let ok_version = u.variant() == Variant::Rfc9562 && u.version_num() == version.as_u8();
            let increasing = prev.is_none_or(|p| match version {
                TimeVersion::V1 => p.gregorian_ticks() < u.gregorian_ticks(),
                _ => p < u,
            });
            prev = Some(u);
            !ok_version || !increasing
        });
        if let Some(u) = bad {
            return Err(self.proto_err(format_args!(
                "reply UUID {u} is not a {version} UUID in increasing order"
            )));
        }
        let safety = if h.flags & FLAG_DURABLE != 0 {
            Safety::Durable
        } else {
            Safety::Volatile
        };
        Ok((n, safety))
    }

    /// The server's limits and state.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::protocol::MAX_COUNT;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-cinfo", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let info = Connection::connect(&sock, Duration::from_secs(5))?.info()?;
    /// assert_eq!(info.max_count, MAX_COUNT);
    /// assert_eq!(info.pid, std::process::id()); // this process runs the server here
    /// assert!(info.durable && !info.strict); // its state file is written; not strict
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn info(&mut self) -> Result<Info, ServiceError> {
        self.round_trip(&Request::info())?;
        let body = self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]);
        Info::parse(body).ok_or_else(|| self.proto_err("info reply too short"))
    }
}

/// The address of the socket at `path`, and its length.
fn socket_addr(path: &Path) -> io::Result<(libc::sockaddr_un, libc::socklen_t)> {
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid, empty address.
    let mut addr: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    addr.sun_family = libc::AF_UNIX as libc::sa_family_t;
    let bytes = path.as_os_str().as_bytes();
    if bytes.contains(&0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the socket path contains a NUL byte",
        ));
    }
    // One byte stays for the terminating NUL.
    if bytes.len() >= addr.sun_path.len() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the socket path is {} bytes long; a Unix socket address holds at most {}",
                bytes.len(),
                addr.sun_path.len() - 1
            ),
        ));
    }
    for (d, s) in addr.sun_path.iter_mut().zip(bytes) {
        *d = *s as libc::c_char;
    }
    let len = std::mem::offset_of!(libc::sockaddr_un, sun_path) + bytes.len() + 1;
    Ok((addr, len as libc::socklen_t))
}

/// Connects to the socket at `path`, giving up after `timeout`. A plain `connect` blocks for as
/// long as the server's accept queue is full (a hung or overwhelmed server), which would hang
/// the client before its fallback could take over; Linux bounds that wait by the socket's send
/// timeout (`SO_SNDTIMEO`), so the socket is made by hand to set it first.
fn connect_within(path: &Path, timeout: Duration) -> io::Result<UnixStream> {
    let (addr, len) = socket_addr(path)?;
    let sock = crate::sys::unix_stream_socket()?;
    let deadline = Instant::now() + timeout;
    loop {
        // A zero send timeout means none at all: keep at least a microsecond.
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_micros(1));
        let tv = libc::timeval {
            tv_sec: left.as_secs().min(libc::time_t::MAX as u64) as libc::time_t,
            tv_usec: left.subsec_micros() as libc::suseconds_t,
        };
        // SAFETY: `tv` is a live timeval and the length passed is its size; the descriptor
        // is open (owned by `sock`).
        let rc = unsafe {
            libc::setsockopt(
                sock.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_SNDTIMEO,
                (&raw const tv).cast(),
                std::mem::size_of::<libc::timeval>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `addr` is a live, initialised sockaddr_un and `len` does not exceed its
        // size; the descriptor is open.
        let rc = unsafe { libc::connect(sock.as_raw_fd(), (&raw const addr).cast(), len) };
        if rc == 0 {
            return Ok(UnixStream::from(sock));
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            // A signal cut the wait short; an AF_UNIX socket is still unconnected then.
            Some(libc::EINTR) if Instant::now() < deadline => continue,
            // The send timeout ran out with the server's queue still full.
            Some(libc::EAGAIN) => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "no connection within {timeout:?}: the server is not accepting \
                         connections (its queue is full)"
                    ),
                ))
            }
            _ => return Err(e),
        }
    }
}

/// Which generator produced a UUID.
///
/// ```
/// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
/// use uuidkit_service::state::TimeVersion;
/// # use uuidkit_service::server::{Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-source", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
/// # let stop = server.shutdown_handle();
/// # let running = std::thread::spawn(move || server.run());
/// let served = SystemGenerator::new(ClientConfig::new(&sock));
/// assert_eq!(served.next(TimeVersion::V7)?.source, Source::Service);
/// // Nothing listens on `nobody.sock`: the in-process generator answers.
/// let local = SystemGenerator::new(ClientConfig::new(dir.join("nobody.sock")));
/// assert_eq!(local.next(TimeVersion::V7)?.source, Source::Local);
/// # stop.shutdown();
/// # running.join().map_err(|_| "server thread panicked")??;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The system-wide service.
    Service,
    /// The in-process generator ([`gen::global`](uuidkit::gen::global)), because the service
    /// could not be reached.
    Local,
}

/// One UUID and where it came from.
///
/// ```
/// use uuidkit_service::client::{ClientConfig, Generated, Source, SystemGenerator};
/// use uuidkit_service::state::{Safety, TimeVersion};
/// # use uuidkit_service::server::{Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-generated", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
/// # let stop = server.shutdown_handle();
/// # let running = std::thread::spawn(move || server.run());
/// let g: Generated = SystemGenerator::new(ClientConfig::new(&sock)).next(TimeVersion::V6)?;
/// assert_eq!(g.uuid.version_num(), 6);
/// assert_eq!((g.source, g.safety), (Source::Service, Safety::Durable));
/// # stop.shutdown();
/// # running.join().map_err(|_| "server thread panicked")??;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Generated {
    /// The UUID.
    pub uuid: Uuid,
    /// Which generator made it.
    pub source: Source,
    /// Whether a state file covers it (local UUIDs never are).
    pub safety: Safety,
}

/// Where the UUIDs of one [`SystemGenerator::fill`] came from.
///
/// ```
/// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
/// use uuidkit_service::state::{Safety, TimeVersion};
/// use uuidkit::Uuid;
/// // No service at this path: all five come from the in-process generator.
/// let gen = SystemGenerator::new(ClientConfig::new("/nonexistent/uuidkit.sock"));
/// let mut out = [Uuid::NIL; 5];
/// let f = gen.fill(TimeVersion::V7, &mut out)?;
/// assert_eq!((f.from_service, f.safety), (0, Safety::Volatile));
/// assert_eq!(f.source_of(0), Source::Local);
/// assert!(out.windows(2).all(|w| w[0] < w[1]));
/// # Ok::<(), uuidkit_service::client::ServiceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filled {
    /// `out[..from_service]` came from the service, the rest from the local generator.
    pub from_service: usize,
    /// Durable only if every UUID is (local ones never are).
    pub safety: Safety,
}

impl Filled {
    /// Which generator made `out[i]`.
    ///
    /// ```
    /// use uuidkit_service::client::{Filled, Source};
    /// use uuidkit_service::state::Safety;
    /// // The service served two, then became unreachable.
    /// let f = Filled { from_service: 2, safety: Safety::Volatile };
    /// assert_eq!(f.source_of(1), Source::Service);
    /// assert_eq!(f.source_of(2), Source::Local);
    /// ```
    pub const fn source_of(&self, i: usize) -> Source {
        if i < self.from_service {
            Source::Service
        } else {
            Source::Local
        }
    }
}

/// How a [`SystemGenerator`] works.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::client::ClientConfig;
/// let c = ClientConfig::new("/run/uuidkit/uuidkit.sock").block(64).fallback(false);
/// assert_eq!(c.socket_path(), Some(std::path::Path::new("/run/uuidkit/uuidkit.sock")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    socket: Option<PathBuf>,
    block: u32,
    max_age: Duration,
    fallback: bool,
    timeout: Duration,
    retry: Duration,
}

impl ClientConfig {
    /// The service at `socket`; blocks of 128, kept at most 1 s; local fallback on; 5 s
    /// timeout; after a failure, the service is tried again after 1 s.
    ///
    /// ```
    /// use std::path::Path;
    /// use std::time::Duration;
    /// use uuidkit_service::client::ClientConfig;
    /// let c = ClientConfig::new("/run/uuidkit/uuidkit.sock");
    /// assert_eq!(c.socket_path(), Some(Path::new("/run/uuidkit/uuidkit.sock")));
    /// let s = Duration::from_secs(1);
    /// let spelled_out = c.clone().block(128).max_age(s).fallback(true);
    /// assert_eq!(c, spelled_out.timeout(5 * s).retry_after(s));
    /// ```
    pub fn new(socket: impl Into<PathBuf>) -> ClientConfig {
        ClientConfig {
            socket: Some(socket.into()),
            ..ClientConfig::from_env()
        }
    }

    /// Like [`new`](Self::new) with the socket of [`default_socket`] (`$UUIDKIT_SOCKET`, …).
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SOCKET_ENV};
    /// std::env::set_var(SOCKET_ENV, "/tmp/my-uuidkit.sock");
    /// assert_eq!(ClientConfig::from_env(), ClientConfig::new("/tmp/my-uuidkit.sock"));
    /// ```
    pub fn from_env() -> ClientConfig {
        ClientConfig {
            socket: default_socket(),
            block: 128,
            max_age: Duration::from_secs(1),
            fallback: true,
            timeout: Duration::from_secs(5),
            retry: Duration::from_secs(1),
        }
    }

    /// How many UUIDs [`SystemGenerator::next`] fetches at once and hands out one by one
    /// (1 to [`MAX_COUNT`]; 1 disables the cache).
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-block", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let cached = SystemGenerator::new(ClientConfig::new(&sock).block(8));
    /// let uncached = SystemGenerator::new(ClientConfig::new(&sock).block(1));
    /// let b1 = uncached.next(TimeVersion::V7)?.uuid;
    /// let a1 = cached.next(TimeVersion::V7)?.uuid; // fetches 8, hands out the first
    /// let b2 = uncached.next(TimeVersion::V7)?.uuid; // fetched now, after all 8
    /// let a2 = cached.next(TimeVersion::V7)?.uuid; // from the cache, issued before b2
    /// assert!(b1 < a1 && a1 < a2 && a2 < b2);
    /// // Out-of-range sizes are clamped.
    /// assert_eq!(ClientConfig::new(&sock).block(0), ClientConfig::new(&sock).block(1));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn block(mut self, n: u32) -> Self {
        self.block = n.clamp(1, MAX_COUNT);
        self
    }

    /// How long a cached block may be used: older UUIDs are dropped so that embedded times
    /// stay close to the time of use (default 1 s).
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-maxage", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// // A block may not be used at all after it is fetched: every UUID is fresh.
    /// let fresh = SystemGenerator::new(ClientConfig::new(&sock).block(8).max_age(Duration::ZERO));
    /// let other = SystemGenerator::new(ClientConfig::new(&sock).block(1));
    /// let a1 = fresh.next(TimeVersion::V7)?.uuid;
    /// let b1 = other.next(TimeVersion::V7)?.uuid;
    /// let a2 = fresh.next(TimeVersion::V7)?.uuid; // not the cached second of a1's block
    /// assert!(a1 < b1 && b1 < a2);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_age(mut self, age: Duration) -> Self {
        self.max_age = age;
        self
    }

    /// Whether to generate in-process when the service cannot be reached (default true).
    /// Server errors are returned either way.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, ServiceErrorKind, Source, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// let cfg = ClientConfig::new("/nonexistent/uuidkit.sock");
    /// let with = SystemGenerator::new(cfg.clone().fallback(true));
    /// assert_eq!(with.next(TimeVersion::V7)?.source, Source::Local);
    /// let without = SystemGenerator::new(cfg.fallback(false));
    /// let e = without.next(TimeVersion::V7).unwrap_err();
    /// assert_eq!(e.kind(), ServiceErrorKind::Unavailable);
    /// # Ok::<(), uuidkit_service::client::ServiceError>(())
    /// ```
    pub fn fallback(mut self, on: bool) -> Self {
        self.fallback = on;
        self
    }

    /// Timeout of connecting-then-each read and write (default 5 s).
    ///
    /// ```
    /// use std::os::unix::net::UnixListener;
    /// use std::time::Duration;
    /// use uuidkit_service::client::{ClientConfig, ServiceErrorKind, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-timeout", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// // Something listens on `silent.sock` but never answers.
    /// let _silent = UnixListener::bind(dir.join("silent.sock"))?;
    /// let cfg = ClientConfig::new(dir.join("silent.sock")).timeout(Duration::from_millis(10));
    /// let e = SystemGenerator::new(cfg.fallback(false)).next(TimeVersion::V7).unwrap_err();
    /// assert_eq!(e.kind(), ServiceErrorKind::Io);
    /// assert!(e.is_unreachable()); // so with fallback, the local generator would answer
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = t;
        self
    }

    /// After the service could not be reached, how long to use the fallback before trying it
    /// again (default 1 s).
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-retry", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// let cfg = ClientConfig::new(&sock);
    /// let patient = SystemGenerator::new(cfg.clone().retry_after(Duration::from_secs(60)));
    /// let eager = SystemGenerator::new(cfg.retry_after(Duration::ZERO));
    /// assert_eq!(patient.next(TimeVersion::V7)?.source, Source::Local); // no service yet
    /// assert_eq!(eager.next(TimeVersion::V7)?.source, Source::Local);
    /// // The service starts at `sock`.
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// assert_eq!(patient.next(TimeVersion::V7)?.source, Source::Local); // still waiting
    /// assert_eq!(eager.next(TimeVersion::V7)?.source, Source::Service);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn retry_after(mut self, t: Duration) -> Self {
        self.retry = t;
        self
    }

    /// The socket path, if one is known.
    ///
    /// ```
    /// use std::path::Path;
    /// use uuidkit_service::client::{ClientConfig, SOCKET_ENV};
    /// let c = ClientConfig::new("/tmp/uk.sock");
    /// assert_eq!(c.socket_path(), Some(Path::new("/tmp/uk.sock")));
    /// std::env::set_var(SOCKET_ENV, "/tmp/from-env.sock");
    /// assert_eq!(ClientConfig::from_env().socket_path(), Some(Path::new("/tmp/from-env.sock")));
    /// ```
    pub fn socket_path(&self) -> Option<&Path> {
        self.socket.as_deref()
    }
}

#[derive(Debug)]
struct Cache {
    uuids: Vec<Uuid>,
    pos: usize,
    safety: Safety,
    fetched: Instant,
}

#[derive(Debug)]
struct Inner {
    conn: Option<Connection>,
    caches: [Option<Cache>; 3],
    fork_gen: u64,
    failed_at: Option<Instant>,
}

fn slot(v: TimeVersion) -> usize {
    match v {
        TimeVersion::V1 => 0,
        TimeVersion::V6 => 1,
        TimeVersion::V7 => 2,
    }
}

/// A process-wide client of the service (`Send + Sync`): v1, v6 and v7 from the system-wide
/// generator when it is reachable, from the in-process one otherwise, each UUID tagged with
/// its [`Source`].
///
/// [`next`](Self::next) fetches a block and hands it out one by one (RFC 9562 §6.3 "allocate a
/// block of timestamps"); [`fill`](Self::fill) asks for exactly as many as needed. The cache is
/// dropped in a forked child (and so is the connection, which the parent still uses), and
/// blocks older than [`max_age`](ClientConfig::max_age) are not used.
///
/// # Order
///
/// UUIDs from the service increase per version across all threads of the process (the cache
/// is consumed in order, and every new block was issued after the previous one). Local UUIDs
/// increase among themselves, but the two sources are not ordered with respect to each other.
///
/// ```
/// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
/// use uuidkit_service::state::{Safety, TimeVersion};
/// // No service at this path: the local generator answers.
/// let gen = SystemGenerator::new(ClientConfig::new("/nonexistent/uuidkit.sock"));
/// let g = gen.next(TimeVersion::V7)?;
/// assert_eq!(g.source, Source::Local);
/// assert_eq!(g.safety, Safety::Volatile);
/// # Ok::<(), uuidkit_service::client::ServiceError>(())
/// ```
#[derive(Debug)]
pub struct SystemGenerator {
    cfg: ClientConfig,
    inner: Mutex<Inner>,
}

impl SystemGenerator {
    /// A client with this configuration; nothing is connected until the first UUID.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-sgnew", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// // Made before the service is up: that is fine, it connects on first use.
    /// let gen = SystemGenerator::new(ClientConfig::new(&sock));
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// assert_eq!(gen.next(TimeVersion::V1)?.source, Source::Service);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(cfg: ClientConfig) -> SystemGenerator {
        SystemGenerator {
            cfg,
            inner: Mutex::new(Inner {
                conn: None,
                caches: [None, None, None],
                fork_gen: fork_generation(),
                failed_at: None,
            }),
        }
    }

    /// The configuration.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// let cfg = ClientConfig::new("/tmp/uk.sock").block(32);
    /// let gen = SystemGenerator::new(cfg.clone());
    /// assert_eq!(gen.config(), &cfg);
    /// ```
    pub fn config(&self) -> &ClientConfig {
        &self.cfg
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let fg = fork_generation();
        if g.fork_gen != fg {
            // A forked child: the parent hands out the same cached UUIDs and talks on the
            // same connection. Drop both (closing our copy of the socket leaves the parent's
            // open).
            g.fork_gen = fg;
            g.caches = [None, None, None];
            g.conn = None;
            g.failed_at = None;
        }
        g
    }

    /// The open connection, connecting first when there is none.
    fn connected<'a>(&self, inner: &'a mut Inner) -> Result<&'a mut Connection, ServiceError> {
        let conn = match inner.conn.take() {
            Some(c) => c,
            None => {
                let Some(path) = self.cfg.socket.as_deref() else {
                    return Err(ServiceError::new(
                        ServiceErrorKind::NoSocket,
                        format!(
                            "no socket for the uuidkit service: set {SOCKET_ENV} or \
                             XDG_RUNTIME_DIR, or give a path"
                        ),
                    ));
                };
                Connection::connect(path, self.cfg.timeout)?
            }
        };
        Ok(inner.conn.insert(conn))
    }

    /// Runs a request on the connection, connecting first if needed, and reconnecting once
    /// when an existing connection turns out dead (a restarted server).
    fn request(
        &self,
        inner: &mut Inner,
        v: TimeVersion,
        out: &mut [Uuid],
    ) -> Result<(usize, Safety), ServiceError> {
        if self.cfg.fallback && inner.conn.is_none() {
            if let Some(t) = inner.failed_at {
                if t.elapsed() < self.cfg.retry {
                    return Err(ServiceError::new(
                        ServiceErrorKind::Unavailable,
                        "the uuidkit service was unreachable moments ago",
                    ));
                }
            }
        }
        for attempt in 0..2 {
            let fresh = inner.conn.is_none();
            let conn = match self.connected(inner) {
                Ok(c) => c,
                Err(e) => {
                    inner.failed_at = Some(Instant::now());
                    return Err(e);
                }
            };
            match conn.generate_into(v, out) {
                Ok(got) => {
                    inner.failed_at = None;
                    return Ok(got);
                }
                Err(e) => {
                    if e.kind() != ServiceErrorKind::Server
                        || e.status().is_some_and(Status::closes)
                    {
                        inner.conn = None;
                    }
                    if e.is_unreachable() && !fresh && attempt == 0 {
                        continue;
                    }
                    if e.is_unreachable() {
                        inner.failed_at = Some(Instant::now());
                    }
                    return Err(e);
                }
            }
        }
        Err(ServiceError::new(
            ServiceErrorKind::Unavailable,
            "the uuidkit service did not answer",
        ))
    }

    fn local(v: TimeVersion, out: &mut [Uuid]) -> Result<(), ServiceError> {
        let map = |e: GenError| ServiceError::new(ServiceErrorKind::Local, e.to_string());
        match v {
            TimeVersion::V7 => global::try_v7_batch(out).map_err(map),
            TimeVersion::V1 => out.iter_mut().try_for_each(|u| {
                *u = global::try_v1().map_err(map)?;
                Ok(())
            }),
            TimeVersion::V6 => out.iter_mut().try_for_each(|u| {
                *u = global::try_v6().map_err(map)?;
                Ok(())
            }),
        }
    }

    /// The next UUID of `version`.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-next", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let gen = SystemGenerator::new(ClientConfig::new(&sock));
    /// let a = gen.next(TimeVersion::V7)?;
    /// let b = gen.next(TimeVersion::V7)?; // from the block fetched for `a`
    /// assert_eq!((a.source, b.source), (Source::Service, Source::Service));
    /// assert!(a.uuid < b.uuid && b.uuid.version_num() == 7);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // Not `Iterator::next`: it takes a version and can fail.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&self, version: TimeVersion) -> Result<Generated, ServiceError> {
        let mut inner = self.lock();
        let i = slot(version);
        if let Some(c) = &mut inner.caches[i] {
            if c.pos < c.uuids.len() && c.fetched.elapsed() <= self.cfg.max_age {
                let uuid = c.uuids[c.pos];
                c.pos += 1;
                return Ok(Generated {
                    uuid,
                    source: Source::Service,
                    safety: c.safety,
                });
            }
        }
        let mut uuids = inner.caches[i].take().map(|c| c.uuids).unwrap_or_default();
        uuids.clear();
        uuids.resize(self.cfg.block as usize, Uuid::NIL);
        match self.request(&mut inner, version, &mut uuids) {
            Ok((n, safety)) if n > 0 => {
                uuids.truncate(n);
                let uuid = uuids[0];
                inner.caches[i] = Some(Cache {
                    uuids,
                    pos: 1,
                    safety,
                    fetched: Instant::now(),
                });
                Ok(Generated {
                    uuid,
                    source: Source::Service,
                    safety,
                })
            }
            Ok(_) => Err(ServiceError::new(
                ServiceErrorKind::Protocol,
                "the uuidkit service sent no UUIDs",
            )),
            Err(e) if self.cfg.fallback && e.is_unreachable() => {
                drop(inner);
                let mut one = [Uuid::NIL];
                Self::local(version, &mut one)?;
                Ok(Generated {
                    uuid: one[0],
                    source: Source::Local,
                    safety: Safety::Volatile,
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Fills `out` with UUIDs of `version`, increasing: first what the cache holds, then fresh
    /// ones from the service in requests of up to [`MAX_COUNT`]; if the service becomes
    /// unreachable (and fallback is on), the rest locally.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// use uuidkit_service::state::{Safety, TimeVersion};
    /// use uuidkit::Uuid;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-fill", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let gen = SystemGenerator::new(ClientConfig::new(&sock));
    /// let mut out = [Uuid::NIL; 100];
    /// let f = gen.fill(TimeVersion::V6, &mut out)?;
    /// assert_eq!((f.from_service, f.safety), (100, Safety::Durable));
    /// assert!(out.windows(2).all(|w| w[0] < w[1]) && out[0].version_num() == 6);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill(&self, version: TimeVersion, out: &mut [Uuid]) -> Result<Filled, ServiceError> {
        let mut inner = self.lock();
        let i = slot(version);
        let mut done = 0;
        let mut safety = Safety::Durable;
        if let Some(c) = &mut inner.caches[i] {
            if c.fetched.elapsed() <= self.cfg.max_age {
                let n = (c.uuids.len() - c.pos).min(out.len());
                out[..n].copy_from_slice(&c.uuids[c.pos..c.pos + n]);
                c.pos += n;
                done = n;
                if n > 0 {
                    safety = safety.and(c.safety);
                }
            } else {
                inner.caches[i] = None;
            }
        }
        while done < out.len() {
            let want = (out.len() - done).min(MAX_COUNT as usize);
            match self.request(&mut inner, version, &mut out[done..done + want]) {
                Ok((n, s)) if n > 0 => {
                    done += n;
                    safety = safety.and(s);
                }
                Ok(_) => {
                    return Err(ServiceError::new(
                        ServiceErrorKind::Protocol,
                        "the uuidkit service sent no UUIDs",
                    ))
                }
                Err(e) if self.cfg.fallback && e.is_unreachable() => {
                    drop(inner);
                    Self::local(version, &mut out[done..])?;
                    return Ok(Filled {
                        from_service: done,
                        safety: Safety::Volatile,
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Ok(Filled {
            from_service: done,
            safety,
        })
    }

    /// Asks the service for its [`Info`] (no fallback).
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, ServiceErrorKind, SystemGenerator};
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-sginfo", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let info = SystemGenerator::new(ClientConfig::new(&sock)).info()?;
    /// assert_eq!(info.pid, std::process::id()); // this process runs the server here
    /// // Without a service there is nothing to fall back to.
    /// let none = SystemGenerator::new(ClientConfig::new(dir.join("nobody.sock")));
    /// assert_eq!(none.info().unwrap_err().kind(), ServiceErrorKind::Unavailable);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn info(&self) -> Result<Info, ServiceError> {
        let mut inner = self.lock();
        let r = self.connected(&mut inner).and_then(Connection::info);
        if r.is_err() {
            inner.conn = None;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No socket path anywhere (a user without `XDG_RUNTIME_DIR` or `UUIDKIT_SOCKET`): with
    /// fallback on, the local generator answers; with it off, the `NoSocket` error comes back.
    #[test]
    fn no_socket_path_falls_back_when_allowed() {
        let without = ClientConfig {
            socket: None,
            ..ClientConfig::new("/unused")
        };
        let g = SystemGenerator::new(without.clone());
        let got = g.next(TimeVersion::V7).expect("the local fallback answers");
        assert_eq!(got.source, Source::Local);
        assert_eq!(got.uuid.version_num(), 7);
        let mut many = [Uuid::NIL; 5];
        let filled = g.fill(TimeVersion::V6, &mut many).expect("fallback fill");
        assert_eq!(filled.from_service, 0);
        assert!(many.iter().all(|u| u.version_num() == 6));

        let strict = SystemGenerator::new(without.fallback(false));
        let e = strict.next(TimeVersion::V7).unwrap_err();
        assert_eq!(e.kind(), ServiceErrorKind::NoSocket);
        // info has no fallback: the same error, either way.
        assert_eq!(g.info().unwrap_err().kind(), ServiceErrorKind::NoSocket);
        assert_eq!(
            strict.info().unwrap_err().kind(),
            ServiceErrorKind::NoSocket
        );
    }
}

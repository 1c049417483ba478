//! Clients of `uuidkit serve`: one blocking [`Connection`], and the [`SystemGenerator`] that
//! caches a block of UUIDs per process (RFC 9562 §6.3) and falls back to the in-process
//! generators when the service cannot be reached.

use core::fmt;
use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::protocol::{
    Info, ReplyHeader, Request, Status, FLAG_DURABLE, MAX_COUNT, MAX_REPLY_LEN, REPLY_HEADER_LEN,
};
use crate::gen::{fork_generation, global, GenError};
use crate::state::{Safety, TimeVersion};
use crate::{Uuid, Variant};

/// The environment variable that names the service's socket.
pub const SOCKET_ENV: &str = "UUIDKIT_SOCKET";

/// The socket a client uses when none is given: `$UUIDKIT_SOCKET`, else the server's default
/// ([`default_server_socket`]).
///
/// ```
/// // Whatever the environment, the answer is a path or nothing.
/// let _ = uuidkit::service::client::default_socket();
/// ```
pub fn default_socket() -> Option<PathBuf> {
    match std::env::var_os(SOCKET_ENV) {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => default_server_socket(),
    }
}

/// The socket `uuidkit serve` listens on by default: `/run/uuidkit/uuidkit.sock` for root,
/// `$XDG_RUNTIME_DIR/uuidkit.sock` for other users; `None` when neither applies.
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
    pub const fn kind(&self) -> ServiceErrorKind {
        self.kind
    }

    /// The server's status, for [`ServiceErrorKind::Server`].
    pub const fn status(&self) -> Option<Status> {
        self.status
    }

    /// Whether the service could not be reached or stopped answering (as opposed to answering
    /// with an error): the cases where falling back to local generation makes sense.
    pub const fn is_unreachable(&self) -> bool {
        matches!(
            self.kind,
            ServiceErrorKind::Unavailable | ServiceErrorKind::Io | ServiceErrorKind::Protocol
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
/// ```no_run
/// use uuidkit::service::client::Connection;
/// use uuidkit::state::TimeVersion;
/// use std::time::Duration;
/// let mut c = Connection::connect("/run/uuidkit/uuidkit.sock", Duration::from_secs(5))?;
/// let mut out = Vec::new();
/// let safety = c.generate(TimeVersion::V7, 100, &mut out)?;
/// assert_eq!(out.len(), 100);
/// # let _ = safety;
/// # Ok::<(), uuidkit::service::client::ServiceError>(())
/// ```
#[derive(Debug)]
pub struct Connection {
    stream: UnixStream,
    path: PathBuf,
    buf: Vec<u8>,
}

impl Connection {
    /// Connects, with `timeout` on every later read and write.
    pub fn connect(path: impl AsRef<Path>, timeout: Duration) -> Result<Connection, ServiceError> {
        let path = path.as_ref();
        let stream = UnixStream::connect(path).map_err(|e| {
            ServiceError::io(
                ServiceErrorKind::Unavailable,
                format!("cannot reach the uuidkit service at {}", path.display()),
                e,
            )
        })?;
        let t = Some(timeout.max(Duration::from_millis(1)));
        let _ = stream.set_read_timeout(t);
        let _ = stream.set_write_timeout(t);
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
    pub fn generate(
        &mut self,
        version: TimeVersion,
        count: u32,
        out: &mut Vec<Uuid>,
    ) -> Result<Safety, ServiceError> {
        let h = self.round_trip(&Request::generate(version, count))?;
        let body = self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]);
        if h.n > count.min(MAX_COUNT) || body.len() != h.n as usize * 16 {
            return Err(self.proto_err(format_args!(
                "{} UUIDs in {} bytes for a request of {count}",
                h.n,
                body.len()
            )));
        }
        if h.version != version.as_u8() {
            return Err(self.proto_err(format_args!(
                "reply for version {} to a request for {version}",
                h.version
            )));
        }
        let start = out.len();
        let mut prev: Option<Uuid> = None;
        for chunk in body.chunks_exact(16) {
            let mut b = [0u8; 16];
            b.copy_from_slice(chunk);
            let u = Uuid::from_bytes(b);
            let ok_version = u.variant() == Variant::Rfc9562 && u.version_num() == version.as_u8();
            let increasing = prev.is_none_or(|p| match version {
                TimeVersion::V1 => p.gregorian_ticks() < u.gregorian_ticks(),
                _ => p < u,
            });
            if !ok_version || !increasing {
                out.truncate(start);
                return Err(self.proto_err(format_args!(
                    "reply UUID {u} is not a {version} UUID in increasing order"
                )));
            }
            prev = Some(u);
            out.push(u);
        }
        Ok(if h.flags & FLAG_DURABLE != 0 {
            Safety::Durable
        } else {
            Safety::Volatile
        })
    }

    /// The server's limits and state.
    pub fn info(&mut self) -> Result<Info, ServiceError> {
        self.round_trip(&Request::info())?;
        let body = self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]);
        Info::parse(body).ok_or_else(|| self.proto_err("info reply too short"))
    }
}

/// Which generator produced a UUID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The system-wide service.
    Service,
    /// The in-process generator ([`gen::global`](crate::gen::global)), because the service
    /// could not be reached.
    Local,
}

/// One UUID and where it came from.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filled {
    /// `out[..from_service]` came from the service, the rest from the local generator.
    pub from_service: usize,
    /// Durable only if every UUID is (local ones never are).
    pub safety: Safety,
}

impl Filled {
    /// Which generator made `out[i]`.
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
/// use uuidkit::service::client::ClientConfig;
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
    pub fn new(socket: impl Into<PathBuf>) -> ClientConfig {
        ClientConfig {
            socket: Some(socket.into()),
            ..ClientConfig::from_env()
        }
    }

    /// Like [`new`](Self::new) with the socket of [`default_socket`] (`$UUIDKIT_SOCKET`, …).
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
    pub fn block(mut self, n: u32) -> Self {
        self.block = n.clamp(1, MAX_COUNT);
        self
    }

    /// How long a cached block may be used: older UUIDs are dropped so that embedded times
    /// stay close to the time of use (default 1 s).
    pub fn max_age(mut self, age: Duration) -> Self {
        self.max_age = age;
        self
    }

    /// Whether to generate in-process when the service cannot be reached (default true).
    /// Server errors are returned either way.
    pub fn fallback(mut self, on: bool) -> Self {
        self.fallback = on;
        self
    }

    /// Timeout of connecting-then-each read and write (default 5 s).
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = t;
        self
    }

    /// After the service could not be reached, how long to use the fallback before trying it
    /// again (default 1 s).
    pub fn retry_after(mut self, t: Duration) -> Self {
        self.retry = t;
        self
    }

    /// The socket path, if one is known.
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
/// use uuidkit::service::client::{ClientConfig, Source, SystemGenerator};
/// use uuidkit::state::{Safety, TimeVersion};
/// // No service at this path: the local generator answers.
/// let gen = SystemGenerator::new(ClientConfig::new("/nonexistent/uuidkit.sock"));
/// let g = gen.next(TimeVersion::V7)?;
/// assert_eq!(g.source, Source::Local);
/// assert_eq!(g.safety, Safety::Volatile);
/// # Ok::<(), uuidkit::service::client::ServiceError>(())
/// ```
#[derive(Debug)]
pub struct SystemGenerator {
    cfg: ClientConfig,
    inner: Mutex<Inner>,
}

impl SystemGenerator {
    /// A client with this configuration; nothing is connected until the first UUID.
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

    /// Runs a request on the connection, connecting first if needed, and reconnecting once
    /// when an existing connection turns out dead (a restarted server).
    fn request(
        &self,
        inner: &mut Inner,
        v: TimeVersion,
        count: u32,
        out: &mut Vec<Uuid>,
    ) -> Result<Safety, ServiceError> {
        let Some(path) = self.cfg.socket.as_deref() else {
            return Err(ServiceError::new(
                ServiceErrorKind::NoSocket,
                format!(
                    "no socket for the uuidkit service: set {SOCKET_ENV} or XDG_RUNTIME_DIR, \
                     or give a path"
                ),
            ));
        };
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
            if fresh {
                match Connection::connect(path, self.cfg.timeout) {
                    Ok(c) => inner.conn = Some(c),
                    Err(e) => {
                        inner.failed_at = Some(Instant::now());
                        return Err(e);
                    }
                }
            }
            let Some(conn) = inner.conn.as_mut() else {
                continue;
            };
            match conn.generate(v, count, out) {
                Ok(s) => {
                    inner.failed_at = None;
                    return Ok(s);
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
        match self.request(&mut inner, version, self.cfg.block, &mut uuids) {
            Ok(safety) if !uuids.is_empty() => {
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
        let mut buf = Vec::new();
        while done < out.len() {
            let want = (out.len() - done).min(MAX_COUNT as usize) as u32;
            buf.clear();
            match self.request(&mut inner, version, want, &mut buf) {
                Ok(s) if !buf.is_empty() => {
                    out[done..done + buf.len()].copy_from_slice(&buf);
                    done += buf.len();
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
    pub fn info(&self) -> Result<Info, ServiceError> {
        let mut inner = self.lock();
        let Some(path) = self.cfg.socket.clone() else {
            return Err(ServiceError::new(
                ServiceErrorKind::NoSocket,
                "no socket for the uuidkit service",
            ));
        };
        if inner.conn.is_none() {
            inner.conn = Some(Connection::connect(&path, self.cfg.timeout)?);
        }
        let r = match inner.conn.as_mut() {
            Some(c) => c.info(),
            None => Err(ServiceError::new(
                ServiceErrorKind::Unavailable,
                "not connected",
            )),
        };
        if r.is_err() {
            inner.conn = None;
        }
        r
    }
}

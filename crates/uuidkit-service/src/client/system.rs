//! The process-wide client: a cached block per version, a forked child's reset, and the
//! fallback to the in-process generators when the service cannot be reached.
//!
//! # Fork
//!
//! The client's state (connection, cached blocks) sits behind a mutex, in a record tagged with
//! the [fork generation](uuidkit::gen::fork_generation) it was made in. A forked child never
//! locks an inherited record: a thread of the parent may have held its mutex at the fork, and
//! that thread does not exist in the child, so the mutex would stay locked forever. The first
//! call in the child sees the generation change and installs a fresh record (compare-and-swap
//! on a pointer, no lock), closes its copy of the parent's socket (whose descriptor is
//! published outside the mutex for that purpose) and leaks the old record, which may be in any
//! half-updated state. So the child starts afresh — new connection, no cache — whatever the
//! parent's threads were doing.

use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use uuidkit::gen::{fork_generation, global, GenError};
use uuidkit::Uuid;

use super::config::{ClientConfig, SOCKET_ENV};
use super::connection::Connection;
use super::error::{ServiceError, ServiceErrorKind};
use crate::protocol::{Info, Status, MAX_COUNT};
use crate::state::{Safety, TimeVersion};

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
    failed_at: Option<Instant>,
}

/// The state of one fork generation.
#[derive(Debug)]
struct Shared {
    /// The fork generation this record belongs to; in any other it is never locked.
    fork_gen: u64,
    inner: Mutex<Inner>,
    /// The descriptor of `inner.conn`, or -1: set after the connection exists and cleared
    /// before it is dropped, so that whenever it holds a descriptor that descriptor is open.
    /// A forked child closes its copy through it without touching `inner`.
    conn_fd: AtomicI32,
}

impl Shared {
    fn new(fork_gen: u64) -> Shared {
        Shared {
            fork_gen,
            inner: Mutex::new(Inner {
                conn: None,
                caches: [None, None, None],
                failed_at: None,
            }),
            conn_fd: AtomicI32::new(-1),
        }
    }
}

/// The locked state of the current fork generation.
struct Locked<'a> {
    inner: MutexGuard<'a, Inner>,
    conn_fd: &'a AtomicI32,
}

impl Locked<'_> {
    /// Drops the connection (after un-publishing its descriptor).
    fn drop_conn(&mut self) {
        self.conn_fd.store(-1, Ordering::SeqCst);
        self.inner.conn = None;
    }

    /// Installs `conn` as the connection and publishes its descriptor.
    fn set_conn(&mut self, conn: Connection) -> &mut Connection {
        let fd = conn.raw_fd();
        self.drop_conn();
        let c = self.inner.conn.insert(conn);
        self.conn_fd.store(fd, Ordering::SeqCst);
        c
    }
}

impl core::ops::Deref for Locked<'_> {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.inner
    }
}

impl core::ops::DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut Inner {
        &mut self.inner
    }
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
pub struct SystemGenerator {
    cfg: ClientConfig,
    /// The current fork generation's state: a `Box` owned by this generator. Replaced only in
    /// a forked child, where the replaced record is leaked (never freed, never locked).
    state: AtomicPtr<Shared>,
}

impl core::fmt::Debug for SystemGenerator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SystemGenerator")
            .field("cfg", &self.cfg)
            .finish_non_exhaustive()
    }
}

impl Drop for SystemGenerator {
    fn drop(&mut self) {
        let p = *self.state.get_mut();
        // SAFETY: `state` always holds a pointer from `Box::into_raw`, owned by this generator;
        // `&mut self` means no reference into it is alive.
        drop(unsafe { Box::from_raw(p) });
    }
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
            state: AtomicPtr::new(Box::into_raw(Box::new(Shared::new(fork_generation())))),
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

    /// The state of the current fork generation, made on the first call in a forked child.
    fn shared(&self) -> &Shared {
        let fg = fork_generation();
        let p = self.state.load(Ordering::Acquire);
        // SAFETY: `state` holds a pointer from `Box::into_raw` that is freed only by `drop`
        // (which has `&mut self`, so not while `&self` is borrowed here); a replaced one is
        // never freed.
        let s = unsafe { &*p };
        if s.fork_gen == fg {
            return s;
        }
        self.renew(p, fg)
    }

    /// A forked child's first call: installs a fresh state without locking the inherited one.
    #[cold]
    #[inline(never)]
    fn renew(&self, mut seen: *mut Shared, fg: u64) -> &Shared {
        let fresh = Box::into_raw(Box::new(Shared::new(fg)));
        loop {
            match self
                .state
                .compare_exchange(seen, fresh, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    // SAFETY: `seen` came from `state` and replaced records are never freed.
                    let old = unsafe { &*seen };
                    // Our copy of the parent's socket: the parent keeps its own open. Each
                    // replaced record is replaced once, by this thread, so it is closed once.
                    let fd = old.conn_fd.swap(-1, Ordering::SeqCst);
                    if fd >= 0 {
                        // SAFETY: a published descriptor is open (see `Shared::conn_fd`), and
                        // the `Connection` that owns it is in a record nobody will touch or
                        // drop again: this is the only close.
                        drop(unsafe { OwnedFd::from_raw_fd(fd) });
                    }
                    // SAFETY: `fresh` is the live `Box` just installed, freed only by `drop`.
                    return unsafe { &*fresh };
                }
                Err(current) => {
                    // SAFETY: as in `shared`.
                    let s = unsafe { &*current };
                    if s.fork_gen == fg {
                        // Another thread of this child was first.
                        // SAFETY: `fresh` was never shared.
                        drop(unsafe { Box::from_raw(fresh) });
                        return s;
                    }
                    seen = current;
                }
            }
        }
    }

    fn lock(&self) -> Locked<'_> {
        let s = self.shared();
        Locked {
            inner: s.inner.lock().unwrap_or_else(|p| p.into_inner()),
            conn_fd: &s.conn_fd,
        }
    }

    /// The open connection, connecting first when there is none.
    fn connected<'a>(&self, inner: &'a mut Locked<'_>) -> Result<&'a mut Connection, ServiceError> {
        // Taken out and put back: its descriptor stays published, and it stays open.
        let conn = match inner.conn.take() {
            Some(c) => c,
            None => self.connect_first()?,
        };
        Ok(inner.set_conn(conn))
    }

    /// Connects to the first of the configured sockets that answers. A socket where nobody
    /// answers (missing, refused, not accepting) is passed over for the next; a server run
    /// by an untrusted user is an error at once. When none answers, the error names each
    /// socket tried and why.
    fn connect_first(&self) -> Result<Connection, ServiceError> {
        let sockets = &self.cfg.sockets;
        if sockets.is_empty() {
            return Err(ServiceError::new(
                ServiceErrorKind::NoSocket,
                format!(
                    "no socket for the uuidkit service: set {SOCKET_ENV} or XDG_RUNTIME_DIR, \
                     or give a path"
                ),
            ));
        }
        let mut tried = Vec::new();
        for path in sockets {
            match Connection::connect_trusting(path, self.cfg.timeout, self.cfg.server_uid) {
                Ok(c) => return Ok(c),
                Err(e) if e.is_unreachable() && sockets.len() > 1 => {
                    tried.push(match std::error::Error::source(&e) {
                        Some(os) => format!("{}: {os}", path.display()),
                        None => e.to_string(),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Err(ServiceError::new(
            ServiceErrorKind::Unavailable,
            format!(
                "no uuidkit service answers at any of the {} sockets tried: {}",
                tried.len(),
                tried.join("; ")
            ),
        ))
    }

    /// Runs a request on the connection, connecting first if needed, and reconnecting once
    /// when an existing connection turns out dead (a restarted server).
    fn request(
        &self,
        inner: &mut Locked<'_>,
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
                    // Not after an untrusted server: that is never papered over by the
                    // fallback, so each call must meet it again.
                    if e.is_unreachable() {
                        inner.failed_at = Some(Instant::now());
                    }
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
                        inner.drop_conn();
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
            inner.drop_conn();
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
            sockets: Vec::new(),
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

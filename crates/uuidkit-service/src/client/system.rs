//! The process-wide client: a cached block per version, a forked child's reset, and the
//! fallback to the in-process generators when the service cannot be reached.
//!
//! # Fork
//!
//! The client's state (connection, cached blocks) sits behind a mutex, in a record tagged with
//! the [fork generation](uuidkit::generator::fork_generation) it was made in. A forked child never
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

use uuidkit::generator::{fork_generation, global, GenError, ThreadRng};
use uuidkit::Uuid;

use super::config::{ClientConfig, SOCKET_ENV};
use super::connection::Connection;
use super::error::{ServiceError, ServiceErrorKind};
use crate::protocol::{Info, Range, Status, MAX_RANGE};
use crate::state::{Safety, TimeVersion};
use crate::sys;

/// How many UUIDs of a cached range are laid out at a time.
const CHUNK: usize = 64;

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
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
    /// The in-process generator ([`gen::global`](uuidkit::generator::global)), because the service
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
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
/// let g = SystemGenerator::new(ClientConfig::new("/nonexistent/uuidkit.sock"));
/// let mut out = [Uuid::NIL; 5];
/// let f = g.fill(TimeVersion::V7, &mut out)?;
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

/// The block of one version being handed out: UUIDs ready (`uuids[pos..]`), and, from a range
/// reply, the rest of the range still to lay out (from index `next`).
#[derive(Debug)]
struct Cache {
    uuids: Vec<Uuid>,
    pos: usize,
    range: Option<Range>,
    next: u32,
    safety: Safety,
    /// When it was fetched ([`sys::coarse_monotonic_nanos`]).
    fetched: u64,
}

impl Cache {
    /// The next UUID, laying out the next chunk of the range when the ready ones are used up.
    fn take(&mut self) -> Option<Uuid> {
        if self.pos >= self.uuids.len() {
            let r = self.range.as_ref()?;
            self.uuids.resize(CHUNK, Uuid::NIL);
            let n = r.expand(self.next, &mut self.uuids, &mut ThreadRng);
            self.uuids.truncate(n);
            self.next += n as u32;
            self.pos = 0;
        }
        let u = self.uuids.get(self.pos).copied()?;
        self.pos += 1;
        Some(u)
    }

    /// Moves up to `out.len()` UUIDs to the front of `out`, in order; how many.
    fn take_into(&mut self, out: &mut [Uuid]) -> usize {
        let ready = self.uuids.get(self.pos..).unwrap_or(&[]);
        let n = ready.len().min(out.len());
        out[..n].copy_from_slice(&ready[..n]);
        self.pos += n;
        let mut done = n;
        if let Some(r) = &self.range {
            let m = r.expand(self.next, &mut out[done..], &mut ThreadRng);
            self.next += m as u32;
            done += m;
        }
        done
    }
}

#[derive(Debug)]
struct Inner {
    conn: Option<Connection>,
    caches: [Option<Cache>; 3],
    /// The size of the next block per version: it doubles (up to [`MAX_RANGE`]) each time a
    /// block from a range reply is used up before its age runs out, and goes back to the
    /// configured size when one is not.
    blocks: [u32; 3],
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
    fn new(fork_gen: u64, block: u32) -> Shared {
        Shared {
            fork_gen,
            inner: Mutex::new(Inner {
                conn: None,
                caches: [None, None, None],
                blocks: [block; 3],
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
/// block of timestamps"); [`fill`](Self::fill) asks for exactly as many as needed. From a
/// server of protocol 2 a block is a range reply (the first timestamp or v7 counter and a
/// count), laid out here 64 UUIDs at a time, v7's random bits drawn from the library's CSPRNG
/// ([`ThreadRng`]); blocks for `next` then grow while they are used up quickly (see
/// [`ClientConfig::block`]). From a server of protocol 1 (found on the first range request,
/// which it refuses) blocks are lists of UUIDs, as before. The cache is dropped in a forked
/// child (and so is the connection, which the parent still uses), and blocks older than
/// [`max_age`](ClientConfig::max_age) are not used.
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
/// let g = SystemGenerator::new(ClientConfig::new("/nonexistent/uuidkit.sock"));
/// let g = g.next(TimeVersion::V7)?;
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
    /// let g = SystemGenerator::new(ClientConfig::new(&sock));
    /// # let dg = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), dg)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// assert_eq!(g.next(TimeVersion::V1)?.source, Source::Service);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(cfg: ClientConfig) -> SystemGenerator {
        let block = cfg.block;
        SystemGenerator {
            cfg,
            state: AtomicPtr::new(Box::into_raw(Box::new(Shared::new(
                fork_generation(),
                block,
            )))),
        }
    }

    /// The configuration.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// let cfg = ClientConfig::new("/tmp/uk.sock").block(32);
    /// let g = SystemGenerator::new(cfg.clone());
    /// assert_eq!(g.config(), &cfg);
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
        let fresh = Box::into_raw(Box::new(Shared::new(fg, self.cfg.block)));
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

    /// Runs a request (`op`) on the connection, connecting first if needed, and reconnecting
    /// once when an existing connection turns out dead (a restarted server).
    fn request<T>(
        &self,
        inner: &mut Locked<'_>,
        mut op: impl FnMut(&mut Connection) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
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
            match op(conn) {
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let g = SystemGenerator::new(ClientConfig::new(&sock));
    /// let a = g.next(TimeVersion::V7)?;
    /// let b = g.next(TimeVersion::V7)?; // from the block fetched for `a`
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
        let max_age = u64::try_from(self.cfg.max_age.as_nanos()).unwrap_or(u64::MAX);
        if let Some(c) = &mut inner.caches[i] {
            let fresh = sys::coarse_monotonic_nanos().saturating_sub(c.fetched) < max_age;
            if fresh {
                if let Some(uuid) = c.take() {
                    return Ok(Generated {
                        uuid,
                        source: Source::Service,
                        safety: c.safety,
                    });
                }
            }
            // A block from a range used up while fresh: the next one is twice as large;
            // otherwise back to the configured size (1: no cache, no growth).
            let grow = c.range.is_some() && self.cfg.block > 1;
            inner.blocks[i] = if fresh && grow {
                inner.blocks[i].saturating_mul(2).min(MAX_RANGE)
            } else {
                self.cfg.block
            };
        }
        let block = inner.blocks[i];
        let mut uuids = inner.caches[i].take().map(|c| c.uuids).unwrap_or_default();
        let fetched = self.request(&mut inner, |conn| {
            Ok(match conn.range(version, block)? {
                Some(r) => (Some(r), 0, r.safety()),
                None => {
                    uuids.clear();
                    uuids.resize(block.min(crate::protocol::MAX_COUNT) as usize, Uuid::NIL);
                    let (n, safety) = conn.generate_into(version, &mut uuids)?;
                    (None, n, safety)
                }
            })
        });
        match fetched {
            Ok((range, n, safety)) => {
                uuids.truncate(n);
                if range.is_some() {
                    uuids.clear();
                }
                let mut c = Cache {
                    uuids,
                    pos: 0,
                    range,
                    next: 0,
                    safety,
                    fetched: sys::coarse_monotonic_nanos(),
                };
                let Some(uuid) = c.take() else {
                    return Err(ServiceError::new(
                        ServiceErrorKind::Protocol,
                        "the uuidkit service sent no UUIDs",
                    ));
                };
                inner.caches[i] = Some(c);
                Ok(Generated {
                    uuid,
                    source: Source::Service,
                    safety,
                })
            }
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
    /// ones from the service in requests of up to [`MAX_COUNT`](crate::protocol::MAX_COUNT);
    /// if the service becomes unreachable (and fallback is on), the rest locally.
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let g = SystemGenerator::new(ClientConfig::new(&sock));
    /// let mut out = [Uuid::NIL; 100];
    /// let f = g.fill(TimeVersion::V6, &mut out)?;
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
        let max_age = u64::try_from(self.cfg.max_age.as_nanos()).unwrap_or(u64::MAX);
        if let Some(c) = &mut inner.caches[i] {
            if sys::coarse_monotonic_nanos().saturating_sub(c.fetched) < max_age {
                done = c.take_into(out);
                if done > 0 {
                    safety = safety.and(c.safety);
                }
            } else {
                inner.caches[i] = None;
            }
        }
        while done < out.len() {
            let rest = &mut out[done..];
            match self.request(&mut inner, |conn| conn.fill(version, rest)) {
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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

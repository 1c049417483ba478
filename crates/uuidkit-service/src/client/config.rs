//! Where the service is (`$UUIDKIT_SOCKET`, the per-user socket, the system socket, tried in
//! that order) and how a [`SystemGenerator`](crate::client::SystemGenerator) uses it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::protocol::MAX_COUNT;
use crate::sys;

/// The environment variable that names the service's socket.
pub const SOCKET_ENV: &str = "UUIDKIT_SOCKET";

/// The system socket: where `uuidkit serve` run by root listens by default, and the last place
/// every client looks. Every local user may connect to it by default.
pub const SYSTEM_SOCKET: &str = "/run/uuidkit/uuidkit.sock";

/// The environment variable that names one more user id (a number) the client accepts as the
/// server's, besides root and its own ([`ClientConfig::server_uid`]).
pub const SERVER_UID_ENV: &str = "UUIDKIT_SERVER_UID";

/// The sockets a client tries when none is given, in order, whoever runs it (root or not, with
/// or without `XDG_RUNTIME_DIR`): `$UUIDKIT_SOCKET` (if set and not empty), the per-user socket
/// `$XDG_RUNTIME_DIR/uuidkit.sock` (if that variable is set and not empty), and the system
/// socket [`SYSTEM_SOCKET`], which every local user may use; a path named twice is tried once.
/// The first that answers serves the client.
///
/// ```
/// use std::path::PathBuf;
/// use uuidkit_service::client::{default_sockets, SOCKET_ENV, SYSTEM_SOCKET};
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::set_var(SOCKET_ENV, "/tmp/my-uuidkit.sock");
///     std::env::set_var("XDG_RUNTIME_DIR", "/run/user/1000");
/// }
/// let want: Vec<PathBuf> = ["/tmp/my-uuidkit.sock", "/run/user/1000/uuidkit.sock", SYSTEM_SOCKET]
///     .iter()
///     .map(PathBuf::from)
///     .collect();
/// assert_eq!(default_sockets(), want);
/// // Empty counts as unset; without XDG_RUNTIME_DIR, the system socket is left.
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::set_var(SOCKET_ENV, "");
///     std::env::remove_var("XDG_RUNTIME_DIR");
/// }
/// assert_eq!(default_sockets(), vec![PathBuf::from(SYSTEM_SOCKET)]);
/// ```
pub fn default_sockets() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::with_capacity(3);
    let mut add = |p: PathBuf| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    match std::env::var_os(SOCKET_ENV) {
        Some(p) if !p.is_empty() => add(PathBuf::from(p)),
        _ => {}
    }
    if let Some(p) = user_socket() {
        add(p);
    }
    add(PathBuf::from(SYSTEM_SOCKET));
    out
}

/// The first socket a client tries when none is given ([`default_sockets`]).
///
/// ```
/// use std::path::PathBuf;
/// use uuidkit_service::client::{default_socket, SOCKET_ENV};
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::set_var(SOCKET_ENV, "/tmp/my-uuidkit.sock");
/// }
/// assert_eq!(default_socket(), Some(PathBuf::from("/tmp/my-uuidkit.sock")));
/// ```
pub fn default_socket() -> Option<PathBuf> {
    default_sockets().into_iter().next()
}

/// The per-user socket, `$XDG_RUNTIME_DIR/uuidkit.sock`, if the variable is set.
fn user_socket() -> Option<PathBuf> {
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(d) if !d.is_empty() => Some(Path::new(&d).join("uuidkit.sock")),
        _ => None,
    }
}

/// The socket `uuidkit serve` listens on by default: `/run/uuidkit/uuidkit.sock` for root,
/// `$XDG_RUNTIME_DIR/uuidkit.sock` for other users; `None` when neither applies.
///
/// ```
/// use std::path::PathBuf;
/// use uuidkit_service::client::default_server_socket;
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::remove_var("XDG_RUNTIME_DIR");
/// }
/// let root = default_server_socket().is_some(); // without it, only root has a default
/// // SAFETY: one thread: nothing reads the environment meanwhile.
/// unsafe {
///     std::env::set_var("XDG_RUNTIME_DIR", "/run/user/1000");
/// }
/// let want = if root { "/run/uuidkit/uuidkit.sock" } else { "/run/user/1000/uuidkit.sock" };
/// assert_eq!(default_server_socket(), Some(PathBuf::from(want)));
/// ```
pub fn default_server_socket() -> Option<PathBuf> {
    if sys::effective_uid() == 0 {
        return Some(PathBuf::from(SYSTEM_SOCKET));
    }
    user_socket()
}

/// How a [`SystemGenerator`](crate::client::SystemGenerator) works.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::client::ClientConfig;
/// let c = ClientConfig::new("/run/uuidkit/uuidkit.sock").block(64).fallback(false);
/// assert_eq!(c.socket_path(), Some(std::path::Path::new("/run/uuidkit/uuidkit.sock")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// The sockets to try, in order.
    pub(super) sockets: Vec<PathBuf>,
    pub(super) block: u32,
    pub(super) max_age: Duration,
    pub(super) fallback: bool,
    pub(super) timeout: Duration,
    pub(super) retry: Duration,
    pub(super) server_uid: Option<u32>,
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
            sockets: vec![socket.into()],
            ..ClientConfig::from_env()
        }
    }

    /// Like [`new`](Self::new), trying the sockets of [`default_sockets`] (`$UUIDKIT_SOCKET`,
    /// the per-user socket, the system socket) in turn, and with the server's user id from
    /// [`SERVER_UID_ENV`] when it holds a number.
    ///
    /// ```
    /// use uuidkit_service::client::{default_sockets, ClientConfig, SOCKET_ENV};
    /// // SAFETY: one thread: nothing reads the environment meanwhile.
    /// unsafe {
    ///     std::env::set_var(SOCKET_ENV, "/tmp/my-uuidkit.sock");
    /// }
    /// let c = ClientConfig::from_env();
    /// assert_eq!(c.socket_paths(), default_sockets());
    /// assert_eq!(c, ClientConfig::new("/unused").sockets(default_sockets()));
    /// ```
    pub fn from_env() -> ClientConfig {
        ClientConfig {
            sockets: default_sockets(),
            block: 128,
            max_age: Duration::from_secs(1),
            fallback: true,
            timeout: Duration::from_secs(5),
            retry: Duration::from_secs(1),
            server_uid: std::env::var(SERVER_UID_ENV)
                .ok()
                .and_then(|v| v.trim().parse().ok()),
        }
    }

    /// How many UUIDs [`SystemGenerator::next`](crate::client::SystemGenerator::next) fetches at
    /// once and hands out one by one (1 to [`MAX_COUNT`]; 1 disables the cache). From a
    /// server that sends range replies (protocol 2) the block grows: it doubles each time one
    /// is used up within [`max_age`](Self::max_age), up to
    /// [`MAX_RANGE`](crate::protocol::MAX_RANGE), and is back to `n` after one that was not.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-block", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
    /// stay close to the time of use (default 1 s). The age is read from a clock cheap enough
    /// to read for every UUID (on Linux `CLOCK_MONOTONIC_COARSE`), so it may be short by the
    /// kernel's tick (1 to 10 ms).
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
    /// Server errors are returned either way, and so is a server run by an untrusted user
    /// ([`server_uid`](Self::server_uid)).
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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

    /// One more user id the server may run as (default: from [`SERVER_UID_ENV`], else none).
    /// The client checks who listens on the socket (`SO_PEERCRED` on Linux, `getpeereid` on
    /// macOS and FreeBSD) and talks only to a server running as root, as the client's own
    /// user, or as this one; anyone else is refused with
    /// [`ServiceErrorKind::Untrusted`](crate::client::ServiceErrorKind::Untrusted), and no
    /// fallback hides it.
    ///
    /// ```
    /// use uuidkit_service::client::ClientConfig;
    /// // A service run by a dedicated system user, uid 998.
    /// let c = ClientConfig::new("/run/uuidkit/uuidkit.sock").server_uid(998);
    /// assert_ne!(c, ClientConfig::new("/run/uuidkit/uuidkit.sock"));
    /// ```
    pub fn server_uid(mut self, uid: u32) -> Self {
        self.server_uid = Some(uid);
        self
    }

    /// The sockets to try, in order, instead of the ones set so far: the first that answers
    /// serves the generator. When none answers, the error names every one and why.
    ///
    /// ```
    /// use uuidkit_service::client::{ClientConfig, SystemGenerator};
    /// use uuidkit_service::state::TimeVersion;
    /// let cfg = ClientConfig::new("/unused").sockets(["/nonexistent/a.sock", "/nonexistent/b.sock"]);
    /// let e = SystemGenerator::new(cfg.fallback(false)).next(TimeVersion::V7).unwrap_err();
    /// let msg = e.to_string();
    /// assert!(msg.contains("/nonexistent/a.sock") && msg.contains("/nonexistent/b.sock"), "{msg}");
    /// assert!(e.is_unreachable());
    /// ```
    pub fn sockets<P: Into<PathBuf>>(mut self, paths: impl IntoIterator<Item = P>) -> Self {
        self.sockets = paths.into_iter().map(Into::into).collect();
        self
    }

    /// The first socket to try, if there is one.
    ///
    /// ```
    /// use std::path::Path;
    /// use uuidkit_service::client::{ClientConfig, SOCKET_ENV};
    /// let c = ClientConfig::new("/tmp/uk.sock");
    /// assert_eq!(c.socket_path(), Some(Path::new("/tmp/uk.sock")));
    /// // SAFETY: one thread: nothing reads the environment meanwhile.
    /// unsafe {
    ///     std::env::set_var(SOCKET_ENV, "/tmp/from-env.sock");
    /// }
    /// assert_eq!(ClientConfig::from_env().socket_path(), Some(Path::new("/tmp/from-env.sock")));
    /// ```
    pub fn socket_path(&self) -> Option<&Path> {
        self.sockets.first().map(PathBuf::as_path)
    }

    /// The sockets to try, in order.
    pub fn socket_paths(&self) -> &[PathBuf] {
        &self.sockets
    }
}

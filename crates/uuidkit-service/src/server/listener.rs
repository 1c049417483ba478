//! The server: binding (the socket path's checks, instance lock, stale socket, private bind,
//! the open-file limit; listeners passed by a service manager), the accept loop that hands
//! each connection to the function for its listener's kind (and answers Busy even when the
//! process has no descriptor left), the idle exit, the service manager's notices, and the
//! shutdown that removes the socket and its lock file and writes the exact state.

use core::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use uuidkit::generator::{Clock, SystemClock};

use super::activation::{Listener, ListenerKind};
use super::config::ServerConfig;
use super::connection::{admit, refuse_kind, Shared};
use super::error::ServerError;
use super::instance::InstanceLock;
use super::log::Log;
use super::signals;
use super::socket::{bind_private, check_socket_path, clear_stale_socket};
use super::uuidd::serve_uuidd_connection;
use crate::state::DurableGenerator;
use crate::sys;

/// Descriptors kept for everything but connections: standard streams, the listener, the
/// wake-up pair, the instance lock, the state file, its lock and temporary file, the reserve
/// descriptor, and room for a library or a log sink to open a few files.
const FD_OVERHEAD: u64 = 32;

/// How often at most the accept loop logs a failure; the ones in between are counted.
const ACCEPT_LOG_EVERY: Duration = Duration::from_secs(5);

/// Raises the soft limit on open files to the hard one, and returns how many connections the
/// resulting limit allows (one descriptor each, after [`FD_OVERHEAD`]); logs what it did.
fn fit_connections_to_fd_limit(wanted: usize, log: &Log) -> usize {
    let Ok((soft, hard)) = sys::open_file_limits() else {
        return wanted;
    };
    let mut limit = soft;
    if hard > soft {
        match sys::set_open_file_soft_limit(hard) {
            // What was set (less than the hard limit on macOS).
            Ok(()) => limit = sys::open_file_limits().map_or(soft, |(s, _)| s),
            Err(e) => log.line(format_args!(
                "cannot raise the open-file limit from {soft} to {hard}: {e}"
            )),
        }
    }
    let room = usize::try_from(limit.saturating_sub(FD_OVERHEAD))
        .unwrap_or(usize::MAX)
        .max(1);
    if room < wanted {
        log.line(format_args!(
            "at most {room} connections instead of {wanted}: the open-file limit is {limit} \
             (one descriptor per connection, {FD_OVERHEAD} kept for the rest)"
        ));
        room
    } else {
        wanted
    }
}

/// A descriptor kept open so that, when `accept` fails for want of descriptors, one can be
/// freed to accept the waiting client and tell it Busy instead of leaving it hanging.
fn open_reserve() -> Option<File> {
    File::open("/dev/null").ok()
}

/// Logs accept failures at most once per [`ACCEPT_LOG_EVERY`], with how many were not logged.
struct FailureLog {
    last: Option<Instant>,
    unlogged: u64,
}

impl FailureLog {
    fn failed(&mut self, shared_log: &Log, what: fmt::Arguments<'_>) {
        if self.last.is_some_and(|t| t.elapsed() < ACCEPT_LOG_EVERY) {
            self.unlogged += 1;
            return;
        }
        if self.unlogged > 0 {
            shared_log.line(format_args!(
                "{what} (and {} more failures since the last such line)",
                self.unlogged
            ));
        } else {
            shared_log.line(what);
        }
        self.unlogged = 0;
        self.last = Some(Instant::now());
    }
}

/// Binds the uuidd protocol's socket at `path` (mode 0666: every local user, as uuidd's),
/// replacing a stale one; its instance lock already taken. Returns it with its device and
/// inode.
fn bind_uuidd(path: &Path, log: &Log) -> Result<(UnixListener, (u64, u64)), ServerError> {
    clear_stale_socket(path, log)?;
    let socket = bind_private(path, 0o666, None)?;
    let meta = fs::symlink_metadata(path)
        .map_err(|e| ServerError::io(format!("{}: cannot stat", path.display()), e))?;
    Ok((socket, (meta.dev(), meta.ino())))
}

/// Stops a running [`Server`] from any thread.
///
/// ```
/// use uuidkit_service::server::{is_socket, Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-handle", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// let server = Server::bind(ServerConfig::new(&sock), g)?;
/// let handle = server.shutdown_handle(); // Clone + Send + Sync
/// let stopper = std::thread::spawn(move || handle.shutdown());
/// server.run()?; // on this thread, until the other one asks
/// # stopper.join().map_err(|_| "stopper panicked")?;
/// assert!(!is_socket(&sock));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ShutdownHandle {
    wake: Arc<UnixStream>,
}

impl ShutdownHandle {
    /// Asks the server to stop; [`Server::run`] returns once the state is flushed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::server::{is_socket, Server, ServerConfig};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-shutdown", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// c.generate(TimeVersion::V7, 1, &mut Vec::new())?;
    /// stop.shutdown();
    /// running.join().map_err(|_| "server thread panicked")??;
    /// // The socket is gone and open connections are closed.
    /// assert!(!is_socket(&sock));
    /// assert!(c.generate(TimeVersion::V7, 1, &mut Vec::new()).unwrap_err().is_unreachable());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown(&self) {
        let _ = (&*self.wake).write(&[1]);
    }
}

/// What a finished [`Server::run`] did.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::client::Connection;
/// use uuidkit_service::server::{RunSummary, Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-summary", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), g)?;
/// # let stop = server.shutdown_handle();
/// # let running = std::thread::spawn(move || server.run());
/// for _ in 0..2 {
///     Connection::connect(&sock, Duration::from_secs(5))?.info()?;
/// }
/// stop.shutdown();
/// let summary = running.join().map_err(|_| "server thread panicked")??;
/// assert_eq!(summary, RunSummary { connections: 2, idle_exit: false });
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSummary {
    /// Connections accepted.
    pub connections: u64,
    /// Whether the server stopped by itself, idle for
    /// [`idle_exit`](crate::server::ServerConfig::idle_exit), rather than when asked to.
    pub idle_exit: bool,
}

/// A bound server; [`run`](Server::run) serves until shut down.
///
/// ```
/// use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
/// use uuidkit_service::server::{Server, ServerConfig};
/// use uuidkit_service::state::TimeVersion;
/// use uuidkit::Uuid;
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-srv", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// let server = Server::bind(ServerConfig::new(&sock), g)?;
/// let stop = server.shutdown_handle();
/// let running = std::thread::spawn(move || server.run());
/// // Any client on the machine now gets UUIDs from this one generator.
/// let client = SystemGenerator::new(ClientConfig::new(&sock));
/// let mut out = [Uuid::NIL; 3];
/// assert_eq!(client.fill(TimeVersion::V7, &mut out)?.source_of(2), Source::Service);
/// stop.shutdown();
/// running.join().map_err(|_| "server thread panicked")??;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Server<C: Clock + 'static = SystemClock> {
    /// The listeners: the server's own socket first (if it has one), then those given.
    listeners: Vec<Listener>,
    shared: Arc<Shared<C>>,
    /// The instance lock of the server's own socket, if it has one; released (and its file
    /// removed) at the end of [`run`](Server::run).
    lock: Option<InstanceLock>,
    wake_rx: UnixStream,
    wake_tx: Arc<UnixStream>,
    /// The socket file the server created, with its device and inode, to remove only that one
    /// at shutdown. Sockets passed by a service manager are its own: never removed.
    own_socket: Option<(PathBuf, (u64, u64))>,
    /// The uuidd protocol's socket the server bound itself ([`ServerConfig::uuidd_socket`]):
    /// its index in `listeners`, path, device and inode, and instance lock.
    own_uuidd: Option<OwnUuidd>,
    /// Closed to make room when `accept` runs out of descriptors ([`open_reserve`]).
    reserve: Option<File>,
}

/// The uuidd socket a server bound itself, removed at its stop like its own socket.
struct OwnUuidd {
    index: usize,
    path: PathBuf,
    id: (u64, u64),
    lock: InstanceLock,
}

/// Removes the socket file at `path` if it is still the one created (`id`: device, inode).
fn remove_own_socket(path: &Path, id: (u64, u64)) {
    if let Ok(m) = fs::symlink_metadata(path) {
        if (m.dev(), m.ino()) == id {
            let _ = fs::remove_file(path);
        }
    }
}

impl<C: Clock + 'static> fmt::Debug for Server<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("socket", &self.shared.cfg.socket)
            .field("listeners", &self.listeners)
            .finish_non_exhaustive()
    }
}

impl<C: Clock + 'static> Server<C> {
    /// Checks the socket's path ([`check_socket_path`](crate::server::check_socket_path)),
    /// takes the instance lock, raises the process's soft open-file limit to the hard one and
    /// lowers the connection limit to what it allows (logged), replaces a stale socket, binds
    /// and sets permissions.
    ///
    /// ```
    /// use std::os::unix::net::{UnixListener, UnixStream};
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-bind", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// drop(UnixListener::bind(&sock)?); // stale: nobody listens
    /// assert!(UnixStream::connect(&sock).is_err());
    /// let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// assert!(UnixStream::connect(&sock).is_ok()); // replaced by a listening one
    /// let gen2 = DurableGenerator::open(dir.join("state2"), StateOptions::new())?;
    /// let e = Server::bind(ServerConfig::new(&sock), gen2).unwrap_err();
    /// assert!(e.to_string().contains("already running"), "{e}");
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bind(cfg: ServerConfig, g: DurableGenerator<C>) -> Result<Server<C>, ServerError> {
        Server::bind_with(cfg, None, Vec::new(), g)
    }

    /// [`bind`](Server::bind) with the instance lock already taken (for the same socket).
    ///
    /// ```
    /// use uuidkit_service::server::{InstanceLock, Server, ServerConfig};
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-locked", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let sock = dir.join("s.sock");
    /// let lock = InstanceLock::acquire(&sock)?; // fails fast, before the state is touched
    /// let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind_locked(ServerConfig::new(&sock), lock, g)?;
    /// assert_eq!(server.socket_path(), Some(sock.as_path()));
    /// // A lock for another socket does not do.
    /// let other = InstanceLock::acquire(dir.join("other.sock"))?;
    /// let gen2 = DurableGenerator::open(dir.join("state2"), StateOptions::new())?;
    /// let cfg = ServerConfig::new(dir.join("s2.sock"));
    /// let e = Server::bind_locked(cfg, other, gen2).unwrap_err();
    /// assert!(e.to_string().contains("instance lock is for"), "{e}");
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bind_locked(
        cfg: ServerConfig,
        lock: InstanceLock,
        g: DurableGenerator<C>,
    ) -> Result<Server<C>, ServerError> {
        Server::bind_with(cfg, Some(lock), Vec::new(), g)
    }

    /// The general form of [`bind`](Server::bind): binds the configuration's own socket, if
    /// it has one (with `lock`, its instance lock, or one taken here), and serves `inherited`
    /// too: listening sockets bound by someone else, typically passed by a service manager
    /// ([`activation_listeners`](crate::server::activation_listeners)), each with the protocol
    /// its connections speak. Those are served as they are (their mode, group and file are
    /// their owner's) and never removed. At least one listener is needed.
    ///
    /// ```
    /// use std::os::unix::net::UnixListener;
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::server::{Listener, ListenerKind, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-bindwith", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let extra = Listener::new(UnixListener::bind(dir.join("b.sock"))?, ListenerKind::Uuidkit, "b");
    /// let server = Server::bind_with(ServerConfig::new(dir.join("a.sock")), None, vec![extra], g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// // One generator behind both sockets.
    /// let a = Connection::connect(dir.join("a.sock"), Duration::from_secs(5))?.info()?;
    /// let b = Connection::connect(dir.join("b.sock"), Duration::from_secs(5))?.info()?;
    /// assert_eq!(a.pid, b.pid);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// // Nothing to listen on is an error.
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let e = Server::bind_with(ServerConfig::without_socket(), None, vec![], g).unwrap_err();
    /// assert!(e.to_string().contains("nothing to listen on"), "{e}");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bind_with(
        cfg: ServerConfig,
        lock: Option<InstanceLock>,
        inherited: Vec<Listener>,
        g: DurableGenerator<C>,
    ) -> Result<Server<C>, ServerError> {
        let mut cfg = cfg;
        let mut listeners = Vec::with_capacity(inherited.len() + 2);
        let mut own_socket = None;
        // The uuidd socket's checks and instance lock, before anything is created.
        let uuidd_lock = match &cfg.uuidd_socket {
            Some(u) if Some(u) == cfg.socket.as_ref() => {
                return Err(ServerError::new(format!(
                    "{} cannot be both the uuidkit and the uuidd socket",
                    u.display()
                )))
            }
            Some(u) if inherited.iter().any(|l| l.kind == ListenerKind::Uuidd) => {
                return Err(ServerError::new(format!(
                    "a uuidd listener was passed (socket activation); not binding {} too",
                    u.display()
                )))
            }
            Some(u) => {
                check_socket_path(u)?;
                Some(InstanceLock::acquire(u)?)
            }
            None => None,
        };
        let lock = match cfg.socket.clone() {
            None => {
                if let Some(l) = lock {
                    return Err(ServerError::new(format!(
                        "the instance lock is for {}, but the server has no socket of its own",
                        l.socket.display()
                    )));
                }
                if inherited.is_empty() {
                    return Err(ServerError::new(
                        "nothing to listen on: no socket of its own and no listener given",
                    ));
                }
                None
            }
            Some(path) => {
                check_socket_path(&path)?;
                let lock = match lock {
                    Some(l) => l,
                    None => InstanceLock::acquire(&path)?,
                };
                if lock.socket != path {
                    return Err(ServerError::new(format!(
                        "the instance lock is for {}, not {}",
                        lock.socket.display(),
                        path.display()
                    )));
                }
                cfg.max_connections = fit_connections_to_fd_limit(cfg.max_connections, &cfg.log);
                clear_stale_socket(&path, &cfg.log)?;
                let socket = bind_private(&path, cfg.mode, cfg.group)?;
                let meta = fs::symlink_metadata(&path)
                    .map_err(|e| ServerError::io(format!("{}: cannot stat", path.display()), e))?;
                listeners.push(Listener::new(
                    socket,
                    ListenerKind::Uuidkit,
                    path.display().to_string(),
                ));
                own_socket = Some((path, (meta.dev(), meta.ino())));
                Some(lock)
            }
        };
        if own_socket.is_none() {
            cfg.max_connections = fit_connections_to_fd_limit(cfg.max_connections, &cfg.log);
        }
        let own_uuidd = match (cfg.uuidd_socket.clone(), uuidd_lock) {
            (Some(path), Some(lock)) => match bind_uuidd(&path, &cfg.log) {
                Ok((socket, id)) => {
                    listeners.push(Listener::new(
                        socket,
                        ListenerKind::Uuidd,
                        path.display().to_string(),
                    ));
                    Some(OwnUuidd {
                        index: listeners.len() - 1,
                        path,
                        id,
                        lock,
                    })
                }
                Err(e) => {
                    if let Some((p, id)) = &own_socket {
                        remove_own_socket(p, *id);
                    }
                    return Err(e);
                }
            },
            _ => None,
        };
        listeners.extend(inherited);
        for l in &listeners {
            l.socket.set_nonblocking(true).map_err(|e| {
                ServerError::io(format!("setting listener {} non-blocking", l.name), e)
            })?;
        }
        let (wake_rx, wake_tx) =
            UnixStream::pair().map_err(|e| ServerError::io("creating the wake-up pair", e))?;
        wake_rx
            .set_nonblocking(true)
            .and_then(|_| wake_tx.set_nonblocking(true))
            .map_err(|e| ServerError::io("setting the wake-up pair non-blocking", e))?;
        Ok(Server {
            listeners,
            shared: Arc::new(Shared::new(g, cfg, serve_uuidd_connection::<C>)),
            lock,
            wake_rx,
            wake_tx: Arc::new(wake_tx),
            own_socket,
            own_uuidd,
            reserve: open_reserve(),
        })
    }

    /// A handle that stops the server from another thread.
    ///
    /// ```
    /// use uuidkit_service::server::{is_socket, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-handle2", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// server.shutdown_handle().shutdown(); // asked before it runs: run returns at once
    /// let summary = server.run()?;
    /// assert_eq!(summary.connections, 0);
    /// assert!(!is_socket(&sock));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        ShutdownHandle {
            wake: Arc::clone(&self.wake_tx),
        }
    }

    /// The path of the server's own socket, if it has one.
    ///
    /// ```
    /// use uuidkit_service::server::{is_socket, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-spath", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// assert_eq!(server.socket_path(), Some(sock.as_path()));
    /// assert!(is_socket(&sock));
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn socket_path(&self) -> Option<&Path> {
        self.shared.cfg.socket.as_deref()
    }

    /// Installs process-wide handlers so that SIGTERM, SIGINT, SIGHUP and SIGQUIT shut this
    /// server down cleanly (at once if one arrived after
    /// [`catch_stop_signals`](crate::server::catch_stop_signals)), and ignores SIGXFSZ
    /// ([`ignore_file_size_signal`](crate::server::ignore_file_size_signal)) so that a file-size
    /// limit makes state writes fail with an error (reported) instead of killing the process.
    /// Call once, from the main thread, before [`run`](Server::run).
    ///
    /// ```
    /// use uuidkit_service::server::{is_socket, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-sigs", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// server.stop_on_signals()?;
    /// let running = std::thread::spawn(move || server.run());
    /// // SAFETY: SIGTERM now has the server's handler, which only stores and writes a byte.
    /// assert_eq!(unsafe { libc::raise(libc::SIGTERM) }, 0);
    /// running.join().map_err(|_| "server thread panicked")??;
    /// assert!(!is_socket(&sock)); // a clean stop, not a killed process
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_on_signals(&self) -> Result<(), ServerError> {
        signals::stop_on_signals(self.wake_tx.as_raw_fd())
    }

    /// Serves until [`ShutdownHandle::shutdown`] or a signal (after
    /// [`stop_on_signals`](Server::stop_on_signals)); then stops accepting, removes the
    /// socket, flushes the state and closes the connections. `Ok` means the final state write
    /// succeeded; an error, that it failed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// use uuidkit_service::state::{State, TimeVersion};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-run", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// let stop = server.shutdown_handle();
    /// let running = std::thread::spawn(move || server.run());
    /// let mut out = Vec::new();
    /// Connection::connect(&sock, Duration::from_secs(5))?.generate(TimeVersion::V7, 5, &mut out)?;
    /// stop.shutdown();
    /// running.join().map_err(|_| "server thread panicked")??; // Ok: the state was written
    /// // The state file now records a clean stop at exactly the last UUID issued.
    /// let state = State::read(dir.join("state"))?;
    /// assert!(state.clean);
    /// assert_eq!(Some(state.v7_unix_ms), out[4].unix_ts_ms());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run(mut self) -> Result<RunSummary, ServerError> {
        let shared = Arc::clone(&self.shared);
        let mut accepted = 0u64;
        let mut failures = FailureLog {
            last: None,
            unlogged: 0,
        };
        let mut wake_buf = [0u8; 64];
        let idle_limit = shared.cfg.idle_exit;
        let mut idle_exit = false;
        let notify = |what: &str| {
            if let Err(e) = shared.cfg.notify.notify(what) {
                shared.log(format_args!("cannot notify the service manager: {e}"));
            }
        };
        notify(&format!(
            "READY=1\nSTATUS=serving on {}",
            self.describe_listeners()
        ));
        // The wake-up pair last: `fds[n]`.
        let n = self.listeners.len();
        let mut fds: Vec<libc::pollfd> = self
            .listeners
            .iter()
            .map(|l| l.socket.as_raw_fd())
            .chain([self.wake_rx.as_raw_fd()])
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        'serve: loop {
            // With an idle exit: wake when the idle time would be up, and look again then.
            let timeout_ms: libc::c_int = match idle_limit {
                None => -1,
                Some(limit) => {
                    let idle = shared.idle_for().unwrap_or(Duration::ZERO);
                    if idle >= limit {
                        idle_exit = true;
                        break 'serve;
                    }
                    let left = (limit - idle).as_millis().saturating_add(1);
                    libc::c_int::try_from(left).unwrap_or(libc::c_int::MAX)
                }
            };
            for f in fds.iter_mut() {
                f.revents = 0;
            }
            // SAFETY: `fds` is a live vector of initialised pollfd structures and the count
            // passed is its length; every descriptor stays open during the call.
            let rc = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
            if rc < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                shared.log(format_args!("poll failed: {e}"));
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            if fds[n].revents != 0 {
                // Drain; any byte means stop.
                if matches!((&self.wake_rx).read(&mut wake_buf), Ok(n) if n > 0) {
                    break 'serve;
                }
            }
            for (i, f) in fds.iter().take(n).enumerate() {
                if f.revents != 0 {
                    accepted += self.accept_all(i, &mut failures);
                }
            }
        }

        notify(if idle_exit {
            "STOPPING=1\nSTATUS=stopping (idle): writing the state"
        } else {
            "STOPPING=1\nSTATUS=stopping: writing the state"
        });
        shared.closing.store(true, Ordering::SeqCst);
        if let Some((path, id)) = &self.own_socket {
            remove_own_socket(path, *id);
        }
        if let Some(u) = &self.own_uuidd {
            remove_own_socket(&u.path, u.id);
        }
        drop(std::mem::take(&mut self.listeners));
        let flushed = shared.generator().shut_down();
        shared.close_connections();
        signals::forget_wake_fd();
        // Last: a second server may start on this socket from here on.
        if let Some(lock) = self.lock.take() {
            lock.release();
        }
        if let Some(u) = self.own_uuidd.take() {
            u.lock.release();
        }
        match flushed {
            Ok(()) => Ok(RunSummary {
                connections: accepted,
                idle_exit,
            }),
            Err(e) => Err(ServerError::new(format!(
                "flushing the state at shutdown: {e}"
            ))),
        }
    }

    /// Accepts every connection waiting on listener `i` and hands each over; returns how many.
    fn accept_all(&mut self, i: usize, failures: &mut FailureLog) -> u64 {
        let shared = &self.shared;
        let listener = &self.listeners[i];
        let mut accepted = 0;
        loop {
            match listener.socket.accept() {
                Ok((stream, _)) => {
                    accepted += 1;
                    admit(shared, stream, listener.kind);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if sys::is_out_of_descriptors(&e) && self.reserve.is_some() => {
                    // Free the reserve descriptor, take the waiting client, tell it Busy.
                    self.reserve = None;
                    if let Ok((stream, _)) = listener.socket.accept() {
                        refuse_kind(shared, &stream, listener.kind, "out of file descriptors");
                    }
                    self.reserve = open_reserve();
                    failures.failed(
                        &shared.cfg.log,
                        format_args!("accept failed: {e}; the client was told Busy"),
                    );
                }
                Err(e) => {
                    // EMFILE and the like with no reserve: back off instead of spinning.
                    failures.failed(&shared.cfg.log, format_args!("accept failed: {e}"));
                    std::thread::sleep(Duration::from_millis(10));
                    break;
                }
            }
        }
        accepted
    }

    /// The listeners, for the log and the service manager's status line: each one's name
    /// (the socket's path for the server's own), and its protocol when it is not uuidkit's.
    pub fn describe_listeners(&self) -> String {
        let mut out = String::new();
        for (i, l) in self.listeners.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let own_uuidd = self.own_uuidd.as_ref().is_some_and(|u| u.index == i);
            let own = (i == 0 && self.own_socket.is_some()) || own_uuidd;
            if own_uuidd {
                out.push_str(&format!("{} (mode 666)", l.name));
            } else if own {
                out.push_str(&l.name);
            } else {
                let fd = l.socket.as_raw_fd();
                if l.name.is_empty() {
                    out.push_str(&format!("descriptor {fd}"));
                } else {
                    out.push_str(&format!("descriptor {fd} ({})", l.name));
                }
            }
            if l.kind == ListenerKind::Uuidd {
                out.push_str(" [uuidd protocol]");
            }
        }
        out
    }
}

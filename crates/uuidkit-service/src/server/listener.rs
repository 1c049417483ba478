//! The server: binding (the socket path's checks, instance lock, stale socket, private bind,
//! the open-file limit), the accept loop that hands connections over (and answers Busy even
//! when the process has no descriptor left), and the shutdown that removes the socket and
//! writes the exact state.

use core::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use uuidkit::gen::{Clock, SystemClock};

use super::config::ServerConfig;
use super::connection::{admit, refuse, uuidkit, Shared};
use super::error::ServerError;
use super::instance::InstanceLock;
use super::log::Log;
use super::signals;
use super::socket::{bind_private, check_socket_path, clear_stale_socket};
use super::uuidd::uuidd;
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

/// Accepts what waits on the uuidd listener (non-blocking) and admits it; returns how many.
/// Out of descriptors, the client waits in the backlog (the uuidd protocol has no busy
/// reply; the uuidkit listener's reserve descriptor is for its own clients).
fn accept_uuidd<C: Clock + 'static>(
    shared: &Arc<Shared<C>>,
    listener: &UnixListener,
    failures: &mut FailureLog,
) -> u64 {
    let mut n = 0;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                n += 1;
                admit(shared, stream, uuidd());
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                failures.failed(
                    &shared.cfg.log,
                    format_args!("accept failed on the uuidd socket: {e}"),
                );
                std::thread::sleep(Duration::from_millis(10));
                return n;
            }
        }
    }
}

/// Stops a running [`Server`] from any thread.
///
/// ```
/// use uuidkit_service::server::{is_socket, Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-handle", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// let server = Server::bind(ServerConfig::new(&sock), gen)?;
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
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
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
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), gen)?;
/// # let stop = server.shutdown_handle();
/// # let running = std::thread::spawn(move || server.run());
/// for _ in 0..2 {
///     Connection::connect(&sock, Duration::from_secs(5))?.info()?;
/// }
/// stop.shutdown();
/// let summary = running.join().map_err(|_| "server thread panicked")??;
/// assert_eq!(summary, RunSummary { connections: 2 });
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSummary {
    /// Connections accepted.
    pub connections: u64,
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
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// let server = Server::bind(ServerConfig::new(&sock), gen)?;
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
    listener: UnixListener,
    shared: Arc<Shared<C>>,
    _lock: File,
    wake_rx: UnixStream,
    wake_tx: Arc<UnixStream>,
    /// Device and inode of the socket file we created, to remove only our own at shutdown.
    socket_id: (u64, u64),
    /// Closed to make room when `accept` runs out of descriptors ([`open_reserve`]).
    reserve: Option<File>,
    /// The uuidd protocol's listener, if configured.
    uuidd: Option<UuiddListener>,
}

/// The listener of util-linux uuidd's protocol ([`ServerConfig::uuidd_socket`]).
struct UuiddListener {
    listener: UnixListener,
    _lock: File,
    /// Device and inode of its socket file, to remove only our own at shutdown.
    socket_id: (u64, u64),
}

/// Removes the socket file at `path` if it is still the one created (`id`: device, inode).
fn remove_own_socket(path: &Path, id: (u64, u64)) {
    if let Ok(m) = fs::symlink_metadata(path) {
        if (m.dev(), m.ino()) == id {
            let _ = fs::remove_file(path);
        }
    }
}

/// Binds the uuidd protocol's socket (mode 0666: every local user, as uuidd's), its instance
/// lock already taken.
fn bind_uuidd(path: &Path, lock: File, log: &Log) -> Result<UuiddListener, ServerError> {
    clear_stale_socket(path, log)?;
    let listener = bind_private(path, 0o666, None)?;
    let meta = fs::symlink_metadata(path)
        .map_err(|e| ServerError::io(format!("{}: cannot stat", path.display()), e))?;
    let id = (meta.dev(), meta.ino());
    if let Err(e) = listener.set_nonblocking(true) {
        remove_own_socket(path, id);
        return Err(ServerError::io(
            "setting the uuidd listener non-blocking",
            e,
        ));
    }
    Ok(UuiddListener {
        listener,
        _lock: lock,
        socket_id: id,
    })
}

impl<C: Clock + 'static> fmt::Debug for Server<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("socket", &self.shared.cfg.socket)
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
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// drop(UnixListener::bind(&sock)?); // stale: nobody listens
    /// assert!(UnixStream::connect(&sock).is_err());
    /// let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// assert!(UnixStream::connect(&sock).is_ok()); // replaced by a listening one
    /// let gen2 = DurableGenerator::open(dir.join("state2"), StateOptions::new())?;
    /// let e = Server::bind(ServerConfig::new(&sock), gen2).unwrap_err();
    /// assert!(e.to_string().contains("already running"), "{e}");
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bind(cfg: ServerConfig, gen: DurableGenerator<C>) -> Result<Server<C>, ServerError> {
        check_socket_path(&cfg.socket)?;
        let lock = InstanceLock::acquire(&cfg.socket)?;
        Server::bind_locked(cfg, lock, gen)
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
    /// let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind_locked(ServerConfig::new(&sock), lock, gen)?;
    /// assert_eq!(server.socket_path(), sock);
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
        gen: DurableGenerator<C>,
    ) -> Result<Server<C>, ServerError> {
        let path = cfg.socket.clone();
        if lock.socket != path {
            return Err(ServerError::new(format!(
                "the instance lock is for {}, not {}",
                lock.socket.display(),
                path.display()
            )));
        }
        let lock = lock.file;
        check_socket_path(&path)?;
        // The uuidd socket's checks and lock before anything is created.
        let uuidd_lock = match &cfg.uuidd_socket {
            Some(u) if *u == path => {
                return Err(ServerError::new(format!(
                    "{} cannot be both the uuidkit and the uuidd socket",
                    u.display()
                )))
            }
            Some(u) => {
                check_socket_path(u)?;
                Some(InstanceLock::acquire(u)?.file)
            }
            None => None,
        };
        let mut cfg = cfg;
        cfg.max_connections = fit_connections_to_fd_limit(cfg.max_connections, &cfg.log);
        clear_stale_socket(&path, &cfg.log)?;
        let listener = bind_private(&path, cfg.mode, cfg.group)?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ServerError::io("setting the listener non-blocking", e))?;
        let meta = fs::symlink_metadata(&path)
            .map_err(|e| ServerError::io(format!("{}: cannot stat", path.display()), e))?;
        let socket_id = (meta.dev(), meta.ino());
        let uuidd = match (&cfg.uuidd_socket, uuidd_lock) {
            (Some(u), Some(l)) => match bind_uuidd(u, l, &cfg.log) {
                Ok(x) => Some(x),
                Err(e) => {
                    remove_own_socket(&path, socket_id);
                    return Err(e);
                }
            },
            _ => None,
        };
        let (wake_rx, wake_tx) =
            UnixStream::pair().map_err(|e| ServerError::io("creating the wake-up pair", e))?;
        wake_rx
            .set_nonblocking(true)
            .and_then(|_| wake_tx.set_nonblocking(true))
            .map_err(|e| ServerError::io("setting the wake-up pair non-blocking", e))?;
        Ok(Server {
            listener,
            shared: Arc::new(Shared::new(gen, cfg)),
            _lock: lock,
            wake_rx,
            wake_tx: Arc::new(wake_tx),
            socket_id,
            reserve: open_reserve(),
            uuidd,
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
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), gen)?;
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

    /// The socket path.
    ///
    /// ```
    /// use uuidkit_service::server::{is_socket, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-spath", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// assert_eq!(server.socket_path(), sock);
    /// assert!(is_socket(server.socket_path()));
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn socket_path(&self) -> &Path {
        &self.shared.cfg.socket
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
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), gen)?;
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
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), gen)?;
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
        'serve: loop {
            let mut fds = [
                libc::pollfd {
                    fd: self.listener.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.wake_rx.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    // poll skips a negative descriptor.
                    fd: self.uuidd.as_ref().map_or(-1, |u| u.listener.as_raw_fd()),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: `fds` is a live array of initialised pollfd structures and the count
            // passed is its length; the descriptors stay open during the call.
            let rc = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) };
            if rc < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                shared.log(format_args!("poll failed: {e}"));
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            if fds[1].revents != 0 {
                // Drain; any byte means stop.
                if matches!((&self.wake_rx).read(&mut wake_buf), Ok(n) if n > 0) {
                    break 'serve;
                }
            }
            if fds[2].revents != 0 {
                if let Some(u) = &self.uuidd {
                    accepted += accept_uuidd(&shared, &u.listener, &mut failures);
                }
            }
            if fds[0].revents == 0 {
                continue;
            }
            loop {
                match self.listener.accept() {
                    Ok((stream, _)) => {
                        accepted += 1;
                        admit(&self.shared, stream, uuidkit());
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) if sys::is_out_of_descriptors(&e) && self.reserve.is_some() => {
                        // Free the reserve descriptor, take the waiting client, tell it Busy.
                        self.reserve = None;
                        if let Ok((stream, _)) = self.listener.accept() {
                            refuse(&shared, &stream, "out of file descriptors");
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
        }

        shared.closing.store(true, Ordering::SeqCst);
        remove_own_socket(&shared.cfg.socket, self.socket_id);
        drop(self.listener);
        if let (Some(u), Some(path)) = (self.uuidd.take(), &shared.cfg.uuidd_socket) {
            remove_own_socket(path, u.socket_id);
        }
        let flushed = shared.gen().shut_down();
        shared.close_connections();
        signals::forget_wake_fd();
        match flushed {
            Ok(()) => Ok(RunSummary {
                connections: accepted,
            }),
            Err(e) => Err(ServerError::new(format!(
                "flushing the state at shutdown: {e}"
            ))),
        }
    }
}

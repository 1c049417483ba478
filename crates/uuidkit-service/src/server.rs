//! The server behind `uuidkit serve`: a Unix socket, one thread per connection, and one
//! [`DurableGenerator`] behind a mutex, so that requests are served one after another and every
//! UUID issued on the machine is unique and, per version, increasing in the order requests are
//! served (RFC 9562 §6.3 "system-wide shared volatile store").
//!
//! # Why threads
//!
//! A connection costs a thread with a 64 KiB stack while it is open; an idle one sleeps in
//! `read` and never holds the generator, so it cannot delay anyone else. A thread whose
//! connection ends waits up to 10 s for the next one (at most 32 such threads), so that
//! clients that connect once per request do not pay a thread start each time. Connections beyond
//! [`max_connections`](ServerConfig::max_connections) get a [`Status::Busy`] reply and are
//! closed. Each read and write has a [timeout](ServerConfig::timeout): a client that sends half
//! a frame, or does not read its reply, loses its connection.
//!
//! # One instance per socket
//!
//! [`Server::bind`] takes an exclusive `flock` on `SOCKET.lock` and keeps it. If the socket
//! path exists it must be a socket nobody listens on (`connect` fails with `ECONNREFUSED`): a
//! stale one left by a killed server, which is replaced. Anything else there is left alone and
//! is an error. The socket is created in a private (0700) directory next to the final path,
//! given its mode and group, and renamed into place, so that it is never reachable with other
//! permissions.
//!
//! # Shutting down
//!
//! [`ShutdownHandle::shutdown`] (or SIGTERM/SIGINT after [`Server::stop_on_signals`]) wakes
//! the accept loop through a socket pair, which stops accepting, removes the socket file,
//! writes the exact state ([`DurableGenerator::shut_down`]) and closes the connections.
//!
//! ```
//! use std::time::Duration;
//! use uuidkit_service::client::Connection;
//! use uuidkit_service::server::{is_socket, Server, ServerConfig};
//! use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
//! # let dir = std::env::temp_dir().join(format!("uk-doc-{}-server", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! let sock = dir.join("uuidkit.sock");
//! let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
//! let server = Server::bind(ServerConfig::new(&sock), gen)?;
//! let stop = server.shutdown_handle();
//! let running = std::thread::spawn(move || server.run());
//!
//! let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
//! let mut out = Vec::new();
//! c.generate(TimeVersion::V6, 3, &mut out)?;
//! assert!(out.len() == 3 && out[0] < out[1] && out[1] < out[2]);
//!
//! stop.shutdown();
//! running.join().map_err(|_| "server thread panicked")??; // Ok: the state was written
//! assert!(!is_socket(&sock));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::collections::{HashMap, VecDeque};
use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::protocol::{
    error_frame, info_frame, request_payload_len, uuids_frame, Info, Request, Status, MAX_COUNT,
    MAX_REQUEST_LEN,
};
use crate::state::{DurableGenerator, StateErrorKind, TimeVersion};
use uuidkit::gen::{Clock, SystemClock};
use uuidkit::Uuid;

/// Stack of a connection thread: it holds a few small buffers only.
const CONN_STACK: usize = 64 * 1024;

/// An error of the server: the socket cannot be set up, or the state could not be flushed.
///
/// ```
/// use uuidkit_service::server::{Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-serr", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// // A file where the socket should go is never replaced.
/// std::fs::write(&sock, b"precious")?;
/// let e = Server::bind(ServerConfig::new(&sock), gen).unwrap_err();
/// assert!(e.to_string().contains("is not a socket"), "{e}");
/// assert_eq!(std::fs::read(&sock)?, b"precious");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ServerError {
    msg: String,
    io: Option<io::Error>,
}

impl ServerError {
    fn new(msg: impl Into<String>) -> ServerError {
        ServerError {
            msg: msg.into(),
            io: None,
        }
    }

    fn io(msg: impl Into<String>, e: io::Error) -> ServerError {
        ServerError {
            msg: msg.into(),
            io: Some(e),
        }
    }

    /// The operating system's error, if one caused this.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-ioerr", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// // The socket's directory does not exist: the instance lock cannot be created in it.
    /// let e = Server::bind(ServerConfig::new(dir.join("missing/s.sock")), gen).unwrap_err();
    /// assert_eq!(e.io_error().map(|e| e.kind()), Some(ErrorKind::NotFound));
    /// assert!(e.to_string().contains("missing/s.sock.lock"), "{e}");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn io_error(&self) -> Option<&io::Error> {
        self.io.as_ref()
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)?;
        if let Some(e) = &self.io {
            write!(f, ": {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ServerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io.as_ref().map(|e| e as _)
    }
}

type Logger = Arc<dyn Fn(&str) + Send + Sync>;

/// How the server listens.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::server::ServerConfig;
/// let c = ServerConfig::new("/tmp/uuidkit-doc.sock")
///     .mode(0o660)
///     .max_connections(4096)
///     .timeout(Duration::from_secs(10));
/// assert_eq!(c.socket_path(), std::path::Path::new("/tmp/uuidkit-doc.sock"));
/// ```
#[derive(Clone)]
pub struct ServerConfig {
    socket: PathBuf,
    mode: u32,
    group: Option<u32>,
    max_connections: usize,
    timeout: Duration,
    verbose: bool,
    log: Option<Logger>,
}

impl fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("socket", &self.socket)
            .field("mode", &format_args!("{:04o}", self.mode))
            .field("group", &self.group)
            .field("max_connections", &self.max_connections)
            .field("timeout", &self.timeout)
            .field("verbose", &self.verbose)
            .finish_non_exhaustive()
    }
}

impl ServerConfig {
    /// Listens on `socket` with mode 0600, at most 1024 connections, a 30 s timeout, silent.
    ///
    /// ```
    /// use std::os::unix::fs::PermissionsExt;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-scnew", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), gen)?;
    /// let mode = std::fs::metadata(&sock)?.permissions().mode();
    /// assert_eq!(mode & 0o777, 0o600); // only this user may connect
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(socket: impl Into<PathBuf>) -> ServerConfig {
        ServerConfig {
            socket: socket.into(),
            mode: 0o600,
            group: None,
            max_connections: 1024,
            timeout: Duration::from_secs(30),
            verbose: false,
            log: None,
        }
    }

    /// The socket's permission bits (default 0600: only the owner may connect).
    ///
    /// ```
    /// use std::os::unix::fs::PermissionsExt;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-mode", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock).mode(0o660), gen)?;
    /// let mode = std::fs::metadata(&sock)?.permissions().mode();
    /// assert_eq!(mode & 0o777, 0o660); // the owner and the socket's group may connect
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mode(mut self, mode: u32) -> Self {
        self.mode = mode & 0o777;
        self
    }

    /// The socket's group (with a mode such as 0660, lets that group connect).
    ///
    /// ```
    /// use std::os::unix::fs::MetadataExt;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-group", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// // Root may give the socket any group; others only one of their own, else an error.
    /// match Server::bind(ServerConfig::new(&sock).mode(0o660).group(4242), gen) {
    ///     Ok(_server) => assert_eq!(std::fs::metadata(&sock)?.gid(), 4242),
    ///     Err(e) => assert!(e.to_string().contains("group 4242"), "{e}"),
    /// }
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group(mut self, gid: u32) -> Self {
        self.group = Some(gid);
        self
    }

    /// The most connections open at once (default 1024); more are refused with
    /// [`Status::Busy`].
    ///
    /// ```
    /// use std::io::Read;
    /// use std::os::unix::net::UnixStream;
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::protocol::{ReplyHeader, Status};
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-maxconn", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock).max_connections(1), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut first = Connection::connect(&sock, Duration::from_secs(5))?;
    /// first.generate(TimeVersion::V7, 1, &mut Vec::new())?; // admitted, and stays open
    /// // A second connection gets a Busy reply, then the server hangs up.
    /// let mut second = UnixStream::connect(&sock)?;
    /// second.set_read_timeout(Some(Duration::from_secs(5)))?;
    /// let mut reply = Vec::new();
    /// second.read_to_end(&mut reply)?;
    /// assert_eq!(ReplyHeader::parse(&reply[4..])?.status, Status::Busy);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_connections(mut self, n: usize) -> Self {
        self.max_connections = n.max(1);
        self
    }

    /// The read and write timeout of every connection (default 30 s): an idle connection is
    /// closed after it, and so is one that stalls mid-frame.
    ///
    /// ```
    /// use std::io::Read;
    /// use std::os::unix::net::UnixStream;
    /// use std::time::Duration;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-stimeout", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let cfg = ServerConfig::new(&sock).timeout(Duration::from_millis(20));
    /// let server = Server::bind(cfg, gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// // A client that connects and says nothing is hung up on after 20 ms.
    /// let mut idle = UnixStream::connect(&sock)?;
    /// idle.set_read_timeout(Some(Duration::from_secs(5)))?;
    /// assert_eq!(idle.read_to_end(&mut Vec::new())?, 0);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = t.max(Duration::from_millis(1));
        self
    }

    /// Logs every connection and malformed request too, not only start, stop and errors.
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-verbose", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let (tx, lines) = mpsc::channel();
    /// let log = move |line: &str| drop(tx.send(line.to_string()));
    /// let server = Server::bind(ServerConfig::new(&sock).verbose(true).log(log), gen)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// Connection::connect(&sock, Duration::from_secs(5))?.info()?;
    /// // The connection was logged before it was served.
    /// assert!(lines.try_iter().any(|l| l.contains("connection") && l.ends_with("open")));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verbose(mut self, v: bool) -> Self {
        self.verbose = v;
        self
    }

    /// Where log lines go (default: nowhere).
    ///
    /// ```
    /// use std::os::unix::net::UnixListener;
    /// use std::sync::mpsc;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-log", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// drop(UnixListener::bind(&sock)?); // a stale socket, as a killed server leaves behind
    /// let (tx, lines) = mpsc::channel();
    /// let cfg = ServerConfig::new(&sock).log(move |line| drop(tx.send(line.to_string())));
    /// let server = Server::bind(cfg, gen)?;
    /// let line = lines.try_recv()?;
    /// assert!(line.contains("replacing stale socket"), "{line}");
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn log(mut self, f: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.log = Some(Arc::new(f));
        self
    }

    /// The socket path.
    ///
    /// ```
    /// use std::path::Path;
    /// use uuidkit_service::server::ServerConfig;
    /// let c = ServerConfig::new("/run/uuidkit/uuidkit.sock").mode(0o660);
    /// assert_eq!(c.socket_path(), Path::new("/run/uuidkit/uuidkit.sock"));
    /// ```
    pub fn socket_path(&self) -> &Path {
        &self.socket
    }
}

/// The open connections: counted against the limit, and closed at shutdown through the
/// second handle kept here (`None` when it could not be made: counted, not closable).
#[derive(Default)]
struct Registry {
    next: AtomicU64,
    open: Mutex<HashMap<u64, Option<UnixStream>>>,
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Option<UnixStream>>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Shared between the accept loop and the connection threads.
struct Shared<C: Clock> {
    gen: Mutex<DurableGenerator<C>>,
    conns: Registry,
    closing: AtomicBool,
    cfg: ServerConfig,
    pool: Pool,
}

/// Connection threads that finished their connection and wait (a while) for another, so that
/// clients connecting once per request do not pay a thread start each time.
///
/// Invariant, kept under the lock: a connection is queued only while more threads wait than
/// connections are queued, and a thread leaves only when the queue is empty; so every queued
/// connection has a thread to take it.
#[derive(Default)]
struct Pool {
    state: Mutex<PoolState>,
    ready: Condvar,
}

#[derive(Default)]
struct PoolState {
    idle: usize,
    queue: VecDeque<(UnixStream, u64)>,
}

/// How many finished threads wait for new connections, and for how long.
const POOL_MAX_IDLE: usize = 32;
const POOL_IDLE_TIME: Duration = Duration::from_secs(10);

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hands a connection to a waiting thread; gives it back if none waits.
    fn offer(&self, conn: (UnixStream, u64)) -> Option<(UnixStream, u64)> {
        let mut st = self.lock();
        if st.idle > st.queue.len() {
            st.queue.push_back(conn);
            drop(st);
            self.ready.notify_one();
            None
        } else {
            Some(conn)
        }
    }

    /// Waits for the next connection; `None` when none came in time, the pool is full, or the
    /// server is closing.
    fn wait(&self, closing: &AtomicBool) -> Option<(UnixStream, u64)> {
        let mut st = self.lock();
        if st.idle >= POOL_MAX_IDLE {
            return None;
        }
        st.idle += 1;
        let deadline = std::time::Instant::now() + POOL_IDLE_TIME;
        loop {
            if let Some(c) = st.queue.pop_front() {
                st.idle -= 1;
                return Some(c);
            }
            let now = std::time::Instant::now();
            if now >= deadline || closing.load(Ordering::SeqCst) {
                st.idle -= 1;
                return None;
            }
            st = self
                .ready
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl<C: Clock> Shared<C> {
    fn log(&self, msg: fmt::Arguments<'_>) {
        if let Some(l) = &self.cfg.log {
            l(&msg.to_string());
        }
    }

    fn gen(&self) -> MutexGuard<'_, DurableGenerator<C>> {
        // A panic while holding the generator cannot leave it inconsistent in a way that
        // repeats UUIDs (its state only moves forward), so a poisoned lock is still usable.
        self.gen.lock().unwrap_or_else(|p| p.into_inner())
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
}

impl<C: Clock + 'static> fmt::Debug for Server<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("socket", &self.shared.cfg.socket)
            .finish_non_exhaustive()
    }
}

/// The process-wide file descriptor the signal handler writes to; -1 when none.
static SIGNAL_WAKE_FD: AtomicI32 = AtomicI32::new(-1);
/// The last signal received (0: none).
static SIGNAL_RECEIVED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_stop_signal(sig: libc::c_int) {
    SIGNAL_RECEIVED.store(sig, Ordering::Relaxed);
    let fd = SIGNAL_WAKE_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: `errno_location` returns the calling thread's errno slot, valid for the
        // thread's life; saving and restoring it keeps the interrupted code's errno intact.
        // `write` is async-signal-safe; `fd` is the non-blocking socket the server keeps open
        // while the handler is installed, and the buffer is a live one-byte local.
        unsafe {
            let errno = crate::sys::errno_location();
            let saved = *errno;
            let byte = 1u8;
            libc::write(fd, (&byte as *const u8).cast(), 1);
            *errno = saved;
        }
    }
}

/// The signal that stopped the server, if one did (SIGTERM is 15, SIGINT 2).
///
/// ```
/// use uuidkit_service::server::{received_signal, Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-signal", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let gen = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// let server = Server::bind(ServerConfig::new(&sock), gen)?;
/// server.stop_on_signals()?;
/// let running = std::thread::spawn(move || server.run());
/// assert_eq!(received_signal(), None);
/// // SAFETY: SIGINT now has the server's handler, which only stores and writes a byte.
/// assert_eq!(unsafe { libc::raise(libc::SIGINT) }, 0);
/// running.join().map_err(|_| "server thread panicked")??;
/// assert_eq!(received_signal(), Some(2));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn received_signal() -> Option<i32> {
    match SIGNAL_RECEIVED.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// Ignores SIGXFSZ for the whole process, so that exceeding a file-size limit (`ulimit -f`)
/// makes a write fail with `EFBIG`, which the state file reports, instead of killing the
/// process. A server calls it before opening its state.
///
/// ```
/// use uuidkit_service::server::ignore_file_size_signal;
/// ignore_file_size_signal()?;
/// // By default SIGXFSZ ends the process; now raising it does nothing.
/// // SAFETY: raise only delivers SIGXFSZ, whose disposition is now SIG_IGN.
/// assert_eq!(unsafe { libc::raise(libc::SIGXFSZ) }, 0);
/// # Ok::<(), uuidkit_service::server::ServerError>(())
/// ```
pub fn ignore_file_size_signal() -> Result<(), ServerError> {
    // SAFETY: SIG_IGN is a valid disposition for SIGXFSZ; no handler code runs.
    let old = unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    if old == libc::SIG_ERR {
        return Err(ServerError::io(
            "ignoring SIGXFSZ",
            io::Error::last_os_error(),
        ));
    }
    Ok(())
}

/// The group id for a group name or number (`getgrnam_r`).
///
/// ```
/// use uuidkit_service::server::group_id;
/// assert_eq!(group_id("4242")?, 4242); // a number is taken as it is
/// let e = group_id("no-such-group-uk").unwrap_err(); // a name must exist
/// assert!(e.to_string().contains("no-such-group-uk"), "{e}");
/// assert!(group_id("wheel\0").is_err());
/// # Ok::<(), uuidkit_service::server::ServerError>(())
/// ```
pub fn group_id(name: &str) -> Result<u32, ServerError> {
    if let Ok(n) = name.parse::<u32>() {
        return Ok(n);
    }
    let cname = CString::new(name)
        .map_err(|_| ServerError::new(format!("group {name:?}: contains NUL")))?;
    let mut buf = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: `group` is plain old data that getgrnam_r fills in; zeroed is a valid value.
    let mut grp: libc::group = unsafe { std::mem::zeroed() };
    let mut result: *mut libc::group = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call: a NUL-terminated name, a writable `group`,
    // a writable buffer of the length passed, and a writable result pointer.
    let rc = unsafe {
        libc::getgrnam_r(
            cname.as_ptr(),
            &mut grp,
            buf.as_mut_ptr(),
            buf.len(),
            &mut result,
        )
    };
    if rc != 0 {
        return Err(ServerError::io(
            format!("looking up group {name:?}"),
            io::Error::from_raw_os_error(rc),
        ));
    }
    if result.is_null() {
        return Err(ServerError::new(format!("no such group: {name:?}")));
    }
    Ok(grp.gr_gid)
}

/// The exclusive lock on `SOCKET.lock` that makes a server the only one on its socket.
///
/// [`Server::bind`] takes it itself; a program that wants to fail before doing anything else
/// (opening the state file) takes it first and passes it to [`Server::bind_locked`].
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
    file: File,
    socket: PathBuf,
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

impl<C: Clock + 'static> Server<C> {
    /// Takes the instance lock, replaces a stale socket, binds and sets permissions.
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
        clear_stale_socket(&path, &cfg)?;
        let listener = bind_private(&path, cfg.mode, cfg.group)?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ServerError::io("setting the listener non-blocking", e))?;
        let meta = fs::symlink_metadata(&path)
            .map_err(|e| ServerError::io(format!("{}: cannot stat", path.display()), e))?;
        let (wake_rx, wake_tx) =
            UnixStream::pair().map_err(|e| ServerError::io("creating the wake-up pair", e))?;
        wake_rx
            .set_nonblocking(true)
            .and_then(|_| wake_tx.set_nonblocking(true))
            .map_err(|e| ServerError::io("setting the wake-up pair non-blocking", e))?;
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                gen: Mutex::new(gen),
                conns: Registry::default(),
                closing: AtomicBool::new(false),
                cfg,
                pool: Pool::default(),
            }),
            _lock: lock,
            wake_rx,
            wake_tx: Arc::new(wake_tx),
            socket_id: (meta.dev(), meta.ino()),
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

    /// Installs process-wide handlers so that SIGTERM and SIGINT shut this server down
    /// cleanly, and ignores SIGXFSZ ([`ignore_file_size_signal`]) so that a file-size limit makes
    /// state writes fail with an error (reported) instead of killing the process. Call once, from the main thread,
    /// before [`run`](Server::run).
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
        ignore_file_size_signal()?;
        SIGNAL_WAKE_FD.store(self.wake_tx.as_raw_fd(), Ordering::Relaxed);
        let stop = on_stop_signal as extern "C" fn(libc::c_int) as *const () as libc::sighandler_t;
        for sig in [libc::SIGTERM, libc::SIGINT] {
            // SAFETY: `sa` is zero-initialised (a valid, empty `sigaction`) and then given a
            // handler that only performs async-signal-safe operations (atomics and write); the
            // old action is not needed. sigemptyset and sigaction only read and write the
            // structures passed.
            let rc = unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = stop;
                sa.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut())
            };
            if rc != 0 {
                return Err(ServerError::io(
                    format!("installing the handler for signal {sig}"),
                    io::Error::last_os_error(),
                ));
            }
        }
        Ok(())
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
    pub fn run(self) -> Result<RunSummary, ServerError> {
        let shared = Arc::clone(&self.shared);
        let mut accepted = 0u64;
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
            ];
            // SAFETY: `fds` is a live array of two initialised pollfd structures and the count
            // passed is its length; both descriptors stay open during the call.
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
            if fds[0].revents == 0 {
                continue;
            }
            loop {
                match self.listener.accept() {
                    Ok((stream, _)) => {
                        accepted += 1;
                        self.admit(stream);
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        // EMFILE and the like: back off instead of spinning on a full table.
                        shared.log(format_args!("accept failed: {e}"));
                        std::thread::sleep(Duration::from_millis(10));
                        break;
                    }
                }
            }
        }

        shared.closing.store(true, Ordering::SeqCst);
        let path = &shared.cfg.socket;
        if let Ok(m) = fs::symlink_metadata(path) {
            if (m.dev(), m.ino()) == self.socket_id {
                let _ = fs::remove_file(path);
            }
        }
        drop(self.listener);
        let flushed = shared.gen().shut_down();
        for s in shared.conns.lock().drain().filter_map(|(_, s)| s) {
            let _ = s.shutdown(Shutdown::Both);
        }
        shared.pool.ready.notify_all();
        SIGNAL_WAKE_FD.store(-1, Ordering::Relaxed);
        match flushed {
            Ok(()) => Ok(RunSummary {
                connections: accepted,
            }),
            Err(e) => Err(ServerError::new(format!(
                "flushing the state at shutdown: {e}"
            ))),
        }
    }

    /// Starts a thread for a new connection, or refuses it when there are too many.
    fn admit(&self, stream: UnixStream) {
        let shared = &self.shared;
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_read_timeout(Some(shared.cfg.timeout));
        let _ = stream.set_write_timeout(Some(shared.cfg.timeout));
        let mut open = shared.conns.lock();
        let n = open.len();
        if n >= shared.cfg.max_connections {
            drop(open);
            let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
            let mut out = Vec::new();
            error_frame(
                Status::Busy,
                0,
                &format!(
                    "too many connections (at most {})",
                    shared.cfg.max_connections
                ),
                &mut out,
            );
            let _ = (&stream).write_all(&out);
            if shared.cfg.verbose {
                shared.log(format_args!("refused a connection: {n} open"));
            }
            return;
        }
        let id = shared.conns.next.fetch_add(1, Ordering::Relaxed);
        open.insert(id, stream.try_clone().ok());
        drop(open);
        let Some(conn) = shared.pool.offer((stream, id)) else {
            return;
        };
        let s2 = Arc::clone(shared);
        let spawned = std::thread::Builder::new()
            .name("uuidkit-conn".into())
            .stack_size(CONN_STACK)
            .spawn(move || {
                let mut next = Some(conn);
                while let Some((stream, id)) = next {
                    serve_connection(&s2, stream, id);
                    s2.conns.lock().remove(&id);
                    next = s2.pool.wait(&s2.closing);
                }
            });
        if let Err(e) = spawned {
            shared.conns.lock().remove(&id);
            shared.log(format_args!("cannot start a connection thread: {e}"));
        }
    }
}

/// Reads exactly `buf.len()` bytes; `Ok(false)` on a clean end of stream before the first.
fn read_full(s: &mut UnixStream, buf: &mut [u8]) -> io::Result<bool> {
    let mut n = 0;
    while n < buf.len() {
        match s.read(&mut buf[n..]) {
            Ok(0) if n == 0 => return Ok(false),
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("connection closed after {n} of {} bytes", buf.len()),
                ))
            }
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

fn serve_connection<C: Clock>(shared: &Shared<C>, mut s: UnixStream, id: u64) {
    let verbose = shared.cfg.verbose;
    if verbose {
        shared.log(format_args!("connection {id}: open"));
    }
    let mut out: Vec<u8> = Vec::with_capacity(1024);
    let mut uuids: Vec<Uuid> = Vec::new();
    let mut req = [0u8; MAX_REQUEST_LEN as usize];
    let why = loop {
        let mut len = [0u8; 4];
        match read_full(&mut s, &mut len) {
            Ok(true) => {}
            Ok(false) => break "closed by the client".to_string(),
            Err(e) => break format!("read failed: {e}"),
        }
        let len = u32::from_be_bytes(len);
        let payload = match request_payload_len(len) {
            Ok(n) => &mut req[..n],
            Err(rej) => {
                error_frame(rej.status, 0, &rej.message, &mut out);
                let _ = s.write_all(&out);
                break format!("malformed frame (length {len})");
            }
        };
        match read_full(&mut s, payload) {
            Ok(true) => {}
            Ok(false) | Err(_) => break "closed mid-frame".to_string(),
        }
        let request = match Request::parse(payload) {
            Ok(r) => r,
            Err(rej) => {
                error_frame(rej.status, 0, &rej.message, &mut out);
                let sent = s.write_all(&out);
                if verbose {
                    shared.log(format_args!("connection {id}: rejected: {}", rej.message));
                }
                if rej.status.closes() || sent.is_err() {
                    break format!("rejected: {}", rej.message);
                }
                continue;
            }
        };
        // Request::parse gives a UUID version to generate requests, and to them only.
        match request.version {
            Some(v) => generate(shared, v, request.count, &mut uuids, &mut out),
            None => {
                let g = shared.gen();
                let info = Info {
                    max_count: MAX_COUNT,
                    pid: std::process::id(),
                    durable: g.is_durable(),
                    strict: g.is_strict(),
                };
                drop(g);
                info_frame(&info, &mut out);
            }
        }
        if let Err(e) = s.write_all(&out) {
            break format!("write failed: {e}");
        }
        // Do not keep a large reply buffer for an idle connection.
        if out.capacity() > 64 * 1024 {
            out = Vec::with_capacity(1024);
            uuids = Vec::new();
        }
    };
    if verbose {
        shared.log(format_args!("connection {id}: {why}"));
    }
}

fn generate<C: Clock>(
    shared: &Shared<C>,
    v: TimeVersion,
    count: u32,
    uuids: &mut Vec<Uuid>,
    out: &mut Vec<u8>,
) {
    let n = count.min(MAX_COUNT) as usize;
    uuids.clear();
    uuids.resize(n, Uuid::NIL);
    let result = shared.gen().fill(v, uuids);
    match result {
        Ok(safety) => uuids_frame(v, safety.is_durable(), uuids, out),
        Err(e) => {
            let status = if e.kind() == StateErrorKind::Closed {
                Status::ShuttingDown
            } else {
                Status::Generator
            };
            if status == Status::Generator {
                shared.log(format_args!("generating {n} {v}: {e}"));
            }
            error_frame(status, v.as_u8(), &e.to_string(), out);
        }
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
        // SAFETY: the descriptor belongs to `f`, open for the whole call; flock only changes
        // the lock state of that open file description.
        let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            break;
        }
        let e = io::Error::last_os_error();
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

/// Removes a socket left by a killed server; refuses to touch anything else.
fn clear_stale_socket(path: &Path, cfg: &ServerConfig) -> Result<(), ServerError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(ServerError::io(
                format!("{}: cannot stat", path.display()),
                e,
            ))
        }
    };
    if !meta.file_type().is_socket() {
        return Err(ServerError::new(format!(
            "{} exists and is not a socket; not replacing it",
            path.display()
        )));
    }
    match UnixStream::connect(path) {
        Ok(_) => Err(ServerError::new(format!(
            "a server is already listening on {}",
            path.display()
        ))),
        Err(e) if e.raw_os_error() == Some(libc::ECONNREFUSED) => {
            if let Some(l) = &cfg.log {
                l(&format!("replacing stale socket {}", path.display()));
            }
            Ok(()) // the rename in bind_private replaces it atomically
        }
        Err(e) => Err(ServerError::io(
            format!(
                "{}: cannot tell whether a server listens there",
                path.display()
            ),
            e,
        )),
    }
}

/// Binds in a private directory next to `path`, sets mode and group, renames into place.
fn bind_private(path: &Path, mode: u32, group: Option<u32>) -> Result<UnixListener, ServerError> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp_dir = parent.join(format!(
        ".uk{}-{:04x}",
        std::process::id(),
        uuidkit::gen::random_u64() as u16
    ));
    fs::DirBuilder::new()
        .mode(0o700)
        .create(&tmp_dir)
        .map_err(|e| ServerError::io(format!("cannot create {}", tmp_dir.display()), e))?;
    let tmp = tmp_dir.join("s");
    let result = (|| {
        let listener = UnixListener::bind(&tmp)
            .map_err(|e| ServerError::io(format!("cannot bind {}", tmp.display()), e))?;
        fs::set_permissions(&tmp, fs::Permissions::from_mode(mode))
            .map_err(|e| ServerError::io("cannot set the socket's mode", e))?;
        if let Some(gid) = group {
            std::os::unix::fs::chown(&tmp, None, Some(gid))
                .map_err(|e| ServerError::io(format!("cannot give the socket group {gid}"), e))?;
        }
        fs::rename(&tmp, path).map_err(|e| {
            ServerError::io(format!("cannot move the socket to {}", path.display()), e)
        })?;
        Ok(listener)
    })();
    let _ = fs::remove_file(&tmp);
    let _ = fs::remove_dir(&tmp_dir);
    result
}

/// Whether `path` is a socket file (a symbolic link is not followed): such as the one a
/// running server listens on, and removes when it stops.
///
/// ```
/// use std::os::unix::net::UnixListener;
/// use uuidkit_service::server::is_socket;
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-issock", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let _listener = UnixListener::bind(dir.join("s.sock"))?;
/// std::fs::write(dir.join("file"), b"")?;
/// assert!(is_socket(&dir.join("s.sock")));
/// assert!(!is_socket(&dir.join("file")) && !is_socket(&dir.join("missing")));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_socket(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket())
}

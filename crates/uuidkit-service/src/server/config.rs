//! How the server listens: the socket, its permissions, the connection limit, the timeout,
//! the idle exit, the service manager's notices and the log.

use core::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::log::Log;
use super::notify::Notifier;

/// How the server listens.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::server::ServerConfig;
/// let c = ServerConfig::new("/tmp/uuidkit-doc.sock")
///     .mode(0o660)
///     .max_connections(4096)
///     .timeout(Duration::from_secs(10));
/// assert_eq!(c.socket_path(), Some(std::path::Path::new("/tmp/uuidkit-doc.sock")));
/// ```
#[derive(Clone)]
pub struct ServerConfig {
    pub(super) socket: Option<PathBuf>,
    pub(super) mode: u32,
    pub(super) group: Option<u32>,
    pub(super) max_connections: usize,
    pub(super) max_per_uid: Option<usize>,
    pub(super) timeout: Duration,
    pub(super) frame_timeout: Duration,
    pub(super) verbose: bool,
    pub(super) idle_exit: Option<Duration>,
    pub(super) notify: Notifier,
    pub(super) log: Log,
    pub(super) uuidd_socket: Option<PathBuf>,
}

impl fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("socket", &self.socket)
            .field("mode", &format_args!("{:04o}", self.mode))
            .field("group", &self.group)
            .field("max_connections", &self.max_connections)
            .field("max_per_uid", &self.per_uid_limit())
            .field("timeout", &self.timeout)
            .field("frame_timeout", &self.frame_timeout)
            .field("verbose", &self.verbose)
            .field("idle_exit", &self.idle_exit)
            .field("notify", &self.notify)
            .field("uuidd_socket", &self.uuidd_socket)
            .finish_non_exhaustive()
    }
}

impl ServerConfig {
    /// Listens on `socket` with mode 0600, at most 1024 connections (half of them from one
    /// user), a 30 s timeout, 2 s to send a whole request, silent.
    ///
    /// ```
    /// use std::os::unix::fs::PermissionsExt;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-scnew", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// let mode = std::fs::metadata(&sock)?.permissions().mode();
    /// assert_eq!(mode & 0o777, 0o600); // only this user may connect
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(socket: impl Into<PathBuf>) -> ServerConfig {
        ServerConfig {
            socket: Some(socket.into()),
            ..ServerConfig::without_socket()
        }
    }

    /// Like [`new`](Self::new), but with no socket of its own: the server listens only on the
    /// listeners given to [`Server::bind_with`](crate::server::Server::bind_with), such as those
    /// a service manager passed ([`activation_listeners`](crate::server::activation_listeners)).
    ///
    /// ```
    /// use std::os::unix::net::UnixListener;
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::server::{Listener, ListenerKind, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-nosock", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let cfg = ServerConfig::without_socket();
    /// assert_eq!(cfg.socket_path(), None);
    /// // A socket bound by someone else (here: by hand; usually the service manager).
    /// let l = Listener::new(UnixListener::bind(dir.join("s.sock"))?, ListenerKind::Uuidkit, "");
    /// let server = Server::bind_with(cfg, None, vec![l], g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// Connection::connect(dir.join("s.sock"), Duration::from_secs(5))?.info()?;
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// // The server did not create that socket file, so it leaves it where it is.
    /// assert!(dir.join("s.sock").exists());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn without_socket() -> ServerConfig {
        ServerConfig {
            socket: None,
            mode: 0o600,
            group: None,
            max_connections: 1024,
            max_per_uid: None,
            timeout: Duration::from_secs(30),
            frame_timeout: Duration::from_secs(2),
            verbose: false,
            idle_exit: None,
            notify: Notifier::none(),
            log: Log::default(),
            uuidd_socket: None,
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock).mode(0o660), g)?;
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// // Root may give the socket any group; others only one of their own, else an error.
    /// match Server::bind(ServerConfig::new(&sock).mode(0o660).group(4242), g) {
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
    /// [`Status::Busy`](crate::protocol::Status::Busy).
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let server = Server::bind(ServerConfig::new(&sock).max_connections(1), g)?;
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

    /// The most connections open at once from processes of one user id, as the kernel reports
    /// the peer (default: half of [`max_connections`](Self::max_connections), rounded up), so
    /// that one user's idle or slow clients cannot take every place; more get
    /// [`Status::Busy`](crate::protocol::Status::Busy).
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
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-peruid", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let cfg = ServerConfig::new(&sock).max_connections(10).max_connections_per_user(1);
    /// let server = Server::bind(cfg, g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut first = Connection::connect(&sock, Duration::from_secs(5))?;
    /// first.generate(TimeVersion::V7, 1, &mut Vec::new())?; // admitted, and stays open
    /// // The same user's second connection is refused, though there are places left.
    /// let mut second = UnixStream::connect(&sock)?;
    /// second.set_read_timeout(Some(Duration::from_secs(5)))?;
    /// let mut reply = Vec::new();
    /// second.read_to_end(&mut reply)?;
    /// assert_eq!(ReplyHeader::parse(&reply[4..])?.status, Status::Busy);
    /// assert!(String::from_utf8_lossy(&reply[12..]).contains("from uid"));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_connections_per_user(mut self, n: usize) -> Self {
        self.max_per_uid = Some(n.max(1));
        self
    }

    /// The per-user limit in force: the one set, else half of the connection limit.
    pub(super) fn per_uid_limit(&self) -> usize {
        self.max_per_uid
            .unwrap_or(self.max_connections.div_ceil(2))
            .max(1)
    }

    /// How long a client may take to send one whole request frame once its first byte has
    /// come (default 2 s, never more than the [`timeout`](Self::timeout)): a client that
    /// trickles a frame a byte at a time is closed after it, however often it sends.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use std::os::unix::net::UnixStream;
    /// use std::time::Duration;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-ftimeout", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let cfg = ServerConfig::new(&sock).frame_timeout(Duration::from_millis(20));
    /// let server = Server::bind(cfg, g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// // Half a frame, then nothing: hung up on 20 ms later, long before the 30 s timeout.
    /// let mut slow = UnixStream::connect(&sock)?;
    /// slow.write_all(&[0, 0, 0, 8, 1])?;
    /// slow.set_read_timeout(Some(Duration::from_secs(5)))?;
    /// assert_eq!(slow.read_to_end(&mut Vec::new())?, 0);
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn frame_timeout(mut self, t: Duration) -> Self {
        self.frame_timeout = t.max(Duration::from_millis(1));
        self
    }

    /// How long a connection may stay idle between requests, and take to read one whole reply
    /// (default 30 s): an idle connection is closed after it, and so is one that does not read
    /// its reply in that time (a deadline for the whole reply, not for each write).
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let cfg = ServerConfig::new(&sock).timeout(Duration::from_millis(20));
    /// let server = Server::bind(cfg, g)?;
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let (tx, lines) = mpsc::channel();
    /// let log = move |line: &str| drop(tx.send(line.to_string()));
    /// let server = Server::bind(ServerConfig::new(&sock).verbose(true).log(log), g)?;
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// drop(UnixListener::bind(&sock)?); // a stale socket, as a killed server leaves behind
    /// let (tx, lines) = mpsc::channel();
    /// let cfg = ServerConfig::new(&sock).log(move |line| drop(tx.send(line.to_string())));
    /// let server = Server::bind(cfg, g)?;
    /// let line = lines.try_recv()?;
    /// assert!(line.contains("replacing stale socket"), "{line}");
    /// # drop(server);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn log(mut self, f: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.log = Log::to(f);
        self
    }

    /// Stops the server by itself, as cleanly as a stop signal does, once no connection has
    /// been open for `idle` (counted from the start, or from the end of the last connection;
    /// default: never). Meant for a server a service manager starts on demand: the next
    /// client starts it again.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::server::{is_socket, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-idle", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let cfg = ServerConfig::new(&sock).idle_exit(Duration::from_millis(50));
    /// let summary = Server::bind(cfg, g)?.run()?; // nobody connects: returns by itself
    /// assert!(summary.idle_exit);
    /// assert!(!is_socket(&sock));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn idle_exit(mut self, idle: Duration) -> Self {
        self.idle_exit = Some(idle);
        self
    }

    /// Where the server sends its notices for a service manager: `READY=1` and a `STATUS=`
    /// line when [`run`](crate::server::Server::run) starts serving, `STOPPING=1` when it
    /// begins to stop (default: nowhere). A notice that cannot be sent is logged.
    ///
    /// ```
    /// use std::os::unix::net::UnixDatagram;
    /// use uuidkit_service::server::{Notifier, Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-cfgnotify", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let manager = UnixDatagram::bind(dir.join("notify"))?;
    /// let cfg = ServerConfig::new(dir.join("s.sock")).notify(Notifier::to(dir.join("notify")));
    /// let server = Server::bind(cfg, g)?;
    /// server.shutdown_handle().shutdown();
    /// server.run()?;
    /// let mut buf = [0u8; 512];
    /// let n = manager.recv(&mut buf)?;
    /// assert!(buf[..n].starts_with(b"READY=1\nSTATUS="));
    /// let n = manager.recv(&mut buf)?;
    /// assert!(buf[..n].starts_with(b"STOPPING=1\n"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn notify(mut self, n: Notifier) -> Self {
        self.notify = n;
        self
    }

    /// Also listens on `socket` for clients of util-linux uuidd's protocol (libuuid's
    /// `uuid_generate_time*`, `uuidgen -t`, `uuidd -t` as a client), served from the same
    /// generator; see [`uuidd`](crate::server::uuidd) for the protocol and its limits. libuuid
    /// has the path [`UUIDD_SOCKET_PATH`](crate::server::uuidd::UUIDD_SOCKET_PATH) compiled
    /// in. The socket gets mode 0666: every local user may connect, as to uuidd's (libuuid
    /// clients of every user look there); the connection limits apply to both sockets together.
    /// It has its own instance lock (`SOCKET.lock`); a server already listening there, such
    /// as uuidd itself, is an error.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use std::os::unix::net::UnixStream;
    /// use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-uuidd", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// let (node, seq) = (g.node(), g.clock_seq());
    /// let cfg = ServerConfig::new(dir.join("s.sock")).uuidd_socket(dir.join("request"));
    /// let server = Server::bind(cfg, g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// // Operation 2 of uuidd's protocol: one time-based UUID, after its length.
    /// let mut c = UnixStream::connect(dir.join("request"))?;
    /// c.write_all(&[2])?;
    /// let mut reply = Vec::new();
    /// c.read_to_end(&mut reply)?;
    /// assert_eq!(reply[..4], 16i32.to_ne_bytes());
    /// let u = uuidkit::Uuid::from_bytes(reply[4..].try_into()?);
    /// assert_eq!((u.version_num(), u.node(), u.clock_seq()), (1, Some(node), Some(seq)));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn uuidd_socket(mut self, socket: impl Into<PathBuf>) -> Self {
        self.uuidd_socket = Some(socket.into());
        self
    }

    /// The uuidd protocol's socket path, if the server listens on one
    /// ([`uuidd_socket`](Self::uuidd_socket)).
    ///
    /// ```
    /// use uuidkit_service::server::ServerConfig;
    /// let c = ServerConfig::new("/run/uuidkit/uuidkit.sock");
    /// assert_eq!(c.uuidd_socket_path(), None);
    /// let c = c.uuidd_socket("/run/uuidd/request");
    /// assert_eq!(c.uuidd_socket_path(), Some(std::path::Path::new("/run/uuidd/request")));
    /// ```
    pub fn uuidd_socket_path(&self) -> Option<&Path> {
        self.uuidd_socket.as_deref()
    }

    /// The socket path, if the server binds one of its own.
    ///
    /// ```
    /// use std::path::Path;
    /// use uuidkit_service::server::ServerConfig;
    /// let c = ServerConfig::new("/run/uuidkit/uuidkit.sock").mode(0o660);
    /// assert_eq!(c.socket_path(), Some(Path::new("/run/uuidkit/uuidkit.sock")));
    /// ```
    pub fn socket_path(&self) -> Option<&Path> {
        self.socket.as_deref()
    }
}

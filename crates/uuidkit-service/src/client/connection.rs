//! One blocking connection to the service: a request frame out, a reply frame in, checked;
//! range replies (protocol 2) expanded here, and the fall back to protocol 1 for an older
//! server.

use core::fmt;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use uuidkit::generator::ThreadRng;
use uuidkit::{Uuid, Variant};

use super::connect::connect_within;
use super::error::{ServiceError, ServiceErrorKind};
use crate::protocol::{
    Info, Range, ReplyHeader, Request, Status, FLAG_DURABLE, MAX_COUNT, MAX_RANGE, MAX_REPLY_LEN,
    OLDEST_PROTOCOL_VERSION, REPLY_HEADER_LEN,
};
use crate::state::{Safety, TimeVersion};
use crate::sys;

/// A duration as people write it: `5 s`, `1.5 s`, `250 ms`.
fn human(d: Duration) -> String {
    if d.as_millis() < 1000 {
        format!("{} ms", d.as_millis())
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// One connection to the service. Blocking; not shared between threads (use
/// [`SystemGenerator`](crate::client::SystemGenerator) for that).
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
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
    timeout: Duration,
    server_uid: Option<u32>,
    /// Whether the server sends ranges (protocol 2): unknown until the first range request.
    ranges: Option<bool>,
    /// A range request that [`fill_ahead`](Self::fill_ahead) sent before its caller asked
    /// (its version and count), whose reply is not read yet: the next call of the same kind
    /// takes it; any other request reads and drops it first.
    ahead: Option<(TimeVersion, u32)>,
    /// Set when a reply could not be read while another request was on its way: no later
    /// reply can be paired with its request, so every later request fails at once.
    broken: bool,
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
    ///
    /// Only a server running as root or as this process's own user is accepted
    /// ([`connect_trusting`](Self::connect_trusting) names one more).
    pub fn connect(path: impl AsRef<Path>, timeout: Duration) -> Result<Connection, ServiceError> {
        Connection::connect_trusting(path, timeout, None)
    }

    /// [`connect`](Self::connect), accepting a server that runs as root, as this process's own
    /// user, or as `server_uid`. Who listens is what the kernel recorded when the connection
    /// was made (`SO_PEERCRED` on Linux, `getpeereid` on macOS and FreeBSD), which the other
    /// end cannot forge; anyone else is refused with [`ServiceErrorKind::Untrusted`] before a
    /// byte is sent, since another user can bind a socket in a directory others may write
    /// (`/tmp`) and hand out whatever UUIDs it likes.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::client::Connection;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-trust", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// // A server run by this user (here: by this process) is accepted either way.
    /// let mut c = Connection::connect_trusting(&sock, Duration::from_secs(5), Some(998))?;
    /// c.info()?;
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn connect_trusting(
        path: impl AsRef<Path>,
        timeout: Duration,
        server_uid: Option<u32>,
    ) -> Result<Connection, ServiceError> {
        let path = path.as_ref();
        let t = timeout.max(Duration::from_millis(1));
        let stream = connect_within(path, t).map_err(|e| {
            ServiceError::io(
                ServiceErrorKind::Unavailable,
                format!("cannot reach the uuidkit service at {}", path.display()),
                e,
            )
        })?;
        let peer = sys::peer_uid(stream.as_fd()).map_err(|e| {
            ServiceError::io(
                ServiceErrorKind::Untrusted,
                format!(
                    "uuidkit service at {}: cannot tell which user runs it",
                    path.display()
                ),
                e,
            )
        })?;
        let me = sys::effective_uid();
        if peer != 0 && peer != me && Some(peer) != server_uid {
            return Err(ServiceError::new(
                ServiceErrorKind::Untrusted,
                format!(
                    "refusing the uuidkit service at {}: it runs as uid {peer}, not as root, \
                     this user (uid {me}){}; another user may have bound the socket (set \
                     {} if uid {peer} really runs the service)",
                    path.display(),
                    server_uid.map_or(String::new(), |u| format!(" or uid {u}")),
                    super::config::SERVER_UID_ENV,
                ),
            ));
        }
        let _ = stream.set_read_timeout(Some(t));
        let _ = stream.set_write_timeout(Some(t));
        Ok(Connection {
            stream,
            path: path.to_path_buf(),
            buf: Vec::new(),
            timeout: t,
            server_uid,
            ranges: None,
            ahead: None,
            broken: false,
        })
    }

    /// Connects again (after a server that speaks only protocol 1 closed the connection), on
    /// the same descriptor number: a [`SystemGenerator`](crate::client::SystemGenerator) has
    /// published it for a forked child to close its copy, so it must stay this connection's.
    fn reconnect(&mut self) -> Result<(), ServiceError> {
        let fresh = Connection::connect_trusting(&self.path, self.timeout, self.server_uid)?;
        // SAFETY: both descriptors are open and owned (by `fresh.stream` and `self.stream`);
        // dup2 atomically makes ours refer to the new socket (closing the old one), and
        // `fresh` then closes only its own descriptor.
        let r = unsafe { libc::dup2(fresh.stream.as_raw_fd(), self.stream.as_raw_fd()) };
        if r < 0 {
            return Err(self.io_err("connecting again", io::Error::last_os_error()));
        }
        Ok(())
    }

    /// The socket's descriptor (for a forked child to close its copy without the lock that
    /// guards this connection: see `SystemGenerator`).
    pub(crate) fn raw_fd(&self) -> RawFd {
        self.stream.as_raw_fd()
    }

    fn io_err(&self, what: &str, e: io::Error) -> ServiceError {
        if matches!(
            e.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        ) {
            let msg = if what.starts_with("sending") {
                format!("request not taken within {}", human(self.timeout))
            } else {
                format!("no reply within {}", human(self.timeout))
            };
            return ServiceError::new(
                ServiceErrorKind::Io,
                format!("uuidkit service at {}: {msg}", self.path.display()),
            );
        }
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

    /// Sends a request and reads the reply's header and body into `self.buf`; an error status
    /// is an error.
    fn round_trip(&mut self, req: &Request) -> Result<ReplyHeader, ServiceError> {
        let h = self.exchange(req)?;
        self.check_status(&h)?;
        Ok(h)
    }

    fn check_status(&self, h: &ReplyHeader) -> Result<(), ServiceError> {
        if h.status != Status::Ok {
            let msg = String::from_utf8_lossy(self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]));
            return Err(ServiceError::server(
                h.status,
                format!(
                    "uuidkit service at {}: {:?}: {msg}",
                    self.path.display(),
                    h.status
                ),
            ));
        }
        Ok(())
    }

    /// Sends a request and reads the reply's header and body into `self.buf`, whatever its
    /// status.
    fn exchange(&mut self, req: &Request) -> Result<ReplyHeader, ServiceError> {
        self.check_usable()?;
        self.settle()?;
        let sent = self.stream.write_all(&req.encode());
        self.receive(req.protocol, sent)
    }

    /// Reads and drops the reply to a request sent ahead that no call took (its range stays
    /// unused: UUIDs may be skipped, never repeated). If that fails the connection is shut
    /// down, so that no later reply is read as the answer to another request.
    fn settle(&mut self) -> Result<(), ServiceError> {
        if let Some((version, count)) = self.ahead.take() {
            let protocol = Request::range(version, count).protocol;
            if let Err(e) = self.receive(protocol, Ok(())) {
                self.give_up();
                return Err(e);
            }
        }
        Ok(())
    }

    /// Ends the connection after a failure with a request still on its way.
    fn give_up(&mut self) {
        self.broken = true;
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }

    /// The error for a request on a connection that [`give_up`](Self::give_up) ended.
    fn check_usable(&self) -> Result<(), ServiceError> {
        if self.broken {
            return Err(ServiceError::new(
                ServiceErrorKind::Io,
                format!(
                    "uuidkit service at {}: connection ended by an earlier failed reply; \
                     connect again",
                    self.path.display()
                ),
            ));
        }
        Ok(())
    }

    /// Reads the reply to a request of `protocol` (`sent`: how sending it went) into
    /// `self.buf`, whatever its status.
    fn receive(&mut self, protocol: u8, sent: io::Result<()>) -> Result<ReplyHeader, ServiceError> {
        let mut len = [0u8; 4];
        match (sent, self.stream.read_exact(&mut len)) {
            (Ok(()), Ok(())) => {}
            // A server that refused the connection (Busy) may have closed it before the
            // request arrived; its reply is still there to read.
            (Err(_), Ok(())) => {}
            (Err(e), Err(_)) => return Err(self.io_err("sending the request", e)),
            (Ok(()), Err(e)) => return Err(self.io_err("reading the reply", e)),
        }
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
        if h.protocol != protocol && h.status == Status::Ok {
            return Err(self.proto_err(format_args!(
                "reply in protocol {} to a request in protocol {protocol}",
                h.protocol
            )));
        }
        Ok(h)
    }

    /// Asks for a block of `count` UUIDs of `version` described by a range reply (protocol 2;
    /// the server sends at most [`MAX_RANGE`], and fewer when a v7 millisecond's counter runs
    /// out), checked ([`Range::parse`], the version asked, no more than asked). `None` when
    /// the server speaks only protocol 1: it answers the first range request with
    /// [`Status::BadProtocol`] and closes the connection; this connection then connects again
    /// and never asks it for a range again ([`fill`](Self::fill) then asks for UUIDs).
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit::generator::ThreadRng;
    /// use uuidkit::Uuid;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::state::TimeVersion;
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-range", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// let r = c.range(TimeVersion::V7, 8192)?.expect("this server speaks protocol 2");
    /// assert_eq!((r.count, r.durable), (8192, true));
    /// let mut out = vec![Uuid::NIL; 8192];
    /// r.expand(0, &mut out, &mut ThreadRng); // 16 bytes came over the wire, not 128 KiB
    /// assert!(out.windows(2).all(|w| w[0] < w[1]));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn range(
        &mut self,
        version: TimeVersion,
        count: u32,
    ) -> Result<Option<Range>, ServiceError> {
        if self.ranges == Some(false) {
            return Ok(None);
        }
        let h = self.exchange(&Request::range(version, count))?;
        if h.status == Status::BadProtocol
            && h.protocol == OLDEST_PROTOCOL_VERSION
            && self.ranges.is_none()
        {
            // A server of protocol 1 only; it has closed the connection.
            self.ranges = Some(false);
            self.reconnect()?;
            return Ok(None);
        }
        self.check_status(&h)?;
        let r = self.parse_range(&h, version, count)?;
        self.ranges = Some(true);
        Ok(Some(r))
    }

    /// The range in `self.buf` (a reply with status Ok), checked against the request.
    fn parse_range(
        &self,
        h: &ReplyHeader,
        version: TimeVersion,
        count: u32,
    ) -> Result<Range, ServiceError> {
        let body = self.buf.get(REPLY_HEADER_LEN..).unwrap_or(&[]);
        let r = Range::parse(h, body).map_err(|m| self.proto_err(m))?;
        if r.version != version {
            return Err(self.proto_err(format_args!(
                "range of version {} to a request for {version}",
                r.version
            )));
        }
        if r.count > count.min(MAX_RANGE) {
            return Err(self.proto_err(format_args!(
                "range of {} UUIDs for a request of {count}",
                r.count
            )));
        }
        Ok(r)
    }

    /// Whether the server sends ranges: `None` until the first [`range`](Self::range) request
    /// has told.
    pub fn sends_ranges(&self) -> Option<bool> {
        self.ranges
    }

    /// Fills the front of `out` with UUIDs of `version`, increasing (v1: by timestamp): a
    /// range reply expanded here (the random bits of v7 drawn from the library's CSPRNG,
    /// [`ThreadRng`]) when the server sends ranges, else the UUIDs themselves as
    /// [`generate`](Self::generate) gets them; how many came (at most [`MAX_RANGE`], or
    /// [`MAX_COUNT`] without ranges) and whether the server's state file covers them.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit::Uuid;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::state::{Safety, TimeVersion};
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-cfill", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// let mut out = vec![Uuid::NIL; 10_000];
    /// assert_eq!(c.fill(TimeVersion::V1, &mut out)?, (10_000, Safety::Durable));
    /// assert!(out.windows(2).all(|w| w[0].gregorian_ticks() < w[1].gregorian_ticks()));
    /// assert_eq!(c.sends_ranges(), Some(true));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill(
        &mut self,
        version: TimeVersion,
        out: &mut [Uuid],
    ) -> Result<(usize, Safety), ServiceError> {
        let count = u32::try_from(out.len()).unwrap_or(u32::MAX);
        match self.range(version, count)? {
            Some(r) => {
                let n = r.expand(0, out, &mut ThreadRng);
                Ok((n, r.safety()))
            }
            None => self.generate_into(version, out),
        }
    }

    /// [`fill`](Self::fill) for a caller that fills again and again: once the server is known
    /// to send ranges, each call sends the request for the next block before reading the
    /// reply to this one, so the server reserves the next block while this one is expanded
    /// and the connection never waits idle between blocks. The block sent ahead is taken by
    /// the next call for the same version and length; any other request on this connection
    /// first reads and drops it (its UUIDs are skipped, never issued twice). Dropping the
    /// connection drops it too.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit::Uuid;
    /// use uuidkit_service::client::Connection;
    /// use uuidkit_service::state::{Safety, TimeVersion};
    /// # use uuidkit_service::server::{Server, ServerConfig};
    /// # use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-ahead", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let sock = dir.join("s.sock");
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
    /// # let stop = server.shutdown_handle();
    /// # let running = std::thread::spawn(move || server.run());
    /// let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
    /// let mut block = vec![Uuid::NIL; 8192];
    /// let mut last = 0;
    /// for _ in 0..4 {
    ///     assert_eq!(c.fill_ahead(TimeVersion::V1, &mut block)?, (8192, Safety::Durable));
    ///     let ticks: Vec<u64> = block.iter().filter_map(|u| u.gregorian_ticks()).collect();
    ///     assert!(ticks.windows(2).all(|w| w[0] < w[1]) && ticks[0] > last);
    ///     last = ticks[8191];
    /// }
    /// // Another request drops the block sent ahead; what it gets comes after that block.
    /// let mut one = Vec::new();
    /// c.generate(TimeVersion::V1, 1, &mut one)?;
    /// assert!(one[0].gregorian_ticks() > Some(last + 8192));
    /// # stop.shutdown();
    /// # running.join().map_err(|_| "server thread panicked")??;
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill_ahead(
        &mut self,
        version: TimeVersion,
        out: &mut [Uuid],
    ) -> Result<(usize, Safety), ServiceError> {
        let count = u32::try_from(out.len()).unwrap_or(u32::MAX);
        if self.ranges != Some(true) || count == 0 {
            // Whether the server sends ranges is learnt by one plain request.
            return self.fill(version, out);
        }
        self.check_usable()?;
        let req = Request::range(version, count);
        let bytes = req.encode();
        if self.ahead != Some((version, count)) {
            self.settle()?;
            self.stream
                .write_all(&bytes)
                .map_err(|e| self.io_err("sending the request", e))?;
        }
        // One request for this block is on its way: the next one follows it.
        self.ahead = None;
        let next = self.stream.write_all(&bytes);
        let h = match self.receive(req.protocol, Ok(())) {
            Ok(h) => h,
            Err(e) => {
                // The request sent next may be answered later: nothing on this connection
                // can be trusted to pair with its request any more.
                self.give_up();
                return Err(e);
            }
        };
        if next.is_ok() {
            self.ahead = Some((version, count));
        }
        self.check_status(&h)?;
        let r = self.parse_range(&h, version, count)?;
        let n = r.expand(0, out, &mut ThreadRng);
        Ok((n, r.safety()))
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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
    pub(super) fn generate_into(
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
    /// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
    /// # let server = Server::bind(ServerConfig::new(&sock), g)?;
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

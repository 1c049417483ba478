//! The connections: admission (the limits, overall and per user; the busy reply), one thread
//! per connection, and the requests served on it, each under the generator's mutex.
//!
//! What a connection may hold is bounded: one descriptor (the registry shares the stream with
//! the thread), a frame buffer of 520 bytes, buffers for replies of up to [`SMALL_COUNT`]
//! UUIDs (about 8 KiB, freed when the connection ends), and, for a larger reply, buffers of
//! its size, freed as soon as it is written, taken from a budget of [`LARGE_BUDGET`] bytes
//! for all connections. While the budget is spent (clients that do not read their replies
//! hold it), a reply carries at most [`SMALL_COUNT`] UUIDs (the reply's `n` says how many;
//! clients ask again). A client has the frame timeout to send a whole request once it has
//! begun, and the timeout to read a whole reply.

use core::fmt;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use uuidkit::generator::Clock;
use uuidkit::Uuid;

use super::activation::ListenerKind;
use super::budget::TickBudget;
use super::config::ServerConfig;
use super::pool::Pool;
use crate::protocol::{
    error_frame, error_frame_in, info_frame_in, request_payload_len, uuids_frame_in, Info, Op,
    Range, Request, Status, MAX_COUNT, MAX_RANGE, MAX_REQUEST_LEN, OLDEST_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
};
use crate::state::{DurableGenerator, StateErrorKind, TimeVersion};
use crate::sys;

/// Stack of a connection thread: it holds a few small buffers only.
const CONN_STACK: usize = 64 * 1024;

/// The most UUIDs a reply carries from a connection's own buffers.
pub(super) const SMALL_COUNT: usize = 256;

/// The bytes all replies of more than [`SMALL_COUNT`] UUIDs may hold at once (the UUIDs and
/// their frame: 32 bytes a UUID): 64 replies of [`MAX_COUNT`].
pub(super) const LARGE_BUDGET: usize = 16 << 20;

/// The bytes a reply of `n` UUIDs holds while it is made and written.
const fn reply_bytes(n: usize) -> usize {
    32 * n + 16
}

/// How long, and for how many bytes at most, a connection that is closed after an error reply
/// is drained first, so that unread request bytes do not turn the close into a reset that
/// loses the reply.
const DRAIN_TIME: Duration = Duration::from_millis(500);
const DRAIN_BYTES: usize = 64 * 1024;

/// An open connection as the registry sees it: who is at the other end, and a handle to close
/// it at shutdown.
struct Entry {
    uid: u32,
    stream: Arc<UnixStream>,
}

/// The open connections: counted against the limits (overall and per user id), and closed at
/// shutdown through the handle kept here.
#[derive(Default)]
pub(super) struct Registry {
    next: AtomicU64,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    conns: HashMap<u64, Entry>,
    per_uid: HashMap<u32, usize>,
    /// When the last connection ended, if one has.
    last_closed: Option<Instant>,
}

impl Open {
    fn remove(&mut self, id: u64) {
        if let Some(e) = self.conns.remove(&id) {
            self.last_closed = Some(Instant::now());
            if let Some(n) = self.per_uid.get_mut(&e.uid) {
                *n -= 1;
                if *n == 0 {
                    self.per_uid.remove(&e.uid);
                }
            }
        }
    }
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The reply buffers of one large request: the UUIDs, and the frame they are written into.
#[derive(Default)]
struct Buffers {
    uuids: Vec<Uuid>,
    out: Vec<u8>,
}

/// Serves one connection until it ends: what a connection thread runs for a listener's kind.
pub(super) type ServeFn<C> = fn(&Shared<C>, &UnixStream, u64);

/// Shared between the accept loop and the connection threads.
pub(super) struct Shared<C: Clock> {
    g: Mutex<DurableGenerator<C>>,
    conns: Registry,
    /// Set when the server stops: waiting threads leave.
    pub(super) closing: AtomicBool,
    pub(super) cfg: ServerConfig,
    pool: Pool,
    /// Bytes of large replies being made or written now (at most [`LARGE_BUDGET`]).
    large_bytes: AtomicUsize,
    /// Serves a connection of a [`ListenerKind::Uuidd`] listener (uuidd's protocol).
    serve_uuidd: ServeFn<C>,
    /// When the server started (the start of its first idle time).
    started: Instant,
    /// How fast each user may take v1/v6 timestamps.
    budget: TickBudget,
}

impl<C: Clock> Shared<C> {
    /// `serve_uuidd` serves the connections of [`ListenerKind::Uuidd`] listeners (it lives in
    /// a file that uses this one, so it is handed in rather than called by name).
    pub(super) fn new(
        g: DurableGenerator<C>,
        cfg: ServerConfig,
        serve_uuidd: ServeFn<C>,
    ) -> Shared<C> {
        Shared {
            g: Mutex::new(g),
            conns: Registry::default(),
            closing: AtomicBool::new(false),
            cfg,
            pool: Pool::default(),
            large_bytes: AtomicUsize::new(0),
            serve_uuidd,
            started: Instant::now(),
            budget: TickBudget::default(),
        }
    }

    /// The function that serves a connection of a listener of `kind`.
    fn server_for(&self, kind: ListenerKind) -> ServeFn<C> {
        match kind {
            ListenerKind::Uuidkit => serve_connection::<C>,
            ListenerKind::Uuidd => self.serve_uuidd,
        }
    }

    /// How long no connection has been open (since the start, or since the last one ended);
    /// `None` while one is open.
    pub(super) fn idle_for(&self) -> Option<Duration> {
        let open = self.conns.lock();
        if !open.conns.is_empty() {
            return None;
        }
        Some(open.last_closed.unwrap_or(self.started).elapsed())
    }

    pub(super) fn log(&self, msg: fmt::Arguments<'_>) {
        self.cfg.log.line(msg);
    }

    pub(super) fn generator(&self) -> MutexGuard<'_, DurableGenerator<C>> {
        // A panic while holding the generator cannot leave it inconsistent in a way that
        // repeats UUIDs (its state only moves forward), so a poisoned lock is still usable.
        self.g.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes `bytes` of the large-reply budget; `false` when that would exceed it.
    fn reserve_large(&self, bytes: usize) -> bool {
        self.large_bytes
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                (used + bytes <= LARGE_BUDGET).then_some(used + bytes)
            })
            .is_ok()
    }

    /// Waits until `uid` may take `n` timestamps of `v` (v1 and v6 only: one timeline, and
    /// no user may move it ahead of the clock; see `budget.rs`); `Err` with the reason to
    /// give when the request is refused.
    pub(super) fn wait_for_budget(&self, uid: u32, v: TimeVersion, n: u64) -> Result<(), String> {
        if v == TimeVersion::V7 || n == 0 {
            return Ok(());
        }
        let limit = self.cfg.timeout.min(super::budget::MAX_WAIT);
        let r = self
            .budget
            .wait_for(uid, n, limit, || self.closing.load(Ordering::Acquire));
        if let Err(why) = &r {
            self.log(format_args!("refused {n} {v}: {why}"));
        }
        r
    }

    fn release_large(&self, bytes: usize) {
        self.large_bytes.fetch_sub(bytes, Ordering::AcqRel);
    }

    /// Closes every open connection (their threads then end) and wakes the waiting threads,
    /// which leave once [`closing`](Self::closing) is set.
    pub(super) fn close_connections(&self) {
        let mut open = self.conns.lock();
        for (_, e) in open.conns.drain() {
            let _ = e.stream.shutdown(Shutdown::Both);
        }
        open.per_uid.clear();
        drop(open);
        self.pool.ready.notify_all();
    }
}

/// Refuses a connection of a listener of `kind` as its protocol can: uuidkit's with a Busy
/// reply ([`refuse`]); uuidd's, which has no such reply, by closing it at once (a libuuid
/// client then generates on its own, as when no uuidd runs).
pub(super) fn refuse_kind<C: Clock>(
    shared: &Shared<C>,
    stream: &UnixStream,
    kind: ListenerKind,
    why: &str,
) {
    match kind {
        ListenerKind::Uuidd => {
            let _ = stream.shutdown(Shutdown::Both);
            if shared.cfg.verbose {
                shared.log(format_args!("refused a uuidd connection: {why}"));
            }
        }
        _ => refuse(shared, stream, why),
    }
}

/// Answers a connection that is not admitted with Busy and `why`, without blocking the caller
/// for more than 100 ms, then closes it (draining what the client sent, so that the reply is
/// not lost to a reset).
pub(super) fn refuse<C: Clock>(shared: &Shared<C>, stream: &UnixStream, why: &str) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let mut out = Vec::new();
    error_frame(Status::Busy, 0, why, &mut out);
    let _ = (&*stream).write_all(&out);
    let _ = stream.shutdown(Shutdown::Write);
    // Whatever the client already sent, without waiting for more.
    if stream.set_nonblocking(true).is_ok() {
        let mut sink = [0u8; 512];
        let mut left = 8;
        while left > 0 && matches!((&*stream).read(&mut sink), Ok(n) if n > 0) {
            left -= 1;
        }
    }
    if shared.cfg.verbose {
        shared.log(format_args!("refused a connection: {why}"));
    }
}

/// Starts a thread for a new connection from a listener of `kind`, or refuses it (Busy) when
/// there are too many, in all or from its user, or when no thread can be started.
pub(super) fn admit<C: Clock + 'static>(
    shared: &Arc<Shared<C>>,
    stream: UnixStream,
    kind: ListenerKind,
) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(shared.cfg.timeout));
    let _ = stream.set_write_timeout(Some(shared.cfg.timeout));
    // A peer whose credentials cannot be read counts as one unknown user.
    let uid = sys::peer_uid(stream.as_fd()).unwrap_or(u32::MAX);
    let max = shared.cfg.max_connections;
    let per_uid = shared.cfg.per_uid_limit();
    let mut open = shared.conns.lock();
    let n = open.conns.len();
    let mine = open.per_uid.get(&uid).copied().unwrap_or(0);
    if n >= max || mine >= per_uid {
        drop(open);
        let why = if n >= max {
            format!("too many connections (at most {max})")
        } else {
            format!("too many connections from uid {uid} (at most {per_uid} per user)")
        };
        refuse_kind(shared, &stream, kind, &why);
        return;
    }
    let id = shared.conns.next.fetch_add(1, Ordering::Relaxed);
    let stream = Arc::new(stream);
    open.conns.insert(
        id,
        Entry {
            uid,
            stream: Arc::clone(&stream),
        },
    );
    *open.per_uid.entry(uid).or_insert(0) += 1;
    drop(open);
    let Some(conn) = shared.pool.offer((Arc::clone(&stream), id, kind)) else {
        return;
    };
    let s2 = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name("uuidkit-conn".into())
        .stack_size(CONN_STACK)
        .spawn(move || {
            let mut next = Some(conn);
            while let Some((stream, id, kind)) = next {
                (s2.server_for(kind))(&s2, &stream, id);
                s2.conns.lock().remove(id);
                drop(stream);
                next = s2.pool.wait(&s2.closing);
            }
        });
    if let Err(e) = spawned {
        shared.conns.lock().remove(id);
        shared.log(format_args!("cannot start a connection thread: {e}"));
        refuse_kind(
            shared,
            &stream,
            kind,
            &format!("the server cannot start a thread for this connection: {e}"),
        );
    }
}

/// The request frames of one connection, read through a small buffer so that a frame sent in
/// one piece costs one `read`, with the idle timeout before a frame's first byte and the frame
/// deadline after it.
struct Frames {
    buf: [u8; 2 * (4 + MAX_REQUEST_LEN as usize)],
    start: usize,
    end: usize,
    /// The read timeout the socket has now (changing it is a system call).
    timeout: Duration,
}

/// What [`Frames::next`] found.
enum Next {
    /// A frame whose payload is `buf[start..end]` (already consumed).
    Frame(usize, usize),
    /// A length prefix outside the protocol's range.
    BadLength(u32),
    /// The client closed the connection between frames.
    Closed,
    /// Reading failed, timed out, or the client stopped mid-frame: why.
    Failed(String),
}

impl Frames {
    fn new(timeout: Duration) -> Frames {
        Frames {
            buf: [0; 2 * (4 + MAX_REQUEST_LEN as usize)],
            start: 0,
            end: 0,
            timeout,
        }
    }

    /// Reads more bytes, waiting at most until `deadline` (else the idle timeout): `Ok(0)` at
    /// the end of the stream.
    fn fill(
        &mut self,
        s: &UnixStream,
        idle: Duration,
        deadline: Option<Instant>,
    ) -> io::Result<usize> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let want = match deadline {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::Error::new(io::ErrorKind::TimedOut, "frame deadline"));
                }
                left
            }
            None => idle,
        };
        if want != self.timeout {
            s.set_read_timeout(Some(want))?;
            self.timeout = want;
        }
        loop {
            match (&*s).read(&mut self.buf[self.end..]) {
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn next(&mut self, s: &UnixStream, idle: Duration, frame_time: Duration) -> Next {
        let mut deadline = (self.end > self.start).then(|| Instant::now() + frame_time);
        let failed = |e: io::Error, got: usize, frame_time: Duration| {
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) && got > 0
            {
                Next::Failed(format!(
                    "frame not complete within {frame_time:?} of its first byte ({got} bytes)"
                ))
            } else if got > 0 {
                Next::Failed(format!("read failed mid-frame: {e}"))
            } else {
                Next::Failed(format!("read failed: {e}"))
            }
        };
        while self.end - self.start < 4 {
            match self.fill(s, idle, deadline) {
                Ok(0) if self.end == self.start => return Next::Closed,
                Ok(0) => return Next::Failed("closed mid-frame".into()),
                Ok(_) => {
                    deadline.get_or_insert_with(|| Instant::now() + frame_time);
                }
                Err(e) => return failed(e, self.end - self.start, frame_time),
            }
        }
        let mut len = [0u8; 4];
        len.copy_from_slice(&self.buf[self.start..self.start + 4]);
        let len = u32::from_be_bytes(len);
        let n = match request_payload_len(len) {
            Ok(n) => n,
            Err(_) => {
                self.start += 4;
                return Next::BadLength(len);
            }
        };
        while self.end - self.start < 4 + n {
            match self.fill(s, idle, deadline) {
                Ok(0) => return Next::Failed("closed mid-frame".into()),
                Ok(_) => {}
                Err(e) => return failed(e, self.end - self.start, frame_time),
            }
        }
        let (a, b) = (self.start + 4, self.start + 4 + n);
        self.start = b;
        Next::Frame(a, b)
    }
}

/// Writes a whole reply before `deadline`, however the client reads it.
fn write_by(
    s: &UnixStream,
    mut buf: &[u8],
    timeout: Duration,
    deadline: Instant,
) -> io::Result<()> {
    let mut first = true;
    while !buf.is_empty() {
        if !first {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("the client did not read its reply within {timeout:?}"),
                ));
            }
            s.set_write_timeout(Some(left))?;
        }
        match (&*s).write(buf) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        first = false;
    }
    if !first {
        let _ = s.set_write_timeout(Some(timeout));
    }
    Ok(())
}

/// Sends a last error reply, then closes the sending side and reads what the client still
/// sends for a moment, so that unread bytes do not make the close a reset that loses it.
fn last_reply(s: &UnixStream, out: &[u8], timeout: Duration) {
    let _ = write_by(s, out, timeout, Instant::now() + timeout);
    let _ = s.shutdown(Shutdown::Write);
    let deadline = Instant::now() + DRAIN_TIME;
    let mut sink = [0u8; 4096];
    let mut drained = 0;
    while drained < DRAIN_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || s.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match (&*s).read(&mut sink) {
            Ok(0) => break,
            Ok(n) => drained += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

fn serve_connection<C: Clock>(shared: &Shared<C>, s: &UnixStream, id: u64) {
    let verbose = shared.cfg.verbose;
    let timeout = shared.cfg.timeout;
    let frame_time = shared.cfg.frame_timeout.min(timeout);
    if verbose {
        shared.log(format_args!("connection {id}: open"));
    }
    // A peer whose credentials cannot be read counts as one unknown user (as at admission).
    let uid = sys::peer_uid(s.as_fd()).unwrap_or(u32::MAX);
    let mut small = Buffers::default();
    let mut frames = Frames::new(timeout);
    let (mut served, mut ranges) = (0u64, 0u64);
    let why = loop {
        let (a, b) = match frames.next(s, timeout, frame_time) {
            Next::Frame(a, b) => (a, b),
            Next::Closed => break "closed by the client".to_string(),
            Next::Failed(why) => break why,
            Next::BadLength(len) => {
                if let Err(rej) = request_payload_len(len) {
                    error_frame(rej.status, 0, &rej.message, &mut small.out);
                }
                last_reply(s, &small.out, timeout);
                break format!("malformed frame (length {len})");
            }
        };
        // A reply is in the protocol of the request when the server speaks it, else in 1.
        let protocol = frames
            .buf
            .get(a)
            .copied()
            .filter(|p| (OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(p))
            .unwrap_or(OLDEST_PROTOCOL_VERSION);
        let request = match Request::parse(&frames.buf[a..b]) {
            Ok(r) => r,
            Err(rej) => {
                error_frame_in(protocol, rej.status, 0, &rej.message, &mut small.out);
                if verbose {
                    shared.log(format_args!("connection {id}: rejected: {}", rej.message));
                }
                if rej.status.closes() {
                    last_reply(s, &small.out, timeout);
                    break format!("rejected: {}", rej.message);
                }
                if let Err(e) = write_by(s, &small.out, timeout, Instant::now() + timeout) {
                    break format!("write failed: {e}");
                }
                continue;
            }
        };
        served += 1;
        // Request::parse gives a UUID version to generate and range requests, and to them only.
        let sent = match (request.op, request.version) {
            (Op::Range, Some(v)) => {
                ranges += 1;
                let n = request.count.min(MAX_RANGE);
                if let Err(why) = shared.wait_for_budget(uid, v, n.into()) {
                    error_frame_in(protocol, Status::Busy, v.as_u8(), &why, &mut small.out);
                    last_reply(s, &small.out, timeout);
                    break format!("refused: {why}");
                }
                range(shared, v, n, &mut small.out);
                write_by(s, &small.out, timeout, Instant::now() + timeout)
            }
            (_, Some(v)) => {
                let want = request.count.min(MAX_COUNT) as usize;
                // Charged for the whole request, even if a reply of SMALL_COUNT comes.
                if let Err(why) = shared.wait_for_budget(uid, v, want as u64) {
                    error_frame_in(protocol, Status::Busy, v.as_u8(), &why, &mut small.out);
                    last_reply(s, &small.out, timeout);
                    break format!("refused: {why}");
                }
                if want > SMALL_COUNT && shared.reserve_large(reply_bytes(want)) {
                    // Buffers of this reply's size, freed as soon as it is written.
                    let mut large = Buffers::default();
                    generate(shared, protocol, v, want, &mut large);
                    let sent = write_by(s, &large.out, timeout, Instant::now() + timeout);
                    drop(large);
                    shared.release_large(reply_bytes(want));
                    sent
                } else {
                    generate(shared, protocol, v, want.min(SMALL_COUNT), &mut small);
                    write_by(s, &small.out, timeout, Instant::now() + timeout)
                }
            }
            (_, None) => {
                let g = shared.generator();
                let info = Info {
                    max_count: MAX_COUNT,
                    pid: std::process::id(),
                    durable: g.is_durable(),
                    strict: g.is_strict(),
                };
                drop(g);
                info_frame_in(protocol, &info, &mut small.out);
                write_by(s, &small.out, timeout, Instant::now() + timeout)
            }
        };
        if let Err(e) = sent {
            break format!("write failed: {e}");
        }
    };
    if verbose {
        shared.log(format_args!(
            "connection {id}: {why}; {served} requests served, {ranges} of them ranges"
        ));
    }
}

fn generate<C: Clock>(
    shared: &Shared<C>,
    protocol: u8,
    v: TimeVersion,
    n: usize,
    bufs: &mut Buffers,
) {
    bufs.uuids.clear();
    bufs.uuids.resize(n, Uuid::NIL);
    // Exactly the frame's size: no doubling past the budget.
    bufs.out.clear();
    bufs.out.reserve_exact(4 + 8 + 16 * n);
    let (result, change) = {
        let mut g = shared.generator();
        (g.fill(v, &mut bufs.uuids), g.durability_change())
    };
    if let Some(c) = change {
        shared.log(format_args!("{}", super::log::durability(&c)));
    }
    match result {
        Ok(safety) => uuids_frame_in(protocol, v, safety.is_durable(), &bufs.uuids, &mut bufs.out),
        Err(e) => generator_error(shared, protocol, v, n, &e, &mut bufs.out),
    }
}

/// A range reply (protocol 2): a block of `n` UUIDs reserved on the generator's sequence and
/// covered by the state file, described instead of carried.
fn range<C: Clock>(shared: &Shared<C>, v: TimeVersion, n: u32, out: &mut Vec<u8>) {
    let (result, change) = {
        let mut g = shared.generator();
        let r = match v {
            TimeVersion::V7 => g.reserve_v7(n).map(|r| Range::v7(&r)),
            _ => g.reserve_ticks(n).map(|r| Range::ticks(v, &r)),
        };
        (r, g.durability_change())
    };
    if let Some(c) = change {
        shared.log(format_args!("{}", super::log::durability(&c)));
    }
    match result {
        Ok(r) => r.encode_frame(out),
        Err(e) => generator_error(shared, 2, v, n as usize, &e, out),
    }
}

/// The reply to a request the generator failed: shutting down, or a generator error (logged).
fn generator_error<C: Clock>(
    shared: &Shared<C>,
    protocol: u8,
    v: TimeVersion,
    n: usize,
    e: &crate::state::StateError,
    out: &mut Vec<u8>,
) {
    let status = if e.kind() == StateErrorKind::Closed {
        Status::ShuttingDown
    } else {
        Status::Generator
    };
    if status == Status::Generator {
        shared.log(format_args!("generating {n} {v}: {e}"));
    }
    error_frame_in(protocol, status, v.as_u8(), &e.to_string(), out);
}

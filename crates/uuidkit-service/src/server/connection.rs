//! The connections: admission (the limit, the busy reply), one thread per connection, and
//! the requests served on it, each under the generator's mutex.

use core::fmt;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use uuidkit::gen::Clock;
use uuidkit::Uuid;

use super::config::ServerConfig;
use super::pool::Pool;
use crate::protocol::{
    error_frame, info_frame, request_payload_len, uuids_frame, Info, Request, Status, MAX_COUNT,
    MAX_REQUEST_LEN,
};
use crate::state::{DurableGenerator, StateErrorKind, TimeVersion};

/// Stack of a connection thread: it holds a few small buffers only.
const CONN_STACK: usize = 64 * 1024;

/// The open connections: counted against the limit, and closed at shutdown through the
/// second handle kept here (`None` when it could not be made: counted, not closable).
#[derive(Default)]
pub(super) struct Registry {
    next: AtomicU64,
    open: Mutex<HashMap<u64, Option<UnixStream>>>,
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Option<UnixStream>>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Shared between the accept loop and the connection threads.
pub(super) struct Shared<C: Clock> {
    gen: Mutex<DurableGenerator<C>>,
    conns: Registry,
    /// Set when the server stops: waiting threads leave.
    pub(super) closing: AtomicBool,
    pub(super) cfg: ServerConfig,
    pool: Pool,
}

impl<C: Clock> Shared<C> {
    pub(super) fn new(gen: DurableGenerator<C>, cfg: ServerConfig) -> Shared<C> {
        Shared {
            gen: Mutex::new(gen),
            conns: Registry::default(),
            closing: AtomicBool::new(false),
            cfg,
            pool: Pool::default(),
        }
    }

    pub(super) fn log(&self, msg: fmt::Arguments<'_>) {
        self.cfg.log.line(msg);
    }

    pub(super) fn gen(&self) -> MutexGuard<'_, DurableGenerator<C>> {
        // A panic while holding the generator cannot leave it inconsistent in a way that
        // repeats UUIDs (its state only moves forward), so a poisoned lock is still usable.
        self.gen.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Closes every open connection (their threads then end) and wakes the waiting threads,
    /// which leave once [`closing`](Self::closing) is set.
    pub(super) fn close_connections(&self) {
        for s in self.conns.lock().drain().filter_map(|(_, s)| s) {
            let _ = s.shutdown(Shutdown::Both);
        }
        self.pool.ready.notify_all();
    }
}

/// Starts a thread for a new connection, or refuses it when there are too many.
pub(super) fn admit<C: Clock + 'static>(shared: &Arc<Shared<C>>, stream: UnixStream) {
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
    let (result, change) = {
        let mut g = shared.gen();
        (g.fill(v, uuids), g.durability_change())
    };
    if let Some(c) = change {
        shared.log(format_args!("{}", super::log::durability(&c)));
    }
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

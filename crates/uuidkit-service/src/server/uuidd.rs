//! util-linux uuidd's protocol, so that unmodified libuuid clients (`uuid_generate_time*`,
//! `uuidgen -t`, `uuidd -t` in client mode) get their time-based UUIDs from this server's
//! durable v1/v6 timeline instead of from uuidd. It serves the connections of every listener
//! of kind [`ListenerKind::Uuidd`](super::ListenerKind::Uuidd): the socket the server binds
//! for [`ServerConfig::uuidd_socket`](super::ServerConfig::uuidd_socket), or one a service
//! manager passed under the name `uuidd` (`FileDescriptorName=uuidd`).
//!
//! # The protocol (util-linux `libuuid/src/uuidd.h`, `misc-utils/uuidd.c`)
//!
//! One request per connection. The client sends an operation byte, and for the two bulk
//! operations a count (a C `int`: 4 bytes, native byte order); the server answers with a
//! length (`int32_t`, native byte order) and that many bytes, then closes:
//!
//! | op | request           | reply payload                                          |
//! |----|-------------------|--------------------------------------------------------|
//! | 0  | get pid           | the server's process id in decimal, NUL-terminated     |
//! | 1  | get max op        | `"5"`, NUL-terminated                                  |
//! | 2  | time UUID         | one v1 UUID (16 bytes)                                 |
//! | 3  | random UUID       | one v4 UUID (16 bytes)                                 |
//! | 4  | bulk time, count  | the first v1 UUID (16 bytes) and the count (4 bytes)   |
//! | 5  | bulk random, count| the count (4 bytes) and that many v4 UUIDs             |
//!
//! A bulk time reply stands for `count` UUIDs that differ from the first only in their
//! timestamp: the first one's plus 0, 1, …, count − 1 (the client adds one to `time_low`,
//! carrying into `time_mid`). Clients rely on it: libuuid keeps the rest of the block as a
//! per-thread cache, and neither libuuid 2.38 nor `uuidd -n` reads the count back — they use
//! the count they asked for. So the server answers a bulk time request with exactly the count
//! asked (at least 1), from one block of consecutive timestamps the state file covers
//! ([`DurableGenerator::reserve_ticks`]), or not at all: above [`MAX_BULK_TIME`], and when the
//! generator fails, the connection is closed without a reply, as uuidd closes it on an unknown
//! operation, and the client falls back to generating on its own (libuuid's
//! `uuid_generate_time_safe` then says whether that was safe). Every UUID carries the
//! generator's clock sequence and node, the ones `uuidkit state show` prints.
//!
//! A bulk random count is clamped to 1 ..= [`MAX_BULK_RANDOM`] as uuidd clamps it (its reply
//! buffer holds 63 UUIDs; `uuidd -r -n N` asks for at most that many).
//!
//! # Defences
//!
//! The connection has already been admitted under the server's limits (overall and per user),
//! shared with uuidkit's own protocol; a connection refused there is closed without a reply,
//! the protocol having no "busy" answer. The whole request must arrive within the frame
//! timeout of the connection being served (no idle wait: clients send their request as soon
//! as they connect); a short request, an unknown operation, or a client that does not read the
//! reply within the timeout loses the connection, without a reply, and nothing else happens.
//! The replies are at most 1016 bytes. Time requests (single and bulk) are charged to the
//! user's budget of v1/v6 timestamps, shared with uuidkit's protocol (the
//! [`server`](super) module docs, "One user cannot move the clock"): beyond it a request
//! waits, and one that would wait too long is closed without a reply.

use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use uuidkit::generator::{v4::fill_v4, Clock};
use uuidkit::Uuid;

use super::connection::Shared;
use crate::state::{DurableGenerator, Safety, StateError, TimeVersion};
use crate::sys;

/// uuidd's operations (`UUIDD_OP_*` in util-linux `libuuid/src/uuidd.h`).
const OP_GETPID: u8 = 0;
const OP_GET_MAXOP: u8 = 1;
const OP_TIME_UUID: u8 = 2;
const OP_RANDOM_UUID: u8 = 3;
const OP_BULK_TIME_UUID: u8 = 4;
const OP_BULK_RANDOM_UUID: u8 = 5;
/// The highest operation understood (`UUIDD_MAX_OP`), as the get-max-op reply states it.
const MAX_OP: u8 = OP_BULK_RANDOM_UUID;

/// The most UUIDs one bulk time request may ask for: above libuuid's largest per-thread
/// cache (2^18 in util-linux 2.38; 1 000 000 in older releases) and `uuidd -n` in ordinary
/// use, and a block of 0.1 s of timestamps at most. A larger request is closed without a
/// reply: a smaller block would be taken for the whole one.
pub const MAX_BULK_TIME: u32 = 1 << 20;

/// The most UUIDs one bulk random reply carries: what uuidd's 1024-byte reply buffer holds.
pub const MAX_BULK_RANDOM: usize = 63;

/// The default socket path of util-linux's libuuid and uuidd (`UUIDD_SOCKET_PATH`): compiled
/// into libuuid, so a drop-in must listen there.
pub const UUIDD_SOCKET_PATH: &str = "/run/uuidd/request";

/// One request of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Request {
    Pid,
    MaxOp,
    Time,
    Random,
    BulkTime(i32),
    BulkRandom(i32),
}

/// A reply: its length (native byte order) and payload, at most 4 + 4 + 63 × 16 bytes.
struct Reply {
    buf: [u8; 4 + 4 + 16 * MAX_BULK_RANDOM],
    len: usize,
}

impl Reply {
    fn new() -> Reply {
        Reply {
            buf: [0; 4 + 4 + 16 * MAX_BULK_RANDOM],
            len: 4,
        }
    }

    fn push(&mut self, b: &[u8]) {
        self.buf[self.len..self.len + b.len()].copy_from_slice(b);
        self.len += b.len();
    }

    /// The whole reply, its length prefix filled in.
    fn finish(&mut self) -> &[u8] {
        // At most 1016: fits an i32.
        let n = (self.len - 4) as i32;
        self.buf[..4].copy_from_slice(&n.to_ne_bytes());
        &self.buf[..self.len]
    }
}

/// Reads exactly `buf.len()` bytes before `deadline`; the error says how far it got.
fn read_by(s: &UnixStream, buf: &mut [u8], deadline: Instant, what: &str) -> Result<(), String> {
    let mut got = 0;
    while got < buf.len() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(format!(
                "{what} not complete in time ({got} of {} bytes)",
                buf.len()
            ));
        }
        if let Err(e) = s.set_read_timeout(Some(left)) {
            return Err(format!("cannot set the read timeout: {e}"));
        }
        match (&*s).read(&mut buf[got..]) {
            Ok(0) => {
                return Err(format!(
                    "closed by the client after {got} of {} bytes of the {what}",
                    buf.len()
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(format!(
                    "{what} not complete in time ({got} of {} bytes)",
                    buf.len()
                ))
            }
            Err(e) => return Err(format!("read failed: {e}")),
        }
    }
    Ok(())
}

/// Reads one request: the operation byte, and the count of a bulk operation.
fn read_request(s: &UnixStream, deadline: Instant) -> Result<Request, String> {
    let mut op = [0u8; 1];
    read_by(s, &mut op, deadline, "operation byte")?;
    let count = |s| -> Result<i32, String> {
        let mut n = [0u8; 4];
        read_by(s, &mut n, deadline, "count")?;
        Ok(i32::from_ne_bytes(n))
    };
    Ok(match op[0] {
        OP_GETPID => Request::Pid,
        OP_GET_MAXOP => Request::MaxOp,
        OP_TIME_UUID => Request::Time,
        OP_RANDOM_UUID => Request::Random,
        OP_BULK_TIME_UUID => Request::BulkTime(count(s)?),
        OP_BULK_RANDOM_UUID => Request::BulkRandom(count(s)?),
        other => return Err(format!("unknown operation {other}")),
    })
}

/// The first UUID of a block of `count` (at least 1) consecutive v1 timestamps that no other
/// request shares, covered by the state file (or, outside strict mode, marked volatile when it
/// could not be written).
fn time_block<C: Clock>(
    g: &mut DurableGenerator<C>,
    count: u32,
) -> Result<(Uuid, Safety), StateError> {
    let r = g.reserve_ticks(count)?;
    Ok((
        Uuid::from_v1_parts(r.first_ticks, r.clock_seq, r.node),
        r.safety,
    ))
}

/// Makes the reply to `req`, or says why there is none.
fn answer<C: Clock>(
    shared: &Shared<C>,
    uid: u32,
    req: Request,
    out: &mut Reply,
) -> Result<(), String> {
    match req {
        Request::Pid => {
            out.push(std::process::id().to_string().as_bytes());
            out.push(&[0]);
        }
        Request::MaxOp => {
            out.push(MAX_OP.to_string().as_bytes());
            out.push(&[0]);
        }
        Request::Time | Request::BulkTime(_) => {
            // uuidd makes one UUID for a count below 1 (and echoes the count); one it is, and
            // the count says so.
            let count = match req {
                Request::BulkTime(n) => n.max(1) as u32,
                _ => 1,
            };
            if count > MAX_BULK_TIME {
                return Err(format!(
                    "bulk time request for {count} UUIDs: at most {MAX_BULK_TIME} are served"
                ));
            }
            // The user's budget of timestamps (the same as on uuidkit's socket).
            shared.wait_for_budget(uid, TimeVersion::V1, count.into())?;
            let (result, change) = {
                let mut g = shared.generator();
                let r = if req == Request::Time {
                    g.next(TimeVersion::V1)
                } else {
                    time_block(&mut g, count)
                };
                (r, g.durability_change())
            };
            if let Some(c) = change {
                shared.log(format_args!("{}", super::log::durability(&c)));
            }
            let (first, _) = result.map_err(|e| {
                let why = format!("generating {count} v1 for a uuidd client: {e}");
                shared.log(format_args!("{why}"));
                why
            })?;
            out.push(first.as_bytes());
            if let Request::BulkTime(_) = req {
                out.push(&(count as i32).to_ne_bytes());
            }
        }
        Request::Random => out.push(uuidkit::v4().as_bytes()),
        Request::BulkRandom(n) => {
            let n = (n.max(1) as usize).min(MAX_BULK_RANDOM);
            let mut uuids = [Uuid::NIL; MAX_BULK_RANDOM];
            fill_v4(&mut uuids[..n]);
            out.push(&(n as i32).to_ne_bytes());
            for u in &uuids[..n] {
                out.push(u.as_bytes());
            }
        }
    }
    Ok(())
}

/// Serves one connection of the uuidd protocol: one request, one reply, then closes (as
/// uuidd does). Anything malformed closes it without a reply.
pub(super) fn serve_uuidd_connection<C: Clock>(shared: &Shared<C>, s: &UnixStream, id: u64) {
    let verbose = shared.cfg.verbose;
    let timeout = shared.cfg.timeout;
    let frame_time: Duration = shared.cfg.frame_timeout.min(timeout);
    // A peer whose credentials cannot be read counts as one unknown user (as at admission).
    let uid = sys::peer_uid(s.as_fd()).unwrap_or(u32::MAX);
    let outcome = read_request(s, Instant::now() + frame_time).and_then(|req| {
        let mut out = Reply::new();
        answer(shared, uid, req, &mut out)?;
        // At most 1016 bytes: the socket buffer takes them at once, and the write timeout
        // (set at admission) bounds a client that does not read.
        (&*s)
            .write_all(out.finish())
            .map_err(|e| format!("write failed: {e}"))?;
        Ok(req)
    });
    let _ = s.shutdown(Shutdown::Both);
    if verbose {
        match outcome {
            Ok(req) => shared.log(format_args!("uuidd connection {id}: served {req:?}")),
            Err(why) => shared.log(format_args!("uuidd connection {id}: closed: {why}")),
        }
    }
}

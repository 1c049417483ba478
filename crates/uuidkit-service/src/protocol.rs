//! The wire protocol between `uuidkit serve` and its clients: length-prefixed binary frames
//! with a version byte (DESIGN.md, "The wire protocol", is the prose version of this module).
//!
//! Every frame is a 4-byte big-endian payload length, then the payload. A request payload is
//! at least [`REQUEST_LEN`] bytes (more are allowed, up to [`MAX_REQUEST_LEN`], and ignored, so
//! that later versions can extend it):
//!
//! | byte | field |
//! |---|---|
//! | 0 | protocol version: 1, or 2 ([`PROTOCOL_VERSION`]) |
//! | 1 | operation: 1 generate, 2 info, 3 range (protocol 2 only) |
//! | 2 | UUID version for generate and range: 1, 6 or 7 (0 for info: anything else is refused) |
//! | 3 | flags, 0 |
//! | 4..8 | count, big-endian `u32`: how many UUIDs; more than [`MAX_COUNT`] (range: [`MAX_RANGE`]) gets at most that many (0 for info: anything else is refused) |
//!
//! A reply payload is a [`REPLY_HEADER_LEN`]-byte header and a body:
//!
//! | byte | field |
//! |---|---|
//! | 0 | protocol version: that of the request (1 when the request's is not one the server speaks) |
//! | 1 | [`Status`] |
//! | 2 | flags: bit 0 ([`FLAG_DURABLE`]) when the UUIDs are covered by the state file |
//! | 3 | the UUID version of the request (0 for info and errors before it is known) |
//! | 4..8 | `n`, big-endian `u32` |
//! | 8.. | generate: `n` UUIDs of 16 bytes, in the order issued; range: a [`RANGE_LEN`]-byte [`Range`] of `n` UUIDs; info: `n` bytes ([`Info`]); error: `n` bytes of UTF-8 text |
//!
//! # Versions
//!
//! Protocol 2 adds the range operation: a reply that describes a block of UUIDs instead of
//! carrying them (v1/v6: the first timestamp, the clock sequence and the node, as util-linux
//! uuidd's bulk reply; v7: the millisecond and the first counter, the client drawing the
//! random bits), which the client expands ([`Range::expand`]). Everything else is as in
//! protocol 1, and a server answers each request in the request's version, so a client of
//! protocol 1 sees exactly what it always saw. A server that speaks only protocol 1 answers a
//! protocol-2 request with [`Status::BadProtocol`] (in protocol 1) and closes the connection:
//! a client then connects again and asks in protocol 1 (`client::Connection` does).
//!
//! ```
//! use uuidkit_service::protocol::{ReplyHeader, Request, Status};
//! use uuidkit_service::state::TimeVersion;
//! // 300 v7: length 8; protocol 1, generate (1), version 7, flags 0; count 300 = 0x012c.
//! let frame = Request::generate(TimeVersion::V7, 300).encode();
//! assert_eq!(frame, [0, 0, 0, 8, 1, 1, 7, 0, 0, 0, 0x01, 0x2c]);
//! // Its reply's header: protocol 1, status 0 (ok), flags 1 (durable), version 7, n = 300.
//! let h = ReplyHeader::parse(&[1, 0, 1, 7, 0, 0, 0x01, 0x2c])?;
//! assert_eq!((h.status, h.flags, h.version, h.n), (Status::Ok, 1, 7, 300));
//! // A range of 300 v7: protocol 2, operation 3.
//! let frame = Request::range(TimeVersion::V7, 300).encode();
//! assert_eq!(frame, [0, 0, 0, 8, 2, 3, 7, 0, 0, 0, 0x01, 0x2c]);
//! # Ok::<(), String>(())
//! ```

use crate::state::{Safety, TickRange, TimeVersion, V7Range};
use uuidkit::generator::RandomSource;
use uuidkit::Uuid;

/// The newest protocol version this module speaks; it speaks every version from
/// [`OLDEST_PROTOCOL_VERSION`] on.
pub const PROTOCOL_VERSION: u8 = 2;
/// The oldest protocol version this module speaks, which every server speaks.
pub const OLDEST_PROTOCOL_VERSION: u8 = 1;
/// The size of a request payload (without the length prefix).
pub const REQUEST_LEN: usize = 8;
/// The largest request payload a server reads; a longer one is a malformed frame.
pub const MAX_REQUEST_LEN: u32 = 256;
/// The size of a reply header.
pub const REPLY_HEADER_LEN: usize = 8;
/// The most UUIDs one reply carries (128 KiB of UUIDs); larger counts are clamped to it. A
/// server whose budget for large replies (16 MiB) is held by replies not yet read sends at
/// most 256 per reply until it is free again: the reply's `n` says how many came.
pub const MAX_COUNT: u32 = 8192;
/// The largest reply payload a client accepts.
pub const MAX_REPLY_LEN: u32 = REPLY_HEADER_LEN as u32 + 16 * MAX_COUNT;
/// Reply flag: the UUIDs are covered by the service's state file.
pub const FLAG_DURABLE: u8 = 1;
/// The size of an [`Info`] body.
pub const INFO_LEN: usize = 16;
/// The size of a range reply's body ([`Range`]).
pub const RANGE_LEN: usize = 16;
/// The most UUIDs one range reply describes; larger counts are clamped to it. (A v1/v6 range
/// takes one 100-ns timestamp per UUID: 65,536 are 6.6 ms.)
pub const MAX_RANGE: u32 = 1 << 16;

/// What a request asks for.
///
/// ```
/// use uuidkit_service::protocol::{Op, Request};
/// use uuidkit_service::state::TimeVersion;
/// // The discriminant is the operation byte (byte 1 of the payload).
/// assert_eq!(Request::generate(TimeVersion::V6, 1).op, Op::Generate);
/// assert_eq!(Op::Generate as u8, 1);
/// assert_eq!(Request::info().encode()[5], Op::Info as u8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `count` UUIDs of one version.
    Generate = 1,
    /// The server's limits and state ([`Info`]).
    Info = 2,
    /// A block of `count` UUIDs of one version, described instead of carried ([`Range`];
    /// protocol 2).
    Range = 3,
}

/// A parsed request.
///
/// ```
/// use uuidkit_service::protocol::{Request, Op};
/// use uuidkit_service::state::TimeVersion;
/// let r = Request::generate(TimeVersion::V7, 100);
/// let frame = r.encode();
/// assert_eq!(&frame[..4], &8u32.to_be_bytes());
/// assert_eq!(Request::parse(&frame[4..]), Ok(r));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Request {
    /// The protocol version the request is in (its reply is in the same).
    pub protocol: u8,
    /// The operation.
    pub op: Op,
    /// The UUID version (generate and range only).
    pub version: Option<TimeVersion>,
    /// How many UUIDs (generate and range only; the server clamps it to [`MAX_COUNT`], for a
    /// range to [`MAX_RANGE`]).
    pub count: u32,
}

/// A reply status.
///
/// The discriminant is the status byte (byte 1 of a reply).
///
/// ```
/// use uuidkit_service::protocol::{ReplyHeader, Request, Status};
/// // UUID version 4 (byte 2) is not served by the service.
/// let r = Request::parse(&[1, 1, 4, 0, 0, 0, 0, 1]).unwrap_err();
/// assert_eq!(r.status, Status::BadUuidVersion);
/// assert_eq!(r.status as u8, 4);
/// assert_eq!(ReplyHeader::parse(&[1, 4, 0, 4, 0, 0, 0, 0])?.status, r.status);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// Success.
    Ok = 0,
    /// The frame length is outside 8..=256 bytes; the server closes the connection.
    BadFrame = 1,
    /// A protocol version the server does not speak; the server closes the connection.
    BadProtocol = 2,
    /// An unknown operation (range in protocol 1), or an info request whose UUID version or
    /// count is not 0.
    BadOp = 3,
    /// A UUID version other than 1, 6 or 7.
    BadUuidVersion = 4,
    /// Flags the server does not know.
    BadFlags = 5,
    /// The generator failed (strict mode and the state file cannot be written; time out of
    /// range).
    Generator = 6,
    /// Too many connections, or the user has asked for v1/v6 timestamps faster than the
    /// clock advances for too long (the message says which); the server closes this one.
    Busy = 7,
    /// The server is shutting down.
    ShuttingDown = 8,
}

impl Status {
    /// The status for a byte; `None` for an unknown code.
    ///
    /// ```
    /// use uuidkit_service::protocol::Status;
    /// assert_eq!(Status::from_u8(0), Some(Status::Ok));
    /// assert_eq!(Status::from_u8(7), Some(Status::Busy));
    /// // Every code round-trips through its discriminant; 9 and up are unknown.
    /// assert!((0..=8).all(|b| Status::from_u8(b).map(|s| s as u8) == Some(b)));
    /// assert_eq!(Status::from_u8(9), None);
    /// ```
    pub const fn from_u8(b: u8) -> Option<Status> {
        Some(match b {
            0 => Status::Ok,
            1 => Status::BadFrame,
            2 => Status::BadProtocol,
            3 => Status::BadOp,
            4 => Status::BadUuidVersion,
            5 => Status::BadFlags,
            6 => Status::Generator,
            7 => Status::Busy,
            8 => Status::ShuttingDown,
            _ => return None,
        })
    }

    /// Whether the server closes the connection after this reply.
    ///
    /// ```
    /// use uuidkit_service::protocol::Status;
    /// // A bad frame or protocol leaves the stream out of step: the server hangs up.
    /// assert!(Status::BadFrame.closes() && Status::BadProtocol.closes() && Status::Busy.closes());
    /// // A well-framed request it cannot serve gets an error, and the connection stays open.
    /// assert!(!Status::BadOp.closes() && !Status::Generator.closes() && !Status::Ok.closes());
    /// ```
    pub const fn closes(self) -> bool {
        matches!(self, Status::BadFrame | Status::BadProtocol | Status::Busy)
    }
}

/// Why a request payload was rejected: the reply status and its message.
///
/// ```
/// use uuidkit_service::protocol::{Request, Status};
/// // Flags (byte 3) must be 0.
/// let r = Request::parse(&[1, 1, 7, 0x80, 0, 0, 0, 1]).unwrap_err();
/// assert_eq!(r.status, Status::BadFlags);
/// assert!(r.message.contains("0x80") && r.message.contains("byte 3"), "{}", r.message);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The status to reply with.
    pub status: Status,
    /// A message naming what is wrong and where.
    pub message: String,
}

impl Request {
    /// A generate request, in protocol 1 (which every server speaks).
    ///
    /// ```
    /// use uuidkit_service::protocol::{Op, Request};
    /// use uuidkit_service::state::TimeVersion;
    /// let r = Request::generate(TimeVersion::V1, 10);
    /// assert_eq!((r.op, r.version, r.count), (Op::Generate, Some(TimeVersion::V1), 10));
    /// assert_eq!(r.protocol, 1);
    /// ```
    pub const fn generate(version: TimeVersion, count: u32) -> Request {
        Request {
            protocol: OLDEST_PROTOCOL_VERSION,
            op: Op::Generate,
            version: Some(version),
            count,
        }
    }

    /// A range request (protocol 2): `count` UUIDs of `version`, described by the reply
    /// ([`Range`]) instead of carried.
    ///
    /// ```
    /// use uuidkit_service::protocol::{Op, Request};
    /// use uuidkit_service::state::TimeVersion;
    /// let r = Request::range(TimeVersion::V6, 8192);
    /// assert_eq!((r.protocol, r.op, r.count), (2, Op::Range, 8192));
    /// ```
    pub const fn range(version: TimeVersion, count: u32) -> Request {
        Request {
            protocol: 2,
            op: Op::Range,
            version: Some(version),
            count,
        }
    }

    /// An info request.
    ///
    /// ```
    /// use uuidkit_service::protocol::{Op, Request};
    /// let r = Request::info();
    /// assert_eq!((r.op, r.version, r.count), (Op::Info, None, 0));
    /// // Operation 2; UUID version and count are 0.
    /// assert_eq!(r.encode(), [0, 0, 0, 8, 1, 2, 0, 0, 0, 0, 0, 0]);
    /// ```
    pub const fn info() -> Request {
        Request {
            protocol: OLDEST_PROTOCOL_VERSION,
            op: Op::Info,
            version: None,
            count: 0,
        }
    }

    /// The whole frame: length prefix and payload.
    ///
    /// ```
    /// use uuidkit_service::protocol::{Request, PROTOCOL_VERSION, REQUEST_LEN};
    /// use uuidkit_service::state::TimeVersion;
    /// let f = Request::generate(TimeVersion::V6, 0x0102_0304).encode();
    /// assert_eq!(f[..4], (REQUEST_LEN as u32).to_be_bytes());
    /// // Protocol 1, generate, UUID version 6, no flags, then the count big-endian.
    /// assert_eq!(f[4..], [1, 1, 6, 0, 1, 2, 3, 4]);
    /// let f = Request::range(TimeVersion::V7, 1).encode();
    /// assert_eq!(f[4..], [PROTOCOL_VERSION, 3, 7, 0, 0, 0, 0, 1]);
    /// ```
    pub fn encode(&self) -> [u8; 4 + REQUEST_LEN] {
        let mut f = [0u8; 4 + REQUEST_LEN];
        f[..4].copy_from_slice(&(REQUEST_LEN as u32).to_be_bytes());
        f[4] = self.protocol;
        f[5] = self.op as u8;
        f[6] = self.version.map_or(0, TimeVersion::as_u8);
        f[8..12].copy_from_slice(&self.count.to_be_bytes());
        f
    }

    /// Parses a request payload (after the length prefix).
    ///
    /// ```
    /// use uuidkit_service::protocol::{Request, Status};
    /// use uuidkit_service::state::TimeVersion;
    /// // Bytes past the eighth are room for later versions, and ignored.
    /// let r = Request::parse(&[1, 1, 7, 0, 0, 0, 1, 0, 0xee, 0xff]);
    /// assert_eq!(r, Ok(Request::generate(TimeVersion::V7, 256)));
    /// // Fewer than eight is a bad frame, and the message says how long it was.
    /// let short = Request::parse(&[1, 2, 0]).unwrap_err();
    /// assert_eq!(short.status, Status::BadFrame);
    /// assert!(short.message.contains("3 bytes"), "{}", short.message);
    /// ```
    pub fn parse(p: &[u8]) -> Result<Request, Rejection> {
        let reject = |status, message: String| Err(Rejection { status, message });
        let (ver, op, uv, flags, count) = match p {
            [ver, op, uv, flags, c0, c1, c2, c3, ..] => (
                *ver,
                *op,
                *uv,
                *flags,
                u32::from_be_bytes([*c0, *c1, *c2, *c3]),
            ),
            _ => {
                return reject(
                    Status::BadFrame,
                    format!(
                        "request of {} bytes, expected at least {REQUEST_LEN}",
                        p.len()
                    ),
                )
            }
        };
        if !(OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&ver) {
            return reject(
                Status::BadProtocol,
                format!(
                    "protocol version {ver} (byte 0) is not supported; this server speaks \
                     {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"
                ),
            );
        }
        if flags != 0 {
            return reject(
                Status::BadFlags,
                format!("unknown flags {flags:#04x} (byte 3); none are defined"),
            );
        }
        let with_version = |r: fn(TimeVersion, u32) -> Request| match TimeVersion::from_u8(uv) {
            Some(v) => Ok(Request {
                protocol: ver,
                ..r(v, count)
            }),
            None => reject(
                Status::BadUuidVersion,
                format!("UUID version {uv} (byte 2) is not served; ask for 1, 6 or 7"),
            ),
        };
        match op {
            1 => with_version(Request::generate),
            3 if ver >= 2 => with_version(Request::range),
            2 if uv != 0 => reject(
                Status::BadOp,
                format!("info takes UUID version 0 (byte 2), not {uv}"),
            ),
            2 if count != 0 => reject(
                Status::BadOp,
                format!("info takes count 0 (bytes 4..8), not {count}"),
            ),
            2 => Ok(Request {
                protocol: ver,
                ..Request::info()
            }),
            _ if ver == 1 => reject(
                Status::BadOp,
                format!("unknown operation {op} (byte 1); 1 is generate, 2 is info"),
            ),
            _ => reject(
                Status::BadOp,
                format!("unknown operation {op} (byte 1); 1 is generate, 2 is info, 3 is range"),
            ),
        }
    }
}

/// Checks the length prefix of a request frame: the payload must be [`REQUEST_LEN`] to
/// [`MAX_REQUEST_LEN`] bytes; its length in bytes, or the [`Status::BadFrame`] rejection a
/// server replies with before closing the connection (it cannot tell where the next frame
/// would start).
///
/// ```
/// use uuidkit_service::protocol::{request_payload_len, Status, MAX_REQUEST_LEN};
/// assert_eq!(request_payload_len(8), Ok(8));
/// assert_eq!(request_payload_len(MAX_REQUEST_LEN), Ok(256)); // room for later versions
/// let r = request_payload_len(0).unwrap_err();
/// assert_eq!(r.status, Status::BadFrame);
/// assert_eq!(r.message, "frame length 0 is outside 8..=256");
/// assert!(request_payload_len(u32::MAX).is_err());
/// ```
pub fn request_payload_len(len: u32) -> Result<usize, Rejection> {
    if (REQUEST_LEN as u32..=MAX_REQUEST_LEN).contains(&len) {
        Ok(len as usize)
    } else {
        Err(Rejection {
            status: Status::BadFrame,
            message: format!("frame length {len} is outside {REQUEST_LEN}..={MAX_REQUEST_LEN}"),
        })
    }
}

/// A reply header.
///
/// ```
/// use uuidkit_service::protocol::{ReplyHeader, Status};
/// // A 12-byte error text in reply to a v1 request in protocol 1.
/// let h = ReplyHeader { protocol: 1, status: Status::Generator, flags: 0, version: 1, n: 12 };
/// let mut out = Vec::new();
/// h.encode_into(12, &mut out);
/// assert_eq!(ReplyHeader::parse(&out[4..])?, h);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyHeader {
    /// The protocol version (that of the request answered).
    pub protocol: u8,
    /// The status.
    pub status: Status,
    /// The flags ([`FLAG_DURABLE`]).
    pub flags: u8,
    /// The UUID version byte.
    pub version: u8,
    /// The body's count: UUIDs for generate and range, bytes otherwise.
    pub n: u32,
}

impl ReplyHeader {
    /// Writes the length prefix and the header for a body of `body_len` bytes into `out`
    /// (cleared first).
    ///
    /// ```
    /// use uuidkit_service::protocol::{ReplyHeader, Status, FLAG_DURABLE};
    /// let h = ReplyHeader { protocol: 1, status: Status::Ok, flags: FLAG_DURABLE, version: 7, n: 2 };
    /// let mut out = vec![0xaa; 3]; // replaced, not appended to
    /// h.encode_into(2 * 16, &mut out);
    /// // Length 8 + 32 = 40; protocol 1, status 0, flags 1, version 7; n = 2.
    /// assert_eq!(out, [0, 0, 0, 40, 1, 0, 1, 7, 0, 0, 0, 2]);
    /// ```
    pub fn encode_into(&self, body_len: usize, out: &mut Vec<u8>) {
        out.clear();
        let len = (REPLY_HEADER_LEN + body_len) as u32;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&[self.protocol, self.status as u8, self.flags, self.version]);
        out.extend_from_slice(&self.n.to_be_bytes());
    }

    /// Parses a reply payload's header; the error says what is wrong.
    ///
    /// ```
    /// use uuidkit_service::protocol::{ReplyHeader, Status};
    /// let h = ReplyHeader::parse(&[1, 8, 0, 6, 0, 0, 0, 5, b'b', b'y', b'e'])?;
    /// assert_eq!((h.status, h.version, h.n), (Status::ShuttingDown, 6, 5));
    /// assert_eq!(ReplyHeader::parse(&[2, 0, 0, 7, 0, 0, 0, 1])?.protocol, 2);
    /// assert!(ReplyHeader::parse(&[3, 0, 0, 0, 0, 0, 0, 0]).unwrap_err().contains("version 3"));
    /// assert!(ReplyHeader::parse(&[1, 99, 0, 0, 0, 0, 0, 0]).unwrap_err().contains("status 99"));
    /// assert!(ReplyHeader::parse(&[1, 0]).unwrap_err().contains("2 bytes"));
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(p: &[u8]) -> Result<ReplyHeader, String> {
        match p {
            [ver, st, flags, v, n0, n1, n2, n3, ..] => {
                if !(OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(ver) {
                    return Err(format!(
                        "reply in protocol version {ver}, expected \
                         {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"
                    ));
                }
                let status =
                    Status::from_u8(*st).ok_or_else(|| format!("unknown reply status {st}"))?;
                Ok(ReplyHeader {
                    protocol: *ver,
                    status,
                    flags: *flags,
                    version: *v,
                    n: u32::from_be_bytes([*n0, *n1, *n2, *n3]),
                })
            }
            _ => Err(format!(
                "reply of {} bytes, shorter than its {REPLY_HEADER_LEN}-byte header",
                p.len()
            )),
        }
    }
}

/// A whole error reply frame.
///
/// ```
/// use uuidkit_service::protocol::{error_frame, Status};
/// let mut out = Vec::new();
/// error_frame(Status::BadOp, 0, "unknown operation", &mut out);
/// // Length 8 + 17; protocol 1, status 3, no flags, version 0; n = 17 bytes of text.
/// assert_eq!(out[..12], [0, 0, 0, 25, 1, 3, 0, 0, 0, 0, 0, 17]);
/// assert_eq!(&out[12..], b"unknown operation");
/// // The text is cut at 1024 bytes, whatever its length.
/// error_frame(Status::Generator, 7, &"x".repeat(5000), &mut out);
/// assert_eq!(out.len(), 4 + 8 + 1024);
/// ```
pub fn error_frame(status: Status, version: u8, message: &str, out: &mut Vec<u8>) {
    error_frame_in(OLDEST_PROTOCOL_VERSION, status, version, message, out)
}

/// [`error_frame`] in protocol `protocol` (that of the request it answers).
///
/// ```
/// use uuidkit_service::protocol::{error_frame_in, Status};
/// let mut out = Vec::new();
/// error_frame_in(2, Status::BadUuidVersion, 0, "no", &mut out);
/// assert_eq!(out, [0, 0, 0, 10, 2, 4, 0, 0, 0, 0, 0, 2, b'n', b'o']);
/// ```
pub fn error_frame_in(protocol: u8, status: Status, version: u8, message: &str, out: &mut Vec<u8>) {
    // Keep error frames small whatever the message.
    let msg = &message.as_bytes()[..message.len().min(1024)];
    ReplyHeader {
        protocol,
        status,
        flags: 0,
        version,
        n: msg.len() as u32,
    }
    .encode_into(msg.len(), out);
    out.extend_from_slice(msg);
}

/// A whole generate reply frame.
///
/// ```
/// use uuidkit_service::protocol::uuids_frame;
/// use uuidkit_service::state::TimeVersion;
/// use uuidkit::Uuid;
/// let mut out = Vec::new();
/// uuids_frame(TimeVersion::V7, false, &[Uuid::NIL, Uuid::MAX], &mut out);
/// // Length 8 + 2 × 16 = 40; protocol 1, ok, not durable, version 7; n = 2; the UUIDs in order.
/// assert_eq!(out[..12], [0, 0, 0, 40, 1, 0, 0, 7, 0, 0, 0, 2]);
/// assert_eq!(out[12..28], [0; 16]);
/// assert_eq!(out[28..], [0xff; 16]);
/// ```
pub fn uuids_frame(version: TimeVersion, durable: bool, uuids: &[Uuid], out: &mut Vec<u8>) {
    uuids_frame_in(OLDEST_PROTOCOL_VERSION, version, durable, uuids, out)
}

/// [`uuids_frame`] in protocol `protocol` (that of the request it answers).
///
/// ```
/// use uuidkit_service::protocol::uuids_frame_in;
/// use uuidkit_service::state::TimeVersion;
/// let mut out = Vec::new();
/// uuids_frame_in(2, TimeVersion::V6, true, &[], &mut out);
/// assert_eq!(out, [0, 0, 0, 8, 2, 0, 1, 6, 0, 0, 0, 0]);
/// ```
pub fn uuids_frame_in(
    protocol: u8,
    version: TimeVersion,
    durable: bool,
    uuids: &[Uuid],
    out: &mut Vec<u8>,
) {
    ReplyHeader {
        protocol,
        status: Status::Ok,
        flags: if durable { FLAG_DURABLE } else { 0 },
        version: version.as_u8(),
        n: uuids.len() as u32,
    }
    .encode_into(uuids.len() * 16, out);
    for u in uuids {
        out.extend_from_slice(u.as_bytes());
    }
}

/// A whole info reply frame.
///
/// ```
/// use uuidkit_service::protocol::{info_frame, Info};
/// let mut out = vec![0xaa; 3]; // replaced, not appended to
/// let info = Info { max_count: 8192, pid: 0x0102_0304, durable: true, strict: false };
/// info_frame(&info, &mut out);
/// // Length 8 + 16; protocol 1, ok, no flags, version 0; n = 16 bytes of body.
/// assert_eq!(out[..12], [0, 0, 0, 24, 1, 0, 0, 0, 0, 0, 0, 16]);
/// assert_eq!(out[12..], info.encode());
/// ```
pub fn info_frame(info: &Info, out: &mut Vec<u8>) {
    info_frame_in(OLDEST_PROTOCOL_VERSION, info, out)
}

/// [`info_frame`] in protocol `protocol` (that of the request it answers).
///
/// ```
/// use uuidkit_service::protocol::{info_frame_in, Info};
/// let mut out = Vec::new();
/// info_frame_in(2, &Info { max_count: 8192, pid: 1, durable: true, strict: false }, &mut out);
/// assert_eq!(out[4], 2);
/// ```
pub fn info_frame_in(protocol: u8, info: &Info, out: &mut Vec<u8>) {
    ReplyHeader {
        protocol,
        status: Status::Ok,
        flags: 0,
        version: 0,
        n: INFO_LEN as u32,
    }
    .encode_into(INFO_LEN, out);
    out.extend_from_slice(&info.encode());
}

/// Where the block of a [`Range`] starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangeStart {
    /// v1 and v6: UUID `i` has the timestamp `first_ticks + i` (100-ns ticks since
    /// 1582-10-15, 60 bits), the clock sequence (14 bits) and the node.
    Ticks {
        /// The first UUID's timestamp.
        first_ticks: u64,
        /// The clock sequence of every UUID of the block.
        clock_seq: u16,
        /// The node of every UUID of the block.
        node: [u8; 6],
    },
    /// v7: UUID `i` has the 48-bit millisecond `unix_ms`, then the `counter_bits`-bit counter
    /// `first_counter + i`, then `74 - counter_bits` random bits that the client draws.
    Counter {
        /// The millisecond since the Unix epoch (48 bits).
        unix_ms: u64,
        /// The first UUID's counter.
        first_counter: u64,
        /// The counter's width, 12 to 42.
        counter_bits: u8,
    },
}

/// A range reply: a block of `count` UUIDs of one version, described instead of carried.
///
/// The body ([`RANGE_LEN`] bytes, big-endian) after a header whose `n` is the count:
///
/// | bytes | v1, v6 | v7 |
/// |---|---|---|
/// | 0..8 | first timestamp (60 bits) | 0..6: millisecond (48 bits); 6: counter width (12..=42); 7: 0 |
/// | 8..16 | 8..10: clock sequence (14 bits); 10..16: node | first counter (the last, first + n − 1, fits the width) |
///
/// The server reserved the block on its one sequence per version (the state file covers it
/// before the reply is sent), so its UUIDs are unique across clients and sort, in index
/// order, after everything the server issued before and before everything it issues after.
///
/// ```
/// use uuidkit::generator::ThreadRng;
/// use uuidkit::Uuid;
/// use uuidkit_service::protocol::{Range, ReplyHeader};
/// use uuidkit_service::state::{Safety, V7Range};
/// let r = Range::v7(&V7Range { unix_ms: 0x017F22E279B0, first_counter: 5, count: 3, counter_bits: 42, safety: Safety::Durable });
/// let mut frame = Vec::new();
/// r.encode_frame(&mut frame);
/// assert_eq!(frame.len(), 4 + 8 + 16);
/// let back = Range::parse(&ReplyHeader::parse(&frame[4..])?, &frame[12..])?;
/// assert_eq!(back, r);
/// let mut out = [Uuid::NIL; 3];
/// back.expand(0, &mut out, &mut ThreadRng);
/// assert!(out[0] < out[1] && out[1] < out[2]);
/// assert!(out.iter().all(|u| u.unix_ts_ms() == Some(0x017F22E279B0)));
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Range {
    /// The UUID version.
    pub version: TimeVersion,
    /// How many UUIDs the block holds.
    pub count: u32,
    /// Whether the server's state file covers the block.
    pub durable: bool,
    /// Where the block starts.
    pub start: RangeStart,
}

impl Range {
    /// The range of a block of v1/v6 timestamps laid out as `version` (v1 or v6; v7 is taken
    /// as v6).
    ///
    /// ```
    /// use uuidkit_service::protocol::Range;
    /// use uuidkit_service::state::{Safety, TickRange, TimeVersion};
    /// let t = TickRange { first_ticks: 9, count: 2, clock_seq: 3, node: [1; 6], safety: Safety::Volatile };
    /// let r = Range::ticks(TimeVersion::V1, &t);
    /// assert_eq!((r.count, r.durable), (2, false));
    /// assert_eq!(r.uuid(1, 0), t.v1(1));
    /// ```
    pub fn ticks(version: TimeVersion, t: &TickRange) -> Range {
        Range {
            version: if version == TimeVersion::V1 {
                TimeVersion::V1
            } else {
                TimeVersion::V6
            },
            count: t.count,
            durable: t.safety == Safety::Durable,
            start: RangeStart::Ticks {
                first_ticks: t.first_ticks,
                clock_seq: t.clock_seq,
                node: t.node,
            },
        }
    }

    /// The range of a block of v7 counter values.
    ///
    /// ```
    /// use uuidkit_service::protocol::Range;
    /// use uuidkit_service::state::{Safety, V7Range};
    /// let v = V7Range { unix_ms: 1, first_counter: 2, count: 3, counter_bits: 42, safety: Safety::Durable };
    /// assert_eq!(Range::v7(&v).uuid(2, 7), v.uuid(2, 7));
    /// ```
    pub fn v7(v: &V7Range) -> Range {
        Range {
            version: TimeVersion::V7,
            count: v.count,
            durable: v.safety == Safety::Durable,
            start: RangeStart::Counter {
                unix_ms: v.unix_ms,
                first_counter: v.first_counter,
                counter_bits: v.counter_bits,
            },
        }
    }

    /// Whether the server's state file covers the block, as a [`Safety`].
    pub fn safety(&self) -> Safety {
        if self.durable {
            Safety::Durable
        } else {
            Safety::Volatile
        }
    }

    /// The body ([`RANGE_LEN`] bytes).
    ///
    /// ```
    /// use uuidkit_service::protocol::Range;
    /// use uuidkit_service::state::{Safety, TickRange, TimeVersion};
    /// let t = TickRange { first_ticks: 0x0102, count: 1, clock_seq: 0x33C8, node: [9; 6], safety: Safety::Durable };
    /// let b = Range::ticks(TimeVersion::V6, &t).encode_body();
    /// assert_eq!(b, [0, 0, 0, 0, 0, 0, 1, 2, 0x33, 0xC8, 9, 9, 9, 9, 9, 9]);
    /// ```
    pub fn encode_body(&self) -> [u8; RANGE_LEN] {
        let mut b = [0u8; RANGE_LEN];
        match self.start {
            RangeStart::Ticks {
                first_ticks,
                clock_seq,
                node,
            } => {
                b[..8].copy_from_slice(&first_ticks.to_be_bytes());
                b[8..10].copy_from_slice(&clock_seq.to_be_bytes());
                b[10..].copy_from_slice(&node);
            }
            RangeStart::Counter {
                unix_ms,
                first_counter,
                counter_bits,
            } => {
                b[..6].copy_from_slice(&unix_ms.to_be_bytes()[2..]);
                b[6] = counter_bits;
                b[8..].copy_from_slice(&first_counter.to_be_bytes());
            }
        }
        b
    }

    /// The whole reply frame (protocol 2: ranges exist only there).
    pub fn encode_frame(&self, out: &mut Vec<u8>) {
        ReplyHeader {
            protocol: 2,
            status: Status::Ok,
            flags: if self.durable { FLAG_DURABLE } else { 0 },
            version: self.version.as_u8(),
            n: self.count,
        }
        .encode_into(RANGE_LEN, out);
        out.extend_from_slice(&self.encode_body());
    }

    /// Parses the body of a successful range reply whose header is `h`; the error says what is
    /// wrong. Everything is checked: the protocol, the UUID version, flags, the body's length,
    /// the count (at most [`MAX_RANGE`]) and that every UUID of the block lies within its
    /// fields (a timestamp below 2^60, a clock sequence below 2^14, a counter width of 12 to
    /// 42 and the last counter within it).
    ///
    /// ```
    /// use uuidkit_service::protocol::{Range, ReplyHeader, Status};
    /// let h = |n| ReplyHeader { protocol: 2, status: Status::Ok, flags: 1, version: 6, n };
    /// let mut body = [0u8; 16];
    /// body[..8].copy_from_slice(&((1u64 << 60) - 2).to_be_bytes());
    /// assert!(Range::parse(&h(2), &body).is_ok());
    /// let e = Range::parse(&h(3), &body).unwrap_err(); // the last timestamp would be 2^60
    /// assert!(e.contains("60-bit"), "{e}");
    /// assert!(Range::parse(&h(1), &body[..15]).unwrap_err().contains("15 bytes"));
    /// ```
    pub fn parse(h: &ReplyHeader, body: &[u8]) -> Result<Range, String> {
        if h.protocol < 2 {
            return Err(format!(
                "range reply in protocol {}, which has no ranges",
                h.protocol
            ));
        }
        if h.status != Status::Ok {
            return Err(format!("range reply with status {:?}", h.status));
        }
        let version = TimeVersion::from_u8(h.version)
            .ok_or_else(|| format!("range reply for UUID version {}", h.version))?;
        if h.flags & !FLAG_DURABLE != 0 {
            return Err(format!("range reply with unknown flags {:#04x}", h.flags));
        }
        let b: &[u8; RANGE_LEN] = body.try_into().map_err(|_| {
            format!(
                "range reply body of {} bytes, expected {RANGE_LEN}",
                body.len()
            )
        })?;
        let count = h.n;
        if count > MAX_RANGE {
            return Err(format!("range of {count} UUIDs, more than {MAX_RANGE}"));
        }
        let last = u64::from(count.saturating_sub(1));
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_be_bytes(w)
        };
        let start = match version {
            TimeVersion::V1 | TimeVersion::V6 => {
                let first_ticks = word(0);
                let clock_seq = u16::from_be_bytes([b[8], b[9]]);
                if first_ticks.saturating_add(last) >> 60 != 0 {
                    return Err(format!(
                        "range of {count} from timestamp {first_ticks:#x} passes the 60-bit \
                         timestamp field"
                    ));
                }
                if clock_seq > 0x3FFF {
                    return Err(format!(
                        "range with clock sequence {clock_seq:#06x}, wider than 14 bits"
                    ));
                }
                let mut node = [0u8; 6];
                node.copy_from_slice(&b[10..]);
                RangeStart::Ticks {
                    first_ticks,
                    clock_seq,
                    node,
                }
            }
            TimeVersion::V7 => {
                let unix_ms = word(0) >> 16;
                let counter_bits = b[6];
                let first_counter = word(8);
                if !(12..=42).contains(&counter_bits) {
                    return Err(format!(
                        "v7 range with a counter of {counter_bits} bits, expected 12 to 42"
                    ));
                }
                if b[7] != 0 {
                    return Err(format!("v7 range with reserved byte 7 = {:#04x}", b[7]));
                }
                if first_counter.saturating_add(last) >> counter_bits != 0 {
                    return Err(format!(
                        "v7 range of {count} from counter {first_counter:#x} passes its \
                         {counter_bits}-bit counter"
                    ));
                }
                RangeStart::Counter {
                    unix_ms,
                    first_counter,
                    counter_bits,
                }
            }
        };
        Ok(Range {
            version,
            count,
            durable: h.flags & FLAG_DURABLE != 0,
            start,
        })
    }

    /// UUID `i` of the block, with `random` as its random bits (v7: the low
    /// `74 - counter_bits` bits are used; v1/v6 have none); `None` beyond the block or for
    /// fields out of range (a range from [`parse`](Self::parse) has none).
    ///
    /// ```
    /// use uuidkit_service::protocol::Range;
    /// use uuidkit_service::state::{Safety, TickRange, TimeVersion};
    /// let t = TickRange { first_ticks: 100, count: 2, clock_seq: 1, node: [1; 6], safety: Safety::Durable };
    /// let r = Range::ticks(TimeVersion::V6, &t);
    /// assert_eq!(r.uuid(1, 0).and_then(|u| u.gregorian_ticks()), Some(101));
    /// assert_eq!(r.uuid(2, 0), None);
    /// ```
    pub fn uuid(&self, i: u32, random: u64) -> Option<Uuid> {
        if i >= self.count {
            return None;
        }
        match self.start {
            RangeStart::Ticks {
                first_ticks,
                clock_seq,
                node,
            } => {
                let t = first_ticks.checked_add(i.into()).filter(|t| t >> 60 == 0)?;
                if clock_seq > 0x3FFF {
                    return None;
                }
                Some(if self.version == TimeVersion::V1 {
                    Uuid::from_v1_parts(t, clock_seq, node)
                } else {
                    Uuid::from_v6_parts(t, clock_seq, node)
                })
            }
            RangeStart::Counter {
                unix_ms,
                first_counter,
                counter_bits,
            } => V7Range {
                unix_ms,
                first_counter,
                count: self.count,
                counter_bits,
                safety: Safety::Durable,
            }
            .uuid(i, random),
        }
    }

    /// Writes UUIDs `from..from + out.len()` of the block (fewer at its end) to the front of
    /// `out`, drawing v7's random bits from `rng` (the library's CSPRNG,
    /// [`ThreadRng`](uuidkit::generator::ThreadRng), in the client); how many were written. They
    /// increase (v1: by timestamp).
    ///
    /// ```
    /// use uuidkit::generator::ThreadRng;
    /// use uuidkit::Uuid;
    /// use uuidkit_service::protocol::Range;
    /// use uuidkit_service::state::{Safety, TickRange, TimeVersion};
    /// let t = TickRange { first_ticks: 100, count: 5, clock_seq: 1, node: [1; 6], safety: Safety::Durable };
    /// let r = Range::ticks(TimeVersion::V1, &t);
    /// let mut out = [Uuid::NIL; 4];
    /// assert_eq!(r.expand(3, &mut out, &mut ThreadRng), 2); // UUIDs 3 and 4
    /// assert_eq!(out[1].gregorian_ticks(), Some(104));
    /// ```
    pub fn expand<R: RandomSource + ?Sized>(
        &self,
        from: u32,
        out: &mut [Uuid],
        rng: &mut R,
    ) -> usize {
        let n = (self.count.saturating_sub(from) as usize).min(out.len());
        let out = &mut out[..n];
        if n == 0 {
            return 0;
        }
        match self.start {
            RangeStart::Ticks {
                first_ticks,
                clock_seq,
                node,
            } => {
                if clock_seq > 0x3FFF || (first_ticks + u64::from(from) + n as u64 - 1) >> 60 != 0 {
                    return 0;
                }
                expand_ticks(
                    self.version,
                    first_ticks + u64::from(from),
                    clock_seq,
                    node,
                    out,
                );
                n
            }
            RangeStart::Counter {
                unix_ms,
                first_counter,
                counter_bits,
            } => {
                let c0 = first_counter + u64::from(from);
                if !(12..=42).contains(&counter_bits)
                    || unix_ms >> 48 != 0
                    || (c0 + n as u64 - 1) >> counter_bits != 0
                {
                    return 0;
                }
                expand_v7(unix_ms, c0, counter_bits, out, rng);
                n
            }
        }
    }
}

/// v1 or v6 UUIDs of the timestamps from `t0` on (the last within 60 bits, checked by the
/// caller). The timestamp's lowest field (v1: `time_low`, 32 bits at the top; v6: 12 bits
/// below the version) counts up by one per UUID until it wraps, so within each stretch
/// between wraps a UUID is the stretch's first plus a multiple of that field's unit.
fn expand_ticks(v: TimeVersion, t0: u64, clock_seq: u16, node: [u8; 6], out: &mut [Uuid]) {
    let (low_bits, shift) = if v == TimeVersion::V1 {
        (32, 96)
    } else {
        (12, 64)
    };
    let mut t = t0;
    let mut rest = out;
    while !rest.is_empty() {
        let room = (1u64 << low_bits) - (t & ((1 << low_bits) - 1));
        let n = rest.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let (now, later) = rest.split_at_mut(n);
        let first = if v == TimeVersion::V1 {
            Uuid::from_v1_parts(t, clock_seq, node)
        } else {
            Uuid::from_v6_parts(t, clock_seq, node)
        }
        .as_u128();
        for (k, slot) in now.iter_mut().enumerate() {
            *slot = Uuid::from_u128(first + ((k as u128) << shift));
        }
        t += n as u64;
        rest = later;
    }
}

/// UUIDs of millisecond `unix_ms` with the counters from `c0` on (of `counter_bits` bits,
/// checked by the caller), random bits from `rng` drawn in chunks.
fn expand_v7<R: RandomSource + ?Sized>(
    unix_ms: u64,
    c0: u64,
    counter_bits: u8,
    out: &mut [Uuid],
    rng: &mut R,
) {
    let random_bits = 74 - u32::from(counter_bits);
    // The timestamp, version and variant bits, fixed for the block.
    let fixed = Uuid::from_v7_parts(unix_ms, 0, 0).as_u128();
    // The 74 bits after the timestamp go around the version (4 bits) and variant (2 bits)
    // fields; the random bits (at most 62) all fall below them, where no spreading is needed.
    let spread = |bits: u128| ((bits >> 62) << 64) | (bits & ((1 << 62) - 1));
    let place = |k: usize| fixed | spread(u128::from(c0 + k as u64) << random_bits);
    if random_bits <= 32 {
        // 4 random bytes per UUID (the durable generator's 42-bit counter leaves 32 bits).
        let mask = (1u64 << random_bits) - 1;
        fill_chunks::<4, R>(out, rng, |k, b| {
            place(k) | u128::from(u64::from(u32::from_le_bytes(b)) & mask)
        });
    } else {
        let mask = (1u64 << random_bits) - 1;
        fill_chunks::<8, R>(out, rng, |k, b| {
            place(k) | u128::from(u64::from_le_bytes(b) & mask)
        });
    }
}

/// Fills `out[k]` with `make(k, W random bytes)`, drawing the bytes 64 UUIDs at a time.
fn fill_chunks<const W: usize, R: RandomSource + ?Sized>(
    out: &mut [Uuid],
    rng: &mut R,
    make: impl Fn(usize, [u8; W]) -> u128,
) {
    const CHUNK: usize = 64;
    let mut bytes = [0u8; CHUNK * 8];
    for (c, chunk) in out.chunks_mut(CHUNK).enumerate() {
        let drawn = &mut bytes[..chunk.len() * W];
        rng.fill_bytes(drawn);
        for (i, (slot, b)) in chunk.iter_mut().zip(drawn.chunks_exact(W)).enumerate() {
            let mut w = [0u8; W];
            w.copy_from_slice(b);
            *slot = Uuid::from_u128(make(c * CHUNK + i, w));
        }
    }
}

/// The body of an info reply.
///
/// ```
/// use uuidkit_service::protocol::Info;
/// let i = Info { max_count: 8192, pid: 42, durable: true, strict: false };
/// assert_eq!(Info::parse(&i.encode()), Some(i));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    /// The largest count served per request.
    pub max_count: u32,
    /// The server's process id.
    pub pid: u32,
    /// Whether the state file's last write succeeded.
    pub durable: bool,
    /// Whether the server runs in strict mode.
    pub strict: bool,
}

impl Info {
    /// The 16-byte body: max count, pid, then a flags byte (bit 0 durable, bit 1 strict), then
    /// 7 reserved bytes.
    ///
    /// ```
    /// use uuidkit_service::protocol::Info;
    /// let b = Info { max_count: 8192, pid: 0x0102_0304, durable: false, strict: true }.encode();
    /// // 8192 = 0x2000, the pid, then flags 0b10 (strict only), then zeros.
    /// assert_eq!(b, [0, 0, 0x20, 0, 1, 2, 3, 4, 2, 0, 0, 0, 0, 0, 0, 0]);
    /// ```
    pub fn encode(&self) -> [u8; INFO_LEN] {
        let mut b = [0u8; INFO_LEN];
        b[..4].copy_from_slice(&self.max_count.to_be_bytes());
        b[4..8].copy_from_slice(&self.pid.to_be_bytes());
        b[8] = u8::from(self.durable) | (u8::from(self.strict) << 1);
        b
    }

    /// Parses a body; `None` if it is too short.
    ///
    /// ```
    /// use uuidkit_service::protocol::Info;
    /// // The first 9 bytes carry everything; reserved bytes may be missing.
    /// let i = Info::parse(&[0, 0, 0, 16, 0, 0, 0, 7, 0b01]);
    /// assert_eq!(i, Some(Info { max_count: 16, pid: 7, durable: true, strict: false }));
    /// assert_eq!(Info::parse(&[0; 8]), None);
    /// ```
    pub fn parse(b: &[u8]) -> Option<Info> {
        match b {
            [m0, m1, m2, m3, p0, p1, p2, p3, f, ..] => Some(Info {
                max_count: u32::from_be_bytes([*m0, *m1, *m2, *m3]),
                pid: u32::from_be_bytes([*p0, *p1, *p2, *p3]),
                durable: f & 1 != 0,
                strict: f & 2 != 0,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejections_name_the_byte() {
        let bad = |p: &[u8]| Request::parse(p).unwrap_err();
        assert_eq!(bad(&[1, 1, 7]).status, Status::BadFrame);
        let r = bad(&[9, 1, 7, 0, 0, 0, 0, 1]);
        assert_eq!(r.status, Status::BadProtocol);
        assert!(r.message.contains("byte 0"), "{}", r.message);
        assert_eq!(bad(&[1, 3, 7, 0, 0, 0, 0, 1]).status, Status::BadOp);
        // Info takes neither a UUID version nor a count.
        let r = bad(&[1, 2, 0, 0, 0, 0, 0, 5]);
        assert_eq!(r.status, Status::BadOp);
        assert!(
            r.message.contains("count 0 (bytes 4..8), not 5"),
            "{}",
            r.message
        );
        let r = bad(&[1, 2, 7, 0, 0, 0, 0, 0]);
        assert_eq!(r.status, Status::BadOp);
        assert!(r.message.contains("byte 2"), "{}", r.message);
        assert_eq!(
            bad(&[1, 1, 4, 0, 0, 0, 0, 1]).status,
            Status::BadUuidVersion
        );
        assert_eq!(bad(&[1, 1, 7, 2, 0, 0, 0, 1]).status, Status::BadFlags);
        // Extra bytes are room for later versions.
        let r = Request::parse(&[1, 1, 6, 0, 0, 0, 1, 0, 0xAA, 0xBB]).unwrap();
        assert_eq!(r, Request::generate(TimeVersion::V6, 256));
    }

    #[test]
    fn ranges_expand_as_their_uuids_across_field_wraps() {
        use uuidkit::generator::rng::ReplayRandom;
        for v in [TimeVersion::V1, TimeVersion::V6] {
            // Across a wrap of v6's 12-bit and of v1's 32-bit lowest timestamp field.
            for first_ticks in [0xFFF - 5, 0xFFFF_FFFF - 5, (1 << 60) - 20] {
                let t = crate::state::TickRange {
                    first_ticks,
                    count: 20,
                    clock_seq: 0x2345,
                    node: [7; 6],
                    safety: Safety::Durable,
                };
                let r = Range::ticks(v, &t);
                let mut out = [Uuid::NIL; 20];
                assert_eq!(r.expand(0, &mut out, &mut ReplayRandom::new([1])), 20);
                for (k, u) in out.iter().enumerate() {
                    let want = if v == TimeVersion::V1 {
                        t.v1(k as u32)
                    } else {
                        t.v6(k as u32)
                    };
                    assert_eq!(Some(*u), want, "{v} from {first_ticks:#x}, UUID {k}");
                }
            }
        }
    }

    #[test]
    fn uuid_reply_round_trips() {
        let mut out = Vec::new();
        let u = [Uuid::MAX, Uuid::NIL];
        uuids_frame(TimeVersion::V7, true, &u, &mut out);
        let len = u32::from_be_bytes([out[0], out[1], out[2], out[3]]) as usize;
        assert_eq!(len, out.len() - 4);
        let h = ReplyHeader::parse(&out[4..]).unwrap();
        assert_eq!(
            (h.status, h.flags, h.version, h.n),
            (Status::Ok, FLAG_DURABLE, 7, 2)
        );
        assert_eq!(&out[12..28], Uuid::MAX.as_bytes());
    }
}

//! The wire protocol between `uuidkit serve` and its clients: length-prefixed binary frames
//! with a version byte (DESIGN.md, "The wire protocol", is the prose version of this module).
//!
//! Every frame is a 4-byte big-endian payload length, then the payload. A request payload is
//! at least [`REQUEST_LEN`] bytes (more are allowed, up to [`MAX_REQUEST_LEN`], and ignored, so
//! that later versions can extend it):
//!
//! | byte | field |
//! |---|---|
//! | 0 | protocol version, [`PROTOCOL_VERSION`] |
//! | 1 | operation: 1 generate, 2 info |
//! | 2 | UUID version for generate: 1, 6 or 7 (0 for info: anything else is refused) |
//! | 3 | flags, 0 |
//! | 4..8 | count, big-endian `u32`: how many UUIDs; more than [`MAX_COUNT`] gets at most [`MAX_COUNT`] (0 for info: anything else is refused) |
//!
//! A reply payload is a [`REPLY_HEADER_LEN`]-byte header and a body:
//!
//! | byte | field |
//! |---|---|
//! | 0 | protocol version |
//! | 1 | [`Status`] |
//! | 2 | flags: bit 0 ([`FLAG_DURABLE`]) when the UUIDs are covered by the state file |
//! | 3 | the UUID version of the request (0 for info and errors before it is known) |
//! | 4..8 | `n`, big-endian `u32` |
//! | 8.. | generate: `n` UUIDs of 16 bytes, in the order issued; info: `n` bytes ([`Info`]); error: `n` bytes of UTF-8 text |
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
//! # Ok::<(), String>(())
//! ```

use crate::state::TimeVersion;
use uuidkit::Uuid;

/// The protocol version this module speaks.
pub const PROTOCOL_VERSION: u8 = 1;
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
    /// The operation.
    pub op: Op,
    /// The UUID version (generate only).
    pub version: Option<TimeVersion>,
    /// How many UUIDs (generate only; the server clamps it to [`MAX_COUNT`]).
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
    /// Another protocol version; the server closes the connection.
    BadProtocol = 2,
    /// An unknown operation, or an info request whose UUID version or count is not 0.
    BadOp = 3,
    /// A UUID version other than 1, 6 or 7.
    BadUuidVersion = 4,
    /// Flags the server does not know.
    BadFlags = 5,
    /// The generator failed (strict mode and the state file cannot be written; time out of
    /// range).
    Generator = 6,
    /// Too many connections; the server closes this one.
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
    /// A generate request.
    ///
    /// ```
    /// use uuidkit_service::protocol::{Op, Request};
    /// use uuidkit_service::state::TimeVersion;
    /// let r = Request::generate(TimeVersion::V1, 10);
    /// assert_eq!((r.op, r.version, r.count), (Op::Generate, Some(TimeVersion::V1), 10));
    /// ```
    pub const fn generate(version: TimeVersion, count: u32) -> Request {
        Request {
            op: Op::Generate,
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
    /// // Protocol, generate, UUID version 6, no flags, then the count big-endian.
    /// assert_eq!(f[4..], [PROTOCOL_VERSION, 1, 6, 0, 1, 2, 3, 4]);
    /// ```
    pub fn encode(&self) -> [u8; 4 + REQUEST_LEN] {
        let mut f = [0u8; 4 + REQUEST_LEN];
        f[..4].copy_from_slice(&(REQUEST_LEN as u32).to_be_bytes());
        f[4] = PROTOCOL_VERSION;
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
        if ver != PROTOCOL_VERSION {
            return reject(
                Status::BadProtocol,
                format!(
                    "protocol version {ver} (byte 0) is not supported; this server speaks {PROTOCOL_VERSION}"
                ),
            );
        }
        if flags != 0 {
            return reject(
                Status::BadFlags,
                format!("unknown flags {flags:#04x} (byte 3); none are defined"),
            );
        }
        match op {
            1 => match TimeVersion::from_u8(uv) {
                Some(v) => Ok(Request::generate(v, count)),
                None => reject(
                    Status::BadUuidVersion,
                    format!("UUID version {uv} (byte 2) is not served; ask for 1, 6 or 7"),
                ),
            },
            2 if uv != 0 => reject(
                Status::BadOp,
                format!("info takes UUID version 0 (byte 2), not {uv}"),
            ),
            2 if count != 0 => reject(
                Status::BadOp,
                format!("info takes count 0 (bytes 4..8), not {count}"),
            ),
            2 => Ok(Request::info()),
            _ => reject(
                Status::BadOp,
                format!("unknown operation {op} (byte 1); 1 is generate, 2 is info"),
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
/// // A 12-byte error text in reply to a v1 request.
/// let h = ReplyHeader { status: Status::Generator, flags: 0, version: 1, n: 12 };
/// let mut out = Vec::new();
/// h.encode_into(12, &mut out);
/// assert_eq!(ReplyHeader::parse(&out[4..])?, h);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyHeader {
    /// The status.
    pub status: Status,
    /// The flags ([`FLAG_DURABLE`]).
    pub flags: u8,
    /// The UUID version byte.
    pub version: u8,
    /// The body's count: UUIDs for generate, bytes otherwise.
    pub n: u32,
}

impl ReplyHeader {
    /// Writes the length prefix and the header for a body of `body_len` bytes into `out`
    /// (cleared first).
    ///
    /// ```
    /// use uuidkit_service::protocol::{ReplyHeader, Status, FLAG_DURABLE};
    /// let h = ReplyHeader { status: Status::Ok, flags: FLAG_DURABLE, version: 7, n: 2 };
    /// let mut out = vec![0xaa; 3]; // replaced, not appended to
    /// h.encode_into(2 * 16, &mut out);
    /// // Length 8 + 32 = 40; protocol 1, status 0, flags 1, version 7; n = 2.
    /// assert_eq!(out, [0, 0, 0, 40, 1, 0, 1, 7, 0, 0, 0, 2]);
    /// ```
    pub fn encode_into(&self, body_len: usize, out: &mut Vec<u8>) {
        out.clear();
        let len = (REPLY_HEADER_LEN + body_len) as u32;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&[
            PROTOCOL_VERSION,
            self.status as u8,
            self.flags,
            self.version,
        ]);
        out.extend_from_slice(&self.n.to_be_bytes());
    }

    /// Parses a reply payload's header; the error says what is wrong.
    ///
    /// ```
    /// use uuidkit_service::protocol::{ReplyHeader, Status};
    /// let h = ReplyHeader::parse(&[1, 8, 0, 6, 0, 0, 0, 5, b'b', b'y', b'e'])?;
    /// assert_eq!((h.status, h.version, h.n), (Status::ShuttingDown, 6, 5));
    /// assert!(ReplyHeader::parse(&[2, 0, 0, 0, 0, 0, 0, 0]).unwrap_err().contains("version 2"));
    /// assert!(ReplyHeader::parse(&[1, 99, 0, 0, 0, 0, 0, 0]).unwrap_err().contains("status 99"));
    /// assert!(ReplyHeader::parse(&[1, 0]).unwrap_err().contains("2 bytes"));
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(p: &[u8]) -> Result<ReplyHeader, String> {
        match p {
            [ver, st, flags, v, n0, n1, n2, n3, ..] => {
                if *ver != PROTOCOL_VERSION {
                    return Err(format!(
                        "reply in protocol version {ver}, expected {PROTOCOL_VERSION}"
                    ));
                }
                let status =
                    Status::from_u8(*st).ok_or_else(|| format!("unknown reply status {st}"))?;
                Ok(ReplyHeader {
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
    // Keep error frames small whatever the message.
    let msg = &message.as_bytes()[..message.len().min(1024)];
    ReplyHeader {
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
    ReplyHeader {
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
    ReplyHeader {
        status: Status::Ok,
        flags: 0,
        version: 0,
        n: INFO_LEN as u32,
    }
    .encode_into(INFO_LEN, out);
    out.extend_from_slice(&info.encode());
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

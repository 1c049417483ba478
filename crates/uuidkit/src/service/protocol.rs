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
//! | 2 | UUID version for generate: 1, 6 or 7 (0 for info) |
//! | 3 | flags, 0 |
//! | 4..8 | count, big-endian `u32`: how many UUIDs; more than [`MAX_COUNT`] gets [`MAX_COUNT`] |
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

use crate::state::TimeVersion;
use crate::Uuid;

/// The protocol version this module speaks.
pub const PROTOCOL_VERSION: u8 = 1;
/// The size of a request payload (without the length prefix).
pub const REQUEST_LEN: usize = 8;
/// The largest request payload a server reads; a longer one is a malformed frame.
pub const MAX_REQUEST_LEN: u32 = 256;
/// The size of a reply header.
pub const REPLY_HEADER_LEN: usize = 8;
/// The most UUIDs one reply carries (128 KiB of UUIDs); larger counts are clamped to it.
pub const MAX_COUNT: u32 = 8192;
/// The largest reply payload a client accepts.
pub const MAX_REPLY_LEN: u32 = REPLY_HEADER_LEN as u32 + 16 * MAX_COUNT;
/// Reply flag: the UUIDs are covered by the service's state file.
pub const FLAG_DURABLE: u8 = 1;
/// The size of an [`Info`] body.
pub const INFO_LEN: usize = 16;

/// What a request asks for.
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
/// use uuidkit::service::protocol::{Request, Op};
/// use uuidkit::state::TimeVersion;
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// Success.
    Ok = 0,
    /// The frame length is outside 8..=256 bytes; the server closes the connection.
    BadFrame = 1,
    /// Another protocol version; the server closes the connection.
    BadProtocol = 2,
    /// An unknown operation.
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
    pub const fn closes(self) -> bool {
        matches!(self, Status::BadFrame | Status::BadProtocol | Status::Busy)
    }
}

/// Why a request payload was rejected: the reply status and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The status to reply with.
    pub status: Status,
    /// A message naming what is wrong and where.
    pub message: String,
}

impl Request {
    /// A generate request.
    pub const fn generate(version: TimeVersion, count: u32) -> Request {
        Request {
            op: Op::Generate,
            version: Some(version),
            count,
        }
    }

    /// An info request.
    pub const fn info() -> Request {
        Request {
            op: Op::Info,
            version: None,
            count: 0,
        }
    }

    /// The whole frame: length prefix and payload.
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
            2 => Ok(Request::info()),
            _ => reject(
                Status::BadOp,
                format!("unknown operation {op} (byte 1); 1 is generate, 2 is info"),
            ),
        }
    }
}

/// A reply header.
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

/// The body of an info reply.
///
/// ```
/// use uuidkit::service::protocol::Info;
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
    pub fn encode(&self) -> [u8; INFO_LEN] {
        let mut b = [0u8; INFO_LEN];
        b[..4].copy_from_slice(&self.max_count.to_be_bytes());
        b[4..8].copy_from_slice(&self.pid.to_be_bytes());
        b[8] = u8::from(self.durable) | (u8::from(self.strict) << 1);
        b
    }

    /// Parses a body; `None` if it is too short.
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

//! The state file's content and its 64-byte encoding (format version 1; the layout is in the
//! [module docs](crate::state)).

use sha2::{Digest, Sha256};

use super::error::{StateError, StateErrorKind};

/// The size of a state file in bytes.
///
/// ```
/// use uuidkit_service::state::{State, STATE_LEN};
/// assert_eq!(STATE_LEN, 64);
/// let err = State::decode(&[0u8; STATE_LEN - 1]).unwrap_err();
/// assert_eq!(err.to_string(), "state file: corrupt: 63 bytes, expected 64");
/// ```
pub const STATE_LEN: usize = 64;
/// The state file format this version writes and reads.
///
/// ```
/// use uuidkit_service::state::{State, FORMAT_VERSION};
/// # let s = State { gregorian_ticks: 0, clock_seq: 0, node: [0; 6], v7_unix_ms: 0,
/// #     v7_counter: None, clean: true, writes: 1 };
/// // Bytes 8..10 of every file, big-endian.
/// assert_eq!(s.encode()[8..10], FORMAT_VERSION.to_be_bytes());
/// assert_eq!(FORMAT_VERSION, 1);
/// ```
pub const FORMAT_VERSION: u16 = 1;
const MAGIC: [u8; 8] = *b"uuidkitS";
const FLAG_CLEAN: u16 = 1;
/// The v7 counter value that stands for the whole millisecond (a reservation).
pub(super) const WHOLE_MS: u64 = u64::MAX;
/// The 14 bits of a clock sequence.
pub(super) const CLOCK_SEQ_MASK: u16 = 0x3FFF;

/// A (millisecond, counter) v7 position; `None` counter: the whole millisecond.
pub(super) type V7Pos = (u64, Option<u64>);

/// Whether `a <= b` as v7 positions.
pub(super) fn v7_le(a: V7Pos, b: V7Pos) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1.unwrap_or(WHOLE_MS) <= b.1.unwrap_or(WHOLE_MS))
}

/// The content of a state file.
///
/// ```
/// use uuidkit_service::state::State;
/// let s = State {
///     gregorian_ticks: 0x1EC9414C232AB00,
///     clock_seq: 0x33C8,
///     node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46],
///     v7_unix_ms: 1645557742000,
///     v7_counter: None,
///     clean: false,
///     writes: 3,
/// };
/// assert_eq!(State::decode(&s.encode())?, s);
/// # Ok::<(), uuidkit_service::state::StateError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Every v1/v6 UUID issued with this clock sequence and node has a timestamp at most this
    /// (100-ns ticks since 1582-10-15).
    pub gregorian_ticks: u64,
    /// The v1/v6 clock sequence (14 bits).
    pub clock_seq: u16,
    /// The v1/v6 node.
    pub node: [u8; 6],
    /// Every v7 UUID issued has a millisecond at most this.
    pub v7_unix_ms: u64,
    /// At [`v7_unix_ms`](Self::v7_unix_ms), the highest counter issued (42-bit, RFC 9562 §6.2
    /// Method 1); `None` when the whole millisecond counts as used (a reservation).
    pub v7_counter: Option<u64>,
    /// Whether the bounds are exact values written at a clean shutdown rather than
    /// reservations.
    pub clean: bool,
    /// How many times the file has been written.
    pub writes: u64,
}

fn be_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    if let Some(s) = b.get(at..at + 8) {
        a.copy_from_slice(s);
    }
    u64::from_be_bytes(a)
}

fn be_u16(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(&[x, y]) => u16::from_be_bytes([x, y]),
        _ => 0,
    }
}

fn checksum(body: &[u8]) -> [u8; 8] {
    let d = Sha256::digest(body);
    let mut c = [0u8; 8];
    c.copy_from_slice(&d[..8]);
    c
}

impl State {
    /// The 64-byte encoding (see the [module docs](crate::state) for the layout).
    ///
    /// ```
    /// use uuidkit_service::state::State;
    /// let s = State {
    ///     gregorian_ticks: 0x1EC9414C232AB00,
    ///     clock_seq: 0x33C8,
    ///     node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46],
    ///     v7_unix_ms: 0x017F22E279B0,
    ///     v7_counter: None,
    ///     clean: true,
    ///     writes: 2,
    /// };
    /// let b = s.encode();
    /// assert_eq!(&b[0..8], b"uuidkitS");
    /// assert_eq!(b[8..12], [0, 1, 0, 1]); // version 1, flags: clean
    /// assert_eq!(b[16..24], 0x1EC9414C232AB00u64.to_be_bytes());
    /// assert_eq!(b[24..32], [0x33, 0xC8, 0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]);
    /// assert_eq!(b[32..40], [0, 0, 0x01, 0x7F, 0x22, 0xE2, 0x79, 0xB0]);
    /// assert_eq!(b[40..48], [0xFF; 8]); // no counter: the whole millisecond
    /// assert_eq!(b[48..56], 2u64.to_be_bytes());
    /// ```
    pub fn encode(&self) -> [u8; STATE_LEN] {
        let mut b = [0u8; STATE_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&FORMAT_VERSION.to_be_bytes());
        let flags = if self.clean { FLAG_CLEAN } else { 0 };
        b[10..12].copy_from_slice(&flags.to_be_bytes());
        b[16..24].copy_from_slice(&self.gregorian_ticks.to_be_bytes());
        b[24..26].copy_from_slice(&self.clock_seq.to_be_bytes());
        b[26..32].copy_from_slice(&self.node);
        b[32..40].copy_from_slice(&self.v7_unix_ms.to_be_bytes());
        b[40..48].copy_from_slice(&self.v7_counter.unwrap_or(WHOLE_MS).to_be_bytes());
        b[48..56].copy_from_slice(&self.writes.to_be_bytes());
        let c = checksum(&b[..56]);
        b[56..64].copy_from_slice(&c);
        b
    }

    /// Decodes and checks a state file's bytes: length, magic, version, checksum, flags and
    /// field ranges. Errors are [`StateErrorKind::Corrupt`] and say which check failed.
    ///
    /// ```
    /// use uuidkit_service::state::{State, StateErrorKind};
    /// # let s = State { gregorian_ticks: 1, clock_seq: 2, node: [3; 6], v7_unix_ms: 4,
    /// #     v7_counter: Some(5), clean: false, writes: 6 };
    /// let mut b = s.encode();
    /// assert_eq!(State::decode(&b)?, s);
    /// b[9] = 2; // a format version from the future
    /// let err = State::decode(&b).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Corrupt);
    /// assert_eq!(
    ///     err.to_string(),
    ///     "state file: corrupt: format version 2 at byte 8, this program reads version 1"
    /// );
    /// # Ok::<(), uuidkit_service::state::StateError>(())
    /// ```
    pub fn decode(b: &[u8]) -> Result<State, StateError> {
        let corrupt = |msg: String| Err(StateError::new(StateErrorKind::Corrupt, None, msg));
        if b.len() != STATE_LEN {
            return corrupt(format!("{} bytes, expected {STATE_LEN}", b.len()));
        }
        if b.get(0..8) != Some(&MAGIC[..]) {
            return corrupt("not a uuidkit state file (bad magic at byte 0)".into());
        }
        let version = be_u16(b, 8);
        if version != FORMAT_VERSION {
            return corrupt(format!(
                "format version {version} at byte 8, this program reads version {FORMAT_VERSION}"
            ));
        }
        if b.get(56..64) != Some(&checksum(&b[..56])[..]) {
            return corrupt("checksum mismatch (bytes 56..64)".into());
        }
        let flags = be_u16(b, 10);
        if flags & !FLAG_CLEAN != 0 || b.get(12..16) != Some(&[0u8; 4][..]) {
            return corrupt(format!(
                "unknown flags {flags:#06x} or reserved bytes set (bytes 10..16)"
            ));
        }
        let gregorian_ticks = be_u64(b, 16);
        if gregorian_ticks >= 1 << 60 {
            return corrupt(format!(
                "v1/v6 timestamp {gregorian_ticks} at byte 16 exceeds 60 bits"
            ));
        }
        let clock_seq = be_u16(b, 24);
        if clock_seq > CLOCK_SEQ_MASK {
            return corrupt(format!(
                "clock sequence {clock_seq:#x} at byte 24 exceeds 14 bits"
            ));
        }
        let mut node = [0u8; 6];
        node.copy_from_slice(&b[26..32]);
        let v7_unix_ms = be_u64(b, 32);
        if v7_unix_ms >= 1 << 48 {
            return corrupt(format!(
                "v7 millisecond {v7_unix_ms} at byte 32 exceeds 48 bits"
            ));
        }
        let counter = be_u64(b, 40);
        Ok(State {
            gregorian_ticks,
            clock_seq,
            node,
            v7_unix_ms,
            v7_counter: if counter == WHOLE_MS {
                None
            } else {
                Some(counter)
            },
            clean: flags & FLAG_CLEAN != 0,
            writes: be_u64(b, 48),
        })
    }
}

//! The four text forms of RFC 9562 §4 as data: which forms and letter cases exist, where the
//! pieces of each form go, the `urn:uuid:` prefix and the hex digit table.
//!
//! The bottom of the text codecs: the scalar code (`scalar.rs`), the slow path that explains a
//! rejected input (`diagnose.rs`), the SIMD levels (`simd/`) and the public reading and writing
//! API (`parse.rs`, `fmt.rs`) all build on these facts, and this module uses none of them.

/// The text forms.
///
/// ```
/// use uuidkit::{Case, Format, Uuid};
/// let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
/// assert_eq!(Uuid::NIL.encode(Format::Braced, Case::Lower, &mut buf).len(), Format::Braced.len());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// `67e55044-10b1-426f-9247-bb680e5fe0c8` (36 bytes).
    #[default]
    Hyphenated,
    /// `67e5504410b1426f9247bb680e5fe0c8` (32 bytes).
    Simple,
    /// `{67e55044-10b1-426f-9247-bb680e5fe0c8}` (38 bytes).
    Braced,
    /// `urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8` (45 bytes).
    Urn,
}

impl Format {
    /// The encoded length in bytes.
    ///
    /// ```
    /// assert_eq!(uuidkit::Format::Urn.len(), uuidkit::MAX_ENCODED_LEN);
    /// ```
    // No form is empty, so an `is_empty` would only ever say `false`.
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(self) -> usize {
        match self {
            Format::Hyphenated => 36,
            Format::Simple => 32,
            Format::Braced => 38,
            Format::Urn => 45,
        }
    }
}

/// Letter case of hex digits (and of the `urn:uuid:` prefix, which stays lower case).
///
/// ```
/// use uuidkit::{Case, Format, Uuid};
/// let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
/// assert_eq!(Uuid::MAX.encode(Format::Simple, Case::Upper, &mut buf), "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Case {
    /// `a`–`f` (the RFC 9562 §4 recommendation for output).
    #[default]
    Lower,
    /// `A`–`F`.
    Upper,
}

/// Hex digit values; 0xFF for every byte that is not a hex digit.
pub(crate) const HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// The URN form's prefix as written (RFC 9562 §4, RFC 8141: `urn:uuid:`); read in any letter
/// case. Shared by the writers and every parser of the URN form.
pub(crate) const URN_PREFIX: &[u8; 9] = b"urn:uuid:";
/// The first 8 bytes of [`URN_PREFIX`] as a little-endian word, and the bits that OR-ed into a
/// word lower-case exactly its letter positions (0x20 in each byte holding a letter, nothing at
/// the `:`): the scalar code and the SIMD levels check the prefix as `(word | URN_LETTERS) == URN_WORD`, then the
/// last `:` alone. The bytes that OR 0x20 turns into a lower-case letter are that letter in
/// either case, so this accepts what the scalar `is_urn_prefix` accepts.
pub(crate) const URN_WORD: u64 = urn_word().0;
pub(crate) const URN_LETTERS: u64 = urn_word().1;

/// [`URN_WORD`] and [`URN_LETTERS`], computed from [`URN_PREFIX`].
const fn urn_word() -> (u64, u64) {
    let (mut word, mut letters) = (0u64, 0u64);
    let mut i = 0;
    while i < 8 {
        word |= (URN_PREFIX[i] as u64) << (8 * i);
        if URN_PREFIX[i].is_ascii_lowercase() {
            letters |= 0x20 << (8 * i);
        }
        i += 1;
    }
    (word, letters)
}

/// Writes `format` at the start of `buf`: the braces or the `urn:uuid:` prefix around a body that
/// `hyphenated` writes, or the body `simple` writes. The one place that knows where the pieces
/// of each form go (RFC 9562 §4); `Uuid::encode_bytes` and every SIMD level's batch writer
/// (`simd::entries::encode_lines_body`) pass their own body encoders. Writes nothing if `buf`
/// is shorter than `format.len()` (the callers' buffers never are). Always inlined, so that the
/// encoders inline into a caller with their target features and the form's branch folds away
/// when the caller knows it.
#[inline(always)]
pub(crate) fn write_form(
    format: Format,
    buf: &mut [u8],
    hyphenated: impl FnOnce(&mut [u8; 36]),
    simple: impl FnOnce(&mut [u8; 32]),
) {
    match format {
        Format::Hyphenated => {
            if let Some(body) = buf.first_chunk_mut::<36>() {
                hyphenated(body);
            }
        }
        Format::Simple => {
            if let Some(body) = buf.first_chunk_mut::<32>() {
                simple(body);
            }
        }
        Format::Braced => {
            if let Some(([open], rest)) = buf.split_first_chunk_mut::<1>() {
                if let Some((body, [close, ..])) = rest.split_first_chunk_mut::<36>() {
                    *open = b'{';
                    hyphenated(body);
                    *close = b'}';
                }
            }
        }
        Format::Urn => {
            if let Some((prefix, rest)) = buf.split_first_chunk_mut::<9>() {
                if let Some(body) = rest.first_chunk_mut::<36>() {
                    *prefix = *URN_PREFIX;
                    hyphenated(body);
                }
            }
        }
    }
}

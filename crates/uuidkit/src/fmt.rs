//! Writing the four text forms of RFC 9562 §4, lower case by default, into caller-provided
//! stack buffers (no allocation) or through `Display`, `LowerHex` and `UpperHex`.

use core::fmt;

use crate::parse::URN_PREFIX;
use crate::Uuid;

const LOWER: &[u8; 16] = b"0123456789abcdef";
const UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// The longest text form (URN), in bytes: the size of an [`EncodeBuffer`].
///
/// ```
/// // `urn:uuid:` (9 bytes) and the 36-byte hyphenated form.
/// assert_eq!(uuidkit::MAX_ENCODED_LEN, 9 + 36);
/// ```
pub const MAX_ENCODED_LEN: usize = 45;

/// A stack buffer large enough for any text form.
///
/// ```
/// use uuidkit::{Case, EncodeBuffer, Format, Uuid};
/// let mut buf: EncodeBuffer = [0; uuidkit::MAX_ENCODED_LEN];
/// let s = Uuid::NIL.encode(Format::Hyphenated, Case::Lower, &mut buf);
/// assert_eq!(s, "00000000-0000-0000-0000-000000000000");
/// ```
pub type EncodeBuffer = [u8; MAX_ENCODED_LEN];

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

const fn table(case: Case) -> &'static [u8; 16] {
    match case {
        Case::Lower => LOWER,
        Case::Upper => UPPER,
    }
}

/// Writes 32 digits at `out[at..at + 32]`.
const fn write_simple(b: &[u8; 16], t: &[u8; 16], out: &mut [u8], at: usize) {
    let mut i = 0;
    while i < 16 {
        out[at + 2 * i] = t[(b[i] >> 4) as usize];
        out[at + 2 * i + 1] = t[(b[i] & 0x0f) as usize];
        i += 1;
    }
}

/// Writes the 36-byte hyphenated form at `out[at..at + 36]`.
const fn write_hyphenated(b: &[u8; 16], t: &[u8; 16], out: &mut [u8], at: usize) {
    let mut i = 0;
    let mut o = at;
    while i < 16 {
        if i == 4 || i == 6 || i == 8 || i == 10 {
            out[o] = b'-';
            o += 1;
        }
        out[o] = t[(b[i] >> 4) as usize];
        out[o + 1] = t[(b[i] & 0x0f) as usize];
        o += 2;
        i += 1;
    }
}

/// Writes `format` at the start of `buf`: the braces or the `urn:uuid:` prefix around a body that
/// `hyphenated` writes, or the body `simple` writes. The one place that knows where the pieces
/// of each form go (RFC 9562 §4); `Uuid::encode_bytes` and every SIMD level's batch writer
/// (`simd::encode_lines_body`) pass their own body encoders. Writes nothing if `buf` is shorter
/// than `format.len()` (the callers' buffers never are). Always inlined, so that the encoders
/// inline into a caller with their target features and the form's branch folds away when the
/// caller knows it.
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

impl Uuid {
    /// The hyphenated form as bytes, usable in `const` context.
    ///
    /// ```
    /// use uuidkit::{Case, Uuid};
    /// assert_eq!(&Uuid::MAX.encode_hyphenated(Case::Upper)[..8], b"FFFFFFFF");
    /// ```
    pub const fn encode_hyphenated(&self, case: Case) -> [u8; 36] {
        let mut out = [0u8; 36];
        write_hyphenated(self.as_bytes(), table(case), &mut out, 0);
        out
    }

    /// The simple form as bytes, usable in `const` context.
    ///
    /// ```
    /// assert_eq!(&uuidkit::Uuid::NAMESPACE_DNS.encode_simple(uuidkit::Case::Lower)[..8], b"6ba7b810");
    /// ```
    pub const fn encode_simple(&self, case: Case) -> [u8; 32] {
        let mut out = [0u8; 32];
        write_simple(self.as_bytes(), table(case), &mut out, 0);
        out
    }

    /// Writes a text form into `buf` and returns it as a `str` (a prefix of `buf`), using the
    /// CPU's SIMD instructions.
    ///
    /// ```
    /// use uuidkit::{Case, Format, Uuid};
    /// let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
    /// let s = Uuid::NAMESPACE_DNS.encode(Format::Urn, Case::Lower, &mut buf);
    /// assert_eq!(s, "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    /// ```
    #[inline]
    pub fn encode<'b>(&self, format: Format, case: Case, buf: &'b mut EncodeBuffer) -> &'b str {
        let len = self.encode_bytes(format, case, buf);
        let text = &buf[..len];
        debug_assert!(text.is_ascii());
        // SAFETY: every byte `encode_bytes` writes is ASCII, hence UTF-8: the prefix, braces
        // and hyphens are ASCII literals, and each digit is an entry of a 16-byte table of ASCII
        // digits (`LOWER`/`UPPER` here; in the SIMD kernels a byte shuffle of such a table by a
        // nibble, which cannot yield anything else, with `-` OR-ed into lanes the shuffle
        // zeroed). `simd::tests` checks every kernel's output against the scalar writer.
        // Validating instead would cost more than the encoding itself.
        unsafe { core::str::from_utf8_unchecked(text) }
    }

    /// Writes a text form into `buf`, using the CPU's SIMD instructions; returns the number of
    /// bytes written (always ASCII).
    ///
    /// ```
    /// use uuidkit::{Case, Format, Uuid};
    /// let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
    /// let n = Uuid::NAMESPACE_DNS.encode_bytes(Format::Urn, Case::Lower, &mut buf);
    /// assert_eq!(&buf[..n], b"urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    /// let n = Uuid::NAMESPACE_DNS.encode_bytes(Format::Braced, Case::Upper, &mut buf);
    /// assert_eq!(&buf[..n], b"{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}");
    /// ```
    #[inline]
    pub fn encode_bytes(&self, format: Format, case: Case, buf: &mut EncodeBuffer) -> usize {
        let k = crate::simd::active();
        let b = self.as_bytes();
        write_form(
            format,
            buf,
            |out| k.encode_hyphenated(b, case, out),
            |out| k.encode_simple(b, case, out),
        );
        format.len()
    }

    /// A `Display` adapter for the hyphenated form (also what `Uuid`'s `Display` writes).
    ///
    /// ```
    /// let u = uuidkit::Uuid::NAMESPACE_DNS;
    /// assert_eq!(u.hyphenated().to_string(), "6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    /// assert_eq!(format!("{:X}", u.hyphenated()), "6BA7B810-9DAD-11D1-80B4-00C04FD430C8");
    /// ```
    pub const fn hyphenated(self) -> Formatted {
        Formatted(self, Format::Hyphenated)
    }
    /// A `Display` adapter for the simple form.
    ///
    /// ```
    /// assert_eq!(uuidkit::Uuid::NIL.simple().to_string(), "00000000000000000000000000000000");
    /// ```
    pub const fn simple(self) -> Formatted {
        Formatted(self, Format::Simple)
    }
    /// A `Display` adapter for the braced form.
    ///
    /// ```
    /// assert_eq!(uuidkit::Uuid::NIL.braced().to_string(), "{00000000-0000-0000-0000-000000000000}");
    /// ```
    pub const fn braced(self) -> Formatted {
        Formatted(self, Format::Braced)
    }
    /// A `Display` adapter for the URN form.
    ///
    /// ```
    /// let u = uuidkit::Uuid::NAMESPACE_URL;
    /// assert_eq!(format!("{:X}", u.urn()), "urn:uuid:6BA7B811-9DAD-11D1-80B4-00C04FD430C8");
    /// ```
    pub const fn urn(self) -> Formatted {
        Formatted(self, Format::Urn)
    }
}

/// A UUID with a chosen text form, for `{}` (lower case), `{:x}` and `{:X}`.
///
/// ```
/// let u = uuidkit::Uuid::NAMESPACE_DNS;
/// assert_eq!(format!("{:X}", u.simple()), "6BA7B8109DAD11D180B400C04FD430C8");
/// assert_eq!(format!("[{:>40}]", u.braced()), "[  {6ba7b810-9dad-11d1-80b4-00c04fd430c8}]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Formatted(Uuid, Format);

impl Formatted {
    fn write(&self, f: &mut fmt::Formatter<'_>, case: Case) -> fmt::Result {
        let mut buf = [0u8; MAX_ENCODED_LEN];
        f.pad(self.0.encode(self.1, case, &mut buf))
    }
}

impl fmt::Display for Formatted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Case::Lower)
    }
}
impl fmt::LowerHex for Formatted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Case::Lower)
    }
}
impl fmt::UpperHex for Formatted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Case::Upper)
    }
}

/// Lower-case hyphenated.
///
/// ```
/// let u = uuidkit::Uuid::NAMESPACE_OID;
/// assert_eq!(u.to_string(), "6ba7b812-9dad-11d1-80b4-00c04fd430c8");
/// assert_eq!(format!("{u:X}"), "6BA7B812-9DAD-11D1-80B4-00C04FD430C8");
/// ```
impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.hyphenated().write(f, Case::Lower)
    }
}
impl fmt::LowerHex for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.hyphenated().write(f, Case::Lower)
    }
}
impl fmt::UpperHex for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.hyphenated().write(f, Case::Upper)
    }
}

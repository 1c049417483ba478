//! Writing the four text forms of RFC 9562 §4, lower case by default, into caller-provided
//! stack buffers (no allocation) or through `Display`, `LowerHex` and `UpperHex`: the public
//! API. The `const` encoders run the scalar code (`scalar.rs`); the others call the CPU's SIMD
//! level (`simd/`), which writes the same bytes.

use core::fmt;

use crate::text::{write_form, Case, Format};
use crate::{scalar, simd, Uuid};

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

impl Uuid {
    /// The hyphenated form as bytes, usable in `const` context.
    ///
    /// ```
    /// use uuidkit::{Case, Uuid};
    /// assert_eq!(&Uuid::MAX.encode_hyphenated(Case::Upper)[..8], b"FFFFFFFF");
    /// ```
    #[inline]
    pub const fn encode_hyphenated(&self, case: Case) -> [u8; 36] {
        scalar::encode_hyphenated(self.as_bytes(), case)
    }

    /// The simple form as bytes, usable in `const` context.
    ///
    /// ```
    /// assert_eq!(&uuidkit::Uuid::NAMESPACE_DNS.encode_simple(uuidkit::Case::Lower)[..8], b"6ba7b810");
    /// ```
    #[inline]
    pub const fn encode_simple(&self, case: Case) -> [u8; 32] {
        scalar::encode_simple(self.as_bytes(), case)
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
        // digits (`LOWER`/`UPPER` in `scalar.rs`; in the SIMD kernels a byte shuffle of such a table by a
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
        let k = simd::active();
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
        pad(f, self.0.encode(self.1, case, &mut buf))
    }
}

/// `f.pad(s)` without its call when no width or precision is given (the usual `{}`): then
/// `pad` is a plain `write_str`, and this skips the out-of-line function that decides so.
#[inline(always)]
pub(crate) fn pad(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    if f.width().is_none() && f.precision().is_none() {
        f.write_str(s)
    } else {
        f.pad(s)
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
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_hyphenated(f, Case::Lower)
    }
}
impl fmt::LowerHex for Uuid {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_hyphenated(f, Case::Lower)
    }
}
impl fmt::UpperHex for Uuid {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_hyphenated(f, Case::Upper)
    }
}

impl Uuid {
    /// The hyphenated form from a 36-byte stack buffer filled by the SIMD encoder, written
    /// with one `write_str`, or through `Formatter::pad` when a width or precision is given.
    #[inline]
    fn write_hyphenated(&self, f: &mut fmt::Formatter<'_>, case: Case) -> fmt::Result {
        let mut buf = [0u8; 36];
        simd::active().encode_hyphenated(self.as_bytes(), case, &mut buf);
        debug_assert!(buf.is_ascii());
        // SAFETY: the encoder writes only ASCII (see `Uuid::encode`).
        pad(f, unsafe { core::str::from_utf8_unchecked(&buf) })
    }
}

#[cfg(feature = "std")]
impl Uuid {
    /// The lower-case hyphenated form in a new `String`: the same text as `Display` (and as
    /// [`ToString::to_string`], which this inherent method shadows for `Uuid` values), made with
    /// one allocation of exactly 36 bytes filled by the SIMD encoder, without the formatting
    /// machinery.
    ///
    /// ```
    /// let u = uuidkit::Uuid::NAMESPACE_DNS;
    /// assert_eq!(u.to_string(), "6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    /// assert_eq!(u.to_string(), format!("{u}"));
    /// assert_eq!(u.to_string().capacity(), 36);
    /// ```
    // The same text as `Display` by construction (the same encoder); the lint guards against an
    // inherent `to_string` that differs from `Display`.
    #[allow(clippy::inherent_to_string_shadow_display)]
    #[inline]
    pub fn to_string(&self) -> String {
        let mut buf = [0u8; 36];
        simd::active().encode_hyphenated(self.as_bytes(), Case::Lower, &mut buf);
        debug_assert!(buf.is_ascii());
        // SAFETY: the encoder writes only ASCII (see `Uuid::encode`).
        unsafe { String::from_utf8_unchecked(buf.to_vec()) }
    }
}

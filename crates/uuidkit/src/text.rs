//! The four text forms of RFC 9562 §4 as data (and which short forms exist, `ShortForm`, whose
//! codecs are in `short.rs`): which forms and letter cases exist, where the
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

/// The short text forms, each read only by name.
///
/// None is recognised by [`Uuid::parse_str`](crate::Uuid::parse_str), which reads the four RFC 9562
/// forms only, nor guessed anywhere: the 26-character forms (ULID, base32hex, an unprefixed TypeID)
/// share their length and most of their alphabets, as do the 22-character ones (every base58 string
/// is a base64url string), so such a string can be more than one of them. A TypeID *with* a prefix
/// is unambiguous (a `_`, which no other form has), so a program may recognise it by shape; the
/// CLI's `inspect` does.
///
/// | form | length | example (`017f22e2-79b0-7cc3-98c4-dc0c0c07398f`) | sorts like the value |
/// |---|---|---|---|
/// | [`Ulid`](ShortForm::Ulid) | 26 | `01FWHE4YDGFK1SHH6W1G60EECF` | yes |
/// | [`Base32Hex`](ShortForm::Base32Hex) | 26 | `05VI5OJPM1UC7664RG60O1PPHS` | yes |
/// | [`Base58`](ShortForm::Base58) | 22 | `1BihbxwwQ4NZZpKRH9JDCz` | yes |
/// | [`Base58Flickr`](ShortForm::Base58Flickr) | 22 | `1bHGAXWWp4nyyPjqh9idcZ` | no (bytewise) |
/// | [`Base64Url`](ShortForm::Base64Url) | 22 | `AX8i4nmwfMOYxNwMDAc5jw` | no |
///
/// "Sorts like the value": comparing two strings byte by byte gives the order of the UUIDs
/// (for v7, creation order). Flickr's alphabet puts lower-case letters before upper-case ones,
/// against ASCII; base64url's puts letters before digits.
///
/// ```
/// use uuidkit::{ShortForm, Uuid};
/// let u = Uuid::parse_str("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")?;
/// for form in ShortForm::ALL {
///     let mut buf = [0u8; uuidkit::MAX_SHORT_LEN];
///     let text = u.encode_short(form, &mut buf);
///     assert_eq!(text.len(), form.len());
///     assert_eq!(Uuid::parse_short(form, text.as_bytes())?, u);
/// }
/// # Ok::<(), uuidkit::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ShortForm {
    /// ULID text: 26 characters of Crockford's base32 (`0-9A-Z` without I, L, O, U),
    /// right-aligned (the first character holds 3 bits, so it is at most `7`). Written in
    /// upper case, read in either. For a v7 UUID the first 10 characters are the ULID
    /// timestamp, the same Unix milliseconds.
    Ulid,
    /// base32hex (RFC 4648 §7), unpadded: 26 characters of `0-9A-V`, left-aligned (the last
    /// character holds 3 bits and 2 zero bits). Written in upper case, read in either.
    Base32Hex,
    /// base58 with Bitcoin's alphabet (`1-9A-Za-z` without 0, O, I, l), left-padded with `1`
    /// (the digit zero) to 22 characters.
    Base58,
    /// base58 with Flickr's alphabet (`1-9a-zA-Z` without 0, l, I, O; the one short-uuid
    /// uses), left-padded with `1` to 22 characters.
    Base58Flickr,
    /// base64url (RFC 4648 §5), unpadded: 22 characters of `A-Za-z0-9-_`, left-aligned (the
    /// last character holds 2 bits and 4 zero bits).
    Base64Url,
}

impl ShortForm {
    /// Every short form.
    pub const ALL: [ShortForm; 5] = [
        ShortForm::Ulid,
        ShortForm::Base32Hex,
        ShortForm::Base58,
        ShortForm::Base58Flickr,
        ShortForm::Base64Url,
    ];

    /// The encoded length in bytes (every value has the same length).
    ///
    /// ```
    /// assert_eq!(uuidkit::ShortForm::Base64Url.len(), 22);
    /// ```
    // No form is empty.
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(self) -> usize {
        match self {
            ShortForm::Ulid | ShortForm::Base32Hex => 26,
            ShortForm::Base58 | ShortForm::Base58Flickr | ShortForm::Base64Url => 22,
        }
    }

    /// The form's name as the CLI spells it: `ulid`, `base32hex`, `base58`, `base58-flickr`,
    /// `base64url`.
    ///
    /// ```
    /// assert_eq!(uuidkit::ShortForm::Base58Flickr.name(), "base58-flickr");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ShortForm::Ulid => "ulid",
            ShortForm::Base32Hex => "base32hex",
            ShortForm::Base58 => "base58",
            ShortForm::Base58Flickr => "base58-flickr",
            ShortForm::Base64Url => "base64url",
        }
    }

    /// What an invalid character's message says was expected.
    pub(crate) const fn expected(self) -> &'static str {
        match self {
            ShortForm::Ulid => {
                ": expected a ULID character (Crockford's base32: 0-9, A-Z without I, L, O, U)"
            }
            ShortForm::Base32Hex => ": expected a base32hex character (0-9, A-V)",
            ShortForm::Base58 => ": expected a base58 character (1-9, A-Z, a-z without I, O, l)",
            ShortForm::Base58Flickr => {
                ": expected a base58-flickr character (1-9, a-z, A-Z without l, I, O)"
            }
            ShortForm::Base64Url => ": expected a base64url character (A-Z, a-z, 0-9, '-', '_')",
        }
    }

    /// The form's text of 2^128 - 1.
    pub(crate) const fn max_text(self) -> &'static str {
        match self {
            ShortForm::Ulid => "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            ShortForm::Base32Hex => "VVVVVVVVVVVVVVVVVVVVVVVVVS",
            ShortForm::Base58 => "YcVfxkQb6JRzqk5kF2tNLv",
            ShortForm::Base58Flickr => "xBuEXKpA6iqZQK5Kf2TnkV",
            ShortForm::Base64Url => "_____________________w",
        }
    }
}

impl core::fmt::Display for ShortForm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
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

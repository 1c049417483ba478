//! The one error type for every textual and binary form uuidkit reads.
//!
//! An [`Error`] is small and `Copy`: the fast parsing path returns only "it failed", and the
//! detailed diagnosis (what went wrong, at which byte) is computed by re-scanning the input on
//! the slow path. The `Display` text is part of the API and is compared word for word in tests.

use core::fmt;

/// What went wrong, as a plain enum for matching. See [`Error::kind`].
///
/// ```
/// use uuidkit::{ErrorKind, Uuid};
/// let kind = |s: &str| Uuid::parse_str(s).unwrap_err().kind();
/// assert_eq!(kind("67e55044"), ErrorKind::Length);
/// assert_eq!(kind("67e55044-10b1-426f-9247-bb680e5fe0cX"), ErrorKind::Char);
/// assert_eq!(kind("67e5504410b1-426f-9247-bb680e5fe0c8-"), ErrorKind::Hyphen);
/// assert_eq!(kind("urn:uuix:67e55044-10b1-426f-9247-bb680e5fe0c8"), ErrorKind::Prefix);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input has a length no form accepts.
    Length,
    /// A byte that is not allowed where it stands (for UUID text: not a hex digit).
    Char,
    /// A hyphen where none may stand, or a digit where a hyphen must.
    Hyphen,
    /// A hyphen-separated group has the wrong number of digits.
    GroupLength,
    /// A prefix (`urn:uuid:`, `2.25.`, `urn:oid:2.25.`) is missing or misspelt.
    Prefix,
    /// A `{` that starts the input without a `}` to end it, or a `}` that ends it without a
    /// `{` to start it. (A brace anywhere else is an [`ErrorKind::Char`].)
    Braces,
    /// A decimal integer is 2^128 or larger.
    Overflow,
    /// A decimal integer has a leading zero (only `0` itself may start with `0`).
    LeadingZero,
    /// A valid UUID in a text form that is not accepted here (e.g. the simple form where
    /// RFC 4530 allows only the hyphenated one).
    Form,
}

/// Detail carried for the message; private so that it can grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Detail {
    /// found length, expected length (0 = any of 32, 36, 38, 45)
    Length {
        found: usize,
        expected: usize,
    },
    /// The offending character: a decoded `char`, or a raw byte that is not valid UTF-8.
    Char {
        ch: Option<char>,
        byte: u8,
        expected: Expected,
    },
    /// `missing`: a digit stands where a hyphen must; else a hyphen where a digit must.
    Hyphen {
        missing: bool,
    },
    /// group number (1-based), digits found, digits expected
    GroupLength {
        group: u8,
        found: usize,
        expected: u8,
    },
    Prefix {
        expected: &'static str,
    },
    /// A `}` ends the input but no `{` starts it (the position is the `}`).
    Braces,
    // Built by the decimal and OID readers (forms.rs).
    Overflow,
    LeadingZero,
    /// Nothing at all to read.
    Empty,
    /// A prefix ended the input where decimal digits must follow (e.g. `2.25.`).
    MissingDigits,
    /// A well-formed UUID in the form named by `found` where only `expected` is accepted.
    Form {
        found: &'static str,
        expected: &'static str,
    },
    /// The input starts with `{` but the byte where the `}` must stand is something else or
    /// past the end (the position is that byte).
    Unclosed,
    /// A short form (short.rs, typeid.rs) whose value is 2^128 or more: `max` is the form's
    /// largest text; `first` the largest first character when that alone decides it.
    TooLarge {
        max: &'static str,
        first: Option<u8>,
    },
    /// The last character of a form whose bits do not fill it (base32hex, base64url) has
    /// `bits` low padding bits, and they are not zero.
    Padding {
        ch: u8,
        bits: u8,
    },
    /// A ULID holding I, L, O or U, which Crockford's base32 leaves out.
    Crockford {
        ch: u8,
    },
    /// A TypeID prefix that breaks one of the spec's rules.
    TypeIdPrefix {
        rule: PrefixRule,
    },
    /// A TypeID whose suffix (after the last `_`) is not 26 characters.
    SuffixLength {
        found: usize,
    },
    /// A typed TypeID whose prefix is not its type's.
    WrongType {
        expected: &'static str,
    },
}

/// The TypeID prefix rule an input breaks (spec v0.3.0, "Type Prefix").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PrefixRule {
    /// More than 63 characters (`len` of them).
    TooLong { len: usize },
    /// A character other than `a`-`z` and `_`.
    Char { ch: Option<char>, byte: u8 },
    /// Starts with `_`.
    Leading,
    /// Ends with `_`.
    Trailing,
    /// The input starts with the separator: an empty prefix has none.
    EmptyWithSeparator,
}

/// What was expected instead of an invalid character; chooses the message's wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Expected {
    Hex,
    // Built by the decimal and OID readers (forms.rs).
    Decimal,
    /// A hyphen slot of the hyphenated layout.
    Hyphen,
    /// After 8 digits of an input that may be simple or hyphenated.
    HexOrHyphen,
    /// After a complete UUID.
    End,
    /// After the complete body of the braced form, where its `}` must stand.
    CloseBrace,
    /// A character of a short form's alphabet (short.rs).
    Short(crate::text::ShortForm),
    /// A character of a TypeID suffix (the spec's lower-case base32 alphabet).
    TypeIdSuffix,
}

/// The error returned when a UUID cannot be read from some form.
///
/// It tells the [kind](Error::kind) of problem and the 0-based byte
/// [position](Error::position) where it was found.
///
/// ```
/// let err = uuidkit::Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0cX").unwrap_err();
/// assert!(err.is_invalid_char());
/// assert_eq!(err.position(), 35);
/// assert_eq!(
///     err.to_string(),
///     "invalid character 'X' at byte 35: expected a hexadecimal digit"
/// );
/// ```
// `PartialEq` is written out below (field for field, as derived) and `Hash` derived: the two
// agree.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Debug, Clone, Copy, Eq, Hash)]
pub struct Error {
    pub(crate) detail: Detail,
    pub(crate) pos: usize,
}

/// The derived comparison, field for field, with the commonest error (an invalid character)
/// compared inline: a command that meets many bad lines compares each line's error with the
/// last one met at its position (the derived one was a call of 30 instructions).
impl PartialEq for Error {
    #[inline(always)]
    fn eq(&self, other: &Error) -> bool {
        self.pos == other.pos
            && match (&self.detail, &other.detail) {
                (
                    Detail::Char { ch, byte, expected },
                    Detail::Char {
                        ch: ch2,
                        byte: byte2,
                        expected: expected2,
                    },
                ) => byte == byte2 && expected == expected2 && ch == ch2,
                (a, b) => a == b,
            }
    }
}

impl Error {
    pub(crate) const fn new(detail: Detail, pos: usize) -> Self {
        Error { detail, pos }
    }

    /// The kind of problem.
    ///
    /// ```
    /// use uuidkit::{ErrorKind, Uuid};
    /// // The last group has 11 of its 12 digits.
    /// let e = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c").unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::GroupLength);
    /// assert_eq!(Uuid::parse_str("").unwrap_err().kind(), ErrorKind::Length);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        match self.detail {
            Detail::Length { .. } => ErrorKind::Length,
            Detail::Char { .. } => ErrorKind::Char,
            Detail::Hyphen { .. } => ErrorKind::Hyphen,
            Detail::GroupLength { .. } => ErrorKind::GroupLength,
            Detail::Prefix { .. } => ErrorKind::Prefix,
            Detail::Braces | Detail::Unclosed => ErrorKind::Braces,
            Detail::Overflow => ErrorKind::Overflow,
            Detail::LeadingZero => ErrorKind::LeadingZero,
            Detail::Empty | Detail::MissingDigits => ErrorKind::Length,
            Detail::Form { .. } => ErrorKind::Form,
            Detail::TooLarge { .. } => ErrorKind::Overflow,
            Detail::Padding { .. } | Detail::Crockford { .. } => ErrorKind::Char,
            Detail::TypeIdPrefix { .. } | Detail::WrongType { .. } => ErrorKind::Prefix,
            Detail::SuffixLength { .. } => ErrorKind::Length,
        }
    }

    /// The 0-based byte offset in the input where the problem was found.
    ///
    /// For a length error it is where the input should have ended (too long) or where it
    /// ended too soon (too short).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // The second hyphen (byte 13) is a digit.
    /// let e = Uuid::parse_str("67e55044-10b10426f-9247-bb680e5fe0c8").unwrap_err();
    /// assert_eq!(e.position(), 13);
    /// // Too short: the position is where the input ended.
    /// assert_eq!(Uuid::parse_str("67e55044").unwrap_err().position(), 8);
    /// ```
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// The input has a length no form accepts.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// assert!(Uuid::parse_str("67e55044").unwrap_err().is_length());
    /// assert!(!Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0cX").unwrap_err().is_length());
    /// ```
    pub const fn is_length(&self) -> bool {
        matches!(self.kind(), ErrorKind::Length)
    }
    /// A character that is not allowed where it stands.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// assert!(Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0cX").unwrap_err().is_invalid_char());
    /// assert!(!Uuid::parse_str("67e55044").unwrap_err().is_invalid_char());
    /// ```
    pub const fn is_invalid_char(&self) -> bool {
        matches!(self.kind(), ErrorKind::Char)
    }
    /// A misplaced hyphen.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // A digit where the second hyphen must stand.
    /// assert!(Uuid::parse_str("67e55044-10b10426f-9247-bb680e5fe0c8").unwrap_err().is_hyphen());
    /// // The last group one digit short: a group-length error, not a hyphen error.
    /// assert!(!Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c").unwrap_err().is_hyphen());
    /// ```
    pub const fn is_hyphen(&self) -> bool {
        matches!(self.kind(), ErrorKind::Hyphen)
    }
    /// A group of the wrong length.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let e = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c").unwrap_err();
    /// assert!(e.is_group_length());
    /// assert_eq!(e.to_string(), "invalid group length: group 5 at byte 24 has 11 digits, expected 12");
    /// assert!(!Uuid::parse_str("67e55044-10b10426f-9247-bb680e5fe0c8").unwrap_err().is_group_length());
    /// ```
    pub const fn is_group_length(&self) -> bool {
        matches!(self.kind(), ErrorKind::GroupLength)
    }
    /// A missing or misspelt prefix.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let e = Uuid::parse_str("urn:uuix:67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap_err();
    /// assert!(e.is_prefix());
    /// assert_eq!(e.position(), 7); // the `x` where `urn:uuid:` has its `d`
    /// assert!(!Uuid::parse_str("67e55044").unwrap_err().is_prefix());
    /// ```
    pub const fn is_prefix(&self) -> bool {
        matches!(self.kind(), ErrorKind::Prefix)
    }
    /// Unbalanced braces.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // A closing brace without an opening one.
    /// let e = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8}").unwrap_err();
    /// assert!(e.is_braces());
    /// assert!(!Uuid::parse_str("67e55044").unwrap_err().is_braces());
    /// ```
    pub const fn is_braces(&self) -> bool {
        matches!(self.kind(), ErrorKind::Braces)
    }
    /// A decimal integer of 2^128 or more.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // 2^128, one more than the Max UUID.
    /// assert!(Uuid::parse_decimal(b"340282366920938463463374607431768211456").unwrap_err().is_overflow());
    /// assert!(!Uuid::parse_decimal(b"0123").unwrap_err().is_overflow());
    /// ```
    pub const fn is_overflow(&self) -> bool {
        matches!(self.kind(), ErrorKind::Overflow)
    }
    /// A decimal integer with a leading zero.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let e = Uuid::parse_oid(b"2.25.0123").unwrap_err();
    /// assert!(e.is_leading_zero());
    /// assert_eq!(e.position(), 5);
    /// assert!(!Uuid::parse_oid(b"2.25.12a").unwrap_err().is_leading_zero());
    /// ```
    pub const fn is_leading_zero(&self) -> bool {
        matches!(self.kind(), ErrorKind::LeadingZero)
    }

    /// A valid UUID in a text form not accepted here.
    ///
    /// ```
    /// use uuidkit::ldap;
    /// // Source: RFC 4530 §2.1 example value, whose syntax allows only the hyphenated form.
    /// assert!(ldap::validate(b"597ae2f616a6102798f4d28b5365dc14").unwrap_err().is_form());
    /// assert!(!ldap::validate(b"597ae2f6").unwrap_err().is_form());
    /// ```
    pub const fn is_form(&self) -> bool {
        matches!(self.kind(), ErrorKind::Form)
    }

    /// A short static description of the kind, for contexts without formatting.
    ///
    /// ```
    /// let e = uuidkit::Uuid::parse_str("{67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap_err();
    /// assert_eq!(e.kind_str(), "unbalanced brace");
    /// assert!(e.is_braces());
    /// ```
    pub const fn kind_str(&self) -> &'static str {
        match self.kind() {
            ErrorKind::Length => "invalid length",
            ErrorKind::Char => "invalid character",
            ErrorKind::Hyphen => "misplaced hyphen",
            ErrorKind::GroupLength => "invalid group length",
            ErrorKind::Prefix => "invalid prefix",
            ErrorKind::Braces => "unbalanced brace",
            ErrorKind::Overflow => "integer too large",
            ErrorKind::LeadingZero => "leading zero",
            ErrorKind::Form => "form not accepted",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.pos;
        match self.detail {
            Detail::Length { found, expected } => {
                if expected == 0 {
                    write!(
                        f,
                        "invalid length: expected 32, 36, 38 or 45 bytes, found {found}"
                    )
                } else {
                    write!(f, "invalid length: expected {expected} bytes, found {found}")
                }
            }
            Detail::Char { ch, byte, expected } => {
                match ch {
                    Some(c) => write!(f, "invalid character {c:?} at byte {pos}")?,
                    None => write!(f, "invalid byte 0x{byte:02x} at byte {pos}")?,
                }
                f.write_str(match expected {
                    Expected::Hex => ": expected a hexadecimal digit",
                    Expected::Decimal => ": expected a decimal digit",
                    Expected::Hyphen => ": expected '-'",
                    Expected::HexOrHyphen => ": expected a hexadecimal digit or '-'",
                    Expected::End => ": expected the end of the input",
                    Expected::CloseBrace => ": expected '}'",
                    Expected::Short(form) => form.expected(),
                    Expected::TypeIdSuffix => {
                        ": expected a TypeID suffix character (0-9, a-z without i, l, o, u)"
                    }
                })
            }
            Detail::Hyphen { missing: true } => write!(f, "missing hyphen at byte {pos}"),
            Detail::Hyphen { missing: false } => write!(f, "misplaced hyphen at byte {pos}"),
            Detail::GroupLength {
                group,
                found,
                expected,
            } => write!(
                f,
                "invalid group length: group {group} at byte {pos} has {found} digits, expected {expected}"
            ),
            Detail::Prefix { expected } => {
                write!(f, "invalid prefix at byte {pos}: expected {expected:?}")
            }
            Detail::Braces => write!(
                f,
                "unbalanced brace at byte {pos}: '}}' without an opening '{{'"
            ),
            Detail::Unclosed => write!(
                f,
                "unbalanced brace at byte {pos}: expected '}}' to close the '{{' at byte 0"
            ),
            Detail::Overflow => write!(
                f,
                "integer too large at byte {pos}: a UUID is less than 2^128"
            ),
            Detail::LeadingZero => write!(f, "leading zero at byte {pos}"),
            Detail::Empty => f.write_str("empty input"),
            Detail::MissingDigits => write!(
                f,
                "missing digits at byte {pos}: expected a decimal digit, found end of input"
            ),
            Detail::Form { found, expected } => write!(
                f,
                "{found} form not accepted at byte {pos}: expected the {expected} form"
            ),
            Detail::TooLarge { max, first } => {
                write!(f, "value too large at byte {pos}: a UUID is at most {max:?}")?;
                match first {
                    Some(c) => write!(f, " (the first character at most {:?})", c as char),
                    None => f.write_str(" (2^128 - 1)"),
                }
            }
            Detail::Padding { ch, bits } => write!(
                f,
                "invalid character {:?} at byte {pos}: its low {bits} bits are padding and must be zero",
                ch as char
            ),
            Detail::Crockford { ch } => write!(
                f,
                "invalid character {:?} at byte {pos}: Crockford's base32 has no I, L, O or U \
                 (it reads I and L as 1, O as 0; U is left out)",
                ch as char
            ),
            Detail::TypeIdPrefix { rule } => match rule {
                PrefixRule::TooLong { len } => write!(
                    f,
                    "invalid TypeID prefix at byte {pos}: {len} characters, at most 63 allowed"
                ),
                PrefixRule::Char { ch, byte } => {
                    match ch {
                        Some(c) => write!(f, "invalid character {c:?} at byte {pos}")?,
                        None => write!(f, "invalid byte 0x{byte:02x} at byte {pos}")?,
                    }
                    f.write_str(" in a TypeID prefix: expected a-z or '_'")
                }
                PrefixRule::Leading => write!(
                    f,
                    "invalid TypeID prefix at byte {pos}: it starts with '_' (a prefix starts and ends with a-z)"
                ),
                PrefixRule::Trailing => write!(
                    f,
                    "invalid TypeID prefix at byte {pos}: it ends with '_' (a prefix starts and ends with a-z)"
                ),
                PrefixRule::EmptyWithSeparator => write!(
                    f,
                    "invalid TypeID prefix at byte {pos}: an empty prefix is written without the '_'"
                ),
            },
            Detail::SuffixLength { found } => write!(
                f,
                "invalid length of the TypeID suffix at byte {pos}: expected 26 characters, found {found}"
            ),
            Detail::WrongType { expected } => {
                if expected.is_empty() {
                    write!(f, "wrong TypeID type at byte {pos}: expected no prefix")
                } else {
                    write!(f, "wrong TypeID type at byte {pos}: expected the prefix {expected:?}")
                }
            }
        }
    }
}

// `core::error::Error` (Rust 1.81) is what `std::error::Error` re-exports, so no_std users get
// the trait too.
impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use crate::Uuid;

    /// The written-out `PartialEq` is the derived one: two errors are equal exactly when every
    /// field is (which the derived `Debug` shows), over errors of every kind and position.
    #[test]
    fn equality_is_field_for_field() {
        let good = "67e55044-10b1-426f-9247-bb680e5fe0c8";
        let mut inputs: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"67e55044".to_vec(),
            b"{67e55044-10b1-426f-9247-bb680e5fe0c8".to_vec(),
            b"urn:uuix:67e55044-10b1-426f-9247-bb680e5fe0c8".to_vec(),
            b"67e55044-10b1-426f-9247-bb680e5fe0c}".to_vec(),
        ];
        for pos in [0, 7, 8, 13, 20, 35] {
            for b in [b'g', b'G', b'-', b'0', 0xc3, 0xff, b'}'] {
                let mut s = good.as_bytes().to_vec();
                s[pos] = b;
                inputs.push(s.clone());
                s.push(0xa9);
                inputs.push(s);
            }
        }
        let errors: Vec<crate::Error> = inputs
            .iter()
            .filter_map(|s| Uuid::try_parse_ascii(s).err())
            .collect();
        assert!(errors.len() > 60);
        for a in &errors {
            for b in &errors {
                assert_eq!(a == b, format!("{a:?}") == format!("{b:?}"), "{a:?} {b:?}");
            }
        }
    }
}

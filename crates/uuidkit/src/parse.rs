//! Reading the four text forms of RFC 9562 §4 (hyphenated, simple, braced, URN): the public
//! API. At compile time (`Uuid::parse_str_const`, [`uuid!`](crate::uuid!)) it runs the scalar
//! `const fn` code (`scalar.rs`); every run-time entry point (`Uuid::parse_str`, `try_parse`,
//! `FromStr`, `TryFrom<&str>`, ...) calls the CPU's SIMD level (`simd/`). Either way a rejected
//! input gets its error from the same slow path (`diagnose.rs`, where the rules for choosing
//! the message are written down), so the errors are the same everywhere.

use crate::error::Error;
use crate::{scalar, simd, Uuid};

impl Uuid {
    /// Parses the hyphenated, simple, braced or URN form; hex digits in either case.
    ///
    /// Nothing else is accepted: no surrounding whitespace, no `0x`, no other hyphens.
    ///
    /// Uses the CPU's SIMD instructions, as do [`str::parse`], `Uuid::try_from(&str)`,
    /// [`Uuid::try_parse`] and [`Uuid::try_parse_ascii`] (all the same parser). In `const`
    /// context use [`Uuid::parse_str_const`] or [`uuid!`](crate::uuid!), which give the same
    /// results and errors.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// let a = Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap();
    /// assert_eq!(Uuid::parse_str("67E5504410B1426F9247BB680E5FE0C8").unwrap(), a);
    /// assert_eq!(Uuid::parse_str("{67e55044-10b1-426f-9247-bb680e5fe0c8}").unwrap(), a);
    /// assert_eq!(Uuid::parse_str("URN:UUID:67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap(), a);
    /// assert!(Uuid::parse_str(" 67e55044-10b1-426f-9247-bb680e5fe0c8").is_err());
    /// assert_eq!("67e55044-10b1-426f-9247-bb680e5fe0c8".parse::<Uuid>(), Ok(a));
    /// ```
    #[inline]
    pub fn parse_str(s: &str) -> Result<Uuid, Error> {
        simd::active().parse(s.as_bytes())
    }

    /// [`Uuid::parse_str`] as a `const fn`, for `const` items and other compile-time contexts
    /// (it is what [`uuid!`](crate::uuid!) uses): the same results and errors, computed with
    /// scalar code (two digits at a time in the byte lanes of a `u16`). At run time
    /// [`Uuid::parse_str`] is faster.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// const A: Uuid = match Uuid::parse_str_const("67e55044-10b1-426f-9247-bb680e5fe0c8") {
    ///     Ok(u) => u,
    ///     Err(_) => panic!("not a UUID"),
    /// };
    /// assert_eq!(Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8"), Ok(A));
    /// const E: Result<Uuid, uuidkit::Error> = Uuid::parse_str_const("67e55044-10b1-426f-9247-bb680e5fe0cX");
    /// assert_eq!(E.unwrap_err().to_string(), "invalid character 'X' at byte 35: expected a hexadecimal digit");
    /// assert_eq!(E, Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0cX"));
    /// ```
    #[inline]
    pub const fn parse_str_const(s: &str) -> Result<Uuid, Error> {
        scalar::parse(s.as_bytes())
    }

    /// Like [`Uuid::parse_str`] on bytes that need not be UTF-8 (same results and errors).
    ///
    /// ```
    /// let e = uuidkit::Uuid::try_parse_ascii(b"67e55044-10b1-426f-9247-bb680e5fe0c\xff").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid byte 0xff at byte 35: expected a hexadecimal digit");
    /// ```
    #[inline]
    pub fn try_parse_ascii(s: &[u8]) -> Result<Uuid, Error> {
        simd::active().parse(s)
    }

    /// Parses only the 36-byte hyphenated form, using the CPU's SIMD instructions.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::parse_hyphenated("67e5504410b1426f9247bb680e5fe0c8").is_err());
    /// assert!(uuidkit::Uuid::parse_hyphenated("67e55044-10b1-426f-9247-bb680e5fe0c8").is_ok());
    /// ```
    #[inline]
    pub fn parse_hyphenated(s: &str) -> Result<Uuid, Error> {
        simd::active().hyphenated(s.as_bytes())
    }

    /// Parses only the 32-digit simple form, using the CPU's SIMD instructions.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::parse_simple("67e5504410b1426f9247bb680e5fe0c8").is_ok());
    /// ```
    #[inline]
    pub fn parse_simple(s: &str) -> Result<Uuid, Error> {
        simd::active().simple(s.as_bytes())
    }
}

impl core::str::FromStr for Uuid {
    type Err = Error;
    #[inline]
    fn from_str(s: &str) -> Result<Self, Error> {
        simd::active().parse(s.as_bytes())
    }
}

impl TryFrom<&str> for Uuid {
    type Error = Error;
    #[inline]
    fn try_from(s: &str) -> Result<Self, Error> {
        simd::active().parse(s.as_bytes())
    }
}

/// A UUID literal checked at compile time.
///
/// ```
/// use uuidkit::{uuid, Uuid};
/// const ID: Uuid = uuid!("67e55044-10b1-426f-9247-bb680e5fe0c8");
/// assert_eq!(ID.to_string(), "67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// A bad literal does not compile, whatever is wrong with it: an invalid character,
///
/// ```compile_fail
/// const BAD: uuidkit::Uuid = uuidkit::uuid!("67e55044-10b1-426f-9247-bb680e5fe0cX");
/// ```
///
/// a wrong length (also outside a `const` item),
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("67e55044-10b1-426f-9247-bb680e5fe0c");
/// ```
///
/// a missing hyphen, an unclosed brace, a misspelt URN prefix, surrounding whitespace:
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("67e55044010b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("{67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// ```compile_fail
/// let bad = uuidkit::uuid!("urn:uid:67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// ```compile_fail
/// let bad = uuidkit::uuid!(" 67e55044-10b1-426f-9247-bb680e5fe0c8");
/// ```
///
/// The same literals are accepted in any of the four forms:
///
/// ```
/// use uuidkit::{uuid, Uuid};
/// const A: Uuid = uuid!("67e5504410b1426f9247bb680e5fe0c8");
/// const B: Uuid = uuid!("{67E55044-10B1-426F-9247-BB680E5FE0C8}");
/// const C: Uuid = uuid!("urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8");
/// assert!(A == B && B == C);
/// ```
#[macro_export]
macro_rules! uuid {
    ($s:expr $(,)?) => {{
        const OUTPUT: $crate::Uuid = match $crate::Uuid::parse_str_const($s) {
            ::core::result::Result::Ok(u) => u,
            ::core::result::Result::Err(e) => panic!("{}", e.kind_str()),
        };
        OUTPUT
    }};
}

//! RFC 4530: the LDAP UUID syntax, the `uuidMatch` and `uuidOrderingMatch` matching rules, and
//! the `entryUUID` operational attribute.
//!
//! The schema descriptions are given as constants for publication in a server's subschema; the
//! functions validate a value of the UUID syntax and evaluate the two matching rules on an
//! assertion value and a stored attribute value, both in their LDAP string encoding.
//!
//! ```
//! use uuidkit::ldap;
//! assert_eq!(ldap::uuid_match(b"597AE2F6-16A6-1027-98F4-D28B5365DC14",
//!                             b"597ae2f6-16a6-1027-98f4-d28b5365dc14"), Ok(true));
//! let e = ldap::uuid_match(b"597ae2f616a6102798f4d28b5365dc14",
//!                          b"597ae2f6-16a6-1027-98f4-d28b5365dc14").unwrap_err();
//! assert_eq!(e.to_string(),
//!            "assertion: simple form not accepted at byte 0: expected the hyphenated form");
//! ```

use core::cmp::Ordering;
use core::fmt;

use crate::error::{Detail, Error};
use crate::scalar::{parse_fast, parse_hyphenated};
use crate::Uuid;

// The four descriptions of RFC 4530 §2.1–§2.4 (RFC 4512 §4.1 format). The RFC wraps the longer
// ones over several lines "for readability" (§1); a server's subschema holds each on one line,
// so here every line break with its indentation is replaced by one space. Tokens, their order,
// quoting and the single spaces between them are exactly the RFC's.

/// The object identifier of the UUID syntax (RFC 4530 §2.1).
///
/// ```
/// use uuidkit::ldap;
/// assert_eq!(ldap::SYNTAX_UUID_OID, "1.3.6.1.1.16.1");
/// // Both matching rules and the attribute type use this syntax.
/// let syntax = format!("SYNTAX {} ", ldap::SYNTAX_UUID_OID);
/// assert!(ldap::SCHEMA[1..].iter().all(|d| d.contains(&syntax)));
/// ```
pub const SYNTAX_UUID_OID: &str = "1.3.6.1.1.16.1";
/// The object identifier of the `uuidMatch` rule (RFC 4530 §2.2).
///
/// ```
/// use uuidkit::ldap;
/// assert_eq!(ldap::UUID_MATCH_OID, "1.3.6.1.1.16.2");
/// assert!(ldap::UUID_MATCH.starts_with(&format!("( {} ", ldap::UUID_MATCH_OID)));
/// ```
pub const UUID_MATCH_OID: &str = "1.3.6.1.1.16.2";
/// The object identifier of the `uuidOrderingMatch` rule (RFC 4530 §2.3).
///
/// ```
/// use uuidkit::ldap;
/// assert_eq!(ldap::UUID_ORDERING_MATCH_OID, "1.3.6.1.1.16.3");
/// assert!(ldap::UUID_ORDERING_MATCH.starts_with(&format!("( {} ", ldap::UUID_ORDERING_MATCH_OID)));
/// ```
pub const UUID_ORDERING_MATCH_OID: &str = "1.3.6.1.1.16.3";
/// The object identifier of the `entryUUID` attribute type (RFC 4530 §2.4).
///
/// ```
/// use uuidkit::ldap;
/// assert_eq!(ldap::ENTRY_UUID_OID, "1.3.6.1.1.16.4");
/// assert!(ldap::ENTRY_UUID.starts_with(&format!("( {} ", ldap::ENTRY_UUID_OID)));
/// ```
pub const ENTRY_UUID_OID: &str = "1.3.6.1.1.16.4";

/// The LDAP syntax description of the UUID syntax, as RFC 4530 §2.1 publishes it.
///
/// ```
/// assert_eq!(uuidkit::ldap::SYNTAX_UUID, "( 1.3.6.1.1.16.1 DESC 'UUID' )");
/// ```
pub const SYNTAX_UUID: &str = "( 1.3.6.1.1.16.1 DESC 'UUID' )";

/// The matching rule description of `uuidMatch` (RFC 4530 §2.2), on one line.
///
/// ```
/// assert_eq!(
///     uuidkit::ldap::UUID_MATCH,
///     "( 1.3.6.1.1.16.2 NAME 'uuidMatch' SYNTAX 1.3.6.1.1.16.1 )"
/// );
/// ```
pub const UUID_MATCH: &str = "( 1.3.6.1.1.16.2 NAME 'uuidMatch' SYNTAX 1.3.6.1.1.16.1 )";

/// The matching rule description of `uuidOrderingMatch` (RFC 4530 §2.3), on one line.
///
/// ```
/// // Source: RFC 4530 §2.3, its two lines joined with one space.
/// assert_eq!(
///     uuidkit::ldap::UUID_ORDERING_MATCH,
///     "( 1.3.6.1.1.16.3 NAME 'uuidOrderingMatch' SYNTAX 1.3.6.1.1.16.1 )"
/// );
/// ```
pub const UUID_ORDERING_MATCH: &str =
    "( 1.3.6.1.1.16.3 NAME 'uuidOrderingMatch' SYNTAX 1.3.6.1.1.16.1 )";

/// The attribute type description of `entryUUID` (RFC 4530 §2.4), its eight RFC lines joined
/// into one with single spaces.
///
/// ```
/// assert!(uuidkit::ldap::ENTRY_UUID.starts_with("( 1.3.6.1.1.16.4 NAME 'entryUUID' DESC"));
/// ```
pub const ENTRY_UUID: &str = "( 1.3.6.1.1.16.4 NAME 'entryUUID' DESC 'UUID of the entry' \
EQUALITY uuidMatch ORDERING uuidOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE \
NO-USER-MODIFICATION USAGE directoryOperation )";

/// The four descriptions in the order RFC 4530 §2 gives them (and a schema needs them: the
/// syntax before the rules that use it, the rules before the attribute type).
///
/// ```
/// for d in uuidkit::ldap::SCHEMA {
///     assert!(d.starts_with("( 1.3.6.1.1.16.") && d.ends_with(" )"));
/// }
/// ```
pub const SCHEMA: [&str; 4] = [SYNTAX_UUID, UUID_MATCH, UUID_ORDERING_MATCH, ENTRY_UUID];

/// Checks a value of the LDAP UUID syntax and returns the UUID (RFC 4530 §2.1).
///
/// The syntax is the string representation of RFC 4122 §3: exactly the 36-byte hyphenated
/// form. Its grammar allows hex digits `a`–`f` and `A`–`F` ("case insensitive on input"), so
/// upper, lower and mixed case are all accepted. The simple, braced and URN forms are rejected
/// with an [`ErrorKind::Form`](crate::ErrorKind::Form) error naming the form found; any other
/// bad input gets the hyphenated parser's error (length, character, hyphen) with its position.
///
/// ```
/// use uuidkit::{ldap, ErrorKind};
/// // Source: RFC 4530 §2.1 (example value)
/// let u = ldap::validate(b"597ae2f6-16a6-1027-98f4-d28b5365dc14")?;
/// assert_eq!(ldap::validate(b"597AE2F6-16A6-1027-98F4-D28B5365DC14")?, u);
/// let e = ldap::validate(b"{597ae2f6-16a6-1027-98f4-d28b5365dc14}").unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::Form);
/// assert_eq!(e.to_string(), "braced form not accepted at byte 0: expected the hyphenated form");
/// # Ok::<(), uuidkit::Error>(())
/// ```
pub const fn validate(value: &[u8]) -> Result<Uuid, Error> {
    match parse_hyphenated(value) {
        Ok(u) => Ok(u),
        Err(e) => {
            let found = match value.len() {
                32 => "simple",
                38 => "braced",
                45 => "URN",
                _ => return Err(e),
            };
            match parse_fast(value) {
                Some(_) => Err(Error::new(
                    Detail::Form {
                        found,
                        expected: "hyphenated",
                    },
                    0,
                )),
                None => Err(e),
            }
        }
    }
}

/// Which operand of a matching rule was not a valid UUID.
///
/// ```
/// use uuidkit::ldap::{self, Side};
/// let good = b"597ae2f6-16a6-1027-98f4-d28b5365dc14";
/// let bad = b"597ae2f6";
/// assert_eq!(ldap::uuid_match(bad, good).unwrap_err().side(), Side::Assertion);
/// assert_eq!(ldap::uuid_match(good, bad).unwrap_err().side(), Side::Value);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The assertion value (from the search filter).
    Assertion,
    /// The stored attribute value.
    Value,
}

impl Side {
    /// `assertion` or `value`.
    ///
    /// ```
    /// use uuidkit::ldap::{self, Side};
    /// assert_eq!(Side::Assertion.as_str(), "assertion");
    /// assert_eq!(Side::Value.as_str(), "value");
    /// // A `MatchError`'s text starts with it.
    /// let e = ldap::uuid_match(b"x", b"597ae2f6-16a6-1027-98f4-d28b5365dc14").unwrap_err();
    /// assert!(e.to_string().starts_with(e.side().as_str()));
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::Assertion => "assertion",
            Side::Value => "value",
        }
    }
}

/// A matching rule could not be evaluated: one operand is not of the UUID syntax.
///
/// In LDAP terms the filter item evaluates to Undefined (RFC 4511 §4.5.1.7).
///
/// ```
/// use uuidkit::ldap::{self, Side};
/// let e = ldap::uuid_ordering_match(b"597ae2f6-16a6-1027-98f4-d28b5365dc14", b"x").unwrap_err();
/// assert_eq!(e.side(), Side::Value);
/// assert!(e.error().is_length());
/// assert_eq!(e.to_string(), "value: invalid length: expected 36 bytes, found 1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchError {
    side: Side,
    error: Error,
}

impl MatchError {
    /// Which operand was bad.
    ///
    /// When both are bad the assertion is reported: it alone makes the filter item undefined.
    ///
    /// ```
    /// use uuidkit::ldap::{self, Side};
    /// assert_eq!(ldap::uuid_ordering_rule(b"x", b"y").unwrap_err().side(), Side::Assertion);
    /// ```
    pub const fn side(&self) -> Side {
        self.side
    }
    /// What was wrong with it (positions are within that operand).
    ///
    /// ```
    /// use uuidkit::ldap;
    /// let good = b"597ae2f6-16a6-1027-98f4-d28b5365dc14";
    /// let e = ldap::uuid_match(good, b"597ae2f6-16a6-1027-98f4-d28b5365dc1g").unwrap_err();
    /// assert!(e.error().is_invalid_char());
    /// assert_eq!(e.error().position(), 35); // the `g`, counted within the value
    /// ```
    pub const fn error(&self) -> Error {
        self.error
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.side.as_str(), self.error)
    }
}

impl core::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Validates both operands, the assertion first (a bad assertion is reported even when the
/// value is bad too, as it makes the whole filter item undefined).
const fn operands(assertion: &[u8], value: &[u8]) -> Result<(Uuid, Uuid), MatchError> {
    let a = match validate(assertion) {
        Ok(a) => a,
        Err(error) => {
            return Err(MatchError {
                side: Side::Assertion,
                error,
            })
        }
    };
    match validate(value) {
        Ok(v) => Ok((a, v)),
        Err(error) => Err(MatchError {
            side: Side::Value,
            error,
        }),
    }
}

/// Evaluates `uuidMatch` (RFC 4530 §2.2): TRUE iff the two UUIDs are the same 16 octets
/// (`octetStringMatch` semantics), so hex case does not matter.
///
/// ```
/// use uuidkit::ldap;
/// let a = b"597ae2f6-16a6-1027-98f4-d28b5365dc14";
/// assert_eq!(ldap::uuid_match(a, b"597AE2F6-16a6-1027-98F4-D28B5365DC14"), Ok(true));
/// assert_eq!(ldap::uuid_match(a, b"597ae2f6-16a6-1027-98f4-d28b5365dc15"), Ok(false));
/// ```
pub const fn uuid_match(assertion: &[u8], value: &[u8]) -> Result<bool, MatchError> {
    match operands(assertion, value) {
        Ok((a, v)) => Ok(a.as_u128() == v.as_u128()),
        Err(e) => Err(e),
    }
}

/// The order of the stored **value relative to the assertion** under `uuidOrderingMatch`
/// (RFC 4530 §2.3): octet-by-octet unsigned comparison of the 16 bytes
/// (`octetStringOrderingMatch`, RFC 4517 §4.2.28), which is also [`Uuid`]'s `Ord`.
///
/// `Ordering::Less` means the value sorts before the assertion, which is exactly when the
/// matching rule itself is TRUE; see [`uuid_ordering_rule`].
///
/// ```
/// use core::cmp::Ordering;
/// use uuidkit::ldap;
/// let nil = b"00000000-0000-0000-0000-000000000000";
/// let max = b"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF";
/// // assertion = max, value = nil: the value sorts first.
/// assert_eq!(ldap::uuid_ordering_match(max, nil), Ok(Ordering::Less));
/// ```
pub const fn uuid_ordering_match(assertion: &[u8], value: &[u8]) -> Result<Ordering, MatchError> {
    match operands(assertion, value) {
        Ok((a, v)) => {
            // Big-endian bytes: integer order is octet order.
            let (a, v) = (a.as_u128(), v.as_u128());
            Ok(if v < a {
                Ordering::Less
            } else if v > a {
                Ordering::Greater
            } else {
                Ordering::Equal
            })
        }
        Err(e) => Err(e),
    }
}

/// The truth value of the `uuidOrderingMatch` rule (RFC 4530 §2.3): like
/// `octetStringOrderingMatch` (RFC 4517 §4.2.28) it is TRUE iff the stored value appears
/// **earlier** in the collation order than the assertion value, i.e. `value < assertion`.
///
/// An LDAP server evaluates `(entryUUID>=A)` as NOT this rule and `(entryUUID<=A)` as this rule
/// OR `uuidMatch` (RFC 4511 §4.5.1.7.3–4).
///
/// ```
/// use uuidkit::ldap;
/// let low = b"00000000-0000-0000-0000-000000000001";
/// let high = b"00000000-0000-0000-0000-000000000002";
/// assert_eq!(ldap::uuid_ordering_rule(high, low), Ok(true)); // value low < assertion high
/// assert_eq!(ldap::uuid_ordering_rule(low, high), Ok(false));
/// assert_eq!(ldap::uuid_ordering_rule(low, low), Ok(false));
/// ```
pub const fn uuid_ordering_rule(assertion: &[u8], value: &[u8]) -> Result<bool, MatchError> {
    match uuid_ordering_match(assertion, value) {
        Ok(o) => Ok(matches!(o, Ordering::Less)),
        Err(e) => Err(e),
    }
}

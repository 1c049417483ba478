//! RFC 4530: the schema constants against the RFC text, the UUID syntax, and the truth tables
//! of uuidMatch and uuidOrderingMatch.

use std::cmp::Ordering;
use std::path::PathBuf;

use uuidkit::ldap::{self, MatchError, Side};
use uuidkit::{ErrorKind, Uuid};

/// The RFC text from `shared/specs/` beside the clone: `$CARGO_MANIFEST_DIR/../../../shared`
/// in CI; a worktree nested deeper finds it further up, so every ancestor is tried, and
/// `UUIDKIT_SPECS` names the folder for any other layout. Missing, the test fails: a
/// comparison with the RFC that cannot run is not a pass.
fn rfc4530() -> String {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let named = std::env::var_os("UUIDKIT_SPECS").map(PathBuf::from);
    let found = named.iter().map(|d| d.join("rfc4530.txt")).chain(
        manifest
            .ancestors()
            .skip(2)
            .map(|d| d.join("shared/specs/rfc4530.txt")),
    );
    for path in found {
        if let Ok(t) = std::fs::read_to_string(&path) {
            return t;
        }
    }
    panic!(
        "shared/specs/rfc4530.txt not found above {} (set UUIDKIT_SPECS to the folder that holds it)",
        manifest.display()
    );
}

/// Every description in the RFC that starts `( 1.3.6.1.1.16.`, with each line break and the
/// next line's indentation replaced by one space (the RFC wraps them "for readability", §1).
fn descriptions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        match current.as_mut() {
            None if t.starts_with("( 1.3.6.1.1.16.") => current = Some(t.to_string()),
            None => {}
            Some(d) => {
                d.push(' ');
                d.push_str(t);
            }
        }
        if current.as_deref().is_some_and(|d| d.ends_with(" )")) {
            out.extend(current.take());
        }
    }
    out
}

#[test]
fn schema_constants_are_the_rfc_text() {
    // Source: RFC 4530 §2.1, §2.2, §2.3, §2.4
    for d in ldap::SCHEMA {
        assert!(!d.contains("  ") && !d.contains('\n'), "{d:?}");
    }
    let text = rfc4530();
    let found = descriptions(&text);
    assert_eq!(found.len(), 4, "{found:#?}");
    for (ours, rfc) in ldap::SCHEMA.iter().zip(&found) {
        assert_eq!(ours, rfc);
    }
    // The OIDs of §4.2–§4.5.
    for (oid, d) in [
        ldap::SYNTAX_UUID_OID,
        ldap::UUID_MATCH_OID,
        ldap::UUID_ORDERING_MATCH_OID,
        ldap::ENTRY_UUID_OID,
    ]
    .iter()
    .zip(ldap::SCHEMA)
    {
        assert!(text.contains(&format!("Object Identifier: {oid}")));
        assert!(d.starts_with(&format!("( {oid} ")));
    }
}

#[test]
fn schema_constants_spelled_out() {
    // Source: RFC 4530 §2.1–§2.4, wrapped lines joined with single spaces.
    assert_eq!(ldap::SYNTAX_UUID, "( 1.3.6.1.1.16.1 DESC 'UUID' )");
    assert_eq!(
        ldap::UUID_MATCH,
        "( 1.3.6.1.1.16.2 NAME 'uuidMatch' SYNTAX 1.3.6.1.1.16.1 )"
    );
    assert_eq!(
        ldap::UUID_ORDERING_MATCH,
        "( 1.3.6.1.1.16.3 NAME 'uuidOrderingMatch' SYNTAX 1.3.6.1.1.16.1 )"
    );
    assert_eq!(
        ldap::ENTRY_UUID,
        "( 1.3.6.1.1.16.4 NAME 'entryUUID' DESC 'UUID of the entry' EQUALITY uuidMatch \
         ORDERING uuidOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE NO-USER-MODIFICATION \
         USAGE directoryOperation )"
    );
}

#[test]
fn validate_accepts_the_rfc4122_string_in_any_case() {
    // Source: RFC 4530 §2.1 (example value); RFC 4122 §3 (hex digits case-insensitive on input)
    let want = Uuid::from_u128(0x597ae2f6_16a6_1027_98f4_d28b5365dc14);
    for v in [
        "597ae2f6-16a6-1027-98f4-d28b5365dc14",
        "597AE2F6-16A6-1027-98F4-D28B5365DC14",
        "597Ae2F6-16a6-1027-98F4-d28B5365dC14",
    ] {
        assert_eq!(ldap::validate(v.as_bytes()), Ok(want), "{v}");
    }
    assert_eq!(
        ldap::validate(b"00000000-0000-0000-0000-000000000000"),
        Ok(Uuid::NIL)
    );
    assert_eq!(
        ldap::validate(b"ffffffff-FFFF-ffff-FFFF-ffffffffffff"),
        Ok(Uuid::MAX)
    );
}

#[test]
fn validate_errors() {
    use ErrorKind::*;
    let table: [(&[u8], ErrorKind, usize, &str); 10] = [
        (
            b"597ae2f616a6102798f4d28b5365dc14",
            Form,
            0,
            "simple form not accepted at byte 0: expected the hyphenated form",
        ),
        (
            b"{597ae2f6-16a6-1027-98f4-d28b5365dc14}",
            Form,
            0,
            "braced form not accepted at byte 0: expected the hyphenated form",
        ),
        (
            b"urn:uuid:597ae2f6-16a6-1027-98f4-d28b5365dc14",
            Form,
            0,
            "URN form not accepted at byte 0: expected the hyphenated form",
        ),
        (b"", Length, 0, "invalid length: expected 36 bytes, found 0"),
        (
            b" 597ae2f6-16a6-1027-98f4-d28b5365dc14",
            Length,
            36,
            "invalid length: expected 36 bytes, found 37",
        ),
        (
            b"597ae2f6-16a6-1027-98f4-d28b5365dc1",
            Length,
            35,
            "invalid length: expected 36 bytes, found 35",
        ),
        (
            b"597ae2f6-16a6-1027-98f4-d28b5365dcxx",
            Char,
            34,
            "invalid character 'x' at byte 34: expected a hexadecimal digit",
        ),
        (
            b"597ae2f6016a6-1027-98f4-d28b5365dc14",
            Hyphen,
            8,
            "missing hyphen at byte 8",
        ),
        (
            // 32 bytes, not hex: not the simple form, so the length is the complaint.
            b"597ae2f616a6102798f4d28b5365dcXX",
            Length,
            32,
            "invalid length: expected 36 bytes, found 32",
        ),
        (
            b"597ae2f6-16a6-1027-98f4-d28b5365dc1\xff",
            Char,
            35,
            "invalid byte 0xff at byte 35: expected a hexadecimal digit",
        ),
    ];
    for (input, kind, pos, msg) in table {
        let e = ldap::validate(input).expect_err(&String::from_utf8_lossy(input));
        assert_eq!(
            (e.kind(), e.position(), e.to_string().as_str()),
            (kind, pos, msg)
        );
    }
}

const NIL: &[u8] = b"00000000-0000-0000-0000-000000000000";
const MAX_LO: &[u8] = b"ffffffff-ffff-ffff-ffff-ffffffffffff";
const MAX_UP: &[u8] = b"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF";
const A_LO: &[u8] = b"597ae2f6-16a6-1027-98f4-d28b5365dc14";
const A_UP: &[u8] = b"597AE2F6-16A6-1027-98F4-D28B5365DC14";
// Differs from A only in the last octet (0x15 > 0x14).
const A_NEXT: &[u8] = b"597ae2f6-16a6-1027-98f4-d28b5365dc15";
// Lower than A in the first octet (0x0f < 0x59) though higher in every other.
const LOW_FIRST: &[u8] = b"0fffffff-ffff-ffff-ffff-ffffffffffff";
// 0x80 in the first octet: unsigned octet order puts it after 0x59 (a signed compare would not).
const HIGH_BIT: &[u8] = b"80000000-0000-0000-0000-000000000000";

#[test]
fn uuid_match_truth_table() {
    // Source: RFC 4530 §2.2 (octetStringMatch semantics: equal iff the 16 octets are equal)
    let table: [(&[u8], &[u8], bool); 9] = [
        (A_LO, A_LO, true),
        (A_LO, A_UP, true),
        (A_UP, A_LO, true),
        (MAX_LO, MAX_UP, true),
        (NIL, NIL, true),
        (NIL, MAX_LO, false),
        (A_LO, A_NEXT, false),
        (A_NEXT, A_UP, false),
        (HIGH_BIT, NIL, false),
    ];
    for (assertion, value, want) in table {
        assert_eq!(
            ldap::uuid_match(assertion, value),
            Ok(want),
            "{} vs {}",
            String::from_utf8_lossy(assertion),
            String::from_utf8_lossy(value)
        );
    }
}

#[test]
fn uuid_ordering_truth_table() {
    // Source: RFC 4530 §2.3 and RFC 4517 §4.2.28: TRUE iff the attribute value appears earlier
    // in octet order than the assertion value.
    use Ordering::*;
    // (assertion, value, order of value relative to assertion)
    let table: [(&[u8], &[u8], Ordering); 12] = [
        (MAX_LO, NIL, Less),
        (NIL, MAX_UP, Greater),
        (NIL, NIL, Equal),
        (MAX_UP, MAX_LO, Equal),
        (A_LO, A_UP, Equal),
        (A_UP, A_NEXT, Greater),
        (A_NEXT, A_UP, Less),
        (A_LO, LOW_FIRST, Less),
        (LOW_FIRST, A_LO, Greater),
        (A_LO, HIGH_BIT, Greater),
        (HIGH_BIT, A_UP, Less),
        (HIGH_BIT, MAX_LO, Greater),
    ];
    for (assertion, value, want) in table {
        let what = format!(
            "assertion {} value {}",
            String::from_utf8_lossy(assertion),
            String::from_utf8_lossy(value)
        );
        assert_eq!(
            ldap::uuid_ordering_match(assertion, value),
            Ok(want),
            "{what}"
        );
        assert_eq!(
            ldap::uuid_ordering_rule(assertion, value),
            Ok(want == Less),
            "{what}"
        );
        // Same order as Uuid's Ord on the parsed values.
        let (a, v) = (
            ldap::validate(assertion).unwrap(),
            ldap::validate(value).unwrap(),
        );
        assert_eq!(v.cmp(&a), want, "{what}");
    }
}

#[test]
fn bad_operands_name_their_side() {
    let bad = b"597ae2f616a6102798f4d28b5365dc14";
    let check = |r: Result<(), MatchError>, side: Side, msg: &str| {
        let e = r.unwrap_err();
        assert_eq!(e.side(), side);
        assert_eq!(e.to_string(), msg);
        #[cfg(feature = "std")]
        {
            let src = std::error::Error::source(&e).expect("the Error is the source");
            assert_eq!(src.to_string(), e.error().to_string());
        }
    };
    let form = "simple form not accepted at byte 0: expected the hyphenated form";
    check(
        ldap::uuid_match(bad, A_LO).map(drop),
        Side::Assertion,
        &format!("assertion: {form}"),
    );
    check(
        ldap::uuid_match(A_LO, bad).map(drop),
        Side::Value,
        &format!("value: {form}"),
    );
    check(
        ldap::uuid_ordering_match(A_LO, b"").map(drop),
        Side::Value,
        "value: invalid length: expected 36 bytes, found 0",
    );
    check(
        ldap::uuid_ordering_rule(b"x", A_LO).map(drop),
        Side::Assertion,
        "assertion: invalid length: expected 36 bytes, found 1",
    );
    // Both bad: the assertion is reported.
    check(
        ldap::uuid_ordering_match(b"x", b"").map(drop),
        Side::Assertion,
        "assertion: invalid length: expected 36 bytes, found 1",
    );
}

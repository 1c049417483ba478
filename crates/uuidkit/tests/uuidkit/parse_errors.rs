//! What the parser says about bad input: a table of invalid inputs, each with the expected
//! [`ErrorKind`], byte position and exact `Display` text, and a property test that no input of
//! any bytes makes any parse function panic or report a position past the input.
//!
//! The expected texts follow the rules written down in the module documentation of
//! `src/parse.rs` (an error names the first problem in the form the input evidently means, at
//! the offending byte or where the missing thing should stand).

use proptest::prelude::*;
use uuidkit::{Error, ErrorKind, Uuid};

/// A valid UUID in each form, to be broken below.
const H: &str = "67e55044-10b1-426f-9247-bb680e5fe0c8";
const S: &str = "67e5504410b1426f9247bb680e5fe0c8";

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// `H` with byte `at` replaced by `b`.
fn h_with(at: usize, b: u8) -> Vec<u8> {
    let mut v = H.as_bytes().to_vec();
    v[at] = b;
    v
}

/// `H` without byte `at`.
fn h_without(at: usize) -> Vec<u8> {
    let mut v = H.as_bytes().to_vec();
    v.remove(at);
    v
}

/// `H` with the hyphen at `at` swapped with its left neighbour.
fn h_hyphen_left(at: usize) -> Vec<u8> {
    let mut v = H.as_bytes().to_vec();
    v.swap(at - 1, at);
    v
}

struct Case {
    what: &'static str,
    input: Vec<u8>,
    kind: ErrorKind,
    pos: usize,
    text: String,
}

fn case(what: &'static str, input: Vec<u8>, kind: ErrorKind, pos: usize, text: &str) -> Case {
    Case {
        what,
        input,
        kind,
        pos,
        text: text.to_owned(),
    }
}

fn table() -> Vec<Case> {
    use ErrorKind::*;
    let h = H.as_bytes();
    let s = S.as_bytes();
    let mib = 1 << 20;
    vec![
        // ---- lengths near 32, 36, 38, 45 ------------------------------------------------
        case(
            "empty",
            vec![],
            Length,
            0,
            "invalid length: expected 32, 36, 38 or 45 bytes, found 0",
        ),
        case(
            "31 digits",
            s[..31].to_vec(),
            Length,
            31,
            "invalid length: expected 32 bytes, found 31",
        ),
        case(
            "33 digits",
            cat(&[s, b"0"]),
            Length,
            32,
            "invalid length: expected 32 bytes, found 33",
        ),
        case(
            "35: hyphenated, last digit missing",
            h[..35].to_vec(),
            GroupLength,
            24,
            "invalid group length: group 5 at byte 24 has 11 digits, expected 12",
        ),
        case(
            "37: hyphenated, a digit too many",
            cat(&[h, b"0"]),
            GroupLength,
            24,
            "invalid group length: group 5 at byte 24 has 13 digits, expected 12",
        ),
        case(
            "37: braced, last digit missing",
            cat(&[b"{", &h[..35], b"}"]),
            GroupLength,
            25,
            "invalid group length: group 5 at byte 25 has 11 digits, expected 12",
        ),
        case(
            "39: braced, a digit too many",
            cat(&[b"{", h, b"0}"]),
            GroupLength,
            25,
            "invalid group length: group 5 at byte 25 has 13 digits, expected 12",
        ),
        case(
            "44: URN, last digit missing",
            cat(&[b"urn:uuid:", &h[..35]]),
            GroupLength,
            33,
            "invalid group length: group 5 at byte 33 has 11 digits, expected 12",
        ),
        case(
            "46: URN, a digit too many",
            cat(&[b"urn:uuid:", h, b"0"]),
            GroupLength,
            33,
            "invalid group length: group 5 at byte 33 has 13 digits, expected 12",
        ),
        case(
            "36 digits, no hyphen",
            cat(&[s, b"0123"]),
            Hyphen,
            8,
            "missing hyphen at byte 8",
        ),
        case(
            "38 digits, no hyphen",
            cat(&[s, b"012345"]),
            Length,
            32,
            "invalid length: expected 32 bytes, found 38",
        ),
        case(
            "45 digits, no hyphen",
            cat(&[s, b"0123456789abc"]),
            Length,
            32,
            "invalid length: expected 32 bytes, found 45",
        ),
        case(
            "stops after group 2",
            h[..13].to_vec(),
            Length,
            13,
            "invalid length: expected 36 bytes, found 13",
        ),
        case(
            "stops after a hyphen",
            h[..9].to_vec(),
            Length,
            9,
            "invalid length: expected 36 bytes, found 9",
        ),
        // ---- hyphens ----------------------------------------------------------------------
        case(
            "hyphen 1 is a digit",
            h_with(8, b'0'),
            Hyphen,
            8,
            "missing hyphen at byte 8",
        ),
        case(
            "hyphen 2 is a digit",
            h_with(13, b'0'),
            Hyphen,
            13,
            "missing hyphen at byte 13",
        ),
        case(
            "hyphen 3 is a digit",
            h_with(18, b'0'),
            Hyphen,
            18,
            "missing hyphen at byte 18",
        ),
        case(
            "hyphen 4 is a digit",
            h_with(23, b'0'),
            Hyphen,
            23,
            "missing hyphen at byte 23",
        ),
        case(
            "hyphen 1 left out",
            h_without(8),
            GroupLength,
            0,
            "invalid group length: group 1 at byte 0 has 12 digits, expected 8",
        ),
        case(
            "hyphen 2 left out",
            h_without(13),
            GroupLength,
            9,
            "invalid group length: group 2 at byte 9 has 8 digits, expected 4",
        ),
        case(
            "hyphen 3 left out",
            h_without(18),
            GroupLength,
            14,
            "invalid group length: group 3 at byte 14 has 8 digits, expected 4",
        ),
        case(
            "hyphen 4 left out",
            h_without(23),
            GroupLength,
            19,
            "invalid group length: group 4 at byte 19 has 16 digits, expected 4",
        ),
        case(
            "hyphen 1 a byte early",
            h_hyphen_left(8),
            Hyphen,
            7,
            "misplaced hyphen at byte 7",
        ),
        case(
            "hyphen 2 a byte early",
            h_hyphen_left(13),
            Hyphen,
            12,
            "misplaced hyphen at byte 12",
        ),
        case(
            "hyphen 3 a byte early",
            h_hyphen_left(18),
            Hyphen,
            17,
            "misplaced hyphen at byte 17",
        ),
        case(
            "hyphen 4 a byte early",
            h_hyphen_left(23),
            Hyphen,
            22,
            "misplaced hyphen at byte 22",
        ),
        case(
            "double hyphen",
            cat(&[&h[..9], b"-", &h[9..]]),
            Hyphen,
            9,
            "misplaced hyphen at byte 9",
        ),
        case(
            "leading hyphen",
            cat(&[b"-", h]),
            Hyphen,
            0,
            "misplaced hyphen at byte 0",
        ),
        case(
            "trailing hyphen",
            cat(&[h, b"-"]),
            Hyphen,
            36,
            "misplaced hyphen at byte 36",
        ),
        case(
            "a sixth group",
            cat(&[&h[..28], b"-", &h[28..]]),
            Hyphen,
            28,
            "misplaced hyphen at byte 28",
        ),
        case(
            "hyphen in the simple form",
            {
                let mut v = s.to_vec();
                v[5] = b'-';
                v
            },
            Hyphen,
            5,
            "misplaced hyphen at byte 5",
        ),
        case(
            "hyphen after 32 digits",
            cat(&[s, b"-"]),
            Hyphen,
            32,
            "misplaced hyphen at byte 32",
        ),
        // ---- a non-hex digit in each group ------------------------------------------------
        case(
            "'g' in group 1",
            h_with(0, b'g'),
            Char,
            0,
            "invalid character 'g' at byte 0: expected a hexadecimal digit",
        ),
        case(
            "'g' in group 2",
            h_with(9, b'g'),
            Char,
            9,
            "invalid character 'g' at byte 9: expected a hexadecimal digit",
        ),
        case(
            "'G' in group 3",
            h_with(14, b'G'),
            Char,
            14,
            "invalid character 'G' at byte 14: expected a hexadecimal digit",
        ),
        case(
            "'z' in group 4",
            h_with(19, b'z'),
            Char,
            19,
            "invalid character 'z' at byte 19: expected a hexadecimal digit",
        ),
        case(
            "'X' at the end of group 5",
            h_with(35, b'X'),
            Char,
            35,
            "invalid character 'X' at byte 35: expected a hexadecimal digit",
        ),
        case(
            "'g' in the simple form",
            {
                let mut v = s.to_vec();
                v[20] = b'g';
                v
            },
            Char,
            20,
            "invalid character 'g' at byte 20: expected a hexadecimal digit",
        ),
        // ---- braces -----------------------------------------------------------------------
        case(
            "'{' without '}'",
            cat(&[b"{", h]),
            Braces,
            37,
            "unbalanced brace at byte 37: expected '}' to close the '{' at byte 0",
        ),
        case(
            "'{' with a digit where '}' must be",
            cat(&[b"{", h, b"0"]),
            Braces,
            37,
            "unbalanced brace at byte 37: expected '}' to close the '{' at byte 0",
        ),
        case(
            "'}' without '{'",
            cat(&[h, b"}"]),
            Braces,
            36,
            "unbalanced brace at byte 36: '}' without an opening '{'",
        ),
        case(
            "'}' alone",
            b"}".to_vec(),
            Braces,
            0,
            "unbalanced brace at byte 0: '}' without an opening '{'",
        ),
        case(
            "'{{' ... '}'",
            cat(&[b"{{", h, b"}"]),
            Char,
            1,
            "invalid character '{' at byte 1: expected a hexadecimal digit",
        ),
        case(
            "'{{' ... '}}'",
            cat(&[b"{{", h, b"}}"]),
            Char,
            1,
            "invalid character '{' at byte 1: expected a hexadecimal digit",
        ),
        case(
            "'{' ... '}}'",
            cat(&[b"{", h, b"}}"]),
            Char,
            38,
            "invalid character '}' at byte 38: expected the end of the input",
        ),
        case(
            "braces around the simple form",
            cat(&[b"{", s, b"}"]),
            GroupLength,
            1,
            "invalid group length: group 1 at byte 1 has 32 digits, expected 8",
        ),
        case(
            "'{' alone",
            b"{".to_vec(),
            Length,
            1,
            "invalid length: expected 38 bytes, found 1",
        ),
        case(
            "'{}'",
            b"{}".to_vec(),
            Length,
            2,
            "invalid length: expected 38 bytes, found 2",
        ),
        case(
            "'{' starting a 36-byte input",
            cat(&[b"{", &h[..35]]),
            GroupLength,
            25,
            "invalid group length: group 5 at byte 25 has 11 digits, expected 12",
        ),
        // ---- urn:uuid: look-alikes --------------------------------------------------------
        case(
            "urn:uid:",
            cat(&[b"urn:uid:", h]),
            Prefix,
            5,
            "invalid prefix at byte 5: expected \"urn:uuid:\"",
        ),
        case(
            "urn-uuid:",
            cat(&[b"urn-uuid:", h]),
            Prefix,
            3,
            "invalid prefix at byte 3: expected \"urn:uuid:\"",
        ),
        case(
            "uuid:",
            cat(&[b"uuid:", h]),
            Prefix,
            1,
            "invalid prefix at byte 1: expected \"urn:uuid:\"",
        ),
        case(
            "urn:uuid without its colon",
            cat(&[b"urn:uuid", h]),
            Prefix,
            8,
            "invalid prefix at byte 8: expected \"urn:uuid:\"",
        ),
        case(
            "URN:UUID; (45 bytes)",
            cat(&[b"URN:UUID;", h]),
            Prefix,
            8,
            "invalid prefix at byte 8: expected \"urn:uuid:\"",
        ),
        case(
            "urn:uuid: alone",
            b"urn:uuid:".to_vec(),
            Length,
            9,
            "invalid length: expected 45 bytes, found 9",
        ),
        case(
            "urn:uuid: and the simple form",
            cat(&[b"urn:uuid:", s]),
            GroupLength,
            9,
            "invalid group length: group 1 at byte 9 has 32 digits, expected 8",
        ),
        case(
            "urn:uuid: and the braced form",
            cat(&[b"urn:uuid:{", h, b"}"]),
            Char,
            9,
            "invalid character '{' at byte 9: expected a hexadecimal digit",
        ),
        // ---- whitespace and control bytes -------------------------------------------------
        case(
            "leading space",
            cat(&[b" ", h]),
            Char,
            0,
            "invalid character ' ' at byte 0: expected a hexadecimal digit",
        ),
        case(
            "trailing space",
            cat(&[h, b" "]),
            Char,
            36,
            "invalid character ' ' at byte 36: expected the end of the input",
        ),
        case(
            "trailing newline",
            cat(&[h, b"\n"]),
            Char,
            36,
            "invalid character '\\n' at byte 36: expected the end of the input",
        ),
        case(
            "trailing CR LF",
            cat(&[h, b"\r\n"]),
            Char,
            36,
            "invalid character '\\r' at byte 36: expected the end of the input",
        ),
        case(
            "simple form, trailing space",
            cat(&[s, b" "]),
            Char,
            32,
            "invalid character ' ' at byte 32: expected the end of the input",
        ),
        case(
            "simple form, leading space",
            cat(&[b" ", s]),
            Char,
            0,
            "invalid character ' ' at byte 0: expected a hexadecimal digit",
        ),
        case(
            "braced, space before '}'",
            cat(&[b"{", h, b" }"]),
            Char,
            37,
            "invalid character ' ' at byte 37: expected '}'",
        ),
        case(
            "tab for hyphen 1",
            h_with(8, b'\t'),
            Char,
            8,
            "invalid character '\\t' at byte 8: expected '-'",
        ),
        case(
            "space for hyphen 1, one byte too long",
            cat(&[&h[..8], b"  ", &h[9..]]),
            Char,
            8,
            "invalid character ' ' at byte 8: expected a hexadecimal digit or '-'",
        ),
        case(
            "space for hyphen 3 in a 37-byte input",
            cat(&[&h[..18], b" ", &h[18..]]),
            Char,
            18,
            "invalid character ' ' at byte 18: expected '-'",
        ),
        case(
            "leading tab",
            cat(&[b"\t", h]),
            Char,
            0,
            "invalid character '\\t' at byte 0: expected a hexadecimal digit",
        ),
        case(
            "NUL for the last digit",
            h_with(35, 0),
            Char,
            35,
            "invalid character '\\0' at byte 35: expected a hexadecimal digit",
        ),
        case(
            "NUL terminator",
            cat(&[h, b"\0"]),
            Char,
            36,
            "invalid character '\\0' at byte 36: expected the end of the input",
        ),
        // ---- non-ASCII --------------------------------------------------------------------
        case(
            "'é' (2 bytes) for hyphen 1 and a digit",
            cat(&[&h[..8], "é".as_bytes(), &h[10..]]),
            Char,
            8,
            "invalid character 'é' at byte 8: expected '-'",
        ),
        case(
            "'é' for the first two digits",
            cat(&["é".as_bytes(), &h[2..]]),
            Char,
            0,
            "invalid character 'é' at byte 0: expected a hexadecimal digit",
        ),
        case(
            "emoji (4 bytes) for the last four digits",
            cat(&[&h[..32], "😀".as_bytes()]),
            Char,
            32,
            "invalid character '😀' at byte 32: expected a hexadecimal digit",
        ),
        case(
            "byte 0xff",
            h_with(3, 0xff),
            Char,
            3,
            "invalid byte 0xff at byte 3: expected a hexadecimal digit",
        ),
        case(
            "lone continuation byte 0x80",
            h_with(3, 0x80),
            Char,
            3,
            "invalid byte 0x80 at byte 3: expected a hexadecimal digit",
        ),
        case(
            "truncated UTF-8 sequence at the end",
            h_with(35, 0xc3),
            Char,
            35,
            "invalid byte 0xc3 at byte 35: expected a hexadecimal digit",
        ),
        case(
            "overlong encoding of '/'",
            cat(&[&h[..34], &[0xc0, 0xaf]]),
            Char,
            34,
            "invalid byte 0xc0 at byte 34: expected a hexadecimal digit",
        ),
        // ---- other prefixes ---------------------------------------------------------------
        case(
            "0x and the simple form",
            cat(&[b"0x", s]),
            Char,
            1,
            "invalid character 'x' at byte 1: expected a hexadecimal digit",
        ),
        case(
            "0x and the hyphenated form",
            cat(&[b"0x", h]),
            Char,
            1,
            "invalid character 'x' at byte 1: expected a hexadecimal digit",
        ),
        case(
            "0X in place of two digits (32 bytes)",
            cat(&[b"0X", &s[2..]]),
            Char,
            1,
            "invalid character 'X' at byte 1: expected a hexadecimal digit",
        ),
        // ---- huge -------------------------------------------------------------------------
        case(
            "1 MiB of hex digits",
            vec![b'a'; mib],
            Length,
            32,
            "invalid length: expected 32 bytes, found 1048576",
        ),
        case(
            "1 MiB of 'x'",
            vec![b'x'; mib],
            Char,
            0,
            "invalid character 'x' at byte 0: expected a hexadecimal digit",
        ),
        case(
            "1 MiB: a valid UUID, then spaces",
            {
                let mut v = h.to_vec();
                v.resize(mib, b' ');
                v
            },
            Char,
            36,
            "invalid character ' ' at byte 36: expected the end of the input",
        ),
    ]
}

/// The facts every error must satisfy whatever the input.
fn check_invariants(e: &Error, input_len: usize) {
    assert!(e.position() <= input_len, "{e:?} beyond {input_len}");
    let text = e.to_string();
    // Each message opens with words naming its kind.
    let openings: &[&str] = match e.kind() {
        ErrorKind::Char => &["invalid character ", "invalid byte 0x"],
        ErrorKind::Hyphen => &["missing hyphen ", "misplaced hyphen "],
        _ => &[e.kind_str()],
    };
    assert!(
        openings.iter().any(|o| text.starts_with(o)),
        "{text:?} does not start with any of {openings:?}"
    );
    if e.kind() != ErrorKind::Length {
        // The message names the position itself (a length error names the lengths instead).
        let at = format!(" at byte {}", e.position());
        let named = text.match_indices(&at).any(|(i, _)| {
            !text[i + at.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        });
        assert!(named, "{text:?} does not name byte {}", e.position());
    }
    let predicates = [
        (e.is_length(), ErrorKind::Length),
        (e.is_invalid_char(), ErrorKind::Char),
        (e.is_hyphen(), ErrorKind::Hyphen),
        (e.is_group_length(), ErrorKind::GroupLength),
        (e.is_prefix(), ErrorKind::Prefix),
        (e.is_braces(), ErrorKind::Braces),
        (e.is_overflow(), ErrorKind::Overflow),
        (e.is_leading_zero(), ErrorKind::LeadingZero),
    ];
    for (yes, kind) in predicates {
        assert_eq!(yes, e.kind() == kind, "{e:?}");
    }
}

#[test]
fn invalid_input_table() {
    let rows = table();
    assert!(rows.len() >= 40, "the issue asks for at least 40 rows");
    let mut failures = Vec::new();
    for row in &rows {
        let e = match Uuid::try_parse_ascii(&row.input) {
            Ok(u) => {
                failures.push(format!("{}: parsed as {u}", row.what));
                continue;
            }
            Err(e) => e,
        };
        let got = (e.kind(), e.position(), e.to_string());
        let want = (row.kind, row.pos, row.text.clone());
        if got != want {
            failures.push(format!("{}:\n   got {got:?}\n  want {want:?}", row.what));
            continue;
        }
        check_invariants(&e, row.input.len());
        // Every entry point for `&str` agrees with the byte parser.
        if let Ok(text) = core::str::from_utf8(&row.input) {
            assert_eq!(Uuid::parse_str(text), Err(e), "{}", row.what);
            assert_eq!(text.parse::<Uuid>(), Err(e), "{}", row.what);
            assert_eq!(Uuid::try_from(text), Err(e), "{}", row.what);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn urn_prefix_case_insensitive() {
    let want = Uuid::parse_str(H).unwrap();
    for prefix in ["urn:uuid:", "URN:UUID:", "Urn:Uuid:", "uRn:uUiD:"] {
        assert_eq!(
            Uuid::parse_str(&format!("{prefix}{H}")),
            Ok(want),
            "{prefix}"
        );
        let upper = format!("{prefix}{}", H.to_ascii_uppercase());
        assert_eq!(Uuid::parse_str(&upper), Ok(want), "{prefix}");
    }
}

#[test]
fn single_form_parsers() {
    type Row<'a> = (&'a str, Result<Uuid, Error>, ErrorKind, usize, &'a str);
    let cases: [Row; 8] = [
        (
            "hyphenated parser, simple form",
            Uuid::parse_hyphenated(S),
            ErrorKind::Length,
            32,
            "invalid length: expected 36 bytes, found 32",
        ),
        (
            "hyphenated parser, braced form",
            Uuid::parse_hyphenated(&format!("{{{H}}}")),
            ErrorKind::Length,
            36,
            "invalid length: expected 36 bytes, found 38",
        ),
        (
            "hyphenated parser, 36 bytes starting with '{'",
            Uuid::parse_hyphenated(&format!("{{{}", &H[..35])),
            ErrorKind::Char,
            0,
            "invalid character '{' at byte 0: expected a hexadecimal digit",
        ),
        (
            "hyphenated parser, tab for a hyphen",
            Uuid::parse_hyphenated(core::str::from_utf8(&h_with(13, b'\t')).unwrap()),
            ErrorKind::Char,
            13,
            "invalid character '\\t' at byte 13: expected '-'",
        ),
        (
            "hyphenated parser, empty",
            Uuid::parse_hyphenated(""),
            ErrorKind::Length,
            0,
            "invalid length: expected 36 bytes, found 0",
        ),
        (
            "simple parser, hyphenated form",
            Uuid::parse_simple(H),
            ErrorKind::Length,
            32,
            "invalid length: expected 32 bytes, found 36",
        ),
        (
            "simple parser, a hyphen",
            Uuid::parse_simple(&format!("{}-{}", &S[..10], &S[11..])),
            ErrorKind::Hyphen,
            10,
            "misplaced hyphen at byte 10",
        ),
        (
            "simple parser, '}' last",
            Uuid::parse_simple(&format!("{}}}", &S[..31])),
            ErrorKind::Char,
            31,
            "invalid character '}' at byte 31: expected a hexadecimal digit",
        ),
    ];
    for (what, got, kind, pos, text) in cases {
        let e = got.expect_err(what);
        assert_eq!(
            (e.kind(), e.position(), e.to_string().as_str()),
            (kind, pos, text),
            "{what}"
        );
    }
    // The forms they do accept.
    assert_eq!(Uuid::parse_hyphenated(H), Uuid::parse_str(S));
    assert_eq!(Uuid::parse_simple(S), Uuid::parse_str(H));
    assert!(Uuid::parse_hyphenated(&format!("urn:uuid:{H}")).is_err());
}

#[test]
fn errors_are_computed_in_const_context() {
    const BAD: Result<Uuid, Error> = Uuid::parse_str_const("67e55044-10b1-426f-9247-bb680e5fe0cX");
    const GOOD: Result<Uuid, Error> = Uuid::parse_str_const("67e55044-10b1-426f-9247-bb680e5fe0c8");
    let e = BAD.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Char);
    assert_eq!(e.position(), 35);
    assert_eq!(Uuid::parse_str(H), GOOD);
    // The literal macro in const position.
    const ID: Uuid = uuidkit::uuid!("{67E55044-10B1-426F-9247-BB680E5FE0C8}");
    assert_eq!(Ok(ID), GOOD);
}

fn cases() -> u32 {
    uuidkit_test_support::proptest_cases_or(2000)
}

/// Bytes that matter to the grammar, so that random inputs get past the first byte often.
fn grammar_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(b"0123456789abcdefABCDEF".to_vec()),
        2 => prop::sample::select(b"-{}:urnidURNID xX\t\0".to_vec()),
        1 => any::<u8>(),
    ]
}

/// Inputs of every length 0..=64 and of exactly the accepted lengths, from arbitrary bytes,
/// from grammar bytes, and from valid forms with a few bytes changed.
fn any_input() -> impl Strategy<Value = Vec<u8>> {
    let lengths = prop_oneof![0usize..=64, prop::sample::select(vec![32usize, 36, 38, 45])];
    let arbitrary = lengths
        .clone()
        .prop_flat_map(|n| prop::collection::vec(any::<u8>(), n));
    let grammar = lengths.prop_flat_map(|n| prop::collection::vec(grammar_byte(), n));
    let near_valid = (
        any::<u128>(),
        0usize..4,
        prop::collection::vec((any::<prop::sample::Index>(), grammar_byte()), 1..4),
    )
        .prop_map(|(v, form, edits)| {
            let u = Uuid::from_u128(v);
            let mut t = match form {
                0 => u.hyphenated().to_string(),
                1 => u.simple().to_string(),
                2 => u.braced().to_string(),
                _ => u.urn().to_string(),
            }
            .into_bytes();
            for (at, b) in edits {
                let i = at.index(t.len());
                t[i] = b;
            }
            t
        });
    prop_oneof![arbitrary, grammar, near_valid]
}

proptest! {
    // Failures print their minimal input; one worth keeping becomes a row of the table above
    // rather than an opaque seed file.
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn never_panics_and_positions_stay_in_the_input(input in any_input()) {
        let any_form = Uuid::try_parse_ascii(&input);
        if let Err(e) = &any_form {
            check_invariants(e, input.len());
        }
        // The one-form parsers take `&str`; feed them the input when it is UTF-8, and its
        // lossy decoding otherwise so that their slow path sees replacement characters too.
        let text = String::from_utf8_lossy(&input).into_owned();
        let hyphenated = Uuid::parse_hyphenated(&text);
        let simple = Uuid::parse_simple(&text);
        for r in [&hyphenated, &simple] {
            if let Err(e) = r {
                check_invariants(e, text.len());
            }
        }
        // A one-form parser accepts only what the any-form parser accepts.
        let any_text = Uuid::parse_str(&text);
        if let Ok(u) = hyphenated {
            prop_assert_eq!(any_text, Ok(u));
            prop_assert_eq!(text.len(), 36);
        }
        if let Ok(u) = simple {
            prop_assert_eq!(any_text, Ok(u));
            prop_assert_eq!(text.len(), 32);
        }
    }
}

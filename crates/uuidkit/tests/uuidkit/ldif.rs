//! The LDIF entryUUID adder: byte-exact pass-through, where lines are added, which existing
//! values count, the errors for bad values, and property tests that the output is the input
//! plus the added lines and nothing else (the fuzz crate's `checks::check_ldif`).

// The LDIF engine needs `std` (I/O traits).
#![cfg(feature = "std")]

use proptest::prelude::*;
use uuidkit::ldif::{add_entry_uuid, LdifError, LdifStats};
use uuidkit::{ErrorKind, Uuid};

// The pass-through invariant is the fuzz targets' `checks::check_ldif` (uuidkit-test-support),
// as in `fuzz_props.rs`.
use uuidkit_test_support::checks;

fn cases() -> u32 {
    uuidkit_test_support::proptest_cases_or(2000)
}

/// Runs the adder with a counter: the n-th added line gets the UUID whose integer value is n.
fn run(input: &[u8]) -> (Result<LdifStats, LdifError>, Vec<u8>, u128) {
    let mut out = Vec::new();
    let mut n = 0u128;
    let r = add_entry_uuid(input, &mut out, &mut || {
        n += 1;
        Uuid::from_u128(n)
    });
    (r, out, n)
}

fn ok(input: &[u8]) -> (LdifStats, Vec<u8>) {
    let (r, out, n) = run(input);
    let stats = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats.added as u128, n, "one UUID drawn per added line");
    (stats, out)
}

fn stats(entries: u64, added: u64, kept: u64) -> LdifStats {
    LdifStats {
        entries,
        added,
        kept,
    }
}

const U1: &str = "entryUUID: 00000000-0000-0000-0000-000000000001";
const U2: &str = "entryUUID: 00000000-0000-0000-0000-000000000002";

/// Every kind of line RFC 2849 has, and every record here already has an entryUUID or is not
/// an entry: the output must be the input, byte for byte.
const RICH: &[u8] = b"# a comment before the version line\n\
#  and a folded comment\n  that goes on here\n\
version: 1\n\
\n\
\n\
# Alice: folded value, URL value, base64 value\n\
dn: cn=Alice,dc=example,dc=com\n\
objectClass: person\n\
cn: Alice\n\
description: a long value that is folded\n  across two lines\n\
jpegPhoto:< file:///tmp/alice.jpg\n\
userPassword:: c2VjcmV0\n\
entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14\n\
\n\
dn:: Y249QsO2YixkYz1leGFtcGxlLGRjPWNvbQ==\n\
cn:: QsO2Yg==\n\
ENTRYUUID;x-origin: 597AE2F6-16A6-1027-98F4-D28B5365DC15\n\
\n\
dn: cn=Carol,dc=example,dc=com\n\
changetype: modify\n\
replace: description\n\
description: new\n\
-\n\
add: mail\n\
mail: carol@example.com\n\
-\n\
\n\
dn: cn=Dave,dc=example,dc=com\n\
control: 1.2.840.113556.1.4.805 true\n\
changetype: delete\n\
\n\
dn: cn=Eve,dc=example,dc=com\n\
changetype: modrdn\n\
newrdn: cn=Eve2\n\
deleteoldrdn: 1\n\
\n\
dn: cn=Frank,dc=example,dc=com\n\
changetype: modify\n\
replace: entryUUID\n\
entryUUID: not examined in a modify record\n\
-\n\
\n\
# Latin-1, not UTF-8: \xe9t\xe9\n\
dn: cn=Gr\xfcn,dc=example\n\
cn: Gr\xfcn\n\
entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc16\n\
\n\
# a comment-only record at the end, without a final newline";

#[test]
fn rich_sample_passes_through_byte_for_byte() {
    let (s, out) = ok(RICH);
    assert_eq!(out, RICH);
    // Alice, Böb and Grün are entries; Carol, Dave, Eve and Frank are change records.
    assert_eq!(s, stats(3, 0, 3));
}

#[test]
fn rich_sample_with_crlf_passes_through() {
    let crlf: Vec<u8> = RICH
        .split(|&c| c == b'\n')
        .collect::<Vec<_>>()
        .join(&b"\r\n"[..]);
    let (s, out) = ok(&crlf);
    assert_eq!(out, crlf);
    assert_eq!(s, stats(3, 0, 3));
}

#[test]
fn lines_are_added_at_the_end_of_each_entry() {
    let input = "version: 1\n\
                 \n\
                 dn: cn=a,dc=example\n\
                 cn: a\n\
                 # last line is a folded comment\n  still the comment\n\
                 \n\
                 \n\
                 dn: cn=b,dc=example\n\
                 changetype: add\n\
                 cn: b\n\
                 \n\
                 dn: cn=c,dc=example\n\
                 changetype: delete\n";
    let want = format!(
        "version: 1\n\
         \n\
         dn: cn=a,dc=example\n\
         cn: a\n\
         # last line is a folded comment\n  still the comment\n\
         {U1}\n\
         \n\
         \n\
         dn: cn=b,dc=example\n\
         changetype: add\n\
         cn: b\n\
         {U2}\n\
         \n\
         dn: cn=c,dc=example\n\
         changetype: delete\n"
    );
    let (s, out) = ok(input.as_bytes());
    assert_eq!(String::from_utf8(out).unwrap(), want);
    assert_eq!(s, stats(2, 2, 0));
}

#[test]
fn line_endings_follow_the_record() {
    // CR LF record, then LF record, then a final record without a line ending at all.
    let input = b"dn: cn=a\r\ncn: a\r\n\r\ndn: cn=b\ncn: b\n\ndn: cn=c";
    let want = format!(
        "dn: cn=a\r\ncn: a\r\n{U1}\r\n\r\ndn: cn=b\ncn: b\n{U2}\n\n\
         dn: cn=c\nentryUUID: 00000000-0000-0000-0000-000000000003"
    );
    let (s, out) = ok(input);
    assert_eq!(String::from_utf8(out).unwrap(), want);
    assert_eq!(s, stats(3, 3, 0));

    // No final newline on a CR LF file: the CR LF goes before the new line.
    let (_, out) = ok(b"dn: cn=a\r\ncn: a");
    assert_eq!(out, format!("dn: cn=a\r\ncn: a\r\n{U1}").as_bytes());
    // A lone CR at the very end is half a CR LF: only the LF is added.
    let (_, out) = ok(b"dn: cn=a\r");
    assert_eq!(out, format!("dn: cn=a\r\n{U1}").as_bytes());
    // A one-line CR LF record at the end takes the style of what came before.
    let (_, out) = ok(b"dn: cn=a\r\n\r\ndn: cn=b");
    assert_eq!(
        out,
        format!("dn: cn=a\r\n{U1}\r\n\r\ndn: cn=b\r\n{U2}").as_bytes()
    );
}

#[test]
fn odd_records_are_left_alone() {
    for input in [
        &b""[..],
        b"\n\n\n",
        b"\r\n",
        b"# only a comment\n",
        b"version: 1\n",
        b"dn: cn=x\nchangetype: moddn\nnewrdn: cn=y\ndeleteoldrdn: 0\n",
    ] {
        let (s, out) = ok(input);
        assert_eq!(out, input, "{:?}", String::from_utf8_lossy(input));
        assert_eq!(s.added, 0);
    }
}

#[test]
fn what_is_not_ldif_is_an_error_naming_the_line() {
    for (input, line) in [
        (&b"cn: no dn here\n\n"[..], 1),
        (b"\xff\xfe\x00garbage\n\n\x80\n", 1),
        (b" continuation without a line before it\n", 1),
        (b"dn: cn=a\n\nversion: 1\n", 3),
        (b"version: 2\n", 1),
        (b"dn: cn=a\ncn: a\ndn: cn=b\n", 3),
        (b"dn: cn=a\rcn: a\r", 1),
        (b"dn: cn=a\nphoto:: ab!=\n", 2),
    ] {
        let (e, out) = bad(input);
        assert_eq!(
            e.line(),
            Some(line),
            "{:?}: {e}",
            String::from_utf8_lossy(input)
        );
        // Only the records before the bad one are written.
        assert!(!String::from_utf8_lossy(&out).contains("cn=b"));
    }
}

#[test]
fn version_line_directly_above_the_first_entry() {
    // RFC 2849 needs only one line separator after the version line.
    let (s, out) = ok(b"version: 1\ndn: cn=a\ncn: a\n");
    assert_eq!(
        out,
        format!("version: 1\ndn: cn=a\ncn: a\n{U1}\n").as_bytes()
    );
    assert_eq!(s, stats(1, 1, 0));
    // A BOM before it does not hide it.
    let (_, out) = ok(b"\xef\xbb\xbfversion: 1\ndn: cn=a\n");
    assert_eq!(
        out,
        format!("\u{feff}version: 1\ndn: cn=a\n{U1}\n").as_bytes()
    );
}

#[test]
fn existing_entry_uuid_in_every_spelling_is_kept() {
    let spellings: [&[u8]; 11] = [
        b"entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
        b"entryuuid: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
        b"ENTRYUUID:597AE2F6-16A6-1027-98F4-D28B5365DC14",
        b"EntryUUID;binary: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
        b"entryUUID;x-a;x-b:   597ae2f6-16a6-1027-98f4-d28b5365dc14",
        b"1.3.6.1.1.16.4: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
        b"entryUUID:: NTk3YWUyZjYtMTZhNi0xMDI3LTk4ZjQtZDI4YjUzNjVkYzE0",
        b"entry\n UUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
        b"entryUUID: 597ae2f6-16a6-10\n 27-98f4-d28b5365dc14",
        b"entryUUID:: NTk3YWUyZjYtMTZhNi0xMDI3LTk4Zj\n QtZDI4YjUzNjVkYzE0",
        b"entryUUID:< file:///var/uuid",
    ];
    for line in spellings {
        for eol in ["\n", "\r\n"] {
            let line = String::from_utf8(line.to_vec()).unwrap().replace('\n', eol);
            let input = format!("dn: cn=a{eol}cn: a{eol}{line}{eol}mail: a@example{eol}");
            let (s, out) = ok(input.as_bytes());
            assert_eq!(String::from_utf8(out).unwrap(), input);
            assert_eq!(s, stats(1, 0, 1), "{line:?}");
        }
    }
    // Names that only look similar are other attributes.
    for other in [
        "entryUUIDs: x",
        "entry-UUID: x",
        "# entryUUID: x",
        "xentryUUID: x",
    ] {
        let input = format!("dn: cn=a\n{other}\n");
        let (s, out) = ok(input.as_bytes());
        assert_eq!(out, format!("{input}{U1}\n").as_bytes(), "{other}");
        assert_eq!(s, stats(1, 1, 0));
    }
}

/// Runs an input that must fail with a data error; returns the error and the output.
fn bad(input: &[u8]) -> (LdifError, Vec<u8>) {
    let (r, out, _) = run(input);
    match r {
        Ok(s) => panic!("accepted {:?}: {s:?}", String::from_utf8_lossy(input)),
        Err(e) => {
            assert!(!e.is_io());
            assert!(e.io_error().is_none());
            (e, out)
        }
    }
}

#[test]
fn bad_values_are_errors_naming_dn_and_line() {
    let first = "dn: cn=ok,dc=example\ncn: ok\n\n";
    let input = format!(
        "{first}# comment\n\
         dn: cn=x,dc=example\n\
         cn: x\n\
         entryUUID: 597ae2f616a6102798f4d28b5365dc14\n\
         \n\
         dn: cn=never,dc=example\n"
    );
    let (e, out) = bad(input.as_bytes());
    assert_eq!(e.line(), Some(7));
    assert_eq!(e.dn(), Some("cn=x,dc=example"));
    assert_eq!(e.uuid_error().map(|u| u.kind()), Some(ErrorKind::Form));
    assert_eq!(
        e.to_string(),
        "line 7 (dn: cn=x,dc=example): invalid entryUUID value \
         \"597ae2f616a6102798f4d28b5365dc14\": simple form not accepted at byte 0: \
         expected the hyphenated form"
    );
    assert!(std::error::Error::source(&e).is_some());
    // Everything before the failing record, which got its line, and nothing after.
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("dn: cn=ok,dc=example\ncn: ok\n{U1}\n\n")
    );
}

#[test]
fn bad_value_table() {
    // (input, line, dn, Display)
    let table: [(&[u8], u64, &str, &str); 8] = [
        (
            b"dn:: Y249Wm/DqyxkYz1leGFtcGxl\nentryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc1\n",
            2,
            "cn=Zo\u{eb},dc=example",
            "line 2 (dn: cn=Zo\u{eb},dc=example): invalid entryUUID value \
             \"597ae2f6-16a6-1027-98f4-d28b5365dc1\": invalid length: expected 36 bytes, found 35",
        ),
        (
            // Folded: the value is read whole; the line is the first of the folded line.
            b"dn: cn=a\ncn: a\nentryUUID: 597ae2f6-16a6-1027-98f4-\n d28b5365dcXX\n",
            3,
            "cn=a",
            "line 3 (dn: cn=a): invalid entryUUID value \
             \"597ae2f6-16a6-1027-98f4-d28b5365dcXX\": \
             invalid character 'X' at byte 34: expected a hexadecimal digit",
        ),
        (
            b"dn: cn=a\r\nentryUUID:: NTk3YWUyZjYtMTZhNi0xMDI3LTk4ZjQtZDI4YjUzNjVkYzE=\r\n",
            2,
            "cn=a",
            "line 2 (dn: cn=a): invalid entryUUID value \
             \"597ae2f6-16a6-1027-98f4-d28b5365dc1\": invalid length: expected 36 bytes, found 35",
        ),
        (
            b"dn: cn=a\nentryUUID:: NTk3!WUy\n",
            2,
            "cn=a",
            "line 2 (dn: cn=a): invalid base64 in entryUUID value \"NTk3!WUy\": \
             invalid character '!' at byte 4",
        ),
        (
            b"dn: cn=a\nentryUUID:: NTk3YWU\n",
            2,
            "cn=a",
            "line 2 (dn: cn=a): invalid base64 in entryUUID value \"NTk3YWU\": \
             length 7 is not a multiple of 4",
        ),
        (
            b"dn: cn=a\nentryUUID:: NT=3YWUy\n",
            2,
            "cn=a",
            "line 2 (dn: cn=a): invalid base64 in entryUUID value \"NT=3YWUy\": \
             misplaced padding at byte 2",
        ),
        (
            b"dn: cn=a\nentryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14\ncn: a\n\
              entryUUID;x: 597ae2f6-16a6-1027-98f4-d28b5365dc15\n",
            4,
            "cn=a",
            "line 4 (dn: cn=a): second entryUUID value (the first is on line 2): \
             entryUUID is single-valued",
        ),
        (
            b"dn: cn=a\nchangetype: add\nentryUUID:\n",
            3,
            "cn=a",
            "line 3 (dn: cn=a): invalid entryUUID value \"\": \
             invalid length: expected 36 bytes, found 0",
        ),
    ];
    for (input, line, dn, msg) in table {
        let (e, out) = bad(input);
        assert_eq!(e.line(), Some(line), "{msg}");
        assert_eq!(e.dn(), Some(dn), "{msg}");
        assert_eq!(e.to_string(), msg);
        assert!(out.is_empty());
    }
    // The 16 raw octets base64-encoded are not the LDAP string form.
    let (e, _) = bad(b"dn: cn=a\nentryUUID:: WXri9hamECeY9NKLU2XcFA==\n");
    assert_eq!(e.uuid_error().map(|u| u.kind()), Some(ErrorKind::Length));
    assert!(e
        .to_string()
        .ends_with("invalid length: expected 36 bytes, found 16"));
    // A long bad value is shortened in the message.
    let long = format!("dn: cn=a\nentryUUID: {}\n", "z".repeat(1000));
    let (e, _) = bad(long.as_bytes());
    assert!(e.to_string().contains(&format!("\"{}…\"", "z".repeat(80))));
    assert!(e.to_string().len() < 250);
}

struct FailingWriter;
impl std::io::Write for FailingWriter {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("disk full"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct FailingReader;
impl std::io::Read for FailingReader {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("gone"))
    }
}

#[test]
fn io_errors_are_told_apart() {
    let e = add_entry_uuid(&b"dn: cn=a\n"[..], FailingWriter, &mut || Uuid::NIL).unwrap_err();
    assert!(e.is_io());
    assert_eq!((e.line(), e.dn()), (None, None));
    assert_eq!(e.to_string(), "I/O error: disk full");
    let e = add_entry_uuid(
        std::io::BufReader::new(FailingReader),
        Vec::new(),
        &mut || Uuid::NIL,
    )
    .unwrap_err();
    assert!(e.is_io());
    assert_eq!(e.to_string(), "I/O error: gone");
}

#[test]
fn large_input_streams() {
    // Many records through a small-buffered reader: the result is the same as in one piece.
    let mut input = Vec::new();
    for i in 0..5000 {
        input.extend_from_slice(format!("dn: cn={i},dc=example\ncn: {i}\n\n").as_bytes());
    }
    let (s, out) = ok(&input);
    assert_eq!(s, stats(5000, 5000, 0));
    let mut out2 = Vec::new();
    let mut n = 0u128;
    add_entry_uuid(
        std::io::BufReader::with_capacity(7, &input[..]),
        &mut out2,
        &mut || {
            n += 1;
            Uuid::from_u128(n)
        },
    )
    .unwrap();
    assert_eq!(out, out2);
    assert!(out.ends_with(b"entryUUID: 00000000-0000-0000-0000-000000001388\n\n"));
}

// ---- property test ------------------------------------------------------------------------

/// Valid existing entryUUID lines (possibly folded: the pieces are physical lines).
const UUID_LINES: [&[&str]; 7] = [
    &["entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14"],
    &["ENTRYUUID;x-a: 597AE2F6-16A6-1027-98F4-D28B5365DC14"],
    &["1.3.6.1.1.16.4: 597ae2f6-16a6-1027-98f4-d28b5365dc14"],
    &["entryUUID:: NTk3YWUyZjYtMTZhNi0xMDI3LTk4ZjQtZDI4YjUzNjVkYzE0"],
    &["entry", " UUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14"],
    &["entryUUID: 597ae2f6-16a6-10", " 27-98f4-d28b5365dc14"],
    &["entryUUID:< file:///u"],
];
const DN_LINES: [&[&str]; 4] = [
    &["dn: cn=a,dc=example"],
    &["DN: cn=b"],
    &["dn:: Y249YQ=="],
    &["dn: cn=long,", " dc=example"],
];
const ATTR_LINES: [&[&str]; 7] = [
    &["cn: x"],
    &["description: folded", " continued", "  with a space"],
    &["# comment"],
    &["# entryUUID: a folded", " comment"],
    &["userPassword:: c2VjcmV0"],
    &["jpegPhoto:< file:///x"],
    &["objectClass: top"],
];

#[derive(Debug, Clone)]
enum Kind {
    Entry,
    Add,
    Modify,
    Delete,
    Comments,
    Version,
}

#[derive(Debug, Clone)]
struct Rec {
    kind: Kind,
    dn: usize,
    attrs: Vec<usize>,
    /// An existing entryUUID: which spelling, and before which attribute.
    uuid: Option<(usize, usize)>,
    junk: Vec<Vec<u8>>,
    crlf: bool,
    blank_after: usize,
}

impl Rec {
    fn adds(&self) -> bool {
        matches!(self.kind, Kind::Entry | Kind::Add) && self.uuid.is_none()
    }

    fn write(&self, out: &mut Vec<u8>) {
        let eol: &[u8] = if self.crlf { b"\r\n" } else { b"\n" };
        let mut lines: Vec<Vec<u8>> = Vec::new();
        let push = |lines: &mut Vec<Vec<u8>>, unit: &[&str]| {
            lines.extend(unit.iter().map(|s| s.as_bytes().to_vec()))
        };
        match self.kind {
            Kind::Comments => push(&mut lines, &["# just", " a comment"]),
            Kind::Version => push(&mut lines, &["version: 1"]),
            Kind::Delete => {
                push(&mut lines, DN_LINES[self.dn]);
                push(&mut lines, &["changetype: delete"]);
            }
            Kind::Modify => {
                push(&mut lines, DN_LINES[self.dn]);
                push(
                    &mut lines,
                    &[
                        "changetype: modify",
                        "replace: entryUUID",
                        "entryUUID: junk",
                        "-",
                    ],
                );
            }
            Kind::Entry | Kind::Add => {
                push(&mut lines, DN_LINES[self.dn]);
                if let Kind::Add = self.kind {
                    push(&mut lines, &["changetype: add"]);
                }
                for (i, &a) in self.attrs.iter().enumerate() {
                    if self.uuid.is_some_and(|(_, at)| at == i) {
                        push(&mut lines, UUID_LINES[self.uuid.unwrap().0]);
                    }
                    push(&mut lines, ATTR_LINES[a]);
                }
                if self.uuid.is_some_and(|(_, at)| at >= self.attrs.len()) {
                    push(&mut lines, UUID_LINES[self.uuid.unwrap().0]);
                }
                for j in &self.junk {
                    let mut l = b"x-junk: ".to_vec();
                    l.extend_from_slice(j);
                    lines.push(l);
                }
            }
        }
        for l in lines {
            out.extend_from_slice(&l);
            out.extend_from_slice(eol);
        }
        for _ in 0..self.blank_after {
            out.extend_from_slice(eol);
        }
    }
}

fn rec() -> impl Strategy<Value = Rec> {
    let kind = prop_oneof![
        4 => Just(Kind::Entry),
        2 => Just(Kind::Add),
        1 => Just(Kind::Modify),
        1 => Just(Kind::Delete),
        1 => Just(Kind::Comments),
        1 => Just(Kind::Version),
    ];
    let junk = proptest::collection::vec(
        proptest::collection::vec(
            any::<u8>().prop_filter("no line end", |&b| b != b'\n' && b != b'\r'),
            0..12,
        ),
        0..2,
    );
    (
        kind,
        0..DN_LINES.len(),
        proptest::collection::vec(0..ATTR_LINES.len(), 0..5),
        proptest::option::of((0..UUID_LINES.len(), 0usize..6)),
        junk,
        any::<bool>(),
        1usize..3,
    )
        .prop_map(|(kind, dn, attrs, uuid, junk, crlf, blank_after)| Rec {
            kind,
            dn,
            attrs,
            uuid,
            junk,
            crlf,
            blank_after,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn output_is_input_plus_added_lines(
        recs in proptest::collection::vec(rec(), 0..8),
        final_newline in any::<bool>(),
        chunk in prop_oneof![Just(8192usize), 1usize..40],
    ) {
        let mut input = Vec::new();
        // A version line only at the start (RFC 2849).
        let recs: Vec<Rec> = recs
            .into_iter()
            .enumerate()
            .filter(|(i, r)| *i == 0 || !matches!(r.kind, Kind::Version))
            .map(|(_, r)| r)
            .collect();
        for r in &recs {
            r.write(&mut input);
        }
        if !final_newline {
            while input.last() == Some(&b'\n') {
                input.pop();
                if input.last() == Some(&b'\r') {
                    input.pop();
                }
            }
        }
        let (r, _, drawn) = run(&input);
        let s = r.map_err(|e| TestCaseError::fail(e.to_string()))?;
        let want_added = recs.iter().filter(|r| r.adds()).count() as u64;
        let want_entries =
            recs.iter().filter(|r| matches!(r.kind, Kind::Entry | Kind::Add)).count() as u64;
        prop_assert_eq!(s, LdifStats { entries: want_entries, added: want_added,
                                       kept: want_entries - want_added });
        prop_assert_eq!(drawn, want_added as u128);
        // The output is the input plus one whole line at the end of each entry that lacked
        // one, carrying the UUIDs drawn in order; read and written in pieces of `chunk` bytes.
        checks::check_ldif(&input, chunk);
    }
}

/// Pieces from which arbitrary, mostly malformed, LDIF is assembled.
const TOKENS: [&[u8]; 22] = [
    b"dn:",
    b"DN::",
    b" ",
    b"\n",
    b"\r\n",
    b"\r",
    b"entryUUID",
    b";x",
    b":",
    b"::",
    b":<",
    b"changetype: add",
    b"changetype: modify",
    b"version: 1",
    b"control: 1.2.3",
    b"#",
    b"=",
    b"NTk3YWUyZjYtMTZhNi0xMDI3LTk4ZjQtZDI4YjUzNjVkYzE0",
    b"597ae2f6-16a6-1027-98f4-d28b5365dc14",
    b"\xef\xbb\xbf",
    b"\xff\x80",
    b"-",
];

fn junk_ldif() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            4 => (0..TOKENS.len()).prop_map(|i| TOKENS[i].to_vec()),
            1 => proptest::collection::vec(any::<u8>(), 0..4),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn any_bytes_are_handled(input in junk_ldif()) {
        let (r, _, drawn) = run(&input);
        match r {
            Ok(s) => prop_assert_eq!(s.added as u128, drawn),
            Err(e) => {
                // A data error (the reader cannot fail).
                prop_assert!(!e.is_io());
                prop_assert!(e.line().is_some_and(|l| l >= 1));
            }
        }
        // The output (before an error: what came before it) is the input plus the added lines.
        checks::check_ldif(&input, 8192);
    }
}

/// The thread traits are asserted in send_sync.rs; here the message survives boxing.
#[test]
fn error_boxes_with_its_message() {
    let boxed: Box<dyn std::error::Error + Send + Sync> =
        Box::new(bad(b"dn: cn=a\nentryUUID: x\n").0);
    assert!(boxed.to_string().starts_with("line 2 (dn: cn=a): "));
}

#[test]
fn a_whitespace_only_line_after_a_record_ends_it_in_the_pass_through_check() {
    // Found by the `any_bytes_are_handled` property: the entryUUID line goes before a
    // whitespace-only line, which ends the record.
    for chunk in [1, 3, 17, 4096] {
        checks::check_ldif(b"version: 1\ndn:\n \n", chunk);
    }
}

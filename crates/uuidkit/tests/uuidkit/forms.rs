//! The decimal, OID and Microsoft GUID forms: spec values, round trips, the decimal parser
//! against the naive reference of the fuzz targets (uuidkit-test-support's `reference`, as in
//! `fuzz_props.rs`), and the exact error for each kind of bad input.

use proptest::prelude::*;
use uuidkit::{Error, ErrorKind, Uuid, MAX_DECIMAL_LEN};

// The fuzz targets' reference grammar (uuidkit-test-support): its decimal reader.
use uuidkit_test_support::reference;

fn cases() -> u32 {
    uuidkit_test_support::proptest_cases_or(2000)
}

const TWO_POW_128: &str = "340282366920938463463374607431768211456";

#[test]
fn rfc9562_figure3_decimal_and_x667_oid() {
    // Source: RFC 9562 §4, Figure 1 (hex form) and Figure 3 (unsigned integer); the OID is
    // `2.25.` followed by that integer per ITU-T X.667 §6.3, whose example is the same UUID.
    let u = Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6").unwrap();
    let dec = "329800735698586629295641978511506172918";
    assert_eq!(u.decimal().to_string(), dec);
    assert_eq!(u.oid().to_string(), format!("2.25.{dec}"));
    assert_eq!(u.oid_urn().to_string(), format!("urn:oid:2.25.{dec}"));
    assert_eq!(Uuid::parse_decimal(dec.as_bytes()), Ok(u));
    assert_eq!(Uuid::parse_oid(format!("2.25.{dec}").as_bytes()), Ok(u));
    assert_eq!(
        Uuid::parse_oid(format!("urn:oid:2.25.{dec}").as_bytes()),
        Ok(u)
    );
    // The integer of Figure 3 is the 128-bit value of Figure 2 read most significant bit first.
    assert_eq!(u.as_u128(), 0xf81d4fae7dec11d0a76500a0c91e6bf6);
    assert_eq!(dec.parse::<u128>().unwrap(), u.as_u128());
}

#[test]
fn guid_byte_order() {
    // Source: RFC 9562 §4 (COM GUIDs store the first three fields little-endian) and
    // Microsoft's GUID structure: Data1 u32, Data2 u16, Data3 u16 in host (little-endian)
    // order, Data4 as 8 bytes.
    let u = Uuid::parse_str("00112233-4455-6677-8899-aabbccddeeff").unwrap();
    let le = [
        0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
        0xff,
    ];
    assert_eq!(u.to_bytes_le(), le);
    assert_eq!(Uuid::from_bytes_le(le), u);
    assert_eq!(u.guid_hex().to_string(), "33221100554477668899aabbccddeeff");
    assert_eq!(
        format!("{:X}", u.guid_hex()),
        "33221100554477668899AABBCCDDEEFF"
    );
    assert_eq!(
        Uuid::parse_guid_hex(b"33221100554477668899AABBCCDDEEFF"),
        Ok(u)
    );
    assert_eq!(
        Uuid::from_bytes(u.to_bytes_le()).simple().to_string(),
        u.guid_hex().to_string()
    );
    // Usable in const context.
    const LE: [u8; 16] = Uuid::MAX.to_bytes_le();
    assert_eq!(LE, [0xff; 16]);
}

#[test]
fn round_trips_on_edge_values() {
    let values: [(u128, &str); 8] = [
        (0, "0"),
        (1, "1"),
        (9, "9"),
        (10, "10"),
        (u64::MAX as u128, "18446744073709551615"),
        (1 << 64, "18446744073709551616"),
        (10_000_000_000_000_000_000, "10000000000000000000"),
        (u128::MAX, "340282366920938463463374607431768211455"),
    ];
    for (v, text) in values {
        let u = Uuid::from_u128(v);
        assert_eq!(u.decimal().to_string(), text, "{v}");
        assert_eq!(Uuid::parse_decimal(text.as_bytes()), Ok(u));
        assert_eq!(Uuid::parse_oid(u.oid().to_string().as_bytes()), Ok(u));
        assert_eq!(Uuid::parse_oid(u.oid_urn().to_string().as_bytes()), Ok(u));
        assert_eq!(Uuid::from_bytes_le(u.to_bytes_le()), u);
        assert_eq!(
            Uuid::parse_guid_hex(u.guid_hex().to_string().as_bytes()),
            Ok(u)
        );
    }
    assert_eq!(Uuid::NIL.decimal().to_string(), "0");
    assert_eq!(Uuid::NIL.oid().to_string(), "2.25.0");
    assert_eq!(Uuid::MAX.decimal().to_string(), u128::MAX.to_string());
    assert_eq!(
        Uuid::MAX.oid_urn().to_string(),
        format!("urn:oid:2.25.{}", u128::MAX)
    );
    // Every power of ten and its neighbours: the limb boundaries of the formatter.
    let mut p: u128 = 1;
    loop {
        for v in [p - 1, p, p + 1] {
            assert_eq!(Uuid::from_u128(v).decimal().to_string(), v.to_string());
        }
        match p.checked_mul(10) {
            Some(n) => p = n,
            None => break,
        }
    }
}

#[test]
fn encode_decimal_and_padding() {
    let mut buf = [0u8; MAX_DECIMAL_LEN];
    assert_eq!(Uuid::MAX.encode_decimal(&mut buf).len(), MAX_DECIMAL_LEN);
    assert_eq!(Uuid::from_u128(42).encode_decimal(&mut buf), "42");
    let u = Uuid::from_u128(42);
    assert_eq!(format!("{:05}", u.decimal()), "00042");
    assert_eq!(format!("{:>6}", u.decimal()), "    42");
    assert_eq!(format!("{:<9}|", u.oid()), "2.25.42  |");
    assert_eq!(format!("{:>17}", u.oid_urn()), "  urn:oid:2.25.42");
}

/// (input, kind, position, Display text)
type Case = (Vec<u8>, ErrorKind, usize, String);

fn case(input: impl Into<Vec<u8>>, kind: ErrorKind, pos: usize, msg: &str) -> Case {
    (input.into(), kind, pos, msg.to_string())
}

fn check(what: &str, parse: fn(&[u8]) -> Result<Uuid, Error>, table: Vec<Case>) {
    for (input, kind, pos, msg) in table {
        let shown = String::from_utf8_lossy(&input[..input.len().min(60)]).into_owned();
        let e = parse(&input).expect_err(&format!("{what} accepted {shown:?}"));
        assert_eq!(e.kind(), kind, "{what} {shown:?}: {e}");
        assert_eq!(e.position(), pos, "{what} {shown:?}: {e}");
        assert_eq!(e.to_string(), msg, "{what} {shown:?}");
    }
}

#[test]
fn decimal_errors() {
    use ErrorKind::*;
    let digit = ": expected a decimal digit";
    let too_large = |p: usize| format!("integer too large at byte {p}: a UUID is less than 2^128");
    let plus_one = "340282366920938463463374607431768211457";
    let forty = format!("1{}", "0".repeat(39));
    let mib = vec![b'9'; 1 << 20];
    check(
        "parse_decimal",
        Uuid::parse_decimal,
        vec![
            case("", Length, 0, "empty input"),
            case(
                "-1",
                Char,
                0,
                &format!("invalid character '-' at byte 0{digit}"),
            ),
            case(
                "+1",
                Char,
                0,
                &format!("invalid character '+' at byte 0{digit}"),
            ),
            case("01", LeadingZero, 0, "leading zero at byte 0"),
            case("00", LeadingZero, 0, "leading zero at byte 0"),
            case(
                " 1",
                Char,
                0,
                &format!("invalid character ' ' at byte 0{digit}"),
            ),
            case(
                "1 ",
                Char,
                1,
                &format!("invalid character ' ' at byte 1{digit}"),
            ),
            case(
                "0x1",
                Char,
                1,
                &format!("invalid character 'x' at byte 1{digit}"),
            ),
            case(
                "12a45",
                Char,
                2,
                &format!("invalid character 'a' at byte 2{digit}"),
            ),
            case(
                "1{",
                Char,
                1,
                &format!("invalid character '{{' at byte 1{digit}"),
            ),
            case(
                "1\u{0661}",
                Char,
                1,
                &format!("invalid character '\u{0661}' at byte 1{digit}"),
            ),
            case(
                b"12\xff".to_vec(),
                Char,
                2,
                &format!("invalid byte 0xff at byte 2{digit}"),
            ),
            case(
                "2.25.1",
                Char,
                1,
                &format!("invalid character '.' at byte 1{digit}"),
            ),
            case(TWO_POW_128, Overflow, 38, &too_large(38)),
            case(plus_one, Overflow, 38, &too_large(38)),
            case(forty.as_str(), Overflow, 39, &too_large(39)),
            // The first problem from the left wins: overflow before the later letter.
            case(format!("{TWO_POW_128}x"), Overflow, 38, &too_large(38)),
            case(mib, Overflow, 38, &too_large(38)),
        ],
    );
}

#[test]
fn oid_errors() {
    use ErrorKind::*;
    let prefix = |p: usize, e: &str| format!("invalid prefix at byte {p}: expected {e:?}");
    check(
        "parse_oid",
        Uuid::parse_oid,
        vec![
            case("", Length, 0, "empty input"),
            case(
                "2.25.",
                Length,
                5,
                "missing digits at byte 5: expected a decimal digit, found end of input",
            ),
            case(
                "urn:oid:2.25.",
                Length,
                13,
                "missing digits at byte 13: expected a decimal digit, found end of input",
            ),
            case("2.26.1", Prefix, 3, &prefix(3, "2.25.")),
            case("2.25", Prefix, 4, &prefix(4, "2.25.")),
            case("1.2.840", Prefix, 0, &prefix(0, "2.25.")),
            case("329800735698586629", Prefix, 0, &prefix(0, "2.25.")),
            case(" 2.25.1", Prefix, 0, &prefix(0, "2.25.")),
            case("urn:oid:2.26.1", Prefix, 11, &prefix(11, "urn:oid:2.25.")),
            case(
                "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
                Prefix,
                4,
                &prefix(4, "urn:oid:2.25."),
            ),
            case("urn:oid:", Prefix, 8, &prefix(8, "urn:oid:2.25.")),
            case(
                "urn:oid:2.25.01",
                LeadingZero,
                13,
                "leading zero at byte 13",
            ),
            case("2.25.00", LeadingZero, 5, "leading zero at byte 5"),
            case(
                "2.25.-1",
                Char,
                5,
                "invalid character '-' at byte 5: expected a decimal digit",
            ),
            case(
                "2.25.1.2",
                Char,
                6,
                "invalid character '.' at byte 6: expected a decimal digit",
            ),
            case(
                format!("2.25.{TWO_POW_128}"),
                Overflow,
                43,
                "integer too large at byte 43: a UUID is less than 2^128",
            ),
            case(
                format!("urn:oid:2.25.{}", "9".repeat(1 << 20)),
                Overflow,
                51,
                "integer too large at byte 51: a UUID is less than 2^128",
            ),
        ],
    );
}

#[test]
fn oid_prefix_case() {
    assert_eq!(Uuid::parse_oid(b"URN:OID:2.25.5"), Ok(Uuid::from_u128(5)));
    assert_eq!(Uuid::parse_oid(b"uRn:OiD:2.25.0"), Ok(Uuid::NIL));
    assert_eq!(Uuid::parse_oid(b"2.25.0"), Ok(Uuid::NIL));
}

#[test]
fn guid_hex_errors() {
    use ErrorKind::*;
    check(
        "parse_guid_hex",
        Uuid::parse_guid_hex,
        vec![
            case(
                "3322",
                Length,
                4,
                "invalid length: expected 32 bytes, found 4",
            ),
            case(
                "00112233-4455-6677-8899-aabbccddeeff",
                Length,
                32,
                "invalid length: expected 32 bytes, found 36",
            ),
            case(
                "3322110055447766889Xaabbccddeeff",
                Char,
                19,
                "invalid character 'X' at byte 19: expected a hexadecimal digit",
            ),
        ],
    );
}

fn decimalish() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Plausible numbers, with optional leading zeros, around the 39/40-digit boundary.
        "0{0,2}[0-9]{0,41}".prop_map(String::into_bytes),
        // Numbers near 2^128.
        (0u128..1000).prop_map(|d| (u128::MAX - d).to_string().into_bytes()),
        // Both sides of 2^128: the first 36 digits of u128::MAX and any three more.
        "[0-9]{3}"
            .prop_map(|tail| format!("340282366920938463463374607431768211{tail}").into_bytes()),
        // Digits with stray signs, spaces, dots and letters.
        "[0-9+\\- .a{]{0,12}".prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..45),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn every_form_round_trips(v in any::<u128>()) {
        let u = Uuid::from_u128(v);
        let dec = u.decimal().to_string();
        prop_assert_eq!(&dec, &v.to_string());
        prop_assert_eq!(Uuid::parse_decimal(dec.as_bytes()), Ok(u));
        let oid = u.oid().to_string();
        prop_assert_eq!(&oid, &format!("2.25.{v}"));
        prop_assert_eq!(Uuid::parse_oid(oid.as_bytes()), Ok(u));
        let urn = u.oid_urn().to_string();
        prop_assert_eq!(&urn, &format!("urn:oid:2.25.{v}"));
        prop_assert_eq!(Uuid::parse_oid(urn.to_uppercase().as_bytes()), Ok(u));
        let le = u.to_bytes_le();
        prop_assert_eq!(Uuid::from_bytes_le(le), u);
        let b = u.into_bytes();
        prop_assert_eq!(
            le,
            [b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12],
             b[13], b[14], b[15]]
        );
        let gh = u.guid_hex().to_string();
        prop_assert_eq!(Uuid::parse_guid_hex(gh.as_bytes()), Ok(u));
        prop_assert_eq!(Uuid::parse_guid_hex(gh.to_uppercase().as_bytes()), Ok(u));
    }

    #[test]
    fn parse_decimal_agrees_with_reference(s in decimalish()) {
        let got = Uuid::parse_decimal(&s);
        match reference::decimal(&s) {
            Some(v) => prop_assert_eq!(got, Ok(Uuid::from_u128(v))),
            None => {
                let e = got.expect_err("the reference rejected this input");
                // A position always points into the input, or at its end.
                prop_assert!(e.position() <= s.len());
            }
        }
        // The OID parser reads the same integer after its prefix.
        let mut oid = b"2.25.".to_vec();
        oid.extend_from_slice(&s);
        match (Uuid::parse_oid(&oid), Uuid::parse_decimal(&s)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.kind(), b.kind());
                prop_assert_eq!(a.position(), b.position() + 5);
            }
            (a, b) => prop_assert!(false, "oid {:?} vs decimal {:?}", a, b),
        }
    }
}

//! The short forms (ULID text, base32hex, base58, base58-flickr, base64url) and TypeID: the
//! TypeID spec's own cases, round trips of any 128 bits (property tests), and agreement with
//! independent implementations (the `ulid`, `bs58`, `base64`, `data-encoding` and `mti`
//! crates) on random values: 10^6 each in a release build (the CI runs it so), 10^4 in a debug
//! one. Each test prints its counts (`--nocapture`).

use uuidkit_test_support::peers::{base64, bs58, data_encoding, mti, ulid};
use uuidkit_test_support::Rng;

use base64::Engine as _;
use proptest::prelude::*;
use uuidkit::{ErrorKind, Prefix, ShortForm, TypeId, TypedId, Uuid};

/// The random values each differential test compares.
const DIFFERENTIAL: u64 = if cfg!(debug_assertions) {
    10_000
} else {
    1_000_000
};

fn encode(u: &Uuid, form: ShortForm) -> String {
    let mut buf = [0u8; uuidkit::MAX_SHORT_LEN];
    u.encode_short(form, &mut buf).to_owned()
}

// ---------------------------------------------------------------------------------------------
// The TypeID spec's cases.

struct Case {
    valid: bool,
    name: String,
    typeid: String,
    /// valid: the prefix; invalid: the error kind uuidkit reports.
    third: String,
    /// valid: the UUID; invalid: the byte uuidkit reports.
    fourth: String,
}

fn spec_cases() -> Vec<Case> {
    include_str!("../data/typeid-spec-v0.3.0.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l:?}");
            Case {
                valid: f[0] == "valid",
                name: f[1].to_owned(),
                typeid: f[2].to_owned(),
                third: f[3].to_owned(),
                fourth: f[4].to_owned(),
            }
        })
        .collect()
}

#[test]
fn typeid_spec_valid_cases_decode_and_encode_back() {
    let cases: Vec<Case> = spec_cases().into_iter().filter(|c| c.valid).collect();
    assert_eq!(cases.len(), 9);
    for c in &cases {
        let t = TypeId::parse(c.typeid.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(t.prefix().as_str(), c.third, "{}", c.name);
        let uuid = Uuid::parse_str(&c.fourth).unwrap();
        assert_eq!(t.uuid(), uuid, "{}", c.name);
        // Encoding the listed prefix and UUID gives the listed TypeID.
        let again = TypeId::new(Prefix::new(&c.third).unwrap(), uuid);
        assert_eq!(again.to_string(), c.typeid, "{}", c.name);
    }
    println!(
        "TypeID spec v0.3.0: {} valid cases decoded and encoded back",
        cases.len()
    );
}

#[test]
fn typeid_spec_invalid_cases_are_rejected_naming_the_rule_and_byte() {
    let cases: Vec<Case> = spec_cases().into_iter().filter(|c| !c.valid).collect();
    assert_eq!(cases.len(), 19);
    for c in &cases {
        let e = TypeId::parse(c.typeid.as_bytes())
            .err()
            .unwrap_or_else(|| panic!("{} was accepted", c.name));
        let kind = match e.kind() {
            ErrorKind::Prefix => "prefix",
            ErrorKind::Length => "length",
            ErrorKind::Char => "char",
            ErrorKind::Overflow => "overflow",
            k => panic!("{}: {k:?}", c.name),
        };
        assert_eq!(
            (kind, e.position().to_string()),
            (&*c.third, c.fourth.clone()),
            "{}: {e}",
            c.name
        );
        // The same through FromStr, and a typed TypeID rejects it too.
        assert_eq!(c.typeid.parse::<TypeId>(), Err(e));
        assert!(c.typeid.parse::<TypedId<Pfx>>().is_err());
    }
    println!("TypeID spec v0.3.0: {} invalid cases rejected", cases.len());
}

uuidkit::typeid_prefix!(Pfx = "prefix");
uuidkit::typeid_prefix!(User = "user");
uuidkit::typeid_prefix!(NoPrefix = "");

#[test]
fn typeid_messages_say_which_rule_broke() {
    let msg = |s: &str| TypeId::parse(s.as_bytes()).unwrap_err().to_string();
    assert_eq!(
        msg("prefix__00000000000000000000000000"),
        "invalid TypeID prefix at byte 6: it ends with '_' (a prefix starts and ends with a-z)"
    );
    assert_eq!(
        msg("préfix_00000000000000000000000000"),
        "invalid character 'é' at byte 2 in a TypeID prefix: expected a-z or '_'"
    );
    assert_eq!(
        msg(&format!("{}_00000000000000000000000000", "a".repeat(64))),
        "invalid TypeID prefix at byte 63: 64 characters, at most 63 allowed"
    );
    assert_eq!(
        msg("_"),
        "invalid TypeID prefix at byte 0: an empty prefix is written without the '_'"
    );
    assert_eq!(
        msg("prefix_123456789-123456789-123456"),
        "invalid character '-' at byte 16: expected a TypeID suffix character (0-9, a-z without i, l, o, u)"
    );
    assert_eq!(
        msg(""),
        "invalid length of the TypeID suffix at byte 0: expected 26 characters, found 0"
    );
}

#[test]
fn typed_typeids_read_only_their_prefix() {
    let s = "user_01h455vb4pex5vsknk084sn02q";
    let u: TypedId<User> = s.parse().unwrap();
    assert_eq!(u.to_string(), s);
    assert_eq!(u.to_typeid(), s.parse::<TypeId>().unwrap());
    let e = s.parse::<TypedId<Pfx>>().unwrap_err();
    assert_eq!((e.kind(), e.position()), (ErrorKind::Prefix, 0));
    assert_eq!(
        e.to_string(),
        "wrong TypeID type at byte 0: expected the prefix \"prefix\""
    );
    // Longer and shorter prefixes that start alike.
    assert!("users_01h455vb4pex5vsknk084sn02q"
        .parse::<TypedId<User>>()
        .is_err());
    assert!("use_01h455vb4pex5vsknk084sn02q"
        .parse::<TypedId<User>>()
        .is_err());
    // The empty prefix: no separator at all.
    let n: TypedId<NoPrefix> = "01h455vb4pex5vsknk084sn02q".parse().unwrap();
    assert_eq!(n.uuid(), u.uuid());
    assert_eq!(
        s.parse::<TypedId<NoPrefix>>().unwrap_err().to_string(),
        "wrong TypeID type at byte 0: expected no prefix"
    );
    // A malformed TypeID gets the general error, not "wrong type".
    let e = "user_01h455vb4pex5vsknk084sn02Q"
        .parse::<TypedId<User>>()
        .unwrap_err();
    assert_eq!((e.kind(), e.position()), (ErrorKind::Char, 30));
}

#[test]
fn generated_typeids_are_v7_and_sort_by_creation() {
    let p = Prefix::new("user").unwrap();
    let ids: Vec<TypeId> = (0..1000).map(|_| TypeId::v7(p)).collect();
    for w in ids.windows(2) {
        assert_eq!(w[0].uuid().version_num(), 7);
        assert!(w[0].to_string() < w[1].to_string(), "{} {}", w[0], w[1]);
    }
    let t: TypedId<User> = TypedId::v7();
    assert_eq!(t.uuid().version_num(), 7);
}

// ---------------------------------------------------------------------------------------------
// ULID facts.

#[test]
fn ulid_timestamp_is_the_v7_milliseconds_and_orders_alike() {
    let mut rng = Rng(7);
    let mut prev: Option<(Uuid, String)> = None;
    for _ in 0..10_000 {
        let u = uuidkit::v7();
        let text = encode(&u, ShortForm::Ulid);
        let ulid = ulid::Ulid::from_string(&text).unwrap();
        assert_eq!(Some(ulid.timestamp_ms()), u.unix_ts_ms(), "{text}");
        if let Some((pu, pt)) = &prev {
            assert!(pu < &u && pt < &text);
        }
        prev = Some((u, text));
    }
    // Any two values: the order of the ULID strings is the order of the UUIDs.
    for _ in 0..100_000 {
        let (a, b) = (rng.uuid(), rng.uuid());
        for form in [ShortForm::Ulid, ShortForm::Base32Hex, ShortForm::Base58] {
            assert_eq!(
                a.cmp(&b),
                encode(&a, form).cmp(&encode(&b, form)),
                "{form} {a} {b}"
            );
        }
    }
}

#[test]
fn ulid_input_is_case_insensitive_and_names_crockfords_excluded_letters() {
    let u = Uuid::parse_ulid(b"01FWHE4YDGFK1SHH6W1G60EECF").unwrap();
    assert_eq!(Uuid::parse_ulid(b"01fwhe4ydgfk1shh6w1g60eecf"), Ok(u));
    for (c, pos) in [
        ('I', 3),
        ('L', 10),
        ('O', 0),
        ('U', 25),
        ('o', 5),
        ('i', 24),
    ] {
        let mut s = *b"01FWHE4YDGFK1SHH6W1G60EECF";
        s[pos] = c as u8;
        let e = Uuid::parse_ulid(&s).unwrap_err();
        assert_eq!((e.kind(), e.position()), (ErrorKind::Char, pos));
        assert_eq!(
            e.to_string(),
            format!(
                "invalid character {c:?} at byte {pos}: Crockford's base32 has no I, L, O or U \
                 (it reads I and L as 1, O as 0; U is left out)"
            )
        );
    }
    let e = Uuid::parse_ulid(b"8ZZZZZZZZZZZZZZZZZZZZZZZZZ").unwrap_err();
    assert_eq!((e.kind(), e.position()), (ErrorKind::Overflow, 0));
    assert_eq!(
        e.to_string(),
        "value too large at byte 0: a UUID is at most \"7ZZZZZZZZZZZZZZZZZZZZZZZZZ\" (the first character at most '7')"
    );
    let e = Uuid::parse_ulid(b"01FWHE4YDGFK1SHH6W1G60EEC-").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid character '-' at byte 25: expected a ULID character (Crockford's base32: 0-9, A-Z without I, L, O, U)"
    );
}

#[test]
fn every_form_rejects_wrong_lengths_and_foreign_bytes_with_a_position() {
    for form in ShortForm::ALL {
        let good = encode(&Uuid::NAMESPACE_DNS, form);
        for len in [0, 1, form.len() - 1, form.len() + 1, 100] {
            let s: Vec<u8> = good.bytes().cycle().take(len).collect();
            let e = Uuid::parse_short(form, &s).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Length, "{form} {len}");
            assert!(e.position() <= form.len(), "{form} {len}");
        }
        for pos in 0..form.len() {
            for b in [b' ', b'=', b'+', b'/', b'.', 0x00, 0x80, 0xc3, 0xff] {
                let mut s = good.clone().into_bytes();
                s[pos] = b;
                let e = Uuid::parse_short(form, &s).unwrap_err();
                assert_eq!(
                    (e.kind(), e.position()),
                    (ErrorKind::Char, pos),
                    "{form} {s:?}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips of any 128 bits.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn every_short_form_round_trips(v in any::<u128>()) {
        let u = Uuid::from_u128(v);
        for form in ShortForm::ALL {
            let text = encode(&u, form);
            prop_assert_eq!(text.len(), form.len());
            prop_assert_eq!(Uuid::parse_short(form, text.as_bytes()), Ok(u));
            prop_assert_eq!(u.short(form).to_string(), text);
        }
        // The case-insensitive forms read their lower case too.
        for form in [ShortForm::Ulid, ShortForm::Base32Hex] {
            let lower = encode(&u, form).to_ascii_lowercase();
            prop_assert_eq!(Uuid::parse_short(form, lower.as_bytes()), Ok(u));
        }
    }

    #[test]
    fn typeid_round_trips(v in any::<u128>(), prefix in "([a-z]([a-z_]{0,61}[a-z])?)?") {
        let t = TypeId::new(Prefix::new(&prefix).unwrap(), Uuid::from_u128(v));
        let text = t.to_string();
        prop_assert_eq!(text.len(), prefix.len() + usize::from(!prefix.is_empty()) + 26);
        prop_assert_eq!(TypeId::parse(text.as_bytes()), Ok(t));
        prop_assert_eq!(&text[text.len() - 26..], encode(&t.uuid(), ShortForm::Ulid).to_ascii_lowercase());
    }

    #[test]
    fn no_input_panics(s in proptest::collection::vec(any::<u8>(), 0..100)) {
        for form in ShortForm::ALL {
            if let Err(e) = Uuid::parse_short(form, &s) {
                prop_assert!(e.position() <= s.len());
                prop_assert!(!e.to_string().is_empty());
            }
        }
        if let Err(e) = TypeId::parse(&s) {
            prop_assert!(e.position() <= s.len());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Differential tests against independent implementations.

#[test]
fn ulid_agrees_with_the_ulid_crate() {
    let mut rng = Rng(1);
    let mut buf = [0u8; 26];
    let mut overflows = 0;
    for _ in 0..DIFFERENTIAL {
        let u = rng.uuid();
        let ours = encode(&u, ShortForm::Ulid);
        let theirs = ulid::Ulid(u.as_u128());
        assert_eq!(ours, &*theirs.array_to_str(&mut buf), "{u}");
        let lower = ours.to_ascii_lowercase();
        assert_eq!(
            ulid::Ulid::from_string(&lower).map(|x| x.0),
            Ok(u.as_u128())
        );
        assert_eq!(Uuid::parse_ulid(lower.as_bytes()), Ok(u));
        // A random mutation: both accept it (with the same value) or both reject it.
        let mut m = ours.into_bytes();
        let pos = (rng.next() % 26) as usize;
        m[pos] = b"0789AZIiLlOoUu_-z~"[(rng.next() % 18) as usize];
        let a = Uuid::parse_ulid(&m).map(|u| u.as_u128());
        let b = std::str::from_utf8(&m)
            .ok()
            .and_then(|s| ulid::Ulid::from_string(s).ok())
            .map(|x| x.0);
        if pos == 0 && !b"01234567".contains(&m[0]) && b.is_some() {
            // The one difference: the ulid crate drops the bits above 128 of a first character
            // above 7 (it reads 8ZZ… as 0ZZ…); the ULID spec calls that an overflow to reject.
            assert_eq!(a.map_err(|e| e.kind()), Err(ErrorKind::Overflow));
            overflows += 1;
            continue;
        }
        assert_eq!(a.ok(), b, "{}", String::from_utf8_lossy(&m));
    }
    println!(
        "ulid: {DIFFERENTIAL} random values encoded and decoded alike, {} mutations judged alike, \
         {overflows} first characters above 7 rejected here and wrapped by the ulid crate",
        DIFFERENTIAL - overflows
    );
}

#[test]
fn base58_agrees_with_bs58() {
    let mut rng = Rng(2);
    for _ in 0..DIFFERENTIAL {
        let u = rng.uuid();
        for (form, alphabet) in [
            (ShortForm::Base58, bs58::Alphabet::BITCOIN),
            (ShortForm::Base58Flickr, bs58::Alphabet::FLICKR),
        ] {
            let ours = encode(&u, form);
            // bs58 writes a leading zero byte as its zero digit and drops leading zero digits
            // of the value otherwise: left-pad its text to the fixed 22.
            let theirs = bs58::encode(u.as_bytes())
                .with_alphabet(alphabet)
                .into_string();
            // '1' is the zero digit of both alphabets.
            assert_eq!(
                ours.trim_start_matches('1'),
                theirs.trim_start_matches('1'),
                "{form} {u}"
            );
            let decoded = bs58::decode(&ours)
                .with_alphabet(alphabet)
                .into_vec()
                .unwrap();
            // 22 digits of value v decode to at most 16 significant bytes after the zeros.
            let mut bytes = [0u8; 16];
            let sig = decoded
                .iter()
                .skip_while(|&&b| b == 0)
                .copied()
                .collect::<Vec<u8>>();
            bytes[16 - sig.len()..].copy_from_slice(&sig);
            assert_eq!(Uuid::from_bytes(bytes), u, "{form} {ours}");
            assert_eq!(Uuid::parse_short(form, ours.as_bytes()), Ok(u));
        }
    }
    println!("bs58: {DIFFERENTIAL} random values x 2 alphabets encoded and decoded alike");
}

#[test]
fn base64url_agrees_with_base64_and_data_encoding() {
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let de = data_encoding::BASE64URL_NOPAD;
    let mut rng = Rng(3);
    for _ in 0..DIFFERENTIAL {
        let u = rng.uuid();
        let ours = encode(&u, ShortForm::Base64Url);
        assert_eq!(ours, engine.encode(u.as_bytes()), "{u}");
        assert_eq!(ours, de.encode(u.as_bytes()), "{u}");
        assert_eq!(Uuid::parse_base64url(ours.as_bytes()), Ok(u));
        let mut m = ours.into_bytes();
        let pos = (rng.next() % 22) as usize;
        m[pos] = b"AQgw-_+/=. 9zB"[(rng.next() % 14) as usize];
        let a = Uuid::parse_base64url(&m)
            .ok()
            .map(|u| u.into_bytes().to_vec());
        let b = engine.decode(&m).ok();
        let c = de.decode(&m).ok();
        assert_eq!(a, b, "{}", String::from_utf8_lossy(&m));
        assert_eq!(a, c, "{}", String::from_utf8_lossy(&m));
    }
    println!("base64url: {DIFFERENTIAL} random values encoded alike by base64 and data-encoding, {DIFFERENTIAL} mutations judged alike");
}

#[test]
fn base32hex_agrees_with_data_encoding() {
    let de = data_encoding::BASE32HEX_NOPAD;
    let mut rng = Rng(4);
    for _ in 0..DIFFERENTIAL {
        let u = rng.uuid();
        let ours = encode(&u, ShortForm::Base32Hex);
        assert_eq!(ours, de.encode(u.as_bytes()), "{u}");
        assert_eq!(Uuid::parse_base32hex(ours.as_bytes()), Ok(u));
        let mut m = ours.into_bytes();
        let pos = (rng.next() % 26) as usize;
        m[pos] = b"0VWZ=T-S1G"[(rng.next() % 10) as usize];
        let a = Uuid::parse_base32hex(&m)
            .ok()
            .map(|u| u.into_bytes().to_vec());
        assert_eq!(a, de.decode(&m).ok(), "{}", String::from_utf8_lossy(&m));
    }
    println!("base32hex: {DIFFERENTIAL} random values encoded alike by data-encoding, {DIFFERENTIAL} mutations judged alike");
}

#[test]
fn typeid_agrees_with_mti() {
    use std::str::FromStr;
    let mut rng = Rng(5);
    for i in 0..DIFFERENTIAL {
        let u = rng.uuid();
        let prefix = ["user", "order_line", "a", ""][(i % 4) as usize];
        let ours = TypeId::new(Prefix::new(prefix).unwrap(), u).to_string();
        let theirs = mti::prelude::MagicTypeId::from_str(&ours).unwrap();
        assert_eq!(theirs.to_string(), ours);
        assert_eq!(theirs.prefix().as_str(), prefix);
        assert_eq!(theirs.suffix().to_uuid().as_bytes(), u.as_bytes(), "{ours}");
    }
    println!("TypeID (mti): {DIFFERENTIAL} random values read back alike");
}

// ---------------------------------------------------------------------------------------------
// serde.

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
struct Row {
    #[serde(with = "uuidkit::serde::ulid")]
    a: Uuid,
    #[serde(with = "uuidkit::serde::base32hex")]
    b: Uuid,
    #[serde(with = "uuidkit::serde::base58")]
    c: Uuid,
    #[serde(with = "uuidkit::serde::base58_flickr")]
    d: Uuid,
    #[serde(with = "uuidkit::serde::base64url")]
    e: Uuid,
    #[serde(with = "uuidkit::serde::typeid")]
    f: Uuid,
    #[serde(with = "uuidkit::serde::ulid::option")]
    g: Option<Uuid>,
    #[serde(with = "uuidkit::serde::base58::option")]
    h: Option<Uuid>,
    t: TypeId,
    u: TypedId<User>,
}

#[test]
fn serde_adapters_round_trip_in_text_and_binary_formats() {
    let mut rng = Rng(9);
    for _ in 0..2000 {
        let x = rng.uuid();
        let row = Row {
            a: x,
            b: x,
            c: x,
            d: x,
            e: x,
            f: x,
            g: Some(x),
            h: None,
            t: TypeId::new(Prefix::new("order").unwrap(), x),
            u: TypedId::new(x),
        };
        let json = serde_json::to_string(&row).unwrap();
        assert!(
            json.contains(&format!("\"a\":\"{}\"", encode(&x, ShortForm::Ulid))),
            "{json}"
        );
        assert!(json.contains(&format!(
            "\"u\":\"user_{}\"",
            encode(&x, ShortForm::Ulid).to_ascii_lowercase()
        )));
        assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
        let bin = postcard::to_allocvec(&row).unwrap();
        assert_eq!(postcard::from_bytes::<Row>(&bin).unwrap(), row);
    }
}

#[test]
fn serde_errors_carry_the_parsers_message() {
    #[derive(serde::Deserialize, Debug)]
    struct One {
        #[serde(with = "uuidkit::serde::ulid")]
        #[allow(dead_code)]
        id: Uuid,
    }
    let e = serde_json::from_str::<One>(r#"{"id":"01FWHE4YDGFK1SHH6W1G6OEECF"}"#).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("invalid ulid UUID: invalid character 'O' at byte 21: Crockford's base32"),
        "{e}"
    );
    let e =
        serde_json::from_str::<TypedId<User>>(r#""order_01fwhe4ydgfk1shh6w1g60eecf""#).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "invalid TypeID: wrong TypeID type at byte 0: expected the prefix \"user\""
        ),
        "{e}"
    );
}

/// The run-time decoders (`parse_ulid`, `parse_base32hex`, `parse_base64url`, `parse_short`:
/// SSE2 on x86-64) and their `const fn` twins give the same value or the same error on random
/// texts, on every single-byte substitution (all 256 bytes) at every position of encodings of
/// random and edge values, and on random bytes and lengths.
#[test]
fn run_time_and_const_decoders_agree() {
    fn check(form: ShortForm, s: &[u8]) -> bool {
        let fast = Uuid::parse_short(form, s);
        let slow = Uuid::parse_short_const(form, s);
        assert_eq!(fast, slow, "{form}: {:?}", String::from_utf8_lossy(s));
        let named = match form {
            ShortForm::Ulid => (Uuid::parse_ulid(s), Uuid::parse_ulid_const(s)),
            ShortForm::Base32Hex => (Uuid::parse_base32hex(s), Uuid::parse_base32hex_const(s)),
            ShortForm::Base64Url => (Uuid::parse_base64url(s), Uuid::parse_base64url_const(s)),
            _ => (fast, slow),
        };
        assert_eq!(named.0, fast, "{form}");
        assert_eq!(named.1, fast, "{form}");
        fast.is_ok()
    }
    let mut rng = Rng(30);
    let rounds = if cfg!(debug_assertions) { 20 } else { 300 };
    let edges = [
        Uuid::NIL,
        Uuid::MAX,
        Uuid::from_u128(1),
        Uuid::from_u128(u128::MAX >> 1),
    ];
    let (mut checked, mut accepted) = (0u64, 0u64);
    for round in 0..rounds + edges.len() {
        let u = edges.get(round).copied().unwrap_or_else(|| rng.uuid());
        for form in ShortForm::ALL {
            let text = encode(&u, form).into_bytes();
            assert!(check(form, &text));
            assert!(check(form, &text.to_ascii_lowercase()) || form != ShortForm::Ulid);
            for pos in 0..text.len() {
                for byte in 0..=255u8 {
                    let mut m = text.clone();
                    m[pos] = byte;
                    accepted += u64::from(check(form, &m));
                    checked += 1;
                }
            }
            // Random bytes of the form's alphabet-ish range, and random lengths around it.
            for _ in 0..64 {
                let len = match rng.next() % 4 {
                    0 => (rng.next() % 30) as usize,
                    _ => form.len(),
                };
                let s: Vec<u8> = (0..len)
                    .map(|_| match rng.next() % 3 {
                        0 => rng.next() as u8,
                        _ => {
                            b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
                                [(rng.next() % 64) as usize]
                        }
                    })
                    .collect();
                accepted += u64::from(check(form, &s));
                checked += 1;
            }
        }
    }
    // Some substitutions are accepted (another character of the alphabet), most are not.
    assert!(
        accepted > 0 && accepted < checked,
        "{accepted} of {checked}"
    );
    println!("run-time and const decoders agree on {checked} texts ({accepted} accepted)");
}

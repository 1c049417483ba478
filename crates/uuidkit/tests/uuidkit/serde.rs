//! Serde round trips (feature `serde`): text in human-readable formats (serde_json), bytes in
//! binary ones (postcard), the adapter modules, and the error text that reaches the user.
#![cfg(feature = "serde")]

use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use uuidkit::Uuid;

// Source: RFC 9562 Appendix A.6 (v7 example), A.4 (v5 example of www.example.com).
const V7: &str = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
const V7_BYTES: [u8; 16] = [
    0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x7c, 0xc3, 0x98, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39, 0x8f,
];

fn v7() -> Uuid {
    Uuid::from_bytes(V7_BYTES)
}

#[test]
fn json_writes_the_lower_case_hyphenated_string() {
    assert_eq!(serde_json::to_string(&v7()).unwrap(), format!("\"{V7}\""));
}

#[test]
fn json_reads_all_four_text_forms_in_either_case() {
    let simple = V7.replace('-', "");
    for text in [
        V7.to_string(),
        V7.to_uppercase(),
        simple.clone(),
        simple.to_uppercase(),
        format!("{{{V7}}}"),
        format!("urn:uuid:{V7}"),
        format!("URN:UUID:{}", V7.to_uppercase()),
    ] {
        let u: Uuid = serde_json::from_str(&format!("\"{text}\"")).unwrap();
        assert_eq!(u, v7(), "{text}");
    }
}

#[test]
fn json_error_carries_the_parser_message_and_position() {
    let e = serde_json::from_str::<Uuid>("\"017f22e2-79b0-7cc3-98c4-dc0c0c07398\"").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid UUID: invalid group length: group 5 at byte 24 has 11 digits, expected 12 at line 1 column 37"
    );
    let e = serde_json::from_str::<Uuid>("\"{017f22e2-79b0-7cc3-98c4-dc0c0c07398f\"").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("invalid UUID: unbalanced brace at byte 37"),
        "{e}"
    );
    let e = serde_json::from_str::<Uuid>("42").unwrap_err();
    assert!(
        e.to_string().contains(
            "expected a UUID as a string (hyphenated, simple, braced or URN) or 16 bytes"
        ),
        "{e}"
    );
}

#[test]
fn json_reads_a_string_or_sixteen_numbers_and_compact_reads_sixteen_numbers() {
    let arr = serde_json::to_string(&V7_BYTES).unwrap();
    // The default also reads the array the `uuid` crate's `compact` adapter writes.
    assert_eq!(serde_json::from_str::<Uuid>(&arr).unwrap(), v7());
    let short = serde_json::to_string(&V7_BYTES[..15]).unwrap();
    let e = serde_json::from_str::<Uuid>(&short).unwrap_err();
    assert!(e.to_string().starts_with("invalid length 15"), "{e}");
    let e = serde_json::from_str::<Uuid>("[1, \"a\"]").unwrap_err();
    assert!(e.to_string().starts_with("invalid type: "), "{e}");

    #[derive(Debug, Deserialize)]
    struct C {
        #[serde(with = "uuidkit::serde::compact")]
        id: Uuid,
    }
    let c: C = serde_json::from_str(&format!("{{\"id\":{arr}}}")).unwrap();
    assert_eq!(c.id, v7());
    let short = serde_json::to_string(&V7_BYTES[..15]).unwrap();
    let e = serde_json::from_str::<C>(&format!("{{\"id\":{short}}}")).unwrap_err();
    assert!(e.to_string().starts_with("invalid length 15"), "{e}");
    let long = serde_json::to_string(&[0u8; 17]).unwrap();
    assert!(serde_json::from_str::<C>(&format!("{{\"id\":{long}}}")).is_err());
}

#[test]
fn postcard_writes_the_sixteen_bytes() {
    let bin = postcard::to_allocvec(&v7()).unwrap();
    // postcard's byte string: a varint length (16), then the bytes.
    let mut want = vec![16u8];
    want.extend_from_slice(&V7_BYTES);
    assert_eq!(bin, want);
    assert_eq!(postcard::from_bytes::<Uuid>(&bin).unwrap(), v7());
}

#[test]
fn postcard_rejects_a_wrong_byte_count() {
    let mut bin = vec![15u8];
    bin.extend_from_slice(&V7_BYTES[..15]);
    assert!(postcard::from_bytes::<Uuid>(&bin).is_err());
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Forms {
    plain: Uuid,
    #[serde(with = "uuidkit::serde::hyphenated")]
    hyphenated: Uuid,
    #[serde(with = "uuidkit::serde::simple")]
    simple: Uuid,
    #[serde(with = "uuidkit::serde::braced")]
    braced: Uuid,
    #[serde(with = "uuidkit::serde::urn")]
    urn: Uuid,
    #[serde(with = "uuidkit::serde::compact")]
    compact: Uuid,
}

fn forms(u: Uuid) -> Forms {
    Forms {
        plain: u,
        hyphenated: u,
        simple: u,
        braced: u,
        urn: u,
        compact: u,
    }
}

#[test]
fn adapters_write_their_form_in_json() {
    let v: serde_json::Value = serde_json::to_value(forms(v7())).unwrap();
    assert_eq!(v["plain"], V7);
    assert_eq!(v["hyphenated"], V7);
    assert_eq!(v["simple"], V7.replace('-', ""));
    assert_eq!(v["braced"], format!("{{{V7}}}"));
    assert_eq!(v["urn"], format!("urn:uuid:{V7}"));
    let bytes: Vec<u64> = V7_BYTES.iter().map(|&b| u64::from(b)).collect();
    assert_eq!(v["compact"], serde_json::json!(bytes));
}

#[test]
fn adapters_read_any_text_form() {
    let text = format!(
        r#"{{"plain":"{{{V7}}}","hyphenated":"urn:uuid:{V7}","simple":"{V7}","braced":"{up}","urn":"{V7}","compact":{arr}}}"#,
        up = V7.to_uppercase(),
        arr = serde_json::to_string(&V7_BYTES).unwrap()
    );
    assert_eq!(serde_json::from_str::<Forms>(&text).unwrap(), forms(v7()));
}

#[test]
fn adapters_in_postcard_text_stays_text_and_compact_has_no_prefix() {
    #[derive(Serialize)]
    struct Compact {
        #[serde(with = "uuidkit::serde::compact")]
        id: Uuid,
    }
    #[derive(Serialize)]
    struct Simple {
        #[serde(with = "uuidkit::serde::simple")]
        id: Uuid,
    }
    assert_eq!(
        postcard::to_allocvec(&Compact { id: v7() }).unwrap(),
        V7_BYTES
    );
    let simple = postcard::to_allocvec(&Simple { id: v7() }).unwrap();
    assert_eq!(simple[0], 32);
    assert_eq!(&simple[1..], V7.replace('-', "").as_bytes());
}

proptest! {
    #[test]
    fn json_and_postcard_round_trip(bytes in any::<[u8; 16]>()) {
        let u = Uuid::from_bytes(bytes);
        let f = forms(u);
        let text = serde_json::to_string(&f).unwrap();
        prop_assert_eq!(serde_json::from_str::<Forms>(&text).unwrap(), forms(u));
        let bin = postcard::to_allocvec(&f).unwrap();
        prop_assert_eq!(postcard::from_bytes::<Forms>(&bin).unwrap(), forms(u));
        // The default binary form is the bytes themselves.
        let plain = postcard::to_allocvec(&u).unwrap();
        prop_assert_eq!(&plain[1..], &bytes[..]);
    }

    #[test]
    fn json_never_panics_on_arbitrary_strings(s in ".{0,60}") {
        let quoted = serde_json::to_string(&s).unwrap();
        let ours = serde_json::from_str::<Uuid>(&quoted).ok();
        prop_assert_eq!(ours, Uuid::parse_str(&s).ok());
    }
}

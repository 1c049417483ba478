//! Property tests of the text forms and of the order:
//!
//! - every way of writing a UUID (the four forms in both cases through `encode`, the `Display`
//!   adapters, `{:x}`/`{:X}`, `encode_hyphenated`, `encode_simple`) matches the naive
//!   reference writer, and reads back to the same UUID through every parser (`parse_str`,
//!   `try_parse_ascii`, `FromStr`, `TryFrom`, and the one-form parsers);
//! - `Uuid::parse_str` accepts exactly what the naive reference parser accepts, with the same
//!   value, on random strings and on valid strings with bytes changed, inserted or deleted,
//!   case swapped, or whitespace added;
//! - `Ord` is the unsigned byte-by-byte order (RFC 9562 §6.11, RFC 4530 `uuidOrderingMatch`).
//!
//! The reference is the fuzz targets' (uuidkit-test-support's `reference`: an independent
//! template-based reading of RFC 9562 §4's grammar plus the braced and URN forms, with its own
//! tests), as in `fuzz_props.rs`, so that there is one reference to trust.
//!
//! Cases per property: `UUIDKIT_PROPTEST_CASES` (default 2000, to keep CI fast). The long run:
//!
//! ```text
//! UUIDKIT_PROPTEST_CASES=1000000 cargo test --release -p uuidkit --test uuidkit -- roundtrip::
//! ```

use std::cmp::Ordering;

use proptest::prelude::*;
use uuidkit::{Case, Format, Uuid, MAX_ENCODED_LEN};

fn cases() -> u32 {
    uuidkit_test_support::proptest_cases_or(2000)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        // A failure prints its minimal input; keep it as a named test, not a seed file.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---- the naive reference ------------------------------------------------------------------

// The fuzz targets' reference grammar (uuidkit-test-support): its hex forms.
use uuidkit_test_support::reference;

/// The reference's writer for `format`.
fn naive_format(v: u128, format: Format, upper: bool) -> String {
    let form = match format {
        Format::Hyphenated => 0,
        Format::Simple => 1,
        Format::Braced => 2,
        Format::Urn => 3,
    };
    reference::format(v, form, upper)
}

/// Unsigned lexicographic comparison of the 16 octets, written out.
fn naive_cmp(a: &[u8; 16], b: &[u8; 16]) -> Ordering {
    for i in 0..16 {
        if a[i] < b[i] {
            return Ordering::Less;
        }
        if a[i] > b[i] {
            return Ordering::Greater;
        }
    }
    Ordering::Equal
}

// ---- strategies ---------------------------------------------------------------------------

/// Values with structure as well as noise: random, all-equal bytes, and the special values.
fn any_uuid() -> impl Strategy<Value = Uuid> {
    prop_oneof![
        8 => any::<u128>().prop_map(Uuid::from_u128),
        1 => any::<u8>().prop_map(|b| Uuid::from_bytes([b; 16])),
        1 => prop::sample::select(vec![Uuid::NIL, Uuid::MAX, Uuid::NAMESPACE_DNS]),
    ]
}

fn any_format() -> impl Strategy<Value = Format> {
    prop::sample::select(vec![
        Format::Hyphenated,
        Format::Simple,
        Format::Braced,
        Format::Urn,
    ])
}

#[derive(Debug, Clone)]
enum Mutation {
    Change(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Delete(prop::sample::Index),
    SwapCaseAt(prop::sample::Index),
    SwapCaseAll,
    Whitespace(prop::sample::Index, u8),
    Lead(u8),
    Trail(u8),
}

fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(b"0123456789abcdefABCDEF".to_vec()),
        2 => prop::sample::select(b"-{}:urnidURNIDgGxX+".to_vec()),
        1 => prop::sample::select(vec![b' ', b'\t', b'\n', b'\r', 0, 0x7f, 0x80, 0xc3, 0xff]),
        1 => any::<u8>(),
    ]
}

fn whitespace() -> impl Strategy<Value = u8> {
    prop::sample::select(vec![b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c])
}

fn mutation() -> impl Strategy<Value = Mutation> {
    use prop::sample::Index;
    prop_oneof![
        3 => (any::<Index>(), interesting_byte()).prop_map(|(i, b)| Mutation::Change(i, b)),
        2 => (any::<Index>(), interesting_byte()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        2 => any::<Index>().prop_map(Mutation::Delete),
        2 => any::<Index>().prop_map(Mutation::SwapCaseAt),
        1 => Just(Mutation::SwapCaseAll),
        1 => (any::<Index>(), whitespace()).prop_map(|(i, b)| Mutation::Whitespace(i, b)),
        1 => whitespace().prop_map(Mutation::Lead),
        1 => whitespace().prop_map(Mutation::Trail),
    ]
}

fn swap_case(b: u8) -> u8 {
    if b.is_ascii_lowercase() {
        b.to_ascii_uppercase()
    } else {
        b.to_ascii_lowercase()
    }
}

fn apply(mut s: Vec<u8>, m: &Mutation) -> Vec<u8> {
    let at = |i: &prop::sample::Index, n: usize| if n == 0 { 0 } else { i.index(n) };
    match m {
        Mutation::Change(i, b) if !s.is_empty() => {
            let k = at(i, s.len());
            s[k] = *b;
        }
        Mutation::Insert(i, b) | Mutation::Whitespace(i, b) => {
            let k = at(i, s.len() + 1);
            s.insert(k, *b);
        }
        Mutation::Delete(i) if !s.is_empty() => {
            let k = at(i, s.len());
            s.remove(k);
        }
        Mutation::SwapCaseAt(i) if !s.is_empty() => {
            let k = at(i, s.len());
            s[k] = swap_case(s[k]);
        }
        Mutation::SwapCaseAll => s.iter_mut().for_each(|b| *b = swap_case(*b)),
        Mutation::Lead(b) => s.insert(0, *b),
        Mutation::Trail(b) => s.push(*b),
        _ => {}
    }
    s
}

/// A valid form of a random UUID (random case per digit) with 0 to 3 mutations.
fn mutated_text() -> impl Strategy<Value = Vec<u8>> {
    (
        any_uuid(),
        any_format(),
        any::<bool>(),
        prop::collection::vec(any::<bool>(), 45),
        prop::collection::vec(mutation(), 0..=3),
    )
        .prop_map(|(u, format, urn_upper, flips, muts)| {
            let mut s = naive_format(u.as_u128(), format, false).into_bytes();
            // Mixed case is valid (RFC 9562 §4), including the URN prefix.
            for (i, (b, flip)) in s.iter_mut().zip(flips).enumerate() {
                let in_prefix = format == Format::Urn && i < 9;
                if flip && (!in_prefix || urn_upper) {
                    *b = swap_case(*b);
                }
            }
            muts.iter().fold(s, apply)
        })
}

/// Strings from the grammar's alphabet at lengths around the accepted ones.
fn random_text() -> impl Strategy<Value = Vec<u8>> {
    let len = prop_oneof![prop::sample::select(vec![32usize, 36, 38, 45]), 0usize..=48,];
    len.prop_flat_map(|n| prop::collection::vec(interesting_byte(), n))
}

// ---- properties ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_writer_matches_the_reference_and_reads_back(u in any_uuid()) {
        let v = u.as_u128();
        let mut buf = [0u8; MAX_ENCODED_LEN];
        for format in [Format::Hyphenated, Format::Simple, Format::Braced, Format::Urn] {
            for (case, upper) in [(Case::Lower, false), (Case::Upper, true)] {
                let want = naive_format(v, format, upper);
                let text = u.encode(format, case, &mut buf).to_owned();
                prop_assert_eq!(&text, &want);
                prop_assert_eq!(text.len(), format.len());
                let mut raw = [0u8; MAX_ENCODED_LEN];
                let n = u.encode_bytes(format, case, &mut raw);
                prop_assert_eq!(&raw[..n], want.as_bytes());
                // Read back through every parser that takes this form.
                prop_assert_eq!(Uuid::parse_str(&text), Ok(u));
                prop_assert_eq!(Uuid::try_parse_ascii(text.as_bytes()), Ok(u));
                prop_assert_eq!(text.parse::<Uuid>(), Ok(u));
                prop_assert_eq!(Uuid::try_from(text.as_str()), Ok(u));
                match format {
                    Format::Hyphenated => prop_assert_eq!(Uuid::parse_hyphenated(&text), Ok(u)),
                    Format::Simple => prop_assert_eq!(Uuid::parse_simple(&text), Ok(u)),
                    _ => {
                        prop_assert!(Uuid::parse_hyphenated(&text).is_err());
                        prop_assert!(Uuid::parse_simple(&text).is_err());
                    }
                }
            }
        }

        // The `Display`/`LowerHex`/`UpperHex` adapters.
        let adapters = [
            (u.hyphenated(), Format::Hyphenated),
            (u.simple(), Format::Simple),
            (u.braced(), Format::Braced),
            (u.urn(), Format::Urn),
        ];
        for (adapter, format) in adapters {
            let lower = naive_format(v, format, false);
            let upper = naive_format(v, format, true);
            prop_assert_eq!(adapter.to_string(), lower.clone());
            prop_assert_eq!(format!("{adapter:x}"), lower.clone());
            prop_assert_eq!(format!("{adapter:X}"), upper.clone());
            prop_assert_eq!(Uuid::parse_str(&adapter.to_string()), Ok(u));
            prop_assert_eq!(Uuid::parse_str(&format!("{adapter:X}")), Ok(u));
        }
        let hyphenated = naive_format(v, Format::Hyphenated, false);
        prop_assert_eq!(u.to_string(), hyphenated.clone());
        prop_assert_eq!(format!("{u:?}"), hyphenated.clone());
        prop_assert_eq!(format!("{u:x}"), hyphenated.clone());
        prop_assert_eq!(format!("{u:X}"), naive_format(v, Format::Hyphenated, true));
        prop_assert_eq!(u.to_string().parse::<Uuid>(), Ok(u));
        prop_assert_eq!(format!("{u:X}").parse::<Uuid>(), Ok(u));

        // The const encoders.
        for (case, upper) in [(Case::Lower, false), (Case::Upper, true)] {
            let h = u.encode_hyphenated(case);
            let s = u.encode_simple(case);
            let (want_h, want_s) = (
                naive_format(v, Format::Hyphenated, upper),
                naive_format(v, Format::Simple, upper),
            );
            prop_assert_eq!(&h[..], want_h.as_bytes());
            prop_assert_eq!(&s[..], want_s.as_bytes());
            prop_assert_eq!(Uuid::try_parse_ascii(&h), Ok(u));
            prop_assert_eq!(Uuid::try_parse_ascii(&s), Ok(u));
        }

        // The binary and integer views agree too.
        prop_assert_eq!(Uuid::from_bytes(u.into_bytes()), u);
        prop_assert_eq!(Uuid::from_u128(u.as_u128()), u);
        let (hi, lo) = u.as_u64_pair();
        prop_assert_eq!(Uuid::from_u64_pair(hi, lo), u);
        let (d1, d2, d3, d4) = u.as_fields();
        prop_assert_eq!(Uuid::from_fields(d1, d2, d3, d4), u);
    }

    #[test]
    fn parser_agrees_with_the_reference_on_mutated_text(s in mutated_text()) {
        check_against_reference(&s)?;
    }

    #[test]
    fn parser_agrees_with_the_reference_on_random_text(s in random_text()) {
        check_against_reference(&s)?;
    }

    #[test]
    fn order_is_unsigned_byte_order(
        a in any::<[u8; 16]>(),
        tail in any::<[u8; 16]>(),
        shared in 0usize..=16,
    ) {
        // `b` shares a prefix of random length with `a`, so that every octet position gets to
        // decide (independent random pairs almost always differ in octet 0).
        let mut b = a;
        b[shared..].copy_from_slice(&tail[shared..]);
        let (ua, ub) = (Uuid::from_bytes(a), Uuid::from_bytes(b));
        let want = naive_cmp(&a, &b);
        prop_assert_eq!(ua.cmp(&ub), want);
        prop_assert_eq!(ub.cmp(&ua), want.reverse());
        prop_assert_eq!(ua.partial_cmp(&ub), Some(want));
        prop_assert_eq!(ua == ub, want == Ordering::Equal);
        prop_assert_eq!(ua.as_u128().cmp(&ub.as_u128()), want);
        // The text forms sort the same way in lower case (RFC 9562 §6.11).
        prop_assert_eq!(ua.to_string().cmp(&ub.to_string()), want);
    }
}

fn check_against_reference(s: &[u8]) -> Result<(), TestCaseError> {
    let want = reference::any_form(s);
    let got = Uuid::try_parse_ascii(s);
    prop_assert_eq!(
        got.ok().map(|u| u.as_u128()),
        want,
        "input {:?}: {:?}",
        String::from_utf8_lossy(s),
        got
    );
    if let Ok(text) = std::str::from_utf8(s) {
        prop_assert_eq!(Uuid::parse_str(text), got);
        prop_assert_eq!(text.parse::<Uuid>(), got);
        let h = Uuid::parse_hyphenated(text).ok().map(|u| u.as_u128());
        prop_assert_eq!(h, reference::hyphenated(s));
        let simple = Uuid::parse_simple(text).ok().map(|u| u.as_u128());
        prop_assert_eq!(simple, reference::simple(s));
    }
    if let Err(e) = got {
        prop_assert!(e.position() <= s.len());
    }
    Ok(())
}

#[test]
fn formatting_respects_width_and_alignment() {
    let u = Uuid::NAMESPACE_DNS;
    let text = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
    assert_eq!(format!("{u:>40}"), format!("{text:>40}"));
    assert_eq!(format!("{u:<40}|"), format!("{text:<40}|"));
    assert_eq!(
        format!("{:^50}", u.urn()),
        format!("{:^50}", "urn:uuid:".to_owned() + text)
    );
    assert_eq!(
        format!("{:*>34X}", u.simple()),
        "**6BA7B8109DAD11D180B400C04FD430C8"
    );
    // A precision cuts the text, as for a `str`; without width or precision the text is
    // written whole.
    assert_eq!(
        format!("{u:.8}|{u:X}"),
        format!("{text:.8}|{}", text.to_uppercase())
    );
    assert_eq!(format!("{:.4}", u.simple()), "6ba7");
}

//! Every level this machine runs, checked against the table-driven scalar code
//! (`scalar::reference`, the reference): same acceptance, same bytes, on valid text, on every
//! single-byte corruption of it, and on random bytes; the same text out of every encoder. The
//! scalar level is the SWAR `const fn` code of `scalar.rs`, so it is checked the same way, and
//! the `const` parser (`Uuid::parse_str_const`) must give exactly the run-time parser's answer,
//! error kind, position and message included.

use proptest::prelude::*;

use super::{for_each_level, Kernels, Level};
use crate::scalar::{self as parse, reference};
use crate::text::{Case, Format};
use crate::Uuid;

const FORMS: [Format; 4] = [
    Format::Hyphenated,
    Format::Simple,
    Format::Braced,
    Format::Urn,
];

fn text(u: Uuid, format: Format, case: Case) -> Vec<u8> {
    let mut buf = [0u8; crate::MAX_ENCODED_LEN];
    let n = u.encode_bytes(format, case, &mut buf);
    buf[..n].to_vec()
}

/// The reference answer for any input: the table-driven fast path's bytes.
fn scalar(s: &[u8]) -> Option<[u8; 16]> {
    reference::parse_fast(s).map(Uuid::into_bytes)
}

/// Checks one input on one level: every parsing entry returns what the scalar `const fn`
/// returns (the same bytes, or the same error), and the any-form entry succeeds exactly when
/// the scalar fast path does.
fn check(k: &Kernels, s: &[u8]) -> Result<(), TestCaseError> {
    let got = k.parse(s);
    prop_assert_eq!(got, parse::parse(s), "{:?} parse {:?}", k.level, s);
    prop_assert_eq!(
        got.ok().map(Uuid::into_bytes),
        scalar(s),
        "{:?} fast path {:?}",
        k.level,
        s
    );
    prop_assert_eq!(
        k.hyphenated(s),
        parse::parse_hyphenated(s),
        "{:?} hyphenated {:?}",
        k.level,
        s
    );
    prop_assert_eq!(
        k.simple(s),
        parse::parse_simple(s),
        "{:?} simple {:?}",
        k.level,
        s
    );
    Ok(())
}

fn check_all(s: &[u8]) -> Result<(), TestCaseError> {
    // The SWAR fast path against the table-driven one.
    prop_assert_eq!(
        parse::parse_fast(s).map(Uuid::into_bytes),
        scalar(s),
        "SWAR fast path {:?}",
        s
    );
    // The `const` parser against the run-time one, errors included (kind, position, detail).
    let runtime = Uuid::try_parse_ascii(s);
    prop_assert_eq!(parse::parse(s), runtime, "const vs run-time {:?}", s);
    if let Ok(text) = core::str::from_utf8(s) {
        let c = Uuid::parse_str_const(text);
        prop_assert_eq!(c, Uuid::parse_str(text), "parse_str_const {:?}", text);
        prop_assert_eq!(c, runtime, "parse_str_const {:?}", text);
        if let Err(e) = c {
            prop_assert_eq!(
                e.to_string(),
                Uuid::parse_str(text).unwrap_err().to_string(),
                "message of {:?}",
                text
            );
        }
    }
    let mut r = Ok(());
    for_each_level(|k| {
        if r.is_ok() {
            r = check(k, s);
        }
    });
    r
}

#[test]
fn scalar_is_always_supported_and_best_is_supported() {
    let mut seen = Vec::new();
    for_each_level(|k| seen.push(k.level));
    assert_eq!(seen.first(), Some(&Level::Scalar));
    assert!(seen.contains(&super::active_level()));
    // On x86-64 every SIMD level is compiled in; say which ones this run really checks.
    eprintln!("levels checked here: {seen:?}");
}

#[cfg(all(feature = "simd", feature = "std", target_arch = "x86_64"))]
#[test]
fn levels_follow_the_cpu() {
    let mut seen = Vec::new();
    for_each_level(|k| seen.push(k.level));
    assert_eq!(
        seen.contains(&Level::Avx2),
        std::is_x86_feature_detected!("avx2")
    );
    assert_eq!(
        seen.contains(&Level::Ssse3),
        std::is_x86_feature_detected!("ssse3")
    );
}

/// Every byte value at every position of every form, on a few UUIDs that between them use
/// every digit in both cases: the kernels must reject exactly what the scalar code rejects.
#[test]
fn every_single_byte_substitution() {
    let uuids = [
        Uuid::NIL,
        Uuid::MAX,
        Uuid::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210),
        Uuid::from_u128(0x9abc_def0_1234_5678_0f1e_2d3c_4b5a_6978),
    ];
    for u in uuids {
        for format in FORMS {
            for case in [Case::Lower, Case::Upper] {
                let good = text(u, format, case);
                check_all(&good).unwrap();
                for pos in 0..good.len() {
                    for b in 0..=255u8 {
                        let mut s = good.clone();
                        s[pos] = b;
                        check_all(&s).unwrap();
                    }
                }
            }
        }
    }
}

/// Two positions corrupted at once (a digit and a separator, both hyphens, ...): a kernel that
/// checks one part only when another passes would show here.
#[test]
fn pairs_of_substitutions_by_separators() {
    let u = Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
    let good = text(u, Format::Braced, Case::Lower);
    let bytes = [
        b'-', b'0', b'g', b'{', b'}', b' ', 0x80, 0xff, b'/', b':', b'@', b'`',
    ];
    for i in 0..good.len() {
        for j in i + 1..good.len() {
            for &bi in &bytes {
                for &bj in &bytes {
                    let mut s = good.clone();
                    s[i] = bi;
                    s[j] = bj;
                    check_all(&s).unwrap();
                    // The same body unbraced, when both positions fall inside it.
                    if i >= 1 && j <= 36 {
                        check_all(&s[1..37]).unwrap();
                    }
                }
            }
        }
    }
}

#[test]
fn urn_prefix_in_every_case_mix() {
    let body = text(Uuid::NAMESPACE_DNS, Format::Hyphenated, Case::Lower);
    for mask in 0u32..(1 << 9) {
        let mut s: Vec<u8> = b"urn:uuid:".to_vec();
        for (i, c) in s.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                // Flipping 0x20 changes the case of a letter, and turns ':' into '\x1a'.
                *c ^= 0x20;
            }
        }
        s.extend_from_slice(&body);
        check_all(&s).unwrap();
    }
}

#[test]
fn encoders_agree_on_edge_values() {
    for u in [
        Uuid::NIL,
        Uuid::MAX,
        Uuid::NAMESPACE_DNS,
        Uuid::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210),
    ] {
        check_encode(u.into_bytes()).unwrap();
    }
}

fn check_encode(b: [u8; 16]) -> Result<(), TestCaseError> {
    let u = Uuid::from_bytes(b);
    let mut r = Ok(());
    for_each_level(|k| {
        if r.is_err() {
            return;
        }
        r = (|| {
            for case in [Case::Lower, Case::Upper] {
                let mut h = [0u8; 36];
                k.encode_hyphenated(&b, case, &mut h);
                let want_h = reference::encode_hyphenated(&b, case);
                prop_assert_eq!(h, want_h, "{:?} {:?}", k.level, case);
                prop_assert_eq!(u.encode_hyphenated(case), want_h, "const {:?}", case);
                let mut s = [0u8; 32];
                k.encode_simple(&b, case, &mut s);
                let want_s = reference::encode_simple(&b, case);
                prop_assert_eq!(s, want_s, "{:?} {:?}", k.level, case);
                prop_assert_eq!(u.encode_simple(case), want_s, "const {:?}", case);
            }
            Ok(())
        })();
    });
    r
}

/// Text made mostly of the bytes that matter (digits, letters around the hex ranges, braces,
/// hyphens, colons, high bytes), so that random strings often come close to valid.
fn near_text(len: impl Into<proptest::collection::SizeRange>) -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => prop::sample::select(b"0123456789abcdefABCDEF".to_vec()),
        2 => Just(b'-'),
        1 => prop::sample::select(b"{}:urnidURNID/@G`g \x00\x7f\x80\xc3\xff".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, len)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn valid_text_round_trips_on_every_level(
        b in any::<[u8; 16]>(),
        f in 0usize..4,
        upper: bool,
    ) {
        let case = if upper { Case::Upper } else { Case::Lower };
        let s = text(Uuid::from_bytes(b), FORMS[f], case);
        prop_assert_eq!(scalar(&s), Some(b));
        check_all(&s)?;
    }

    #[test]
    fn one_random_substitution(
        b in any::<[u8; 16]>(),
        f in 0usize..4,
        pos in 0usize..45,
        byte: u8,
    ) {
        let mut s = text(Uuid::from_bytes(b), FORMS[f], Case::Lower);
        let pos = pos % s.len();
        s[pos] = byte;
        check_all(&s)?;
    }

    #[test]
    fn random_near_text_of_every_length(s in near_text(0..50)) {
        check_all(&s)?;
    }

    #[test]
    fn random_near_text_at_the_form_lengths(
        s in prop_oneof![near_text(32), near_text(36), near_text(38), near_text(45)],
    ) {
        check_all(&s)?;
    }

    #[test]
    fn random_bytes(s in prop::collection::vec(any::<u8>(), 0..50)) {
        check_all(&s)?;
    }

    #[test]
    fn encoders_agree(b in any::<[u8; 16]>()) {
        check_encode(b)?;
    }
}

/// The batch encoder against the one-at-a-time scalar writer, on every level: all four forms,
/// both cases, and output buffers that end anywhere (only whole lines are written).
fn check_encode_lines(ids: &[Uuid], room: usize) -> Result<(), TestCaseError> {
    let mut r = Ok(());
    for_each_level(|k| {
        if r.is_err() {
            return;
        }
        r = (|| {
            for format in FORMS {
                for case in [Case::Lower, Case::Upper] {
                    let mut want = Vec::new();
                    for u in ids {
                        let line = [text(*u, format, case), b"\n".to_vec()].concat();
                        if want.len() + line.len() > room {
                            break;
                        }
                        want.extend_from_slice(&line);
                    }
                    let mut out = vec![0xAAu8; room];
                    let n = k.encode_lines(ids, format, case, &mut out);
                    prop_assert_eq!(
                        &out[..n],
                        &want[..],
                        "{:?} {:?} {:?}",
                        k.level,
                        format,
                        case
                    );
                    // Nothing past the lines written was touched.
                    prop_assert!(
                        out[n..].iter().all(|&b| b == 0xAA),
                        "{:?} wrote past {}",
                        k.level,
                        n
                    );
                }
            }
            Ok(())
        })();
    });
    r
}

proptest! {
    #[test]
    fn encode_lines_agrees(
        ids in prop::collection::vec(any::<[u8; 16]>().prop_map(Uuid::from_bytes), 0..40),
        room in 0usize..2000,
    ) {
        check_encode_lines(&ids, room)?;
    }
}

/// The column entries (`arrow` feature) on every level: `hyphenated_run` writes what the
/// row parser accepts and stops at exactly the first row it rejects, with every byte value
/// tried at every position of that row; `encode_hyphenated_run` writes what the single-value
/// encoder writes.
#[cfg(feature = "arrow")]
#[test]
fn column_entries_agree_with_the_row_entries() {
    let ids: Vec<Uuid> = (0..40u128)
        .map(|i| Uuid::from_u128(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
        .collect();
    for case in [Case::Lower, Case::Upper] {
        let text: Vec<u8> = ids
            .iter()
            .flat_map(|u| text(*u, Format::Hyphenated, case))
            .collect();
        let values: Vec<u8> = ids.iter().flat_map(|u| u.into_bytes()).collect();
        for_each_level(|k| {
            let mut out = vec![0u8; values.len()];
            assert_eq!(
                k.hyphenated_run(&text, &mut out),
                ids.len(),
                "{:?}",
                k.level
            );
            assert_eq!(out, values, "{:?}", k.level);
            // Room for fewer rows than the text holds: as many as fit.
            let mut short = vec![0u8; 16 * 3];
            assert_eq!(k.hyphenated_run(&text, &mut short), 3);
            let mut enc = vec![0u8; text.len()];
            k.encode_hyphenated_run(&values, case, &mut enc);
            assert_eq!(enc, text, "{:?}", k.level);
            let row = 17;
            for pos in 0..36 {
                for b in 0..=255u8 {
                    let mut bad = text.clone();
                    bad[36 * row + pos] = b;
                    let ok = scalar(&bad[36 * row..36 * row + 36]).is_some();
                    let mut out = vec![0u8; values.len()];
                    let done = k.hyphenated_run(&bad, &mut out);
                    assert_eq!(
                        done,
                        if ok { ids.len() } else { row },
                        "{:?} {pos} {b}",
                        k.level
                    );
                    assert_eq!(out[..16 * row], values[..16 * row]);
                }
            }
        });
    }
}

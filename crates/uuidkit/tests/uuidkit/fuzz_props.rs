//! The fuzz targets' properties (`fuzz/`), bounded, on every CI run, on stable Rust. The
//! properties and the naive reference grammar are the files the fuzz crate uses too
//! (uuidkit-test-support, crates/test-support), so that the fuzzer and these tests cannot drift
//! apart:
//!
//! - `reference`: an independent template-based reading of the four hex forms, the decimal
//!   integer, the OID forms and guid-hex;
//! - `checks`: what is checked for each input.
//!
//! roundtrip.rs and forms.rs use the same reference, and ldif.rs the same LDIF check, and
//! apply them to inputs built from each grammar; here they meet the fuzzers' kind of input
//! (edits of valid forms, arbitrary bytes), so parsing and writing the hex forms against the
//! reference is checked in both places, on differently drawn inputs. Only here: `TryFrom` and
//! the RFC 4530 matching rules against the reference; the OID and guid-hex parsers against it
//! on arbitrary bytes, with write-back of what was read; generator ordering under arbitrary
//! sequences of clock readings (replayed, with jumps to the ends of the fields, out-of-range
//! widths, both policies of each kind, time offsets, coarse clocks, batches); the LDIF
//! pass-through invariant on arbitrary bytes read and written in chunks of every size. The
//! service's wire decoders and the state-file decoder are checked in the `uuidkit-service`
//! crate's `fuzz_props` tests.
//!
//! Cases per property: `UUIDKIT_PROPTEST_CASES` (default 1000; each generator case makes up
//! to a few thousand UUIDs). The long run:
//!
//! ```text
//! UUIDKIT_PROPTEST_CASES=200000 cargo test --release -p uuidkit --test uuidkit -- fuzz_props::
//! ```

use proptest::prelude::*;
use uuidkit_test_support::{checks, proptest_cases as cases, proptest_config as config, reference};

/// A valid form of a random value, then a few bytes replaced, inserted or removed.
fn near_form() -> impl Strategy<Value = Vec<u8>> {
    let edit = (
        0usize..64,
        0u8..3,
        prop_oneof![
            Just(b'-'),
            Just(b'{'),
            Just(b'}'),
            Just(b':'),
            Just(b'0'),
            Just(b'f'),
            Just(b'F'),
            Just(b'g'),
            Just(b' '),
            Just(b'u'),
            Just(b'U'),
            Just(0xff),
            any::<u8>()
        ],
    );
    (
        any::<u128>(),
        0usize..4,
        any::<bool>(),
        proptest::collection::vec(edit, 0..3),
    )
        .prop_map(|(v, form, upper, edits)| {
            let mut s = reference::format(v, form, upper).into_bytes();
            for (at, op, b) in edits {
                let at = at % (s.len() + 1);
                match op {
                    0 if at < s.len() => s[at] = b,
                    1 => s.insert(at, b),
                    _ if at < s.len() => {
                        s.remove(at);
                    }
                    _ => {}
                }
            }
            s
        })
}

/// Digits, dots and prefixes of the integer and OID forms, and hex for guid-hex.
fn formish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => (0u8..10).prop_map(|d| vec![b'0' + d]),
        1 => Just(b"2.25.".to_vec()),
        1 => Just(b"urn:oid:".to_vec()),
        1 => Just(b"URN:OID:2.25.".to_vec()),
        1 => Just(b"340282366920938463463374607431768211455".to_vec()),
        1 => Just(b"340282366920938463463374607431768211456".to_vec()),
        1 => prop_oneof![Just(b'a'), Just(b'F'), Just(b'.'), Just(b'+'), Just(b'-'), any::<u8>()]
            .prop_map(|b| vec![b]),
    ];
    prop_oneof![
        proptest::collection::vec(piece, 0..12).prop_map(|p| p.concat()),
        any::<u128>().prop_map(|v| reference::format(v, 1, false).into_bytes()),
    ]
}

/// Mostly LDIF-shaped bytes, sometimes anything at all.
fn ldif_bytes() -> impl Strategy<Value = Vec<u8>> {
    const TOKENS: [&[u8]; 18] = [
        b"dn: cn=a\n",
        b"dn:: Y249Yg==\r\n",
        b"\n",
        b"\r\n",
        b"\r",
        b" folded\n",
        b"# c\n",
        b"changetype: add\n",
        b"changetype: delete\n",
        b"version: 1\n",
        b"cn: x\n",
        b"entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14\n",
        b"entryuuid:: eA==\n",
        b"1.3.6.1.1.16.4: 00000000-0000-0000-0000-000000000000\n",
        b"entryUUID:< file:x\n",
        b"\xef\xbb\xbf",
        b"\xff",
        b"dn: cn=b",
    ];
    prop_oneof![
        3 => proptest::collection::vec(
            prop_oneof![
                5 => (0..TOKENS.len()).prop_map(|i| TOKENS[i].to_vec()),
                1 => proptest::collection::vec(any::<u8>(), 0..6),
            ],
            0..24,
        )
        .prop_map(|p| p.concat()),
        1 => proptest::collection::vec(any::<u8>(), 0..200),
    ]
}

proptest! {
    #![proptest_config(config(cases()))]

    #[test]
    fn parsers_agree_with_the_reference(s in near_form()) {
        checks::check_parse(&s);
        checks::check_roundtrip_text(&s);
    }

    #[test]
    fn parsers_agree_on_random_bytes(s in proptest::collection::vec(any::<u8>(), 0..50)) {
        checks::check_parse(&s);
        checks::check_forms(&s);
    }

    #[test]
    fn ldap_matching_orders_as_the_reference(
        a in near_form(), b in near_form(), same in any::<bool>(),
    ) {
        checks::check_ldap_pair(&a, if same { &a } else { &b });
    }

    #[test]
    fn every_writer_matches_the_reference(v in any::<u128>()) {
        checks::check_roundtrip_value(v);
        checks::check_forms_value(v);
    }

    #[test]
    fn integer_oid_and_guid_forms_agree_with_the_reference(s in formish()) {
        checks::check_forms(&s);
    }

    #[test]
    fn ldif_output_minus_added_lines_is_the_input(
        input in ldif_bytes(),
        chunk in prop_oneof![Just(1usize), Just(2), Just(3), Just(5), Just(64), Just(8192)],
    ) {
        checks::check_ldif(&input, chunk);
    }
}

proptest! {
    #![proptest_config(config(cases()))]

    #[test]
    fn generators_keep_order_under_any_clock(
        data in proptest::collection::vec(any::<u8>(), 0..1200),
    ) {
        checks::check_gen_order(&checks::gen_case(&data));
    }
}

/// The generator model on hand-made cases: a step back within the threshold, beyond it, and
/// beyond the start of the field, under both regression policies.
#[test]
fn the_generator_model_on_fixed_cases() {
    use checks::{GenCase, GenKind, Step};
    use uuidkit::generator::V7Method;
    let t0 = 1_645_539_742_000_000_000i128;
    let case = |kind, regression_error, back: i128| GenCase {
        kind,
        steps: vec![
            Step {
                nanos: t0,
                batch: 0,
            },
            Step {
                nanos: t0 - back,
                batch: 2,
            },
            Step {
                nanos: t0 + 1,
                batch: 0,
            },
        ],
        resolution_nanos: 1,
        threshold_nanos: 10_000_000_000,
        regression_error,
        overflow_error: false,
        offset_nanos: 0,
        seed: 7,
    };
    for kind in [
        GenKind::V1,
        GenKind::V6,
        GenKind::V7(V7Method::Counter { bits: 42 }),
    ] {
        for err in [false, true] {
            // Within the threshold, beyond it, and at the end of the v7 field.
            for back in [5_000_000_000, 20_000_000_000, 3_600_000_000_000] {
                checks::check_gen_order(&case(kind, err, back));
            }
        }
    }
    // An invalid width must be refused, a valid one accepted: both pass the check.
    for bits in [11, 12, 42, 43] {
        checks::check_gen_order(&case(GenKind::V7(V7Method::Counter { bits }), false, 0));
    }
}

#[test]
fn the_ldif_check_on_fixed_cases() {
    // Every branch of the invariant on fixed inputs: no final newline, a lone CR at the end,
    // CR LF records, an entry that has its UUID, and a data error after a good record.
    for input in [
        &b"dn: cn=a\ncn: a"[..],
        b"dn: cn=a\r",
        b"dn: cn=a\r\n\r\ndn: cn=b\r\n",
        b"dn: cn=a\nentryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14\n\ndn: cn=b\n",
        b"dn: cn=a\n\ndn: cn=b\nentryUUID: nope\n",
    ] {
        for chunk in [1, 4, 8192] {
            checks::check_ldif(input, chunk);
        }
    }
    assert_eq!(
        reference::any_form(b"{00000000-0000-0000-0000-000000000000}"),
        Some(0)
    );
}

/// Found by the `gen_order` fuzz target (its input is `fuzz/seeds/gen_order/
/// regression_v6_coarse_clock_wrap`): on a clock of 1 ms resolution a reading 8 ticks before the
/// end of the 60-bit field let the simulated sub-ticks (RFC 9562 §6.1) run past 2^60, and the
/// tick was written modulo 2^60: a v6 UUID with timestamp 0, sorting before all others. The
/// generator must stop with a time-range error instead.
#[test]
fn coarse_clock_at_the_end_of_the_range_never_wraps_to_zero() {
    use uuidkit::generator::{FixedClock, GregorianBuilder, SeqRandom, V7Builder};
    use uuidkit::Timestamp;
    let end_ticks = 1u64 << 60;
    let t = Timestamp::from_gregorian_ticks(end_ticks - 8);
    let clock = FixedClock::new(t).with_resolution(1_000_000);
    let mut g6 = GregorianBuilder::new()
        .build_v6(&clock, SeqRandom::new(1))
        .unwrap();
    let mut g1 = GregorianBuilder::new()
        .build_v1(&clock, SeqRandom::new(1))
        .unwrap();
    for (name, next) in [
        ("v6", &mut || g6.next() as Result<uuidkit::Uuid, _>),
        ("v1", &mut || g1.next()),
    ]
        as [(
            &str,
            &mut dyn FnMut() -> Result<uuidkit::Uuid, uuidkit::generator::GenError>,
        ); 2]
    {
        let mut issued = Vec::new();
        let err = loop {
            match next() {
                Ok(u) => issued.push(u.gregorian_ticks().unwrap()),
                Err(e) => break e,
            }
            assert!(issued.len() <= 8, "{name}: {issued:?}");
        };
        assert!(err.is_time_range(), "{name}: {err}");
        let want: Vec<u64> = (end_ticks - 8..end_ticks).collect();
        assert_eq!(
            issued, want,
            "{name}: every tick up to the last, then the error"
        );
    }
    // v7 with a clock coarser than a millisecond, 3 ms before the end of its 48-bit field.
    let end_ms = 1u64 << 48;
    let clock =
        FixedClock::new(Timestamp::from_unix_millis(end_ms - 3)).with_resolution(16_000_000);
    let mut g7 = V7Builder::new()
        .method(uuidkit::generator::V7Method::Counter { bits: 12 })
        .build(&clock, SeqRandom::new(2))
        .unwrap();
    let mut last = 0;
    let err = loop {
        match g7.next() {
            Ok(u) => {
                let ms = u.unix_ts_ms().unwrap();
                assert!(ms >= last && ms < end_ms, "{u}");
                last = ms;
            }
            Err(e) => break e,
        }
    };
    assert!(err.is_time_range(), "{err}");
    assert_eq!(last, end_ms - 1);
}

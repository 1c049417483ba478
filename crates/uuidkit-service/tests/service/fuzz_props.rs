//! The `frame` fuzz target's properties, bounded, on every CI run: the service's wire decoders
//! (request frames, reply headers, info bodies) and the state-file decoder on arbitrary bytes
//! and on mostly well-formed requests. The properties are the fuzz crate's own file
//! (`crates/test-support/src/service_checks.rs`), shared with it so that the fuzzer and these tests
//! cannot drift apart.
//!
//! Cases per property: `UUIDKIT_PROPTEST_CASES` (default 1000).

use proptest::prelude::*;
use uuidkit_test_support::{proptest_cases as cases, proptest_config as config, service_checks};

proptest! {
    #![proptest_config(config(cases()))]

    #[test]
    fn service_frames_and_state_files_decode_as_defined(
        data in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..80),
            // Mostly well-formed requests, so that every branch is reached.
            (0u8..3, 0u8..4, 0u8..9, 0u8..2, any::<u32>(), proptest::collection::vec(any::<u8>(), 0..4))
                .prop_map(|(v, op, uv, fl, n, extra)| {
                    let mut p = vec![v, op, uv, fl];
                    p.extend_from_slice(&n.to_be_bytes());
                    p.extend(extra);
                    p
                }),
            // Mostly well-formed range replies (header and body), out-of-range fields included.
            (1u8..4, 0u8..2, 0u8..3, prop_oneof![Just(1u8), Just(6), Just(7), any::<u8>()],
             prop_oneof![0u32..70_000, any::<u32>()], any::<u64>(), 0u8..64, any::<u8>(), any::<u64>(), 14usize..18)
                .prop_map(|(v, st, fl, uv, n, a, shift, bits, c, len)| {
                    let mut p = vec![v, st, fl, uv];
                    p.extend_from_slice(&n.to_be_bytes());
                    let a = a >> shift;
                    p.extend_from_slice(&a.to_be_bytes());
                    p.extend_from_slice(&(c >> (shift % 64)).to_be_bytes());
                    if uv == 7 {
                        p[8..14].copy_from_slice(&(a >> 16).to_be_bytes()[2..]);
                        p[14] = bits % 48;
                        p[15] = if bits > 250 { bits } else { 0 };
                    }
                    p.truncate(8 + len);
                    p
                }),
        ],
    ) {
        service_checks::check_frame(&data);
        service_checks::check_state(&data);
    }
}

#[test]
fn a_valid_state_file_decodes_and_every_changed_byte_is_caught() {
    // The seed file of the `frame` fuzz target: a state written per the format (checksum
    // computed independently, by Python's hashlib, when the seed was made).
    let b = include_bytes!("../../../../fuzz/seeds/frame/state_valid");
    let s = uuidkit_service::state::State::decode(b).expect("valid seed");
    assert_eq!(s.gregorian_ticks, 138648505420000000);
    assert_eq!(s.v7_counter, None);
    assert!(s.clean);
    for at in 0..b.len() {
        for flip in [1u8, 0x80, 0xff] {
            let mut bad = *b;
            bad[at] ^= flip;
            assert!(
                uuidkit_service::state::State::decode(&bad).is_err(),
                "byte {at} ^ {flip:#x}"
            );
        }
    }
    service_checks::check_state(b);
}

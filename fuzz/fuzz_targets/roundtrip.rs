//! parse -> format -> parse in every form and case: an input that parses is written back in
//! its own form as it was (up to case); the first 16 bytes as a value go through every writer
//! and parser.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::checks;

fuzz_target!(|data: &[u8]| {
    checks::check_roundtrip_text(data);
    let mut v = [0u8; 16];
    for (d, s) in v.iter_mut().zip(data) {
        *d = *s;
    }
    checks::check_roundtrip_value(u128::from_be_bytes(v));
});

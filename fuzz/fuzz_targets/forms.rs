//! The decimal integer, OID (`2.25.`, `urn:oid:2.25.`) and guid-hex forms: parsers agree with
//! the reference and write back what they read; the first 16 bytes as a value go through every
//! form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::checks;

fuzz_target!(|data: &[u8]| {
    checks::check_forms(data);
    let mut v = [0u8; 16];
    for (d, s) in v.iter_mut().zip(data.iter().rev()) {
        *d = *s;
    }
    checks::check_forms_value(u128::from_be_bytes(v));
});

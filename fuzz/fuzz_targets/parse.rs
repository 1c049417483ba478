//! Any bytes: the four-form parser, the one-form parsers and the RFC 4530 validator never
//! panic and accept exactly what the naive reference grammar accepts, with its value; two
//! halves compared as LDAP values order as their reference values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::checks;

fuzz_target!(|data: &[u8]| {
    checks::check_parse(data);
    let (a, b) = data.split_at(data.len() / 2);
    checks::check_ldap_pair(a, b);
});

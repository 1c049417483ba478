//! `ldif::add_entry_uuid` on arbitrary bytes, read and written in chunks of a size the first
//! byte chooses: the output minus the added lines is the input (a prefix of it after a data
//! error).
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::checks;

fuzz_target!(|data: &[u8]| {
    let Some((&c, input)) = data.split_first() else {
        return;
    };
    let chunk = [1, 2, 3, 7, 64, 8192][usize::from(c % 6)];
    checks::check_ldif(input, chunk);
});

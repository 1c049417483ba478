//! v1, v6 and v7 generators (every §6.2 method, widths in and out of range, both policies of
//! each kind) under an arbitrary sequence of clock readings from a `ReplayClock`: ordering,
//! resets and errors as the model in `checks::check_gen_order` predicts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::{checks, gen_case};

fuzz_target!(|data: &[u8]| {
    checks::check_gen_order(&gen_case(data));
});

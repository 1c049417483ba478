//! The service's wire decoders (`service::protocol`: request frames, reply headers, info
//! bodies) and the state-file decoder (`state::State::decode`) on arbitrary bytes: exactly the
//! defined frames accepted, the right rejection status otherwise, encode/decode round trips,
//! every single-byte corruption of a state file detected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::checks;

fuzz_target!(|data: &[u8]| {
    checks::check_frame(data);
    checks::check_state(data);
});

//! The service's wire decoders (`uuidkit_service::protocol`: request frames, reply headers, info
//! bodies) and the state-file decoder (`uuidkit_service::state::State::decode`) on arbitrary bytes: exactly the
//! defined frames accepted, the right rejection status otherwise, encode/decode round trips,
//! every single-byte corruption of a state file detected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit_fuzz::service_checks;

fuzz_target!(|data: &[u8]| {
    service_checks::check_frame(data);
    service_checks::check_state(data);
});

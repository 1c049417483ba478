//! `Uuid` values made by its `Arbitrary` impl (feature `arbitrary`): each goes through every
//! writer and parser, the slice and byte conversions and `NonNilUuid`; the list's order is the
//! order of the values as 128-bit integers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uuidkit::{NonNilUuid, Uuid};
use uuidkit_fuzz::checks;

fuzz_target!(|ids: Vec<Uuid>| {
    for u in &ids {
        checks::check_roundtrip_value(u.as_u128());
        assert_eq!(Uuid::from_slice(u.as_bytes()), Ok(*u));
        assert_eq!(Uuid::from_slice_le(&u.to_bytes_le()), Ok(*u));
        assert_eq!(
            NonNilUuid::new(*u).map(NonNilUuid::get),
            (!u.is_nil()).then_some(*u)
        );
    }
    for w in ids.windows(2) {
        assert_eq!(w[0].cmp(&w[1]), w[0].as_u128().cmp(&w[1].as_u128()));
    }
});

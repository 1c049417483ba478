//! The ecosystem-trait features used for real: arbitrary driving `Unstructured` over random
//! bytes, zero-copy casts with bytemuck and zerocopy, borsh round trips, and the schemars schema
//! checked by a JSON Schema validator. Their features come from the crate's dev-dependency on
//! itself, so the README's test command runs these: `cargo test -p uuidkit -- ecosystem::`.

use uuidkit::Uuid;
use uuidkit_test_support::peers::jsonschema;

/// Random bytes (from the v4 generator's CSPRNG), `n` UUIDs' worth and a few more.
fn random_bytes(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while out.len() < n * 16 + 7 {
        out.extend_from_slice(uuidkit::v4().as_bytes());
    }
    out
}

#[test]
fn arbitrary_takes_each_uuid_from_the_next_16_bytes() {
    use arbitrary::{Arbitrary, Unstructured};
    for round in 0..64 {
        let bytes = random_bytes(round % 8 + 1);
        let mut u = Unstructured::new(&bytes);
        let mut seen = 0;
        for chunk in bytes.chunks_exact(16) {
            let id = Uuid::arbitrary(&mut u).expect("enough input");
            assert_eq!(id.as_bytes()[..], chunk[..], "round {round}, uuid {seen}");
            // Whatever the bytes, every text form reads back.
            assert_eq!(id.to_string().parse::<Uuid>(), Ok(id));
            assert_eq!(id.urn().to_string().parse::<Uuid>(), Ok(id));
            seen += 1;
        }
        assert_eq!(seen, bytes.len() / 16);
        assert_eq!(u.len(), bytes.len() % 16);
        // `take_rest` on a whole buffer: a Vec<Uuid> of some of its chunks, never a panic.
        let all = Vec::<Uuid>::arbitrary_take_rest(Unstructured::new(&bytes)).expect("any input");
        assert!(all.len() <= bytes.len() / 16);
    }
    assert_eq!(Uuid::size_hint(0), (16, Some(16)));
}

#[test]
fn bytemuck_casts_a_byte_buffer_to_uuids_without_copying() {
    let bytes = random_bytes(5);
    let ids: &[Uuid] = bytemuck::cast_slice(&bytes[..5 * 16]);
    assert_eq!(ids.len(), 5);
    for (id, chunk) in ids.iter().zip(bytes.chunks_exact(16)) {
        assert_eq!(id.as_bytes()[..], chunk[..]);
    }
    // The same memory, not a copy.
    assert_eq!(ids.as_ptr().cast::<u8>(), bytes.as_ptr());
    let back: &[u8] = bytemuck::cast_slice(ids);
    assert_eq!(back, &bytes[..80]);
    // A length that is not a multiple of 16 is an error, not a panic.
    assert!(bytemuck::try_cast_slice::<u8, Uuid>(&bytes[..79]).is_err());
    // Any alignment is fine: `Uuid` has alignment 1.
    let odd: &[Uuid] = bytemuck::cast_slice(&bytes[1..33]);
    assert_eq!(odd[0].as_bytes()[..], bytes[1..17]);
    let zeroed: [Uuid; 3] = bytemuck::Zeroable::zeroed();
    assert!(zeroed.iter().all(Uuid::is_nil));
}

#[test]
fn zerocopy_casts_a_byte_buffer_to_uuids_without_copying() {
    use zerocopy::{FromBytes, IntoBytes};
    let bytes = random_bytes(4);
    let ids = <[Uuid]>::ref_from_bytes(&bytes[..64]).expect("a multiple of 16 bytes");
    assert_eq!(ids.len(), 4);
    assert_eq!(ids.as_ptr().cast::<u8>(), bytes.as_ptr());
    for (id, chunk) in ids.iter().zip(bytes.chunks_exact(16)) {
        assert_eq!(id.as_bytes()[..], chunk[..]);
    }
    assert_eq!(ids.as_bytes(), &bytes[..64]);
    assert!(<[Uuid]>::ref_from_bytes(&bytes[..63]).is_err());
    // Unaligned: any offset works.
    let (one, rest) = Uuid::ref_from_prefix(&bytes[3..]).expect("16 bytes");
    assert_eq!(one.as_bytes()[..], bytes[3..19]);
    assert_eq!(rest.len(), bytes.len() - 19);
    let read = Uuid::read_from_bytes(&bytes[16..32]).expect("16 bytes");
    assert_eq!(read, ids[1]);
}

#[test]
fn borsh_round_trips_every_kind_as_16_bytes() {
    let mut values = vec![
        Uuid::NIL,
        Uuid::MAX,
        Uuid::NAMESPACE_DNS,
        uuidkit::v7(),
        uuidkit::v1(),
    ];
    values.extend(
        random_bytes(8)
            .chunks_exact(16)
            .map(|c| Uuid::from_slice(c).unwrap()),
    );
    for u in &values {
        let bytes = borsh::to_vec(u).unwrap();
        assert_eq!(bytes, u.as_bytes());
        assert_eq!(borsh::from_slice::<Uuid>(&bytes).unwrap(), *u);
    }
    // A Vec<Uuid>: a u32 length, then 16 bytes each.
    let bytes = borsh::to_vec(&values).unwrap();
    assert_eq!(bytes.len(), 4 + 16 * values.len());
    assert_eq!(borsh::from_slice::<Vec<Uuid>>(&bytes).unwrap(), values);
    // Short or long input is an error.
    assert!(borsh::from_slice::<Uuid>(&bytes[4..19]).is_err());
    assert!(borsh::from_slice::<Uuid>(&bytes[4..21]).is_err());
}

#[test]
fn schemars_schema_accepts_what_serialize_writes_and_rejects_the_rest() {
    let schema = schemars::schema_for!(Uuid);
    let json = serde_json::to_value(&schema).unwrap();
    assert_eq!(json["type"], "string");
    assert_eq!(json["format"], "uuid");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&json)
        .expect("a valid schema");
    let mut good = vec![
        Uuid::NIL,
        Uuid::MAX,
        Uuid::NAMESPACE_DNS,
        uuidkit::v4(),
        uuidkit::v7(),
    ];
    good.extend(
        random_bytes(4)
            .chunks_exact(16)
            .map(|c| Uuid::from_slice(c).unwrap()),
    );
    for u in &good {
        let v = serde_json::to_value(u).unwrap();
        assert!(validator.is_valid(&v), "{v}");
    }
    let bad = [
        serde_json::json!("6ba7b810-9dad-11d1-80b4-00c04fd430cg"),
        serde_json::json!("6ba7b810-9dad-11d1-80b4-00c04fd430c"),
        serde_json::json!("6ba7b8109dad-11d1-80b4-00c04fd430c8-"),
        serde_json::json!("not a uuid"),
        serde_json::json!(""),
        serde_json::json!(42),
        serde_json::json!(null),
    ];
    for v in &bad {
        assert!(!validator.is_valid(v), "{v}");
    }
}

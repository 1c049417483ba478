//! Conversions between `uuidkit::Uuid` and `uuid::Uuid` (feature `uuid`): lossless both ways,
//! and both crates agree on what the 16 bytes mean.
#![cfg(feature = "uuid")]

use proptest::prelude::*;

#[test]
fn namespaces_agree() {
    // Source: RFC 9562 §6.6 (both crates define the four namespace IDs).
    let pairs = [
        (uuidkit::Uuid::NAMESPACE_DNS, uuid::Uuid::NAMESPACE_DNS),
        (uuidkit::Uuid::NAMESPACE_URL, uuid::Uuid::NAMESPACE_URL),
        (uuidkit::Uuid::NAMESPACE_OID, uuid::Uuid::NAMESPACE_OID),
        (uuidkit::Uuid::NAMESPACE_X500, uuid::Uuid::NAMESPACE_X500),
        (uuidkit::Uuid::NIL, uuid::Uuid::nil()),
        (uuidkit::Uuid::MAX, uuid::Uuid::max()),
    ];
    for (ours, theirs) in pairs {
        assert_eq!(uuid::Uuid::from(ours), theirs);
        assert_eq!(uuidkit::Uuid::from(theirs), ours);
        assert_eq!(uuid::Uuid::from(&ours), theirs);
        assert_eq!(uuidkit::Uuid::from(&theirs), ours);
    }
}

#[test]
fn generated_values_keep_version_variant_and_text() {
    for ours in [uuidkit::v4(), uuidkit::v7(), uuidkit::v6(), uuidkit::v1()] {
        let theirs: uuid::Uuid = ours.into();
        assert_eq!(
            theirs.get_version_num(),
            usize::from(ours.version_num()),
            "{ours}"
        );
        assert_eq!(theirs.get_variant(), uuid::Variant::RFC4122, "{ours}");
        assert_eq!(theirs.hyphenated().to_string(), ours.to_string());
        assert_eq!(theirs.simple().to_string(), ours.simple().to_string());
    }
}

proptest! {
    #[test]
    fn round_trips_on_random_values(bytes in any::<[u8; 16]>()) {
        let ours = uuidkit::Uuid::from_bytes(bytes);
        let theirs = uuid::Uuid::from(ours);
        prop_assert_eq!(theirs.as_bytes(), &bytes);
        prop_assert_eq!(theirs.as_u128(), ours.as_u128());
        prop_assert_eq!(uuidkit::Uuid::from(theirs), ours);
        // Both print the same text, so parsing one with the other gives the same value.
        prop_assert_eq!(theirs.to_string(), ours.to_string());
        prop_assert_eq!(
            uuidkit::Uuid::parse_str(&theirs.urn().to_string()).unwrap(),
            ours
        );
        // Byte order is the order of both.
        let other = uuidkit::Uuid::from_u128(ours.as_u128().wrapping_add(1));
        prop_assert_eq!(ours.cmp(&other), theirs.cmp(&uuid::Uuid::from(other)));
    }
}

//! Name-based UUIDs (v3, v5, v8) and the v4 builder against RFC 9562's vectors, Python's `uuid`
//! module, and hashes computed independently with Python's `hashlib`.

use uuidkit::{NameHash, Uuid};
#[cfg(any(
    feature = "v3",
    feature = "v5",
    feature = "v8-sha2",
    feature = "v8-sha3"
))]
use uuidkit::{Variant, Version};

fn u(s: &str) -> Uuid {
    Uuid::parse_str(s).unwrap()
}

#[cfg(any(feature = "v3", feature = "v5", feature = "v8-sha2"))]
const NAME: &[u8] = b"www.example.com";

#[test]
#[cfg(feature = "v3")]
fn rfc_a2_v3_field_by_field() {
    // Source: RFC 9562 Appendix A.2 (Figures 17-19)
    let v3 = Uuid::new_v3(&Uuid::NAMESPACE_DNS, NAME);
    let b = v3.as_bytes();
    // md5_high 48 = 0x5df418813aed
    assert_eq!(&b[..6], &[0x5d, 0xf4, 0x18, 0x81, 0x3a, 0xed]);
    // ver 4 = 0x3, md5_mid 12 = 0x515
    assert_eq!(b[6] >> 4, 0x3);
    assert_eq!(u16::from_be_bytes([b[6], b[7]]) & 0x0fff, 0x515);
    // var 2 = 0b10, md5_low 62 = 0b00, 0x8a72f4a814cf09e
    assert_eq!(b[8] >> 6, 0b10);
    assert_eq!(
        u64::from_be_bytes(b[8..16].try_into().unwrap()) & 0x3fff_ffff_ffff_ffff,
        0x08a7_2f4a_814c_f09e
    );
    assert_eq!(v3, u("5df41881-3aed-3515-88a7-2f4a814cf09e"));
    assert_eq!(v3.version(), Some(Version::Md5));
}

#[test]
fn rfc_a3_v4_from_random_bytes() {
    // Source: RFC 9562 Appendix A.3 (Figures 20-21): random 919108F752D133205BACF847DB4148A8
    let random = 0x9191_08F7_52D1_3320_5BAC_F847_DB41_48A8u128.to_be_bytes();
    let v4 = Uuid::new_v4_from_bytes(random);
    assert_eq!(v4, u("919108f7-52d1-4320-9bac-f847db4148a8"));
    let b = v4.as_bytes();
    assert_eq!(&b[..6], &[0x91, 0x91, 0x08, 0xf7, 0x52, 0xd1]); // random_a
    assert_eq!(b[6] >> 4, 4); // ver
    assert_eq!(u16::from_be_bytes([b[6], b[7]]) & 0x0fff, 0x320); // random_b
    assert_eq!(b[8] >> 6, 0b10); // var
    assert_eq!(
        u64::from_be_bytes(b[8..16].try_into().unwrap()) & 0x3fff_ffff_ffff_ffff,
        0x1bac_f847_db41_48a8 // random_c = 0b01, 0xbacf847db4148a8
    );
    // The same bytes through the generator path.
    #[cfg(feature = "std")]
    {
        let mut rng = uuidkit::generator::ReplayRandom::new(random);
        assert_eq!(uuidkit::generator::v4::v4_from(&mut rng), v4);
        assert_eq!(rng.consumed(), 16);
    }
}

#[test]
#[cfg(feature = "v5")]
fn rfc_a4_v5_field_by_field() {
    // Source: RFC 9562 Appendix A.4 (Figures 22-24)
    let v5 = Uuid::new_v5(&Uuid::NAMESPACE_DNS, NAME);
    let b = v5.as_bytes();
    assert_eq!(&b[..6], &[0x2e, 0xd6, 0x65, 0x7d, 0xe9, 0x27]); // sha1_high
    assert_eq!(b[6] >> 4, 0x5);
    assert_eq!(u16::from_be_bytes([b[6], b[7]]) & 0x0fff, 0x68b); // sha1_mid
    assert_eq!(b[8] >> 6, 0b10);
    assert_eq!(
        u64::from_be_bytes(b[8..16].try_into().unwrap()) & 0x3fff_ffff_ffff_ffff,
        0x15e1_2665_a8ae_a6a2 // sha1_low = 0b01, 0x5e12665a8aea6a2
    );
    assert_eq!(v5, u("2ed6657d-e927-568b-95e1-2665a8aea6a2"));
    assert_eq!(v5.version(), Some(Version::Sha1));
}

#[test]
#[cfg(feature = "v8-sha2")]
fn rfc_b2_v8_sha256_field_by_field() {
    // Source: RFC 9562 Appendix B.2 (Figures 28-30, with verified erratum EID 7929)
    let v8 = Uuid::new_v8_name(NameHash::Sha256, &Uuid::NAMESPACE_DNS, NAME);
    assert_eq!(v8.custom_a(), Some(0x5c14_6b14_3c52));
    assert_eq!(v8.custom_b(), Some(0xafd));
    assert_eq!(v8.custom_c(), Some(0x138a_375d_0df1_fbf6)); // 0b01, 0x38a375d0df1fbf6
    assert_eq!(v8.variant(), Variant::Rfc9562);
    assert_eq!(v8.version(), Some(Version::Custom));
    assert_eq!(v8, u("5c146b14-3c52-8afd-938a-375d0df1fbf6"));
}

#[test]
#[cfg(all(feature = "v3", feature = "v5"))]
fn python_uuid3_uuid5() {
    // Source: CPython 3.11 `uuid` module, e.g.
    //   python3 -c 'import uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, "https://www.rfc-editor.org/rfc/rfc9562"))'
    let cases: [(Uuid, &str, &str, &str); 5] = [
        (
            Uuid::NAMESPACE_URL,
            "https://www.rfc-editor.org/rfc/rfc9562",
            "282cd48c-cb08-31d9-b51f-ff4120e77a81",
            "3349c653-56d8-5f05-8876-e348e193dc56",
        ),
        (
            Uuid::NAMESPACE_DNS,
            "python.org",
            "6fa459ea-ee8a-3ca4-894e-db77e160355e",
            "886313e1-3b8a-5372-9b90-0c9aee199e5d",
        ),
        (
            Uuid::NAMESPACE_OID,
            "1.3.6.1",
            "dd1a1cef-13d5-368a-ad82-eca71acd4cd1",
            "1447fa61-5277-5fef-a9b3-fbc6e44f4af3",
        ),
        (
            Uuid::NAMESPACE_X500,
            "cn=John Doe, o=Acme, c=US",
            "2da14ae7-ccdc-33ae-a1b9-65193b7705f1",
            "5e4aea80-1ec1-53dd-b9ad-8a36b398e4e8",
        ),
        (
            Uuid::NAMESPACE_URL,
            "",
            "14cdb9b4-de01-3faa-aff5-65bc2f771745",
            "1b4db7eb-4057-5ddf-91e0-36dec72071f5",
        ),
    ];
    for (ns, name, v3, v5) in cases {
        assert_eq!(Uuid::new_v3(&ns, name.as_bytes()), u(v3), "v3 {name:?}");
        assert_eq!(Uuid::new_v5(&ns, name.as_bytes()), u(v5), "v5 {name:?}");
    }
}

#[test]
#[cfg(all(feature = "v8-sha2", feature = "v8-sha3"))]
fn v8_other_hashes_match_hashlib() {
    // Source: Python 3.11 hashlib over namespace bytes ‖ name, first 16 bytes, version 8 and
    // variant 0b10 set by hand (the Appendix B.2 procedure with another hash), e.g.
    //   hashlib.sha512(uuid.NAMESPACE_DNS.bytes + b"www.example.com").digest()[:16]
    //   hashlib.shake_128(...).digest(16)   (digest(64) gives the same first 16 bytes)
    let cases: [(NameHash, Uuid, &[u8], &str); 8] = [
        (
            NameHash::Sha256,
            Uuid::NAMESPACE_DNS,
            NAME,
            "5c146b14-3c52-8afd-938a-375d0df1fbf6",
        ),
        (
            NameHash::Sha512,
            Uuid::NAMESPACE_DNS,
            NAME,
            "94ee4ddb-9f36-8018-9ccf-86a4441691e0",
        ),
        (
            NameHash::Sha3_256,
            Uuid::NAMESPACE_DNS,
            NAME,
            "fc506eca-a1f4-8315-87c8-c71449dfd324",
        ),
        (
            NameHash::Shake128,
            Uuid::NAMESPACE_DNS,
            NAME,
            "54e7e64f-0dba-8913-8b69-cd3dbf220c7a",
        ),
        (
            NameHash::Sha256,
            Uuid::NAMESPACE_URL,
            b"https://example.com/",
            "a7459728-b925-8c1c-a2ce-2a533762d110",
        ),
        (
            NameHash::Sha512,
            Uuid::NAMESPACE_URL,
            b"https://example.com/",
            "2e8737ed-32f4-8bf2-a684-b723cfee0b85",
        ),
        (
            NameHash::Sha3_256,
            Uuid::NAMESPACE_URL,
            b"https://example.com/",
            "378cad76-0015-8eb9-b7b5-0e784169abd7",
        ),
        (
            NameHash::Shake128,
            Uuid::NAMESPACE_URL,
            b"https://example.com/",
            "f34f34ba-37ad-8567-9895-93c758202436",
        ),
    ];
    for (hash, ns, name, want) in cases {
        assert_eq!(
            Uuid::new_v8_name(hash, &ns, name),
            u(want),
            "{hash} {name:?}"
        );
    }
}

#[test]
fn version_and_variant_for_every_hash() {
    // 256 names: their raw digests hold every combination of the overwritten bits many times.
    for i in 0u32..256 {
        let name = i.to_be_bytes();
        #[cfg(feature = "v3")]
        {
            let v3 = Uuid::new_v3(&Uuid::NAMESPACE_OID, &name);
            assert_eq!(
                (v3.version(), v3.variant()),
                (Some(Version::Md5), Variant::Rfc9562)
            );
        }
        #[cfg(feature = "v5")]
        {
            let v5 = Uuid::new_v5(&Uuid::NAMESPACE_OID, &name);
            assert_eq!(
                (v5.version(), v5.variant()),
                (Some(Version::Sha1), Variant::Rfc9562)
            );
        }
        #[cfg(any(feature = "v8-sha2", feature = "v8-sha3"))]
        for &hash in NameHash::ALL {
            let v8 = Uuid::new_v8_name(hash, &Uuid::NAMESPACE_OID, &name);
            assert_eq!(v8.version(), Some(Version::Custom), "{hash}");
            assert_eq!(v8.variant(), Variant::Rfc9562, "{hash}");
        }
        let _ = name;
    }
    let all_ones = Uuid::new_v4_from_bytes([0xff; 16]);
    assert_eq!(all_ones, u("ffffffff-ffff-4fff-bfff-ffffffffffff"));
    let all_zeros = Uuid::new_v4_from_bytes([0; 16]);
    assert_eq!(all_zeros, u("00000000-0000-4000-8000-000000000000"));
}

#[test]
#[cfg(any(
    feature = "v3",
    feature = "v5",
    feature = "v8-sha2",
    feature = "v8-sha3"
))]
fn names_namespaces_and_hashes_separate() {
    let ns = [
        Uuid::NAMESPACE_DNS,
        Uuid::NAMESPACE_URL,
        Uuid::NAMESPACE_OID,
        Uuid::NAMESPACE_X500,
    ];
    let names: [&[u8]; 4] = [b"", b"a", b"b", b"www.example.com."];
    let mut seen = Vec::new();
    for n in &ns {
        for name in names {
            #[cfg(feature = "v3")]
            seen.push(Uuid::new_v3(n, name));
            #[cfg(feature = "v5")]
            seen.push(Uuid::new_v5(n, name));
            #[cfg(any(feature = "v8-sha2", feature = "v8-sha3"))]
            for &hash in NameHash::ALL {
                seen.push(Uuid::new_v8_name(hash, n, name));
            }
        }
    }
    let total = seen.len();
    // Every compiled-in builder contributed one UUID per namespace and name.
    let builders =
        usize::from(cfg!(feature = "v3")) + usize::from(cfg!(feature = "v5")) + NameHash::ALL.len();
    assert_eq!(total, ns.len() * names.len() * builders);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), total, "two inputs gave the same UUID");
    // Same inputs, same output (RFC 9562 §6.5, first requirement).
    #[cfg(feature = "v5")]
    assert_eq!(
        Uuid::new_v5(&Uuid::NAMESPACE_URL, b"x"),
        Uuid::new_v5(&Uuid::NAMESPACE_URL, b"x")
    );
}

#[test]
fn name_hash_parsing() {
    for &h in NameHash::ALL {
        assert_eq!(h.as_str().parse::<NameHash>(), Ok(h));
        assert_eq!(h.as_str().to_ascii_uppercase().parse::<NameHash>(), Ok(h));
    }
    #[cfg(feature = "v8-sha3")]
    assert_eq!("SHA3-256".parse::<NameHash>(), Ok(NameHash::Sha3_256));
    // The list of accepted names is that of the hashes compiled in.
    let expected = match (cfg!(feature = "v8-sha2"), cfg!(feature = "v8-sha3")) {
        (true, true) => "expected sha256, sha512, sha3-256 or shake128",
        (true, false) => "expected sha256 or sha512",
        (false, true) => "expected sha3-256 or shake128",
        (false, false) => "no name hash is compiled in (features `v8-sha2`, `v8-sha3`)",
    };
    for bad in [
        "", "md5", "sha1", "sha-256", "sha3_256", " sha256", "shake256",
    ] {
        let e = bad.parse::<NameHash>().unwrap_err();
        assert_eq!(e.input(), bad);
        assert_eq!(e.missing_feature(), None);
        assert_eq!(
            e.to_string(),
            format!("unknown name hash {bad:?}: {expected}")
        );
    }
    // Long input is cut at a character boundary and the message says so.
    let long = "é".repeat(40);
    let e = long.parse::<NameHash>().unwrap_err();
    assert_eq!(e.input(), "é".repeat(16));
    assert!(e.to_string().contains("(cut)"));
}

#[test]
fn a_compiled_out_hash_names_its_feature() {
    // Every known name either parses (its feature is on) or fails naming the feature.
    let known = [
        ("sha256", "v8-sha2", cfg!(feature = "v8-sha2")),
        ("SHA512", "v8-sha2", cfg!(feature = "v8-sha2")),
        ("sha3-256", "v8-sha3", cfg!(feature = "v8-sha3")),
        ("Shake128", "v8-sha3", cfg!(feature = "v8-sha3")),
    ];
    for (name, feature, on) in known {
        match name.parse::<NameHash>() {
            Ok(h) => {
                assert!(on, "{name} parsed without feature {feature}");
                assert!(h.as_str().eq_ignore_ascii_case(name));
            }
            Err(e) => {
                assert!(!on, "{name} rejected with feature {feature}: {e}");
                assert_eq!(e.missing_feature(), Some(feature));
                assert_eq!(e.input(), name);
                assert_eq!(
                    e.to_string(),
                    format!("name hash {name:?} is not compiled in: it needs uuidkit's feature `{feature}`")
                );
            }
        }
    }
}

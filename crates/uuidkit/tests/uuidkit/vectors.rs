//! The published values of RFC 9562 (Appendix A test vectors, Appendix B illustrative examples,
//! §4 figures, §5.9/§5.10 special values, §6.6 namespace IDs), decoded and checked field by field
//! against the numbers the RFC prints, plus the variant and version tables of §4.1/§4.2 and the
//! DCE 1.1 version 2 layout.
//!
//! Every expected value here is copied from the spec text, never from this crate's output. Each
//! layout is checked twice: through the crate's accessors and by an independent bit slicer that
//! walks the appendix table row by row from bit 0 (the most significant, RFC 9562 §4).

use digest_check::{md5, sha1, sha256};
use uuidkit::{Domain, Kind, Timestamp, Uuid, Variant, Version, GREGORIAN_OFFSET_TICKS};

/// Hashes used to confirm the digests the appendix prints (the crate's name-based builders are
/// tested elsewhere; here the point is that the appendix's own arithmetic holds).
mod digest_check {
    use md5::Digest as _;

    pub fn md5(data: &[u8]) -> Vec<u8> {
        md5::Md5::digest(data).to_vec()
    }
    pub fn sha1(data: &[u8]) -> Vec<u8> {
        sha1::Sha1::digest(data).to_vec()
    }
    pub fn sha256(data: &[u8]) -> Vec<u8> {
        sha2::Sha256::digest(data).to_vec()
    }
}

/// One row of an appendix table: field name, width in bits, value.
type Row = (&'static str, u32, u128);

/// A value printed as `0bXY, 0xZZZ`: two high bits, then the remaining `bits - 2` bits.
fn two_then(high2: u128, rest: u128, bits: u32) -> u128 {
    assert!(
        high2 < 4 && rest < 1 << (bits - 2),
        "table value wider than its field"
    );
    (high2 << (bits - 2)) | rest
}

/// Walks `rows` from bit 0 (most significant) and compares each field; the widths must add up
/// to 128, as every appendix table's "total" line says.
fn check_layout(u: Uuid, rows: &[Row]) {
    let v = u.as_u128();
    let mut at = 0u32;
    for &(name, bits, want) in rows {
        let got = (v >> (128 - at - bits)) & ((1u128 << bits) - 1);
        assert_eq!(got, want, "field {name} (bits {at}..{})", at + bits);
        at += bits;
    }
    assert_eq!(at, 128, "table does not cover 128 bits");
}

/// Text with hex digits in either case, hyphens kept: what the appendix "final:" line says.
fn same_text(u: Uuid, final_line: &str) {
    assert_eq!(u.to_string(), final_line.to_ascii_lowercase());
    assert_eq!(format!("{u:X}"), final_line.to_ascii_uppercase());
}

/// The instant Appendix A and B state in words: "Tuesday, February 22, 2022 2:22:22 PM
/// GMT-05:00", read by the RFC 3339 parser from its own (offset) spelling.
fn appendix_instant() -> Timestamp {
    Timestamp::parse_rfc3339("2022-02-22T14:22:22-05:00").unwrap()
}

#[test]
fn figure_15_offsets_and_instant() {
    // Source: RFC 9562 Appendix A, Figure 15
    assert_eq!(GREGORIAN_OFFSET_TICKS, 0x01b2_1dd2_1381_4000);
    assert_eq!(GREGORIAN_OFFSET_TICKS, 122_192_928_000_000_000);
    let t = appendix_instant();
    assert_eq!(t.unix_nanos(), 0x16D6_320C_3D4D_CC00);
    assert_eq!(t.unix_nanos(), 1_645_557_742_000_000_000);
    assert_eq!(t.gregorian_ticks(), Some(0x1EC_9414_C232_AB00));
    assert_eq!(t.gregorian_ticks(), Some(138_648_505_420_000_000));
    // Greg_100_ns = Unix_ns / 100 + offset, and back.
    assert_eq!(
        1_645_557_742_000_000_000u64 / 100 + GREGORIAN_OFFSET_TICKS,
        138_648_505_420_000_000
    );
}

#[test]
fn a1_v1() {
    // Source: RFC 9562 Appendix A.1 (Figure 16)
    let u = Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    check_layout(
        u,
        &[
            ("time_low", 32, 0xC232AB00),
            ("time_mid", 16, 0x9414),
            ("ver", 4, 0x1),
            ("time_high", 12, 0x1EC),
            ("var", 2, 0b10),
            ("clock_seq", 14, two_then(0b11, 0x3C8, 14)),
            ("node", 48, 0x9F6BDECED846),
        ],
    );
    let (time_low, time_mid, time_hi_and_version, rest) = u.as_fields();
    assert_eq!(time_low, 0xC232AB00);
    assert_eq!(time_mid, 0x9414);
    assert_eq!(time_hi_and_version >> 12, 0x1);
    assert_eq!(time_hi_and_version & 0x0fff, 0x1EC);
    assert_eq!(rest[0] >> 6, 0b10);
    assert_eq!(u.version_num(), 1);
    assert_eq!(u.version(), Some(Version::Mac));
    assert_eq!(u.kind(), Kind::Version(Version::Mac));
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.clock_seq(), Some(0b11 << 12 | 0x3C8));
    assert_eq!(u.node(), Some([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]));
    // Appendix A: the random node has the multicast bit (LSB of the first octet) set (§6.10).
    assert_eq!(u.node().unwrap()[0] & 1, 1);
    assert_eq!(u.gregorian_ticks(), Some(0x1EC9414C232AB00));
    assert_eq!(u.gregorian_ticks(), Some(138_648_505_420_000_000));
    let t = u.timestamp().unwrap();
    assert_eq!(t, appendix_instant());
    assert_eq!(t.to_rfc3339(7).to_string(), "2022-02-22T19:22:22.0000000Z");
    assert_eq!(t.unix_nanos(), 1_645_557_742_000_000_000);
    same_text(u, "C232AB00-9414-11EC-B3C8-9F6BDECED846");
    // Not a layout of another version.
    assert_eq!(u.unix_ts_ms(), None);
    assert_eq!(u.custom_a(), None);
    assert_eq!(u.local_id(), None);
}

#[test]
fn a2_v3() {
    // Source: RFC 9562 Appendix A.2 (Figures 17, 18, 19)
    let u = Uuid::parse_str("5df41881-3aed-3515-88a7-2f4a814cf09e").unwrap();
    check_layout(
        u,
        &[
            ("md5_high", 48, 0x5df418813aed),
            ("ver", 4, 0x3),
            ("md5_mid", 12, 0x515),
            ("var", 2, 0b10),
            ("md5_low", 62, two_then(0b00, 0x8a72f4a814cf09e, 62)),
        ],
    );
    assert_eq!(u.version_num(), 3);
    assert_eq!(u.version(), Some(Version::Md5));
    assert_eq!(u.kind().as_str(), "v3");
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.timestamp(), None);
    assert_eq!(u.clock_seq(), None);
    assert_eq!(u.node(), None);

    // Figure 17: MD5(namespace DNS || "www.example.com").
    let ns = Uuid::parse_str("6ba7b810-9dad-11d1-80b4-00c04fd430c8").unwrap();
    assert_eq!(ns, Uuid::NAMESPACE_DNS);
    let mut input = ns.as_bytes().to_vec();
    input.extend_from_slice(b"www.example.com");
    let digest = md5(&input);
    assert_eq!(hex(&digest), "5df418813aed051548a72f4a814cf09e");
    // Figure 19: the raw hash, then version and variant overwritten.
    let raw = Uuid::from_bytes(digest.try_into().unwrap());
    assert_eq!(raw.to_string(), "5df41881-3aed-0515-48a7-2f4a814cf09e");
    assert_eq!(raw.with_version(Version::Md5), u);
    same_text(u, "5df41881-3aed-3515-88a7-2f4a814cf09e");
}

#[test]
fn a3_v4() {
    // Source: RFC 9562 Appendix A.3 (Figures 20, 21)
    let u = Uuid::parse_str("919108f7-52d1-4320-9bac-f847db4148a8").unwrap();
    check_layout(
        u,
        &[
            ("random_a", 48, 0x919108f752d1),
            ("ver", 4, 0x4),
            ("random_b", 12, 0x320),
            ("var", 2, 0b10),
            ("random_c", 62, two_then(0b01, 0xbacf847db4148a8, 62)),
        ],
    );
    assert_eq!(u.version_num(), 4);
    assert_eq!(u.version(), Some(Version::Random));
    assert_eq!(u.kind().as_str(), "v4");
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.timestamp(), None);
    // Figure 21: the 16 random bytes, then version and variant overwritten.
    let raw = Uuid::parse_simple("919108F752D133205BACF847DB4148A8").unwrap();
    assert_eq!(raw.to_string(), "919108f7-52d1-3320-5bac-f847db4148a8");
    assert_eq!(raw.with_version(Version::Random), u);
    same_text(u, "919108f7-52d1-4320-9bac-f847db4148a8");
}

#[test]
fn a4_v5() {
    // Source: RFC 9562 Appendix A.4 (Figures 22, 23, 24)
    let u = Uuid::parse_str("2ed6657d-e927-568b-95e1-2665a8aea6a2").unwrap();
    check_layout(
        u,
        &[
            ("sha1_high", 48, 0x2ed6657de927),
            ("ver", 4, 0x5),
            ("sha1_mid", 12, 0x68b),
            ("var", 2, 0b10),
            ("sha1_low", 62, two_then(0b01, 0x5e12665a8aea6a2, 62)),
        ],
    );
    assert_eq!(u.version_num(), 5);
    assert_eq!(u.version(), Some(Version::Sha1));
    assert_eq!(u.kind().as_str(), "v5");
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.timestamp(), None);

    let mut input = Uuid::NAMESPACE_DNS.as_bytes().to_vec();
    input.extend_from_slice(b"www.example.com");
    let digest = sha1(&input);
    assert_eq!(hex(&digest), "2ed6657de927468b55e12665a8aea6a22dee3e35");
    let raw = Uuid::from_bytes(digest[..16].try_into().unwrap());
    assert_eq!(raw.to_string(), "2ed6657d-e927-468b-55e1-2665a8aea6a2");
    assert_eq!(
        hex(&digest[16..]),
        "2dee3e35",
        "Figure 24: discarded segment"
    );
    assert_eq!(raw.with_version(Version::Sha1), u);
    same_text(u, "2ed6657d-e927-568b-95e1-2665a8aea6a2");
}

#[test]
fn a5_v6() {
    // Source: RFC 9562 Appendix A.5 (Figure 25)
    let u = Uuid::parse_str("1EC9414C-232A-6B00-B3C8-9F6BDECED846").unwrap();
    // The table names the third time field "time_high" too; §5.6 calls it time_low.
    check_layout(
        u,
        &[
            ("time_high", 32, 0x1EC9414C),
            ("time_mid", 16, 0x232A),
            ("ver", 4, 0x6),
            ("time_low", 12, 0xB00),
            ("var", 2, 0b10),
            ("clock_seq", 14, two_then(0b11, 0x3C8, 14)),
            ("node", 48, 0x9F6BDECED846),
        ],
    );
    let (time_high, time_mid, time_low_and_version, rest) = u.as_fields();
    assert_eq!(time_high, 0x1EC9414C);
    assert_eq!(time_mid, 0x232A);
    assert_eq!(time_low_and_version, 0x6B00);
    assert_eq!(rest[0] >> 6, 0b10);
    assert_eq!(u.version_num(), 6);
    assert_eq!(u.version(), Some(Version::SortMac));
    assert_eq!(u.kind().as_str(), "v6");
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.clock_seq(), Some(0b11 << 12 | 0x3C8));
    assert_eq!(u.node(), Some([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]));
    // Appendix A: v1 and v6 carry the same 60-bit timestamp.
    assert_eq!(u.gregorian_ticks(), Some(0x1EC9414C232AB00));
    let t = u.timestamp().unwrap();
    assert_eq!(t, appendix_instant());
    assert_eq!(t.to_rfc3339(7).to_string(), "2022-02-22T19:22:22.0000000Z");
    same_text(u, "1EC9414C-232A-6B00-B3C8-9F6BDECED846");
}

#[test]
fn a1_a5_same_instant_round_trip() {
    // Source: RFC 9562 Appendix A (A.1 and A.5 share timestamp, clock_seq and node)
    let v1 = Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    let v6 = Uuid::parse_str("1EC9414C-232A-6B00-B3C8-9F6BDECED846").unwrap();
    assert_eq!(v1.to_v6(), Some(v6));
    assert_eq!(v6.to_v1(), Some(v1));
    assert_eq!(v1.timestamp(), v6.timestamp());
    assert_eq!(v1.clock_seq(), v6.clock_seq());
    assert_eq!(v1.node(), v6.node());
    // Conversions apply to their own version only.
    assert_eq!(v1.to_v1(), None);
    assert_eq!(v6.to_v6(), None);
    // And the builders agree with the published fields.
    let node = [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46];
    assert_eq!(Uuid::from_v1_parts(0x1EC9414C232AB00, 0x33C8, node), v1);
    assert_eq!(Uuid::from_v6_parts(0x1EC9414C232AB00, 0x33C8, node), v6);
}

#[test]
fn a6_v7() {
    // Source: RFC 9562 Appendix A.6 (Figure 26)
    let u = Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").unwrap();
    check_layout(
        u,
        &[
            ("unix_ts_ms", 48, 0x017F22E279B0),
            ("ver", 4, 0x7),
            ("rand_a", 12, 0xCC3),
            ("var", 2, 0b10),
            ("rand_b", 62, two_then(0b01, 0x8C4DC0C0C07398F, 62)),
        ],
    );
    assert_eq!(u.unix_ts_ms(), Some(0x017F22E279B0));
    assert_eq!(u.unix_ts_ms(), Some(1_645_557_742_000));
    assert_eq!(u.version_num(), 7);
    assert_eq!(u.version(), Some(Version::SortRand));
    assert_eq!(u.kind().as_str(), "v7");
    assert_eq!(u.rand_a(), Some(0xCC3));
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.rand_b(), Some((0b01 << 60) | 0x8C4DC0C0C07398F));
    let t = u.timestamp().unwrap();
    assert_eq!(t, appendix_instant());
    assert_eq!(t.to_rfc3339(3).to_string(), "2022-02-22T19:22:22.000Z");
    assert_eq!(t.unix_millis(), Some(1_645_557_742_000));
    assert_eq!(u.gregorian_ticks(), None);
    assert_eq!(u.clock_seq(), None);
    assert_eq!(
        Uuid::from_v7_parts(0x017F22E279B0, 0xCC3, (0b01 << 60) | 0x8C4DC0C0C07398F),
        u
    );
    same_text(u, "017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
}

#[test]
fn b1_v8_time_based() {
    // Source: RFC 9562 Appendix B.1 (Figure 27)
    let u = Uuid::parse_str("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0").unwrap();
    check_layout(
        u,
        &[
            ("custom_a", 48, 0x2489E9AD2EE2),
            ("ver", 4, 0x8),
            ("custom_b", 12, 0xE00),
            ("var", 2, 0b10),
            ("custom_c", 62, two_then(0b00, 0xEC932D5F69181C0, 62)),
        ],
    );
    assert_eq!(u.custom_a(), Some(0x2489E9AD2EE2));
    assert_eq!(u.version_num(), 8);
    assert_eq!(u.version(), Some(Version::Custom));
    assert_eq!(u.kind().as_str(), "v8");
    assert_eq!(u.custom_b(), Some(0xE00));
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.custom_c(), Some(0xEC932D5F69181C0));
    // v8 carries no timestamp the crate can know; this example's layout is its own:
    // custom_a and custom_b together are 10-ns steps since the Unix epoch.
    assert_eq!(u.timestamp(), None);
    let steps = (u.custom_a().unwrap() << 12) | u.custom_b().unwrap() as u64;
    assert_eq!(steps, 0x2489E9AD2EE2E00);
    assert_eq!(steps, 164_555_774_200_000_000);
    let t = Timestamp::from_unix_nanos(steps as i128 * 10).unwrap();
    assert_eq!(t, appendix_instant());
    assert_eq!(t.to_rfc3339(6).to_string(), "2022-02-22T19:22:22.000000Z");
    assert_eq!(
        Uuid::from_v8_parts(0x2489E9AD2EE2, 0xE00, 0xEC932D5F69181C0),
        u
    );
    same_text(u, "2489E9AD-2EE2-8E00-8EC9-32D5F69181C0");
}

#[test]
fn b2_v8_name_based_sha256() {
    // Source: RFC 9562 Appendix B.2 (Figures 28, 29, 30; custom_c per erratum EID 7929)
    let u = Uuid::parse_str("5c146b14-3c52-8afd-938a-375d0df1fbf6").unwrap();
    check_layout(
        u,
        &[
            ("custom_a", 48, 0x5c146b143c52),
            ("ver", 4, 0x8),
            ("custom_b", 12, 0xafd),
            ("var", 2, 0b10),
            ("custom_c", 62, two_then(0b01, 0x38a375d0df1fbf6, 62)),
        ],
    );
    assert_eq!(u.custom_a(), Some(0x5c146b143c52));
    assert_eq!(u.version(), Some(Version::Custom));
    assert_eq!(u.custom_b(), Some(0xafd));
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.custom_c(), Some((0b01 << 60) | 0x38a375d0df1fbf6));

    let mut input = Uuid::NAMESPACE_DNS.as_bytes().to_vec();
    input.extend_from_slice(b"www.example.com");
    let digest = sha256(&input);
    assert_eq!(
        hex(&digest),
        "5c146b143c524afd938a375d0df1fbf6fe12a66b645f72f6158759387e51f3c8"
    );
    let raw = Uuid::from_bytes(digest[..16].try_into().unwrap());
    assert_eq!(raw.to_string(), "5c146b14-3c52-4afd-938a-375d0df1fbf6");
    assert_eq!(hex(&digest[16..]), "fe12a66b645f72f6158759387e51f3c8");
    assert_eq!(raw.with_version(Version::Custom), u);
    same_text(u, "5c146b14-3c52-8afd-938a-375d0df1fbf6");
}

#[test]
fn section4_figures_1_to_4() {
    // Source: RFC 9562 §4, Figures 1-4 (the same UUID as text, binary, integer and URN)
    let u = Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6").unwrap();
    let binary = concat!(
        "111110000001110101001111101011100111110111101100000100011101000",
        "01010011101100101000000001010000011001001000111100110101111110110"
    );
    assert_eq!(binary.len(), 128);
    assert_eq!(u.as_u128(), u128::from_str_radix(binary, 2).unwrap());
    assert_eq!(u.as_u128(), 329800735698586629295641978511506172918);
    assert_eq!(
        Uuid::parse_str("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6").unwrap(),
        u
    );
    assert_eq!(
        u.urn().to_string(),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    );
    assert_eq!(u.version(), Some(Version::Mac));
    assert_eq!(u.variant(), Variant::Rfc9562);
}

#[test]
fn namespace_ids() {
    // Source: RFC 9562 §6.6, Table 3
    let table = [
        (Uuid::NAMESPACE_DNS, "6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
        (Uuid::NAMESPACE_URL, "6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
        (Uuid::NAMESPACE_OID, "6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
        (Uuid::NAMESPACE_X500, "6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
    ];
    for (constant, text) in table {
        assert_eq!(constant, Uuid::parse_str(text).unwrap(), "{text}");
        assert_eq!(constant.to_string(), text);
        // "calculated from a time-based UUIDv1" (§6.6): all four are v1, RFC variant.
        assert_eq!(constant.variant(), Variant::Rfc9562, "{text}");
        assert_eq!(constant.version(), Some(Version::Mac), "{text}");
        assert_eq!(constant.kind(), Kind::Version(Version::Mac), "{text}");
        // Only time_low differs between them (§6.6 allocation rule).
        let (_, time_mid, time_hi, rest) = constant.as_fields();
        assert_eq!((time_mid, time_hi), (0x9dad, 0x11d1));
        assert_eq!(rest, [0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]);
    }
}

#[test]
fn nil_and_max() {
    // Source: RFC 9562 §5.9 (Figure 13) and §5.10 (Figure 14)
    let nil = Uuid::parse_str("00000000-0000-0000-0000-000000000000").unwrap();
    assert_eq!(nil, Uuid::NIL);
    assert_eq!(nil.as_u128(), 0);
    assert!(nil.is_nil() && !nil.is_max());
    assert_eq!(nil.variant(), Variant::Ncs, "§5.9: Nil is in the NCS range");
    assert_eq!(nil.version_num(), 0);
    assert_eq!(nil.version(), None);
    assert_eq!(nil.kind(), Kind::Nil);
    assert_eq!(nil.kind().as_str(), "nil");
    assert_eq!(nil.timestamp(), None);
    assert_eq!(Uuid::default(), Uuid::NIL);

    let max = Uuid::parse_str("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF").unwrap();
    assert_eq!(max, Uuid::MAX);
    assert_eq!(max.as_u128(), u128::MAX);
    assert!(max.is_max() && !max.is_nil());
    assert_eq!(
        max.variant(),
        Variant::Future,
        "§5.10: Max is in the future range"
    );
    assert_eq!(max.version_num(), 15);
    assert_eq!(max.version(), None);
    assert_eq!(max.kind(), Kind::Max);
    assert_eq!(max.kind().as_str(), "max");
    assert_eq!(max.timestamp(), None);
    assert!(Uuid::NIL < Uuid::MAX);
}

#[test]
fn variant_boundaries() {
    // Source: RFC 9562 §4.1, Table 1 (with erratum EID 7958: NCS is 0-7, including 0)
    let table = [
        (0x00u8, Variant::Ncs, "ncs"),
        (0x7f, Variant::Ncs, "ncs"),
        (0x80, Variant::Rfc9562, "rfc9562"),
        (0xbf, Variant::Rfc9562, "rfc9562"),
        (0xc0, Variant::Microsoft, "microsoft"),
        (0xdf, Variant::Microsoft, "microsoft"),
        (0xe0, Variant::Future, "future"),
        (0xff, Variant::Future, "future"),
    ];
    for (octet8, variant, name) in table {
        // Octet 8 alone decides; the rest is set to values that would mislead a sloppy mask.
        for filler in [0x00u8, 0xff, 0x5a] {
            let mut b = [filler; 16];
            b[8] = octet8;
            let u = Uuid::from_bytes(b);
            assert_eq!(u.variant(), variant, "octet 8 = {octet8:#04x}");
            assert_eq!(u.variant().as_str(), name);
        }
    }
    // Every octet-8 value by its top bits, per the table's MSB columns.
    for octet8 in 0..=255u8 {
        let mut b = [0x11u8; 16];
        b[8] = octet8;
        let want = match octet8 >> 4 {
            0..=7 => Variant::Ncs,
            8..=0xb => Variant::Rfc9562,
            0xc..=0xd => Variant::Microsoft,
            _ => Variant::Future,
        };
        assert_eq!(
            Uuid::from_bytes(b).variant(),
            want,
            "octet 8 = {octet8:#04x}"
        );
    }
}

#[test]
fn version_nibble_and_kind() {
    // Source: RFC 9562 §4.2, Table 2 (0 unused, 1-8 defined, 9-15 reserved)
    let names = ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"];
    for n in 0..=15u8 {
        // A random-looking body with the RFC variant (octet 8 = 0x9b) and version nibble n.
        let mut b = *Uuid::parse_str("919108f7-52d1-4320-9bac-f847db4148a8")
            .unwrap()
            .as_bytes();
        b[6] = (n << 4) | (b[6] & 0x0f);
        let u = Uuid::from_bytes(b);
        assert_eq!(u.version_num(), n);
        assert_eq!(u.variant(), Variant::Rfc9562);
        match n {
            1..=8 => {
                let v = Version::from_u8(n).unwrap();
                assert_eq!(v.as_u8(), n);
                assert_eq!(u.version(), Some(v));
                assert_eq!(u.kind(), Kind::Version(v));
                assert_eq!(u.kind().as_str(), names[n as usize - 1]);
            }
            _ => {
                assert_eq!(Version::from_u8(n), None, "version {n}");
                assert_eq!(u.version(), None, "version {n}");
                assert_eq!(u.kind(), Kind::Unknown, "version {n}");
                assert_eq!(u.kind().as_str(), "unknown");
            }
        }
        // The version field means nothing outside the RFC variant (§4.2 lists it for 10xx).
        for octet8 in [0x00u8, 0x7f, 0xc0, 0xe0] {
            let mut other = b;
            other[8] = octet8;
            let o = Uuid::from_bytes(other);
            assert_eq!(o.version_num(), n);
            assert_eq!(o.version(), None);
            assert_eq!(o.kind(), Kind::Unknown);
        }
    }
    assert_eq!(Version::from_u8(16), None);
    assert_eq!(Version::from_u8(255), None);
}

#[test]
fn v2_dce_security_fields() {
    // Source: /work/shared/specs/README.md (DCE 1.1 layout): time_low = local id,
    // clock_seq_low = local domain, timestamp keeps its upper 28 bits.
    // Hand-built from the Appendix A.1 instant: uid 1000 (0x000003e8), domain person.
    let u = Uuid::parse_str("000003e8-9414-21ec-b300-9f6bdeced846").unwrap();
    assert_eq!(u.version(), Some(Version::Dce));
    assert_eq!(u.kind().as_str(), "v2");
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.local_id(), Some(1000));
    assert_eq!(u.local_domain(), Some(Domain::Person));
    assert_eq!(u.local_domain().unwrap().as_str(), "person");
    assert_eq!(u.v2_clock_seq(), Some(0x33));
    assert_eq!(u.node(), Some([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]));
    // A.1's ticks 0x1EC9414C232AB00 with time_low (0xC232AB00) dropped.
    assert_eq!(u.v2_ticks(), Some(0x1EC941400000000));
    // v1/v6 accessors do not apply to v2.
    assert_eq!(u.gregorian_ticks(), None);
    assert_eq!(u.clock_seq(), None);
    // 0xC232AB00 ticks = 325.8100480 s before 19:22:22Z: 19:16:56.1899520Z.
    let t = u.timestamp().unwrap();
    assert_eq!(t.to_rfc3339(7).to_string(), "2022-02-22T19:16:56.1899520Z");
    assert_eq!(
        t.checked_add_nanos(0xC232AB00 * 100).unwrap(),
        appendix_instant()
    );
    let built = Uuid::from_v2_parts(
        0x1EC9414C232AB00,
        0x33,
        Domain::Person,
        1000,
        [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46],
    );
    assert_eq!(built, u);

    // The other domains, by their byte (clock_seq_low, octet 9).
    for (byte, domain, name) in [
        (1u8, Domain::Group, "group"),
        (2, Domain::Org, "org"),
        (3, Domain::Other(3), "other"),
        (0xff, Domain::Other(0xff), "other"),
    ] {
        let mut b = *u.as_bytes();
        b[9] = byte;
        let d = Uuid::from_bytes(b);
        assert_eq!(d.local_domain(), Some(domain));
        assert_eq!(domain.as_u8(), byte);
        assert_eq!(Domain::from_u8(byte), domain);
        assert_eq!(domain.as_str(), name);
        // The domain does not leak into the 6-bit clock sequence.
        assert_eq!(d.v2_clock_seq(), Some(0x33));
    }
    // v2 accessors do not apply to other versions.
    let v1 = Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    assert_eq!(v1.local_id(), None);
    assert_eq!(v1.local_domain(), None);
    assert_eq!(v1.v2_ticks(), None);
    assert_eq!(v1.v2_clock_seq(), None);
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

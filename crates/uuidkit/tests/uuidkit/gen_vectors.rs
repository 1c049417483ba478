//! The generators reproduce the RFC 9562 test vectors when fed the vector's time (a fixed
//! clock) and its random inputs (replayed bytes, or a given node and clock sequence) through
//! the injected sources. Each vector is checked field by field, then as a whole.

#![cfg(feature = "std")]

use uuidkit::generator::{
    FixedClock, GregorianBuilder, ReplayRandom, V1Generator, V6Generator, V7Builder, V7Method,
    V8TimeGenerator,
};
use uuidkit::{Timestamp, Uuid, Variant, Version};

/// "Tuesday, February 22, 2022 2:22:22.000000 PM GMT-05:00", the time of A.1, A.5, A.6, B.1.
fn vector_time() -> Timestamp {
    Timestamp::parse_rfc3339("2022-02-22T14:22:22.000000-05:00").unwrap()
}

/// Random inputs of A.1/A.5 in the order a v1/v6 generator draws them: a `u64` whose low 14
/// bits are the clock sequence (0b11, 0x3C8), then six node bytes. The node as generated was
/// 0x9E6BDECED846; the generator must set the multicast bit itself (§6.10) to get 0x9F….
fn gregorian_random() -> ReplayRandom {
    ReplayRandom::new([
        0xC8, 0x33, 0, 0, 0, 0, 0, 0, // clock sequence 0x33C8, little-endian u64
        0x9E, 0x6B, 0xDE, 0xCE, 0xD8, 0x46, // node before the multicast bit
    ])
}

#[test]
fn a1_v1_from_replayed_random_inputs() {
    // Source: RFC 9562 Appendix A.1 (and the timestamp of Figure 15)
    let clock = FixedClock::new(vector_time());
    assert_eq!(clock_ticks(&clock), 0x1EC9414C232AB00);
    let mut g = V1Generator::new(clock, gregorian_random());
    let u = g.next().unwrap();
    let (time_low, time_mid, time_hi_ver, rest) = u.as_fields();
    assert_eq!(time_low, 0xC232AB00);
    assert_eq!(time_mid, 0x9414);
    assert_eq!(time_hi_ver >> 12, 0x1, "ver");
    assert_eq!(time_hi_ver & 0x0fff, 0x1EC, "time_high");
    assert_eq!(rest[0] >> 6, 0b10, "var");
    assert_eq!(
        u16::from_be_bytes([rest[0], rest[1]]) & 0x3fff,
        0x33C8,
        "clock_seq"
    );
    assert_eq!(&rest[2..], &[0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46], "node");
    assert_eq!(u.variant(), Variant::Rfc9562);
    assert_eq!(u.version(), Some(Version::Mac));
    assert_eq!(
        u,
        Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap()
    );
}

#[test]
fn a1_v1_from_given_node_and_clock_seq() {
    // Source: RFC 9562 Appendix A.1
    let mut g = GregorianBuilder::new()
        .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
        .clock_seq(0x33C8)
        .build_v1(FixedClock::new(vector_time()), ReplayRandom::new([]))
        .unwrap();
    assert_eq!(
        g.next().unwrap().to_string(),
        "c232ab00-9414-11ec-b3c8-9f6bdeced846"
    );
}

#[test]
fn a5_v6_from_replayed_random_inputs() {
    // Source: RFC 9562 Appendix A.5
    let mut g = V6Generator::new(FixedClock::new(vector_time()), gregorian_random());
    let u = g.next().unwrap();
    let (time_high, time_mid, ver_time_low, rest) = u.as_fields();
    assert_eq!(time_high, 0x1EC9414C);
    assert_eq!(time_mid, 0x232A);
    assert_eq!(ver_time_low >> 12, 0x6, "ver");
    assert_eq!(ver_time_low & 0x0fff, 0xB00, "time_low");
    assert_eq!(rest[0] >> 6, 0b10, "var");
    assert_eq!(
        u16::from_be_bytes([rest[0], rest[1]]) & 0x3fff,
        0x33C8,
        "clock_seq"
    );
    assert_eq!(&rest[2..], &[0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46], "node");
    assert_eq!(
        u,
        Uuid::parse_str("1EC9414C-232A-6B00-B3C8-9F6BDECED846").unwrap()
    );
}

#[test]
fn a5_v6_from_given_node_and_clock_seq() {
    // Source: RFC 9562 Appendix A.5
    let mut g = GregorianBuilder::new()
        .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
        .clock_seq(0x33C8)
        .build_v6(FixedClock::new(vector_time()), ReplayRandom::new([]))
        .unwrap();
    assert_eq!(
        g.next().unwrap().to_string(),
        "1ec9414c-232a-6b00-b3c8-9f6bdeced846"
    );
}

#[test]
fn a6_v7_monotonic_random_first_uuid_of_the_millisecond() {
    // Source: RFC 9562 Appendix A.6
    // A Method 2 generator seeds all 74 bits after the timestamp with random data at a new
    // millisecond, which is exactly the vector's "rand_a and rand_b are filled with random
    // data". The ten random bytes are the vector's octets 6 to 15; the generator keeps the
    // 12 + 62 bits around the version and variant.
    let random = ReplayRandom::new([0x7C, 0xC3, 0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F]);
    let mut g = V7Builder::new()
        .method(V7Method::monotonic_random())
        .build(FixedClock::new(vector_time()), random)
        .unwrap();
    let u = g.next().unwrap();
    assert_eq!(u.unix_ts_ms(), Some(0x017F22E279B0));
    assert_eq!(u.unix_ts_ms(), Some(1645557742000));
    assert_eq!(u.version_num(), 0x7);
    assert_eq!(u.rand_a(), Some(0xCC3));
    assert_eq!(u.as_bytes()[8] >> 6, 0b10, "var");
    assert_eq!(u.rand_b(), Some((0b01 << 60) | 0x8C4DC0C0C07398F));
    assert_eq!(
        u,
        Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").unwrap()
    );
}

#[test]
fn v7_method3_fraction_example() {
    // Source: RFC 9562 Section 6.2, Method 3 example: 12:34:56.1234567 on 1 Jan 2023 gives a
    // millisecond fraction of 0.4567, which in 12 bits is 1870 = 0x74E.
    let t = Timestamp::parse_rfc3339("2023-01-01T12:34:56.1234567Z").unwrap();
    let mut g = V7Builder::new()
        .method(V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 0,
        })
        .build(FixedClock::new(t), ReplayRandom::new([0xAB]))
        .unwrap();
    let u = g.next().unwrap();
    assert_eq!(u.rand_a(), Some(0x74E));
    assert_eq!(u.unix_ts_ms(), t.unix_millis());
}

#[test]
fn b1_v8_time_based() {
    // Source: RFC 9562 Appendix B.1
    // custom_c is "filled with random data": the eight random bytes are the vector's octets
    // 8 to 15, whose top two bits the variant replaces.
    let random = ReplayRandom::new([0x8E, 0xC9, 0x32, 0xD5, 0xF6, 0x91, 0x81, 0xC0]);
    let mut g = V8TimeGenerator::new(FixedClock::new(vector_time()), random);
    let u = g.next().unwrap();
    // 164555774200000000 10-ns steps = 0x2489E9AD2EE2E00, split 48 + 12 around the version.
    assert_eq!(u.custom_a(), Some(0x2489E9AD2EE2));
    assert_eq!(u.version_num(), 0x8);
    assert_eq!(u.custom_b(), Some(0xE00));
    assert_eq!(u.as_bytes()[8] >> 6, 0b10, "var");
    assert_eq!(u.custom_c(), Some(0xEC932D5F69181C0));
    assert_eq!(
        u,
        Uuid::parse_str("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0").unwrap()
    );
}

fn clock_ticks(c: &FixedClock) -> u64 {
    use uuidkit::generator::Clock;
    c.now().gregorian_ticks().unwrap()
}

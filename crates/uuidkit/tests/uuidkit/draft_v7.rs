//! The 2021 draft's UUIDv7 layout, read by [`Uuid::draft_v7_timestamp`]: its worked example
//! and its three encoding figures decoded field by field, and two properties of the decoding
//! (a UUID encoded at any of the figures' precisions reads back to the time it was given; every
//! v7 UUID reads to the nanosecond at or below the exact binary fraction it holds).
//!
//! The layout (draft-peabody-dispatch-new-uuid-format-01 §4.4, Figure 2), from the most
//! significant bit: `unixts` (36 bits of Unix seconds), `subsec_a` (12), `ver` (4, 0111),
//! `subsec_b` (12), `var` (2, 10), `subsec_seq_node` (62). The three sub-second fields, the
//! version and variant skipped, are one binary fraction of a second (§4.4.4.2). It is **not**
//! RFC 9562's v7 (48-bit milliseconds), though some early generators emitted it with version 7.
//!
//! Cases per property: `UUIDKIT_PROPTEST_CASES` (default 2000).

use proptest::prelude::*;
use uuidkit::{Timestamp, Uuid};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("UUIDKIT_PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The fields of Figure 2, read from the UUID's integer with shifts of their own.
#[derive(Debug, PartialEq, Eq)]
struct Fields {
    unixts: u64,
    subsec_a: u16,
    ver: u8,
    subsec_b: u16,
    var: u8,
    subsec_seq_node: u64,
}

fn fields(u: Uuid) -> Fields {
    let v = u.as_u128();
    Fields {
        unixts: (v >> 92) as u64,
        subsec_a: ((v >> 80) & 0xfff) as u16,
        ver: ((v >> 76) & 0xf) as u8,
        subsec_b: ((v >> 64) & 0xfff) as u16,
        var: ((v >> 62) & 0b11) as u8,
        subsec_seq_node: (v & ((1 << 62) - 1)) as u64,
    }
}

/// A draft v7 UUID of `unixts` seconds and the 86-bit sub-second bit string `subsec` (the
/// fraction of a second times 2^86), with the version and variant in place.
fn draft_v7(unixts: u64, subsec: u128) -> Uuid {
    let a = (subsec >> 74) & 0xfff;
    let b = (subsec >> 62) & 0xfff;
    let rest = subsec & ((1 << 62) - 1);
    Uuid::from_u128(
        (u128::from(unixts) << 92) | (a << 80) | (0x7 << 76) | (b << 64) | (0b10 << 62) | rest,
    )
}

/// The smallest `bits`-bit binary fraction at or above `value / units`: the encoding whose
/// decoding, truncated to `units`, gives `value` back (§4.4.4.2 Scenario 1: a parser with less
/// precision than the encoder "SHOULD return the correct millisecond value encoded by system
/// A (truncated to milliseconds)").
fn fraction(value: u64, units: u64, bits: u32) -> u128 {
    (u128::from(value) << bits).div_ceil(u128::from(units))
}

#[test]
fn the_0x5555_worked_example() {
    // Source: draft-peabody-dispatch-new-uuid-format-01 §4.4.4.2 (UUIDv7 Decoding): "If these
    // 16 bits are 0101 0101 0101 0101, then treating that as an integer gives 0x5555 or 21845
    // in decimal, and dividing by 65536 gives 0.3333282". The seconds are the draft's date,
    // 2021-04-27 (1,619,481,600 s); every sub-second bit after the first 16 is zero.
    let u = draft_v7(1_619_481_600, 0x5555 << 70);
    assert_eq!(u.to_string(), "06087540-0555-7500-8000-000000000000");
    assert_eq!(
        fields(u),
        Fields {
            unixts: 0x0_6087_5400, // 1,619,481,600
            subsec_a: 0x555,       // the first 12 of the 16 bits: 0101 0101 0101
            ver: 0b0111,
            subsec_b: 0x500, // the last 4, 0101, then zeros
            var: 0b10,
            subsec_seq_node: 0,
        }
    );
    // The first 16 sub-second bits, skipping the version: subsec_a, then subsec_b's top 4.
    let first16 = (u32::from(fields(u).subsec_a) << 4) | u32::from(fields(u).subsec_b >> 8);
    assert_eq!(first16, 0x5555);
    assert_eq!(first16, 21845);
    assert_eq!(format!("{:.7}", f64::from(first16) / 65536.0), "0.3333282");
    // The library's reading: 21845 / 65536 s = 333,328,247.07… ns, rounded down.
    let t = u.draft_v7_timestamp().expect("a draft v7 UUID");
    assert_eq!(
        (t.unix_seconds(), t.subsec_nanos()),
        (1_619_481_600, 333_328_247)
    );
    assert_eq!(
        t.to_rfc3339(9).to_string(),
        "2021-04-27T00:00:00.333328247Z"
    );
    assert_eq!(
        format!("{:.7}", f64::from(t.subsec_nanos()) / 1e9),
        "0.3333282"
    );
}

#[test]
fn the_three_encoding_figures() {
    // Source: draft-peabody-dispatch-new-uuid-format-01 §4.4.4.1, Figures 3, 4 and 5: the
    // sub-second time at millisecond (12 bits: subsec_a), microsecond (24 bits: subsec_a and
    // subsec_b) and nanosecond (38 bits: subsec_a, subsec_b and 14 bits of subsec_seq_node)
    // precision, then a sequence counter (12, 14 and 8 bits), then random bits (62, 48, 40).
    let secs = 1_619_481_600;

    // Figure 3: msec | seq | rand. 123 ms is 503.8 / 4096 s; 504 = 0x1F8 reads as 123.05 ms.
    let msec = fraction(123, 1_000, 12);
    assert_eq!(msec, 0x1F8);
    let u = draft_v7(secs, (msec << 74) | (0x00A << 62) | 0x2AAA_AAAA_AAAA_AAAA);
    assert_eq!(
        fields(u),
        Fields {
            unixts: secs,
            subsec_a: 0x1F8,
            ver: 7,
            subsec_b: 0x00A, // seq
            var: 2,
            subsec_seq_node: 0x2AAA_AAAA_AAAA_AAAA, // rand
        }
    );
    let t = u.draft_v7_timestamp().unwrap();
    assert_eq!(
        (t.unix_seconds(), t.subsec_nanos() / 1_000_000),
        (secs as i64, 123)
    );
    // To the nanosecond: 504 / 4096 s (123,046,875 ns), plus the seq's 10 / 2^24 s (596.05 ns)
    // and the rand's 0x2AAA… / 2^86 s (39.74 ns), rounded down.
    assert_eq!(t.subsec_nanos(), 123_047_510);

    // Figure 4: usec (24 bits) | seq (14) | rand (48). 654,321 µs.
    let usec = fraction(654_321, 1_000_000, 24);
    let u = draft_v7(secs, (usec << 62) | (0x1234 << 48) | 0xFFFF_FFFF_FFFF);
    let f = fields(u);
    assert_eq!(
        (u128::from(f.subsec_a) << 12) | u128::from(f.subsec_b),
        usec
    );
    assert_eq!(f.subsec_seq_node >> 48, 0x1234); // seq, at the top of subsec_seq_node
    assert_eq!(f.subsec_seq_node & 0xFFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF); // rand
    let t = u.draft_v7_timestamp().unwrap();
    // §4.4.4.2 Scenario 1: read to the millisecond, the encoder's time truncated.
    assert_eq!(t.subsec_nanos() / 1_000_000, 654);
    // Scenario 2: read to the nanosecond, the encoder's microsecond; what lies below it comes
    // from the seq and rand bits.
    assert_eq!(t.subsec_nanos() / 1_000, 654_321);

    // Figure 5: nsec (38 bits) | seq (8) | rand (40). 999,999,999 ns, the last of a second.
    let nsec = fraction(999_999_999, 1_000_000_000, 38);
    let u = draft_v7(secs, (nsec << 48) | (0xFF << 40) | 0xFF_FFFF_FFFF);
    let f = fields(u);
    assert_eq!(
        (u128::from(f.subsec_a) << 26)
            | (u128::from(f.subsec_b) << 14)
            | u128::from(f.subsec_seq_node >> 48),
        nsec
    );
    assert_eq!((f.subsec_seq_node >> 40) & 0xFF, 0xFF); // seq
    let t = u.draft_v7_timestamp().unwrap();
    assert_eq!(
        (t.unix_seconds(), t.subsec_nanos()),
        (secs as i64, 999_999_999)
    );
}

#[test]
fn only_version_7_of_the_rfc_variant_reads() {
    let u = draft_v7(1, 1 << 85); // 1.5 s
    assert!(u.draft_v7_timestamp().is_some());
    // The same bits with version 6 or 8, or the NCS, Microsoft or future variant: no reading.
    for ver in [6u128, 8] {
        let other = Uuid::from_u128((u.as_u128() & !(0xf << 76)) | (ver << 76));
        assert_eq!(other.draft_v7_timestamp(), None, "version {ver}");
    }
    for var in [0b00u128, 0b01, 0b11] {
        let other = Uuid::from_u128((u.as_u128() & !(0b11 << 62)) | (var << 62));
        assert_eq!(other.draft_v7_timestamp(), None, "variant bits {var:02b}");
    }
    // The extremes: all fields zero, and all ones (2^36 − 1 s, the fraction just below 1).
    let zero = draft_v7(0, 0).draft_v7_timestamp().unwrap();
    assert_eq!(zero, Timestamp::UNIX_EPOCH);
    let top = draft_v7((1 << 36) - 1, (1 << 86) - 1)
        .draft_v7_timestamp()
        .unwrap();
    assert_eq!(
        (top.unix_seconds(), top.subsec_nanos()),
        ((1 << 36) - 1, 999_999_999)
    );
}

proptest! {
    #![proptest_config(config())]

    /// A time encoded at the millisecond, microsecond or nanosecond precision of Figures 3–5,
    /// whatever sequence and random bits follow, reads back to that time at that precision.
    #[test]
    fn each_figure_round_trips(
        secs in 0u64..1 << 36,
        nanos in 0u64..1_000_000_000,
        seq in any::<u64>(),
        rand in any::<u64>(),
    ) {
        // (units per second, fraction bits, seq bits) of Figures 3, 4 and 5.
        for (units, bits, seq_bits) in [(1_000u64, 12u32, 12u32), (1_000_000, 24, 14), (1_000_000_000, 38, 8)] {
            let value = nanos / (1_000_000_000 / units);
            let rest_bits = 86 - bits - seq_bits;
            let subsec = (fraction(value, units, bits) << (86 - bits))
                | (u128::from(seq & ((1 << seq_bits) - 1)) << rest_bits)
                | u128::from(rand & ((1 << rest_bits) - 1));
            let u = draft_v7(secs, subsec);
            prop_assert_eq!(fields(u).unixts, secs);
            let t = u.draft_v7_timestamp().expect("a draft v7 UUID");
            prop_assert_eq!(t.unix_seconds(), secs as i64);
            prop_assert_eq!(
                u64::from(t.subsec_nanos()) / (1_000_000_000 / units),
                value,
                "{} units per second", units
            );
        }
    }

    /// Any UUID with version 7 and the RFC variant reads as its top 36 bits of seconds and the
    /// nanosecond at or just below its 86-bit fraction: n × 2^86 ≤ fraction × 10^9 <
    /// (n + 1) × 2^86. And the reading never goes down as the UUID's value goes up.
    #[test]
    fn every_draft_v7_reads_to_the_nanosecond_below_its_fraction(
        a in any::<u128>(),
        b in any::<u128>(),
    ) {
        let v7 = |x: u128| Uuid::from_u128((x & !(0xf << 76) & !(0b11 << 62)) | (0x7 << 76) | (0b10 << 62));
        let (u, w) = (v7(a), v7(b));
        let f = fields(u);
        let frac = (u128::from(f.subsec_a) << 74)
            | (u128::from(f.subsec_b) << 62)
            | u128::from(f.subsec_seq_node);
        let t = u.draft_v7_timestamp().expect("a draft v7 UUID");
        prop_assert_eq!(t.unix_seconds(), f.unixts as i64);
        let n = u128::from(t.subsec_nanos());
        prop_assert!(n << 86 <= frac * 1_000_000_000);
        prop_assert!(frac * 1_000_000_000 < (n + 1) << 86);
        let (lo, hi) = if u <= w { (u, w) } else { (w, u) };
        prop_assert!(lo.draft_v7_timestamp() <= hi.draft_v7_timestamp());
    }
}

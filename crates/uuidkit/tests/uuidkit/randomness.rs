//! Sanity of the random bits (RFC 9562 §6.9: "implementations SHOULD utilize a
//! cryptographically secure pseudorandom number generator"): not a statistical test suite,
//! but a check that no bit meant to be random is stuck, biased or copied from elsewhere.
//!
//! - every random bit of v4 UUIDs (122 bits, from `v4()` and from `fill_v4`), and of the
//!   random part of v7 (`rand_b` below the process-wide generator's counter: 58 bits; below a
//!   per-instance Method 1 42-bit counter: 32 bits), is 1 in a fraction of the UUIDs within
//!   6 standard deviations of one half (for n UUIDs, σ = √n / 2);
//! - the fixed bits (version, variant) never vary;
//! - the default node of v1 and v6 (process-wide and per-instance generators) always has the
//!   multicast bit set (§6.10) and never equals a MAC address of this machine
//!   (`/sys/class/net/*/address`): MAC addresses are used only when asked for.
//!
//! `UUIDKIT_RANDOMNESS_COUNT` sets n (default 100,000; `scripts/stress` runs 10^7).

use uuidkit::generator::{V1Generator, V6Generator, V7Generator};
use uuidkit::{Uuid, Variant, Version};

fn count() -> u64 {
    std::env::var("UUIDKIT_RANDOMNESS_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

/// Counts, for every bit of `mask`, how many of `n` values from `next` have it set, and checks
/// each count against n/2 ± 6σ. Returns the largest deviation in σ, for the report.
fn check_bits(what: &str, mask: u128, n: u64, mut next: impl FnMut() -> u128) -> f64 {
    let mut ones = [0u64; 128];
    for _ in 0..n {
        let v = next() & mask;
        let mut bits = v;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            ones[i] += 1;
            bits &= bits - 1;
        }
    }
    let sigma = (n as f64).sqrt() / 2.0;
    let half = n as f64 / 2.0;
    let mut worst: f64 = 0.0;
    for (i, &c) in ones.iter().enumerate() {
        if mask >> i & 1 == 0 {
            assert_eq!(c, 0, "{what}: masked bit {i} counted");
            continue;
        }
        let z = (c as f64 - half).abs() / sigma;
        assert!(z < 6.0, "{what}: bit {i} (from the least significant) set {c} times in {n}, {z:.1} σ from one half");
        worst = worst.max(z);
    }
    println!(
        "{what}: {} bits x {n} UUIDs, largest deviation {worst:.2} σ",
        mask.count_ones()
    );
    worst
}

/// Every bit except version (bits 76–79) and variant (bits 62–63).
const V4_RANDOM: u128 = !((0xf << 76) | (0b11 << 62));

#[test]
fn v4_every_random_bit_is_fair() {
    let n = count();
    check_bits("v4()", V4_RANDOM, n, || {
        let u = uuidkit::v4();
        assert_eq!(u.version(), Some(Version::Random));
        assert_eq!(u.variant(), Variant::Rfc9562);
        u.as_u128()
    });
    let mut buf = vec![Uuid::NIL; 1000];
    let mut i = buf.len();
    check_bits("fill_v4", V4_RANDOM, n, || {
        if i == buf.len() {
            uuidkit::generator::v4::fill_v4(&mut buf);
            i = 0;
        }
        i += 1;
        let u = buf[i - 1];
        assert_eq!((u.version_num(), u.variant()), (4, Variant::Rfc9562));
        u.as_u128()
    });
}

#[test]
fn v7_random_bits_are_fair() {
    let n = count();
    // The process-wide generator: 26-bit counter in rand_a and the top 14 bits of rand_b.
    check_bits("v7() rand_b (48 random bits)", (1 << 48) - 1, n, || {
        let u = uuidkit::v7();
        assert_eq!(u.version(), Some(Version::SortRand));
        u.as_u128()
    });
    let mut batch = vec![Uuid::NIL; 1000];
    let mut i = batch.len();
    check_bits("v7_batch rand_b (48 random bits)", (1 << 48) - 1, n, || {
        if i == batch.len() {
            uuidkit::v7_batch(&mut batch);
            i = 0;
        }
        i += 1;
        batch[i - 1].as_u128()
    });
    // Per instance, Method 1 with the default 42-bit counter: 32 random bits at the end.
    let mut g = V7Generator::system();
    check_bits(
        "V7Generator rand_b (32 random bits)",
        (1 << 32) - 1,
        n,
        || g.next().expect("system clock in range").as_u128(),
    );
}

/// This machine's MAC addresses, all-zero ones (loopback) left out.
fn local_macs() -> Vec<[u8; 6]> {
    let mut macs = Vec::new();
    let Ok(dir) = std::fs::read_dir("/sys/class/net") else {
        return macs;
    };
    for entry in dir.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path().join("address")) else {
            continue;
        };
        let parts: Vec<u8> = text
            .trim()
            .split(':')
            .filter_map(|p| u8::from_str_radix(p, 16).ok())
            .collect();
        if let Ok(mac) = <[u8; 6]>::try_from(parts.as_slice()) {
            if mac != [0; 6] {
                macs.push(mac);
            }
        }
    }
    macs
}

#[test]
fn default_nodes_are_random_multicast_and_never_a_local_mac() {
    let macs = local_macs();
    println!("local MAC addresses compared against: {}", macs.len());
    let check = |what: &str, u: Uuid| {
        let node = u.node().expect("v1/v6 node");
        assert_eq!(node[0] & 1, 1, "{what}: multicast bit clear in {u}");
        assert!(
            !macs.contains(&node),
            "{what}: node of {u} is a MAC address of this machine"
        );
        // Only the multicast bit itself may be common to all nodes; the rest must vary.
        node
    };
    let mut nodes = Vec::new();
    for _ in 0..1000 {
        check("v1()", uuidkit::v1());
        check("v6()", uuidkit::v6());
        let mut g1 = V1Generator::system();
        let mut g6 = V6Generator::system();
        nodes.push(check("V1Generator", g1.next().expect("v1")));
        nodes.push(check("V6Generator", g6.next().expect("v6")));
    }
    // Per-instance generators draw a new node each: 2,000 random 47-bit nodes do not repeat
    // (a repeat has probability about 2^-26).
    nodes.sort_unstable();
    nodes.dedup();
    assert_eq!(nodes.len(), 2000, "random nodes repeated");
    // And each of the 47 random bits of those nodes takes both values.
    let mut or = [0u8; 6];
    let mut and = [0xffu8; 6];
    for n in &nodes {
        for i in 0..6 {
            or[i] |= n[i];
            and[i] &= n[i];
        }
    }
    assert_eq!(or, [0xff; 6]);
    assert_eq!(and, [0x01, 0, 0, 0, 0, 0]);
}

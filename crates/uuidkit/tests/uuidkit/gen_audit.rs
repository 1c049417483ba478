//! What an audit of RFC 9562 against the generators found: three deviations, reproduced here
//! as they were reported (each test failed before the fix), and four statements of the RFCs
//! that no test checked.
//!
//! - v2 issued duplicates after the clock stepped back more than 10 s;
//! - per-instance generators went back by default after a step back of more than 10 s
//!   (RFC 9562 §6.2 "Monotonic Error Checking");
//! - Method 3 accepted counters of 1 to 11 bits (§6.2: "the counter SHOULD be at least 12 bits
//!   but no longer than 42 bits");
//! - RFC 4122 erratum 1352 (the v3 example), timestamps in UTC, the initial clock sequence
//!   independent of the node, the distributed v8 node id never a MAC address of the machine.
//!
//! And DESIGN.md's order invariant, clause by clause (v1 not in byte order; `Reset` by design).

#![cfg(feature = "std")]

use std::collections::HashSet;

use uuidkit::generator::{
    DistributedBuilder, DistributedLayout, GregorianBuilder, RegressionPolicy, ReplayRandom,
    SeqRandom, StepClock, ThreadRng, V1Generator, V2Generator, V6Generator, V7Builder, V7Generator,
    V7Method, V8TimeGenerator,
};
use uuidkit::{Domain, Timestamp, Uuid};

const SECOND: i128 = 1_000_000_000;

/// A v2 time step: 2^32 ticks of 100 ns.
const V2_STEP_TICKS: u64 = 1 << 32;

// ---- the three reproductions -------------------------------------------------------------------

/// Reported: 32 UUIDs in one v2 time step, 4 in the next, the clock back 11 s (into the first
/// step), 32 more: duplicates in 989 of 1000 trials under the default policies.
#[test]
fn v2_never_repeats_after_the_clock_steps_back_eleven_seconds() {
    // One second before the end of the time step of RFC 9562 Appendix A.1's time.
    let step = 0x1EC9414u64;
    let before_boundary = ((step + 1) * V2_STEP_TICKS) - 10_000_000;
    let mut trials_with_duplicates = 0;
    for seed in 0..1000 {
        let clock = StepClock::new(Timestamp::from_gregorian_ticks(before_boundary));
        let mut g = V2Generator::new(&clock, SeqRandom::new(seed));
        let mut all = Vec::new();
        for _ in 0..32 {
            all.push(g.next(Domain::Person, 1000).unwrap());
        }
        clock.advance(2 * SECOND); // into the next time step
        for _ in 0..4 {
            all.push(g.next(Domain::Person, 1000).unwrap());
        }
        clock.step_back(11 * SECOND); // back into the first one
        for _ in 0..32 {
            all.push(g.next(Domain::Person, 1000).unwrap());
        }
        let distinct: HashSet<Uuid> = all.iter().copied().collect();
        if distinct.len() != all.len() {
            trials_with_duplicates += 1;
        }
    }
    assert_eq!(trials_with_duplicates, 0, "trials of 1000 with duplicates");
}

/// Reported: after 11 s back, the next v6, v7 and both v8 time layouts sorted before the
/// previous UUID, silently, under the default policies (v1: its timestamp went back).
#[test]
fn default_generators_never_go_back_after_the_clock_steps_back_eleven_seconds() {
    let t0 = Timestamp::from_unix_millis(1_645_557_742_000);
    // Three steps back of 11 s, a UUID after each; every generator is checked and the ones that
    // went back are named together.
    let mut went_back = Vec::new();
    let mut check =
        |name: &str, clock: &StepClock, next: &mut dyn FnMut() -> Uuid, key: fn(Uuid) -> u128| {
            let mut prev = next();
            for round in 0..3 {
                clock.step_back(11 * SECOND);
                let u = next();
                if key(u) <= key(prev) {
                    went_back.push(format!("{name}, step back {round}: {u} after {prev}"));
                    break;
                }
                prev = u;
            }
        };
    let by_bytes = |u: Uuid| u.as_u128();

    let clock = StepClock::new(t0);
    let mut g = V6Generator::new(&clock, SeqRandom::new(1));
    check("v6", &clock, &mut || g.next().unwrap(), by_bytes);
    let clock = StepClock::new(t0);
    let mut g = V1Generator::new(&clock, SeqRandom::new(2));
    check("v1", &clock, &mut || g.next().unwrap(), |u| {
        u.gregorian_ticks().unwrap().into()
    });
    for (i, method) in [
        V7Method::default(),
        V7Method::monotonic_random(),
        V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 0,
        },
    ]
    .into_iter()
    .enumerate()
    {
        let clock = StepClock::new(t0);
        let mut g = V7Builder::new()
            .method(method)
            .build(&clock, SeqRandom::new(3 + i as u64))
            .unwrap();
        check(
            &format!("v7 {method:?}"),
            &clock,
            &mut || g.next().unwrap(),
            by_bytes,
        );
    }
    let clock = StepClock::new(t0);
    let mut g = V7Generator::new(&clock, SeqRandom::new(7));
    check(
        "v7 fill",
        &clock,
        &mut || {
            let mut two = [Uuid::NIL; 2];
            g.fill(&mut two).unwrap();
            assert!(two[0] < two[1]);
            two[0]
        },
        by_bytes,
    );
    let clock = StepClock::new(t0);
    let mut g = V8TimeGenerator::new(&clock, SeqRandom::new(8));
    check("v8 time", &clock, &mut || g.next().unwrap(), by_bytes);
    let clock = StepClock::new(t0);
    let mut g = DistributedBuilder::new(DistributedLayout::default())
        .build(&clock, SeqRandom::new(9))
        .unwrap();
    check(
        "v8 distributed",
        &clock,
        &mut || g.next().unwrap(),
        by_bytes,
    );
    assert!(went_back.is_empty(), "went back:\n{}", went_back.join("\n"));
}

/// DESIGN.md's order invariant, clause by clause: v1 increases by timestamp, not by bytes;
/// `Reset` follows a step back beyond the threshold, by design, so the next UUID sorts below
/// the previous one (v1/v6 with the next clock sequence); within the threshold it keeps
/// counting; v2 never follows.
#[test]
fn the_order_invariant_as_stated() {
    // v1: one tick before `time_low` wraps (step 0x1EC9415 of 2^32 ticks). The next UUID has
    // the greater timestamp, yet `time_low` 0 after 0xFFFFFFFF puts it first in byte order.
    let wrap = Timestamp::from_gregorian_ticks((0x1EC9415 << 32) - 1);
    let mut g = V1Generator::new(StepClock::new(wrap), SeqRandom::new(30));
    let (a, b) = (g.next().unwrap(), g.next().unwrap());
    assert_eq!(a.gregorian_ticks().map(|t| t + 1), b.gregorian_ticks());
    assert!(b < a, "v1 byte order: {b} after {a}");

    let t0 = Timestamp::from_unix_millis(1_645_557_742_000);
    let reset = GregorianBuilder::new().regression(RegressionPolicy::Reset);
    // Within the threshold (10 s by default) `Reset` keeps counting, as `Continue` does.
    let clock = StepClock::new(t0);
    let mut g = reset.build_v6(&clock, SeqRandom::new(31)).unwrap();
    let a = g.next().unwrap();
    clock.step_back(5 * SECOND);
    let b = g.next().unwrap();
    assert!(b > a && b.clock_seq() == a.clock_seq() && g.resets() == 0);
    // Beyond it, v1 and v6 follow the clock back with the next clock sequence.
    clock.step_back(11 * SECOND);
    let c = g.next().unwrap();
    assert!(c < b, "v6 under Reset: {c} after {b}");
    assert_eq!(c.clock_seq(), b.clock_seq().map(|s| (s + 1) & 0x3FFF));
    assert_eq!(g.resets(), 1);
    let clock = StepClock::new(t0);
    let mut g = reset.build_v1(&clock, SeqRandom::new(32)).unwrap();
    let a = g.next().unwrap();
    clock.step_back(11 * SECOND);
    let b = g.next().unwrap();
    assert!(b.gregorian_ticks() < a.gregorian_ticks());
    assert_eq!(b.clock_seq(), a.clock_seq().map(|s| (s + 1) & 0x3FFF));
    assert_eq!(g.resets(), 1);
    // v7 and the distributed v8 follow it with a new counter.
    let clock = StepClock::new(t0);
    let mut g = V7Builder::new()
        .regression(RegressionPolicy::Reset)
        .build(&clock, SeqRandom::new(33))
        .unwrap();
    let a = g.next().unwrap();
    clock.step_back(11 * SECOND);
    let b = g.next().unwrap();
    assert!(b < a && g.resets() == 1, "v7 under Reset: {b} after {a}");
    let clock = StepClock::new(t0);
    let mut g = DistributedBuilder::new(DistributedLayout::default())
        .regression(RegressionPolicy::Reset)
        .build(&clock, SeqRandom::new(34))
        .unwrap();
    let a = g.next().unwrap();
    clock.step_back(11 * SECOND);
    let b = g.next().unwrap();
    assert!(
        b < a && g.resets() == 1,
        "distributed v8 under Reset: {b} after {a}"
    );
    // v2 treats Reset as Continue: it stays in its time step and counts on.
    let clock = StepClock::new(t0);
    let mut g = reset.build_v2(&clock, SeqRandom::new(35)).unwrap();
    let a = g.next(Domain::Person, 1000).unwrap();
    clock.step_back(11 * SECOND);
    let b = g.next(Domain::Person, 1000).unwrap();
    assert_eq!(g.resets(), 0);
    assert!(a.v2_ticks().is_some());
    assert_eq!(b.v2_ticks(), a.v2_ticks(), "the same time step");
    assert_eq!(
        b.v2_clock_seq(),
        a.v2_clock_seq().map(|s| (s + 1) & 0x3F),
        "the next place in the count"
    );
}

/// Reported: `V7Method::SubMillis` took counters of 1 to 11 bits; Method 1 already enforced
/// 12 to 42.
#[test]
fn method_3_counter_is_none_or_12_to_42_bits_in_the_words_of_the_rfc() {
    let build = |counter_bits| {
        V7Builder::new()
            .method(V7Method::SubMillis {
                fraction_bits: 12,
                counter_bits,
            })
            .build(StepClock::new(Timestamp::UNIX_EPOCH), ThreadRng)
    };
    for bits in (1..=11).chain(43..=80) {
        let err = build(bits).err().map(|e| (e.is_config(), e.to_string()));
        assert_eq!(
            err,
            Some((
                true,
                format!(
                    "invalid generator configuration: v7 Method 3 counter width is {bits} bits, \
                     allowed 0 (no counter) or 12 to 42 (RFC 9562 §6.2: \"the counter SHOULD be \
                     at least 12 bits but no longer than 42 bits\")"
                )
            )),
            "{bits} bits"
        );
    }
    for bits in std::iter::once(0).chain(12..=42) {
        let mut g = build(bits).unwrap();
        assert!(g.next().is_ok(), "{bits} bits");
    }
}

// ---- statements no test checked -----------------------------------------------------------------

/// Source: RFC 4122 erratum 1352 (the corrected Appendix B example): v3 of the DNS namespace and
/// "www.widgets.com".
#[cfg(feature = "v3")]
#[test]
fn rfc4122_erratum_1352_v3_vector() {
    let u = Uuid::new_v3(&Uuid::NAMESPACE_DNS, b"www.widgets.com");
    assert_eq!(u.to_string(), "3d813cbb-47fb-32ba-91df-831e1593ac29");
    assert_eq!(u.version_num(), 3);
}

/// RFC 9562 §6.3: the clock sequence starts as a random number, not derived from the node.
#[test]
fn initial_clock_sequence_is_independent_of_the_node() {
    // The same random source with any node, given or drawn, gives the same sequence: the node
    // does not enter it.
    let nodes = [
        [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6],
        [0x02, 0xFC, 0x00, 0x00, 0x00, 0x01],
        [0xFF; 6],
    ];
    for seed in 0..64 {
        let drawn = GregorianBuilder::new()
            .build_v1(StepClock::new(Timestamp::UNIX_EPOCH), SeqRandom::new(seed))
            .unwrap()
            .clock_seq();
        for node in nodes {
            let given = GregorianBuilder::new()
                .node(node)
                .build_v1(StepClock::new(Timestamp::UNIX_EPOCH), SeqRandom::new(seed))
                .unwrap();
            assert_eq!(given.clock_seq(), drawn, "seed {seed}, node {node:02x?}");
        }
    }
    // And one node with different random sources gives sequences spread over the 14 bits.
    let node = nodes[0];
    let seqs: HashSet<u16> = (0..512)
        .map(|seed| {
            GregorianBuilder::new()
                .node(node)
                .build_v6(StepClock::new(Timestamp::UNIX_EPOCH), SeqRandom::new(seed))
                .unwrap()
                .clock_seq()
        })
        .collect();
    assert!(seqs.len() > 480, "{} distinct of 512", seqs.len());
    assert!(seqs.iter().any(|s| s >> 13 == 1) && seqs.iter().any(|s| s >> 13 == 0));
}

/// The machine's MAC addresses as 48-bit numbers (Linux: /sys/class/net), plus a unicast
/// address of the IEEE example range so that the list is never empty.
fn machine_macs() -> Vec<u64> {
    let mut macs = vec![0x00_1B_63_84_45_E6];
    if let Ok(dir) = std::fs::read_dir("/sys/class/net") {
        for entry in dir.flatten() {
            let Ok(text) = std::fs::read_to_string(entry.path().join("address")) else {
                continue;
            };
            let hex: String = text.trim().split(':').collect();
            if let Ok(v) = u64::from_str_radix(&hex, 16) {
                if hex.len() == 12 && v != 0 {
                    macs.push(v);
                }
            }
        }
    }
    macs
}

/// RFC 9562 §6.4 suggests a pseudorandom node id rather than a MAC address: the random node id
/// of the distributed v8 layout is never one of the machine's MAC addresses, even from a
/// random source that hands out exactly those bytes.
#[test]
fn distributed_v8_node_id_is_never_a_mac_of_the_machine() {
    let macs = machine_macs();
    // A 12-bit counter leaves room for node ids of up to 62 bits.
    for node_bits in [48u8, 52, 56, 62] {
        let layout = DistributedLayout::new(12, node_bits).unwrap();
        // A random source whose first draw is the MAC itself (`next_u64` reads 8 bytes,
        // little-endian).
        for &mac in &macs {
            let rng = ReplayRandom::new(mac.to_le_bytes());
            let g = DistributedBuilder::new(layout)
                .build(StepClock::new(Timestamp::UNIX_EPOCH), rng)
                .unwrap();
            let id = g.node_id();
            assert!(
                id != mac && id & 0xFFFF_FFFF_FFFF != mac,
                "{node_bits}-bit node id {id:#x} is the MAC {mac:#014x}"
            );
        }
        for _ in 0..1000 {
            let id = DistributedBuilder::new(layout)
                .build(StepClock::new(Timestamp::UNIX_EPOCH), ThreadRng)
                .unwrap()
                .node_id();
            assert!(!macs.contains(&id) && !macs.contains(&(id & 0xFFFF_FFFF_FFFF)));
        }
    }
}

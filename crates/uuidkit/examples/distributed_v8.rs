//! Distributed generation with v8 (RFC 9562 §6.4): each node puts its own node id into its
//! UUIDs, so nodes never collide without coordinating, and UUIDs still sort by time.
//!
//! The layout is v7's Method 1 (§6.2) with a node id: 48 bits of Unix milliseconds, the
//! version, a 14-bit counter per millisecond right after the timestamp (12 bits where v7 has
//! `rand_a`, 2 after the variant), a 10-bit node id (1024 nodes), and 50 random bits. Three
//! "nodes" (threads) generate, the results are merged and sorted, and each UUID is decoded back
//! into its fields.
//!
//! Run with `cargo run -p uuidkit --example distributed_v8`.

use std::thread;

use uuidkit::generator::{DistributedBuilder, DistributedLayout, GenError};
use uuidkit::{Uuid, Version};

/// The fields of the layout, decoded from the UUID's bits: (milliseconds, counter, node id).
fn decode(u: &Uuid, l: &DistributedLayout) -> (u64, u64, u64) {
    let v = u.as_u128();
    let (c, n, r) = (
        l.counter_bits() as u32,
        l.node_bits() as u32,
        l.random_bits() as u32,
    );
    let mask = |bits: u32| (1u128 << bits) - 1;
    let ms = (v >> 80) as u64;
    // The counter's top 12 bits follow the version (bits 52-63); the other c - 12 follow the
    // variant (from bit 66).
    let counter = (((v >> 64) & 0xfff) << (c - 12)) | ((v >> (62 - (c - 12))) & mask(c - 12));
    let node = (v >> r) & mask(n);
    (ms, counter as u64, node as u64)
}

fn main() -> Result<(), GenError> {
    let layout = DistributedLayout::new(14, 10)?;
    println!(
        "layout: 48 bits of milliseconds, {} bits counter, {} bits node, {} bits random",
        layout.counter_bits(),
        layout.node_bits(),
        layout.random_bits()
    );

    // A node id that does not fit is a configuration error, not a silent truncation.
    let err = DistributedBuilder::new(layout)
        .node_id(1024)
        .build(
            uuidkit::generator::SystemClock,
            uuidkit::generator::ThreadRng,
        )
        .unwrap_err();
    println!("node id 1024: {err}");
    // So is a counter outside RFC 9562 §6.2's 12 to 42 bits.
    println!(
        "8-bit counter: {}",
        DistributedLayout::new(8, 10).unwrap_err()
    );

    let nodes: Vec<thread::JoinHandle<Result<Vec<Uuid>, GenError>>> = [7u64, 300, 1023]
        .into_iter()
        .map(|node| {
            thread::spawn(move || {
                let mut g = DistributedBuilder::new(layout).node_id(node).build(
                    uuidkit::generator::SystemClock,
                    uuidkit::generator::ThreadRng,
                )?;
                let mut out = vec![Uuid::NIL; 4];
                g.fill(&mut out)?;
                Ok(out)
            })
        })
        .collect();
    let mut all = Vec::new();
    for h in nodes {
        let ids = h.join().expect("generator thread")?;
        // One node's UUIDs are strictly increasing: by millisecond, then counter.
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        all.extend(ids);
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 12, "no two nodes produced the same UUID");

    // Within a millisecond, nodes' UUIDs interleave by their randomly seeded counters.
    println!("sorted (millisecond, then counter, then node):");
    for u in &all {
        assert_eq!(u.version(), Some(Version::Custom));
        let (ms, counter, node) = decode(u, &layout);
        println!("  {u}  ms={ms} counter={counter:5} node={node:4}");
        assert!([7, 300, 1023].contains(&node));
    }
    Ok(())
}

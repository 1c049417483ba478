//! Distributed generation with v8 (RFC 9562 §6.4): each node puts its own node id into its
//! UUIDs, so nodes never collide without coordinating, and UUIDs still sort by time.
//!
//! The layout here: 48 bits of Unix milliseconds, a 10-bit node id (1024 nodes), a 14-bit
//! counter per millisecond, and 50 random bits. Three "nodes" (threads) generate, the results
//! are merged and sorted, and each UUID is decoded back into its fields.
//!
//! Run with `cargo run -p uuidkit --example distributed_v8`.

use std::thread;

use uuidkit::generator::{DistributedBuilder, DistributedLayout, GenError};
use uuidkit::{Uuid, Version};

/// The fields of the layout, decoded from the 122 payload bits.
fn decode(u: &Uuid, l: &DistributedLayout) -> (u64, u64, u64) {
    // Squeeze out the version (4 bits at 76) and variant (2 bits at 62) to get the payload.
    let v = u.as_u128();
    let payload = ((v >> 80) << 74) | (((v >> 64) & 0xfff) << 62) | (v & ((1 << 62) - 1));
    let (t, n, c) = (
        l.timestamp_bits() as u32,
        l.node_bits() as u32,
        l.counter_bits() as u32,
    );
    let field = |shift: u32, bits: u32| ((payload >> shift) & ((1u128 << bits) - 1)) as u64;
    (
        field(122 - t, t),
        field(122 - t - n, n),
        field(l.random_bits() as u32, c),
    )
}

fn main() -> Result<(), GenError> {
    let layout = DistributedLayout::new(48, 1_000_000, 10, 14)?;
    println!(
        "layout: {} bits time ({} ns units), {} bits node, {} bits counter, {} bits random",
        layout.timestamp_bits(),
        layout.tick_nanos(),
        layout.node_bits(),
        layout.counter_bits(),
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
        // One node's UUIDs are strictly increasing.
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        all.extend(ids);
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 12, "no two nodes produced the same UUID");

    println!("sorted (time, then node, then counter):");
    for u in &all {
        assert_eq!(u.version(), Some(Version::Custom));
        let (ms, node, counter) = decode(u, &layout);
        println!("  {u}  ms={ms} node={node:4} counter={counter}");
        assert!([7, 300, 1023].contains(&node));
    }
    Ok(())
}

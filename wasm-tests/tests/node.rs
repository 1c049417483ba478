//! uuidkit on `wasm32-unknown-unknown` with the `js` feature, run under Node by
//! wasm-bindgen-test-runner: the clock is JavaScript's `Date.now()`, the entropy
//! `crypto.getRandomValues`. Run with `scripts/wasm-test`.
#![cfg(all(target_arch = "wasm32", target_os = "unknown"))]

use uuidkit::generator::{OverflowPolicy, SystemClock, ThreadRng, V7Builder, V7Method};
use uuidkit::{Uuid, Variant};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen]
extern "C" {
    /// JavaScript's clock, read independently of the library.
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    fn date_now() -> f64;
}

/// Many v4 in a row: right version and variant, and no two alike (122 random bits each, so a
/// repeat means the entropy source returned the same bytes).
#[wasm_bindgen_test]
fn v4_from_get_random_values() {
    let ids: Vec<Uuid> = (0..2000).map(|_| uuidkit::v4()).collect();
    for u in &ids {
        assert_eq!(u.version_num(), 4, "{u}");
        assert_eq!(u.variant(), Variant::Rfc9562, "{u}");
    }
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "a v4 repeated");
    // Not all zero or constant bits: the random part differs between the first two.
    assert_ne!(ids[0].as_bytes()[..6], ids[1].as_bytes()[..6]);
}

/// Many v7 in a row from the process-wide generator: strictly increasing, right version and
/// variant, and their millisecond timestamps within the `Date.now()` readings taken around them.
#[wasm_bindgen_test]
fn v7_in_order_on_javascripts_clock() {
    let before = date_now() as u64;
    let ids: Vec<Uuid> = (0..20_000).map(|_| uuidkit::v7()).collect();
    let after = date_now() as u64;
    for w in ids.windows(2) {
        assert!(w[0] < w[1], "v7 out of order: {} then {}", w[0], w[1]);
    }
    for u in &ids {
        assert_eq!(u.version_num(), 7, "{u}");
        assert_eq!(u.variant(), Variant::Rfc9562, "{u}");
    }
    let first = ids[0].unix_ts_ms().expect("a v7 has a timestamp");
    let last = ids[ids.len() - 1].unix_ts_ms().expect("a v7 has a timestamp");
    // The counter may run the timestamp ahead of the clock (OverflowPolicy::Advance), never
    // behind it.
    assert!(first >= before, "v7 time {first} before Date.now() {before}");
    assert!(first <= after, "v7 time {first} after Date.now() {after}");
    assert!(last >= first);
}

/// The batch form gives the same order.
#[wasm_bindgen_test]
fn v7_batch_in_order() {
    let mut buf = [Uuid::NIL; 512];
    uuidkit::v7_batch(&mut buf);
    let next = uuidkit::v7();
    for w in buf.windows(2) {
        assert!(w[0] < w[1], "v7 batch out of order: {} then {}", w[0], w[1]);
    }
    assert!(buf[buf.len() - 1] < next);
    assert!(buf.iter().all(|u| u.version_num() == 7));
}

/// `OverflowPolicy::Wait` waits for JavaScript's clock instead of sleeping (which this target
/// cannot do): one UUID per millisecond, each later than the one before.
#[wasm_bindgen_test]
fn v7_wait_policy_spins_on_the_clock() {
    let mut g = V7Builder::new()
        .method(V7Method::SubMillis {
            fraction_bits: 1,
            counter_bits: 0,
        })
        .overflow(OverflowPolicy::Wait)
        .build(SystemClock, ThreadRng)
        .expect("a valid layout");
    let ids: Vec<Uuid> = (0..20).map(|_| g.next().expect("the clock advances")).collect();
    for w in ids.windows(2) {
        assert!(w[0] < w[1], "{} then {}", w[0], w[1]);
    }
}

/// The library's clock is JavaScript's.
#[wasm_bindgen_test]
fn timestamp_now_is_date_now() {
    let before = date_now() as i64;
    let t = uuidkit::Timestamp::now();
    let after = date_now() as i64;
    let ms = t.unix_seconds() * 1000 + i64::from(t.subsec_nanos() / 1_000_000);
    assert!((before..=after).contains(&ms), "{before} <= {ms} <= {after}");
}

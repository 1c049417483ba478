//! The CSPRNG's keystream implementations side by side, in one process: the hand-written AVX2
//! ChaCha8 kernel (variant 0), the `chacha20` crate through its cipher interface on a zeroed
//! buffer (1), and the crate's core writing keystream blocks directly (2).
//!
//! Each row times the same operation under every variant; the samples of the variants are
//! taken in turn (the switch is set at the start of each sample), so that the load of a shared
//! machine hits them alike. Every figure is the median of `SAMPLES` samples of CPU time.
//!
//! Run with `cargo bench -p uuidkit --bench keystream_ab`.

use std::hint::black_box;
use std::sync::atomic::Ordering;
use std::time::Duration;

use uuidkit::gen::RandomSource;
use uuidkit::Uuid;

const SAMPLES: usize = 201;
const SAMPLE_TIME: Duration = Duration::from_millis(4);
const VARIANTS: [(u8, &str); 3] = [
    (0, "hand AVX2 kernel"),
    (1, "chacha20 apply_keystream"),
    (2, "chacha20 core write_keystream_blocks"),
];

fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec`; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn set(v: u8) {
    uuidkit::gen::KEYSTREAM_VARIANT.store(v, Ordering::Relaxed);
}

/// Medians (ns per item) of `f` under each variant, samples interleaved.
fn row(per_call: usize, mut f: impl FnMut()) -> Vec<f64> {
    let mut run = |v: u8, batch: usize| {
        set(v);
        // Start each sample on a fresh keystream of this variant: drain what the previous
        // variant left in the buffer.
        f();
        let t = cpu_time();
        for _ in 0..batch {
            f();
        }
        cpu_time().saturating_sub(t)
    };
    let mut batch = 1usize;
    while run(0, batch) < SAMPLE_TIME / 4 {
        batch *= 2;
    }
    batch *= 4;
    let mut samples = vec![Vec::with_capacity(SAMPLES); VARIANTS.len()];
    for s in 0..SAMPLES {
        // Rotate the order so that no variant always follows the same one.
        for k in 0..VARIANTS.len() {
            let i = (s + k) % VARIANTS.len();
            let t = run(VARIANTS[i].0, batch);
            samples[i].push(t.as_nanos() as f64 / (batch * per_call) as f64);
        }
    }
    samples
        .into_iter()
        .map(|mut v| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        })
        .collect()
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("keystream_ab: run with `cargo bench --bench keystream_ab`");
        return;
    }
    let mut rows: Vec<(&str, Vec<f64>)> = Vec::new();
    rows.push((
        "uuidkit::v4()",
        row(1, || {
            black_box(uuidkit::v4());
        }),
    ));
    let mut batch = vec![Uuid::NIL; 1024];
    rows.push((
        "fill_v4, batch of 1024, per UUID",
        row(1024, || uuidkit::gen::v4::fill_v4(black_box(&mut batch))),
    ));
    rows.push((
        "v7_batch, batch of 1024, per UUID",
        row(1024, || uuidkit::v7_batch(black_box(&mut batch))),
    ));
    let mut rng = uuidkit::gen::rng::Csprng::new().expect("OS entropy");
    let mut buf = vec![0u8; 64 * 1024];
    rows.push((
        "CSPRNG output, per 16 bytes (64 KiB requests)",
        row(64 * 1024 / 16, || rng.fill_bytes(black_box(&mut buf))),
    ));
    print!("| row |");
    for (_, name) in VARIANTS {
        print!(" {name} ns |");
    }
    println!(" 1 / 0 | 2 / 0 |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, m) in rows {
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            m[0],
            m[1],
            m[2],
            m[1] / m[0],
            m[2] / m[0]
        );
    }
}

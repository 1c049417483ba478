//! The `arrow` feature's column kernels beside the single-value codecs they are built on, per
//! row, on columns of 10^5 and 10^6 random UUIDs: parse (hyphenated text → `FixedSizeBinary(16)`),
//! format (→ hyphenated `Utf8`), v4 and v7 columns, timestamps (of v7 UUIDs). The "single" rows are the loop a
//! user would write over the library's one-value functions into a preallocated buffer; the
//! "column" rows include allocating the result, as a caller pays it.
//!
//! Run with `cargo bench -p uuidkit --features arrow --bench arrow` (add `-- parse` to filter).

use std::hint::black_box;
use std::time::Duration;

use arrow_array::{FixedSizeBinaryArray, StringArray};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uuidkit::arrow::{self, InputForm, OnError, OutputForm};
use uuidkit::{Case, Format, Uuid};
use uuidkit_test_support::Rng;

const SIZES: [usize; 2] = [100_000, 1_000_000];

fn ids(n: usize) -> Vec<Uuid> {
    let mut rng = Rng(41);
    (0..n).map(|_| rng.uuid()).collect()
}

fn column(ids: &[Uuid]) -> FixedSizeBinaryArray {
    FixedSizeBinaryArray::try_from_iter(ids.iter().map(|u| *u.as_bytes())).expect("16 bytes")
}

fn kernels(c: &mut Criterion) {
    for n in SIZES {
        let ids = ids(n);
        let col = column(&ids);
        let text: Vec<String> = ids.iter().map(|u| u.to_string()).collect();
        let strings = StringArray::from_iter_values(text.iter());
        let mut v7s = vec![Uuid::NIL; n];
        uuidkit::v7_batch(&mut v7s);
        let v7_col = column(&v7s);

        let mut g = c.benchmark_group(format!("arrow/{n}"));
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(20);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));

        g.bench_function(BenchmarkId::new("parse", "single"), |b| {
            let mut out = vec![Uuid::NIL; n];
            b.iter(|| {
                for (o, s) in out.iter_mut().zip(&text) {
                    *o = Uuid::try_parse_ascii(black_box(s.as_bytes())).unwrap_or(Uuid::NIL);
                }
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("parse", "column"), |b| {
            b.iter(|| arrow::parse(black_box(&strings), InputForm::Rfc, OnError::Raise))
        });
        g.bench_function(BenchmarkId::new("format", "single"), |b| {
            let mut out = vec![0u8; 36 * n];
            b.iter(|| {
                for (u, o) in black_box(&ids).iter().zip(out.chunks_exact_mut(36)) {
                    let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
                    let len = u.encode_bytes(Format::Hyphenated, Case::Lower, &mut buf);
                    o.copy_from_slice(&buf[..len]);
                }
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("format", "column"), |b| {
            b.iter(|| arrow::format::<i32>(black_box(&col), &OutputForm::HYPHENATED))
        });
        g.bench_function(BenchmarkId::new("v4", "single"), |b| {
            let mut out = vec![Uuid::NIL; n];
            b.iter(|| {
                uuidkit::generator::v4::fill_v4(&mut out);
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("v4", "column"), |b| {
            b.iter(|| arrow::v4(black_box(n)))
        });
        g.bench_function(BenchmarkId::new("v7", "single"), |b| {
            let mut out = vec![Uuid::NIL; n];
            b.iter(|| {
                uuidkit::v7_batch(&mut out);
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("v7", "column"), |b| {
            b.iter(|| arrow::v7(black_box(n)))
        });
        g.bench_function(BenchmarkId::new("timestamp", "single"), |b| {
            let mut out = vec![0i64; n];
            b.iter(|| {
                for (o, u) in out.iter_mut().zip(black_box(&v7s)) {
                    *o = u
                        .timestamp()
                        .map_or(0, |t| t.unix_nanos().div_euclid(1_000_000) as i64);
                }
                black_box(&out);
            })
        });
        g.bench_function(BenchmarkId::new("timestamp", "column"), |b| {
            b.iter(|| arrow::timestamp(black_box(&v7_col)))
        });
        g.finish();
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);

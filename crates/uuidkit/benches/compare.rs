//! uuidkit side by side with `uuid` and `uuid-simd`, and the physical floors of this machine.
//!
//! A small harness instead of criterion: every figure is the median of many timed samples of a
//! loop over 1024 prepared inputs, with `black_box` on inputs and outputs. It prints one
//! Markdown table (see `scripts/bench` and BENCHMARKS.md).
//!
//! Run with `cargo bench -p uuidkit --bench compare` (optionally followed by `-- FILTER`, and
//! `--rows` to leave out the table header, as `scripts/bench` does). Built,
//! but not run, by `cargo test --all-targets` and `cargo clippy --all-targets`: without the
//! `--bench` flag that `cargo bench` passes, `main` returns at once.

use std::hint::black_box;
use std::time::Duration;

use uuidkit::{Case, Format, Uuid};
use uuidkit_test_support::peers::uuid_simd::{self, AsOut, AsciiCase};
use uuidkit_test_support::peers::{base64, bs58, data_encoding, mti, ulid};

/// Inputs per operation; a power of two so that the index is a mask.
const N: usize = 1024;
/// Timed samples per operation; the median is reported.
const SAMPLES: usize = 41;
/// Wall time one sample should take, to dwarf the cost of reading the clock around it.
const SAMPLE_TIME: Duration = Duration::from_millis(4);

/// The CPU time of this thread. Timing with it rather than the wall clock leaves out the time
/// the thread waits while other processes run, which on a busy 2-core machine otherwise
/// dominates the spread.
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

/// A timed loop: runs its operation `batch` times and says how long that took.
struct Sampler<'a> {
    per_call: usize,
    run: Box<dyn FnMut(usize) -> Duration + 'a>,
}

/// A sampler calling `f` (which does `per_call` operations); `f` is inlined into the loop and
/// is given the index of the input to use, cycling through the `N` inputs. The index is the
/// loop's own register: a counter kept in the closure's state lives in memory (the operation
/// is an opaque call that might write it) and adds a store and a load per call to every row.
fn sampler<'a>(per_call: usize, mut f: impl FnMut(usize) + 'a) -> Sampler<'a> {
    Sampler {
        per_call,
        run: Box::new(move |batch| {
            let t = cpu_time();
            for i in 0..batch {
                f(i & (N - 1));
            }
            cpu_time().saturating_sub(t)
        }),
    }
}

/// An output buffer at the start of a cache line, owned by one sampler: every side writes to
/// a buffer placed alike, so that no side pays for stores split across cache lines that the
/// others do not (a 32-byte store into a buffer at an unlucky offset made one side 12 % slower).
#[repr(align(64))]
struct Out<const L: usize>([u8; L]);

impl<const L: usize> Out<L> {
    fn new() -> Self {
        Out([0; L])
    }
}

/// Runs `batch` calls of `s` with its stack frame `PAD` bytes deeper than without.
///
/// Why: where the stack lies modulo 64 bytes (random per process with address-space layout
/// randomization, in 16-byte steps) moved single rows by up to 3x between processes of the
/// same binary (parse hyphenated: 6.2 to 19.9 ns with ASLR off and only the environment's
/// size changed). Each sampler's samples cycle through four placements 16 bytes apart, so
/// every process measures all four and processes agree (BENCHMARKS.md, "How much the figures
/// move").
#[inline(never)]
fn run_at<const PAD: usize>(s: &mut Sampler<'_>, batch: usize) -> Duration {
    let pad = [0u8; PAD];
    black_box(&pad);
    let t = (s.run)(batch);
    black_box(&pad);
    t
}

/// Sample `k` of a sampler, at the `k % 4`th of four stack placements 16 bytes apart.
fn run_placed(s: &mut Sampler<'_>, batch: usize, k: usize) -> Duration {
    match k % 4 {
        0 => run_at::<16>(s, batch),
        1 => run_at::<32>(s, batch),
        2 => run_at::<48>(s, batch),
        _ => run_at::<64>(s, batch),
    }
}

/// Median nanoseconds per operation of each sampler. The samples of the samplers are taken in
/// turn, so that a disturbance (another process, frequency changes) hits all of them alike and
/// the ratios of one run stay meaningful.
fn measure_all(mut samplers: Vec<Sampler<'_>>) -> Vec<f64> {
    // Warm up and find for each a batch size that fills a sample.
    let batches: Vec<usize> = samplers
        .iter_mut()
        .map(|s| {
            let mut batch = 1usize;
            while (s.run)(batch) < SAMPLE_TIME / 4 && batch < 1 << 30 {
                batch *= 2;
            }
            batch * 4
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(SAMPLES); samplers.len()];
    for k in 0..SAMPLES {
        for ((s, &batch), out) in samplers.iter_mut().zip(&batches).zip(&mut samples) {
            let t = run_placed(s, batch, k);
            out.push(t.as_nanos() as f64 / (batch * s.per_call) as f64);
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

/// Median nanoseconds per operation of one sampler.
fn measure(per_call: usize, f: impl FnMut(usize)) -> f64 {
    measure_all(vec![sampler(per_call, f)])[0]
}

/// Times uuidkit, and `uuid` and `uuid-simd` where given, interleaved.
fn row<'a>(
    op: &'static str,
    target: Target,
    kit: Sampler<'a>,
    uuid: Option<Sampler<'a>>,
    simd: Option<Sampler<'a>>,
) -> Row {
    let (has_uuid, has_simd) = (uuid.is_some(), simd.is_some());
    let mut v = vec![kit];
    v.extend(uuid);
    v.extend(simd);
    let m = measure_all(v);
    Row {
        op,
        kit: m[0],
        uuid: has_uuid.then(|| m[1]),
        simd: has_simd.then(|| m[if has_uuid { 2 } else { 1 }]),
        others: Vec::new(),
        target,
    }
}

/// Times uuidkit against other crates (the short forms: ulid, bs58, base64, data-encoding,
/// mti), interleaved; the target bounds uuidkit/peer for each.
fn versus<'a>(
    op: &'static str,
    bound: f64,
    kit: Sampler<'a>,
    peers: Vec<(&'static str, Sampler<'a>)>,
) -> Row {
    let names: Vec<&'static str> = peers.iter().map(|(n, _)| *n).collect();
    let mut v = vec![kit];
    v.extend(peers.into_iter().map(|(_, s)| s));
    let m = measure_all(v);
    Row {
        op,
        kit: m[0],
        uuid: None,
        simd: None,
        others: names.into_iter().zip(m[1..].iter().copied()).collect(),
        target: Target::Peer(bound),
    }
}

/// A deterministic stream for the inputs (xorshift64*), so every run times the same data.
struct Rand(u64);

impl Rand {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn uuid(&mut self) -> Uuid {
        Uuid::from_u64_pair(self.next(), self.next())
    }
}

/// One line of the table.
struct Row {
    op: &'static str,
    kit: f64,
    uuid: Option<f64>,
    simd: Option<f64>,
    /// Other peers (the short forms' crates), by name.
    others: Vec<(&'static str, f64)>,
    /// The target as a bound on a ratio (against `uuid` or `uuid-simd`) or an absolute figure.
    target: Target,
}

#[derive(Clone, Copy)]
enum Target {
    None,
    /// uuidkit ≤ x × uuid.
    Uuid(f64),
    /// uuidkit ≤ x × uuid-simd.
    Simd(f64),
    /// uuidkit ≤ x × uuid-simd and ≤ y × uuid.
    Both(f64, f64),
    /// uuidkit ≤ x ns.
    Ns(f64),
    /// uuidkit ≤ x × each of `others`.
    Peer(f64),
}

/// The target for the comparison with one peer, and whether it is met.
fn verdict(r: &Row, peer: &str, peer_ns: f64) -> String {
    let bound = match (r.target, peer) {
        (Target::Uuid(x), "uuid") | (Target::Simd(x), "uuid-simd") => Some(x),
        (Target::Both(x, _), "uuid-simd") | (Target::Both(_, x), "uuid") => Some(x),
        (Target::Peer(x), _) => Some(x),
        _ => None,
    };
    match (bound, r.target) {
        (Some(x), _) => {
            let ok = r.kit <= x * peer_ns;
            format!("≤ {x}: {}", if ok { "met" } else { "**missed**" })
        }
        (None, Target::Ns(x)) => {
            let ok = r.kit <= x;
            format!("≤ {x} ns: {}", if ok { "met" } else { "**missed**" })
        }
        _ => "–".into(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        // `cargo test --all-targets` runs bench binaries without `--bench`: nothing to time.
        println!("compare: run with `cargo bench --bench compare`; nothing to do in test mode");
        return;
    }
    let filter: Option<&String> = args.iter().find(|a| !a.starts_with('-'));
    let wanted = |op: &str| filter.is_none_or(|f| op.contains(f.as_str()));

    let mut rng = Rand(0x9e37_79b9_7f4a_7c15);
    let ids: Vec<Uuid> = (0..N).map(|_| rng.uuid()).collect();
    let hyphenated: Vec<String> = ids.iter().map(|u| u.to_string()).collect();
    let forms = [
        Format::Hyphenated,
        Format::Simple,
        Format::Braced,
        Format::Urn,
    ];
    let mixed: Vec<String> = ids
        .iter()
        .map(|u| {
            let f = forms[(rng.next() % 4) as usize];
            let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
            u.encode(f, Case::Lower, &mut buf).to_string()
        })
        .collect();
    let peer_ids: Vec<uuid::Uuid> = ids
        .iter()
        .map(|u| uuid::Uuid::from_bytes(u.into_bytes()))
        .collect();
    // Borrowed, so that the samplers' `move` closures (which own their output buffers) share them.
    let (ids, peer_ids) = (&ids[..], &peer_ids[..]);

    let mut rows: Vec<Row> = Vec::new();

    if wanted("parse hyphenated") {
        rows.push(row(
            "parse hyphenated",
            Target::Both(0.8, 0.25),
            sampler(1, |i| {
                let s = black_box(hyphenated[i].as_str());
                black_box(Uuid::parse_hyphenated(s).ok());
            }),
            Some(sampler(1, |i| {
                let s = black_box(hyphenated[i].as_str());
                black_box(uuid::Uuid::parse_str(s).ok());
            })),
            Some(sampler(1, |i| {
                let s = black_box(hyphenated[i].as_bytes());
                let mut out = [0u8; 16];
                let ok = uuid_simd::parse_hyphenated(s, out.as_out()).is_ok();
                black_box(ok.then_some(out));
            })),
        ));
    }

    if wanted("parse any form") {
        rows.push(row(
            "parse any form (4 forms mixed at random)",
            Target::Both(0.5, 0.25),
            sampler(1, |i| {
                let s = black_box(mixed[i].as_str());
                black_box(s.parse::<Uuid>().ok());
            }),
            Some(sampler(1, |i| {
                let s = black_box(mixed[i].as_str());
                black_box(uuid::Uuid::parse_str(s).ok());
            })),
            Some(sampler(1, |i| {
                let s = black_box(mixed[i].as_bytes());
                let mut out = [0u8; 16];
                let ok = uuid_simd::parse(s, out.as_out()).is_ok();
                black_box(ok.then_some(out));
            })),
        ));
    }

    for (op, case, peer_case) in [
        ("format hyphenated lower", Case::Lower, AsciiCase::Lower),
        ("format hyphenated upper", Case::Upper, AsciiCase::Upper),
    ] {
        if !wanted(op) {
            continue;
        }
        rows.push(row(
            op,
            Target::Simd(0.8),
            sampler(1, {
                let mut buf = Out::<{ uuidkit::MAX_ENCODED_LEN }>::new();
                move |i| {
                    let u = black_box(&ids[i]);
                    u.encode(Format::Hyphenated, case, &mut buf.0);
                    black_box(&mut buf);
                }
            }),
            Some(sampler(1, {
                let mut buf = Out::<36>::new();
                move |i| {
                    let u = black_box(&peer_ids[i]);
                    match case {
                        Case::Lower => u.hyphenated().encode_lower(&mut buf.0),
                        Case::Upper => u.hyphenated().encode_upper(&mut buf.0),
                    };
                    black_box(&mut buf);
                }
            })),
            Some(sampler(1, {
                let mut buf = Out::<36>::new();
                move |i| {
                    let u = black_box(&ids[i]);
                    let _ = uuid_simd::format_hyphenated(u.as_bytes(), buf.0.as_out(), peer_case);
                    black_box(&mut buf);
                }
            })),
        ));
    }

    if wanted("format simple") {
        rows.push(row(
            "format simple lower",
            Target::None,
            sampler(1, {
                let mut buf = Out::<{ uuidkit::MAX_ENCODED_LEN }>::new();
                move |i| {
                    let u = black_box(&ids[i]);
                    u.encode(Format::Simple, Case::Lower, &mut buf.0);
                    black_box(&mut buf);
                }
            }),
            Some(sampler(1, {
                let mut buf = Out::<32>::new();
                move |i| {
                    let u = black_box(&peer_ids[i]);
                    u.simple().encode_lower(&mut buf.0);
                    black_box(&mut buf);
                }
            })),
            Some(sampler(1, {
                let mut buf = Out::<32>::new();
                move |i| {
                    let u = black_box(&ids[i]);
                    let _ =
                        uuid_simd::format_simple(u.as_bytes(), buf.0.as_out(), AsciiCase::Lower);
                    black_box(&mut buf);
                }
            })),
        ));
    }

    text_api_rows(&mut rows, &wanted, ids, peer_ids, &hyphenated);
    short_form_rows(&mut rows, &wanted, ids);

    if wanted("v4") {
        rows.push(row(
            "v4",
            Target::Uuid(0.5),
            sampler(1, |_| {
                black_box(uuidkit::v4());
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::new_v4());
            })),
            None,
        ));
    }

    if wanted("v7") {
        rows.push(row(
            "v7 (process-wide generator)",
            Target::Uuid(0.5),
            sampler(1, |_| {
                black_box(uuidkit::v7());
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::now_v7());
            })),
            None,
        ));
        let mut batch = vec![Uuid::NIL; 1024];
        rows.push(row(
            "v7 batch of 1024, per UUID (uuid: now_v7 in a loop)",
            Target::Ns(5.0),
            sampler(1024, |_| {
                uuidkit::v7_batch(black_box(&mut batch));
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::now_v7());
            })),
            None,
        ));
    }

    let node = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab];
    if wanted("v1") {
        rows.push(row(
            "v1 (process-wide generator)",
            Target::Uuid(0.6),
            sampler(1, |_| {
                black_box(uuidkit::v1());
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::now_v1(&node));
            })),
            None,
        ));
    }
    if wanted("v6") {
        rows.push(row(
            "v6 (process-wide generator)",
            Target::Uuid(0.6),
            sampler(1, |_| {
                black_box(uuidkit::v6());
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::now_v6(&node));
            })),
            None,
        ));
    }

    let name = b"www.example.com";
    if wanted("v5") {
        rows.push(row(
            "v5 (DNS namespace, 15-byte name)",
            Target::Uuid(0.7),
            sampler(1, |_| {
                black_box(Uuid::new_v5(&Uuid::NAMESPACE_DNS, black_box(name)));
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::new_v5(
                    &uuid::Uuid::NAMESPACE_DNS,
                    black_box(name),
                ));
            })),
            None,
        ));
    }
    if wanted("v3") {
        rows.push(row(
            "v3 (DNS namespace, 15-byte name)",
            Target::Uuid(1.0),
            sampler(1, |_| {
                black_box(Uuid::new_v3(&Uuid::NAMESPACE_DNS, black_box(name)));
            }),
            Some(sampler(1, |_| {
                black_box(uuid::Uuid::new_v3(
                    &uuid::Uuid::NAMESPACE_DNS,
                    black_box(name),
                ));
            })),
            None,
        ));
    }

    // ---- physical floors ----
    if wanted("floor") {
        // What every dispatched codec call pays before its kernel does anything: this loop
        // (input index, `black_box` on input and output) and one call through a function
        // pointer loaded from memory, into a function that stores one byte.
        #[inline(never)]
        fn touch(b: &[u8; 16], out: &mut [u8; 36]) {
            out[0] = b[0];
        }
        static CALL: fn(&[u8; 16], &mut [u8; 36]) = touch;
        rows.push(Row {
            op: "floor: benchmark loop + one call through a function pointer",
            kit: measure(1, {
                let mut buf = Out::<36>::new();
                move |i| {
                    let u = black_box(&ids[i]);
                    black_box(CALL)(u.as_bytes(), &mut buf.0);
                    black_box(&mut buf);
                }
            }),
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
        rows.push(Row {
            op: "floor: SystemTime::now",
            kit: measure(1, |_| {
                black_box(std::time::SystemTime::now());
            }),
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
        rows.push(Row {
            op: "floor: uuidkit CSPRNG output (ChaCha8), per 16 bytes (64 KiB requests)",
            kit: csprng_per_16(),
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
        rows.push(Row {
            op: "floor: chacha20 crate ChaCha8 keystream, per 16 bytes (64 KiB runs)",
            kit: crate_keystream_per_16::<chacha20::ChaCha8>(),
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
        rows.push(Row {
            op: "floor: chacha20 crate ChaCha12 keystream, per 16 bytes (64 KiB runs)",
            kit: crate_keystream_per_16::<chacha20::ChaCha12>(),
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
        let (l1, big) = memcpy_per_36();
        rows.push(Row {
            op: "floor: memcpy of 36 bytes at L1 bandwidth (16 KiB runs)",
            kit: l1,
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
        rows.push(Row {
            op: "floor: memcpy of 36 bytes at memory bandwidth (64 MiB runs)",
            kit: big,
            uuid: None,
            simd: None,
            others: Vec::new(),
            target: Target::None,
        });
    }

    print_table(&rows, !args.iter().any(|a| a == "--rows"));
    for line in v7_threads_and_drift(&wanted) {
        println!("{line}");
    }
}

/// CPU nanoseconds per call of `f` on `threads` threads released together, each making
/// `calls` calls: the slowest thread's CPU time over all the calls of all threads (with the
/// threads running at once, that is the wall time per UUID; time a thread waits while other
/// processes run does not count). Also the share of the run both threads ran (CPU time of the
/// threads over wall time × threads), to show whether they really overlapped.
fn per_uuid_on_threads(threads: usize, calls: usize, f: fn()) -> (f64, f64) {
    let barrier = std::sync::Barrier::new(threads);
    let start = std::time::Instant::now();
    let cpu: Vec<Duration> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    let t = cpu_time();
                    for _ in 0..calls {
                        f();
                    }
                    cpu_time().saturating_sub(t)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = start.elapsed().as_secs_f64();
    let max = cpu.iter().max().copied().unwrap_or_default().as_secs_f64();
    let sum: f64 = cpu.iter().map(|d| d.as_secs_f64()).sum();
    (
        max * 1e9 / (threads * calls) as f64,
        sum / (wall * threads as f64),
    )
}

/// Issue 18's v7 rows, printed in the table's format after it: the process-wide v7 from two
/// threads against one (uuidkit and uuid side by side, samples interleaved, medians of 9), and
/// how far ahead of the clock `v7_batch` at full speed for 10 s leaves the timestamps.
fn v7_threads_and_drift(wanted: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    if wanted("v7 threads") {
        let kit: fn() = || {
            black_box(uuidkit::v7());
        };
        let peer: fn() = || {
            black_box(uuid::Uuid::now_v7());
        };
        const CALLS: usize = 200_000;
        let (mut k1, mut k2, mut p1, mut p2, mut overlap) =
            (vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..9 {
            k1.push(per_uuid_on_threads(1, CALLS, kit).0);
            let (k, o) = per_uuid_on_threads(2, CALLS, kit);
            k2.push(k);
            overlap.push(o);
            p1.push(per_uuid_on_threads(1, CALLS, peer).0);
            p2.push(per_uuid_on_threads(2, CALLS, peer).0);
        }
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (k1, k2, p1, p2, o) = (
            med(&mut k1),
            med(&mut k2),
            med(&mut p1),
            med(&mut p2),
            med(&mut overlap),
        );
        let verdict =
            |r: f64, x: f64| format!("≤ {x}: {}", if r <= x { "met" } else { "**missed**" });
        let op = format!(
            "v7 from 2 threads, per UUID (threads overlapped {:.0} %)",
            o * 100.0
        );
        lines.push(format!(
            "| {op} | {k2:.2} | uuidkit v7, 1 thread | {k1:.2} | {:.3} | {} |",
            k2 / k1,
            verdict(k2 / k1, 0.75)
        ));
        lines.push(format!(
            "| {op} | {k2:.2} | uuid now_v7, 2 threads | {p2:.2} | {:.3} | – |",
            k2 / p2
        ));
        lines.push(format!(
            "| uuid now_v7 from 2 threads, per UUID | {p2:.2} | uuid now_v7, 1 thread | {p1:.2} | {:.3} | – |",
            p2 / p1
        ));
    }
    if wanted("v7 drift") {
        // Batches of 1024 for 10 s on one thread, then the last UUID's millisecond against the
        // clock's (negative: behind it, as it should be).
        let mut batch = vec![Uuid::NIL; 1024];
        let start = std::time::Instant::now();
        let mut made = 0u64;
        while start.elapsed() < Duration::from_secs(10) {
            for _ in 0..64 {
                uuidkit::v7_batch(black_box(&mut batch));
            }
            made += 64 * 1024;
        }
        let last = batch[1023].unix_ts_ms().unwrap_or(0) as f64;
        let now = uuidkit::Timestamp::now().unix_millis().unwrap_or(0) as f64;
        let ahead = last - now;
        let rate = made as f64 / start.elapsed().as_secs_f64() / 1e6;
        lines.push(format!(
            "| v7_batch at full speed for 10 s ({rate:.0} M/s): last timestamp ahead of the clock, ms | {ahead:.2} | – | – | – | ≤ 10 ms: {} |",
            if ahead <= 10.0 { "met" } else { "**missed**" }
        ));
    }
    lines
}

/// The names a user calls to read and write text (issue 18): `parse_str`, `try_parse`,
/// `FromStr`, `TryFrom<&str>`, the `const` parser and encoder called at run time, `Display` and
/// `to_string`, beside uuid's `parse_str`, `encode_lower`, `Display` and `to_string`; and parsing
/// into stored values in three shapes beside uuid-simd's `parse_hyphenated`.
fn text_api_rows(
    rows: &mut Vec<Row>,
    wanted: &dyn Fn(&str) -> bool,
    ids: &[Uuid],
    peer_ids: &[uuid::Uuid],
    hyphenated: &[String],
) {
    use std::fmt::Write as _;

    // uuid's `parse_str` on the same input, the peer of every run-time parsing name.
    let uuid_parse = || {
        sampler(1, |i| {
            let s = black_box(hyphenated[i].as_str());
            black_box(uuid::Uuid::parse_str(s).ok());
        })
    };
    // `Display` of one of `items` through `write!` into a reused `String`: uuidkit's `Display`
    // row, uuid's (the peer of that row and of its floor), and the floor's ready `str`.
    fn display<T: std::fmt::Display>(items: &[T]) -> Sampler<'_> {
        sampler(1, {
            let mut out = String::with_capacity(64);
            move |i| {
                out.clear();
                let _ = write!(out, "{}", black_box(&items[i]));
                black_box(&mut out);
            }
        })
    }
    // One row per name, each a direct call (a macro, not a function pointer, so that the call
    // inlines as it does in a user's code).
    macro_rules! parse_row {
        ($op:expr, $bound:expr, $parse:expr) => {
            if wanted($op) {
                rows.push(row(
                    $op,
                    Target::Uuid($bound),
                    sampler(1, |i| {
                        let s: &str = black_box(hyphenated[i].as_str());
                        black_box($parse(s).ok());
                    }),
                    Some(uuid_parse()),
                    None,
                ));
            }
        };
    }
    parse_row!("parse_str (hyphenated input)", 0.3, Uuid::parse_str);
    parse_row!("try_parse (hyphenated input)", 0.3, Uuid::try_parse);
    parse_row!("FromStr (hyphenated input)", 0.3, |s: &str| s
        .parse::<Uuid>());
    parse_row!("TryFrom<&str> (hyphenated input)", 0.3, Uuid::try_from);
    parse_row!(
        "const parser parse_str_const at run time (hyphenated input)",
        0.5,
        Uuid::parse_str_const
    );

    if wanted("const encoder") {
        rows.push(row(
            "const encoder encode_hyphenated at run time",
            Target::Uuid(1.0),
            sampler(1, {
                let mut buf = Out::<36>::new();
                move |i| {
                    let u = black_box(&ids[i]);
                    buf.0 = u.encode_hyphenated(Case::Lower);
                    black_box(&mut buf);
                }
            }),
            Some(sampler(1, {
                let mut buf = Out::<36>::new();
                move |i| {
                    let u = black_box(&peer_ids[i]);
                    u.hyphenated().encode_lower(&mut buf.0);
                    black_box(&mut buf);
                }
            })),
            None,
        ));
    }

    if wanted("Display") {
        rows.push(row(
            "Display (write! into a reused String)",
            Target::Uuid(0.5),
            display(ids),
            Some(display(peer_ids)),
            None,
        ));
    }

    // The floors of the `Display` row above and the `to_string` row below: the same `write!`
    // and the same allocation with text that needs no encoding, beside uuid's row. No encoder
    // can bring `Display` or `to_string` below these ratios.
    if wanted("floor: Display") {
        rows.push(row(
            "floor: Display's write! of a ready 36-byte str into a reused String",
            Target::None,
            display(hyphenated),
            Some(display(peer_ids)),
            None,
        ));
    }
    if wanted("floor: to_string") {
        rows.push(row(
            "floor: to_string's allocation, String::from of a ready 36-byte str",
            Target::None,
            sampler(1, |i| {
                black_box(String::from(black_box(hyphenated[i].as_str())));
            }),
            Some(sampler(1, |i| {
                black_box(black_box(&peer_ids[i]).to_string());
            })),
            None,
        ));
    }

    if wanted("to_string") {
        rows.push(row(
            "to_string",
            Target::Uuid(0.5),
            sampler(1, |i| {
                black_box(black_box(&ids[i]).to_string());
            }),
            Some(sampler(1, |i| {
                black_box(black_box(&peer_ids[i]).to_string());
            })),
            None,
        ));
    }

    // Parsing into stored values: uuidkit's `parse_hyphenated` and uuid-simd's, the same job.
    if wanted("stored parse") {
        rows.push(row(
            "stored parse, value used (parse_hyphenated)",
            Target::Simd(1.0),
            sampler(1, |i| {
                let s = black_box(hyphenated[i].as_str());
                if let Ok(u) = Uuid::parse_hyphenated(s) {
                    black_box(u);
                }
            }),
            None,
            Some(sampler(1, |i| {
                let s = black_box(hyphenated[i].as_bytes());
                let mut out = [0u8; 16];
                if uuid_simd::parse_hyphenated(s, out.as_out()).is_ok() {
                    black_box(out);
                }
            })),
        ));
        rows.push(row(
            "stored parse, into an array of UUIDs (parse_hyphenated)",
            Target::Simd(1.0),
            sampler(1, {
                let mut arr = vec![Uuid::NIL; N];
                move |i| {
                    let s = black_box(hyphenated[i].as_str());
                    if let Ok(u) = Uuid::parse_hyphenated(s) {
                        arr[i] = u;
                    }
                    black_box(&mut arr);
                }
            }),
            None,
            Some(sampler(1, {
                let mut arr = vec![[0u8; 16]; N];
                move |i| {
                    let s = black_box(hyphenated[i].as_bytes());
                    let _ = uuid_simd::parse_hyphenated(s, arr[i].as_out());
                    black_box(&mut arr);
                }
            })),
        ));
        rows.push(row(
            "stored parse, Result kept in an array (parse_hyphenated)",
            Target::Simd(1.0),
            sampler(1, {
                let mut arr: Vec<Result<Uuid, uuidkit::Error>> = vec![Ok(Uuid::NIL); N];
                move |i| {
                    let s = black_box(hyphenated[i].as_str());
                    arr[i] = Uuid::parse_hyphenated(s);
                    black_box(&mut arr);
                }
            }),
            None,
            Some(sampler(1, {
                let mut arr: Vec<Result<[u8; 16], uuid_simd::Error>> =
                    (0..N).map(|_| Ok([0u8; 16])).collect();
                move |i| {
                    let s = black_box(hyphenated[i].as_bytes());
                    let mut out = [0u8; 16];
                    arr[i] = uuid_simd::parse_hyphenated(s, out.as_out()).map(|b| *b);
                    black_box(&mut arr);
                }
            })),
        ));
    }
}

/// Nanoseconds per 16 bytes of the `chacha20` crate's keystream `C`, in 64 KiB runs.
fn crate_keystream_per_16<C>() -> f64
where
    C: chacha20::cipher::KeyIvInit + chacha20::cipher::StreamCipher,
{
    let mut buf = vec![0u8; 64 * 1024];
    let mut cipher =
        C::new_from_slices(&[7u8; 32], &[0u8; 12]).expect("ChaCha key and nonce lengths");
    let per_byte = measure(buf.len(), |_| {
        cipher.apply_keystream(black_box(&mut buf));
    });
    per_byte * 16.0
}

/// Nanoseconds per 16 bytes of uuidkit's CSPRNG (keystream, key erasure, copy and wipe) when
/// asked for 64 KiB at a time: the random-byte floor under its single-UUID cost.
fn csprng_per_16() -> f64 {
    use uuidkit::generator::RandomSource;
    let mut buf = vec![0u8; 64 * 1024];
    let mut rng = uuidkit::generator::rng::Csprng::new().expect("OS entropy");
    let per_byte = measure(buf.len(), |_| {
        rng.fill_bytes(black_box(&mut buf));
    });
    per_byte * 16.0
}

/// Nanoseconds per 36 bytes of `copy_from_slice`, in L1 and beyond the caches.
fn memcpy_per_36() -> (f64, f64) {
    let at = |len: usize| {
        // The destination starts 1 KiB + 64 bytes off the source's 4 KiB alignment: copies
        // between addresses equal modulo 4 KiB stall on false store-to-load dependencies.
        let src = vec![1u8; len];
        let mut dst_buf = vec![0u8; len + 4096];
        let dst = &mut dst_buf[1088..1088 + len];
        measure(len, |_| {
            dst.copy_from_slice(black_box(&src));
            black_box(&mut *dst);
        }) * 36.0
    };
    (at(16 * 1024), at(64 * 1024 * 1024))
}

/// The short forms (issue 30): encode and decode of each against the best crate for it, all
/// writing into or reading from stack buffers where the crate allows (mti only has
/// `Display`/`FromStr`: there both sides make a `String`).
fn short_form_rows(rows: &mut Vec<Row>, wanted: &dyn Fn(&str) -> bool, ids: &[Uuid]) {
    use base64::Engine as _;
    use std::str::FromStr as _;
    use uuidkit::{Prefix, ShortForm, TypeId};
    let text = |f: ShortForm| -> Vec<String> {
        ids.iter()
            .map(|u| {
                let mut buf = [0u8; uuidkit::MAX_SHORT_LEN];
                u.encode_short(f, &mut buf).to_owned()
            })
            .collect()
    };
    let (ulids, b32h, b58, b64) = (
        text(ShortForm::Ulid),
        text(ShortForm::Base32Hex),
        text(ShortForm::Base58),
        text(ShortForm::Base64Url),
    );
    let user = Prefix::new("user").unwrap_or(Prefix::EMPTY);
    let typeids: Vec<String> = ids
        .iter()
        .map(|u| TypeId::new(user, *u).to_string())
        .collect();
    let (ulids, b32h, b58, b64, typeids) = (&ulids, &b32h, &b58, &b64, &typeids);
    let de32 = &data_encoding::BASE32HEX_NOPAD;
    let de64 = &data_encoding::BASE64URL_NOPAD;
    let b64e = &base64::engine::general_purpose::URL_SAFE_NO_PAD;

    if wanted("encode ulid") {
        rows.push(versus(
            "encode ulid",
            0.5,
            sampler(1, |i| {
                black_box(black_box(&ids[i]).encode_ulid());
            }),
            vec![(
                "ulid",
                sampler(1, |i| {
                    let mut buf = [0u8; 26];
                    let u = ulid::Ulid(black_box(&ids[i]).as_u128());
                    black_box(u.array_to_str(&mut buf).len());
                    black_box(&buf);
                }),
            )],
        ));
    }
    if wanted("decode ulid") {
        rows.push(versus(
            "decode ulid",
            0.5,
            sampler(1, |i| {
                black_box(Uuid::parse_ulid(black_box(ulids[i].as_bytes())).ok());
            }),
            vec![(
                "ulid",
                sampler(1, |i| {
                    black_box(ulid::Ulid::from_string(black_box(ulids[i].as_str())).ok());
                }),
            )],
        ));
    }
    if wanted("decode ulid into array") {
        // The decoded values stored, as a program keeps them (the row above hands each
        // `Option` to `black_box`, which copies it through memory).
        let mut ours = vec![Uuid::NIL; N];
        let mut theirs = vec![0u128; N];
        rows.push(versus(
            "decode ulid into array",
            0.5,
            sampler(1, move |i| {
                if let Ok(u) = Uuid::parse_ulid(black_box(ulids[i].as_bytes())) {
                    ours[i] = u;
                }
                black_box(&mut ours);
            }),
            vec![(
                "ulid",
                sampler(1, move |i| {
                    if let Ok(u) = ulid::Ulid::from_string(black_box(ulids[i].as_str())) {
                        theirs[i] = u.0;
                    }
                    black_box(&mut theirs);
                }),
            )],
        ));
    }
    if wanted("encode base32hex") {
        rows.push(versus(
            "encode base32hex",
            0.5,
            sampler(1, |i| {
                black_box(black_box(&ids[i]).encode_base32hex());
            }),
            vec![(
                "data-encoding",
                sampler(1, |i| {
                    let mut buf = [0u8; 26];
                    de32.encode_mut(black_box(ids[i].as_bytes()), &mut buf);
                    black_box(&buf);
                }),
            )],
        ));
    }
    if wanted("decode base32hex") {
        rows.push(versus(
            "decode base32hex",
            0.5,
            sampler(1, |i| {
                black_box(Uuid::parse_base32hex(black_box(b32h[i].as_bytes())).ok());
            }),
            vec![(
                "data-encoding",
                sampler(1, |i| {
                    let mut buf = [0u8; 16];
                    black_box(
                        de32.decode_mut(black_box(b32h[i].as_bytes()), &mut buf)
                            .ok(),
                    );
                    black_box(&buf);
                }),
            )],
        ));
    }
    if wanted("encode base58") {
        rows.push(versus(
            "encode base58",
            0.5,
            sampler(1, |i| {
                black_box(black_box(&ids[i]).encode_base58());
            }),
            vec![(
                "bs58",
                sampler(1, |i| {
                    let mut buf = [0u8; 32];
                    black_box(
                        bs58::encode(black_box(ids[i].as_bytes()))
                            .onto(&mut buf[..])
                            .ok(),
                    );
                    black_box(&buf);
                }),
            )],
        ));
    }
    if wanted("decode base58") {
        rows.push(versus(
            "decode base58",
            0.5,
            sampler(1, |i| {
                black_box(Uuid::parse_base58(black_box(b58[i].as_bytes())).ok());
            }),
            vec![(
                "bs58",
                sampler(1, |i| {
                    let mut buf = [0u8; 32];
                    black_box(
                        bs58::decode(black_box(b58[i].as_bytes()))
                            .onto(&mut buf[..])
                            .ok(),
                    );
                    black_box(&buf);
                }),
            )],
        ));
    }
    if wanted("encode base64url") {
        rows.push(versus(
            "encode base64url",
            0.5,
            sampler(1, |i| {
                black_box(black_box(&ids[i]).encode_base64url());
            }),
            vec![
                (
                    "base64",
                    sampler(1, |i| {
                        let mut buf = [0u8; 24];
                        black_box(
                            b64e.encode_slice(black_box(ids[i].as_bytes()), &mut buf)
                                .ok(),
                        );
                        black_box(&buf);
                    }),
                ),
                (
                    "data-encoding",
                    sampler(1, |i| {
                        let mut buf = [0u8; 22];
                        de64.encode_mut(black_box(ids[i].as_bytes()), &mut buf);
                        black_box(&buf);
                    }),
                ),
            ],
        ));
    }
    if wanted("decode base64url") {
        rows.push(versus(
            "decode base64url",
            0.5,
            sampler(1, |i| {
                black_box(Uuid::parse_base64url(black_box(b64[i].as_bytes())).ok());
            }),
            vec![
                (
                    "base64",
                    sampler(1, |i| {
                        let mut buf = [0u8; 18];
                        black_box(
                            b64e.decode_slice(black_box(b64[i].as_bytes()), &mut buf)
                                .ok(),
                        );
                        black_box(&buf);
                    }),
                ),
                (
                    "data-encoding",
                    sampler(1, |i| {
                        let mut buf = [0u8; 16];
                        black_box(de64.decode_mut(black_box(b64[i].as_bytes()), &mut buf).ok());
                        black_box(&buf);
                    }),
                ),
            ],
        ));
    }
    if wanted("encode typeid") {
        // mti has no buffer API: both sides make a String (`to_string`).
        let theirs: Vec<mti::prelude::MagicTypeId> = typeids
            .iter()
            .filter_map(|t| mti::prelude::MagicTypeId::from_str(t).ok())
            .collect();
        let ours: Vec<TypeId> = ids.iter().map(|u| TypeId::new(user, *u)).collect();
        if theirs.len() == N {
            let (ours, theirs) = (&ours, &theirs);
            rows.push(versus(
                "encode typeid (uuidkit into a buffer, mti to_string)",
                0.5,
                sampler(1, |i| {
                    let mut buf = [0u8; uuidkit::MAX_TYPEID_LEN];
                    black_box(black_box(&ours[i]).encode(&mut buf).len());
                    black_box(&buf);
                }),
                vec![(
                    "mti",
                    sampler(1, |i| {
                        black_box(black_box(&theirs[i]).to_string());
                    }),
                )],
            ));
            // The third side is the floor of any `to_string`: a `String` of the same length
            // made from text already encoded (one allocation, one copy, one free).
            let texts = typeids;
            rows.push(versus(
                "encode typeid (to_string)",
                0.5,
                sampler(1, |i| {
                    black_box(black_box(&ours[i]).to_string());
                }),
                vec![
                    (
                        "mti",
                        sampler(1, |i| {
                            black_box(black_box(&theirs[i]).to_string());
                        }),
                    ),
                    (
                        "String::from(&str) alone (the allocation)",
                        sampler(1, |i| {
                            black_box(String::from(black_box(texts[i].as_str())));
                        }),
                    ),
                ],
            ));
        }
    }
    if wanted("decode typeid") {
        rows.push(versus(
            "decode typeid",
            0.5,
            sampler(1, |i| {
                black_box(TypeId::parse(black_box(typeids[i].as_bytes())).ok());
            }),
            vec![(
                "mti",
                sampler(1, |i| {
                    black_box(
                        mti::prelude::MagicTypeId::from_str(black_box(typeids[i].as_str())).ok(),
                    );
                }),
            )],
        ));
    }
}

/// One line per (operation, peer): `| operation | uuidkit ns | peer | peer ns | ratio | target |`.
fn print_table(rows: &[Row], header: bool) {
    if header {
        println!("| operation | uuidkit ns/op | peer | peer ns/op | uuidkit/peer | target |");
        println!("|---|---:|---|---:|---:|---|");
    }
    for r in rows {
        let peers: Vec<(&str, f64)> = [("uuid", r.uuid), ("uuid-simd", r.simd)]
            .into_iter()
            .filter_map(|(name, ns)| ns.map(|ns| (name, ns)))
            .chain(r.others.iter().copied())
            .collect();
        if peers.is_empty() {
            println!("| {} | {:.2} | – | – | – | – |", r.op, r.kit);
        }
        for (name, ns) in peers {
            println!(
                "| {} | {:.2} | {} | {:.2} | {:.2} | {} |",
                r.op,
                r.kit,
                name,
                ns,
                r.kit / ns,
                verdict(r, name, ns)
            );
        }
    }
}

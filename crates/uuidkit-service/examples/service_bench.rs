//! Throughput of `uuidkit serve` beside util-linux `uuidd`, doing the same work: a client that
//! ends up holding N time-based UUIDs in memory. Not a test; run by hand (scripts/bench-service
//! starts both servers):
//!
//! ```text
//! cargo run --release --example service_bench -- --uuidkit SOCK [--uuidd SOCK] [--seconds S] [--threads T]
//! ```
//!
//! Rows:
//! - `single`: one UUID per request. uuidkit keeps its connection; uuidd's protocol takes one
//!   request per connection, so it is also measured for uuidkit with a connection per request.
//! - `bulk`: 8192 UUIDs per request. uuidkit sends 8192 UUIDs of 16 bytes; uuidd's bulk-time
//!   reply is the first UUID and a count, which the client expands (timestamp + 1 each, what
//!   libuuid does with it), so both end with the same 8192 UUIDs.
//! - `cached next()`: uuidkit's `SystemGenerator::next` with its default block of 128, what an
//!   application calling it one UUID at a time sees.
//! - `fill`: `SystemGenerator::fill` into a slice, 16 and 8192 UUIDs at a time.
//!
//! A second table gives the client's CPU time (this process, user + system) per UUID for each
//! uuidkit row: the servers run in other processes, so it is the client side alone.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use uuidkit::Uuid;
use uuidkit_service::client::{ClientConfig, Connection, Source, SystemGenerator};
use uuidkit_service::state::TimeVersion;

const BULK: u32 = 8192;

struct Args {
    uuidkit: PathBuf,
    uuidd: Option<PathBuf>,
    seconds: f64,
    threads: usize,
}

fn args() -> Args {
    let mut a = Args {
        uuidkit: PathBuf::new(),
        uuidd: None,
        seconds: 2.0,
        threads: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let v = it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--uuidkit" => a.uuidkit = v.into(),
            "--uuidd" => a.uuidd = Some(v.into()),
            "--seconds" => a.seconds = v.parse().expect("--seconds: a number"),
            "--threads" => a.threads = v.parse().expect("--threads: a number"),
            _ => panic!("unknown option {k}"),
        }
    }
    assert!(
        !a.uuidkit.as_os_str().is_empty(),
        "--uuidkit SOCK is required"
    );
    a
}

/// What one row measured: UUIDs per second over all threads, and this process's CPU time
/// (user and system; the servers run in other processes) per UUID.
struct Measured {
    per_sec: f64,
    cpu_ns: f64,
}

/// User plus system CPU time of this process so far.
fn cpu_time() -> Duration {
    // SAFETY: `rusage` is plain old data; zeroed is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a live, writable rusage.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) }, 0);
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Runs `work` on `threads` threads for `secs`; each call returns how many UUIDs it got.
fn measure(threads: usize, secs: f64, work: impl Fn() -> u64 + Sync) -> Measured {
    let dur = Duration::from_secs_f64(secs);
    let (start, cpu0) = (Instant::now(), cpu_time());
    let total: u64 = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut n = 0u64;
                    while start.elapsed() < dur {
                        n += work();
                    }
                    n
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    });
    Measured {
        per_sec: total as f64 / start.elapsed().as_secs_f64(),
        cpu_ns: (cpu_time() - cpu0).as_nanos() as f64 / total.max(1) as f64,
    }
}

/// One request for `count` UUIDs on this thread's connection, kept from call to call; how many
/// came.
fn kept_connection(sock: &Path, v: TimeVersion, count: u32) -> u64 {
    thread_local!(static C: RefCell<Option<Connection>> = const { RefCell::new(None) });
    C.with(|c| {
        let mut c = c.borrow_mut();
        let conn = c.get_or_insert_with(|| {
            Connection::connect(sock, Duration::from_secs(5)).expect("connect")
        });
        let mut out = Vec::with_capacity(count as usize);
        conn.generate(v, count, &mut out).expect("generate");
        out.len() as u64
    })
}

/// One uuidd request on a fresh connection: op, optional count; the reply payload.
fn uuidd(sock: &PathBuf, op: u8, num: Option<i32>) -> Vec<u8> {
    let mut s = UnixStream::connect(sock).expect("connect uuidd");
    let mut req = vec![op];
    if let Some(n) = num {
        req.extend_from_slice(&n.to_ne_bytes());
    }
    s.write_all(&req).unwrap();
    let mut len = [0u8; 4];
    s.read_exact(&mut len).unwrap();
    let mut body = vec![0u8; i32::from_ne_bytes(len) as usize];
    s.read_exact(&mut body).unwrap();
    body
}

/// Expands uuidd's bulk-time reply (first v1 UUID, count) into UUIDs.
fn expand(body: &[u8], out: &mut Vec<Uuid>) -> u64 {
    let first = Uuid::from_bytes(body[..16].try_into().unwrap());
    let n = i32::from_ne_bytes(body[16..20].try_into().unwrap()) as u64;
    let t0 = first.gregorian_ticks().unwrap();
    let (seq, node) = (first.clock_seq().unwrap(), first.node().unwrap());
    out.clear();
    for i in 0..n {
        out.push(Uuid::from_v1_parts(t0 + i, seq, node));
    }
    n
}

fn main() {
    let a = args();
    let (t, secs) = (a.threads, a.seconds);
    println!("threads: {t}, {secs} s per row; UUIDs per second\n");
    println!("| work | uuidkit serve | uuidd | uuidkit / uuidd |");
    println!("|---|---|---|---|");
    let kit = a.uuidkit.clone();
    let mut cpu = Vec::new();
    let mut row = |name: &str, ours: &Measured, theirs: Option<&Measured>| {
        let o = ours.per_sec;
        match theirs {
            Some(x) => println!(
                "| {name} | {o:.0} | {:.0} | {:.2} |",
                x.per_sec,
                o / x.per_sec
            ),
            None => println!("| {name} | {o:.0} | – | – |"),
        }
        cpu.push((name.to_string(), ours.cpu_ns));
    };

    for (v, label) in [(TimeVersion::V1, "v1"), (TimeVersion::V7, "v7")] {
        let single = measure(t, secs, || kept_connection(&kit, v, 1));
        let fresh = measure(t, secs, || {
            let mut conn = Connection::connect(&kit, Duration::from_secs(5)).expect("connect");
            let mut out = Vec::with_capacity(1);
            conn.generate(v, 1, &mut out).expect("generate");
            out.len() as u64
        });
        let bulk = measure(t, secs, || kept_connection(&kit, v, BULK));
        let (d_single, d_bulk) = match (&a.uuidd, v) {
            (Some(d), TimeVersion::V1) => (
                Some(measure(t, secs, || {
                    let b = uuidd(d, 2, None);
                    assert_eq!(b.len(), 16);
                    1
                })),
                Some(measure(t, secs, || {
                    let b = uuidd(d, 4, Some(BULK as i32));
                    let mut out = Vec::with_capacity(BULK as usize);
                    expand(&b, &mut out)
                })),
            ),
            _ => (None, None),
        };
        row(
            &format!("{label} single, kept connection"),
            &single,
            d_single.as_ref(),
        );
        row(
            &format!("{label} single, connection per request"),
            &fresh,
            d_single.as_ref(),
        );
        row(&format!("{label} bulk of {BULK}"), &bulk, d_bulk.as_ref());
    }
    let gen = SystemGenerator::new(ClientConfig::new(&kit).fallback(false));
    let cached = measure(t, secs, || {
        let g = gen.next(TimeVersion::V7).expect("next");
        assert_eq!(g.source, Source::Service);
        1
    });
    row("v7 SystemGenerator::next (block 128)", &cached, None);
    for n in [16, BULK as usize] {
        let filled = measure(t, secs, || {
            let mut out = [Uuid::NIL; BULK as usize];
            let f = gen.fill(TimeVersion::V7, &mut out[..n]).expect("fill");
            assert_eq!(f.from_service, n);
            n as u64
        });
        row(
            &format!("v7 SystemGenerator::fill, {n} at a time"),
            &filled,
            None,
        );
    }
    println!("\nCPU time of this client process (user + system) per UUID:\n");
    println!("| work | ns per UUID |");
    println!("|---|---|");
    for (name, ns) in cpu {
        println!("| {name} | {ns:.0} |");
    }
}

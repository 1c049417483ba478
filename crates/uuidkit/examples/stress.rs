//! The big stress runs behind `scripts/stress` (the bounded versions run in
//! `tests/uuidkit/stress.rs`). Prints one line of figures per run and exits with status 1 if anything
//! was lost, repeated or out of order.
//!
//! ```text
//! cargo run --release -p uuidkit --example stress -- v7 DIR PROCS THREADS TOTAL
//! cargo run --release -p uuidkit --example stress -- clocks N
//! ```

use uuidkit_test_support::stress;

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use stress::{clock_run, count_duplicates, v7_fork_threads, ClockKind, GenKind};

fn arg(args: &[String], i: usize, default: u64) -> u64 {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("v7") => {
            let dir = Path::new(args.get(1).map_or("/tmp/uuidkit-stress", String::as_str));
            let procs = arg(&args, 2, 4) as usize;
            let threads = arg(&args, 3, 8) as usize;
            let total = arg(&args, 4, 100_000_000);
            let per_thread = total / (procs * threads) as u64;
            let t = Instant::now();
            let r = match v7_fork_threads(dir, procs, threads, per_thread) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("stress v7: {e}");
                    return ExitCode::from(2);
                }
            };
            let gen_s = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let (records, dups, torn) = match count_duplicates(&r.files) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("stress v7: reading records: {e}");
                    return ExitCode::from(2);
                }
            };
            println!(
                "v7 fork+threads: {procs} processes x {threads} threads x {per_thread} + 1000 \
                 before fork = {} generated in {gen_s:.1} s; {records} records read back, \
                 {dups} duplicates (radix sort, {:.1} s), {} out of order, {} failed \
                 children, {torn} torn files",
                r.generated,
                t.elapsed().as_secs_f64(),
                r.out_of_order,
                r.failed_children
            );
            for f in &r.files {
                let _ = std::fs::remove_file(f);
            }
            let ok = records == r.generated
                && dups == 0
                && r.out_of_order == 0
                && r.failed_children == 0
                && torn == 0;
            ExitCode::from(u8::from(!ok))
        }
        Some("clocks") => {
            let n = arg(&args, 1, 10_000_000);
            let mut ok = true;
            for clock in ClockKind::ALL {
                for g in GenKind::ALL {
                    let t = Instant::now();
                    let r = clock_run(clock, g, n, 42);
                    println!(
                        "clock {clock:?} {g:?}: {} generated, {} not increasing, {} errors, \
                         last UUID {} ms ahead of the clock ({:.1} s)",
                        r.generated,
                        r.not_increasing,
                        r.errors,
                        r.ahead_ms,
                        t.elapsed().as_secs_f64()
                    );
                    ok &= r.generated >= n && r.not_increasing == 0 && r.errors == 0;
                }
            }
            ExitCode::from(u8::from(!ok))
        }
        _ => {
            eprintln!("usage: stress v7 DIR PROCS THREADS TOTAL | stress clocks N");
            ExitCode::from(2)
        }
    }
}

//! Hostile input to the real `uuidkit` binary, bounded for CI (`scripts/stress` runs the big
//! versions: a 1 GiB line, 10^7 invalid lines): one very long line, binary garbage, many
//! invalid lines. For each: the exit status says "invalid input" (1), every bad line gets one
//! diagnostic naming its line, nothing panics, and memory stays flat.
//!
//! Memory is measured without help from the tool: the whole input is written and stdin is
//! kept open until `/proc/<pid>/io` shows the process has read all of it; the process is then
//! blocked on its next read, and its `VmHWM` (peak resident set) in `/proc/<pid>/status` is
//! the peak of everything it did with the input. Only then is stdin closed.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common;
use common::BIN;

/// The flat-memory bound: far below the sizes of the inputs below (64 MiB and more), and
/// generous above the tool's idle footprint (about 3 MiB).
const FLAT_KIB: u64 = 24 * 1024;

struct Run {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    /// Peak resident set in KiB, once all input had been read.
    peak_kib: u64,
}

fn proc_field(pid: u32, file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/{file}")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
}

/// Runs `uuidkit args`, feeding it what `feed` writes (in pieces, never all in memory here).
fn run(args: &[&str], feed: impl FnOnce(&mut dyn Write) -> u64 + Send + 'static) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn uuidkit");
    let pid = child.id();
    let mut sin = child.stdin.take().expect("stdin");
    let mut sout = child.stdout.take().expect("stdout");
    let mut serr = child.stderr.take().expect("stderr");
    let out = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = sout.read_to_end(&mut v);
        v
    });
    let err = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = serr.read_to_end(&mut v);
        v
    });
    let writer = thread::spawn(move || {
        let n = feed(&mut sin);
        (n, sin)
    });
    let (written, sin) = writer.join().expect("writer");
    // Wait until the tool has read everything (it then blocks on stdin, still alive).
    let start = Instant::now();
    let mut peak_kib = 0;
    loop {
        peak_kib = peak_kib.max(proc_field(pid, "status", "VmHWM:").unwrap_or(0));
        // No /proc/PID/io (a kernel without I/O accounting) or the process is gone: the
        // samples taken so far are all there is.
        let Some(read) = proc_field(pid, "io", "rchar:") else {
            break;
        };
        if read >= written || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        thread::sleep(Duration::from_millis(5));
    }
    thread::sleep(Duration::from_millis(20));
    peak_kib = peak_kib.max(proc_field(pid, "status", "VmHWM:").unwrap_or(0));
    // stdin is still open, so the tool cannot have finished: a missing sample means it died.
    assert!(
        peak_kib > 0,
        "uuidkit {args:?} gone before its memory was measured"
    );
    drop(sin);
    let status = child.wait().expect("wait");
    // Figures for RELIABILITY.md (shown with --nocapture).
    eprintln!("uuidkit {args:?}: {written} bytes in, peak RSS {peak_kib} KiB, {status}");
    Run {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
        peak_kib,
    }
}

/// Writes `n` bytes of `b`, then `tail`.
fn repeat(b: u8, n: u64, tail: &'static [u8]) -> impl FnOnce(&mut dyn Write) -> u64 + Send {
    move |w| {
        let chunk = vec![b; 1 << 20];
        let mut left = n;
        while left > 0 {
            let k = left.min(chunk.len() as u64) as usize;
            if w.write_all(&chunk[..k]).is_err() {
                return n - left;
            }
            left -= k as u64;
        }
        let _ = w.write_all(tail);
        n + tail.len() as u64
    }
}

/// The diagnostics on stderr: one `error: line N: …` line per bad input (the quoted input and
/// the caret below it are not counted).
fn errors_of(b: &[u8]) -> Vec<String> {
    lines_of(b)
        .into_iter()
        .filter(|l| l.starts_with("error: "))
        .collect()
}

fn lines_of(b: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(b)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn assert_no_panic(r: &Run) {
    let e = String::from_utf8_lossy(&r.stderr);
    assert!(!e.contains("panicked"), "{e}");
    assert!(!e.contains("RUST_BACKTRACE"), "{e}");
}

const LONG: u64 = 64 << 20;

#[test]
fn one_64_mib_line_validate() {
    for tail in [&b"\n"[..], b""] {
        let r = run(&["validate"], repeat(b'a', LONG, tail));
        assert_no_panic(&r);
        assert_eq!(r.status.code(), Some(1));
        let out = lines_of(&r.stdout);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("1:46: invalid length"), "{out:?}");
        assert!(
            out[0].contains(&format!("a line of {LONG} bytes")),
            "{out:?}"
        );
        assert!(
            r.peak_kib < FLAT_KIB,
            "peak {} KiB for a {LONG}-byte line",
            r.peak_kib
        );
    }
}

#[test]
fn one_64_mib_line_convert_inspect_sort() {
    for args in [&["convert", "--to", "simple"][..], &["inspect"], &["sort"]] {
        let r = run(args, repeat(b'7', LONG, b"\n"));
        assert_no_panic(&r);
        assert_eq!(r.status.code(), Some(1), "{args:?}");
        let err = errors_of(&r.stderr);
        assert_eq!(err.len(), 1, "{args:?}: {err:?}");
        assert!(err[0].starts_with("error: line 1:"), "{args:?}: {err:?}");
        assert!(r.stdout.is_empty() || args[0] == "inspect", "{args:?}");
        assert!(r.peak_kib < FLAT_KIB, "{args:?}: peak {} KiB", r.peak_kib);
    }
}

#[test]
fn binary_garbage_gets_one_diagnostic_per_line() {
    // Pseudo-random bytes (xorshift), with NUL, CR and LF among them.
    let total: u64 = 8 << 20;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut data = Vec::with_capacity(total as usize);
    while (data.len() as u64) < total {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data.extend_from_slice(&x.to_le_bytes());
    }
    // Lines as the tool counts them: split at LF; a last line without LF counts too.
    let expected_lines = data.split(|&b| b == b'\n').count() - usize::from(data.ends_with(b"\n"));
    let input = data.clone();
    let r = run(&["validate"], move |w| {
        let _ = w.write_all(&input);
        input.len() as u64
    });
    assert_no_panic(&r);
    assert_eq!(r.status.code(), Some(1));
    let out = lines_of(&r.stdout);
    assert_eq!(out.len(), expected_lines);
    for (i, l) in out.iter().enumerate() {
        assert!(l.starts_with(&format!("{}:", i + 1)), "line {i}: {l}");
    }
    assert!(r.peak_kib < FLAT_KIB, "peak {} KiB", r.peak_kib);

    for args in [
        &["convert", "--to", "urn"][..],
        &["inspect", "--json"],
        &["sort"],
    ] {
        let input = data.clone();
        let r = run(args, move |w| {
            let _ = w.write_all(&input);
            input.len() as u64
        });
        assert_no_panic(&r);
        assert_eq!(r.status.code(), Some(1), "{args:?}");
        assert!(r.peak_kib < FLAT_KIB, "{args:?}: peak {} KiB", r.peak_kib);
    }
}

#[test]
fn a_million_invalid_lines_each_reported_in_order() {
    let n: u64 = 1_000_000;
    let r = run(&["validate"], move |w| {
        let mut buf = Vec::with_capacity(1 << 20);
        for i in 0..n {
            // Valid-looking but one digit short, with the line number inside so that each
            // line differs.
            let _ = writeln!(buf, "{:08x}-0000-4000-8000-00000000000", i as u32);
            if buf.len() > (1 << 20) - 64 {
                if w.write_all(&buf).is_err() {
                    return 0;
                }
                buf.clear();
            }
        }
        let _ = w.write_all(&buf);
        n * 36
    });
    assert_no_panic(&r);
    assert_eq!(r.status.code(), Some(1));
    let out = lines_of(&r.stdout);
    assert_eq!(out.len() as u64, n);
    for (i, l) in out.iter().enumerate().step_by(9973) {
        assert!(
            l.starts_with(&format!("{}:25: invalid group length", i + 1)),
            "{l}"
        );
    }
    assert!(r.peak_kib < FLAT_KIB, "peak {} KiB", r.peak_kib);
}

#[test]
fn valid_lines_between_bad_ones_are_still_converted() {
    let r = run(&["convert", "--to", "simple"], |w| {
        let input = b"nope\n67e55044-10b1-426f-9247-bb680e5fe0c8\n\xff\x00\n\n{67E55044-10B1-426F-9247-BB680E5FE0C8}\r\n";
        let _ = w.write_all(input);
        input.len() as u64
    });
    assert_no_panic(&r);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        lines_of(&r.stdout),
        [
            "67e5504410b1426f9247bb680e5fe0c8",
            "67e5504410b1426f9247bb680e5fe0c8"
        ]
    );
    let err = errors_of(&r.stderr);
    assert_eq!(err.len(), 3, "{err:?}");
    for (l, want) in err
        .iter()
        .zip(["error: line 1:", "error: line 3:", "error: line 4:"])
    {
        assert!(l.starts_with(want), "{err:?}");
    }
}

#[test]
fn ldif_garbage_and_a_long_record() {
    // Arbitrary bytes are not LDIF: an error naming the first line, status 1, nothing
    // copied through.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut v = Vec::new();
    for _ in 0..(1 << 18) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.extend(x.to_le_bytes());
    }
    let mut child = Command::new(BIN)
        .args(["ldap", "add-entryuuid"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn uuidkit");
    let mut sin = child.stdin.take().expect("stdin");
    // The tool may stop reading at the first bad line: a failed write is expected.
    let writer = thread::spawn(move || {
        let _ = sin.write_all(&v);
    });
    let o = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(o.stdout.is_empty());
    assert!(err.starts_with("error: line 1: not LDIF"), "{err}");

    // A 32 MiB entry: the LDIF pass-through holds one record in memory by design (the
    // entryUUID goes at its end), so memory grows with the record, not with the file; the
    // bound here is that it stays within a small multiple of the record.
    let record: u64 = 32 << 20;
    let r = run(&["ldap", "add-entryuuid"], move |w| {
        let _ = w.write_all(b"dn: cn=a\ncn: ");
        // The empty line ends the record while stdin is still open, so that the peak
        // measured includes the copy made when the record is finished.
        repeat(b'a', record, b"\n\n")(w) + 13
    });
    assert_no_panic(&r);
    assert_eq!(r.status.code(), Some(0));
    assert!(r.stdout.ends_with(b"\n\n"));
    let tail = String::from_utf8_lossy(&r.stdout[r.stdout.len() - 60..]).into_owned();
    assert!(tail.contains("\nentryUUID: "), "{tail}");
    assert!(
        r.peak_kib < 4 * (record >> 10) + FLAT_KIB,
        "peak {} KiB for a {record}-byte record",
        r.peak_kib
    );
}

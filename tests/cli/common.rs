//! Helpers shared by the CLI test modules (`cli`, `ux`, `cli_bad_input`, `serve`, ...): running
//! the real `uuidkit` binary and reading what it wrote.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

/// The binary [`run_env`] runs: [`BIN`], or the one `UUIDKIT_TEST_BIN` names (to show that a
/// test fails on an older build without rebuilding the tests).
pub fn bin() -> std::ffi::OsString {
    std::env::var_os("UUIDKIT_TEST_BIN").unwrap_or_else(|| BIN.into())
}

/// Runs `uuidkit args` with `stdin` as its input and the variables `env` set. `NO_COLOR` and
/// `CLICOLOR_FORCE` are removed first, so that the colour rules see only what a test sets.
pub fn run_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn uuidkit");
    let mut sin = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    // A writer thread, so that a large input cannot deadlock against a full output pipe.
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer thread");
    out
}

/// Runs `uuidkit args` with `stdin` as its input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_env(args, stdin, &[])
}

/// Output bytes as text; the tool writes UTF-8.
pub fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("output is UTF-8")
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// Standard output read as JSON Lines.
pub fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

pub fn keys(v: &Value) -> Vec<String> {
    v.as_object()
        .expect("object")
        .keys()
        .cloned()
        .collect::<Vec<_>>()
}

/// The keys of a one-line JSON object in the order written (serde_json's map sorts them).
/// Good enough for the tool's output, whose values contain no `":` sequences except `input`,
/// which comes first.
pub fn keys_in_order(line: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(line).expect("json");
    let mut found: Vec<(usize, String)> = keys(&v)
        .into_iter()
        .map(|k| {
            let at = line
                .find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k} in {line}"));
            (at, k)
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, k)| k).collect()
}

/// Waits (10 s at most) until `answers()` says the server started as `child` is serving; panics
/// with its standard error if it exits first, or naming `what` if it never answers.
pub fn wait_ready(child: &mut Child, what: &str, mut answers: impl FnMut() -> bool) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        if answers() {
            return;
        }
        if let Ok(Some(st)) = child.try_wait() {
            let mut e = String::new();
            if let Some(mut err) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut err, &mut e);
            }
            panic!("uuidkit serve exited with {st}: {e}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("uuidkit serve did not answer on {what}");
}

/// `uuidkit state SUB` (`show`, `reset`) on `link`, made here as a symbolic link to `target`:
/// refused with status 2, saying why (a state file is never followed through a link).
#[cfg(unix)]
pub fn state_refuses_a_symlink(sub: &str, target: &std::path::Path, link: &std::path::Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
    let o = Command::new(bin())
        .args(["state", sub])
        .arg(link)
        .env_remove("UUIDKIT_SOCKET")
        .output()
        .expect("run uuidkit");
    fails_with(&o, 2, "symbolic link");
}

/// The run ended with status `want` and its standard error contains `needle`.
pub fn fails_with(o: &Output, want: i32, needle: &str) {
    assert_eq!(code(o), want, "{}", stderr(o));
    assert!(stderr(o).contains(needle), "{}", stderr(o));
}

/// Sends the signal `sig` (`-TERM`, `-HUP`, ...) to process `pid` with kill(1).
pub fn kill(sig: &str, pid: u32) {
    let st = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(st.success(), "kill {sig} {pid}: {st}");
}

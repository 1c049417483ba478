//! The user-facing surface of the binary: error reports with a caret, colour rules, JSON
//! reports of validate/compare/ldap, completions, manual pages, help examples, and that no
//! progress line or colour reaches a pipe.
//!
//! Expected positions come from the input strings themselves (where the bad byte is), and JSON
//! keys from the documented lists in `--help`, not from the tool's output.

use crate::common;
use common::{code, json_lines, keys_in_order, run, run_env, text};

// Source: RFC 9562 Appendix A.6.
const V7: &str = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
// Source: RFC 4530 §2.1 example.
const LDAP_EXAMPLE: &str = "597ae2f6-16a6-1027-98f4-d28b5365dc14";

// ---- error reports ------------------------------------------------------------------------

#[test]
fn convert_report_shows_input_and_caret_under_the_bad_byte() {
    // The first '1' of the input replaced by an 'x'.
    let at = V7.find('1').expect("a 1");
    let bad = V7.replacen('1', "x", 1);
    let o = run(
        &["convert", "--to", "simple"],
        format!("{V7}\n{bad}\n").as_bytes(),
    );
    assert_eq!(code(&o), 1);
    assert_eq!(text(&o.stdout), format!("{}\n", V7.replace('-', "")));
    let want = format!(
        "error: line 2: invalid character 'x' at byte {at}: expected a hexadecimal digit\n  {bad}\n  {}^\n",
        " ".repeat(at)
    );
    assert_eq!(text(&o.stderr), want);
}

#[test]
fn report_escapes_control_bytes_and_invalid_utf8() {
    let o = run(&["inspect"], b"\x1b[2J\xff\n");
    assert_eq!(code(&o), 1);
    let err = text(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    // The escape byte is shown as text, never sent to the terminal.
    assert!(!err.contains('\x1b'), "{err:?}");
    assert_eq!(lines[1], "  \\x1b[2J\\xff");
    assert_eq!(lines[2], "  ^^^^");
}

#[test]
fn report_of_a_very_long_line_is_a_window() {
    let mut line = "f".repeat(10_000);
    line.push('\n');
    let o = run(&["sort"], line.as_bytes());
    assert_eq!(code(&o), 1);
    let err = text(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].starts_with("error: line 1: invalid length"),
        "{err}"
    );
    assert!(lines[1].len() < 80, "{err}");
    assert!(lines[1].ends_with("..."), "{err}");
}

#[test]
fn colour_only_when_forced_and_never_with_no_color() {
    let args = ["compare", V7, "nope"];
    let plain = run(&args, b"");
    assert!(!text(&plain.stderr).contains('\x1b'));
    let forced = run_env(&args, b"", &[("CLICOLOR_FORCE", "1")]);
    let err = text(&forced.stderr);
    assert!(err.starts_with("\x1b[1;31merror:\x1b[0m "), "{err:?}");
    let off = run_env(&args, b"", &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!text(&off.stderr).contains('\x1b'));
    // An empty NO_COLOR does not count.
    let empty = run_env(&args, b"", &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]);
    assert!(text(&empty.stderr).contains('\x1b'));
    // The first line says the same with or without colour.
    let strip = |s: &str| {
        s.replace("\x1b[1;31m", "")
            .replace("\x1b[1m", "")
            .replace("\x1b[0m", "")
    };
    assert_eq!(strip(&err), text(&plain.stderr));
}

/// Issue 28: `--color always|never` decides whatever NO_COLOR and CLICOLOR_FORCE say, before
/// or after the command; `--color auto` is the environment's rule; the help says so.
#[test]
fn color_flag_wins_over_the_environment() {
    let red = "\x1b[1;31merror:\x1b[0m ";
    for args in [
        &["--color", "always", "compare", V7, "nope"][..],
        &["compare", "--color=always", V7, "nope"][..],
    ] {
        for env in [&[][..], &[("NO_COLOR", "1")][..]] {
            let o = run_env(args, b"", env);
            assert_eq!(code(&o), 1, "{args:?} {env:?}");
            assert!(
                text(&o.stderr).starts_with(red),
                "{args:?} {env:?}: {:?}",
                text(&o.stderr)
            );
        }
    }
    let o = run_env(
        &["--color", "never", "compare", V7, "nope"],
        b"",
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(!text(&o.stderr).contains('\x1b'), "{:?}", text(&o.stderr));
    // auto: the environment decides, as without the flag.
    let o = run_env(
        &["--color", "auto", "compare", V7, "nope"],
        b"",
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(text(&o.stderr).starts_with(red));
    // The issue's example: output unchanged (UUIDs are never coloured).
    let o = run(&["--color", "never", "gen", "v4"], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(text(&o.stdout).trim_end().len(), 36);
    let o = run(&["--color", "sometimes", "gen"], b"");
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("invalid value 'sometimes' for '--color <WHEN>'"));
    let help = text(&run(&["--help"], b"").stdout);
    assert!(help.contains("--color <WHEN>"), "{help}");
    assert!(
        help.contains("--color always or never decides colour, whatever the environment"),
        "{help}"
    );
    // Clap's own help follows the flag too.
    let o = run_env(&["--color", "always", "--help"], b"", &[("NO_COLOR", "1")]);
    assert!(text(&o.stdout).contains('\x1b'));
    let o = run_env(
        &["--color", "never", "--help"],
        b"",
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(!text(&o.stdout).contains('\x1b'));
}

/// Issue 28: `--version` names the version alone on its first line (`-V` prints only that),
/// then the target (the compiler's host here, where the tests run natively), the SIMD level,
/// the library features the CLI's Cargo.toml turns on, and the service.
#[test]
fn version_names_target_simd_features_and_service() {
    let o = run(&["--version"], b"");
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("uuidkit {}", env!("CARGO_PKG_VERSION")));
    let short = run(&["-V"], b"");
    assert_eq!(text(&short.stdout), format!("{}\n", lines[0]));

    let rustc = std::process::Command::new(std::env::var_os("RUSTC").unwrap_or("rustc".into()))
        .arg("-vV")
        .output()
        .expect("rustc -vV (the compiler the tests were built with)");
    let host = text(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("host line of rustc -vV");
    assert_eq!(lines[1], format!("target: {host}"), "{out}");

    let simd = lines[2].strip_prefix("simd: ").expect(lines[2]);
    let level = simd.split(' ').next().unwrap_or("");
    assert!(
        ["avx2", "ssse3", "neon", "scalar"].contains(&level),
        "{out}"
    );

    // The features of the uuidkit dependency in the CLI's Cargo.toml.
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("Cargo.toml");
    let dep = manifest
        .lines()
        .find(|l| l.starts_with("uuidkit = {"))
        .expect("the uuidkit dependency line");
    let list = dep
        .split("features = [")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .expect("its features");
    let features: Vec<&str> = list
        .split(',')
        .map(|f| f.trim().trim_matches('"'))
        .collect();
    let shown = lines[3].strip_prefix("features: ").expect(lines[3]);
    let shown: Vec<&str> = shown.split(" (").next().unwrap_or("").split(' ').collect();
    assert_eq!(shown, features, "{out}");
    let service = if cfg!(unix) {
        "service: yes"
    } else {
        "service: no"
    };
    assert!(lines[4].starts_with(service), "{out}");
    assert_eq!(lines.len(), 5, "{out}");
}

/// Issue 28: `gen --system` where no service listens says how to start one: on the `--socket`
/// path given (nothing there, or a socket file nobody accepts on), or with `uuidkit serve` and
/// systemctl when the default sockets were tried.
#[cfg(unix)]
#[test]
fn gen_system_without_a_service_says_how_to_start_one() {
    let dir = std::env::temp_dir().join(format!("uk-no-service-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let missing = dir.join("none.sock");
    let stale = dir.join("stale.sock");
    // A socket file left by a server that is gone: connecting is refused.
    drop(std::os::unix::net::UnixListener::bind(&stale).expect("bind"));
    for sock in [&missing, &stale] {
        let s = sock.display().to_string();
        let o = run_env(&["gen", "v7", "--system", "--socket", &s], b"", &[]);
        let err = text(&o.stderr);
        assert_eq!(code(&o), 2, "{err}");
        assert!(o.stdout.is_empty());
        assert!(
            err.starts_with(&format!("error: cannot reach the uuidkit service at {s}")),
            "{err}"
        );
        assert!(
            err.contains(&format!(
                "no uuidkit service at {s}: start one with `uuidkit serve --socket {s}`"
            )),
            "{err}"
        );
        assert!(!err.contains("systemctl"), "{err}");
    }
    // The default sockets: UUIDKIT_SOCKET (nothing there), the user's (an empty runtime
    // directory), and the system socket, which a test must not rely on: only the hint's form
    // is checked when none answers.
    let xdg = dir.join("xdg");
    std::fs::create_dir_all(&xdg).expect("xdg");
    let o = run_env(
        &["gen", "v7", "--system"],
        b"",
        &[
            ("UUIDKIT_SOCKET", missing.to_str().expect("utf-8 path")),
            ("XDG_RUNTIME_DIR", xdg.to_str().expect("utf-8 path")),
        ],
    );
    // A service installed on this machine (the system socket) answers: then there is no hint
    // to see; in CI none runs.
    if code(&o) == 0 {
        assert_eq!(text(&o.stdout).trim_end().len(), 36);
    } else {
        let err = text(&o.stderr);
        assert_eq!(code(&o), 2, "{err}");
        assert!(
            err.contains(
                "no uuidkit service at any of them: start one with `uuidkit serve` (or \
                 `systemctl start uuidkit.socket` where the package is installed)"
            ),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_progress_or_escape_reaches_a_pipe() {
    let o = run(&["gen", "v7", "-C", "3000000"], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(text(&o.stderr), "");
    assert_eq!(o.stdout.len(), 3_000_000 * 37);
    let o = run(
        &["validate", "--quiet"],
        format!("{V7}\n").repeat(200_000).as_bytes(),
    );
    assert_eq!((code(&o), o.stderr.len()), (0, 0));
}

// ---- JSON ---------------------------------------------------------------------------------

#[test]
fn validate_json_one_object_per_invalid_input() {
    let input = format!("{V7}\n{{{V7}\n\n{}\n", "x".repeat(5000));
    let o = run(&["validate", "--json"], input.as_bytes());
    assert_eq!(code(&o), 1);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for l in &lines {
        assert_eq!(
            keys_in_order(l),
            ["line", "column", "kind", "message", "input"]
        );
    }
    let j = json_lines(&o);
    // Line 2: the '{' at byte 0 is not closed; the '}' would be at byte 37 (column 38).
    assert_eq!(j[0]["line"], 2);
    assert_eq!(j[0]["column"], 38);
    assert_eq!(j[0]["kind"], "braces");
    assert_eq!(j[0]["input"], format!("{{{V7}"));
    assert!(j[0]["message"]
        .as_str()
        .expect("message")
        .starts_with("unbalanced brace at byte 37"));
    assert_eq!(j[1]["line"], 3);
    assert_eq!(j[1]["kind"], "length");
    assert_eq!(j[1]["input"], "");
    assert_eq!(j[2]["line"], 4);
    assert_eq!(j[2]["kind"], "length");
    // The same messages as the plain report.
    let plain = run(&["validate"], input.as_bytes());
    let plain_text = text(&plain.stdout);
    for (v, p) in j.iter().zip(plain_text.lines()) {
        let want = format!(
            "{}:{}: {}",
            v["line"],
            v["column"],
            v["message"].as_str().unwrap()
        );
        assert_eq!(p, want);
    }
}

#[test]
fn validate_json_kinds_follow_the_documented_names() {
    let cases = [
        ("017f22e2", "length"),
        ("017f22e2-79b0-7cc3-98c4-dc0c0c07398", "group_length"),
        ("017f22e2-79b0-7cc3-98c4-dc0c0c07398g", "char"),
        ("017f22e2-79b0-7cc3-98c4-dc0c0c0739-8f", "hyphen"),
        ("urn:uuix:017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "prefix"),
    ];
    for (input, kind) in cases {
        let o = run(&["validate", "--json", input], b"");
        let j = json_lines(&o);
        assert_eq!(j.len(), 1, "{input}");
        assert_eq!(j[0]["kind"], kind, "{input}: {}", j[0]["message"]);
        assert_eq!(j[0]["line"], 1);
    }
    let o = run(&["validate", "--json", "--from", "int", "0123"], b"");
    assert_eq!(json_lines(&o)[0]["kind"], "leading_zero");
}

#[test]
fn validate_json_and_quiet_conflict() {
    let o = run(&["validate", "--json", "--quiet", V7], b"");
    assert_eq!(code(&o), 2);
}

#[test]
fn compare_json() {
    let upper = V7.to_uppercase();
    let o = run(
        &[
            "compare",
            "--json",
            &upper,
            "00000000-0000-0000-0000-000000000000",
        ],
        b"",
    );
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    assert_eq!(keys_in_order(out.trim_end()), ["a", "b", "result"]);
    let j = json_lines(&o);
    assert_eq!(j[0]["a"], V7);
    assert_eq!(j[0]["b"], "00000000-0000-0000-0000-000000000000");
    assert_eq!(j[0]["result"], 1);
    let o = run(&["compare", "--json", "x", "y"], b"");
    assert_eq!(code(&o), 1);
    let j = json_lines(&o);
    assert_eq!(j.len(), 2);
    assert_eq!(
        (j[0]["line"].clone(), j[1]["line"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(j[1]["input"], "y");
    assert_eq!(text(&o.stderr), "");
}

#[test]
fn ldap_match_and_order_json() {
    let upper = LDAP_EXAMPLE.to_uppercase();
    let o = run(&["ldap", "match", "--json", LDAP_EXAMPLE, &upper], b"");
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    assert_eq!(
        keys_in_order(out.trim_end()),
        ["rule", "assertion", "value", "result"]
    );
    let j = json_lines(&o);
    assert_eq!(j[0]["rule"], "uuidMatch");
    assert_eq!(j[0]["value"], upper);
    assert_eq!(j[0]["result"], true);

    let nil = "00000000-0000-0000-0000-000000000000";
    let o = run(&["ldap", "order", "--json", LDAP_EXAMPLE, nil], b"");
    let j = json_lines(&o);
    assert_eq!(j[0]["rule"], "uuidOrderingMatch");
    // RFC 4530 §2.3 / RFC 4517 §4.2.28: TRUE when the value sorts before the assertion.
    assert_eq!(j[0]["result"], true);

    let simple = LDAP_EXAMPLE.replace('-', "");
    let o = run(&["ldap", "match", "--json", LDAP_EXAMPLE, &simple], b"");
    assert_eq!(code(&o), 1);
    let j = json_lines(&o);
    assert_eq!(j[0]["line"], 2);
    assert_eq!(j[0]["kind"], "form");
    assert_eq!(j[0]["input"], simple);
}

// ---- completions, man, help ---------------------------------------------------------------

#[test]
fn completions_for_each_shell_know_the_commands() {
    for shell in ["bash", "zsh", "fish"] {
        let o = run(&["completions", shell], b"");
        assert_eq!(code(&o), 0, "{shell}");
        let script = text(&o.stdout);
        for word in [
            "gen",
            "inspect",
            "validate",
            "convert",
            "add-entryuuid",
            "counter-bits",
        ] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    assert_eq!(code(&run(&["completions", "tcsh"], b"")), 2);
}

#[test]
fn man_pages_for_the_tool_and_its_commands() {
    let o = run(&["man"], b"");
    assert_eq!(code(&o), 0);
    let page = text(&o.stdout);
    assert!(page.starts_with(".ie \\n(.g .ds Aq \\(aq") || page.contains(".TH UUIDKIT 1"));
    assert!(page.contains(".TH UUIDKIT 1"), "{page}");
    assert!(page.contains("completions"));
    let o = run(&["man", "ldap", "match"], b"");
    assert_eq!(code(&o), 0);
    let page = text(&o.stdout);
    assert!(
        page.contains(".TH UUIDKIT\\-LDAP\\-MATCH 1") || page.contains(".TH UUIDKIT-LDAP-MATCH 1"),
        "{page}"
    );
    assert!(page.contains("uuidMatch"));
    let o = run(&["man", "nope"], b"");
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("no command `nope`"));
}

/// Every command's `--help` ends with examples that name the command.
#[test]
fn every_command_has_help_with_examples() {
    let commands: &[&[&str]] = &[
        &[],
        &["gen"],
        &["inspect"],
        &["validate"],
        &["convert"],
        &["sort"],
        &["compare"],
        &["ldap"],
        &["ldap", "schema"],
        &["ldap", "match"],
        &["ldap", "order"],
        &["ldap", "add-entryuuid"],
        &["completions"],
        &["man"],
    ];
    for path in commands {
        let mut args = path.to_vec();
        args.push("--help");
        let o = run(&args, b"");
        assert_eq!(code(&o), 0, "{path:?}");
        let help = text(&o.stdout);
        let examples = help
            .split("Examples:")
            .nth(1)
            .unwrap_or_else(|| panic!("{path:?}: no examples"));
        let mut invocation = vec!["uuidkit"];
        invocation.extend_from_slice(path);
        assert!(
            examples.contains(&invocation.join(" ")),
            "{path:?}:\n{help}"
        );
    }
}

// ---- what a new user trying the tool found ------------------------------------------------

/// Runs `uuidkit args` on `input`, reads the first line of its standard output and then closes
/// the pipe (as `| head -1` does); returns that line and the exit status.
fn first_line_then_close(args: &[&str], input: Vec<u8>) -> (String, i32) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn uuidkit");
    let mut sin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&input);
    });
    let mut first = String::new();
    {
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        out.read_line(&mut first).expect("read a line");
    }
    let status = child.wait().expect("wait");
    writer.join().expect("writer thread");
    (first, status.code().expect("exited normally"))
}

#[test]
fn value_options_take_values_that_start_with_a_hyphen() {
    // Source: Python's uuid.uuid5(uuid.NAMESPACE_DNS, "-foo") (and util-linux uuidgen).
    let want = "edc8b235-9eb9-5206-8fb7-ba001165c21f\n";
    for args in [
        &["gen", "v5", "-n", "dns", "-N", "-foo"][..],
        &["gen", "v5", "-n", "dns", "--name", "-foo"],
        // "-foo" as hex-encoded bytes.
        &["gen", "v5", "-n", "dns", "--name-hex", "2d666f6f"],
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 0, "{args:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stdout), want, "{args:?}");
    }
    // A --name-hex value starting with '-' is read as the value (hyphens between the hex
    // digits are allowed), not taken for a missing value.
    let o = run(&["gen", "v5", "-n", "dns", "--name-hex", "-2d666f6f"], b"");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), want);
}

#[test]
fn invalid_input_before_a_closed_pipe_keeps_status_1() {
    let mut bad_first = b"nope\n".to_vec();
    let mut good = Vec::new();
    for _ in 0..200_000 {
        good.extend_from_slice(V7.as_bytes());
        good.push(b'\n');
    }
    bad_first.extend_from_slice(&good);
    for args in [
        &["inspect", "--json"][..],
        &["inspect"],
        &["convert", "--to", "simple"],
    ] {
        let (first, status) = first_line_then_close(args, bad_first.clone());
        assert!(!first.is_empty(), "{args:?}");
        assert_eq!(status, 1, "{args:?}: invalid line 1, then the pipe closed");
        // Without the invalid line a closed pipe is still a quiet success.
        let (_, status) = first_line_then_close(args, good.clone());
        assert_eq!(status, 0, "{args:?}: all valid, then the pipe closed");
    }
}

#[test]
fn gen_time_takes_the_years_of_the_v7_range() {
    // The last millisecond v7 can hold: 2^48 - 1 ms after 1970.
    let o = run(&["gen", "v7", "--time", "10889-08-02T05:31:50.655Z"], b"");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with("ffffffff-ffff-7"), "{:?}", o);
    // One millisecond later is out of range, and said so.
    let o = run(&["gen", "v7", "--time", "10889-08-02T05:31:50.656Z"], b"");
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("10889"), "{}", text(&o.stderr));
    // A five-digit year reads as what inspect prints back.
    let o = run(&["gen", "v7", "--time", "10000-01-01T00:00:00Z"], b"");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let id = text(&o.stdout);
    let o = run(&["inspect", "--json", id.trim()], b"");
    assert_eq!(
        json_lines(&o)[0]["time"].as_str(),
        Some("10000-01-01T00:00:00.000Z")
    );
    // A leading zero in a year of more than four digits is not a year anyone writes.
    let o = run(&["gen", "v7", "--time", "02022-02-22T19:22:22Z"], b"");
    assert_eq!(code(&o), 2);
}

#[test]
fn help_texts_describe_the_error_reports_printed() {
    // Each command's --help names the form of its report of an invalid input; what it prints
    // for one must be that form.
    for cmd in [
        &["inspect"][..],
        &["convert", "--to", "simple"],
        &["sort"],
        &["validate"],
    ] {
        let mut help_args = cmd[..1].to_vec();
        help_args.push("--help");
        let help = text(&run(&help_args, b"").stdout);
        let o = run(cmd, b"nope\n");
        assert_eq!(code(&o), 1, "{cmd:?}");
        let printed = format!("{}{}", text(&o.stdout), text(&o.stderr));
        let claims_line_column = help.contains("LINE:COLUMN: message");
        let claims_error_line = help.contains("`error: line N: message`");
        assert!(
            claims_line_column || claims_error_line,
            "{cmd:?}: the help names no form:\n{help}"
        );
        if claims_line_column {
            // "nope": the first byte is not a hex digit.
            assert!(printed.starts_with("1:1: "), "{cmd:?}: {printed}");
        }
        if claims_error_line {
            assert!(printed.starts_with("error: line 1: "), "{cmd:?}: {printed}");
            assert!(printed.contains("\n  nope\n  ^\n"), "{cmd:?}: {printed}");
        }
    }
}

/// Every command path, from the `Commands:` lists of `--help` (without `help` itself).
fn command_paths() -> Vec<Vec<String>> {
    let mut paths = vec![Vec::<String>::new()];
    let mut i = 0;
    while i < paths.len() {
        let mut args: Vec<&str> = paths[i].iter().map(String::as_str).collect();
        args.push("--help");
        let help = text(&run_env(&args, b"", &[("COLUMNS", "200")]).stdout);
        if let Some(list) = help.split("\nCommands:\n").nth(1) {
            for line in list.lines().take_while(|l| !l.trim().is_empty()) {
                // A name starts in column 3; wrapped descriptions start further in.
                if line.starts_with("  ") && !line.starts_with("   ") {
                    let name = line.split_whitespace().next().expect("a name");
                    if name != "help" {
                        let mut p = paths[i].clone();
                        p.push(name.to_string());
                        paths.push(p);
                    }
                }
            }
        }
        i += 1;
    }
    paths
}

#[test]
fn help_fits_80_columns_and_wraps_to_a_narrower_terminal() {
    let paths = command_paths();
    assert!(paths.len() > 10, "{paths:?}");
    for path in &paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        // Wider terminals (and pipes) get at most 80 columns.
        for cols in ["80", "200"] {
            let help = text(&run_env(&args, b"", &[("COLUMNS", cols)]).stdout);
            for line in help.lines() {
                assert!(
                    line.chars().count() <= 80,
                    "{path:?} at {cols} columns: {line:?}"
                );
            }
        }
        // At 40 columns only a line that cannot be broken (one word, or the usage line)
        // is longer.
        let help = text(&run_env(&args, b"", &[("COLUMNS", "40")]).stdout);
        for line in help.lines() {
            if line.chars().count() > 40 {
                assert!(
                    line.starts_with("Usage: ") || line.split_whitespace().count() == 1,
                    "{path:?} at 40 columns: {line:?}"
                );
            }
        }
    }
}

#[test]
fn man_pages_keep_the_hand_laid_out_text_as_written() {
    for path in command_paths() {
        let mut args = vec!["man"];
        args.extend(path.iter().map(String::as_str));
        let o = run(&args, b"");
        assert_eq!(code(&o), 0, "{path:?}");
        let page = text(&o.stdout);
        let mut help_args: Vec<&str> = path.iter().map(String::as_str).collect();
        help_args.push("--help");
        let help = text(&run_env(&help_args, b"", &[("COLUMNS", "200")]).stdout);
        let Some(extra) = page.split("\n.SH EXTRA\n").nth(1) else {
            // A page without hand-written text has nothing to keep.
            assert!(!help.contains("Examples:"), "{path:?}");
            continue;
        };
        let block = extra.split("\n.SH ").next().expect("the section");
        let lines: Vec<&str> = block.lines().collect();
        // No-fill from the start of the section to its end, so that man shows each line as
        // it is: refilled, the tables and examples run together.
        assert_eq!(lines.first(), Some(&".nf"), "{path:?}:\n{block}");
        assert_eq!(lines.last(), Some(&".fi"), "{path:?}:\n{block}");
        assert!(
            !lines[1..lines.len() - 1]
                .iter()
                .any(|l| l.starts_with(".fi") || l.starts_with(".ad")),
            "{path:?}"
        );
        for line in lines.iter().filter(|l| !l.starts_with('.')) {
            let plain = line
                .replace("\\-", "-")
                .replace("\\*(Aq", "'")
                .replace("\\&", "")
                .replace("\\\\", "\\");
            // What --help shows, line for line; within 78 columns, so that with the
            // block's indent of 2 it fits an 80-column man page.
            assert!(
                help.lines().any(|h| h == plain),
                "{path:?}: {plain:?} is not a line of --help"
            );
            assert!(plain.chars().count() <= 78, "{path:?}: {plain:?}");
        }
    }
}

#[test]
fn ldap_add_entryuuid_rejects_what_is_not_ldif() {
    let ok = "dn: cn=a\ncn: a\n\n";
    // (input after one good entry, the line named, what the message says)
    let cases: [(&str, u64, &str); 7] = [
        ("not ldif at all\n", 4, "not LDIF"),
        // Two records without an empty line between them.
        ("dn: cn=b\ncn: b\ndn: cn=c\ncn: c\n", 6, "second `dn:`"),
        ("dn: cn=b\nno colon here\n", 5, "without a colon"),
        ("dn: cn=b\njpegPhoto:: !!!!\n", 5, "base64"),
        ("dn: cn=b\rcn: b\r\rdn: cn=c\r", 4, "CR not followed by LF"),
        ("objectClass: top\n", 4, "starts with `dn:`"),
        ("version: 1\n\ndn: cn=b\n", 4, "version"),
    ];
    for (rest, line, says) in cases {
        let input = format!("{ok}{rest}");
        let o = run(&["ldap", "add-entryuuid"], input.as_bytes());
        let err = text(&o.stderr);
        assert_eq!(code(&o), 1, "{rest:?}: {err}");
        assert!(
            err.starts_with(&format!("error: line {line}")),
            "{rest:?}: {err}"
        );
        assert!(err.contains(says), "{rest:?}: {err}");
        // The entry before the bad record was written, with its new entryUUID.
        let out = text(&o.stdout);
        assert!(out.starts_with("dn: cn=a\ncn: a\nentryUUID: "), "{out}");
        assert!(!out.contains("cn=b"), "{out}");
    }
    // Only version 1 exists.
    let o = run(&["ldap", "add-entryuuid"], b"version: 2\n\ndn: cn=a\n");
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).starts_with("error: line 1: "));
    // Random bytes are not copied through.
    let mut noise = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..100_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        noise.push((x >> 16) as u8);
    }
    let o = run(&["ldap", "add-entryuuid"], &noise);
    assert_eq!(code(&o), 1);
    assert!(o.stdout.is_empty());
    // A whitespace-only line ends a record rather than continuing it: two entries, two
    // new values.
    let o = run(
        &["ldap", "add-entryuuid"],
        b"dn: cn=a\ncn: a\n \ndn: cn=b\ncn: b\n",
    );
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).matches("entryUUID: ").count(), 2);
    // A modify record's `-` lines are LDIF.
    let o = run(
        &["ldap", "add-entryuuid"],
        b"dn: cn=a\nchangetype: modify\nreplace: cn\ncn: b\n-\n",
    );
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
}

#[test]
fn ldap_add_entryuuid_escapes_the_dn_in_messages() {
    let o = run(
        &["ldap", "add-entryuuid"],
        b"dn: cn=\x1b]0;title\x07\x1b[31mRED\nentryUUID: nope\n",
    );
    assert_eq!(code(&o), 1);
    let err = text(&o.stderr);
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
    assert!(err.contains("cn=\\x1b]0;title\\x07\\x1b[31mRED"), "{err:?}");
}

#[test]
fn tokens_reads_files_with_a_bom_spaces_and_blank_lines() {
    const NS_DNS: &str = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
    let input = format!("\u{feff}  {V7}  \r\n\n\t{NS_DNS} {V7}\n   \n");
    // The strict default still refuses such lines.
    let o = run(&["validate"], input.as_bytes());
    assert_eq!(code(&o), 1);
    // --tokens reads three UUIDs.
    let o = run(&["validate", "--tokens"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", text(&o.stdout));
    let o = run(&["convert", "--tokens", "--to", "simple"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let (v7, ns) = (V7.replace('-', ""), NS_DNS.replace('-', ""));
    assert_eq!(text(&o.stdout), format!("{v7}\n{ns}\n{v7}\n"));
    let o = run(&["sort", "--tokens", "--unique"], input.as_bytes());
    assert_eq!(text(&o.stdout), format!("{V7}\n{NS_DNS}\n"));
    let o = run(&["inspect", "--tokens", "--json"], input.as_bytes());
    assert_eq!(code(&o), 0);
    assert_eq!(json_lines(&o).len(), 3);
    // A bad token is reported with the number of its line.
    let o = run(
        &["validate", "--tokens"],
        format!("{V7}\n\n {V7} nope\n").as_bytes(),
    );
    assert_eq!(code(&o), 1);
    assert!(text(&o.stdout).starts_with("3:1: "), "{}", text(&o.stdout));
}

#[test]
fn gen_v7_default_layout_is_the_library_one() {
    // uuidkit::v7(): a 26-bit counter (rand_a and the top 14 bits of rand_b) that counts up
    // within a millisecond, then 48 random bits.
    let o = run(
        &["gen", "v7", "-C", "200", "--time", "2022-02-22T19:22:22Z"],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let ids: Vec<u128> = text(&o.stdout)
        .lines()
        .map(|l| u128::from_str_radix(&l.replace('-', ""), 16).expect("hex"))
        .collect();
    assert_eq!(ids.len(), 200);
    let counter = |u: u128| ((u >> 64) & 0xfff) << 14 | (u >> 48) & 0x3fff;
    let tail = |u: u128| u & ((1 << 48) - 1);
    for w in ids.windows(2) {
        assert_eq!(w[0] >> 80, w[1] >> 80, "one millisecond");
        assert_eq!(
            counter(w[1]),
            counter(w[0]) + 1,
            "{:032x} {:032x}",
            w[0],
            w[1]
        );
    }
    // The counter starts with its top bit clear (the rollover guard).
    assert!(counter(ids[0]) < 1 << 25);
    // The 48 bits after it differ from one UUID to the next.
    let distinct: std::collections::HashSet<u128> = ids.iter().map(|&u| tail(u)).collect();
    assert_eq!(distinct.len(), ids.len());
}

#[test]
fn bash_completes_gen_namespace_with_the_four_names() {
    let script = text(&run(&["completions", "bash"], b"").stdout);
    // As bash calls the function for `uuidkit gen -n <TAB>` (and the long option).
    for words in ["uuidkit gen v5 -n ''", "uuidkit gen v5 --namespace ''"] {
        let n = words.split(' ').count() - 1;
        let program = format!(
            "{script}\nCOMP_WORDS=({words}); COMP_CWORD={n}; \
             _uuidkit uuidkit '' \"${{COMP_WORDS[{}]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            n - 1
        );
        let o = std::process::Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &program])
            .output()
            .expect("run bash");
        assert!(o.status.success(), "{}", text(&o.stderr));
        let mut offered: Vec<String> = text(&o.stdout).lines().map(String::from).collect();
        offered.sort();
        assert_eq!(offered, ["dns", "oid", "url", "x500"], "{words}");
    }
}

#[test]
fn man_help_names_every_page_and_its_loop_writes_them() {
    let help = text(&run(&["man", "--help"], b"").stdout);
    let pages = help
        .split("Pages:\n")
        .nth(1)
        .and_then(|p| p.split("\n\n").next())
        .expect("a Pages: list");
    let listed: Vec<&str> = pages
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let mut loop_text = help.split("for c in").nth(1).expect("a loop").to_string();
    loop_text = loop_text
        .split("; do")
        .next()
        .expect("do")
        .replace("\\\n", " ");
    for path in command_paths() {
        let page = std::iter::once("uuidkit".to_string())
            .chain(path.iter().cloned())
            .collect::<Vec<_>>()
            .join("-");
        assert!(listed.contains(&page.as_str()), "{page} not in {listed:?}");
        let word = match path.len() {
            0 => "''".to_string(),
            1 => path[0].clone(),
            _ => format!("'{}'", path.join(" ")),
        };
        assert!(
            loop_text.split_whitespace().any(|w| w == word)
                || loop_text.contains(&format!(" {word} ")),
            "{word} not in the loop: {loop_text}"
        );
    }
}

#[test]
fn readme_completions_example_works_on_a_fresh_account() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let target = "~/.local/share/bash-completion/completions";
    let lines: Vec<&str> = readme
        .lines()
        .filter(|l| l.contains(target))
        .map(|l| l.split("   #").next().unwrap_or(l).trim())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("uuidkit completions bash")),
        "{lines:?}"
    );
    let home = std::env::temp_dir().join(format!("uuidkit-fresh-home-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("home");
    let bin_dir = std::path::Path::new(common::BIN).parent().expect("bin dir");
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let o = std::process::Command::new("sh")
        .args(["-ec", &lines.join("\n")])
        .env("HOME", &home)
        .env("PATH", path)
        .output()
        .expect("run sh");
    let script = home.join(".local/share/bash-completion/completions/uuidkit");
    let written = std::fs::read_to_string(&script).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&home);
    assert!(o.status.success(), "{lines:?}: {}", text(&o.stderr));
    assert!(written.contains("_uuidkit"), "{lines:?}");
}

// ---- what users of the peers reach for ----------------------------------------------------

/// 6ba7b810-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 Appendix A's NameSpace_DNS) in every form a
/// test below needs, worked out by hand from its 16 bytes.
const NS_DNS: &str = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
const NS_DNS_INT: &str = "143098242404177361603877621312831893704";
// Python: base64.b64encode(uuid.NAMESPACE_DNS.bytes).
const NS_DNS_BASE64: &str = "a6e4EJ2tEdGAtADAT9QwyA==";
// The first three fields byte-swapped.
const NS_DNS_GUID_HEX: &str = "10b8a76bad9dd11180b400c04fd430c8";

#[test]
fn inspect_reads_int_oid_and_guid_hex() {
    for (from, input) in [
        ("int", NS_DNS_INT.to_string()),
        ("oid", format!("2.25.{NS_DNS_INT}")),
        ("guid-hex", NS_DNS_GUID_HEX.to_string()),
    ] {
        let o = run(&["inspect", "--json", "--from", from, &input], b"");
        assert_eq!(code(&o), 0, "{from}: {}", text(&o.stderr));
        let j = &json_lines(&o)[0];
        assert_eq!(j["uuid"], NS_DNS, "{from}");
        assert_eq!(j["input"], input.as_str());
    }
    // Text is still the default, and a text form is not an int.
    let o = run(&["inspect", "--from", "int", NS_DNS], b"");
    assert_eq!(code(&o), 1);
}

#[test]
fn inspect_json_has_pythons_field_names() {
    let o = run(&["inspect", "--json", NS_DNS], b"");
    let j = &json_lines(&o)[0];
    // uuid.NAMESPACE_DNS.fields == (0x6ba7b810, 0x9dad, 0x11d1, 0x80, 0xb4, 0x00c04fd430c8)
    assert_eq!(j["time_low"], 0x6ba7_b810u32);
    assert_eq!(j["time_mid"], 0x9dad);
    assert_eq!(j["time_hi_version"], 0x11d1);
    assert_eq!(j["clock_seq_hi_variant"], 0x80);
    assert_eq!(j["clock_seq_low"], 0xb4);
    assert_eq!(j["hex"], NS_DNS.replace('-', ""));
    assert_eq!(j["bytes_le"], NS_DNS_GUID_HEX);
}

#[test]
fn convert_to_bytes_and_base64() {
    let o = run(&["convert", "--to", "base64", NS_DNS, V7], b"");
    assert_eq!(code(&o), 0);
    let lines: Vec<String> = text(&o.stdout).lines().map(String::from).collect();
    assert_eq!(lines[0], NS_DNS_BASE64);
    assert_eq!(lines[1].len(), 24);
    let o = run(&["convert", "--to", "bytes", NS_DNS, V7], b"");
    assert_eq!(code(&o), 0);
    let hex: String = o.stdout.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, format!("{}{}", NS_DNS, V7).replace('-', ""));
}

#[test]
fn sort_keeps_the_form_asked_for_and_sorts_by_time() {
    // A v1 of 2020 sorts after a v7 of 2019 by time, before it by bytes; a v6 of 2021 is
    // last of the three by time; a v4 has no time and goes after them.
    let v1 = text(&run(&["gen", "v1", "--time", "2020-01-01T00:00:00Z"], b"").stdout);
    let v7 = text(&run(&["gen", "v7", "--time", "2019-01-01T00:00:00Z"], b"").stdout);
    let v6 = text(&run(&["gen", "v6", "--time", "2021-01-01T00:00:00Z"], b"").stdout);
    let v4 = "00000000-0000-4000-8000-000000000000\n";
    let input = format!("{v4}{v6}{v1}{v7}");
    let o = run(&["sort", "--by-time"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), format!("{v7}{v1}{v6}{v4}"));
    let o = run(&["sort"], input.as_bytes());
    assert_eq!(text(&o.stdout), format!("{v4}{v7}{v6}{v1}"));
    // --format and --upper, as gen has them.
    let o = run(
        &["sort", "--format", "urn", "--upper"],
        format!("{NS_DNS}\n").as_bytes(),
    );
    assert_eq!(
        text(&o.stdout),
        format!("urn:uuid:{}\n", NS_DNS.to_uppercase())
    );
    let o = run(&["sort", "-f", "int"], format!("{NS_DNS}\n").as_bytes());
    assert_eq!(text(&o.stdout), format!("{NS_DNS_INT}\n"));
}

#[test]
fn progress_line_fits_a_40_column_terminal_and_sigterm_clears_it() {
    // A pseudo-terminal from script(1), a gen run too long to finish, ended by SIGTERM after
    // the progress line has been drawn for a while (it appears after 0.4 s).
    let bin = common::bin();
    let cmd = format!(
        "timeout -s TERM 5 env COLUMNS=40 '{}' gen -C 100000000000 > /dev/null",
        bin.to_string_lossy()
    );
    let o = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run script(1)");
    let screen = String::from_utf8_lossy(&o.stdout).into_owned();
    let frames: Vec<&str> = screen.split("\r\x1b[K").filter(|f| !f.is_empty()).collect();
    assert!(!frames.is_empty(), "no progress line drawn: {screen:?}");
    for f in &frames {
        // Three columns to spare: no wrap, and room for an echoed ^C.
        assert!(
            f.chars().count() <= 37,
            "{f:?} is wider than the terminal allows"
        );
        assert!(f.contains('%'), "{f:?}");
    }
    // The last thing written clears the line.
    assert!(screen.ends_with("\r\x1b[K"), "{screen:?}");
}

/// `convert` with reports buffered (standard error a pipe of its own, standard output
/// another): every report is there, in input order, and so is every converted line; the status
/// is 1. With both streams on one pipe (`2>&1`), each report comes right after the output of
/// the lines before it, as before buffering.
#[test]
fn convert_reports_bad_lines_in_order_whether_buffered_or_not() {
    let good = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    let simple = "67e5504410b1426f9247bb680e5fe0c8";
    let mut input = String::new();
    for i in 0..3000 {
        input.push_str(if i % 3 == 1 {
            "67e55044-10b1-426f-9247-bb680e5fe0cg"
        } else {
            good
        });
        input.push('\n');
    }
    // Separate pipes: buffered reports.
    let o = run(&["convert", "--to", "simple"], input.as_bytes());
    assert_eq!(code(&o), 1);
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 2000);
    assert!(out.lines().all(|l| l == simple));
    let err = text(&o.stderr);
    let lines: Vec<u64> = err
        .lines()
        .filter_map(|l| {
            l.strip_prefix("error: line ")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    let want: Vec<u64> = (0..3000).filter(|i| i % 3 == 1).map(|i| i + 1).collect();
    assert_eq!(lines, want, "every bad line reported once, in order");
    assert_eq!(err.lines().count(), 3 * 1000, "each report is three lines");
    // One pipe for both: the report of line 2 after the output of line 1, before line 3's.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf '%s\\n' {good} {good}g {good} | \"$0\" convert --to simple 2>&1"
        ))
        .arg(common::bin())
        .output()
        .expect("run sh");
    assert_eq!(o.status.code(), Some(1));
    let both = text(&o.stdout);
    let lines: Vec<&str> = both.lines().collect();
    assert_eq!(lines.len(), 5, "{both}");
    assert_eq!(lines[0], simple);
    assert!(lines[1].starts_with("error: line 2: "), "{both}");
    assert_eq!(lines[4], simple);
}

/// Hyphenated and simple lines alternating (the fast path tries two lengths) give what each
/// line gives alone.
#[test]
fn mixed_forms_convert_and_validate_line_by_line() {
    let mut input = String::new();
    let mut want = String::new();
    for i in 0..5000u32 {
        let u = format!("67e55044-10b1-426f-9247-bb68{i:08x}");
        let s = u.replace('-', "");
        input.push_str(if i % 2 == 0 { &u } else { &s });
        input.push('\n');
        if i % 7 == 3 {
            input.push('\n');
        }
        want.push_str(&s);
        want.push('\n');
    }
    let o = run(&["convert", "--to", "simple"], input.as_bytes());
    assert_eq!(code(&o), 1, "the empty lines are invalid");
    assert_eq!(text(&o.stdout), want);
    let o = run(&["validate"], input.as_bytes());
    assert_eq!(code(&o), 1);
    assert_eq!(
        text(&o.stdout).lines().count(),
        (0..5000).filter(|i| i % 7 == 3).count()
    );
}

/// `gen` and `gen v4` (one UUID, answered before the full option parser) print what
/// `gen v4 -C 1` (the general path) prints: one lower-case v4 line; same statuses for a closed
/// and an unwritable standard output.
#[test]
fn gen_one_random_uuid_as_the_general_path() {
    for args in [&["gen"][..], &["gen", "v4"], &["gen", "v4", "-C", "1"]] {
        let o = run(args, b"");
        assert_eq!(code(&o), 0, "{args:?}");
        let out = text(&o.stdout);
        let u: uuidkit::Uuid = out.trim_end().parse().expect("a UUID");
        assert_eq!((u.version_num(), out.len()), (4, 37), "{args:?}");
        assert_eq!(out.trim_end(), out.trim_end().to_lowercase());
        assert!(o.stderr.is_empty());
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(common::bin())
            .args(args)
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).starts_with("error: writing standard output"),
            "{args:?}"
        );
        let (_, status) = first_line_then_close(args, Vec::new());
        assert_eq!(status, 0, "{args:?}");
    }
}

//! The short forms on the command line: `gen --format`, `convert --to/--from`, `inspect`,
//! `sort`, with TypeID (`typeid`, `typeid:PREFIX`), ULID, base32hex, base58, base58-flickr and
//! base64url; bad input gets the LINE:COLUMN report with a caret; help, man pages and
//! completions list the forms.

use crate::common;
use common::{code, run, stderr, stdout};

/// The form names, with a line each form writes for 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
/// (RFC 9562 Appendix A.6's v7).
const FORMS: [(&str, &str); 7] = [
    ("ulid", "01FWHE4YDGFK1SHH6W1G60EECF"),
    ("base32hex", "05VI5OJPM1UC7664RG60O1PPHS"),
    ("base58", "1BihbxwwQ4NZZpKRH9JDCz"),
    ("base58-flickr", "1bHGAXWWp4nyyPjqh9idcZ"),
    ("base64url", "AX8i4nmwfMOYxNwMDAc5jw"),
    ("typeid", "01fwhe4ydgfk1shh6w1g60eecf"),
    ("typeid:user", "user_01fwhe4ydgfk1shh6w1g60eecf"),
];
const A6: &str = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";

#[test]
fn convert_writes_and_reads_every_short_form() {
    for (to, want) in FORMS {
        let o = run(&["convert", "--to", to, A6], b"");
        assert_eq!(
            (code(&o), stdout(&o)),
            (0, format!("{want}\n")),
            "{to}: {}",
            stderr(&o)
        );
        let from = to.split(':').next().unwrap();
        let o = run(
            &["convert", "--from", from, "--to", "hyphenated", want],
            b"",
        );
        assert_eq!(
            (code(&o), stdout(&o)),
            (0, format!("{A6}\n")),
            "{from}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn gen_writes_every_version_in_every_short_form() {
    for version in ["v1", "v4", "v6", "v7"] {
        for (form, example) in FORMS {
            let o = run(&["gen", version, "-C", "50", "--format", form], b"");
            assert_eq!(code(&o), 0, "{version} {form}: {}", stderr(&o));
            let out = stdout(&o);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 50);
            for l in &lines {
                assert_eq!(l.len(), example.len(), "{version} {form}: {l}");
                // Each reads back as a UUID of that version.
                let from = form.split(':').next().unwrap();
                let o = run(
                    &["convert", "--from", from, "--to", "hyphenated", "--", l],
                    b"",
                );
                let u = stdout(&o);
                assert_eq!(
                    u.as_bytes().get(14),
                    Some(&version.as_bytes()[1]),
                    "{l} -> {u}"
                );
            }
            if version == "v7" && form != "base58-flickr" && form != "base64url" {
                // These forms sort like the values: v7's creation order.
                let mut sorted = lines.clone();
                sorted.sort();
                assert_eq!(sorted, lines, "{form}");
            }
        }
    }
}

#[test]
fn bad_short_input_gets_the_line_column_report_with_a_caret() {
    let input = b"01FWHE4YDGFK1SHH6W1G60EECF\n01FWHE4YDGFK1SHH6W1G6OEECF\n";
    let o = run(&["convert", "--from", "ulid", "--to", "simple"], input);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "017f22e279b07cc398c4dc0c0c07398f\n");
    assert_eq!(
        stderr(&o),
        "error: line 2: invalid character 'O' at byte 21: Crockford's base32 has no I, L, O \
         or U (it reads I and L as 1, O as 0; U is left out)\n  01FWHE4YDGFK1SHH6W1G6OEECF\n\
         \x20                      ^\n"
    );
    let o = run(
        &["convert", "--from", "typeid", "--to", "simple"],
        b"User_01fwhe4ydgfk1shh6w1g60eecf\n",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(
        stderr(&o),
        "error: line 1: invalid character 'U' at byte 0 in a TypeID prefix: expected a-z or '_'\n  \
         User_01fwhe4ydgfk1shh6w1g60eecf\n  ^\n"
    );
    let o = run(
        &["convert", "--from", "base64url", "--to", "simple"],
        b"AX8i4nmwfMOYxNwMDAc5jw==\n",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("error: line 1: invalid length: expected 22 bytes, found 24\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_bad_typeid_prefix_in_format_is_a_usage_error() {
    for bad in ["typeid:User", "typeid:_a", "typeid:a_", "typeid:a1"] {
        let o = run(&["gen", "v7", "--format", bad], b"");
        assert_eq!(code(&o), 2, "{bad}");
        assert!(
            stderr(&o).contains("TypeID prefix"),
            "{bad}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
    }
    let o = run(&["convert", "--to", "typeid:", A6], b"");
    assert_eq!(
        (code(&o), stdout(&o)),
        (0, "01fwhe4ydgfk1shh6w1g60eecf\n".to_string())
    );
}

#[test]
fn inspect_recognises_a_typeid_and_reads_the_others_with_from() {
    let o = run(&["inspect", "user_01fwhe4ydgfk1shh6w1g60eecf"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "input:           user_01fwhe4ydgfk1shh6w1g60eecf");
    assert_eq!(lines[1], "prefix:          user");
    assert_eq!(lines[2], format!("uuid:            {A6}"));
    let o = run(
        &["inspect", "--json", "user_01fwhe4ydgfk1shh6w1g60eecf"],
        b"",
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["prefix"].as_str(), v["uuid"].as_str()),
        (Some("user"), Some(A6))
    );
    assert_eq!(v["unix_ts_ms"], 0x017F_22E2_79B0_u64);
    for (from, text) in &FORMS[..5] {
        let o = run(&["inspect", "--from", from, text], b"");
        assert_eq!(code(&o), 0, "{from}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("uuid:            {A6}\n")),
            "{from}"
        );
        assert!(!stdout(&o).contains("prefix:"));
    }
    // A malformed TypeID is reported as one.
    let o = run(&["inspect", "user_01fwhe4ydgfk1shh6w1g60eec"], b"");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("invalid length of the TypeID suffix at byte 30"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sort_keeps_the_form_read() {
    let o = run(&["gen", "v7", "-C", "20", "--format", "ulid"], b"");
    let mut lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    let want = lines.join("\n") + "\n";
    lines.reverse();
    let o = run(
        &["sort", "--from", "ulid"],
        (lines.join("\n") + "\n").as_bytes(),
    );
    assert_eq!((code(&o), stdout(&o)), (0, want));
    // TypeIDs keep their own prefixes; the order is the UUIDs'.
    let input = "b_01fwhe4ydgfk1shh6w1g60eecg\na_01fwhe4ydgfk1shh6w1g60eecf\nc_00000000000000000000000000\n";
    let o = run(&["sort", "--from", "typeid"], input.as_bytes());
    assert_eq!(
        stdout(&o),
        "c_00000000000000000000000000\na_01fwhe4ydgfk1shh6w1g60eecf\nb_01fwhe4ydgfk1shh6w1g60eecg\n"
    );
    let o = run(
        &["sort", "--from", "typeid", "--format", "hyphenated"],
        input.as_bytes(),
    );
    assert_eq!(stdout(&o).lines().nth(1), Some(A6));
}

#[test]
fn help_man_pages_and_completions_list_the_forms() {
    let help = stdout(&run(&["convert", "--help"], b""));
    for name in [
        "ulid",
        "base32hex",
        "base58",
        "base58-flickr",
        "base64url",
        "typeid",
        "typeid:PREFIX",
    ] {
        assert!(help.contains(name), "convert --help lacks {name}");
    }
    assert!(help.lines().all(|l| l.chars().count() <= 80), "{help}");
    let from = stdout(&run(&["inspect", "--help"], b""));
    assert!(
        from.contains("base58-flickr") && from.contains("typeid"),
        "{from}"
    );
    let bash = stdout(&run(&["completions", "bash"], b""));
    assert!(bash.contains("base58-flickr") && bash.contains("base64url"));
    let man = stdout(&run(&["man", "gen"], b""));
    assert!(
        man.contains("ulid") && man.contains("typeid"),
        "{}",
        &man[..200.min(man.len())]
    );
}

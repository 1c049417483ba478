//! Integration tests of the `uuidkit` binary: every command run as a real process.
//!
//! Expected values come from the specifications (RFC 9562 Appendix A and §4, RFC 4530) or are
//! computed here independently of the code under test (plain integer arithmetic), never copied
//! from the tool's own output.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use crate::common;
use common::{code, json_lines, keys_in_order, run, stderr, stdout, BIN};

// Source: RFC 9562 Appendix A.1, A.3, A.5, A.6.
const V1: &str = "C232AB00-9414-11EC-B3C8-9F6BDECED846";
const V4: &str = "919108F7-52D1-4320-9BAC-F847DB4148A8";
const V6: &str = "1EC9414C-232A-6B00-B3C8-9F6BDECED846";
const V7: &str = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F";
const NIL: &str = "00000000-0000-0000-0000-000000000000";
const MAX: &str = "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF";

/// Source: RFC 9562 Appendix A: "Tuesday, February 22, 2022 2:22:22.000000 PM GMT-05:00",
/// i.e. 19:22:22 UTC.
const VECTOR_TIME_7: &str = "2022-02-22T19:22:22.0000000Z";
const VECTOR_TIME_3: &str = "2022-02-22T19:22:22.000Z";
/// Source: RFC 9562 Appendix A: 0x1EC9414C232AB00 (138648505420000000).
const VECTOR_TICKS: u64 = 138648505420000000;

const GENERAL_KEYS: [&str; 15] = [
    "input",
    "uuid",
    "variant",
    "version",
    "kind",
    "time",
    "int",
    "urn",
    "time_low",
    "time_mid",
    "time_hi_version",
    "clock_seq_hi_variant",
    "clock_seq_low",
    "hex",
    "bytes_le",
];

/// The hyphenated text of a UUID given as 32 hex digits with or without hyphens, lower case.
fn canon(s: &str) -> String {
    let h: String = s
        .chars()
        .filter(|c| *c != '-')
        .collect::<String>()
        .to_lowercase();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

fn as_int(s: &str) -> u128 {
    u128::from_str_radix(&s.replace('-', ""), 16).expect("hex")
}

// ---- inspect ------------------------------------------------------------------------------

#[test]
fn inspect_json_v1_appendix_a1() {
    // Source: RFC 9562 Appendix A.1
    let o = run(&["inspect", "--json", V1], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let j = &json_lines(&o)[0];
    assert_eq!(j["input"], V1);
    assert_eq!(j["uuid"], canon(V1));
    assert_eq!(j["variant"], "rfc9562");
    assert_eq!(j["version"], 1);
    assert_eq!(j["kind"], "v1");
    assert_eq!(j["time"], VECTOR_TIME_7);
    assert_eq!(j["gregorian_ticks"], VECTOR_TICKS.to_string());
    // clock_seq: 0b11, 0x3C8 (the two high bits of 14, then 12 bits)
    assert_eq!(j["clock_seq"], (0b11 << 12) | 0x3C8);
    assert_eq!(j["node"], "9f:6b:de:ce:d8:46");
    assert_eq!(j["int"], as_int(V1).to_string());
    assert_eq!(j["urn"], format!("urn:uuid:{}", canon(V1)));
    assert_eq!(
        keys_in_order(stdout(&o).trim_end()),
        [
            "input",
            "uuid",
            "variant",
            "version",
            "kind",
            "time",
            "gregorian_ticks",
            "clock_seq",
            "node",
            "int",
            "urn",
            "time_low",
            "time_mid",
            "time_hi_version",
            "clock_seq_hi_variant",
            "clock_seq_low",
            "hex",
            "bytes_le"
        ]
    );
}

#[test]
fn inspect_json_v6_appendix_a5() {
    // Source: RFC 9562 Appendix A.5
    let o = run(&["inspect", "--json", V6], b"");
    assert_eq!(code(&o), 0);
    let j = &json_lines(&o)[0];
    assert_eq!(j["version"], 6);
    assert_eq!(j["kind"], "v6");
    assert_eq!(j["time"], VECTOR_TIME_7);
    assert_eq!(j["gregorian_ticks"], VECTOR_TICKS.to_string());
    assert_eq!(j["clock_seq"], (0b11 << 12) | 0x3C8);
    assert_eq!(j["node"], "9f:6b:de:ce:d8:46");
}

#[test]
fn inspect_json_v7_appendix_a6() {
    // Source: RFC 9562 Appendix A.6
    let o = run(&["inspect", "--json", V7], b"");
    assert_eq!(code(&o), 0);
    let j = &json_lines(&o)[0];
    assert_eq!(j["variant"], "rfc9562");
    assert_eq!(j["version"], 7);
    assert_eq!(j["kind"], "v7");
    assert_eq!(j["time"], VECTOR_TIME_3);
    assert_eq!(j["unix_ts_ms"], 0x017F22E279B0u64);
    assert_eq!(j["unix_ts_ms"], 1645557742000u64);
    assert_eq!(j["rand_a"], 0xCC3);
    // rand_b: 0b01, 0x8C4DC0C0C07398F; 62 bits, so a decimal string.
    let rand_b: u64 = (0b01 << 60) | 0x8C4DC0C0C07398F;
    assert_eq!(j["rand_b"], rand_b.to_string());
    assert_eq!(j["int"], as_int(V7).to_string());
    assert!(j.get("gregorian_ticks").is_none());
    assert!(j.get("node").is_none());
}

#[test]
fn inspect_json_v4_appendix_a3_has_no_time() {
    // Source: RFC 9562 Appendix A.3
    let o = run(&["inspect", "--json", V4], b"");
    assert_eq!(code(&o), 0);
    let j = &json_lines(&o)[0];
    assert_eq!(j["version"], 4);
    assert_eq!(j["kind"], "v4");
    assert!(j["time"].is_null());
    assert_eq!(keys_in_order(stdout(&o).trim_end()), GENERAL_KEYS);
}

#[test]
fn inspect_json_nil_and_max() {
    let o = run(&["inspect", "--json", NIL, MAX], b"");
    assert_eq!(code(&o), 0);
    let j = json_lines(&o);
    assert_eq!(j.len(), 2);
    // Source: RFC 9562 §5.9, §5.10, §4.1 Table 1 (Nil is of variant 0xxx, Max of 111x).
    assert_eq!(j[0]["variant"], "ncs");
    assert_eq!(j[0]["kind"], "nil");
    assert!(j[0]["version"].is_null());
    assert!(j[0]["time"].is_null());
    assert_eq!(j[0]["int"], "0");
    assert_eq!(j[1]["variant"], "future");
    assert_eq!(j[1]["kind"], "max");
    assert!(j[1]["version"].is_null());
    assert_eq!(j[1]["int"], u128::MAX.to_string());
    assert_eq!(j[1]["uuid"], canon(MAX));
    for line in stdout(&o).lines() {
        assert_eq!(keys_in_order(line), GENERAL_KEYS);
    }
}

#[test]
fn inspect_json_v2_dce_fields() {
    // A v2 UUID built by hand from the DCE 1.1 layout (/work/shared/specs/README.md): local id
    // 1000 in time_low, the time_mid and time_hi of the Appendix A timestamp, 6-bit clock
    // sequence 0x33 under variant bits 10, local domain 1 (group), the Appendix A node.
    let u = "000003e8-9414-21ec-b301-9f6bdeced846";
    let o = run(&["inspect", "--json", u], b"");
    assert_eq!(code(&o), 0);
    let j = &json_lines(&o)[0];
    assert_eq!(j["version"], 2);
    assert_eq!(j["kind"], "v2");
    assert_eq!(j["local_id"], 1000);
    assert_eq!(j["local_domain"], 1);
    assert_eq!(j["clock_seq"], 0x33);
    assert_eq!(j["node"], "9f:6b:de:ce:d8:46");
    // The coarse timestamp is the Appendix A one with its low 32 bits (0xC232AB00) zeroed:
    // 325.8100480 s earlier than 19:22:22.
    let coarse = VECTOR_TICKS - 0xC232AB00;
    assert_eq!(j["gregorian_ticks"], coarse.to_string());
    assert_eq!(j["time"], "2022-02-22T19:16:56.1899520Z");
}

#[test]
fn inspect_json_versions_outside_the_rfc_variant_are_null_and_unknown_versions_numbered() {
    // Version nibble 7 but variant 110x (Microsoft): no version, no time.
    let ms = "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f";
    // RFC variant, version 15 (undefined): version 15, kind unknown.
    let v15 = "017f22e2-79b0-fcc3-98c4-dc0c0c07398f";
    let o = run(&["inspect", "--json", ms, v15], b"");
    assert_eq!(code(&o), 0);
    let j = json_lines(&o);
    assert_eq!(j[0]["variant"], "microsoft");
    assert!(j[0]["version"].is_null());
    assert_eq!(j[0]["kind"], "unknown");
    assert!(j[0]["time"].is_null());
    assert_eq!(j[1]["variant"], "rfc9562");
    assert_eq!(j[1]["version"], 15);
    assert_eq!(j[1]["kind"], "unknown");
}

#[test]
fn inspect_json_v8_custom_fields() {
    // Source: RFC 9562 Appendix B.1
    let u = "2489E9AD-2EE2-8E00-8EC9-32D5F69181C0";
    let o = run(&["inspect", "--json", u], b"");
    let j = &json_lines(&o)[0];
    assert_eq!(j["kind"], "v8");
    assert_eq!(j["custom_a"], 0x2489E9AD2EE2u64);
    assert_eq!(j["custom_b"], 0xE00);
    // custom_c: 0b00, 0xEC932D5F69181C0
    assert_eq!(j["custom_c"], 0xEC932D5F69181C0u64.to_string());
    assert!(j["time"].is_null());
}

#[test]
fn inspect_json_bad_input_gives_error_object_and_continues() {
    let o = run(&["inspect", "--json", V7, "not-a-uuid", V1], b"");
    assert_eq!(code(&o), 1);
    let j = json_lines(&o);
    assert_eq!(j.len(), 3);
    assert_eq!(j[0]["kind"], "v7");
    assert_eq!(j[1]["input"], "not-a-uuid");
    assert!(j[1]["error"].as_str().is_some_and(|e| !e.is_empty()));
    assert_eq!(j[1]["line"], 2);
    assert_eq!(j[1]["column"], 1);
    assert!(j[1].get("uuid").is_none());
    assert_eq!(j[2]["kind"], "v1");
}

#[test]
fn inspect_text_v7_block() {
    // Source: RFC 9562 Appendix A.6
    let o = run(&["inspect", V7], b"");
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    let field = |k: &str| -> String {
        let l = lines
            .iter()
            .find(|l| l.starts_with(&format!("{k}:")))
            .unwrap_or_else(|| panic!("no {k} in {text}"));
        l[k.len() + 1..].trim().to_string()
    };
    assert_eq!(field("uuid"), canon(V7));
    assert!(field("variant").starts_with("rfc9562"));
    assert_eq!(field("version"), "7");
    assert!(field("kind").starts_with("v7"));
    assert_eq!(field("time"), VECTOR_TIME_3);
    assert!(field("unix_ts_ms").starts_with("1645557742000 "));
    assert!(field("rand_a").contains("0xcc3"));
    assert_eq!(field("int"), as_int(V7).to_string());
    // Aligned: every value starts in the same column.
    let cols: Vec<usize> = lines
        .iter()
        .map(|l| {
            let colon = l.find(':').expect("colon");
            colon + 1 + l[colon + 1..].chars().take_while(|c| *c == ' ').count()
        })
        .collect();
    assert!(cols.windows(2).all(|w| w[0] == w[1]), "{text}");
}

#[test]
fn inspect_text_blocks_are_separated_and_errors_go_to_stderr() {
    let o = run(&["inspect", V1, "zz", V6], b"");
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{text}");
    assert!(blocks[0].contains(&canon(V1)));
    assert!(blocks[1].contains(&canon(V6)));
    let err = stderr(&o);
    // The report, the input, the caret under byte 0.
    assert_eq!(
        err,
        "error: argument 2: invalid character 'z' at byte 0: expected a hexadecimal digit\n  zz\n  ^\n"
    );
}

#[test]
fn inspect_reads_stdin_when_no_arguments() {
    let input = format!("{V1}\r\n{V7}\n{NIL}");
    let o = run(&["inspect", "--json"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let j = json_lines(&o);
    assert_eq!(j.len(), 3);
    assert_eq!(j[0]["input"], V1);
    assert_eq!(j[0]["kind"], "v1");
    assert_eq!(j[1]["kind"], "v7");
    assert_eq!(j[2]["kind"], "nil");
}

#[test]
fn inspect_non_utf8_stdin_is_invalid_input_not_a_crash() {
    let mut input = b"017F22E2-79B0-7CC3-98C4-DC0C0C07398\xff\n".to_vec();
    input.extend_from_slice(V7.as_bytes());
    let o = run(&["inspect", "--json"], &input);
    assert_eq!(code(&o), 1);
    let j = json_lines(&o);
    assert_eq!(j.len(), 2);
    assert!(j[0]["input"].as_str().expect("str").ends_with('\u{FFFD}'));
    assert_eq!(j[0]["column"], 36);
    assert!(j[0]["error"].as_str().expect("str").contains("0xff"));
    assert_eq!(j[1]["kind"], "v7");
}

// ---- validate -----------------------------------------------------------------------------

#[test]
fn validate_reports_line_and_column_on_stdout() {
    let input = format!(
        "{V7}\n{}\n{{{}}}\n",
        "017F22E2-79B0-7CC3-98C4-DC0C0C07398X",
        canon(V1)
    );
    let o = run(&["validate"], input.as_bytes());
    assert_eq!(code(&o), 1);
    // The 'X' is the 36th byte: column 36.
    assert_eq!(
        stdout(&o),
        "2:36: invalid character 'X' at byte 35: expected a hexadecimal digit\n"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn validate_all_valid_exits_zero_silently() {
    let simple = V4.replace('-', "");
    let urn = format!("urn:uuid:{V6}");
    let o = run(&["validate", V1, &simple, &urn, NIL], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "");
}

#[test]
fn validate_quiet_prints_nothing() {
    let o = run(&["validate", "--quiet", V1, "nope"], b"");
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "");
}

#[test]
fn validate_argument_index_is_the_line() {
    // A hyphen missing at byte 8 of the third argument: column 9.
    let o = run(
        &["validate", V1, V7, "017F22E2079B0-7CC3-98C4-DC0C0C07398F"],
        b"",
    );
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.starts_with("3:9: "), "{out}");
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn validate_non_utf8_and_empty_lines() {
    let o = run(&["validate"], b"\xff\xfe\n\n");
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("1:1: ") && lines[0].contains("0xff"),
        "{out}"
    );
    assert!(lines[1].starts_with("2:1: "), "{out}");
}

#[test]
fn validate_one_mebibyte_line() {
    let mut input = vec![b'a'; 1 << 20];
    input.push(b'\n');
    input.extend_from_slice(V7.as_bytes());
    input.push(b'\n');
    let o = run(&["validate"], &input);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("1:"), "{out}");
    assert!(out.contains("1048576"), "{out}");
}

// ---- convert ------------------------------------------------------------------------------

/// Source: RFC 9562 §4, Figures 1, 3 and 4.
const FIG1: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
const FIG3: &str = "329800735698586629295641978511506172918";

#[test]
fn convert_to_every_form() {
    let guid_hex = {
        // Microsoft byte order: the first three fields reversed, the rest as they are.
        let h = FIG1.replace('-', "");
        let rev = |s: &str| {
            s.as_bytes()
                .chunks(2)
                .rev()
                .map(|c| std::str::from_utf8(c).expect("ascii"))
                .collect::<String>()
        };
        format!(
            "{}{}{}{}",
            rev(&h[..8]),
            rev(&h[8..12]),
            rev(&h[12..16]),
            &h[16..]
        )
    };
    assert_eq!(guid_hex, "ae4f1df8ec7dd011a76500a0c91e6bf6");
    let cases: &[(&str, String)] = &[
        ("hyphenated", FIG1.to_string()),
        ("simple", FIG1.replace('-', "")),
        ("braced", format!("{{{FIG1}}}")),
        ("urn", format!("urn:uuid:{FIG1}")),
        ("int", FIG3.to_string()),
        ("oid", format!("2.25.{FIG3}")),
        ("oid-urn", format!("urn:oid:2.25.{FIG3}")),
        ("guid-hex", guid_hex.clone()),
    ];
    let upper_input = FIG1.to_uppercase();
    for (to, want) in cases {
        let o = run(&["convert", "--to", to, &upper_input], b"");
        assert_eq!(code(&o), 0, "--to {to}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{want}\n"), "--to {to}");
        let o = run(&["convert", "--to", to, "--upper", FIG1], b"");
        let up = if *to == "urn" {
            format!("urn:uuid:{}", FIG1.to_uppercase())
        } else if to.starts_with("oid") || *to == "int" {
            want.clone()
        } else {
            want.to_uppercase()
        };
        assert_eq!(stdout(&o), format!("{up}\n"), "--to {to} --upper");
    }
}

#[test]
fn convert_round_trips_through_every_form() {
    let from_for = |to: &str| match to {
        "int" => "int",
        "oid" | "oid-urn" => "oid",
        "guid-hex" => "guid-hex",
        _ => "text",
    };
    let inputs = [FIG1, V1, V4, V6, V7, NIL, MAX];
    let stdin: String = inputs.iter().map(|s| format!("{s}\n")).collect();
    let want: String = inputs.iter().map(|s| format!("{}\n", canon(s))).collect();
    for to in [
        "hyphenated",
        "simple",
        "braced",
        "urn",
        "int",
        "oid",
        "oid-urn",
        "guid-hex",
    ] {
        for upper in [false, true] {
            let mut args = vec!["convert", "--to", to];
            if upper {
                args.push("--upper");
            }
            let there = run(&args, stdin.as_bytes());
            assert_eq!(code(&there), 0);
            let back = run(
                &["convert", "--from", from_for(to), "--to", "hyphenated"],
                &there.stdout,
            );
            assert_eq!(code(&back), 0, "{to}: {}", stderr(&back));
            assert_eq!(stdout(&back), want, "round trip through {to}");
        }
    }
}

#[test]
fn convert_bad_lines_reported_on_stderr_and_rest_converted() {
    let input = format!("{FIG3}\n0{FIG3}\n12a\n1\n");
    let o = run(
        &["convert", "--from", "int", "--to", "hyphenated"],
        input.as_bytes(),
    );
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        format!("{FIG1}\n00000000-0000-0000-0000-000000000001\n")
    );
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    // A leading zero at byte 0; an 'a' at byte 2.
    assert!(
        lines[0].starts_with("error: line 2: leading zero at byte 0"),
        "{err}"
    );
    assert_eq!(lines[2], "  ^", "{err}");
    assert!(
        lines[3].starts_with("error: line 3: invalid character 'a' at byte 2"),
        "{err}"
    );
    assert_eq!(lines[4], "  12a", "{err}");
    assert_eq!(lines[5], "    ^", "{err}");
}

#[test]
fn convert_from_oid_accepts_both_prefixes() {
    let a = format!("2.25.{FIG3}");
    let b = format!("urn:oid:2.25.{FIG3}");
    let o = run(
        &["convert", "--from", "oid", "--to", "hyphenated", &a, &b],
        b"",
    );
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), format!("{FIG1}\n{FIG1}\n"));
}

#[test]
fn convert_requires_to() {
    let o = run(&["convert", FIG1], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("--to"));
}

// ---- sort and compare ---------------------------------------------------------------------

#[test]
fn sort_orders_bytes_and_prints_canonical() {
    let input = format!(
        "{MAX}\n{}\n{NIL}\nurn:uuid:{V7}\n{{{V1}}}\n{V7}\n",
        V6.replace('-', "")
    );
    let o = run(&["sort"], input.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut want = [MAX, V6, NIL, V7, V1, V7];
    want.sort_by_key(|s| as_int(s));
    let want: String = want.iter().map(|s| format!("{}\n", canon(s))).collect();
    assert_eq!(stdout(&o), want);
}

#[test]
fn sort_unique_and_reverse() {
    let input = format!("{V7}\n{V1}\n{}\n{V6}\n", V7.to_lowercase());
    let o = run(&["sort", "--unique", "--reverse"], input.as_bytes());
    assert_eq!(code(&o), 0);
    let mut want = [V7, V1, V6];
    want.sort_by_key(|s| std::cmp::Reverse(as_int(s)));
    let want: String = want.iter().map(|s| format!("{}\n", canon(s))).collect();
    assert_eq!(stdout(&o), want);
}

#[test]
fn sort_reports_invalid_lines_and_sorts_the_rest() {
    let o = run(&["sort"], format!("{V7}\nbad\n{V6}\n").as_bytes());
    assert_eq!(code(&o), 1);
    // 0x017f... (v7) before 0x1ec9... (v6).
    assert_eq!(stdout(&o), format!("{}\n{}\n", canon(V7), canon(V6)));
    assert!(stderr(&o).starts_with("error: line 2: "), "{}", stderr(&o));
}

#[test]
fn compare_prints_minus_one_zero_one() {
    // v6 (0x1ec9...) sorts before v1 (0xc232...): byte order, not time.
    let o = run(&["compare", V6, V1], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "-1\n"));
    let o = run(&["compare", V1, V6], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "1\n"));
    let braced = format!("{{{}}}", V7.to_lowercase());
    let o = run(&["compare", V7, &braced], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "0\n"));
}

#[test]
fn compare_invalid_argument_exits_one() {
    let o = run(&["compare", V7, "xyz"], b"");
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).starts_with("error: argument 2: invalid character 'x' at byte 0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn compare_needs_two_arguments() {
    let o = run(&["compare", V7], b"");
    assert_eq!(code(&o), 2);
}

// ---- usage --------------------------------------------------------------------------------

#[test]
fn usage_errors_exit_two() {
    for args in [
        &["frobnicate"][..],
        &[][..],
        &["convert", "--to", "nope", V7][..],
        &["inspect", "--bogus"][..],
        &["sort", "--unique=yes"][..],
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version_exit_zero_with_examples() {
    let o = run(&["--version"], b"");
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("uuidkit "));
    let o = run(&["--help"], b"");
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("Examples:"));
    for sub in [
        &["inspect"][..],
        &["validate"][..],
        &["convert"][..],
        &["sort"][..],
        &["compare"][..],
        &["gen"][..],
        &["ldap"][..],
        &["ldap", "schema"][..],
        &["ldap", "match"][..],
        &["ldap", "order"][..],
        &["ldap", "add-entryuuid"][..],
    ] {
        let mut args = sub.to_vec();
        args.push("--help");
        let o = run(&args, b"");
        assert_eq!(code(&o), 0, "{args:?}");
        assert!(stdout(&o).contains("Examples:"), "{args:?}");
        assert_eq!(stderr(&o), "");
    }
}

#[test]
fn output_to_a_closed_pipe_is_not_an_error_for_readers_of_stdin() {
    // convert streams: feed many lines, read one, close the pipe.
    let mut child = Command::new(BIN)
        .args(["convert", "--to", "int"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut sin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let line = format!("{V7}\n");
        for _ in 0..200_000 {
            if sin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut sout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 10];
    sout.read_exact(&mut first).expect("some output");
    drop(sout);
    let mut err = String::new();
    let mut serr = child.stderr.take().expect("stderr");
    serr.read_to_string(&mut err).expect("stderr");
    let status = child.wait().expect("wait");
    writer.join().expect("writer");
    assert_eq!(status.code(), Some(0));
    assert_eq!(err, "");
}

// ---- ldap ---------------------------------------------------------------------------------

/// Source: RFC 4530 §2.1 (example value).
const LDAP_EXAMPLE: &str = "597ae2f6-16a6-1027-98f4-d28b5365dc14";

#[test]
fn ldap_schema_prints_rfc4530_definitions() {
    let o = run(&["ldap", "schema"], b"");
    assert_eq!(code(&o), 0);
    // Source: RFC 4530 §2.1-§2.4 (the descriptions, line-wrapped there, joined here).
    let want = "\
ldapSyntaxes: ( 1.3.6.1.1.16.1 DESC 'UUID' )
matchingRules: ( 1.3.6.1.1.16.2 NAME 'uuidMatch' SYNTAX 1.3.6.1.1.16.1 )
matchingRules: ( 1.3.6.1.1.16.3 NAME 'uuidOrderingMatch' SYNTAX 1.3.6.1.1.16.1 )
attributeTypes: ( 1.3.6.1.1.16.4 NAME 'entryUUID' DESC 'UUID of the entry' \
EQUALITY uuidMatch ORDERING uuidOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE \
NO-USER-MODIFICATION USAGE directoryOperation )
";
    assert_eq!(stdout(&o), want);
}

#[test]
fn ldap_match_is_case_insensitive_equality() {
    let upper = LDAP_EXAMPLE.to_uppercase();
    let o = run(&["ldap", "match", LDAP_EXAMPLE, &upper], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "TRUE\n"));
    let o = run(&["ldap", "match", LDAP_EXAMPLE, NIL], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "FALSE\n"));
}

#[test]
fn ldap_order_is_true_when_the_value_sorts_before_the_assertion() {
    // RFC 4517 §4.2.28 (octetStringOrderingMatch): TRUE iff the attribute value appears
    // earlier in the collation order than the assertion value.
    let o = run(&["ldap", "order", LDAP_EXAMPLE, NIL], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "TRUE\n"));
    let o = run(&["ldap", "order", NIL, LDAP_EXAMPLE], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "FALSE\n"));
    let o = run(&["ldap", "order", LDAP_EXAMPLE, LDAP_EXAMPLE], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "FALSE\n"));
}

#[test]
fn ldap_rules_reject_forms_other_than_hyphenated() {
    // RFC 4530 §2.1: values use the RFC 4122 string representation only.
    let braced = format!("{{{LDAP_EXAMPLE}}}");
    let o = run(&["ldap", "match", LDAP_EXAMPLE, &braced], b"");
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).starts_with("error: argument 2: value: braced form not accepted at byte 0"),
        "{}",
        stderr(&o)
    );
    let o = run(&["ldap", "order", "597ae2f6", LDAP_EXAMPLE], b"");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("error: argument 1: assertion: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ldap_add_entryuuid_rejects_unknown_versions_as_usage_errors() {
    let o = run(&["ldap", "add-entryuuid", "--version", "5"], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("4 or 7"), "{}", stderr(&o));
}

// ---- gen ----------------------------------------------------------------------------------

fn gen_lines(args: &[&str]) -> Vec<String> {
    let mut all = vec!["gen"];
    all.extend_from_slice(args);
    let o = run(&all, b"");
    assert_eq!(code(&o), 0, "{all:?}: {}", stderr(&o));
    assert_eq!(stderr(&o), "");
    stdout(&o).lines().map(String::from).collect()
}

#[test]
fn gen_default_is_one_v4() {
    let l = gen_lines(&[]);
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].len(), 36);
    let n = as_int(&l[0]);
    assert_eq!((n >> 76) & 0xf, 4, "version nibble");
    assert_eq!((n >> 62) & 0b11, 0b10, "variant bits");
}

#[test]
fn gen_v4_hundred_thousand_without_duplicates() {
    let l = gen_lines(&["v4", "-C", "100000"]);
    assert_eq!(l.len(), 100_000);
    let set: std::collections::HashSet<u128> = l.iter().map(|s| as_int(s)).collect();
    assert_eq!(set.len(), 100_000);
    assert!(set
        .iter()
        .all(|n| (n >> 76) & 0xf == 4 && (n >> 62) & 0b11 == 0b10));
}

#[test]
fn gen_name_based_spec_vectors() {
    // Source: RFC 9562 Appendix A.2
    assert_eq!(
        gen_lines(&["v3", "-n", "dns", "-N", "www.example.com"]),
        ["5df41881-3aed-3515-88a7-2f4a814cf09e"]
    );
    // Source: RFC 9562 Appendix A.4
    assert_eq!(
        gen_lines(&["v5", "--namespace", "@dns", "--name", "www.example.com"]),
        ["2ed6657d-e927-568b-95e1-2665a8aea6a2"]
    );
    // The namespace may be given as a UUID, the name as hex (of "www.example.com").
    assert_eq!(
        gen_lines(&[
            "v5",
            "-n",
            "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
            "--name-hex",
            "7777772e6578616d706c652e636f6d"
        ]),
        ["2ed6657d-e927-568b-95e1-2665a8aea6a2"]
    );
    // Source: RFC 9562 Appendix B.2
    assert_eq!(
        gen_lines(&[
            "v8",
            "--hash",
            "sha256",
            "-n",
            "dns",
            "-N",
            "www.example.com"
        ]),
        ["5c146b14-3c52-8afd-938a-375d0df1fbf6"]
    );
}

#[test]
fn gen_formats_and_case() {
    // Source: RFC 9562 Appendix A.4 (the v5 vector), in each output form.
    let v5 = "2ed6657d-e927-568b-95e1-2665a8aea6a2";
    let args = ["v5", "-n", "dns", "-N", "www.example.com"];
    let with = |extra: &[&str]| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        gen_lines(&a)
    };
    assert_eq!(
        with(&["--format", "simple", "--upper"]),
        [v5.replace('-', "").to_uppercase()]
    );
    assert_eq!(with(&["-f", "urn"]), [format!("urn:uuid:{v5}")]);
    assert_eq!(with(&["-f", "int"]), [as_int(v5).to_string()]);
    assert_eq!(
        with(&["-f", "oid-urn"]),
        [format!("urn:oid:2.25.{}", as_int(v5))]
    );
    assert_eq!(with(&["-C", "3"]), [v5, v5, v5]);
    assert!(with(&["-C", "0"]).is_empty());
}

#[test]
fn gen_nil_and_max() {
    assert_eq!(gen_lines(&["nil"]), [NIL.to_string()]);
    assert_eq!(gen_lines(&["max", "-U"]), [MAX.to_string()]);
}

#[test]
fn gen_rejects_flags_the_version_does_not_use() {
    for args in [
        &["gen", "v4", "--node", "random"][..],
        &["gen", "v4", "-N", "x"][..],
        &["gen", "v5", "-N", "x"][..],
        &["gen", "v5", "-n", "dns"][..],
        &["gen", "v5", "-n", "nope", "-N", "x"][..],
        &["gen", "v5", "-n", "dns", "--name-hex", "abc"][..],
        &["gen", "v5", "-n", "dns", "-N", "x", "--hash", "sha256"][..],
        &["gen", "v3", "--method", "1"][..],
        &["gen", "v9"][..],
        &["gen", "-C", "-1"][..],
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}

/// Generates with `args`, inspects the output, and checks that each UUID is of `kind`.
fn gen_then_inspect(args: &[&str], kind: &str) {
    let mut all = vec!["gen"];
    all.extend_from_slice(args);
    let g = run(&all, b"");
    assert_eq!(code(&g), 0, "{all:?}: {}", stderr(&g));
    let i = run(&["inspect", "--json"], &g.stdout);
    assert_eq!(code(&i), 0, "{all:?}: {}", stderr(&i));
    let j = json_lines(&i);
    assert!(!j.is_empty());
    for v in &j {
        assert_eq!(v["kind"], kind, "{all:?}: {v}");
    }
}

#[test]
fn gen_output_inspects_as_its_version() {
    gen_then_inspect(&["v3", "-n", "url", "-N", "https://example.com/"], "v3");
    gen_then_inspect(&["v4", "-C", "50"], "v4");
    gen_then_inspect(&["v5", "-n", "x500", "-N", "cn=x"], "v5");
    gen_then_inspect(&["v8", "-C", "50"], "v8");
    for h in ["sha256", "sha512", "sha3-256", "shake128"] {
        gen_then_inspect(&["v8", "--hash", h, "-n", "oid", "-N", "1.2.3"], "v8");
    }
    gen_then_inspect(&["nil"], "nil");
    gen_then_inspect(&["max"], "max");
    gen_then_inspect(&["v1", "-C", "50"], "v1");
    gen_then_inspect(&["v2", "-C", "5"], "v2");
    gen_then_inspect(&["v6", "-C", "50"], "v6");
    gen_then_inspect(&["v7", "-C", "50"], "v7");
    for m in ["1", "2", "3"] {
        gen_then_inspect(&["v7", "--method", m, "-C", "50"], "v7");
    }
    gen_then_inspect(&["v8", "-C", "50"], "v8");
}

fn assert_strictly_increasing(lines: &[String]) {
    let ints: Vec<u128> = lines.iter().map(|s| as_int(s)).collect();
    if let Some(i) = ints.windows(2).position(|w| w[0] >= w[1]) {
        panic!("not increasing at {i}: {} then {}", lines[i], lines[i + 1]);
    }
}

#[test]
fn gen_v7_hundred_thousand_strictly_sorted_and_unique() {
    let l = gen_lines(&["v7", "-C", "100000"]);
    assert_eq!(l.len(), 100_000);
    // Strictly increasing implies unique.
    assert_strictly_increasing(&l);
    assert!(l.iter().all(|s| (as_int(s) >> 76) & 0xf == 7));
}

#[test]
fn gen_sortable_versions_and_methods_stay_sorted() {
    for args in [
        &["v6", "-C", "20000"][..],
        &["v8", "-C", "20000"][..],
        &["v7", "--method", "1", "--counter-bits", "12", "-C", "20000"][..],
        &["v7", "--method", "2", "-C", "20000"][..],
        &["v7", "--method", "3", "-C", "20000"][..],
        &["v7", "--method", "3", "--counter-bits", "12", "-C", "20000"][..],
        &["v7", "--time", "2022-02-22T19:22:22Z", "-C", "20000"][..],
    ] {
        let l = gen_lines(args);
        assert_eq!(l.len(), 20_000, "{args:?}");
        assert_strictly_increasing(&l);
    }
}

#[test]
fn gen_v1_and_v6_at_the_appendix_a_instant_and_node() {
    // Source: RFC 9562 Appendix A: 2:22:22 PM GMT-05:00 and node 9F6BDECED846; the clock
    // sequence is random here, so only the time and node fields are compared.
    for (v, prefix) in [("v1", "c232ab00-9414-11ec-"), ("v6", "1ec9414c-232a-6b00-")] {
        let l = gen_lines(&[
            v,
            "--time",
            "2022-02-22T14:22:22-05:00",
            "--node",
            "9f:6b:de:ce:d8:46",
            "-C",
            "3",
        ]);
        assert!(l[0].starts_with(prefix), "{v}: {}", l[0]);
        assert!(l[0].ends_with("-9f6bdeced846"), "{v}: {}", l[0]);
        let i = run(&["inspect", "--json"], l.join("\n").as_bytes());
        let j = json_lines(&i);
        assert_eq!(j[0]["time"], VECTOR_TIME_7);
        assert_eq!(j[0]["gregorian_ticks"], VECTOR_TICKS.to_string());
        // The same clock reading: the following UUIDs take the following ticks.
        assert_eq!(j[1]["gregorian_ticks"], (VECTOR_TICKS + 1).to_string());
        assert_eq!(j[2]["gregorian_ticks"], (VECTOR_TICKS + 2).to_string());
    }
}

#[test]
fn gen_v1_random_node_has_the_multicast_bit() {
    for l in gen_lines(&["v1", "-C", "5", "--node", "random"]) {
        let node_first_octet = u8::from_str_radix(&l[24..26], 16).expect("hex");
        // Source: RFC 9562 §6.10
        assert_eq!(node_first_octet & 1, 1, "{l}");
    }
}

#[test]
fn gen_v7_at_a_given_time() {
    // Source: RFC 9562 Appendix A.6: 0x017F22E279B0 is 2022-02-22 2:22:22.00 PM GMT-05:00.
    let l = gen_lines(&["v7", "--time", "2022-02-22T19:22:22Z", "-C", "2"]);
    for s in &l {
        assert!(s.starts_with("017f22e2-79b0-7"), "{s}");
    }
}

#[test]
fn gen_v2_domain_and_local_id() {
    let l = gen_lines(&["v2", "--domain", "group", "--local-id", "100", "-C", "3"]);
    let i = run(&["inspect", "--json"], l.join("\n").as_bytes());
    let j = json_lines(&i);
    assert_eq!(j.len(), 3);
    for v in &j {
        assert_eq!(v["kind"], "v2");
        assert_eq!(v["local_domain"], 1);
        assert_eq!(v["local_id"], 100);
    }
    let set: std::collections::HashSet<&String> = l.iter().collect();
    assert_eq!(set.len(), 3, "{l:?}");
}

/// Where the generator service cannot run (it needs Unix sockets), `serve`, `state` and
/// `gen --system` still parse and say so in a sentence naming the platform, with status 2
/// (not clap's "unrecognized subcommand"), and are left out of the help.
#[cfg(windows)]
#[test]
fn service_commands_say_they_are_unix_only() {
    for (args, what) in [
        (&["serve"][..], "uuidkit serve"),
        (&["serve", "--foreground"][..], "uuidkit serve"),
        (&["state", "show", "state-file"][..], "uuidkit state"),
        (&["gen", "v7", "--system"][..], "uuidkit gen --system"),
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        let want = format!("{what} is not available on Windows: the generator service");
        assert!(stderr(&o).contains(&want), "{args:?}: {}", stderr(&o));
    }
    let help = stdout(&run(&["--help"], b""));
    assert!(
        !help.contains("serve") && !help.contains("  state"),
        "{help}"
    );
    let help = stdout(&run(&["gen", "--help"], b""));
    assert!(
        !help.contains("--system") && !help.contains("--socket"),
        "{help}"
    );
}

/// Without --local-id, every v2 UUID of a run carries the current user's (person) or group's
/// id, as `id -u` / `id -g` print it, also past the first batch.
#[cfg(unix)]
#[test]
fn gen_v2_defaults_to_the_current_user_and_group() {
    for (domain, domain_no, id_flag) in [("person", 0, "-u"), ("group", 1, "-g")] {
        let id = Command::new("id").arg(id_flag).output().expect("run id");
        let want: u64 = String::from_utf8_lossy(&id.stdout)
            .trim()
            .parse()
            .expect("id prints a number");
        let l = gen_lines(&["v2", "--domain", domain, "-C", "600"]);
        let i = run(&["inspect", "--json"], l.join("\n").as_bytes());
        let j = json_lines(&i);
        assert_eq!(j.len(), 600);
        for v in &j {
            assert_eq!(v["local_domain"], domain_no, "{domain}: {v}");
            assert_eq!(v["local_id"], want, "{domain}: {v}");
        }
    }
}

#[test]
fn gen_time_out_of_the_layout_range_fails_with_status_two() {
    // v1/v6 time starts at 1582-10-15 (RFC 9562 §5.1); v7 at the Unix epoch (§5.7).
    for args in [
        &["gen", "v1", "--time", "1500-01-01T00:00:00Z"][..],
        &["gen", "v7", "--time", "1969-12-31T23:59:59Z"][..],
        &["gen", "v7", "--time", "yesterday"][..],
        &["gen", "v7", "--method", "4"][..],
        &["gen", "v7", "--counter-bits", "43"][..],
        &["gen", "v2", "--domain", "org"][..],
        &["gen", "v1", "--node", "01:02:03"][..],
    ] {
        let o = run(args, b"");
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn gen_into_a_closed_pipe_exits_zero_quietly() {
    // As `uuidkit gen -C 100000000 | head -1`.
    let mut child = Command::new(BIN)
        .args(["gen", "-C", "100000000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut sout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 37];
    sout.read_exact(&mut first).expect("one line");
    assert_eq!(first[36], b'\n');
    drop(sout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0));
    assert_eq!(err, "");
}

#[test]
fn closed_standard_input_reads_as_empty() {
    // With standard input closed, `validate` reads nothing (no error), as a program started by
    // Rust's own runtime; with standard output closed too, nothing is written, so no error.
    for redirect in ["<&- >&-", "<&-"] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" validate {redirect}"))
            .arg(BIN)
            .output()
            .expect("run sh");
        assert_eq!(o.status.code(), Some(0), "{redirect}: {o:?}");
        assert_eq!(stderr(&o), "", "{redirect}");
    }
}

/// Runs `program args` (argv[0] `argv0`) with standard output closed, or open only for reading
/// with `read_only`, and returns its status and standard error. A run still going after 60 s
/// is killed and fails the test (before: `uuidgen -C 4294967295 >&-` wrote every UUID to
/// /dev/null for 25 s and exited 0).
#[cfg(unix)]
fn without_stdout(
    program: &std::path::Path,
    args: &[&str],
    read_only: bool,
) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new(program);
    c.args(args).stdin(Stdio::null()).stderr(Stdio::piped());
    if read_only {
        c.stdout(std::fs::File::open("/dev/null").expect("open /dev/null"));
    } else {
        // SAFETY: close is async-signal-safe; it closes the child's descriptor 1 only.
        unsafe {
            c.pre_exec(|| {
                libc::close(1);
                Ok(())
            });
        }
    }
    let mut child = c.spawn().expect("spawn");
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if t.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} with standard output closed still ran after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    (status.code(), err)
}

/// Issue 28: a write to a closed standard output (EBADF), or to one open only for reading, is
/// a failed write: status 2 at once and a message, for uuidkit and its uuidgen and uuidparse
/// personalities (util-linux gives 1; the README lists the difference). A closed pipe stays quiet (see
/// `gen_into_a_closed_pipe_exits_zero_quietly`).
#[cfg(unix)]
#[test]
fn a_closed_standard_output_is_a_write_error_with_status_2() {
    let dir = std::env::temp_dir().join(format!("uk-closed-stdout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let uuidgen = dir.join("uuidgen");
    let uuidparse = dir.join("uuidparse");
    let _ = std::fs::remove_file(&uuidgen);
    let _ = std::fs::remove_file(&uuidparse);
    std::os::unix::fs::symlink(BIN, &uuidgen).expect("link uuidgen");
    std::os::unix::fs::symlink(BIN, &uuidparse).expect("link uuidparse");
    let bin = std::path::Path::new(BIN);
    let cases: &[(&std::path::Path, &[&str], i32)] = &[
        (bin, &["gen", "-C", "4294967295"], 2),
        (bin, &["gen", "v7", "-C", "4294967295"], 2),
        // The one-UUID path, which skips the parser.
        (bin, &["gen"], 2),
        (bin, &["inspect", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], 2),
        (bin, &["--help"], 2),
        (bin, &["--version"], 2),
        (&uuidgen, &["-C", "4294967295"], 2),
        (&uuidgen, &[], 2),
        (&uuidgen, &["--help"], 2),
        (&uuidparse, &["--version"], 2),
        (&uuidparse, &["017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], 2),
    ];
    for &(program, args, want) in cases {
        for read_only in [false, true] {
            let (status, err) = without_stdout(program, args, read_only);
            let what = format!("{} {args:?} (read-only: {read_only})", program.display());
            assert_eq!(status, Some(want), "{what}: {err}");
            assert!(
                err.contains("standard output is closed, or not open for writing"),
                "{what}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{what}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const LDIF: &str = "\
version: 1

dn: cn=a,dc=example
cn: a

dn: cn=b,dc=example
entryUUID: 597AE2F6-16A6-1027-98F4-D28B5365DC14

dn: cn=c,dc=example
changetype: modify
replace: cn
cn: c

dn: cn=d,dc=example
changetype: add
cn: d
";

/// The lines `add-entryuuid` added: those of the output that are not in the input.
fn added_lines(input: &str, output: &str) -> Vec<String> {
    let mut inp = input.lines().peekable();
    let mut added = Vec::new();
    for l in output.lines() {
        if inp.peek() == Some(&l) {
            inp.next();
        } else {
            added.push(l.to_string());
        }
    }
    assert_eq!(inp.next(), None, "input lines missing from the output");
    added
}

#[test]
fn ldap_add_entryuuid_v4_adds_to_entries_without_one() {
    let o = run(&["ldap", "add-entryuuid"], LDIF.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let added = added_lines(LDIF, &out);
    // cn=a (content record) and cn=d (changetype: add); not cn=b (has one), not cn=c (modify).
    assert_eq!(added.len(), 2, "{out}");
    for l in &added {
        let u = l.strip_prefix("entryUUID: ").expect("an entryUUID line");
        assert_eq!((as_int(u) >> 76) & 0xf, 4, "{l}");
    }
    assert!(out.contains("cn: a\nentryUUID: "), "{out}");
    assert!(out.contains("cn: d\nentryUUID: "), "{out}");
    assert_ne!(added[0], added[1]);
}

#[test]
fn ldap_add_entryuuid_v7_values_increase() {
    let input: String = (0..200)
        .map(|i| format!("dn: cn={i}\ncn: {i}\n\n"))
        .collect();
    let o = run(
        &["ldap", "add-entryuuid", "--version", "7"],
        input.as_bytes(),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let added: Vec<String> = added_lines(&input, &stdout(&o))
        .iter()
        .map(|l| {
            l.strip_prefix("entryUUID: ")
                .expect("entryUUID")
                .to_string()
        })
        .collect();
    assert_eq!(added.len(), 200);
    assert!(added.iter().all(|u| (as_int(u) >> 76) & 0xf == 7));
    assert_strictly_increasing(&added);
}

#[test]
fn ldap_add_entryuuid_bad_value_names_dn_and_line() {
    let input = "dn: cn=ok\n\ndn: cn=bad,dc=example\ncn: bad\nentryUUID: not-a-uuid\n";
    let o = run(&["ldap", "add-entryuuid"], input.as_bytes());
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("line 5"), "{err}");
    assert!(err.contains("cn=bad,dc=example"), "{err}");
    // The entry before the bad one was written.
    assert!(
        stdout(&o).starts_with("dn: cn=ok\nentryUUID: "),
        "{}",
        stdout(&o)
    );
}

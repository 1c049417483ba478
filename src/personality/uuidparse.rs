//! `uuidparse`: util-linux's uuidparse (2.38): a table (or raw lines, or JSON) of the UUID,
//! VARIANT, TYPE and TIME of each argument, or of each whitespace-separated token of standard
//! input, with its column names, JSON keys and time format (`2017-06-18 19:21:46,544647+02:00`,
//! in the local zone of TZ).
//!
//! Where util-linux 2.38 is wrong, the right value is written (listed in `--help` and the
//! README): TYPE of version 6, 7 and 8 UUIDs (`time-v6`, `time-v7`, `vendor`, the names of
//! later util-linux) and of the Max UUID (`max`); TIME of v6 and v7; TIME before 1970 (2.38
//! prints a year past 60000). Everything else, its quirks included (TYPE read from the version
//! nibble whatever the variant; tokens of standard input cut into pieces of 36 bytes; the last
//! token dropped when no whitespace follows it), is as 2.38 does it.

use std::ffi::OsString;
use std::io::Read;
use std::process::ExitCode;

use uuidkit::{Uuid, Variant, Version};

use super::getopt::{options, print, print_version, Opt};

const OPTIONS: &[Opt] = &[
    Opt::flag(b'J', "json"),
    Opt::flag(b'n', "noheadings"),
    Opt::valued(b'o', "output"),
    Opt::flag(b'r', "raw"),
    Opt::flag(b'V', "version"),
    Opt::flag(b'h', "help"),
];

const HELP: &str = "
Usage:
 uuidparse [options] <uuid ...>

Options:
 -J, --json             use JSON output format
 -n, --noheadings       don't print headings
 -o, --output <list>    COLUMNS to display (see below)
 -r, --raw              use the raw output format
 -h, --help             display this help
 -V, --version          display version

Available output columns:
     UUID  unique identifier
  VARIANT  variant name
     TYPE  type name
     TIME  timestamp

This is uuidkit running as util-linux's uuidparse. It differs from util-linux 2.38 where
that is wrong:
  TYPE  version 6, 7 and 8 UUIDs (RFC 9562 variant): time-v6, time-v7, vendor (2.38: unknown)
  TYPE  the Max UUID ffffffff-ffff-ffff-ffff-ffffffffffff: max (2.38: unknown)
  TIME  v6 and v7 UUIDs: their time (2.38: empty)
  TIME  v1 times before 1970: the right date (2.38: a year past 60000)
and besides: on a terminal, long columns are not truncated; column widths follow the cells
(a TYPE column with max but no unknown can be narrower); a non-ASCII UTF-8 character counts
as one column; -V names uuidkit. The README section \"Drop-in for uuidgen and uuidparse\"
lists every difference.
";

/// The columns, with their header and libsmartcols width hint (as uuidparse declares them).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Col {
    Uuid,
    Variant,
    Type,
    Time,
}

impl Col {
    const ALL: [Col; 4] = [Col::Uuid, Col::Variant, Col::Type, Col::Time];

    fn name(self) -> &'static str {
        match self {
            Col::Uuid => "UUID",
            Col::Variant => "VARIANT",
            Col::Type => "TYPE",
            Col::Time => "TIME",
        }
    }

    fn hint(self) -> usize {
        match self {
            Col::Uuid => 37,
            Col::Variant => 9,
            Col::Type => 10,
            Col::Time => 31,
        }
    }
}

/// Output style.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Table,
    Raw,
    Json,
}

/// Runs uuidparse with `argv` (argv[0] included).
pub fn main(argv: Vec<OsString>) -> ExitCode {
    let prog = "uuidparse";
    let parsed = match options(argv, prog, OPTIONS) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let (mut json, mut raw, mut headings) = (false, false, true);
    let mut output: Option<OsString> = None;
    for o in parsed.opts {
        match o.short {
            b'J' | b'r' => {
                if (o.short == b'J' && raw) || (o.short == b'r' && json) {
                    eprintln!("{prog}: mutually exclusive arguments: --json --raw");
                    return ExitCode::from(1);
                }
                if o.short == b'J' {
                    json = true;
                } else {
                    raw = true;
                }
            }
            b'n' => headings = false,
            b'o' => output = o.value,
            b'V' => return print_version(prog),
            b'h' => return print(HELP.as_bytes()),
            _ => {}
        }
    }
    let columns = match output {
        None => Col::ALL.to_vec(),
        Some(list) => match columns(list.as_encoded_bytes()) {
            Ok(c) => c,
            Err(None) => return ExitCode::from(1),
            Err(Some(unknown)) => {
                eprintln!("{prog}: unknown column: {unknown}");
                return ExitCode::from(1);
            }
        },
    };
    let tokens: Vec<Vec<u8>> = if parsed.operands.is_empty() {
        let mut input = Vec::new();
        if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
            eprintln!("{prog}: read error: {e}");
            return ExitCode::from(1);
        }
        stdin_tokens(&input)
    } else {
        parsed
            .operands
            .iter()
            .map(|a| a.as_encoded_bytes().to_vec())
            .collect()
    };
    let rows: Vec<Vec<Option<String>>> = tokens
        .iter()
        .map(|t| columns.iter().map(|&c| cell(t, c)).collect())
        .collect();
    let style = if json {
        Style::Json
    } else if raw {
        Style::Raw
    } else {
        Style::Table
    };
    print(&render(style, headings, &columns, &tokens, &rows))
}

/// The columns of `-o LIST`, read as util-linux's `string_to_idarray` reads it (names in any
/// case, comma-separated, at most 8). `Err(Some(rest))` names an unknown column as uuidparse
/// does (from the unknown name to the end of the list); `Err(None)` is a failure it reports
/// silently (an empty list or name, too many columns).
fn columns(list: &[u8]) -> Result<Vec<Col>, Option<String>> {
    const MAX: usize = 8;
    if list.is_empty() {
        return Err(None);
    }
    let mut cols = Vec::new();
    let mut begin: Option<usize> = None;
    for p in 0..list.len() {
        if cols.len() >= MAX {
            return Err(None);
        }
        let b = *begin.get_or_insert(p);
        let mut end = None;
        if list[p] == b',' {
            end = Some(p);
        }
        if p + 1 == list.len() {
            end = Some(p + 1);
        }
        let Some(end) = end else { continue };
        if end <= b {
            return Err(None);
        }
        let name = &list[b..end];
        match Col::ALL
            .iter()
            .find(|c| c.name().as_bytes().eq_ignore_ascii_case(name))
        {
            Some(&c) => cols.push(c),
            None => return Err(Some(String::from_utf8_lossy(&list[b..]).into_owned())),
        }
        begin = None;
    }
    Ok(cols)
}

/// The tokens of standard input as uuidparse's `scanf(" %36[^ \t\n]%*c")` loop takes them:
/// white space is skipped, then up to 36 bytes other than space, tab and newline make a token,
/// and the byte after it is dropped (so a longer token loses its 37th byte and goes on as a new
/// token). A token that reaches the end of the input, with no byte after it, is not used. A
/// token is cut at a NUL byte, as the C string it is read into.
fn stdin_tokens(input: &[u8]) -> Vec<Vec<u8>> {
    let mut tokens = Vec::new();
    let mut at = 0;
    loop {
        while at < input.len() && matches!(input[at], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
            at += 1;
        }
        if at >= input.len() {
            break;
        }
        let start = at;
        while at < input.len() && at - start < 36 && !matches!(input[at], b' ' | b'\t' | b'\n') {
            at += 1;
        }
        let token = &input[start..at];
        if at >= input.len() {
            break;
        }
        at += 1;
        let token = match token.iter().position(|&b| b == 0) {
            Some(nul) => &token[..nul],
            None => token,
        };
        tokens.push(token.to_vec());
    }
    tokens
}

/// A token as libuuid's `uuid_parse` takes it: hyphenated only, hex digits of either case.
fn parse(token: &[u8]) -> Option<Uuid> {
    if token.len() != 36 {
        return None;
    }
    Uuid::try_parse_ascii(token).ok()
}

/// The value of column `c` for `token`; `None` is an empty cell.
fn cell(token: &[u8], c: Col) -> Option<String> {
    let u = parse(token);
    let text = match (c, u) {
        (Col::Uuid, _) => return Some(String::from_utf8_lossy(token).into_owned()),
        (_, None) => "invalid",
        (Col::Variant, Some(u)) => match u.variant() {
            Variant::Ncs => "NCS",
            Variant::Rfc9562 => "DCE",
            Variant::Microsoft => "Microsoft",
            Variant::Future => "other",
        },
        (Col::Type, Some(u)) => type_name(&u),
        (Col::Time, Some(u)) => return time(&u),
    };
    Some(text.to_string())
}

/// TYPE: the name of the version nibble, whatever the variant (as 2.38), except that v6, v7
/// and v8 of the RFC 9562 variant and the Max UUID get their names.
fn type_name(u: &Uuid) -> &'static str {
    let rfc = u.variant() == Variant::Rfc9562;
    match u.version_num() {
        _ if u.is_max() => "max",
        0 if u.is_nil() => "nil",
        1 => "time-based",
        2 => "DCE",
        3 => "name-based",
        4 => "random",
        5 => "sha1-based",
        6 if rfc => "time-v6",
        7 if rfc => "time-v7",
        8 if rfc => "vendor",
        _ => "unknown",
    }
}

/// TIME of a v1, v6 or v7 UUID of the RFC 9562 variant, in the local zone, to the
/// microsecond (truncated, as libuuid's `uuid_time`).
fn time(u: &Uuid) -> Option<String> {
    if u.variant() != Variant::Rfc9562 {
        return None;
    }
    if !matches!(
        u.version(),
        Some(Version::Mac | Version::SortMac | Version::SortRand)
    ) {
        return None;
    }
    let t = u.timestamp()?;
    Some(local_time(t.unix_seconds(), t.subsec_nanos() / 1000))
}

/// `YYYY-MM-DD HH:MM:SS,uuuuuu+HH:MM` in the local zone, as util-linux's `strtimeval_iso`
/// with `ISO_TIMESTAMP_COMMA` writes it (the offset's seconds, where a zone has them, are
/// dropped as it drops them).
fn local_time(secs: i64, micros: u32) -> String {
    let off = crate::sys::utc_offset(secs);
    let local = secs + off;
    let days = local.div_euclid(86_400);
    let sod = local.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let sign = if off >= 0 { '+' } else { '-' };
    let a = off.abs();
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02},{micros:06}{sign}{:02}:{:02}",
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        a / 3600,
        a % 3600 / 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A cell as libsmartcols shows it in a table: control characters and bytes that are not
/// UTF-8 as `\xNN`; returns the text and its width.
fn table_text(s: &[u8]) -> (String, usize) {
    let mut out = String::new();
    let mut width = 0;
    for chunk in s.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if ch.is_control() {
                out.push_str(&format!("\\x{:02x}", u32::from(ch)));
                width += 4;
            } else {
                out.push(ch);
                width += 1;
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
            width += 4;
        }
    }
    (out, width)
}

/// A cell as libsmartcols writes it in raw output: also white space, `\` and every byte
/// outside printable ASCII as `\xNN`.
fn raw_text(s: &[u8]) -> String {
    let mut out = String::new();
    for &b in s {
        if b.is_ascii_graphic() && b != b'\\' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// A JSON string as libsmartcols writes it: `"` and `\` escaped, control characters as
/// `\b \f \n \r \t` or `\u00XX`, other bytes as they are.
fn json_text(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for &b in s {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0..=0x1f => out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
            _ => out.push(b),
        }
    }
    out.push(b'"');
}

/// The whole output. The UUID column shows the token as given; the other cells are ASCII.
fn render(
    style: Style,
    headings: bool,
    cols: &[Col],
    tokens: &[Vec<u8>],
    rows: &[Vec<Option<String>>],
) -> Vec<u8> {
    let bytes_of = |row: usize, i: usize| -> &[u8] {
        match cols[i] {
            Col::Uuid => &tokens[row],
            _ => rows[row][i].as_deref().map_or(&[][..], str::as_bytes),
        }
    };
    let mut out = Vec::new();
    match style {
        Style::Json => {
            out.extend_from_slice(b"{\n   \"uuids\": [\n");
            if rows.is_empty() {
                out.push(b'\n');
            }
            for (r, row) in rows.iter().enumerate() {
                out.extend_from_slice(if r == 0 { b"      {\n" } else { b"},{\n" });
                for (i, c) in cols.iter().enumerate() {
                    out.extend_from_slice(b"         \"");
                    out.extend_from_slice(c.name().to_ascii_lowercase().as_bytes());
                    out.extend_from_slice(b"\": ");
                    let empty = c != &Col::Uuid && row[i].is_none();
                    if empty {
                        out.extend_from_slice(b"null");
                    } else {
                        json_text(&mut out, bytes_of(r, i));
                    }
                    out.extend_from_slice(if i + 1 < cols.len() { b",\n" } else { b"\n" });
                }
                out.extend_from_slice(b"      ");
            }
            if !rows.is_empty() {
                out.extend_from_slice(b"}\n");
            }
            out.extend_from_slice(b"   ]\n}\n");
        }
        Style::Raw => {
            if rows.is_empty() {
                return out;
            }
            if headings {
                let names: Vec<&str> = cols.iter().map(|c| c.name()).collect();
                out.extend_from_slice(names.join(" ").as_bytes());
                out.push(b'\n');
            }
            for r in 0..rows.len() {
                let cells: Vec<String> =
                    (0..cols.len()).map(|i| raw_text(bytes_of(r, i))).collect();
                out.extend_from_slice(cells.join(" ").as_bytes());
                out.push(b'\n');
            }
        }
        Style::Table => {
            if rows.is_empty() {
                return out;
            }
            let cells: Vec<Vec<(String, usize)>> = (0..rows.len())
                .map(|r| {
                    (0..cols.len())
                        .map(|i| table_text(bytes_of(r, i)))
                        .collect()
                })
                .collect();
            // libsmartcols: at least the header's width; a column whose data is as wide as
            // the header or wider is widened to its hint.
            let widths: Vec<usize> = cols
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let header = c.name().len();
                    let data = cells.iter().map(|row| row[i].1).max().unwrap_or(0);
                    if data < header {
                        header
                    } else {
                        data.max(c.hint())
                    }
                })
                .collect();
            let line = |out: &mut Vec<u8>, row: &[(String, usize)]| {
                for (i, (text, w)) in row.iter().enumerate() {
                    out.extend_from_slice(text.as_bytes());
                    if i + 1 < row.len() {
                        out.resize(out.len() + widths[i].saturating_sub(*w) + 1, b' ');
                    }
                }
                out.push(b'\n');
            };
            if headings {
                let head: Vec<(String, usize)> = cols
                    .iter()
                    .map(|c| (c.name().to_string(), c.name().len()))
                    .collect();
                line(&mut out, &head);
            }
            for row in &cells {
                line(&mut out, row);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_as_scanf_reads_them() {
        let t = stdin_tokens(b"  a\tb\r\n\nc\x0bd \n");
        assert_eq!(t, [b"a".to_vec(), b"b\r".to_vec(), b"c\x0bd".to_vec()]);
        // The last token without a byte after it is dropped.
        assert_eq!(stdin_tokens(b"a b"), [b"a".to_vec()]);
        // 36 bytes, the 37th dropped, the rest a new token.
        let long: Vec<u8> = (0..40u8).map(|i| b'0' + i % 10).collect();
        let mut input = long.clone();
        input.push(b'\n');
        let t = stdin_tokens(&input);
        assert_eq!(t, [long[..36].to_vec(), long[37..].to_vec()]);
    }

    #[test]
    fn column_lists() {
        assert!(matches!(
            columns(b"time,Uuid").as_deref(),
            Ok([Col::Time, Col::Uuid])
        ));
        assert_eq!(columns(b"UUID,").err(), Some(Some("UUID,".into())));
        assert_eq!(columns(b"FOO,UUID").err(), Some(Some("FOO,UUID".into())));
        assert_eq!(columns(b",UUID").err(), Some(None));
        assert_eq!(columns(b"").err(), Some(None));
        assert_eq!(columns(b"UU").err(), Some(Some("UU".into())));
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-141_427), (1582, 10, 15));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(2_932_896), (9999, 12, 31));
        assert_eq!(civil_from_days(2_932_897), (10000, 1, 1));
    }
}

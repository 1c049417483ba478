//! `uuidgen`: util-linux's uuidgen (the options of 2.41, which added `-C/--count`,
//! `-6/--time-v6` and `-7/--time-v7` to those of 2.38). The options are checked as uuidgen
//! checks them, with its messages and exit status 1; the UUIDs are then made by `uuidkit gen`
//! itself, run with the equivalent arguments, so that there is one generator.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser;

use super::getopt::{options, print, print_version, usage_failure, Opt};

const OPTIONS: &[Opt] = &[
    Opt::flag(b'r', "random"),
    Opt::flag(b't', "time"),
    Opt::flag(b'V', "version"),
    Opt::flag(b'h', "help"),
    Opt::valued(b'n', "namespace"),
    Opt::valued(b'N', "name"),
    Opt::flag(b'm', "md5"),
    Opt::valued(b'C', "count"),
    Opt::flag(b's', "sha1"),
    Opt::flag(b'x', "hex"),
    Opt::flag(b'7', "time-v7"),
    Opt::flag(b'6', "time-v6"),
];

const HELP: &str = "
Usage:
 uuidgen [options]

Create a new UUID value.

Options:
 -r, --random        generate random-based uuid
 -t, --time          generate time-based uuid
 -n, --namespace ns  generate hash-based uuid in this namespace
                       available namespaces: @dns @url @oid @x500
 -N, --name name     generate hash-based uuid from this name
 -m, --md5           generate md5 hash
 -s, --sha1          generate sha1 hash
 -x, --hex           interpret name as hex string
 -6, --time-v6       generate time-based v6 uuid
 -7, --time-v7       generate time-based v7 uuid
 -C, --count num     generate more uuids in loop

 -h, --help          display this help
 -V, --version       display version

This is uuidkit running as util-linux's uuidgen, with the options of util-linux 2.41.
It differs from util-linux 2.38:
  -t             v1 with a random node (multicast bit set), never the network card's address
  -6, -7, -C     added (as in 2.41); so --tim is ambiguous (2.38: --time)
  -C N           a long run into a pipe shows uuidkit's progress line on a terminal's stderr
  write errors   status 2 (2.38: 1); a closed pipe ends quietly with 0
  -V             names uuidkit
The README section \"Drop-in for uuidgen and uuidparse\" lists every difference.
";

/// What kind of UUID to make (the last of -r, -t, -m, -s, -6, -7 wins, as in uuidgen).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Type {
    Default,
    Random,
    Time,
    TimeV6,
    TimeV7,
    Md5,
    Sha1,
}

/// Runs uuidgen with `argv` (argv[0] included).
pub fn main(argv: Vec<OsString>) -> ExitCode {
    let prog = "uuidgen";
    let parsed = match options(argv, prog, OPTIONS) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let mut kind = Type::Default;
    let mut namespace: Option<OsString> = None;
    let mut name: Option<OsString> = None;
    let mut hex = false;
    let mut count: u32 = 1;
    for o in parsed.opts {
        match o.short {
            b'r' => kind = Type::Random,
            b't' => kind = Type::Time,
            b'6' => kind = Type::TimeV6,
            b'7' => kind = Type::TimeV7,
            b'm' => kind = Type::Md5,
            b's' => kind = Type::Sha1,
            b'x' => hex = true,
            b'n' => namespace = o.value,
            b'N' => name = o.value,
            b'C' => {
                let v = o.value.unwrap_or_default();
                match parse_u32(&v.to_string_lossy()) {
                    Some(n) => count = n,
                    None => {
                        return usage_failure(
                            prog,
                            prog,
                            &format!("invalid count argument: '{}'", v.to_string_lossy()),
                        )
                    }
                }
            }
            b'V' => return print_version(prog),
            b'h' => return print(HELP.as_bytes()),
            _ => {}
        }
    }
    let hashed = matches!(kind, Type::Md5 | Type::Sha1);
    let fail = |msg: &str| usage_failure(prog, prog, msg);
    match (&namespace, &name) {
        (Some(_), None) => return fail("--namespace requires --name argument"),
        (Some(_), Some(_)) if !hashed => return fail("--namespace requires --md5 or --sha1"),
        (None, Some(_)) => return fail("--name requires --namespace argument"),
        (None, None) if hashed => return fail("--md5 or --sha1 requires --namespace argument"),
        _ => {}
    }

    let mut g: Vec<OsString> = ["uuidkit", "gen"].map(OsString::from).to_vec();
    let version = match kind {
        Type::Default | Type::Random => "v4",
        Type::Time => "v1",
        Type::TimeV6 => "v6",
        Type::TimeV7 => "v7",
        Type::Md5 => "v3",
        Type::Sha1 => "v5",
    };
    g.push(version.into());
    g.push(format!("--count={count}").into());
    if let (Some(ns), Some(name)) = (namespace, name) {
        let ns_text = ns.to_string_lossy();
        let ns_uuid = match ns_text.strip_prefix('@').filter(|a| !a.is_empty()) {
            Some(alias) => match alias {
                "dns" | "url" | "oid" | "x500" => alias.to_string(),
                _ => return fail(&format!("unknown namespace alias: '{ns_text}'")),
            },
            None => match hyphenated(ns_text.as_bytes()) {
                Some(u) => u,
                None => return fail(&format!("invalid uuid for namespace: '{ns_text}'")),
            },
        };
        g.push(format!("--namespace={ns_uuid}").into());
        if hex {
            match unhex(name.as_encoded_bytes()) {
                Some(h) => g.push(format!("--name-hex={h}").into()),
                None => return fail("not a valid hex string"),
            }
        } else {
            let mut arg = OsString::from("--name=");
            arg.push(&name);
            g.push(arg);
        }
    }
    match crate::args::Cli::try_parse_from(g) {
        Ok(cli) => crate::cmd::run(cli),
        // Not expected: every value was checked above.
        Err(e) => {
            let _ = e.print();
            ExitCode::from(1)
        }
    }
}

/// A count as util-linux's `strtou32_or_err` takes it: decimal (leading blanks and `+` allowed),
/// at most 2^32 - 1.
fn parse_u32(s: &str) -> Option<u32> {
    let t = s.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// The namespace UUID as libuuid's `uuid_parse` takes it (36 characters, hyphens at 8, 13, 18
/// and 23, hex digits of either case elsewhere), lower-cased.
fn hyphenated(b: &[u8]) -> Option<String> {
    if b.len() != 36 {
        return None;
    }
    for (i, &c) in b.iter().enumerate() {
        let ok = if matches!(i, 8 | 13 | 18 | 23) {
            c == b'-'
        } else {
            c.is_ascii_hexdigit()
        };
        if !ok {
            return None;
        }
    }
    Some(String::from_utf8_lossy(b).to_ascii_lowercase())
}

/// The name given with `--hex`: an even number of hex digits (uuidgen's rule), returned as
/// the digits `gen --name-hex` takes.
fn unhex(b: &[u8]) -> Option<String> {
    if b.len() % 2 != 0 || !b.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    Some(String::from_utf8_lossy(b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_namespaces() {
        assert_eq!(parse_u32(" +12"), Some(12));
        assert_eq!(parse_u32("4294967295"), Some(u32::MAX));
        assert_eq!(parse_u32("4294967296"), None);
        assert_eq!(parse_u32("-1"), None);
        assert_eq!(parse_u32(""), None);
        assert!(hyphenated(b"6BA7B810-9DAD-11D1-80B4-00C04FD430C8").is_some());
        assert!(hyphenated(b"6ba7b8109dad11d180b400c04fd430c8").is_none());
        assert!(unhex(b"4a4B").is_some());
        assert!(unhex(b"4").is_none());
        assert!(unhex(b"zz").is_none());
    }
}

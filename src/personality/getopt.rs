//! What both personalities share: options read as glibc's `getopt_long` reads them, and
//! util-linux's usage-failure and output conventions.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// One option of a tool: its short letter, long name, and whether it takes a value.
pub struct Opt {
    pub short: u8,
    pub long: &'static str,
    pub value: bool,
}

impl Opt {
    /// An option without a value.
    pub const fn flag(short: u8, long: &'static str) -> Opt {
        Opt {
            short,
            long,
            value: false,
        }
    }

    /// An option that takes a value.
    pub const fn valued(short: u8, long: &'static str) -> Opt {
        Opt {
            short,
            long,
            value: true,
        }
    }
}

/// An option found on the command line, with its value when it takes one.
pub struct Found {
    pub short: u8,
    pub value: Option<OsString>,
}

/// What the command line held: the options in order, and the operands.
pub struct Parsed {
    pub opts: Vec<Found>,
    pub operands: Vec<OsString>,
}

/// Reads `args` (without argv[0]) against `table` as `getopt_long` does. On a usage error,
/// returns the message getopt prints (without the program name and the "Try" line).
pub fn getopt(args: Vec<OsString>, table: &[Opt]) -> Result<Parsed, String> {
    let mut opts = Vec::new();
    let mut operands = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            operands.extend(it.by_ref());
            break;
        }
        if let Some(body) = bytes.strip_prefix(b"--") {
            let (name, inline) = match body.iter().position(|&b| b == b'=') {
                Some(eq) => (&body[..eq], Some(&body[eq + 1..])),
                None => (body, None),
            };
            let opt = match long_option(table, name) {
                Ok(o) => o,
                Err(LongMiss::Unknown) => {
                    return Err(format!(
                        "unrecognized option '--{}'",
                        String::from_utf8_lossy(body)
                    ))
                }
                Err(LongMiss::Ambiguous(names)) => {
                    let list: String = names.iter().map(|n| format!(" '--{n}'")).collect();
                    return Err(format!(
                        "option '--{}' is ambiguous; possibilities:{list}",
                        String::from_utf8_lossy(body)
                    ));
                }
            };
            let value = match (opt.value, inline) {
                (false, None) => None,
                (false, Some(_)) => {
                    return Err(format!("option '--{}' doesn't allow an argument", opt.long))
                }
                (true, Some(v)) => Some(crate::sys::os_from_bytes(v)),
                (true, None) => match it.next() {
                    Some(v) => Some(v),
                    None => return Err(format!("option '--{}' requires an argument", opt.long)),
                },
            };
            opts.push(Found {
                short: opt.short,
                value,
            });
            continue;
        }
        if bytes.len() < 2 || bytes[0] != b'-' {
            operands.push(arg);
            continue;
        }
        let mut i = 1;
        while i < bytes.len() {
            let c = bytes[i];
            let Some(opt) = table.iter().find(|o| o.short == c) else {
                return Err(format!("invalid option -- '{}'", char_of(c)));
            };
            if !opt.value {
                opts.push(Found {
                    short: c,
                    value: None,
                });
                i += 1;
                continue;
            }
            let value = if i + 1 < bytes.len() {
                crate::sys::os_from_bytes(&bytes[i + 1..])
            } else {
                match it.next() {
                    Some(v) => v,
                    None => return Err(format!("option requires an argument -- '{}'", char_of(c))),
                }
            };
            opts.push(Found {
                short: c,
                value: Some(value),
            });
            break;
        }
    }
    Ok(Parsed { opts, operands })
}

enum LongMiss {
    Unknown,
    Ambiguous(Vec<&'static str>),
}

/// The long option `name` names: an exact match, else the only one it is a prefix of.
fn long_option<'t>(table: &'t [Opt], name: &[u8]) -> Result<&'t Opt, LongMiss> {
    if let Some(o) = table.iter().find(|o| o.long.as_bytes() == name) {
        return Ok(o);
    }
    let matches: Vec<&Opt> = table
        .iter()
        .filter(|o| !name.is_empty() && o.long.as_bytes().starts_with(name))
        .collect();
    match matches.as_slice() {
        [] => Err(LongMiss::Unknown),
        [one] => Ok(one),
        many => Err(LongMiss::Ambiguous(many.iter().map(|o| o.long).collect())),
    }
}

fn char_of(c: u8) -> char {
    char::from(c)
}

/// The options of a personality's command line `argv` (argv[0] included) read against
/// `table`, or on a usage error the status of [`usage_failure`] after getopt's message (named
/// by argv[0] as given, as glibc names it).
pub fn options(argv: Vec<OsString>, prog: &str, table: &[Opt]) -> Result<Parsed, ExitCode> {
    let mut argv = argv.into_iter();
    let argv0 = argv
        .next()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    getopt(argv.collect(), table).map_err(|msg| usage_failure(&argv0, prog, &msg))
}

/// Writes `WHO: MESSAGE` and util-linux's "Try 'PROG --help'" line on standard error, and
/// returns status 1, as util-linux's tools do on bad usage. `who` is the tool's name, or for
/// getopt's own messages argv[0] as given (glibc prints that: `/usr/bin/uuidgen: invalid
/// option -- 'q'`).
pub fn usage_failure(who: &str, prog: &str, msg: &str) -> ExitCode {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{who}: {msg}");
    let _ = writeln!(err, "Try '{prog} --help' for more information.");
    ExitCode::from(1)
}

/// `-V`: `PROG from uuidkit VERSION` on standard output (see [`print`]).
pub fn print_version(prog: &str) -> ExitCode {
    print(format!("{prog} from uuidkit {}\n", env!("CARGO_PKG_VERSION")).as_bytes())
}

/// Writes `text` on standard output; status 0, or 2 when writing fails (util-linux's
/// `close_stdout` gives 1; uuidkit gives 2 for every failed write, as the README's table of
/// differences says), except for a closed pipe (0).
pub fn print(text: &[u8]) -> ExitCode {
    match crate::io::write_stdout(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "write error: {}",
                crate::io::write_error(&e)
            );
            ExitCode::from(crate::io::EXIT_FAILURE)
        }
    }
}

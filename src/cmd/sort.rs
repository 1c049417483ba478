//! `uuidkit sort` and `uuidkit compare`: uuidOrderingMatch order (RFC 4530 §2.3), which is
//! unsigned byte order — `Uuid`'s `Ord`.
//!
//! Sorting must see all input before writing anything; it keeps the 16-byte values, not the
//! lines, so 10^7 UUIDs take 160 MB rather than several times that.

use std::cmp::Ordering;
use std::ffi::OsString;

use uuidkit::{Case, Uuid};

use crate::args::{CompareArgs, FromForm, SortArgs, ToForm};
use crate::io::{CmdResult, Fatal, Line, Out, Status};
use crate::representation;
use crate::ui::Origin;

/// What `sort` does.
pub struct Config {
    unique: bool,
    reverse: bool,
    /// The output form; `None`: each TypeID with its own prefix.
    to: Option<ToForm>,
    from: FromForm,
    case: Case,
    by_time: bool,
    tokens: bool,
    inputs: Vec<OsString>,
}

impl Config {
    /// From the flags.
    pub fn resolve(a: SortArgs) -> Config {
        Config {
            unique: a.unique,
            reverse: a.reverse,
            to: match (a.format, a.from) {
                (Some(to), _) => Some(to),
                (None, FromForm::Typeid) => None,
                (None, from) => Some(same_form(from)),
            },
            from: a.from,
            case: representation::case(a.upper),
            by_time: a.by_time,
            tokens: a.tokens,
            inputs: a.uuids,
        }
    }
}

/// Runs `sort`.
pub fn run(c: Config) -> CmdResult {
    let Some(to) = c.to else {
        return run_typeids(c);
    };
    let mut lines = crate::io::Lines::new(c.inputs).tokenised(c.tokens);
    let origin = lines.origin();
    let mut status = Status::Ok;
    let mut all: Vec<Uuid> = Vec::new();
    while let Some(line) = lines.next_line()? {
        match representation::parse(c.from, &line) {
            Ok(u) => all.push(u),
            Err(e) => {
                status = crate::io::invalid();
                representation::report(origin, &line, &e);
            }
        }
    }
    all.sort_unstable();
    if c.unique {
        all.dedup();
    }
    if c.by_time {
        // Stable, so that equal times keep the byte order just made.
        all.sort_by_key(time_key);
    }
    if c.reverse {
        all.reverse();
    }
    let mut out = Out::stdout();
    representation::write_lines(&mut out, &all, to, c.case)?;
    out.flush()?;
    Ok(status)
}

/// The form `sort` writes when no `--format` is given: the one read (hyphenated for the four
/// text forms).
fn same_form(from: FromForm) -> ToForm {
    match from.short() {
        Some(f) => ToForm::Short(f),
        None => match from {
            FromForm::Int => ToForm::Int,
            FromForm::Oid => ToForm::Oid,
            FromForm::GuidHex => ToForm::GuidHex,
            _ => ToForm::Hyphenated,
        },
    }
}

/// `sort --from typeid` without `--format`: the same order (by UUID, as the other forms), each
/// TypeID written back with its own prefix; equal UUIDs of different prefixes are distinct,
/// ordered by prefix.
fn run_typeids(c: Config) -> CmdResult {
    let mut lines = crate::io::Lines::new(c.inputs).tokenised(c.tokens);
    let origin = lines.origin();
    let mut status = Status::Ok;
    let mut all: Vec<uuidkit::TypeId> = Vec::new();
    while let Some(line) = lines.next_line()? {
        match representation::parse(FromForm::Typeid, &line) {
            Ok(_) => match uuidkit::TypeId::parse(line.bytes) {
                Ok(t) => all.push(t),
                Err(e) => {
                    status = crate::io::invalid();
                    representation::report(origin, &line, &representation::ParseError::Uuid(e));
                }
            },
            Err(e) => {
                status = crate::io::invalid();
                representation::report(origin, &line, &e);
            }
        }
    }
    all.sort_unstable_by(|a, b| (a.uuid(), a.prefix()).cmp(&(b.uuid(), b.prefix())));
    if c.unique {
        all.dedup();
    }
    if c.by_time {
        all.sort_by_key(|t| time_key(&t.uuid()));
    }
    if c.reverse {
        all.reverse();
    }
    let mut out = Out::stdout();
    for t in &all {
        representation::write_typeid(&mut out, t.prefix(), &t.uuid())?;
    }
    out.flush()?;
    Ok(status)
}

/// The `--by-time` key: the timestamp of a v1, v6 or v7 UUID (in nanoseconds since 1970);
/// UUIDs of other versions, which carry no time (v2's is coarse), after all of them.
fn time_key(u: &Uuid) -> (bool, i128) {
    let time = if u.version_num() == 2 {
        None
    } else {
        u.timestamp()
    };
    match time {
        Some(t) => (false, t.unix_nanos()),
        None => (true, 0),
    }
}

/// Runs `compare`: prints -1, 0 or 1, or with `--json` an object
/// `{"a", "b", "result"}` (both UUIDs lower-case hyphenated).
pub fn compare(a: CompareArgs) -> CmdResult {
    let mut out = Out::stdout();
    let x = parse_arg(&mut out, a.json, 1, &a.a)?;
    let y = parse_arg(&mut out, a.json, 2, &a.b)?;
    let (Some(x), Some(y)) = (x, y) else {
        out.flush()?;
        return Ok(Status::Invalid);
    };
    let r: i8 = match x.cmp(&y) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    };
    if a.json {
        out.fmt(format_args!(
            "{{\"a\":\"{x}\",\"b\":\"{y}\",\"result\":{r}}}\n"
        ))?;
    } else {
        out.fmt(format_args!("{r}\n"))?;
    }
    out.flush()?;
    Ok(Status::Ok)
}

/// Parses argument number `no` in the text forms. A problem is reported on standard error
/// with a caret, or with `json` as an error object on standard output.
pub fn parse_arg(
    out: &mut Out,
    json: bool,
    no: u64,
    arg: &OsString,
) -> Result<Option<Uuid>, Fatal> {
    let bytes = crate::io::os_bytes(arg);
    let line = Line {
        no,
        bytes: &bytes,
        len: bytes.len(),
    };
    match representation::parse(FromForm::Text, &line) {
        Ok(u) => Ok(Some(u)),
        Err(e) if json => {
            representation::json_invalid(out, no, &e, &line.lossy())?;
            Ok(None)
        }
        Err(e) => {
            representation::report(Origin::Argument, &line, &e);
            Ok(None)
        }
    }
}

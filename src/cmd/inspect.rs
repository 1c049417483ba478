//! `uuidkit inspect`: every field of each UUID, as aligned text or as JSON Lines.
//!
//! The fields are listed once, in [`fields`], and written through a [`Sink`] for either
//! output, so that text and JSON cannot drift apart. Key rule (documented in `--help`): the
//! general keys are always present (`version` and `time` may be null), layout keys only for
//! their layout, and integers wider than 53 bits are decimal strings.

use std::fmt::{self, Display};

use uuidkit::{Kind, Uuid, Variant, Version};

use crate::args::{FromForm, InspectArgs};
use crate::form;
use crate::io::{CmdResult, Fatal, Line, Lines, Out, Status};

/// What `inspect` does.
pub struct Config {
    json: bool,
    inputs: Vec<std::ffi::OsString>,
}

impl Config {
    /// From the flags; `inspect` has no invalid combinations.
    pub fn resolve(a: InspectArgs) -> Config {
        Config {
            json: a.json,
            inputs: a.uuids,
        }
    }
}

/// Runs `inspect`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs);
    let origin = lines.origin();
    let mut status = Status::Ok;
    let mut first = true;
    while let Some(line) = lines.next_line()? {
        match form::parse(FromForm::Text, &line) {
            Ok(u) => {
                if c.json {
                    let mut s = JsonSink::start(&mut out, &line)?;
                    fields(&u, &mut s)?;
                    s.end()?;
                } else {
                    if !first {
                        out.bytes(b"\n")?;
                    }
                    first = false;
                    let mut s = TextSink { out: &mut out };
                    s.text("input", Value::Disp(&line.lossy()), None)?;
                    fields(&u, &mut s)?;
                }
            }
            Err(e) => {
                status = Status::Invalid;
                if c.json {
                    json_error(&mut out, &line, &e)?;
                } else {
                    // What came before the bad input is shown before its report.
                    out.flush()?;
                    form::report(origin, &line, &e);
                }
            }
        }
    }
    out.flush()?;
    Ok(status)
}

/// A text value: the common kinds apart, so that JSON output can write them without the
/// formatting machinery (which was most of the cost of `inspect --json`).
#[derive(Clone, Copy)]
enum Value<'a> {
    /// Plain ASCII without quotes or backslashes.
    Str(&'a str),
    /// A UUID in a text form.
    Uuid(&'a Uuid, uuidkit::Format),
    /// Anything else (produced here: plain ASCII without quotes or backslashes).
    Disp(&'a dyn Display),
}

impl Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Str(s) => f.write_str(s),
            Value::Uuid(u, format) => {
                let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
                f.write_str(u.encode(*format, uuidkit::Case::Lower, &mut buf))
            }
            Value::Disp(d) => d.fmt(f),
        }
    }
}

/// Where the fields go.
trait Sink {
    /// A text value; `note` is a human explanation shown only in text output.
    fn text(&mut self, key: &str, v: Value<'_>, note: Option<&str>) -> Result<(), Fatal>;
    /// An integer of at most 53 bits; `hex_digits` > 0 also shows it in hex in text output.
    fn num(&mut self, key: &str, v: u64, hex_digits: usize) -> Result<(), Fatal>;
    /// An integer that may exceed 53 bits: a decimal string in JSON.
    fn big(&mut self, key: &str, v: u128, hex_digits: usize) -> Result<(), Fatal>;
    /// A small integer with a name shown only in text output.
    fn num_named(&mut self, key: &str, v: u64, name: &str) -> Result<(), Fatal>;
    /// No value.
    fn null(&mut self, key: &str) -> Result<(), Fatal>;
}

/// Lists the fields of `u` in output order.
fn fields(u: &Uuid, s: &mut dyn Sink) -> Result<(), Fatal> {
    s.text("uuid", Value::Uuid(u, uuidkit::Format::Hyphenated), None)?;
    let variant = u.variant();
    s.text(
        "variant",
        Value::Str(variant.as_str()),
        Some(variant_note(variant)),
    )?;
    if variant == Variant::Rfc9562 {
        s.num("version", u.version_num().into(), 0)?;
    } else {
        s.null("version")?;
    }
    let kind = u.kind();
    s.text("kind", Value::Str(kind.as_str()), kind_note(kind, u))?;
    match (u.timestamp(), u.version()) {
        (Some(t), Some(Version::SortRand)) => {
            s.text("time", Value::Disp(&t.to_rfc3339(3)), None)?
        }
        (Some(t), Some(Version::Dce)) => s.text(
            "time",
            Value::Disp(&t.to_rfc3339(7)),
            Some("coarse: low 32 bits replaced by local_id"),
        )?,
        (Some(t), _) => s.text("time", Value::Disp(&t.to_rfc3339(7)), None)?,
        (None, _) => s.null("time")?,
    }
    match u.version() {
        Some(Version::Mac) | Some(Version::SortMac) => {
            if let (Some(ticks), Some(seq), Some(node)) =
                (u.gregorian_ticks(), u.clock_seq(), u.node())
            {
                s.big("gregorian_ticks", ticks.into(), 15)?;
                s.num("clock_seq", seq.into(), 4)?;
                s.text("node", Value::Disp(&Node(node)), Some(node_note(node)))?;
            }
        }
        Some(Version::Dce) => {
            if let (Some(ticks), Some(seq), Some(domain), Some(id), Some(node)) = (
                u.v2_ticks(),
                u.v2_clock_seq(),
                u.local_domain(),
                u.local_id(),
                u.node(),
            ) {
                s.big("gregorian_ticks", ticks.into(), 15)?;
                s.num("clock_seq", seq.into(), 2)?;
                s.num_named("local_domain", domain.as_u8().into(), domain.as_str())?;
                s.num("local_id", id.into(), 8)?;
                s.text("node", Value::Disp(&Node(node)), Some(node_note(node)))?;
            }
        }
        Some(Version::SortRand) => {
            if let (Some(ms), Some(a), Some(b)) = (u.unix_ts_ms(), u.rand_a(), u.rand_b()) {
                s.num("unix_ts_ms", ms, 12)?;
                s.num("rand_a", a.into(), 3)?;
                s.big("rand_b", b.into(), 16)?;
            }
        }
        Some(Version::Custom) => {
            if let (Some(a), Some(b), Some(c)) = (u.custom_a(), u.custom_b(), u.custom_c()) {
                s.num("custom_a", a, 12)?;
                s.num("custom_b", b.into(), 3)?;
                s.big("custom_c", c.into(), 16)?;
            }
        }
        _ => {}
    }
    s.big("int", u.as_u128(), 0)?;
    s.text("urn", Value::Uuid(u, uuidkit::Format::Urn), None)
}

fn variant_note(v: Variant) -> &'static str {
    match v {
        Variant::Ncs => "0xxx: reserved, NCS backward compatibility",
        Variant::Rfc9562 => "10xx: RFC 9562",
        Variant::Microsoft => "110x: reserved, Microsoft backward compatibility",
        Variant::Future => "111x: reserved for future definition",
    }
}

fn kind_note(k: Kind, u: &Uuid) -> Option<&'static str> {
    Some(match k {
        Kind::Nil => "the Nil UUID, RFC 9562 §5.9",
        Kind::Max => "the Max UUID, RFC 9562 §5.10",
        Kind::Version(v) => match v {
            Version::Mac => "Gregorian time-based, RFC 9562 §5.1",
            Version::Dce => "DCE Security: layout of DCE 1.1, reserved by RFC 9562 §5.2",
            Version::Md5 => "name-based, MD5, RFC 9562 §5.3",
            Version::Random => "random, RFC 9562 §5.4",
            Version::Sha1 => "name-based, SHA-1, RFC 9562 §5.5",
            Version::SortMac => "reordered Gregorian time-based, RFC 9562 §5.6",
            Version::SortRand => "Unix Epoch time-based, RFC 9562 §5.7",
            Version::Custom => "custom, RFC 9562 §5.8",
        },
        Kind::Unknown if u.variant() == Variant::Rfc9562 => "a version RFC 9562 does not define",
        Kind::Unknown => "not of the RFC 9562 variant",
    })
}

fn node_note(node: [u8; 6]) -> &'static str {
    // RFC 9562 §6.10: a random node has the multicast bit (the least significant bit of the
    // first octet) set, which no IEEE 802 address of a network card has.
    if node[0] & 1 == 1 {
        "multicast bit set: random"
    } else {
        "IEEE 802 MAC address"
    }
}

/// A node as `xx:xx:xx:xx:xx:xx`.
struct Node([u8; 6]);

impl Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut b = *b"00:00:00:00:00:00";
        for (i, byte) in self.0.iter().enumerate() {
            b[3 * i] = HEX[usize::from(byte >> 4)];
            b[3 * i + 1] = HEX[usize::from(byte & 15)];
        }
        f.write_str(std::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

/// Text: `key:` padded so that the values line up.
struct TextSink<'o> {
    out: &'o mut Out,
}

/// Wide enough for the longest key, `gregorian_ticks:`, and a space.
const KEY_WIDTH: usize = 17;

impl TextSink<'_> {
    fn key(&mut self, key: &str) -> Result<(), Fatal> {
        const SPACES: &[u8; KEY_WIDTH] = &[b' '; KEY_WIDTH];
        self.out.bytes(key.as_bytes())?;
        self.out.bytes(b":")?;
        let pad = KEY_WIDTH.saturating_sub(key.len() + 1).max(1);
        self.out.bytes(&SPACES[..pad])
    }
}

impl Sink for TextSink<'_> {
    fn text(&mut self, key: &str, v: Value<'_>, note: Option<&str>) -> Result<(), Fatal> {
        self.key(key)?;
        match note {
            Some(n) => self.out.fmt(format_args!("{v} ({n})\n")),
            None => self.out.fmt(format_args!("{v}\n")),
        }
    }
    fn num(&mut self, key: &str, v: u64, hex_digits: usize) -> Result<(), Fatal> {
        self.big(key, v.into(), hex_digits)
    }
    fn big(&mut self, key: &str, v: u128, hex_digits: usize) -> Result<(), Fatal> {
        self.key(key)?;
        if hex_digits > 0 {
            self.out.fmt(format_args!("{v} (0x{v:0hex_digits$x})\n"))
        } else {
            self.out.fmt(format_args!("{v}\n"))
        }
    }
    fn num_named(&mut self, key: &str, v: u64, name: &str) -> Result<(), Fatal> {
        self.key(key)?;
        self.out.fmt(format_args!("{v} ({name})\n"))
    }
    fn null(&mut self, key: &str) -> Result<(), Fatal> {
        self.key(key)?;
        self.out.bytes(b"-\n")
    }
}

/// One JSON object on one line. Values written through `text` are never escaped: they are
/// produced here and are plain ASCII without quotes or backslashes; only `input` comes from
/// outside and goes through serde_json.
struct JsonSink<'o> {
    out: &'o mut Out,
}

impl<'o> JsonSink<'o> {
    /// Starts the object of a line that parsed as a UUID: its text is hex digits, hyphens,
    /// braces and `urn:uuid:`, which JSON takes as they are.
    fn start(out: &'o mut Out, line: &Line<'_>) -> Result<JsonSink<'o>, Fatal> {
        out.bytes(b"{\"input\":\"")?;
        out.bytes(line.bytes)?;
        out.bytes(b"\"")?;
        Ok(JsonSink { out })
    }
    fn end(self) -> Result<(), Fatal> {
        self.out.bytes(b"}\n")
    }
    /// `,"key":`
    #[inline]
    fn key(&mut self, key: &str) -> Result<(), Fatal> {
        self.out.bytes(b",\"")?;
        self.out.bytes(key.as_bytes())?;
        self.out.bytes(b"\":")
    }
}

impl Sink for JsonSink<'_> {
    fn text(&mut self, key: &str, v: Value<'_>, _note: Option<&str>) -> Result<(), Fatal> {
        self.key(key)?;
        match v {
            Value::Str(s) => {
                self.out.bytes(b"\"")?;
                self.out.bytes(s.as_bytes())?;
                self.out.bytes(b"\"")
            }
            Value::Uuid(u, format) => self.out.slot::<{ uuidkit::MAX_ENCODED_LEN + 2 }>(|buf| {
                let (open, rest) = buf.split_at_mut(1);
                open[0] = b'"';
                let n = match rest.first_chunk_mut::<{ uuidkit::MAX_ENCODED_LEN }>() {
                    Some(enc) => u.encode_bytes(format, uuidkit::Case::Lower, enc),
                    None => 0,
                };
                if let Some(q) = rest.get_mut(n) {
                    *q = b'"';
                }
                n + 2
            }),
            Value::Disp(d) => self.out.fmt(format_args!("\"{d}\"")),
        }
    }
    fn num(&mut self, key: &str, v: u64, _hex: usize) -> Result<(), Fatal> {
        self.key(key)?;
        let mut buf = [0u8; 20];
        self.out.bytes(decimal_u64(v, &mut buf))
    }
    fn big(&mut self, key: &str, v: u128, _hex: usize) -> Result<(), Fatal> {
        self.key(key)?;
        let mut dec: uuidkit::DecimalBuffer = [0; uuidkit::MAX_DECIMAL_LEN];
        self.out.bytes(b"\"")?;
        self.out
            .bytes(Uuid::from_u128(v).encode_decimal(&mut dec).as_bytes())?;
        self.out.bytes(b"\"")
    }
    fn num_named(&mut self, key: &str, v: u64, _name: &str) -> Result<(), Fatal> {
        self.num(key, v, 0)
    }
    fn null(&mut self, key: &str) -> Result<(), Fatal> {
        self.key(key)?;
        self.out.bytes(b"null")
    }
}

/// `v` in decimal, in the tail of `buf`.
fn decimal_u64(mut v: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[at..]
}

/// The input line as a JSON string: written as it is when it needs no escaping (printable
/// ASCII without `"` or `\`, which every valid UUID text is), else through serde_json.
fn json_bytes(out: &mut Out, line: &Line<'_>) -> Result<(), Fatal> {
    if line
        .bytes
        .iter()
        .all(|&b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.bytes(b"\"")?;
        out.bytes(line.bytes)?;
        return out.bytes(b"\"");
    }
    json_string(out, &line.lossy())
}

use crate::form::json_string;

fn json_error(out: &mut Out, line: &Line<'_>, e: &form::ParseError) -> Result<(), Fatal> {
    out.bytes(b"{\"input\":")?;
    json_bytes(out, line)?;
    out.bytes(b",\"error\":")?;
    json_string(out, &e.to_string())?;
    out.fmt(format_args!(
        ",\"line\":{},\"column\":{}}}\n",
        line.no,
        e.column()
    ))
}

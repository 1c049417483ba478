//! `uuidkit inspect`: every field of each UUID, as aligned text or as JSON Lines.
//!
//! The fields are listed once, in [`fields`], and written through a [`Sink`] for either
//! output, so that text and JSON cannot drift apart. Key rule (documented in `--help`): the
//! general keys are always present (`version` and `time` may be null), layout keys only for
//! their layout, and integers wider than 53 bits are decimal strings.

use std::fmt::{self, Display};

use uuidkit::{Kind, Rfc3339, Timestamp, Uuid, Variant, Version};

use crate::args::{FromForm, InspectArgs};
use crate::io::{CmdResult, Fatal, Line, Lines, Out, Status};
use crate::numerals::{decimal_u64, nine_digits, two_digits};
use crate::representation;

/// What `inspect` does.
pub struct Config {
    json: bool,
    from: FromForm,
    tokens: bool,
    inputs: Vec<std::ffi::OsString>,
}

impl Config {
    /// From the flags; `inspect` has no invalid combinations.
    pub fn resolve(a: InspectArgs) -> Config {
        Config {
            json: a.json,
            from: a.from,
            tokens: a.tokens,
            inputs: a.uuids,
        }
    }
}

/// Runs `inspect`.
pub fn run(c: Config) -> CmdResult {
    let mut out = Out::stdout();
    let mut lines = Lines::new(c.inputs).tokenised(c.tokens);
    let origin = lines.origin();
    let mut status = Status::Ok;
    let mut first = true;
    let mut dates = DateCache::new();
    while let Some(line) = lines.next_line()? {
        match parse(c.from, &line) {
            Ok((u, prefix)) => {
                if c.json {
                    out.slot::<JSON_ROOM>(|buf| {
                        json_object(buf, &line, &u, prefix.as_ref(), &mut dates)
                    })?;
                } else {
                    if !first {
                        out.bytes(b"\n")?;
                    }
                    first = false;
                    let mut s = TextSink { out: &mut out };
                    s.key("input")?;
                    s.out.fmt(format_args!("{}\n", line.lossy()))?;
                    if let Some(p) = prefix {
                        s.key("prefix")?;
                        s.out.fmt(format_args!("{}\n", p.as_str()))?;
                    }
                    fields(&u, &mut s)?;
                }
            }
            Err(e) => {
                status = crate::io::invalid();
                if c.json {
                    json_error(&mut out, &line, &e)?;
                } else {
                    // What came before the bad input is shown before its report.
                    out.flush()?;
                    representation::report(origin, &line, &e);
                }
            }
        }
    }
    out.flush()?;
    Ok(status)
}

/// Reads one input: `--from typeid`, or with the default `--from text` an input holding a
/// `_` (which no RFC 9562 form has, and every prefixed TypeID does), as a TypeID, giving its
/// prefix too; anything else as `from` says.
fn parse(
    from: FromForm,
    line: &Line<'_>,
) -> Result<(Uuid, Option<uuidkit::Prefix>), representation::ParseError> {
    let typeid = from == FromForm::Typeid || (from == FromForm::Text && line.bytes.contains(&b'_'));
    if !typeid {
        return representation::parse(from, line).map(|u| (u, None));
    }
    representation::parse(FromForm::Typeid, line)?;
    // Parsed twice (the second time cannot fail) so that the cut-line rules are those of
    // representation.rs.
    uuidkit::TypeId::parse(line.bytes)
        .map(|t| (t.uuid(), Some(*t.prefix())))
        .map_err(representation::ParseError::Uuid)
}

/// A value of a field, by kind, so that JSON output can write each without the formatting
/// machinery (which was most of the cost of `inspect --json`).
#[derive(Clone, Copy)]
enum Value<'a> {
    /// Plain ASCII without quotes or backslashes.
    Str(&'a str),
    /// A UUID in a text form.
    Uuid(&'a Uuid, uuidkit::Format),
    /// A time in RFC 3339 with this many fraction digits.
    Time(Timestamp, u8),
    /// A node as `xx:xx:xx:xx:xx:xx`.
    Node([u8; 6]),
}

impl Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Str(s) => f.write_str(s),
            Value::Uuid(u, format) => {
                let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
                f.write_str(u.encode(*format, uuidkit::Case::Lower, &mut buf))
            }
            Value::Time(t, digits) => t.to_rfc3339(*digits).fmt(f),
            // Only ASCII hex digits and colons.
            Value::Node(n) => f.write_str(std::str::from_utf8(&node_text(n)).unwrap_or_default()),
        }
    }
}

/// Where the fields go.
trait Sink {
    /// Why writing failed (JSON is written into memory and cannot fail).
    type Error;
    /// A text value; `note` is a human explanation shown only in text output.
    fn text(&mut self, key: &str, v: Value<'_>, note: Option<&str>) -> Result<(), Self::Error>;
    /// An integer of at most 53 bits; `hex_digits` > 0 also shows it in hex in text output.
    fn num(&mut self, key: &str, v: u64, hex_digits: usize) -> Result<(), Self::Error>;
    /// An integer that may exceed 53 bits: a decimal string in JSON.
    fn big(&mut self, key: &str, v: u128, hex_digits: usize) -> Result<(), Self::Error>;
    /// A small integer with a name shown only in text output.
    fn num_named(&mut self, key: &str, v: u64, name: &str) -> Result<(), Self::Error>;
    /// No value.
    fn null(&mut self, key: &str) -> Result<(), Self::Error>;
}

/// Lists the fields of `u` in output order. Generic rather than `dyn`, so that each sink's
/// writes inline with their keys as constants.
#[inline(always)]
fn fields<S: Sink>(u: &Uuid, s: &mut S) -> Result<(), S::Error> {
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
        (Some(t), Some(Version::SortRand)) => s.text("time", Value::Time(t, 3), None)?,
        (Some(t), Some(Version::Dce)) => s.text(
            "time",
            Value::Time(t, 7),
            Some("coarse: low 32 bits replaced by local_id"),
        )?,
        (Some(t), _) => s.text("time", Value::Time(t, 7), None)?,
        (None, _) => s.null("time")?,
    }
    match u.version() {
        Some(Version::Mac) | Some(Version::SortMac) => {
            if let (Some(ticks), Some(seq), Some(node)) =
                (u.gregorian_ticks(), u.clock_seq(), u.node())
            {
                s.big("gregorian_ticks", ticks.into(), 15)?;
                s.num("clock_seq", seq.into(), 4)?;
                s.text("node", Value::Node(node), Some(node_note(node)))?;
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
                s.text("node", Value::Node(node), Some(node_note(node)))?;
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
pub(crate) fn node_text(node: &[u8; 6]) -> [u8; 17] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut b = *b"00:00:00:00:00:00";
    for (i, byte) in node.iter().enumerate() {
        b[3 * i] = HEX[usize::from(byte >> 4)];
        b[3 * i + 1] = HEX[usize::from(byte & 15)];
    }
    b
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
    type Error = Fatal;
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

/// Room for the JSON object of one valid UUID. The longest is about 600 bytes: a 52-byte
/// `--from oid` input and a v2 UUID with every field at its widest, plus Python's field names
/// (the `json_object_fits` test checks it, with half the room to spare).
const JSON_ROOM: usize = 2048;

/// Writes the JSON object of a line that parsed as `u`, newline included, at the start of
/// `buf`; returns its length.
///
/// The object is written in place in the output buffer, without the formatting machinery:
/// that was most of the cost of `inspect --json`. The input is echoed as it is: it parsed as
/// a UUID, so it is hex digits, hyphens, braces and `urn:uuid:`, which JSON takes unescaped.
#[inline(never)]
fn json_object(
    buf: &mut [u8; JSON_ROOM],
    line: &Line<'_>,
    u: &Uuid,
    prefix: Option<&uuidkit::Prefix>,
    dates: &mut DateCache,
) -> usize {
    let mut s = JsonSink {
        c: Cursor { buf, at: 0 },
        dates,
    };
    s.c.put(b"{\"input\":\"");
    // Most inputs are hyphenated: a copy of known length is a few moves, not a call.
    match <&[u8; 36]>::try_from(line.bytes) {
        Ok(hyphenated) => s.c.put(hyphenated),
        Err(_) => s.c.put(line.bytes),
    }
    s.c.put(b"\"");
    if let Some(p) = prefix {
        // Only a-z and `_`: nothing to escape.
        s.c.put(b",\"prefix\":\"");
        s.c.put(p.as_bytes());
        s.c.put(b"\"");
    }
    let Ok(()) = fields(u, &mut s);
    // The attribute names of Python's uuid.UUID, for code that reads them.
    // One call per key rather than a loop over them: each key then has a constant length and
    // is written with a few moves instead of a `memcpy` call.
    let v = u.as_u128();
    s.key("time_low");
    s.c.decimal(u64::from((v >> 96) as u32));
    s.key("time_mid");
    s.c.decimal(u64::from((v >> 80) as u16));
    s.key("time_hi_version");
    s.c.decimal(u64::from((v >> 64) as u16));
    s.key("clock_seq_hi_variant");
    s.c.decimal(u64::from((v >> 56) as u8));
    s.key("clock_seq_low");
    s.c.decimal(u64::from((v >> 48) as u8));
    s.key("hex");
    s.c.put(b"\"");
    s.c.put(&u.encode_simple(uuidkit::Case::Lower));
    s.c.put(b"\"");
    s.key("bytes_le");
    s.c.put(b"\"");
    s.c.put(&Uuid::from_bytes(u.to_bytes_le()).encode_simple(uuidkit::Case::Lower));
    s.c.put(b"\"");
    s.c.put(b"}\n");
    s.c.at
}

/// The date part of the last day written (`2026-11-21T`), taken from the library's
/// [`Rfc3339::encode_bytes`], so that only the time of day is left to write per UUID: the
/// UUIDs of one input mostly fall on few days, and the calendar arithmetic is most of the cost
/// of a time (without the cache, `inspect --json` of v1/v4/v7 lines takes about 6% more
/// instructions).
struct DateCache {
    /// Days since 1970-01-01 of `text`.
    day: i64,
    /// The text up to and including the `T` (`len` bytes; empty until the first time).
    text: [u8; Rfc3339::MAX_LEN],
    len: usize,
}

impl DateCache {
    fn new() -> DateCache {
        DateCache {
            day: 0,
            text: [0; Rfc3339::MAX_LEN],
            len: 0,
        }
    }

    /// Writes `t` as `t.to_rfc3339(digits)` does.
    #[inline(always)]
    fn write(&mut self, c: &mut Cursor<'_>, t: Timestamp, digits: u8) {
        let secs = t.unix_seconds();
        let day = secs.div_euclid(86_400);
        let sod = secs.rem_euclid(86_400) as u32;
        if day != self.day || self.len == 0 {
            self.fill(t, day);
        }
        if self.len == 0 || digits > 9 {
            // Not expected (see `fill`); the library's own text then.
            c.with::<{ Rfc3339::MAX_LEN }>(|room| t.to_rfc3339(digits).encode_bytes(room));
            return;
        }
        c.put_start(&self.text, self.len);
        let (h, m, s) = (sod / 3600, sod / 60 % 60, sod % 60);
        let [h0, h1] = two_digits(h);
        let [m0, m1] = two_digits(m);
        let [s0, s1] = two_digits(s);
        c.put(&[h0, h1, b':', m0, m1, b':', s0, s1]);
        if digits > 0 {
            // The fraction is truncated: the first `digits` of the nine digits of the nanos,
            // moved with a copy of fixed length.
            let mut frac = [b'.'; 10];
            if let Some(nine) = frac.last_chunk_mut::<9>() {
                *nine = nine_digits(t.subsec_nanos());
            }
            c.put_start(&frac, usize::from(digits) + 1);
        }
        c.put(b"Z");
    }

    /// Takes the date of `t`, on day `day`, from the library.
    #[cold]
    fn fill(&mut self, t: Timestamp, day: i64) {
        self.len = 0;
        let mut text = [0u8; Rfc3339::MAX_LEN];
        let n = t.to_rfc3339(0).encode_bytes(&mut text);
        if let Some(at) = text
            .get(..n)
            .and_then(|s| s.iter().position(|&b| b == b'T'))
        {
            self.text = text;
            self.len = at + 1;
            self.day = day;
        }
    }
}
/// Bytes written from the start of a buffer. A write that does not fit is dropped; the buffer
/// is always made large enough ([`JSON_ROOM`]).
struct Cursor<'b> {
    buf: &'b mut [u8; JSON_ROOM],
    at: usize,
}

impl Cursor<'_> {
    #[inline(always)]
    fn put(&mut self, b: &[u8]) {
        if let Some(room) = self.buf.get_mut(self.at..self.at + b.len()) {
            room.copy_from_slice(b);
            self.at += b.len();
        }
    }

    /// Writes the first `len` bytes of `b` by copying all `N` (a copy of fixed length is a few
    /// moves, one of variable length a call); the bytes past `len` are overwritten by what
    /// follows or lie past the end.
    #[inline(always)]
    fn put_start<const N: usize>(&mut self, b: &[u8; N], len: usize) {
        if let Some(room) = self
            .buf
            .get_mut(self.at..)
            .and_then(|r| r.first_chunk_mut::<N>())
        {
            *room = *b;
            self.at += len.min(N);
        }
    }

    /// Lets `f` write up to `N` bytes and return how many it wrote.
    #[inline(always)]
    fn with<const N: usize>(&mut self, f: impl FnOnce(&mut [u8; N]) -> usize) {
        if let Some(room) = self
            .buf
            .get_mut(self.at..)
            .and_then(|r| r.first_chunk_mut::<N>())
        {
            self.at += f(room).min(N);
        }
    }

    /// `v` in decimal.
    #[inline(always)]
    fn decimal(&mut self, v: u64) {
        self.with::<20>(|room| decimal_u64(v, room));
    }
}

/// The fields as JSON members (`,"key":value`). Values written through `text` are never
/// escaped: they are produced here and are plain ASCII without quotes or backslashes.
struct JsonSink<'b, 'd> {
    c: Cursor<'b>,
    dates: &'d mut DateCache,
}

impl JsonSink<'_, '_> {
    /// `,"key":`
    #[inline(always)]
    fn key(&mut self, key: &str) {
        self.c.put(b",\"");
        self.c.put(key.as_bytes());
        self.c.put(b"\":");
    }
}

impl Sink for JsonSink<'_, '_> {
    type Error = std::convert::Infallible;
    #[inline(always)]
    fn text(&mut self, key: &str, v: Value<'_>, _note: Option<&str>) -> Result<(), Self::Error> {
        self.key(key);
        self.c.put(b"\"");
        match v {
            Value::Str(s) => self.c.put(s.as_bytes()),
            Value::Uuid(u, format) => self.c.with::<{ uuidkit::MAX_ENCODED_LEN }>(|enc| {
                u.encode_bytes(format, uuidkit::Case::Lower, enc)
            }),
            Value::Time(t, digits) => self.dates.write(&mut self.c, t, digits),
            Value::Node(n) => self.c.put(&node_text(&n)),
        }
        self.c.put(b"\"");
        Ok(())
    }
    #[inline(always)]
    fn num(&mut self, key: &str, v: u64, _hex: usize) -> Result<(), Self::Error> {
        self.key(key);
        self.c.decimal(v);
        Ok(())
    }
    #[inline(always)]
    fn big(&mut self, key: &str, v: u128, _hex: usize) -> Result<(), Self::Error> {
        self.key(key);
        self.c.put(b"\"");
        const MAX: usize = uuidkit::MAX_DECIMAL_LEN;
        // The digits are written right-aligned into the first half of a buffer twice as wide,
        // so that they can be moved with a copy of fixed length from where they start.
        let mut wide = [0u8; 2 * MAX];
        let len = match wide.first_chunk_mut::<MAX>() {
            Some(dec) => Uuid::from_u128(v).encode_decimal(dec).len(),
            None => 0,
        };
        if let Some(digits) = wide.get(MAX - len..).and_then(|w| w.first_chunk::<MAX>()) {
            self.c.put_start(digits, len);
        }
        self.c.put(b"\"");
        Ok(())
    }
    #[inline(always)]
    fn num_named(&mut self, key: &str, v: u64, _name: &str) -> Result<(), Self::Error> {
        self.num(key, v, 0)
    }
    #[inline(always)]
    fn null(&mut self, key: &str) -> Result<(), Self::Error> {
        self.key(key);
        self.c.put(b"null");
        Ok(())
    }
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

use crate::representation::json_string;

fn json_error(out: &mut Out, line: &Line<'_>, e: &representation::ParseError) -> Result<(), Fatal> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The object of `text` as `inspect --json` writes it.
    fn object(text: &str, dates: &mut DateCache) -> String {
        let line = Line {
            no: 1,
            bytes: text.as_bytes(),
            len: text.len(),
        };
        let u = Uuid::try_parse_ascii(text.as_bytes()).unwrap();
        let mut buf = [0u8; JSON_ROOM];
        let n = json_object(&mut buf, &line, &u, None, dates);
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn json_object_fits_and_is_json() {
        let mut dates = DateCache::new();
        // The widest of each layout: every bit set but version and variant, as a 45-byte URN.
        for version in 0..16u8 {
            for variant in ["7", "b", "d", "f"] {
                let text =
                    format!("URN:UUID:FFFFFFFF-FFFF-{version:X}FFF-{variant}FFF-FFFFFFFFFFFF");
                let json = object(&text, &mut dates);
                // Half the room at most: the bound in `JSON_ROOM`'s docs holds with a margin.
                assert!(json.len() <= JSON_ROOM / 2, "{} bytes: {json}", json.len());
                assert!(json.ends_with("}\n"), "{json}");
                let v: serde_json::Value = serde_json::from_str(&json).unwrap();
                assert_eq!(v["input"], text.as_str());
                let hyphenated = text["URN:UUID:".len()..].to_ascii_lowercase();
                assert_eq!(v["uuid"], hyphenated.as_str());
                assert_eq!(v["urn"], format!("urn:uuid:{hyphenated}").as_str());
                let int = u128::from_str_radix(&hyphenated.replace('-', ""), 16).unwrap();
                assert_eq!(v["int"], int.to_string().as_str());
            }
        }
    }

    #[test]
    fn cached_dates_write_what_the_library_writes() {
        let mut dates = DateCache::new();
        let mut times = vec![
            Timestamp::from_gregorian_ticks(0),
            Timestamp::from_gregorian_ticks((1 << 60) - 1),
            Timestamp::from_unix_millis((1 << 48) - 1),
            Timestamp::UNIX_EPOCH,
            Timestamp::from_unix(-1, 999_999_999).unwrap(),
            Timestamp::from_unix(253_402_300_799, 999_999_999).unwrap(), // 9999-12-31T23:59:59
            Timestamp::from_unix(253_402_300_800, 0).unwrap(),           // 10000-01-01
            Timestamp::from_unix(951_782_400, 5).unwrap(),               // 2000-02-29
        ];
        // Runs within one day (the cache hit) and jumps between days and centuries (the miss),
        // from a fixed xorshift stream over the whole v1/v6 range.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t = Timestamp::from_gregorian_ticks(x >> 4);
            times.push(t);
            times.push(
                t.checked_add_nanos(i128::from(x % 3_600_000_000_000))
                    .unwrap(),
            );
        }
        for (i, t) in times.iter().enumerate() {
            let digits = (i % 10) as u8;
            let mut buf = [0u8; JSON_ROOM];
            let mut c = Cursor {
                buf: &mut buf,
                at: 0,
            };
            dates.write(&mut c, *t, digits);
            let n = c.at;
            assert_eq!(
                std::str::from_utf8(&buf[..n]).unwrap(),
                t.to_rfc3339(digits).to_string(),
                "{t:?} with {digits} digits"
            );
        }
    }
}

//! The properties the fuzz targets and the bounded property tests both check. Each `check_*`
//! function takes one input, runs the library on it and panics (with the input in the message)
//! when a property fails; a fuzz target decodes libFuzzer's bytes into that input, and
//! `crates/uuidkit/tests/uuidkit/fuzz_props.rs` draws it with proptest;
//! `crates/uuidkit/tests/uuidkit/ldif.rs` uses it the same way for `check_ldif`. Nothing here may panic on its own: every unexpected outcome is an
//! assertion.

use std::io::{BufReader, Write};
use std::time::Duration;

use uuidkit::generator::{
    GenError, GenErrorKind, GregorianBuilder, OverflowPolicy, RegressionPolicy, ReplayClock,
    SeqRandom, V7Builder, V7Method,
};
use uuidkit::{ldap, ldif, Case, Format, Timestamp, Uuid, Variant};

use crate::reference;

const FORMATS: [Format; 4] = [
    Format::Hyphenated,
    Format::Simple,
    Format::Braced,
    Format::Urn,
];

// ---- text forms ---------------------------------------------------------------------------

/// `parse_str`, `try_parse_ascii`, `FromStr`, the one-form parsers and `ldap::validate`
/// accept exactly what the reference accepts, with the same value; every error points into the
/// input (or just past it) and has a message; the `const` parser (`parse_str_const`) gives
/// exactly the run-time parser's answer, error included.
pub fn check_parse(s: &[u8]) {
    let want = reference::any_form(s);
    match (Uuid::try_parse_ascii(s), want) {
        (Ok(u), Some(v)) => assert_eq!(u.as_u128(), v, "value of {s:?}"),
        (Err(e), None) => {
            assert!(
                e.position() <= s.len(),
                "position {} for {s:?}",
                e.position()
            );
            assert!(!e.to_string().is_empty());
        }
        (got, want) => panic!("{s:?}: library {got:?}, reference {want:?}"),
    }
    if let Ok(t) = std::str::from_utf8(s) {
        let got = |r: Result<Uuid, uuidkit::Error>| r.ok().map(|u| u.as_u128());
        assert_eq!(got(Uuid::parse_str(t)), want, "parse_str {t:?}");
        assert_eq!(
            Uuid::parse_str_const(t),
            Uuid::parse_str(t),
            "parse_str_const {t:?}"
        );
        assert_eq!(got(t.parse::<Uuid>()), want, "FromStr {t:?}");
        assert_eq!(got(Uuid::try_from(t)), want, "TryFrom {t:?}");
        assert_eq!(
            got(Uuid::parse_hyphenated(t)),
            reference::hyphenated(s),
            "{t:?}"
        );
        assert_eq!(got(Uuid::parse_simple(t)), reference::simple(s), "{t:?}");
        for e in [Uuid::parse_hyphenated(t), Uuid::parse_simple(t)]
            .into_iter()
            .filter_map(Result::err)
        {
            assert!(e.position() <= s.len(), "{t:?}: {e}");
        }
    }
    // RFC 4530 accepts the hyphenated form only, in either case.
    match ldap::validate(s) {
        Ok(u) => assert_eq!(Some(u.as_u128()), reference::hyphenated(s), "ldap {s:?}"),
        Err(e) => {
            assert_eq!(reference::hyphenated(s), None, "ldap rejected {s:?}: {e}");
            assert!(e.position() <= s.len());
        }
    }
}

/// An assertion `a` and a stored value `b` compare as their reference values do (RFC 4530 §2.3,
/// octet order; the result is the value's order relative to the assertion), and equality
/// matching and the rule's truth value (value < assertion) agree with it.
pub fn check_ldap_pair(a: &[u8], b: &[u8]) {
    let (ra, rb) = (reference::hyphenated(a), reference::hyphenated(b));
    match (ldap::uuid_ordering_match(a, b), ra, rb) {
        (Ok(o), Some(x), Some(y)) => {
            assert_eq!(o, y.cmp(&x), "{a:?} vs {b:?}");
            assert_eq!(ldap::uuid_match(a, b).ok(), Some(x == y));
            assert_eq!(ldap::uuid_ordering_rule(a, b).ok(), Some(y < x));
        }
        (Err(_), x, y) => assert!(x.is_none() || y.is_none(), "{a:?} vs {b:?} rejected"),
        (Ok(o), x, y) => panic!("{a:?} vs {b:?}: {o:?} though reference {x:?} {y:?}"),
    }
}

/// Every writer matches the reference formatter and reads back to the same value.
pub fn check_roundtrip_value(v: u128) {
    let u = Uuid::from_u128(v);
    assert_eq!(Uuid::from_bytes(u.into_bytes()), u);
    let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
    for (i, f) in FORMATS.into_iter().enumerate() {
        for (case, upper) in [(Case::Lower, false), (Case::Upper, true)] {
            let text = u.encode(f, case, &mut buf).to_owned();
            assert_eq!(text, reference::format(v, i, upper));
            assert_eq!(Uuid::parse_str(&text), Ok(u), "{text}");
        }
    }
    let adapters = [
        u.hyphenated().to_string(),
        u.simple().to_string(),
        u.braced().to_string(),
        u.urn().to_string(),
    ];
    for (i, text) in adapters.iter().enumerate() {
        assert_eq!(text, &reference::format(v, i, false));
    }
    assert_eq!(u.to_string(), adapters[0]);
}

/// An input that parses is written back in its own form exactly as it was, up to letter case
/// (the output is lower case), and every other form reads back to the same value.
pub fn check_roundtrip_text(s: &[u8]) {
    let Ok(u) = Uuid::try_parse_ascii(s) else {
        return;
    };
    let form = [
        reference::hyphenated(s),
        reference::simple(s),
        reference::braced(s),
        reference::urn(s),
    ]
    .iter()
    .position(Option::is_some);
    let Some(form) = form else {
        panic!("{s:?} parsed to {u} but is in no form of the reference");
    };
    let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
    assert_eq!(
        u.encode(FORMATS[form], Case::Lower, &mut buf).as_bytes(),
        s.to_ascii_lowercase().as_slice()
    );
    check_roundtrip_value(u.as_u128());
}

// ---- integer, OID and GUID forms ----------------------------------------------------------

/// The decimal, OID and guid-hex parsers accept what the reference accepts with its value, and
/// an accepted input is written back as it was (up to the case of the URN prefix and of hex
/// digits).
pub fn check_forms(s: &[u8]) {
    let pairs: [(&str, Result<Uuid, uuidkit::Error>, Option<u128>); 3] = [
        ("decimal", Uuid::parse_decimal(s), reference::decimal(s)),
        ("oid", Uuid::parse_oid(s), reference::oid(s)),
        ("guid-hex", Uuid::parse_guid_hex(s), reference::guid_hex(s)),
    ];
    for (what, got, want) in pairs {
        match (got, want) {
            (Ok(u), Some(v)) => assert_eq!(u.as_u128(), v, "{what} {s:?}"),
            (Err(e), None) => {
                assert!(e.position() <= s.len(), "{what} {s:?}: {e}");
                assert!(!e.to_string().is_empty());
            }
            (got, want) => panic!("{what} {s:?}: library {got:?}, reference {want:?}"),
        }
    }
    if let Ok(u) = Uuid::parse_decimal(s) {
        assert_eq!(u.decimal().to_string().as_bytes(), s);
    }
    if let Ok(u) = Uuid::parse_oid(s) {
        let written = if s.first().is_some_and(|c| c.eq_ignore_ascii_case(&b'u')) {
            u.oid_urn().to_string()
        } else {
            u.oid().to_string()
        };
        assert_eq!(written.as_bytes(), s.to_ascii_lowercase().as_slice());
    }
    if let Ok(u) = Uuid::parse_guid_hex(s) {
        assert_eq!(
            u.guid_hex().to_string().as_bytes(),
            s.to_ascii_lowercase().as_slice()
        );
    }
}

/// Every form of one value agrees with the reference and reads back.
pub fn check_forms_value(v: u128) {
    let u = Uuid::from_u128(v);
    let dec = u.decimal().to_string();
    assert_eq!(dec, v.to_string());
    let mut buf = [0u8; uuidkit::MAX_DECIMAL_LEN];
    assert_eq!(u.encode_decimal(&mut buf), dec);
    assert_eq!(reference::decimal(dec.as_bytes()), Some(v));
    assert_eq!(Uuid::parse_decimal(dec.as_bytes()), Ok(u));
    for text in [u.oid().to_string(), u.oid_urn().to_string().to_uppercase()] {
        assert_eq!(reference::oid(text.as_bytes()), Some(v), "{text}");
        assert_eq!(Uuid::parse_oid(text.as_bytes()), Ok(u), "{text}");
    }
    let le = u.to_bytes_le();
    assert_eq!(u128::from_be_bytes(le), reference::swap_guid(v));
    assert_eq!(Uuid::from_bytes_le(le), u);
    let gh = u.guid_hex().to_string();
    assert_eq!(reference::guid_hex(gh.as_bytes()), Some(v));
    assert_eq!(Uuid::parse_guid_hex(gh.to_uppercase().as_bytes()), Ok(u));
    // The hex forms and the integer name the same value.
    assert_eq!(
        Uuid::parse_str(&u.to_string()),
        Uuid::parse_decimal(dec.as_bytes())
    );
}

// ---- generator ordering under arbitrary clock readings ------------------------------------

/// Which generator a [`GenCase`] drives.
#[derive(Debug, Clone, Copy)]
pub enum GenKind {
    /// v1 (ordered by its 60-bit timestamp).
    V1,
    /// v6 (ordered as a whole).
    V6,
    /// v7 with this method; widths may be out of range, which must then be refused.
    V7(V7Method),
}

/// One call: `batch == 0` is `next()`, otherwise `fill` of `batch` UUIDs. Each call takes one
/// clock reading, `nanos` (Unix nanoseconds, before the generator's time offset).
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// The clock reading for this call.
    pub nanos: i128,
    /// 0 for `next()`, else the length of the slice given to `fill`.
    pub batch: u8,
}

/// A generator configuration and the calls to make on it.
#[derive(Debug, Clone)]
pub struct GenCase {
    /// The generator.
    pub kind: GenKind,
    /// The calls, each with its clock reading.
    pub steps: Vec<Step>,
    /// The clock's claimed resolution.
    pub resolution_nanos: u64,
    /// The regression threshold.
    pub threshold_nanos: u64,
    /// `RegressionPolicy::Error` instead of `Reset`.
    pub regression_error: bool,
    /// `OverflowPolicy::Error` instead of `Advance` (`Wait` sleeps, so it is left to the
    /// deterministic tests).
    pub overflow_error: bool,
    /// The builder's `time_offset_nanos`.
    pub offset_nanos: i128,
    /// Seed of the replayed random source.
    pub seed: u64,
}

const GREGORIAN_TO_UNIX_NANOS: i128 = 12_219_292_800 * 1_000_000_000;

/// The layout's finest tick of a time (v7: Unix milliseconds, times 2^fraction_bits for
/// Method 3; v1/v6: 100-ns Gregorian ticks), or `None` outside the field's range; computed
/// here from RFC 9562 §5.1, §5.7 and §6.2 alone.
fn model_tick(kind: GenKind, nanos: i128) -> Option<u64> {
    let (tick, max) = match kind {
        GenKind::V7(V7Method::SubMillis { fraction_bits, .. }) => {
            let f = u32::from(fraction_bits.min(12));
            ((nanos << f).div_euclid(1_000_000), 1i128 << (48 + f))
        }
        GenKind::V7(_) => (nanos.div_euclid(1_000_000), 1i128 << 48),
        GenKind::V1 | GenKind::V6 => (
            (nanos + GREGORIAN_TO_UNIX_NANOS).div_euclid(100),
            1i128 << 60,
        ),
    };
    (0..max).contains(&tick).then_some(tick as u64)
}

/// The tick a generated UUID carries, and its sort key for the generator's promise.
fn uuid_tick_and_key(kind: GenKind, u: Uuid) -> (u64, u128) {
    match kind {
        GenKind::V7(_) => (u.unix_ts_ms().unwrap_or(0), u.as_u128()),
        GenKind::V6 => (u.gregorian_ticks().unwrap_or(0), u.as_u128()),
        GenKind::V1 => {
            let t = u.gregorian_ticks().unwrap_or(0);
            (t, u128::from(t))
        }
    }
}

fn method_is_valid(m: V7Method) -> bool {
    match m {
        V7Method::Counter { bits } => (12..=42).contains(&bits),
        V7Method::MonotonicRandom { increment_bits } => (1..=64).contains(&increment_bits),
        V7Method::SubMillis {
            fraction_bits,
            counter_bits,
        } => {
            (1..=12).contains(&fraction_bits)
                && (counter_bits == 0 || (12..=42).contains(&counter_bits))
        }
    }
}

/// Drives a generator through the readings of `case` and checks, against a model of the
/// RFC 9562 §6.2 rule that knows only the readings and the threshold:
/// - a reading outside the layout's range is a `TimeRange` error and issues nothing;
/// - a reading more than the threshold below the highest reading since the last reset (and in
///   an earlier tick) is a regression: `ClockRegression` under the Error policy, otherwise a
///   reset whose first UUID carries exactly the reading's tick;
/// - every other UUID is strictly greater than the one before (v1: its timestamp), and carries
///   a tick at or after its reading's;
/// - the only other errors are `Overflow` (Error policy) and `TimeRange` (when advancing past
///   the end of the field);
/// - version and variant are right, the clock is read once per call, and the v1/v6 clock
///   sequence and node change only at a reset (the sequence then always changes).
pub fn check_gen_order(case: &GenCase) {
    let readings: Vec<Timestamp> = case
        .steps
        .iter()
        .map(|s| Timestamp::from_unix_nanos(s.nanos).unwrap_or(Timestamp::UNIX_EPOCH))
        .collect();
    let nanos: Vec<i128> = readings.iter().map(|t| t.unix_nanos()).collect();
    let clock = ReplayClock::new(readings).with_resolution(case.resolution_nanos);
    let rng = SeqRandom::new(case.seed);
    let overflow = if case.overflow_error {
        OverflowPolicy::Error
    } else {
        OverflowPolicy::Advance
    };
    let regression = if case.regression_error {
        RegressionPolicy::Error
    } else {
        RegressionPolicy::Reset
    };
    let threshold = Duration::from_nanos(case.threshold_nanos);
    // `next()` when `fill` is false (the slice then has one element), else `fill`; the three
    // generator types share no trait, hence a macro.
    type Call<'a> = Box<dyn FnMut(&mut [Uuid], bool) -> Result<(), GenError> + 'a>;
    macro_rules! call {
        ($g:expr) => {{
            let mut g = $g;
            Box::new(move |out: &mut [Uuid], fill: bool| {
                if fill {
                    g.fill(out)
                } else {
                    out[0] = g.next()?;
                    Ok(())
                }
            })
        }};
    }
    let mut call: Call<'_> = match case.kind {
        GenKind::V7(m) => {
            let built = V7Builder::new()
                .method(m)
                .overflow(overflow)
                .regression(regression)
                .regression_threshold(threshold)
                .time_offset_nanos(case.offset_nanos)
                .build(&clock, rng);
            match built {
                Ok(g) => {
                    assert!(method_is_valid(m), "{m:?} accepted");
                    call!(g)
                }
                Err(e) => {
                    assert!(!method_is_valid(m) && e.is_config(), "{m:?}: {e}");
                    return;
                }
            }
        }
        GenKind::V1 | GenKind::V6 => {
            let b = GregorianBuilder::new()
                .overflow(overflow)
                .regression(regression)
                .regression_threshold(threshold)
                .time_offset_nanos(case.offset_nanos);
            if matches!(case.kind, GenKind::V1) {
                call!(b.build_v1(&clock, rng).expect("default v1 configuration"))
            } else {
                call!(b.build_v6(&clock, rng).expect("default v6 configuration"))
            }
        }
    };
    let want_version = match case.kind {
        GenKind::V1 => 1,
        GenKind::V6 => 6,
        GenKind::V7(_) => 7,
    };

    // The model: the highest reading (tick, nanos) since the last reset.
    let mut highest: Option<(u64, i128)> = None;
    let mut prev: Option<Uuid> = None;
    for (i, (step, &raw)) in case.steps.iter().zip(&nanos).enumerate() {
        let reading = raw.saturating_add(case.offset_nanos);
        let n = usize::from(step.batch.max(1));
        let mut out = vec![Uuid::NIL; n];
        let result = call(&mut out, step.batch > 0);
        assert_eq!(clock.readings(), i + 1, "one clock reading per call");
        // Generated UUIDs are never Nil: the written prefix is what was issued.
        let issued = out.iter().take_while(|u| !u.is_nil()).count();
        // Built only when an assertion fails: formatting the case is costly.
        let ctx = || format!("step {i} ({step:?}, reading {reading}) of {case:?}: {result:?}");
        let Some(tick) = model_tick(case.kind, reading) else {
            assert!(result.is_err_and(|e| e.is_time_range()), "{}", ctx());
            assert_eq!(issued, 0, "{}", ctx());
            continue;
        };
        let regressed = highest
            .is_some_and(|(t, hn)| tick < t && (hn - reading) > i128::from(case.threshold_nanos));
        if regressed && case.regression_error {
            assert!(result.is_err_and(|e| e.is_clock_regression()), "{}", ctx());
            assert_eq!(issued, 0, "{}", ctx());
            continue;
        }
        match result {
            Ok(()) => assert_eq!(issued, n, "{}", ctx()),
            Err(e) => match e.kind() {
                GenErrorKind::Overflow => assert!(case.overflow_error, "{}", ctx()),
                GenErrorKind::TimeRange => {}
                _ => panic!("unexpected error: {}", ctx()),
            },
        }
        for (j, &u) in out[..issued].iter().enumerate() {
            assert_eq!(u.variant(), Variant::Rfc9562, "{}", ctx());
            assert_eq!(u.version_num(), want_version, "{}", ctx());
            let (t, key) = uuid_tick_and_key(case.kind, u);
            let ms_or_tick = match case.kind {
                GenKind::V7(_) => reading.div_euclid(1_000_000) as u64,
                _ => tick,
            };
            assert!(t >= ms_or_tick, "{u} below its reading's time: {}", ctx());
            if regressed && j == 0 {
                assert_eq!(t, ms_or_tick, "a reset follows the clock: {}", ctx());
                if let (Some(p), GenKind::V1 | GenKind::V6) = (prev, case.kind) {
                    assert_ne!(
                        u.clock_seq(),
                        p.clock_seq(),
                        "new clock sequence: {}",
                        ctx()
                    );
                }
            } else if let Some(p) = prev {
                let (_, pkey) = uuid_tick_and_key(case.kind, p);
                assert!(key > pkey, "{u} not after {p}: {}", ctx());
                if !matches!(case.kind, GenKind::V7(_)) {
                    assert_eq!(u.clock_seq(), p.clock_seq(), "{}", ctx());
                    assert_eq!(u.node(), p.node(), "{}", ctx());
                }
            }
            prev = Some(u);
        }
        if issued > 0 {
            highest = match highest {
                Some((t, hn)) if !regressed => Some((t.max(tick), hn.max(reading))),
                _ => Some((tick, reading)),
            };
        }
    }
}

// ---- LDIF pass-through --------------------------------------------------------------------

/// A writer that takes at most `max` bytes per `write` call, so that `write_all` loops.
struct Trickle {
    out: Vec<u8>,
    max: usize,
}

impl Write for Trickle {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let n = b.len().min(self.max);
        self.out.extend_from_slice(&b[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `add_entry_uuid` over `input`, read through a buffer of `chunk` bytes and written in
/// pieces of at most `chunk` bytes, adding what `next` returns.
fn ldif_run(
    input: &[u8],
    chunk: usize,
    next: &mut dyn FnMut() -> Uuid,
) -> (Result<ldif::LdifStats, String>, Vec<u8>) {
    let reader = BufReader::with_capacity(chunk.max(1), input);
    let mut w = Trickle {
        out: Vec::new(),
        max: chunk.max(1),
    };
    let r = ldif::add_entry_uuid(reader, &mut w, next);
    (r.map_err(|e| e.to_string()), w.out)
}

/// The pass-through invariant: the output minus the added lines is the input (or, after a data
/// error, a prefix of it), whatever the bytes and however the reads and writes are split; each
/// added line is a whole line that ends its record, and carries the next UUID drawn.
///
/// The added lines are found without trusting any marker the input could contain: the input
/// is run twice, adding the Nil UUID and then the Max UUID, and the two outputs differ exactly
/// in the digits of the added lines. A third run, adding the UUIDs 1, 2, 3, ... in turn, must
/// give the Nil run's output with those UUIDs in the added lines, in order.
pub fn check_ldif(input: &[u8], chunk: usize) {
    let (ra, a) = ldif_run(input, chunk, &mut || Uuid::NIL);
    let (rb, b) = ldif_run(input, chunk, &mut || Uuid::MAX);
    let mut drawn = 0u128;
    let (rc, c) = ldif_run(input, chunk, &mut || {
        drawn += 1;
        Uuid::from_u128(drawn)
    });
    assert_eq!(ra, rb, "same outcome whatever the UUIDs");
    assert_eq!(ra, rc, "same outcome whatever the UUIDs");
    assert_eq!(a.len(), b.len(), "same length whatever the UUIDs");
    let nil_line = format!("entryUUID: {}", Uuid::NIL);
    let mut kept = Vec::with_capacity(input.len());
    let mut added = 0u64;
    // The Nil run's output with the counter's UUIDs where the added UUIDs are.
    let mut counted = a.clone();
    let mut i = 0;
    while i < a.len() {
        if a[i] == b[i] {
            kept.push(a[i]);
            i += 1;
            continue;
        }
        // The first differing byte is the first digit of an added UUID.
        let start = i
            .checked_sub(11)
            .expect("an added line starts with 'entryUUID: '");
        let k = kept
            .len()
            .checked_sub(11)
            .expect("'entryUUID: ' before the digits");
        assert_eq!(&kept[k..], b"entryUUID: ", "{input:?}");
        assert_eq!(
            a.get(start..start + nil_line.len()),
            Some(nil_line.as_bytes())
        );
        kept.truncate(k);
        assert!(
            start > 0 && a[start - 1] == b'\n',
            "an added line that does not start a line: {input:?}"
        );
        let end = start + nil_line.len();
        added += 1;
        let n = Uuid::from_u128(u128::from(added)).to_string();
        counted[start + 11..end].copy_from_slice(n.as_bytes());
        // The line ending that goes with it: after it, or before it when it ends the output.
        if a[end..].starts_with(b"\r\n") {
            i = end + 2;
        } else if a[end..].starts_with(b"\n") {
            i = end + 1;
        } else {
            assert_eq!(
                end,
                a.len(),
                "an added line in the middle of a line: {input:?}"
            );
            // The output ends `eol + line`; the eol completes the input's last line. Its bytes
            // are still in `kept`; what is left of them beyond the input is the eol.
            assert!(kept.len() > input.len() || kept == input, "{input:?}");
            let extra = &kept[input.len().min(kept.len())..];
            assert!(
                extra == b"\n" || extra == b"\r\n",
                "{extra:?} before the last added line of {input:?}"
            );
            assert!(!input.ends_with(b"\n"), "{input:?}");
            kept.truncate(input.len());
            i = end;
        }
        // The added line ends its record: what follows is the end, or a line that is empty or
        // whitespace only (which ends a record too).
        let next = &a[i..];
        let blank = next.iter().position(|&b| b != b' ' && b != b'\t');
        assert!(
            match blank {
                None => true,
                Some(k) => next[k..].starts_with(b"\n") || next[k..].starts_with(b"\r\n"),
            },
            "an added line that does not end its record: {input:?}"
        );
    }
    assert_eq!(
        drawn,
        u128::from(added),
        "one UUID drawn per added line: {input:?}"
    );
    assert!(
        c == counted,
        "the added lines carry the UUIDs drawn, in order: {input:?}"
    );
    match ra {
        Ok(stats) => {
            assert_eq!(stats.added, added, "{input:?}");
            assert_eq!(stats.added + stats.kept, stats.entries);
            assert_eq!(kept, input, "pass-through of {input:?}");
        }
        Err(msg) => {
            assert!(
                msg.starts_with("line "),
                "a data error names its line: {msg}"
            );
            assert!(
                input.starts_with(&kept),
                "{msg}: output is no prefix of {input:?}"
            );
        }
    }
}

// ---- decoding fuzzer bytes -----------------------------------------------------------------

/// Reads numbers off the front of the fuzzer's bytes; zeros once they run out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// One byte.
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A little-endian integer of `n` bytes (n <= 8).
    pub fn uint(&mut self, n: usize) -> u64 {
        (0..n).fold(0u64, |v, i| v | (u64::from(self.u8()) << (8 * i)))
    }

    /// Whether bytes remain.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A field width from one byte, in `lo..=hi` (the widths the builder accepts) for most bytes,
/// so that most cases get past the builder to the generator: a byte in the range is taken as it
/// is (a seed spells its width plainly), and 7 in 8 of the others are folded into the range.
/// The rest stay out of it for the builder to refuse: half of them just above the range, half
/// as they are (0 among them, just below a range starting at 1).
fn width(x: u8, lo: u8, hi: u8) -> u8 {
    if (lo..=hi).contains(&x) {
        x
    } else if x % 8 != 0 {
        lo + x % (hi - lo + 1)
    } else if x % 16 != 0 {
        hi + 1
    } else {
        x
    }
}

/// 2022-02-22T14:22:22Z, the time of RFC 9562's examples, as a starting point.
const START_NANOS: i128 = 1_645_539_742_000_000_000;

/// Decodes a generator case: the generator and its configuration from the first bytes, then
/// calls as (op, delta) pairs whose deltas are scaled from nanoseconds to hours, with jumps to
/// the ends of the v1/v6 and v7 ranges.
pub fn gen_case(data: &[u8]) -> GenCase {
    let mut b = Bytes(data);
    let kind = match b.u8() % 5 {
        0 => GenKind::V1,
        1 => GenKind::V6,
        2 => GenKind::V7(V7Method::Counter {
            bits: width(b.u8(), 12, 42),
        }),
        3 => GenKind::V7(V7Method::MonotonicRandom {
            increment_bits: width(b.u8(), 1, 64),
        }),
        _ => GenKind::V7(V7Method::SubMillis {
            fraction_bits: width(b.u8(), 1, 12),
            counter_bits: width(b.u8(), 0, 42),
        }),
    };
    let resolution_nanos =
        [1, 100, 1_000, 1_000_000, 15_625_000, 1_000_000_000][usize::from(b.u8() % 6)];
    let threshold_nanos = [
        0,
        1_000_000,
        1_000_000_000,
        10_000_000_000,
        3_600_000_000_000,
    ][usize::from(b.u8() % 5)];
    let flags = b.u8();
    let offset_nanos = i128::from(b.uint(2) as i16) * 1_000_000_000;
    let seed = b.uint(8);
    let mut steps = Vec::new();
    let mut t = START_NANOS;
    while !b.is_empty() && steps.len() < 1024 {
        let op = b.u8();
        let delta = i128::from(b.uint(2) as i16);
        t = match op >> 5 {
            0 => t,
            1 => t + delta,
            2 => t + delta * 1_000,
            3 => t + delta * 1_000_000,
            4 => t + delta * 100_000_000,
            5 => t + delta * 3_600_000_000_000,
            6 => START_NANOS + delta * 1_000_000,
            // Near an end of a field: v7's 2^48 ms, v1/v6's 2^60 ticks, or before an epoch.
            _ => match delta & 3 {
                0 => ((1i128 << 48) * 1_000_000) - 1_000_000 * 4 + (delta >> 2),
                1 => (1i128 << 60) * 100 - 12_219_292_800_000_000_000 - 400 + (delta >> 2),
                2 => -12_219_292_800_000_000_000 + (delta >> 2),
                _ => delta >> 2,
            },
        };
        steps.push(Step {
            nanos: t,
            batch: op & 3,
        });
    }
    GenCase {
        kind,
        steps,
        resolution_nanos,
        threshold_nanos,
        regression_error: flags & 1 != 0,
        overflow_error: flags & 2 != 0,
        offset_nanos,
        seed,
    }
}

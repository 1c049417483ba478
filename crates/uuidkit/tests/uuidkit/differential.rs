//! Differential tests against the `uuid` crate (1.x), the most used Rust implementation: on
//! random and mutated strings the same accept/reject decisions and the same values, per form
//! and for the any-form parser; the same text from every writer; the same v3/v5 UUIDs for
//! random names and namespaces; the same bytes from the v1/v6/v7/v8/v4 field builders; and the
//! same version, variant, timestamp and node read back.
//!
//! Where the two libraries differ by design the comparison is narrowed, and the difference is
//! asserted rather than skipped, so that a change on either side is noticed:
//!
//! - `uuid::Uuid::get_version` reads the version nibble whatever the variant (an NCS-variant
//!   value with nibble 4 is "Random" there); uuidkit's `version()` is `None` outside the
//!   RFC 9562 variant (§4.2: the version field is defined for that variant only).
//!   `get_version_num` and `version_num` always agree.
//! - `get_timestamp` follows `get_version`, so it decodes a "v1/v6/v7 timestamp" from other
//!   variants too; uuidkit's `timestamp()` is `None` there. Within the RFC 9562 variant the
//!   times agree, except that:
//! - `uuid::Timestamp` keeps Unix time unsigned: a v1/v6 time before 1970 (Gregorian ticks
//!   below 0x01B21DD213814000) comes back from `to_unix` wrapped around 2^64 seconds;
//!   uuidkit's `Timestamp` is signed. The 60-bit tick count (`to_gregorian`) agrees always.
//! - v2 (DCE Security): `get_timestamp` is `None` in `uuid`; uuidkit decodes the coarse time.
//! - The `urn:uuid:` prefix: uuidkit takes it in any case (RFC 8141: the `urn` scheme and the
//!   NID are case-insensitive), as `uuid` 1.29 does; `uuid` 1.26 (the newest release whose
//!   rust-version fits the workspace's 1.86, which the lock file holds) takes it in lower case
//!   only. Against such a `uuid` ([`peer_lowers_urn`] finds out) the peer is given the input
//!   with the prefix lowered, and the run reports how many inputs that was.
//!
//! Cases: `UUIDKIT_DIFF_CASES` (default 20,000 strings, plus as many values and names). The
//! long run:
//!
//! ```text
//! UUIDKIT_DIFF_CASES=1000000 cargo test --release -p uuidkit --test uuidkit -- differential:: --nocapture
//! ```

use uuidkit_test_support::Rng;

use uuidkit::{Case, Format, Uuid, Variant, Version};

fn cases() -> usize {
    std::env::var("UUIDKIT_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

/// A value with a bias towards the special ones and each version and variant.
fn value(rng: &mut Rng) -> u128 {
    let v = rng.u128();
    match rng.below(8) {
        0 => [0, u128::MAX, 1, u128::MAX - 1][rng.below(4)],
        1..=4 => {
            // A defined version and the RFC 9562 variant.
            let ver = rng.below(9) as u128;
            (v & !(0xf << 76) & !(0b11 << 62)) | (ver << 76) | (0b10 << 62)
        }
        _ => v,
    }
}

/// Text the parsers should see: a form of a value written by `uuid` (in any case), then
/// mutated; or bytes drawn from the characters of the grammar; or anything.
fn text(rng: &mut Rng) -> Vec<u8> {
    let u = uuid::Uuid::from_u128(value(rng));
    let mut buf = [0u8; 45];
    let mut s: Vec<u8> = match rng.below(8) {
        0 => u.hyphenated().encode_lower(&mut buf).as_bytes().to_vec(),
        1 => u.simple().encode_upper(&mut buf).as_bytes().to_vec(),
        2 => u.braced().encode_lower(&mut buf).as_bytes().to_vec(),
        3 => u.urn().encode_upper(&mut buf).as_bytes().to_vec(),
        4 => u.hyphenated().encode_upper(&mut buf).as_bytes().to_vec(),
        5 => {
            const ALPHABET: &[u8] = b"0123456789abcdefABCDEFgG-{}:urnidURNID \t\x00\xff";
            let len = [32, 36, 38, 45, rng.below(50)][rng.below(5)];
            (0..len)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect()
        }
        6 => {
            let len = rng.below(60);
            rng.bytes(len)
        }
        _ => u.simple().encode_lower(&mut buf).as_bytes().to_vec(),
    };
    for _ in 0..rng.below(4) {
        let at = rng.below(s.len() + 1);
        let b = [
            b'-',
            b'{',
            b'}',
            b'0',
            b'f',
            b'G',
            b' ',
            b':',
            0xff,
            rng.next() as u8,
        ][rng.below(10)];
        match rng.below(6) {
            0 if at < s.len() => s[at] = b,
            1 => s.insert(at, b),
            2 if at < s.len() => {
                s.remove(at);
            }
            3 if at < s.len() => s[at] = s[at].to_ascii_uppercase(),
            4 => s.truncate(at),
            _ => {}
        }
    }
    s
}

#[derive(Default, Debug)]
struct Tally {
    accepted: u64,
    rejected: u64,
    mismatches: Vec<String>,
}

impl Tally {
    fn record<E: std::fmt::Debug>(
        &mut self,
        what: &str,
        input: &[u8],
        ours: Option<u128>,
        theirs: Result<u128, E>,
    ) {
        match (ours, &theirs) {
            (Some(a), Ok(b)) if a == *b => self.accepted += 1,
            (None, Err(_)) => self.rejected += 1,
            _ => {
                if self.mismatches.len() < 20 {
                    self.mismatches.push(format!(
                        "{what} {:?}: uuidkit {ours:x?}, uuid {theirs:x?}",
                        String::from_utf8_lossy(input)
                    ));
                }
            }
        }
    }
}

/// Whether the `uuid` crate in this build takes the `urn:uuid:` prefix in lower case only
/// (releases before 1.29; see the module docs).
fn peer_lowers_urn() -> bool {
    let upper = uuid::Uuid::parse_str("URN:UUID:6ba7b810-9dad-11d1-80b4-00c04fd430c8").is_err();
    let lower = uuid::Uuid::parse_str("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8").is_ok();
    assert!(lower, "uuid rejects a lower-case URN");
    upper
}

/// `s` as the peer is given it: with a `urn:uuid:` prefix in other than lower case lowered, if
/// `lower` (the peer takes only that), and whether it was.
fn for_peer(s: &[u8], lower: bool) -> (std::borrow::Cow<'_, [u8]>, bool) {
    if lower && s.len() >= 9 && s[..9].eq_ignore_ascii_case(b"urn:uuid:") && &s[..9] != b"urn:uuid:"
    {
        let mut v = s.to_vec();
        v[..9].copy_from_slice(b"urn:uuid:");
        (std::borrow::Cow::Owned(v), true)
    } else {
        (std::borrow::Cow::Borrowed(s), false)
    }
}

#[test]
fn parsers_accept_and_reject_the_same_strings() {
    let n = cases();
    let mut rng = Rng(0x5eed_0001);
    let mut any = Tally::default();
    let mut strict = Tally::default();
    let lower = peer_lowers_urn();
    let mut lowered = 0u64;
    for _ in 0..n {
        let s = text(&mut rng);
        let ours = Uuid::try_parse_ascii(&s).ok().map(|u| u.as_u128());
        let (peer, was_lowered) = for_peer(&s, lower);
        lowered += u64::from(was_lowered);
        let theirs = uuid::Uuid::try_parse_ascii(&peer).map(|u| u.as_u128());
        any.record("any form", &s, ours, theirs);
        if let (Ok(t), Ok(pt)) = (std::str::from_utf8(&s), std::str::from_utf8(&peer)) {
            let theirs = uuid::Uuid::parse_str(pt).map(|u| u.as_u128());
            any.record(
                "parse_str",
                &s,
                Uuid::parse_str(t).ok().map(|u| u.as_u128()),
                theirs,
            );
            let ours = Uuid::parse_hyphenated(t).ok().map(|u| u.as_u128());
            let theirs = t
                .parse::<uuid::fmt::Hyphenated>()
                .map(|h| h.into_uuid().as_u128());
            strict.record("hyphenated", &s, ours, theirs);
            let ours = Uuid::parse_simple(t).ok().map(|u| u.as_u128());
            let theirs = t
                .parse::<uuid::fmt::Simple>()
                .map(|h| h.into_uuid().as_u128());
            strict.record("simple", &s, ours, theirs);
            // uuidkit has no braced-only or URN-only parser: the any-form parser on an input
            // of that shape must agree with `uuid`'s one-form parser.
            let shaped = |ok: bool| {
                if ok {
                    Uuid::parse_str(t).ok().map(|u| u.as_u128())
                } else {
                    None
                }
            };
            let ours = shaped(s.first() == Some(&b'{'));
            let theirs = t
                .parse::<uuid::fmt::Braced>()
                .map(|h| h.into_uuid().as_u128());
            strict.record("braced", &s, ours, theirs);
            let ours = shaped(s.len() == 45 && s[..9].eq_ignore_ascii_case(b"urn:uuid:"));
            let theirs = pt
                .parse::<uuid::fmt::Urn>()
                .map(|h| h.into_uuid().as_u128());
            strict.record("urn", &s, ours, theirs);
        }
    }
    println!(
        "differential parse: {n} strings; any form: {} accepted by both, {} rejected by both; \
         one-form parsers: {} accepted, {} rejected; {} disagreements; {lowered} URN prefixes \
         lowered for the peer",
        any.accepted,
        any.rejected,
        strict.accepted,
        strict.rejected,
        any.mismatches.len() + strict.mismatches.len()
    );
    assert!(any.mismatches.is_empty(), "{:#?}", any.mismatches);
    assert!(strict.mismatches.is_empty(), "{:#?}", strict.mismatches);
    // Both outcomes must have been exercised, or the comparison proves little.
    assert!(
        any.accepted > n as u64 / 10 && any.rejected > n as u64 / 10,
        "{any:?}"
    );
}

#[test]
fn writers_write_the_same_text() {
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..cases() {
        let v = value(&mut rng);
        let (ours, theirs) = (Uuid::from_u128(v), uuid::Uuid::from_u128(v));
        let mut a = [0u8; uuidkit::MAX_ENCODED_LEN];
        let mut b = [0u8; 45];
        let pairs: [(Format, Case, &str); 8] = [
            (
                Format::Hyphenated,
                Case::Lower,
                theirs.hyphenated().encode_lower(&mut b),
            ),
            (
                Format::Hyphenated,
                Case::Upper,
                &theirs.hyphenated().to_string().to_uppercase(),
            ),
            (Format::Simple, Case::Lower, &theirs.simple().to_string()),
            (
                Format::Simple,
                Case::Upper,
                &theirs.simple().to_string().to_uppercase(),
            ),
            (Format::Braced, Case::Lower, &theirs.braced().to_string()),
            (
                Format::Braced,
                Case::Upper,
                &format!("{:X}", theirs.braced()),
            ),
            (Format::Urn, Case::Lower, &theirs.urn().to_string()),
            (Format::Urn, Case::Upper, &format!("{:X}", theirs.urn())),
        ];
        for (f, c, want) in pairs {
            // Both keep the URN prefix in lower case when the digits are upper case.
            assert_eq!(ours.encode(f, c, &mut a), want, "{f:?} {c:?}");
        }
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(ours.to_bytes_le(), theirs.to_bytes_le());
        assert_eq!(
            Uuid::from_bytes_le(ours.to_bytes_le()).as_u128(),
            uuid::Uuid::from_bytes_le(theirs.to_bytes_le()).as_u128()
        );
        assert_eq!(ours.as_u64_pair(), theirs.as_u64_pair());
        assert_eq!(ours.as_fields(), {
            let (a, b, c, d) = theirs.as_fields();
            (a, b, c, *d)
        });
    }
}

#[test]
#[cfg(all(feature = "v3", feature = "v5"))]
fn v3_and_v5_agree_for_random_names_and_namespaces() {
    let mut rng = Rng(0x5eed_0003);
    let standard = [
        (Uuid::NAMESPACE_DNS, uuid::Uuid::NAMESPACE_DNS),
        (Uuid::NAMESPACE_URL, uuid::Uuid::NAMESPACE_URL),
        (Uuid::NAMESPACE_OID, uuid::Uuid::NAMESPACE_OID),
        (Uuid::NAMESPACE_X500, uuid::Uuid::NAMESPACE_X500),
    ];
    for (a, b) in standard {
        assert_eq!(a.as_u128(), b.as_u128());
    }
    let n = cases();
    for i in 0..n {
        let ns = if i % 4 == 0 {
            standard[rng.below(4)].0.as_u128()
        } else {
            rng.u128()
        };
        let len = [0, 1, 55, 56, 63, 64, 65, rng.below(300)][rng.below(8)];
        let name = rng.bytes(len);
        let (a, b) = (Uuid::from_u128(ns), uuid::Uuid::from_u128(ns));
        assert_eq!(
            Uuid::new_v3(&a, &name).as_u128(),
            uuid::Uuid::new_v3(&b, &name).as_u128(),
            "v3 {a} {name:x?}"
        );
        assert_eq!(
            Uuid::new_v5(&a, &name).as_u128(),
            uuid::Uuid::new_v5(&b, &name).as_u128(),
            "v5 {a} {name:x?}"
        );
    }
    println!("differential v3/v5: {n} random names and namespaces, identical");
}

#[test]
fn field_builders_make_the_same_bytes() {
    let mut rng = Rng(0x5eed_0004);
    for _ in 0..cases() {
        let ticks = rng.next() & ((1 << 60) - 1);
        let seq = rng.next() as u16 & 0x3fff;
        let node: [u8; 6] = rng.bytes(6).try_into().unwrap();
        let ts = uuid::Timestamp::from_gregorian_time(ticks, seq);
        assert_eq!(
            Uuid::from_v1_parts(ticks, seq, node).as_u128(),
            uuid::Uuid::new_v1(ts, &node).as_u128()
        );
        assert_eq!(
            Uuid::from_v6_parts(ticks, seq, node).as_u128(),
            uuid::Uuid::new_v6(ts, &node).as_u128()
        );
        let ms = rng.next() & ((1 << 48) - 1);
        let r: [u8; 10] = rng.bytes(10).try_into().unwrap();
        let rand_a = u16::from_be_bytes([r[0], r[1]]) & 0xfff;
        let rand_b = u64::from_be_bytes(r[2..].try_into().unwrap()) & ((1 << 62) - 1);
        assert_eq!(
            Uuid::from_v7_parts(ms, rand_a, rand_b).as_u128(),
            uuid::Builder::from_unix_timestamp_millis(ms, &r)
                .into_uuid()
                .as_u128()
        );
        let b: [u8; 16] = rng.bytes(16).try_into().unwrap();
        assert_eq!(
            Uuid::from_bytes(b).with_version(Version::Custom).as_u128(),
            uuid::Uuid::new_v8(b).as_u128()
        );
        assert_eq!(
            Uuid::new_v4_from_bytes(b).as_u128(),
            uuid::Builder::from_random_bytes(b).into_uuid().as_u128()
        );
    }
}

#[test]
fn version_variant_timestamp_and_node_agree() {
    let n = cases();
    let mut rng = Rng(0x5eed_0005);
    let mut compared_times = 0u64;
    let mut pre_1970 = 0u64;
    for _ in 0..n {
        let v = value(&mut rng);
        let (ours, theirs) = (Uuid::from_u128(v), uuid::Uuid::from_u128(v));
        assert_eq!(usize::from(ours.version_num()), theirs.get_version_num());
        let want_variant = match theirs.get_variant() {
            uuid::Variant::NCS => Variant::Ncs,
            uuid::Variant::RFC4122 => Variant::Rfc9562,
            uuid::Variant::Microsoft => Variant::Microsoft,
            _ => Variant::Future,
        };
        assert_eq!(ours.variant(), want_variant, "{ours}");
        assert_eq!(ours.is_nil(), theirs.is_nil());
        assert_eq!(ours.is_max(), theirs.is_max());
        if ours.variant() != Variant::Rfc9562 {
            // Intended: no version (and no timestamp) outside the RFC 9562 variant.
            assert_eq!(ours.version(), None);
            assert_eq!(ours.timestamp(), None);
            continue;
        }
        let theirs_version = theirs.get_version().map(|v| v as u8);
        assert_eq!(
            ours.version().map(Version::as_u8),
            theirs_version.filter(|&n| (1..=8).contains(&n)),
            "{ours}"
        );
        match ours.version() {
            Some(Version::Mac | Version::SortMac) => {
                let t = theirs.get_timestamp().expect("uuid decodes v1/v6 times");
                let (ticks, seq) = t.to_gregorian();
                assert_eq!(ours.gregorian_ticks(), Some(ticks), "{ours}");
                assert_eq!(ours.clock_seq(), Some(seq), "{ours}");
                assert_eq!(ours.node(), theirs.get_node_id(), "{ours}");
                let mine = ours.timestamp().expect("v1/v6 time");
                if ticks >= uuidkit::GREGORIAN_OFFSET_TICKS {
                    let (secs, nanos) = t.to_unix();
                    assert_eq!(
                        (mine.unix_seconds(), mine.subsec_nanos()),
                        (secs as i64, nanos)
                    );
                } else {
                    // Intended: uuid's unsigned Unix time wraps before 1970.
                    assert!(mine.unix_seconds() < 0);
                    pre_1970 += 1;
                }
                compared_times += 1;
            }
            Some(Version::SortRand) => {
                let (secs, nanos) = theirs.get_timestamp().expect("v7 time").to_unix();
                let mine = ours.timestamp().expect("v7 time");
                assert_eq!(
                    (mine.unix_seconds(), mine.subsec_nanos()),
                    (secs as i64, nanos)
                );
                assert_eq!(
                    ours.unix_ts_ms(),
                    Some(secs * 1000 + u64::from(nanos) / 1_000_000)
                );
                compared_times += 1;
            }
            Some(Version::Dce) => {
                // Intended: uuid does not decode v2 times.
                assert!(theirs.get_timestamp().is_none());
                assert!(ours.timestamp().is_some());
            }
            _ => assert_eq!(theirs.get_timestamp(), None, "{ours}"),
        }
    }
    println!(
        "differential fields: {n} values; {compared_times} timestamps compared \
         ({pre_1970} v1/v6 before 1970 compared as ticks only)"
    );
    assert!(compared_times > 0);
}

#[test]
fn generated_uuids_read_the_same_in_both() {
    // UUIDs from uuidkit's generators, read by `uuid`: version, variant and time agree.
    let mut batch = [Uuid::NIL; 1000];
    uuidkit::v7_batch(&mut batch);
    for u in batch
        .iter()
        .copied()
        .chain([uuidkit::v1(), uuidkit::v6(), uuidkit::v4()])
    {
        let theirs = uuid::Uuid::from_bytes(u.into_bytes());
        assert_eq!(theirs.get_variant(), uuid::Variant::RFC4122);
        assert_eq!(theirs.get_version_num(), usize::from(u.version_num()));
        if let Some(t) = theirs.get_timestamp() {
            let (secs, nanos) = t.to_unix();
            let mine = u.timestamp().unwrap();
            assert_eq!(
                (mine.unix_seconds(), mine.subsec_nanos()),
                (secs as i64, nanos)
            );
        }
    }
    // And the other way: uuid's v7 and v1 read by uuidkit.
    let theirs = uuid::Uuid::now_v7();
    let ours = Uuid::from_bytes(*theirs.as_bytes());
    assert_eq!(ours.version(), Some(Version::SortRand));
    let (secs, _) = theirs.get_timestamp().unwrap().to_unix();
    assert_eq!(ours.timestamp().unwrap().unix_seconds(), secs as i64);
}

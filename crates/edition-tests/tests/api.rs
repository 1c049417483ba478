//! Every public module of `uuidkit` and its main items, named by their full paths as a user's
//! crate names them, compiled in edition 2021 and in edition 2024 (the crates `e2021` and
//! `e2024` share this file). A module or item that a new edition cannot name (as `gen` once
//! was: a reserved keyword in 2024) fails to compile here; each test also checks what it uses.

use std::cmp::Ordering;
use std::time::Duration;

// The module renamed from `gen`, which edition 2024 reserves: the way the README names it.
use uuidkit::generator::V7Builder;
use uuidkit::generator::{
    clock, global, rng, v1, v2, v4, v6, v7, v8, ClockReset, DistributedBuilder,
    DistributedGenerator, DistributedLayout, FixedClock, GenError, GenErrorKind, GregorianBuilder,
    OverflowPolicy, RegressionPolicy, ReplayClock, ReplayRandom, SeqRandom, StepClock, SystemClock,
    ThreadRng, V1Generator, V2Generator, V6Generator, V7Generator, V7Method, V8TimeBuilder,
    V8TimeGenerator, DEFAULT_REGRESSION_THRESHOLD,
};
use uuidkit::{
    ldap, ldif, uuid, Case, Clock, Domain, Error, ErrorKind, Format, Kind, NameHash, NilUuidError,
    NonNilUuid, RandomSource, Timestamp, Uuid, Variant, Version, GREGORIAN_OFFSET_TICKS,
    MAX_DECIMAL_LEN, MAX_ENCODED_LEN,
};

const DNS: Uuid = uuid!("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
// RFC 9562 Appendix A.6 (v7) and A.1 (v1).
const V7: Uuid = uuid!("017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
const V1: Uuid = uuid!("C232AB00-9414-11EC-B3C8-9F6BDECED846");

#[test]
fn the_uuid_macro_and_the_namespaces() {
    assert_eq!(DNS, Uuid::NAMESPACE_DNS);
    assert_eq!(
        uuidkit::uuid!("{6BA7B811-9DAD-11D1-80B4-00C04FD430C8}"),
        Uuid::NAMESPACE_URL
    );
    const PARSED: Result<Uuid, Error> =
        Uuid::parse_str_const("urn:uuid:6ba7b812-9dad-11d1-80b4-00c04fd430c8");
    assert_eq!(PARSED, Ok(Uuid::NAMESPACE_OID));
}

#[test]
fn root_reexports_parse_format_and_fields() -> Result<(), Error> {
    let u: Uuid = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse()?;
    assert_eq!(u, V7);
    assert_eq!(
        (u.version(), u.variant(), u.kind()),
        (
            Some(Version::SortRand),
            Variant::Rfc9562,
            Kind::Version(Version::SortRand)
        )
    );
    assert_eq!(u.unix_ts_ms(), Some(1_645_557_742_000));

    let mut buf = [0u8; MAX_ENCODED_LEN];
    let _: &mut uuidkit::EncodeBuffer = &mut buf;
    assert_eq!(
        u.encode(Format::Braced, Case::Upper, &mut buf),
        "{017F22E2-79B0-7CC3-98C4-DC0C0C07398F}"
    );
    let shown: uuidkit::Formatted = u.guid_hex();
    assert_eq!(shown.to_string(), "e2227f01b079c37c98c4dc0c0c07398f");

    let mut lines = [0u8; 2 * 37];
    assert_eq!(
        uuidkit::encode_lines(&[u, DNS], Format::Hyphenated, Case::Lower, &mut lines),
        74
    );
    assert_eq!(&lines[37..], b"6ba7b810-9dad-11d1-80b4-00c04fd430c8\n");
    assert!(["avx2", "ssse3", "neon", "scalar"].contains(&uuidkit::simd_level()));

    // The other forms: decimal integer, OID, OID URN.
    let f81d = Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")?;
    let decimal: uuidkit::Decimal = f81d.decimal();
    assert_eq!(
        decimal.to_string(),
        "329800735698586629295641978511506172918"
    );
    let mut dbuf: uuidkit::DecimalBuffer = [0u8; MAX_DECIMAL_LEN];
    assert_eq!(
        Uuid::parse_decimal(f81d.encode_decimal(&mut dbuf).as_bytes())?,
        f81d
    );
    let oid: uuidkit::Oid = f81d.oid();
    let oid_urn: uuidkit::OidUrn = f81d.oid_urn();
    assert_eq!(Uuid::parse_oid(oid.to_string().as_bytes())?, f81d);
    assert!(oid_urn.to_string().starts_with("urn:oid:2.25."));
    Ok(())
}

#[test]
fn errors_name_what_and_where() {
    let e: Error = Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::GroupLength);
    assert_eq!(
        e.to_string(),
        "invalid group length: group 5 at byte 24 has 11 digits, expected 12"
    );
    let e = Uuid::parse_str("67e55044-x0b1-426f-9247-bb680e5fe0c8").unwrap_err();
    assert!(e.is_invalid_char());
    assert_eq!(e.position(), 9);
}

#[test]
fn timestamps() {
    let t: Timestamp = V7.timestamp().unwrap();
    let text: uuidkit::Rfc3339 = t.to_rfc3339(3);
    assert_eq!(text.to_string(), "2022-02-22T19:22:22.000Z");
    assert_eq!(Timestamp::parse_rfc3339("2022-02-22T19:22:22Z"), Ok(t));
    let bad: uuidkit::TimeError = Timestamp::parse_rfc3339("2022-13-22T19:22:22Z").unwrap_err();
    assert!(!bad.to_string().is_empty());
    assert_eq!(Timestamp::from_unix(1_645_557_742, 0), Some(t));
    assert_eq!(V1.gregorian_ticks(), Some(138_648_505_420_000_000));
    assert_eq!(
        t.gregorian_ticks(),
        Some(GREGORIAN_OFFSET_TICKS + 16_455_577_420_000_000)
    );
}

#[test]
fn name_based_and_non_nil() {
    assert_eq!(
        Uuid::new_v5(&DNS, b"www.example.com").to_string(),
        "2ed6657d-e927-568b-95e1-2665a8aea6a2"
    );
    assert_eq!(
        Uuid::new_v3(&DNS, b"www.example.com").to_string(),
        "5df41881-3aed-3515-88a7-2f4a814cf09e"
    );
    // RFC 9562 Appendix B.2.
    let hash: NameHash = "sha256".parse().unwrap();
    assert_eq!(
        Uuid::new_v8_name(hash, &DNS, b"www.example.com").to_string(),
        "5c146b14-3c52-8afd-938a-375d0df1fbf6"
    );
    let unknown: uuidkit::ParseNameHashError = "md4".parse::<NameHash>().unwrap_err();
    assert_eq!(unknown.input(), "md4");

    let n = NonNilUuid::new(DNS).unwrap();
    assert_eq!(n.get(), DNS);
    let nil: Result<NonNilUuid, NilUuidError> = NonNilUuid::try_from(Uuid::NIL);
    assert!(nil.is_err());
}

#[test]
fn process_wide_generators() {
    let (a, b) = (uuidkit::v7(), uuidkit::v7());
    assert!(a < b && a.version_num() == 7);
    assert_eq!(uuidkit::v4().version_num(), 4);
    assert!(uuidkit::v6() < uuidkit::v6());
    assert_eq!(uuidkit::v1().version_num(), 1);
    let mut batch = [Uuid::NIL; 64];
    uuidkit::v7_batch(&mut batch);
    assert!(batch.windows(2).all(|w| w[0] < w[1]));
    assert!(global::try_v7().unwrap() > batch[63]);
    assert!(uuidkit::generator::try_v6().is_ok());
    let mut ids = [Uuid::NIL; 4];
    v4::fill_v4(&mut ids);
    assert!(ids.iter().all(|u| u.version_num() == 4));
}

#[test]
fn per_instance_generators_with_injected_clocks() -> Result<(), GenError> {
    let ms = Timestamp::from_unix_millis;
    // v7: every method, policy and option of the builder.
    let mut g: V7Generator<FixedClock, ThreadRng> = V7Builder::new()
        .method(V7Method::SubMillis {
            fraction_bits: 12,
            counter_bits: 14,
        })
        .overflow(OverflowPolicy::Error)
        .regression(RegressionPolicy::Error)
        .regression_threshold(DEFAULT_REGRESSION_THRESHOLD + Duration::from_secs(1))
        .build(FixedClock::new(ms(1_645_557_742_000)), ThreadRng)?;
    let u = g.next()?;
    assert_eq!(u.unix_ts_ms(), Some(1_645_557_742_000));
    assert!(g.next()? > u);
    assert_eq!(v7::V7Method::default(), V7Method::Counter { bits: 42 });

    // A clock set back, followed under `Reset`: the generator says so.
    let mut g = V7Builder::new()
        .regression(RegressionPolicy::Reset)
        .build(ReplayClock::new([ms(50_000), ms(20_000)]), ThreadRng)?;
    g.next()?;
    g.next()?;
    let reset: Option<ClockReset> = g.last_reset();
    assert_eq!(reset.map(|r| r.from_unix_nanos()), Some(50_000_000_000));

    // v1 and v6 from the Gregorian builder: RFC 9562 Appendix A.1's UUID.
    let clock = FixedClock::new(ms(1_645_557_742_000));
    let mut g: V1Generator<FixedClock, ThreadRng> = GregorianBuilder::new()
        .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
        .clock_seq(0x33C8)
        .overflow(OverflowPolicy::Error)
        .build_v1(clock, ThreadRng)?;
    assert_eq!(g.next()?, V1);
    let e = g.next().unwrap_err();
    assert!(e.is_overflow());
    assert_eq!(e.kind(), GenErrorKind::Overflow);
    let mut g6 = V6Generator::system();
    assert!(g6.next()? < g6.next()?);
    let _: v6::V6Generator = V6Generator::system();
    let _: v1::V1Generator = v1::V1Generator::system();

    // v2 (DCE Security).
    let mut g2 = V2Generator::system();
    let u = g2.next(Domain::Group, 100)?;
    assert_eq!(
        (u.local_domain(), u.local_id()),
        (Some(Domain::Group), Some(100))
    );
    let _: v2::V2Generator = g2;

    // v8: time-based and distributed layouts.
    let clock = StepClock::new(ms(1_645_557_742_000)).with_auto_step(1_000);
    let mut g: V8TimeGenerator<StepClock, ThreadRng> = V8TimeBuilder::new().build(clock, ThreadRng);
    assert!(g.next()? < g.next()?);
    let layout = DistributedLayout::new(14, 10)?;
    let mut d: DistributedGenerator<SystemClock, ThreadRng> = DistributedBuilder::new(layout)
        .node_id(0x2A5)
        .build(SystemClock, ThreadRng)?;
    assert!(d.next()? < d.next()?);
    assert_eq!(
        v8::DistributedLayout::default(),
        DistributedLayout::default()
    );
    Ok(())
}

#[test]
fn clocks_and_random_sources() {
    let c = clock::StepClock::new(Timestamp::from_unix_millis(1_000));
    c.advance(1_500_000);
    assert_eq!(c.now().unix_millis(), Some(1_001));
    assert!(SystemClock.now().unix_seconds() > 1_600_000_000);

    // RFC 9562 Appendix A.3, from replayed random bytes.
    let mut r = ReplayRandom::new(0x919108F752D133205BACF847DB4148A8u128.to_be_bytes());
    assert_eq!(
        v4::v4_from(&mut r).to_string(),
        "919108f7-52d1-4320-9bac-f847db4148a8"
    );
    let mut seq = SeqRandom::new(7);
    let mut csprng = rng::Csprng::new().unwrap();
    assert_ne!(csprng.next_u64(), csprng.next_u64());
    let _ = seq.next_u64();
    let node = uuidkit::generator::random_node(&mut ThreadRng);
    assert_eq!(node[0] & 1, 1);
    rng::ensure_fork_detection();
    assert_eq!(rng::fork_generation(), rng::fork_generation());
    assert_ne!(rng::random_u64(), rng::random_u64());
}

#[test]
fn ldap_rfc4530() {
    let a = b"597ae2f6-16a6-1027-98f4-d28b5365dc14";
    let b = b"597AE2F6-16A6-1027-98F4-D28B5365DC14";
    assert_eq!(ldap::uuid_match(a, b), Ok(true));
    assert_eq!(ldap::uuid_ordering_match(a, b), Ok(Ordering::Equal));
    let e: ldap::MatchError = ldap::uuid_match(a, b"x").unwrap_err();
    assert_eq!(e.side(), ldap::Side::Value);
    assert_eq!(
        e.to_string(),
        "value: invalid length: expected 36 bytes, found 1"
    );
    assert_eq!(ldap::SCHEMA.len(), 4);
    assert_eq!(ldap::ENTRY_UUID_OID, "1.3.6.1.1.16.4");
    assert!(ldap::validate(b"{597ae2f6-16a6-1027-98f4-d28b5365dc14}").is_err());
}

#[test]
fn ldif_adds_entry_uuid() {
    let input = b"dn: cn=alice,dc=example,dc=com\ncn: alice\n\n";
    let mut out = Vec::new();
    let stats: ldif::LdifStats = ldif::add_entry_uuid(&input[..], &mut out, &mut || DNS).unwrap();
    assert_eq!((stats.entries, stats.added, stats.kept), (1, 1, 0));
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "dn: cn=alice,dc=example,dc=com\ncn: alice\nentryUUID: 6ba7b810-9dad-11d1-80b4-00c04fd430c8\n\n"
    );
    let bad = b"dn: cn=b\nentryUUID: nope\n\n";
    let e: ldif::LdifError =
        ldif::add_entry_uuid(&bad[..], &mut Vec::new(), &mut || DNS).unwrap_err();
    assert_eq!(e.line(), Some(2));
}

#[test]
fn serde_feature() {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Row {
        id: Uuid,
        #[serde(with = "uuidkit::serde::simple")]
        simple: Uuid,
        #[serde(with = "uuidkit::serde::urn::option")]
        parent: Option<Uuid>,
        #[serde(with = "uuidkit::serde::compact")]
        compact: Uuid,
    }
    let row = Row {
        id: DNS,
        simple: Uuid::MAX,
        parent: None,
        compact: Uuid::from_u128(1),
    };
    let text = serde_json::to_string(&row).unwrap();
    assert_eq!(
        text,
        r#"{"id":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","simple":"ffffffffffffffffffffffffffffffff","parent":null,"compact":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]}"#
    );
    assert_eq!(serde_json::from_str::<Row>(&text).unwrap(), row);
}

#[test]
fn uuid_crate_feature() {
    let theirs: uuid::Uuid = uuid::Uuid::NAMESPACE_DNS;
    let ours = Uuid::from(theirs);
    assert_eq!(ours, DNS);
    assert_eq!(uuid::Uuid::from(ours), theirs);
}

#[test]
fn generic_over_the_traits() {
    fn read<C: Clock>(c: &C) -> Timestamp {
        c.now()
    }
    fn draw<R: RandomSource>(r: &mut R) -> u64 {
        r.next_u64()
    }
    assert_eq!(
        read(&FixedClock::new(Timestamp::UNIX_EPOCH)),
        Timestamp::UNIX_EPOCH
    );
    assert_ne!(draw(&mut ThreadRng), draw(&mut ThreadRng));
}

#[test]
fn public_types_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Uuid>();
    both::<Error>();
    both::<GenError>();
    both::<ldap::MatchError>();
    both::<ldif::LdifError>();
    both::<V7Generator>();
}

//! The auto and derived traits the public value types promise. Losing one (say, a future
//! field that is not `Sync`, or a dropped `Copy`) is a breaking change; these checks make it a
//! compile error here first.

use std::fmt::{Debug, Display, LowerHex, UpperHex};
use std::hash::Hash;
use std::panic::{RefUnwindSafe, UnwindSafe};

use uuidkit::{
    Case, Decimal, Domain, Error, ErrorKind, Format, Formatted, Kind, Oid, OidUrn, Rfc3339,
    TimeError, Timestamp, Uuid, Variant, Version,
};

/// Shareable across threads and free of interior mutability or borrowed data.
fn thread_safe<T: Send + Sync + Unpin + UnwindSafe + RefUnwindSafe + 'static>() {}

/// A plain value: copied, compared, hashed, debug-printed.
fn plain_value<T: Copy + Clone + PartialEq + Eq + Hash + Debug>() {}

fn ordered<T: Ord + PartialOrd>() {}

fn error_type<T: std::error::Error + Display + Send + Sync + 'static>() {}

#[test]
fn value_types_are_thread_safe_plain_values() {
    thread_safe::<Uuid>();
    thread_safe::<Error>();
    thread_safe::<ErrorKind>();
    thread_safe::<Timestamp>();
    thread_safe::<TimeError>();
    thread_safe::<Rfc3339>();
    thread_safe::<Formatted>();
    thread_safe::<Decimal>();
    thread_safe::<Oid>();
    thread_safe::<OidUrn>();
    thread_safe::<Variant>();
    thread_safe::<Version>();
    thread_safe::<Kind>();
    thread_safe::<Domain>();
    thread_safe::<Format>();
    thread_safe::<Case>();

    plain_value::<Uuid>();
    plain_value::<Error>();
    plain_value::<ErrorKind>();
    plain_value::<Timestamp>();
    plain_value::<Formatted>();
    plain_value::<Decimal>();
    plain_value::<Oid>();
    plain_value::<OidUrn>();
    plain_value::<Variant>();
    plain_value::<Version>();
    plain_value::<Kind>();
    plain_value::<Domain>();
    plain_value::<Format>();
    plain_value::<Case>();

    ordered::<Uuid>();
    ordered::<Timestamp>();
    ordered::<Version>();
}

#[test]
fn formatting_and_error_traits() {
    fn display_hex<T: Display + LowerHex + UpperHex>() {}
    fn display<T: Display>() {}
    display_hex::<Uuid>();
    display_hex::<Formatted>();
    display::<Rfc3339>();
    display::<Decimal>();
    display::<Oid>();
    display::<OidUrn>();
    display::<Error>();
    error_type::<Error>();
    error_type::<TimeError>();
    // `?` turns both into the usual boxed error.
    fn boxed() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Uuid::parse_str("not a uuid")?;
        Ok(())
    }
    assert!(boxed().is_err());
}

#[test]
fn conversions_and_defaults() {
    fn conversions<T>()
    where
        T: From<[u8; 16]> + From<u128> + Into<[u8; 16]> + Into<u128> + AsRef<[u8]> + Default,
        T: for<'a> TryFrom<&'a str> + std::str::FromStr,
    {
    }
    conversions::<Uuid>();
    assert_eq!(Uuid::default(), Uuid::NIL);
    assert_eq!(Format::default(), Format::Hyphenated);
    assert_eq!(Case::default(), Case::Lower);
}

#[test]
fn uuid_is_sixteen_bytes_and_moves_between_threads() {
    // repr(transparent) over [u8; 16]: no padding, no alignment beyond a byte.
    assert_eq!(std::mem::size_of::<Uuid>(), 16);
    assert_eq!(std::mem::align_of::<Uuid>(), 1);
    let u = Uuid::NAMESPACE_URL;
    let e = Uuid::parse_str("x").unwrap_err();
    let t = Timestamp::UNIX_EPOCH;
    let (u2, e2, t2) = std::thread::spawn(move || (u, e, t)).join().unwrap();
    assert_eq!((u2, e2, t2), (u, e, t));
    // Shared by reference across threads.
    let shared = std::sync::Arc::new([u; 4]);
    let s = std::sync::Arc::clone(&shared);
    let text = std::thread::spawn(move || s[3].urn().to_string())
        .join()
        .unwrap();
    assert_eq!(text, "urn:uuid:6ba7b811-9dad-11d1-80b4-00c04fd430c8");
}

// ---- generators, sources, errors, LDAP and LDIF types (feature `std`) ----------------------

/// Can move to another thread (a generator handed to a worker, an error returned from one).
#[cfg(feature = "std")]
fn sendable<T: Send + 'static>() {}

/// Can be shared by reference between threads.
#[cfg(feature = "std")]
fn shareable<T: Sync>() {}

#[cfg(feature = "std")]
#[test]
fn generators_clocks_and_random_sources() {
    use uuidkit::generator::{
        Csprng, DistributedBuilder, DistributedGenerator, DistributedLayout, FixedClock,
        GregorianBuilder, OsRandom, ReplayClock, ReplayRandom, SeqRandom, StepClock, SystemClock,
        ThreadRng, V1Generator, V2Generator, V6Generator, V7Builder, V7Generator, V7Method,
        V8TimeBuilder, V8TimeGenerator,
    };
    // Generators own their state and take `&mut self`: Send and Sync (a shared reference
    // allows no generation), so one can be moved to, or kept behind a Mutex in, any thread.
    thread_safe::<V1Generator>();
    thread_safe::<V6Generator>();
    thread_safe::<V2Generator>();
    thread_safe::<V7Generator>();
    thread_safe::<V8TimeGenerator>();
    thread_safe::<DistributedGenerator>();
    thread_safe::<V7Generator<StepClock, SeqRandom>>();
    // Builders and layouts are plain configuration values.
    thread_safe::<GregorianBuilder>();
    thread_safe::<V7Builder>();
    thread_safe::<V7Method>();
    thread_safe::<V8TimeBuilder>();
    thread_safe::<DistributedBuilder>();
    thread_safe::<DistributedLayout>();
    plain_value::<V7Method>();
    plain_value::<DistributedLayout>();
    // Clocks must be Send + Sync (the `Clock` trait requires it: one clock serves a
    // process-wide generator). StepClock and ReplayClock use a lock and an atomic inside.
    sendable::<SystemClock>();
    shareable::<SystemClock>();
    sendable::<FixedClock>();
    shareable::<FixedClock>();
    sendable::<StepClock>();
    shareable::<StepClock>();
    sendable::<ReplayClock>();
    shareable::<ReplayClock>();
    // Random sources. `Csprng` is Send (its state moves with it; fork safety is checked by
    // generation, not by thread) and Sync (nothing can be drawn through `&Csprng`: every
    // drawing method takes `&mut self`). `ThreadRng` is a zero-sized handle to the calling
    // thread's own generator, so it is freely Send and Sync.
    sendable::<Csprng>();
    shareable::<Csprng>();
    thread_safe::<ThreadRng>();
    thread_safe::<OsRandom>();
    sendable::<ReplayRandom>();
    shareable::<ReplayRandom>();
    thread_safe::<SeqRandom>();

    // A generator built on one thread keeps working on another.
    let mut g = V7Generator::system();
    let first = g.next().unwrap();
    let (g, second) = std::thread::spawn(move || {
        let u = g.next().unwrap();
        (g, u)
    })
    .join()
    .unwrap();
    assert!(second > first);
    assert!(g.last_unix_ms().is_some());
}

#[cfg(feature = "std")]
#[test]
fn every_error_type_is_a_thread_safe_error() {
    use uuidkit::generator::{
        GenError, GenErrorKind, OverflowPolicy, RandomError, RegressionPolicy,
    };
    use uuidkit::ldap::{MatchError, Side};
    use uuidkit::ldif::{LdifError, LdifStats};
    use uuidkit::{NameHash, ParseNameHashError};

    error_type::<GenError>();
    error_type::<RandomError>();
    error_type::<LdifError>();
    error_type::<MatchError>();
    error_type::<ParseNameHashError>();
    // Copied and compared (not hashed: no need was seen, and Hash would pin their fields).
    fn copy_eq<T: Copy + Eq + Debug>() {}
    copy_eq::<GenError>();
    copy_eq::<ParseNameHashError>();
    plain_value::<GenErrorKind>();
    plain_value::<MatchError>();
    plain_value::<Side>();
    thread_safe::<Side>();
    plain_value::<OverflowPolicy>();
    plain_value::<RegressionPolicy>();
    plain_value::<NameHash>();
    thread_safe::<GenError>();
    thread_safe::<MatchError>();
    thread_safe::<ParseNameHashError>();
    thread_safe::<NameHash>();
    // LdifError may hold an io::Error, whose inner custom error is only promised Send + Sync,
    // so only the thread traits are asserted.
    sendable::<LdifError>();
    shareable::<LdifError>();
    thread_safe::<LdifStats>();

    // An LDIF error made on a worker thread is reported on another.
    let err = std::thread::spawn(|| {
        uuidkit::ldif::add_entry_uuid(&b"dn: cn=a\nentryUUID: x\n"[..], Vec::new(), &mut || {
            Uuid::NIL
        })
        .unwrap_err()
    })
    .join()
    .unwrap();
    assert_eq!(err.line(), Some(2));
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err);
    assert!(boxed.to_string().contains("line 2"));
}

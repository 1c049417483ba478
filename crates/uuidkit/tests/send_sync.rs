//! The auto and derived traits the public value types promise. Losing one (say, a future
//! field that is not `Sync`, or a dropped `Copy`) is a breaking change; these checks make it a
//! compile error here first.

use std::fmt::{Debug, Display, LowerHex, UpperHex};
use std::hash::Hash;
use std::panic::{RefUnwindSafe, UnwindSafe};

use uuidkit::{
    Case, Domain, Error, ErrorKind, Format, Formatted, Kind, Rfc3339, TimeError, Timestamp, Uuid,
    Variant, Version,
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

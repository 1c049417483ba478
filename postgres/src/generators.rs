//! The generators under their new names (PostgreSQL 18's `uuidv4()`/`uuidv7()` among them):
//! `VOLATILE`, `STRICT`, `PARALLEL SAFE`.

use pgrx::datum::{Interval, TimestampWithTimeZone};
use pgrx::prelude::*;
use uuidkit_lib::{NameHash, Uuid};

use crate::{errors, from_pg, order, timestamps, to_pg};

/// A version 1 UUID (Gregorian time, clock sequence, random node with the multicast bit),
/// its timestamp later than every earlier v1/v6 of the order scope.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuidv1() -> pgrx::Uuid {
    to_pg(order::gregorian(true))
}

/// A random (version 4) UUID from the library's fork-safe CSPRNG.
#[pg_extern(volatile, strict, parallel_safe)]
pub(crate) fn uuidv4() -> pgrx::Uuid {
    to_pg(uuidkit_lib::v4())
}

/// A version 6 UUID, greater than every earlier v6 of the order scope.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuidv6() -> pgrx::Uuid {
    to_pg(order::gregorian(false))
}

/// A version 7 UUID, greater than every earlier v7 of the order scope (`uuidkit_order_scope()`).
#[pg_extern(volatile, strict, parallel_safe)]
pub(crate) fn uuidv7() -> pgrx::Uuid {
    to_pg(order::v7())
}

/// A version 7 UUID whose time is now plus `shift` (as PostgreSQL 18's `uuidv7(interval)`:
/// the interval added in the session's time zone). Not part of the ordered sequence.
#[pg_extern(name = "uuidv7", volatile, strict, parallel_safe)]
fn uuidv7_shift(shift: Interval) -> pgrx::Uuid {
    // The real time (not the transaction's), as PostgreSQL 18 does.
    let now = TimestampWithTimeZone::try_from(timestamps::now_pg_micros())
        .unwrap_or_else(|_| errors::time_out_of_range("the current time is out of range"));
    // SAFETY: timestamptz_pl_interval takes exactly these two arguments, a timestamptz and an
    // interval, both non-NULL datums made here, and returns a timestamptz (or raises 22008).
    let at: Option<TimestampWithTimeZone> = unsafe {
        pgrx::direct_function_call(
            pg_sys::timestamptz_pl_interval,
            &[now.into_datum(), shift.into_datum()],
        )
    };
    let at = at.unwrap_or_else(|| errors::time_out_of_range("timestamp out of range"));
    let ms = timestamps::v7_millis(at);
    let (a, b) = random_ab();
    to_pg(Uuid::from_v7_parts(ms, a, b))
}

/// 74 random bits for a v7's `rand_a` and `rand_b`.
pub(crate) fn random_ab() -> (u16, u64) {
    let r = uuidkit_lib::v4().as_u128();
    ((r >> 64) as u16 & 0x0FFF, r as u64 & ((1 << 62) - 1))
}

/// A name-based version 8 UUID (RFC 9562 Appendix B.2: SHA-256 of the namespace and the name).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuidv8_hash(namespace: pgrx::Uuid, name: &str) -> pgrx::Uuid {
    to_pg(Uuid::new_v8_name(
        NameHash::Sha256,
        &from_pg(namespace),
        name.as_bytes(),
    ))
}

/// The Max UUID (RFC 9562 §5.10): every bit 1.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_max() -> pgrx::Uuid {
    to_pg(Uuid::MAX)
}

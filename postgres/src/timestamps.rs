//! Times in and out of UUIDs: `uuid_v7_floor()`, PostgreSQL 18's `uuid_extract_timestamp()` and
//! `uuid_extract_version()`, pg_uuidv7's `uuid_v7_to_timestamptz()` and
//! `uuid_timestamptz_to_v7()`.

use pgrx::datum::TimestampWithTimeZone;
use pgrx::prelude::*;
use uuidkit_lib::{Timestamp, Uuid, Variant};

use crate::{errors, from_pg, generators, to_pg};

/// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01).
const PG_EPOCH_UNIX_MICROS: i64 = 946_684_800 * 1_000_000;

/// The largest millisecond a v7 holds (48 bits).
const V7_MAX_MS: u64 = (1 << 48) - 1;

/// The current real time in PostgreSQL's microseconds (since 2000-01-01).
pub(crate) fn now_pg_micros() -> i64 {
    let n = Timestamp::now().unix_nanos();
    (n / 1_000) as i64 - PG_EPOCH_UNIX_MICROS
}

/// The Unix millisecond of `t` (rounded down), or 22008 when a v7 cannot hold it.
pub(crate) fn v7_millis(t: TimestampWithTimeZone) -> u64 {
    if !t.is_finite() {
        errors::time_out_of_range("timestamp out of range for a UUIDv7: it is infinite");
    }
    let pg_us: i64 = t.into_inner();
    let unix_us = i128::from(pg_us) + i128::from(PG_EPOCH_UNIX_MICROS);
    let ms = unix_us.div_euclid(1_000);
    if ms < 0 {
        errors::time_out_of_range(
            "timestamp out of range for a UUIDv7: before 1970-01-01 00:00:00 UTC",
        );
    }
    if ms > i128::from(V7_MAX_MS) {
        errors::time_out_of_range(
            "timestamp out of range for a UUIDv7: after 10889-08-02 05:31:50.655 UTC (48-bit milliseconds)",
        );
    }
    ms as u64
}

/// A timestamptz from Unix microseconds (22008 when PostgreSQL cannot hold it).
fn timestamptz(unix_us: i128) -> TimestampWithTimeZone {
    let pg = unix_us - i128::from(PG_EPOCH_UNIX_MICROS);
    i64::try_from(pg)
        .ok()
        .and_then(|v| TimestampWithTimeZone::try_from(v).ok())
        .unwrap_or_else(|| errors::time_out_of_range("timestamp out of range"))
}

/// The smallest v7 of `t`'s millisecond (every random bit 0): `IMMUTABLE`, so that
/// `WHERE id >= uuid_v7_floor(a) AND id < uuid_v7_floor(b)` is an index range scan.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_v7_floor(t: TimestampWithTimeZone) -> pgrx::Uuid {
    to_pg(Uuid::from_v7_parts(v7_millis(t), 0, 0))
}

/// The time in a v1, v6 or v7 UUID of the RFC 9562 variant; NULL for the other versions and
/// variants (PostgreSQL 18 does v1 and v7 only).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_extract_timestamp(id: pgrx::Uuid) -> Option<TimestampWithTimeZone> {
    let u = from_pg(id);
    if u.variant() != Variant::Rfc9562 {
        return None;
    }
    let unix_us = match u.version_num() {
        1 | 6 => u.timestamp()?.unix_nanos().div_euclid(1_000),
        7 => i128::from(u.unix_ts_ms()?) * 1_000,
        _ => return None,
    };
    Some(timestamptz(unix_us))
}

/// The version of a UUID of the RFC 9562 variant; NULL for other variants (as PostgreSQL 18).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_extract_version(id: pgrx::Uuid) -> Option<i16> {
    let u = from_pg(id);
    (u.variant() == Variant::Rfc9562).then(|| i16::from(u.version_num()))
}

/// pg_uuidv7's `uuid_v7_to_timestamptz(uuid)`: the first 48 bits as Unix milliseconds (the
/// version is not checked, as pg_uuidv7 does not).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_v7_to_timestamptz(id: pgrx::Uuid) -> TimestampWithTimeZone {
    let ms = from_pg(id).as_u128() >> 80;
    timestamptz(ms as i128 * 1_000)
}

/// pg_uuidv7's `uuid_timestamptz_to_v7(timestamptz, zero boolean DEFAULT false)`: a v7 of that
/// millisecond, with random bits, or with every random bit 0 when `zero`. `VOLATILE` (random
/// bits), as pg_uuidv7's.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuid_timestamptz_to_v7(t: TimestampWithTimeZone, zero: default!(bool, false)) -> pgrx::Uuid {
    let ms = v7_millis(t);
    let (a, b) = if zero {
        (0, 0)
    } else {
        generators::random_ab()
    };
    to_pg(Uuid::from_v7_parts(ms, a, b))
}

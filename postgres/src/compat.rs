//! Drop-in names: uuid-ossp's (`uuid_generate_v1()` … `uuid_ns_x500()`, the same results for
//! v3 and v5) and pg_uuidv7's `uuid_generate_v7()` (its time functions are in `timestamps`).

use pgrx::prelude::*;
use uuidkit_lib::generator::random_node;
use uuidkit_lib::generator::ThreadRng;
use uuidkit_lib::Uuid;

use crate::{from_pg, generators, order, to_pg};

/// uuid-ossp's v1; here with a random node (multicast bit set) rather than a MAC address, from
/// the ordered v1/v6 timeline.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuid_generate_v1() -> pgrx::Uuid {
    to_pg(order::gregorian(true))
}

/// uuid-ossp's v1 with a random multicast node: a fresh random node (multicast bit set) for
/// each UUID.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuid_generate_v1mc() -> pgrx::Uuid {
    let u = order::gregorian(true);
    let mut b = u.into_bytes();
    b[10..16].copy_from_slice(&random_node(&mut ThreadRng));
    to_pg(Uuid::from_bytes(b))
}

/// uuid-ossp's v3: MD5 of the namespace's 16 bytes and the name's (UTF-8) bytes.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_generate_v3(namespace: pgrx::Uuid, name: &str) -> pgrx::Uuid {
    to_pg(Uuid::new_v3(&from_pg(namespace), name.as_bytes()))
}

/// uuid-ossp's v4.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuid_generate_v4() -> pgrx::Uuid {
    generators::uuidv4()
}

/// uuid-ossp's v5: SHA-1 of the namespace's 16 bytes and the name's bytes.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_generate_v5(namespace: pgrx::Uuid, name: &str) -> pgrx::Uuid {
    to_pg(Uuid::new_v5(&from_pg(namespace), name.as_bytes()))
}

/// The Nil UUID.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_nil() -> pgrx::Uuid {
    to_pg(Uuid::NIL)
}

/// The DNS namespace (RFC 9562 §6.6).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_ns_dns() -> pgrx::Uuid {
    to_pg(Uuid::NAMESPACE_DNS)
}

/// The URL namespace.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_ns_url() -> pgrx::Uuid {
    to_pg(Uuid::NAMESPACE_URL)
}

/// The ISO OID namespace.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_ns_oid() -> pgrx::Uuid {
    to_pg(Uuid::NAMESPACE_OID)
}

/// The X.500 DN namespace.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_ns_x500() -> pgrx::Uuid {
    to_pg(Uuid::NAMESPACE_X500)
}

/// pg_uuidv7's `uuid_generate_v7()`: the extension's ordered `uuidv7()`.
#[pg_extern(volatile, strict, parallel_safe)]
fn uuid_generate_v7() -> pgrx::Uuid {
    generators::uuidv7()
}

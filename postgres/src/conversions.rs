//! Conversions: v1 ⇄ v6 (RFC 9562 §5.6), and the short forms with the library's rules: TypeID,
//! ULID, base58 (Bitcoin's alphabet) and base64url. Text that does not decode is an error with
//! SQLSTATE 22P02 and the library's message. All `IMMUTABLE`, `STRICT`, `PARALLEL SAFE`.

use pgrx::prelude::*;
use uuidkit_lib::{Prefix, ShortBuffer, ShortForm, TypeId, TypeIdBuffer, Uuid, MAX_TYPEID_LEN};

use crate::text::TextBytes;
use crate::{errors, from_pg, to_pg};

/// A v1 UUID as v6 (the same timestamp, clock sequence and node, in time order); 22023 for a
/// UUID that is not v1.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_v1_to_v6(id: pgrx::Uuid) -> pgrx::Uuid {
    let u = from_pg(id);
    match u.to_v6() {
        Some(v) if u.version_num() == 1 => to_pg(v),
        _ => errors::invalid_parameter(format!("uuid_v1_to_v6: {u} is not a version 1 UUID")),
    }
}

/// A v6 UUID as v1; 22023 for a UUID that is not v6.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_v6_to_v1(id: pgrx::Uuid) -> pgrx::Uuid {
    let u = from_pg(id);
    match u.to_v1() {
        Some(v) if u.version_num() == 6 => to_pg(v),
        _ => errors::invalid_parameter(format!("uuid_v6_to_v1: {u} is not a version 6 UUID")),
    }
}

fn prefix(p: TextBytes<'_>) -> Prefix {
    // The library checks a prefix as text; bytes that are not UTF-8 cannot be one (a-z, `_`).
    let s = std::str::from_utf8(p.0).unwrap_or_else(|e| {
        errors::invalid_text(
            "a TypeID prefix",
            format!(
                "invalid byte at byte {}: expected a-z or '_'",
                e.valid_up_to()
            ),
        )
    });
    Prefix::new(s).unwrap_or_else(|e| errors::invalid_text("a TypeID prefix", e))
}

/// The TypeID of `id` with `prefix` (`prefix_01h455vb4pex5vsknk084sn02q`; an empty prefix
/// gives the suffix alone).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_to_typeid(prefix_text: TextBytes<'_>, id: pgrx::Uuid) -> String {
    let mut buf: TypeIdBuffer = [0; MAX_TYPEID_LEN];
    TypeId::new(prefix(prefix_text), from_pg(id))
        .encode(&mut buf)
        .to_owned()
}

fn parse_typeid(text: TextBytes<'_>) -> TypeId {
    TypeId::parse(text.0).unwrap_or_else(|e| errors::invalid_text("a TypeID", e))
}

/// The UUID of a TypeID, whatever its prefix.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_from_typeid(typeid: TextBytes<'_>) -> pgrx::Uuid {
    to_pg(parse_typeid(typeid).uuid())
}

/// The UUID of a TypeID whose prefix must be `expected` (22P02 otherwise).
#[pg_extern(name = "uuid_from_typeid", immutable, strict, parallel_safe)]
fn uuid_from_typeid_prefix(typeid: TextBytes<'_>, expected: TextBytes<'_>) -> pgrx::Uuid {
    let want = prefix(expected);
    let t = parse_typeid(typeid);
    if t.prefix() != &want {
        errors::invalid_text(
            "a TypeID",
            format!(
                "the prefix is {:?}, expected {:?}",
                t.prefix().as_str(),
                want.as_str()
            ),
        );
    }
    to_pg(t.uuid())
}

fn encode(id: pgrx::Uuid, form: ShortForm) -> String {
    let mut buf: ShortBuffer = [0; uuidkit_lib::MAX_SHORT_LEN];
    from_pg(id).encode_short(form, &mut buf).to_owned()
}

fn decode(text: TextBytes<'_>, form: ShortForm, what: &str) -> pgrx::Uuid {
    to_pg(Uuid::parse_short(form, text.0).unwrap_or_else(|e| errors::invalid_text(what, e)))
}

/// ULID text (26 characters of Crockford's base32, upper case).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_to_ulid(id: pgrx::Uuid) -> String {
    encode(id, ShortForm::Ulid)
}

/// The UUID of a ULID (either case).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_from_ulid(ulid: TextBytes<'_>) -> pgrx::Uuid {
    decode(ulid, ShortForm::Ulid, "a ULID")
}

/// base58 with Bitcoin's alphabet, 22 characters.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_to_base58(id: pgrx::Uuid) -> String {
    encode(id, ShortForm::Base58)
}

/// The UUID of its 22-character base58 form.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_from_base58(text: TextBytes<'_>) -> pgrx::Uuid {
    decode(text, ShortForm::Base58, "a base58 UUID")
}

/// base64url (RFC 4648 §5), unpadded, 22 characters.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_to_base64url(id: pgrx::Uuid) -> String {
    encode(id, ShortForm::Base64Url)
}

/// The UUID of its 22-character base64url form.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_from_base64url(text: TextBytes<'_>) -> pgrx::Uuid {
    decode(text, ShortForm::Base64Url, "a base64url UUID")
}

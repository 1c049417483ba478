//! # uuidkit
//!
//! ```toml
//! [dependencies]
//! uuidkit = "0.1"
//! ```
//!
//! UUIDs as RFC 9562 defines them: the 128-bit value and every representation of it
//! (hyphenated, simple, braced, URN, decimal integer, OID, Microsoft GUID bytes), generators for
//! every version 1–8 with the RFC's §6 best practice, and RFC 4530 (LDAP `entryUUID`) matching.
//! Rust 1.86 or later.
//!
//! | feature | default | what it brings |
//! |---|---|---|
//! | `std` | yes | the generators ([`v4()`], [`v7()`], [`generator`]), the OS clock and entropy, fork detection, [`ldif`]; without it the crate is `no_std` and allocation-free |
//! | `simd` | yes | the SSSE3/AVX2 (x86-64) and NEON (AArch64) text codecs |
//! | `v3`, `v5` | yes | [`Uuid::new_v3`] (MD5) and [`Uuid::new_v5`] (SHA-1) |
//! | `v8-sha2`, `v8-sha3` | yes | [`Uuid::new_v8_name`] with SHA-256 and SHA-512, SHA3-256 and SHAKE128 |
//! | `js` | no | `std` on `wasm32-unknown-unknown` in a JavaScript host (no effect elsewhere) |
//! | `serde` | no | `Serialize`/`Deserialize` for [`Uuid`], the `uuidkit::serde` adapter modules |
//! | `uuid` | no | lossless `From` conversions to and from `uuid::Uuid` |
//! | `arbitrary`, `bytemuck`, `zerocopy`, `borsh`, `schemars` | no | those crates' traits on [`Uuid`] |
//! | `rusqlite`, `postgres` | no | `ToSql`/`FromSql` for rusqlite and `postgres-types` (`postgres`, `tokio-postgres`) |
//! | `sqlx-postgres`, `sqlx-sqlite`, `sqlx-mysql` | no | sqlx 0.8's `Type`/`Encode`/`Decode`, one database each |
//! | `diesel`, `diesel-postgres` | no | diesel 2's `ToSql`/`FromSql`: `Binary` on every backend, PostgreSQL `uuid` |
//! | `arrow` | no | `uuidkit::arrow`: column kernels on arrow-rs arrays (parse, format, generate, timestamp, version, validate) |
//!
//! The details of each feature are under [Features in detail](#features-in-detail). On
//! docs.rs every item that needs a feature says which.
//!
//! The command-line tool is its own crate: `cargo install uuidkit-cli` installs the `uuidkit`
//! binary (generate, inspect, validate, convert and sort UUIDs; `uuidgen` and `uuidparse`
//! personalities). The system-wide generator service (Unix), which keeps v1, v6 and v7 unique
//! across processes and restarts, is the [`uuidkit-service`](https://docs.rs/uuidkit-service)
//! crate; `uuidkit serve` runs it.
//!
//! ## Which version should I use?
//!
//! - **A database key or anything that should sort by creation time: v7** (Unix milliseconds +
//!   counter + random, RFC 9562 §5.7). This is the RFC's recommendation for new systems (§6.12
//!   aside, prefer it over v1 and v6).
//! - **An identifier that must reveal nothing: v4** (122 random bits, §5.4).
//! - **The same input must always give the same UUID: v5** (SHA-1 of a namespace and a name,
//!   §5.5), or v3 (MD5) for compatibility, or v8 with SHA-256 (Appendix B.2) where SHA-1 is not
//!   wanted.
//! - **Sorting v1-style identifiers already in use: v6** (a reordered v1, §5.6); v1 only for
//!   interoperating with systems that expect it.
//! - **Your own layout: v8** (§5.8), e.g. a distributed layout with a node-id field (§6.4).
//! - Nil and Max (§5.9, §5.10) are sentinels, never identifiers.
//!
//! ## A tour
//!
//! ### The value and its text forms (RFC 9562 §4)
//!
//! A [`Uuid`] is 16 bytes in network order. It parses from the hyphenated, simple, braced and
//! URN forms in either case, and writes any of them — through `Display` adapters or into a
//! stack buffer, without allocating. A bad input is an [`Error`] that names the problem and
//! its byte.
//!
//! ```
//! use uuidkit::{uuid, Case, Format, Uuid, Variant, Version};
//!
//! let u: Uuid = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F".parse()?;
//! assert_eq!(u.variant(), Variant::Rfc9562);
//! assert_eq!(u.version(), Some(Version::SortRand));
//! assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
//! assert_eq!(u.braced().to_string(), "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}");
//! assert_eq!(format!("{:X}", u.urn()), "urn:uuid:017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
//! let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
//! assert_eq!(u.encode(Format::Simple, Case::Upper, &mut buf), "017F22E279B07CC398C4DC0C0C07398F");
//!
//! // Checked at compile time: a typo here does not build.
//! const ID: Uuid = uuid!("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
//! assert_eq!(ID, Uuid::NAMESPACE_DNS);
//!
//! let err = Uuid::parse_str("017f22e2-79b0-7cc3-98c4-dc0c0c07398g").unwrap_err();
//! assert_eq!((err.position(), err.is_invalid_char()), (35, true));
//! assert_eq!(err.to_string(), "invalid character 'g' at byte 35: expected a hexadecimal digit");
//! # Ok::<(), uuidkit::Error>(())
//! ```
//!
//! ### Fields and time (RFC 9562 §5)
//!
//! Every layout's fields have an accessor that is `Some` only for that layout; the time of
//! v1, v2, v6 and v7 comes back as a [`Timestamp`].
//!
//! ```
//! use uuidkit::Uuid;
//! // Source: RFC 9562 Appendix A.1 and A.6.
//! let v1 = Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846")?;
//! assert_eq!(v1.clock_seq(), Some(0x33C8));
//! assert_eq!(v1.node(), Some([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]));
//! assert_eq!(v1.to_v6().map(|u| u.to_string()).as_deref(), Some("1ec9414c-232a-6b00-b3c8-9f6bdeced846"));
//! let v7 = Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")?;
//! assert_eq!(v7.unix_ts_ms(), Some(0x017F22E279B0));
//! assert_eq!(v7.timestamp().unwrap().to_rfc3339(3).to_string(), "2022-02-22T19:22:22.000Z");
//! assert_eq!(v7.clock_seq(), None); // not a v1/v6 field
//! # Ok::<(), uuidkit::Error>(())
//! ```
//!
//! ### Generators (RFC 9562 §6; feature `std`)
//!
//! The functions [`v7()`], [`v6()`] and [`v1()`] use process-wide generators that are
//! monotonic across threads (v1 in its timestamp, not its bytes, which put the low time bits
//! first); [`v4()`] draws from the thread's CSPRNG. A forked child continues neither the
//! generators' state nor the random stream wherever the fork is detected (every fork on Linux
//! 4.14 and later and the BSDs; only `fork()` on macOS and older Linux). For control — the
//! §6.2 method, clock regression and counter overflow policies, a fixed node, an injected clock
//! for tests — build a generator from [`generator`]; name-based UUIDs are plain functions.
//!
//! ```
//! use uuidkit::generator::{FixedClock, OverflowPolicy, ThreadRng, V7Builder, V7Method};
//! use uuidkit::{NameHash, Timestamp, Uuid};
//!
//! let a = uuidkit::v7();
//! assert!(uuidkit::v7() > a);
//! assert_eq!(uuidkit::v4().version_num(), 4);
//!
//! // Method 1 (a 12-bit counter) on a clock frozen at the Appendix A.6 instant.
//! let clock = FixedClock::new(Timestamp::from_unix_millis(0x017F22E279B0));
//! let mut g = V7Builder::new()
//!     .method(V7Method::Counter { bits: 12 })
//!     .overflow(OverflowPolicy::Error)
//!     .build(clock, ThreadRng)?;
//! let (x, y) = (g.next()?, g.next()?);
//! assert!(x < y && x.unix_ts_ms() == Some(0x017F22E279B0));
//!
//! // Source: RFC 9562 Appendix A.4 (v5) and B.2 (v8 with SHA-256).
//! assert_eq!(Uuid::new_v5(&Uuid::NAMESPACE_DNS, b"www.example.com").to_string(),
//!            "2ed6657d-e927-568b-95e1-2665a8aea6a2");
//! assert_eq!(Uuid::new_v8_name(NameHash::Sha256, &Uuid::NAMESPACE_DNS, b"www.example.com").to_string(),
//!            "5c146b14-3c52-8afd-938a-375d0df1fbf6");
//! # Ok::<(), uuidkit::generator::GenError>(())
//! ```
//!
//! ### Other forms
//!
//! The 128-bit decimal integer, the OID under `2.25` (ITU-T X.667), and the byte order of
//! Microsoft GUIDs (first three fields little-endian).
//!
//! ```
//! use uuidkit::Uuid;
//! let u = Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")?;
//! assert_eq!(u.decimal().to_string(), "329800735698586629295641978511506172918");
//! assert_eq!(u.oid().to_string(), "2.25.329800735698586629295641978511506172918");
//! assert_eq!(Uuid::parse_oid(b"urn:oid:2.25.329800735698586629295641978511506172918")?, u);
//! assert_eq!(Uuid::from_bytes_le(u.to_bytes_le()), u);
//! assert_eq!(u.guid_hex().to_string(), "ae4f1df8ec7dd011a76500a0c91e6bf6");
//! # Ok::<(), uuidkit::Error>(())
//! ```
//!
//! ### Short forms and TypeID
//!
//! ULID text, base32hex, base58 (Bitcoin's and Flickr's alphabets) and base64url
//! ([`ShortForm`]), each read only by name; and TypeID ([`TypeId`], [`TypedId`]).
//!
//! ```
//! use uuidkit::{ShortForm, TypeId, Uuid};
//! let u = Uuid::parse_str("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")?;
//! assert_eq!(u.short(ShortForm::Ulid).to_string(), "01FWHE4YDGFK1SHH6W1G60EECF");
//! assert_eq!(u.short(ShortForm::Base58).to_string(), "1BihbxwwQ4NZZpKRH9JDCz");
//! assert_eq!(Uuid::parse_base64url(b"AX8i4nmwfMOYxNwMDAc5jw")?, u);
//! let t: TypeId = "user_01fwhe4ydgfk1shh6w1g60eecf".parse()?;
//! assert_eq!((t.prefix().as_str(), t.uuid()), ("user", u));
//! # Ok::<(), uuidkit::Error>(())
//! ```
//!
//! ### LDAP (RFC 4530)
//!
//! [`ldap`] validates the `entryUUID` syntax and evaluates `uuidMatch` and
//! `uuidOrderingMatch`; [`ldif`] (feature `std`) adds `entryUUID` lines to an LDIF stream.
//!
//! ```
//! use uuidkit::ldap;
//! // Source: RFC 4530 §2.1 example value.
//! assert!(ldap::uuid_match(b"597AE2F6-16A6-1027-98F4-D28B5365DC14",
//!                          b"597ae2f6-16a6-1027-98f4-d28b5365dc14")?);
//! // octetStringOrderingMatch: TRUE when the value sorts before the assertion.
//! assert!(ldap::uuid_ordering_rule(b"597ae2f6-16a6-1027-98f4-d28b5365dc14",
//!                                  b"00000000-0000-0000-0000-000000000000")?);
//! let mut out = Vec::new();
//! let mut next = || uuidkit::Uuid::NAMESPACE_DNS;
//! uuidkit::ldif::add_entry_uuid(&b"dn: cn=alice\ncn: alice\n"[..], &mut out, &mut next).unwrap();
//! assert!(out.ends_with(b"entryUUID: 6ba7b810-9dad-11d1-80b4-00c04fd430c8\n"));
//! # Ok::<(), ldap::MatchError>(())
//! ```
//!
//! ## Features in detail
//!
//! - `std` (default): generators, the OS clock and entropy, fork detection, LDIF. Without it
//!   the crate is `no_std` and allocation-free: the value, parsing, formatting, the other
//!   forms, RFC 4530 matching and the name-based builders (with their features) remain.
//! - `simd` (default): the SSSE3/AVX2 (x86-64) and NEON (AArch64) text codecs; without it only
//!   the scalar ones.
//! - `v3`, `v5`, `v8-sha2`, `v8-sha3` (all default): the name-based UUIDs, one hash crate each
//!   (all `no_std`): `v3` compiles MD5 (`md-5`) and [`Uuid::new_v3`], `v5` SHA-1 (`sha1`) and
//!   [`Uuid::new_v5`], `v8-sha2` SHA-256 and SHA-512 (`sha2`), `v8-sha3` SHA3-256 and SHAKE128
//!   (`sha3`), each as its [`NameHash`] variant; [`Uuid::new_v8_name`] exists with either v8
//!   feature. A crate that only parses and formats turns the defaults off and compiles no hash.
//!   [`NameHash`] and its parser are always present: the name of a hash left out
//!   (`"sha256".parse::<NameHash>()` without `v8-sha2`) is an error that names the missing
//!   feature ([`ParseNameHashError::missing_feature`]), never a panic, and the enum is
//!   `#[non_exhaustive]`, so a feature turned on elsewhere in a build cannot break a `match`.
//!   The feature names follow the `uuid` crate's `v3` and `v5`; v8 is split by hash family
//!   because there the hash is the caller's choice.
//! - `js`: `std` on `wasm32-unknown-unknown` in a JavaScript host (browser, Node, Deno): the
//!   clock is JavaScript's `Date.now()` (1 ms resolution) and the entropy
//!   `crypto.getRandomValues` (getrandom's `wasm_js` backend; no `RUSTFLAGS` needed). That target
//!   has no OS, so `std` without `js` does not build there; it has no effect on other targets.
//! - `serde`: `Serialize`/`Deserialize` for [`Uuid`] and adapter modules (`uuidkit::serde`);
//!   `no_std`.
//! - `uuid`: lossless `From` conversions to and from `uuid::Uuid`; `no_std`.
//! - `arbitrary`, `bytemuck`, `zerocopy` (0.8), `borsh`, `schemars` (1): the traits of those
//!   crates on [`Uuid`], each off by default and `no_std` (but the `arbitrary` crate uses
//!   `std`): `Arbitrary` (any 16 bytes), `Pod`/`Zeroable` and zerocopy's `FromBytes`,
//!   `IntoBytes`, `KnownLayout`, `Immutable`, `Unaligned` (zero-copy casts of byte buffers to
//!   `&[Uuid]`), borsh as the 16 bytes, and a JSON Schema `{"type": "string", "format":
//!   "uuid"}`.
//! - Database drivers on `Uuid` itself (each links std for its driver crate, without turning
//!   on the `std` feature and what it brings: clock, entropy, generators): `rusqlite` (a 16-byte BLOB, TEXT
//!   also read; rusqlite 0.32 to 0.41), `postgres` (`postgres-types`' `ToSql`/`FromSql` for
//!   PostgreSQL `uuid`, used by the `postgres` and `tokio-postgres` clients), and sqlx 0.8's
//!   `Type`/`Encode`/`Decode` as `sqlx-postgres` (`uuid`, `uuid[]`), `sqlx-sqlite` (a 16-byte
//!   BLOB, TEXT also read) and `sqlx-mysql` (`BINARY(16)`, UUID text also read); these turn on
//!   no sqlx runtime or TLS, which the application chooses. diesel 2.3 as `diesel` (`Uuid` as a
//!   `table!` column type for `Binary` on every backend: SQLite BLOB, MySQL `BINARY(16)`,
//!   PostgreSQL `bytea`; UUID text also read) and `diesel-postgres` (PostgreSQL `Uuid`, through
//!   diesel's `postgres_backend`, so without libpq); these choose no diesel connection. Each
//!   `Option<Uuid>` is NULL; a wrong length or bad text is the driver's error, never a panic.
//! - `arrow` (turns on `std`): the `uuidkit::arrow` module, column kernels on arrow-rs 59 arrays
//!   (`arrow-array`, `arrow-buffer`, `arrow-schema`, not the `arrow` crate): `Utf8`,
//!   `LargeUtf8` and `Utf8View` text in any RFC form or one named short form or TypeID to
//!   `FixedSizeBinary(16)` (`arrow::parse`, `arrow::validate`), back to text in every form
//!   the library writes (`arrow::format`), `n` v4 or v7 UUIDs at once (`arrow::v4`,
//!   `arrow::v7`, the latter continuing `v7()`'s order), and `timestamp[ms, UTC]` and
//!   `UInt8` version columns (`arrow::timestamp`, `arrow::version`). Fields carry Arrow's
//!   canonical extension type `arrow.uuid` (`arrow::uuid_field`). Nulls stay null, sliced
//!   arrays are read at their offset, the per-row work is the SIMD codecs (large columns split over
//!   the machine's threads: `arrow::set_max_threads`), and a bad row is an
//!   error naming the row and the character (`arrow::RowError`), never a panic.
//!
//! ## Platforms
//!
//! The `no_std` core builds for any target. With `std` (the default):
//!
//! | platform | clock | entropy | fork |
//! |---|---|---|---|
//! | Linux, macOS, FreeBSD (Unix) | `clock_gettime` | `getrandom` (OS) | detected, state renewed in the child: any fork (a page the kernel zeroes in children) on Linux ≥ 4.14 and the BSDs, `fork()` (`pthread_atfork`) on macOS |
//! | Windows | `SystemTime` | `getrandom` (OS) | no `fork()`: nothing to detect |
//! | `wasm32-wasip1` (WASI) | `SystemTime` | `getrandom` (WASI `random_get`) | no processes |
//! | `wasm32-unknown-unknown` + `js` | `Date.now()` | `crypto.getRandomValues` | no processes |
//! | `wasm32-unknown-unknown` without `js` | — | — | `std` does not build: use `default-features = false` |
//!
//! Differences within the generators: [`V2Generator::next_person`](generator::V2Generator::next_person)
//! and `next_group` read the process's POSIX user and group ids and exist on Unix only
//! (elsewhere pass the id to `next`); on `wasm32-unknown-unknown`, where JavaScript's thread
//! cannot sleep, [`OverflowPolicy::Wait`](generator::OverflowPolicy::Wait) spins on the clock. The
//! CI checks every row (`scripts/cross-check`) and runs the unit tests on AArch64 Linux (qemu)
//! and the WASM tests under Node.

#![cfg_attr(not(feature = "std"), no_std)]
// docs.rs (Cargo.toml, `package.metadata.docs.rs`): each item shows the features and platforms
// it needs. `doc_cfg` is nightly-only; it took in the former `doc_auto_cfg`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
// Every `unsafe fn` has a `# Safety` section (the lint sees public ones; the SIMD kernels point
// to the contract on `simd::Kernels`).
#![deny(clippy::missing_safety_doc)]
#![warn(clippy::undocumented_unsafe_blocks)]

// The database drivers' crates and their traits' boxed errors need std, but not this crate's
// `std` feature (OS clock, entropy, generators): with a driver alone, std is linked for them.
#[cfg(all(
    not(feature = "std"),
    any(
        feature = "diesel",
        feature = "postgres",
        feature = "rusqlite",
        feature = "sqlx-postgres",
        feature = "sqlx-sqlite",
        feature = "sqlx-mysql"
    )
))]
extern crate std;

mod error;
// The calls that differ between operating systems (clock, fork, user ids), in one place.
#[cfg(feature = "std")]
mod sys;
mod timestamp;
mod uuid;

// The text codecs, layered bottom up: `text` (the forms as data), `diagnose` (the slow path that
// explains a rejected input), `scalar` (the `const fn` code), `simd` (the kernels, dispatched
// once per process), and `parse` and `fmt` (the public reading and writing API) on top.
mod diagnose;
mod fmt;
mod parse;
mod scalar;
mod simd;
mod text;

// Decimal digits, eight at a time (the decimal form, RFC 3339 fractions).
mod digits;

// Other representations: decimal integer, OID, Microsoft GUID bytes.
mod forms;
// The short forms: ULID text, base32hex, base58, base64url; TypeID.
mod short;
mod typeid;
// RFC 4530: LDAP UUID syntax and matching rules.
pub mod ldap;
// LDIF (RFC 2849) pass-through that adds entryUUID lines.
#[cfg(feature = "std")]
pub mod ldif;

pub use crate::error::{Error, ErrorKind};
pub use crate::fmt::{EncodeBuffer, Formatted, MAX_ENCODED_LEN};
pub use crate::forms::{Decimal, DecimalBuffer, Oid, OidUrn, MAX_DECIMAL_LEN};
pub use crate::short::{Short, ShortBuffer, MAX_SHORT_LEN};
pub use crate::simd::{encode_lines, simd_level};
pub use crate::text::{Case, Format, ShortForm};
pub use crate::timestamp::{Rfc3339, TimeError, Timestamp, GREGORIAN_OFFSET_TICKS};
pub use crate::typeid::{
    Prefix, TypeId, TypeIdBuffer, TypeIdPrefix, TypedId, MAX_PREFIX_LEN, MAX_TYPEID_LEN,
};
pub use crate::uuid::{Domain, Kind, Uuid, Variant, Version};

// Name-based UUIDs (v3, v5, v8 with SHA-2/SHA-3), each hash behind its feature: no_std.
mod name;
pub use crate::name::{NameHash, ParseNameHashError};

// Generators (need the OS: clock, entropy, fork detection).
#[cfg(feature = "std")]
pub mod generator;
#[cfg(feature = "std")]
pub use crate::generator::global::{v1, v6, v7, v7_batch};
#[cfg(feature = "std")]
pub use crate::generator::v4::v4;
#[cfg(feature = "std")]
pub use crate::generator::{Clock, RandomSource};

// The glue to other crates, a file per crate: the `uuid` crate's names and conversions, serde,
// the traits of arbitrary, bytemuck, borsh and schemars, the database drivers; each behind its
// feature.
mod integrations;
// Serde support and adapter modules for `#[serde(with = "...")]`.
#[cfg(feature = "serde")]
pub use crate::integrations::serde;
// Column kernels on arrow-rs arrays.
#[cfg(feature = "arrow")]
pub use crate::integrations::arrow;

mod non_nil;
pub use crate::non_nil::{NilUuidError, NonNilUuid};

// The crate's own README (shipped in the package, shown on crates.io) runs as a doc test, so it
// cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! # uuidkit
//!
//! UUIDs as RFC 9562 defines them: the 128-bit value and every representation of it
//! (hyphenated, simple, braced, URN, decimal integer, OID, Microsoft GUID bytes), generators for
//! every version 1–8 with the RFC's §6 best practice, and RFC 4530 (LDAP `entryUUID`) matching.
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
//! ```
//! use uuidkit::{Case, Format, Uuid, Variant, Version};
//!
//! let u: Uuid = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F".parse()?;
//! assert_eq!(u.variant(), Variant::Rfc9562);
//! assert_eq!(u.version(), Some(Version::SortRand));
//! assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
//! let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
//! assert_eq!(u.encode(Format::Simple, Case::Upper, &mut buf), "017F22E279B07CC398C4DC0C0C07398F");
//! # Ok::<(), uuidkit::Error>(())
//! ```
//!
//! Without the default `std` feature the crate is `no_std` and allocation-free: the value,
//! parsing, formatting, the other forms, RFC 4530 matching and the name-based builders remain.

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod error;
mod fmt;
mod parse;
mod timestamp;
mod uuid;

// Other representations: decimal integer, OID, Microsoft GUID bytes.
mod forms;
// RFC 4530: LDAP UUID syntax and matching rules.
pub mod ldap;
// LDIF (RFC 2849) pass-through that adds entryUUID lines.
#[cfg(feature = "std")]
pub mod ldif;

pub use crate::error::{Error, ErrorKind};
pub use crate::fmt::{Case, EncodeBuffer, Format, Formatted, MAX_ENCODED_LEN};
pub use crate::forms::{Decimal, DecimalBuffer, Oid, OidUrn, MAX_DECIMAL_LEN};
pub use crate::timestamp::{Rfc3339, TimeError, Timestamp, GREGORIAN_OFFSET_TICKS};
pub use crate::uuid::{Domain, Kind, Uuid, Variant, Version};

// Name-based UUIDs (v3, v5, v8 with SHA-2/SHA-3): no_std.
mod name;
pub use crate::name::{NameHash, ParseNameHashError};

// Generators (need the OS: clock, entropy, fork detection).
#[cfg(feature = "std")]
pub mod gen;
#[cfg(feature = "std")]
pub use crate::gen::global::{v1, v6, v7, v7_batch};
#[cfg(feature = "std")]
pub use crate::gen::v4::v4;
#[cfg(feature = "std")]
pub use crate::gen::{Clock, RandomSource};

// Generator state in stable storage (RFC 9562 §6.3) and the system-wide service.
#[cfg(feature = "std")]
pub mod service;
#[cfg(feature = "std")]
pub mod state;

// The README's Rust examples run as doc tests, so the README cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

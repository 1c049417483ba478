//! The glue to other crates, a file per crate it speaks to, each behind the feature of the same
//! name (all off by default) unless said otherwise:
//!
//! | file | feature | what it brings |
//! |---|---|---|
//! | `uuid.rs` | none; `uuid` for the conversions | the `uuid` crate's names on [`Uuid`](crate::Uuid) (`Uuid::new_v4()`, `try_parse`, `from_slice`, …; the generators with `std`), and `From` to and from `uuid::Uuid` |
//! | `serde.rs` | `serde` | `Serialize`/`Deserialize`, and the adapter modules: public as `uuidkit::serde` |
//! | `arbitrary.rs` | `arbitrary` | `Arbitrary`: any 16 bytes |
//! | `borsh.rs` | `borsh` | `BorshSerialize`/`BorshDeserialize`: the 16 bytes |
//! | `bytemuck.rs` | `bytemuck` | `Pod`/`Zeroable` |
//! | `schemars.rs` | `schemars` | `JsonSchema`: a string with format `uuid` |
//! | `diesel.rs` | `diesel`, `diesel-postgres` | diesel 2's `ToSql`/`FromSql` for `Binary` and PostgreSQL `Uuid` |
//! | `postgres.rs` | `postgres` | `postgres-types`' `ToSql`/`FromSql` for PostgreSQL `uuid` |
//! | `rusqlite.rs` | `rusqlite` | rusqlite's `ToSql`/`FromSql`: a 16-byte BLOB |
//! | `sqlx.rs` | `sqlx-postgres`, `sqlx-sqlite`, `sqlx-mysql` | sqlx 0.8's `Type`/`Encode`/`Decode` |
//! | `sql.rs` | any of the database features | what the database drivers share |
//! | `arrow.rs` | `arrow` | column kernels on arrow-rs arrays: public as `uuidkit::arrow` |
//!
//! zerocopy's derives (feature `zerocopy`) sit on the type itself, in `uuid.rs` at the crate's
//! root. All are `no_std` but `arbitrary`, whose crate uses `std`, and the database drivers,
//! which link std for their crates without turning on the `std` feature.

// The `uuid` crate's names are always there; its conversions need the `uuid` feature.
mod uuid;

#[cfg(feature = "serde")]
pub mod serde;

#[cfg(feature = "arrow")]
pub mod arrow;

#[cfg(feature = "arbitrary")]
mod arbitrary;
#[cfg(feature = "borsh")]
mod borsh;
#[cfg(feature = "bytemuck")]
mod bytemuck;
#[cfg(feature = "schemars")]
mod schemars;

// Database drivers. On docs.rs each impl names its own feature (the `doc(cfg)` marks), not
// also the `any(...)` a module is compiled under.
#[cfg(any(
    feature = "diesel",
    feature = "rusqlite",
    feature = "postgres",
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "sqlx-mysql"
))]
mod sql;

#[cfg(feature = "diesel")]
#[cfg_attr(docsrs, doc(auto_cfg = false), doc(cfg(feature = "diesel")))]
mod diesel;
#[cfg(feature = "postgres")]
#[cfg_attr(docsrs, doc(auto_cfg = false), doc(cfg(feature = "postgres")))]
mod postgres;
#[cfg(feature = "rusqlite")]
#[cfg_attr(docsrs, doc(auto_cfg = false), doc(cfg(feature = "rusqlite")))]
mod rusqlite;
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "sqlx-mysql"
))]
#[cfg_attr(docsrs, doc(auto_cfg = false))]
mod sqlx;

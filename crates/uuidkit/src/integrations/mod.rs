//! The traits of other crates that people derive through, on [`Uuid`](crate::Uuid), each
//! behind the feature of the same name, all off by default: `arbitrary`, `bytemuck`,
//! `zerocopy` (its derives sit on the type itself, in `uuid.rs`), `borsh` and `schemars`. All
//! are `no_std` but `arbitrary`, whose crate uses `std`.

#[cfg(feature = "arbitrary")]
mod arbitrary;
#[cfg(feature = "borsh")]
mod borsh;
#[cfg(feature = "bytemuck")]
mod bytemuck;
#[cfg(feature = "schemars")]
mod schemars;

//! `bytemuck::Zeroable` and `bytemuck::Pod` (feature `bytemuck`): a byte buffer cast to
//! `&[Uuid]` without copying.
//!
//! ```
//! let buf = [0xffu8; 32];
//! let ids: &[uuidkit::Uuid] = bytemuck::cast_slice(&buf);
//! assert_eq!(ids, [uuidkit::Uuid::MAX; 2]);
//! assert!(bytemuck::try_cast_slice::<u8, uuidkit::Uuid>(&buf[..31]).is_err());
//! ```

use crate::Uuid;

// SAFETY: `Uuid` is `#[repr(transparent)]` over `[u8; 16]`, and all zero bytes are a valid
// `Uuid` (the Nil UUID).
unsafe impl bytemuck::Zeroable for Uuid {}

// SAFETY: `Uuid` is `#[repr(transparent)]` over `[u8; 16]`, which is `Pod`: no padding, every
// bit pattern is a valid `Uuid`, alignment 1, `Copy` and `'static`.
unsafe impl bytemuck::Pod for Uuid {}

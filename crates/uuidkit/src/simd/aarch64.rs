//! AArch64 Advanced SIMD (NEON) kernels, 16 bytes per register.
//!
//! Kept deliberately plain: two-register table lookups gather the digits of a hyphenated body,
//! range checks classify them, and an unzip pairs the nibbles. Advanced SIMD is part of the base
//! AArch64 architecture, so there is nothing to detect.
//!
//! Not run by this project's CI (x86-64 only); the unit tests in `tests.rs` check it against the
//! scalar code on any AArch64 machine that runs them.

// Whether a given NEON intrinsic is an `unsafe fn` has changed between Rust releases; each
// kernel wraps its body in one `unsafe` block (which always holds a load or a store), and the
// helpers allow theirs to be redundant.
#![allow(unused_unsafe)]

use core::arch::aarch64::*;

use super::entries::{encode_lines_body, parse_entries};
use crate::text::{Case, Format};
use crate::Uuid;

/// A table-lookup index that yields zero (any index past the table does).
const Z: u8 = 0xff;

#[inline(always)]
fn v(t: [u8; 16]) -> uint8x16_t {
    // SAFETY: `uint8x16_t` and `[u8; 16]` have the same size, and every bit pattern is valid
    // for both.
    unsafe { core::mem::transmute::<[u8; 16], uint8x16_t>(t) }
}

/// Values of 16 ASCII hex digits, and whether all 16 are digits.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
#[inline]
unsafe fn decode16(y: uint8x16_t) -> (uint8x16_t, bool) {
    // SAFETY: register-only arithmetic; the caller runs on AArch64, where NEON is baseline.
    unsafe {
        let d = vsubq_u8(y, vdupq_n_u8(b'0'));
        let is_digit = vcltq_u8(d, vdupq_n_u8(10));
        let l = vsubq_u8(vorrq_u8(y, vdupq_n_u8(0x20)), vdupq_n_u8(b'a'));
        let is_letter = vcltq_u8(l, vdupq_n_u8(6));
        let ok = vorrq_u8(is_digit, is_letter);
        let val = vbslq_u8(is_digit, d, vaddq_u8(l, vdupq_n_u8(10)));
        (val, vminvq_u8(ok) != 0)
    }
}

/// 32 digit values in two halves to 16 bytes.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
#[inline]
unsafe fn pack32(y0: uint8x16_t, y1: uint8x16_t, extra_ok: bool) -> Option<[u8; 16]> {
    // SAFETY: register arithmetic and one 16-byte store into `out`.
    unsafe {
        let (v0, ok0) = decode16(y0);
        let (v1, ok1) = decode16(y1);
        if !(ok0 && ok1 && extra_ok) {
            return None;
        }
        let r = vorrq_u8(vshlq_n_u8::<4>(vuzp1q_u8(v0, v1)), vuzp2q_u8(v0, v1));
        let mut out = [0u8; 16];
        vst1q_u8(out.as_mut_ptr(), r);
        Some(out)
    }
}

/// The 16 bytes of a bare hyphenated body, or `None` when it is not one.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
unsafe fn hyphenated_body_neon(s: &[u8; 36]) -> Option<[u8; 16]> {
    let p = s.as_ptr();
    // SAFETY: three 16-byte loads reading s[0..16], s[16..32], s[20..36]; the rest is register
    // arithmetic.
    unsafe {
        let a = vld1q_u8(p);
        let b = vld1q_u8(p.add(16));
        let c = vld1q_u8(p.add(20));
        // Digits 0-15 are s[0..8], s[9..13], s[14..18]; digits 16-31 are s[19..23], s[24..36].
        let y0 = vqtbl2q_u8(
            uint8x16x2_t(a, b),
            v([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17]),
        );
        let y1 = vqtbl2q_u8(
            uint8x16x2_t(b, c),
            v([
                3, 16, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
            ]),
        );
        let hyphens = s[8] == b'-' && s[13] == b'-' && s[18] == b'-' && s[23] == b'-';
        pack32(y0, y1, hyphens)
    }
}

/// The 16 bytes of 32 hex digits, or `None` when they are not.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
unsafe fn simple_body_neon(s: &[u8; 32]) -> Option<[u8; 16]> {
    let p = s.as_ptr();
    // SAFETY: two 16-byte loads within the 32 bytes.
    unsafe { pack32(vld1q_u8(p), vld1q_u8(p.add(16)), true) }
}

#[cfg(feature = "arrow")]
super::entries::run_entries!(
    #[target_feature(enable = "neon")]
    hyphenated_run_neon,
    encode_hyphenated_run_neon,
    hyphenated_body_neon,
    encode_hyphenated_neon
);

parse_entries!(
    "neon",
    parse_neon,
    hyphenated_neon,
    simple_neon,
    hyphenated_body_neon,
    simple_body_neon,
    rejected_neon
);

/// The slow path of the NEON entries (its own scan of the bare forms is not written: the
/// slow path's word scan does it).
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[cold]
#[inline(never)]
#[target_feature(enable = "neon")]
unsafe fn rejected_neon(s: &[u8], entry: crate::diagnose::Entry) -> crate::error::Error {
    crate::diagnose::scanned(s, entry, None)
}

/// The 32 hex digits of 16 bytes, in two halves.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
#[inline]
unsafe fn hex32(b: &[u8; 16], case: Case) -> (uint8x16_t, uint8x16_t) {
    // SAFETY: one 16-byte load of the 16 bytes; the rest is register arithmetic.
    unsafe {
        let x = vld1q_u8(b.as_ptr());
        let hi = vshrq_n_u8::<4>(x);
        let lo = vandq_u8(x, vdupq_n_u8(0x0f));
        let t = v(match case {
            Case::Lower => *b"0123456789abcdef",
            Case::Upper => *b"0123456789ABCDEF",
        });
        (
            vqtbl1q_u8(t, vzip1q_u8(hi, lo)),
            vqtbl1q_u8(t, vzip2q_u8(hi, lo)),
        )
    }
}

/// Writes each UUID in `format`, each followed by `\n`, as many as fit; returns the
/// bytes written.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
pub(super) unsafe fn encode_lines_neon(
    u: &[Uuid],
    format: Format,
    case: Case,
    out: &mut [u8],
) -> usize {
    encode_lines_body!(
        u,
        format,
        case,
        out,
        encode_hyphenated_neon,
        encode_simple_neon
    )
}

/// Writes the simple form.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
#[inline]
pub(super) unsafe fn encode_simple_neon(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
    let p = out.as_mut_ptr();
    // SAFETY: two 16-byte stores within the 32 bytes of `out`.
    unsafe {
        let (h0, h1) = hex32(b, case);
        vst1q_u8(p, h0);
        vst1q_u8(p.add(16), h1);
    }
}

/// Writes the hyphenated form.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports NEON (every AArch64 CPU does).
#[target_feature(enable = "neon")]
#[inline]
pub(super) unsafe fn encode_hyphenated_neon(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
    let p = out.as_mut_ptr();
    // SAFETY: two 16-byte stores at 0 and 16 within the 36 bytes of `out`; the rest is
    // register arithmetic.
    let tail = unsafe {
        let (h0, h1) = hex32(b, case);
        let h = uint8x16x2_t(h0, h1);
        let dash = b'-';
        let o0 = vorrq_u8(
            vqtbl2q_u8(h, v([0, 1, 2, 3, 4, 5, 6, 7, Z, 8, 9, 10, 11, Z, 12, 13])),
            v([0, 0, 0, 0, 0, 0, 0, 0, dash, 0, 0, 0, 0, dash, 0, 0]),
        );
        let o1 = vorrq_u8(
            vqtbl2q_u8(
                h,
                v([14, 15, Z, 16, 17, 18, 19, Z, 20, 21, 22, 23, 24, 25, 26, 27]),
            ),
            v([0, 0, dash, 0, 0, 0, 0, dash, 0, 0, 0, 0, 0, 0, 0, 0]),
        );
        vst1q_u8(p, o0);
        vst1q_u8(p.add(16), o1);
        vgetq_lane_u32::<3>(vreinterpretq_u32_u8(h1))
    };
    out[32..36].copy_from_slice(&tail.to_le_bytes());
}

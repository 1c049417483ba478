//! x86-64 kernels: SSSE3 (two 16-byte halves) and AVX2 (one 32-byte register).
//!
//! Parsing gathers the 32 digits of a hyphenated body into place with byte shuffles, classifies
//! each byte with two nibble-indexed lookups (a byte is a hex digit when the class bits of its
//! high and low nibble intersect), turns digits into values with a third lookup, and packs digit
//! pairs with a multiply-add. Formatting runs the same steps backwards. No lookup ever reads
//! memory indexed by input data: all tables live in registers.
//!
//! AVX-512 is not used: the whole job fits in one 256-bit register, and the machines this was
//! measured on had no AVX-512 to show that a 512-bit variant pays.

use core::arch::x86_64::*;

use super::{parse_any, Kernels, Level};
use crate::fmt::Case;

pub(super) static SSSE3: Kernels = Kernels {
    level: Level::Ssse3,
    parse: parse_ssse3,
    hyphenated: hyphenated_ssse3,
    simple: simple_ssse3,
    encode_hyphenated: encode_hyphenated_ssse3,
    encode_simple: encode_simple_ssse3,
};

pub(super) static AVX2: Kernels = Kernels {
    level: Level::Avx2,
    parse: parse_avx2,
    hyphenated: hyphenated_avx2,
    simple: simple_avx2,
    encode_hyphenated: encode_hyphenated_avx2,
    encode_simple: encode_simple_avx2,
};

/// A shuffle index that yields zero.
const Z: i8 = -128;

/// Class bits by high nibble: bit 0 for `0x3_` (digits), bit 1 for `0x4_` and `0x6_` (letters).
const CLASS_HI: [i8; 16] = [0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// Class bits by low nibble: bit 0 for 0-9, bit 1 for 1-6 (`A`-`F`, `a`-`f`).
const CLASS_LO: [i8; 16] = [1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0];
/// Added to the low nibble by high nibble: letters are worth their low nibble plus 9.
const VALUE_ADD: [i8; 16] = [0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0];

const LOWER: [i8; 16] = table(b"0123456789abcdef");
const UPPER: [i8; 16] = table(b"0123456789ABCDEF");

const fn table(b: &[u8; 16]) -> [i8; 16] {
    let mut t = [0i8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = b[i] as i8;
        i += 1;
    }
    t
}

/// Bits of the hyphen positions 8, 13, 18, 23 in a 32-bit byte mask.
const HYPHEN_BITS: u32 = (1 << 8) | (1 << 13) | (1 << 18) | (1 << 23);

// ---- SSSE3 --------------------------------------------------------------------------------------

#[inline(always)]
fn v128(t: [i8; 16]) -> __m128i {
    // SAFETY: `__m128i` and `[i8; 16]` have the same size, and every bit pattern is valid for
    // both.
    unsafe { core::mem::transmute::<[i8; 16], __m128i>(t) }
}

#[inline(always)]
fn v256(t: [i8; 16]) -> __m256i {
    // SAFETY: as in `v128`; the table is repeated in both 128-bit lanes for lane-wise shuffles.
    unsafe { core::mem::transmute::<[[i8; 16]; 2], __m256i>([t, t]) }
}

#[inline(always)]
fn v256x2(lo: [i8; 16], hi: [i8; 16]) -> __m256i {
    // SAFETY: as in `v128`.
    unsafe { core::mem::transmute::<[[i8; 16]; 2], __m256i>([lo, hi]) }
}

/// Values of 16 ASCII hex digits, and a mask with 0xFF at each byte that is not one.
#[target_feature(enable = "ssse3")]
#[inline]
fn decode16(y: __m128i) -> (__m128i, __m128i) {
    let m = _mm_set1_epi8(0x0f);
    let lo = _mm_and_si128(y, m);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(y), m);
    let class = _mm_and_si128(
        _mm_shuffle_epi8(v128(CLASS_LO), lo),
        _mm_shuffle_epi8(v128(CLASS_HI), hi),
    );
    let bad = _mm_cmpeq_epi8(class, _mm_setzero_si128());
    let val = _mm_add_epi8(lo, _mm_shuffle_epi8(v128(VALUE_ADD), hi));
    (val, bad)
}

/// 32 digits in two halves to 16 bytes, or `None` if any is not a hex digit.
#[target_feature(enable = "ssse3")]
#[inline]
fn pack32_ssse3(y0: __m128i, y1: __m128i, extra_ok: bool) -> Option<[u8; 16]> {
    let (v0, b0) = decode16(y0);
    let (v1, b1) = decode16(y1);
    let bad = _mm_movemask_epi8(_mm_or_si128(b0, b1));
    if bad != 0 || !extra_ok {
        return None;
    }
    let weights = _mm_set1_epi16(0x0110);
    let w0 = _mm_maddubs_epi16(v0, weights);
    let w1 = _mm_maddubs_epi16(v1, weights);
    let r = _mm_packus_epi16(w0, w1);
    let mut out = [0u8; 16];
    // SAFETY: `out` has 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) };
    Some(out)
}

#[target_feature(enable = "ssse3")]
unsafe fn hyphenated_ssse3(s: &[u8; 36]) -> Option<[u8; 16]> {
    let p = s.as_ptr();
    // SAFETY: the three unaligned 16-byte loads read s[0..16], s[16..32], s[20..36].
    let (a, b, c) = unsafe {
        (
            _mm_loadu_si128(p.cast()),
            _mm_loadu_si128(p.add(16).cast()),
            _mm_loadu_si128(p.add(20).cast()),
        )
    };
    // Digits 0-15 are s[0..8], s[9..13], s[14..18]; digits 16-31 are s[19..23], s[24..36].
    let y0 = _mm_or_si128(
        _mm_shuffle_epi8(
            a,
            v128([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, Z, Z]),
        ),
        _mm_shuffle_epi8(b, v128([Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 1])),
    );
    let y1 = _mm_or_si128(
        _mm_shuffle_epi8(b, v128([3, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z])),
        _mm_shuffle_epi8(
            c,
            v128([Z, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
        ),
    );
    let dash = _mm_set1_epi8(b'-' as i8);
    let ha = _mm_movemask_epi8(_mm_cmpeq_epi8(a, dash)) as u32;
    let hb = _mm_movemask_epi8(_mm_cmpeq_epi8(b, dash)) as u32;
    let hyphens = (ha | (hb << 16)) & HYPHEN_BITS == HYPHEN_BITS;
    pack32_ssse3(y0, y1, hyphens)
}

#[target_feature(enable = "ssse3")]
unsafe fn simple_ssse3(s: &[u8; 32]) -> Option<[u8; 16]> {
    let p = s.as_ptr();
    // SAFETY: two unaligned 16-byte loads within the 32 bytes.
    let (y0, y1) = unsafe { (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(16).cast())) };
    pack32_ssse3(y0, y1, true)
}

#[target_feature(enable = "ssse3")]
unsafe fn parse_ssse3(s: &[u8]) -> Option<[u8; 16]> {
    parse_any!(s, hyphenated_ssse3, simple_ssse3)
}

/// The 32 hex digits of 16 bytes, in two halves.
#[target_feature(enable = "ssse3")]
#[inline]
fn hex32_ssse3(b: &[u8; 16], case: Case) -> (__m128i, __m128i) {
    // SAFETY: an unaligned 16-byte load of the 16 bytes.
    let x = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
    let m = _mm_set1_epi8(0x0f);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(x), m);
    let lo = _mm_and_si128(x, m);
    let t = v128(match case {
        Case::Lower => LOWER,
        Case::Upper => UPPER,
    });
    (
        _mm_shuffle_epi8(t, _mm_unpacklo_epi8(hi, lo)),
        _mm_shuffle_epi8(t, _mm_unpackhi_epi8(hi, lo)),
    )
}

#[target_feature(enable = "ssse3")]
unsafe fn encode_simple_ssse3(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
    let (h0, h1) = hex32_ssse3(b, case);
    let p = out.as_mut_ptr();
    // SAFETY: two unaligned 16-byte stores within the 32 bytes of `out`.
    unsafe {
        _mm_storeu_si128(p.cast(), h0);
        _mm_storeu_si128(p.add(16).cast(), h1);
    }
}

#[target_feature(enable = "ssse3")]
unsafe fn encode_hyphenated_ssse3(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
    let (h0, h1) = hex32_ssse3(b, case);
    // out[0..16] = h[0..8] - h[8..12] - h[12..14]
    let o0 = _mm_or_si128(
        _mm_shuffle_epi8(
            h0,
            v128([0, 1, 2, 3, 4, 5, 6, 7, Z, 8, 9, 10, 11, Z, 12, 13]),
        ),
        v128(hyphens_at(&[8, 13])),
    );
    // out[16..32] = h[14..16] - h[16..20] - h[20..28], taken from h[12..28].
    let mid = _mm_alignr_epi8::<12>(h1, h0);
    let o1 = _mm_or_si128(
        _mm_shuffle_epi8(
            mid,
            v128([2, 3, Z, 4, 5, 6, 7, Z, 8, 9, 10, 11, 12, 13, 14, 15]),
        ),
        v128(hyphens_at(&[2, 7])),
    );
    // out[32..36] = h[28..32]
    let tail = _mm_cvtsi128_si32(_mm_srli_si128::<12>(h1));
    let p = out.as_mut_ptr();
    // SAFETY: two unaligned 16-byte stores at 0 and 16 within the 36 bytes of `out`.
    unsafe {
        _mm_storeu_si128(p.cast(), o0);
        _mm_storeu_si128(p.add(16).cast(), o1);
    }
    out[32..36].copy_from_slice(&tail.to_le_bytes());
}

/// A 16-byte vector with `-` at the given positions and zero elsewhere.
const fn hyphens_at(at: &[usize]) -> [i8; 16] {
    let mut t = [0i8; 16];
    let mut i = 0;
    while i < at.len() {
        t[at[i]] = b'-' as i8;
        i += 1;
    }
    t
}

// ---- AVX2 ---------------------------------------------------------------------------------------

/// Values of 32 ASCII hex digits, and a mask with 0xFF at each byte that is not one.
#[target_feature(enable = "avx2")]
#[inline]
fn decode32(y: __m256i) -> (__m256i, __m256i) {
    let m = _mm256_set1_epi8(0x0f);
    let lo = _mm256_and_si256(y, m);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(y), m);
    let class = _mm256_and_si256(
        _mm256_shuffle_epi8(v256(CLASS_LO), lo),
        _mm256_shuffle_epi8(v256(CLASS_HI), hi),
    );
    let bad = _mm256_cmpeq_epi8(class, _mm256_setzero_si256());
    let val = _mm256_add_epi8(lo, _mm256_shuffle_epi8(v256(VALUE_ADD), hi));
    (val, bad)
}

/// 32 digits to 16 bytes, or `None` if any is not a hex digit or `extra_ok` is false.
#[target_feature(enable = "avx2")]
#[inline]
fn pack32_avx2(y: __m256i, extra_ok: bool) -> Option<[u8; 16]> {
    let (v, bad) = decode32(y);
    if _mm256_movemask_epi8(bad) != 0 || !extra_ok {
        return None;
    }
    let w = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0110));
    let r = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w));
    let mut out = [0u8; 16];
    // SAFETY: `out` has 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) };
    Some(out)
}

#[target_feature(enable = "avx2")]
unsafe fn hyphenated_avx2(s: &[u8; 36]) -> Option<[u8; 16]> {
    let p = s.as_ptr();
    // SAFETY: two unaligned 32-byte loads reading s[0..32] and s[4..36].
    let (z, x) = unsafe {
        (
            _mm256_loadu_si256(p.cast()),
            _mm256_loadu_si256(p.add(4).cast()),
        )
    };
    // Lane 0 of the digits: s[0..4] from z, s[4..8], s[9..13], s[14..18] from x = s[4..36].
    // Lane 1: s[19] from z (its lane 1 is s[16..32]), s[20..23] and s[24..36] from x.
    let from_z = v256x2(
        [0, 1, 2, 3, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z],
        [3, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z],
    );
    let from_x = v256x2(
        [Z, Z, Z, Z, 0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13],
        [Z, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    );
    let y = _mm256_or_si256(
        _mm256_shuffle_epi8(z, from_z),
        _mm256_shuffle_epi8(x, from_x),
    );
    let dash = _mm256_movemask_epi8(_mm256_cmpeq_epi8(z, _mm256_set1_epi8(b'-' as i8))) as u32;
    pack32_avx2(y, dash & HYPHEN_BITS == HYPHEN_BITS)
}

#[target_feature(enable = "avx2")]
unsafe fn simple_avx2(s: &[u8; 32]) -> Option<[u8; 16]> {
    // SAFETY: one unaligned 32-byte load of the 32 bytes.
    let y = unsafe { _mm256_loadu_si256(s.as_ptr().cast()) };
    pack32_avx2(y, true)
}

#[target_feature(enable = "avx2")]
unsafe fn parse_avx2(s: &[u8]) -> Option<[u8; 16]> {
    parse_any!(s, hyphenated_avx2, simple_avx2)
}

/// The 32 hex digits of 16 bytes in order.
#[target_feature(enable = "avx2")]
#[inline]
fn hex32_avx2(b: &[u8; 16], case: Case) -> __m256i {
    // SAFETY: an unaligned 16-byte load of the 16 bytes.
    let x = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
    let m = _mm_set1_epi8(0x0f);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(x), m);
    let lo = _mm_and_si128(x, m);
    let n = _mm256_set_m128i(_mm_unpackhi_epi8(hi, lo), _mm_unpacklo_epi8(hi, lo));
    let t = v256(match case {
        Case::Lower => LOWER,
        Case::Upper => UPPER,
    });
    _mm256_shuffle_epi8(t, n)
}

#[target_feature(enable = "avx2")]
unsafe fn encode_simple_avx2(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
    let h = hex32_avx2(b, case);
    // SAFETY: one unaligned 32-byte store of the 32 bytes of `out`.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), h) };
}

#[target_feature(enable = "avx2")]
unsafe fn encode_hyphenated_avx2(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
    let h = hex32_avx2(b, case);
    // Lane 1 needs h[14..28]: move the 32-bit words h[12..28] into it.
    let p = _mm256_permutevar8x32_epi32(h, _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6));
    let idx = v256x2(
        [0, 1, 2, 3, 4, 5, 6, 7, Z, 8, 9, 10, 11, Z, 12, 13],
        [2, 3, Z, 4, 5, 6, 7, Z, 8, 9, 10, 11, 12, 13, 14, 15],
    );
    let r = _mm256_or_si256(
        _mm256_shuffle_epi8(p, idx),
        v256x2(hyphens_at(&[8, 13]), hyphens_at(&[2, 7])),
    );
    let tail = _mm256_extract_epi32::<7>(h);
    // SAFETY: one unaligned 32-byte store at the start of the 36 bytes of `out`.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), r) };
    out[32..36].copy_from_slice(&tail.to_le_bytes());
}

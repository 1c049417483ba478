//! Run-time fast paths of the short-form decoders (ULID text, base32hex, base64url): AVX2
//! kernels where the CPU has it (`has_avx2`: `is_x86_feature_detected!` with `std`, the
//! compile-time target features without), else SSE2, which every x86-64 CPU has.
//!
//! Each SSE2 kernel classifies 16 characters at once (the AVX2 ones 32) (range compares give each
//! byte's 5- or 6-bit value and an invalid flag), packs the values into 64-bit lanes with three
//! multiply-adds and shifts, and says only "bad" (`None`); the caller then runs the `const`
//! decoder's slow path for the error, so the errors never depend on this code. They accept exactly
//! the inputs the `const` fast paths in `short.rs` accept and return the same values; the tests in
//! `short.rs` and `tests/uuidkit/short_forms.rs` check this on random and mutated inputs.

use core::arch::x86_64::*;

use crate::error::Error;
use crate::Uuid;

/// 16 bytes of `s` from `at` (`at + 16 <= N`, checked at compile time by the callers'
/// constant offsets, and at run time by the slice index).
#[target_feature(enable = "sse2")]
#[inline]
fn load<const N: usize>(s: &[u8; N], at: usize) -> __m128i {
    let chunk: &[u8; 16] = match s[at..].first_chunk::<16>() {
        Some(c) => c,
        None => &[0; 16],
    };
    // SAFETY: `chunk` is 16 readable bytes; `_mm_loadu_si128` has no alignment requirement.
    unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) }
}

/// `x <= n` for each unsigned byte: all ones where it holds.
#[target_feature(enable = "sse2")]
#[inline]
fn le_u8(x: __m128i, n: i8) -> __m128i {
    _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(n)), x)
}

/// Crockford's base32 in either case: each byte's value (0-31) and the mask of valid bytes.
#[target_feature(enable = "sse2")]
#[inline]
fn crockford(c: __m128i) -> (__m128i, __m128i) {
    let d = _mm_sub_epi8(c, _mm_set1_epi8(b'0' as i8));
    let is_digit = le_u8(d, 9);
    // Clearing bit 5 folds a-z onto A-Z and moves no other byte into A-Z.
    let l = _mm_sub_epi8(
        _mm_and_si128(c, _mm_set1_epi8(0xdfu8 as i8)),
        _mm_set1_epi8(b'A' as i8),
    );
    let is_letter = le_u8(l, 25);
    // I, L, O and U are not in the alphabet; each letter after one of them is one lower.
    let gt = |n: i8| _mm_cmpgt_epi8(l, _mm_set1_epi8(n));
    let eq = |n: i8| _mm_cmpeq_epi8(l, _mm_set1_epi8(n));
    let holes = _mm_or_si128(_mm_or_si128(eq(8), eq(11)), _mm_or_si128(eq(14), eq(20)));
    let letter = _mm_add_epi8(
        _mm_add_epi8(
            _mm_add_epi8(l, _mm_set1_epi8(10)),
            _mm_add_epi8(gt(8), gt(11)),
        ),
        _mm_add_epi8(gt(14), gt(20)),
    );
    let valid = _mm_or_si128(is_digit, _mm_andnot_si128(holes, is_letter));
    let value = _mm_or_si128(
        _mm_and_si128(is_digit, d),
        _mm_andnot_si128(is_digit, letter),
    );
    (value, valid)
}

/// base32hex (RFC 4648 §7) in either case: each byte's value (0-31) and the valid mask.
#[target_feature(enable = "sse2")]
#[inline]
fn base32hex(c: __m128i) -> (__m128i, __m128i) {
    let d = _mm_sub_epi8(c, _mm_set1_epi8(b'0' as i8));
    let is_digit = le_u8(d, 9);
    let l = _mm_sub_epi8(
        _mm_and_si128(c, _mm_set1_epi8(0xdfu8 as i8)),
        _mm_set1_epi8(b'A' as i8),
    );
    let is_letter = le_u8(l, 21);
    let valid = _mm_or_si128(is_digit, is_letter);
    let value = _mm_or_si128(
        _mm_and_si128(is_digit, d),
        _mm_andnot_si128(is_digit, _mm_add_epi8(l, _mm_set1_epi8(10))),
    );
    (value, valid)
}

/// base64url (RFC 4648 §5): each byte's value (0-63) and the valid mask.
#[target_feature(enable = "sse2")]
#[inline]
fn base64url(c: __m128i) -> (__m128i, __m128i) {
    let upper = _mm_sub_epi8(c, _mm_set1_epi8(b'A' as i8));
    let lower = _mm_sub_epi8(c, _mm_set1_epi8(b'a' as i8));
    let digit = _mm_sub_epi8(c, _mm_set1_epi8(b'0' as i8));
    let is_upper = le_u8(upper, 25);
    let is_lower = le_u8(lower, 25);
    let is_digit = le_u8(digit, 9);
    let is_dash = _mm_cmpeq_epi8(c, _mm_set1_epi8(b'-' as i8));
    let is_under = _mm_cmpeq_epi8(c, _mm_set1_epi8(b'_' as i8));
    let value = _mm_or_si128(
        _mm_or_si128(
            _mm_and_si128(is_upper, upper),
            _mm_and_si128(is_lower, _mm_add_epi8(lower, _mm_set1_epi8(26))),
        ),
        _mm_or_si128(
            _mm_and_si128(is_digit, _mm_add_epi8(digit, _mm_set1_epi8(52))),
            _mm_or_si128(
                _mm_and_si128(is_dash, _mm_set1_epi8(62)),
                _mm_and_si128(is_under, _mm_set1_epi8(63)),
            ),
        ),
    );
    let valid = _mm_or_si128(
        _mm_or_si128(is_upper, is_lower),
        _mm_or_si128(is_digit, _mm_or_si128(is_dash, is_under)),
    );
    (value, valid)
}

/// 16 values of `BITS` bits each (one a byte, the first character in the lowest byte) as two
/// 8-character numbers, the first character most significant: bits `8 * BITS` of each.
#[target_feature(enable = "sse2")]
#[inline]
fn pack<const BITS: i32>(v: __m128i) -> (u64, u64) {
    // Pairs: first << BITS | second, in 16-bit lanes.
    let pairs = _mm_or_si128(
        _mm_slli_epi16::<BITS>(_mm_and_si128(v, _mm_set1_epi16(0xff))),
        _mm_srli_epi16::<8>(v),
    );
    // Quads: first pair << 2 * BITS + second pair, in 32-bit lanes.
    let quads = _mm_madd_epi16(pairs, _mm_set1_epi32((1 << (2 * BITS)) | (1 << 16)));
    // Eights: first quad << 4 * BITS | second quad, in 64-bit lanes.
    let eights = _mm_or_si128(
        _mm_mul_epu32(quads, _mm_set1_epi64x(1 << (4 * BITS))),
        _mm_srli_epi64::<32>(quads),
    );
    let lo = _mm_cvtsi128_si64(eights) as u64;
    let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(eights, eights)) as u64;
    (lo, hi)
}

/// A scalar table entry for the characters the vectors do not cover.
#[target_feature(enable = "sse2")]
#[inline]
fn entry(table: &[u8; 256], c: u8) -> u8 {
    table[c as usize]
}

/// ULID text (Crockford's base32, either case), as the `const` fast path decides it.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn ulid_sse2(s: &[u8; 26], table: &[u8; 256]) -> Option<[u8; 16]> {
    // Characters 2-17 and 10-25 (overlapping): the 8-character groups at 2, 10 and 18.
    let (va, oka) = crockford(load(s, 2));
    let (vb, okb) = crockford(load(s, 10));
    let (c0, c1) = (entry(table, s[0]), entry(table, s[1]));
    let ok = _mm_movemask_epi8(_mm_and_si128(oka, okb)) == 0xffff;
    let (b, c) = pack::<5>(va);
    let (_, d) = pack::<5>(vb);
    ulid_value(ok, c0, c1, [b, c, d])
}

/// The 16 bytes of the value `hi << 64 | lo`, big-endian, made in a vector register and
/// stored at once: two 8-byte stores read back as one 16-byte value (what a `Result<Uuid, _>`
/// built from a `u128` is) stall the load on store forwarding, about 10 cycles a call.
#[inline(always)]
fn bytes(hi: u64, lo: u64) -> [u8; 16] {
    // SAFETY: SSE2 is in the x86-64 baseline; `out` is 16 writable bytes and the store has no
    // alignment requirement.
    unsafe {
        let v = _mm_set_epi64x(lo.swap_bytes() as i64, hi.swap_bytes() as i64);
        let mut out = [0u8; 16];
        _mm_storeu_si128(out.as_mut_ptr().cast(), v);
        out
    }
}

/// The ULID's value from its first two characters' table entries and the three groups of 8.
#[inline(always)]
fn ulid_value(ok: bool, c0: u8, c1: u8, [b, c, d]: [u64; 3]) -> Option<[u8; 16]> {
    let a = (c0 as u64) << 5 | c1 as u64;
    // The first character is at most 7 (and both are in the alphabet: no 0x80 bit).
    if !ok || (c0 | c1) & 0x80 != 0 || c0 > 7 {
        return None;
    }
    // The 128 bits as two halves: a (10 bits, 2 of them zero) | b (40) | c (40) | d (40).
    let hi = a << 56 | b << 16 | c >> 24;
    let lo = c << 40 | d;
    Some(bytes(hi, lo))
}

/// base32hex, as the `const` fast path decides it.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn base32hex32_sse2(s: &[u8; 26], table: &[u8; 256]) -> Option<[u8; 16]> {
    // Characters 0-15 and 8-23: the 8-character groups at 0, 8 and 16; 24 and 25 scalar.
    let (va, oka) = base32hex(load(s, 0));
    let (vb, okb) = base32hex(load(s, 8));
    let (c24, c25) = (entry(table, s[24]), entry(table, s[25]));
    let ok = _mm_movemask_epi8(_mm_and_si128(oka, okb)) == 0xffff;
    let (a, b) = pack::<5>(va);
    let (_, c) = pack::<5>(vb);
    base32hex_value(ok, c24, c25, [a, b, c])
}

/// The base32hex value from the three groups of 8 and the last two characters' entries.
#[inline(always)]
fn base32hex_value(ok: bool, c24: u8, c25: u8, [a, b, c]: [u64; 3]) -> Option<[u8; 16]> {
    let d = (c24 as u64) << 5 | c25 as u64;
    // The last character's two low bits are padding.
    if !ok || (c24 | c25) & 0x80 != 0 || c25 & 3 != 0 {
        return None;
    }
    // a (40 bits) | b (40) | c (40) | d >> 2 (8).
    let hi = a << 24 | b >> 16;
    let lo = b << 48 | c << 8 | d >> 2;
    Some(bytes(hi, lo))
}

/// base64url, as the `const` fast path decides it.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn base64_sse2(s: &[u8; 22], _table: &[u8; 256]) -> Option<[u8; 16]> {
    // Characters 0-15 and 6-21: the 8-character groups at 0, 8 and 14 (of which 16-21 count).
    let (va, oka) = base64url(load(s, 0));
    let (vb, okb) = base64url(load(s, 6));
    let ok = _mm_movemask_epi8(_mm_and_si128(oka, okb)) == 0xffff;
    let (a, b) = pack::<6>(va);
    let (_, e) = pack::<6>(vb);
    base64_value(ok, [a, b, e])
}

/// The base64url value from the groups of characters 0-7, 8-15 and 14-21.
#[inline(always)]
fn base64_value(ok: bool, [a, b, e]: [u64; 3]) -> Option<[u8; 16]> {
    // Characters 16-21: the low 36 bits of e, of which the last 4 are padding.
    let tail = e & ((1 << 36) - 1);
    if !ok || tail & 15 != 0 {
        return None;
    }
    // a (48 bits) | b (48) | tail >> 4 (32).
    let hi = a << 16 | b >> 32;
    let lo = b << 32 | tail >> 4;
    Some(bytes(hi, lo))
}

/// `x <= n` for each unsigned byte: all ones where it holds.
#[target_feature(enable = "avx2")]
#[inline]
fn le_u8_avx2(x: __m256i, n: i8) -> __m256i {
    _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(n)), x)
}

/// base32hex_avx2 (RFC 4648 §7) in either case: each byte's value (0-31) and the valid mask.
#[target_feature(enable = "avx2")]
#[inline]
fn base32hex_avx2(c: __m256i) -> (__m256i, __m256i) {
    let d = _mm256_sub_epi8(c, _mm256_set1_epi8(b'0' as i8));
    let is_digit = le_u8_avx2(d, 9);
    let l = _mm256_sub_epi8(
        _mm256_and_si256(c, _mm256_set1_epi8(0xdfu8 as i8)),
        _mm256_set1_epi8(b'A' as i8),
    );
    let is_letter = le_u8_avx2(l, 21);
    let valid = _mm256_or_si256(is_digit, is_letter);
    let value = _mm256_or_si256(
        _mm256_and_si256(is_digit, d),
        _mm256_andnot_si256(is_digit, _mm256_add_epi8(l, _mm256_set1_epi8(10))),
    );
    (value, valid)
}

/// base64url_avx2 (RFC 4648 §5): each byte's value (0-63) and the valid mask.
#[target_feature(enable = "avx2")]
#[inline]
fn base64url_avx2(c: __m256i) -> (__m256i, __m256i) {
    let upper = _mm256_sub_epi8(c, _mm256_set1_epi8(b'A' as i8));
    let lower = _mm256_sub_epi8(c, _mm256_set1_epi8(b'a' as i8));
    let digit = _mm256_sub_epi8(c, _mm256_set1_epi8(b'0' as i8));
    let is_upper = le_u8_avx2(upper, 25);
    let is_lower = le_u8_avx2(lower, 25);
    let is_digit = le_u8_avx2(digit, 9);
    let is_dash = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(b'-' as i8));
    let is_under = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(b'_' as i8));
    let value = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_and_si256(is_upper, upper),
            _mm256_and_si256(is_lower, _mm256_add_epi8(lower, _mm256_set1_epi8(26))),
        ),
        _mm256_or_si256(
            _mm256_and_si256(is_digit, _mm256_add_epi8(digit, _mm256_set1_epi8(52))),
            _mm256_or_si256(
                _mm256_and_si256(is_dash, _mm256_set1_epi8(62)),
                _mm256_and_si256(is_under, _mm256_set1_epi8(63)),
            ),
        ),
    );
    let valid = _mm256_or_si256(
        _mm256_or_si256(is_upper, is_lower),
        _mm256_or_si256(is_digit, _mm256_or_si256(is_dash, is_under)),
    );
    (value, valid)
}

/// [`pack`] on each 16-byte half: 32 values of `BITS` bits each (one a byte, the first
/// character in the lowest byte) as four 8-character numbers, the first character most
/// significant: bits `8 * BITS` of each.
#[target_feature(enable = "avx2")]
#[inline]
fn pack_avx2<const BITS: i32>(v: __m256i) -> (u64, u64, u64, u64) {
    // Pairs: first << BITS | second, in 16-bit lanes.
    let pairs = _mm256_or_si256(
        _mm256_slli_epi16::<BITS>(_mm256_and_si256(v, _mm256_set1_epi16(0xff))),
        _mm256_srli_epi16::<8>(v),
    );
    // Quads: first pair << 2 * BITS + second pair, in 32-bit lanes.
    let quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32((1 << (2 * BITS)) | (1 << 16)));
    // Eights: first quad << 4 * BITS | second quad, in 64-bit lanes.
    let eights = _mm256_or_si256(
        _mm256_mul_epu32(quads, _mm256_set1_epi64x(1 << (4 * BITS))),
        _mm256_srli_epi64::<32>(quads),
    );
    let low = _mm256_castsi256_si128(eights);
    let high = _mm256_extracti128_si256::<1>(eights);
    (
        _mm_cvtsi128_si64(low) as u64,
        _mm_extract_epi64::<1>(low) as u64,
        _mm_cvtsi128_si64(high) as u64,
        _mm_extract_epi64::<1>(high) as u64,
    )
}

/// Two 16-byte halves as one 32-byte vector.
#[target_feature(enable = "avx2")]
#[inline]
fn join(lo: __m128i, hi: __m128i) -> __m256i {
    _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi)
}

/// Crockford's base32 in either case by table: each byte's value (0-31) plus one, or 0 for a
/// byte not in the alphabet. Three 16-entry tables by the low four bits, one for each row of
/// 16 bytes that holds characters (0x30 digits; 0x40 A-O; 0x50 P-Z, lower case folded onto
/// them); a saturating add sets the top bit of the index of every byte outside the table's
/// row, which makes `pshufb` give 0. 14 instructions, no blends, where range compares (as
/// [`crockford`] does) take about 29.
#[target_feature(enable = "avx2")]
#[inline]
fn crockford_table_avx2(c: __m256i) -> __m256i {
    #[rustfmt::skip]
    let digits = _mm256_setr_epi8(
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0,
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0,
    );
    // @ A B C D E F G H I J K L M N O
    #[rustfmt::skip]
    let a_to_o = _mm256_setr_epi8(
        0, 11, 12, 13, 14, 15, 16, 17, 18, 0, 19, 20, 0, 21, 22, 0,
        0, 11, 12, 13, 14, 15, 16, 17, 18, 0, 19, 20, 0, 21, 22, 0,
    );
    // P Q R S T U V W X Y Z [ \ ] ^ _
    #[rustfmt::skip]
    let p_to_z = _mm256_setr_epi8(
        23, 24, 25, 26, 27, 0, 28, 29, 30, 31, 32, 0, 0, 0, 0, 0,
        23, 24, 25, 26, 27, 0, 28, 29, 30, 31, 32, 0, 0, 0, 0, 0,
    );
    // The row's bytes become 0x70-0x7F; every other byte 0x80 or more.
    let row = |x: __m256i, base: u8| {
        _mm256_adds_epu8(
            _mm256_xor_si256(x, _mm256_set1_epi8(base as i8)),
            _mm256_set1_epi8(0x70),
        )
    };
    // Clearing bit 5 folds a-z onto A-Z and moves no other byte into 0x40-0x5F.
    let folded = _mm256_and_si256(c, _mm256_set1_epi8(0xdfu8 as i8));
    _mm256_or_si256(
        _mm256_shuffle_epi8(digits, row(c, 0x30)),
        _mm256_or_si256(
            _mm256_shuffle_epi8(a_to_o, row(folded, 0x40)),
            _mm256_shuffle_epi8(p_to_z, row(folded, 0x50)),
        ),
    )
}

/// 32 values of 5 bits (one a byte, the first character lowest) as four 8-character numbers
/// of 40 bits, the first character most significant, in the four 64-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn pack5_avx2_vec(v: __m256i) -> __m256i {
    let pairs = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0120));
    let quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_0400));
    _mm256_or_si256(
        _mm256_mul_epu32(quads, _mm256_set1_epi64x(1 << 20)),
        _mm256_srli_epi64::<32>(quads),
    )
}

/// [`ulid_sse2`] with one 32-byte classification by table, and no scalar lookups: characters
/// 0-15 and 10-25 make the groups 0-7, 8-15, 10-17 (of which 16-17 count) and 18-25, 130 bits
/// of which the top two must be zero (a first character `0` to `7`). The value is put together
/// in the vector registers (variable shifts of each group to its place), byte-swapped and
/// stored once: no trip through the general registers.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn ulid_avx2(s: &[u8; 26], _table: &[u8; 256]) -> Option<[u8; 16]> {
    let v1 = crockford_table_avx2(join(load(s, 0), load(s, 10)));
    let bad = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, _mm256_setzero_si256()));
    let g = pack5_avx2_vec(_mm256_sub_epi8(v1, _mm256_set1_epi8(1)));
    // [g0, g1, g1, g2 & 0x3ff] shifted to [g0 << 26, g1 << 50, g1 >> 14, g2 << 40]; a shift
    // by 64 or more gives 0.
    let w = _mm256_and_si256(
        _mm256_permute4x64_epi64::<0b10_01_01_00>(g),
        _mm256_setr_epi64x(-1, -1, -1, 0x3ff),
    );
    let w = _mm256_or_si256(
        _mm256_sllv_epi64(w, _mm256_setr_epi64x(26, 50, 64, 40)),
        _mm256_srlv_epi64(w, _mm256_setr_epi64x(64, 64, 14, 64)),
    );
    // [g0 << 26 | g1 >> 14, g1 << 50 | g2 << 40 | g3]: the high and low halves.
    let g3 = _mm_and_si128(_mm256_extracti128_si256::<1>(g), _mm_set_epi64x(-1, 0));
    let halves = _mm_or_si128(
        _mm_or_si128(_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w)),
        g3,
    );
    let be = _mm_shuffle_epi8(
        halves,
        _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8),
    );
    if bad != 0 || s[0].wrapping_sub(b'0') > 7 {
        return None;
    }
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 writable bytes; the store has no alignment requirement.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), be) };
    Some(out)
}

/// [`base32hex32_sse2`] with one 32-byte classification.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn base32hex32_avx2(s: &[u8; 26], table: &[u8; 256]) -> Option<[u8; 16]> {
    let (v, ok) = base32hex_avx2(join(load(s, 0), load(s, 8)));
    let (c24, c25) = (entry(table, s[24]), entry(table, s[25]));
    let ok = _mm256_movemask_epi8(ok) == -1;
    let (a, b, _, c) = pack_avx2::<5>(v);
    base32hex_value(ok, c24, c25, [a, b, c])
}

/// [`base64_sse2`] with one 32-byte classification.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn base64_avx2(s: &[u8; 22], _table: &[u8; 256]) -> Option<[u8; 16]> {
    let (v, ok) = base64url_avx2(join(load(s, 0), load(s, 6)));
    let ok = _mm256_movemask_epi8(ok) == -1;
    let (a, b, _, e) = pack_avx2::<6>(v);
    base64_value(ok, [a, b, e])
}

// The entries: AVX2 where the CPU has it (known after the first call: std's detection caches
// it), else SSE2, which is part of x86-64.

/// Whether the AVX2 kernels may run.
#[inline(always)]
pub(crate) fn has_avx2() -> bool {
    #[cfg(feature = "std")]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(not(feature = "std"))]
    return cfg!(target_feature = "avx2");
}

/// One run-time parse of `N` characters: `avx2` where the CPU has it, else `sse2`; a rejected
/// input (or one of another length) goes to `slow`, the `const` decoder's slow path, passed
/// down so that this module calls nothing above it. The AVX2 side is one call that writes the
/// caller's `Result` itself.
macro_rules! parse_with {
    ($(#[$m:meta])* $name:ident, $avx2_name:ident, $n:literal, $avx2:ident, $sse2:ident) => {
        /// The whole parse with the AVX2 kernel.
        #[target_feature(enable = "avx2")]
        #[inline(never)]
        fn $avx2_name(s: &[u8], table: &[u8; 256], slow: fn(&[u8]) -> Error) -> Result<Uuid, Error> {
            if let Some((a, [])) = s.split_first_chunk::<$n>() {
                if let Some(b) = $avx2(a, table) {
                    return Ok(Uuid::from_bytes(b));
                }
            }
            Err(slow(s))
        }

        $(#[$m])*
        #[inline(always)]
        pub(crate) fn $name(
            s: &[u8],
            table: &[u8; 256],
            slow: fn(&[u8]) -> Error,
        ) -> Result<Uuid, Error> {
            if has_avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $avx2_name(s, table, slow) };
            }
            if let Some((a, [])) = s.split_first_chunk::<$n>() {
                // SAFETY: SSE2 is in the x86-64 baseline (this module is built for x86-64 only).
                if let Some(b) = unsafe { $sse2(a, table) } {
                    return Ok(Uuid::from_bytes(b));
                }
            }
            Err(slow(s))
        }
    };
}

parse_with!(
    /// ULID text, as `Uuid::parse_ulid_const` reads it.
    parse_ulid, parse_ulid_avx2, 26, ulid_avx2, ulid_sse2
);
parse_with!(
    /// base32hex, as `Uuid::parse_base32hex_const` reads it.
    parse_base32hex, parse_base32hex_avx2, 26, base32hex32_avx2, base32hex32_sse2
);
parse_with!(
    /// base64url, as `Uuid::parse_base64url_const` reads it.
    parse_base64url, parse_base64url_avx2, 22, base64_avx2, base64_sse2
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::ShortForm;

    /// Each kernel of each level this CPU runs (the entries pick one) against the `const`
    /// decoders: encodings of random values, each with every byte value at every position.
    #[test]
    fn every_level_agrees_with_the_const_decoders() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // The kernels' tables, built here from the alphabets (not taken from `short.rs`, which
        // is above this module): each byte's value, 0xFF outside the alphabet, either case.
        let table = |alphabet: &[u8]| {
            let mut t = [0xffu8; 256];
            for (i, &c) in alphabet.iter().enumerate() {
                t[usize::from(c)] = i as u8;
                t[usize::from(c.to_ascii_lowercase())] = i as u8;
            }
            t
        };
        let ulid_table = table(b"0123456789ABCDEFGHJKMNPQRSTVWXYZ");
        let b32h_table = table(b"0123456789ABCDEFGHIJKLMNOPQRSTUV");
        let avx2 = has_avx2();
        let mut checked = 0u64;
        for round in 0..200 {
            let v = match round {
                0 => 0,
                1 => u128::MAX,
                _ => u128::from(next()) << 64 | u128::from(next()),
            };
            let u = Uuid::from_u128(v);
            for form in [ShortForm::Ulid, ShortForm::Base32Hex, ShortForm::Base64Url] {
                let mut buf = [0u8; 26];
                let text = u.encode_short_bytes(form, &mut buf);
                let text = &buf[..text];
                for pos in 0..text.len() {
                    for byte in 0..=255u8 {
                        let mut m = [0u8; 26];
                        m[..text.len()].copy_from_slice(text);
                        m[pos] = byte;
                        let s = &m[..text.len()];
                        let want = Uuid::parse_short_const(form, s).ok().map(Uuid::into_bytes);
                        // SAFETY: SSE2 is in the x86-64 baseline; AVX2 only when detected.
                        let (sse2, avx) = unsafe {
                            match form {
                                ShortForm::Ulid => {
                                    let a = s.first_chunk::<26>().unwrap();
                                    let t = &ulid_table;
                                    (ulid_sse2(a, t), avx2.then(|| ulid_avx2(a, t)))
                                }
                                ShortForm::Base32Hex => {
                                    let a = s.first_chunk::<26>().unwrap();
                                    let t = &b32h_table;
                                    (base32hex32_sse2(a, t), avx2.then(|| base32hex32_avx2(a, t)))
                                }
                                _ => {
                                    let a = s.first_chunk::<22>().unwrap();
                                    (
                                        base64_sse2(a, &[0; 256]),
                                        avx2.then(|| base64_avx2(a, &[0; 256])),
                                    )
                                }
                            }
                        };
                        assert_eq!(sse2, want, "{form} sse2 {:?}", String::from_utf8_lossy(s));
                        if let Some(avx) = avx {
                            assert_eq!(avx, want, "{form} avx2 {:?}", String::from_utf8_lossy(s));
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 0);
    }
}

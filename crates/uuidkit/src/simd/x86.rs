//! x86-64 kernels: SSSE3 (two 16-byte halves) and AVX2 (one 32-byte register).
//!
//! Parsing gathers the 32 digits of a hyphenated body into place with byte shuffles, classifies
//! and decodes each byte with two nibble-indexed lookups (see `BY_HI`), and packs digit pairs
//! with a multiply-add. Formatting runs the same steps backwards. No lookup ever reads
//! memory indexed by input data: all tables live in registers.
//!
//! AVX-512 is not used: the whole job fits in one 256-bit register, and the machines this was
//! measured on had no AVX-512 to show that a 512-bit variant pays.

use core::arch::x86_64::*;

use super::entries::{encode_lines_body, parse_entries};
use crate::diagnose::Entry;
use crate::text::{Case, Format};
use crate::text::{URN_LETTERS, URN_PREFIX, URN_WORD};
use crate::Uuid;

/// A shuffle index that yields zero.
const Z: i8 = -128;

// Classifying and decoding a hex digit `c` with two nibble-indexed lookups:
//
// - `BY_HI[c >> 4]` is what to add to `c` to get the digit's value: -0x30 for `0x3_`
//   (`'0'`-`'9'`), -0x37 for `0x4_` (`'A'`-`'F'`), -0x57 for `0x6_` (`'a'`-`'f'`), and 0 (no class
//   bit) for every other high nibble.
// - `BY_LO[c & 15]` has the bits that the entries of `BY_HI` whose high nibble makes a digit
//   with this low nibble share, and none of the others: 0x10 (only in 0xD0, the digits' entry)
//   for 0, 7, 8 and 9; 0x80 (in all three) for 1-6; nothing for 10-15. `pshufb` zeroes lanes
//   whose index has bit 7 set, so bytes >= 0x80 get no bits without any masking.
//
// So `c` is a hex digit exactly when `BY_HI[c >> 4] & BY_LO[c & 15] != 0`, and then its value
// is `c + BY_HI[c >> 4]` (wrapping), with nothing to mask.
const BY_HI: [i8; 16] = [0, 0, 0, -0x30, -0x37, 0, -0x57, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const BY_LO: [i8; 16] = [
    0x10, -0x80, -0x80, -0x80, -0x80, -0x80, -0x80, 0x10, 0x10, 0x10, 0, 0, 0, 0, 0, 0,
];

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
fn decode16(c: __m128i) -> (__m128i, __m128i) {
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(c), _mm_set1_epi8(0x0f));
    let add = _mm_shuffle_epi8(v128(BY_HI), hi);
    let class = _mm_and_si128(add, _mm_shuffle_epi8(v128(BY_LO), c));
    let bad = _mm_cmpeq_epi8(class, _mm_setzero_si128());
    (_mm_add_epi8(c, add), bad)
}

/// 32 digits in two halves to 16 bytes, or `None` if any is not a hex digit or `extra_bad`
/// (other failed checks, as mask bits) is not zero.
#[target_feature(enable = "ssse3")]
#[inline]
fn pack32_ssse3(y0: __m128i, y1: __m128i, extra_bad: u32) -> Option<[u8; 16]> {
    let (v0, b0) = decode16(y0);
    let (v1, b1) = decode16(y1);
    let bad = _mm_movemask_epi8(_mm_or_si128(b0, b1)) as u32;
    if bad | extra_bad != 0 {
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

/// The 16 bytes of a bare hyphenated body, or `None` when it is not one.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports SSSE3.
#[target_feature(enable = "ssse3")]
unsafe fn hyphenated_body_ssse3(s: &[u8; 36]) -> Option<[u8; 16]> {
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
    let missing_hyphens = !(ha | (hb << 16)) & HYPHEN_BITS;
    pack32_ssse3(y0, y1, missing_hyphens)
}

/// The 16 bytes of 32 hex digits, or `None` when they are not.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports SSSE3.
#[target_feature(enable = "ssse3")]
unsafe fn simple_body_ssse3(s: &[u8; 32]) -> Option<[u8; 16]> {
    let p = s.as_ptr();
    // SAFETY: two unaligned 16-byte loads within the 32 bytes.
    let (y0, y1) = unsafe { (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(16).cast())) };
    pack32_ssse3(y0, y1, 0)
}

#[cfg(feature = "arrow")]
super::entries::run_entries!(
    #[target_feature(enable = "ssse3")]
    hyphenated_run_ssse3,
    encode_hyphenated_run_ssse3,
    hyphenated_body_ssse3,
    encode_hyphenated_ssse3
);

parse_entries!(
    "ssse3",
    parse_ssse3,
    hyphenated_ssse3,
    simple_ssse3,
    hyphenated_body_ssse3,
    simple_body_ssse3,
    rejected_ssse3
);

/// Bits of the bytes of `v` that are not hex digits, and of those that are `-`.
#[target_feature(enable = "ssse3")]
#[inline]
fn masks16(v: __m128i) -> (u64, u64) {
    let (_, bad) = decode16(v);
    let dash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'-' as i8));
    (
        u64::from(_mm_movemask_epi8(bad) as u32),
        u64::from(_mm_movemask_epi8(dash) as u32),
    )
}

/// The slow path of the SSSE3 entries, with the first bad slot found 16 bytes at a time.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports SSSE3.
#[cold]
#[inline(never)]
#[target_feature(enable = "ssse3")]
unsafe fn rejected_ssse3(s: &[u8], entry: Entry) -> crate::error::Error {
    let p = s.as_ptr();
    let first = if s.len() == 36 || s.len() == 32 {
        // SAFETY: unaligned 16-byte loads of s[0..16], s[16..32] and s[len - 16..len], all
        // inside `s` (`len` is 32 or 36).
        let (a, b, c) = unsafe {
            (
                _mm_loadu_si128(p.cast()),
                _mm_loadu_si128(p.add(16).cast()),
                _mm_loadu_si128(p.add(s.len() - 16).cast()),
            )
        };
        let ((h0, d0), (h1, d1), (h2, d2)) = (masks16(a), masks16(b), masks16(c));
        let shift = s.len() - 16;
        first_bad(
            s.len(),
            h0 | h1 << 16 | h2 << shift,
            d0 | d1 << 16 | d2 << shift,
        )
    } else {
        None
    };
    crate::diagnose::scanned(s, entry, first)
}

/// The first bad slot of a bare body of `len` bytes (36: hyphenated, 32: simple) from the bits
/// of its bytes that are not hex digits (`nonhex`) and that are `-` (`dash`).
#[inline(always)]
fn first_bad(len: usize, nonhex: u64, dash: u64) -> Option<usize> {
    let slots = if len == 36 { u64::from(HYPHEN_BITS) } else { 0 };
    let bad = (nonhex & !slots) | (!dash & slots);
    (bad != 0).then(|| bad.trailing_zeros() as usize)
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

/// Writes each UUID in `format`, each followed by `\n`, as many as fit; returns the
/// bytes written.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports SSSE3.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn encode_lines_ssse3(
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
        encode_hyphenated_ssse3,
        encode_simple_ssse3
    )
}

/// Writes the simple form.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports SSSE3.
#[target_feature(enable = "ssse3")]
#[inline]
pub(super) unsafe fn encode_simple_ssse3(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
    let (h0, h1) = hex32_ssse3(b, case);
    let p = out.as_mut_ptr();
    // SAFETY: two unaligned 16-byte stores within the 32 bytes of `out`.
    unsafe {
        _mm_storeu_si128(p.cast(), h0);
        _mm_storeu_si128(p.add(16).cast(), h1);
    }
}

/// Writes the hyphenated form.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports SSSE3.
#[target_feature(enable = "ssse3")]
#[inline]
pub(super) unsafe fn encode_hyphenated_ssse3(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
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
fn decode32(c: __m256i) -> (__m256i, __m256i) {
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(c), _mm256_set1_epi8(0x0f));
    let add = _mm256_shuffle_epi8(v256(BY_HI), hi);
    let class = _mm256_and_si256(add, _mm256_shuffle_epi8(v256(BY_LO), c));
    let bad = _mm256_cmpeq_epi8(class, _mm256_setzero_si256());
    (_mm256_add_epi8(c, add), bad)
}

/// 32 digits to 16 bytes, or `None` if any is not a hex digit or `extra_bad` (other failed
/// checks, as mask bits) is not zero.
#[target_feature(enable = "avx2")]
#[inline]
fn pack32_avx2(y: __m256i, extra_bad: u32) -> Option<[u8; 16]> {
    checked_pack32_avx2(y, extra_bad).ok()
}

/// [`pack32_avx2`], with the bits of the digits that are not hex digits when it fails.
#[target_feature(enable = "avx2")]
#[inline]
fn checked_pack32_avx2(y: __m256i, extra_bad: u32) -> Result<[u8; 16], u32> {
    let (v, bad) = decode32(y);
    let bad = _mm256_movemask_epi8(bad) as u32;
    if bad | extra_bad != 0 {
        return Err(bad);
    }
    let w = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0110));
    let r = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w));
    let mut out = [0u8; 16];
    // SAFETY: `out` has 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) };
    Ok(out)
}

/// The 16 bytes of a bare hyphenated body, or `None` when it is not one.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn hyphenated_body_avx2(s: &[u8; 36]) -> Option<[u8; 16]> {
    // SAFETY: the caller's promise is this function's.
    unsafe { hyphenated_checked_avx2(s) }.ok()
}

/// Where in the text each digit of a hyphenated body stands, by its index in the 32 digits
/// that [`BODY_Z`] and [`BODY_X`] gather (`x` is loaded 4 bytes after `z`).
const HYPHENATED_DIGIT_AT: [u8; 32] = {
    let mut at = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let (lane, k) = (i / 16, i % 16);
        at[i] = if BODY_Z[lane][k] != Z {
            (16 * lane) as u8 + BODY_Z[lane][k] as u8
        } else {
            (4 + 16 * lane) as u8 + BODY_X[lane][k] as u8
        };
        i += 1;
    }
    at
};

/// The first bad slot of a hyphenated body from the kernel's masks: the digits (by gathered
/// index) that are not hex digits, and the hyphen slots (by text position) that are not `-`.
/// The same slot that `first_bad` finds from the text's bytes.
#[inline]
fn first_bad_hyphenated(digits: u32, hyphens: u32) -> Option<usize> {
    let digit = match digits {
        0 => 36,
        d => HYPHENATED_DIGIT_AT[d.trailing_zeros() as usize] as usize,
    };
    let hyphen = match hyphens {
        0 => 36,
        h => h.trailing_zeros() as usize,
    };
    let first = digit.min(hyphen);
    (first < 36).then_some(first)
}

/// [`hyphenated_body_avx2`], with the masks of [`first_bad_hyphenated`] when it fails (the
/// digits' in the low 32 bits, the hyphens' in the high).
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn hyphenated_checked_avx2(s: &[u8; 36]) -> Result<[u8; 16], u64> {
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
    let y = _mm256_or_si256(
        _mm256_shuffle_epi8(z, v256x2(BODY_Z[0], BODY_Z[1])),
        _mm256_shuffle_epi8(x, v256x2(BODY_X[0], BODY_X[1])),
    );
    let dash = _mm256_movemask_epi8(_mm256_cmpeq_epi8(z, _mm256_set1_epi8(b'-' as i8))) as u32;
    let hyphens = !dash & HYPHEN_BITS;
    checked_pack32_avx2(y, hyphens).map_err(|digits| u64::from(digits) | u64::from(hyphens) << 32)
}

/// The 16 bytes of 32 hex digits, or `None` when they are not.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
unsafe fn simple_body_avx2(s: &[u8; 32]) -> Option<[u8; 16]> {
    // SAFETY: one unaligned 32-byte load of the 32 bytes.
    let y = unsafe { _mm256_loadu_si256(s.as_ptr().cast()) };
    pack32_avx2(y, 0)
}

#[cfg(feature = "arrow")]
super::entries::run_entries!(
    #[target_feature(enable = "avx2")]
    hyphenated_run_avx2,
    encode_hyphenated_run_avx2,
    hyphenated_body_avx2,
    encode_hyphenated_avx2
);

parse_entries!(
    "avx2",
    hyphenated_avx2,
    simple_avx2,
    hyphenated_body_avx2,
    simple_body_avx2,
    rejected_avx2
);

/// Bits of the bytes of `v` that are not hex digits, and of those that are `-`.
#[target_feature(enable = "avx2")]
#[inline]
fn masks32(v: __m256i) -> (u64, u64) {
    let (_, bad) = decode32(v);
    let dash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'-' as i8));
    (
        u64::from(_mm256_movemask_epi8(bad) as u32),
        u64::from(_mm256_movemask_epi8(dash) as u32),
    )
}

/// The slow path of the AVX2 entries, with the first bad slot found 32 bytes at a time.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn rejected_avx2(s: &[u8], entry: Entry) -> crate::error::Error {
    let p = s.as_ptr();
    let first = match s.len() {
        36 => {
            // SAFETY: an unaligned 32-byte load of s[0..32].
            let (h, d) = masks32(unsafe { _mm256_loadu_si256(p.cast()) });
            match first_bad(36, h, d) {
                Some(j) => Some(j),
                None => {
                    // Only slots 32..36 are left: they are digit slots.
                    // SAFETY: an unaligned 32-byte load of s[4..36].
                    let (h, _) = masks32(unsafe { _mm256_loadu_si256(p.add(4).cast()) });
                    first_bad(32, h >> 28 << 32, 0)
                }
            }
        }
        32 => {
            // SAFETY: an unaligned 32-byte load of s[0..32].
            let (h, d) = masks32(unsafe { _mm256_loadu_si256(p.cast()) });
            first_bad(32, h, d)
        }
        _ => None,
    };
    crate::diagnose::scanned(s, entry, first)
}

/// The slow path of [`parse_avx2`] for a 36-byte input whose first bad slot is known.
#[cold]
#[inline(never)]
fn rejected_at(s: &[u8], masks: u64) -> crate::error::Error {
    let first = first_bad_hyphenated(masks as u32, (masks >> 32) as u32);
    crate::diagnose::scanned(s, Entry::Any, first)
}

/// How to read one form in [`parse_avx2`]'s table: the same two loads, shuffles and checks for
/// the simple, braced and URN forms, with these parameters, so that the form costs no branch.
#[derive(Clone, Copy)]
struct Form {
    /// Where the two 32-byte loads start.
    at_z: usize,
    at_x: usize,
    /// Shuffles gathering the 32 digits from the two loads.
    from_z: [[i8; 16]; 2],
    from_x: [[i8; 16]; 2],
    /// Bits of the first load's bytes that must be `-`.
    hyphens: u32,
    /// The first 8 bytes must satisfy `(w | or) & and == want`.
    w_or: u64,
    w_and: u64,
    w_want: u64,
    /// One more byte: `s[at] & and == want`.
    b_at: usize,
    b_and: u8,
    b_want: u8,
    /// The input length all the reads above need: computed by [`Form::need`] from the
    /// offsets; the assertion after [`FORM_OF_LEN`] checks that it is the length that picks
    /// the row.
    need: usize,
}

impl Form {
    /// The bytes the reads of `self` reach: both loads, the first word and the extra byte.
    const fn need(mut self) -> Form {
        let mut n = 8;
        if self.at_z + 32 > n {
            n = self.at_z + 32;
        }
        if self.at_x + 32 > n {
            n = self.at_x + 32;
        }
        if self.b_at + 1 > n {
            n = self.b_at + 1;
        }
        self.need = n;
        self
    }
}

/// The gather shuffles of a hyphenated body (see `hyphenated_body_avx2`).
const BODY_Z: [[i8; 16]; 2] = [
    [0, 1, 2, 3, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z],
    [3, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z],
];
const BODY_X: [[i8; 16]; 2] = [
    [Z, Z, Z, Z, 0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13],
    [Z, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
];
const IDENTITY: [i8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const NONE: [i8; 16] = [Z; 16];

/// The forms that take the table, by index: 0 simple, 1 braced, 2 URN (the hyphenated form
/// has its own kernel, see [`parse_avx2`]).
const FORMS: [Form; 3] = [
    Form {
        at_z: 0,
        at_x: 0,
        from_z: [IDENTITY, IDENTITY],
        from_x: [NONE, NONE],
        hyphens: 0,
        w_or: 0,
        w_and: 0,
        w_want: 0,
        b_at: 0,
        b_and: 0,
        b_want: 0,
        need: 0,
    }
    .need(),
    Form {
        at_z: 1,
        at_x: 5,
        from_z: BODY_Z,
        from_x: BODY_X,
        hyphens: HYPHEN_BITS,
        w_or: 0,
        w_and: 0xff,
        w_want: b'{' as u64,
        b_at: 37,
        b_and: 0xff,
        b_want: b'}',
        need: 0,
    }
    .need(),
    Form {
        at_z: 9,
        at_x: 13,
        from_z: BODY_Z,
        from_x: BODY_X,
        hyphens: HYPHEN_BITS,
        // `urn:uuid` in any letter case, as `entries::is_urn_prefix`; the last `:` below.
        w_or: URN_LETTERS,
        w_and: u64::MAX,
        w_want: URN_WORD,
        b_at: 8,
        b_and: 0xff,
        b_want: URN_PREFIX[8],
        need: 0,
    }
    .need(),
];

/// The shortest and longest accepted input.
const MIN_LEN: usize = 32;
const MAX_LEN: usize = 45;
/// Bit `n` set for each length `n` that [`FORM_OF_LEN`] serves (32, 38, 45): every accepted
/// length but the hyphenated form's 36, which [`parse_avx2`] takes before the table.
const TABLE_LENS: u64 = (1 << 32) | (1 << 38) | (1 << 45);

/// The row of [`FORMS`] for each length from [`MIN_LEN`] to [`MAX_LEN`], indexed by the length
/// minus `MIN_LEN`: the length picks its row with one load (no index table in between, which
/// would put a second load before the data loads). Lengths not in [`TABLE_LENS`] get the
/// simple form's row; they are rejected before it is read.
static FORM_OF_LEN: [Form; MAX_LEN - MIN_LEN + 1] = {
    let mut t = [FORMS[0]; MAX_LEN - MIN_LEN + 1];
    t[38 - MIN_LEN] = FORMS[1];
    t[45 - MIN_LEN] = FORMS[2];
    t
};

// Every length the table serves picks a row whose reads need exactly that length, so `parse_avx2`
// needs no bounds check of its own (see its SAFETY comment). Checked at compile time: a row
// or offset changed without the other fails the build.
const _: () = {
    let mut len = MIN_LEN;
    while len <= MAX_LEN {
        assert!((TABLE_LENS >> len) & 1 == 0 || FORM_OF_LEN[len - MIN_LEN].need == len);
        len += 1;
    }
    assert!(TABLE_LENS >> (MAX_LEN + 1) == 0 && TABLE_LENS & ((1 << MIN_LEN) - 1) == 0);
};

/// The any-form parser: the hyphenated form takes its own kernel; the other three have no
/// branch on the form (inputs of mixed forms would mispredict it): the length picks a row of
/// [`FORMS`], and each of them runs the same instructions. Accepts exactly what
/// `scalar::parse_fast` accepts (checked in `simd::tests`).
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn parse_avx2(s: &[u8]) -> Result<Uuid, crate::error::Error> {
    // The hyphenated form, what `parse_str` is mostly given, goes straight to its kernel: one
    // 36-byte check instead of the row's loads in front of the data loads (84 -> 62
    // instructions; the mixed-form row is no slower, BENCHMARKS.md, "How much the figures
    // move").
    // A failure hands the kernel's masks to the slow path, which takes the first bad slot
    // from them instead of classifying the text again (`parse_str` with one bad digit 122 ->
    // 105 instructions, a bad line of `uuidkit validate` 323 -> 306).
    if let Ok(body) = <&[u8; 36]>::try_from(s) {
        // SAFETY: this function has the target features the kernel needs.
        return match unsafe { hyphenated_checked_avx2(body) } {
            Ok(bytes) => Ok(Uuid::from_bytes(bytes)),
            Err(masks) => Err(rejected_at(s, masks)),
        };
    }
    // The other forms: a bit test and a table lookup rather than a `match`, which would
    // compile to the very branch on the form this path avoids; the remaining branch (a valid
    // length?) predicts well.
    let len = s.len();
    if len > MAX_LEN || (TABLE_LENS >> len) & 1 == 0 {
        // SAFETY: this function has the target features `rejected_avx2` needs.
        return Err(unsafe { rejected_avx2(s, Entry::Any) });
    }
    let Some(form) = FORM_OF_LEN.get(len.wrapping_sub(MIN_LEN)) else {
        // SAFETY: as above.
        return Err(unsafe { rejected_avx2(s, Entry::Any) });
    };
    let p = s.as_ptr();
    // SAFETY: `form` is the row `FORM_OF_LEN` gives for `s.len()`, a length in `TABLE_LENS`,
    // and the compile-time assertion after `FORM_OF_LEN` guarantees that its `need` (computed
    // by `Form::need` from the very offsets used here) equals that length, so both 32-byte
    // loads, the 8-byte word and the byte lie inside `s`. All reads are unaligned.
    let (z, x, w, b) = unsafe {
        (
            _mm256_loadu_si256(p.add(form.at_z).cast()),
            _mm256_loadu_si256(p.add(form.at_x).cast()),
            p.cast::<u64>().read_unaligned(),
            p.add(form.b_at).read(),
        )
    };
    let y = _mm256_or_si256(
        _mm256_shuffle_epi8(z, v256x2(form.from_z[0], form.from_z[1])),
        _mm256_shuffle_epi8(x, v256x2(form.from_x[0], form.from_x[1])),
    );
    let dash = _mm256_movemask_epi8(_mm256_cmpeq_epi8(z, _mm256_set1_epi8(b'-' as i8))) as u32;
    let ends = ((u64::from_le(w) | form.w_or) & form.w_and) ^ form.w_want
        | u64::from((b & form.b_and) ^ form.b_want);
    let bad = (!dash & form.hyphens) | u32::from(ends != 0);
    match pack32_avx2(y, bad) {
        Some(bytes) => Ok(Uuid::from_bytes(bytes)),
        // SAFETY: as above.
        None => Err(unsafe { rejected_avx2(s, Entry::Any) }),
    }
}

/// The 32 hex digits of 16 bytes in order.
#[target_feature(enable = "avx2")]
#[inline]
fn hex32_avx2(b: &[u8; 16], case: Case) -> __m256i {
    // Each byte widened to a 16-bit lane: its high nibble goes to the lane's low byte and its
    // low nibble to the high byte, which is the digits' order in memory.
    // SAFETY: an unaligned 16-byte load of the 16 bytes.
    let w = _mm256_cvtepu8_epi16(unsafe { _mm_loadu_si128(b.as_ptr().cast()) });
    let n = _mm256_or_si256(
        _mm256_srli_epi16::<4>(w),
        _mm256_slli_epi16::<8>(_mm256_and_si256(w, _mm256_set1_epi16(0x0f))),
    );
    let t: &[i8; 16] = match case {
        Case::Lower => &LOWER,
        Case::Upper => &UPPER,
    };
    // SAFETY: an unaligned 16-byte load of the 16-byte table.
    let t = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) });
    _mm256_shuffle_epi8(t, n)
}

/// Writes each UUID in `format`, each followed by `\n`, as many as fit; returns the
/// bytes written.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn encode_lines_avx2(
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
        encode_hyphenated_avx2,
        encode_simple_avx2
    )
}

/// Writes the simple form.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn encode_simple_avx2(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
    let h = hex32_avx2(b, case);
    // SAFETY: one unaligned 32-byte store of the 32 bytes of `out`.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), h) };
}

/// Writes the hyphenated form.
///
/// # Safety
///
/// The [`Kernels`](super::Kernels) contract: the CPU supports AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn encode_hyphenated_avx2(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
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

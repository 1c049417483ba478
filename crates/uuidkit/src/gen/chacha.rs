//! The ChaCha8 keystream behind [`Csprng`](super::rng::Csprng), eight blocks at a time.
//!
//! The keystream is exactly that of the RustCrypto `chacha20` crate's `ChaCha8` (RFC 8439
//! layout: 32-bit block counter in word 12, 96-bit nonce in words 13-15, here all zero) from
//! block 0 on; the tests check it against that crate byte for byte. On x86-64 with AVX2 it is
//! computed here with each 256-bit register holding one state word of eight consecutive blocks,
//! so that one step yields eight blocks, a double round needs no shuffles between lanes (only
//! the final transpose), and the keystream is written out directly instead of XOR-ed into a
//! zeroed buffer as the crate's cipher interface requires; everywhere else the crate computes
//! it. BENCHMARKS.md measures the CSPRNG built on it end to end.

use chacha20::cipher::{KeyIvInit, StreamCipher};
use chacha20::{ChaCha8, Key, Nonce};

/// Bytes per call of [`keystream`]'s fast path: eight 64-byte blocks.
const CHUNK: usize = 512;

/// Fills `out` (a multiple of 512 bytes, at most 2^32 blocks) with the ChaCha8 keystream of
/// `key`, nonce zero, from block 0.
pub(crate) fn keystream(key: &[u8; 32], out: &mut [u8]) {
    debug_assert!(out.len() % CHUNK == 0);
    match VARIANT.load(core::sync::atomic::Ordering::Relaxed) {
        1 => return portable(key, out),
        2 => return crate_core(key, out),
        _ => {}
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            let k = key_words(key);
            for (i, chunk) in out.chunks_exact_mut(CHUNK).enumerate() {
                if let Some(chunk) = chunk.first_chunk_mut::<CHUNK>() {
                    // Block numbers fit: callers ask for a few KiB, far below 2^32 blocks.
                    let counter = (i * 8) as u32;
                    // SAFETY: the CPU has AVX2 (checked just above).
                    unsafe { x86::blocks8(&k, counter, chunk) };
                }
            }
            return;
        }
    }
    portable(key, out);
}

/// Measuring switch (not for release): 0 the AVX2 kernel, 1 the crate's cipher interface on a
/// zeroed buffer, 2 the crate's core writing keystream blocks directly.
#[doc(hidden)]
pub static VARIANT: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// The crate's core, writing the keystream without the XOR.
fn crate_core(key: &[u8; 32], out: &mut [u8]) {
    use chacha20::cipher::consts::{U4, U64};
    use chacha20::cipher::inout::InOutBuf;
    use chacha20::cipher::StreamCipherCore;
    let mut core = chacha20::ChaChaCore::<U4>::new(&Key::from(*key), &Nonce::default());
    let (mut blocks, _) = InOutBuf::from(out).into_chunks::<U64>();
    core.write_keystream_blocks(blocks.get_out());
}

/// The crate's implementation (its own SIMD backends where the CPU has them).
fn portable(key: &[u8; 32], out: &mut [u8]) {
    out.fill(0);
    ChaCha8::new(&Key::from(*key), &Nonce::default()).apply_keystream(out);
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn key_words(key: &[u8; 32]) -> [u32; 8] {
    let mut k = [0u32; 8];
    for (w, b) in k.iter_mut().zip(key.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    k
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    /// "expand 32-byte k" as four little-endian words (RFC 8439 §2.3).
    const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

    /// Byte shuffles that rotate each 32-bit word left by 16 and by 8 bits.
    const ROT16: [i8; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];
    const ROT8: [i8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

    /// Rotates each word by whole bytes, as the shuffle `t` (in both 128-bit lanes) says.
    #[inline(always)]
    fn rotl_bytes(x: __m256i, t: [i8; 16]) -> __m256i {
        // SAFETY: the intrinsics of these `#[inline(always)]` helpers need only AVX2, which
        // their one caller (`blocks8`, `#[target_feature(enable = "avx2")]`) has; they touch no
        // memory, and `[[i8; 16]; 2]` has the size of `__m256i` with every bit pattern valid
        // for both.
        unsafe { _mm256_shuffle_epi8(x, core::mem::transmute::<[[i8; 16]; 2], __m256i>([t, t])) }
    }

    #[inline(always)]
    fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
        // SAFETY: see `rotl_bytes`.
        unsafe { _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x)) }
    }

    #[inline(always)]
    fn add(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see `rotl_bytes`.
        unsafe { _mm256_add_epi32(a, b) }
    }

    #[inline(always)]
    fn xor(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see `rotl_bytes`.
        unsafe { _mm256_xor_si256(a, b) }
    }

    /// The quarter round (RFC 8439 §2.1) on words `a`, `b`, `c`, `d` of eight blocks.
    #[inline(always)]
    fn quarter(x: &mut [__m256i; 16], a: usize, b: usize, c: usize, d: usize) {
        x[a] = add(x[a], x[b]);
        x[d] = rotl_bytes(xor(x[d], x[a]), ROT16);
        x[c] = add(x[c], x[d]);
        x[b] = rotl::<12, 20>(xor(x[b], x[c]));
        x[a] = add(x[a], x[b]);
        x[d] = rotl_bytes(xor(x[d], x[a]), ROT8);
        x[c] = add(x[c], x[d]);
        x[b] = rotl::<7, 25>(xor(x[b], x[c]));
    }

    /// Transposes an 8 × 8 matrix of 32-bit words held in eight registers: lane `j` of output
    /// `i` is lane `i` of input `j`.
    #[inline(always)]
    fn transpose8(r: [__m256i; 8]) -> [__m256i; 8] {
        // SAFETY: see `rotl_bytes`.
        unsafe {
            let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
            let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
            let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
            let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
            let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
            let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
            let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
            let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
            let u0 = _mm256_unpacklo_epi64(t0, t2);
            let u1 = _mm256_unpackhi_epi64(t0, t2);
            let u2 = _mm256_unpacklo_epi64(t1, t3);
            let u3 = _mm256_unpackhi_epi64(t1, t3);
            let u4 = _mm256_unpacklo_epi64(t4, t6);
            let u5 = _mm256_unpackhi_epi64(t4, t6);
            let u6 = _mm256_unpacklo_epi64(t5, t7);
            let u7 = _mm256_unpackhi_epi64(t5, t7);
            [
                _mm256_permute2x128_si256::<0x20>(u0, u4),
                _mm256_permute2x128_si256::<0x20>(u1, u5),
                _mm256_permute2x128_si256::<0x20>(u2, u6),
                _mm256_permute2x128_si256::<0x20>(u3, u7),
                _mm256_permute2x128_si256::<0x31>(u0, u4),
                _mm256_permute2x128_si256::<0x31>(u1, u5),
                _mm256_permute2x128_si256::<0x31>(u2, u6),
                _mm256_permute2x128_si256::<0x31>(u3, u7),
            ]
        }
    }

    /// Blocks `counter..counter + 8` of the ChaCha8 keystream of key `k` (nonce zero) into
    /// `out`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn blocks8(k: &[u32; 8], counter: u32, out: &mut [u8; 512]) {
        let splat = |w: u32| _mm256_set1_epi32(w as i32);
        let c = counter as i32;
        let mut init = [_mm256_setzero_si256(); 16];
        for (i, w) in SIGMA.iter().enumerate() {
            init[i] = splat(*w);
        }
        for (i, w) in k.iter().enumerate() {
            init[4 + i] = splat(*w);
        }
        // Lane j is block `counter + j`; words 13-15 (the nonce) stay zero. Wrapping like the
        // 32-bit counter of RFC 8439.
        init[12] = _mm256_add_epi32(
            _mm256_set1_epi32(c),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        );
        let mut x = init;
        // ChaCha8: four double rounds.
        for _ in 0..4 {
            quarter(&mut x, 0, 4, 8, 12);
            quarter(&mut x, 1, 5, 9, 13);
            quarter(&mut x, 2, 6, 10, 14);
            quarter(&mut x, 3, 7, 11, 15);
            quarter(&mut x, 0, 5, 10, 15);
            quarter(&mut x, 1, 6, 11, 12);
            quarter(&mut x, 2, 7, 8, 13);
            quarter(&mut x, 3, 4, 9, 14);
        }
        for (w, i) in x.iter_mut().zip(init.iter()) {
            *w = add(*w, *i);
        }
        // Register i of `lo` holds words 0-7 of block i, of `hi` words 8-15.
        let lo = transpose8([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let hi = transpose8([x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]]);
        let p = out.as_mut_ptr();
        for b in 0..8 {
            // SAFETY: block b occupies out[64 b .. 64 b + 64], inside the 512 bytes of `out`;
            // the stores are unaligned.
            unsafe {
                _mm256_storeu_si256(p.add(64 * b).cast(), lo[b]);
                _mm256_storeu_si256(p.add(64 * b + 32).cast(), hi[b]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(key: &[u8; 32], len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        portable(key, &mut v);
        v
    }

    #[test]
    fn crate_core_matches_the_cipher_interface() {
        for len in [512, 4096] {
            let key: [u8; 32] = core::array::from_fn(|i| (i * 7) as u8);
            let mut a = vec![0xa5u8; len];
            crate_core(&key, &mut a);
            assert_eq!(a, reference(&key, len));
        }
    }

    #[test]
    fn matches_the_chacha20_crate() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        for round in 0..64 {
            let mut key = [0u8; 32];
            for b in key.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *b = (seed >> 56) as u8;
            }
            if round == 0 {
                key = [0; 32];
            } else if round == 1 {
                key = [0xff; 32];
            }
            let len = 512 * (1 + round % 9);
            let mut ours = vec![0xa5u8; len];
            keystream(&key, &mut ours);
            assert_eq!(ours, reference(&key, len), "key {key:02x?}");
        }
    }

    // Source: RFC 8439 §2.3.2 gives ChaCha20 vectors only; for 8 rounds the reference is the
    // `chacha20` crate above. This checks blocks 0 to 7 (one AVX2 step) of the key 0, 1, ..., 31
    // against an independent scalar computation of the RFC 8439 block function with 8 rounds.
    #[test]
    fn block_zero_matches_a_scalar_block_function() {
        fn qr(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(16);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(12);
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(8);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(7);
        }
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut ours = [0u8; 512];
        keystream(&key, &mut ours);
        for block in 0..8u32 {
            let mut init = [0u32; 16];
            init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
            init[4..12].copy_from_slice(&key_words(&key));
            init[12] = block;
            let mut s = init;
            for _ in 0..4 {
                qr(&mut s, 0, 4, 8, 12);
                qr(&mut s, 1, 5, 9, 13);
                qr(&mut s, 2, 6, 10, 14);
                qr(&mut s, 3, 7, 11, 15);
                qr(&mut s, 0, 5, 10, 15);
                qr(&mut s, 1, 6, 11, 12);
                qr(&mut s, 2, 7, 8, 13);
                qr(&mut s, 3, 4, 9, 14);
            }
            let want: Vec<u8> = s
                .iter()
                .zip(init.iter())
                .flat_map(|(a, b)| a.wrapping_add(*b).to_le_bytes())
                .collect();
            let b = block as usize;
            assert_eq!(&ours[64 * b..64 * b + 64], &want[..], "block {block}");
        }
    }
}

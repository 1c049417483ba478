//! The ChaCha8 keystream behind [`Csprng`](super::rng::Csprng).
//!
//! The RustCrypto `chacha20` crate computes it (its AVX2, SSE2 and NEON backends, chosen at run
//! time, or portable code): RFC 8439 layout, 32-bit block counter in word 12, 96-bit nonce in
//! words 13-15, here all zero, from block 0 on. Its core writes the keystream straight into the
//! buffer; the cipher interface XORs it into a zeroed one, which cost 2-9 % more per UUID here.
//! Why no hand-written kernel: DESIGN.md, "Generators".

use chacha20::cipher::consts::{U4, U64};
use chacha20::cipher::inout::InOutBuf;
use chacha20::cipher::{KeyIvInit, StreamCipherCore};
use chacha20::{ChaChaCore, Key, Nonce};

/// ChaCha with 8 rounds (4 double rounds), as the crate's `ChaCha8` wraps it.
type ChaCha8Core = ChaChaCore<U4>;

/// Bytes per ChaCha block.
const BLOCK: usize = 64;

/// Fills `out` (whole blocks, checked at compile time) with the ChaCha8 keystream of `key`,
/// nonce zero, from block 0.
pub(crate) fn keystream<const N: usize>(key: &[u8; 32], out: &mut [u8; N]) {
    const {
        assert!(
            N % BLOCK == 0,
            "the keystream buffer must hold whole blocks"
        )
    };
    let mut core = ChaCha8Core::new(&Key::from(*key), &Nonce::default());
    // `N` is a multiple of the block size, so no bytes are left over.
    let (mut blocks, _) = InOutBuf::from(&mut out[..]).into_chunks::<U64>();
    core.write_keystream_blocks(blocks.get_out());
}

/// The same keystream as [`keystream`] of `64 + rest.len()` bytes, block 0 into `first` and
/// the blocks after it straight into `rest` (whole blocks; a shorter tail is left as it is).
pub(crate) fn keystream_split(key: &[u8; 32], first: &mut [u8; BLOCK], rest: &mut [u8]) {
    let mut core = ChaCha8Core::new(&Key::from(*key), &Nonce::default());
    let (mut head, _) = InOutBuf::from(&mut first[..]).into_chunks::<U64>();
    core.write_keystream_blocks(head.get_out());
    let (mut blocks, _) = InOutBuf::from(rest).into_chunks::<U64>();
    core.write_keystream_blocks(blocks.get_out());
}

#[cfg(test)]
mod tests {
    use super::*;

    // Source: RFC 8439 §2.3 (the block function) and §2.1 (the quarter round); §2.3.2 gives
    // ChaCha20 vectors only, so the reference here is that block function with 8 rounds,
    // computed independently for every block of a refill-sized buffer.
    #[test]
    fn the_split_keystream_is_the_same_keystream() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 7) as u8);
        let mut whole = [0u8; 4096];
        keystream(&key, &mut whole);
        let mut first = [0u8; BLOCK];
        let mut rest = [0x5au8; 4096 - BLOCK + 10];
        keystream_split(&key, &mut first, &mut rest);
        assert_eq!(first[..], whole[..BLOCK]);
        assert_eq!(rest[..4096 - BLOCK], whole[BLOCK..]);
        assert_eq!(
            rest[4096 - BLOCK..],
            [0x5a; 10],
            "a partial block is left alone"
        );
    }

    #[test]
    fn matches_the_rfc_8439_block_function_with_8_rounds() {
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
        for key in [[0u8; 32], [0xff; 32], core::array::from_fn(|i| i as u8)] {
            let mut ours = [0xa5u8; 4096];
            keystream(&key, &mut ours);
            let mut init = [0u32; 16];
            // "expand 32-byte k"
            init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
            for (w, b) in init[4..12].iter_mut().zip(key.chunks_exact(4)) {
                *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            for (block, got) in ours.chunks_exact(BLOCK).enumerate() {
                init[12] = block as u32;
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
                assert_eq!(got, &want[..], "key {:02x}.., block {block}", key[1]);
            }
        }
    }
}

//! Bit helpers shared by the layouts: masks, and the 74 random bits of a v7-shaped tail.

use super::source::RandomSource;

/// The low `bits` bits set (`bits` <= 64).
pub(crate) const fn mask64(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The low `bits` bits set (`bits` <= 128).
pub(crate) const fn mask128(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// 74 random bits, drawn as 10 bytes laid where they would stand in octets 6 to 15 of a UUID,
/// skipping the version nibble and the variant bits: the first two bytes give the 12 bits of
/// `rand_a` (their top nibble is dropped), the last eight the 62 bits of `rand_b` (their top
/// two bits are dropped). A replayed random UUID's octets 6–15 therefore come back unchanged.
pub(crate) fn rand74<R: RandomSource + ?Sized>(rng: &mut R) -> u128 {
    let mut b = [0u8; 10];
    rng.fill_bytes(&mut b);
    rand74_of(&b)
}

/// The 74 bits [`rand74`] makes of the 10 bytes it draws.
#[inline(always)]
pub(crate) fn rand74_of(b: &[u8; 10]) -> u128 {
    let a = u16::from_be_bytes([b[0], b[1]]) as u128 & 0xfff;
    let rest = u64::from_be_bytes([b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9]]) as u128;
    (a << 62) | (rest & mask128(62))
}

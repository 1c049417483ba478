//! Decimal digits without a division per digit: eight at a time in the lanes of one `u64`.
//! Used by the decimal form and the OID (`forms.rs`) and by RFC 3339 fractions
//! (`timestamp.rs`).

/// The eight digits of `n` < 10^8, zero padded, computed in the lanes of one u64: the
/// number is split into halves of four digits (32-bit lanes), then each into pairs (16-bit
/// lanes), then into single digits (bytes), each split by one multiplication for all lanes.
///
/// Exactness: `x * 10486 >> 20` is `x / 100` for `x` < 43 699 and `x * 103 >> 10` is `x / 10`
/// for `x` < 179, and no lane's product reaches the next lane (`9999 * 10486 < 2^32`,
/// `99 * 103 < 2^16`).
pub(crate) const fn eight(n: u64) -> [u8; 8] {
    let x = (n / 10_000) | ((n % 10_000) << 32);
    let q = ((x * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let x = q | ((x - q * 100) << 16);
    let q = ((x * 103) >> 10) & 0x000f_000f_000f_000f;
    let x = q | ((x - q * 10) << 8);
    // The first digit is in the lowest byte.
    (x + 0x3030_3030_3030_3030).to_le_bytes()
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::eight;

    #[test]
    fn eight_agrees_with_the_standard_library() {
        // The lane arithmetic of `eight`: every value below 10^5 (all the splits of four
        // digits), then a stride through the rest.
        for n in (0..100_000)
            .chain((100_000..100_000_000).step_by(997))
            .chain([99_999_999])
        {
            assert_eq!(eight(n), *std::format!("{n:08}").as_bytes(), "{n}");
        }
    }
}

//! Decimal digits written into byte buffers, for reports and inspection. A leaf module: it
//! imports nothing of the crate, so every module may use it.

/// `v` < 100 as two digits.
#[inline(always)]
pub fn two_digits(v: u32) -> [u8; 2] {
    [b'0' + (v / 10 % 10) as u8, b'0' + (v % 10) as u8]
}

/// Writes `v` in decimal at the start of `buf`; returns the number of digits. The values
/// here are mostly a few digits long, for which two digits at a time is quickest.
#[inline(always)]
pub fn decimal_u64(v: u64, buf: &mut [u8; 20]) -> usize {
    let n = v.checked_ilog10().map_or(1, |d| d as usize + 1);
    let mut v = v;
    let mut at = n;
    while at >= 2 {
        let [a, b] = two_digits((v % 100) as u32);
        buf[at - 2] = a;
        buf[at - 1] = b;
        v /= 100;
        at -= 2;
    }
    if at == 1 {
        buf[0] = b'0' + v as u8;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_u64_agrees_with_display() {
        let mut values = vec![0, 9, 10, 99, 100, u64::MAX];
        let mut p = 1u64;
        while let Some(n) = p.checked_mul(10) {
            values.extend([p - 1, p, p + 1]);
            p = n;
        }
        for v in values {
            let mut buf = [0u8; 20];
            let n = decimal_u64(v, &mut buf);
            assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), v.to_string());
        }
    }
}

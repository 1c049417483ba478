//! Decimal numerals written into byte buffers, for reports and inspection. A leaf module: it
//! imports nothing of the crate, so every module may use it.

/// `v` < 100 as two digits (the last two digits of a larger `v`).
#[inline(always)]
pub fn two_digits(v: u32) -> [u8; 2] {
    PAIRS[(v % 100) as usize]
}

/// `v` < 10^9 as nine digits, with leading zeros (the last nine digits of a larger `v`).
#[inline(always)]
pub fn nine_digits(v: u32) -> [u8; 9] {
    let v = v % 1_000_000_000;
    let [a0, a1] = PAIRS[(v / 10_000_000) as usize];
    let [b0, b1] = PAIRS[(v / 100_000 % 100) as usize];
    let [c0, c1] = PAIRS[(v / 1_000 % 100) as usize];
    let [d0, d1] = PAIRS[(v / 10 % 100) as usize];
    [a0, a1, b0, b1, c0, c1, d0, d1, b'0' + (v % 10) as u8]
}

/// `"00"` to `"99"`, indexed by the value.
const PAIRS: [[u8; 2]; 100] = {
    let mut t = [[0u8; 2]; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    t
};

/// Writes `v` in decimal at the start of `buf`; returns the number of digits. The bytes of
/// `buf` past them are overwritten with 0 bytes (not the digit `0`).
///
/// The digits are written two at a time from a table, right-aligned in the first half of a
/// buffer twice as wide, and moved to `buf` with a copy of fixed length from where they
/// start: no digit count first, and no copy of variable length (a call).
#[inline(always)]
pub fn decimal_u64(v: u64, buf: &mut [u8; 20]) -> usize {
    let mut wide = [0u8; 40];
    // `v` < 2^64 has at most 20 digits, so `at` never goes below 0.
    let mut at = 20;
    let mut v = v;
    while v >= 100 {
        at -= 2;
        if let Some(d) = wide.get_mut(at..at + 2) {
            d.copy_from_slice(&PAIRS[(v % 100) as usize]);
        }
        v /= 100;
    }
    if v >= 10 {
        at -= 2;
        if let Some(d) = wide.get_mut(at..at + 2) {
            d.copy_from_slice(&PAIRS[v as usize]);
        }
    } else {
        at -= 1;
        if let Some(d) = wide.get_mut(at) {
            *d = b'0' + v as u8;
        }
    }
    if let Some(digits) = wide.get(at..).and_then(|w| w.first_chunk::<20>()) {
        *buf = *digits;
    }
    20 - at
}

/// The decimal digits of a number that mostly grows by one between two uses (the number of
/// the next bad line in a file of bad lines): counted up in place, written afresh otherwise.
pub struct Counter {
    value: u64,
    /// The digits end at byte 20; `buf[start..20]` holds them, and the 20 bytes from `start`
    /// can be copied whole (see [`Counter::padded`]).
    buf: [u8; 40],
    start: usize,
}

impl Default for Counter {
    fn default() -> Counter {
        let mut buf = [b' '; 40];
        buf[19] = b'0';
        Counter {
            value: 0,
            buf,
            start: 19,
        }
    }
}

impl Counter {
    /// Makes the digits those of `v`.
    #[inline(always)]
    pub fn set(&mut self, v: u64) {
        if self.value.checked_add(1) == Some(v) {
            self.value = v;
            let mut at = 19;
            loop {
                let d = self.buf[at];
                if d != b'9' {
                    self.buf[at] = d + 1;
                    return;
                }
                self.buf[at] = b'0';
                if at == self.start {
                    // `v` < 2^64 has at most 20 digits, so one more fits in front.
                    self.start -= 1;
                    self.buf[self.start] = b'1';
                    return;
                }
                at -= 1;
            }
        }
        if v != self.value {
            self.write(v);
        }
    }

    #[cold]
    fn write(&mut self, v: u64) {
        let mut digits = [0u8; 20];
        let n = decimal_u64(v, &mut digits);
        self.start = 20 - n;
        self.buf[self.start..20].copy_from_slice(&digits[..n]);
        self.value = v;
    }

    /// The digits followed by filler up to 20 bytes, and how many digits there are: a copy of
    /// a fixed size, of which the first `n` bytes count.
    #[inline]
    pub fn padded(&self) -> (&[u8; 20], usize) {
        let n = 20 - self.start;
        match self
            .buf
            .get(self.start..)
            .and_then(|b| b.first_chunk::<20>())
        {
            Some(b) => (b, n),
            None => (&[0; 20], 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_widths_agree_with_format() {
        for v in (0..1_000_000_000u32)
            .step_by(997)
            .chain([999_999_999, 1_000_000_000, u32::MAX])
        {
            assert_eq!(
                nine_digits(v),
                *format!("{:09}", v % 1_000_000_000).as_bytes()
            );
        }
        for v in 0..1000u32 {
            assert_eq!(two_digits(v), *format!("{:02}", v % 100).as_bytes());
        }
    }

    #[test]
    fn decimal_u64_agrees_with_display() {
        let mut values = vec![0, 9, 10, 99, 100, u64::MAX];
        let mut p = 1u64;
        while let Some(n) = p.checked_mul(10) {
            values.extend([p - 1, p, p + 1]);
            p = n;
        }
        for v in values {
            let mut buf = [0xff; 20];
            let n = decimal_u64(v, &mut buf);
            assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), v.to_string());
            assert!(buf[n..].iter().all(|&b| b == 0), "{v}: {buf:?}");
        }
    }

    #[test]
    fn counter_agrees_with_display() {
        let mut c = Counter::default();
        let check = |c: &Counter, v: u64| {
            let (p, n) = c.padded();
            assert_eq!(&p[..n], v.to_string().as_bytes());
        };
        check(&c, 0);
        let mut steps: Vec<u64> = (0..=12_345).collect();
        steps.extend([99_999, 100_000, 100_001, 100_003, 7, 8, 9, 10, 11, 99, 100]);
        steps.extend([
            u64::MAX - 2,
            u64::MAX - 1,
            u64::MAX,
            0,
            1,
            u64::MAX,
            u64::MAX,
        ]);
        // Around each power of ten (10^0 has no `p - 2`; 0 and 1 are counted above).
        let mut p = 1u64;
        while let Some(n) = p.checked_mul(10) {
            steps.extend([p.saturating_sub(2), p - 1, p, p + 1]);
            p = n;
        }
        for v in steps {
            c.set(v);
            check(&c, v);
        }
    }
}

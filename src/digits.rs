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
        let mut p = 1u64;
        while let Some(n) = p.checked_mul(10) {
            steps.extend([p - 2, p - 1, p, p + 1]);
            p = n;
        }
        for v in steps {
            c.set(v);
            check(&c, v);
        }
    }
}

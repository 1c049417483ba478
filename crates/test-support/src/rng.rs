//! splitmix64: a fixed, dependency-free stream of test inputs, so that a failure is
//! reproducible by its seed. Used by uuidkit's differential and short-form tests.

use uuidkit::Uuid;

/// The generator's state; `Rng(seed)` starts a stream.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 bits of the stream.
    // Not an `Iterator`: the stream never ends, and the callers want the bits, not an `Option`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// The next 128 bits.
    pub fn u128(&mut self) -> u128 {
        (u128::from(self.next()) << 64) | u128::from(self.next())
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }

    /// Random 128 bits, with some values of few or many set bits (the edges of the range).
    pub fn uuid(&mut self) -> Uuid {
        let v = self.u128();
        let v = match self.next() % 16 {
            0 => v >> (self.next() % 128),
            1 => !(v >> (self.next() % 128)),
            _ => v,
        };
        Uuid::from_u128(v)
    }
}

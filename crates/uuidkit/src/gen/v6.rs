//! Version 6 generator (RFC 9562 §5.6): the v1 fields (60-bit Gregorian ticks, 14-bit clock
//! sequence, 48-bit node) reordered so that byte order is time order, from the Gregorian core
//! ([`GregorianBuilder`]).
//!
//! ```
//! use uuidkit::gen::{FixedClock, ThreadRng, V6Generator};
//! use uuidkit::Timestamp;
//!
//! let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
//! let mut gen = V6Generator::new(clock, ThreadRng);
//! let a = gen.next()?;
//! let b = gen.next()?; // same clock reading: the next tick
//! assert!(a < b);
//! assert_eq!(b.gregorian_ticks(), Some(a.gregorian_ticks().unwrap() + 1));
//! # Ok::<(), uuidkit::gen::GenError>(())
//! ```

use super::clock::SystemClock;
use super::error::GenError;
use super::gregorian::{gregorian_methods, GregorianBuilder, GregorianCore, GREGORIAN};
use super::rng::ThreadRng;
use super::sequencer::Counter;
use super::source::{Clock, RandomSource};
use crate::Uuid;

impl GregorianBuilder {
    /// Builds a v6 generator on `clock` and `rng`.
    ///
    /// ```
    /// use uuidkit::gen::{FixedClock, GregorianBuilder, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // Source: RFC 9562 Appendix A.5 (time, clock sequence and node of its example).
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut gen = GregorianBuilder::new()
    ///     .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
    ///     .clock_seq(0x33C8)
    ///     .build_v6(clock, ThreadRng)?;
    /// assert_eq!(gen.next()?.to_string(), "1ec9414c-232a-6b00-b3c8-9f6bdeced846");
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub fn build_v6<C: Clock, R: RandomSource>(
        self,
        clock: C,
        rng: R,
    ) -> Result<V6Generator<C, R>, GenError> {
        Ok(V6Generator {
            core: self.core(
                clock,
                rng,
                GREGORIAN,
                Counter::None,
                14,
                "v6 clock sequence",
            )?,
        })
    }
}

/// A version 6 generator (RFC 9562 §5.6): the v1 fields reordered so that UUIDs sort by time.
///
/// ```
/// let mut gen = uuidkit::gen::V6Generator::system();
/// let (a, b) = (gen.next()?, gen.next()?);
/// assert!(a < b);
/// # Ok::<(), uuidkit::gen::GenError>(())
/// ```
///
/// Build one with [`GregorianBuilder`], or [`new`](Self::new) for the defaults.
/// Single-threaded (`&mut self`); for a process-wide generator see
/// [`global`](crate::gen::global).
#[derive(Debug, Clone)]
pub struct V6Generator<C = SystemClock, R = ThreadRng> {
    core: GregorianCore<C, R>,
}

gregorian_methods!(V6Generator, build_v6, from_v6_parts);

impl<C: Clock, R: RandomSource> V6Generator<C, R> {
    /// [`fill`](V6Generator::fill), but each UUID laid out as v1 (the same timestamp, clock
    /// sequence and node): the durable generator issues v1 and v6 from one timeline.
    pub fn fill_v1(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
        self.core
            .fill_with(out, |t, _, cs, node| Uuid::from_v1_parts(t, cs, node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{RegressionPolicy, SeqRandom, StepClock};
    use crate::Timestamp;

    #[test]
    fn fill_v1_is_fill_converted_to_v1() {
        let at = Timestamp::from_unix_millis(1645557742000);
        let clocks = [StepClock::new(at), StepClock::new(at)];
        let reset = GregorianBuilder::new().regression(RegressionPolicy::Reset);
        let mut v6 = reset.build_v6(&clocks[0], SeqRandom::new(9)).unwrap();
        let mut v1 = reset.build_v6(&clocks[1], SeqRandom::new(9)).unwrap();
        let mut seqs = Vec::new();
        // A fill, then one after the clock went back an hour (followed under Reset): a new clock
        // sequence.
        for _ in 0..2 {
            let (mut a, mut b) = ([Uuid::NIL; 300], [Uuid::NIL; 300]);
            v6.fill(&mut a).unwrap();
            v1.fill_v1(&mut b).unwrap();
            assert_eq!(a.map(|u| u.to_v1()), b.map(Some));
            assert_eq!(b[0].version_num(), 1);
            seqs.push(b[0].clock_seq());
            clocks.iter().for_each(|c| c.step_back(3_600_000_000_000));
        }
        assert_ne!(seqs[0], seqs[1]);
    }
}

//! Version 6 generator (RFC 9562 §5.6): the v1 fields (60-bit Gregorian ticks, 14-bit clock
//! sequence, 48-bit node) reordered so that byte order is time order, from the Gregorian core
//! ([`GregorianBuilder`]).
//!
//! ```
//! use uuidkit::generator::{FixedClock, ThreadRng, V6Generator};
//! use uuidkit::Timestamp;
//!
//! let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
//! let mut g = V6Generator::new(clock, ThreadRng);
//! let a = g.next()?;
//! let b = g.next()?; // same clock reading: the next tick
//! assert!(a < b);
//! assert_eq!(b.gregorian_ticks(), Some(a.gregorian_ticks().unwrap() + 1));
//! # Ok::<(), uuidkit::generator::GenError>(())
//! ```

use super::clock::SystemClock;
use super::error::GenError;
use super::gregorian::{gregorian_generator, GregorianBuilder, GregorianCore, GREGORIAN};
use super::rng::ThreadRng;
use super::sequencer::Counter;
use super::source::{Clock, RandomSource};
use crate::Uuid;

gregorian_generator! {
    /// A version 6 generator (RFC 9562 §5.6): the v1 fields reordered so that UUIDs sort by time.
    ///
    /// ```
    /// let mut g = uuidkit::generator::V6Generator::system();
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert!(a < b);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub struct V6Generator, from_v6_parts;

    /// Builds a v6 generator on `clock` and `rng`.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, GregorianBuilder, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // Source: RFC 9562 Appendix A.5 (time, clock sequence and node of its example).
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = GregorianBuilder::new()
    ///     .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
    ///     .clock_seq(0x33C8)
    ///     .build_v6(clock, ThreadRng)?;
    /// assert_eq!(g.next()?.to_string(), "1ec9414c-232a-6b00-b3c8-9f6bdeced846");
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn build_v6, "v6 clock sequence";
}

impl<C: Clock, R: RandomSource> V6Generator<C, R> {
    /// [`fill`](V6Generator::fill), but each UUID laid out as v1 (the same timestamp, clock
    /// sequence and node): the durable generator issues v1 and v6 from one timeline.
    pub fn fill_v1(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
        self.core
            .fill_with(out, |t, _, cs, node| Uuid::from_v1_parts(t, cs, node))
    }

    /// Takes `count` consecutive timestamps at once, as `count` UUIDs from one clock reading
    /// would, without making the UUIDs, and returns the first: the block is
    /// `first..first + count`, with the clock sequence and node in use after the call (a
    /// caller, such as a server handing out a block, lays the UUIDs out itself). Every later
    /// UUID has a greater timestamp. Under [`OverflowPolicy::Advance`](super::OverflowPolicy)
    /// (the default) the block may run ahead of the clock; under `Wait` and `Error` a block
    /// beyond the ticks of the clock reading is refused with the overflow error, taking
    /// nothing. A `count` of 0 is refused as an invalid argument.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V6Generator};
    /// use uuidkit::Timestamp;
    /// let clock = FixedClock::new(Timestamp::from_gregorian_ticks(1_000));
    /// let mut g = V6Generator::new(clock, ThreadRng);
    /// assert_eq!(g.take_ticks(8192)?, 1_000); // ticks 1000 to 9191
    /// assert_eq!(g.last_ticks(), Some(9_191));
    /// assert_eq!(g.next()?.gregorian_ticks(), Some(9_192));
    /// assert!(g.take_ticks(0).is_err());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn take_ticks(&mut self, count: u64) -> Result<u64, GenError> {
        GenError::check_range("block of timestamps", count.into(), "", 1, 1 << 60)?;
        self.core.take_ticks(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{RegressionPolicy, SeqRandom, StepClock};
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

    #[test]
    fn take_ticks_takes_what_fill_would_issue() {
        let at = Timestamp::from_unix_millis(1645557742000);
        for n in [1usize, 2, 7, 10_000, 25_000] {
            // Two generators on clocks that move alike: one fills, the other takes ticks.
            let clocks = [StepClock::new(at), StepClock::new(at)];
            let mut filled = V6Generator::new(&clocks[0], SeqRandom::new(3));
            let mut taken = V6Generator::new(&clocks[1], SeqRandom::new(3));
            for round in 0..3 {
                let mut out = vec![Uuid::NIL; n];
                filled.fill(&mut out).unwrap();
                let first = taken.take_ticks(n as u64).unwrap();
                let want: Vec<_> = out.iter().map(|u| u.gregorian_ticks()).collect();
                let got: Vec<_> = (0..n as u64).map(|k| Some(first + k)).collect();
                assert_eq!(got, want, "block of {n}, round {round}");
                assert_eq!(taken.last_ticks(), filled.last_ticks());
                assert_eq!(taken.next().unwrap(), filled.next().unwrap());
                // Some time passes, less than a block of 25,000 ticks.
                clocks.iter().for_each(|c| c.advance(1_000_000));
            }
        }
    }

    #[test]
    fn take_ticks_beyond_the_reading_is_refused_without_advance() {
        use crate::generator::{FixedClock, OverflowPolicy};
        let clock = FixedClock::new(Timestamp::from_gregorian_ticks(5_000));
        for policy in [OverflowPolicy::Error, OverflowPolicy::Wait] {
            let mut g = GregorianBuilder::new()
                .overflow(policy)
                .build_v6(clock, SeqRandom::new(1))
                .unwrap();
            // A 1-ns clock: one tick per reading, so a block of one fits and two do not.
            assert_eq!(g.take_ticks(1).unwrap(), 5_000);
            let mut fresh = GregorianBuilder::new()
                .overflow(policy)
                .build_v6(clock, SeqRandom::new(1))
                .unwrap();
            let err = fresh.take_ticks(2).unwrap_err();
            assert!(err.is_overflow(), "{policy:?}: {err}");
            assert_eq!(fresh.last_ticks(), None, "{policy:?}: nothing taken");
        }
    }

    #[test]
    fn take_ticks_never_passes_the_end_of_the_field() {
        use crate::generator::FixedClock;
        let clock = FixedClock::new(Timestamp::from_gregorian_ticks((1 << 60) - 10));
        let mut g = V6Generator::new(clock, SeqRandom::new(1));
        assert!(g.take_ticks(11).unwrap_err().is_time_range());
        assert_eq!(g.last_ticks(), None);
        assert_eq!(g.take_ticks(10).unwrap(), (1 << 60) - 10);
        assert!(g.take_ticks(1).is_err());
        assert!(g.take_ticks(0).unwrap_err().to_string().contains("block"));
    }

    #[test]
    fn take_ticks_after_a_reset_takes_the_next_clock_sequence() {
        let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
        let mut g = GregorianBuilder::new()
            .regression(RegressionPolicy::Reset)
            .build_v6(&clock, SeqRandom::new(4))
            .unwrap();
        let a = g.take_ticks(100).unwrap();
        let seq = g.clock_seq();
        clock.step_back(3_600_000_000_000);
        let b = g.take_ticks(100).unwrap();
        assert!(b < a);
        assert_eq!(g.clock_seq(), (seq + 1) & 0x3FFF);
        assert_eq!(g.resets(), 1);
    }
}

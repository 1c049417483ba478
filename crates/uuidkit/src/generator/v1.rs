//! Version 1 generator (RFC 9562 §5.1): a 60-bit count of 100-ns ticks since 1582-10-15, a
//! 14-bit clock sequence and a 48-bit node, from the Gregorian core ([`GregorianBuilder`]).
//!
//! v1 byte order is *not* time order (the low 32 bits of the time come first): a v1
//! generator's UUIDs increase by timestamp. For UUIDs that also increase as bytes, use v6
//! ([`V6Generator`](super::V6Generator)), the same fields reordered.
//!
//! ```
//! use uuidkit::generator::{FixedClock, ThreadRng, V1Generator};
//! use uuidkit::Timestamp;
//!
//! let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
//! let mut g = V1Generator::new(clock, ThreadRng);
//! let a = g.next()?;
//! let b = g.next()?; // same clock reading: the next tick
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
    /// A version 1 generator (RFC 9562 §5.1): Gregorian time, clock sequence and node.
    ///
    /// ```
    /// let mut g = uuidkit::generator::V1Generator::system();
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert!(a.gregorian_ticks() < b.gregorian_ticks());
    /// assert_eq!(a.node().unwrap()[0] & 1, 1); // random node: multicast bit set
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub struct V1Generator, from_v1_parts;

    /// Builds a v1 generator on `clock` and `rng`.
    ///
    /// ```
    /// use uuidkit::generator::{GregorianBuilder, ReplayClock, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // Two readings on either side of a carry out of the low 32 bits of the tick count.
    /// let t = Timestamp::from_gregorian_ticks;
    /// let clock = ReplayClock::new([t(0xFFFF_FFFF), t(0x1_0000_0000)]);
    /// let mut g = GregorianBuilder::new().build_v1(clock, ThreadRng)?;
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert!(a.gregorian_ticks() < b.gregorian_ticks());
    /// assert!(a > b); // v1 puts the low 32 time bits first: byte order is not time order
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn build_v1, "v1 clock sequence";
}

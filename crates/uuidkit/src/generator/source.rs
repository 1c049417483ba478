//! The two sources every generator reads through, [`Clock`] and [`RandomSource`]: generators
//! never read the system clock or the random source directly, so that tests can drive them with
//! fixed or stepped time and replayed random bytes.

use crate::Timestamp;

/// A source of the current time.
///
/// `Send + Sync` so that one clock can serve a process-wide generator.
///
/// ```
/// use uuidkit::generator::{Clock, ThreadRng, V7Generator};
/// use uuidkit::Timestamp;
///
/// // Any `Send + Sync` type with a `now` is a clock; here, one stuck at noon, 1970-01-01.
/// struct Noon;
/// impl Clock for Noon {
///     fn now(&self) -> Timestamp {
///         Timestamp::from_unix_millis(43_200_000)
///     }
/// }
/// assert_eq!(Noon.resolution_nanos(), 1); // the default
/// let mut g = V7Generator::new(Noon, ThreadRng);
/// assert_eq!(g.next()?.unix_ts_ms(), Some(43_200_000));
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
pub trait Clock: Send + Sync {
    /// The current time. Implementations need not be monotonic: generators handle regression.
    ///
    /// ```
    /// use uuidkit::generator::{Clock, FixedClock};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_unix_millis(1645557742000);
    /// let clock = FixedClock::new(t);
    /// assert_eq!(clock.now(), t);
    /// assert_eq!((&clock).now(), t); // a reference to a clock is a clock too
    /// ```
    fn now(&self) -> Timestamp;

    /// The clock's resolution in nanoseconds (how far apart two different readings are at
    /// least); generators use it to simulate finer ticks (RFC 9562 §6.1). Default: 1.
    ///
    /// ```
    /// use uuidkit::generator::{Clock, FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
    /// use uuidkit::{Timestamp, Uuid};
    /// // A 1-µs clock: one reading stands for ten 100-ns v6 ticks, handed out one by one.
    /// let clock = FixedClock::new(Timestamp::UNIX_EPOCH).with_resolution(1_000);
    /// assert_eq!(clock.resolution_nanos(), 1_000);
    /// let mut g = GregorianBuilder::new()
    ///     .overflow(OverflowPolicy::Error)
    ///     .build_v6(clock, ThreadRng)?;
    /// g.fill(&mut [Uuid::NIL; 10])?;
    /// assert!(g.next().unwrap_err().is_overflow()); // the eleventh does not fit
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    fn resolution_nanos(&self) -> u64 {
        1
    }
}

/// A source of random bytes.
///
/// ```
/// use uuidkit::generator::{v4::v4_from, RandomSource};
///
/// // Implementing `fill_bytes` is enough (this source is, of course, no use outside a test).
/// struct AllOnes;
/// impl RandomSource for AllOnes {
///     fn fill_bytes(&mut self, dest: &mut [u8]) {
///         dest.fill(0xff)
///     }
/// }
/// assert_eq!(AllOnes.next_u64(), u64::MAX);
/// // v4 keeps every bit but the version and variant (RFC 9562 §5.4).
/// assert_eq!(v4_from(&mut AllOnes).to_string(), "ffffffff-ffff-4fff-bfff-ffffffffffff");
/// ```
pub trait RandomSource {
    /// Fills `dest` with random bytes.
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, RandomSource};
    /// let mut src = ReplayRandom::new([0xA5; 4]);
    /// let mut buf = [0u8; 3];
    /// src.fill_bytes(&mut buf);
    /// assert_eq!(buf, [0xA5; 3]);
    /// (&mut src).fill_bytes(&mut buf[..1]); // a `&mut` source is a source too
    /// assert_eq!(src.consumed(), 4);
    /// ```
    fn fill_bytes(&mut self, dest: &mut [u8]);

    /// A random `u64`.
    ///
    /// The default takes 8 bytes from [`fill_bytes`](RandomSource::fill_bytes) as a
    /// little-endian number.
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, RandomSource};
    /// let mut src = ReplayRandom::new([0x01, 0x02, 0, 0, 0, 0, 0, 0x80]);
    /// assert_eq!(src.next_u64(), 0x8000_0000_0000_0201);
    /// ```
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
}

impl<R: RandomSource + ?Sized> RandomSource for &mut R {
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        (**self).fill_bytes(dest)
    }
    fn next_u64(&mut self) -> u64 {
        (**self).next_u64()
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
    fn resolution_nanos(&self) -> u64 {
        (**self).resolution_nanos()
    }
}

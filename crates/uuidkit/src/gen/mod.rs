//! Generators for every version (RFC 9562 §5) with the best practice of §6: injected clock and
//! random sources, monotonic counters, clock-regression and overflow policies, fork safety.
//!
//! Generators never read the clock or the random source directly: both come in through the
//! [`Clock`] and [`RandomSource`] traits, with the system clock and the fork-safe CSPRNG
//! ([`rng`]) as defaults, so that tests can drive them with fixed or stepped time and replayed
//! random bytes.

use crate::Timestamp;

mod chacha;
pub mod clock;
mod driver;
pub mod rng;
pub mod v4;

pub mod global;
pub mod policy;
pub mod v1;
pub mod v2;
pub mod v7;
pub mod v8;

pub use global::{try_v1, try_v6, try_v7, try_v7_batch};
pub use policy::{
    GenError, GenErrorKind, OverflowPolicy, RegressionPolicy, DEFAULT_REGRESSION_THRESHOLD,
};
pub use v1::{GregorianBuilder, V1Generator, V6Generator};
pub use v2::V2Generator;
pub use v7::{V7Builder, V7Generator, V7Method};
pub use v8::{
    DistributedBuilder, DistributedGenerator, DistributedLayout, V8TimeBuilder, V8TimeGenerator,
};

pub use clock::{FixedClock, ReplayClock, StepClock, SystemClock};
pub use rng::{
    ensure_fork_detection, fill_random, fork_generation, random_u64, with_thread_rng, Csprng,
    OsRandom, RandomError, ReplayRandom, SeqRandom, ThreadRng,
};

/// A source of the current time.
///
/// `Send + Sync` so that one clock can serve a process-wide generator.
pub trait Clock: Send + Sync {
    /// The current time. Implementations need not be monotonic: generators handle regression.
    fn now(&self) -> Timestamp;

    /// The clock's resolution in nanoseconds (how far apart two different readings are at
    /// least); generators use it to simulate finer ticks (RFC 9562 §6.1). Default: 1.
    fn resolution_nanos(&self) -> u64 {
        1
    }
}

/// A source of random bytes.
pub trait RandomSource {
    /// Fills `dest` with random bytes.
    fn fill_bytes(&mut self, dest: &mut [u8]);

    /// A random `u64`.
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

//! Generators for every version (RFC 9562 §5) with the best practice of §6: injected clock and
//! random sources, monotonic counters, clock-regression and overflow policies, fork safety.
//!
//! Generators never read the clock or the random source directly: both come in through the
//! [`Clock`] and [`RandomSource`] traits, with the system clock and the fork-safe CSPRNG
//! ([`rng`]) as defaults, so that tests can drive them with fixed or stepped time and replayed
//! random bytes.
//!
//! The files, from the bottom layer up (each imports only from layers below it):
//! `source` (the two traits), `error` ([`GenError`]), `bits`, `sequencer` (the state machine
//! and its [`OverflowPolicy`] and [`RegressionPolicy`]), `driver` (the loop every per-instance
//! time-based generator runs), `gregorian` (the time, clock sequence and node that v1, v2 and
//! v6 share, and [`GregorianBuilder`]), then one file per version and `global` for the
//! process-wide generators.

mod bits;
mod chacha;
pub mod clock;
mod driver;
mod error;
mod gregorian;
pub mod rng;
mod sequencer;
mod source;
pub mod v4;

pub mod global;
pub mod v1;
pub mod v2;
pub mod v6;
pub mod v7;
pub mod v8;

pub use error::{GenError, GenErrorKind};
pub use global::{try_v1, try_v6, try_v7, try_v7_batch};
pub use gregorian::{new_clock_seq, random_clock_seq, random_node, GregorianBuilder};
pub use sequencer::{ClockReset, OverflowPolicy, RegressionPolicy, DEFAULT_REGRESSION_THRESHOLD};
pub use source::{Clock, RandomSource};
pub use v1::V1Generator;
pub use v2::V2Generator;
pub use v6::V6Generator;
pub use v7::{V7Builder, V7Generator, V7Method};
pub use v8::{
    DistributedBuilder, DistributedGenerator, DistributedLayout, V8TimeBuilder, V8TimeGenerator,
};

pub use clock::{FixedClock, ReplayClock, StepClock, SystemClock};
pub use rng::{
    ensure_fork_detection, fill_random, fork_generation, random_u64, with_thread_rng, Csprng,
    OsRandom, RandomError, ReplayRandom, SeqRandom, ThreadRng,
};

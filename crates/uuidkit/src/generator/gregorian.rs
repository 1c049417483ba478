//! The Gregorian core that the v1 (RFC 9562 §5.1), v2 (§5.2, DCE 1.1) and v6 (§5.6) generators
//! share: a count of 100-ns ticks since 1582-10-15, a clock sequence and a 48-bit node, with the
//! one builder of the three ([`GregorianBuilder`]; each version's file adds its `build_vN`).
//!
//! - **Ticks.** Each UUID gets its own tick, strictly greater than the previous one. When the
//!   clock is coarser than 100 ns ([`Clock::resolution_nanos`]), the ticks between two readings
//!   are handed out one by one (§6.1, "a high-resolution timestamp can be simulated"); when
//!   they are used up the [`OverflowPolicy`](super::OverflowPolicy) decides. So a generator
//!   never repeats its (timestamp, clock sequence, node), even with a frozen clock.
//! - **Clock sequence.** Random at start, drawn independently of the node; v1/v6 change it to
//!   the next value when they follow the clock back under
//!   [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), and to another random value
//!   when the node changes and in a forked child (§5.1, §6.3). v2 keeps its base (its sequence
//!   counts the UUIDs of a time step) except in a forked child.
//! - **Order.** By default the timestamps never go back, whatever the clock does
//!   ([`RegressionPolicy::Continue`](super::RegressionPolicy::Continue)); a forked child goes on
//!   above its parent's last timestamp with a new clock sequence (and a new random node).
//! - **Node.** By default 48 random bits with the multicast bit (the least significant bit of
//!   the first octet) set, so that it cannot clash with an IEEE 802 MAC address (§6.10); or a
//!   given node such as a MAC address (mind §8 before publishing one).

use super::bits::mask64;
use super::driver::Driver;
use super::error::GenError;
use super::sequencer::{policy_setters, Counter, Policies, Scale, Sequencer};
use super::source::{Clock, RandomSource};
use crate::{Uuid, GREGORIAN_OFFSET_TICKS};

/// The v1/v6 timestamp: 100-ns ticks since 1582-10-15, 60 bits (to 5236-03-31).
pub(crate) const GREGORIAN: Scale = Scale {
    layout: "UUIDv1/v6 60-bit Gregorian timestamp",
    epoch_nanos: -(GREGORIAN_OFFSET_TICKS as i128) * 100,
    num: 1,
    den: 100,
    max_tick: 1 << 60,
};

/// A random node: 48 random bits with the multicast bit set (RFC 9562 §6.10).
pub fn random_node<R: RandomSource + ?Sized>(rng: &mut R) -> [u8; 6] {
    let mut node = [0u8; 6];
    rng.fill_bytes(&mut node);
    node[0] |= 0x01;
    node
}

/// A random clock sequence of `bits` bits.
pub fn random_clock_seq<R: RandomSource + ?Sized>(rng: &mut R, bits: u32) -> u16 {
    rng.next_u64() as u16 & ((1u32 << bits) - 1) as u16
}

/// A random clock sequence of `bits` bits different from `old`.
pub fn new_clock_seq<R: RandomSource + ?Sized>(rng: &mut R, bits: u32, old: u16) -> u16 {
    let mask = ((1u32 << bits) - 1) as u16;
    let seq = random_clock_seq(rng, bits);
    if seq == old {
        // A changed sequence is the point; stepping by one is as unpredictable as the draw.
        seq.wrapping_add(1) & mask
    } else {
        seq
    }
}

/// Configures a v1, v2 or v6 generator: node, clock sequence and policies.
///
/// ```
/// use uuidkit::generator::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
/// use uuidkit::Timestamp;
///
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let mut g = GregorianBuilder::new()
///     .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
///     .clock_seq(0x33C8)
///     .overflow(OverflowPolicy::Error)
///     .build_v1(clock, ThreadRng)?;
/// assert_eq!(g.next()?.to_string(), "c232ab00-9414-11ec-b3c8-9f6bdeced846");
/// assert!(g.next().unwrap_err().is_overflow()); // a frozen 1-ns clock allows one tick
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GregorianBuilder {
    node: Option<[u8; 6]>,
    clock_seq: Option<u16>,
    pub(crate) policies: Policies,
}

impl Default for GregorianBuilder {
    fn default() -> Self {
        GregorianBuilder::new()
    }
}

impl GregorianBuilder {
    /// Random node with the multicast bit, random clock sequence, default policies.
    ///
    /// ```
    /// use uuidkit::generator::{GregorianBuilder, SystemClock, ThreadRng};
    /// const BUILDER: GregorianBuilder = GregorianBuilder::new(); // usable in constants
    /// assert_eq!(BUILDER, GregorianBuilder::default());
    /// let g = BUILDER.build_v1(SystemClock, ThreadRng)?;
    /// assert_eq!(g.node()[0] & 1, 1); // a random node, multicast bit set (RFC 9562 §6.10)
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn new() -> GregorianBuilder {
        GregorianBuilder {
            node: None,
            clock_seq: None,
            policies: Policies::DEFAULT,
        }
    }

    /// Uses this node (for example a MAC address) instead of a random one.
    ///
    /// ```
    /// use uuidkit::generator::{GregorianBuilder, SystemClock, ThreadRng};
    /// let mac = [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6]; // a unicast IEEE 802 address; mind §8
    /// let mut g = GregorianBuilder::new().node(mac).build_v1(SystemClock, ThreadRng)?;
    /// assert_eq!(g.next()?.node(), Some(mac)); // as given: no multicast bit added
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn node(mut self, node: [u8; 6]) -> Self {
        self.node = Some(node);
        self
    }

    /// Starts with this clock sequence instead of a random one: 14 bits for v1/v6 (at most
    /// 0x3FFF), 6 bits for v2 (at most 63); a larger value is a configuration error.
    ///
    /// ```
    /// use uuidkit::generator::{GregorianBuilder, SystemClock, ThreadRng};
    /// let mut g = GregorianBuilder::new().clock_seq(0x3FFF).build_v6(SystemClock, ThreadRng)?;
    /// assert_eq!(g.next()?.clock_seq(), Some(0x3FFF));
    /// let v2 = GregorianBuilder::new().clock_seq(64).build_v2(SystemClock, ThreadRng);
    /// let err = v2.unwrap_err(); // a v2 clock sequence has 6 bits
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid generator configuration: v2 clock sequence is 64, allowed 0 to 63"
    /// );
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn clock_seq(mut self, seq: u16) -> Self {
        self.clock_seq = Some(seq);
        self
    }

    policy_setters!();

    pub(crate) fn core<C: Clock, R: RandomSource>(
        self,
        clock: C,
        rng: R,
        scale: Scale,
        counter: Counter,
        seq_bits: u32,
        what: &'static str,
    ) -> Result<GregorianCore<C, R>, GenError> {
        if let Some(s) = self.clock_seq {
            GenError::check_range(what, s.into(), "", 0, (1 << seq_bits) - 1)?;
        }
        Ok(GregorianCore::new(
            clock,
            rng,
            scale,
            counter,
            seq_bits,
            self.node,
            self.clock_seq,
            &self.policies,
        ))
    }
}

/// The state shared by the v1, v2 and v6 generators: the [`Driver`] of every counter-based
/// generator, plus the clock sequence and node, which a fork or a regression reset renews.
#[derive(Debug, Clone)]
pub(crate) struct GregorianCore<C, R> {
    pub(crate) driver: Driver<C, R>,
    pub(crate) clock_seq: u16,
    seq_bits: u32,
    pub(crate) node: [u8; 6],
    node_random: bool,
}

impl<C: Clock, R: RandomSource> GregorianCore<C, R> {
    /// A core with the given or random node and clock sequence (already validated).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        clock: C,
        mut rng: R,
        scale: Scale,
        counter: Counter,
        seq_bits: u32,
        node: Option<[u8; 6]>,
        clock_seq: Option<u16>,
        policies: &Policies,
    ) -> Self {
        let clock_seq = match clock_seq {
            Some(s) => s & ((1u32 << seq_bits) - 1) as u16,
            None => random_clock_seq(&mut rng, seq_bits),
        };
        let (node, node_random) = match node {
            Some(n) => (n, false),
            None => (random_node(&mut rng), true),
        };
        GregorianCore {
            driver: Driver::new(Sequencer::new(scale, counter, policies), clock, rng),
            clock_seq,
            seq_bits,
            node,
            node_random,
        }
    }

    fn change_clock_seq(&mut self) {
        self.clock_seq = new_clock_seq(&mut self.driver.rng, self.seq_bits, self.clock_seq);
    }

    /// In a forked child the parent's clock sequence (and random node) must not go on: the
    /// parent keeps issuing from the same ticks.
    pub(crate) fn check_fork(&mut self) {
        if self.driver.check_fork() {
            self.change_clock_seq();
            if self.node_random {
                self.node = random_node(&mut self.driver.rng);
            }
        }
    }

    /// A new node with a new random clock sequence (v1, v6: RFC 9562 §6.3), if it differs.
    pub(crate) fn set_node(&mut self, node: [u8; 6]) {
        if node != self.node {
            self.replace_node(node);
            self.change_clock_seq();
        }
    }

    /// A new node, the clock sequence unchanged (v2, whose sequence counts the UUIDs of a time
    /// step: counting on keeps every (time step, sequence) pair of the step distinct, whatever
    /// the nodes).
    pub(crate) fn replace_node(&mut self, node: [u8; 6]) {
        self.node = node;
        self.node_random = false;
    }

    /// Fills `out` with UUIDs made by `make(tick, counter, clock_seq, node)`, all from one
    /// clock reading (re-read only while waiting under the Wait policy).
    pub(crate) fn fill_with(
        &mut self,
        out: &mut [Uuid],
        make: impl Fn(u64, u128, u16, [u8; 6]) -> Uuid,
    ) -> Result<(), GenError> {
        self.check_fork();
        let (seq_bits, node, clock_seq) = (self.seq_bits, self.node, &mut self.clock_seq);
        self.driver.fill_with(out, |i, _| {
            if i.reset {
                // The next sequence (RFC 4122 §4.2.1: "incremented"), not a random one: no
                // sequence comes back before 2^14 resets, so the timestamps issued again
                // after a reset do not repeat a UUID.
                *clock_seq = (*clock_seq).wrapping_add(1) & mask64(seq_bits) as u16;
            }
            make(i.tick, i.counter, *clock_seq, node)
        })
    }

    /// Takes `n` (at least 1) consecutive ticks from one clock reading and returns the
    /// first ([`Sequencer::step_ticks`]); a regression reset moves to the next clock sequence
    /// as in [`fill_with`](Self::fill_with).
    pub(crate) fn take_ticks(&mut self, n: u64) -> Result<u64, GenError> {
        self.check_fork();
        let d = &mut self.driver;
        let mut reading = d.seq.read(&d.clock)?;
        let i = d.seq.next_ticks(&d.clock, &mut reading, n, &mut d.rng)?;
        if i.reset {
            self.clock_seq = self.clock_seq.wrapping_add(1) & mask64(self.seq_bits) as u16;
        }
        Ok(i.tick)
    }

    pub(crate) fn next_with(
        &mut self,
        make: impl Fn(u64, u128, u16, [u8; 6]) -> Uuid,
    ) -> Result<Uuid, GenError> {
        let mut one = [Uuid::NIL];
        self.fill_with(&mut one, make)?;
        Ok(one[0])
    }
}

/// A Gregorian generator whose UUIDs carry the v1 fields, V1Generator or V6Generator: the
/// struct `$name { core: GregorianCore }` with the docs given and the tail both share, its
/// [`GregorianBuilder`] method `$build` (a core on the 60-bit ticks with a 14-bit clock
/// sequence named `$what` in errors) and its methods; `$parts` is the `Uuid` constructor of its
/// layout. Called in the version's own file, which imports the names used here.
macro_rules! gregorian_generator {
    (
        $(#[$doc:meta])*
        pub struct $name:ident, $parts:ident;
        $(#[$build_doc:meta])*
        pub fn $build:ident, $what:literal;
    ) => {
        $(#[$doc])*
        ///
        /// Build one with [`GregorianBuilder`], or [`new`](Self::new) for the defaults.
        /// Single-threaded (`&mut self`); for a process-wide generator see
        /// [`global`](crate::generator::global).
        #[derive(Debug, Clone)]
        pub struct $name<C = SystemClock, R = ThreadRng> {
            core: GregorianCore<C, R>,
        }

        impl GregorianBuilder {
            $(#[$build_doc])*
            pub fn $build<C: Clock, R: RandomSource>(
                self,
                clock: C,
                rng: R,
            ) -> Result<$name<C, R>, GenError> {
                Ok($name {
                    core: self.core(clock, rng, GREGORIAN, Counter::None, 14, $what)?,
                })
            }
        }

        impl $name<SystemClock, ThreadRng> {
            /// A generator on the system clock and the thread's CSPRNG, with a random node.
            ///
            /// ```
            #[doc = concat!("let mut g = uuidkit::generator::", stringify!($name), "::system();")]
            /// let u = g.next()?;
            /// assert_eq!(u.node(), Some(g.node()));
            /// assert_eq!(g.node()[0] & 1, 1); // random, multicast bit set (RFC 9562 §6.10)
            /// let t = u.timestamp().map(|t| t.unix_seconds());
            /// assert!(t > Some(1_600_000_000)); // the system clock: after 2020
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn system() -> Self {
                $name::new(SystemClock, ThreadRng)
            }
        }

        impl<C: Clock, R: RandomSource> $name<C, R> {
            /// A generator with a random node, a random clock sequence and default policies.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{FixedClock, ThreadRng, ", stringify!($name), "};")]
            /// use uuidkit::{Timestamp, Uuid};
            /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
            #[doc = concat!("let mut g = ", stringify!($name), "::new(clock, ThreadRng);")]
            /// // Source: RFC 9562 Appendix A.1 and A.5: this time is 0x1EC9414C232AB00 ticks.
            /// let (ticks, seq, node) = (0x1EC9414C232AB00, g.clock_seq(), g.node());
            #[doc = concat!("let want = Uuid::", stringify!($parts), "(ticks, seq, node);")]
            /// assert_eq!(g.next()?, want);
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn new(clock: C, rng: R) -> Self {
                match GregorianBuilder::new().$build(clock, rng) {
                    Ok(g) => g,
                    // Without a clock sequence there is nothing to refuse (this function's
                    // example runs it).
                    Err(e) => unreachable!("the default builder failed: {e}"),
                }
            }

            /// The builder for this kind of generator.
            ///
            /// ```
            /// use uuidkit::generator::{GregorianBuilder, SystemClock, ThreadRng};
            /// // `<…>` takes the default type parameters; one builder serves v1, v2 and v6.
            #[doc = concat!("let builder = <uuidkit::generator::", stringify!($name), ">::builder();")]
            /// let builder = builder.clock_seq(0x1234);
            /// assert_eq!(builder, GregorianBuilder::new().clock_seq(0x1234));
            /// let v1 = builder.build_v1(SystemClock, ThreadRng)?;
            /// let v6 = builder.build_v6(SystemClock, ThreadRng)?;
            /// assert_eq!((v1.clock_seq(), v6.clock_seq()), (0x1234, 0x1234));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub const fn builder() -> GregorianBuilder {
                GregorianBuilder::new()
            }

            /// The next UUID: a tick greater than the previous one's, from one clock reading
            /// (unless [`RegressionPolicy::Reset`](crate::generator::RegressionPolicy::Reset)
            /// follows the clock back, with the next clock sequence).
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{FixedClock, ThreadRng, ", stringify!($name), "};")]
            /// use uuidkit::Timestamp;
            /// let clock = FixedClock::new(Timestamp::from_gregorian_ticks(1_000));
            #[doc = concat!("let mut g = ", stringify!($name), "::new(clock, ThreadRng);")]
            /// let a = g.next()?;
            /// let b = g.next()?; // the same clock reading: the next 100-ns tick
            /// assert_eq!((a.gregorian_ticks(), b.gregorian_ticks()), (Some(1_000), Some(1_001)));
            /// assert_eq!((a.clock_seq(), a.node()), (b.clock_seq(), b.node()));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            // Not `Iterator::next`: generation never ends and can fail, which `Option` cannot say;
            // the error must reach the caller.
            #[allow(clippy::should_implement_trait)]
            pub fn next(&mut self) -> Result<Uuid, GenError> {
                self.core
                    .next_with(|t, _, cs, node| Uuid::$parts(t, cs, node))
            }

            /// Fills `out` with UUIDs of increasing timestamps from one clock reading (RFC 9562
            /// §6.2 batches). On an error, the UUIDs before the failing one are written and
            /// count as issued.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{ReplayClock, ThreadRng, ", stringify!($name), "};")]
            /// use uuidkit::{Timestamp, Uuid};
            /// let clock = ReplayClock::new([Timestamp::from_gregorian_ticks(1_000)]);
            #[doc = concat!("let mut g = ", stringify!($name), "::new(&clock, ThreadRng);")]
            /// let mut ids = [Uuid::NIL; 4];
            /// g.fill(&mut ids)?;
            /// let ticks = ids.map(|u| u.gregorian_ticks());
            /// assert_eq!(ticks, [1_000, 1_001, 1_002, 1_003].map(Some));
            /// assert_eq!(clock.readings(), 1);
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn fill(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
                self.core
                    .fill_with(out, |t, _, cs, node| Uuid::$parts(t, cs, node))
            }

            /// The node in use.
            ///
            /// ```
            #[doc = concat!("let mut g = uuidkit::generator::", stringify!($name), "::system();")]
            /// assert_eq!(g.node()[0] & 1, 1); // random: the multicast bit set
            /// assert_eq!(g.next()?.node(), Some(g.node()));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn node(&self) -> [u8; 6] {
                self.core.node
            }

            /// The clock sequence in use (14 bits).
            ///
            /// ```
            #[doc = concat!("let mut g = uuidkit::generator::", stringify!($name), "::system();")]
            /// assert!(g.clock_seq() <= 0x3FFF);
            /// assert_eq!(g.next()?.clock_seq(), Some(g.clock_seq()));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn clock_seq(&self) -> u16 {
                self.core.clock_seq
            }

            /// Changes the node; if it differs from the current one, the clock sequence changes
            /// too, to a new random value (RFC 9562 §6.3). The timestamps go on increasing.
            ///
            /// ```
            #[doc = concat!("let mut g = uuidkit::generator::", stringify!($name), "::system();")]
            /// let (old_seq, mac) = (g.clock_seq(), [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6]);
            /// g.set_node(mac); // differs from the random node, whose multicast bit is set
            /// assert_eq!(g.node(), mac);
            /// assert_ne!(g.clock_seq(), old_seq);
            /// assert_eq!(g.next()?.node(), Some(mac));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn set_node(&mut self, node: [u8; 6]) {
                self.core.set_node(node)
            }

            /// The clock the generator reads.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{StepClock, ThreadRng, ", stringify!($name), "};")]
            /// use uuidkit::Timestamp;
            /// let clock = StepClock::new(Timestamp::from_gregorian_ticks(500));
            #[doc = concat!("let mut g = ", stringify!($name), "::new(clock, ThreadRng);")]
            /// assert_eq!(g.next()?.gregorian_ticks(), Some(500));
            /// g.clock().advance(10_000); // 10 µs: 100 ticks
            /// assert_eq!(g.next()?.gregorian_ticks(), Some(600));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn clock(&self) -> &C {
                &self.core.driver.clock
            }

            /// The 60-bit timestamp of the last UUID, if any.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{FixedClock, ThreadRng, ", stringify!($name), "};")]
            /// use uuidkit::Timestamp;
            /// let clock = FixedClock::new(Timestamp::from_gregorian_ticks(42));
            #[doc = concat!("let mut g = ", stringify!($name), "::new(clock, ThreadRng);")]
            /// assert_eq!(g.last_ticks(), None);
            /// let u = g.next()?;
            /// assert_eq!(g.last_ticks(), Some(42));
            /// assert_eq!(u.gregorian_ticks(), g.last_ticks());
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn last_ticks(&self) -> Option<u64> {
                self.core.driver.seq.last_tick()
            }

            /// Continues after UUIDs issued before with the same clock sequence and node,
            /// typically by an earlier run whose last timestamp (or a reservation above it)
            /// was kept in stable storage (RFC 9562 §6.3): every later UUID has a timestamp
            /// greater than `ticks`. A clock reading earlier than `ticks` is handled like any
            /// regression: under the default `Continue` the timestamps go on above `ticks`;
            /// beyond the threshold, `Reset` moves to the next clock sequence and follows the
            /// clock, and `Error` refuses.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{FixedClock, ThreadRng, ", stringify!($name), "};")]
            /// use uuidkit::Timestamp;
            /// let clock = FixedClock::new(Timestamp::from_gregorian_ticks(1_000));
            #[doc = concat!("let mut g = ", stringify!($name), "::new(clock, ThreadRng);")]
            /// g.resume_after(1_500); // an earlier run, its clock ahead, issued up to tick 1500
            /// assert_eq!(g.next()?.gregorian_ticks(), Some(1_501));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn resume_after(&mut self, ticks: u64) {
                self.core.check_fork();
                self.core.driver.seq.resume(ticks, 0);
            }

            /// How many times the generator followed the clock back under
            /// [`RegressionPolicy::Reset`](crate::generator::RegressionPolicy::Reset) (each time
            /// moving to the next clock sequence); always 0 under the other policies.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{GregorianBuilder, RegressionPolicy, StepClock, ThreadRng};")]
            /// use uuidkit::Timestamp;
            /// let clock = StepClock::new(Timestamp::from_gregorian_ticks(1 << 40));
            /// let mut g = GregorianBuilder::new()
            ///     .regression(RegressionPolicy::Reset)
            #[doc = concat!("    .", stringify!($build), "(&clock, ThreadRng)?;")]
            /// let (a, seq) = (g.next()?, g.clock_seq());
            /// clock.step_back(3_600_000_000_000); // an hour
            /// let b = g.next()?;
            /// assert!(b.gregorian_ticks() < a.gregorian_ticks()); // followed the clock back,
            /// assert_eq!(g.resets(), 1); // says so,
            /// assert_eq!(g.clock_seq(), (seq + 1) & 0x3FFF); // and took the next sequence
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn resets(&self) -> u64 {
                self.core.driver.seq.resets()
            }

            /// The last step back of the clock the generator followed under
            /// [`RegressionPolicy::Reset`](crate::generator::RegressionPolicy::Reset), if any.
            ///
            /// ```
            #[doc = concat!("use uuidkit::generator::{GregorianBuilder, RegressionPolicy, StepClock, ThreadRng};")]
            /// use uuidkit::Timestamp;
            /// let clock = StepClock::new(Timestamp::from_gregorian_ticks(1 << 40));
            /// let mut g = GregorianBuilder::new()
            ///     .regression(RegressionPolicy::Reset)
            #[doc = concat!("    .", stringify!($build), "(&clock, ThreadRng)?;")]
            /// g.next()?;
            /// assert_eq!(g.last_reset(), None);
            /// clock.step_back(60_000_000_000); // a minute
            /// g.next()?;
            /// assert_eq!(g.last_reset().map(|r| r.back_nanos()), Some(60_000_000_000));
            /// # Ok::<(), uuidkit::generator::GenError>(())
            /// ```
            pub fn last_reset(&self) -> Option<crate::generator::ClockReset> {
                self.core.driver.seq.last_reset()
            }
        }
    };
}
pub(crate) use gregorian_generator;

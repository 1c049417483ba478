//! Version 8 generators (RFC 9562 §5.8), two custom layouts:
//!
//! - [`V8TimeGenerator`]: the time-based example of Appendix B.1 — Unix time in 10-ns steps,
//!   60 bits, in `custom_a` and `custom_b`; 62 random bits in `custom_c`. Each UUID gets its
//!   own 10-ns step (simulated when the clock is coarser, as for v1), so the generator's UUIDs
//!   strictly increase (whatever the clock does, under the default
//!   [`RegressionPolicy::Continue`](super::RegressionPolicy::Continue)). The last of the 2^60 steps starts at 2335-05-07T23:44:06.06846975Z;
//!   B.1 truncates larger times to their low bits, which would wrap silently — this generator
//!   returns a time-range error instead.
//! - [`DistributedGenerator`]: the distributed layout of §6.4 — a timestamp, a node id of the
//!   width you choose, a counter and random bits, in that order, in the 122 bits v8 leaves
//!   free; see [`DistributedLayout`].

use super::bits::{mask128, mask64};
use super::clock::SystemClock;
use super::driver::Driver;
use super::error::GenError;
use super::rng::ThreadRng;
use super::sequencer::{policy_setters, ClockReset, Counter, Issued, Policies, Scale, Sequencer};
use super::source::{Clock, RandomSource};
use crate::Uuid;

/// Appendix B.1's timestamp: 10-ns steps since the Unix epoch, 60 bits.
const B1: Scale = Scale {
    layout: "UUIDv8 (RFC 9562 B.1) 60-bit timestamp of 10-ns steps",
    epoch_nanos: 0,
    num: 1,
    den: 10,
    max_tick: 1 << 60,
};

/// A v8 UUID from its 122 free bits: the top 48 go to `custom_a`, the next 12 to `custom_b`,
/// the last 62 to `custom_c`.
fn from_payload(p: u128) -> Uuid {
    Uuid::from_v8_parts((p >> 74) as u64, (p >> 62) as u16 & 0xfff, p as u64)
}

/// Configures a [`V8TimeGenerator`]: the policies and a time offset.
///
/// ```
/// use uuidkit::generator::{FixedClock, OverflowPolicy, ThreadRng, V8TimeBuilder};
/// use uuidkit::Timestamp;
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let mut g = V8TimeBuilder::new().overflow(OverflowPolicy::Error).build(clock, ThreadRng);
/// assert_eq!(g.next()?.custom_a(), Some(0x2489E9AD2EE2));
/// assert!(g.next().unwrap_err().is_overflow());
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct V8TimeBuilder {
    policies: Policies,
}

impl Default for V8TimeBuilder {
    fn default() -> Self {
        V8TimeBuilder::new()
    }
}

impl V8TimeBuilder {
    /// Default policies, no time offset.
    ///
    /// ```
    /// use uuidkit::generator::{SystemClock, ThreadRng, V8TimeBuilder};
    /// const BUILDER: V8TimeBuilder = V8TimeBuilder::new(); // usable in constants
    /// assert_eq!(BUILDER, V8TimeBuilder::default());
    /// let mut g = BUILDER.build(SystemClock, ThreadRng);
    /// assert_eq!(g.next()?.version_num(), 8);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn new() -> V8TimeBuilder {
        V8TimeBuilder {
            policies: Policies::DEFAULT,
        }
    }

    policy_setters!();

    /// Builds the generator (no setting of this builder can be invalid).
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V8TimeBuilder};
    /// use uuidkit::Timestamp;
    /// // 12,345,670 ns are 1,234,567 = 0x12D687 steps of 10 ns: the top 48 of the 60 bits go to
    /// // custom_a, the low 12 to custom_b (RFC 9562 Appendix B.1).
    /// let clock = FixedClock::new(Timestamp::parse_rfc3339("1970-01-01T00:00:00.01234567Z")?);
    /// let mut g = V8TimeBuilder::new().build(clock, ThreadRng); // nothing to fail
    /// let u = g.next()?;
    /// assert_eq!((u.custom_a(), u.custom_b()), (Some(0x12D), Some(0x687)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build<C: Clock, R: RandomSource>(self, clock: C, rng: R) -> V8TimeGenerator<C, R> {
        V8TimeGenerator {
            driver: Driver::new(
                Sequencer::new(B1, Counter::None, &self.policies),
                clock,
                rng,
            ),
        }
    }
}

/// The time-based v8 generator of RFC 9562 Appendix B.1.
///
/// ```
/// let mut g = uuidkit::generator::V8TimeGenerator::system();
/// let (a, b) = (g.next()?, g.next()?);
/// assert!(a < b);
/// assert_eq!(a.version_num(), 8);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone)]
pub struct V8TimeGenerator<C = SystemClock, R = ThreadRng> {
    driver: Driver<C, R>,
}

impl V8TimeGenerator<SystemClock, ThreadRng> {
    /// A generator on the system clock and the thread's CSPRNG.
    ///
    /// ```
    /// let mut g = uuidkit::generator::V8TimeGenerator::system();
    /// let u = g.next()?;
    /// assert_eq!(u.version_num(), 8);
    /// // 10-ns steps since 1970 in custom_a and custom_b: after 2020, more than 1.6 × 10^17.
    /// let steps = u.custom_a().zip(u.custom_b()).map(|(a, b)| a << 12 | u64::from(b));
    /// assert!(steps > Some(160_000_000_000_000_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn system() -> Self {
        V8TimeBuilder::new().build(SystemClock, ThreadRng)
    }
}

impl<C: Clock, R: RandomSource> V8TimeGenerator<C, R> {
    /// A generator with default policies.
    ///
    /// ```
    /// use uuidkit::generator::{rng::ReplayRandom, FixedClock, V8TimeGenerator};
    /// use uuidkit::Timestamp;
    /// // Source: RFC 9562 Appendix B.1: its time, and its 62 random bits replayed as 8 bytes.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let rng = ReplayRandom::new(0x0EC9_32D5_F691_81C0u64.to_be_bytes());
    /// let mut g = V8TimeGenerator::new(clock, rng);
    /// assert_eq!(g.next()?.to_string(), "2489e9ad-2ee2-8e00-8ec9-32d5f69181c0");
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn new(clock: C, rng: R) -> Self {
        V8TimeBuilder::new().build(clock, rng)
    }

    /// Appendix B.1: the 60-bit tick, then 62 random bits.
    fn make(i: Issued, rng: &mut R) -> Uuid {
        let mut c = [0u8; 8];
        rng.fill_bytes(&mut c);
        let custom_c = u64::from_be_bytes(c) & mask64(62);
        from_payload(((i.tick as u128) << 62) | custom_c as u128)
    }

    /// The next UUID, greater than the previous one.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V8TimeGenerator};
    /// use uuidkit::Timestamp;
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1_000));
    /// let mut g = V8TimeGenerator::new(clock, ThreadRng);
    /// let (a, b) = (g.next()?, g.next()?);
    /// // 1 s is 10^8 = 0x5F5E100 steps of 10 ns; the second UUID takes the next step.
    /// assert_eq!((a.custom_a(), a.custom_b()), (Some(0x5F5E), Some(0x100)));
    /// assert_eq!((b.custom_a(), b.custom_b()), (Some(0x5F5E), Some(0x101)));
    /// assert!(a < b);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    // Not `Iterator::next`: generation never ends and can fail, which `Option` cannot say;
    // the error must reach the caller.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Uuid, GenError> {
        self.driver.next_with(Self::make)
    }

    /// Fills `out` with increasing UUIDs from one clock reading. On an error, the UUIDs before
    /// the failing one are written and count as issued.
    ///
    /// ```
    /// use uuidkit::generator::{ReplayClock, ThreadRng, V8TimeGenerator};
    /// use uuidkit::{Timestamp, Uuid};
    /// let clock = ReplayClock::new([Timestamp::UNIX_EPOCH]);
    /// let mut g = V8TimeGenerator::new(&clock, ThreadRng);
    /// let mut ids = [Uuid::NIL; 3];
    /// g.fill(&mut ids)?;
    /// assert_eq!(ids.map(|u| u.custom_b()), [Some(0), Some(1), Some(2)]); // consecutive steps
    /// assert_eq!(clock.readings(), 1);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn fill(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
        self.driver.fill_with(out, Self::make)
    }

    /// How many times the generator followed the clock back under
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset); always 0 under the other
    /// policies.
    ///
    /// ```
    /// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V8TimeBuilder};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let reset = V8TimeBuilder::new().regression(RegressionPolicy::Reset);
    /// let mut g = reset.build(&clock, ThreadRng);
    /// let a = g.next()?;
    /// clock.step_back(3_600_000_000_000); // an hour
    /// let b = g.next()?;
    /// assert!(b < a); // followed the clock back, and says so:
    /// assert_eq!(g.resets(), 1);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn resets(&self) -> u64 {
        self.driver.seq.resets()
    }

    /// The last step back of the clock the generator followed under
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), if any.
    ///
    /// ```
    /// use uuidkit::generator::{RegressionPolicy, StepClock, ThreadRng, V8TimeBuilder};
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let reset = V8TimeBuilder::new().regression(RegressionPolicy::Reset);
    /// let mut g = reset.build(&clock, ThreadRng);
    /// g.next()?;
    /// assert_eq!(g.last_reset(), None);
    /// clock.step_back(60_000_000_000); // a minute
    /// g.next()?;
    /// assert_eq!(g.last_reset().map(|r| r.back_nanos()), Some(60_000_000_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn last_reset(&self) -> Option<ClockReset> {
        self.driver.seq.last_reset()
    }
}

/// The field widths of a distributed v8 layout (RFC 9562 §6.4), validated.
///
/// The 122 bits a v8 UUID leaves free hold, from the most significant:
///
/// 1. `timestamp_bits` (1–63) of time since the Unix epoch in units of `tick_nanos`
///    nanoseconds (default: 48 bits of milliseconds, the v7 timestamp);
/// 2. `node_bits` (0–64) of node id, identifying the generating node (the RFC suggests a
///    pseudorandom one, not a MAC address: a random node id is drawn from the random source,
///    and from 48 bits up has bit 40 set, the multicast bit of a MAC address, so that neither
///    it nor its low 48 bits is ever a machine's MAC address);
/// 3. `counter_bits` (0–63) of counter, seeded randomly with its top bit clear at each new
///    tick, as a v7 Method 1 counter;
/// 4. random bits, the rest: `122 − timestamp − node − counter`.
///
/// The sum of the three widths may not exceed 122. The version and variant bits are skipped:
/// the payload's top 48 bits are `custom_a`, the next 12 `custom_b`, the last 62 `custom_c`.
/// UUIDs of one node sort by time, then counter; UUIDs of different nodes sort by time, then
/// node.
///
/// ```
/// use uuidkit::generator::DistributedLayout;
/// let l = DistributedLayout::new(48, 1_000_000, 10, 12)?;
/// assert_eq!(l.random_bits(), 52);
/// let err = DistributedLayout::new(48, 1_000_000, 40, 40).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid generator configuration: v8 timestamp + node + counter width is 128 bits, \
///      allowed 1 to 122"
/// );
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DistributedLayout {
    timestamp_bits: u8,
    tick_nanos: u64,
    node_bits: u8,
    counter_bits: u8,
}

impl Default for DistributedLayout {
    /// 48-bit milliseconds, 16-bit node id, 16-bit counter, 42 random bits.
    fn default() -> Self {
        DistributedLayout {
            timestamp_bits: 48,
            tick_nanos: 1_000_000,
            node_bits: 16,
            counter_bits: 16,
        }
    }
}

impl DistributedLayout {
    /// A layout, or the configuration error naming the width out of range.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// // 32-bit seconds, a 16-bit node id, no counter: 74 random bits remain.
    /// let l = DistributedLayout::new(32, 1_000_000_000, 16, 0)?;
    /// assert_eq!(l.random_bits(), 74);
    /// let err = DistributedLayout::new(0, 1_000_000, 16, 16).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid generator configuration: v8 timestamp width is 0 bits, allowed 1 to 63"
    /// );
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn new(
        timestamp_bits: u8,
        tick_nanos: u64,
        node_bits: u8,
        counter_bits: u8,
    ) -> Result<DistributedLayout, GenError> {
        let bits = |what, v: i128, min, max| GenError::check_range(what, v, " bits", min, max);
        bits("v8 timestamp width", timestamp_bits.into(), 1, 63)?;
        GenError::check_range(
            "v8 timestamp unit",
            tick_nanos.into(),
            " ns",
            1,
            u64::MAX.into(),
        )?;
        bits("v8 node id width", node_bits.into(), 0, 64)?;
        bits("v8 counter width", counter_bits.into(), 0, 63)?;
        let sum = i128::from(timestamp_bits) + i128::from(node_bits) + i128::from(counter_bits);
        bits("v8 timestamp + node + counter width", sum, 1, 122)?;
        Ok(DistributedLayout {
            timestamp_bits,
            tick_nanos,
            node_bits,
            counter_bits,
        })
    }

    /// Width of the timestamp.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().timestamp_bits(), 48); // as v7
    /// assert_eq!(DistributedLayout::new(40, 1_000_000_000, 8, 8)?.timestamp_bits(), 40);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn timestamp_bits(&self) -> u8 {
        self.timestamp_bits
    }
    /// Nanoseconds per timestamp unit.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().tick_nanos(), 1_000_000); // milliseconds
    /// assert_eq!(DistributedLayout::new(40, 1_000_000_000, 8, 8)?.tick_nanos(), 1_000_000_000);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn tick_nanos(&self) -> u64 {
        self.tick_nanos
    }
    /// Width of the node id.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().node_bits(), 16);
    /// assert_eq!(DistributedLayout::new(40, 1_000_000_000, 8, 8)?.node_bits(), 8);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn node_bits(&self) -> u8 {
        self.node_bits
    }
    /// Width of the counter.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().counter_bits(), 16);
    /// assert_eq!(DistributedLayout::new(40, 1_000_000_000, 8, 0)?.counter_bits(), 0); // none
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn counter_bits(&self) -> u8 {
        self.counter_bits
    }
    /// Width of the random tail: 122 minus the other three.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().random_bits(), 122 - 48 - 16 - 16);
    /// assert_eq!(DistributedLayout::new(63, 1, 59, 0)?.random_bits(), 0); // all 122 bits used
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn random_bits(&self) -> u8 {
        122 - self.timestamp_bits - self.node_bits - self.counter_bits
    }

    fn scale(&self) -> Scale {
        Scale {
            layout: "UUIDv8 distributed-layout timestamp",
            epoch_nanos: 0,
            num: 1,
            den: self.tick_nanos as i128,
            max_tick: 1 << self.timestamp_bits,
        }
    }
}

/// Configures a [`DistributedGenerator`]: layout, node id, policies, time offset.
///
/// ```
/// use uuidkit::generator::{DistributedBuilder, DistributedLayout, FixedClock, ThreadRng};
/// use uuidkit::Timestamp;
/// let layout = DistributedLayout::new(48, 1_000_000, 10, 14)?;
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let mut g = DistributedBuilder::new(layout).node_id(0x2A5).build(clock, ThreadRng)?;
/// let u = g.next()?;
/// assert_eq!(u.custom_a(), Some(1645557742000)); // 48-bit milliseconds fill custom_a
/// assert_eq!(u.custom_b().unwrap() >> 2, 0x2A5); // then the 10-bit node id
/// assert!(g.next()? > u);
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DistributedBuilder {
    layout: DistributedLayout,
    node_id: Option<u64>,
    policies: Policies,
}

impl DistributedBuilder {
    /// A builder for `layout`, with a random node id and default policies.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, SystemClock, ThreadRng};
    /// let layout = DistributedLayout::new(48, 1_000_000, 10, 12)?;
    /// let g = DistributedBuilder::new(layout).build(SystemClock, ThreadRng)?;
    /// assert_eq!(g.layout(), layout);
    /// assert!(g.node_id() < 1 << 10); // a random node id that fits its 10 bits
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn new(layout: DistributedLayout) -> DistributedBuilder {
        DistributedBuilder {
            layout,
            node_id: None,
            policies: Policies::DEFAULT,
        }
    }

    /// Uses this node id (it must fit the layout's node width) instead of a random one.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, FixedClock, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // 48-bit milliseconds, then a 12-bit node id: the node id is exactly custom_b.
    /// let layout = DistributedLayout::new(48, 1_000_000, 12, 14)?;
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = DistributedBuilder::new(layout).node_id(0xABC).build(clock, ThreadRng)?;
    /// let u = g.next()?;
    /// assert_eq!((u.custom_a(), u.custom_b()), (Some(1645557742000), Some(0xABC)));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn node_id(mut self, id: u64) -> Self {
        self.node_id = Some(id);
        self
    }

    policy_setters!();

    /// Builds the generator; fails if the node id does not fit its field.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, FixedClock, SystemClock};
    /// use uuidkit::generator::ThreadRng;
    /// use uuidkit::{Timestamp, Uuid};
    /// // 48-bit ms, 12-bit node id, 14-bit counter: the counter leads custom_c's 62 bits.
    /// let layout = DistributedLayout::new(48, 1_000_000, 12, 14)?;
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(5));
    /// let mut g = DistributedBuilder::new(layout).node_id(1).build(clock, ThreadRng)?;
    /// let (a, b) = (g.next()?, g.next()?);
    /// let counter = |u: Uuid| u.custom_c().map(|c| c >> 48);
    /// assert!(counter(a) < Some(1 << 13)); // seeded with its top bit clear
    /// assert_eq!(counter(b), counter(a).map(|c| c + 1));
    /// let too_big = DistributedBuilder::new(layout).node_id(1 << 12);
    /// assert!(too_big.build(SystemClock, ThreadRng).unwrap_err().is_config());
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn build<C: Clock, R: RandomSource>(
        self,
        clock: C,
        mut rng: R,
    ) -> Result<DistributedGenerator<C, R>, GenError> {
        let max = mask64(self.layout.node_bits as u32);
        let node_id = match self.node_id {
            Some(id) => {
                GenError::check_range("v8 node id", id.into(), "", 0, max.into())?;
                id
            }
            // Drawn from the random source, never from a hardware address (§6.4). A field of 48
            // bits or more could hold a MAC address: bit 40, the multicast bit of a 48-bit MAC's
            // first octet, is set, as in a random v1 node (§6.10), so that neither the id nor its
            // low 48 bits can be a machine's (unicast) MAC address.
            None => {
                let id = rng.next_u64() & max;
                if self.layout.node_bits >= 48 {
                    id | 1 << 40
                } else {
                    id
                }
            }
        };
        let counter = match self.layout.counter_bits {
            0 => Counter::None,
            bits => Counter::Fixed { bits: bits as u32 },
        };
        Ok(DistributedGenerator {
            driver: Driver::new(
                Sequencer::new(self.layout.scale(), counter, &self.policies),
                clock,
                rng,
            ),
            layout: self.layout,
            node_id,
        })
    }
}

/// A v8 generator with the distributed layout of RFC 9562 §6.4: timestamp, node id, counter,
/// random. Every UUID is greater than the previous one, whatever the clock does (unless the
/// caller chose [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), which reports
/// each step back it follows in [`resets`](Self::resets)).
///
/// ```
/// use uuidkit::generator::{DistributedBuilder, DistributedLayout, FixedClock, ThreadRng};
/// use uuidkit::Timestamp;
/// // Two nodes with the default layout: 48-bit ms, 16-bit node id, 16-bit counter.
/// let node = |id| DistributedBuilder::new(DistributedLayout::default()).node_id(id);
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let (mut n1, mut n2) = (node(1).build(clock, ThreadRng)?, node(2).build(clock, ThreadRng)?);
/// let (a, b) = (n2.next()?, n1.next()?);
/// assert!(b < a); // the same millisecond: node 1 sorts first
/// assert!(n2.next()? > a); // and each node's own UUIDs increase
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DistributedGenerator<C = SystemClock, R = ThreadRng> {
    driver: Driver<C, R>,
    layout: DistributedLayout,
    node_id: u64,
}

impl<C: Clock, R: RandomSource> DistributedGenerator<C, R> {
    /// The layout in use.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, SystemClock, ThreadRng};
    /// let layout = DistributedLayout::new(40, 1_000_000_000, 20, 10)?;
    /// let g = DistributedBuilder::new(layout).build(SystemClock, ThreadRng)?;
    /// assert_eq!(g.layout(), layout);
    /// assert_eq!(g.layout().random_bits(), 52);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn layout(&self) -> DistributedLayout {
        self.layout
    }

    /// The node id in use.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, SystemClock, ThreadRng};
    /// let builder = DistributedBuilder::new(DistributedLayout::default());
    /// let given = builder.node_id(0xBEEF).build(SystemClock, ThreadRng)?;
    /// assert_eq!(given.node_id(), 0xBEEF);
    /// let random = builder.build(SystemClock, ThreadRng)?;
    /// assert!(random.node_id() <= 0xFFFF); // drawn at random, within 16 bits
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn node_id(&self) -> u64 {
        self.node_id
    }

    /// §6.4: timestamp, node id, counter, random, from the most significant bit down.
    fn make(l: &DistributedLayout, node_id: u64, i: Issued, rng: &mut R) -> Uuid {
        let t = l.timestamp_bits as u32;
        let n = l.node_bits as u32;
        let r = l.random_bits() as u32;
        let random = if r == 0 {
            0
        } else {
            let mut b = [0u8; 16];
            rng.fill_bytes(&mut b);
            u128::from_be_bytes(b) & mask128(r)
        };
        let payload = ((i.tick as u128) << (122 - t))
            | ((node_id as u128) << (122 - t - n))
            | (i.counter << r)
            | random;
        from_payload(payload)
    }

    /// The next UUID, greater than the previous one.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, StepClock, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // 48-bit ms, then an 8-bit node id and a 4-bit counter, which share custom_b.
    /// let layout = DistributedLayout::new(48, 1_000_000, 8, 4)?;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_000)).with_auto_step(1_000_000);
    /// let mut g = DistributedBuilder::new(layout).node_id(0x5A).build(&clock, ThreadRng)?;
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert_eq!((a.custom_a(), b.custom_a()), (Some(1_000), Some(1_001)));
    /// assert_eq!(a.custom_b().map(|b| b >> 4), Some(0x5A));
    /// assert!(a < b);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    // Not `Iterator::next`: generation never ends and can fail, which `Option` cannot say;
    // the error must reach the caller.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Uuid, GenError> {
        let (layout, node_id) = (&self.layout, self.node_id);
        self.driver
            .next_with(|i, rng| Self::make(layout, node_id, i, rng))
    }

    /// Fills `out` with increasing UUIDs from one clock reading. On an error, the UUIDs before
    /// the failing one are written and count as issued.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, ReplayClock, ThreadRng};
    /// use uuidkit::{Timestamp, Uuid};
    /// let clock = ReplayClock::new([Timestamp::from_unix_millis(3)]);
    /// let builder = DistributedBuilder::new(DistributedLayout::default()).node_id(7);
    /// let mut g = builder.build(&clock, ThreadRng)?;
    /// let mut ids = [Uuid::NIL; 16];
    /// g.fill(&mut ids)?;
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// assert!(ids.iter().all(|u| u.custom_a() == Some(3)));
    /// assert_eq!(clock.readings(), 1);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn fill(&mut self, out: &mut [Uuid]) -> Result<(), GenError> {
        let (layout, node_id) = (&self.layout, self.node_id);
        let make = |i, rng: &mut R| Self::make(layout, node_id, i, rng);
        // A run of consecutive counters (no stepping of the state per UUID) is still packed
        // one slot at a time, by the same `make`.
        let run = |tick, first, slots: &mut [Uuid], rng: &mut R| {
            for (k, slot) in (0u128..).zip(slots.iter_mut()) {
                let i = Issued {
                    tick,
                    counter: first + k,
                    reset: false,
                };
                *slot = make(i, rng);
            }
        };
        self.driver.fill_runs(out, make, run)
    }

    /// How many times the generator followed the clock back under
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset); always 0 under the other
    /// policies.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, RegressionPolicy, StepClock};
    /// use uuidkit::generator::ThreadRng;
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let reset = DistributedBuilder::new(DistributedLayout::default())
    ///     .regression(RegressionPolicy::Reset);
    /// let mut g = reset.build(&clock, ThreadRng)?;
    /// let a = g.next()?;
    /// clock.step_back(3_600_000_000_000); // an hour
    /// let b = g.next()?;
    /// assert!(b < a); // followed the clock back, and says so:
    /// assert_eq!(g.resets(), 1);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn resets(&self) -> u64 {
        self.driver.seq.resets()
    }

    /// The last step back of the clock the generator followed under
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), if any.
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, RegressionPolicy, StepClock};
    /// use uuidkit::generator::ThreadRng;
    /// use uuidkit::Timestamp;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let reset = DistributedBuilder::new(DistributedLayout::default())
    ///     .regression(RegressionPolicy::Reset);
    /// let mut g = reset.build(&clock, ThreadRng)?;
    /// g.next()?;
    /// assert_eq!(g.last_reset(), None);
    /// clock.step_back(60_000_000_000); // a minute
    /// g.next()?;
    /// assert_eq!(g.last_reset().map(|r| r.back_nanos()), Some(60_000_000_000));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn last_reset(&self) -> Option<ClockReset> {
        self.driver.seq.last_reset()
    }
}

//! Version 8 generators (RFC 9562 §5.8), two custom layouts:
//!
//! - [`V8TimeGenerator`]: the time-based example of Appendix B.1 — Unix time in 10-ns steps,
//!   60 bits, in `custom_a` and `custom_b`; 62 random bits in `custom_c`. Each UUID gets its
//!   own 10-ns step (simulated when the clock is coarser, as for v1), so the generator's UUIDs
//!   strictly increase (whatever the clock does, under the default
//!   [`RegressionPolicy::Continue`](super::RegressionPolicy::Continue)). The last of the 2^60 steps starts at 2335-05-07T23:44:06.06846975Z;
//!   B.1 truncates larger times to their low bits, which would wrap silently — this generator
//!   returns a time-range error instead.
//! - [`DistributedGenerator`]: a node id (§6.4) in v7's Method 1 layout — 48-bit Unix
//!   milliseconds, a counter of 12 to 42 bits immediately after them (§6.2 Method 1), then a
//!   node id of the width you choose, then random bits; see [`DistributedLayout`].

use super::bits::mask64;
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

    /// The next UUID, greater than the previous one (unless
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset) follows the clock back).
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

/// The widths of a distributed v8 layout, validated: a 48-bit millisecond timestamp, an
/// RFC 9562 §6.2 Method 1 counter right after it, then a node id (§6.4), then random bits.
///
/// The bits of the UUID, from the most significant (`c` is `counter_bits`, `n` is
/// `node_bits`):
///
/// | UUID bits | field |
/// |---|---|
/// | 0–47 | Unix time in milliseconds, as v7's `unix_ts_ms` (all of `custom_a`) |
/// | 48–51 | version, 8 |
/// | 52–63 | the top 12 bits of the counter (all of `custom_b`, where v7 has `rand_a`) |
/// | 64–65 | variant, `10` |
/// | 66 to 53 + c | the other `c − 12` bits of the counter (the top of `custom_c`; none when `c` is 12) |
/// | 54 + c to 53 + c + n | the node id (none when `n` is 0) |
/// | the rest, to 127 | random, `74 − c − n` bits, drawn for every UUID |
///
/// This is v7's Method 1 layout with version 8 and a node id between the counter and the
/// random bits. As §6.2 requires of a fixed bit-length dedicated counter, it sits
/// immediately after the timestamp; it spans the version and variant bits as v7's does (in
/// `rand_a`, then "the most significant (leftmost) bits of `rand_b`"). Its width is 12 to 42
/// bits (§6.2: "the counter SHOULD be at least 12 bits but no longer than 42 bits"). At each
/// new millisecond it is seeded with random bits and its top bit clear (§6.2 "Fixed
/// Bit-Length Dedicated Counter Seeding": the top bit is the rollover guard), so at least
/// 2^(c−1) UUIDs fit in a millisecond before the [`OverflowPolicy`](super::OverflowPolicy)
/// applies; within the millisecond it counts up by one.
///
/// The node id identifies the generating node; the RFC suggests a pseudorandom one, not a MAC
/// address. A random node id is drawn from the random source, and from 48 bits up has bit 40
/// set, the multicast bit of a MAC address, so that neither it nor its low 48 bits is ever a
/// machine's MAC address.
///
/// Order: one generator's UUIDs sort by (millisecond, counter), so each is greater than the
/// one before (unless [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset) follows the
/// clock back). UUIDs of different nodes in the same millisecond sort by their counters, which
/// are seeded at random, and only then by node id: nodes do not take turns within a
/// millisecond.
///
/// ```
/// use uuidkit::generator::DistributedLayout;
/// // A 14-bit counter and a 10-bit node id: 74 − 14 − 10 = 50 random bits.
/// let l = DistributedLayout::new(14, 10)?;
/// assert_eq!(l.random_bits(), 50);
/// let err = DistributedLayout::new(11, 10).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid generator configuration: v8 counter width is 11 bits, allowed 12 to 42"
/// );
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DistributedLayout {
    counter_bits: u8,
    node_bits: u8,
}

impl Default for DistributedLayout {
    /// A 16-bit counter, a 16-bit node id, 42 random bits.
    fn default() -> Self {
        DistributedLayout {
            counter_bits: 16,
            node_bits: 16,
        }
    }
}

/// Bits of a v8 UUID after the version, variant and 48-bit timestamp: 122 − 48.
const AFTER_TIMESTAMP: u32 = 74;

impl DistributedLayout {
    /// A layout with a counter of `counter_bits` (12 to 42) and a node id of `node_bits`, in
    /// that order after the timestamp; the rest are random. Fails, naming the width and its
    /// limit, if the counter is not 12 to 42 bits or the two together exceed the 74 bits after
    /// the timestamp.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// // The widest: a 42-bit counter and a 32-bit node id leave no random bits.
    /// assert_eq!(DistributedLayout::new(42, 32)?.random_bits(), 0);
    /// let err = DistributedLayout::new(43, 8).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid generator configuration: v8 counter width is 43 bits, allowed 12 to 42"
    /// );
    /// let err = DistributedLayout::new(42, 33).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid generator configuration: v8 counter + node id width is 75 bits, allowed \
    ///      at most 74 (the bits of a v8 UUID after its version, variant and 48-bit timestamp)"
    /// );
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn new(counter_bits: u8, node_bits: u8) -> Result<DistributedLayout, GenError> {
        if counter_bits < 12 || counter_bits > 42 {
            return Err(GenError::config(
                "v8 counter width",
                counter_bits as i128,
                " bits",
                12,
                42,
            ));
        }
        let sum = counter_bits as u32 + node_bits as u32;
        if sum > AFTER_TIMESTAMP {
            return Err(GenError::config_rule(
                "v8 counter + node id width",
                sum as i128,
                " bits",
                "at most 74 (the bits of a v8 UUID after its version, variant and 48-bit \
                 timestamp)",
            ));
        }
        Ok(DistributedLayout {
            counter_bits,
            node_bits,
        })
    }

    /// Width of the counter, 12 to 42.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().counter_bits(), 16);
    /// assert_eq!(DistributedLayout::new(42, 8)?.counter_bits(), 42);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn counter_bits(&self) -> u8 {
        self.counter_bits
    }
    /// Width of the node id.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().node_bits(), 16);
    /// assert_eq!(DistributedLayout::new(12, 8)?.node_bits(), 8);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn node_bits(&self) -> u8 {
        self.node_bits
    }
    /// Width of the random tail: the 74 bits after the timestamp minus the counter and the
    /// node id.
    ///
    /// ```
    /// use uuidkit::generator::DistributedLayout;
    /// assert_eq!(DistributedLayout::default().random_bits(), 74 - 16 - 16);
    /// assert_eq!(DistributedLayout::new(12, 62)?.random_bits(), 0); // all 74 bits used
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub const fn random_bits(&self) -> u8 {
        AFTER_TIMESTAMP as u8 - self.counter_bits - self.node_bits
    }

    /// The timestamp: Unix milliseconds, 48 bits, as v7's.
    const SCALE: Scale = Scale {
        layout: "UUIDv8 distributed-layout 48-bit millisecond timestamp",
        epoch_nanos: 0,
        num: 1,
        den: 1_000_000,
        max_tick: 1 << 48,
    };
}

/// Configures a [`DistributedGenerator`]: layout, node id, policies, time offset.
///
/// ```
/// use uuidkit::generator::{DistributedBuilder, DistributedLayout, FixedClock, ThreadRng};
/// use uuidkit::Timestamp;
/// let layout = DistributedLayout::new(14, 10)?;
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let mut g = DistributedBuilder::new(layout).node_id(0x2A5).build(clock, ThreadRng)?;
/// let u = g.next()?;
/// assert_eq!(u.custom_a(), Some(1645557742000)); // 48-bit milliseconds fill custom_a
/// // custom_c: the counter's low 2 bits, then the 10-bit node id, then 50 random bits.
/// assert_eq!(u.custom_c().map(|c| c >> 50 & 0x3FF), Some(0x2A5));
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
    /// let layout = DistributedLayout::new(12, 10)?;
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
    /// // A 12-bit counter fills custom_b; the 12-bit node id then leads custom_c.
    /// let layout = DistributedLayout::new(12, 12)?;
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = DistributedBuilder::new(layout).node_id(0xABC).build(clock, ThreadRng)?;
    /// let u = g.next()?;
    /// assert_eq!(u.custom_a(), Some(1645557742000));
    /// assert_eq!(u.custom_c().map(|c| c >> 50), Some(0xABC));
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
    /// // A 12-bit counter is exactly custom_b, where v7's Method 1 puts it (rand_a).
    /// let layout = DistributedLayout::new(12, 14)?;
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(5));
    /// let mut g = DistributedBuilder::new(layout).node_id(1).build(clock, ThreadRng)?;
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert!(a.custom_b() < Some(1 << 11)); // seeded with its top bit clear
    /// assert_eq!(b.custom_b(), a.custom_b().map(|c| c + 1));
    /// let too_big = DistributedBuilder::new(layout).node_id(1 << 14);
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
        let counter = Counter::Fixed {
            bits: self.layout.counter_bits as u32,
        };
        Ok(DistributedGenerator {
            driver: Driver::new(
                Sequencer::new(DistributedLayout::SCALE, counter, &self.policies),
                clock,
                rng,
            ),
            layout: self.layout,
            node_id,
        })
    }
}

/// A v8 generator with a distributed layout ([`DistributedLayout`]): 48-bit Unix
/// milliseconds, a RFC 9562 §6.2 Method 1 counter, a node id (§6.4), random bits. Every UUID
/// is greater than the previous one, whatever the clock does (unless the caller chose
/// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset), which reports each step back
/// it follows in [`resets`](Self::resets)).
///
/// ```
/// use uuidkit::generator::{DistributedBuilder, DistributedLayout, FixedClock, ThreadRng};
/// use uuidkit::Timestamp;
/// // Two nodes with the default layout: 48-bit ms, 16-bit counter, 16-bit node id.
/// let node = |id| DistributedBuilder::new(DistributedLayout::default()).node_id(id);
/// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
/// let (mut n1, mut n2) = (node(1).build(clock, ThreadRng)?, node(2).build(clock, ThreadRng)?);
/// let (a, b) = (n1.next()?, n2.next()?);
/// assert_ne!(a, b); // the same millisecond, told apart by the node id (and more)
/// assert_eq!((a.custom_c().map(|c| c >> 42 & 0xFFFF)), Some(1));
/// assert!(n1.next()? > a); // each node's own UUIDs increase
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
    /// let layout = DistributedLayout::new(20, 10)?;
    /// let g = DistributedBuilder::new(layout).build(SystemClock, ThreadRng)?;
    /// assert_eq!(g.layout(), layout);
    /// assert_eq!(g.layout().random_bits(), 44);
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

    /// Timestamp, counter, node id, random, from the most significant bit down, in the 122
    /// bits around the version and variant.
    fn make(l: &DistributedLayout, node_id: u64, i: Issued, rng: &mut R) -> Uuid {
        let c = l.counter_bits as u32;
        let r = l.random_bits() as u32;
        // At most 74 − 12 = 62 random bits: one u64 holds them.
        let random = if r == 0 {
            0
        } else {
            rng.next_u64() & mask64(r)
        };
        let payload = ((i.tick as u128) << AFTER_TIMESTAMP)
            | (i.counter << (AFTER_TIMESTAMP - c))
            | ((node_id as u128) << r)
            | random as u128;
        from_payload(payload)
    }

    /// The next UUID, greater than the previous one (unless
    /// [`RegressionPolicy::Reset`](super::RegressionPolicy::Reset) follows the clock back).
    ///
    /// ```
    /// use uuidkit::generator::{DistributedBuilder, DistributedLayout, StepClock, ThreadRng};
    /// use uuidkit::Timestamp;
    /// // A 12-bit counter (custom_b), then an 8-bit node id at the top of custom_c.
    /// let layout = DistributedLayout::new(12, 8)?;
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_000)).with_auto_step(1_000_000);
    /// let mut g = DistributedBuilder::new(layout).node_id(0x5A).build(&clock, ThreadRng)?;
    /// let (a, b) = (g.next()?, g.next()?);
    /// assert_eq!((a.custom_a(), b.custom_a()), (Some(1_000), Some(1_001)));
    /// assert_eq!(a.custom_c().map(|c| c >> 54), Some(0x5A));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::rng::{ReplayRandom, SeqRandom};
    use crate::generator::{FixedClock, OverflowPolicy};
    use crate::Timestamp;

    /// `v` written as `width` binary digits (none for width 0).
    fn digits(v: u128, width: u8) -> String {
        if width == 0 {
            String::new()
        } else {
            format!("{v:0w$b}", w = usize::from(width))
        }
    }

    /// The counter of a distributed v8 UUID, read back from the UUID's own bits (not through
    /// the payload arithmetic the generator uses): UUID bits 52–63, then 66 on.
    fn counter(u: Uuid, c: u8) -> u128 {
        let v = u.as_u128();
        let high = (v >> 64) & 0xfff;
        let low_bits = u32::from(c) - 12;
        let low = (v >> (62 - low_bits)) & ((1 << low_bits) - 1);
        (high << low_bits) | low
    }

    /// RFC 9562 §6.2 Method 1: "a fixed bit-length counter MUST be positioned immediately after
    /// the embedded timestamp", in rand_a and then "the most significant (leftmost) bits of
    /// rand_b". Every field of a generated UUID, checked bit by bit against a string built
    /// from the fields: timestamp, version, counter (split by the variant), node id, random.
    #[test]
    fn fields_sit_where_method_1_puts_them_bit_by_bit() {
        let ms: u64 = 0x0123_4567_89AB;
        let clock = FixedClock::new(Timestamp::from_unix_millis(ms));
        let widths = [
            (12, 0),
            (12, 62),
            (13, 10),
            (14, 10),
            (16, 16),
            (26, 20),
            (30, 7),
            (42, 0),
            (42, 32),
        ];
        for (c, n) in widths {
            let layout = DistributedLayout::new(c, n).unwrap();
            let r = 74 - c - n;
            assert_eq!(layout.random_bits(), r);
            // 1010… so that a node id one bit off its place shows, between the counter's and
            // the random tail's ones.
            let node = 0xAAAA_AAAA_AAAA_AAAA & mask64(u32::from(n));
            // Random bytes all ones: the counter is seeded with its top bit clear and every
            // other bit set (§6.2 seeding, the rollover guard), the random tail is all ones.
            let mut g = DistributedBuilder::new(layout)
                .node_id(node)
                .build(clock, ReplayRandom::new([0xFF]))
                .unwrap();
            let seed = (1u128 << (c - 1)) - 1;
            for expected_counter in [seed, seed + 1] {
                let u = g.next().unwrap();
                let ctr = digits(expected_counter, c);
                let expected = [
                    digits(ms.into(), 48),      // bits 0-47: unix_ts_ms
                    "1000".to_string(),         // 48-51: version 8
                    ctr[..12].to_string(),      // 52-63: the counter's top 12 bits
                    "10".to_string(),           // 64-65: the variant
                    ctr[12..].to_string(),      // the rest of the counter
                    digits(node.into(), n),     // the node id
                    "1".repeat(usize::from(r)), // random
                ]
                .concat();
                assert_eq!(format!("{:0128b}", u.as_u128()), expected, "{layout:?}");
                assert_eq!(counter(u, c), expected_counter, "{layout:?}");
                assert_eq!(u.version_num(), 8);
                assert_eq!(u.custom_a(), Some(ms));
            }
        }
    }

    /// Within one millisecond the counter orders the UUIDs, whatever the random tail holds;
    /// a counter that runs out moves the timestamp ahead (the default Advance policy) with a
    /// fresh seed, so the order holds across it.
    #[test]
    fn order_within_a_millisecond_is_the_counter() {
        let ms: u64 = 1_645_557_742_000;
        let clock = FixedClock::new(Timestamp::from_unix_millis(ms));
        for (c, n) in [(12, 16), (20, 10)] {
            let layout = DistributedLayout::new(c, n).unwrap();
            let mut g = DistributedBuilder::new(layout)
                .node_id(0x155)
                .build(clock, SeqRandom::new(u64::from(c)))
                .unwrap();
            let v: Vec<Uuid> = (0..1000).map(|_| g.next().unwrap()).collect();
            let random = |u: Uuid| u.as_u128() & ((1 << layout.random_bits()) - 1);
            let mut random_fell = 0;
            for w in v.windows(2) {
                assert!(w[0] < w[1], "{layout:?}: {} then {}", w[0], w[1]);
                assert_eq!(w[1].custom_a(), Some(ms));
                assert_eq!(counter(w[1], c), counter(w[0], c) + 1, "{layout:?}");
                random_fell += usize::from(random(w[1]) < random(w[0]));
            }
            // The random tail went down about half the time, and the order held: it is the
            // counter's, not the random bits'.
            assert!(random_fell > 300, "{layout:?}: {random_fell}");
            assert!(
                counter(v[0], c) < 1 << (c - 1),
                "seeded with its top bit clear"
            );
        }
        // A 12-bit counter seeded below 2048 runs out within 4096 UUIDs: the timestamp moves
        // on by one millisecond and the counter is seeded again.
        let layout = DistributedLayout::new(12, 16).unwrap();
        let mut g = DistributedBuilder::new(layout)
            .build(clock, SeqRandom::new(3))
            .unwrap();
        let v: Vec<Uuid> = (0..5000).map(|_| g.next().unwrap()).collect();
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        let next_ms = v.iter().position(|u| u.custom_a() == Some(ms + 1)).unwrap();
        assert!((2048..=4096).contains(&next_ms), "{next_ms}");
        assert_eq!(counter(v[next_ms - 1], 12), 4095);
        assert!(counter(v[next_ms], 12) < 2048);
        // Under the Error policy the same exhaustion is an error that names the counter.
        let mut g = DistributedBuilder::new(layout)
            .overflow(OverflowPolicy::Error)
            .build(clock, SeqRandom::new(3))
            .unwrap();
        let err = (0..5000).find_map(|_| g.next().err()).unwrap();
        assert!(err.is_overflow());
        assert!(
            err.to_string().starts_with(
                "counter overflow: the 12-bit counter of the UUIDv8 distributed-layout 48-bit \
                 millisecond timestamp is exhausted after "
            ),
            "{err}"
        );
    }

    /// §6.2: "the counter SHOULD be at least 12 bits but no longer than 42 bits"; the counter
    /// and the node id share the 74 bits after the timestamp.
    #[test]
    fn counter_width_is_12_to_42_bits_and_the_fields_fit() {
        for c in [12, 42] {
            assert_eq!(
                DistributedLayout::new(c, 0).map(|l| l.counter_bits()),
                Ok(c)
            );
        }
        for c in [0, 1, 4, 11, 43, 63, 64, 255] {
            assert_eq!(
                DistributedLayout::new(c, 8).map_err(|e| (e.is_config(), e.to_string())),
                Err((
                    true,
                    format!(
                        "invalid generator configuration: v8 counter width is {c} bits, \
                         allowed 12 to 42"
                    )
                ))
            );
        }
        let too_wide = |sum: u32| {
            format!(
                "invalid generator configuration: v8 counter + node id width is {sum} bits, \
                 allowed at most 74 (the bits of a v8 UUID after its version, variant and \
                 48-bit timestamp)"
            )
        };
        for (c, n) in [(12, 62), (42, 32), (26, 48)] {
            assert_eq!(DistributedLayout::new(c, n).map(|l| l.random_bits()), Ok(0));
        }
        for (c, n) in [(12, 63), (42, 33), (12, 255), (42, 255)] {
            let sum = u32::from(c) + u32::from(n);
            assert_eq!(
                DistributedLayout::new(c, n).map_err(|e| e.to_string()),
                Err(too_wide(sum))
            );
        }
        // A node id one more than its field holds.
        let err = DistributedBuilder::new(DistributedLayout::new(12, 62).unwrap())
            .node_id(1 << 62)
            .build(FixedClock::new(Timestamp::UNIX_EPOCH), SeqRandom::new(0))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid generator configuration: v8 node id is 4611686018427387904, allowed 0 to \
             4611686018427387903"
        );
    }
}

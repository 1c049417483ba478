//! Version 2 (DCE Security) generator. RFC 9562 §5.2 only reserves the version; the layout is
//! DCE 1.1's (see the specs README): `time_low` holds a 32-bit local identifier (a POSIX uid or
//! gid), `clock_seq_low` the local domain, and only the upper 28 bits of the 60-bit Gregorian
//! timestamp remain — a step of 2^32 × 100 ns, about 7 min 9.5 s — next to a 6-bit clock
//! sequence and the 48-bit node.
//!
//! With so coarse a time, the clock sequence has to do the counting: within one time step the
//! generator hands out the 64 values of the 6-bit sequence in turn, starting from its (random)
//! base. So **one generator issues at most 64 UUIDs per time step**, whatever the domains and
//! ids; then the [`OverflowPolicy`](super::OverflowPolicy) applies (`Advance` moves the time a
//! whole step ahead of the clock, `Wait` may wait up to 7 minutes, and longer after the clock
//! stepped back).
//!
//! **A v2 generator never re-enters a time step it has issued in**, so it never repeats a
//! (time step, clock sequence) pair: it never follows the clock back. After a step back, under
//! [`RegressionPolicy::Continue`] (the default) and under `Reset` alike, it counts on in its
//! last time step until the clock catches up (and then the overflow policy applies); under
//! `Error` it refuses beyond the threshold. Changing the node
//! keeps the count going, and a forked child moves on to a later time step with a new base
//! (and a new random node). Between a parent and its forked child with a given node, the
//! 6-bit sequence cannot keep the two apart if both reach the same time step: give each
//! process its own node (the default random node does).
//!
//! The local id is the caller's ([`V2Generator::next`]) on every platform. On Unix,
//! `next_person` and `next_group` read the process's real user and group id; they exist only
//! there: Windows and WASM have no POSIX ids, and a method that could only ever fail, or that
//! made up an id, would turn a portability question into a run-time surprise. Portable code
//! passes the id it means to `next`.

use super::clock::SystemClock;
use super::error::GenError;
use super::gregorian::{GregorianBuilder, GregorianCore, GREGORIAN};
use super::rng::ThreadRng;
use super::sequencer::{ClockReset, Counter, RegressionPolicy, Scale};
use super::source::{Clock, RandomSource};
use crate::{Domain, Uuid};

/// The v2 timestamp: the upper 28 bits of the v1 tick count.
pub(crate) const COARSE: Scale = Scale {
    layout: "UUIDv2 28-bit coarse Gregorian timestamp",
    epoch_nanos: GREGORIAN.epoch_nanos,
    num: 1,
    den: 100 << 32,
    max_tick: 1 << 28,
};

impl GregorianBuilder {
    /// Builds a v2 (DCE Security) generator on `clock` and `rng`; see
    /// [`V2Generator`].
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, GregorianBuilder, ThreadRng};
    /// use uuidkit::{Domain, Timestamp};
    /// // The time of RFC 9562 Appendix A.1 (0x1EC9414C232AB00 ticks): its low 32 bits give way
    /// // to the local id 1000 (0x3E8); the clock sequence 5 and the domain (person: 0) follow.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = GregorianBuilder::new()
    ///     .node([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46])
    ///     .clock_seq(5)
    ///     .build_v2(clock, ThreadRng)?;
    /// let u = g.next(Domain::Person, 1000)?;
    /// assert_eq!(u.to_string(), "000003e8-9414-21ec-8500-9f6bdeced846");
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn build_v2<C: Clock, R: RandomSource>(
        self,
        clock: C,
        rng: R,
    ) -> Result<V2Generator<C, R>, GenError> {
        // v2 never follows the clock back (see the module docs): `Reset` counts on as
        // `Continue` does.
        let mut builder = self;
        if builder.policies.regression == RegressionPolicy::Reset {
            builder.policies.regression = RegressionPolicy::Continue;
        }
        let core = builder.core(
            clock,
            rng,
            COARSE,
            Counter::Sequential { bits: 6 },
            6,
            "v2 clock sequence",
        )?;
        Ok(V2Generator { core })
    }
}

/// A version 2 (DCE Security) generator: coarse time, 6-bit clock sequence, local domain and
/// id, node. Build one with [`GregorianBuilder::build_v2`]
/// or [`new`](Self::new).
///
/// ```
/// use uuidkit::Domain;
/// let mut g = uuidkit::generator::V2Generator::system();
/// let u = g.next(Domain::Group, 100)?;
/// assert_eq!(u.local_domain(), Some(Domain::Group));
/// assert_eq!(u.local_id(), Some(100));
/// let v = g.next(Domain::Group, 100)?; // same time step: the next clock sequence
/// assert_ne!(u, v);
/// assert_eq!(v.v2_clock_seq(), Some((u.v2_clock_seq().unwrap() + 1) & 0x3f));
/// # Ok::<(), uuidkit::generator::GenError>(())
/// ```
#[derive(Debug, Clone)]
pub struct V2Generator<C = SystemClock, R = ThreadRng> {
    core: GregorianCore<C, R>,
}

impl V2Generator<SystemClock, ThreadRng> {
    /// A generator on the system clock and the thread's CSPRNG, with a random node.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// let mut g = uuidkit::generator::V2Generator::system();
    /// let u = g.next(Domain::Person, 501)?;
    /// assert_eq!(u.version_num(), 2);
    /// assert_eq!(u.node(), Some(g.node()));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn system() -> Self {
        V2Generator::new(SystemClock, ThreadRng)
    }
}

impl<C: Clock, R: RandomSource> V2Generator<C, R> {
    /// A generator with a random node, a random clock sequence base and default policies.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V2Generator};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = V2Generator::new(clock, ThreadRng);
    /// let u = g.next(Domain::Person, 1000)?;
    /// // Source: RFC 9562 Appendix A.1 gives this time as 0x1EC9414C232AB00 ticks; v2 keeps the
    /// // upper 28 of the 60 bits, as the low 32 hold the id.
    /// assert_eq!(u.v2_ticks(), Some(0x1EC9414_0000_0000));
    /// assert_eq!(u.v2_clock_seq(), Some(g.clock_seq())); // the first of its step: the base
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn new(clock: C, rng: R) -> Self {
        match GregorianBuilder::new().build_v2(clock, rng) {
            Ok(g) => g,
            // Without a clock sequence there is nothing to refuse (this function's example
            // runs it).
            Err(e) => unreachable!("the default builder failed: {e}"),
        }
    }

    /// The next UUID for a local domain and identifier.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = GregorianBuilder::new()
    ///     .clock_seq(62)
    ///     .overflow(OverflowPolicy::Error)
    ///     .build_v2(clock, ThreadRng)?;
    /// let u = g.next(Domain::Org, 7)?;
    /// assert_eq!((u.local_domain(), u.local_id()), (Some(Domain::Org), Some(7)));
    /// let (v, w) = (g.next(Domain::Org, 7)?, g.next(Domain::Group, 9)?);
    /// let seqs = [v, w].map(|u| u.v2_clock_seq());
    /// assert_eq!(seqs, [Some(63), Some(0)]); // the 6-bit sequence counts on, whatever the domain
    /// for _ in 3..64 {
    ///     g.next(Domain::Org, 7)?;
    /// }
    /// assert!(g.next(Domain::Org, 7).unwrap_err().is_overflow()); // 64 per time step
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn next(&mut self, domain: Domain, local_id: u32) -> Result<Uuid, GenError> {
        self.core.next_with(|tick, k, base, node| {
            let seq = (base as u128 + k) as u8 & 0x3f;
            Uuid::from_v2_parts(tick << 32, seq, domain, local_id, node)
        })
    }

    /// The next UUID for the calling process's real user id (`getuid`), domain
    /// [`Domain::Person`]. Unix only (see the module docs).
    ///
    /// ```
    /// use uuidkit::Domain;
    /// let mut g = uuidkit::generator::V2Generator::system();
    /// let u = g.next_person()?;
    /// assert_eq!(u.local_domain(), Some(Domain::Person));
    /// // SAFETY: getuid has no preconditions and cannot fail.
    /// assert_eq!(u.local_id(), Some(unsafe { libc::getuid() }));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    #[cfg(unix)]
    pub fn next_person(&mut self) -> Result<Uuid, GenError> {
        self.next(Domain::Person, crate::sys::real_uid())
    }

    /// The next UUID for the calling process's real group id (`getgid`), domain
    /// [`Domain::Group`]. Unix only (see the module docs).
    ///
    /// ```
    /// use uuidkit::Domain;
    /// let mut g = uuidkit::generator::V2Generator::system();
    /// let u = g.next_group()?;
    /// assert_eq!(u.local_domain(), Some(Domain::Group));
    /// // SAFETY: getgid has no preconditions and cannot fail.
    /// assert_eq!(u.local_id(), Some(unsafe { libc::getgid() }));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    #[cfg(unix)]
    pub fn next_group(&mut self) -> Result<Uuid, GenError> {
        self.next(Domain::Group, crate::sys::real_gid())
    }

    /// The node in use.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// let mut g = uuidkit::generator::V2Generator::system();
    /// assert_eq!(g.node()[0] & 1, 1); // random: the multicast bit set (RFC 9562 §6.10)
    /// assert_eq!(g.next(Domain::Person, 0)?.node(), Some(g.node()));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn node(&self) -> [u8; 6] {
        self.core.node
    }

    /// The base of the 6-bit clock sequence: the first UUID of each time step carries it.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, GregorianBuilder, ThreadRng};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = GregorianBuilder::new().clock_seq(17).build_v2(clock, ThreadRng)?;
    /// assert_eq!(g.clock_seq(), 17);
    /// assert_eq!(g.next(Domain::Person, 0)?.v2_clock_seq(), Some(17));
    /// assert_eq!(g.next(Domain::Person, 0)?.v2_clock_seq(), Some(18)); // the base stays 17
    /// assert_eq!(g.clock_seq(), 17);
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn clock_seq(&self) -> u8 {
        self.core.clock_seq as u8
    }

    /// Changes the node. The clock sequence counts on from where it was (unlike v1 and v6, whose
    /// sequence changes with the node): within a time step the sequence values stay distinct,
    /// whatever the nodes, so no UUID repeats even if an earlier node comes back.
    ///
    /// ```
    /// use uuidkit::generator::{FixedClock, ThreadRng, V2Generator};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = V2Generator::new(clock, ThreadRng);
    /// let (old_base, mac) = (g.clock_seq(), [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6]);
    /// let a = g.next(Domain::Group, 100)?;
    /// g.set_node(mac); // differs from the random node, whose multicast bit is set
    /// assert_eq!(g.node(), mac);
    /// assert_eq!(g.clock_seq(), old_base);
    /// let b = g.next(Domain::Group, 100)?;
    /// assert_eq!(b.node(), Some(mac));
    /// assert_eq!(b.v2_clock_seq(), a.v2_clock_seq().map(|s| (s + 1) & 0x3f)); // counting on
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn set_node(&mut self, node: [u8; 6]) {
        self.core.replace_node(node)
    }

    /// How many times the generator followed the clock back: always 0, as a v2 generator never
    /// does (see the module docs); here so that every time-based generator answers.
    ///
    /// ```
    /// use uuidkit::generator::{GregorianBuilder, RegressionPolicy, StepClock, ThreadRng};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut g = GregorianBuilder::new()
    ///     .regression(RegressionPolicy::Reset)
    ///     .build_v2(&clock, ThreadRng)?;
    /// let a = g.next(Domain::Person, 0)?;
    /// clock.step_back(3_600_000_000_000); // an hour back, 8 time steps
    /// let b = g.next(Domain::Person, 0)?;
    /// assert_eq!(b.v2_ticks(), a.v2_ticks()); // still in a's time step, counting on
    /// assert_eq!((g.resets(), g.last_reset()), (0, None));
    /// # Ok::<(), uuidkit::generator::GenError>(())
    /// ```
    pub fn resets(&self) -> u64 {
        self.core.driver.seq.resets()
    }

    /// The last step back of the clock the generator followed: always `None` for v2.
    ///
    /// ```
    /// let g = uuidkit::generator::V2Generator::system();
    /// assert_eq!(g.last_reset(), None);
    /// ```
    pub fn last_reset(&self) -> Option<ClockReset> {
        self.core.driver.seq.last_reset()
    }
}

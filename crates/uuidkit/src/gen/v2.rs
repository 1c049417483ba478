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
//! whole step ahead of the clock, `Wait` may wait up to 7 minutes). After a clock regression
//! beyond the threshold under `Reset`, the base changes to a new random value as for v1; with
//! 6 bits, a repeat of a (time, sequence) pair used before the regression is then possible
//! (about 1 in 64 per UUID issued in that step): use `RegressionPolicy::Error` where that
//! matters.
//!
//! The local id is the caller's ([`V2Generator::next`]) on every platform. On Unix,
//! `next_person` and `next_group` read the process's real user and group id; they exist only
//! there: Windows and WASM have no POSIX ids, and a method that could only ever fail, or that
//! made up an id, would turn a portability question into a run-time surprise. Portable code
//! passes the id it means to `next`.

use super::policy::{GenError, Scale};
use super::rng::ThreadRng;
use super::v1::{GregorianCore, GREGORIAN};
use super::{Clock, RandomSource, SystemClock};
use crate::{Domain, Uuid};

/// The v2 timestamp: the upper 28 bits of the v1 tick count.
pub(crate) const COARSE: Scale = Scale {
    layout: "UUIDv2 28-bit coarse Gregorian timestamp",
    epoch_nanos: GREGORIAN.epoch_nanos,
    num: 1,
    den: 100 << 32,
    max_tick: 1 << 28,
};

/// A version 2 (DCE Security) generator: coarse time, 6-bit clock sequence, local domain and
/// id, node. Build one with [`GregorianBuilder::build_v2`](super::GregorianBuilder::build_v2)
/// or [`new`](Self::new).
///
/// ```
/// use uuidkit::Domain;
/// let mut gen = uuidkit::gen::V2Generator::system();
/// let u = gen.next(Domain::Group, 100)?;
/// assert_eq!(u.local_domain(), Some(Domain::Group));
/// assert_eq!(u.local_id(), Some(100));
/// let v = gen.next(Domain::Group, 100)?; // same time step: the next clock sequence
/// assert_ne!(u, v);
/// assert_eq!(v.v2_clock_seq(), Some((u.v2_clock_seq().unwrap() + 1) & 0x3f));
/// # Ok::<(), uuidkit::gen::GenError>(())
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
    /// let mut gen = uuidkit::gen::V2Generator::system();
    /// let u = gen.next(Domain::Person, 501)?;
    /// assert_eq!(u.version_num(), 2);
    /// assert_eq!(u.node(), Some(gen.node()));
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub fn system() -> Self {
        V2Generator::new(SystemClock, ThreadRng)
    }
}

impl<C: Clock, R: RandomSource> V2Generator<C, R> {
    pub(crate) fn from_core(core: GregorianCore<C, R>) -> Self {
        V2Generator { core }
    }

    /// A generator with a random node, a random clock sequence base and default policies.
    ///
    /// ```
    /// use uuidkit::gen::{FixedClock, ThreadRng, V2Generator};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut gen = V2Generator::new(clock, ThreadRng);
    /// let u = gen.next(Domain::Person, 1000)?;
    /// // Source: RFC 9562 Appendix A.1 gives this time as 0x1EC9414C232AB00 ticks; v2 keeps the
    /// // upper 28 of the 60 bits, as the low 32 hold the id.
    /// assert_eq!(u.v2_ticks(), Some(0x1EC9414_0000_0000));
    /// assert_eq!(u.v2_clock_seq(), Some(gen.clock_seq())); // the first of its step: the base
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub fn new(clock: C, rng: R) -> Self {
        match super::GregorianBuilder::new().build_v2(clock, rng) {
            Ok(gen) => gen,
            // Without a clock sequence there is nothing to refuse (this function's example
            // runs it).
            Err(e) => unreachable!("the default builder failed: {e}"),
        }
    }

    /// The next UUID for a local domain and identifier.
    ///
    /// ```
    /// use uuidkit::gen::{FixedClock, GregorianBuilder, OverflowPolicy, ThreadRng};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut gen = GregorianBuilder::new()
    ///     .clock_seq(62)
    ///     .overflow(OverflowPolicy::Error)
    ///     .build_v2(clock, ThreadRng)?;
    /// let u = gen.next(Domain::Org, 7)?;
    /// assert_eq!((u.local_domain(), u.local_id()), (Some(Domain::Org), Some(7)));
    /// let (v, w) = (gen.next(Domain::Org, 7)?, gen.next(Domain::Group, 9)?);
    /// let seqs = [v, w].map(|u| u.v2_clock_seq());
    /// assert_eq!(seqs, [Some(63), Some(0)]); // the 6-bit sequence counts on, whatever the domain
    /// for _ in 3..64 {
    ///     gen.next(Domain::Org, 7)?;
    /// }
    /// assert!(gen.next(Domain::Org, 7).unwrap_err().is_overflow()); // 64 per time step
    /// # Ok::<(), uuidkit::gen::GenError>(())
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
    /// let mut gen = uuidkit::gen::V2Generator::system();
    /// let u = gen.next_person()?;
    /// assert_eq!(u.local_domain(), Some(Domain::Person));
    /// // SAFETY: getuid has no preconditions and cannot fail.
    /// assert_eq!(u.local_id(), Some(unsafe { libc::getuid() }));
    /// # Ok::<(), uuidkit::gen::GenError>(())
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
    /// let mut gen = uuidkit::gen::V2Generator::system();
    /// let u = gen.next_group()?;
    /// assert_eq!(u.local_domain(), Some(Domain::Group));
    /// // SAFETY: getgid has no preconditions and cannot fail.
    /// assert_eq!(u.local_id(), Some(unsafe { libc::getgid() }));
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    #[cfg(unix)]
    pub fn next_group(&mut self) -> Result<Uuid, GenError> {
        self.next(Domain::Group, crate::sys::real_gid())
    }

    /// The node in use.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// let mut gen = uuidkit::gen::V2Generator::system();
    /// assert_eq!(gen.node()[0] & 1, 1); // random: the multicast bit set (RFC 9562 §6.10)
    /// assert_eq!(gen.next(Domain::Person, 0)?.node(), Some(gen.node()));
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub fn node(&self) -> [u8; 6] {
        self.core.node
    }

    /// The base of the 6-bit clock sequence: the first UUID of each time step carries it.
    ///
    /// ```
    /// use uuidkit::gen::{FixedClock, GregorianBuilder, ThreadRng};
    /// use uuidkit::{Domain, Timestamp};
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1645557742000));
    /// let mut gen = GregorianBuilder::new().clock_seq(17).build_v2(clock, ThreadRng)?;
    /// assert_eq!(gen.clock_seq(), 17);
    /// assert_eq!(gen.next(Domain::Person, 0)?.v2_clock_seq(), Some(17));
    /// assert_eq!(gen.next(Domain::Person, 0)?.v2_clock_seq(), Some(18)); // the base stays 17
    /// assert_eq!(gen.clock_seq(), 17);
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub fn clock_seq(&self) -> u8 {
        self.core.clock_seq as u8
    }

    /// Changes the node; if it differs, the clock sequence base changes too.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// let mut gen = uuidkit::gen::V2Generator::system();
    /// let (old_base, mac) = (gen.clock_seq(), [0x00, 0x1B, 0x63, 0x84, 0x45, 0xE6]);
    /// gen.set_node(mac); // differs from the random node, whose multicast bit is set
    /// assert_eq!(gen.node(), mac);
    /// assert_ne!(gen.clock_seq(), old_base);
    /// assert_eq!(gen.next(Domain::Group, 100)?.node(), Some(mac));
    /// # Ok::<(), uuidkit::gen::GenError>(())
    /// ```
    pub fn set_node(&mut self, node: [u8; 6]) {
        self.core.set_node(node)
    }
}

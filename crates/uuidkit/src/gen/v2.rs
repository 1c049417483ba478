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
    pub fn system() -> Self {
        V2Generator::new(SystemClock, ThreadRng)
    }
}

impl<C: Clock, R: RandomSource> V2Generator<C, R> {
    pub(crate) fn from_core(core: GregorianCore<C, R>) -> Self {
        V2Generator { core }
    }

    /// A generator with a random node, a random clock sequence base and default policies.
    pub fn new(clock: C, rng: R) -> Self {
        V2Generator {
            core: GregorianCore::new(
                clock,
                rng,
                COARSE,
                super::policy::Counter::Sequential { bits: 6 },
                6,
                None,
                None,
                &super::policy::Policies::DEFAULT,
            ),
        }
    }

    /// The next UUID for a local domain and identifier.
    pub fn next(&mut self, domain: Domain, local_id: u32) -> Result<Uuid, GenError> {
        self.core.next_with(|tick, k, base, node| {
            let seq = (base as u128 + k) as u8 & 0x3f;
            Uuid::from_v2_parts(tick << 32, seq, domain, local_id, node)
        })
    }

    /// The next UUID for the calling process's real user id (`getuid`), domain
    /// [`Domain::Person`].
    #[cfg(unix)]
    pub fn next_person(&mut self) -> Result<Uuid, GenError> {
        // SAFETY: getuid has no preconditions, touches no memory of ours and cannot fail.
        let uid = unsafe { libc::getuid() };
        self.next(Domain::Person, uid)
    }

    /// The next UUID for the calling process's real group id (`getgid`), domain
    /// [`Domain::Group`].
    #[cfg(unix)]
    pub fn next_group(&mut self) -> Result<Uuid, GenError> {
        // SAFETY: getgid has no preconditions, touches no memory of ours and cannot fail.
        let gid = unsafe { libc::getgid() };
        self.next(Domain::Group, gid)
    }

    /// The node in use.
    pub fn node(&self) -> [u8; 6] {
        self.core.node
    }

    /// The base of the 6-bit clock sequence: the first UUID of each time step carries it.
    pub fn clock_seq(&self) -> u8 {
        self.core.clock_seq as u8
    }

    /// Changes the node; if it differs, the clock sequence base changes too.
    pub fn set_node(&mut self, node: [u8; 6]) {
        self.core.set_node(node)
    }
}

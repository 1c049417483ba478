//! Version 4: 122 random bits (RFC 9562 §5.4) from a CSPRNG (§6.9).
//!
//! The default source is the calling thread's fork-safe [`Csprng`](super::rng::Csprng): a UUID
//! is 16 bytes copied out of its keystream buffer, no system call and no lock.

use super::rng::with_thread_rng;
use super::source::RandomSource;
use crate::Uuid;

/// A random (version 4) UUID from the thread's CSPRNG.
///
/// Aborts the process only if the OS cannot seed the generator (see
/// [`with_thread_rng`]).
///
/// ```
/// use uuidkit::{Variant, Version};
/// let a = uuidkit::v4();
/// assert_eq!(a.version(), Some(Version::Random));
/// assert_eq!(a.variant(), Variant::Rfc9562);
/// assert_ne!(a, uuidkit::v4());
/// ```
#[inline]
pub fn v4() -> Uuid {
    Uuid::new_v4_from_bytes(with_thread_rng(|rng| rng.next_16()))
}

/// A version 4 UUID from 16 bytes of `rng`.
///
/// ```
/// use uuidkit::generator::{rng::ReplayRandom, v4::v4_from};
/// // RFC 9562 Appendix A.3
/// let mut rng = ReplayRandom::new(0x919108F752D133205BACF847DB4148A8u128.to_be_bytes());
/// assert_eq!(v4_from(&mut rng).to_string(), "919108f7-52d1-4320-9bac-f847db4148a8");
/// ```
pub fn v4_from<R: RandomSource + ?Sized>(rng: &mut R) -> Uuid {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    Uuid::new_v4_from_bytes(b)
}

/// Fills `out` with version 4 UUIDs from the thread's CSPRNG, borrowing it once for the batch.
///
/// ```
/// let mut ids = [uuidkit::Uuid::NIL; 8];
/// uuidkit::generator::v4::fill_v4(&mut ids);
/// assert!(ids.iter().all(|u| u.version_num() == 4));
/// ```
pub fn fill_v4(out: &mut [Uuid]) {
    with_thread_rng(|rng| {
        for u in out.iter_mut() {
            *u = Uuid::new_v4_from_bytes(rng.next_16());
        }
    })
}

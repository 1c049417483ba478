//! [`NonNilUuid`]: a UUID that is not the Nil UUID, so that `Option<NonNilUuid>` is as small
//! as a [`Uuid`] (the `uuid` crate's type of the same name).

use core::fmt;
use core::num::NonZeroU128;

use crate::Uuid;

/// A [`Uuid`] that is not Nil (RFC 9562 §5.9): the compiler uses the all-zero value as
/// `None`, so `Option<NonNilUuid>` takes 16 bytes, like a `Uuid` with Nil as "none".
///
/// Ordered, compared and hashed as its `Uuid`; displayed and debugged as its `Uuid`.
///
/// ```
/// use uuidkit::{NonNilUuid, Uuid};
/// assert_eq!(core::mem::size_of::<Option<NonNilUuid>>(), core::mem::size_of::<Uuid>());
/// assert_eq!(NonNilUuid::new(Uuid::NIL), None);
/// let n = NonNilUuid::new(Uuid::NAMESPACE_DNS).unwrap();
/// assert_eq!(n.get(), Uuid::NAMESPACE_DNS);
/// assert_eq!(Uuid::from(n), Uuid::NAMESPACE_DNS);
/// assert_eq!(n.to_string(), "6ba7b810-9dad-11d1-80b4-00c04fd430c8");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct NonNilUuid(NonZeroU128);

impl NonNilUuid {
    /// `None` for the Nil UUID, else the UUID.
    ///
    /// ```
    /// assert!(uuidkit::NonNilUuid::new(uuidkit::Uuid::MAX).is_some());
    /// ```
    pub const fn new(u: Uuid) -> Option<NonNilUuid> {
        // The value as a big-endian integer: its order is the UUID's order.
        match NonZeroU128::new(u.as_u128()) {
            Some(n) => Some(NonNilUuid(n)),
            None => None,
        }
    }

    /// The UUID.
    ///
    /// ```
    /// let n = uuidkit::NonNilUuid::new(uuidkit::Uuid::MAX).unwrap();
    /// assert!(n.get().is_max());
    /// ```
    pub const fn get(self) -> Uuid {
        Uuid::from_u128(self.0.get())
    }
}

/// The error of `NonNilUuid::try_from(Uuid::NIL)`.
///
/// ```
/// use uuidkit::{NonNilUuid, Uuid};
/// let e = NonNilUuid::try_from(Uuid::NIL).unwrap_err();
/// assert_eq!(e.to_string(), "the Nil UUID is not a NonNilUuid");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NilUuidError;

impl fmt::Display for NilUuidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the Nil UUID is not a NonNilUuid")
    }
}

impl core::error::Error for NilUuidError {}

impl TryFrom<Uuid> for NonNilUuid {
    type Error = NilUuidError;
    /// [`NonNilUuid::new`], with an error for the Nil UUID.
    fn try_from(u: Uuid) -> Result<NonNilUuid, NilUuidError> {
        NonNilUuid::new(u).ok_or(NilUuidError)
    }
}

impl From<NonNilUuid> for Uuid {
    fn from(n: NonNilUuid) -> Uuid {
        n.get()
    }
}

impl PartialEq<Uuid> for NonNilUuid {
    fn eq(&self, other: &Uuid) -> bool {
        self.get() == *other
    }
}

impl PartialEq<NonNilUuid> for Uuid {
    fn eq(&self, other: &NonNilUuid) -> bool {
        *self == other.get()
    }
}

impl fmt::Display for NonNilUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get(), f)
    }
}

impl fmt::Debug for NonNilUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_nil_keeps_every_value_but_nil_and_its_order() {
        assert_eq!(core::mem::size_of::<Option<NonNilUuid>>(), 16);
        assert_eq!(NonNilUuid::try_from(Uuid::NIL), Err(NilUuidError));
        let values = [
            Uuid::from_u128(1),
            Uuid::from_u128(1 << 127),
            Uuid::NAMESPACE_DNS,
            Uuid::NAMESPACE_URL,
            Uuid::MAX,
        ];
        for (i, a) in values.iter().enumerate() {
            let n = NonNilUuid::try_from(*a).unwrap();
            assert_eq!(n.get(), *a);
            assert!(n == *a);
            assert!(*a == n);
            assert_eq!(Uuid::from(n), *a);
            assert_eq!(format!("{n} {n:?}"), format!("{a} {a:?}"));
            for b in &values[i..] {
                let m = NonNilUuid::new(*b).unwrap();
                assert_eq!(n.cmp(&m), a.cmp(b), "{a} {b}");
            }
        }
    }
}

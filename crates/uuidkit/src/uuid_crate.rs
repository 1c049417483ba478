//! Conversions to and from the `uuid` crate's type (feature `uuid`, `no_std`).
//!
//! Both types are 16 bytes in network order (RFC 9562 §4), so the conversions are lossless
//! copies in both directions: every bit, including version and variant, is kept as it is.
//! (There is deliberately no `PartialEq` between the two types: it would make `a == b.into()`
//! ambiguous in code that compiles today.)
//!
//! ```
//! let ours = uuidkit::Uuid::NAMESPACE_DNS;
//! let theirs: uuid::Uuid = ours.into();
//! assert_eq!(theirs, uuid::Uuid::NAMESPACE_DNS);
//! assert_eq!(uuidkit::Uuid::from(theirs), ours);
//! // By reference, too.
//! assert_eq!(uuid::Uuid::from(&ours), theirs);
//! assert_eq!(uuidkit::Uuid::from(&theirs), ours);
//! ```

use crate::Uuid;

impl From<uuid::Uuid> for Uuid {
    /// The same 16 bytes.
    fn from(u: uuid::Uuid) -> Uuid {
        Uuid::from_bytes(u.into_bytes())
    }
}

impl From<&uuid::Uuid> for Uuid {
    /// The same 16 bytes.
    fn from(u: &uuid::Uuid) -> Uuid {
        Uuid::from_bytes(*u.as_bytes())
    }
}

impl From<Uuid> for uuid::Uuid {
    /// The same 16 bytes.
    fn from(u: Uuid) -> uuid::Uuid {
        uuid::Uuid::from_bytes(u.into_bytes())
    }
}

impl From<&Uuid> for uuid::Uuid {
    /// The same 16 bytes.
    fn from(u: &Uuid) -> uuid::Uuid {
        uuid::Uuid::from_bytes(*u.as_bytes())
    }
}

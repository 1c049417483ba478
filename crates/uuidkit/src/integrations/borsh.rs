//! `BorshSerialize` and `BorshDeserialize` (feature `borsh`): the 16 bytes in network order,
//! as borsh writes a `[u8; 16]` (no length prefix).
//!
//! ```
//! let bytes = borsh::to_vec(&uuidkit::Uuid::NAMESPACE_DNS).unwrap();
//! assert_eq!(bytes, uuidkit::Uuid::NAMESPACE_DNS.as_bytes());
//! assert_eq!(borsh::from_slice::<uuidkit::Uuid>(&bytes).unwrap(), uuidkit::Uuid::NAMESPACE_DNS);
//! assert!(borsh::from_slice::<uuidkit::Uuid>(&bytes[..15]).is_err());
//! ```

use borsh::io::{Read, Result, Write};
use borsh::{BorshDeserialize, BorshSerialize};

use crate::Uuid;

impl BorshSerialize for Uuid {
    fn serialize<W: Write>(&self, w: &mut W) -> Result<()> {
        self.as_bytes().serialize(w)
    }
}

impl BorshDeserialize for Uuid {
    fn deserialize_reader<R: Read>(r: &mut R) -> Result<Uuid> {
        <[u8; 16]>::deserialize_reader(r).map(Uuid::from_bytes)
    }
}

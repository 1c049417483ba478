//! `arbitrary::Arbitrary` (feature `arbitrary`): any 16 bytes, so every UUID (any version,
//! any variant, Nil and Max) can come out of a fuzzer's input.
//!
//! ```
//! use arbitrary::{Arbitrary, Unstructured};
//! let mut u = Unstructured::new(&[0xff; 20]);
//! assert_eq!(uuidkit::Uuid::arbitrary(&mut u)?, uuidkit::Uuid::MAX);
//! assert_eq!(u.len(), 4);
//! # Ok::<(), arbitrary::Error>(())
//! ```

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::Uuid;

impl<'a> Arbitrary<'a> for Uuid {
    /// The next 16 bytes of the input, in network order.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Uuid> {
        Ok(Uuid::from_bytes(<[u8; 16]>::arbitrary(u)?))
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        <[u8; 16]>::size_hint(depth)
    }
}

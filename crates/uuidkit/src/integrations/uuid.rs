//! The `uuid` crate, from both sides:
//!
//! - its names on [`Uuid`] (always), so that migrating is a search and replace: the associated
//!   generator functions (`Uuid::new_v4()`, `Uuid::now_v7()`, …; feature `std`), `try_parse`,
//!   `from_slice`, `nil()`/`max()` and the conversions to and from strings, byte slices and
//!   vectors. Each is a thin alias of uuidkit's own API (the README's migration table lists
//!   both names).
//! - lossless `From` conversions to and from `uuid::Uuid` (feature `uuid`, `no_std`): the
//!   `conversions` module at the end.
//!
//! ```
//! use uuidkit::Uuid;
//! let u = Uuid::try_parse("67e55044-10b1-426f-9247-bb680e5fe0c8")?;
//! assert_eq!(Uuid::from_slice(u.as_bytes())?, u);
//! assert_eq!(String::from(u), "67e55044-10b1-426f-9247-bb680e5fe0c8");
//! # Ok::<(), uuidkit::Error>(())
//! ```

use crate::error::{Detail, Error};
use crate::Uuid;

impl Uuid {
    /// The Nil UUID ([`Uuid::NIL`]), as the `uuid` crate spells it.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::nil().is_nil());
    /// ```
    pub const fn nil() -> Uuid {
        Uuid::NIL
    }

    /// The Max UUID ([`Uuid::MAX`]), as the `uuid` crate spells it.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::max().is_max());
    /// ```
    pub const fn max() -> Uuid {
        Uuid::MAX
    }

    /// Parses any of the four text forms, with the CPU's SIMD instructions: the same as
    /// `s.parse::<Uuid>()` and [`Uuid::try_parse_ascii`]`(s.as_bytes())`.
    ///
    /// ```
    /// let e = uuidkit::Uuid::try_parse("67e55044-10b1-426f-9247-bb680e5fe0cX").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid character 'X' at byte 35: expected a hexadecimal digit");
    /// ```
    #[inline]
    pub fn try_parse(s: &str) -> Result<Uuid, Error> {
        Uuid::try_parse_ascii(s.as_bytes())
    }

    /// A UUID from exactly 16 bytes in network order; any other length is an error that
    /// names it.
    ///
    /// ```
    /// let u = uuidkit::Uuid::from_slice(&[0xff; 16])?;
    /// assert!(u.is_max());
    /// let e = uuidkit::Uuid::from_slice(&[0; 15]).unwrap_err();
    /// assert_eq!(e.to_string(), "invalid length: expected 16 bytes, found 15");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn from_slice(b: &[u8]) -> Result<Uuid, Error> {
        match b.first_chunk::<16>() {
            Some(bytes) if b.len() == 16 => Ok(Uuid::from_bytes(*bytes)),
            _ => Err(Error::new(
                Detail::Length {
                    found: b.len(),
                    expected: 16,
                },
                0,
            )),
        }
    }

    /// A UUID from exactly 16 bytes in the Microsoft GUID order (first three fields
    /// little-endian; see [`Uuid::from_bytes_le`]).
    ///
    /// ```
    /// let le = uuidkit::Uuid::NAMESPACE_DNS.to_bytes_le();
    /// assert_eq!(uuidkit::Uuid::from_slice_le(&le)?, uuidkit::Uuid::NAMESPACE_DNS);
    /// assert!(uuidkit::Uuid::from_slice_le(&le[1..]).is_err());
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub fn from_slice_le(b: &[u8]) -> Result<Uuid, Error> {
        Uuid::from_slice(b).map(|u| Uuid::from_bytes_le(u.into_bytes()))
    }
}

impl TryFrom<&[u8]> for Uuid {
    type Error = Error;
    /// [`Uuid::from_slice`]: exactly 16 bytes.
    fn try_from(b: &[u8]) -> Result<Uuid, Error> {
        Uuid::from_slice(b)
    }
}

#[cfg(feature = "std")]
mod with_std {
    use super::*;
    use crate::Timestamp;

    impl Uuid {
        /// A random (v4) UUID: [`uuidkit::v4()`](crate::v4()) under the `uuid` crate's name.
        ///
        /// ```
        /// assert_eq!(uuidkit::Uuid::new_v4().version_num(), 4);
        /// ```
        #[inline]
        pub fn new_v4() -> Uuid {
            crate::v4()
        }

        /// A v7 UUID from the process-wide generator: [`uuidkit::v7()`](crate::v7()) under the
        /// `uuid` crate's name (monotonic across threads).
        ///
        /// ```
        /// let a = uuidkit::Uuid::now_v7();
        /// assert!(uuidkit::Uuid::now_v7() > a);
        /// ```
        #[inline]
        pub fn now_v7() -> Uuid {
            crate::v7()
        }

        /// A v6 UUID from the process-wide generator (as [`uuidkit::v6()`](crate::v6())) with
        /// the given node in place of its random one.
        ///
        /// # Panics
        ///
        /// As [`uuidkit::v6()`](crate::v6()): when the system clock reads outside the 60-bit
        /// field (1582–5236); [`gen::global::try_v6`](crate::generator::global::try_v6) returns the
        /// error instead.
        ///
        /// ```
        /// let u = uuidkit::Uuid::now_v6(&[1, 2, 3, 4, 5, 6]);
        /// assert_eq!((u.version_num(), u.node()), (6, Some([1, 2, 3, 4, 5, 6])));
        /// ```
        pub fn now_v6(node: &[u8; 6]) -> Uuid {
            let u = crate::v6();
            match (u.gregorian_ticks(), u.clock_seq()) {
                (Some(t), Some(seq)) => Uuid::from_v6_parts(t, seq, *node),
                _ => unreachable!("a v6 UUID has a timestamp and a clock sequence"),
            }
        }

        /// A v1 UUID from the process-wide generator (as [`uuidkit::v1()`](crate::v1())) with
        /// the given node in place of its random one.
        ///
        /// # Panics
        ///
        /// As [`uuidkit::v1()`](crate::v1()).
        ///
        /// ```
        /// let (a, b) = (uuidkit::Uuid::now_v1(&[0; 6]), uuidkit::Uuid::now_v1(&[0; 6]));
        /// assert!(a.gregorian_ticks() < b.gregorian_ticks());
        /// assert_eq!(a.node(), Some([0; 6]));
        /// ```
        pub fn now_v1(node: &[u8; 6]) -> Uuid {
            let u = crate::v1();
            match (u.gregorian_ticks(), u.clock_seq()) {
                (Some(t), Some(seq)) => Uuid::from_v1_parts(t, seq, *node),
                _ => unreachable!("a v1 UUID has a timestamp and a clock sequence"),
            }
        }

        /// A v7 UUID for the given time: its Unix milliseconds (rounded down) and 74 random
        /// bits. Unlike [`Uuid::now_v7`] there is no counter, so two UUIDs of the same
        /// millisecond are not ordered by creation.
        ///
        /// # Panics
        ///
        /// When `ts` is outside the 48-bit millisecond field (before 1970 or after
        /// 10889-08-02T05:31:50.655Z); [`Uuid::checked_new_v7`] returns `None` instead.
        ///
        /// ```
        /// use uuidkit::{Timestamp, Uuid};
        /// let t = Timestamp::from_unix_millis(1645557742000);
        /// let u = Uuid::new_v7(t);
        /// assert_eq!((u.version_num(), u.timestamp()), (7, Some(t)));
        /// ```
        pub fn new_v7(ts: Timestamp) -> Uuid {
            match Uuid::checked_new_v7(ts) {
                Some(u) => u,
                None => panic!("uuidkit::Uuid::new_v7: {ts} is outside v7's 48-bit milliseconds"),
            }
        }

        /// [`Uuid::new_v7`], or `None` when `ts` is outside the 48-bit millisecond field.
        ///
        /// ```
        /// use uuidkit::{Timestamp, Uuid};
        /// let before_1970 = Timestamp::from_unix(-1, 0).unwrap();
        /// assert_eq!(Uuid::checked_new_v7(before_1970), None);
        /// assert!(Uuid::checked_new_v7(Timestamp::from_unix_millis(0)).is_some());
        /// ```
        pub fn checked_new_v7(ts: Timestamp) -> Option<Uuid> {
            let ms = ts.unix_millis().filter(|&ms| ms < 1 << 48)?;
            // The 122 random bits of a v4: those under rand_a and rand_b are all random.
            let r = crate::v4().as_u128();
            Some(Uuid::from_v7_parts(
                ms,
                (r >> 64) as u16 & 0x0fff,
                r as u64 & ((1 << 62) - 1),
            ))
        }
    }

    impl TryFrom<String> for Uuid {
        type Error = Error;
        /// Parses any of the four text forms (as `str::parse`).
        ///
        /// ```
        /// let u = uuidkit::Uuid::try_from(String::from("{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}"))?;
        /// assert_eq!(u, uuidkit::Uuid::NAMESPACE_DNS);
        /// # Ok::<(), uuidkit::Error>(())
        /// ```
        fn try_from(s: String) -> Result<Uuid, Error> {
            Uuid::try_parse(&s)
        }
    }

    impl From<Uuid> for String {
        /// The lower-case hyphenated form (as `to_string()`).
        fn from(u: Uuid) -> String {
            u.to_string()
        }
    }

    impl From<Uuid> for Vec<u8> {
        /// The 16 bytes in network order.
        ///
        /// ```
        /// assert_eq!(Vec::from(uuidkit::Uuid::MAX), vec![0xff; 16]);
        /// ```
        fn from(u: Uuid) -> Vec<u8> {
            u.as_bytes().to_vec()
        }
    }
}

#[cfg(feature = "uuid")]
mod conversions {
    //! Conversions to and from the `uuid` crate's type (feature `uuid`, `no_std`).
    //!
    //! Both types are 16 bytes in network order (RFC 9562 §4), so the conversions are
    //! lossless copies in both directions: every bit, including version and variant, is kept
    //! as it is. (There is deliberately no `PartialEq` between the two types: it would make
    //! `a == b.into()` ambiguous in code that compiles today.)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_slice_takes_only_16_bytes() {
        let bytes: Vec<u8> = (0u8..40).collect();
        for n in 0..bytes.len() {
            let r = Uuid::from_slice(&bytes[..n]);
            if n == 16 {
                assert_eq!(r.map(|u| u.into_bytes().to_vec()), Ok(bytes[..16].to_vec()));
            } else {
                let e = r.unwrap_err();
                assert!(e.is_length(), "{n}: {e}");
                assert_eq!(
                    e.to_string(),
                    format!("invalid length: expected 16 bytes, found {n}")
                );
                assert!(Uuid::try_from(&bytes[..n]).is_err());
                assert!(Uuid::from_slice_le(&bytes[..n]).is_err());
            }
        }
    }

    #[test]
    fn from_slice_le_swaps_the_first_three_fields() {
        let u = Uuid::from_slice_le(&[
            0x10, 0xb8, 0xa7, 0x6b, 0xad, 0x9d, 0xd1, 0x11, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4,
            0x30, 0xc8,
        ]);
        assert_eq!(u, Ok(Uuid::NAMESPACE_DNS));
    }

    #[cfg(feature = "std")]
    #[test]
    fn string_and_vec_conversions_round_trip() {
        let u = Uuid::new_v4();
        let s = String::from(u);
        assert_eq!(Uuid::try_from(s.clone()), Ok(u));
        assert_eq!(Uuid::try_from(s.as_str()), Ok(u));
        assert_eq!(Uuid::try_from(Vec::from(u).as_slice()), Ok(u));
        assert!(Uuid::try_from(String::from("not a uuid")).is_err());
    }

    #[cfg(feature = "std")]
    #[test]
    fn generators_under_the_uuid_crate_names() {
        let node = [0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf5];
        let (a1, b1) = (Uuid::now_v1(&node), Uuid::now_v1(&node));
        assert_eq!((a1.version_num(), a1.node()), (1, Some(node)));
        assert!(a1.gregorian_ticks() < b1.gregorian_ticks());
        let (a6, b6) = (Uuid::now_v6(&node), Uuid::now_v6(&node));
        assert_eq!((a6.version_num(), a6.node()), (6, Some(node)));
        assert!(a6 < b6);
        let (a7, b7) = (Uuid::now_v7(), Uuid::now_v7());
        assert!(a7.version_num() == 7 && a7 < b7);
        assert_ne!(Uuid::new_v4(), Uuid::new_v4());
    }

    #[cfg(feature = "std")]
    #[test]
    fn new_v7_keeps_the_millisecond_and_randomises_the_rest() {
        use crate::Timestamp;
        let last = Timestamp::from_unix_millis((1 << 48) - 1);
        let t = Timestamp::from_unix(1_645_557_742, 123_456_789).unwrap();
        let (a, b) = (Uuid::new_v7(t), Uuid::new_v7(t));
        assert_eq!(a.unix_ts_ms(), Some(1_645_557_742_123));
        assert_eq!(a.unix_ts_ms(), b.unix_ts_ms());
        assert_ne!(a, b);
        assert_eq!(Uuid::new_v7(last).unix_ts_ms(), Some((1 << 48) - 1));
        let past = last.checked_add_nanos(1_000_000).unwrap();
        assert_eq!(Uuid::checked_new_v7(past), None);
        assert!(std::panic::catch_unwind(|| Uuid::new_v7(past)).is_err());
    }
}

//! The UUID value: 16 octets in network byte order (RFC 9562 §4), its variant and version, and
//! the fields of each layout (§5).

use crate::timestamp::Timestamp;

/// A UUID: 128 bits kept as 16 bytes in network (big-endian) order.
///
/// `Ord` is unsigned octet-by-octet order, which is RFC 4530 `uuidOrderingMatch` and RFC 4122's
/// `uuid_compare`; for v6 and v7 it is also creation order.
///
/// Trait implementations that optional features add are each marked with their feature in the
/// documentation, except the derived ones: with `zerocopy`, zerocopy's `FromBytes`,
/// `IntoBytes`, `KnownLayout`, `Immutable` and `Unaligned` (and `TryFromBytes`, which
/// `FromBytes` implies); with `diesel`, diesel's `AsExpression` and `FromSqlRow` (and the
/// `Nullable` and `Queryable` forms they bring).
///
/// ```
/// use uuidkit::{Uuid, Version};
/// let u = Uuid::parse_str("017f22e2-79b0-7cc3-98c4-dc0c0c07398f").unwrap();
/// assert_eq!(u.version(), Some(Version::SortRand));
/// assert_eq!(u.unix_ts_ms(), Some(0x017f22e279b0));
/// assert!(Uuid::NIL < u && u < Uuid::MAX);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
// Feature `zerocopy`: zero-copy casts from and to bytes (src/integrations/mod.rs).
#[cfg_attr(
    feature = "zerocopy",
    derive(
        zerocopy::FromBytes,
        zerocopy::IntoBytes,
        zerocopy::KnownLayout,
        zerocopy::Immutable,
        zerocopy::Unaligned
    )
)]
// Feature `diesel`: a column and bind type for `Binary` (and with `diesel-postgres`, PostgreSQL
// `uuid`) columns, `Option<Uuid>` for their `Nullable` forms (src/integrations/diesel.rs).
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Binary)
)]
#[cfg_attr(
    feature = "diesel-postgres",
    diesel(sql_type = diesel::sql_types::Uuid)
)]
#[repr(transparent)]
pub struct Uuid([u8; 16]);

/// The variant field (RFC 9562 §4.1, Table 1, with erratum 7958).
///
/// ```
/// use uuidkit::{Uuid, Variant};
/// // Source: RFC 9562 §4.1, Table 1 (octet 8 selects the variant).
/// let v = |b: u8| Uuid::from_u128((b as u128) << 56).variant();
/// assert_eq!((v(0x7f), v(0x80), v(0xc0), v(0xe0)),
///            (Variant::Ncs, Variant::Rfc9562, Variant::Microsoft, Variant::Future));
/// assert_eq!(Variant::Rfc9562.as_str(), "rfc9562");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `0xxx`: reserved, NCS backward compatibility (octet 8 is 0x00–0x7F). Nil is of this variant.
    Ncs,
    /// `10xx`: the variant RFC 9562 (and RFC 4122) specifies.
    Rfc9562,
    /// `110x`: reserved, Microsoft backward compatibility.
    Microsoft,
    /// `111x`: reserved for future definition. Max is of this variant.
    Future,
}

impl Variant {
    /// The lower-case name used in JSON output: `ncs`, `rfc9562`, `microsoft`, `future`.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// assert_eq!(Uuid::NAMESPACE_DNS.variant().as_str(), "rfc9562");
    /// assert_eq!(Uuid::NIL.variant().as_str(), "ncs");
    /// assert_eq!(Uuid::MAX.variant().as_str(), "future");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Variant::Ncs => "ncs",
            Variant::Rfc9562 => "rfc9562",
            Variant::Microsoft => "microsoft",
            Variant::Future => "future",
        }
    }
}

/// The versions RFC 9562 defines (§4.2, Table 2).
///
/// ```
/// use uuidkit::{Uuid, Version};
/// assert_eq!(Uuid::NAMESPACE_DNS.version(), Some(Version::Mac));
/// assert_eq!(Version::from_u8(7), Some(Version::SortRand));
/// assert_eq!(Version::SortRand.as_u8(), 7);
/// assert_eq!(Version::from_u8(9), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Version {
    /// Version 1: Gregorian time and node (§5.1).
    Mac = 1,
    /// Version 2: DCE Security, reserved by RFC 9562; layout from DCE 1.1.
    Dce = 2,
    /// Version 3: name-based, MD5 (§5.3).
    Md5 = 3,
    /// Version 4: random (§5.4).
    Random = 4,
    /// Version 5: name-based, SHA-1 (§5.5).
    Sha1 = 5,
    /// Version 6: reordered Gregorian time (§5.6).
    SortMac = 6,
    /// Version 7: Unix epoch time in milliseconds and random (§5.7).
    SortRand = 7,
    /// Version 8: custom (§5.8).
    Custom = 8,
}

impl Version {
    /// The version from its number, if RFC 9562 defines it (1 to 8).
    ///
    /// ```
    /// use uuidkit::Version;
    /// assert_eq!(Version::from_u8(1), Some(Version::Mac));
    /// assert_eq!(Version::from_u8(8), Some(Version::Custom));
    /// assert_eq!(Version::from_u8(0), None);
    /// ```
    pub const fn from_u8(n: u8) -> Option<Version> {
        Some(match n {
            1 => Version::Mac,
            2 => Version::Dce,
            3 => Version::Md5,
            4 => Version::Random,
            5 => Version::Sha1,
            6 => Version::SortMac,
            7 => Version::SortRand,
            8 => Version::Custom,
            _ => return None,
        })
    }
    /// The version number, 1 to 8.
    ///
    /// ```
    /// use uuidkit::{Uuid, Version};
    /// assert_eq!(Version::Sha1.as_u8(), 5);
    /// assert_eq!(Uuid::NAMESPACE_DNS.version().map(Version::as_u8), Some(1));
    /// ```
    pub const fn as_u8(self) -> u8 {
        self as u8
    }
}

/// What a UUID is, in one word: the special values, a defined version, or unknown.
///
/// ```
/// use uuidkit::{Kind, Uuid, Version};
/// assert_eq!(Uuid::NIL.kind(), Kind::Nil);
/// assert_eq!(Uuid::MAX.kind().as_str(), "max");
/// assert_eq!(Uuid::NAMESPACE_URL.kind(), Kind::Version(Version::Mac));
/// assert_eq!(Uuid::from_u128(1).kind(), Kind::Unknown); // NCS variant
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The Nil UUID, all zeros (§5.9).
    Nil,
    /// The Max UUID, all ones (§5.10).
    Max,
    /// An RFC 9562 variant UUID of a defined version.
    Version(Version),
    /// Anything else: other variants, or versions 0 and 9–15.
    Unknown,
}

impl Kind {
    /// `nil`, `max`, `v1` … `v8` or `unknown`.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// assert_eq!(Uuid::NIL.kind().as_str(), "nil");
    /// // Source: RFC 9562 Appendix A.6.
    /// assert_eq!(Uuid::parse_str("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")?.kind().as_str(), "v7");
    /// assert_eq!(Uuid::from_u128(1).kind().as_str(), "unknown");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Nil => "nil",
            Kind::Max => "max",
            Kind::Version(v) => match v {
                Version::Mac => "v1",
                Version::Dce => "v2",
                Version::Md5 => "v3",
                Version::Random => "v4",
                Version::Sha1 => "v5",
                Version::SortMac => "v6",
                Version::SortRand => "v7",
                Version::Custom => "v8",
            },
            Kind::Unknown => "unknown",
        }
    }
}

/// The local domain of a DCE Security (version 2) UUID.
///
/// ```
/// use uuidkit::{Domain, Uuid};
/// let u = Uuid::from_v2_parts(0, 0, Domain::Group, 1000, [0; 6]);
/// assert_eq!(u.local_domain(), Some(Domain::Group));
/// assert_eq!(u.local_id(), Some(1000));
/// assert_eq!(Domain::from_u8(7), Domain::Other(7));
/// assert_eq!(Domain::Group.as_str(), "group");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Domain {
    /// 0: a POSIX user id.
    Person,
    /// 1: a POSIX group id.
    Group,
    /// 2: an organisation.
    Org,
    /// Any other byte value.
    Other(u8),
}

impl Domain {
    /// The domain from its byte.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// assert_eq!(Domain::from_u8(0), Domain::Person);
    /// assert_eq!(Domain::from_u8(2), Domain::Org);
    /// assert_eq!(Domain::from_u8(9), Domain::Other(9));
    /// ```
    pub const fn from_u8(b: u8) -> Domain {
        match b {
            0 => Domain::Person,
            1 => Domain::Group,
            2 => Domain::Org,
            b => Domain::Other(b),
        }
    }
    /// The domain's byte.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// assert_eq!(Domain::Group.as_u8(), 1);
    /// assert_eq!(Domain::Other(9).as_u8(), 9);
    /// ```
    pub const fn as_u8(self) -> u8 {
        match self {
            Domain::Person => 0,
            Domain::Group => 1,
            Domain::Org => 2,
            Domain::Other(b) => b,
        }
    }
    /// `person`, `group`, `org`, or `other`.
    ///
    /// ```
    /// use uuidkit::Domain;
    /// assert_eq!(Domain::Person.as_str(), "person");
    /// assert_eq!(Domain::Other(9).as_str(), "other");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Domain::Person => "person",
            Domain::Group => "group",
            Domain::Org => "org",
            Domain::Other(_) => "other",
        }
    }
}

const fn be48(b: &[u8; 16], at: usize) -> u64 {
    ((b[at] as u64) << 40)
        | ((b[at + 1] as u64) << 32)
        | ((b[at + 2] as u64) << 24)
        | ((b[at + 3] as u64) << 16)
        | ((b[at + 4] as u64) << 8)
        | (b[at + 5] as u64)
}

const fn be32(b: &[u8; 16], at: usize) -> u32 {
    ((b[at] as u32) << 24)
        | ((b[at + 1] as u32) << 16)
        | ((b[at + 2] as u32) << 8)
        | b[at + 3] as u32
}

const fn be16(b: &[u8; 16], at: usize) -> u16 {
    ((b[at] as u16) << 8) | b[at + 1] as u16
}

const fn be64(b: &[u8; 16], at: usize) -> u64 {
    ((be32(b, at) as u64) << 32) | be32(b, at + 4) as u64
}

impl Uuid {
    /// The Nil UUID, all 128 bits zero (RFC 9562 §5.9).
    ///
    /// ```
    /// assert_eq!(uuidkit::Uuid::NIL.to_string(), "00000000-0000-0000-0000-000000000000");
    /// ```
    pub const NIL: Uuid = Uuid([0; 16]);
    /// The Max UUID, all 128 bits one (RFC 9562 §5.10).
    ///
    /// ```
    /// assert_eq!(uuidkit::Uuid::MAX.to_string(), "ffffffff-ffff-ffff-ffff-ffffffffffff");
    /// ```
    pub const MAX: Uuid = Uuid([0xff; 16]);
    /// Name space ID for fully qualified domain names (RFC 9562 §6.6).
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.4.
    /// let u = uuidkit::Uuid::new_v5(&uuidkit::Uuid::NAMESPACE_DNS, b"www.example.com");
    /// assert_eq!(u.to_string(), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
    /// ```
    pub const NAMESPACE_DNS: Uuid = Uuid::from_u128(0x6ba7b810_9dad_11d1_80b4_00c04fd430c8);
    /// Name space ID for URLs (RFC 9562 §6.6).
    ///
    /// ```
    /// // Source: RFC 9562 §6.6, Table 3.
    /// assert_eq!(uuidkit::Uuid::NAMESPACE_URL.to_string(), "6ba7b811-9dad-11d1-80b4-00c04fd430c8");
    /// ```
    pub const NAMESPACE_URL: Uuid = Uuid::from_u128(0x6ba7b811_9dad_11d1_80b4_00c04fd430c8);
    /// Name space ID for ISO OIDs (RFC 9562 §6.6).
    ///
    /// ```
    /// // Source: RFC 9562 §6.6, Table 3.
    /// assert_eq!(uuidkit::Uuid::NAMESPACE_OID.to_string(), "6ba7b812-9dad-11d1-80b4-00c04fd430c8");
    /// ```
    pub const NAMESPACE_OID: Uuid = Uuid::from_u128(0x6ba7b812_9dad_11d1_80b4_00c04fd430c8);
    /// Name space ID for X.500 DNs in DER or text (RFC 9562 §6.6).
    ///
    /// ```
    /// // Source: RFC 9562 §6.6, Table 3.
    /// assert_eq!(uuidkit::Uuid::NAMESPACE_X500.to_string(), "6ba7b814-9dad-11d1-80b4-00c04fd430c8");
    /// ```
    pub const NAMESPACE_X500: Uuid = Uuid::from_u128(0x6ba7b814_9dad_11d1_80b4_00c04fd430c8);

    /// A UUID from its 16 bytes in network order.
    ///
    /// ```
    /// let u = uuidkit::Uuid::from_bytes([0xff; 16]);
    /// assert_eq!(u, uuidkit::Uuid::MAX);
    /// ```
    pub const fn from_bytes(bytes: [u8; 16]) -> Uuid {
        Uuid(bytes)
    }

    /// A UUID from a 128-bit integer, most significant bit first (RFC 9562 Figure 3).
    ///
    /// ```
    /// assert_eq!(uuidkit::Uuid::from_u128(0).as_u128(), 0);
    /// ```
    pub const fn from_u128(v: u128) -> Uuid {
        Uuid(v.to_be_bytes())
    }

    /// A UUID from its high and low 64 bits.
    ///
    /// ```
    /// let u = uuidkit::Uuid::from_u64_pair(1, 2);
    /// assert_eq!(u.as_u64_pair(), (1, 2));
    /// ```
    pub const fn from_u64_pair(high: u64, low: u64) -> Uuid {
        Uuid::from_u128(((high as u128) << 64) | low as u128)
    }

    /// A UUID from the RFC 4122 fields: `time_low`, `time_mid`, `time_hi_and_version`, and the
    /// 8 bytes `clock_seq_hi_and_reserved`, `clock_seq_low`, `node[6]`.
    ///
    /// ```
    /// let u = uuidkit::Uuid::from_fields(0x6ba7b810, 0x9dad, 0x11d1, [0x80, 0xb4, 0, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]);
    /// assert_eq!(u, uuidkit::Uuid::NAMESPACE_DNS);
    /// ```
    pub const fn from_fields(d1: u32, d2: u16, d3: u16, d4: [u8; 8]) -> Uuid {
        let a = d1.to_be_bytes();
        let b = d2.to_be_bytes();
        let c = d3.to_be_bytes();
        Uuid([
            a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], d4[0], d4[1], d4[2], d4[3], d4[4],
            d4[5], d4[6], d4[7],
        ])
    }

    /// The 16 bytes in network order.
    ///
    /// ```
    /// let u = uuidkit::Uuid::NAMESPACE_DNS;
    /// assert_eq!(u.as_bytes()[..4], [0x6b, 0xa7, 0xb8, 0x10]);
    /// assert_eq!(uuidkit::Uuid::from_bytes(u.into_bytes()), u);
    /// ```
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// The 16 bytes in network order, by value.
    ///
    /// ```
    /// let b = uuidkit::Uuid::NAMESPACE_DNS.into_bytes();
    /// assert_eq!(b, 0x6ba7b810_9dad_11d1_80b4_00c04fd430c8u128.to_be_bytes());
    /// ```
    pub const fn into_bytes(self) -> [u8; 16] {
        self.0
    }

    /// The UUID as a 128-bit unsigned integer (RFC 9562 Figure 3).
    ///
    /// ```
    /// let u = uuidkit::Uuid::NAMESPACE_DNS;
    /// assert_eq!(u.as_u128(), 0x6ba7b810_9dad_11d1_80b4_00c04fd430c8);
    /// ```
    pub const fn as_u128(&self) -> u128 {
        u128::from_be_bytes(self.0)
    }

    /// The high and low 64 bits.
    ///
    /// ```
    /// let (high, low) = uuidkit::Uuid::NAMESPACE_DNS.as_u64_pair();
    /// assert_eq!((high, low), (0x6ba7b810_9dad_11d1, 0x80b4_00c0_4fd4_30c8));
    /// ```
    pub const fn as_u64_pair(&self) -> (u64, u64) {
        let v = self.as_u128();
        ((v >> 64) as u64, v as u64)
    }

    /// The RFC 4122 fields, as taken by [`Uuid::from_fields`].
    ///
    /// ```
    /// let (d1, d2, d3, d4) = uuidkit::Uuid::NAMESPACE_DNS.as_fields();
    /// assert_eq!((d1, d2, d3), (0x6ba7b810, 0x9dad, 0x11d1));
    /// assert_eq!(d4, [0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]);
    /// ```
    pub const fn as_fields(&self) -> (u32, u16, u16, [u8; 8]) {
        let b = &self.0;
        (
            be32(b, 0),
            be16(b, 4),
            be16(b, 6),
            [b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]],
        )
    }

    /// Whether this is the Nil UUID.
    ///
    /// ```
    /// assert!(uuidkit::Uuid::NIL.is_nil() && !uuidkit::Uuid::MAX.is_nil());
    /// ```
    pub const fn is_nil(&self) -> bool {
        self.as_u128() == 0
    }

    /// Whether this is the Max UUID.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// assert!(Uuid::MAX.is_max() && Uuid::from_bytes([0xff; 16]).is_max());
    /// assert!(!Uuid::NIL.is_max());
    /// ```
    pub const fn is_max(&self) -> bool {
        self.as_u128() == u128::MAX
    }

    /// The variant (RFC 9562 §4.1).
    ///
    /// ```
    /// use uuidkit::{Uuid, Variant};
    /// assert_eq!(Uuid::NIL.variant(), Variant::Ncs);
    /// assert_eq!(Uuid::MAX.variant(), Variant::Future);
    /// assert_eq!(Uuid::NAMESPACE_DNS.variant(), Variant::Rfc9562);
    /// ```
    pub const fn variant(&self) -> Variant {
        let b = self.0[8];
        if b & 0x80 == 0 {
            Variant::Ncs
        } else if b & 0x40 == 0 {
            Variant::Rfc9562
        } else if b & 0x20 == 0 {
            Variant::Microsoft
        } else {
            Variant::Future
        }
    }

    /// The 4-bit version field, whatever the variant.
    ///
    /// ```
    /// // Version 7 in the field, but the NCS variant: `version()` says None, the field says 7.
    /// let u = uuidkit::Uuid::from_u128(0x7 << 76);
    /// assert_eq!((u.version_num(), u.version()), (7, None));
    /// ```
    pub const fn version_num(&self) -> u8 {
        self.0[6] >> 4
    }

    /// The version, when the variant is RFC 9562's and the version is one it defines.
    ///
    /// ```
    /// use uuidkit::{Uuid, Version};
    /// assert_eq!(Uuid::NAMESPACE_URL.version(), Some(Version::Mac));
    /// assert_eq!(Uuid::NIL.version(), None);
    /// ```
    pub const fn version(&self) -> Option<Version> {
        match self.variant() {
            Variant::Rfc9562 => Version::from_u8(self.version_num()),
            _ => None,
        }
    }

    /// Nil, Max, a defined version, or unknown.
    ///
    /// ```
    /// assert_eq!(uuidkit::Uuid::NIL.kind(), uuidkit::Kind::Nil);
    /// ```
    pub const fn kind(&self) -> Kind {
        if self.is_nil() {
            Kind::Nil
        } else if self.is_max() {
            Kind::Max
        } else {
            match self.version() {
                Some(v) => Kind::Version(v),
                None => Kind::Unknown,
            }
        }
    }

    // ---- v1 / v6 / v2 -------------------------------------------------------------------

    /// The 60-bit Gregorian timestamp (100-ns ticks since 1582-10-15) of a v1 or v6 UUID.
    ///
    /// ```
    /// let v1 = uuidkit::Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    /// assert_eq!(v1.gregorian_ticks(), Some(0x1EC9414C232AB00));
    /// ```
    pub const fn gregorian_ticks(&self) -> Option<u64> {
        match self.version() {
            Some(Version::Mac) => Some(self.v1_ticks()),
            Some(Version::SortMac) => Some(self.v6_ticks()),
            _ => None,
        }
    }

    const fn v1_ticks(&self) -> u64 {
        let b = &self.0;
        (((be16(b, 6) & 0x0fff) as u64) << 48) | ((be16(b, 4) as u64) << 32) | be32(b, 0) as u64
    }

    const fn v6_ticks(&self) -> u64 {
        let b = &self.0;
        ((be32(b, 0) as u64) << 28) | ((be16(b, 4) as u64) << 12) | (be16(b, 6) & 0x0fff) as u64
    }

    /// The 14-bit clock sequence of a v1 or v6 UUID.
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.1.
    /// let v1 = uuidkit::Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    /// assert_eq!(v1.clock_seq(), Some(0x33C8));
    /// assert_eq!(uuidkit::Uuid::NIL.clock_seq(), None);
    /// ```
    pub const fn clock_seq(&self) -> Option<u16> {
        match self.version() {
            Some(Version::Mac) | Some(Version::SortMac) => Some(be16(&self.0, 8) & 0x3fff),
            _ => None,
        }
    }

    /// The 48-bit node of a v1, v2 or v6 UUID.
    ///
    /// ```
    /// let v1 = uuidkit::Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    /// assert_eq!(v1.node(), Some([0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]));
    /// ```
    pub const fn node(&self) -> Option<[u8; 6]> {
        match self.version() {
            Some(Version::Mac) | Some(Version::SortMac) | Some(Version::Dce) => {
                let b = &self.0;
                Some([b[10], b[11], b[12], b[13], b[14], b[15]])
            }
            _ => None,
        }
    }

    /// The local domain of a v2 (DCE Security) UUID, from `clock_seq_low`.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // DCE 1.1 layout: uid 1000 in time_low, time_mid and time_hi from the RFC 9562 Appendix A.1
    /// // timestamp, clock sequence 0x2A, domain 0 (person) in clock_seq_low, the A.1 node.
    /// let v2 = Uuid::parse_str("000003e8-9414-21ec-aa00-9f6bdeced846")?;
    /// assert_eq!(v2.local_domain(), Some(uuidkit::Domain::Person));
    /// assert_eq!(Uuid::NAMESPACE_DNS.local_domain(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn local_domain(&self) -> Option<Domain> {
        match self.version() {
            Some(Version::Dce) => Some(Domain::from_u8(self.0[9])),
            _ => None,
        }
    }

    /// The 32-bit local identifier (POSIX uid or gid) of a v2 UUID, from `time_low`.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // DCE 1.1 layout: uid 1000 in time_low, time_mid and time_hi from the RFC 9562 Appendix A.1
    /// // timestamp, clock sequence 0x2A, domain 0 (person) in clock_seq_low, the A.1 node.
    /// let v2 = Uuid::parse_str("000003e8-9414-21ec-aa00-9f6bdeced846")?;
    /// assert_eq!(v2.local_id(), Some(1000));
    /// assert_eq!(Uuid::NAMESPACE_DNS.local_id(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn local_id(&self) -> Option<u32> {
        match self.version() {
            Some(Version::Dce) => Some(be32(&self.0, 0)),
            _ => None,
        }
    }

    /// The coarse Gregorian timestamp of a v2 UUID: the upper 28 bits of the 60-bit time
    /// (the low 32 bits, taken by the local id, read as zero; a step is about 429.5 s).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // DCE 1.1 layout: uid 1000 in time_low, time_mid and time_hi from the RFC 9562 Appendix A.1
    /// // timestamp, clock sequence 0x2A, domain 0 (person) in clock_seq_low, the A.1 node.
    /// let v2 = Uuid::parse_str("000003e8-9414-21ec-aa00-9f6bdeced846")?;
    /// // The A.1 timestamp 0x1EC9414C232AB00 with its low 32 bits read as zero.
    /// assert_eq!(v2.v2_ticks(), Some(0x1EC9414_0000_0000));
    /// assert_eq!(Uuid::NAMESPACE_DNS.v2_ticks(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn v2_ticks(&self) -> Option<u64> {
        match self.version() {
            Some(Version::Dce) => {
                let b = &self.0;
                Some((((be16(b, 6) & 0x0fff) as u64) << 48) | ((be16(b, 4) as u64) << 32))
            }
            _ => None,
        }
    }

    /// The 6-bit clock sequence of a v2 UUID (its low byte holds the domain).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // DCE 1.1 layout: uid 1000 in time_low, time_mid and time_hi from the RFC 9562 Appendix A.1
    /// // timestamp, clock sequence 0x2A, domain 0 (person) in clock_seq_low, the A.1 node.
    /// let v2 = Uuid::parse_str("000003e8-9414-21ec-aa00-9f6bdeced846")?;
    /// // Octet 8 is 0xAA: variant bits 0b10, then the 6-bit clock sequence 0x2A.
    /// assert_eq!(v2.v2_clock_seq(), Some(0x2A));
    /// assert_eq!(Uuid::NAMESPACE_DNS.v2_clock_seq(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn v2_clock_seq(&self) -> Option<u8> {
        match self.version() {
            Some(Version::Dce) => Some(self.0[8] & 0x3f),
            _ => None,
        }
    }

    // ---- v7 / v8 ------------------------------------------------------------------------

    /// The 48-bit `unix_ts_ms` of a v7 UUID.
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.6.
    /// let v7 = uuidkit::Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").unwrap();
    /// assert_eq!(v7.unix_ts_ms(), Some(0x017F22E279B0));
    /// assert_eq!(v7.rand_a(), Some(0xCC3));
    /// assert_eq!(v7.rand_b(), Some(0x18C4DC0C0C07398F));
    /// ```
    pub const fn unix_ts_ms(&self) -> Option<u64> {
        match self.version() {
            Some(Version::SortRand) => Some(be48(&self.0, 0)),
            _ => None,
        }
    }

    /// The 12-bit `rand_a` of a v7 UUID.
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.6.
    /// let v7 = uuidkit::Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")?;
    /// assert_eq!(v7.rand_a(), Some(0xCC3));
    /// assert_eq!(uuidkit::Uuid::NAMESPACE_DNS.rand_a(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn rand_a(&self) -> Option<u16> {
        match self.version() {
            Some(Version::SortRand) => Some(be16(&self.0, 6) & 0x0fff),
            _ => None,
        }
    }

    /// The 62-bit `rand_b` of a v7 UUID.
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.6 (rand_b is 0b01 then 0x8C4DC0C0C07398F).
    /// let v7 = uuidkit::Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")?;
    /// assert_eq!(v7.rand_b(), Some(0x18C4DC0C0C07398F));
    /// assert_eq!(uuidkit::Uuid::NAMESPACE_DNS.rand_b(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn rand_b(&self) -> Option<u64> {
        match self.version() {
            Some(Version::SortRand) => Some(be64(&self.0, 8) & 0x3fff_ffff_ffff_ffff),
            _ => None,
        }
    }

    /// The 48-bit `custom_a` of a v8 UUID.
    ///
    /// ```
    /// let u = uuidkit::Uuid::from_v8_parts(0x123456789abc, 0xdef, 42);
    /// assert_eq!((u.custom_a(), u.custom_b(), u.custom_c()), (Some(0x123456789abc), Some(0xdef), Some(42)));
    /// ```
    pub const fn custom_a(&self) -> Option<u64> {
        match self.version() {
            Some(Version::Custom) => Some(be48(&self.0, 0)),
            _ => None,
        }
    }

    /// The 12-bit `custom_b` of a v8 UUID.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // Source: RFC 9562 Appendix B.1 and B.2.
    /// assert_eq!(Uuid::parse_str("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0")?.custom_b(), Some(0xE00));
    /// assert_eq!(Uuid::parse_str("5c146b14-3c52-8afd-938a-375d0df1fbf6")?.custom_b(), Some(0xAFD));
    /// assert_eq!(Uuid::NAMESPACE_DNS.custom_b(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn custom_b(&self) -> Option<u16> {
        match self.version() {
            Some(Version::Custom) => Some(be16(&self.0, 6) & 0x0fff),
            _ => None,
        }
    }

    /// The 62-bit `custom_c` of a v8 UUID.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // Source: RFC 9562 Appendix B.1 (0b00, 0xEC932D5F69181C0) and B.2 (0b01, 0x38a375d0df1fbf6).
    /// let b1 = Uuid::parse_str("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0")?;
    /// let b2 = Uuid::parse_str("5c146b14-3c52-8afd-938a-375d0df1fbf6")?;
    /// assert_eq!(b1.custom_c(), Some(0x0EC932D5F69181C0));
    /// assert_eq!(b2.custom_c(), Some(0x138A375D0DF1FBF6));
    /// assert_eq!(Uuid::NAMESPACE_DNS.custom_c(), None); // v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn custom_c(&self) -> Option<u64> {
        match self.version() {
            Some(Version::Custom) => Some(be64(&self.0, 8) & 0x3fff_ffff_ffff_ffff),
            _ => None,
        }
    }

    /// The time a v1, v2 (coarse), v6 or v7 UUID carries.
    ///
    /// ```
    /// let v7 = uuidkit::Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").unwrap();
    /// assert_eq!(v7.timestamp().unwrap().unix_millis(), Some(1645557742000));
    /// ```
    pub const fn timestamp(&self) -> Option<Timestamp> {
        match self.version() {
            Some(Version::Mac) => Some(Timestamp::from_gregorian_ticks(self.v1_ticks())),
            Some(Version::SortMac) => Some(Timestamp::from_gregorian_ticks(self.v6_ticks())),
            Some(Version::SortRand) => Some(Timestamp::from_unix_millis(be48(&self.0, 0))),
            Some(Version::Dce) => match self.v2_ticks() {
                Some(t) => Some(Timestamp::from_gregorian_ticks(t)),
                None => None,
            },
            _ => None,
        }
    }

    // ---- builders from layout fields ----------------------------------------------------

    /// Sets the version nibble and the RFC 9562 variant bits on any 16 bytes.
    ///
    /// ```
    /// use uuidkit::{Uuid, Version};
    /// let u = Uuid::from_bytes([0xff; 16]).with_version(Version::Random);
    /// assert_eq!(u.to_string(), "ffffffff-ffff-4fff-bfff-ffffffffffff");
    /// ```
    pub const fn with_version(self, version: Version) -> Uuid {
        // On the whole 128-bit value: editing octets 6 and 8 one by one compiles to a byte
        // shuffle through the stack, which costs as much as the rest of a v4 together.
        const VERSION: u128 = 0xf << 76;
        const VARIANT: u128 = 0x3 << 62;
        let set = ((version as u128) << 76) | (0x2 << 62);
        Uuid::from_u128((self.as_u128() & !(VERSION | VARIANT)) | set)
    }

    /// A v1 UUID from its 60-bit Gregorian timestamp, 14-bit clock sequence and node.
    /// Bits beyond each field's width are ignored.
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.1.
    /// let u = uuidkit::Uuid::from_v1_parts(0x1EC9414C232AB00, 0x33C8, [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]);
    /// assert_eq!(u.to_string(), "c232ab00-9414-11ec-b3c8-9f6bdeced846");
    /// ```
    pub const fn from_v1_parts(ticks: u64, clock_seq: u16, node: [u8; 6]) -> Uuid {
        let time_low = ticks as u32;
        let time_mid = (ticks >> 32) as u16;
        let time_hi = ((ticks >> 48) as u16 & 0x0fff) | 0x1000;
        Uuid::from_fields(time_low, time_mid, time_hi, clock_seq_node(clock_seq, node))
    }

    /// A v6 UUID from its 60-bit Gregorian timestamp, 14-bit clock sequence and node.
    ///
    /// ```
    /// // Source: RFC 9562 Appendix A.5.
    /// let u = uuidkit::Uuid::from_v6_parts(0x1EC9414C232AB00, 0x33C8, [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]);
    /// assert_eq!(u.to_string(), "1ec9414c-232a-6b00-b3c8-9f6bdeced846");
    /// ```
    pub const fn from_v6_parts(ticks: u64, clock_seq: u16, node: [u8; 6]) -> Uuid {
        let ticks = ticks & 0x0fff_ffff_ffff_ffff;
        let time_high = (ticks >> 28) as u32;
        let time_mid = (ticks >> 12) as u16;
        let time_low = (ticks as u16 & 0x0fff) | 0x6000;
        Uuid::from_fields(
            time_high,
            time_mid,
            time_low,
            clock_seq_node(clock_seq, node),
        )
    }

    /// A v2 (DCE Security) UUID: the upper 28 bits of the 60-bit timestamp, a 6-bit clock
    /// sequence, the local domain and id, and the node.
    ///
    /// ```
    /// use uuidkit::{Domain, Uuid};
    /// // The RFC 9562 Appendix A.1 timestamp and node, clock sequence 0x2A, uid 1000: DCE 1.1 puts
    /// // the uid in time_low (dropping the timestamp's low 32 bits) and the domain in clock_seq_low.
    /// let node = [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46];
    /// let u = Uuid::from_v2_parts(0x1EC9414C232AB00, 0x2A, Domain::Person, 1000, node);
    /// assert_eq!(u.to_string(), "000003e8-9414-21ec-aa00-9f6bdeced846");
    /// ```
    pub const fn from_v2_parts(
        ticks: u64,
        clock_seq: u8,
        domain: Domain,
        local_id: u32,
        node: [u8; 6],
    ) -> Uuid {
        let time_mid = (ticks >> 32) as u16;
        let time_hi = ((ticks >> 48) as u16 & 0x0fff) | 0x2000;
        Uuid::from_fields(
            local_id,
            time_mid,
            time_hi,
            [
                (clock_seq & 0x3f) | 0x80,
                domain.as_u8(),
                node[0],
                node[1],
                node[2],
                node[3],
                node[4],
                node[5],
            ],
        )
    }

    /// A v7 UUID from `unix_ts_ms` (48 bits), `rand_a` (12 bits) and `rand_b` (62 bits).
    ///
    /// ```
    /// let u = uuidkit::Uuid::from_v7_parts(0x017F22E279B0, 0xCC3, 0x18C4DC0C0C07398F);
    /// assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// ```
    pub const fn from_v7_parts(unix_ts_ms: u64, rand_a: u16, rand_b: u64) -> Uuid {
        Uuid::from_u128(
            ((unix_ts_ms as u128 & 0xffff_ffff_ffff) << 80)
                | (0x7 << 76)
                | ((rand_a as u128 & 0xfff) << 64)
                | (0b10 << 62)
                | (rand_b as u128 & 0x3fff_ffff_ffff_ffff),
        )
    }

    /// A v8 UUID from `custom_a` (48 bits), `custom_b` (12 bits) and `custom_c` (62 bits).
    ///
    /// ```
    /// // Source: RFC 9562 Appendix B.1.
    /// let u = uuidkit::Uuid::from_v8_parts(0x2489E9AD2EE2, 0xE00, 0x0EC932D5F69181C0);
    /// assert_eq!(u.to_string(), "2489e9ad-2ee2-8e00-8ec9-32d5f69181c0");
    /// ```
    pub const fn from_v8_parts(custom_a: u64, custom_b: u16, custom_c: u64) -> Uuid {
        Uuid::from_u128(
            ((custom_a as u128 & 0xffff_ffff_ffff) << 80)
                | (0x8 << 76)
                | ((custom_b as u128 & 0xfff) << 64)
                | (0b10 << 62)
                | (custom_c as u128 & 0x3fff_ffff_ffff_ffff),
        )
    }

    /// The v6 UUID with the same timestamp, clock sequence and node as this v1 UUID
    /// (RFC 9562 §5.6); `None` if this is not a v1 UUID.
    ///
    /// ```
    /// let v1 = uuidkit::Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").unwrap();
    /// let v6 = v1.to_v6().unwrap();
    /// assert_eq!(v6.to_string(), "1ec9414c-232a-6b00-b3c8-9f6bdeced846");
    /// assert_eq!(v6.to_v1(), Some(v1));
    /// ```
    pub const fn to_v6(&self) -> Option<Uuid> {
        match self.version() {
            Some(Version::Mac) => {
                let mut out = Uuid::from_v6_parts(self.v1_ticks(), 0, [0; 6]).0;
                let mut i = 8;
                while i < 16 {
                    out[i] = self.0[i];
                    i += 1;
                }
                Some(Uuid(out))
            }
            _ => None,
        }
    }

    /// The v1 UUID with the same timestamp, clock sequence and node as this v6 UUID;
    /// `None` if this is not a v6 UUID.
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // Source: RFC 9562 Appendix A.5 (v6) and A.1 (v1): the same time, clock sequence and node.
    /// let v6 = Uuid::parse_str("1EC9414C-232A-6B00-B3C8-9F6BDECED846")?;
    /// assert_eq!(v6.to_v1(), Some(Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846")?));
    /// assert_eq!(Uuid::NAMESPACE_DNS.to_v1(), None); // already v1
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    pub const fn to_v1(&self) -> Option<Uuid> {
        match self.version() {
            Some(Version::SortMac) => {
                let mut out = Uuid::from_v1_parts(self.v6_ticks(), 0, [0; 6]).0;
                let mut i = 8;
                while i < 16 {
                    out[i] = self.0[i];
                    i += 1;
                }
                Some(Uuid(out))
            }
            _ => None,
        }
    }
}

const fn clock_seq_node(clock_seq: u16, node: [u8; 6]) -> [u8; 8] {
    [
        ((clock_seq >> 8) as u8 & 0x3f) | 0x80,
        clock_seq as u8,
        node[0],
        node[1],
        node[2],
        node[3],
        node[4],
        node[5],
    ]
}

impl From<[u8; 16]> for Uuid {
    fn from(b: [u8; 16]) -> Self {
        Uuid(b)
    }
}

impl From<Uuid> for [u8; 16] {
    fn from(u: Uuid) -> Self {
        u.0
    }
}

impl From<u128> for Uuid {
    fn from(v: u128) -> Self {
        Uuid::from_u128(v)
    }
}

impl From<Uuid> for u128 {
    fn from(u: Uuid) -> Self {
        u.as_u128()
    }
}

impl AsRef<[u8]> for Uuid {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl core::fmt::Debug for Uuid {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(self, f)
    }
}

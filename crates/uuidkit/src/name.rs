//! Name-based UUIDs (RFC 9562 §6.5): v3 (MD5, §5.3), v5 (SHA-1, §5.5), and v8 with a modern
//! hash as Appendix B.2 illustrates; plus the builder that turns 16 random bytes into a v4.
//!
//! All of them hash the namespace's 16 bytes in network order followed by the name's octets,
//! take the leftmost 128 bits of the digest, and overwrite the version and variant bits. No
//! allocation, no OS: available without the `std` feature.
//!
//! Each hash is compiled only with its feature (`v3`: MD5, `v5`: SHA-1, `v8-sha2`: SHA-256 and
//! SHA-512, `v8-sha3`: SHA3-256 and SHAKE128; all on by default): [`Uuid::new_v3`] and
//! [`Uuid::new_v5`] exist only with theirs, each [`NameHash`] variant only with its own, and
//! [`Uuid::new_v8_name`] with either v8 feature. [`NameHash`] and its parser are always there,
//! so that a name read from input that names a compiled-out hash gets an error saying which
//! feature it needs.

use core::fmt;
use core::str::FromStr;

#[cfg(any(
    feature = "v3",
    feature = "v5",
    feature = "v8-sha2",
    feature = "v8-sha3"
))]
use digest::Digest;

use crate::{Uuid, Version};

/// The leftmost 128 bits of `D(namespace ‖ name)`.
#[cfg(any(
    feature = "v3",
    feature = "v5",
    feature = "v8-sha2",
    feature = "v8-sha3"
))]
fn digest_prefix<D: Digest>(namespace: &Uuid, name: &[u8]) -> [u8; 16] {
    let mut h = D::new();
    Digest::update(&mut h, namespace.as_bytes());
    Digest::update(&mut h, name);
    let full = h.finalize();
    let mut out = [0u8; 16];
    // Every digest used here is at least 16 bytes long; `zip` stops at the shorter anyway.
    for (o, d) in out.iter_mut().zip(full.iter()) {
        *o = *d;
    }
    out
}

/// The hash of a name-based version 8 UUID (RFC 9562 §5.5, Appendix B.2).
///
/// RFC 9562 requires name-based UUIDs built with a hash other than MD5 or SHA-1 to be v8 and
/// leaves the choice of hash to the implementation; the hash is not recorded in the UUID, so
/// the same namespace and name give different UUIDs under different hashes and nothing tells
/// them apart afterwards.
///
/// Each variant exists only with its feature: `Sha256` and `Sha512` with `v8-sha2`, `Sha3_256`
/// and `Shake128` with `v8-sha3` (both on by default). The enum is `#[non_exhaustive]`, so that
/// a feature turned on elsewhere in the dependency graph cannot break a `match`. Parsing the
/// name of a compiled-out hash fails with an error that names the feature
/// ([`ParseNameHashError::missing_feature`]).
///
/// ```
/// use uuidkit::NameHash;
/// let h: NameHash = "sha3-256".parse()?;
/// assert_eq!(h, NameHash::Sha3_256);
/// assert_eq!(h.to_string(), "sha3-256");
/// assert!("md5".parse::<NameHash>().is_err());
/// # Ok::<(), uuidkit::ParseNameHashError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NameHash {
    /// SHA-256 (FIPS 180-4); the hash of the Appendix B.2 example. Feature `v8-sha2`.
    #[cfg(feature = "v8-sha2")]
    Sha256,
    /// SHA-512 (FIPS 180-4). Feature `v8-sha2`.
    #[cfg(feature = "v8-sha2")]
    Sha512,
    /// SHA3-256 (FIPS 202). Feature `v8-sha3`.
    #[cfg(feature = "v8-sha3")]
    Sha3_256,
    /// SHAKE128 (FIPS 202), read for 128 bits, the least the RFC allows. A longer read begins
    /// with the same 128 bits, so any output length ≥ 128 bits gives the same UUID. Feature
    /// `v8-sha3`.
    #[cfg(feature = "v8-sha3")]
    Shake128,
}

/// Every hash name the parser knows, with the feature that compiles it in, in the order the
/// parse error lists them.
const KNOWN: [(&str, &str); 4] = [
    ("sha256", "v8-sha2"),
    ("sha512", "v8-sha2"),
    ("sha3-256", "v8-sha3"),
    ("shake128", "v8-sha3"),
];

impl NameHash {
    /// Every hash compiled in, in the order the parse error lists them (all four with the
    /// default features).
    ///
    /// ```
    /// use uuidkit::NameHash;
    /// assert_eq!(NameHash::ALL.len(), 4);
    /// assert!(NameHash::ALL.iter().all(|h| h.as_str().parse() == Ok(*h)));
    /// ```
    pub const ALL: &'static [NameHash] = &[
        #[cfg(feature = "v8-sha2")]
        NameHash::Sha256,
        #[cfg(feature = "v8-sha2")]
        NameHash::Sha512,
        #[cfg(feature = "v8-sha3")]
        NameHash::Sha3_256,
        #[cfg(feature = "v8-sha3")]
        NameHash::Shake128,
    ];

    /// The name the parser accepts: `sha256`, `sha512`, `sha3-256`, `shake128`.
    ///
    /// ```
    /// use uuidkit::NameHash;
    /// assert_eq!(NameHash::Sha3_256.as_str(), "sha3-256");
    /// assert_eq!("SHAKE128".parse::<NameHash>().map(NameHash::as_str), Ok("shake128"));
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            #[cfg(feature = "v8-sha2")]
            NameHash::Sha256 => "sha256",
            #[cfg(feature = "v8-sha2")]
            NameHash::Sha512 => "sha512",
            #[cfg(feature = "v8-sha3")]
            NameHash::Sha3_256 => "sha3-256",
            #[cfg(feature = "v8-sha3")]
            NameHash::Shake128 => "shake128",
        }
    }

    /// The leftmost 128 bits of this hash over `namespace ‖ name`.
    #[cfg(any(feature = "v8-sha2", feature = "v8-sha3"))]
    fn prefix(self, namespace: &Uuid, name: &[u8]) -> [u8; 16] {
        match self {
            #[cfg(feature = "v8-sha2")]
            NameHash::Sha256 => digest_prefix::<sha2::Sha256>(namespace, name),
            #[cfg(feature = "v8-sha2")]
            NameHash::Sha512 => digest_prefix::<sha2::Sha512>(namespace, name),
            #[cfg(feature = "v8-sha3")]
            NameHash::Sha3_256 => digest_prefix::<sha3::Sha3_256>(namespace, name),
            #[cfg(feature = "v8-sha3")]
            NameHash::Shake128 => {
                use digest::{ExtendableOutput, Update, XofReader};
                let mut h = sha3::Shake128::default();
                Update::update(&mut h, namespace.as_bytes());
                Update::update(&mut h, name);
                let mut out = [0u8; 16];
                h.finalize_xof().read(&mut out);
                out
            }
        }
    }
}

impl fmt::Display for NameHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much of an unknown hash name the error keeps for its message.
const ECHO_LEN: usize = 32;

/// The error for a hash name [`NameHash`] does not know, or knows but was compiled without.
///
/// Its message quotes the name (up to 32 bytes) and lists the accepted ones (those compiled
/// in); for a known hash whose feature is off it names the feature instead:
///
/// ```
/// let e = "sha-1".parse::<uuidkit::NameHash>().unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "unknown name hash \"sha-1\": expected sha256, sha512, sha3-256 or shake128"
/// );
/// assert_eq!(e.missing_feature(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseNameHashError {
    echo: [u8; ECHO_LEN],
    echo_len: usize,
    truncated: bool,
    /// The feature that would compile in the named hash, when the name is a known one.
    missing_feature: Option<&'static str>,
}

impl ParseNameHashError {
    fn new(input: &str, missing_feature: Option<&'static str>) -> ParseNameHashError {
        // Cut at a character boundary so that the echo stays valid UTF-8.
        let mut len = input.len().min(ECHO_LEN);
        while !input.is_char_boundary(len) {
            len -= 1;
        }
        let mut echo = [0u8; ECHO_LEN];
        echo[..len].copy_from_slice(&input.as_bytes()[..len]);
        ParseNameHashError {
            echo,
            echo_len: len,
            truncated: len < input.len(),
            missing_feature,
        }
    }

    /// The rejected name, cut to its first 32 bytes.
    ///
    /// ```
    /// let e = "sha-1".parse::<uuidkit::NameHash>().unwrap_err();
    /// assert_eq!(e.input(), "sha-1");
    /// let long = "x".repeat(40).parse::<uuidkit::NameHash>().unwrap_err();
    /// assert_eq!(long.input(), "x".repeat(32));
    /// ```
    pub fn input(&self) -> &str {
        core::str::from_utf8(&self.echo[..self.echo_len]).unwrap_or("")
    }

    /// The uuidkit feature (`"v8-sha2"` or `"v8-sha3"`) that compiles in the hash the input
    /// names, when the input is the name of a hash this build left out; `None` for a name no
    /// build knows.
    ///
    /// ```
    /// // With the default features every hash is compiled in.
    /// assert!("sha256".parse::<uuidkit::NameHash>().is_ok());
    /// assert_eq!("sha-256".parse::<uuidkit::NameHash>().unwrap_err().missing_feature(), None);
    /// ```
    pub fn missing_feature(&self) -> Option<&'static str> {
        self.missing_feature
    }
}

impl fmt::Display for ParseNameHashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(feature) = self.missing_feature {
            return write!(
                f,
                "name hash {:?} is not compiled in: it needs uuidkit's feature `{feature}`",
                self.input()
            );
        }
        write!(f, "unknown name hash {:?}", self.input())?;
        if self.truncated {
            f.write_str(" (cut)")?;
        }
        match NameHash::ALL {
            [] => f.write_str(": no name hash is compiled in (features `v8-sha2`, `v8-sha3`)"),
            [only] => write!(f, ": expected {only}"),
            [init @ .., last] => {
                f.write_str(": expected ")?;
                for (i, h) in init.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(h.as_str())?;
                }
                write!(f, " or {last}")
            }
        }
    }
}

impl core::error::Error for ParseNameHashError {}

impl FromStr for NameHash {
    type Err = ParseNameHashError;

    /// Reads `sha256`, `sha512`, `sha3-256` or `shake128`, in any ASCII case. A known name
    /// whose feature is off is an error that names the feature.
    fn from_str(s: &str) -> Result<NameHash, ParseNameHashError> {
        if let Some(h) = NameHash::ALL
            .iter()
            .find(|h| h.as_str().eq_ignore_ascii_case(s))
        {
            return Ok(*h);
        }
        let missing = KNOWN
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(s))
            .map(|(_, feature)| *feature);
        Err(ParseNameHashError::new(s, missing))
    }
}

impl Uuid {
    /// A version 3 UUID: MD5 of the namespace and the name (RFC 9562 §5.3).
    ///
    /// Prefer [`Uuid::new_v5`] (§5.3: "Where possible, UUIDv5 SHOULD be used in lieu of
    /// UUIDv3"). The name must already be in its namespace's canonical form (§6.5).
    /// Feature `v3` (default).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // RFC 9562 Appendix A.2
    /// let u = Uuid::new_v3(&Uuid::NAMESPACE_DNS, b"www.example.com");
    /// assert_eq!(u.to_string(), "5df41881-3aed-3515-88a7-2f4a814cf09e");
    /// ```
    #[cfg(feature = "v3")]
    pub fn new_v3(namespace: &Uuid, name: &[u8]) -> Uuid {
        Uuid::from_bytes(digest_prefix::<md5::Md5>(namespace, name)).with_version(Version::Md5)
    }

    /// A version 5 UUID: the leftmost 128 bits of SHA-1 of the namespace and the name
    /// (RFC 9562 §5.5). Feature `v5` (default).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // RFC 9562 Appendix A.4
    /// let u = Uuid::new_v5(&Uuid::NAMESPACE_DNS, b"www.example.com");
    /// assert_eq!(u.to_string(), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
    /// ```
    #[cfg(feature = "v5")]
    pub fn new_v5(namespace: &Uuid, name: &[u8]) -> Uuid {
        Uuid::from_bytes(digest_prefix::<sha1::Sha1>(namespace, name)).with_version(Version::Sha1)
    }

    /// A name-based version 8 UUID: the leftmost 128 bits of `hash` over the namespace and the
    /// name, with version 8 and the variant set (RFC 9562 §5.8, §6.5, Appendix B.2). Feature
    /// `v8-sha2` or `v8-sha3` (both default), for the hashes each compiles in.
    ///
    /// ```
    /// use uuidkit::{NameHash, Uuid};
    /// // RFC 9562 Appendix B.2
    /// let u = Uuid::new_v8_name(NameHash::Sha256, &Uuid::NAMESPACE_DNS, b"www.example.com");
    /// assert_eq!(u.to_string(), "5c146b14-3c52-8afd-938a-375d0df1fbf6");
    /// ```
    #[cfg(any(feature = "v8-sha2", feature = "v8-sha3"))]
    pub fn new_v8_name(hash: NameHash, namespace: &Uuid, name: &[u8]) -> Uuid {
        Uuid::from_bytes(hash.prefix(namespace, name)).with_version(Version::Custom)
    }

    /// A version 4 UUID from 16 random bytes: the version and variant bits are overwritten,
    /// the other 122 bits kept (RFC 9562 §5.4). The bytes must come from a CSPRNG (§6.9).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// // RFC 9562 Appendix A.3
    /// let random = 0x919108F752D133205BACF847DB4148A8u128.to_be_bytes();
    /// let u = Uuid::new_v4_from_bytes(random);
    /// assert_eq!(u.to_string(), "919108f7-52d1-4320-9bac-f847db4148a8");
    /// ```
    pub const fn new_v4_from_bytes(bytes: [u8; 16]) -> Uuid {
        Uuid::from_bytes(bytes).with_version(Version::Random)
    }
}

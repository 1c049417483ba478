//! TypeID (the jetify-com/typeid specification, version 0.3.0): a type prefix, `_`, and the
//! UUID as 26 characters of lower-case base32 (`0123456789abcdefghjkmnpqrstvwxyz`,
//! right-aligned, so the first character is at most `7`), e.g.
//! `user_01h455vb4pex5vsknk084sn02q`. With an empty prefix there is no `_`.
//!
//! [`TypeId`] holds any valid prefix (inline: `no_std`, no allocation) and a [`Uuid`];
//! [`TypedId`] fixes the prefix in the type, through a [`TypeIdPrefix`], so that a `UserId`
//! cannot be read from an `order_…` string. Reading is strict: exactly the spec's alphabet, in
//! lower case, nothing else; an error names the rule broken and the byte.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

use crate::diagnose::char_error;
use crate::error::{Detail, Error, Expected, PrefixRule};
use crate::fmt::pad;
use crate::short::{decode32_right, encode32_right, TYPEID_DECODE, TYPEID_PAIRS as PAIRS};
use crate::Uuid;

/// The longest TypeID prefix the spec allows.
pub const MAX_PREFIX_LEN: usize = 63;

/// The longest TypeID: a 63-character prefix, `_` and the 26-character suffix.
pub const MAX_TYPEID_LEN: usize = MAX_PREFIX_LEN + 1 + 26;

/// A stack buffer large enough for any TypeID.
pub type TypeIdBuffer = [u8; MAX_TYPEID_LEN];

/// The first problem of `s` as a TypeID prefix (spec v0.3.0: at most 63 characters of `a`-`z`
/// and `_`, neither first nor last a `_`), positions offset by `at`.
const fn check_prefix(s: &[u8], at: usize) -> Option<Error> {
    let mut i = 0;
    while i < s.len() {
        if i == MAX_PREFIX_LEN {
            return Some(prefix_error(PrefixRule::TooLong { len: s.len() }, at + i));
        }
        let c = s[i];
        if !(c.is_ascii_lowercase() || c == b'_') {
            // The character as written (decoded from UTF-8 where it is valid).
            let ch = match char_error(s, i, Expected::TypeIdSuffix).detail {
                Detail::Char { ch, .. } => ch,
                _ => None,
            };
            return Some(prefix_error(PrefixRule::Char { ch, byte: c }, at + i));
        }
        if c == b'_' && i == 0 {
            return Some(prefix_error(PrefixRule::Leading, at));
        }
        i += 1;
    }
    if i > 0 && s[i - 1] == b'_' {
        return Some(prefix_error(PrefixRule::Trailing, at + i - 1));
    }
    None
}

const fn prefix_error(rule: PrefixRule, pos: usize) -> Error {
    Error::new(Detail::TypeIdPrefix { rule }, pos)
}

/// A valid TypeID prefix, stored inline (up to 63 bytes; `no_std`, no allocation).
///
/// ```
/// use uuidkit::Prefix;
/// assert_eq!(Prefix::new("user")?.as_str(), "user");
/// assert!(Prefix::new("").unwrap().is_empty());
/// let e = Prefix::new("User").unwrap_err();
/// assert_eq!(e.to_string(), "invalid character 'U' at byte 0 in a TypeID prefix: expected a-z or '_'");
/// # Ok::<(), uuidkit::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Prefix {
    len: u8,
    bytes: [u8; MAX_PREFIX_LEN],
}

impl Prefix {
    /// The empty prefix (a TypeID of it has no `_`).
    pub const EMPTY: Prefix = Prefix {
        len: 0,
        bytes: [0; MAX_PREFIX_LEN],
    };

    /// Checks `s` against the spec's rules: at most 63 characters, only `a`-`z` and `_`, not
    /// starting or ending with `_` (empty is allowed).
    ///
    /// ```
    /// use uuidkit::Prefix;
    /// assert!(Prefix::new("pre_fix").is_ok());
    /// assert_eq!(Prefix::new("_user").unwrap_err().to_string(),
    ///            "invalid TypeID prefix at byte 0: it starts with '_' (a prefix starts and ends with a-z)");
    /// assert!(Prefix::new(&"a".repeat(64)).unwrap_err().is_prefix());
    /// ```
    pub const fn new(s: &str) -> Result<Prefix, Error> {
        match check_prefix(s.as_bytes(), 0) {
            Some(e) => Err(e),
            None => Ok(Prefix::from_valid(s.as_bytes())),
        }
    }

    /// A prefix from bytes already checked.
    const fn from_valid(s: &[u8]) -> Prefix {
        let mut bytes = [0u8; MAX_PREFIX_LEN];
        let mut i = 0;
        while i < s.len() && i < MAX_PREFIX_LEN {
            bytes[i] = s[i];
            i += 1;
        }
        Prefix {
            len: i as u8,
            bytes,
        }
    }

    /// The prefix's bytes.
    pub const fn as_bytes(&self) -> &[u8] {
        match self.bytes.split_at_checked(self.len as usize) {
            Some((head, _)) => head,
            None => &self.bytes,
        }
    }

    /// The prefix.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.as_bytes()) {
            Ok(s) => s,
            // Unreachable: only ASCII letters and `_` are ever stored.
            Err(_) => "",
        }
    }

    /// Its length in bytes (at most 63).
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// The empty prefix.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl PartialEq for Prefix {
    fn eq(&self, other: &Prefix) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}
impl Eq for Prefix {}
impl Hash for Prefix {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_bytes().hash(h)
    }
}
impl PartialOrd for Prefix {
    fn partial_cmp(&self, other: &Prefix) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Prefix {
    fn cmp(&self, other: &Prefix) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}
impl fmt::Debug for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
impl fmt::Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}
impl core::str::FromStr for Prefix {
    type Err = Error;
    fn from_str(s: &str) -> Result<Prefix, Error> {
        Prefix::new(s)
    }
}

/// Reads the 26-character suffix starting at `at` in `s` (the rest of `s`).
#[inline]
const fn parse_suffix(s: &[u8], at: usize) -> Result<Uuid, Error> {
    let suffix = match s.split_at_checked(at) {
        Some((_, rest)) => rest,
        None => &[],
    };
    if let Some((a, [])) = suffix.split_first_chunk::<26>() {
        if let Some(v) = decode32_right(a, &TYPEID_DECODE) {
            return Ok(Uuid::from_u128(v));
        }
    } else {
        let found = suffix.len();
        let pos = at + if found > 26 { 26 } else { found };
        return Err(Error::new(Detail::SuffixLength { found }, pos));
    }
    let mut p = at;
    while p < s.len() {
        if TYPEID_DECODE[s[p] as usize] == 0xff {
            return Err(char_error(s, p, Expected::TypeIdSuffix));
        }
        p += 1;
    }
    Err(Error::new(
        Detail::TooLarge {
            max: "7zzzzzzzzzzzzzzzzzzzzzzzzz",
            first: Some(b'7'),
        },
        at,
    ))
}

/// Where the suffix starts: after the last `_`, or at 0 when there is none.
const fn split(s: &[u8]) -> Option<usize> {
    let mut i = s.len();
    while i > 0 {
        i -= 1;
        if s[i] == b'_' {
            return Some(i);
        }
    }
    None
}

/// A TypeID: a [`Prefix`] and a [`Uuid`].
///
/// ```
/// use uuidkit::{Prefix, TypeId, Uuid};
/// // Source: the TypeID spec v0.3.0, valid.yml, "valid-uuidv7".
/// let t: TypeId = "prefix_01h455vb4pex5vsknk084sn02q".parse()?;
/// assert_eq!(t.prefix().as_str(), "prefix");
/// assert_eq!(t.uuid().to_string(), "01890a5d-ac96-774b-bcce-b302099a8057");
/// assert_eq!(t.to_string(), "prefix_01h455vb4pex5vsknk084sn02q");
///
/// let e = TypeId::parse(b"prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz").unwrap_err();
/// assert_eq!(e.to_string(), "value too large at byte 7: a UUID is at most \
///     \"7zzzzzzzzzzzzzzzzzzzzzzzzz\" (the first character at most '7')");
/// let e = TypeId::parse(b"prefix_01H455VB4PEX5VSKNK084SN02Q").unwrap_err();
/// assert_eq!(e.to_string(), "invalid character 'H' at byte 9: expected a TypeID suffix character \
///     (0-9, a-z without i, l, o, u)");
/// assert_eq!(TypeId::new(Prefix::EMPTY, Uuid::MAX).to_string(), "7zzzzzzzzzzzzzzzzzzzzzzzzz");
/// # Ok::<(), uuidkit::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId {
    prefix: Prefix,
    uuid: Uuid,
}

impl TypeId {
    /// A TypeID of `uuid` with `prefix`.
    pub const fn new(prefix: Prefix, uuid: Uuid) -> TypeId {
        TypeId { prefix, uuid }
    }

    /// A new TypeID with a v7 UUID from the process-wide generator ([`crate::v7()`]), as the
    /// spec asks of generated TypeIDs.
    ///
    /// ```
    /// let p = uuidkit::Prefix::new("user")?;
    /// let t = uuidkit::TypeId::v7(p);
    /// assert_eq!(t.uuid().version_num(), 7);
    /// assert!(t.to_string().starts_with("user_0"));
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn v7(prefix: Prefix) -> TypeId {
        TypeId::new(prefix, crate::v7())
    }

    /// A new TypeID with the UUID of any generator, e.g. `|| g.next()` of a
    /// [`V7Generator`](crate::generator::V7Generator) built with its own policy; its error is
    /// passed on.
    ///
    /// ```
    /// use uuidkit::generator::{ThreadRng, V7Builder};
    /// let mut g = V7Builder::new().build(uuidkit::generator::clock::SystemClock, ThreadRng)?;
    /// let t = uuidkit::TypeId::generate(uuidkit::Prefix::new("order")?, || g.next())?;
    /// assert_eq!(t.prefix().as_str(), "order");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate<E>(
        prefix: Prefix,
        next: impl FnOnce() -> Result<Uuid, E>,
    ) -> Result<TypeId, E> {
        Ok(TypeId::new(prefix, next()?))
    }

    /// The prefix.
    pub const fn prefix(&self) -> &Prefix {
        &self.prefix
    }

    /// The UUID.
    pub const fn uuid(&self) -> Uuid {
        self.uuid
    }

    /// Reads a TypeID, strictly (spec v0.3.0): the prefix is everything before the last `_`
    /// (at most 63 characters of `a`-`z` and `_`, not starting or ending with `_`; no `_` at
    /// all for an empty prefix), the suffix exactly 26 characters of
    /// `0123456789abcdefghjkmnpqrstvwxyz` whose first is at most `7`. The error names the
    /// rule broken and the byte where it was found, the first problem from the left.
    ///
    /// ```
    /// use uuidkit::TypeId;
    /// let e = TypeId::parse(b"_01h455vb4pex5vsknk084sn02q").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid TypeID prefix at byte 0: an empty prefix is written without the '_'");
    /// let e = TypeId::parse(b"user_01h455vb4pex5vsknk084sn02").unwrap_err();
    /// assert_eq!(e.to_string(), "invalid length of the TypeID suffix at byte 30: expected 26 characters, found 25");
    /// ```
    pub const fn parse(s: &[u8]) -> Result<TypeId, Error> {
        let (prefix, at) = match split(s) {
            None => (Prefix::EMPTY, 0),
            Some(0) => return Err(prefix_error(PrefixRule::EmptyWithSeparator, 0)),
            Some(p) => {
                let (head, _) = s.split_at(p);
                if let Some(e) = check_prefix(head, 0) {
                    return Err(e);
                }
                (Prefix::from_valid(head), p + 1)
            }
        };
        match parse_suffix(s, at) {
            Ok(uuid) => Ok(TypeId { prefix, uuid }),
            Err(e) => Err(e),
        }
    }

    /// The 26-character suffix.
    ///
    /// ```
    /// use uuidkit::{Prefix, TypeId, Uuid};
    /// assert_eq!(&TypeId::new(Prefix::EMPTY, Uuid::from_u128(32)).suffix(), b"00000000000000000000000010");
    /// ```
    pub const fn suffix(&self) -> [u8; 26] {
        encode32_right(self.uuid.as_u128(), &PAIRS)
    }

    /// Writes the TypeID into `buf` and returns it (a prefix of `buf`).
    ///
    /// ```
    /// use uuidkit::{Prefix, TypeId, Uuid};
    /// let mut buf = [0u8; uuidkit::MAX_TYPEID_LEN];
    /// let t = TypeId::new(Prefix::new("user")?, Uuid::NIL);
    /// assert_eq!(t.encode(&mut buf), "user_00000000000000000000000000");
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    #[inline]
    pub fn encode<'b>(&self, buf: &'b mut TypeIdBuffer) -> &'b str {
        let n = encode_parts(self.prefix.as_bytes(), self.uuid, buf);
        let text = &buf[..n];
        debug_assert!(text.is_ascii());
        // SAFETY: the prefix is ASCII (checked when it was made), and so are `_` and the
        // suffix's alphabet.
        unsafe { core::str::from_utf8_unchecked(text) }
    }
}

/// Writes `prefix`, `_` (if the prefix is not empty) and the suffix of `uuid` at the start of
/// `buf`; returns the length. `prefix` is at most 63 bytes (a longer one is cut there).
#[inline]
pub(crate) fn encode_parts(prefix: &[u8], uuid: Uuid, buf: &mut TypeIdBuffer) -> usize {
    let n = prefix.len().min(MAX_PREFIX_LEN);
    let at = if n == 0 {
        0
    } else {
        buf[..n].copy_from_slice(&prefix[..n]);
        buf[n] = b'_';
        n + 1
    };
    if let Some(out) = buf.get_mut(at..).and_then(|b| b.first_chunk_mut::<26>()) {
        *out = encode32_right(uuid.as_u128(), &PAIRS);
    }
    at + 26
}

impl fmt::Display for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; MAX_TYPEID_LEN];
        pad(f, self.encode(&mut buf))
    }
}

#[cfg(feature = "std")]
impl TypeId {
    /// The TypeID in a new `String` of exactly its length: the same text as `Display` (and as
    /// [`ToString::to_string`], which this shadows), without the formatting machinery.
    ///
    /// ```
    /// let t: uuidkit::TypeId = "user_01h455vb4pex5vsknk084sn02q".parse()?;
    /// assert_eq!(t.to_string(), format!("{t}"));
    /// assert_eq!(t.to_string().capacity(), 31);
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    // The same text as `Display` by construction (the same encoder).
    #[allow(clippy::inherent_to_string_shadow_display)]
    pub fn to_string(&self) -> String {
        // Written straight into the one allocation: the prefix, `_`, and the 26 characters of
        // the suffix as one fixed-size copy (no stack buffer copied whole afterwards).
        let prefix = self.prefix.as_bytes();
        let mut v = Vec::with_capacity(prefix.len() + usize::from(!prefix.is_empty()) + 26);
        if !prefix.is_empty() {
            v.extend_from_slice(prefix);
            v.push(b'_');
        }
        v.extend_from_slice(&encode32_right(self.uuid.as_u128(), &PAIRS));
        debug_assert!(v.is_ascii());
        // SAFETY: the prefix is ASCII (checked when it was made), and so are `_` and the
        // suffix's alphabet.
        unsafe { String::from_utf8_unchecked(v) }
    }
}
impl fmt::Debug for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypeId({self})")
    }
}
impl core::str::FromStr for TypeId {
    type Err = Error;
    fn from_str(s: &str) -> Result<TypeId, Error> {
        TypeId::parse(s.as_bytes())
    }
}
impl TryFrom<&str> for TypeId {
    type Error = Error;
    fn try_from(s: &str) -> Result<TypeId, Error> {
        TypeId::parse(s.as_bytes())
    }
}
impl From<TypeId> for Uuid {
    fn from(t: TypeId) -> Uuid {
        t.uuid
    }
}

/// The prefix of a [`TypedId`]: one type per kind of identifier. Most easily made with
/// [`typeid_prefix!`](crate::typeid_prefix!), which also checks the prefix at compile time.
pub trait TypeIdPrefix {
    /// The prefix, by the spec's rules (a [`TypedId`] of an invalid one does not compile).
    const PREFIX: &'static str;
}

/// A TypeID whose prefix is fixed by the type `P`: a `TypedId<User>` reads only `user_…`
/// strings and is a different type from a `TypedId<Order>`.
///
/// ```
/// use uuidkit::{typeid_prefix, TypedId, Uuid};
/// typeid_prefix!(pub User = "user");
/// typeid_prefix!(pub Order = "order");
/// type UserId = TypedId<User>;
///
/// let id: UserId = "user_01h455vb4pex5vsknk084sn02q".parse()?;
/// assert_eq!(id.uuid().to_string(), "01890a5d-ac96-774b-bcce-b302099a8057");
/// assert_eq!(id.to_string(), "user_01h455vb4pex5vsknk084sn02q");
/// let e = "order_01h455vb4pex5vsknk084sn02q".parse::<UserId>().unwrap_err();
/// assert_eq!(e.to_string(), "wrong TypeID type at byte 0: expected the prefix \"user\"");
/// assert_eq!(TypedId::<Order>::new(Uuid::NIL).to_string(), "order_00000000000000000000000000");
/// # Ok::<(), uuidkit::Error>(())
/// ```
///
/// A prefix that breaks the spec's rules does not compile:
///
/// ```compile_fail
/// uuidkit::typeid_prefix!(Bad = "User");
/// let _ = uuidkit::TypedId::<Bad>::new(uuidkit::Uuid::NIL);
/// ```
pub struct TypedId<P> {
    uuid: Uuid,
    prefix: PhantomData<fn() -> P>,
}

impl<P: TypeIdPrefix> TypedId<P> {
    /// Fails to compile when `P::PREFIX` is not a valid prefix.
    const VALID: () = assert!(
        check_prefix(P::PREFIX.as_bytes(), 0).is_none(),
        "TypeIdPrefix::PREFIX breaks the TypeID spec's prefix rules"
    );

    /// A typed TypeID of `uuid`.
    pub const fn new(uuid: Uuid) -> Self {
        // Evaluated at compile time, for each `P` this is called with.
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        TypedId {
            uuid,
            prefix: PhantomData,
        }
    }

    /// A new one with a v7 UUID from the process-wide generator.
    #[cfg(feature = "std")]
    pub fn v7() -> Self {
        Self::new(crate::v7())
    }

    /// A new one with the UUID of any generator (see [`TypeId::generate`]).
    pub fn generate<E>(next: impl FnOnce() -> Result<Uuid, E>) -> Result<Self, E> {
        Ok(Self::new(next()?))
    }

    /// The UUID.
    pub const fn uuid(&self) -> Uuid {
        self.uuid
    }

    /// The untyped TypeID.
    pub const fn to_typeid(&self) -> TypeId {
        TypeId::new(Prefix::from_valid(P::PREFIX.as_bytes()), self.uuid)
    }

    /// Reads a TypeID with the prefix `P::PREFIX`: a malformed TypeID gets the error of
    /// [`TypeId::parse`], a well-formed one of another prefix a prefix error at byte 0
    /// ([`ErrorKind::Prefix`](crate::ErrorKind::Prefix)) naming the expected prefix.
    pub const fn parse(s: &[u8]) -> Result<Self, Error> {
        let n = P::PREFIX.len();
        let want = P::PREFIX.as_bytes();
        // The common case: the right prefix, then the suffix.
        let mut same = if n == 0 {
            split(s).is_none()
        } else {
            s.len() > n && s[n] == b'_'
        };
        let mut i = 0;
        while same && i < n {
            same = s[i] == want[i];
            i += 1;
        }
        if same {
            let at = if n == 0 { 0 } else { n + 1 };
            if let Ok(u) = parse_suffix(s, at) {
                return Ok(Self::new(u));
            }
            // Not this type's TypeID, or none at all (`user_a_…` is a valid TypeID of the
            // prefix `user_a`): the general reading says which.
        }
        match TypeId::parse(s) {
            Err(e) => Err(e),
            Ok(_) => Err(Error::new(
                Detail::WrongType {
                    expected: P::PREFIX,
                },
                0,
            )),
        }
    }

    /// Writes the TypeID into `buf` and returns it.
    pub fn encode<'b>(&self, buf: &'b mut TypeIdBuffer) -> &'b str {
        let n = encode_parts(P::PREFIX.as_bytes(), self.uuid, buf);
        let text = &buf[..n];
        debug_assert!(text.is_ascii());
        // SAFETY: `P::PREFIX` is checked ASCII (`VALID`, evaluated by `new`, the only way to
        // make a `TypedId`), and so are `_` and the suffix's alphabet.
        unsafe { core::str::from_utf8_unchecked(text) }
    }
}

impl<P> Clone for TypedId<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for TypedId<P> {}
impl<P> PartialEq for TypedId<P> {
    fn eq(&self, other: &Self) -> bool {
        self.uuid == other.uuid
    }
}
impl<P> Eq for TypedId<P> {}
impl<P> PartialOrd for TypedId<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<P> Ord for TypedId<P> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.uuid.cmp(&other.uuid)
    }
}
impl<P> Hash for TypedId<P> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.uuid.hash(h)
    }
}
impl<P: TypeIdPrefix> fmt::Display for TypedId<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; MAX_TYPEID_LEN];
        pad(f, self.encode(&mut buf))
    }
}
impl<P: TypeIdPrefix> fmt::Debug for TypedId<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypedId({self})")
    }
}
impl<P: TypeIdPrefix> core::str::FromStr for TypedId<P> {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s.as_bytes())
    }
}
impl<P: TypeIdPrefix> From<TypedId<P>> for TypeId {
    fn from(t: TypedId<P>) -> TypeId {
        t.to_typeid()
    }
}
impl<P> From<TypedId<P>> for Uuid {
    fn from(t: TypedId<P>) -> Uuid {
        t.uuid
    }
}

/// Defines a unit struct implementing [`TypeIdPrefix`]:
/// `typeid_prefix!(pub User = "user");` then `type UserId = uuidkit::TypedId<User>;`.
/// An invalid prefix fails to compile where a `TypedId` of it is made.
#[macro_export]
macro_rules! typeid_prefix {
    ($(#[$m:meta])* $vis:vis $name:ident = $prefix:literal) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        $vis struct $name;
        impl $crate::TypeIdPrefix for $name {
            const PREFIX: &'static str = $prefix;
        }
    };
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::{TypeId, TypeIdPrefix, TypedId, MAX_TYPEID_LEN};
    use ::serde::de::{self, Deserializer, Visitor};
    use ::serde::{Deserialize, Serialize, Serializer};
    use core::fmt;
    use core::marker::PhantomData;

    /// As its string, in every format.
    impl Serialize for TypeId {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut buf = [0u8; MAX_TYPEID_LEN];
            s.serialize_str(self.encode(&mut buf))
        }
    }
    impl<P: TypeIdPrefix> Serialize for TypedId<P> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut buf = [0u8; MAX_TYPEID_LEN];
            s.serialize_str(self.encode(&mut buf))
        }
    }

    struct V<T>(PhantomData<T>);
    impl<T> Visitor<'_> for V<T>
    where
        T: core::str::FromStr<Err = crate::Error>,
    {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a TypeID string")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            v.parse()
                .map_err(|e| E::custom(format_args!("invalid TypeID: {e}")))
        }
        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
            match core::str::from_utf8(v) {
                Ok(s) => self.visit_str(s),
                Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
            }
        }
    }
    impl<'de> Deserialize<'de> for TypeId {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_str(V(PhantomData))
        }
    }
    impl<'de, P: TypeIdPrefix> Deserialize<'de> for TypedId<P> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_str(V(PhantomData))
        }
    }
}

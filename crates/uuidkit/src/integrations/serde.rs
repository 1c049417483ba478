//! Serde support (feature `serde`, `no_std`): how a [`Uuid`] is written and read by serde
//! formats, and adapter modules that choose another representation field by field.
//!
//! By default a `Uuid` is the lower-case hyphenated string (RFC 9562 §4) in human-readable
//! formats (JSON, TOML, YAML, …) and its 16 bytes in network order in binary ones (postcard,
//! bincode, CBOR, …), chosen by [`Serializer::is_human_readable`]. Reading takes any of the
//! four text forms in either case (what [`Uuid::parse_str`] accepts) and the array of 16
//! integers that the `uuid` crate's `compact` adapter writes (human-readable formats are read
//! with `deserialize_any`); binary formats may also hand over 16 bytes or a sequence of 16
//! integers. A bad string fails with the parser's own
//! message, so the position of the bad byte reaches the user:
//!
//! ```
//! # use serde_json as json;
//! use uuidkit::Uuid;
//!
//! let u: Uuid = json::from_str("\"67E55044-10B1-426F-9247-BB680E5FE0C8\"")?;
//! assert_eq!(json::to_string(&u)?, "\"67e55044-10b1-426f-9247-bb680e5fe0c8\"");
//!
//! let e = json::from_str::<Uuid>("\"67e55044-x0b1-426f-9247-bb680e5fe0c8\"").unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "invalid UUID: invalid character 'x' at byte 9: expected a hexadecimal digit at line 1 column 38"
//! );
//! # Ok::<(), json::Error>(())
//! ```
//!
//! The adapter modules are for `#[serde(with = "…")]`:
//!
//! | module | writes (every format) | reads |
//! |---|---|---|
//! | [`hyphenated`] | `67e55044-10b1-426f-9247-bb680e5fe0c8` | any text form, bytes |
//! | [`simple`] | `67e5504410b1426f9247bb680e5fe0c8` | any text form, bytes |
//! | [`braced`] | `{67e55044-10b1-426f-9247-bb680e5fe0c8}` | any text form, bytes |
//! | [`urn`] | `urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8` | any text form, bytes |
//! | [`compact`] | a tuple of 16 bytes (no length prefix) | the same, bytes |
//! | [`ulid`] | `3BMYW137DD278R1D00R17X8C68` | that form only (either case) |
//! | [`base32hex`] | `DEJRG4CTLK8T305K0304VL1GP0` | that form only (either case) |
//! | [`base58`] | `EJ34kHLAEhmQsmG2ynFFJw` | that form only |
//! | [`base58_flickr`] | `ei34KhkaeGLpSLg2YMffiW` | that form only |
//! | [`base64url`] | `a6e4EZ2tEdGAtADAT9QwyA` | that form only |
//! | [`typeid`] | `3bmyw137dd278r1d00r17x8c68` (a TypeID without prefix) | that form only |
//!
//! A prefixed TypeID is a type of its own: [`TypeId`](crate::TypeId) and
//! [`TypedId`](crate::TypedId) serialize as their string.
//!
//! Each has an `option` submodule for `Option<Uuid>` fields (`None` is the format's null):
//! `#[serde(with = "uuidkit::serde::simple::option")]`. (A plain `Option<Uuid>` field needs no
//! adapter: it uses the default representation.)
//!
//! ```
//! # use serde_json as json;
//! use serde::{Deserialize, Serialize};
//! use uuidkit::Uuid;
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Row {
//!     id: Uuid,
//!     #[serde(with = "uuidkit::serde::simple")]
//!     parent: Uuid,
//!     #[serde(with = "uuidkit::serde::urn")]
//!     owner: Uuid,
//! }
//!
//! let row = Row { id: Uuid::NAMESPACE_DNS, parent: Uuid::NAMESPACE_URL, owner: Uuid::NIL };
//! let text = json::to_string(&row)?;
//! assert_eq!(
//!     text,
//!     r#"{"id":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","parent":"6ba7b8119dad11d180b400c04fd430c8","owner":"urn:uuid:00000000-0000-0000-0000-000000000000"}"#
//! );
//! assert_eq!(json::from_str::<Row>(&text)?, row);
//! # Ok::<(), json::Error>(())
//! ```

use core::fmt;

use ::serde::de::{self, Deserializer, SeqAccess, Visitor};
use ::serde::ser::{SerializeTuple, Serializer};
use ::serde::{Deserialize, Serialize};

use crate::{Case, Error, Format, Uuid};

/// Writes one text form as a string.
fn serialize_form<S: Serializer>(u: &Uuid, form: Format, s: S) -> Result<S::Ok, S::Error> {
    let mut buf = [0u8; crate::MAX_ENCODED_LEN];
    s.serialize_str(u.encode(form, Case::Lower, &mut buf))
}

/// Writes the 16 bytes as a fixed-size tuple: no length prefix in binary formats.
fn serialize_tuple<S: Serializer>(u: &Uuid, s: S) -> Result<S::Ok, S::Error> {
    let mut t = s.serialize_tuple(16)?;
    for b in u.as_bytes() {
        t.serialize_element(b)?;
    }
    t.end()
}

/// How an adapter writes the `Some` of an `Option<Uuid>`.
#[derive(Clone, Copy)]
enum Repr {
    Text(Format),
    Tuple,
}

/// A UUID to be written in a chosen representation (the inside of `Some`).
struct As<'a>(&'a Uuid, Repr);

impl Serialize for As<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            Repr::Text(form) => serialize_form(self.0, form, s),
            Repr::Tuple => serialize_tuple(self.0, s),
        }
    }
}

fn serialize_option<S: Serializer>(u: &Option<Uuid>, repr: Repr, s: S) -> Result<S::Ok, S::Error> {
    match u {
        Some(u) => s.serialize_some(&As(u, repr)),
        None => s.serialize_none(),
    }
}

/// Reads `None` (null, unit) or the UUID as the adapter reads it.
struct OptionVisitor(Repr);

impl<'de> Visitor<'de> for OptionVisitor {
    type Value = Option<Uuid>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an optional UUID")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<Uuid>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<Uuid>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Uuid>, D::Error> {
        match self.0 {
            Repr::Text(_) => Uuid::deserialize(d).map(Some),
            Repr::Tuple => d.deserialize_tuple(16, UuidVisitor).map(Some),
        }
    }
}

fn deserialize_option<'de, D: Deserializer<'de>>(
    d: D,
    repr: Repr,
) -> Result<Option<Uuid>, D::Error> {
    d.deserialize_option(OptionVisitor(repr))
}

/// The parser's error as a serde error message: `invalid UUID: <the parser's text>`.
struct Invalid(Error);

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid UUID: {}", self.0)
    }
}

/// Accepts every shape a UUID may arrive in, whatever the format asked for.
struct UuidVisitor;

impl<'de> Visitor<'de> for UuidVisitor {
    type Value = Uuid;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a UUID as a string (hyphenated, simple, braced or URN) or 16 bytes or integers",
        )
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Uuid, E> {
        Uuid::try_parse_ascii(v.as_bytes()).map_err(|e| E::custom(Invalid(e)))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Uuid, E> {
        match <[u8; 16]>::try_from(v) {
            Ok(b) => Ok(Uuid::from_bytes(b)),
            // A format without a string type may hand text over as bytes.
            Err(_) if v.len() >= 32 => Uuid::try_parse_ascii(v).map_err(|e| E::custom(Invalid(e))),
            Err(_) => Err(E::invalid_length(v.len(), &self)),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Uuid, A::Error> {
        let mut b = [0u8; 16];
        for (i, slot) in b.iter_mut().enumerate() {
            *slot = match seq.next_element()? {
                Some(x) => x,
                None => return Err(de::Error::invalid_length(i, &self)),
            };
        }
        // A longer sequence is an error, not silently cut.
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(17, &self));
        }
        Ok(Uuid::from_bytes(b))
    }
}

/// The hyphenated string in human-readable formats, 16 bytes in binary ones.
///
/// ```
/// let u = uuidkit::Uuid::NAMESPACE_DNS;
/// assert_eq!(serde_json::to_string(&u).unwrap(), "\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\"");
/// // postcard: a length byte, then the 16 bytes.
/// let bin = postcard::to_allocvec(&u).unwrap();
/// assert_eq!(bin.len(), 17);
/// assert_eq!(&bin[1..], u.as_bytes());
/// ```
impl Serialize for Uuid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            serialize_form(self, Format::Hyphenated, s)
        } else {
            s.serialize_bytes(self.as_bytes())
        }
    }
}

/// A string in any of the four text forms, or an array of 16 integers (what the `uuid`
/// crate's and uuidkit's `compact` adapters write), in human-readable formats; 16 bytes (or a
/// sequence of 16 integers, or text) in binary ones.
///
/// ```
/// use uuidkit::Uuid;
/// let a: Uuid = serde_json::from_str("\"{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}\"").unwrap();
/// assert_eq!(a, Uuid::NAMESPACE_DNS);
/// let c: Uuid = serde_json::from_str("[107,167,184,16,157,173,17,209,128,180,0,192,79,212,48,200]").unwrap();
/// assert_eq!(c, Uuid::NAMESPACE_DNS);
/// assert!(serde_json::from_str::<Uuid>("[107,167,184,16]").is_err());
/// let b: Uuid = postcard::from_bytes(&[&[16u8][..], Uuid::NAMESPACE_DNS.as_bytes()].concat()).unwrap();
/// assert_eq!(b, Uuid::NAMESPACE_DNS);
/// ```
impl<'de> Deserialize<'de> for Uuid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Uuid, D::Error> {
        if d.is_human_readable() {
            // A string or an array: the formats that say they are human-readable describe
            // themselves.
            d.deserialize_any(UuidVisitor)
        } else {
            d.deserialize_bytes(UuidVisitor)
        }
    }
}

macro_rules! text_adapter {
    ($name:ident, $form:expr, $example:literal) => {
        #[doc = concat!("Always the ", stringify!($name), " string, in every format: `", $example, "`.")]
        ///
        /// Reading accepts what [`Uuid`]'s own `Deserialize` accepts.
        ///
        /// ```
        /// #[derive(serde::Serialize, serde::Deserialize)]
        /// struct Row {
        #[doc = concat!("    #[serde(with = \"uuidkit::serde::", stringify!($name), "\")]")]
        ///     id: uuidkit::Uuid,
        /// }
        /// let text = serde_json::to_string(&Row { id: uuidkit::Uuid::NAMESPACE_URL }).unwrap();
        #[doc = concat!("assert_eq!(text, r#\"{\"id\":\"", $example, "\"}\"#);")]
        /// let back: Row = serde_json::from_str(&text).unwrap();
        /// assert_eq!(back.id, uuidkit::Uuid::NAMESPACE_URL);
        /// ```
        pub mod $name {
            use super::*;

            /// Writes the UUID in this module's form.
            ///
            /// ```
            /// use uuidkit::Uuid;
            #[doc = concat!("let v = uuidkit::serde::", stringify!($name), "::serialize(")]
            ///     &Uuid::NAMESPACE_URL,
            ///     serde_json::value::Serializer,
            /// )?;
            #[doc = concat!("assert_eq!(v, \"", $example, "\");")]
            /// # Ok::<(), serde_json::Error>(())
            /// ```
            pub fn serialize<S: Serializer>(u: &Uuid, s: S) -> Result<S::Ok, S::Error> {
                serialize_form(u, $form, s)
            }

            /// Reads a UUID in any text form (or as bytes).
            ///
            /// ```
            /// use serde_json::json;
            #[doc = concat!("use uuidkit::serde::", stringify!($name), ";")]
            /// use uuidkit::Uuid;
            /// let text = json!("URN:UUID:6BA7B811-9DAD-11D1-80B4-00C04FD430C8");
            #[doc = concat!("assert_eq!(", stringify!($name), "::deserialize(text)?, Uuid::NAMESPACE_URL);")]
            /// let text = json!("6ba7b8119dad11d180b400c04fd430c8");
            #[doc = concat!("assert_eq!(", stringify!($name), "::deserialize(text)?, Uuid::NAMESPACE_URL);")]
            /// # Ok::<(), serde_json::Error>(())
            /// ```
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Uuid, D::Error> {
                Uuid::deserialize(d)
            }

            #[doc = concat!("For `Option<Uuid>`: `None` is the format's null, `Some` the ", stringify!($name), " string.")]
            ///
            /// ```
            /// #[derive(serde::Serialize, serde::Deserialize)]
            /// struct Row {
            #[doc = concat!("    #[serde(with = \"uuidkit::serde::", stringify!($name), "::option\")]")]
            ///     parent: Option<uuidkit::Uuid>,
            /// }
            /// let text = serde_json::to_string(&Row { parent: Some(uuidkit::Uuid::NAMESPACE_URL) }).unwrap();
            #[doc = concat!("assert_eq!(text, r#\"{\"parent\":\"", $example, "\"}\"#);")]
            /// assert_eq!(serde_json::from_str::<Row>(&text).unwrap().parent, Some(uuidkit::Uuid::NAMESPACE_URL));
            /// let none = serde_json::to_string(&Row { parent: None }).unwrap();
            /// assert_eq!(none, r#"{"parent":null}"#);
            /// assert_eq!(serde_json::from_str::<Row>(&none).unwrap().parent, None);
            /// ```
            pub mod option {
                use super::super::{deserialize_option, serialize_option, Repr};
                use super::*;

                /// Writes `None` as null and `Some` in the parent module's form.
                pub fn serialize<S: Serializer>(u: &Option<Uuid>, s: S) -> Result<S::Ok, S::Error> {
                    serialize_option(u, Repr::Text($form), s)
                }

                /// Reads null as `None`, else a UUID as the parent module does.
                pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Uuid>, D::Error> {
                    deserialize_option(d, Repr::Text($form))
                }
            }
        }
    };
}

text_adapter!(
    hyphenated,
    Format::Hyphenated,
    "6ba7b811-9dad-11d1-80b4-00c04fd430c8"
);
text_adapter!(simple, Format::Simple, "6ba7b8119dad11d180b400c04fd430c8");
text_adapter!(
    braced,
    Format::Braced,
    "{6ba7b811-9dad-11d1-80b4-00c04fd430c8}"
);
text_adapter!(
    urn,
    Format::Urn,
    "urn:uuid:6ba7b811-9dad-11d1-80b4-00c04fd430c8"
);

/// Always the 16 bytes as a fixed-size tuple, in every format.
///
/// In binary formats this is exactly 16 bytes, with no length prefix (the default writes the
/// bytes with one); in JSON it is an array of 16 numbers. Reading also accepts a byte string.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Key {
///     #[serde(with = "uuidkit::serde::compact")]
///     id: uuidkit::Uuid,
/// }
/// let bin = postcard::to_allocvec(&Key { id: uuidkit::Uuid::MAX }).unwrap();
/// assert_eq!(bin, [0xff; 16]);
/// let back: Key = postcard::from_bytes(&bin).unwrap();
/// assert_eq!(back.id, uuidkit::Uuid::MAX);
/// ```
pub mod compact {
    use super::*;

    /// Writes the 16 bytes as a tuple.
    ///
    /// ```
    /// use serde_json::{json, value::Serializer};
    /// use uuidkit::{serde::compact, Uuid};
    /// let u = Uuid::from_u128(0x000102030405060708090a0b0c0d0e0f);
    /// // JSON has no tuple: an array of the 16 bytes in network order.
    /// assert_eq!(
    ///     compact::serialize(&u, Serializer)?,
    ///     json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    /// );
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn serialize<S: Serializer>(u: &Uuid, s: S) -> Result<S::Ok, S::Error> {
        serialize_tuple(u, s)
    }

    /// Reads 16 bytes written as a tuple (or as a byte string).
    ///
    /// ```
    /// use serde_json::json;
    /// use uuidkit::{serde::compact, Uuid};
    /// let u = compact::deserialize(json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]))?;
    /// assert_eq!(u, Uuid::from_u128(0x000102030405060708090a0b0c0d0e0f));
    /// let short = compact::deserialize(json!([0, 1, 2])).unwrap_err();
    /// assert!(short.to_string().starts_with("invalid length 3, expected a UUID"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Uuid, D::Error> {
        d.deserialize_tuple(16, UuidVisitor)
    }

    /// For `Option<Uuid>`: `None` is the format's null, `Some` the 16-byte tuple.
    ///
    /// ```
    /// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    /// struct Key {
    ///     #[serde(with = "uuidkit::serde::compact::option")]
    ///     id: Option<uuidkit::Uuid>,
    /// }
    /// let some = Key { id: Some(uuidkit::Uuid::MAX) };
    /// let bin = postcard::to_allocvec(&some).unwrap();
    /// assert_eq!(bin, [&[1u8][..], &[0xff; 16]].concat()); // postcard's `Some` tag, 16 bytes
    /// assert_eq!(postcard::from_bytes::<Key>(&bin).unwrap(), some);
    /// let none = postcard::to_allocvec(&Key { id: None }).unwrap();
    /// assert_eq!(postcard::from_bytes::<Key>(&none).unwrap(), Key { id: None });
    /// ```
    pub mod option {
        use super::super::{deserialize_option, serialize_option, Repr};
        use super::*;

        /// Writes `None` as null and `Some` as the 16-byte tuple.
        pub fn serialize<S: Serializer>(u: &Option<Uuid>, s: S) -> Result<S::Ok, S::Error> {
            serialize_option(u, Repr::Tuple, s)
        }

        /// Reads null as `None`, else 16 bytes as a tuple (or a byte string).
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Uuid>, D::Error> {
            deserialize_option(d, Repr::Tuple)
        }
    }
}

/// How a short-form adapter writes and reads: one of the [`ShortForm`](crate::ShortForm)s, or
/// an unprefixed TypeID.
#[derive(Clone, Copy)]
enum ShortRepr {
    Form(crate::ShortForm),
    TypeId,
}

impl ShortRepr {
    fn name(self) -> &'static str {
        match self {
            ShortRepr::Form(f) => f.name(),
            ShortRepr::TypeId => "typeid",
        }
    }
    fn parse(self, s: &[u8]) -> Result<Uuid, Error> {
        match self {
            ShortRepr::Form(f) => Uuid::parse_short(f, s),
            ShortRepr::TypeId => crate::TypedId::<NoPrefix>::parse(s).map(|t| t.uuid()),
        }
    }
}

/// The empty TypeID prefix, for the `typeid` adapter.
struct NoPrefix;
impl crate::TypeIdPrefix for NoPrefix {
    const PREFIX: &'static str = "";
}

/// A UUID written in a short form (the inside of `Some`).
struct ShortAs<'a>(&'a Uuid, ShortRepr);

impl Serialize for ShortAs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            ShortRepr::Form(f) => {
                let mut buf = [0u8; crate::MAX_SHORT_LEN];
                s.serialize_str(self.0.encode_short(f, &mut buf))
            }
            ShortRepr::TypeId => {
                let mut buf = [0u8; crate::MAX_TYPEID_LEN];
                s.serialize_str(crate::TypeId::new(crate::Prefix::EMPTY, *self.0).encode(&mut buf))
            }
        }
    }
}

/// Reads a short form's string (or its UTF-8 bytes); `None` from null when `option`.
struct ShortVisitor(ShortRepr);

impl<'de> Visitor<'de> for ShortVisitor {
    type Value = Uuid;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a UUID in the {} form", self.0.name())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Uuid, E> {
        self.visit_bytes(v.as_bytes())
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Uuid, E> {
        self.0
            .parse(v)
            .map_err(|e| E::custom(format_args!("invalid {} UUID: {e}", self.0.name())))
    }
}

struct ShortOptionVisitor(ShortRepr);

impl<'de> Visitor<'de> for ShortOptionVisitor {
    type Value = Option<Uuid>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an optional UUID in the {} form", self.0.name())
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<Uuid>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<Uuid>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Uuid>, D::Error> {
        d.deserialize_str(ShortVisitor(self.0)).map(Some)
    }
}

macro_rules! short_adapter {
    // A `ShortForm` by its variant's name.
    ($name:ident, Form($form:ident), $example:literal) => {
        short_adapter!($name, ShortRepr::Form(crate::ShortForm::$form), $example);
    };
    ($name:ident, $repr:expr, $example:literal) => {
        #[doc = concat!("The `", stringify!($name), "` short form as a string, in every format; reads only that form (see [`ShortForm`](crate::ShortForm) for why none is guessed).")]
        ///
        /// ```
        /// #[derive(serde::Serialize, serde::Deserialize)]
        /// struct Row {
        #[doc = concat!("    #[serde(with = \"uuidkit::serde::", stringify!($name), "\")]")]
        ///     id: uuidkit::Uuid,
        /// }
        /// let text = serde_json::to_string(&Row { id: uuidkit::Uuid::NAMESPACE_URL }).unwrap();
        #[doc = concat!("assert_eq!(text, r#\"{\"id\":\"", $example, "\"}\"#);")]
        /// let back: Row = serde_json::from_str(&text).unwrap();
        /// assert_eq!(back.id, uuidkit::Uuid::NAMESPACE_URL);
        /// assert!(serde_json::from_str::<Row>(r#"{"id":"6ba7b811-9dad-11d1-80b4-00c04fd430c8"}"#).is_err());
        /// ```
        pub mod $name {
            use super::*;

            /// Writes the UUID in this module's form.
            pub fn serialize<S: Serializer>(u: &Uuid, s: S) -> Result<S::Ok, S::Error> {
                ShortAs(u, $repr).serialize(s)
            }

            /// Reads a UUID in this module's form; an error carries the parser's message.
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Uuid, D::Error> {
                d.deserialize_str(ShortVisitor($repr))
            }

            #[doc = concat!("For `Option<Uuid>`: `None` is the format's null, `Some` the ", stringify!($name), " string.")]
            pub mod option {
                use super::super::{ShortAs, ShortOptionVisitor};
                use super::*;

                /// Writes `None` as null and `Some` in the parent module's form.
                pub fn serialize<S: Serializer>(u: &Option<Uuid>, s: S) -> Result<S::Ok, S::Error> {
                    match u {
                        Some(u) => s.serialize_some(&ShortAs(u, $repr)),
                        None => s.serialize_none(),
                    }
                }

                /// Reads null as `None`, else a UUID as the parent module does.
                pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Uuid>, D::Error> {
                    d.deserialize_option(ShortOptionVisitor($repr))
                }
            }
        }
    };
}

short_adapter!(ulid, Form(Ulid), "3BMYW137DD278R1D00R17X8C68");
short_adapter!(base32hex, Form(Base32Hex), "DEJRG4CTLK8T305K0304VL1GP0");
short_adapter!(base58, Form(Base58), "EJ34kHLAEhmQsmG2ynFFJw");
short_adapter!(base58_flickr, Form(Base58Flickr), "ei34KhkaeGLpSLg2YMffiW");
short_adapter!(base64url, Form(Base64Url), "a6e4EZ2tEdGAtADAT9QwyA");
short_adapter!(typeid, ShortRepr::TypeId, "3bmyw137dd278r1d00r17x8c68");

//! `postgres-types` (feature `postgres`): [`Uuid`] as PostgreSQL's `uuid` type, for the
//! `postgres` and `tokio-postgres` clients.
//!
//! The binary format of `uuid` is the 16 bytes in network order, which is what is sent and
//! received. Only the `uuid` type is accepted: binding a `Uuid` to a `text` or `bytea`
//! parameter is the client's type-mismatch error, as it is for the `uuid` crate's type. A value
//! that is not 16 bytes long is an error naming its length, never a panic. `NULL` is
//! `Option<Uuid>`.

use std::error::Error as StdError;
use std::fmt;

use bytes::{BufMut, BytesMut};
use postgres_types::{accepts, to_sql_checked, FromSql, IsNull, ToSql, Type};

#[allow(unused_imports)]
use super::sql::prelude::*;
use crate::Uuid;

type BoxError = Box<dyn StdError + Sync + Send>;

/// A `uuid` value from the server that is not 16 bytes long.
#[derive(Debug)]
struct WrongLength(usize);

impl fmt::Display for WrongLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a PostgreSQL uuid value of {} bytes: expected 16",
            self.0
        )
    }
}

impl StdError for WrongLength {}

impl ToSql for Uuid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.put_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    accepts!(UUID);

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Uuid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Uuid, BoxError> {
        match <[u8; 16]>::try_from(raw) {
            Ok(bytes) => Ok(Uuid::from_bytes(bytes)),
            Err(_) => Err(Box::new(WrongLength(raw.len()))),
        }
    }

    accepts!(UUID);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_length_is_an_error() {
        for n in [0, 15, 17] {
            let raw = vec![0u8; n];
            let err = <Uuid as FromSql>::from_sql(&Type::UUID, &raw).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("a PostgreSQL uuid value of {n} bytes: expected 16")
            );
        }
    }

    #[test]
    fn accepts_only_uuid() {
        assert!(<Uuid as ToSql>::accepts(&Type::UUID));
        assert!(<Uuid as FromSql>::accepts(&Type::UUID));
        for t in [Type::TEXT, Type::BYTEA, Type::VARCHAR, Type::INT8] {
            assert!(!<Uuid as ToSql>::accepts(&t), "{t}");
            assert!(!<Uuid as FromSql>::accepts(&t), "{t}");
        }
    }

    #[test]
    fn binary_format_is_network_order() {
        let mut out = BytesMut::new();
        let u = Uuid::NAMESPACE_DNS;
        assert!(matches!(u.to_sql(&Type::UUID, &mut out), Ok(IsNull::No)));
        assert_eq!(&out[..], u.as_bytes());
        assert_eq!(<Uuid as FromSql>::from_sql(&Type::UUID, &out).unwrap(), u);
    }
}

//! sqlx 0.8 (features `sqlx-postgres`, `sqlx-sqlite`, `sqlx-mysql`): [`Uuid`] as a column and
//! parameter type, with no conversion to another crate's UUID.
//!
//! - PostgreSQL: the `uuid` type (binary format: the 16 bytes; the text format is parsed), and
//!   `uuid[]` for `Vec<Uuid>`/`&[Uuid]` parameters.
//! - SQLite: written as a 16-byte BLOB, which sorts in `Uuid`'s order; read from such a BLOB or
//!   from TEXT in any form [`Uuid::parse_str`] takes.
//! - MySQL and MariaDB: written as 16 bytes for a `BINARY(16)` column (which sorts in `Uuid`'s
//!   order); read from 16 bytes, or from text in any form `parse_str` takes (a `CHAR(36)`
//!   column, MariaDB's `UUID` type).
//!
//! A value of another length, unparsable text, or another SQL type is an error naming what was
//! found, never a panic. `NULL` is `Option<Uuid>`, through sqlx's own `Option` support.

use std::fmt;

use sqlx::error::BoxDynError;

#[allow(unused_imports)]
use super::sql::prelude::*;
use crate::Uuid;

/// A column value that is not a UUID.
#[derive(Debug)]
enum NotAUuid {
    /// Bytes that are neither 16 long nor UUID text (`database`, length).
    Length(&'static str, usize),
    /// Text that did not parse.
    Text(&'static str, crate::Error),
    /// A value of a type that cannot hold a UUID (`database`, SQL type name).
    Type(&'static str, String),
}

impl fmt::Display for NotAUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAUuid::Length(db, n) => {
                write!(
                    f,
                    "a {db} value of {n} bytes is not a UUID: expected 16 bytes or UUID text"
                )
            }
            NotAUuid::Text(db, e) => write!(f, "a {db} text value is not a UUID: {e}"),
            NotAUuid::Type(db, t) => write!(f, "a {db} value of type {t} is not a UUID"),
        }
    }
}

impl std::error::Error for NotAUuid {}

/// 16 bytes as they are; anything else as UUID text.
fn from_bytes_or_text(db: &'static str, b: &[u8]) -> Result<Uuid, BoxDynError> {
    if let Ok(bytes) = <[u8; 16]>::try_from(b) {
        return Ok(Uuid::from_bytes(bytes));
    }
    if b.len() < 32 {
        return Err(Box::new(NotAUuid::Length(db, b.len())));
    }
    Uuid::try_parse_ascii(b).map_err(|e| Box::new(NotAUuid::Text(db, e)) as BoxDynError)
}

/// Text only.
fn from_text(db: &'static str, t: &[u8]) -> Result<Uuid, BoxDynError> {
    Uuid::try_parse_ascii(t).map_err(|e| Box::new(NotAUuid::Text(db, e)) as BoxDynError)
}

#[cfg(feature = "sqlx-postgres")]
#[cfg_attr(docsrs, doc(cfg(feature = "sqlx-postgres")))]
mod postgres {
    use sqlx::encode::IsNull;
    use sqlx::error::BoxDynError;
    use sqlx::postgres::types::Oid;
    use sqlx::postgres::{
        PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueFormat, PgValueRef, Postgres,
    };
    use sqlx::{Decode, Encode, Type};

    use super::{from_text, NotAUuid};
    #[allow(unused_imports)]
    use crate::integrations::sql::prelude::*;
    use crate::Uuid;

    /// `pg_type.oid` of `uuid` and of `uuid[]` (fixed in PostgreSQL's catalog).
    const UUID_OID: Oid = Oid(2950);
    const UUID_ARRAY_OID: Oid = Oid(2951);

    impl Type<Postgres> for Uuid {
        fn type_info() -> PgTypeInfo {
            PgTypeInfo::with_oid(UUID_OID)
        }
    }

    impl PgHasArrayType for Uuid {
        fn array_type_info() -> PgTypeInfo {
            PgTypeInfo::with_oid(UUID_ARRAY_OID)
        }
    }

    impl Encode<'_, Postgres> for Uuid {
        fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
            buf.extend_from_slice(self.as_bytes());
            Ok(IsNull::No)
        }
    }

    impl Decode<'_, Postgres> for Uuid {
        fn decode(value: PgValueRef<'_>) -> Result<Uuid, BoxDynError> {
            match value.format() {
                PgValueFormat::Binary => {
                    let b = value.as_bytes()?;
                    match <[u8; 16]>::try_from(b) {
                        Ok(bytes) => Ok(Uuid::from_bytes(bytes)),
                        Err(_) => Err(Box::new(NotAUuid::Length("PostgreSQL uuid", b.len()))),
                    }
                }
                PgValueFormat::Text => from_text("PostgreSQL", value.as_str()?.as_bytes()),
            }
        }
    }
}

#[cfg(feature = "sqlx-sqlite")]
#[cfg_attr(docsrs, doc(cfg(feature = "sqlx-sqlite")))]
mod sqlite {
    use std::borrow::Cow;

    use sqlx::encode::IsNull;
    use sqlx::error::BoxDynError;
    use sqlx::sqlite::{Sqlite, SqliteArgumentValue, SqliteTypeInfo, SqliteValueRef};
    use sqlx::{Decode, Encode, Type, TypeInfo, ValueRef};

    use super::{from_text, NotAUuid};
    #[allow(unused_imports)]
    use crate::integrations::sql::prelude::*;
    use crate::Uuid;

    impl Type<Sqlite> for Uuid {
        fn type_info() -> SqliteTypeInfo {
            <&[u8] as Type<Sqlite>>::type_info()
        }

        fn compatible(ty: &SqliteTypeInfo) -> bool {
            <&[u8] as Type<Sqlite>>::compatible(ty) || <&str as Type<Sqlite>>::compatible(ty)
        }
    }

    impl<'q> Encode<'q, Sqlite> for Uuid {
        fn encode_by_ref(
            &self,
            args: &mut Vec<SqliteArgumentValue<'q>>,
        ) -> Result<IsNull, BoxDynError> {
            args.push(SqliteArgumentValue::Blob(Cow::Owned(
                self.as_bytes().to_vec(),
            )));
            Ok(IsNull::No)
        }
    }

    impl<'r> Decode<'r, Sqlite> for Uuid {
        fn decode(value: SqliteValueRef<'r>) -> Result<Uuid, BoxDynError> {
            // The type of this value (SQLite types values, not columns).
            let ty = value.type_info().name().to_owned();
            match ty.as_str() {
                "TEXT" => from_text(
                    "SQLite",
                    <&str as Decode<Sqlite>>::decode(value)?.as_bytes(),
                ),
                "BLOB" => {
                    let b = <&[u8] as Decode<Sqlite>>::decode(value)?;
                    match <[u8; 16]>::try_from(b) {
                        Ok(bytes) => Ok(Uuid::from_bytes(bytes)),
                        Err(_) => Err(Box::new(NotAUuid::Length("SQLite BLOB", b.len()))),
                    }
                }
                _ => Err(Box::new(NotAUuid::Type("SQLite", ty))),
            }
        }
    }
}

#[cfg(feature = "sqlx-mysql")]
#[cfg_attr(docsrs, doc(cfg(feature = "sqlx-mysql")))]
mod mysql {
    use sqlx::encode::IsNull;
    use sqlx::error::BoxDynError;
    use sqlx::mysql::{MySql, MySqlTypeInfo, MySqlValueRef};
    use sqlx::{Decode, Encode, Type};

    use super::from_bytes_or_text;
    #[allow(unused_imports)]
    use crate::integrations::sql::prelude::*;
    use crate::Uuid;

    impl Type<MySql> for Uuid {
        fn type_info() -> MySqlTypeInfo {
            <&[u8] as Type<MySql>>::type_info()
        }

        fn compatible(ty: &MySqlTypeInfo) -> bool {
            <&[u8] as Type<MySql>>::compatible(ty) || <&str as Type<MySql>>::compatible(ty)
        }
    }

    impl Encode<'_, MySql> for Uuid {
        fn encode_by_ref(&self, buf: &mut Vec<u8>) -> Result<IsNull, BoxDynError> {
            <&[u8] as Encode<MySql>>::encode_by_ref(&&self.as_bytes()[..], buf)
        }
    }

    impl Decode<'_, MySql> for Uuid {
        fn decode(value: MySqlValueRef<'_>) -> Result<Uuid, BoxDynError> {
            from_bytes_or_text("MySQL", <&[u8] as Decode<MySql>>::decode(value)?)
        }
    }
}

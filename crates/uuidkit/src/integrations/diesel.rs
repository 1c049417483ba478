//! diesel 2 (features `diesel` and `diesel-postgres`): [`Uuid`] as a column and bind type, so
//! that it can be the field type of `Queryable` and `Insertable` models (db-tests/ runs them
//! against the servers) for a `table!` whose column is one of:
//!
//! - `diesel::sql_types::Binary` (feature `diesel`), on every backend whose binary values are
//!   raw bytes: SQLite (`BLOB`), MySQL and MariaDB (`BINARY(16)`), PostgreSQL (`bytea`). Written
//!   as the 16 bytes in network order, which SQLite and MySQL compare unsigned, so `ORDER BY`
//!   is `Uuid`'s `Ord`. Read from 16 bytes, or from UUID text in any form
//!   [`Uuid::parse_str`] takes (a SQLite TEXT value, a `CHAR(36)` column declared `Binary`).
//! - `diesel::sql_types::Uuid` (feature `diesel-postgres`, which turns on diesel's
//!   `postgres_backend`: the backend's types, not the libpq connection): PostgreSQL's `uuid`,
//!   the 16 bytes of its binary format.
//!
//! The library chooses no backend's connection and links no C library; the application's own
//! diesel features (`postgres`, `sqlite`, `mysql`) do. `NULL` is `Option<Uuid>` on a `Nullable`
//! column, through diesel's own `Option` support. A value of another length, or text that is
//! not a UUID, is an error naming its length (or the parse error), never a panic.
//!
//! ```
//! use diesel::prelude::*;
//! use uuidkit::Uuid;
//!
//! diesel::table! {
//!     items (id) {
//!         id -> Binary,
//!         parent -> Nullable<Binary>,
//!         name -> Text,
//!     }
//! }
//!
//! #[derive(Queryable, Insertable, Debug, PartialEq)]
//! #[diesel(table_name = items)]
//! struct Item {
//!     id: Uuid,
//!     parent: Option<Uuid>,
//!     name: String,
//! }
//!
//! let root = Item { id: uuidkit::v7(), parent: None, name: "root".into() };
//! let _insert = diesel::insert_into(items::table).values(&root);
//! let _children = items::table.filter(items::parent.eq(root.id)).order(items::id);
//! ```

use std::fmt;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Binary;

#[allow(unused_imports)]
use super::sql::prelude::*;
use crate::Uuid;

/// A column value that is not a UUID.
#[derive(Debug)]
enum NotAUuid {
    /// Bytes of this length that are neither 16 long nor UUID text (`column type`, length).
    Length(&'static str, usize),
    /// Bytes that looked like text but did not parse.
    Text(crate::Error),
}

impl fmt::Display for NotAUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAUuid::Length(ty, n) => write!(f, "a {ty} value of {n} bytes is not a UUID"),
            NotAUuid::Text(e) => write!(f, "a Binary value is not a UUID: {e}"),
        }
    }
}

impl std::error::Error for NotAUuid {}

/// The shortest UUID text, the 32 digits of the simple form.
const SHORTEST_TEXT: usize = 32;

/// Binary: the 16 bytes, in network order.
impl<DB> ToSql<Binary, DB> for Uuid
where
    DB: Backend,
    [u8]: ToSql<Binary, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        <[u8] as ToSql<Binary, DB>>::to_sql(self.as_bytes(), out)
    }
}

/// Binary: 16 bytes as they are; 32 bytes or more as UUID text; anything else is an error.
///
/// Read through diesel's `Vec<u8>`, a copy of the value (16 bytes for a UUID): the one way
/// diesel offers to reach any backend's raw bytes without `unsafe` (its `*const [u8]` impl
/// needs a raw-pointer dereference).
impl<DB> FromSql<Binary, DB> for Uuid
where
    DB: Backend,
    Vec<u8>: FromSql<Binary, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        let b = <Vec<u8> as FromSql<Binary, DB>>::from_sql(bytes)?;
        from_bytes_or_text(&b).map_err(Into::into)
    }
}

fn from_bytes_or_text(b: &[u8]) -> Result<Uuid, NotAUuid> {
    if let Ok(bytes) = <[u8; 16]>::try_from(b) {
        return Ok(Uuid::from_bytes(bytes));
    }
    if b.len() < SHORTEST_TEXT {
        return Err(NotAUuid::Length("Binary", b.len()));
    }
    Uuid::try_parse_ascii(b).map_err(NotAUuid::Text)
}

#[cfg(feature = "diesel-postgres")]
#[cfg_attr(docsrs, doc(cfg(feature = "diesel-postgres")))]
mod postgres {
    use std::io::Write;

    use diesel::deserialize::{self, FromSql};
    use diesel::pg::{Pg, PgValue};
    use diesel::serialize::{self, IsNull, Output, ToSql};

    use super::NotAUuid;
    #[allow(unused_imports)]
    use crate::integrations::sql::prelude::*;
    use crate::Uuid;

    /// PostgreSQL `uuid`: the 16 bytes of its binary format.
    impl ToSql<diesel::sql_types::Uuid, Pg> for Uuid {
        fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
            out.write_all(self.as_bytes())?;
            Ok(IsNull::No)
        }
    }

    /// PostgreSQL `uuid`: exactly 16 bytes.
    impl FromSql<diesel::sql_types::Uuid, Pg> for Uuid {
        fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
            let b = value.as_bytes();
            match <[u8; 16]>::try_from(b) {
                Ok(bytes) => Ok(Uuid::from_bytes(bytes)),
                Err(_) => Err(Box::new(NotAUuid::Length("PostgreSQL uuid", b.len()))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_text_and_errors() {
        let u = Uuid::NAMESPACE_DNS;
        assert_eq!(from_bytes_or_text(u.as_bytes()).unwrap(), u);
        for text in [
            u.to_string(),
            u.simple().to_string(),
            u.braced().to_string(),
            u.urn().to_string(),
        ] {
            assert_eq!(from_bytes_or_text(text.as_bytes()).unwrap(), u, "{text}");
        }
        for n in [0, 1, 15, 17, 31] {
            assert_eq!(
                from_bytes_or_text(&vec![0; n]).unwrap_err().to_string(),
                format!("a Binary value of {n} bytes is not a UUID")
            );
        }
        let e = from_bytes_or_text(b"6ba7b810-9dad-11d1-80b4-00c04fd430cg").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a Binary value is not a UUID: invalid character 'g' at byte 35: expected a hexadecimal digit"
        );
        assert!(from_bytes_or_text(&[0xFF; 40]).is_err());
    }
}

//! `rusqlite` (feature `rusqlite`): a [`Uuid`] is stored as a 16-byte BLOB.
//!
//! SQLite compares BLOBs with `memcmp`, so `ORDER BY` on such a column is `Uuid`'s `Ord`. On
//! read, a TEXT value in any form [`Uuid::parse_str`] accepts is taken too (columns filled by
//! other programs often hold the hyphenated text). A BLOB of another length is
//! [`FromSqlError::InvalidBlobSize`]; unparsable text, a number or a real is an error naming
//! what was found; neither panics.
//!
//! ```
//! use rusqlite::Connection;
//! use uuidkit::Uuid;
//!
//! let db = Connection::open_in_memory()?;
//! db.execute_batch("CREATE TABLE t (id BLOB PRIMARY KEY)")?;
//! let id = Uuid::NAMESPACE_DNS;
//! db.execute("INSERT INTO t VALUES (?1)", [id])?;
//! let back: Uuid = db.query_row("SELECT id FROM t", [], |r| r.get(0))?;
//! assert_eq!(back, id);
//! let text: Uuid = db.query_row("SELECT '6ba7b810-9dad-11d1-80b4-00c04fd430c8'", [], |r| r.get(0))?;
//! assert_eq!(text, id);
//! # Ok::<(), rusqlite::Error>(())
//! ```

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

#[allow(unused_imports)]
use super::sql::prelude::*;
use crate::Uuid;

impl ToSql for Uuid {
    /// The 16 bytes in network order, as a BLOB.
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
    }
}

impl FromSql for Uuid {
    /// A BLOB of exactly 16 bytes, or TEXT that parses as a UUID.
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Blob(b) => match <[u8; 16]>::try_from(b) {
                Ok(bytes) => Ok(Uuid::from_bytes(bytes)),
                Err(_) => Err(FromSqlError::InvalidBlobSize {
                    expected_size: 16,
                    blob_size: b.len(),
                }),
            },
            ValueRef::Text(t) => Uuid::try_parse_ascii(t)
                .map_err(|e| FromSqlError::Other(format!("TEXT is not a UUID: {e}").into())),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

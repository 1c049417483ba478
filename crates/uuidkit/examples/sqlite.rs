//! v7 UUIDs as primary keys in SQLite: stored as 16-byte BLOBs, read back in key order.
//!
//! SQLite compares BLOBs with `memcmp`, which is unsigned byte order — the order of `Uuid`
//! (RFC 4530 uuidOrderingMatch) and, for v7, creation order (RFC 9562 §5.7, §6.2). So
//! `ORDER BY id` on a BLOB key returns rows in the order they were made, and new keys append
//! to the index instead of landing at random places in it.
//!
//! `Uuid` binds and reads directly with the `rusqlite` feature (`ToSql` writes the 16 bytes
//! as a BLOB, `FromSql` checks the length).
//!
//! Run with `cargo run -p uuidkit --features rusqlite --example sqlite`.

use rusqlite::{params, Connection};
use uuidkit::Uuid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = Connection::open_in_memory()?;
    db.execute_batch(
        "CREATE TABLE event (
             id   BLOB PRIMARY KEY CHECK (length(id) = 16),
             what TEXT NOT NULL
         ) WITHOUT ROWID;",
    )?;

    // Insert in shuffled order, to show that the order comes from the keys.
    let whats = ["login", "open file", "edit", "save", "logout"];
    let mut made: Vec<(Uuid, &str)> = whats.iter().map(|&w| (uuidkit::v7(), w)).collect();
    made.reverse();
    made.swap(0, 2);
    {
        let mut insert = db.prepare("INSERT INTO event (id, what) VALUES (?1, ?2)")?;
        for (id, what) in &made {
            insert.execute(params![id, what])?;
        }
    }

    let mut query = db.prepare("SELECT id, what FROM event ORDER BY id")?;
    let rows = query.query_map([], |row| {
        let id: Uuid = row.get(0)?;
        let what: String = row.get(1)?;
        Ok((id, what))
    })?;
    let mut back = Vec::new();
    for row in rows {
        let (id, what) = row?;
        let ms = id.unix_ts_ms().ok_or("not a v7 UUID")?;
        println!("{id}  unix_ts_ms={ms}  {what}");
        back.push((id, what));
    }

    // ORDER BY id gave creation order, i.e. the order of `whats`.
    let order: Vec<&str> = back.iter().map(|(_, w)| w.as_str()).collect();
    assert_eq!(order, whats);
    assert!(back.windows(2).all(|w| w[0].0 < w[1].0));

    // A point lookup by key.
    let (first, _) = back[0];
    let what: String = db.query_row("SELECT what FROM event WHERE id = ?1", [first], |r| {
        r.get(0)
    })?;
    println!("lookup {first} -> {what}");
    Ok(())
}

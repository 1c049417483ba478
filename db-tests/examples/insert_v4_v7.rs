//! Why v7, measured: inserts N rows keyed by uuidkit v4 and by uuidkit v7 into a PostgreSQL
//! table with a B-tree primary key (`uuid`), and prints, per key kind, the insert time and the
//! sizes of the index and the table, as a Markdown table for BENCHMARKS.md.
//!
//! Run by `scripts/bench-db-insert [N]` (default 1,000,000), which starts a server and sets
//! `UUIDKIT_TEST_PG_URL`. The keys are made before the clock starts; rows go in as batches of
//! 10,000 (`INSERT ... SELECT FROM unnest($1::uuid[], $2::int[])`), each batch its own
//! transaction, the order in which the keys were generated. The table is then checked to hold
//! N rows and `ANALYZE`d; sizes are `pg_relation_size`, and the index's leaf density comes
//! from `pgstattuple`'s `pgstatindex`.

use std::time::Instant;

use postgres::{Client, NoTls};
use uuidkit::Uuid;
use uuidkit_db_tests::server_url;

const BATCH: usize = 10_000;

/// A key generator: `uuidkit::v4` or `uuidkit::v7`.
type MakeKey = fn() -> Uuid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(a) => a.parse().map_err(|e| format!("N {a:?}: {e}"))?,
        None => 1_000_000,
    };
    let url = server_url("UUIDKIT_TEST_PG_URL");
    let mut c = Client::connect(&url, NoTls)?;
    let version: String = c.query_one("SHOW server_version", &[])?.get(0);
    c.batch_execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")?;
    println!("PostgreSQL {version}, {n} rows per key kind, batches of {BATCH}\n");
    println!("| key | insert time (s) | rows/s | index size (MiB) | table size (MiB) | index leaf density (%) |");
    println!("|---|---:|---:|---:|---:|---:|");
    let kinds: [(&str, MakeKey); 2] = [("v4", uuidkit::v4), ("v7", uuidkit::v7)];
    for (name, make) in kinds {
        let table = format!("bench_{name}");
        c.batch_execute(&format!(
            "DROP TABLE IF EXISTS {table}; CREATE TABLE {table} (id uuid PRIMARY KEY, n int NOT NULL)"
        ))?;
        let keys: Vec<Uuid> = (0..n).map(|_| make()).collect();
        let sql = format!("INSERT INTO {table} SELECT * FROM unnest($1::uuid[], $2::int[])");
        let stmt = c.prepare(&sql)?;
        let start = Instant::now();
        for (b, chunk) in keys.chunks(BATCH).enumerate() {
            let ns: Vec<i32> = (0..chunk.len()).map(|i| (b * BATCH + i) as i32).collect();
            c.execute(&stmt, &[&chunk, &ns])?;
        }
        let secs = start.elapsed().as_secs_f64();
        let count: i64 = c
            .query_one(&format!("SELECT count(*) FROM {table}"), &[])?
            .get(0);
        if count as usize != n {
            return Err(format!("{table} holds {count} rows, not {n}").into());
        }
        c.batch_execute(&format!("ANALYZE {table}"))?;
        let row = c.query_one(
            &format!(
                "SELECT pg_relation_size('{table}_pkey'), pg_relation_size('{table}'), \
                 (pgstatindex('{table}_pkey')).avg_leaf_density"
            ),
            &[],
        )?;
        let (index, heap, density): (i64, i64, f64) = (row.get(0), row.get(1), row.get(2));
        let mib = |b: i64| b as f64 / (1024.0 * 1024.0);
        println!(
            "| uuidkit {name} | {secs:.2} | {:.0} | {:.1} | {:.1} | {density:.1} |",
            n as f64 / secs,
            mib(index),
            mib(heap)
        );
    }
    Ok(())
}

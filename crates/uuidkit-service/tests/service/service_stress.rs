//! The service (`uuidkit serve`, RFC 9562 §6.3) under 64 concurrent clients: an in-process
//! server with a state file, 64 threads each on its own connection asking in turn for v7, v1
//! and v6 in requests of 1 to 1,000 UUIDs. Every UUID is checked: each client's UUIDs of a
//! version strictly increase (v1: by timestamp), no v7 and no v1/v6 (timestamp, clock
//! sequence, node) repeats across all clients (checked by sorting), every reply is durable and
//! holds exactly the count asked for, and the server saw 64 connections and flushed its state
//! at shutdown.
//!
//! `UUIDKIT_SERVICE_UUIDS` sets the total (default 128,000; `scripts/stress service` runs
//! 10^7).
#![cfg(unix)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use uuidkit::Uuid;
use uuidkit_service::client::Connection;
use uuidkit_service::server::{Server, ServerConfig};
use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};

use uuidkit_test_support::TempDir;

const CLIENTS: usize = 64;

fn total() -> usize {
    std::env::var("UUIDKIT_SERVICE_UUIDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(128_000)
}

/// What one client got: (version, UUIDs in the order received) per request.
fn client(sock: PathBuf, n: usize, seed: u32) -> Result<Vec<(TimeVersion, Vec<Uuid>)>, String> {
    let mut c = Connection::connect(&sock, Duration::from_secs(30)).map_err(|e| e.to_string())?;
    let mut got = vec![
        (TimeVersion::V7, Vec::new()),
        (TimeVersion::V1, Vec::new()),
        (TimeVersion::V6, Vec::new()),
    ];
    let mut x = seed | 1;
    let mut left = n;
    let mut i = 0;
    while left > 0 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let k = (1 + x % 1000).min(left as u32);
        let (v, out) = &mut got[i % 3];
        let before = out.len();
        let s = c.generate(*v, k, out).map_err(|e| e.to_string())?;
        if s != Safety::Durable {
            return Err(format!("reply {i} not durable: {s:?}"));
        }
        let got = out.len() - before;
        if got != k as usize {
            return Err(format!("reply {i}: {got} UUIDs for a request of {k}"));
        }
        left -= got;
        i += 1;
    }
    Ok(got)
}

#[test]
fn sixty_four_clients_get_unique_increasing_uuids() {
    let dir = TempDir::new();
    let sock = dir.path("s.sock");
    let g = DurableGenerator::open(dir.path("state"), StateOptions::new()).unwrap();
    let server = Server::bind(ServerConfig::new(&sock).max_connections(256), g).unwrap();
    let handle = server.shutdown_handle();
    let running = std::thread::spawn(move || server.run());

    let total = total();
    let per = total / CLIENTS;
    let t0 = Instant::now();
    let results: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let sock = sock.clone();
                s.spawn(move || client(sock, per, 0x2545_f491 ^ (i as u32 * 7919)))
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let elapsed = t0.elapsed();
    handle.shutdown();
    let summary = running.join().unwrap().unwrap();

    let mut v7: Vec<u128> = Vec::with_capacity(total);
    let mut greg: Vec<(u64, u16, [u8; 6])> = Vec::with_capacity(total);
    for (i, r) in results.into_iter().enumerate() {
        let got = r.unwrap_or_else(|e| panic!("client {i}: {e}"));
        for (v, uuids) in got {
            for w in uuids.windows(2) {
                let ok = match v {
                    TimeVersion::V1 => w[0].gregorian_ticks() < w[1].gregorian_ticks(),
                    _ => w[0] < w[1],
                };
                assert!(ok, "client {i} {v:?}: {} then {}", w[0], w[1]);
            }
            for u in uuids {
                assert_eq!(u.version_num(), v.as_u8());
                match v {
                    TimeVersion::V7 => v7.push(u.as_u128()),
                    _ => greg.push((
                        u.gregorian_ticks().unwrap(),
                        u.clock_seq().unwrap(),
                        u.node().unwrap(),
                    )),
                }
            }
        }
    }
    let n = v7.len() + greg.len();
    let (n7, ng) = (v7.len(), greg.len());
    v7.sort_unstable();
    v7.dedup();
    greg.sort_unstable();
    greg.dedup();
    eprintln!(
        "service: {CLIENTS} clients, {n} UUIDs ({n7} v7, {ng} v1/v6) in {:.1} s ({:.0}/s); \
         {} duplicate v7, {} duplicate v1/v6; server summary {summary:?}",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        n7 - v7.len(),
        ng - greg.len(),
    );
    assert_eq!(summary.connections, CLIENTS as u64);
    assert_eq!(v7.len(), n7, "duplicate v7");
    assert_eq!(greg.len(), ng, "duplicate v1/v6 tuple");
}

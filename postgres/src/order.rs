//! The order of v1, v6 and v7 UUIDs, and `uuidkit_order_scope()`.
//!
//! - **Server** (the library is in `shared_preload_libraries`): one position per timeline — the
//!   last v7 (millisecond and counter) and the last v1/v6 Gregorian timestamp — in shared
//!   memory under an LWLock. Every backend makes its UUID with its own library generator, after
//!   moving it to the shared position (`resume_after`), and stores the new position before the
//!   lock is released: every v7 (and v6) that any backend returns is greater than every one
//!   returned before it, also within a millisecond and when the clock steps back (the library's
//!   default regression policy counts on above the last value). v1 and v6 share one timeline,
//!   clock sequence and node, so v1 timestamps are strictly increasing too.
//! - **Across a restart**: the positions are reserved ahead of the clock (by [`RESERVE_MS`]) in
//!   a state file in the data directory, in the library's service format
//!   (`uuidkit_service::state::State`: 64 bytes, checksummed), written to a temporary file,
//!   `fsync`ed, renamed over it and the directory `fsync`ed before any UUID it covers is
//!   returned. After a restart (clean or not) generation continues above the stored bounds, so
//!   every new value sorts after every earlier one even when the clock was set back.
//! - **Backend** (not preloaded): the library's process-wide generators, each backend ordered on
//!   its own (as PostgreSQL 18's `uuidv7()`).

use std::cell::RefCell;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::prelude::*;
use pgrx::{pg_shmem_init, PGRXSharedMemory, PgLwLock};
use uuidkit_lib::generator::{
    self, GregorianBuilder, SystemClock, ThreadRng, V6Generator, V7Generator,
};
use uuidkit_lib::{Timestamp, Uuid};
use uuidkit_service::state::State;

use crate::errors;

/// How far ahead of the clock (and of the last value issued) the state file reserves: 1 s, as
/// the service's default. Renewed when issuing comes within half of it.
pub(crate) const RESERVE_MS: u64 = 1_000;
const RESERVE_TICKS: u64 = RESERVE_MS * 10_000;

/// The state file, relative to the data directory (every backend's working directory).
const STATE_FILE: &str = "uuidkit.state";
const STATE_TMP: &str = "uuidkit.state.tmp";

/// The server-wide positions (shared memory: plain `Copy` data, no pointers).
#[derive(Copy, Clone, Default)]
pub(crate) struct Shared {
    /// The state file has been read (on the first generation after the server started).
    loaded: bool,
    /// The file can be written; cleared (with one WARNING) after a failed write.
    durable: bool,
    /// The last v7: millisecond and counter (`None`: the whole millisecond counts as used).
    v7: Option<(u64, Option<u128>)>,
    /// The last v1/v6 Gregorian timestamp (100-ns ticks since 1582-10-15).
    ticks: Option<u64>,
    /// The server's v1/v6 clock sequence and node (kept in the state file).
    clock_seq: u16,
    node: [u8; 6],
    /// What the state file covers.
    reserved_v7_ms: u64,
    reserved_ticks: u64,
    writes: u64,
}

// SAFETY: `Shared` is plain old data (integers, booleans, arrays and `Option`s of them): no
// pointer into one process's memory, so every backend may read and write it in shared memory.
unsafe impl PGRXSharedMemory for Shared {}

// SAFETY: "uuidkit_order" is this extension's own LWLock tranche name; nothing else registers it.
static ORDER: PgLwLock<Shared> = unsafe { PgLwLock::new(c"uuidkit_order") };

/// Whether `_PG_init` ran in the postmaster during `shared_preload_libraries` (inherited by
/// every backend through fork).
static PRELOADED: AtomicBool = AtomicBool::new(false);

pub(crate) fn init() {
    // SAFETY: a plain `bool` of the server's, read in `_PG_init` on the loading process's only
    // thread.
    let preloading = unsafe { pg_sys::process_shared_preload_libraries_in_progress };
    if preloading {
        pg_shmem_init!(ORDER);
        PRELOADED.store(true, Ordering::Relaxed);
    }
}

pub(crate) fn server_scope() -> bool {
    PRELOADED.load(Ordering::Relaxed)
}

/// `uuidkit_order_scope()`: `'server'` when preloaded, else `'backend'`.
#[pg_extern(stable, strict, parallel_safe)]
fn uuidkit_order_scope() -> &'static str {
    if server_scope() {
        "server"
    } else {
        "backend"
    }
}

thread_local! {
    static V7: RefCell<Option<V7Generator>> = const { RefCell::new(None) };
    static V6: RefCell<Option<(u16, [u8; 6], V6Generator)>> = const { RefCell::new(None) };
}

impl Shared {
    /// Reads the state file once per server start (under the exclusive lock).
    fn load(&mut self) {
        if self.loaded {
            return;
        }
        self.loaded = true;
        self.durable = true;
        let mut rng = ThreadRng;
        match State::read(STATE_FILE) {
            Ok(s) => {
                // Everything up to the stored bounds counts as issued.
                self.v7 = Some((s.v7_unix_ms, s.v7_counter.map(u128::from)));
                self.ticks = Some(s.gregorian_ticks);
                self.clock_seq = s.clock_seq & 0x3FFF;
                self.node = s.node;
                self.reserved_v7_ms = s.v7_unix_ms;
                self.reserved_ticks = s.gregorian_ticks;
                self.writes = s.writes;
            }
            Err(e) => {
                if fs::symlink_metadata(STATE_FILE).is_ok() {
                    pgrx::warning!(
                        "uuidkit: the state file {STATE_FILE} could not be read ({e}); \
                         v1/v6/v7 order after earlier runs is not guaranteed"
                    );
                }
                self.clock_seq = generator::random_clock_seq(&mut rng, 14);
                self.node = generator::random_node(&mut rng);
            }
        }
    }

    /// Makes sure the file covers v7 millisecond `ms` (and renews it when within half the
    /// reserve), before the UUID is returned.
    fn cover_v7(&mut self, ms: u64, now_ms: u64) {
        if ms + RESERVE_MS / 2 > self.reserved_v7_ms {
            let want = ms.max(now_ms) + RESERVE_MS;
            let before = self.reserved_v7_ms;
            self.reserved_v7_ms = want;
            if !self.write() {
                self.reserved_v7_ms = before;
            }
        }
    }

    fn cover_ticks(&mut self, ticks: u64, now_ticks: u64) {
        if ticks + RESERVE_TICKS / 2 > self.reserved_ticks {
            let want = ticks.max(now_ticks) + RESERVE_TICKS;
            let before = self.reserved_ticks;
            self.reserved_ticks = want;
            if !self.write() {
                self.reserved_ticks = before;
            }
        }
    }

    /// Writes the reservations: a new temporary file, `fsync`, rename, `fsync` of the data
    /// directory. On failure one WARNING, and the order holds only until the next restart.
    fn write(&mut self) -> bool {
        if !self.durable {
            return false;
        }
        let state = State {
            gregorian_ticks: self.reserved_ticks,
            clock_seq: self.clock_seq,
            node: self.node,
            v7_unix_ms: self.reserved_v7_ms,
            v7_counter: None,
            clean: false,
            writes: self.writes + 1,
        };
        match write_file(&state.encode()) {
            Ok(()) => {
                self.writes += 1;
                true
            }
            Err(e) => {
                self.durable = false;
                pgrx::warning!(
                    "uuidkit: cannot write the state file {STATE_FILE} ({e}); v1/v6/v7 stay \
                     ordered until the server restarts, not across it"
                );
                false
            }
        }
    }
}

fn write_file(bytes: &[u8]) -> std::io::Result<()> {
    // Only the holder of the exclusive lock writes: a leftover temporary file is a crash's.
    let _ = fs::remove_file(STATE_TMP);
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(STATE_TMP)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    fs::rename(STATE_TMP, STATE_FILE)?;
    File::open(".")?.sync_all()
}

fn now() -> Timestamp {
    Timestamp::now()
}

/// The next v7: server-wide order when preloaded, else the backend's.
pub(crate) fn v7() -> Uuid {
    if !server_scope() {
        return generator::try_v7().unwrap_or_else(|e| errors::generation_failed(e));
    }
    let mut s = ORDER.exclusive();
    s.load();
    let u = V7.with_borrow_mut(|g| {
        let g = g.get_or_insert_with(V7Generator::system);
        if let Some((ms, counter)) = s.v7 {
            g.resume_after(ms, counter);
        }
        let u = g.next().unwrap_or_else(|e| errors::generation_failed(e));
        if let Some(ms) = g.last_unix_ms() {
            s.v7 = Some((ms, g.last_counter()));
        }
        u
    });
    let ms = u.unix_ts_ms().unwrap_or(0);
    s.cover_v7(ms, now().unix_millis().unwrap_or(0));
    u
}

/// The next v6 (`v1 == false`) or v1 from the one Gregorian timeline.
pub(crate) fn gregorian(v1: bool) -> Uuid {
    if !server_scope() {
        let r = if v1 {
            generator::try_v1()
        } else {
            generator::try_v6()
        };
        return r.unwrap_or_else(|e| errors::generation_failed(e));
    }
    let mut s = ORDER.exclusive();
    s.load();
    let (cs, node) = (s.clock_seq, s.node);
    let u6 = V6.with_borrow_mut(|slot| {
        if !matches!(slot, Some((c, n, _)) if *c == cs && *n == node) {
            let g = GregorianBuilder::new()
                .clock_seq(cs)
                .node(node)
                .build_v6(SystemClock, ThreadRng)
                .unwrap_or_else(|e| errors::generation_failed(e));
            *slot = Some((cs, node, g));
        }
        let Some((_, _, g)) = slot.as_mut() else {
            unreachable!("the v6 generator was just set")
        };
        if let Some(t) = s.ticks {
            g.resume_after(t);
        }
        let u = g.next().unwrap_or_else(|e| errors::generation_failed(e));
        s.ticks = g.last_ticks();
        u
    });
    let ticks = u6.gregorian_ticks().unwrap_or(0);
    s.cover_ticks(ticks, now().gregorian_ticks().unwrap_or(0));
    drop(s);
    if v1 {
        u6.to_v1()
            .unwrap_or_else(|| errors::generation_failed("v6 to v1"))
    } else {
        u6
    }
}

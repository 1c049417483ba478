//! Generator state in stable storage (RFC 9562 §6.3; RFC 4122 §4.2.1.1–§4.2.1.3), and a
//! v1/v6/v7 generator built on it that stays unique across restarts and crashes, v6 and v7
//! in order (v1 in timestamp order; after the clock went back, with a new clock sequence).
//!
//! # What is stored
//!
//! One small file holds, for v1 and v6 (which share one timeline here), a timestamp bound, the
//! clock sequence and the node; and for v7 a millisecond bound and a counter. Each bound is at
//! least as large as every UUID issued so far with that clock sequence and node (v1/v6), or at
//! least as large as every v7 issued.
//!
//! # Written ahead, not per UUID
//!
//! While generating, the stored bounds are *reservations* ahead of the clock (by the
//! [reserve](StateOptions::reserve), default 1 s): a UUID is handed out only when the file
//! already covers it, and the reservation is renewed when issuing comes within half the reserve
//! of it. The v7 bound is the latest of the clock plus the reserve, the last v7 issued and the
//! bound the run started from — not the last v7 plus the reserve: while v7 runs ahead of the
//! clock, the bound stays at the millisecond being issued. The v1/v6 bound likewise is the
//! latest of the clock plus the reserve, the bound the run started from, and the last
//! timestamp issued plus a tenth of the reserve (while running ahead of the clock, renewed
//! every twentieth of a reserve of timestamps issued). A block of consecutive v1/v6
//! timestamps reserved for one caller ([`DurableGenerator::reserve_ticks`], a range reply
//! that the client expands), or of v7 counter values ([`DurableGenerator::reserve_v7`]), is
//! covered in the same way before it is returned. Under steady load that is two writes a second,
//! whatever the rate (while v1/v6 run ahead of the clock, one per twentieth of a reserve of v1/v6
//! timestamps issued: at most 20 a second at the service's per-user rate). A clean
//! [`flush`](DurableGenerator::flush) writes the exact last values instead.
//!
//! # After a restart (or a crash at any moment)
//!
//! - **v7**: generation continues above the stored bound, so every v7 is greater than every
//!   v7 issued before, even when the clock has gone back (the timestamps then run ahead of the
//!   clock until it catches up). After an unclean shutdown the stored bound is a reservation up
//!   to one reserve ahead of the clock; opening first waits for the clock to pass it (at most
//!   the reserve plus 1 s, [`StateOptions::catch_up`]), so that a crash loop does not push v7
//!   timestamps ever further ahead. When the bound is further ahead (the clock was set back),
//!   no wait: each restart then moves v7 at most 1 ms past the last v7 issued before it (the
//!   stored bound is at most the later of that v7 and the clock plus the reserve), so N
//!   crashes after a step back of S keep v7 within S + reserve + N ms of the clock.
//! - **v1/v6** (one timeline: one clock sequence and node, each timestamp used once, in one of
//!   the two layouts): generation always continues above the stored timestamp, so every v6 is
//!   greater than every v6 issued before, and every v1's timestamp later than every v1/v6
//!   timestamp before, even when the clock has gone back (the timestamps then run ahead of it
//!   until it catches up, as v7's do). The clock sequence follows RFC 4122 §4.2.1: kept when
//!   the clock reads later than the stored timestamp; otherwise — right after a crash, whose
//!   reservation lies ahead, or a clock set back — incremented, so a v1 after the clock went
//!   back also says so by its clock sequence. A changed node gets a new, random clock
//!   sequence. Either way no (timestamp, clock sequence, node) repeats. After an unclean
//!   shutdown the catch-up wait above also covers the v1/v6 reservation (the later of the
//!   two, when within the reserve plus 1 s), and while v1/v6 run further ahead each restart
//!   moves them at most a tenth of the reserve past the last timestamp issued before it.
//! - **No lock** (its lock file cannot be opened: a read-only file system, a directory at
//!   `PATH.lock`; not strict): another generator may be using the file, so the stored clock
//!   sequence and node are never used — a new random clock sequence and a random node instead
//!   ([`WarningKind::Unlocked`]; the timestamps still continue above the stored bounds); the
//!   file is not written and every UUID is volatile.
//! - **Missing, unreadable or corrupt file**: a [`StateWarning`], a random clock sequence,
//!   and generation continues; with [`strict`](StateOptions::strict) an error instead (a
//!   missing file is then still accepted as the first use, with a warning).
//!
//! # Writes
//!
//! A temporary file next to the state file is created exclusively (`O_CREAT|O_EXCL`, mode
//! 0600), written, `fsync`ed and renamed over the state file, and the directory is `fsync`ed.
//! The state file is opened with `O_NOFOLLOW`: a symbolic link there is an error, never
//! followed. A write that fails (disk full, read-only file system) is reported: the UUIDs that
//! the file no longer covers are marked [`Safety::Volatile`] (like libuuid's
//! `uuid_generate_time_safe`), or, in strict mode, not issued at all.
//!
//! # One process at a time
//!
//! The generator holds an exclusive `flock` on `PATH.lock` for its whole life. A second
//! generator on the same file fails at once with [`StateErrorKind::Locked`] naming the holder's
//! process id, or waits up to [`lock_wait`](StateOptions::lock_wait) for it. The lock file is
//! never removed (removing it would let two processes lock two different files).
//! [`State::reset`] takes the same lock, so it cannot reset a file in use.
//!
//! # File format (version 1)
//!
//! 64 bytes, big-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `b"uuidkitS"` |
//! | 8 | 2 | format version, 1 |
//! | 10 | 2 | flags: bit 0 set when the bounds are exact (clean shutdown); other bits 0 |
//! | 12 | 4 | reserved, 0 |
//! | 16 | 8 | v1/v6 timestamp bound (60-bit count of 100-ns ticks since 1582-10-15); the next run continues above it |
//! | 24 | 2 | clock sequence (14 bits) |
//! | 26 | 6 | node |
//! | 32 | 8 | v7 millisecond bound (48 bits) |
//! | 40 | 8 | v7 counter at that millisecond; `0xFFFF_FFFF_FFFF_FFFF`: the whole millisecond |
//! | 48 | 8 | number of writes so far |
//! | 56 | 8 | checksum: the first 8 bytes of SHA-256 of bytes 0..56 |
//!
//! # Source layout
//!
//! By concern, each file calling only the ones listed after it: `durable.rs` (the generator,
//! which carries out the restart decision), `reset.rs` ([`State::reset`], carrying out the
//! reset rules), `writer.rs` (its background writer), `restart.rs` (the restart rules above,
//! the v7 reservation rule, the reset rules, and what a file read counts for: pure functions,
//! each tested by a table), `file.rs` (reading and atomic writing), `lock.rs` (the lock), `format.rs` (the
//! 64-byte encoding), `options.rs`, `error.rs`, `safety.rs`, `version.rs`.

mod durable;
mod error;
mod file;
mod format;
mod lock;
mod options;
mod reset;
mod restart;
mod safety;
mod version;
mod writer;

pub use durable::{DurabilityChange, DurableGenerator, TickRange, V7Range, V7_COUNTER_BITS};
pub use error::{StateError, StateErrorKind, StateWarning, WarningKind};
pub use file::default_state_path;
pub use format::{State, FORMAT_VERSION, STATE_LEN};
pub use options::{StateOptions, DEFAULT_RESERVE};
pub use safety::Safety;
pub use version::TimeVersion;

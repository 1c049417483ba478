//! The restart rules (RFC 4122 §4.2.1, RFC 9562 §6.3): from what the state file holds (or
//! nothing), one clock reading and the options, what a new run starts from.
//!
//! [`restart`] is a pure function: no clock, no randomness, no file. It says *which* clock
//! sequence and node to use (for instance "a new random one, different from 0x1234") and
//! whether to wait for the clock; the durable generator carries that out (draws the random
//! values, waits, writes the warnings). Its unit test is a table with one row per rule.
//!
//! Before it, [`accept_stored`] decides what a file that was read (or could not be) counts for:
//! a state to restart from, a fresh start with a warning, or an error; also pure, also tested by
//! a table.

use std::path::Path;

use uuidkit::Timestamp;

use super::error::{StateError, StateErrorKind, StateWarning, WarningKind};
use super::file::ReadOutcome;
use super::format::{State, V7Pos, CLOCK_SEQ_MASK};
use super::options::StateOptions;

/// How much further ahead of the clock than the reserve a stored v7 bound may be before
/// opening warns that v7 timestamps run ahead of the clock.
const AHEAD_WARNING_MS: u64 = 10_000;
/// How much longer than the reserve opening may wait for the clock to pass an unclean run's
/// v7 reservation.
const CATCH_UP_EXTRA_MS: u64 = 1_000;

/// The v1/v6 clock sequence a run starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClockSeq {
    /// No stored state: a random one.
    Random,
    /// The stored one: the clock reads later than the stored timestamp, so generation
    /// continues above it.
    Keep(u16),
    /// The stored one plus one (14 bits, wrapping): the clock does not read later than the
    /// stored timestamp `stored_ticks` (RFC 4122 §4.2.1.2).
    Increment {
        from: u16,
        to: u16,
        stored_ticks: u64,
        why: Behind,
    },
    /// A new random one, different from `from`: the node changed from `old_node` to
    /// `new_node` (RFC 9562 §6.3).
    NewRandom {
        from: u16,
        old_node: [u8; 6],
        new_node: [u8; 6],
    },
    /// A new random one, different from the stored `from` (if any), with a random node: the
    /// lock could not be taken, so another generator may be using the same file, and the
    /// stored values would be reused by both (RFC 9562 §6.3: state unavailable).
    Unlocked { from: Option<u16> },
}

/// Why the clock does not read later than the stored v1/v6 timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Behind {
    /// The last run ended cleanly (its bound is exact): the clock was set back.
    ClockSetBack,
    /// The last run did not end cleanly: its bound is a reservation, ahead of the clock.
    UncleanReservation,
}

/// The v1/v6 node a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Node {
    /// 48 random bits with the multicast bit set (RFC 9562 §6.10).
    Random,
    /// This one (given in the options, or stored).
    Use([u8; 6]),
}

/// What opening does about the stored bounds before generating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum V7Check {
    /// Nothing: no stored bound, or one near (or behind) the clock.
    None,
    /// The last run did not end cleanly and its reservations (v7, v1/v6, or both) lie at most
    /// the reserve plus 1 s ahead: wait until the clock passes the later one, `until_ms`, for
    /// at most `limit_ms`, so that a crash loop does not push v7 or v1/v6 timestamps ever
    /// further ahead (both continue above their stored bounds).
    WaitForClock { until_ms: u64, limit_ms: u64 },
    /// The stored bound `bound_ms` is `gap_ms` ahead of the clock (more than the reserve plus
    /// 10 s): v7 timestamps run ahead until the clock catches up; warn.
    AheadOfClock { bound_ms: u64, gap_ms: u64 },
}

/// What a new run starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Restart {
    pub(super) clock_seq: ClockSeq,
    pub(super) node: Node,
    /// The stored v1/v6 bound (the last timestamp issued before this run, or a reservation
    /// above it): generation continues above it whatever the clock sequence, so that v6 keeps
    /// its order across restarts (v1's timestamps too). `None` without a stored state.
    pub(super) greg_floor: Option<u64>,
    /// The last v7 position issued before this run: generation continues above it.
    pub(super) v7_floor: Option<V7Pos>,
    pub(super) v7_check: V7Check,
    /// How many times the file has been written.
    pub(super) writes: u64,
}

/// The restart rules: what a run starts from, given the stored state (`None`: missing or
/// discarded), the clock reading `now`, the options (node, reserve, catch-up), and whether
/// this run holds the state file's lock.
///
/// Without the lock (`locked` false: the lock file could not be opened, as on a read-only
/// file system), nothing keeps a second generator off the same file, and both would read the
/// same clock sequence and node: the run takes a new random clock sequence and a random node
/// (even a node given in the options). The floors are kept (order against the last locked
/// run; uniqueness between two such runs rests on their random clock sequences and nodes for
/// v1/v6, and on 74 random-seeded bits for v7).
pub(super) fn restart(
    stored: Option<&State>,
    now: Timestamp,
    opts: &StateOptions,
    locked: bool,
) -> Restart {
    let Some(s) = stored else {
        return Restart {
            clock_seq: if locked {
                ClockSeq::Random
            } else {
                ClockSeq::Unlocked { from: None }
            },
            node: if locked {
                opts.node.map_or(Node::Random, Node::Use)
            } else {
                Node::Random
            },
            greg_floor: None,
            v7_floor: None,
            v7_check: V7Check::None,
            writes: 0,
        };
    };
    // A clock outside the representable range reads as the earliest time.
    let now_ticks = now.gregorian_ticks().unwrap_or(0);
    let now_ms = now.unix_millis().unwrap_or(0);

    let node = opts.node.unwrap_or(s.node);
    // The clock sequence follows RFC 4122 §4.2.1; whichever it is, the timestamps continue
    // above the stored bound (the floor), so that v6 sorts above every v6 issued before.
    let clock_seq = if !locked {
        ClockSeq::Unlocked {
            from: Some(s.clock_seq),
        }
    } else if node != s.node {
        ClockSeq::NewRandom {
            from: s.clock_seq,
            old_node: s.node,
            new_node: node,
        }
    } else if now_ticks > s.gregorian_ticks {
        ClockSeq::Keep(s.clock_seq)
    } else {
        ClockSeq::Increment {
            from: s.clock_seq,
            to: (s.clock_seq + 1) & CLOCK_SEQ_MASK,
            stored_ticks: s.gregorian_ticks,
            why: if s.clean {
                Behind::ClockSetBack
            } else {
                Behind::UncleanReservation
            },
        }
    };
    let greg_floor = Some(s.gregorian_ticks);

    let reserve_ms = opts.reserve.as_millis() as u64;
    let slack = reserve_ms + AHEAD_WARNING_MS;
    let catch_up_limit = reserve_ms + CATCH_UP_EXTRA_MS;
    // The millisecond of the stored v1/v6 bound (before 1970: 0, nothing to wait for).
    let greg_ms = Timestamp::from_gregorian_ticks(s.gregorian_ticks)
        .unix_millis()
        .unwrap_or(0);
    // An unclean run's reservations within reach: wait for the clock to pass the later one.
    let pending = |b: u64| b >= now_ms && b - now_ms <= catch_up_limit;
    let wait_until = [s.v7_unix_ms, greg_ms]
        .into_iter()
        .filter(|&b| pending(b))
        .max()
        .filter(|_| opts.catch_up && !s.clean);
    let v7_check = if s.v7_unix_ms > now_ms.saturating_add(slack) {
        V7Check::AheadOfClock {
            bound_ms: s.v7_unix_ms,
            gap_ms: s.v7_unix_ms - now_ms,
        }
    } else if let Some(until_ms) = wait_until {
        V7Check::WaitForClock {
            until_ms,
            limit_ms: catch_up_limit,
        }
    } else {
        V7Check::None
    };

    Restart {
        clock_seq,
        node: if locked {
            Node::Use(node)
        } else {
            Node::Random
        },
        greg_floor,
        v7_floor: Some((s.v7_unix_ms, s.v7_counter)),
        v7_check,
        writes: s.writes,
    }
}

/// The v7 bound a reservation writes: the later of the stored floor `floor_ms` (the file never
/// promises less than it did when this run started), the last v7 millisecond issued by this
/// run `issued_ms`, and the clock `now_ms` plus the reserve.
///
/// Not "the last issued plus the reserve": while v7 runs ahead of the clock (after a clock
/// step back) issuing stays in one millisecond, counting, so the bound need not move past
/// it; and a run that issues no v7 leaves the floor where it was. So a crash loop moves the
/// stored bound by at most 1 ms per restart (the first v7 of a run lies 1 ms above the floor)
/// once it is more than the reserve ahead of the clock, instead of one reserve per restart.
pub(super) fn v7_reservation(
    floor_ms: Option<u64>,
    issued_ms: Option<u64>,
    now_ms: u64,
    reserve_ms: u64,
) -> u64 {
    floor_ms
        .unwrap_or(0)
        .max(issued_ms.unwrap_or(0))
        .max(now_ms.saturating_add(reserve_ms))
        .min(V7_MAX_MS)
}

/// The v1/v6 bound a reservation writes: the latest of the stored floor `floor_ticks` (the
/// file never promises less than it did when this run started), the clock `now_ticks` plus the
/// reserve, and the last timestamp issued by this run `issued_ticks` plus a tenth of the
/// reserve ([`greg_margin`]).
///
/// Not "the floor (or the last issued) plus the reserve": while v1/v6 run ahead of the clock
/// (after a clock step back: they continue above the stored bound), each restart would move
/// the stored bound one reserve further. So a run that issues no v1/v6 leaves the floor where
/// it was, and one that issues moves it a tenth of the reserve past its last timestamp: a
/// crash loop moves the timeline at most that much per restart beyond what it issued (with
/// the catch-up wait after an unclean shutdown, a run near the clock starts with the clock
/// past the last reservation, and its first reservation is the clock plus the reserve again).
/// The cost: while ahead of the clock, the file is renewed every twentieth of a reserve of
/// timestamps issued (at most 20 writes a second at the per-user budget's rate of the
/// server), instead of twice a second.
pub(super) fn greg_reservation(
    floor_ticks: Option<u64>,
    issued_ticks: Option<u64>,
    now_ticks: u64,
    reserve_ticks: u64,
) -> u64 {
    floor_ticks
        .unwrap_or(0)
        .max(now_ticks.saturating_add(reserve_ticks))
        .max(
            issued_ticks
                .unwrap_or(0)
                .saturating_add(greg_margin(reserve_ticks)),
        )
        .min(GREG_MAX_TICKS)
}

/// How far past the last v1/v6 timestamp issued a reservation reaches at least: a tenth of
/// the reserve (at least one tick).
pub(super) fn greg_margin(reserve_ticks: u64) -> u64 {
    (reserve_ticks / 10).max(1)
}

/// The largest 60-bit v1/v6 timestamp.
const GREG_MAX_TICKS: u64 = (1 << 60) - 1;

/// What `uuidkit state reset` writes, but for the random draws: the clock sequence to replace
/// (a new random one must differ from `clock_seq_from`), the node, and the bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reset {
    /// The stored clock sequence, which the new random one must differ from; `None` when
    /// nothing could be read (missing, corrupt, untrusted).
    pub(super) clock_seq_from: Option<u16>,
    /// The stored node, kept; or a random one when nothing could be read.
    pub(super) node: Node,
    /// The v1/v6 bound: the clock. With a new clock sequence, the old timestamps do not
    /// matter (RFC 4122 §4.2.1.2), even those ahead of the clock.
    pub(super) gregorian_ticks: u64,
    /// The v7 bound: the clock (the whole millisecond counts as used). v7 issued after the
    /// reset sorts after this, but may sort before v7 issued before it when the old bound lay
    /// ahead of the clock: the one promise a reset gives up, and why it is a manual step.
    pub(super) v7_unix_ms: u64,
    pub(super) writes: u64,
}

/// The reset rules: from what the file holds (`None`: nothing usable) and the clock, the new
/// state (a clean one, so that the next run starts right after it without waiting).
pub(super) fn reset(stored: Option<&State>, now: Timestamp) -> Reset {
    Reset {
        clock_seq_from: stored.map(|s| s.clock_seq),
        node: stored.map_or(Node::Random, |s| Node::Use(s.node)),
        gregorian_ticks: now.gregorian_ticks().unwrap_or(0),
        v7_unix_ms: now.unix_millis().unwrap_or(0).min(V7_MAX_MS),
        writes: stored.map_or(1, |s| s.writes.wrapping_add(1)),
    }
}

/// The largest 48-bit v7 millisecond.
const V7_MAX_MS: u64 = (1 << 48) - 1;

/// What opening makes of reading the state file at `path`: the state to restart from (`None`:
/// a fresh start) and a warning, or an error that stops it. Missing is the first use (a
/// warning, even in strict mode); damage and distrust are a warning, or an error in strict
/// mode; a symbolic link or a non-file is always an error (a set-up mistake or an attack, not
/// damage).
pub(super) fn accept_stored(
    path: &Path,
    read: Result<ReadOutcome, StateError>,
    strict: bool,
) -> Result<(Option<State>, Option<StateWarning>), StateError> {
    let fresh = |e: &StateError| {
        StateWarning::new(
            WarningKind::Discarded,
            format!("{e}; starting a new state with a random clock sequence"),
        )
    };
    match read {
        Ok(ReadOutcome::Found {
            untrusted: Some(why),
            ..
        }) => {
            let e = StateError::new(StateErrorKind::Untrusted, Some(path), why);
            if strict {
                return Err(e);
            }
            Ok((None, Some(fresh(&e))))
        }
        Ok(ReadOutcome::Found {
            state,
            readable_by_others,
            untrusted: None,
        }) => {
            let warning = readable_by_others.then(|| {
                StateWarning::new(
                    WarningKind::Permissions,
                    format!(
                        "state file {} was readable by other users; rewriting it with mode 0600",
                        path.display()
                    ),
                )
            });
            Ok((Some(state), warning))
        }
        Ok(ReadOutcome::Missing(_)) => Ok((
            None,
            Some(StateWarning::new(
                WarningKind::Missing,
                format!(
                    "state file {} does not exist: starting a new state with a random clock sequence",
                    path.display()
                ),
            )),
        )),
        Err(e) => {
            if strict || e.kind() == StateErrorKind::Unsafe {
                return Err(e);
            }
            Ok((None, Some(fresh(&e))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The clock of every row: 2022-02-22T19:22:22Z (RFC 9562 Appendix A.6), in Unix ms.
    const NOW_MS: u64 = 1_645_557_742_000;
    const TICKS_PER_MS: u64 = 10_000;
    const NODE: [u8; 6] = [0x02, 0, 0, 0, 0, 1];
    const OTHER: [u8; 6] = [0x02, 0, 0, 0, 0, 2];

    fn now_ticks() -> u64 {
        Timestamp::from_unix_millis(NOW_MS)
            .gregorian_ticks()
            .expect("2022 is in the v1 range")
    }

    /// A stored state with its v1/v6 bound `greg_ms` and v7 bound `v7_ms` milliseconds from
    /// the clock (negative: behind it).
    fn stored(clean: bool, greg_ms: i64, v7_ms: i64) -> State {
        State {
            gregorian_ticks: now_ticks().wrapping_add_signed(greg_ms * TICKS_PER_MS as i64),
            clock_seq: 0x1234,
            node: NODE,
            v7_unix_ms: NOW_MS.wrapping_add_signed(v7_ms),
            v7_counter: Some(17),
            clean,
            writes: 41,
        }
    }

    /// What a stored state restarts to when nothing changes but what the row says.
    fn kept(s: &State, v7_check: V7Check) -> Restart {
        Restart {
            clock_seq: ClockSeq::Keep(s.clock_seq),
            node: Node::Use(s.node),
            greg_floor: Some(s.gregorian_ticks),
            v7_floor: Some((s.v7_unix_ms, s.v7_counter)),
            v7_check,
            writes: s.writes,
        }
    }

    fn incremented(s: &State, why: Behind, v7_check: V7Check) -> Restart {
        Restart {
            clock_seq: ClockSeq::Increment {
                from: s.clock_seq,
                to: (s.clock_seq + 1) & 0x3FFF,
                stored_ticks: s.gregorian_ticks,
                why,
            },
            ..kept(s, v7_check)
        }
    }

    fn wait(s: &State, reserve_ms: u64) -> V7Check {
        V7Check::WaitForClock {
            until_ms: s.v7_unix_ms,
            limit_ms: reserve_ms + 1_000,
        }
    }

    /// The wait for the v1/v6 reservation `ms` milliseconds ahead of the clock.
    fn wait_greg(ms: u64) -> V7Check {
        V7Check::WaitForClock {
            until_ms: NOW_MS + ms,
            limit_ms: 2_000,
        }
    }

    fn ahead(s: &State) -> V7Check {
        V7Check::AheadOfClock {
            bound_ms: s.v7_unix_ms,
            gap_ms: s.v7_unix_ms - NOW_MS,
        }
    }

    struct Row {
        why: &'static str,
        stored: Option<State>,
        opts: StateOptions,
        /// Whether the run holds the lock.
        locked: bool,
        want: Restart,
    }

    fn rows() -> Vec<Row> {
        let opts = StateOptions::new(); // 1 s reserve, catch-up on, no node given
        let mut rows = Vec::new();

        // ---- no stored state -----------------------------------------------------------------
        for (why, opts, node) in [
            (
                "no file (or a discarded one): random clock sequence and node, no floors",
                opts,
                Node::Random,
            ),
            (
                "no file, node given: random clock sequence, the given node",
                opts.node(OTHER),
                Node::Use(OTHER),
            ),
        ] {
            rows.push(Row {
                why,
                stored: None,
                opts,
                locked: true,
                want: Restart {
                    clock_seq: ClockSeq::Random,
                    node,
                    greg_floor: None,
                    v7_floor: None,
                    v7_check: V7Check::None,
                    writes: 0,
                },
            });
        }

        // A row with a stored state; its expectation is worked out from that state.
        let mut row = |why, s: State, opts, want: &dyn Fn(&State) -> Restart| {
            rows.push(Row {
                why,
                stored: Some(s),
                opts,
                locked: true,
                want: want(&s),
            })
        };

        // ---- v1/v6: clean shutdown -------------------------------------------------------------
        row(
            "clean, clock 1 s past the stored timestamp: keep the clock sequence, continue above",
            stored(true, -1_000, -1_000),
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "clean, clock one tick past the stored timestamp: keep",
            State {
                gregorian_ticks: now_ticks() - 1,
                ..stored(true, 0, -1_000)
            },
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "clean, clock equal to the stored timestamp (not later): increment, clock set back",
            stored(true, 0, -1_000),
            opts,
            &|s| incremented(s, Behind::ClockSetBack, V7Check::None),
        );
        row(
            "clean, clock a minute behind the stored timestamp: increment, clock set back",
            stored(true, 60_000, -1_000),
            opts,
            &|s| incremented(s, Behind::ClockSetBack, V7Check::None),
        );
        row(
            "clock sequence 0x3FFF increments to 0 (14 bits)",
            State {
                clock_seq: 0x3FFF,
                ..stored(true, 60_000, -1_000)
            },
            opts,
            &|s| Restart {
                clock_seq: ClockSeq::Increment {
                    from: 0x3FFF,
                    to: 0,
                    stored_ticks: s.gregorian_ticks,
                    why: Behind::ClockSetBack,
                },
                ..incremented(s, Behind::ClockSetBack, V7Check::None)
            },
        );
        row(
            "the node given equals the stored one: no change",
            stored(true, -1_000, -1_000),
            opts.node(NODE),
            &|s| kept(s, V7Check::None),
        );

        // ---- v1/v6: unclean shutdown (a reservation ahead of the clock) ----------------------
        row(
            "unclean, reservation 1 s ahead (a crash): increment, not clock set back; wait for \
             the clock to pass it",
            stored(false, 1_000, -1_000),
            opts,
            &|s| incremented(s, Behind::UncleanReservation, wait_greg(1_000)),
        );
        row(
            "unclean, v1/v6 reservation 1 s ahead, v7 500 ms: wait for the later one",
            stored(false, 1_000, 500),
            opts,
            &|s| incremented(s, Behind::UncleanReservation, wait_greg(1_000)),
        );
        row(
            "clean, clock set back an hour: increment, and continue above the stored timestamp \
             (v6 keeps its order), v7 too",
            stored(true, 3_600_000, 3_600_000),
            opts,
            &|s| incremented(s, Behind::ClockSetBack, ahead(s)),
        );
        row(
            "unclean, v1/v6 an hour ahead (clock set back), v7 reservation 500 ms: wait for v7 only",
            stored(false, 3_600_000, 500),
            opts,
            &|s| incremented(s, Behind::UncleanReservation, wait(s, 1_000)),
        );
        row(
            "unclean, v7 an hour ahead, v1/v6 reservation 1 s: the v7 warning, no wait",
            stored(false, 1_000, 3_600_000),
            opts,
            &|s| incremented(s, Behind::UncleanReservation, ahead(s)),
        );
        row(
            "unclean, but the clock already passed the reservation: keep",
            stored(false, -5_000, -5_000),
            opts,
            &|s| kept(s, V7Check::None),
        );

        // ---- node changes --------------------------------------------------------------------
        row(
            "another node, clock past the stored timestamp: new random clock sequence, continue \
             above the stored timestamp",
            stored(true, -1_000, -1_000),
            opts.node(OTHER),
            &|s| Restart {
                clock_seq: ClockSeq::NewRandom {
                    from: s.clock_seq,
                    old_node: NODE,
                    new_node: OTHER,
                },
                node: Node::Use(OTHER),
                ..kept(s, V7Check::None)
            },
        );
        row(
            "another node, clock behind: the node rule wins (new random, not +1)",
            stored(false, 60_000, -1_000),
            opts.node(OTHER),
            &|s| Restart {
                clock_seq: ClockSeq::NewRandom {
                    from: s.clock_seq,
                    old_node: NODE,
                    new_node: OTHER,
                },
                node: Node::Use(OTHER),
                ..kept(s, V7Check::None)
            },
        );

        // ---- v7: catch-up wait after an unclean shutdown ---------------------------------------
        row(
            "unclean, v7 reservation 500 ms ahead: wait for the clock (at most reserve + 1 s)",
            stored(false, -1_000, 500),
            opts,
            &|s| kept(s, wait(s, 1_000)),
        );
        row(
            "unclean, v7 reservation equal to the clock: wait (until the clock passes it)",
            stored(false, -1_000, 0),
            opts,
            &|s| kept(s, wait(s, 1_000)),
        );
        row(
            "unclean, v7 reservation exactly reserve + 1 s ahead: wait",
            stored(false, -1_000, 2_000),
            opts,
            &|s| kept(s, wait(s, 1_000)),
        );
        row(
            "unclean, v7 reservation reserve + 1 s + 1 ms ahead: no wait, no warning yet",
            stored(false, -1_000, 2_001),
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "unclean, v7 reservation 500 ms ahead, catch-up off: continue above it at once",
            stored(false, -1_000, 500),
            opts.catch_up(false),
            &|s| kept(s, V7Check::None),
        );
        row(
            "unclean, v7 bound behind the clock: nothing to wait for",
            stored(false, -1_000, -1),
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "clean, v7 bound 500 ms ahead (exact, clock set back a little): no wait",
            stored(true, -1_000, 500),
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "a 5 s reserve: an unclean reservation 6 s ahead is waited for",
            stored(false, -1_000, 6_000),
            opts.reserve(Duration::from_secs(5)),
            &|s| kept(s, wait(s, 5_000)),
        );

        // ---- v7: far ahead of the clock ----------------------------------------------------
        row(
            "clean, v7 bound reserve + 10 s ahead: no warning (the boundary)",
            stored(true, -1_000, 11_000),
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "clean, v7 bound reserve + 10 s + 1 ms ahead: warn, v7 runs ahead",
            stored(true, -1_000, 11_001),
            opts,
            &|s| kept(s, ahead(s)),
        );
        row(
            "unclean, v7 bound an hour ahead (clock set back): no wait (too far), warn",
            stored(false, -1_000, 3_600_000),
            opts,
            &|s| kept(s, ahead(s)),
        );
        row(
            "a 5 s reserve moves the warning: 14 s ahead is no warning",
            stored(true, -1_000, 14_000),
            opts.reserve(Duration::from_secs(5)),
            &|s| kept(s, V7Check::None),
        );
        row(
            "v7 floor keeps the stored counter, or the whole millisecond",
            State {
                v7_counter: None,
                ..stored(true, -1_000, -1_000)
            },
            opts,
            &|s| kept(s, V7Check::None),
        );
        row(
            "v1/v6 and v7 rules are independent: increment and wait together",
            stored(false, 1_000, 1_000),
            opts,
            &|s| incremented(s, Behind::UncleanReservation, wait(s, 1_000)),
        );

        // ---- no lock (a read-only file system, a lock path that is a directory) -------------
        // Another generator may be on the same file: never its clock sequence and node.
        let unlocked = |s: &State| Restart {
            clock_seq: ClockSeq::Unlocked {
                from: Some(s.clock_seq),
            },
            node: Node::Random,
            ..kept(s, V7Check::None)
        };
        for (why, s, opts) in [
            (
                "no lock, clean, clock past the stored timestamp: new random clock sequence and \
                 node, not the stored ones",
                stored(true, -1_000, -1_000),
                opts,
            ),
            (
                "no lock, node given and equal to the stored one: still a random node",
                stored(true, -1_000, -1_000),
                opts.node(NODE),
            ),
        ] {
            rows.push(Row {
                why,
                stored: Some(s),
                opts,
                locked: false,
                want: unlocked(&s),
            });
        }
        rows.push(Row {
            why: "no lock, unclean reservation ahead: new random (not +1: another run may +1 \
                  too), and the wait for the clock",
            stored: Some(stored(false, 1_000, -1_000)),
            opts,
            locked: false,
            want: Restart {
                v7_check: wait_greg(1_000),
                ..unlocked(&stored(false, 1_000, -1_000))
            },
        });
        rows.push(Row {
            why: "no lock, unclean, v7 reservation 500 ms ahead: the v7 rules still apply",
            stored: Some(stored(false, -1_000, 500)),
            opts,
            locked: false,
            want: Restart {
                v7_check: wait(&stored(false, -1_000, 500), 1_000),
                ..unlocked(&stored(false, -1_000, 500))
            },
        });
        rows.push(Row {
            why: "no lock, no file, node given: random clock sequence, random node",
            stored: None,
            opts: opts.node(OTHER),
            locked: false,
            want: Restart {
                clock_seq: ClockSeq::Unlocked { from: None },
                node: Node::Random,
                greg_floor: None,
                v7_floor: None,
                v7_check: V7Check::None,
                writes: 0,
            },
        });
        rows
    }

    #[test]
    fn restart_rules_table() {
        let now = Timestamp::from_unix_millis(NOW_MS);
        let rows = rows();
        let mut failures = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let got = restart(row.stored.as_ref(), now, &row.opts, row.locked);
            if got != row.want {
                failures.push(format!(
                    "row {i} ({}):\n  got  {got:?}\n  want {:?}",
                    row.why, row.want
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert_eq!(rows.len(), 35, "a row was added or lost: update the count");
    }

    /// The rows differ from one another: none is a copy that would pass for free.
    #[test]
    fn restart_rules_table_rows_are_distinct() {
        let rows = rows();
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                assert!(
                    a.stored != b.stored || a.opts != b.opts || a.locked != b.locked,
                    "rows {:?} and {:?} have the same inputs",
                    a.why,
                    b.why
                );
            }
        }
    }

    /// The v7 bound of a reservation: one row per rule of [`v7_reservation`].
    #[test]
    fn v7_reservation_table() {
        const R: u64 = 1_000; // the reserve
        const N: u64 = NOW_MS;
        // (why, floor, issued, clock, the bound written)
        type Row = (&'static str, Option<u64>, Option<u64>, u64, u64);
        #[rustfmt::skip]
        let rows: [Row; 9] = [
            ("first use: the clock plus the reserve", None, None, N, N + R),
            ("floor behind the clock, nothing issued: the clock plus the reserve",
                Some(N - 5_000), None, N, N + R),
            ("issuing follows the clock: the clock plus the reserve", Some(N - 5_000),
                Some(N), N, N + R),
            ("floor 5 s ahead (clock stepped back), nothing issued: the floor, not floor + reserve",
                Some(N + 5_000), None, N, N + 5_000),
            ("floor 5 s ahead, issued 1 ms above it: that millisecond, not + reserve",
                Some(N + 5_000), Some(N + 5_001), N, N + 5_001),
            ("floor within the reserve ahead: the clock plus the reserve",
                Some(N + 400), Some(N + 401), N, N + R),
            ("issued just beyond the clock plus the reserve: the issued millisecond",
                None, Some(N + R + 1), N, N + R + 1),
            ("at the end of the 48-bit range: capped", Some((1 << 48) - 1), None, N,
                (1 << 48) - 1),
            ("a clock near the end of the range: capped, no overflow", None, None,
                u64::MAX - 10, (1 << 48) - 1),
        ];
        let mut failures = Vec::new();
        for (i, (why, floor, issued, now, want)) in rows.iter().enumerate() {
            let got = v7_reservation(*floor, *issued, *now, R);
            if got != *want {
                failures.push(format!("row {i} ({why}): got {got}, want {want}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The v1/v6 bound of a reservation: one row per rule of [`greg_reservation`].
    #[test]
    fn greg_reservation_table() {
        const R: u64 = 10_000_000; // the reserve: 1 s of ticks
        let n = now_ticks();
        const H: u64 = 36_000_000_000; // an hour of ticks
                                       // (why, floor, issued, clock, the bound written)
        type Row = (&'static str, Option<u64>, Option<u64>, u64, u64);
        #[rustfmt::skip]
        let rows: [Row; 9] = [
            ("first use: the clock plus the reserve", None, None, n, n + R),
            ("floor behind the clock, nothing issued: the clock plus the reserve",
                Some(n - 5 * R), None, n, n + R),
            ("issuing follows the clock: the clock plus the reserve", Some(n - 5 * R),
                Some(n), n, n + R),
            ("floor an hour ahead (clock set back), nothing issued: the floor, not + reserve",
                Some(n + H), None, n, n + H),
            ("floor an hour ahead, issued above it: the issued plus a tenth of the reserve",
                Some(n + H), Some(n + H + 7), n, n + H + 7 + R / 10),
            ("issued within the reserve ahead: the clock plus the reserve",
                None, Some(n + R / 2), n, n + R),
            ("issued 0.95 reserve ahead: the issued plus a tenth of the reserve",
                None, Some(n + R * 95 / 100), n, n + R * 95 / 100 + R / 10),
            ("at the end of the 60-bit range: capped", Some((1 << 60) - 1), None, n,
                (1 << 60) - 1),
            ("a clock near the end of the range: capped, no overflow", None, None,
                u64::MAX - 10, (1 << 60) - 1),
        ];
        let mut failures = Vec::new();
        for (i, (why, floor, issued, now, want)) in rows.iter().enumerate() {
            let got = greg_reservation(*floor, *issued, *now, R);
            if got != *want {
                failures.push(format!("row {i} ({why}): got {got}, want {want}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// What a reset writes: one row per rule of [`reset`].
    #[test]
    fn reset_table() {
        let now = Timestamp::from_unix_millis(NOW_MS);
        let end = State {
            v7_unix_ms: (1 << 48) - 1,
            v7_counter: None,
            ..stored(false, 60_000, 0)
        };
        #[rustfmt::skip]
        let rows: Vec<(&str, Option<State>, Reset)> = vec![
            ("v7 bound at the end of the range: back to the clock; new clock sequence, node kept",
                Some(end),
                Reset { clock_seq_from: Some(0x1234), node: Node::Use(NODE),
                        gregorian_ticks: now_ticks(), v7_unix_ms: NOW_MS, writes: 42 }),
            ("bounds behind the clock (a clean state): the same, the bounds move up to the clock",
                Some(stored(true, -5_000, -5_000)),
                Reset { clock_seq_from: Some(0x1234), node: Node::Use(NODE),
                        gregorian_ticks: now_ticks(), v7_unix_ms: NOW_MS, writes: 42 }),
            ("nothing readable: random clock sequence and node, the first write",
                None,
                Reset { clock_seq_from: None, node: Node::Random,
                        gregorian_ticks: now_ticks(), v7_unix_ms: NOW_MS, writes: 1 }),
        ];
        for (why, s, want) in rows {
            assert_eq!(reset(s.as_ref(), now), want, "{why}");
        }
        // A clock before 1970 (outside the v7 range) reads as the earliest time, as in `restart`.
        let early = reset(None, Timestamp::from_gregorian_ticks(5));
        assert_eq!((early.gregorian_ticks, early.v7_unix_ms), (5, 0));
    }

    /// What [`accept_stored`] gives, in a form rows can compare.
    #[derive(Debug, PartialEq, Eq)]
    enum Accepted {
        Restart(Option<WarningKind>),
        Fresh(WarningKind),
        Error(StateErrorKind),
    }

    #[test]
    fn stored_state_table() {
        let path = Path::new("/var/lib/uuidkit/state");
        let s = stored(true, -1_000, -1_000);
        let found = |readable_by_others, untrusted: Option<&str>| {
            Ok(ReadOutcome::Found {
                state: s,
                readable_by_others,
                untrusted: untrusted.map(str::to_string),
            })
        };
        let missing = || Ok(ReadOutcome::Missing(std::io::ErrorKind::NotFound.into()));
        let failed = |kind| Err(StateError::new(kind, Some(path), "test"));
        use Accepted::*;
        use StateErrorKind as E;
        use WarningKind as W;
        #[rustfmt::skip]
        let rows: Vec<(&str, Result<ReadOutcome, StateError>, bool, Accepted)> = vec![
            ("a private file of ours: restart from it", found(false, None), false, Restart(None)),
            ("the same in strict mode", found(false, None), true, Restart(None)),
            ("readable by others: restart from it, warn, rewritten 0600",
                found(true, None), false, Restart(Some(W::Permissions))),
            ("readable by others, strict: the same (nothing untrusted)",
                found(true, None), true, Restart(Some(W::Permissions))),
            ("writable by others or another owner: start fresh, warn",
                found(false, Some("is writable by group or others")), false, Fresh(W::Discarded)),
            ("untrusted, strict: an error",
                found(false, Some("is writable by group or others")), true, Error(E::Untrusted)),
            ("missing: the first use, fresh, warn", missing(), false, Fresh(W::Missing)),
            ("missing, strict: still the first use", missing(), true, Fresh(W::Missing)),
            ("corrupt: start fresh, warn", failed(E::Corrupt), false, Fresh(W::Discarded)),
            ("corrupt, strict: an error", failed(E::Corrupt), true, Error(E::Corrupt)),
            ("unreadable (I/O): start fresh, warn", failed(E::Io), false, Fresh(W::Discarded)),
            ("unreadable, strict: an error", failed(E::Io), true, Error(E::Io)),
            ("a symbolic link or a non-file: always an error", failed(E::Unsafe), false, Error(E::Unsafe)),
            ("the same in strict mode", failed(E::Unsafe), true, Error(E::Unsafe)),
        ];
        let n = rows.len();
        let mut failures = Vec::new();
        for (i, (why, read, strict, want)) in rows.into_iter().enumerate() {
            let got = match accept_stored(path, read, strict) {
                Ok((Some(got), w)) => {
                    assert_eq!(
                        got, s,
                        "row {i} ({why}): the state read is the state restarted from"
                    );
                    Restart(w.map(|w| w.kind()))
                }
                Ok((None, Some(w))) => Fresh(w.kind()),
                Ok((None, None)) => panic!("row {i} ({why}): a fresh start without a warning"),
                Err(e) => Error(e.kind()),
            };
            if got != want {
                failures.push(format!("row {i} ({why}): got {got:?}, want {want:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert_eq!(n, 14, "a row was added or lost: update the count");
    }
}

//! The durable generator: v1, v6 and v7 generators whose state lives in the state file, renewed
//! ahead of issuing, so that no restart or crash makes them repeat.

use std::path::Path;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use uuidkit::generator::{
    self, fork_generation, Clock, GregorianBuilder, SystemClock, ThreadRng, V6Generator, V7Builder,
    V7Generator, V7Method,
};
use uuidkit::{Timestamp, Uuid};

use super::error::{StateError, StateErrorKind, StateWarning, WarningKind};
use super::file::{read_state, StateFile};
use super::format::{v7_le, State, V7Pos, WHOLE_MS};
use super::options::StateOptions;
use super::restart::{
    accept_stored, greg_margin, greg_reservation, restart, v7_reservation, Behind, ClockSeq, Node,
    Restart, V7Check,
};
use super::safety::Safety;
use super::version::TimeVersion;
use super::writer::Writer;

/// The width of the v7 counter after the millisecond (RFC 9562 §6.2 Method 1): the rest of
/// the 74 bits after the timestamp, 32, is random in every UUID. A [`V7Range`] says it, so
/// that a client lays out the UUIDs of a range as this generator would.
pub const V7_COUNTER_BITS: u8 = 42;

/// In non-strict mode, how often a failed write is tried again.
const RETRY_INTERVAL: Duration = Duration::from_secs(1);

/// A clock shared by the two inner generators.
#[derive(Debug)]
struct SharedClock<C>(Arc<C>);

impl<C: Clock> Clock for SharedClock<C> {
    fn now(&self) -> Timestamp {
        self.0.now()
    }
    fn resolution_nanos(&self) -> u64 {
        self.0.resolution_nanos()
    }
}

/// Sleeps until `clock` reads a millisecond after `ms`, or `limit_ms` of real time (plus a
/// little) has passed — a clock that does not move must not hang the caller. `Err` with the
/// time waited when `interrupted` says so (polled at least every 10 ms).
fn wait_for_clock<C: Clock + ?Sized>(
    clock: &C,
    ms: u64,
    limit_ms: u64,
    interrupted: Option<fn() -> bool>,
) -> Result<Duration, Duration> {
    let start = Instant::now();
    let limit = Duration::from_millis(limit_ms + 100);
    loop {
        if interrupted.is_some_and(|f| f()) {
            return Err(start.elapsed());
        }
        let now = clock.now().unix_millis().unwrap_or(0);
        if now > ms || start.elapsed() >= limit {
            return Ok(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis((ms - now).clamp(1, 10)));
    }
}

/// v1, v6 and v7 generators whose state lives in a file, so that no restart or crash makes
/// them repeat (see the [module docs](crate::state)).
///
/// v1 and v6 share one timeline (one clock sequence and node, each timestamp used once), so a
/// v1 converted to v6 never equals a v6 issued here. Each version's UUIDs increase (v1 by
/// timestamp) while the generator runs and across restarts; the clock going back does not
/// change that (the timestamps run ahead of it instead; across a restart, v1/v6 also take the
/// next clock sequence, RFC 4122 §4.2.1).
///
/// ```
/// use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};
/// let dir = std::env::temp_dir().join(format!("uuidkit-doc-DurableGenerator-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("state");
/// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
/// let (a, safety) = g.next(TimeVersion::V7)?;
/// assert_eq!(safety, Safety::Durable);
/// g.close()?;
///
/// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
/// assert!(g.warnings().is_empty());
/// assert!(g.next(TimeVersion::V7)?.0 > a);
/// # drop(g);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), uuidkit_service::state::StateError>(())
/// ```
#[derive(Debug)]
pub struct DurableGenerator<C: Clock = SystemClock> {
    file: Arc<StateFile>,
    /// Writes early renewals in the background, so that issuing does not wait for `fsync`
    /// while the current reservation still covers it. `None` without the lock, or if the
    /// thread could not start (writes are then synchronous).
    writer: Option<Writer>,
    clock: Arc<C>,
    gen6: V6Generator<SharedClock<C>, ThreadRng>,
    gen7: V7Generator<SharedClock<C>, ThreadRng>,
    /// The stored v1/v6 bound this run continues above (whatever its clock sequence), if any.
    greg_floor: Option<u64>,
    /// Whether this run has issued a v1/v6 timestamp (the inner generator's last timestamp is
    /// otherwise the floor it resumed after).
    greg_issued: bool,
    /// The v7 position issued before this run, if any.
    v7_floor: Option<V7Pos>,
    /// Whether this run has issued a v7 (the inner generator's last position is otherwise the
    /// floor it resumed after).
    v7_issued: bool,
    /// Whether the current run of volatile UUIDs (writes failing) has been reported by
    /// [`durability_change`](DurableGenerator::durability_change); the change to report, if any.
    volatile_reported: bool,
    durability_change: Option<DurabilityChange>,
    /// What the file covers now, for the current clock sequence and node.
    durable_greg: Option<u64>,
    durable_v7: Option<V7Pos>,
    writes: u64,
    reserve: Duration,
    strict: bool,
    warnings: Vec<StateWarning>,
    write_error: Option<StateError>,
    last_attempt: Option<Instant>,
    fork_gen: u64,
    closed: bool,
}

impl DurableGenerator<SystemClock> {
    /// Opens (or creates) the state file at `path` on the system clock, takes its lock and
    /// writes a first reservation.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, Safety, State, StateOptions, TimeVersion, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-open-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert_eq!(g.warnings()[0].kind(), WarningKind::Missing); // the first use
    /// assert_eq!(std::fs::metadata(&path)?.len(), 64);
    /// let (u, safety) = g.next(TimeVersion::V7)?;
    /// assert_eq!((u.version_num(), safety), (7, Safety::Durable));
    /// // The file already covers `u`: a reservation ahead of it.
    /// assert!(Some(State::read(&path)?.v7_unix_ms) >= u.unix_ts_ms());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(path: impl AsRef<Path>, opts: StateOptions) -> Result<Self, StateError> {
        DurableGenerator::open_with_clock(path, opts, SystemClock)
    }
}

impl<C: Clock> DurableGenerator<C> {
    /// [`open`](DurableGenerator::open) with another clock (tests use a steppable one).
    ///
    /// ```
    /// use uuidkit::generator::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-open_with_clock-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// // The instant of RFC 9562 Appendix A.6: 2022-02-22T19:22:22Z.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(0x017F22E279B0));
    /// let mut g = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// let (a, _) = g.next(TimeVersion::V7)?;
    /// let (b, _) = g.next(TimeVersion::V7)?;
    /// // A clock that stands still: the same millisecond, ordered by the counter.
    /// assert_eq!(a.unix_ts_ms(), Some(0x017F22E279B0));
    /// assert_eq!(b.unix_ts_ms(), Some(0x017F22E279B0));
    /// assert!(a < b);
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_with_clock(
        path: impl AsRef<Path>,
        opts: StateOptions,
        clock: C,
    ) -> Result<Self, StateError> {
        let path = path.as_ref();
        let strict = opts.strict;
        let mut warnings = Vec::new();
        let mut lock_error = None;
        let file = match StateFile::open(path, opts.lock_wait) {
            Ok(f) => f,
            Err(e) if strict || e.kind() != StateErrorKind::Io => return Err(e),
            Err(e) => {
                // Typically a read-only file system, or a lock path that is a directory: the
                // state cannot be written, nothing keeps another generator off this file, and
                // the restart rules choose a new random clock sequence and node (the warning
                // below says which).
                lock_error = Some(e);
                StateFile::unlocked(path)
            }
        };
        let locked = lock_error.is_none();

        let (stored, warning) = accept_stored(path, read_state(path), strict)?;
        warnings.extend(warning);

        let clock = Arc::new(clock);
        let now = clock.now();
        let start = restart(stored.as_ref(), now, &opts, locked);
        // Carry the decision out: random draws (clock sequence first, then node, as always),
        // the warnings, the catch-up wait.
        let mut rng = ThreadRng;
        let clock_seq = match start.clock_seq {
            ClockSeq::Random => generator::random_clock_seq(&mut rng, 14),
            ClockSeq::Keep(seq) => seq,
            ClockSeq::NewRandom {
                from,
                old_node,
                new_node,
            } => {
                let seq = generator::new_clock_seq(&mut rng, 14, from);
                warnings.push(StateWarning::new(
                    WarningKind::NodeChanged,
                    format!(
                        "node changed from {} to {}: new random clock sequence {seq:#06x}",
                        hex_node(&old_node),
                        hex_node(&new_node)
                    ),
                ));
                seq
            }
            ClockSeq::Increment {
                from,
                to,
                stored_ticks,
                why,
            } => {
                let why = match why {
                    Behind::ClockSetBack => "the clock was set back",
                    Behind::UncleanReservation => {
                        "the last run ended without a clean shutdown, and its reservation lies ahead"
                    }
                };
                warnings.push(StateWarning::new(
                    WarningKind::ClockSequenceChanged,
                    format!(
                        "the clock ({}) reads before the stored v1/v6 timestamp ({}): {why}; \
                         clock sequence {from:#06x} -> {to:#06x}; v1/v6 timestamps continue \
                         above the stored one",
                        now.to_rfc3339(7),
                        Timestamp::from_gregorian_ticks(stored_ticks).to_rfc3339(7),
                    ),
                ));
                to
            }
            ClockSeq::Unlocked { from } => match from {
                Some(from) => generator::new_clock_seq(&mut rng, 14, from),
                None => generator::random_clock_seq(&mut rng, 14),
            },
        };
        let node = match start.node {
            Node::Random => generator::random_node(&mut rng),
            Node::Use(node) => node,
        };
        if let Some(e) = &lock_error {
            warnings.push(StateWarning::new(
                WarningKind::Unlocked,
                format!(
                    "{e}; running without the lock, so another generator may use this state \
                     file too: v1/v6 use a new random clock sequence {clock_seq:#06x} and a \
                     random node {}{}, the state file is never written, and every UUID is \
                     marked not durable",
                    hex_node(&node),
                    match stored {
                        Some(s) => format!(
                            " instead of the stored {:#06x} and {}",
                            s.clock_seq,
                            hex_node(&s.node)
                        ),
                        None => String::new(),
                    }
                ),
            ));
        }
        match start.v7_check {
            V7Check::None => {}
            V7Check::WaitForClock { until_ms, limit_ms } => {
                if let Some(announce) = opts.hooks.announce {
                    announce(&StateWarning::new(
                        WarningKind::WaitedForClock,
                        format!(
                            "the last run did not end cleanly: waiting up to {} ms for the clock \
                             to pass its reservations ({})",
                            until_ms.saturating_sub(now.unix_millis().unwrap_or(0)),
                            Timestamp::from_unix_millis(until_ms).to_rfc3339(3),
                        ),
                    ));
                }
                let waited = wait_for_clock(&*clock, until_ms, limit_ms, opts.hooks.interrupted)
                    .map_err(|waited| {
                        StateError::new(
                            StateErrorKind::Interrupted,
                            Some(path),
                            format!(
                                "interrupted after waiting {} ms for the clock to pass the \
                                 reservation of the last run; the state file was left as it was",
                                waited.as_millis()
                            ),
                        )
                    })?;
                warnings.push(StateWarning::new(
                    WarningKind::WaitedForClock,
                    format!(
                        "waited {} ms for the clock to pass the reservations of the last \
                         run, which did not end cleanly",
                        waited.as_millis()
                    ),
                ));
            }
            V7Check::AheadOfClock { bound_ms, gap_ms } => {
                warnings.push(StateWarning::new(
                    WarningKind::V7AheadOfClock,
                    format!(
                        "the stored v7 bound ({}) is {gap_ms} ms ahead of the clock: v7 timestamps \
                         run ahead until the clock catches up",
                        Timestamp::from_unix_millis(bound_ms).to_rfc3339(3),
                    ),
                ));
            }
        }
        let Restart {
            greg_floor,
            v7_floor,
            writes,
            ..
        } = start;

        // The service's promise is order: the generators never follow the clock back while
        // running (they count on from their last timestamp instead).
        let gen6 = GregorianBuilder::new()
            .node(node)
            .clock_seq(clock_seq)
            .regression_threshold(Duration::MAX)
            .build_v6(SharedClock(Arc::clone(&clock)), ThreadRng)
            .map_err(|e| StateError::generator(path, e))?;
        let gen7 = V7Builder::new()
            .method(V7Method::Counter {
                bits: V7_COUNTER_BITS,
            })
            .regression_threshold(Duration::MAX)
            .build(SharedClock(Arc::clone(&clock)), ThreadRng)
            .map_err(|e| StateError::generator(path, e))?;
        let mut g = DurableGenerator {
            file: Arc::new(file),
            writer: None,
            clock,
            gen6,
            gen7,
            greg_floor,
            v7_floor,
            v7_issued: false,
            greg_issued: false,
            volatile_reported: false,
            durability_change: None,
            durable_greg: None,
            durable_v7: None,
            writes,
            reserve: opts.reserve.max(Duration::from_millis(1)),
            strict,
            warnings,
            write_error: None,
            last_attempt: None,
            fork_gen: fork_generation(),
            closed: false,
        };
        if let Some(t) = greg_floor {
            g.gen6.resume_after(t);
        }
        if let Some((ms, c)) = v7_floor {
            g.gen7.resume_after(ms, c.map(u128::from));
        }
        if g.file.lock.is_some() {
            let first = g.reservation();
            if let Err(e) = g.write_now(first) {
                if strict {
                    return Err(e);
                }
                g.warnings.push(StateWarning::new(
                    WarningKind::WriteFailed,
                    format!("{e}; UUIDs are not durably safe until a write succeeds"),
                ));
                g.write_error = Some(e);
            }
            g.writer = Writer::start(&g.file);
        }
        // Opening already reported (in the warnings) that UUIDs start out volatile.
        g.volatile_reported = !g.is_durable();
        Ok(g)
    }

    fn reserve_span_ticks(&self) -> u64 {
        (self.reserve.as_nanos() / 100).min(1 << 40) as u64
    }

    fn reserve_ms(&self) -> u64 {
        (self.reserve.as_millis()).clamp(1, 1 << 30) as u64
    }

    /// The last v1/v6 timestamp issued (or reserved by the stored bound), this run or before.
    fn greg_high(&self) -> Option<u64> {
        match (self.gen6.last_ticks(), self.greg_floor) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// The last v7 position issued, this run or before.
    fn v7_high(&self) -> Option<V7Pos> {
        let issued = self.gen7.last_unix_ms().map(|ms| {
            let c = self
                .gen7
                .last_counter()
                .and_then(|c| u64::try_from(c).ok())
                .filter(|&c| c != WHOLE_MS);
            (ms, c)
        });
        match (issued, self.v7_floor) {
            (Some(a), Some(b)) => Some(if v7_le(a, b) { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// The v1/v6 bound a reservation written now would hold ([`greg_reservation`]).
    fn greg_target(&self, now_ticks: u64) -> u64 {
        let issued = if self.greg_issued {
            self.gen6.last_ticks()
        } else {
            None
        };
        greg_reservation(
            self.greg_floor,
            issued,
            now_ticks,
            self.reserve_span_ticks(),
        )
    }

    /// The v7 bound a reservation written now would hold ([`v7_reservation`]).
    fn v7_target(&self, now_ms: u64) -> u64 {
        let issued = if self.v7_issued {
            self.gen7.last_unix_ms()
        } else {
            None
        };
        v7_reservation(
            self.v7_floor.map(|p| p.0),
            issued,
            now_ms,
            self.reserve_ms(),
        )
    }

    /// A new reservation: the v1/v6 bound as [`greg_reservation`] says, the v7 bound as
    /// [`v7_reservation`] says (neither more than the reserve ahead of the clock unless UUIDs
    /// were issued there, or the stored bound was).
    fn reservation(&self) -> State {
        let now = self.clock.now();
        let now_ticks = now.gregorian_ticks().unwrap_or(0);
        let now_ms = now.unix_millis().unwrap_or(0);
        let greg = self.greg_target(now_ticks);
        let v7 = self.v7_target(now_ms);
        State {
            gregorian_ticks: greg,
            clock_seq: self.gen6.clock_seq(),
            node: self.gen6.node(),
            v7_unix_ms: v7,
            v7_counter: None,
            clean: false,
            writes: self.writes.wrapping_add(1),
        }
    }

    /// Writes `s` now, in this thread (after any background write has finished).
    fn write_now(&mut self, s: State) -> Result<(), StateError> {
        self.wait_writer();
        self.last_attempt = Some(Instant::now());
        let r = self.file.write(&s).map(|()| s);
        match r {
            Ok(s) => {
                self.applied(Ok(s));
                Ok(())
            }
            Err(e) => {
                let copy = e.duplicate();
                self.applied(Err(e));
                Err(copy)
            }
        }
    }

    /// Records the outcome of a write.
    fn applied(&mut self, r: Result<State, StateError>) {
        match r {
            Ok(s) => {
                self.writes = s.writes;
                self.durable_greg = Some(s.gregorian_ticks);
                self.durable_v7 = Some((s.v7_unix_ms, s.v7_counter));
                self.write_error = None;
            }
            Err(e) => self.write_error = Some(e),
        }
    }

    /// Starts writing a new reservation in the background (or, without the writer thread,
    /// writes it now).
    fn start_renewal(&mut self) {
        let s = self.reservation();
        self.last_attempt = Some(Instant::now());
        if let Some(w) = &mut self.writer {
            if !w.in_flight {
                if w.tx.send(s).is_ok() {
                    w.in_flight = true;
                    return;
                }
                self.writer = None;
            } else {
                return;
            }
        }
        let _ = self.write_now(s);
    }

    /// Collects the background write's outcome if it is done.
    fn poll_writer(&mut self) {
        let Some(w) = &mut self.writer else { return };
        if !w.in_flight {
            return;
        }
        match w.rx.try_recv() {
            Ok(r) => {
                w.in_flight = false;
                self.applied(r);
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => self.writer = None,
        }
    }

    /// Waits for the background write, if one is in flight.
    fn wait_writer(&mut self) {
        let Some(w) = &mut self.writer else { return };
        if !w.in_flight {
            return;
        }
        match w.rx.recv() {
            Ok(r) => {
                w.in_flight = false;
                self.applied(r);
            }
            Err(_) => self.writer = None,
        }
    }

    /// Whether a write may be tried now: always without a previous failure (or in strict
    /// mode); after one, at most once per RETRY_INTERVAL — each UUID paying for a failing
    /// `fsync` would be worse than useless.
    fn write_due(&self) -> bool {
        self.file.lock.is_some()
            && (self.strict
                || self.write_error.is_none()
                || self
                    .last_attempt
                    .is_none_or(|t| t.elapsed() >= RETRY_INTERVAL))
    }

    /// Records whether the UUIDs just issued are covered, for
    /// [`durability_change`](Self::durability_change).
    fn note_durability(&mut self, durable: bool) {
        // Nothing new: durable and no episode open, or volatile and the episode reported.
        if durable != self.volatile_reported {
            return;
        }
        self.volatile_reported = !durable;
        self.durability_change = Some(if durable {
            DurabilityChange::Durable
        } else {
            DurabilityChange::Volatile(match &self.write_error {
                Some(e) => e.to_string(),
                None => "the state file does not cover them".to_string(),
            })
        });
    }

    /// Whether this is a forked child of the process that opened the generator.
    fn forked(&self) -> bool {
        fork_generation() != self.fork_gen
    }

    fn check_open(&self) -> Result<(), StateError> {
        if self.closed {
            return Err(StateError::new(
                StateErrorKind::Closed,
                Some(&self.file.path),
                "the generator is closed",
            ));
        }
        if self.strict && self.forked() {
            return Err(StateError::new(
                StateErrorKind::Forked,
                Some(&self.file.path),
                "this is a forked child of the process that holds the state; it cannot issue \
                 durable UUIDs",
            ));
        }
        Ok(())
    }

    /// Renews the reservation when issuing came near it, and says whether the file covers
    /// `greg`/`v7` (the last positions just issued).
    fn cover(&mut self, greg: Option<u64>, v7: Option<V7Pos>) -> Result<Safety, StateError> {
        if self.forked() {
            return Ok(Safety::Volatile);
        }
        let covered = |s: &Self| {
            greg.is_none_or(|t| s.durable_greg.is_some_and(|d| t <= d))
                && v7.is_none_or(|p| s.durable_v7.is_some_and(|d| v7_le(p, d)))
        };
        let half_t = self.reserve_span_ticks() / 2;
        let half_ms = self.reserve_ms() / 2;
        // Near the reservation: within half the reserve of it near the clock, within half the
        // margin while ahead of it (where a renewal reaches only the margin further).
        let half_margin = greg_margin(self.reserve_span_ticks()) / 2;
        let near = greg.is_some_and(|t| {
            self.durable_greg.is_none_or(|d| {
                t.saturating_add(half_t) > d
                    && (t.saturating_add(half_margin) > d
                        || self.greg_target(self.clock.now().gregorian_ticks().unwrap_or(0))
                            >= d.saturating_add(half_t))
            })
        }) || v7.is_some_and(|p| {
            // Near the reservation, and a new one would move it (running ahead of the clock,
            // it stays where issuing is: renewing would only write the same bound again).
            self.durable_v7.is_none_or(|d| {
                p.0.saturating_add(half_ms) > d.0
                    && self.v7_target(self.clock.now().unix_millis().unwrap_or(0)) > d.0
            })
        });
        self.poll_writer();
        let in_flight = self.writer.as_ref().is_some_and(|w| w.in_flight);
        if near && !in_flight && self.write_due() {
            // Renew early, in the background: the current reservation still covers issuing.
            self.start_renewal();
        }
        if !covered(self) {
            // Beyond the reservation: wait for the renewal under way, and if it does not cover
            // these UUIDs (a large batch, a failure), write one now.
            self.wait_writer();
            if !covered(self) && self.write_due() {
                let s = self.reservation();
                let _ = self.write_now(s);
            }
        }
        let durable = covered(self);
        if durable || !self.strict {
            // Strict mode issues nothing uncovered: its failures are errors, not an episode.
            self.note_durability(durable);
        }
        if durable {
            Ok(Safety::Durable)
        } else if self.strict {
            Err(match self.write_error.take() {
                Some(e) => e,
                None => StateError::new(
                    StateErrorKind::Write,
                    Some(&self.file.path),
                    "the state file does not cover the UUIDs",
                ),
            })
        } else {
            Ok(Safety::Volatile)
        }
    }

    /// The next UUID of `version`, and whether the state file covers it.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-next-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// let (v1, safety) = g.next(TimeVersion::V1)?;
    /// let (v6, _) = g.next(TimeVersion::V6)?;
    /// assert_eq!((v1.version_num(), v6.version_num(), safety), (1, 6, Safety::Durable));
    /// // One timeline for v1 and v6: the v6 comes later, with the same clock sequence and node.
    /// assert!(v6.gregorian_ticks() > v1.gregorian_ticks());
    /// assert_eq!(v6.clock_seq(), v1.clock_seq());
    /// assert_eq!(v6.node(), v1.node());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // Not `Iterator::next`: generation can fail and takes an argument.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self, version: TimeVersion) -> Result<(Uuid, Safety), StateError> {
        let mut one = [Uuid::NIL];
        let safety = self.fill(version, &mut one)?;
        Ok((one[0], safety))
    }

    /// Fills `out` with increasing UUIDs of `version` (v1: increasing timestamps), and says
    /// whether the state file covers all of them. In strict mode, UUIDs the file does not
    /// cover are never returned: the call fails with [`StateErrorKind::Write`].
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, Safety, StateOptions, TimeVersion};
    /// use uuidkit::Uuid;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-fill-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// let mut batch = [Uuid::NIL; 4];
    /// assert_eq!(g.fill(TimeVersion::V7, &mut batch)?, Safety::Durable);
    /// assert!(batch.windows(2).all(|w| w[0] < w[1]));
    /// assert!(batch.iter().all(|u| u.version_num() == 7));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill(&mut self, version: TimeVersion, out: &mut [Uuid]) -> Result<Safety, StateError> {
        self.check_open()?;
        if out.is_empty() {
            return Ok(Safety::Durable);
        }
        match version {
            TimeVersion::V1 | TimeVersion::V6 => {
                // One v1/v6 timeline: the v6 generator issues both layouts.
                let r = if version == TimeVersion::V1 {
                    self.gen6.fill_v1(out)
                } else {
                    self.gen6.fill(out)
                };
                r.map_err(|e| StateError::generator(&self.file.path, e))?;
                self.greg_issued = true;
                let last = self.gen6.last_ticks();
                self.cover(last, None)
            }
            TimeVersion::V7 => {
                self.gen7
                    .fill(out)
                    .map_err(|e| StateError::generator(&self.file.path, e))?;
                self.v7_issued = true;
                let last = self.v7_high();
                self.cover(None, last)
            }
        }
    }

    /// Reserves `count` consecutive v1/v6 timestamps for one caller, who lays the UUIDs out
    /// itself (a range reply; util-linux uuidd's bulk time request): the UUIDs of timestamps
    /// `first_ticks..first_ticks + count` with the range's clock sequence and node. They are
    /// taken from the one v1/v6 timeline as [`fill`](Self::fill) of `count` would take them,
    /// so they never overlap a v1 or v6 issued before or after, and the state file covers
    /// them in the same way (the reservation is written ahead of them before the call returns
    /// if it does not cover them yet): no restart or crash issues them again. In strict mode
    /// a range the file does not cover is never returned. A large range runs the timeline
    /// ahead of the clock (a tick is 100 ns: 8192 ticks are 0.8 ms, `u32::MAX` about
    /// 7 minutes), so a server caps what one request may ask, and charges every timestamp to
    /// the asking user's budget (the [`server`](crate::server) module docs, "One user cannot
    /// move the clock"). A `count` of 0 reserves nothing: an empty range (`first_ticks` 0).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// use uuidkit_service::state::{DurableGenerator, Safety, State, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-reserve_ticks-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// let (before, _) = g.next(TimeVersion::V1)?;
    /// let r = g.reserve_ticks(8192)?;
    /// assert_eq!((r.count, r.safety), (8192, Safety::Durable));
    /// assert!(Some(r.first_ticks) > before.gregorian_ticks());
    /// // The caller expands it: one v1 (or v6) per timestamp.
    /// let last = Uuid::from_v1_parts(r.last_ticks().unwrap(), r.clock_seq, r.node);
    /// assert_eq!(r.v1(8191), Some(last));
    /// assert!(State::read(&path)?.gregorian_ticks >= r.last_ticks().unwrap()); // covered
    /// let (after, _) = g.next(TimeVersion::V6)?;
    /// assert!(after.gregorian_ticks() > r.last_ticks());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reserve_ticks(&mut self, count: u32) -> Result<TickRange, StateError> {
        self.check_open()?;
        if count == 0 {
            return Ok(TickRange {
                first_ticks: 0,
                count,
                clock_seq: self.gen6.clock_seq(),
                node: self.gen6.node(),
                safety: Safety::Durable,
            });
        }
        let first = self
            .gen6
            .take_ticks(count.into())
            .map_err(|e| StateError::generator(&self.file.path, e))?;
        self.greg_issued = true;
        let last = self.gen6.last_ticks();
        let safety = self.cover(last, None)?;
        Ok(TickRange {
            first_ticks: first,
            count,
            clock_seq: self.gen6.clock_seq(),
            node: self.gen6.node(),
            safety,
        })
    }

    /// Reserves up to `count` consecutive v7 counter values of one millisecond for one caller,
    /// who lays the UUIDs out itself, drawing their random bits (a range reply): the v7 UUIDs
    /// whose 48-bit timestamp is `unix_ms` and whose [`V7_COUNTER_BITS`]-bit counter (right
    /// after it) runs from `first_counter` to `first_counter + count - 1`. They come from the
    /// one v7 sequence (as [`fill`](Self::fill) would take them), so every v7 issued before
    /// is less and every v7 issued after is greater than all of them, and the state file
    /// covers them as it covers a fill: no restart or crash issues a v7 at or below them
    /// again. In strict mode a range the file does not cover is never returned. Fewer than
    /// `count` come when the millisecond's counter runs out first (it starts below half its
    /// range, so more than 2^41 fit); a `count` of 0 reserves nothing (an empty range).
    ///
    /// ```
    /// use uuidkit::Uuid;
    /// use uuidkit_service::state::{DurableGenerator, Safety, State, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-reserve_v7-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// let (before, _) = g.next(TimeVersion::V7)?;
    /// let r = g.reserve_v7(4096)?;
    /// assert_eq!((r.count, r.safety), (4096, Safety::Durable));
    /// // The caller expands it with random bits of its own.
    /// let first = r.uuid(0, 0xdead_beef).unwrap();
    /// let last = r.uuid(4095, 0).unwrap();
    /// assert!(before < first && first < last);
    /// assert!(State::read(&path)?.v7_unix_ms >= r.unix_ms); // covered
    /// let (after, _) = g.next(TimeVersion::V7)?;
    /// assert!(after > r.uuid(4095, u64::MAX).unwrap());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reserve_v7(&mut self, count: u32) -> Result<V7Range, StateError> {
        self.check_open()?;
        let empty = |unix_ms| V7Range {
            unix_ms,
            first_counter: 0,
            count: 0,
            counter_bits: V7_COUNTER_BITS,
            safety: Safety::Durable,
        };
        if count == 0 {
            return Ok(empty(0));
        }
        let gen_err = |s: &Self, e| StateError::generator(&s.file.path, e);
        // The first of the range as any v7 (a new millisecond, a counter overflow, the clock
        // going back: all as for a fill), its random bits thrown away; the rest follow it in
        // the same millisecond, and the generator goes on after the last.
        self.gen7.next().map_err(|e| gen_err(self, e))?;
        self.v7_issued = true;
        let (Some(unix_ms), Some(first)) = (self.gen7.last_unix_ms(), self.gen7.last_counter())
        else {
            return Ok(empty(0));
        };
        let max = (1u128 << V7_COUNTER_BITS) - 1;
        let n = (max - first.min(max) + 1).min(count.into());
        let last = first + n - 1;
        if n > 1 {
            self.gen7.resume_after(unix_ms, Some(last));
        }
        let safety = self.cover(None, self.v7_high())?;
        Ok(V7Range {
            unix_ms,
            // The counter has V7_COUNTER_BITS (< 64) bits.
            first_counter: first as u64,
            count: n as u32,
            counter_bits: V7_COUNTER_BITS,
            safety,
        })
    }

    /// Writes the exact last positions (marked clean), so that the next run continues right
    /// after them instead of after the reservation. Generation may go on afterwards (the next
    /// UUID renews the reservation). In a forked child, does nothing.
    ///
    /// ```
    /// use uuidkit::generator::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-flush-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(1_645_557_742_000));
    /// let mut g = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// let (v6, _) = g.next(TimeVersion::V6)?;
    /// let (v7, _) = g.next(TimeVersion::V7)?;
    /// assert_eq!(State::read(&path)?.v7_unix_ms, 1_645_557_742_000 + 1_000); // the reservation
    /// g.flush()?;
    /// let s = State::read(&path)?;
    /// assert!(s.clean);
    /// assert_eq!(Some(s.gregorian_ticks), v6.gregorian_ticks());
    /// assert_eq!(Some(s.v7_unix_ms), v7.unix_ts_ms());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flush(&mut self) -> Result<(), StateError> {
        if self.forked() {
            return Ok(());
        }
        let greg = self.greg_high().unwrap_or(0);
        let (v7_ms, v7_counter) = self.v7_high().unwrap_or((0, None));
        if self.file.lock.is_none() {
            return Ok(());
        }
        self.wait_writer();
        self.write_now(State {
            gregorian_ticks: greg,
            clock_seq: self.gen6.clock_seq(),
            node: self.gen6.node(),
            v7_unix_ms: v7_ms,
            v7_counter,
            clean: true,
            writes: self.writes.wrapping_add(1),
        })
    }

    /// Flushes and closes: later calls fail with [`StateErrorKind::Closed`]. The lock file
    /// (`PATH.lock`) is removed, still locked, and the lock released when the generator is
    /// dropped.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-close-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// g.next(TimeVersion::V7)?;
    /// g.close()?;
    /// assert!(State::read(&path)?.clean);
    /// assert!(!dir.join("state.lock").exists()); // nothing left but the state file
    /// // The lock is free again.
    /// let g = DurableGenerator::open(&path, StateOptions::new())?;
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn close(mut self) -> Result<(), StateError> {
        let r = self.flush();
        self.closed = true;
        if !self.forked() {
            self.file.remove_lock_file();
        }
        r
    }

    /// Flushes and refuses further UUIDs, without dropping the generator (a server shares it
    /// between threads and shuts down while they still hold it). The lock file (`PATH.lock`)
    /// is removed, while still locked: a next generator may open the state file at once.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateErrorKind, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-shut_down-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// g.next(TimeVersion::V6)?;
    /// g.shut_down()?;
    /// assert!(State::read(&path)?.clean);
    /// let err = g.next(TimeVersion::V6).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Closed);
    /// g.shut_down()?; // a second call does nothing
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shut_down(&mut self) -> Result<(), StateError> {
        if self.closed {
            return Ok(());
        }
        let r = self.flush();
        self.closed = true;
        if !self.forked() {
            // The file is not written again: a next generator may take it from here.
            self.file.remove_lock_file();
        }
        r
    }

    /// What was found when the state was opened (missing file, corruption, clock sequence
    /// changes, a failed first write).
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-warnings-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert_eq!(g.warnings().len(), 1);
    /// assert_eq!(g.warnings()[0].kind(), WarningKind::Missing);
    /// g.close()?;
    /// // A clean shutdown and a clock that went on: nothing to report.
    /// let g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(g.warnings().is_empty());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn warnings(&self) -> &[StateWarning] {
        &self.warnings
    }

    /// Whether the state file is being kept: the lock is held, the last write succeeded, and
    /// this is not a forked child. When false, new UUIDs are (or soon become) volatile.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-is_durable-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(g.is_durable());
    /// // A directory where the temporary file must go makes every write fail.
    /// let tmp = dir.join("state.tmp");
    /// std::fs::create_dir(&tmp)?;
    /// assert!(g.flush().is_err());
    /// assert!(!g.is_durable());
    /// std::fs::remove_dir(&tmp)?;
    /// g.flush()?;
    /// assert!(g.is_durable());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_durable(&self) -> bool {
        self.file.lock.is_some() && self.write_error.is_none() && !self.forked()
    }

    /// Once per episode, a change in what issued UUIDs are: the first volatile UUID after
    /// durable ones (a write failed: disk full, a read-only file system), or the first durable
    /// one after volatile ones. Taking it clears it; a long run of volatile UUIDs gives one
    /// change, not one per UUID. Opening volatile (see [`warnings`](Self::warnings)) is not a
    /// change. A server logs these.
    ///
    /// ```
    /// use uuidkit::generator::StepClock;
    /// use uuidkit::Timestamp;
    /// use uuidkit_service::state::{DurabilityChange, DurableGenerator, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-durability_change-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_645_557_742_000));
    /// let mut g = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// g.next(TimeVersion::V7)?;
    /// assert_eq!(g.durability_change(), None);
    /// // A directory where the temporary file must go makes every write fail; 2 s later the
    /// // 1 s reservation no longer covers what is issued.
    /// let tmp = dir.join("state.tmp");
    /// std::fs::create_dir(&tmp)?;
    /// g.clock().advance(2_000_000_000);
    /// g.next(TimeVersion::V7)?;
    /// g.next(TimeVersion::V7)?;
    /// assert!(matches!(g.durability_change(), Some(DurabilityChange::Volatile(_))));
    /// assert_eq!(g.durability_change(), None); // once per episode
    /// std::fs::remove_dir(&tmp)?;
    /// g.flush()?;
    /// g.next(TimeVersion::V7)?;
    /// assert_eq!(g.durability_change(), Some(DurabilityChange::Durable));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn durability_change(&mut self) -> Option<DurabilityChange> {
        self.durability_change.take()
    }

    /// The error of the last write, while writes fail; `None` once one succeeds again.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateErrorKind, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-last_write_error-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(g.last_write_error().is_none());
    /// // A directory where the temporary file must go makes every write fail.
    /// let tmp = dir.join("state.tmp");
    /// std::fs::create_dir(&tmp)?;
    /// let _ = g.flush();
    /// let err = g.last_write_error().map(|e| (e.kind(), e.path().map(|p| p.to_path_buf())));
    /// assert_eq!(err, Some((StateErrorKind::Write, Some(path.clone()))));
    /// std::fs::remove_dir(&tmp)?;
    /// g.flush()?;
    /// assert!(g.last_write_error().is_none());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn last_write_error(&self) -> Option<&StateError> {
        self.write_error.as_ref()
    }

    /// The state file's path.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-path-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert_eq!(g.path(), path);
    /// // Beside it: the lock file, kept for good.
    /// assert!(dir.join("state.lock").exists());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.file.path
    }

    /// The v1/v6 clock sequence in use.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-clock_seq-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(g.clock_seq() <= 0x3FFF); // 14 bits
    /// assert_eq!(g.next(TimeVersion::V1)?.0.clock_seq(), Some(g.clock_seq()));
    /// assert_eq!(State::read(&path)?.clock_seq, g.clock_seq());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clock_seq(&self) -> u16 {
        self.gen6.clock_seq()
    }

    /// The v1/v6 node in use.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-node-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// // No node given: random, with the multicast bit set (RFC 9562 §6.10).
    /// assert_eq!(g.node()[0] & 0x01, 0x01);
    /// assert_eq!(g.next(TimeVersion::V6)?.0.node(), Some(g.node()));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node(&self) -> [u8; 6] {
        self.gen6.node()
    }

    /// Whether strict safety is on.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-DurableGenerator-is_strict-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let g = DurableGenerator::open(dir.join("state"), StateOptions::new().strict(true))?;
    /// assert!(g.is_strict());
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The clock the generator reads.
    ///
    /// ```
    /// use uuidkit::generator::StepClock;
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-clock-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let clock = StepClock::new(Timestamp::from_unix_millis(1_645_557_742_000));
    /// let mut g = DurableGenerator::open_with_clock(&path, StateOptions::new(), clock)?;
    /// g.clock().advance(5_000_000); // 5 ms, in nanoseconds
    /// assert_eq!(g.next(TimeVersion::V7)?.0.unix_ts_ms(), Some(1_645_557_742_005));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clock(&self) -> &C {
        &self.clock
    }
}

impl<C: Clock> Drop for DurableGenerator<C> {
    fn drop(&mut self) {
        if !self.closed {
            let _ = self.flush();
        }
        if let Some(mut w) = self.writer.take() {
            let thread = w.thread.take();
            // Closing the job channel ends the thread.
            drop(w);
            if let Some(t) = thread {
                if self.forked() {
                    // The thread exists only in the parent: joining it here would wait for
                    // nothing that can end.
                    std::mem::forget(t);
                } else {
                    let _ = t.join();
                }
            }
        }
    }
}

/// A block of `count` consecutive v1/v6 timestamps (100-ns ticks) reserved for one caller.
///
/// From [`DurableGenerator::reserve_ticks`]: the UUIDs of timestamps
/// `first_ticks..first_ticks + count`, each with `clock_seq` and `node`, laid out as v1 or v6
/// (the same timeline: a timestamp is used once, in one of the two layouts). `safety` says
/// whether the state file covers the whole block.
///
/// ```
/// use uuidkit_service::state::{Safety, TickRange};
/// let r = TickRange { first_ticks: 1_000, count: 3, clock_seq: 0x33C8, node: [1; 6], safety: Safety::Durable };
/// assert_eq!(r.last_ticks(), Some(1_002));
/// assert_eq!(r.v6(2).and_then(|u| u.gregorian_ticks()), Some(1_002));
/// assert_eq!(r.v1(3), None); // beyond the block
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickRange {
    /// The first timestamp of the block (100-ns ticks since 1582-10-15, 60 bits).
    pub first_ticks: u64,
    /// How many timestamps the block holds.
    pub count: u32,
    /// The clock sequence of every UUID of the block (14 bits).
    pub clock_seq: u16,
    /// The node of every UUID of the block.
    pub node: [u8; 6],
    /// Whether the state file covers the block.
    pub safety: Safety,
}

impl TickRange {
    /// The last timestamp of the block; `None` for an empty block.
    ///
    /// ```
    /// use uuidkit_service::state::{Safety, TickRange};
    /// let r = TickRange { first_ticks: 7, count: 0, clock_seq: 0, node: [1; 6], safety: Safety::Durable };
    /// assert_eq!(r.last_ticks(), None);
    /// ```
    pub fn last_ticks(&self) -> Option<u64> {
        self.count
            .checked_sub(1)
            .and_then(|n| self.first_ticks.checked_add(n.into()))
    }

    /// The `i`-th UUID of the block laid out as v1; `None` beyond the block.
    ///
    /// ```
    /// use uuidkit_service::state::{Safety, TickRange};
    /// let r = TickRange { first_ticks: 5, count: 2, clock_seq: 9, node: [1; 6], safety: Safety::Durable };
    /// let u = r.v1(1).unwrap();
    /// assert_eq!((u.version_num(), u.gregorian_ticks(), u.clock_seq()), (1, Some(6), Some(9)));
    /// ```
    pub fn v1(&self, i: u32) -> Option<Uuid> {
        self.ticks(i)
            .map(|t| Uuid::from_v1_parts(t, self.clock_seq, self.node))
    }

    /// The `i`-th UUID of the block laid out as v6; `None` beyond the block.
    ///
    /// ```
    /// use uuidkit_service::state::{Safety, TickRange};
    /// let r = TickRange { first_ticks: 5, count: 2, clock_seq: 9, node: [1; 6], safety: Safety::Durable };
    /// assert!(r.v6(0).unwrap() < r.v6(1).unwrap()); // v6 byte order is time order
    /// ```
    pub fn v6(&self, i: u32) -> Option<Uuid> {
        self.ticks(i)
            .map(|t| Uuid::from_v6_parts(t, self.clock_seq, self.node))
    }

    fn ticks(&self, i: u32) -> Option<u64> {
        if i < self.count {
            self.first_ticks.checked_add(i.into())
        } else {
            None
        }
    }
}

/// A block of `count` consecutive v7 counter values of one millisecond, reserved for one
/// caller ([`DurableGenerator::reserve_v7`]), who draws the random bits.
///
/// UUID `i` of the block has the 48-bit timestamp `unix_ms`, then the `counter_bits`-bit
/// counter `first_counter + i` (in `rand_a` and the top of `rand_b`, RFC 9562 §6.2 Method 1),
/// then `74 - counter_bits` random bits. So the block's UUIDs increase with `i` whatever the
/// random bits, and sort between the v7 issued before and after it.
///
/// ```
/// use uuidkit_service::state::{Safety, V7Range};
/// let r = V7Range { unix_ms: 0x017F22E279B0, first_counter: 7, count: 2, counter_bits: 42, safety: Safety::Durable };
/// let (a, b) = (r.uuid(0, u64::MAX).unwrap(), r.uuid(1, 0).unwrap());
/// assert!(a < b); // the counter decides, not the random bits
/// assert_eq!((a.version_num(), a.unix_ts_ms()), (7, Some(0x017F22E279B0)));
/// assert_eq!(r.uuid(2, 0), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct V7Range {
    /// The millisecond (since the Unix epoch, 48 bits) of every UUID of the block.
    pub unix_ms: u64,
    /// The counter of the first UUID.
    pub first_counter: u64,
    /// How many UUIDs the block holds.
    pub count: u32,
    /// The counter's width (12 to 42; the generator's is [`V7_COUNTER_BITS`]).
    pub counter_bits: u8,
    /// Whether the state file covers the block.
    pub safety: Safety,
}

impl V7Range {
    /// UUID `i` of the block with `random` as its random bits (the low `74 - counter_bits`
    /// bits are used); `None` beyond the block or for fields out of range.
    pub fn uuid(&self, i: u32, random: u64) -> Option<Uuid> {
        if i >= self.count || !(12..=42).contains(&self.counter_bits) || self.unix_ms >> 48 != 0 {
            return None;
        }
        let counter = self.first_counter.checked_add(i.into())?;
        if counter >> self.counter_bits != 0 {
            return None;
        }
        let random_bits = 74 - u32::from(self.counter_bits);
        let r = u128::from(random) & ((1u128 << random_bits) - 1);
        let bits = (u128::from(counter) << random_bits) | r;
        Some(Uuid::from_v7_parts(
            self.unix_ms,
            (bits >> 62) as u16,
            bits as u64 & ((1 << 62) - 1),
        ))
    }
}

/// A change in whether the UUIDs a [`DurableGenerator`] issues are covered by the state file
/// ([`DurableGenerator::durability_change`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DurabilityChange {
    /// UUIDs are issued that the state file does not cover, for the reason given (the write
    /// error); they are volatile until a write succeeds.
    Volatile(String),
    /// The state file covers the UUIDs issued again.
    Durable,
}

/// `xx:xx:xx:xx:xx:xx`.
fn hex_node(n: &[u8; 6]) -> String {
    format!(
        "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
        n[0], n[1], n[2], n[3], n[4], n[5]
    )
}

//! How a durable generator opens its state: strictness, the reserve, the lock wait, the
//! catch-up wait and the node.

use std::time::Duration;

use super::error::StateWarning;

/// The default reserve: how far ahead of the clock the stored bounds are set.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::state::{StateOptions, DEFAULT_RESERVE};
/// assert_eq!(DEFAULT_RESERVE, Duration::from_secs(1));
/// assert_eq!(StateOptions::new(), StateOptions::new().reserve(DEFAULT_RESERVE));
/// ```
pub const DEFAULT_RESERVE: Duration = Duration::from_secs(1);

/// How a [`DurableGenerator`](crate::state::DurableGenerator) opens its state.
///
/// ```
/// use std::time::Duration;
/// use uuidkit_service::state::StateOptions;
/// let opts = StateOptions::new()
///     .strict(true)
///     .reserve(Duration::from_millis(500))
///     .lock_wait(Some(Duration::from_secs(2)));
/// assert!(opts.is_strict());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateOptions {
    pub(super) strict: bool,
    pub(super) reserve: Duration,
    pub(super) lock_wait: Option<Duration>,
    pub(super) node: Option<[u8; 6]>,
    pub(super) catch_up: bool,
    pub(super) hooks: WaitHooks,
}

/// What the catch-up wait tells, and asks, the caller.
#[derive(Clone, Copy, Default)]
pub(super) struct WaitHooks {
    /// Called with a description before the wait starts.
    pub(super) announce: Option<fn(&StateWarning)>,
    /// Polled during the wait: true stops it.
    pub(super) interrupted: Option<fn() -> bool>,
}

impl PartialEq for WaitHooks {
    fn eq(&self, o: &Self) -> bool {
        let a = match (self.announce, o.announce) {
            (Some(x), Some(y)) => std::ptr::fn_addr_eq(x, y),
            (x, y) => x.is_none() && y.is_none(),
        };
        let i = match (self.interrupted, o.interrupted) {
            (Some(x), Some(y)) => std::ptr::fn_addr_eq(x, y),
            (x, y) => x.is_none() && y.is_none(),
        };
        a && i
    }
}

impl Eq for WaitHooks {}

impl std::fmt::Debug for WaitHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WaitHooks")
            .field("announce", &self.announce.is_some())
            .field("interrupted", &self.interrupted.is_some())
            .finish()
    }
}

impl Default for StateOptions {
    fn default() -> Self {
        StateOptions::new()
    }
}

impl StateOptions {
    /// Not strict, a 1 s reserve, fail at once when locked, the stored (or a random) node.
    ///
    /// ```
    /// use uuidkit_service::state::{StateOptions, DEFAULT_RESERVE};
    /// let opts = StateOptions::new();
    /// assert!(!opts.is_strict());
    /// assert_eq!(opts, StateOptions::default());
    /// assert_eq!(opts, opts.strict(false).reserve(DEFAULT_RESERVE).lock_wait(None));
    /// ```
    pub const fn new() -> StateOptions {
        StateOptions {
            strict: false,
            reserve: DEFAULT_RESERVE,
            lock_wait: None,
            node: None,
            catch_up: true,
            hooks: WaitHooks {
                announce: None,
                interrupted: None,
            },
        }
    }

    /// Strict safety: an unreadable, corrupt or untrusted state file is an error rather than a
    /// warning, and no UUID is issued that the file does not cover (a failed write is an
    /// error). A missing file is still accepted as the first use.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateErrorKind, StateOptions, WarningKind};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-strict-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// std::fs::write(&path, b"not a state file")?;
    ///
    /// let err = DurableGenerator::open(&path, StateOptions::new().strict(true)).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Corrupt);
    ///
    /// // Not strict: a warning, and a fresh state replaces the damaged one.
    /// let g = DurableGenerator::open(&path, StateOptions::new())?;
    /// assert!(g.warnings().iter().any(|w| w.kind() == WarningKind::Discarded));
    /// # drop(g);
    /// assert!(uuidkit_service::state::State::read(&path).is_ok());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Whether strict safety is on.
    ///
    /// ```
    /// use uuidkit_service::state::StateOptions;
    /// assert!(StateOptions::new().strict(true).is_strict());
    /// assert!(!StateOptions::new().strict(true).strict(false).is_strict());
    /// ```
    pub const fn is_strict(&self) -> bool {
        self.strict
    }

    /// How far ahead of the clock reservations are written (default 1 s; at least 1 ms).
    /// Larger: fewer writes; after a crash, v7 timestamps may run up to this far ahead.
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit::generator::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-reserve-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let now = Timestamp::from_unix_millis(1_645_557_742_000);
    /// let opts = StateOptions::new().reserve(Duration::from_secs(5));
    /// let g = DurableGenerator::open_with_clock(&path, opts, FixedClock::new(now))?;
    /// // Opening wrote a first reservation, 5 s ahead of the clock on both timelines.
    /// let s = State::read(&path)?;
    /// assert!(!s.clean);
    /// assert_eq!(s.v7_unix_ms, 1_645_557_742_000 + 5_000);
    /// assert_eq!(Some(s.gregorian_ticks), now.gregorian_ticks().map(|t| t + 50_000_000));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn reserve(mut self, reserve: Duration) -> Self {
        self.reserve = reserve;
        self
    }

    /// How long to wait for another holder of the lock to let go (default `None`: fail at
    /// once with [`StateErrorKind::Locked`](crate::state::StateErrorKind::Locked)).
    ///
    /// ```
    /// use std::time::Duration;
    /// use uuidkit_service::state::{DurableGenerator, StateErrorKind, StateOptions};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-lock_wait-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let first = DurableGenerator::open(&path, StateOptions::new())?;
    /// // The lock is held for the first generator's whole life: waiting 20 ms does not help.
    /// let opts = StateOptions::new().lock_wait(Some(Duration::from_millis(20)));
    /// let err = DurableGenerator::open(&path, opts).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Locked);
    /// assert!(err.to_string().contains(&format!("in use by process {}", std::process::id())));
    /// drop(first);
    /// assert!(DurableGenerator::open(&path, opts).is_ok());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn lock_wait(mut self, wait: Option<Duration>) -> Self {
        self.lock_wait = wait;
        self
    }

    /// After an unclean shutdown, wait until the clock passes the stored v7 and v1/v6
    /// reservations (the later of those within reach) before opening (default true). The wait
    /// is at most the reserve plus one second; a reservation further ahead is not waited for
    /// (the clock was set back: v7 and v1/v6 then run ahead of it, each restart moving v7 at
    /// most 1 ms past the last v7 issued, and v1/v6 at most a tenth of the reserve past the
    /// last timestamp issued). Without the wait, v7 and v1/v6 timestamps after a crash may run
    /// up to the reserve (plus a little) ahead of the clock.
    ///
    /// ```
    /// use uuidkit::generator::FixedClock;
    /// use uuidkit_service::state::{DurableGenerator, State, StateOptions, TimeVersion, WarningKind};
    /// use uuidkit::Timestamp;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-catch_up-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let t = 1_645_557_742_000;
    /// // What a crash leaves behind: a reservation 500 ms ahead of the clock, not marked clean.
    /// let crashed = State { gregorian_ticks: 0, clock_seq: 7, node: [0x03, 0, 0, 0, 0, 1],
    ///                       v7_unix_ms: t + 500, v7_counter: None, clean: false, writes: 9 };
    /// # use std::io::Write;
    /// # use std::os::unix::fs::OpenOptionsExt;
    /// // Mode 0600: a file that others may write is not trusted.
    /// let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
    /// f.write_all(&crashed.encode())?;
    ///
    /// // This clock never moves: waiting for it would time out, so do not wait.
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(t));
    /// let opts = StateOptions::new().catch_up(false);
    /// let mut g = DurableGenerator::open_with_clock(&path, opts, clock)?;
    /// assert!(g.warnings().iter().all(|w| w.kind() != WarningKind::WaitedForClock));
    /// // v7 continues above the whole reserved millisecond, ahead of the clock.
    /// let (u, _) = g.next(TimeVersion::V7)?;
    /// assert!(u.unix_ts_ms() > Some(t + 500));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn catch_up(mut self, wait: bool) -> Self {
        self.catch_up = wait;
        self
    }

    /// The v1/v6 node to use (for example a MAC address). If it differs from the stored node,
    /// the clock sequence gets a new random value (RFC 9562 §6.3). Default: the stored node,
    /// or 48 random bits with the multicast bit set for a new state (§6.10).
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-StateOptions-node-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mac = [0x02, 0x00, 0x5E, 0x10, 0x00, 0x01];
    /// let mut g = DurableGenerator::open(&path, StateOptions::new().node(mac))?;
    /// assert_eq!(g.next(TimeVersion::V1)?.0.node(), Some(mac));
    /// assert_eq!(g.next(TimeVersion::V6)?.0.node(), Some(mac));
    /// # drop(g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn node(mut self, node: [u8; 6]) -> Self {
        self.node = Some(node);
        self
    }

    /// Called with a [`WarningKind::WaitedForClock`](crate::state::WarningKind::WaitedForClock)
    /// warning *before* the catch-up wait starts (the one in
    /// [`warnings`](crate::state::DurableGenerator::warnings) comes after it, with the time
    /// waited), so that a long, silent start can be logged as it happens.
    ///
    /// ```
    /// use uuidkit_service::state::{StateOptions, StateWarning};
    /// fn log(w: &StateWarning) { eprintln!("{w}"); }
    /// let opts = StateOptions::new().on_wait(log);
    /// assert_ne!(opts, StateOptions::new());
    /// ```
    pub const fn on_wait(mut self, announce: fn(&StateWarning)) -> Self {
        self.hooks.announce = Some(announce);
        self
    }

    /// Polled (every 10 ms at most) during the catch-up wait: when it returns true, opening
    /// stops waiting and fails with
    /// [`StateErrorKind::Interrupted`](crate::state::StateErrorKind::Interrupted), leaving the
    /// state file as it was. A server passes "a stop signal has arrived".
    ///
    /// ```
    /// use uuidkit::generator::FixedClock;
    /// use uuidkit::Timestamp;
    /// use uuidkit_service::state::{DurableGenerator, State, StateErrorKind, StateOptions};
    /// # use std::io::Write;
    /// # use std::os::unix::fs::OpenOptionsExt;
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-interrupt_wait-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let t = 1_645_557_742_000;
    /// // A crash left a v7 reservation 500 ms ahead of a clock that never moves.
    /// let crashed = State { gregorian_ticks: 0, clock_seq: 7, node: [0x03, 0, 0, 0, 0, 1],
    ///                       v7_unix_ms: t + 500, v7_counter: None, clean: false, writes: 9 };
    /// let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
    /// f.write_all(&crashed.encode())?;
    /// let opts = StateOptions::new().interrupt_wait(|| true);
    /// let clock = FixedClock::new(Timestamp::from_unix_millis(t));
    /// let err = DurableGenerator::open_with_clock(&path, opts, clock).unwrap_err();
    /// assert_eq!(err.kind(), StateErrorKind::Interrupted);
    /// assert_eq!(State::read(&path)?, crashed); // left as it was
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn interrupt_wait(mut self, interrupted: fn() -> bool) -> Self {
        self.hooks.interrupted = Some(interrupted);
        self
    }
}

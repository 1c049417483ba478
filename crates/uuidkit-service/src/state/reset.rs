//! Resetting a state file by hand (`uuidkit state reset`): under the lock, so never while a
//! generator uses it; the new state follows the reset rules of `restart.rs`.

use std::path::Path;

use uuidkit::generator::{self, Clock, SystemClock, ThreadRng};
use uuidkit::Timestamp;

use super::error::{StateError, StateErrorKind};
use super::file::{read_state, ReadOutcome, StateFile};
use super::format::State;
use super::restart::{reset, Node};

impl State {
    /// Resets the state file at `path`: a new random clock sequence (different from the
    /// stored one), the stored node kept, and both bounds set to the clock; written under the
    /// file's lock, so that this fails with [`StateErrorKind::Locked`] while a generator (a
    /// running `uuidkit serve`) holds it. For a state whose v7 bound is unusable (at the end of
    /// the range, or far ahead of a clock that was set back): v1/v6 stay unique (a new clock
    /// sequence), v7 stays unique (its random bits), but v6 and v7 issued after the reset may
    /// sort before those issued before it.
    ///
    /// A missing file is an error (nothing to reset); a corrupt or untrusted one is replaced
    /// by a new state with a random node; a symbolic link or a non-file is an error. Returns
    /// the state read (if any) and the state written.
    ///
    /// ```
    /// use uuidkit_service::state::{DurableGenerator, State, StateErrorKind, StateOptions, TimeVersion};
    /// # let dir = std::env::temp_dir().join(format!("uuidkit-doc-reset-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("state");
    /// let mut g = DurableGenerator::open(&path, StateOptions::new())?;
    /// g.next(TimeVersion::V7)?;
    /// // Refused while the generator holds the file.
    /// assert_eq!(State::reset(&path).unwrap_err().kind(), StateErrorKind::Locked);
    /// g.close()?;
    /// let (old, new) = State::reset(&path)?;
    /// let old = old.expect("a valid file was read");
    /// assert_ne!(new.clock_seq, old.clock_seq);
    /// assert_eq!(new.node, old.node);
    /// assert!(new.clean);
    /// assert_eq!(State::read(&path)?, new);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset(path: impl AsRef<Path>) -> Result<(Option<State>, State), StateError> {
        reset_at(path.as_ref(), SystemClock.now())
    }
}

/// [`State::reset`] at the clock reading `now`.
fn reset_at(path: &Path, now: Timestamp) -> Result<(Option<State>, State), StateError> {
    let file = StateFile::open(path, None)?;
    let stored = match read_state(path) {
        Ok(ReadOutcome::Found {
            state,
            untrusted: None,
            ..
        }) => Some(state),
        Ok(ReadOutcome::Found { .. }) => None,
        Ok(ReadOutcome::Missing(e)) => {
            return Err(StateError::io(
                StateErrorKind::Io,
                path,
                "nothing to reset",
                e,
            ))
        }
        Err(e) if matches!(e.kind(), StateErrorKind::Corrupt | StateErrorKind::Io) => None,
        Err(e) => return Err(e),
    };
    let plan = reset(stored.as_ref(), now);
    let mut rng = ThreadRng;
    let clock_seq = match plan.clock_seq_from {
        Some(from) => generator::new_clock_seq(&mut rng, 14, from),
        None => generator::random_clock_seq(&mut rng, 14),
    };
    let node = match plan.node {
        Node::Use(n) => n,
        Node::Random => generator::random_node(&mut rng),
    };
    let new = State {
        gregorian_ticks: plan.gregorian_ticks,
        clock_seq,
        node,
        v7_unix_ms: plan.v7_unix_ms,
        v7_counter: None,
        clean: true,
        writes: plan.writes,
    };
    file.write(&new)?;
    Ok((stored, new))
}

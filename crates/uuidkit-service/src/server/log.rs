//! Where the server's log lines go: a caller-given function, or nowhere; and the text of the
//! lines that are not about one connection.

use core::fmt;
use std::sync::Arc;

use crate::state::DurabilityChange;

/// A function that takes one log line.
type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// The log of a server; by default, nowhere.
#[derive(Clone, Default)]
pub(super) struct Log(Option<Sink>);

impl Log {
    /// Lines go to `f`.
    pub(super) fn to(f: impl Fn(&str) + Send + Sync + 'static) -> Log {
        Log(Some(Arc::new(f)))
    }

    /// Writes one line (formatted only when someone reads it).
    pub(super) fn line(&self, msg: fmt::Arguments<'_>) {
        if let Some(l) = &self.0 {
            l(&msg.to_string());
        }
    }
}

/// The line logged once per episode of UUIDs the state file does not cover (a failed write:
/// disk full, a read-only file system), and once when they are covered again.
pub(super) fn durability(c: &DurabilityChange) -> String {
    match c {
        DurabilityChange::Volatile(why) => format!(
            "warning: handing out UUIDs the state file does not cover ({why}); they are marked \
             not durable, and a crash now could repeat them after a restart; retrying the \
             write every second"
        ),
        DurabilityChange::Durable => {
            "the state file is written again: UUIDs are durable again".to_string()
        }
    }
}

//! Where the server's log lines go: a caller-given function, or nowhere.

use core::fmt;
use std::sync::Arc;

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

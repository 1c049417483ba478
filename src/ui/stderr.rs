//! Standard error: every report is written through here, clearing a progress line first, or
//! buffered while nobody can see in what order the two output streams' lines come.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use super::colour::Stream;
use super::progress::{CLEAR_LINE, PROGRESS_SHOWN};

/// Writes to standard error, clearing a progress line first, or into the standard-error
/// buffer while [`buffer_stderr`] is on. Failures are ignored: there is nowhere left to report
/// them.
pub(super) fn write_stderr(text: &str) {
    write_stderr_bytes(text.as_bytes());
}

/// [`write_stderr`] for bytes.
pub(super) fn write_stderr_bytes(text: &[u8]) {
    if STDERR_BUFFERED.load(Ordering::Relaxed) {
        let mut buf = STDERR_BUF.lock().unwrap_or_else(|p| p.into_inner());
        buf.extend_from_slice(text);
        if buf.len() >= STDERR_BUF_SIZE {
            let _ = io::stderr().lock().write_all(&buf);
            buf.clear();
        }
        return;
    }
    let mut err = io::stderr().lock();
    if PROGRESS_SHOWN.swap(false, Ordering::Relaxed) {
        let _ = err.write_all(CLEAR_LINE.as_bytes());
    }
    let _ = err.write_all(text);
}

/// [`write_stderr_bytes`] for a batch of at least [`STDERR_BUF_SIZE`] bytes (of reports):
/// written at once when nothing waits in the buffer, as the buffer would write them.
pub(super) fn write_stderr_batch(text: &[u8]) {
    if STDERR_BUFFERED.load(Ordering::Relaxed) && text.len() >= STDERR_BUF_SIZE {
        let buf = STDERR_BUF.lock().unwrap_or_else(|p| p.into_inner());
        if buf.is_empty() {
            let _ = io::stderr().lock().write_all(text);
            return;
        }
    }
    write_stderr_bytes(text);
}

/// Standard error's buffer while [`buffer_stderr`] is on.
static STDERR_BUF: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());
static STDERR_BUFFERED: AtomicBool = AtomicBool::new(false);
pub(super) const STDERR_BUF_SIZE: usize = 16 * 1024;

/// Whether error reports may be buffered instead of written one by one: when nobody can see
/// in what order the two streams' lines come, i.e. standard error is not a terminal and does
/// not go where standard output goes (or both go to `/dev/null`). Then a command need not
/// flush its output before each report either. Otherwise (a terminal, `2>&1`) every report is
/// written at once, after the output of the lines before it.
pub fn stderr_may_buffer() -> bool {
    !Stream::Stderr.is_terminal() && !crate::sys::stdout_and_stderr_meet()
}

/// Turns buffering of standard error on (see [`stderr_may_buffer`]); [`flush_stderr`] writes
/// the buffer out, as [`crate::io::finish`] does on every way out of a command.
pub fn buffer_stderr() {
    STDERR_BUFFERED.store(true, Ordering::Relaxed);
}

/// Writes out what standard error's buffer holds.
pub fn flush_stderr() {
    let mut buf = STDERR_BUF.lock().unwrap_or_else(|p| p.into_inner());
    if !buf.is_empty() {
        let _ = io::stderr().lock().write_all(&buf);
        buf.clear();
    }
}

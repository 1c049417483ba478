//! Input and output shared by every command: the items to work on (the command-line arguments,
//! or standard input one item per line), a buffered standard output that turns a closed pipe
//! into a quiet exit, diagnostics on standard error, and the exit statuses.
//!
//! Memory stays flat whatever the input: standard input is read in fixed blocks and handed out
//! as line slices, and a line longer than [`line::MAX_LINE`] is kept only up to that length
//! (the rest is counted, not stored), since no UUID form is anywhere near that long.
//!
//! `validate` and `convert` read most lines through [`Lines::take_run`]: the lines of a file
//! of UUIDs have one length, so each is checked for a line end at the length of the last valid
//! one and parsed in place, and only a line that does not fit is searched for its end.
//!
//! Which file holds what:
//!
//! - `exit.rs`: how a command ends ([`Status`], [`Fatal`], [`CmdResult`]), the exit statuses
//!   ([`finish`]), `error:` and `warning:` on standard error;
//! - `output.rs`: standard output, buffered ([`Out`]) or written at once ([`write_stdout`]);
//! - `items.rs`: the items of a command ([`Lines`]): arguments, lines or tokens;
//! - `line.rs`: one item ([`Line`], at most [`line::MAX_LINE`] bytes kept) and the line the
//!   fast path offers ([`Candidate`]);
//! - `blocks.rs`: the reader of standard input, by blocks, and the fast path's run of lines.

mod blocks;
mod exit;
mod items;
mod line;
mod output;

pub use exit::{
    error, finish, invalid, warning, write_error, CmdResult, Fatal, Status, EXIT_FAILURE,
};
pub use items::{os_bytes, Lines};
pub use line::{Candidate, Line};
pub use output::{stdout_writable, write_stdout, Out};

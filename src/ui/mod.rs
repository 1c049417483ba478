//! What a person at a terminal sees: colour (only on a terminal, `NO_COLOR` respected), error
//! reports that show the offending input with a caret under the bad byte, and a progress line
//! for long runs.
//!
//! Nothing here changes what a program reading the output gets: colour and the progress line
//! appear only when the stream they go to is a terminal, and the report's first line is the
//! same whether colour is on or not.
//!
//! Which file holds what:
//!
//! - `colour.rs`: whether a stream is coloured (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`, the
//!   terminal check), and the styles;
//! - `report.rs`: the error reports (`error: MESSAGE`, a bad input's location, excerpt and
//!   caret), one at a time or assembled by [`LineReports`];
//! - `excerpt.rs`: the excerpt of a bad input and the caret line under it;
//! - `stderr.rs`: writing to standard error (a progress line cleared first), and its buffer
//!   while nobody can see the order of the two streams' lines;
//! - `progress.rs`: the progress line of long runs, and its text.

mod colour;
mod excerpt;
mod progress;
mod report;
mod stderr;

pub use colour::{color, set_color_flag, Stream};
pub use excerpt::excerpt_lines;
pub use progress::Progress;
pub use report::{
    report_error, report_input, report_input_rendered, BadInput, LineReports, Origin,
};
pub use stderr::{buffer_stderr, flush_stderr, stderr_may_buffer};

//! Colour: whether text written to a stream is coloured (`--color`, `NO_COLOR`,
//! `CLICOLOR_FORCE`, the terminal check) and the ANSI styles used.

use std::io::{self, IsTerminal};
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

/// The two output streams, for the terminal checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// Whether the stream is a terminal.
    pub fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => io::stdout().is_terminal(),
            Stream::Stderr => io::stderr().is_terminal(),
        }
    }
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Whether the terminal understands ANSI escapes (`TERM=dumb` does not).
pub(super) fn ansi_terminal() -> bool {
    std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// The colour rule, given the environment and whether the stream is a terminal: `NO_COLOR`
/// (any non-empty value) turns colour off; otherwise `CLICOLOR_FORCE` (non-empty, not `0`)
/// turns it on; otherwise colour is used on a terminal that is not `TERM=dumb`.
///
/// clap colours its own help and usage errors by a rule that is close but not the same, so in
/// some environments the two disagree: clap also turns colour off for `CLICOLOR=0` and when
/// `TERM` is unset; it turns it on for a terminal with `CLICOLOR` (not `0`) or `CI` set even
/// when `TERM=dumb`; and it takes any non-empty `CLICOLOR_FORCE`, `0` included, as forcing.
pub fn color_rule(no_color: bool, force: bool, terminal: bool, ansi: bool) -> bool {
    if no_color {
        false
    } else if force {
        true
    } else {
        terminal && ansi
    }
}

/// `--color`: 0 for `auto` (the environment and the terminal decide, see [`color_rule`]),
/// 1 for `always`, 2 for `never`.
static COLOR_FLAG: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Records `--color`: `Some(on)` for `always` or `never`, which win over `NO_COLOR`,
/// `CLICOLOR_FORCE` and the terminal check; `None` for `auto`. Called before anything is
/// written.
pub fn set_color_flag(forced: Option<bool>) {
    let v = match forced {
        None => 0,
        Some(true) => 1,
        Some(false) => 2,
    };
    COLOR_FLAG.store(v, Ordering::Relaxed);
}

/// Whether text written to `stream` is coloured (decided once per stream and process):
/// `--color always` or `never` when given, else [`color_rule`].
pub fn color(stream: Stream) -> bool {
    match COLOR_FLAG.load(Ordering::Relaxed) {
        1 => return true,
        2 => return false,
        _ => {}
    }
    static OUT: OnceLock<bool> = OnceLock::new();
    static ERR: OnceLock<bool> = OnceLock::new();
    let cell = match stream {
        Stream::Stdout => &OUT,
        Stream::Stderr => &ERR,
    };
    *cell.get_or_init(|| {
        let force = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
        color_rule(
            env_set("NO_COLOR"),
            force,
            stream.is_terminal(),
            ansi_terminal(),
        )
    })
}

/// ANSI styles used; each is wrapped in a reset.
#[derive(Debug, Clone, Copy)]
pub enum Paint {
    /// The `error:` prefix and the caret.
    Error,
    /// Where the problem is (`line 2:`).
    Location,
}

/// `text` in `paint` when `on`, else as it is.
pub fn paint(on: bool, paint: Paint, text: &str) -> String {
    if !on {
        return text.to_string();
    }
    let code = match paint {
        Paint::Error => "\x1b[1;31m",
        Paint::Location => "\x1b[1m",
    };
    format!("{code}{text}\x1b[0m")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_rule_follows_no_color_then_force_then_terminal() {
        // NO_COLOR wins over everything.
        assert!(!color_rule(true, true, true, true));
        assert!(color_rule(false, true, false, false));
        assert!(color_rule(false, false, true, true));
        assert!(!color_rule(false, false, true, false));
        assert!(!color_rule(false, false, false, true));
    }
}

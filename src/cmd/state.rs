//! `uuidkit state show PATH`: prints a generator state file (the one `uuidkit serve` keeps),
//! field by field, after checking it as the generator would. `uuidkit state reset PATH`:
//! resets one under its lock ([`State::reset`]), printing the values before and after.

use uuidkit::Timestamp;
use uuidkit_service::state::{State, StateErrorKind, FORMAT_VERSION};

use super::inspect::node_text;
use crate::args::{StateAction, StateArgs};
use crate::io::{self, CmdResult, Fatal, Out, Status};

/// Runs `state`.
pub fn run(a: StateArgs) -> CmdResult {
    match a.action {
        StateAction::Show { path } => show(&path),
        StateAction::Reset { path } => reset(&path),
    }
}

/// One line: the values a reset changes.
fn summary(s: &State) -> String {
    format!(
        "clock sequence {:#06x}, node {}, v1/v6 timestamp {}, v7 millisecond {} ({})",
        s.clock_seq,
        String::from_utf8_lossy(&node_text(&s.node)),
        Timestamp::from_gregorian_ticks(s.gregorian_ticks).to_rfc3339(7),
        s.v7_unix_ms,
        Timestamp::from_unix_millis(s.v7_unix_ms).to_rfc3339(3),
    )
}

fn reset(path: &std::path::Path) -> CmdResult {
    let (old, new) = State::reset(path).map_err(|e| Fatal::Msg(e.to_string()))?;
    let mut out = Out::stdout();
    let before = match &old {
        Some(s) => summary(s),
        None => "unreadable (corrupt or untrusted): replaced, with a random node".to_string(),
    };
    out.fmt(format_args!(
        "file:   {}
before: {before}
after:  {}
",
        path.display(),
        summary(&new)
    ))?;
    if let Some(o) = old.filter(|o| o.v7_unix_ms > new.v7_unix_ms) {
        out.fmt(format_args!(
            "note:   the old v7 bound was {} ms ahead of the clock: v7 issued from now on may \
             sort before some issued before the reset (they stay unique)\n",
            o.v7_unix_ms - new.v7_unix_ms
        ))?;
    }
    if let Some(o) = old.filter(|o| o.gregorian_ticks > new.gregorian_ticks) {
        out.fmt(format_args!(
            "note:   the old v1/v6 bound was {} ms ahead of the clock: v6 issued from now on may \
             sort before some issued before the reset (v1 and v6 stay unique: a new clock \
             sequence)\n",
            (o.gregorian_ticks - new.gregorian_ticks) / 10_000
        ))?;
    }
    out.flush()?;
    Ok(Status::Ok)
}

fn show(path: &std::path::Path) -> CmdResult {
    let s = match State::read(path) {
        Ok(s) => s,
        Err(e) => match e.kind() {
            StateErrorKind::Corrupt | StateErrorKind::Untrusted => {
                io::error(format_args!("{e}"));
                return Ok(Status::Invalid);
            }
            _ => return Err(Fatal::Msg(e.to_string())),
        },
    };
    let mut out = Out::stdout();
    let n = s.node;
    out.fmt(format_args!(
        "file:            {}\n\
         format:          {FORMAT_VERSION}\n\
         shutdown:        {}\n\
         writes:          {}\n\
         v1/v6 timestamp: {} ({})\n\
         clock sequence:  {:#06x} ({})\n\
         node:            {}{}\n\
         v7 millisecond:  {} ({})\n\
         v7 counter:      {}\n",
        path.display(),
        if s.clean {
            "clean (the values are the last ones issued)"
        } else {
            "not clean (the values are reservations ahead of the last ones issued)"
        },
        s.writes,
        s.gregorian_ticks,
        Timestamp::from_gregorian_ticks(s.gregorian_ticks).to_rfc3339(7),
        s.clock_seq,
        s.clock_seq,
        String::from_utf8_lossy(&node_text(&n)),
        if n[0] & 1 == 1 {
            " (multicast bit set: random)"
        } else {
            ""
        },
        s.v7_unix_ms,
        Timestamp::from_unix_millis(s.v7_unix_ms).to_rfc3339(3),
        match s.v7_counter {
            Some(c) => format!("{c:#x}"),
            None => "the whole millisecond (reservation)".to_string(),
        },
    ))?;
    out.flush()?;
    Ok(Status::Ok)
}

//! The progress line on standard error for long runs, and its text.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::colour::{ansi_terminal, Stream};

/// Whether a progress line is on the screen now (so that a report clears it first).
pub(super) static PROGRESS_SHOWN: AtomicBool = AtomicBool::new(false);

/// Carriage return, then erase to the end of the line.
pub(super) const CLEAR_LINE: &str = "\r\x1b[K";

/// A run shorter than this shows no progress at all (no flicker for quick commands).
const SHOW_AFTER: Duration = Duration::from_millis(400);
/// At most ten redraws a second.
const REDRAW_EVERY: Duration = Duration::from_millis(100);
/// Items between clock readings at the start; adapted to the measured rate afterwards so that
/// the clock is read about fifty times a second, whatever the speed.
const FIRST_STEP: u64 = 1024;

/// A progress line on standard error for a long run: `gen` knows the total and shows a bar,
/// percentage, rate and time left; `convert` and `validate` show a count and a rate.
///
/// Shown only when standard error is a terminal (not `TERM=dumb`) and standard output is not
/// (output on the screen is its own progress, and the two would garble each other) — unless the
/// command writes nothing to standard output — and, for a command reading standard input, that
/// is not a terminal either (someone typing lines wants no line drawn over them). The hot loop
/// pays one integer comparison per call to [`Progress::tick`]; the clock is read only every
/// `step` items.
pub struct Progress {
    what: &'static str,
    total: Option<u64>,
    start: Instant,
    last_draw: Option<Instant>,
    last_check: Instant,
    last_done: u64,
    next_check: u64,
    step: u64,
}

impl Progress {
    /// A progress line for `what` (e.g. `generated`), with the total if known; `stdout_used`
    /// and `stdin_used` say whether the command writes to standard output and reads standard
    /// input.
    pub fn new(
        what: &'static str,
        total: Option<u64>,
        stdout_used: bool,
        stdin_used: bool,
    ) -> Progress {
        let on = Stream::Stderr.is_terminal()
            && ansi_terminal()
            && !(stdout_used && Stream::Stdout.is_terminal())
            && !(stdin_used && io::stdin().is_terminal());
        Progress::with(on, what, total)
    }

    /// A progress line that is shown (`on`) or not, whatever the streams are.
    pub fn with(on: bool, what: &'static str, total: Option<u64>) -> Progress {
        let now = Instant::now();
        Progress {
            what,
            total,
            start: now,
            last_draw: None,
            last_check: now,
            last_done: 0,
            next_check: if on { FIRST_STEP } else { u64::MAX },
            step: FIRST_STEP,
        }
    }

    /// Reports that `done` items are finished. Cheap: a comparison, unless it is time to look
    /// at the clock.
    #[inline]
    pub fn tick(&mut self, done: u64) {
        if done >= self.next_check {
            self.check(done);
        }
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, done: u64) {
        let now = Instant::now();
        // Aim for a clock reading every ~20 ms at the rate just seen.
        let dt = now.duration_since(self.last_check).as_secs_f64();
        let items = done.saturating_sub(self.last_done);
        if dt > 0.0 && items > 0 {
            let rate = items as f64 / dt;
            self.step = ((rate * 0.02) as u64).clamp(1, 1 << 22);
        }
        self.last_check = now;
        self.last_done = done;
        self.next_check = done.saturating_add(self.step);

        let elapsed = now.duration_since(self.start);
        if elapsed < SHOW_AFTER {
            return;
        }
        if self
            .last_draw
            .is_some_and(|t| now.duration_since(t) < REDRAW_EVERY)
        {
            return;
        }
        if self.last_draw.is_none() {
            crate::sys::clear_progress_on_signal(&PROGRESS_SHOWN);
        }
        self.last_draw = Some(now);
        // The width is read at every redraw, so that a resized terminal is followed.
        let width = crate::sys::stderr_width().unwrap_or(80);
        let line = render_fit(self.what, done, self.total, elapsed, width);
        let mut err = io::stderr().lock();
        let _ = err.write_all(format!("{CLEAR_LINE}{line}").as_bytes());
        let _ = err.flush();
        PROGRESS_SHOWN.store(true, Ordering::Relaxed);
    }

    /// Removes the progress line, if shown. Also done on drop.
    pub fn finish(&mut self) {
        if self.last_draw.take().is_some() && PROGRESS_SHOWN.swap(false, Ordering::Relaxed) {
            let _ = io::stderr().lock().write_all(CLEAR_LINE.as_bytes());
        }
        self.next_check = u64::MAX;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate per second with a k/M/G suffix: `48.2M/s`.
fn rate(per_sec: f64) -> String {
    let (v, unit) = if per_sec >= 1e9 {
        (per_sec / 1e9, "G")
    } else if per_sec >= 1e6 {
        (per_sec / 1e6, "M")
    } else if per_sec >= 1e3 {
        (per_sec / 1e3, "k")
    } else {
        (per_sec, "")
    };
    format!("{v:.1}{unit}/s")
}

/// `1:05` or `1:02:03`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Width of the bar between the brackets.
const BAR: usize = 24;

/// The progress line's text for a terminal `width` columns wide: the fullest form of
/// [`render`]'s that fits in `width - 3` columns, dropping the bar, then the counts, then the
/// rate; cut to fit when even the shortest does not. (A line reaching the last column wraps on
/// some terminals, and every redraw would then start a new line; the two columns more are for
/// the `^C` the terminal echoes after it, which would otherwise wrap too and leave the line on
/// the screen when the signal handler clears the new one.)
pub fn render_fit(
    what: &str,
    done: u64,
    total: Option<u64>,
    elapsed: Duration,
    width: usize,
) -> String {
    let room = width.saturating_sub(3);
    let full = render(what, done, total, elapsed);
    if full.chars().count() <= room {
        return full;
    }
    // The parts of the full line, separated by spaces; the shorter forms keep some of them.
    let parts: Vec<&str> = full.split(' ').filter(|p| !p.is_empty()).collect();
    let forms: Vec<Vec<&str>> = match total {
        // "[bar]", "37%", "done/total", "rate", "0:02", "left"
        Some(t) if t > 0 && parts.len() >= 6 => vec![
            parts[1..].to_vec(),
            vec![parts[1], parts[3], parts[4], parts[5]],
            vec![parts[1], parts[3]],
            vec![parts[1]],
        ],
        // "what", "N", "lines", "rate", "0:04"
        _ if parts.len() >= 5 => vec![
            parts[1..].to_vec(),
            vec![parts[1], parts[2], parts[3]],
            vec![parts[1], parts[2]],
            vec![parts[1]],
        ],
        _ => Vec::new(),
    };
    for form in forms {
        let line = form.join(" ");
        if line.chars().count() <= room {
            return line;
        }
    }
    full.chars().take(room).collect()
}

/// The progress line's text, e.g.
/// `[#########---------------]  37% 111,000,000/300,000,000 48.2M/s 0:02 left` or
/// `validated 1,234,567 lines 12.3M/s 0:04`.
pub fn render(what: &str, done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let per_sec = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    match total {
        Some(total) if total > 0 => {
            let frac = (done.min(total) as f64 / total as f64).clamp(0.0, 1.0);
            let filled = ((frac * BAR as f64) as usize).min(BAR);
            let left = if per_sec > 0.0 {
                clock(Duration::from_secs_f64(
                    (total.saturating_sub(done) as f64 / per_sec).min(1e9),
                ))
            } else {
                "?".to_string()
            };
            format!(
                "[{}{}] {:3}% {}/{} {} {} left",
                "#".repeat(filled),
                "-".repeat(BAR - filled),
                (frac * 100.0) as u32,
                grouped(done),
                grouped(total),
                rate(per_sec),
                left
            )
        }
        _ => format!(
            "{what} {} lines {} {}",
            grouped(done),
            rate(per_sec),
            clock(elapsed)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_fits_the_width_it_is_given() {
        let t = Duration::from_secs(2);
        for (total, done) in [(Some(300_000_000), 111_000_000), (None, 1_234_567)] {
            let full = render("validated", done, total, t);
            assert!(full.len() > 30, "{full}");
            for width in [0, 1, 5, 10, 20, 30, 40, 60, 80, 200] {
                let line = render_fit("validated", done, total, t, width);
                assert!(
                    line.chars().count() <= width.saturating_sub(3),
                    "{width}: {line:?} ({} columns)",
                    line.chars().count()
                );
                if width >= full.chars().count() + 3 {
                    assert_eq!(line, full);
                }
            }
            // At 20 columns the line keeps the figure that matters.
            let line = render_fit("validated", done, total, t, 20);
            let key = if total.is_some() { "37%" } else { "1,234,567" };
            assert!(line.contains(key), "{line}");
        }
    }

    #[test]
    fn progress_text() {
        let d = Duration::from_secs(2);
        assert_eq!(
            render("generated", 150, Some(300), d),
            "[############------------]  50% 150/300 75.0/s 0:02 left"
        );
        assert_eq!(
            render("validated", 1_234_567, None, Duration::from_secs(65)),
            "validated 1,234,567 lines 19.0k/s 1:05"
        );
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(300_000_000), "300,000,000");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }

    #[test]
    fn progress_off_never_reads_the_clock() {
        let mut p = Progress::with(false, "generated", Some(10));
        assert_eq!(p.next_check, u64::MAX);
        p.tick(u64::MAX - 1);
        assert!(p.last_draw.is_none());
    }
}

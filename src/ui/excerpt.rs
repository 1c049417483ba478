//! The excerpt of a bad input that a report shows: the input (escaped where it cannot be shown
//! as it is, cut to a window around the bad byte when long) and the caret line under it.

use super::colour::{paint, Paint};

/// How many terminal columns of input the excerpt shows at most; a longer input is shown as a
/// window around the bad byte, with `...` where it was cut.
pub const EXCERPT_WIDTH: usize = 64;

/// One displayed piece of the input: a byte or a character, maybe escaped.
struct Unit {
    /// The first input byte it stands for.
    start: usize,
    /// How many input bytes it stands for.
    len: usize,
    /// What is displayed: printable ASCII, a narrow letter, or an escape like `\x1b`.
    text: String,
}

/// Whether a non-ASCII character can be shown as it is and takes exactly one column: Latin,
/// Greek and Cyrillic letters (no combining marks, no invisible characters). Anything else —
/// wide East Asian characters, combining marks, bidirectional controls, emoji — is escaped, so
/// the caret stays under the right character on any terminal.
fn narrow_printable(c: char) -> bool {
    matches!(c, '\u{a1}'..='\u{24f}' | '\u{370}'..='\u{3ff}' | '\u{400}'..='\u{482}' | '\u{48a}'..='\u{52f}')
        && c != '\u{ad}'
}

/// Splits `bytes` into display units: printable ASCII as it is, controls as `\t`, `\r`, `\n`,
/// `\x1b`, characters per [`narrow_printable`] as they are or `\u{…}`, and bytes that are not
/// UTF-8 as `\xff`.
fn units(bytes: &[u8]) -> Vec<Unit> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (len, text) = if b.is_ascii() {
            let text = match b {
                b'\t' => "\\t".to_string(),
                b'\r' => "\\r".to_string(),
                b'\n' => "\\n".to_string(),
                0x20..=0x7e => (b as char).to_string(),
                _ => format!("\\x{b:02x}"),
            };
            (1, text)
        } else {
            // The longest UTF-8 sequence is 4 bytes; decode at most that much.
            let end = (i + 4).min(bytes.len());
            let prefix = &bytes[i..end];
            let valid = match std::str::from_utf8(prefix) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&prefix[..e.valid_up_to()]).unwrap_or(""),
            };
            match valid.chars().next() {
                Some(c) if narrow_printable(c) => (c.len_utf8(), c.to_string()),
                Some(c) => (c.len_utf8(), format!("\\u{{{:x}}}", c as u32)),
                None => (1, format!("\\x{b:02x}")),
            }
        };
        out.push(Unit {
            start: i,
            len,
            text,
        });
        i += len;
    }
    out
}

/// The excerpt of an input around byte `pos`: the text to show and where the caret goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The displayed input (escaped; `...` where cut). Only ASCII and narrow letters.
    pub text: String,
    /// The column (0-based, in displayed characters) where the caret starts.
    pub caret_col: usize,
    /// How many carets: the display width of the unit at `pos` (1 at the end of the input).
    pub caret_len: usize,
}

/// Builds the excerpt of `bytes` for a problem at byte `pos` (which may be `bytes.len()`: the
/// end of the input). `cut` says the input continued beyond `bytes`, so the excerpt ends in
/// `...`. At most [`EXCERPT_WIDTH`] columns of input are shown.
pub fn excerpt(bytes: &[u8], pos: usize, cut: bool) -> Excerpt {
    // Printable ASCII that fits (most bad input): one column per byte, shown whole; the same
    // as the general path below, without a string per byte.
    if bytes.len() <= EXCERPT_WIDTH && bytes.iter().all(|b| (0x20..=0x7e).contains(b)) {
        let mut text = String::with_capacity(bytes.len() + 3);
        text.push_str(std::str::from_utf8(bytes).unwrap_or_default());
        if cut {
            text.push_str("...");
        }
        return Excerpt {
            text,
            caret_col: pos.min(bytes.len()),
            caret_len: 1,
        };
    }
    excerpt_general(bytes, pos, cut)
}

/// [`excerpt`] for any bytes.
fn excerpt_general(bytes: &[u8], pos: usize, cut: bool) -> Excerpt {
    let units = units(bytes);
    // Column where each unit starts, plus the end.
    let mut cols = Vec::with_capacity(units.len() + 1);
    let mut col = 0;
    for u in &units {
        cols.push(col);
        col += u.text.chars().count();
    }
    let total = col;
    cols.push(total);
    // The unit that holds byte `pos`; past the end, a virtual unit after the last one.
    let at = units
        .iter()
        .position(|u| pos < u.start + u.len)
        .unwrap_or(units.len());
    let caret_len = units.get(at).map_or(1, |u| u.text.chars().count());

    // The window [first, last) of units to show: everything if it fits, else about a third of
    // the width before the caret and the rest after it.
    let (mut first, mut last) = (0, units.len());
    if total > EXCERPT_WIDTH {
        // A caret in the first two thirds is shown with the input from its start.
        let want_start = if cols[at] < EXCERPT_WIDTH * 2 / 3 {
            0
        } else {
            cols[at].saturating_sub(EXCERPT_WIDTH / 3)
        };
        first = cols.partition_point(|&c| c < want_start).min(at);
        last = first;
        while last < units.len() && cols[last + 1] - cols[first] <= EXCERPT_WIDTH {
            last += 1;
        }
        // The caret's own unit is always shown, even if it alone is wider than the window.
        last = last.max((at + 1).min(units.len()));
    }
    let mut text = String::new();
    if first > 0 {
        text.push_str("...");
    }
    let caret_col = text.chars().count() + (cols[at] - cols[first]);
    for u in &units[first..last] {
        text.push_str(&u.text);
    }
    if last < units.len() || cut {
        text.push_str("...");
    }
    Excerpt {
        text,
        caret_col,
        caret_len,
    }
}

/// The excerpt and caret lines, each indented by two spaces and ending in a newline.
pub fn excerpt_lines(bytes: &[u8], pos: usize, cut: bool, color: bool) -> String {
    let e = excerpt(bytes, pos, cut);
    let caret = "^".repeat(e.caret_len);
    let mut s = String::with_capacity(e.text.len() + e.caret_col + e.caret_len + 16);
    s.push_str("  ");
    s.push_str(&e.text);
    s.push_str("\n  ");
    const SPACES: &str = "                                                                ";
    match SPACES.get(..e.caret_col) {
        Some(sp) => s.push_str(sp),
        None => s.extend(std::iter::repeat_n(' ', e.caret_col)),
    }
    if color {
        s.push_str(&paint(color, Paint::Error, &caret));
    } else {
        s.push_str(&caret);
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_of_short_printable_ascii_is_the_general_one() {
        let mut x = 7u64;
        for len in 0..=EXCERPT_WIDTH + 2 {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        0x20 + ((x >> 33) % 95) as u8
                    })
                    .collect();
                for pos in [0, len / 2, len.saturating_sub(1), len] {
                    for cut in [false, true] {
                        assert_eq!(
                            excerpt(&bytes, pos, cut),
                            excerpt_general(&bytes, pos, cut),
                            "{bytes:?} at {pos}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn caret_after_the_end_for_a_short_input() {
        let e = excerpt(b"abc", 3, false);
        assert_eq!((e.text.as_str(), e.caret_col, e.caret_len), ("abc", 3, 1));
        let e = excerpt(b"", 0, false);
        assert_eq!((e.text.as_str(), e.caret_col, e.caret_len), ("", 0, 1));
    }

    #[test]
    fn control_bytes_and_invalid_utf8_are_escaped_and_the_caret_spans_the_escape() {
        let e = excerpt(b"ab\x1b[31m\xffz\t", 7, false);
        assert_eq!(e.text, "ab\\x1b[31m\\xffz\\t");
        // a b \x1b [ 3 1 m: the 0xff byte (byte 7) starts at column 2 + 4 + 4 = 10.
        assert_eq!((e.caret_col, e.caret_len), (10, 4));
        let e = excerpt(b"\x7f", 0, false);
        assert_eq!((e.text.as_str(), e.caret_len), ("\\x7f", 4));
    }

    #[test]
    fn narrow_letters_shown_wide_and_invisible_characters_escaped() {
        let input = "é漢\u{202e}x".as_bytes();
        let e = excerpt(input, input.len() - 1, false);
        assert_eq!(e.text, "é\\u{6f22}\\u{202e}x");
        assert_eq!((e.caret_col, e.caret_len), (1 + 8 + 8, 1));
        // A position inside a multi-byte character points at the whole character.
        let e = excerpt(input, 3, false);
        assert_eq!((e.caret_col, e.caret_len), (1, 8));
    }

    #[test]
    fn long_lines_show_a_window_around_the_caret() {
        let mut line = vec![b'a'; 1000];
        line[500] = b'X';
        let e = excerpt(&line, 500, true);
        assert!(e.text.starts_with("..."));
        assert!(e.text.ends_with("..."));
        assert_eq!(e.text.len(), 3 + EXCERPT_WIDTH + 3);
        assert_eq!(e.text.chars().nth(e.caret_col), Some('X'));
        // Near the start: no leading dots, but the cut end shows.
        let e = excerpt(&line[..100], 2, false);
        assert!(!e.text.starts_with("..."));
        assert!(e.text.ends_with("..."));
        assert_eq!(e.caret_col, 2);
        // At the very end of a long line.
        let e = excerpt(&line, 1000, false);
        assert!(e.text.starts_with("...") && !e.text.ends_with("..."));
        assert_eq!(e.caret_col, e.text.len());
        // A cut line (only its start kept) ends in dots even when all kept bytes fit.
        let e = excerpt(b"0123", 4, true);
        assert_eq!(e.text, "0123...");
    }

    #[test]
    fn window_of_escapes_never_splits_one() {
        let line = vec![0x01u8; 200];
        let e = excerpt(&line, 100, false);
        let body = e.text.trim_start_matches("...").trim_end_matches("...");
        assert_eq!(body.len() % 4, 0, "{}", e.text);
        assert!(body.len() <= EXCERPT_WIDTH);
        assert_eq!(&e.text[e.caret_col..e.caret_col + 4], "\\x01");
    }
}

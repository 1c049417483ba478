//! Error reports on standard error: `error: MESSAGE`, and for an invalid input the report with
//! its location, the excerpt of the input and a caret under the bad byte; [`LineReports`]
//! assembles many reports of lines at once.

use std::fmt;

use super::colour::{color, paint, Paint, Stream};
use super::excerpt::{excerpt_lines, EXCERPT_WIDTH};
use super::stderr::{write_stderr, write_stderr_batch, write_stderr_bytes, STDERR_BUF_SIZE};

/// Where an input item came from, for the report's location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A line of standard input.
    Line,
    /// A command-line argument (1-based among the inputs).
    Argument,
}

impl Origin {
    /// `line` or `argument`.
    pub fn word(self) -> &'static str {
        match self {
            Origin::Line => "line",
            Origin::Argument => "argument",
        }
    }
}

/// Where an invalid input was met and what of it the report shows.
#[derive(Clone, Copy, Debug)]
pub struct BadInput<'a> {
    /// A command-line argument or a line of input.
    pub origin: Origin,
    /// Its number (1-based).
    pub no: u64,
    /// Its bytes (as read: at most the length limit).
    pub bytes: &'a [u8],
    /// Whether it was longer than `bytes` (the excerpt then ends in `...`).
    pub cut: bool,
    /// The byte offset the caret points at.
    pub pos: usize,
}

/// The whole report for an invalid input, as written to standard error:
///
/// ```text
/// error: line 2: invalid character 'x' at byte 9: expected a hexadecimal digit
///   67e55044-x0b1-426f-9247-bb680e5fe0c8
///            ^
/// ```
pub fn input_report(at: &BadInput<'_>, msg: &dyn fmt::Display, color: bool) -> String {
    let (origin, no) = (at.origin, at.no);
    let mut s = if color {
        format!(
            "{} {} {msg}\n",
            paint(color, Paint::Error, "error:"),
            paint(color, Paint::Location, &format!("{} {no}:", origin.word())),
        )
    } else {
        // The same text without the `fmt` machinery for its fixed parts.
        let mut s = String::with_capacity(160);
        s.push_str("error: ");
        s.push_str(origin.word());
        s.push(' ');
        let mut digits = [0u8; 20];
        let n = crate::numerals::decimal_u64(no, &mut digits);
        s.push_str(std::str::from_utf8(&digits[..n]).unwrap_or_default());
        s.push_str(": ");
        let _ = fmt::Write::write_fmt(&mut s, format_args!("{msg}\n"));
        s
    };
    s.push_str(&excerpt_lines(at.bytes, at.pos, at.cut, color));
    s
}

/// Writes [`input_report`] to standard error in one write (so that concurrent writers do not
/// interleave inside it), first clearing a progress line if one is shown.
pub fn report_input(at: &BadInput<'_>, msg: &dyn fmt::Display) {
    let text = input_report(at, msg, color(Stream::Stderr));
    write_stderr(&text);
}

/// [`report_input`] for a message already rendered (`msg`, from
/// [`crate::representation::Messages`]): for printable ASCII input that fits the excerpt,
/// without colour, the report is assembled in `scratch` byte by byte, the same bytes
/// [`input_report`] makes; anything else takes [`report_input`]. A file of bad lines costs
/// no more per line than the bytes it reports.
pub fn report_input_rendered(at: &BadInput<'_>, msg: &[u8], scratch: &mut Vec<u8>) {
    if color(Stream::Stderr) || !plain_report(at, msg, scratch) {
        return report_input(at, &String::from_utf8_lossy(msg));
    }
    write_stderr_bytes(scratch);
}

/// [`input_report`] without colour, assembled in `out`, for printable ASCII input that fits
/// the excerpt; false (and `out` unspecified) for any other input.
fn plain_report(at: &BadInput<'_>, msg: &[u8], out: &mut Vec<u8>) -> bool {
    let &BadInput {
        origin,
        no,
        bytes,
        cut,
        pos,
    } = at;
    if bytes.len() > EXCERPT_WIDTH || !bytes.iter().all(|b| (0x20..=0x7e).contains(b)) {
        return false;
    }
    const SPACES: &[u8; EXCERPT_WIDTH] = &[b' '; EXCERPT_WIDTH];
    let mut digits = [0u8; 20];
    let n = crate::numerals::decimal_u64(no, &mut digits);
    let dots: &[u8] = if cut { b"..." } else { b"" };
    out.clear();
    for part in [
        b"error: ".as_slice(),
        origin.word().as_bytes(),
        b" ",
        &digits[..n],
        b": ",
        msg,
        b"\n  ",
        bytes,
        dots,
        b"\n  ",
        &SPACES[..pos.min(bytes.len())],
        b"^\n",
    ] {
        out.extend_from_slice(part);
    }
    true
}

/// Whether every byte of `s` is printable ASCII (0x20 to 0x7e).
#[inline(always)]
fn printable(s: &[u8]) -> bool {
    !crate::scan::any_byte(s, |b| !(0x20..=0x7e).contains(&b))
}

/// Each caret line of a report: a newline, two spaces, `i` more spaces and the caret, for `i`
/// up to [`EXCERPT_WIDTH`] (row `i` is read up to `i + 5`).
const CARET_LINES: [[u8; EXCERPT_WIDTH + 5]; EXCERPT_WIDTH + 1] = {
    let mut rows = [[b' '; EXCERPT_WIDTH + 5]; EXCERPT_WIDTH + 1];
    let mut i = 0;
    while i <= EXCERPT_WIDTH {
        rows[i][0] = b'\n';
        rows[i][i + 3] = b'^';
        rows[i][i + 4] = b'\n';
        i += 1;
    }
    rows
};

/// Reports of lines of standard input, assembled in a buffer of their own and handed to
/// standard error's buffer by [`LineReports::SIZE`] bytes (only while
/// [`super::buffer_stderr`] is on): each is [`plain_report`]'s text, assembled from five
/// pieces, three of them of a fixed size, instead of twelve.
pub struct LineReports {
    buf: Box<[u8]>,
    len: usize,
}

impl Default for LineReports {
    /// Without a buffer yet: one is made for the first report (a run with no bad line pays
    /// nothing for it).
    fn default() -> LineReports {
        LineReports {
            buf: Box::default(),
            len: 0,
        }
    }
}

impl LineReports {
    /// How many bytes are handed on at a time (the size at which standard error's buffer
    /// writes itself out).
    pub const SIZE: usize = STDERR_BUF_SIZE;
    /// Room for a report besides its message: prefix, number, line and caret line.
    const MARGIN: usize = 16 + 20 + EXCERPT_WIDTH + EXCERPT_WIDTH + 5;
    /// The longest message a report assembled here has.
    const MESSAGE: usize = 1024;

    /// Appends the report of a line that was not cut, from its number's digits (`no`, the
    /// first `n` of them counting) and the message as
    /// [`crate::representation::Messages::in_report`] gives it. False (and nothing appended)
    /// when the line is not printable ASCII that fits the excerpt, or `pos` is past its end:
    /// the caller then takes the general path.
    pub fn push(&mut self, no: (&[u8; 20], usize), msg: &[u8], bytes: &[u8], pos: usize) -> bool {
        // Room is left for a message of up to MESSAGE bytes (a longer one takes the general
        // path), so that the reports go out only once SIZE bytes are assembled.
        let Some(caret) = CARET_LINES.get(pos) else {
            return false;
        };
        if pos > bytes.len()
            || bytes.len() > EXCERPT_WIDTH
            || msg.len() > Self::MESSAGE
            || !printable(bytes)
        {
            return false;
        }
        if self.buf.is_empty() {
            self.buf = vec![0; Self::SIZE + Self::MARGIN + Self::MESSAGE].into_boxed_slice();
        }
        // All of the report's room at once (there is while fewer than SIZE bytes wait): the
        // pieces of a fixed size are then copied whole, and only the bytes that count kept.
        let Some(room) = self
            .buf
            .get_mut(self.len..)
            .and_then(|r| r.first_chunk_mut::<{ Self::MARGIN + Self::MESSAGE }>())
        else {
            return false;
        };
        let mut at = 0;
        let mut put = |part: &[u8], keep: usize| {
            if let Some(r) = room.get_mut(at..) {
                crate::scan::copy_short(r, part);
            }
            at += keep;
        };
        put(b"error: line     ", 12);
        put(no.0, no.1.min(20));
        put(msg, msg.len());
        put(bytes, bytes.len());
        // The caret line's row whole, of which the first `pos + 5` bytes count.
        put(caret, pos + 5);
        self.len += at;
        if self.len >= Self::SIZE {
            self.write_out();
        }
        true
    }

    /// Hands the reports assembled to standard error (through its buffer, unless that is
    /// empty: then they are written at once, as the buffer would write them).
    pub fn write_out(&mut self) {
        let text = self.buf.get(..self.len).unwrap_or_default();
        self.len = 0;
        if text.is_empty() {
            return;
        }
        write_stderr_batch(text);
    }
}

/// `error: MESSAGE` on standard error (the prefix in red on a terminal).
pub fn report_error(msg: &dyn fmt::Display) {
    let text = format!(
        "{} {msg}\n",
        paint(color(Stream::Stderr), Paint::Error, "error:")
    );
    write_stderr(&text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::excerpt::excerpt;

    #[test]
    fn plain_reports_are_the_general_ones_without_colour() {
        let inputs: [&[u8]; 6] = [
            b"67e55044-10b1-426f-9247-bb680e5fe0cg",
            b"",
            b"{67e55044-10b1-426f-9247-bb680e5fe0c8",
            b"x y z ~ !",
            &[b'7'; EXCERPT_WIDTH],
            b"67e5504410b1426f9247bb680e5fe0c8-",
        ];
        let mut out = Vec::new();
        let mut tried = 0;
        for bytes in inputs {
            for pos in [0, bytes.len() / 2, bytes.len(), bytes.len() + 5] {
                for (origin, no, cut) in [
                    (Origin::Line, 1, false),
                    (Origin::Argument, 99, false),
                    (Origin::Line, u64::MAX, true),
                ] {
                    let msg = "invalid character 'g' at byte 35: expected a hexadecimal digit";
                    let at = BadInput {
                        origin,
                        no,
                        bytes,
                        cut,
                        pos,
                    };
                    assert!(plain_report(&at, msg.as_bytes(), &mut out));
                    let want = input_report(&at, &msg, false);
                    assert_eq!(String::from_utf8_lossy(&out), want);
                    tried += 1;
                }
            }
        }
        assert_eq!(tried, 6 * 4 * 3);
        // Not printable ASCII, or too wide: the general path's.
        for bytes in ["é".as_bytes(), b"a\tb", &[b'7'; EXCERPT_WIDTH + 1]] {
            let at = BadInput {
                origin: Origin::Line,
                no: 1,
                bytes,
                cut: false,
                pos: 0,
            };
            assert!(!plain_report(&at, b"m", &mut out));
        }
    }

    #[test]
    fn line_reports_are_the_general_ones_without_colour() {
        let inputs: [&[u8]; 9] = [
            b"67e55044-10b1-426f-9247-bb680e5fe0cg",
            b"",
            b"{67e55044-10b1-426f-9247-bb680e5fe0c8",
            b"x y z ~ !",
            &[b'7'; EXCERPT_WIDTH],
            &[b'7'; EXCERPT_WIDTH + 1],
            b"67e5504410b1426f9247bb680e5fe0c8-",
            b"67e55044-10b1-426f-9247-bb680e5fe0\x7f8",
            "67e55044-10b1-426f-9247-bb680e5f\u{e9}c8".as_bytes(),
        ];
        let msg = "invalid character 'g' at byte 35: expected a hexadecimal digit";
        let in_report = format!(": {msg}\n  ");
        let mut tried = 0;
        let mut r = LineReports::default();
        let mut want = String::new();
        for round in 0..20 {
            for bytes in inputs {
                for pos in [0, bytes.len() / 2, bytes.len(), bytes.len() + 1] {
                    for no in [1u64, 99, 123_456_789, u64::MAX] {
                        let mut c = crate::numerals::Counter::default();
                        c.set(no);
                        let at = BadInput {
                            origin: Origin::Line,
                            no,
                            bytes,
                            cut: false,
                            pos,
                        };
                        let mut plain = Vec::new();
                        let ok =
                            plain_report(&at, msg.as_bytes(), &mut plain) && pos <= bytes.len();
                        if r.len > LineReports::SIZE / 2 {
                            // Emptied here: handing on would write to the tests' stderr.
                            r.len = 0;
                            want.clear();
                        }
                        let done = r.push(c.padded(), in_report.as_bytes(), bytes, pos);
                        assert_eq!(done, ok, "{bytes:?} at {pos}");
                        if ok {
                            want.push_str(&input_report(&at, &msg, false));
                        }
                        assert_eq!(String::from_utf8_lossy(&r.buf[..r.len]), want, "{round}");
                        tried += usize::from(ok);
                    }
                }
            }
        }
        assert!(tried > 1000, "{tried}");
    }

    #[test]
    fn printable_agrees_with_the_byte_by_byte_test() {
        for len in 0..40 {
            let mut s = vec![b'a'; len];
            assert!(printable(&s));
            for i in 0..len {
                for b in 0..=255u8 {
                    s[i] = b;
                    let want = s.iter().all(|b| (0x20..=0x7e).contains(b));
                    assert_eq!(printable(&s), want, "{s:?}");
                }
                s[i] = b'a';
            }
        }
    }

    #[test]
    fn caret_under_the_bad_byte() {
        let e = excerpt(b"67e55044-x0b1-426f-9247-bb680e5fe0c8", 9, false);
        assert_eq!(e.text, "67e55044-x0b1-426f-9247-bb680e5fe0c8");
        assert_eq!((e.caret_col, e.caret_len), (9, 1));
        let at = BadInput {
            origin: Origin::Line,
            no: 2,
            bytes: b"67e55044-x0b1-426f-9247-bb680e5fe0c8",
            cut: false,
            pos: 9,
        };
        let msg = "invalid character 'x' at byte 9: expected a hexadecimal digit";
        let r = input_report(&at, &msg, false);
        assert_eq!(
            r,
            "error: line 2: invalid character 'x' at byte 9: expected a hexadecimal digit\n  \
             67e55044-x0b1-426f-9247-bb680e5fe0c8\n           ^\n"
        );
    }

    #[test]
    fn colour_wraps_prefix_and_caret_only() {
        let at = BadInput {
            origin: Origin::Argument,
            no: 1,
            bytes: b"x",
            cut: false,
            pos: 0,
        };
        let r = input_report(&at, &"bad", true);
        assert_eq!(
            r,
            "\x1b[1;31merror:\x1b[0m \x1b[1margument 1:\x1b[0m bad\n  x\n  \x1b[1;31m^\x1b[0m\n"
        );
    }
}

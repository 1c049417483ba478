//! The reader of standard input ([`Blocks`]): lines handed out as slices of a large block, and
//! the run of lines of one or two lengths taken without a search for their ends (the fast path
//! of `validate` and `convert`).

use std::io;
#[cfg(test)]
use std::io::BufRead;

use super::line::{Candidate, MAX_LINE};

/// Bytes read per `read` call on standard input.
const BLOCK: usize = 256 * 1024;

/// A reader that hands out lines as slices of a large block: no copy and no per-line system
/// call, which at UUID-sized lines is most of the cost of `validate` and `convert`. Lines
/// follow [`read_line_capped`]'s rules exactly (same cap, same counting of a cut line, a final
/// `\r` dropped); memory stays flat (one block, plus [`MAX_LINE`] bytes for the start of an
/// over-long line, whose rest is counted and skipped).
pub struct Blocks<R> {
    r: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
    /// The kept start of an over-long line.
    long: Vec<u8>,
}

impl<R: io::Read> Blocks<R> {
    /// Lines of `r`.
    pub fn new(r: R) -> Blocks<R> {
        Blocks {
            r,
            buf: vec![0; BLOCK + MAX_LINE],
            start: 0,
            end: 0,
            eof: false,
            long: Vec::new(),
        }
    }

    /// The next line without its line end, and its full length; `None` at the end.
    #[inline]
    pub fn next_line(&mut self) -> io::Result<Option<(&[u8], usize)>> {
        loop {
            let pending = &self.buf[self.start..self.end];
            if let Some(i) = find_newline(pending) {
                let at = self.start;
                self.start += i + 1;
                return Ok(Some(capped(&self.buf[at..at + i])));
            }
            if self.eof {
                if pending.is_empty() {
                    return Ok(None);
                }
                let at = self.start;
                self.start = self.end;
                return Ok(Some(capped(&self.buf[at..self.end])));
            }
            if pending.len() > MAX_LINE {
                return self.long_line().map(Some);
            }
            self.refill()?;
        }
    }

    /// Offers `accept` each following line that is empty, or `len` or `alt` bytes long (then
    /// `\n`, or `\r\n`), numbered from `first_no`, and goes past it if `accept` returns true;
    /// stops at the first line it does not take and at the end of the buffered bytes (it never
    /// reads). Returns how many lines it took, which are then exactly what
    /// [`Blocks::next_line`] would have returned. A line taken at `alt` makes `alt` the length
    /// tried first for the next (the two lengths trade places).
    ///
    /// This is the fast path of `validate` and `convert`: in a file of UUIDs the lines have
    /// one length (or two, hyphenated and simple forms mixed), so a byte comparison or two
    /// finds a line's end instead of a search. The price is a rule for `accept`: it may take
    /// only bytes that are the whole line, which bytes holding a `\n` (the line really ends
    /// earlier) or ending in `\r` (that `\r` belongs to the line end) are not
    /// ([`Candidate::whole`]). No UUID form holds either, so a valid line is always whole; a
    /// command that reports a bad line in the run checks it first.
    #[inline(always)]
    pub fn take_run(
        &mut self,
        first_no: u64,
        len: &mut usize,
        alt: &mut usize,
        mut accept: impl FnMut(Candidate<'_>) -> bool,
    ) -> u64 {
        // The number of the next line (counted rather than added up when asked for).
        let mut no = first_no;
        if (*len).max(*alt) > MAX_LINE {
            return 0;
        }
        // The bytes and where the next line starts, in locals: the calls of `accept` cannot
        // change them, so they need not be read again after each.
        let data = self.buf.get(..self.end).unwrap_or_default();
        let mut start = self.start;
        'lines: while let Some(pending @ [first_byte, ..]) = data.get(start..) {
            // An empty line (`\n` or `\r\n`) is neither length (and no UUID starts with a
            // byte up to `\r`).
            if *first_byte <= b'\r' {
                let step = match pending {
                    [b'\n', _, ..] => 1,
                    [b'\r', b'\n', _, ..] => 2,
                    _ => 0,
                };
                if step != 0 {
                    let empty = Candidate {
                        bytes: &[],
                        no,
                        empty: true,
                    };
                    if !accept(empty) {
                        break;
                    }
                    start += step;
                    no += 1;
                    continue;
                }
            }
            for first in [true, false] {
                let l = if first { *len } else { *alt };
                // Two bytes after the line: room for the `\n` of a `\r\n`; only the last
                // line of the block misses the fast path for it.
                let (Some(line), Some(&[end, next])) = (
                    pending.get(..l),
                    pending.get(l..).and_then(|r| r.first_chunk::<2>()),
                ) else {
                    break 'lines;
                };
                let step = match (end, next) {
                    (b'\n', _) => l + 1,
                    (b'\r', b'\n') => l + 2,
                    _ => continue,
                };
                if !accept(Candidate {
                    bytes: line,
                    no,
                    empty: false,
                }) {
                    continue;
                }
                if !first {
                    std::mem::swap(len, alt);
                }
                start += step;
                no += 1;
                continue 'lines;
            }
            break;
        }
        self.start = start;
        no - first_no
    }

    /// Moves the pending bytes to the front and reads more after them.
    fn refill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        loop {
            match self.r.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// A line longer than [`MAX_LINE`]: keeps its start, counts and skips the rest.
    #[cold]
    fn long_line(&mut self) -> io::Result<(&[u8], usize)> {
        self.long.clear();
        self.long
            .extend_from_slice(&self.buf[self.start..self.start + MAX_LINE]);
        let mut total = 0usize;
        let mut last = 0u8;
        loop {
            let pending = &self.buf[self.start..self.end];
            let (chunk, newline) = match find_newline(pending) {
                Some(i) => (&pending[..i], true),
                None => (pending, false),
            };
            if let Some(&b) = chunk.last() {
                last = b;
            }
            total += chunk.len();
            self.start += chunk.len() + usize::from(newline);
            if newline {
                break;
            }
            self.refill()?;
            if self.eof && self.start == self.end {
                break;
            }
        }
        if last == b'\r' && total > 0 {
            if self.long.len() == total {
                self.long.pop();
            }
            total -= 1;
        }
        Ok((&self.long, total))
    }
}

/// A whole line's kept bytes (at most [`MAX_LINE`]) and length, both without a final `\r`.
#[inline]
fn capped(line: &[u8]) -> (&[u8], usize) {
    let body = match line.split_last() {
        Some((b'\r', rest)) => rest,
        _ => line,
    };
    (&body[..body.len().min(MAX_LINE)], body.len())
}

/// The first `\n` in `s`, eight bytes at a time.
#[inline]
fn find_newline(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = s.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        let x = u64::from_le_bytes(b) ^ (ONES * u64::from(b'\n'));
        // The lowest set bit marks the first zero byte of `x` (a borrow only runs upwards).
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| at + i)
}

/// The line rules, one line at a time: the reference that the tests hold [`Blocks`] to.
///
/// Reads one line into `buf` (cleared first), keeping at most `cap` bytes of it and dropping the
/// `\n` and a `\r` before it. Returns the line's full length without the line end, or `None` at
/// the end of the input.
#[cfg(test)]
pub fn read_line_capped(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut seen_any = false;
    let mut last = 0u8;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, newline) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], true),
            None => (avail, false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if let Some(&b) = chunk.last() {
            last = b;
        }
        total += chunk.len();
        let used = chunk.len() + usize::from(newline);
        r.consume(used);
        if newline {
            break;
        }
    }
    if last == b'\r' && total > 0 {
        if buf.len() == total {
            buf.pop();
        }
        total -= 1;
    }
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<(Vec<u8>, usize)> {
        let mut r = io::BufReader::with_capacity(3, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(n) = read_line_capped(&mut r, &mut buf, cap).unwrap() {
            out.push((buf.clone(), n));
        }
        out
    }

    fn block_lines(input: &[u8], cap_check: bool) -> Vec<(Vec<u8>, usize)> {
        let mut b = Blocks::new(input);
        let mut out = Vec::new();
        while let Some((line, n)) = b.next_line().unwrap() {
            out.push((line.to_vec(), n));
        }
        if cap_check {
            assert_eq!(
                out,
                lines(input, MAX_LINE),
                "blocks and read_line_capped differ"
            );
        }
        out
    }

    #[test]
    fn blocks_follow_read_line_capped() {
        let long = vec![b'a'; MAX_LINE + 10];
        let mut cases: Vec<Vec<u8>> = vec![
            b"ab\r\ncd\n\nef".to_vec(),
            b"abc\r".to_vec(),
            b"".to_vec(),
            b"\n\n\r\n".to_vec(),
            b"no newline at all".to_vec(),
        ];
        for extra in [0usize, 1, 2, 9] {
            let mut c = vec![b'x'; MAX_LINE - 1 + extra];
            c.extend_from_slice(b"\r\nnext\r\n");
            cases.push(c);
            let mut c = vec![b'y'; MAX_LINE - 1 + extra];
            c.push(b'\r');
            cases.push(c);
        }
        let mut c = long.clone();
        c.push(b'\n');
        c.extend_from_slice(&long);
        cases.push(c);
        // Lines across block boundaries, of every length around a word.
        let mut many = Vec::new();
        for i in 0..200_000usize {
            many.extend(std::iter::repeat_n(b'0' + (i % 10) as u8, i % 23));
            many.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
        }
        cases.push(many);
        for c in &cases {
            block_lines(c, true);
        }
        assert_eq!(
            block_lines(b"a\nbb", true),
            vec![(b"a".to_vec(), 1), (b"bb".to_vec(), 2)]
        );
    }

    /// The lines of `input` as `validate` and `convert` read them: runs of lines of the last
    /// two taken lengths through `take_run`, the rest through `next_line`. `accept` says
    /// whether a line is valid; `take_bad` whether a whole invalid line is taken in the run.
    /// Each line comes with its number, checked against its place.
    fn run_lines_with(
        input: &[u8],
        accept: impl Fn(&[u8]) -> bool,
        take_bad: bool,
    ) -> Vec<(Vec<u8>, usize)> {
        let mut b = Blocks::new(input);
        let mut out = Vec::new();
        let (mut guess, mut alt) = (3, 2);
        loop {
            let first_no = out.len() as u64 + 1;
            b.take_run(first_no, &mut guess, &mut alt, |c| {
                assert_eq!(c.no(), out.len() as u64 + 1);
                if accept(c.bytes) || (take_bad && c.whole()) {
                    out.push((c.bytes.to_vec(), c.bytes.len()));
                    true
                } else {
                    false
                }
            });
            let Some((line, n)) = b.next_line().unwrap() else {
                break;
            };
            if accept(line) && line.len() != guess {
                alt = guess;
                guess = line.len();
            }
            out.push((line.to_vec(), n));
        }
        out
    }

    fn run_lines(input: &[u8], accept: impl Fn(&[u8]) -> bool) -> Vec<(Vec<u8>, usize)> {
        run_lines_with(input, accept, false)
    }

    #[test]
    fn take_run_returns_the_same_lines() {
        // The rule `take_run` asks of its callers: no `\n` inside, no `\r` at the end.
        let rule = |l: &[u8]| !l.contains(&b'\n') && l.last() != Some(&b'\r');
        let mut cases: Vec<Vec<u8>> = vec![
            b"abc\nabc\r\nabc\r\r\nabc\nab\nc\nabc".to_vec(),
            b"abc\nabc\n\nabc\n\n\n\rabc\nab\rc\n".to_vec(),
            b"abc\r\nabc\r".to_vec(),
            b"\n\n\n".to_vec(),
            b"\r\n\n\r\n\r\r\n\r\r\nabc\n\n".to_vec(),
            b"".to_vec(),
        ];
        // Many equal lines across block boundaries, with a few of other lengths and line ends.
        let mut many = Vec::new();
        for i in 0..100_000usize {
            let len = match i % 997 {
                0 => 5,
                1 => 0,
                _ => 36,
            };
            many.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, len));
            many.extend_from_slice(match i % 1009 {
                0 => b"\r\n".as_slice(),
                1 => b"\r\r\n",
                2 => b"\n\r\n",
                _ => b"\n",
            });
        }
        cases.push(many);
        for c in &cases {
            let want = block_lines(c, true);
            assert_eq!(run_lines(c, rule), want);
            // An acceptor that refuses some lines leaves them to `next_line`, unchanged.
            assert_eq!(run_lines(c, |l| rule(l) && l.first() != Some(&b'b')), want);
            // One that takes the whole ones it finds invalid (as a report would) too.
            for take_bad in [false, true] {
                assert_eq!(
                    run_lines_with(c, |l| rule(l) && l.len() == 3, take_bad),
                    want
                );
                assert_eq!(run_lines_with(c, |_| false, take_bad), want);
            }
        }
    }

    #[test]
    fn newline_search_agrees_with_position() {
        let mut s = vec![b'a'; 40];
        assert_eq!(find_newline(&s), None);
        for i in 0..40 {
            s[i] = b'\n';
            assert_eq!(find_newline(&s), Some(i));
            // 0x0b right after a '\n' is a false match for the word trick (the borrow out of
            // the '\n' byte runs into it): the search must still report the '\n'.
            if i + 1 < 40 {
                s[i + 1] = 0x0b;
            }
            assert_eq!(find_newline(&s), Some(i));
            assert_eq!(find_newline(&s[..=i]), Some(i));
            // A byte just below '\n' where it was is no match.
            s[i] = 0x09;
            assert_eq!(find_newline(&s), s.iter().position(|&b| b == b'\n'));
            s.fill(b'a');
        }
    }

    #[test]
    fn line_ends_and_caps() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nef", 10),
            vec![
                (b"ab".to_vec(), 2),
                (b"cd".to_vec(), 2),
                (b"".to_vec(), 0),
                (b"ef".to_vec(), 2)
            ]
        );
        assert_eq!(
            lines(b"abcdefgh\r\nx", 4),
            vec![(b"abcd".to_vec(), 8), (b"x".to_vec(), 1)]
        );
        assert_eq!(lines(b"abc\r", 4), vec![(b"abc".to_vec(), 3)]);
        assert!(lines(b"", 4).is_empty());
    }
}

//! One input item ([`Line`]), the longest kept ([`MAX_LINE`]), and the line that the fast path
//! of `validate` and `convert` offers ([`Candidate`]).

/// The longest line kept in memory, in bytes. Longer lines are invalid input whatever they hold:
/// the longest form read (`urn:oid:2.25.` and 39 digits) has 52 bytes.
pub const MAX_LINE: usize = 4096;

/// One input item.
pub struct Line<'a> {
    /// 1-based: the index of the argument, or the line number on standard input.
    pub no: u64,
    /// The item's bytes without the line end; at most [`MAX_LINE`] of them.
    pub bytes: &'a [u8],
    /// The item's full length in bytes (more than `bytes.len()` when the line was cut).
    pub len: usize,
}

impl Line<'_> {
    /// Whether the line was longer than [`MAX_LINE`] and only its start is in `bytes`.
    pub fn is_cut(&self) -> bool {
        self.len > self.bytes.len()
    }

    /// The item as text for display, invalid UTF-8 replaced by U+FFFD.
    pub fn lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.bytes)
    }
}

/// A line that [`super::Lines::take_run`] offers, found where the run's lengths say it ends.
#[derive(Clone, Copy)]
pub struct Candidate<'a> {
    /// The bytes before the line end that was found (`\n`, or `\r\n`).
    pub bytes: &'a [u8],
    /// Its number, as [`Line::no`] would give it.
    pub(super) no: u64,
    /// Whether this is an empty line (a constant where `take_run` offers one, so that a
    /// command's test of it costs nothing on the other lines).
    pub(super) empty: bool,
}

impl<'a> Candidate<'a> {
    /// `bytes`, the line numbered `no`.
    pub fn new(bytes: &'a [u8], no: u64) -> Candidate<'a> {
        Candidate {
            bytes,
            no,
            empty: bytes.is_empty(),
        }
    }

    /// Whether the line is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Its number, as [`Line::no`] would give it.
    #[inline]
    pub fn no(&self) -> u64 {
        self.no
    }

    /// Whether `bytes` are the whole line, as [`super::Lines::next_line`] would hand it out:
    /// no `\n` inside (the line would end there) and no `\r` at the end (it would belong to the
    /// line end). A valid UUID always is; other bytes must be checked before they are taken.
    #[inline]
    pub fn whole(&self) -> bool {
        !has_newline(self.bytes) && self.bytes.last() != Some(&b'\r')
    }

    /// The line, as [`super::Lines::next_line`] would hand it out (when [`whole`](Self::whole)).
    #[inline]
    pub fn line(&self) -> Line<'a> {
        Line {
            no: self.no(),
            bytes: self.bytes,
            len: self.bytes.len(),
        }
    }
}

/// Whether `s` holds a `\n`: `find_newline` (blocks.rs) without the place.
#[inline(always)]
fn has_newline(s: &[u8]) -> bool {
    crate::scan::any_byte(s, |b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_newline_agrees_with_contains() {
        for len in 0..80 {
            let mut s = vec![b'a'; len];
            assert!(!has_newline(&s));
            for i in 0..len {
                for b in [b'\n', 0x0b, 0x09, 0x8a] {
                    s[i] = b;
                    assert_eq!(has_newline(&s), s.contains(&b'\n'), "{s:?}");
                    s[(i * 7 + 3) % len] = b'\n';
                    assert_eq!(has_newline(&s), s.contains(&b'\n'), "{s:?}");
                    s.fill(b'a');
                }
            }
        }
    }
}

//! Work on short byte strings (a line, a UUID's text, a message) in shapes the compiler turns
//! into a few 16-byte vector operations, without a loop or a call: the commands check each
//! rejected line this way (is it a whole line? can it be shown as it is?) and copy it and its
//! message into its report.

/// Where the middle one of three overlapping 16-byte blocks starts in a string of `len` bytes,
/// 16 to 48: at most at 16 and ending at least at `len - 16`, so that the first, the middle and
/// the last 16 bytes leave no gap.
#[inline(always)]
const fn middle(len: usize) -> usize {
    len / 2 - 8
}

/// Whether any byte of `s` satisfies `hit`.
///
/// Up to 48 bytes (every UUID form), three overlapping blocks, the first, the middle and the
/// last 16 bytes, cover `s`; longer strings take whole blocks and then the last 16 bytes;
/// shorter ones are tested byte by byte.
#[inline(always)]
pub fn any_byte(s: &[u8], hit: impl Fn(u8) -> bool + Copy) -> bool {
    let (Some(first), Some(last)) = (s.first_chunk::<16>(), s.last_chunk::<16>()) else {
        return s.iter().any(|&b| hit(b));
    };
    if s.len() <= 48 {
        // One fold over the three blocks side by side (not three folds) is what becomes three
        // compares and one test.
        let middle = s.get(middle(s.len())..).and_then(|m| m.first_chunk::<16>());
        let mut w = [[0u8; 16]; 3];
        w[0] = *first;
        w[1] = *middle.unwrap_or(first);
        w[2] = *last;
        return w.as_flattened().iter().fold(false, |a, &b| a | hit(b));
    }
    let block = |w: &[u8; 16]| w.iter().fold(false, |a, &b| a | hit(b));
    let mut found = block(last);
    let mut rest = s;
    while let Some((w, r)) = rest.split_first_chunk::<16>() {
        found |= block(w);
        rest = r;
    }
    found
}

/// Copies `src` to the start of `dst` (nothing if `dst` is shorter). From 16 to 48 bytes as
/// three overlapping 16-byte blocks, as [`any_byte`] reads them, and from 49 to 96 as six (the
/// first 48 bytes and the last 48); otherwise as `copy_from_slice`.
#[inline(always)]
pub fn copy_short(dst: &mut [u8], src: &[u8]) {
    let len = src.len();
    let Some(dst) = dst.get_mut(..len) else {
        return;
    };
    let mut put = |at: usize| {
        let block = src.get(at..).and_then(|b| b.first_chunk::<16>());
        let room = dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<16>());
        if let (Some(b), Some(d)) = (block, room) {
            *d = *b;
        }
    };
    match len {
        16..=48 => {
            put(0);
            put(middle(len));
            put(len - 16);
        }
        49..=96 => {
            for at in [0, 16, 32, len - 48, len - 32, len - 16] {
                put(at);
            }
        }
        _ => dst.copy_from_slice(src),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_short_copies_every_length() {
        let src: Vec<u8> = (0..100u8).map(|b| b.wrapping_mul(37)).collect();
        for len in 0..100 {
            for extra in [0, 1, 20] {
                let mut dst = vec![0xee; len + extra];
                copy_short(&mut dst, &src[..len]);
                assert_eq!(&dst[..len], &src[..len]);
                assert!(
                    dst[len..].iter().all(|&b| b == 0xee),
                    "len {len}: wrote past it"
                );
            }
            // Too short a destination: left as it was.
            if len > 0 {
                let mut dst = vec![0xee; len - 1];
                copy_short(&mut dst, &src[..len]);
                assert!(dst.iter().all(|&b| b == 0xee));
            }
        }
    }

    #[test]
    fn any_byte_agrees_with_iter_any() {
        for len in 0..100 {
            let mut s = vec![b'a'; len];
            assert!(!any_byte(&s, |b| b == b'\n'));
            for i in 0..len {
                for b in [b'\n', 0x0b, 0x09, 0x8a] {
                    s[i] = b;
                    assert_eq!(any_byte(&s, |b| b == b'\n'), s.contains(&b'\n'), "{s:?}");
                    s[(i * 7 + 3) % len] = b'\n';
                    assert_eq!(any_byte(&s, |b| b == b'\n'), s.contains(&b'\n'), "{s:?}");
                    s.fill(b'a');
                }
            }
        }
    }
}

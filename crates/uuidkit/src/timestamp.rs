//! A point in time as UUIDs carry it: Gregorian 100-ns ticks (v1, v2, v6) or Unix milliseconds
//! (v7), kept as signed seconds and nanoseconds from the Unix epoch so that times before 1970
//! (any v1/v6 timestamp back to 1582-10-15) are represented exactly.

use core::fmt;

/// 100-ns ticks from 1582-10-15T00:00:00Z (the Gregorian reform) to 1970-01-01T00:00:00Z.
///
/// ```
/// // 141,427 days from 1582-10-15 to 1970-01-01, in 100-ns ticks.
/// assert_eq!(uuidkit::GREGORIAN_OFFSET_TICKS, 141_427 * 86_400 * 10_000_000);
/// ```
pub const GREGORIAN_OFFSET_TICKS: u64 = 0x01B2_1DD2_1381_4000;

const NANOS_PER_SEC: i128 = 1_000_000_000;

/// A time with nanosecond resolution, from about 292 billion years BC to AD, relative to the
/// Unix epoch. Every v1, v2, v6 and v7 timestamp converts to one exactly.
///
/// ```
/// use uuidkit::Timestamp;
/// let t = Timestamp::from_gregorian_ticks(0);
/// assert_eq!(t.to_rfc3339(7).to_string(), "1582-10-15T00:00:00.0000000Z");
/// assert_eq!(t.unix_nanos(), -12_219_292_800_000_000_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
}

/// The error for a timestamp that cannot be read or is out of a layout's range.
///
/// ```
/// let e = uuidkit::Timestamp::parse_rfc3339("2022-02-22T19:22:22").unwrap_err();
/// assert_eq!(e.to_string(), "expected 'Z' or an offset at byte 19");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeError {
    msg: &'static str,
    pos: usize,
}

impl TimeError {
    /// The 0-based byte position of the problem in the input (0 when not about text).
    ///
    /// ```
    /// // 2021 is not a leap year: the day (byte 8) is out of range.
    /// let e = uuidkit::Timestamp::parse_rfc3339("2021-02-29T00:00:00Z").unwrap_err();
    /// assert_eq!(e.position(), 8);
    /// ```
    pub const fn position(&self) -> usize {
        self.pos
    }
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.msg, self.pos)
    }
}

// `core::error::Error` (Rust 1.81) is what `std::error::Error` re-exports, so no_std users get
// the trait too.
impl core::error::Error for TimeError {}

impl Timestamp {
    /// The Unix epoch, 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// use uuidkit::Timestamp;
    /// assert_eq!(Timestamp::UNIX_EPOCH.unix_nanos(), 0);
    /// assert_eq!(Timestamp::UNIX_EPOCH.to_rfc3339(0).to_string(), "1970-01-01T00:00:00Z");
    /// ```
    pub const UNIX_EPOCH: Timestamp = Timestamp { secs: 0, nanos: 0 };

    /// A timestamp from Unix seconds and nanoseconds; `None` if `nanos` ≥ 10^9.
    ///
    /// ```
    /// let t = uuidkit::Timestamp::from_unix(1_645_557_742, 5).unwrap();
    /// assert_eq!((t.unix_seconds(), t.subsec_nanos()), (1_645_557_742, 5));
    /// assert_eq!(t.unix_nanos(), 1_645_557_742_000_000_005);
    /// ```
    pub const fn from_unix(secs: i64, nanos: u32) -> Option<Timestamp> {
        if nanos >= 1_000_000_000 {
            None
        } else {
            Some(Timestamp { secs, nanos })
        }
    }

    /// A timestamp from nanoseconds since the Unix epoch (negative before it); `None` when out
    /// of range of `i64` seconds.
    ///
    /// ```
    /// let t = uuidkit::Timestamp::from_unix_nanos(-1).unwrap();
    /// assert_eq!((t.unix_seconds(), t.subsec_nanos()), (-1, 999_999_999));
    /// ```
    pub const fn from_unix_nanos(nanos: i128) -> Option<Timestamp> {
        let secs = nanos.div_euclid(NANOS_PER_SEC);
        if secs < i64::MIN as i128 || secs > i64::MAX as i128 {
            return None;
        }
        Some(Timestamp {
            secs: secs as i64,
            nanos: nanos.rem_euclid(NANOS_PER_SEC) as u32,
        })
    }

    /// Nanoseconds since the Unix epoch (negative before it).
    ///
    /// ```
    /// use uuidkit::{Timestamp, GREGORIAN_OFFSET_TICKS};
    /// assert_eq!(Timestamp::from_unix_millis(1_645_557_742_000).unix_nanos(), 1_645_557_742_000_000_000);
    /// // Gregorian tick 0 lies GREGORIAN_OFFSET_TICKS × 100 ns before the epoch.
    /// assert_eq!(Timestamp::from_gregorian_ticks(0).unix_nanos(), -(GREGORIAN_OFFSET_TICKS as i128) * 100);
    /// ```
    pub const fn unix_nanos(&self) -> i128 {
        self.secs as i128 * NANOS_PER_SEC + self.nanos as i128
    }

    /// Whole seconds since the Unix epoch, rounded towards negative infinity.
    ///
    /// ```
    /// use uuidkit::Timestamp;
    /// assert_eq!(Timestamp::from_unix_millis(1_645_557_742_999).unix_seconds(), 1_645_557_742);
    /// // Half a second before the epoch rounds down to -1.
    /// assert_eq!(Timestamp::from_unix_nanos(-500_000_000).map(|t| t.unix_seconds()), Some(-1));
    /// ```
    pub const fn unix_seconds(&self) -> i64 {
        self.secs
    }

    /// The nanoseconds within the second, 0 to 999,999,999.
    ///
    /// ```
    /// use uuidkit::Timestamp;
    /// assert_eq!(Timestamp::from_unix_millis(1_645_557_742_123).subsec_nanos(), 123_000_000);
    /// // One 100-ns tick after 1582-10-15T00:00:00Z, a whole number of seconds before 1970.
    /// assert_eq!(Timestamp::from_gregorian_ticks(1).subsec_nanos(), 100);
    /// ```
    pub const fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// A timestamp from 100-ns ticks since 1582-10-15 (the v1/v6 timestamp).
    ///
    /// ```
    /// use uuidkit::{Timestamp, GREGORIAN_OFFSET_TICKS};
    /// // Tick 0 is 1582-10-15; the Unix epoch is GREGORIAN_OFFSET_TICKS later.
    /// assert_eq!(Timestamp::from_gregorian_ticks(GREGORIAN_OFFSET_TICKS), Timestamp::UNIX_EPOCH);
    /// assert_eq!(Timestamp::from_gregorian_ticks(0).to_rfc3339(0).to_string(), "1582-10-15T00:00:00Z");
    /// assert_eq!(Timestamp::UNIX_EPOCH.gregorian_ticks(), Some(GREGORIAN_OFFSET_TICKS));
    /// ```
    pub const fn from_gregorian_ticks(ticks: u64) -> Timestamp {
        let since_unix = ticks as i128 - GREGORIAN_OFFSET_TICKS as i128;
        let secs = since_unix.div_euclid(10_000_000);
        let rem = since_unix.rem_euclid(10_000_000);
        Timestamp {
            secs: secs as i64,
            nanos: (rem * 100) as u32,
        }
    }

    /// 100-ns ticks since 1582-10-15, truncating sub-tick nanoseconds; `None` if the time is
    /// before 1582-10-15 or does not fit in 60 bits (after 5236-03-31: 2^60 ticks of 100 ns are
    /// about 3653 years; RFC 9562 §6.1's "5623 AD" does not match that arithmetic).
    ///
    /// ```
    /// let t = uuidkit::Timestamp::from_unix_millis(1645557742000);
    /// assert_eq!(t.gregorian_ticks(), Some(0x1EC9414C232AB00));
    /// ```
    pub const fn gregorian_ticks(&self) -> Option<u64> {
        let ticks = self.unix_nanos().div_euclid(100) + GREGORIAN_OFFSET_TICKS as i128;
        if ticks < 0 || ticks >= 1 << 60 {
            None
        } else {
            Some(ticks as u64)
        }
    }

    /// A timestamp from milliseconds since the Unix epoch (the v7 `unix_ts_ms`).
    ///
    /// ```
    /// let t = uuidkit::Timestamp::from_unix_millis(1_645_557_742_000);
    /// assert_eq!(t.unix_millis(), Some(1_645_557_742_000));
    /// assert_eq!(t.to_rfc3339(3).to_string(), "2022-02-22T19:22:22.000Z");
    /// ```
    pub const fn from_unix_millis(ms: u64) -> Timestamp {
        Timestamp {
            secs: (ms / 1000) as i64,
            nanos: ((ms % 1000) * 1_000_000) as u32,
        }
    }

    /// Milliseconds since the Unix epoch, truncated; `None` before 1970 or beyond 48 bits
    /// (after 10889-08-02).
    ///
    /// ```
    /// use uuidkit::Timestamp;
    /// // Source: RFC 9562 Appendix A.6 (v7) and A.1 (v1): the same instant.
    /// assert_eq!(Timestamp::from_gregorian_ticks(0x1EC9414C232AB00).unix_millis(), Some(1_645_557_742_000));
    /// assert_eq!(Timestamp::from_gregorian_ticks(0).unix_millis(), None); // before 1970
    /// ```
    pub const fn unix_millis(&self) -> Option<u64> {
        if self.secs < 0 {
            return None;
        }
        let ms = self.secs as i128 * 1000 + (self.nanos / 1_000_000) as i128;
        if ms >= 1 << 48 {
            None
        } else {
            Some(ms as u64)
        }
    }

    /// This timestamp moved by a signed number of nanoseconds; `None` on overflow.
    ///
    /// ```
    /// let t = uuidkit::Timestamp::UNIX_EPOCH.checked_add_nanos(-1).unwrap();
    /// assert_eq!((t.unix_seconds(), t.subsec_nanos()), (-1, 999_999_999));
    /// ```
    pub const fn checked_add_nanos(&self, delta: i128) -> Option<Timestamp> {
        match self.unix_nanos().checked_add(delta) {
            Some(n) => Timestamp::from_unix_nanos(n),
            None => None,
        }
    }

    /// A display adapter writing RFC 3339 in UTC with `digits` fraction digits (0–9).
    ///
    /// ```
    /// let t = uuidkit::Timestamp::from_unix_millis(1645557742000);
    /// assert_eq!(t.to_rfc3339(3).to_string(), "2022-02-22T19:22:22.000Z");
    /// ```
    pub const fn to_rfc3339(&self, digits: u8) -> Rfc3339 {
        Rfc3339 {
            ts: *self,
            digits: if digits > 9 { 9 } else { digits },
        }
    }

    /// Reads an RFC 3339 date-time (`2024-01-02T03:04:05.678Z`, `…+02:00`, `t` or a space as
    /// separator, up to 9 fraction digits). A year after 9999 is read with as many digits as
    /// it needs (up to nine, no leading zero), as [`Timestamp::to_rfc3339`] writes it.
    ///
    /// ```
    /// let t = uuidkit::Timestamp::parse_rfc3339("1970-01-01T01:00:00.5+01:00").unwrap();
    /// assert_eq!(t.unix_nanos(), 500_000_000);
    /// // The last millisecond of v7's 48-bit field.
    /// let end = uuidkit::Timestamp::parse_rfc3339("10889-08-02T05:31:50.655Z").unwrap();
    /// assert_eq!(end.unix_millis(), Some((1 << 48) - 1));
    /// assert!(uuidkit::Timestamp::parse_rfc3339("1970-13-01T00:00:00Z").is_err());
    /// ```
    pub fn parse_rfc3339(s: &str) -> Result<Timestamp, TimeError> {
        let b = s.as_bytes();
        let err = |msg, pos| TimeError { msg, pos };
        let num = |from: usize, len: usize| -> Result<i64, TimeError> {
            let mut v = 0i64;
            for i in from..from + len {
                match b.get(i) {
                    Some(c @ b'0'..=b'9') => v = v * 10 + (c - b'0') as i64,
                    _ => return Err(err("expected a digit", i)),
                }
            }
            Ok(v)
        };
        let expect = |i: usize, c: u8, msg| -> Result<(), TimeError> {
            if b.get(i) == Some(&c) {
                Ok(())
            } else {
                Err(err(msg, i))
            }
        };
        // Four digits, as RFC 3339 has them; a later year (v7 timestamps reach 10889) with as
        // many digits as it needs, up to nine, as `to_rfc3339` writes it.
        let year_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if year_len > 9 {
            return Err(err("year out of range", 0));
        }
        if year_len > 4 && b.first() == Some(&b'0') {
            return Err(err("leading zero in a year of more than four digits", 0));
        }
        let year = num(0, year_len.max(4))?;
        // Every position after the year moves with its length.
        let o = year_len.max(4) - 4;
        expect(o + 4, b'-', "expected '-'")?;
        let month = num(o + 5, 2)?;
        expect(o + 7, b'-', "expected '-'")?;
        let day = num(o + 8, 2)?;
        match b.get(o + 10) {
            Some(b'T' | b't' | b' ') => {}
            _ => return Err(err("expected 'T'", o + 10)),
        }
        let hour = num(o + 11, 2)?;
        expect(o + 13, b':', "expected ':'")?;
        let minute = num(o + 14, 2)?;
        expect(o + 16, b':', "expected ':'")?;
        let second = num(o + 17, 2)?;
        if !(1..=12).contains(&month) {
            return Err(err("month out of range", o + 5));
        }
        if day < 1 || day > days_in_month(year, month as u32) as i64 {
            return Err(err("day out of range", o + 8));
        }
        if hour > 23 {
            return Err(err("hour out of range", o + 11));
        }
        if minute > 59 {
            return Err(err("minute out of range", o + 14));
        }
        if second > 60 {
            return Err(err("second out of range", o + 17));
        }
        let mut i = o + 19;
        let mut nanos = 0u32;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            let mut scale = 100_000_000u32;
            while let Some(c @ b'0'..=b'9') = b.get(i) {
                if i - start >= 9 {
                    return Err(err("more than 9 fraction digits", i));
                }
                nanos += (c - b'0') as u32 * scale;
                scale /= 10;
                i += 1;
            }
            if i == start {
                return Err(err("expected a fraction digit", i));
            }
        }
        let offset_secs = match b.get(i) {
            Some(b'Z' | b'z') => {
                i += 1;
                0
            }
            Some(&sign @ (b'+' | b'-')) => {
                let h = num(i + 1, 2)?;
                expect(i + 3, b':', "expected ':'")?;
                let m = num(i + 4, 2)?;
                if h > 23 || m > 59 {
                    return Err(err("offset out of range", i));
                }
                i += 6;
                let o = h * 3600 + m * 60;
                if sign == b'-' {
                    -o
                } else {
                    o
                }
            }
            _ => return Err(err("expected 'Z' or an offset", i)),
        };
        if i != b.len() {
            return Err(err("unexpected trailing text", i));
        }
        // A leap second (:60) is read as second 0 of the next minute: UUID timestamps count
        // Unix-style seconds, which have no room for it either.
        let days = days_from_civil(year, month as u32, day as u32);
        let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_secs;
        Ok(Timestamp { secs, nanos })
    }
}

/// Display adapter returned by [`Timestamp::to_rfc3339`].
///
/// ```
/// // Source: RFC 9562 Appendix A.1: 2022-02-22 2:22:22 PM at UTC-05:00.
/// let t = uuidkit::Timestamp::from_gregorian_ticks(0x1EC9414C232AB00);
/// assert_eq!(t.to_rfc3339(7).to_string(), "2022-02-22T19:22:22.0000000Z");
/// assert_eq!(format!("[{}]", t.to_rfc3339(0)), "[2022-02-22T19:22:22Z]");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Rfc3339 {
    ts: Timestamp,
    digits: u8,
}

impl Rfc3339 {
    /// The longest text [`Rfc3339::encode_bytes`] writes: 39 bytes, for the years furthest
    /// from the epoch that a [`Timestamp`] reaches (a sign and 12 digits), with 9 fraction
    /// digits.
    ///
    /// ```
    /// use uuidkit::{Rfc3339, Timestamp};
    /// let earliest = Timestamp::from_unix(i64::MIN, 0).unwrap();
    /// assert_eq!(earliest.to_rfc3339(9).to_string().len(), Rfc3339::MAX_LEN);
    /// ```
    pub const MAX_LEN: usize = 39;

    /// Writes the text at the start of `out` and returns its length: the same bytes as the
    /// `Display` implementation (which uses it), without the formatting machinery, for
    /// callers that assemble output in a byte buffer. Bytes of `out` past the returned length
    /// may be overwritten too.
    ///
    /// Years 0 to 9999 have four digits as RFC 3339 §5.6 requires; a year outside them (v7
    /// timestamps reach 10889) is written with as many digits as it needs, after a `-` when
    /// negative (at least four characters in all).
    ///
    /// ```
    /// use uuidkit::{Rfc3339, Timestamp};
    /// // Source: RFC 9562 Appendix A.6: unix_ts_ms 0x017F22E279B0 is 2022-02-22 19:22:22 UTC.
    /// let t = Timestamp::from_unix_millis(0x017F_22E2_79B0);
    /// let mut buf = [0u8; Rfc3339::MAX_LEN];
    /// let n = t.to_rfc3339(3).encode_bytes(&mut buf);
    /// assert_eq!(&buf[..n], b"2022-02-22T19:22:22.000Z");
    /// let n = t.to_rfc3339(0).encode_bytes(&mut buf);
    /// assert_eq!(&buf[..n], b"2022-02-22T19:22:22Z");
    /// ```
    pub fn encode_bytes(&self, out: &mut [u8; Rfc3339::MAX_LEN]) -> usize {
        let days = self.ts.secs.div_euclid(86_400);
        let sod = self.ts.secs.rem_euclid(86_400) as u32;
        let (y, m, d) = civil_from_days(days);
        let at = encode_year(y, out);
        // The rest has a fixed layout; the fraction truncated to `digits` digits is the start
        // of all nine.
        let mut b = *b"-00-00T00:00:00.000000000Z";
        let two = |b: &mut [u8; 26], at: usize, v: u32| {
            b[at] = b'0' + (v / 10 % 10) as u8;
            b[at + 1] = b'0' + (v % 10) as u8;
        };
        two(&mut b, 1, m);
        two(&mut b, 4, d);
        two(&mut b, 7, sod / 3600);
        two(&mut b, 10, (sod / 60) % 60);
        two(&mut b, 13, sod % 60);
        let nanos = self.ts.nanos % 1_000_000_000;
        b[16] = b'0' + (nanos / 100_000_000) as u8;
        b[17..25].copy_from_slice(&crate::digits::eight((nanos % 100_000_000).into()));
        let digits = usize::from(self.digits.min(9));
        let len = if digits > 0 { 16 + digits } else { 15 };
        b[len] = b'Z';
        // All of the rest is copied (a copy of fixed length is a few moves, one of variable
        // length a call); it always fits, as the year takes at most 13 bytes (see `MAX_LEN`).
        match out.get_mut(at..).and_then(|r| r.first_chunk_mut::<26>()) {
            Some(dst) => {
                *dst = b;
                at + len + 1
            }
            None => at,
        }
    }
}

/// Writes the year `y` at the start of `out` as `{y:04}` would (zero padded to four
/// characters, a `-` first when negative) and returns its length, at most 13.
#[inline(always)]
fn encode_year(y: i64, out: &mut [u8; Rfc3339::MAX_LEN]) -> usize {
    if let Ok(y4 @ 0..=9999) = u32::try_from(y) {
        // The common case.
        out[0] = b'0' + (y4 / 1000) as u8;
        out[1] = b'0' + (y4 / 100 % 10) as u8;
        out[2] = b'0' + (y4 / 10 % 10) as u8;
        out[3] = b'0' + (y4 % 10) as u8;
        return 4;
    }
    let sign = usize::from(y < 0);
    let mut v = y.unsigned_abs();
    // A year of an i64 count of seconds has at most 12 digits; 20 hold any u64.
    let mut digits = [b'0'; 20];
    let mut n = 0;
    while v > 0 || n < 4 - sign {
        if let Some(slot) = digits.get_mut(n) {
            *slot = b'0' + (v % 10) as u8;
        }
        v /= 10;
        n += 1;
    }
    if sign == 1 {
        out[0] = b'-';
    }
    for (dst, src) in out
        .iter_mut()
        .skip(sign)
        .zip(digits[..n.min(20)].iter().rev())
    {
        *dst = *src;
    }
    (sign + n).min(Rfc3339::MAX_LEN)
}

impl fmt::Display for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; Rfc3339::MAX_LEN];
        let n = self.encode_bytes(&mut buf);
        // SAFETY: `encode_bytes` writes only ASCII (digits, `-`, `T`, `:`, `.`, `Z`) into the
        // first `n` bytes, so they are UTF-8.
        let text = unsafe { core::str::from_utf8_unchecked(&buf[..n]) };
        f.write_str(text)
    }
}

/// RFC 3339 in UTC with the fewest of 0, 3, 6 or 9 fraction digits that show the time exactly
/// (use [`Timestamp::to_rfc3339`] to choose the digits).
///
/// ```
/// use uuidkit::Timestamp;
/// assert_eq!(Timestamp::from_unix_millis(1645557742000).to_string(), "2022-02-22T19:22:22Z");
/// assert_eq!(Timestamp::from_unix_millis(1645557742123).to_string(), "2022-02-22T19:22:22.123Z");
/// // A v1/v6 timestamp counts 100-ns ticks.
/// assert_eq!(Timestamp::from_gregorian_ticks(1).to_string(), "1582-10-15T00:00:00.000000100Z");
/// ```
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.subsec_nanos();
        let digits = if n == 0 {
            0
        } else if n % 1_000_000 == 0 {
            3
        } else if n % 1_000 == 0 {
            6
        } else {
            9
        };
        fmt::Display::fmt(&self.to_rfc3339(digits), f)
    }
}

#[cfg(feature = "std")]
impl Timestamp {
    /// The timestamp of a `SystemTime`; `None` if out of range.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use uuidkit::Timestamp;
    /// let t = Timestamp::from_system_time(UNIX_EPOCH + Duration::from_millis(1_645_557_742_000));
    /// assert_eq!(t, Some(Timestamp::from_unix_millis(1_645_557_742_000)));
    /// let before = Timestamp::from_system_time(UNIX_EPOCH - Duration::from_secs(1));
    /// assert_eq!(before, Timestamp::from_unix(-1, 0));
    /// ```
    pub fn from_system_time(t: std::time::SystemTime) -> Option<Timestamp> {
        match t.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => Timestamp::from_unix_nanos(d.as_nanos() as i128),
            Err(e) => Timestamp::from_unix_nanos(-(e.duration().as_nanos() as i128)),
        }
    }

    /// The `SystemTime` of this timestamp; `None` if the platform cannot represent it.
    ///
    /// ```
    /// let t = uuidkit::Timestamp::from_unix_millis(1_000);
    /// assert_eq!(t.to_system_time(), Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1)));
    /// assert_eq!(uuidkit::Timestamp::from_system_time(std::time::UNIX_EPOCH), Some(uuidkit::Timestamp::UNIX_EPOCH));
    /// ```
    pub fn to_system_time(&self) -> Option<std::time::SystemTime> {
        use std::time::{Duration, UNIX_EPOCH};
        if self.secs >= 0 {
            UNIX_EPOCH.checked_add(Duration::new(self.secs as u64, self.nanos))
        } else {
            let back = Duration::from_nanos(0)
                .checked_add(Duration::new(self.secs.unsigned_abs(), 0))?
                .checked_sub(Duration::from_nanos(self.nanos as u64))?;
            UNIX_EPOCH.checked_sub(back)
        }
    }

    /// The current time of the system clock (the platform's wall clock, as
    /// [`SystemClock`](crate::generator::SystemClock) reads it; the Unix epoch if it cannot be read).
    ///
    /// ```
    /// use uuidkit::Timestamp;
    /// // Later than the instant of the RFC 9562 examples, and within v7's 48-bit range.
    /// let t = Timestamp::now();
    /// assert!(t > Timestamp::from_unix_millis(1_645_557_742_000));
    /// assert!(t.unix_millis().is_some());
    /// ```
    pub fn now() -> Timestamp {
        crate::sys::wall_clock()
            .and_then(|(secs, nanos)| Timestamp::from_unix(secs, nanos))
            .unwrap_or(Timestamp::UNIX_EPOCH)
    }
}

#[cfg(feature = "std")]
impl TryFrom<std::time::SystemTime> for Timestamp {
    type Error = TimeError;
    fn try_from(t: std::time::SystemTime) -> Result<Self, TimeError> {
        Timestamp::from_system_time(t).ok_or(TimeError {
            msg: "time out of range",
            pos: 0,
        })
    }
}

const fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

const fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if is_leap(y) {
                29
            } else {
                28
            }
        }
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub(crate) const fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day number since 1970-01-01.
pub(crate) const fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    // The crate is no_std without its `std` feature; the tests still want `to_string`.
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn civil_round_trip_over_ten_thousand_years() {
        let mut z = days_from_civil(1582, 10, 15);
        let end = days_from_civil(11000, 1, 1);
        let (mut y, mut m, mut d) = (1582i64, 10u32, 15u32);
        while z < end {
            assert_eq!(civil_from_days(z), (y, m, d));
            assert_eq!(days_from_civil(y, m, d), z);
            z += 1;
            d += 1;
            if d > days_in_month(y, m) {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
    }

    /// `encode_bytes` (and so `Display`) against the fields written with `format!`, the year
    /// as `{:04}`: across the year boundaries where the width changes, the ends of the range
    /// and a pseudo-random spread, with every fraction width.
    #[test]
    fn encode_bytes_writes_what_format_writes() {
        fn reference(t: Timestamp, digits: u8) -> std::string::String {
            let (secs, nanos) = (t.unix_seconds(), t.subsec_nanos());
            let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
            let sod = secs.rem_euclid(86_400);
            let mut s = std::format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
                sod / 3600,
                sod / 60 % 60,
                sod % 60
            );
            if digits > 0 {
                let frac = nanos / 10u32.pow(9 - u32::from(digits));
                s += &std::format!(".{frac:0width$}", width = usize::from(digits));
            }
            s + "Z"
        }
        let mut secs = std::vec![i64::MIN, i64::MAX, 0, -1, 86_399, 86_400];
        for y in [
            -292_277_022_656,
            -10_000,
            -1000,
            -999,
            -100,
            -10,
            -1,
            0,
            1,
            999,
            1000,
            9999,
            10_000,
            10_889,
            99_999,
            100_000,
            292_277_026_596,
        ] {
            let day = days_from_civil(y, 1, 1);
            secs.extend([day * 86_400, day * 86_400 - 1]);
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..4_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Both the whole i64 range and the years near ours.
            secs.push(x as i64);
            secs.push((x % (1 << 38)) as i64 - (1 << 37));
        }
        let mut buf = [0u8; Rfc3339::MAX_LEN];
        for (i, &s) in secs.iter().enumerate() {
            for nanos in [
                0,
                999_999_999,
                (i as u32).wrapping_mul(2_654_435_761) % 1_000_000_000,
            ] {
                let t = Timestamp::from_unix(s, nanos).unwrap();
                for digits in 0..=9 {
                    let want = reference(t, digits);
                    let n = t.to_rfc3339(digits).encode_bytes(&mut buf);
                    assert_eq!(&buf[..n], want.as_bytes(), "{t:?} with {digits} digits");
                    assert_eq!(t.to_rfc3339(digits).to_string(), want);
                }
            }
        }
        // The longest text is MAX_LEN long.
        let earliest = Timestamp::from_unix(i64::MIN, 999_999_999).unwrap();
        assert_eq!(
            earliest.to_rfc3339(9).encode_bytes(&mut buf),
            Rfc3339::MAX_LEN
        );
    }

    #[test]
    fn gregorian_range_limits() {
        let max = Timestamp::from_gregorian_ticks((1 << 60) - 1);
        assert_eq!(
            max.to_rfc3339(7).to_string(),
            "5236-03-31T21:21:00.6846975Z"
        );
        assert_eq!(max.gregorian_ticks(), Some((1 << 60) - 1));
        assert_eq!(max.checked_add_nanos(100).unwrap().gregorian_ticks(), None);
        let v7max = Timestamp::from_unix_millis((1 << 48) - 1);
        assert_eq!(v7max.to_rfc3339(3).to_string(), "10889-08-02T05:31:50.655Z");
        assert_eq!(
            v7max.checked_add_nanos(1_000_000).unwrap().unix_millis(),
            None
        );
    }

    #[test]
    fn rfc3339_round_trip_and_errors() {
        for s in [
            "1582-10-15T00:00:00.0000000Z",
            "1969-12-31T23:59:59.9999999Z",
            "2000-02-29T12:00:00.1234567Z",
        ] {
            let t = Timestamp::parse_rfc3339(s).unwrap();
            assert_eq!(t.to_rfc3339(7).to_string(), s);
        }
        for (bad, pos) in [
            ("2001-02-29T00:00:00Z", 8),
            ("2001-02-28T24:00:00Z", 11),
            ("2001-02-28T00:00:00", 19),
            ("2001-02-28T00:00:00Zx", 20),
            ("2001-02-28T00:00:00.Z", 20),
            ("", 0),
        ] {
            assert_eq!(
                Timestamp::parse_rfc3339(bad).unwrap_err().position(),
                pos,
                "{bad}"
            );
        }
    }
}

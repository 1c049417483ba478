//! A deliberately naive, independent reading of the text grammars uuidkit parses, written from
//! the specifications and not from the library's code: RFC 9562 §4 (the ABNF of the hyphenated
//! form, and the simple, braced and URN forms it mentions), ITU-T X.667 §6.3 (the decimal
//! integer and `2.25.` OID, RFC 3061 `urn:oid:`), and the Microsoft GUID byte order.
//!
//! Every parser here works on a template, byte by byte, and builds the value with `u128`
//! arithmetic; nothing is fast and nothing is shared with the library. The fuzz targets and
//! the test modules `fuzz_props`, `roundtrip` and `forms` in `crates/uuidkit/tests/uuidkit`
//! compare the library against it (it uses only `std`).

/// The value of one hex digit (RFC 5234 HEXDIG, which is case-insensitive as RFC 9562 §4
/// says for input).
pub fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Matches `s` against `template`, where `x` stands for one hex digit and every other byte
/// for itself; returns the digits' value.
fn by_template(s: &[u8], template: &str) -> Option<u128> {
    if s.len() != template.len() {
        return None;
    }
    let mut v: u128 = 0;
    for (&c, t) in s.iter().zip(template.bytes()) {
        if t == b'x' {
            v = (v << 4) | u128::from(hex_digit(c)?);
        } else if c != t {
            return None;
        }
    }
    Some(v)
}

const HYPHENATED: &str = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
const SIMPLE: &str = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
const BRACED: &str = "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}";

/// `8HEX "-" 4HEX "-" 4HEX "-" 4HEX "-" 12HEX` (RFC 9562 §4, the `UUID` rule).
pub fn hyphenated(s: &[u8]) -> Option<u128> {
    by_template(s, HYPHENATED)
}

/// 32 hex digits.
pub fn simple(s: &[u8]) -> Option<u128> {
    by_template(s, SIMPLE)
}

/// `{` hyphenated `}`.
pub fn braced(s: &[u8]) -> Option<u128> {
    by_template(s, BRACED)
}

/// `urn:uuid:` (the namespace identifier case-insensitive, RFC 8141) and the hyphenated form.
pub fn urn(s: &[u8]) -> Option<u128> {
    if s.len() < 9 || !s[..9].eq_ignore_ascii_case(b"urn:uuid:") {
        return None;
    }
    hyphenated(&s[9..])
}

/// Any of the four forms.
pub fn any_form(s: &[u8]) -> Option<u128> {
    hyphenated(s)
        .or_else(|| simple(s))
        .or_else(|| braced(s))
        .or_else(|| urn(s))
}

/// An unsigned decimal integer below 2^128 without sign, spaces or leading zeros.
pub fn decimal(s: &[u8]) -> Option<u128> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) || (s.len() > 1 && s[0] == b'0') {
        return None;
    }
    // Digits only, so the standard parser sees no sign: it checks the range.
    std::str::from_utf8(s).ok()?.parse::<u128>().ok()
}

/// `2.25.<decimal>` or `urn:oid:2.25.<decimal>` (`urn:oid:` in any case).
pub fn oid(s: &[u8]) -> Option<u128> {
    let rest = if s.len() >= 8 && s[..8].eq_ignore_ascii_case(b"urn:oid:") {
        &s[8..]
    } else {
        s
    };
    decimal(rest.strip_prefix(b"2.25.")?)
}

/// Reverses the first three fields (4, 2 and 2 bytes) of a 16-byte value.
pub fn swap_guid(v: u128) -> u128 {
    let b = v.to_be_bytes();
    let mut o = b;
    for (i, j) in [(0, 3), (1, 2), (4, 5), (6, 7)] {
        o[i] = b[j];
        o[j] = b[i];
    }
    u128::from_be_bytes(o)
}

/// 32 hex digits of the GUID's in-memory bytes (first three fields little-endian).
pub fn guid_hex(s: &[u8]) -> Option<u128> {
    simple(s).map(swap_guid)
}

/// Writes `v` in one of the four forms, digit by digit from the template.
pub fn format(v: u128, form: usize, upper: bool) -> String {
    let digits = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let template = match form % 4 {
        0 => HYPHENATED,
        1 => SIMPLE,
        2 => BRACED,
        _ => "urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    };
    let mut shift = 128;
    let mut out = String::with_capacity(template.len());
    for t in template.chars() {
        if t == 'x' {
            shift -= 4;
            out.push(char::from(digits[((v >> shift) & 0xf) as usize]));
        } else {
            out.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_reads_the_rfc_example() {
        // Source: RFC 9562 §4, Figures 1 and 3
        let v = 0xf81d4fae_7dec_11d0_a765_00a0c91e6bf6u128;
        assert_eq!(hyphenated(b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"), Some(v));
        assert_eq!(decimal(b"329800735698586629295641978511506172918"), Some(v));
        assert_eq!(
            format(v, 3, true),
            "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"
        );
        assert_eq!(any_form(format(v, 3, true).as_bytes()), Some(v));
        // The reference must accept every form RFC 9562 §4 describes and reject the obvious,
        // or agreeing with it would prove nothing.
        for ok in [
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
            "f81d4fae7dec11d0a76500a0c91e6bf6",
            "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
            "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "URN:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        ] {
            assert_eq!(any_form(ok.as_bytes()), Some(v), "{ok}");
        }
        for bad in [
            "",
            "+81d4fae7dec11d0a76500a0c91e6bf6",
            "{f81d4fae7dec11d0a76500a0c91e6bf6}",
            "urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6 ",
            "f81d4fae-7dec-11d0-a76500a0-c91e6bf6",
            "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "{{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}}",
        ] {
            assert_eq!(any_form(bad.as_bytes()), None, "{bad:?}");
        }
        assert_eq!(decimal(b"0"), Some(0));
        assert_eq!(decimal(b"00"), None);
        assert_eq!(decimal(b"+1"), None);
        assert_eq!(decimal(b"340282366920938463463374607431768211456"), None);
        assert_eq!(swap_guid(swap_guid(v)), v);
    }
}

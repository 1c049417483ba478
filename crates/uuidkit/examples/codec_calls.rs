//! One text operation of uuidkit, `uuid` or `uuid-simd`, called N times in a loop: the program
//! `scripts/bench-callgrind` runs under `valgrind --tool=callgrind` to count instructions per
//! call (it runs each operation twice with different N and divides the difference).
//!
//! Usage: `codec_calls OPERATION N`; `codec_calls list` prints the operations.

use std::fmt::Write as _;
use std::hint::black_box;

use uuidkit::{Case, Format, Uuid};
use uuidkit_test_support::peers::ulid;
use uuidkit_test_support::peers::uuid_simd::{self, AsOut, AsciiCase};

/// Inputs cycled through (a power of two).
const K: usize = 64;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ops: &[&str] = &[
        "uuidkit parse_str",
        "uuidkit parse_str_const",
        "uuidkit parse_str, one bad digit",
        "uuid parse_str, one bad digit",
        "uuidkit parse_hyphenated into array",
        "uuid parse_str",
        "uuid-simd parse_hyphenated into array",
        "uuidkit encode (SIMD)",
        "uuidkit encode_hyphenated (const)",
        "uuid encode_lower",
        "uuid-simd format_hyphenated",
        "uuidkit Display",
        "uuid Display",
        "uuidkit to_string",
        "uuid to_string",
        "uuidkit encode_ulid",
        "ulid array_to_str",
        "uuidkit parse_ulid",
        "ulid from_string",
        "uuidkit parse_base32hex",
        "uuidkit parse_base58",
        "uuidkit encode_base58",
        "uuidkit parse_base64url",
        "uuidkit TypeId::parse",
    ];
    let (op, n) = match (
        args.first(),
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
    ) {
        (Some(op), Some(n)) if ops.contains(&op.as_str()) => (op.as_str(), n),
        _ => {
            for op in ops {
                println!("{op}");
            }
            return;
        }
    };
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let ids: Vec<Uuid> = (0..K)
        .map(|_| Uuid::from_u64_pair(next(), next()))
        .collect();
    let peer: Vec<uuid::Uuid> = ids
        .iter()
        .map(|u| uuid::Uuid::from_bytes(u.into_bytes()))
        .collect();
    let texts: Vec<String> = ids.iter().map(|u| u.to_string()).collect();
    // The same texts with a `g` in one place, moving along the text as in scripts/bench's
    // invalid lines (hyphen slots included).
    let bad: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let p = (i + 1) % 36;
            format!("{}g{}", &t[..p], &t[p + 1..])
        })
        .collect();
    let short = |f: uuidkit::ShortForm| -> Vec<String> {
        ids.iter()
            .map(|u| {
                let mut b = [0u8; uuidkit::MAX_SHORT_LEN];
                u.encode_short(f, &mut b).to_owned()
            })
            .collect()
    };
    let ulids = short(uuidkit::ShortForm::Ulid);
    let b32h = short(uuidkit::ShortForm::Base32Hex);
    let b58 = short(uuidkit::ShortForm::Base58);
    let b64 = short(uuidkit::ShortForm::Base64Url);
    let typeids: Vec<String> = ulids
        .iter()
        .map(|u| format!("user_{}", u.to_ascii_lowercase()))
        .collect();
    let mut arr = vec![Uuid::NIL; K];
    let mut raw = vec![[0u8; 16]; K];
    let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
    let mut s = String::with_capacity(64);
    // One loop per operation (the choice is made once, outside the loop).
    macro_rules! each {
        ($j:ident => $body:block) => {
            for i in 0..n {
                let $j = i & (K - 1);
                $body
            }
        };
    }
    match op {
        "uuidkit parse_str" => each!(j => {
            black_box(Uuid::parse_str(black_box(&texts[j])).ok());
        }),
        "uuidkit parse_str_const" => each!(j => {
            black_box(Uuid::parse_str_const(black_box(&texts[j])).ok());
        }),
        "uuidkit parse_hyphenated into array" => each!(j => {
            if let Ok(u) = Uuid::parse_hyphenated(black_box(&texts[j])) {
                arr[j] = u;
            }
            black_box(&mut arr);
        }),
        "uuidkit parse_str, one bad digit" => each!(j => {
            black_box(Uuid::parse_str(black_box(&bad[j])).err());
        }),
        "uuid parse_str, one bad digit" => each!(j => {
            black_box(uuid::Uuid::parse_str(black_box(&bad[j])).err());
        }),
        "uuid parse_str" => each!(j => {
            black_box(uuid::Uuid::parse_str(black_box(&texts[j])).ok());
        }),
        "uuid-simd parse_hyphenated into array" => each!(j => {
            let _ =
                uuid_simd::parse_hyphenated(black_box(texts[j].as_bytes()), raw[j].as_out());
            black_box(&mut raw);
        }),
        "uuidkit encode (SIMD)" => each!(j => {
            black_box(&ids[j]).encode(Format::Hyphenated, Case::Lower, &mut buf);
            black_box(&mut buf);
        }),
        "uuidkit encode_hyphenated (const)" => each!(j => {
            black_box(black_box(&ids[j]).encode_hyphenated(Case::Lower));
        }),
        "uuid encode_lower" => each!(j => {
            black_box(&peer[j]).hyphenated().encode_lower(&mut buf);
            black_box(&mut buf);
        }),
        "uuid-simd format_hyphenated" => each!(j => {
            let out: &mut [u8; 36] = buf.first_chunk_mut().expect("45 >= 36");
            let _ = uuid_simd::format_hyphenated(
                black_box(&ids[j]).as_bytes(),
                out.as_out(),
                AsciiCase::Lower,
            );
            black_box(&mut buf);
        }),
        "uuidkit Display" => each!(j => {
            s.clear();
            let _ = write!(s, "{}", black_box(&ids[j]));
            black_box(&mut s);
        }),
        "uuid Display" => each!(j => {
            s.clear();
            let _ = write!(s, "{}", black_box(&peer[j]));
            black_box(&mut s);
        }),
        "uuidkit to_string" => each!(j => {
            black_box(black_box(&ids[j]).to_string());
        }),
        "uuid to_string" => each!(j => {
            black_box(black_box(&peer[j]).to_string());
        }),
        "uuidkit encode_ulid" => each!(j => {
            black_box(black_box(&ids[j]).encode_ulid());
        }),
        "ulid array_to_str" => each!(j => {
            let mut b = [0u8; 26];
            black_box(ulid::Ulid(black_box(&ids[j]).as_u128()).array_to_str(&mut b).len());
            black_box(&b);
        }),
        "uuidkit parse_ulid" => each!(j => {
            black_box(Uuid::parse_ulid(black_box(ulids[j].as_bytes())).ok());
        }),
        "ulid from_string" => each!(j => {
            black_box(ulid::Ulid::from_string(black_box(&ulids[j])).ok());
        }),
        "uuidkit parse_base32hex" => each!(j => {
            black_box(Uuid::parse_base32hex(black_box(b32h[j].as_bytes())).ok());
        }),
        "uuidkit parse_base58" => each!(j => {
            black_box(Uuid::parse_base58(black_box(b58[j].as_bytes())).ok());
        }),
        "uuidkit encode_base58" => each!(j => {
            black_box(black_box(&ids[j]).encode_base58());
        }),
        "uuidkit parse_base64url" => each!(j => {
            black_box(Uuid::parse_base64url(black_box(b64[j].as_bytes())).ok());
        }),
        "uuidkit TypeId::parse" => each!(j => {
            black_box(uuidkit::TypeId::parse(black_box(typeids[j].as_bytes())).ok());
        }),
        _ => unreachable!("checked against the list above"),
    }
}

//! The properties of the service's wire frames and the state file, checked by the `frame` fuzz
//! target and by the service's bounded property tests
//! (`crates/uuidkit-service/tests/service/fuzz_props.rs`). Like `checks.rs`, nothing here panics but an assertion.

use crate::checks::Bytes;

/// The request decoder accepts exactly the frames the wire protocol (DESIGN.md) defines
/// (version 1 or 2, flags 0, generate of v1/v6/v7, range of v1/v6/v7 in version 2 only, or info
/// with UUID version and count 0, at least 8 bytes, extra bytes ignored), names the problem
/// otherwise, and what it accepts encodes back to the same first 8 bytes. Reply headers and
/// info bodies likewise; a length prefix is accepted exactly in 8..=256, and an info reply
/// frame carries its body intact. Range replies: see [`check_range`].
pub fn check_frame(p: &[u8]) {
    use uuidkit_service::protocol::{
        info_frame, request_payload_len, Info, ReplyHeader, Request, Status, INFO_LEN,
        MAX_REQUEST_LEN, REQUEST_LEN,
    };
    check_range(p);
    if let [a, b, c, d, ..] = p {
        // The first four bytes as a length prefix: 8..=256 accepted as it is, the rest a bad frame.
        let len = u32::from_be_bytes([*a, *b, *c, *d]);
        match request_payload_len(len) {
            Ok(n) => assert!(n as u32 == len && (8..=256).contains(&len), "{len}"),
            Err(rej) => {
                assert!(
                    !(REQUEST_LEN as u32..=MAX_REQUEST_LEN).contains(&len),
                    "{len}"
                );
                assert_eq!(rej.status, Status::BadFrame);
                assert!(rej.message.contains(&len.to_string()), "{}", rej.message);
            }
        }
    }
    let want_ok = p.len() >= REQUEST_LEN
        && matches!(p[0], 1 | 2)
        && p[3] == 0
        && (((p[1] == 1 || (p[1] == 3 && p[0] == 2)) && matches!(p[2], 1 | 6 | 7))
            || (p[1] == 2 && p[2] == 0 && p[4..8] == [0; 4]));
    match Request::parse(p) {
        Ok(r) => {
            assert!(want_ok, "accepted {p:?} as {r:?}");
            let enc = r.encode();
            assert_eq!(
                u32::from_be_bytes([enc[0], enc[1], enc[2], enc[3]]),
                REQUEST_LEN as u32
            );
            assert_eq!(Request::parse(&enc[4..]), Ok(r));
            assert_eq!(&enc[4..12], &p[..REQUEST_LEN], "{p:?}");
        }
        Err(rej) => {
            assert!(!want_ok, "rejected {p:?}: {rej:?}");
            assert!(!rej.message.is_empty());
            let expected = if p.len() < REQUEST_LEN {
                Status::BadFrame
            } else if !matches!(p[0], 1 | 2) {
                Status::BadProtocol
            } else if p[3] != 0 {
                Status::BadFlags
            } else if p[1] == 1 || (p[1] == 3 && p[0] == 2) {
                Status::BadUuidVersion
            } else {
                Status::BadOp
            };
            assert_eq!(rej.status, expected, "{p:?}: {}", rej.message);
        }
    }
    match ReplyHeader::parse(p) {
        Ok(h) => {
            assert!(
                p.len() >= 8 && matches!(p[0], 1 | 2) && Status::from_u8(p[1]).is_some(),
                "{p:?}"
            );
            assert_eq!(h.protocol, p[0]);
            let mut out = Vec::new();
            h.encode_into(0, &mut out);
            assert_eq!(&out[4..12], &p[..8]);
            assert_eq!(ReplyHeader::parse(&out[4..]), Ok(h));
        }
        Err(msg) => {
            assert!(!msg.is_empty());
            assert!(
                p.len() < 8 || !matches!(p[0], 1 | 2) || Status::from_u8(p[1]).is_none(),
                "{p:?}"
            );
        }
    }
    match Info::parse(p) {
        Some(i) => {
            assert!(p.len() >= 9);
            assert_eq!(Info::parse(&i.encode()), Some(i));
            assert_eq!(&i.encode()[..8], &p[..8]);
            let mut frame = Vec::new();
            info_frame(&i, &mut frame);
            assert_eq!(frame.len(), 4 + 8 + INFO_LEN);
            assert_eq!(frame[..4], ((8 + INFO_LEN) as u32).to_be_bytes());
            let h = ReplyHeader::parse(&frame[4..]).unwrap();
            assert_eq!((h.status, h.flags, h.version, h.n), (Status::Ok, 0, 0, 16));
            assert_eq!(Info::parse(&frame[12..]), Some(i));
        }
        None => assert!(p.len() < 9, "{p:?}"),
    }
}

/// The range-reply decoder on arbitrary bytes taken as a reply payload (header and body): it
/// accepts exactly the replies the protocol defines (protocol 2, status OK, UUID version
/// 1/6/7, flags 0 or 1, a 16-byte body, at most `MAX_RANGE` UUIDs, every field of every UUID
/// of the block within its width), names the problem otherwise, and what it accepts encodes
/// back to the same bytes and expands into increasing UUIDs of its version (first and last
/// few checked), never more than the block holds.
pub fn check_range(p: &[u8]) {
    use uuidkit::Uuid;
    use uuidkit_service::protocol::{Range, RangeStart, ReplyHeader, MAX_RANGE, RANGE_LEN};
    let Ok(h) = ReplyHeader::parse(p) else {
        return;
    };
    let body = &p[8..];
    match Range::parse(&h, body) {
        Ok(r) => {
            assert!(
                h.protocol == 2 && h.flags <= 1 && body.len() == RANGE_LEN,
                "{p:?}"
            );
            assert!(r.count <= MAX_RANGE && r.count == h.n);
            assert_eq!(r.version.as_u8(), h.version);
            let mut frame = Vec::new();
            r.encode_frame(&mut frame);
            assert_eq!(&frame[4..], p, "re-encoded");
            let last = u64::from(r.count.saturating_sub(1));
            match r.start {
                RangeStart::Ticks {
                    first_ticks,
                    clock_seq,
                    ..
                } => assert!((first_ticks + last) >> 60 == 0 && clock_seq <= 0x3FFF),
                RangeStart::Counter {
                    unix_ms,
                    first_counter,
                    counter_bits,
                } => assert!(
                    unix_ms >> 48 == 0
                        && (12..=42).contains(&counter_bits)
                        && (first_counter + last) >> counter_bits == 0
                ),
            }
            // The first and the last few UUIDs, laid out with fixed "random" bits.
            let mut rng = uuidkit::generator::rng::ReplayRandom::new([0x5A; 16]);
            for from in [0, r.count.saturating_sub(3)] {
                let mut out = [Uuid::NIL; 4];
                let n = r.expand(from, &mut out, &mut rng);
                assert_eq!(n, (r.count - from).min(4) as usize);
                for (k, u) in out[..n].iter().enumerate() {
                    assert_eq!(u.version_num(), h.version, "{u}");
                    assert_eq!(Some(*u), r.uuid(from + k as u32, 0x5A5A_5A5A_5A5A_5A5A));
                }
                assert!(out[..n].windows(2).all(|w| match h.version {
                    1 => w[0].gregorian_ticks() < w[1].gregorian_ticks(),
                    _ => w[0] < w[1],
                }));
            }
            assert_eq!(r.uuid(r.count, 0), None);
        }
        Err(msg) => {
            assert!(!msg.is_empty());
            let well_formed = h.protocol == 2
                && h.status as u8 == 0
                && matches!(h.version, 1 | 6 | 7)
                && h.flags <= 1
                && body.len() == RANGE_LEN
                && h.n <= MAX_RANGE;
            if well_formed {
                // Then a field must be out of its width.
                let w = |at: usize| u64::from_be_bytes(body[at..at + 8].try_into().unwrap());
                let last = u64::from(h.n.saturating_sub(1));
                let bad = if h.version == 7 {
                    let bits = body[6];
                    !(12..=42).contains(&bits)
                        || body[7] != 0
                        || w(8).checked_add(last).is_none_or(|c| c >> bits != 0)
                } else {
                    w(0).checked_add(last).is_none_or(|t| t >> 60 != 0)
                        || u16::from_be_bytes([body[8], body[9]]) > 0x3FFF
                };
                assert!(bad, "{p:?} refused: {msg}");
            }
        }
    }
}

/// The state-file decoder: arbitrary bytes decode only to a state that encodes back to exactly
/// those bytes; a state built from arbitrary field values decodes back to itself exactly when
/// every field is in range; and any single changed byte of a valid file is detected.
pub fn check_state(data: &[u8]) {
    use uuidkit_service::state::{State, StateErrorKind, STATE_LEN};
    match State::decode(data) {
        Ok(s) => assert_eq!(&s.encode()[..], data),
        Err(e) => {
            assert_eq!(e.kind(), StateErrorKind::Corrupt, "{e}");
            assert!(!e.to_string().is_empty());
        }
    }
    let mut b = Bytes(data);
    let counter = b.uint(8);
    let s = State {
        gregorian_ticks: b.uint(8) >> (b.u8() % 8),
        clock_seq: b.uint(2) as u16 >> (b.u8() % 4),
        node: [b.u8(), b.u8(), b.u8(), b.u8(), b.u8(), b.u8()],
        v7_unix_ms: b.uint(8) >> (b.u8() % 24),
        v7_counter: (counter != u64::MAX).then_some(counter),
        clean: b.u8() & 1 == 1,
        writes: b.uint(8),
    };
    let enc = s.encode();
    let in_range = s.gregorian_ticks < 1 << 60 && s.clock_seq <= 0x3fff && s.v7_unix_ms < 1 << 48;
    match State::decode(&enc) {
        Ok(back) => {
            assert!(in_range, "{s:?} accepted");
            assert_eq!(back, s);
        }
        Err(e) => assert!(!in_range, "{s:?} rejected: {e}"),
    }
    if in_range {
        let at = usize::from(b.u8()) % STATE_LEN;
        let mut bad = enc;
        bad[at] ^= b.u8().max(1);
        assert!(State::decode(&bad).is_err(), "byte {at} changed unnoticed");
        assert!(State::decode(&enc[..STATE_LEN - 1]).is_err());
    }
}

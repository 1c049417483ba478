//! The properties of the service's wire frames and the state file, checked by the `frame` fuzz
//! target and by `crates/uuidkit-service/tests/fuzz_props.rs` (which includes this file by path
//! next to `checks.rs`). Like `checks.rs`, nothing here panics but an assertion.

use super::checks::Bytes;

/// The request decoder accepts exactly the frames the wire protocol (DESIGN.md) defines (version 1,
/// flags 0, generate of v1/v6/v7, or info with UUID version and count 0, at least 8 bytes,
/// extra bytes ignored), names the problem otherwise, and what it accepts encodes back to the
/// same first 8 bytes. Reply headers and info bodies likewise; a length prefix is
/// accepted exactly in 8..=256, and an info reply frame carries its body intact.
pub fn check_frame(p: &[u8]) {
    use uuidkit_service::protocol::{
        info_frame, request_payload_len, Info, ReplyHeader, Request, Status, INFO_LEN,
        MAX_REQUEST_LEN, REQUEST_LEN,
    };
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
        && p[0] == 1
        && p[3] == 0
        && ((p[1] == 1 && matches!(p[2], 1 | 6 | 7))
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
            } else if p[0] != 1 {
                Status::BadProtocol
            } else if p[3] != 0 {
                Status::BadFlags
            } else if p[1] == 1 {
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
                p.len() >= 8 && p[0] == 1 && Status::from_u8(p[1]).is_some(),
                "{p:?}"
            );
            let mut out = Vec::new();
            h.encode_into(0, &mut out);
            assert_eq!(&out[4..12], &p[..8]);
            assert_eq!(ReplyHeader::parse(&out[4..]), Ok(h));
        }
        Err(msg) => {
            assert!(!msg.is_empty());
            assert!(
                p.len() < 8 || p[0] != 1 || Status::from_u8(p[1]).is_none(),
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

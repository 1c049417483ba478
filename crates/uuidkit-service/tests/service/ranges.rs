//! Range replies (protocol 2): old clients get the old replies, a new client falls back against
//! a server of protocol 1, ranges are unique across clients and v7 increases in issue order
//! over ranges and lists alike, blocks sent ahead keep both, and bad range replies are clear
//! errors.
#![cfg(unix)]

use std::collections::HashSet;
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use uuidkit::generator::{ThreadRng, V6Generator, V7Generator};
use uuidkit::Uuid;
use uuidkit_service::client::{
    ClientConfig, Connection, ServiceErrorKind, Source, SystemGenerator,
};
use uuidkit_service::protocol::{
    error_frame, uuids_frame, Range, ReplyHeader, Request, Status, MAX_RANGE, REPLY_HEADER_LEN,
};
use uuidkit_service::state::{Safety, TimeVersion};

use uuidkit_test_support::TempDir;

use crate::running::{connect, start};

fn raw(sock: &Path) -> UnixStream {
    let s = UnixStream::connect(sock).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

fn raw_reply(s: &mut UnixStream) -> (ReplyHeader, Vec<u8>) {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).unwrap();
    let mut p = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut p).unwrap();
    (ReplyHeader::parse(&p).unwrap(), p)
}

fn increasing(v: TimeVersion, u: &[Uuid]) -> bool {
    u.windows(2).all(|w| match v {
        TimeVersion::V1 => w[0].gregorian_ticks() < w[1].gregorian_ticks(),
        _ => w[0] < w[1],
    })
}

#[test]
fn old_clients_get_the_old_replies_and_new_ones_get_ranges() {
    let d = TempDir::new();
    let r = start(&d);
    let mut s = raw(&r.sock);
    // Protocol 1, as every client before ranges sends it: a protocol-1 reply carrying the UUIDs.
    s.write_all(&Request::generate(TimeVersion::V7, 3).encode())
        .unwrap();
    let (h, p) = raw_reply(&mut s);
    assert_eq!((h.protocol, h.status, h.n), (1, Status::Ok, 3));
    assert_eq!(p.len(), REPLY_HEADER_LEN + 3 * 16);
    // Generate in protocol 2: the same reply, in protocol 2.
    let v2 = Request {
        protocol: 2,
        ..Request::generate(TimeVersion::V6, 2)
    };
    s.write_all(&v2.encode()).unwrap();
    let (h, p) = raw_reply(&mut s);
    assert_eq!((h.protocol, h.status, h.n), (2, Status::Ok, 2));
    assert_eq!(p.len(), REPLY_HEADER_LEN + 2 * 16);
    // A range: 16 bytes of body for 8192 UUIDs.
    for v in [TimeVersion::V1, TimeVersion::V6, TimeVersion::V7] {
        s.write_all(&Request::range(v, 8192).encode()).unwrap();
        let (h, p) = raw_reply(&mut s);
        assert_eq!((h.protocol, h.status, h.n), (2, Status::Ok, 8192));
        let range = Range::parse(&h, &p[REPLY_HEADER_LEN..]).unwrap();
        assert_eq!((range.version, range.durable), (v, true));
        let mut out = vec![Uuid::NIL; 8192];
        assert_eq!(range.expand(0, &mut out, &mut ThreadRng), 8192);
        assert!(out.iter().all(|u| u.version_num() == v.as_u8()));
        assert!(increasing(v, &out));
    }
    // Larger than MAX_RANGE: clamped. Count 0: an empty range.
    s.write_all(&Request::range(TimeVersion::V7, u32::MAX).encode())
        .unwrap();
    assert_eq!(raw_reply(&mut s).0.n, MAX_RANGE);
    s.write_all(&Request::range(TimeVersion::V1, 0).encode())
        .unwrap();
    let (h, p) = raw_reply(&mut s);
    assert_eq!((h.status, h.n), (Status::Ok, 0));
    assert_eq!(Range::parse(&h, &p[REPLY_HEADER_LEN..]).unwrap().count, 0);
}

/// A server of protocol 1 only, as before ranges: generate and nothing else; another protocol
/// version gets BadProtocol (in protocol 1) and the connection is closed.
struct OldServer {
    sock: PathBuf,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<usize>>,
}

impl OldServer {
    fn start(sock: PathBuf) -> OldServer {
        let listener = UnixListener::bind(&sock).unwrap();
        listener.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut refused = 0;
            let mut g6 = V6Generator::system();
            let mut g7 = V7Generator::system();
            while !stop2.load(Ordering::SeqCst) {
                let mut s = match listener.accept() {
                    Ok((s, _)) => s,
                    Err(_) => {
                        std::thread::sleep(Duration::from_millis(2));
                        continue;
                    }
                };
                s.set_nonblocking(false).unwrap();
                // A client that keeps its connection open must not hold the server forever.
                s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                let mut out = Vec::new();
                loop {
                    let mut f = [0u8; 12];
                    if s.read_exact(&mut f).is_err() {
                        break;
                    }
                    if f[4] != 1 {
                        refused += 1;
                        error_frame(Status::BadProtocol, 0, "protocol 1 only", &mut out);
                        let _ = s.write_all(&out);
                        break;
                    }
                    let r = Request::parse(&f[4..]).unwrap();
                    let v = r.version.unwrap();
                    let mut u = vec![Uuid::NIL; r.count.min(8192) as usize];
                    match v {
                        TimeVersion::V7 => g7.fill(&mut u).unwrap(),
                        TimeVersion::V6 => g6.fill(&mut u).unwrap(),
                        TimeVersion::V1 => g6.fill_v1(&mut u).unwrap(),
                    }
                    uuids_frame(v, false, &u, &mut out);
                    if s.write_all(&out).is_err() {
                        break;
                    }
                }
            }
            refused
        });
        OldServer {
            sock,
            stop,
            thread: Some(thread),
        }
    }

    /// Stops it; how many protocol-2 requests it refused.
    fn stop(mut self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().unwrap().join().unwrap()
    }
}

#[test]
fn a_new_client_falls_back_to_protocol_1_against_an_old_server() {
    let d = TempDir::new();
    let old = OldServer::start(d.path("old.sock"));
    // One connection: the first range request finds out, and the connection goes on.
    let mut c = connect(&old.sock);
    let mut out = vec![Uuid::NIL; 300];
    assert_eq!(
        c.fill(TimeVersion::V7, &mut out).unwrap(),
        (300, Safety::Volatile)
    );
    assert_eq!(c.sends_ranges(), Some(false));
    assert!(increasing(TimeVersion::V7, &out));
    assert_eq!(c.range(TimeVersion::V1, 5).unwrap(), None);
    // Nothing is sent ahead to a server without ranges.
    for _ in 0..3 {
        let mut block = [Uuid::NIL; 20];
        assert_eq!(c.fill_ahead(TimeVersion::V1, &mut block).unwrap().0, 20);
        assert!(increasing(TimeVersion::V1, &block));
    }
    let mut more = Vec::new();
    c.generate(TimeVersion::V1, 5, &mut more).unwrap();
    assert_eq!(more.len(), 5);

    // The process-wide client (the old server serves one connection at a time): both calls
    // served, from the service.
    drop(c);
    let g = SystemGenerator::new(ClientConfig::new(&old.sock).fallback(false));
    let a = g.next(TimeVersion::V7).unwrap();
    let b = g.next(TimeVersion::V7).unwrap();
    assert_eq!((a.source, b.source), (Source::Service, Source::Service));
    assert!(a.uuid < b.uuid);
    let mut many = [Uuid::NIL; 1000];
    assert_eq!(
        g.fill(TimeVersion::V6, &mut many).unwrap().from_service,
        1000
    );
    assert!(increasing(TimeVersion::V6, &many));
    // Each connection asked once in protocol 2.
    drop(g);
    assert_eq!(old.stop(), 2);
}

#[test]
fn v7_increases_in_issue_order_over_ranges_lists_and_clients() {
    let d = TempDir::new();
    let r = start(&d);
    let mut conns: Vec<Connection> = (0..3).map(|_| connect(&r.sock)).collect();
    // Blocks of 64 that may not be used after they are fetched: every call a fresh range.
    let cfg = ClientConfig::new(&r.sock).fallback(false);
    let g = SystemGenerator::new(cfg.clone().block(64).max_age(Duration::ZERO));
    let one = SystemGenerator::new(cfg.block(1));
    // One after another, in a known order: ranges, lists, single UUIDs, the cached client.
    let mut issued: Vec<Uuid> = Vec::new();
    for round in 0..40usize {
        let c = &mut conns[round % 3];
        match round % 4 {
            0 => {
                let mut out = vec![Uuid::NIL; 1 + round * 97];
                let (n, _) = c.fill(TimeVersion::V7, &mut out).unwrap();
                issued.extend(&out[..n]);
            }
            1 => {
                c.generate(TimeVersion::V7, 1 + round as u32, &mut issued)
                    .unwrap();
            }
            2 => {
                let range = c.range(TimeVersion::V7, 3).unwrap().unwrap();
                let mut out = [Uuid::NIL; 3];
                range.expand(0, &mut out, &mut ThreadRng);
                issued.extend(out);
            }
            _ => {
                issued.push(one.next(TimeVersion::V7).unwrap().uuid);
                issued.push(g.next(TimeVersion::V7).unwrap().uuid);
                let mut rest = vec![Uuid::NIL; 2 + round];
                g.fill(TimeVersion::V7, &mut rest).unwrap();
                issued.extend(rest);
            }
        }
    }
    assert!(issued.len() > 10_000, "{}", issued.len());
    let bad = issued.windows(2).position(|w| w[0] >= w[1]);
    assert_eq!(bad, None, "v7 not increasing in issue order");
}

#[test]
fn ranges_are_unique_across_concurrent_clients_and_increasing_per_client() {
    let d = TempDir::new();
    let r = start(&d);
    let sock = r.sock.clone();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let sock = sock.clone();
            std::thread::spawn(move || {
                let g = SystemGenerator::new(ClientConfig::new(&sock).fallback(false));
                let mut got = Vec::new();
                for v in [TimeVersion::V1, TimeVersion::V6, TimeVersion::V7] {
                    let mut mine = Vec::new();
                    for i in 0..20_000 {
                        if (i + t) % 5000 == 0 {
                            let mut batch = vec![Uuid::NIL; 3000];
                            g.fill(v, &mut batch).unwrap();
                            mine.extend(batch);
                        } else {
                            mine.push(g.next(v).unwrap().uuid);
                        }
                    }
                    assert!(increasing(v, &mine), "thread {t}: {v} not increasing");
                    got.extend(mine);
                }
                got
            })
        })
        .collect();
    let mut v7 = HashSet::new();
    let mut greg = HashSet::new();
    for h in threads {
        for u in h.join().unwrap() {
            if u.version_num() == 7 {
                assert!(v7.insert(u), "repeated {u}");
            } else {
                // v1 and v6 share one timeline.
                let t = (u.gregorian_ticks(), u.clock_seq(), u.node());
                assert!(greg.insert(t), "repeated {u}");
            }
        }
    }
    assert_eq!(v7.len(), 4 * (20_000 - 4 + 4 * 3000));
}

/// A server that answers every request with `reply` (a whole frame).
fn liar(sock: PathBuf, reply: Vec<u8>) -> JoinHandle<()> {
    let listener = UnixListener::bind(&sock).unwrap();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            let mut f = [0u8; 12];
            while s.read_exact(&mut f).is_ok() {
                if s.write_all(&reply).is_err() {
                    break;
                }
            }
        }
    })
}

#[test]
fn bad_range_replies_are_clear_errors() {
    let frame = |h: [u8; 8], body: &[u8]| {
        let mut f = ((8 + body.len()) as u32).to_be_bytes().to_vec();
        f.extend(h);
        f.extend(body);
        f
    };
    let ticks = |t: u64, seq: u16| {
        let mut b = t.to_be_bytes().to_vec();
        b.extend(seq.to_be_bytes());
        b.extend([1; 6]);
        b
    };
    let v7 = |ms: u64, bits: u8, c: u64| {
        let mut b = ms.to_be_bytes()[2..].to_vec();
        b.extend([bits, 0]);
        b.extend(c.to_be_bytes());
        b
    };
    // (reply, request version, what the error says)
    let cases: Vec<(Vec<u8>, TimeVersion, &str)> = vec![
        (
            frame([2, 0, 1, 1, 0, 0, 0, 5], &ticks(1 << 59, 1)[..15]),
            TimeVersion::V1,
            "15 bytes",
        ),
        (
            frame([2, 0, 1, 1, 0, 0, 0, 5], &[ticks(1, 1), vec![0]].concat()),
            TimeVersion::V1,
            "17 bytes",
        ),
        (
            frame([2, 0, 1, 1, 0, 0, 0, 5], &ticks((1 << 60) - 3, 1)),
            TimeVersion::V1,
            "60-bit",
        ),
        (
            frame([2, 0, 1, 6, 0, 0, 0, 5], &ticks(7, 0x4000)),
            TimeVersion::V6,
            "14 bits",
        ),
        (
            frame([2, 0, 1, 6, 0, 0, 0, 5], &ticks(7, 1)),
            TimeVersion::V1,
            "version v6",
        ),
        (
            frame([2, 0, 1, 1, 0, 0, 0, 50], &ticks(7, 1)),
            TimeVersion::V1,
            "request of 10",
        ),
        (
            frame([2, 0, 1, 1, 0, 1, 0, 1], &ticks(7, 1)),
            TimeVersion::V1,
            "more than 65536",
        ),
        (
            frame([2, 0, 4, 1, 0, 0, 0, 5], &ticks(7, 1)),
            TimeVersion::V1,
            "flags 0x04",
        ),
        (
            frame([2, 0, 1, 9, 0, 0, 0, 5], &ticks(7, 1)),
            TimeVersion::V1,
            "UUID version 9",
        ),
        (
            frame([2, 0, 1, 7, 0, 0, 0, 5], &v7(1, 43, 0)),
            TimeVersion::V7,
            "43 bits",
        ),
        (
            frame([2, 0, 1, 7, 0, 0, 0, 5], &v7(1, 12, 4093)),
            TimeVersion::V7,
            "12-bit counter",
        ),
        (
            frame([1, 0, 1, 7, 0, 0, 0, 5], &v7(1, 42, 0)),
            TimeVersion::V7,
            "protocol 1",
        ),
        (
            frame([3, 0, 1, 7, 0, 0, 0, 5], &v7(1, 42, 0)),
            TimeVersion::V7,
            "protocol version 3",
        ),
    ];
    let d = TempDir::new();
    for (i, (reply, v, want)) in cases.into_iter().enumerate() {
        let sock = d.path(&format!("liar{i}.sock"));
        let t = liar(sock.clone(), reply);
        let mut c = connect(&sock);
        let e = c.range(v, 10).unwrap_err();
        assert_eq!(e.kind(), ServiceErrorKind::Protocol, "case {i}: {e}");
        assert!(e.to_string().contains(want), "case {i}: {e}");
        drop(c);
        t.join().unwrap();
    }
}

#[test]
fn blocks_sent_ahead_are_unique_across_clients_and_in_issue_order_per_connection() {
    let d = TempDir::new();
    let r = start(&d);
    let threads: Vec<_> = (0..3usize)
        .map(|t| {
            let sock = r.sock.clone();
            std::thread::spawn(move || {
                let mut c = connect(&sock);
                // In issue order on this connection: (version, UUID).
                let mut issued: Vec<(TimeVersion, Uuid)> = Vec::new();
                let versions = [TimeVersion::V1, TimeVersion::V6, TimeVersion::V7];
                for round in 0..60usize {
                    let v = versions[(round / 4 + t) % 3];
                    // Runs of the same request (the block sent ahead is taken), broken by a
                    // change of length or version, a list or a plain range (it is dropped).
                    let len = if round % 10 == 9 { 77 } else { 1000 + t };
                    let mut out = vec![Uuid::NIL; len];
                    let (n, safety) = c.fill_ahead(v, &mut out).unwrap();
                    assert_eq!((n, safety), (len, Safety::Durable));
                    issued.extend(out.iter().map(|&u| (v, u)));
                    if round % 13 == 12 {
                        let mut list = Vec::new();
                        c.generate(v, 3, &mut list).unwrap();
                        issued.extend(list.iter().map(|&u| (v, u)));
                    }
                }
                assert_eq!(c.sends_ranges(), Some(true));
                issued
            })
        })
        .collect();
    let (mut v7, mut greg) = (HashSet::new(), HashSet::new());
    for h in threads {
        let issued = h.join().unwrap();
        // v7 increases in issue order; v1 and v6 share one timeline, which increases too.
        let sevens: Vec<Uuid> = issued
            .iter()
            .filter(|(v, _)| *v == TimeVersion::V7)
            .map(|&(_, u)| u)
            .collect();
        assert!(increasing(TimeVersion::V7, &sevens));
        let ticks: Vec<u64> = issued
            .iter()
            .filter(|(v, _)| *v != TimeVersion::V7)
            .map(|(_, u)| u.gregorian_ticks().unwrap())
            .collect();
        assert!(ticks.windows(2).all(|w| w[0] < w[1]), "v1/v6 timeline");
        for (v, u) in issued {
            let want = match v {
                TimeVersion::V1 => 1,
                TimeVersion::V6 => 6,
                TimeVersion::V7 => 7,
            };
            assert_eq!(u.version_num(), want, "{u}");
            if v == TimeVersion::V7 {
                assert!(v7.insert(u), "repeated {u}");
            } else {
                assert!(
                    greg.insert((u.gregorian_ticks(), u.clock_seq(), u.node())),
                    "{u}"
                );
            }
        }
    }
    assert!(
        v7.len() > 10_000 && greg.len() > 20_000,
        "{} {}",
        v7.len(),
        greg.len()
    );
}

#[test]
fn a_bad_reply_to_a_block_sent_ahead_is_an_error_and_ends_the_connection() {
    let d = TempDir::new();
    let sock = d.path("s.sock");
    let listener = UnixListener::bind(&sock).unwrap();
    // Two good range replies (v1, 10 UUIDs from tick 100), then a frame too short to be one.
    let server = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        let mut good = 24u32.to_be_bytes().to_vec();
        good.extend([2, 0, 1, 1, 0, 0, 0, 10]);
        good.extend(100u64.to_be_bytes());
        good.extend(1u16.to_be_bytes());
        good.extend([1; 6]);
        let mut f = [0u8; 12];
        let mut n = 0;
        while s.read_exact(&mut f).is_ok() {
            n += 1;
            let reply = if n <= 2 {
                good.clone()
            } else {
                vec![0, 0, 0, 1, 0]
            };
            if s.write_all(&reply).is_err() {
                break;
            }
        }
        n
    });
    let mut c = connect(&sock);
    let mut out = [Uuid::NIL; 10];
    // The first call learns that ranges come; the second sends the third request ahead.
    for _ in 0..2 {
        assert_eq!(c.fill_ahead(TimeVersion::V1, &mut out).unwrap().0, 10);
        assert_eq!(out[9].gregorian_ticks(), Some(109));
    }
    let e = c.fill_ahead(TimeVersion::V1, &mut out).unwrap_err();
    assert_eq!(e.kind(), ServiceErrorKind::Protocol);
    assert!(e.to_string().contains("reply length 1"), "{e}");
    // The connection is over: the next call fails at once instead of pairing a late reply
    // with another request.
    let e = c.generate(TimeVersion::V1, 1, &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), ServiceErrorKind::Io, "{e}");
    assert!(e.to_string().contains("connect again"), "{e}");
    let e = c.fill_ahead(TimeVersion::V1, &mut out).unwrap_err();
    assert!(e.to_string().contains("connect again"), "{e}");
    drop(c);
    assert!(server.join().unwrap() >= 3);
}

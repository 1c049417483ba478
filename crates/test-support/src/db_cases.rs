//! The values every database test stores and reads back, shared by uuidkit's SQLite test and the
//! server tests in `db-tests/`.
//!
//! - [`versions`]: one UUID of every version 1–8 (generated where uuidkit has a generator, the
//!   RFC's published values for the name-based ones, so that no hash feature is needed), Nil
//!   and Max.
//! - [`for_ordering`]: those plus a stream of v7 and random bytes of every leading octet, so
//!   that a signed or text comparison in the database would put some pair out of order.

use uuidkit::{Domain, Uuid};

/// `(label, value)`: every version 1–8, Nil and Max.
pub fn versions() -> Vec<(&'static str, Uuid)> {
    let node = [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46];
    let parse = |s: &str| Uuid::parse_str(s).expect("a valid literal");
    vec![
        ("v1", uuidkit::v1()),
        (
            "v2",
            Uuid::from_v2_parts(0x1EC9414C232AB00, 0x2A, Domain::Person, 1000, node),
        ),
        // Source: RFC 9562 Appendix A.2 (v3), A.4 (v5), B.2 (v8 with SHA-256).
        ("v3", parse("5df41881-3aed-3515-88a7-2f4a814cf09e")),
        ("v4", uuidkit::v4()),
        ("v5", parse("2ed6657d-e927-568b-95e1-2665a8aea6a2")),
        ("v6", uuidkit::v6()),
        ("v7", uuidkit::v7()),
        ("v8", parse("5c146b14-3c52-8afd-938a-375d0df1fbf6")),
        ("nil", Uuid::NIL),
        ("max", Uuid::MAX),
    ]
}

/// [`versions`] plus 200 v7 and 256 values whose first octet runs through 0x00–0xFF (the rest
/// random), shuffled by their own random bits so that insertion order is not the sorted order.
pub fn for_ordering() -> Vec<Uuid> {
    let mut all: Vec<Uuid> = versions().into_iter().map(|(_, u)| u).collect();
    all.extend((0..200).map(|_| uuidkit::v7()));
    for first in 0..=255u8 {
        let mut b = *uuidkit::v4().as_bytes();
        b[0] = first;
        all.push(Uuid::from_bytes(b));
    }
    // Insertion order: by a v4 key each, i.e. random.
    let mut keyed: Vec<(Uuid, Uuid)> = all.into_iter().map(|u| (uuidkit::v4(), u)).collect();
    keyed.sort();
    keyed.into_iter().map(|(_, u)| u).collect()
}

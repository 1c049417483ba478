//! RFC 4530 in a directory tool: validate entryUUID values, evaluate `uuidMatch` and
//! `uuidOrderingMatch` as a server does, and give every entry of an LDIF file an entryUUID.
//!
//! Run with `cargo run -p uuidkit --example ldap_entryuuid`.

use std::cmp::Ordering;

use uuidkit::{ldap, ldif};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The syntax (RFC 4530 §2.1) is the RFC 4122 hyphenated form, in either case.
    // Source: RFC 4530 §2.1 example value.
    let example = "597ae2f6-16a6-1027-98f4-d28b5365dc14";
    let u = ldap::validate(example.as_bytes())?;
    println!("valid: {u}");
    for bad in [
        "597ae2f616a6102798f4d28b5365dc14",
        "{597ae2f6-16a6-1027-98f4-d28b5365dc14}",
    ] {
        let e = ldap::validate(bad.as_bytes()).unwrap_err();
        println!("invalid {bad}: {e}");
    }

    // uuidMatch (§2.2): the same UUID, whatever the letter case.
    let upper = example.to_uppercase();
    assert!(ldap::uuid_match(upper.as_bytes(), example.as_bytes())?);
    println!("uuidMatch({upper}, {example}) = TRUE");

    // uuidOrderingMatch (§2.3): octet order. A filter (entryUUID<=X) is TRUE for values
    // before X (the rule) or equal to it (uuidMatch).
    let nil = "00000000-0000-0000-0000-000000000000";
    assert_eq!(
        ldap::uuid_ordering_match(example.as_bytes(), nil.as_bytes())?,
        Ordering::Less
    );
    assert!(ldap::uuid_ordering_rule(
        example.as_bytes(),
        nil.as_bytes()
    )?);
    println!("uuidOrderingMatch: {nil} sorts before {example}");

    // A bad assertion is reported with its side and position.
    let e =
        ldap::uuid_match(b"597ae2f6-16a6-1027-98f4-d28b5365dc1x", example.as_bytes()).unwrap_err();
    println!("bad assertion: {e}");

    // LDIF: add entryUUID where missing, keep valid ones, stop at an invalid one.
    let input = "version: 1\n\
                 \n\
                 dn: dc=example,dc=com\n\
                 objectClass: domain\n\
                 dc: example\n\
                 \n\
                 dn: cn=alice,dc=example,dc=com\n\
                 objectClass: person\n\
                 cn: alice\n\
                 sn: Liddell\n\
                 entryUUID: 597AE2F6-16A6-1027-98F4-D28B5365DC14\n\
                 \n\
                 dn: cn=bob,dc=example,dc=com\n\
                 changetype: modify\n\
                 replace: sn\n\
                 sn: Builder\n\
                 -\n";
    let mut out = Vec::new();
    let stats = ldif::add_entry_uuid(input.as_bytes(), &mut out, &mut uuidkit::v7)?;
    println!(
        "--- LDIF out ({} entries, {} added, {} kept) ---",
        stats.entries, stats.added, stats.kept
    );
    print!("{}", String::from_utf8(out)?);
    assert_eq!((stats.added, stats.kept), (1, 1));

    let broken = "dn: cn=carol,dc=example,dc=com\ncn: carol\nentryUUID: 597ae2f6-16a6-1027-98f4\n";
    let e = ldif::add_entry_uuid(broken.as_bytes(), std::io::sink(), &mut uuidkit::v4).unwrap_err();
    println!("--- invalid LDIF ---\n{e}");
    assert_eq!(e.line(), Some(3));
    Ok(())
}

//! Microsoft GUIDs: the same 128 bits with the first three fields stored little-endian.
//!
//! A GUID struct in memory (`Data1: u32`, `Data2: u16`, `Data3: u16`, `Data4: [u8; 8]`) on a
//! little-endian machine — and so the 16 bytes Windows APIs, COM, .NET's `Guid.ToByteArray()`
//! and SQL Server's `uniqueidentifier` hand over — has `Data1..Data3` byte-swapped relative to
//! the network order of RFC 9562 §4. The text form is the same; only raw bytes differ.
//!
//! Run with `cargo run -p uuidkit --example guid`.

use uuidkit::Uuid;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn main() -> Result<(), uuidkit::Error> {
    // The text a Windows tool would print for the GUID.
    let u = Uuid::parse_str("{00112233-4455-6677-8899-AABBCCDDEEFF}")?;

    let network = u.as_bytes();
    let guid = u.to_bytes_le();
    println!("text:            {}", u.braced());
    println!("network order:   {}", hex(network));
    println!("GUID byte order: {}", hex(&guid));
    assert_eq!(hex(&guid), "33221100554477668899aabbccddeeff");

    // Bytes that came from a GUID (e.g. a uniqueidentifier column) back to the same UUID.
    assert_eq!(Uuid::from_bytes_le(guid), u);
    // Reading them as network order instead is the classic bug: a different UUID.
    let wrong = Uuid::from_bytes(guid);
    println!("misread as network order: {wrong}");
    assert_ne!(wrong, u);

    // The "guid-hex" text (32 hex digits of the GUID bytes) found in registry dumps.
    let guid_hex = u.guid_hex().to_string();
    println!("guid-hex:        {guid_hex}");
    assert_eq!(Uuid::parse_guid_hex(guid_hex.as_bytes())?, u);

    // Reading a GUID struct's fields directly gives the same value.
    let (d1, d2, d3, d4) = u.as_fields();
    println!(
        "fields:          Data1={d1:#010x} Data2={d2:#06x} Data3={d3:#06x} Data4={}",
        hex(&d4)
    );
    assert_eq!(Uuid::from_fields(d1, d2, d3, d4), u);
    Ok(())
}

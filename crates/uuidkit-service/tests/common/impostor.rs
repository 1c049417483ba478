//! An impostor server for the credential tests (`defences.rs` and the CLI's
//! `tests/serve_defences.rs`, which include this file by path): it binds the socket `sock` as
//! whoever runs it and answers every request with the same two v7 UUIDs, as an impostor handing
//! out repeats would. It speaks protocol 1 only (a range request, protocol 2, is refused and its
//! connection closed, as such a server does; the client then asks for a list). Prints `READY`
//! once bound; ends the process after 60 s.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::time::Duration;

use uuidkit::Uuid;
use uuidkit_service::protocol::{error_frame, uuids_frame, Status};
use uuidkit_service::state::TimeVersion;

pub fn serve_forged(sock: &str) {
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_secs(60));
        std::process::exit(0);
    });
    let listener = UnixListener::bind(sock).unwrap();
    fs::set_permissions(sock, fs::Permissions::from_mode(0o777)).unwrap();
    let mut forged = [Uuid::NIL; 2];
    uuidkit::generator::global::v7_batch(&mut forged);
    println!("READY");
    for s in listener.incoming() {
        let Ok(mut s) = s else { continue };
        std::thread::spawn(move || {
            let mut req = [0u8; 12];
            while s.read_exact(&mut req).is_ok() {
                let mut out = Vec::new();
                if req[4] != 1 {
                    error_frame(Status::BadProtocol, 0, "protocol 1 only", &mut out);
                    let _ = s.write_all(&out);
                    break;
                }
                uuids_frame(TimeVersion::V7, true, &forged, &mut out);
                if s.write_all(&out).is_err() {
                    break;
                }
            }
        });
    }
}

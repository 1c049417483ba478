//! An impostor server for the credential tests (the service's `defences` and the CLI's
//! `serve_defences`): it binds the socket `sock` as whoever runs it and answers every request
//! with the same two v7 UUIDs, as an impostor handing out repeats would. It speaks protocol 1 only (a range request, protocol 2, is refused and its
//! connection closed, as such a server does; the client then asks for a list). Prints `READY`
//! once bound; ends the process after 60 s.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
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

/// A directory `name` in `parent` that everyone may write, sticky (as /tmp): where another user
/// can bind a socket first.
pub fn shared_dir(parent: &Path, name: &str) -> PathBuf {
    let shared = parent.join(name);
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
    shared
}

/// Runs the impostor as `uid` in a process of its own: the test binary again, running only its
/// ignored helper test `helper` (module path included), which calls [`serve_forged`] on the
/// socket path in `UK_HELPER` (here `sock`). Returns once the impostor printed `READY`; the rest
/// of its output is read and dropped on a thread.
pub fn spawn_as(uid: u32, helper: &str, sock: &Path) -> Child {
    let mut imp = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", helper, "--ignored", "--nocapture", "--quiet"])
        .env("UK_HELPER", sock)
        .uid(uid)
        .gid(uid)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(imp.stdout.take().unwrap()).lines();
    assert!(
        lines.any(|l| l.is_ok_and(|l| l.starts_with("READY"))),
        "the impostor ended before it was ready: {:?}",
        imp.wait()
    );
    std::thread::spawn(move || lines.for_each(drop));
    imp
}

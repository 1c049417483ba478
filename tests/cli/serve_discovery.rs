//! Every local user finds the service with no set-up: a server run by root listens on the
//! system socket (`/run/uuidkit/uuidkit.sock`, mode 0666, its directory 0755), and a client
//! run as `nobody` finds it with no environment at all, or with an `XDG_RUNTIME_DIR` that holds
//! no socket; with a per-user server in its `XDG_RUNTIME_DIR` it prefers that one; when none
//! answers, the error names every place tried. A clean stop leaves nothing in /run/uuidkit.
//!
//! The first test needs root: it starts a server on the system socket and runs clients as
//! `nobody`. It is ignored in the default run; `scripts/root-tests` runs it as root with a
//! private, empty `/run` (a mount namespace of its own), so that the machine's
//! `/run/uuidkit` is never touched and an installed service does not get in the way. Run any
//! other way (not root, or without that `/run`) it fails, saying so, rather than pass
//! unchecked.
#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use uuidkit_service::client::{ClientConfig, Connection, SystemGenerator, SYSTEM_SOCKET};

const BIN: &str = env!("CARGO_BIN_EXE_uuidkit");

use crate::root as common;
use uuidkit_test_support::TempDir;

/// `nobody`.
const OTHER_UID: u32 = 65534;

fn is_root() -> bool {
    // SAFETY: geteuid takes no arguments and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A command run as `nobody` with an empty environment but `PATH` and `env`.
fn as_nobody(program: impl AsRef<std::ffi::OsStr>, env: &[(&str, &Path)]) -> Command {
    let mut c = Command::new(program);
    c.env_clear()
        .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
        .uid(OTHER_UID)
        .gid(OTHER_UID);
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

/// Helper: asks the service that `ClientConfig::from_env()` finds for its info, and prints
/// `PID n` or `ERR message`. Run as `nobody` by the test below.
#[test]
#[ignore = "a helper process run by root_every_user_finds_the_system_socket_and_prefers_their_own"]
fn discovery_client() {
    if std::env::var_os("UK_DISCOVERY_HELPER").is_none() {
        return;
    }
    let g = SystemGenerator::new(ClientConfig::from_env().fallback(false));
    match g.info() {
        Ok(i) => println!("PID {}", i.pid),
        Err(e) => println!("ERR {e}"),
    }
}

/// What the helper says, run as `nobody` with `env`.
fn discovered(env: &[(&str, &Path)]) -> String {
    let o = as_nobody(std::env::current_exe().unwrap(), env)
        .args([
            "--exact",
            "serve_discovery::discovery_client",
            "--ignored",
            "--nocapture",
            "--quiet",
        ])
        .env("UK_DISCOVERY_HELPER", "1")
        .output()
        .unwrap();
    let out = text(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.starts_with("PID ") || l.starts_with("ERR "))
        .unwrap_or_else(|| panic!("no answer from the helper: {out} {}", text(&o.stderr)));
    line.to_string()
}

/// A running server and its collected standard error.
struct Served {
    child: Child,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Served {
    fn start(mut c: Command, sock: &Path) -> Served {
        let mut child = c
            .env_remove("LISTEN_FDS")
            .env_remove("LISTEN_PID")
            .env_remove("NOTIFY_SOCKET")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let t = Instant::now();
        loop {
            // Root trusts a server run by root or by nobody here.
            let conn = Connection::connect_trusting(sock, Duration::from_secs(5), Some(OTHER_UID));
            if let Ok(mut conn) = conn {
                if conn.info().is_ok_and(|i| i.pid == child.id()) {
                    break;
                }
            }
            if let Ok(Some(st)) = child.try_wait() {
                let mut e = String::new();
                let _ = child.stderr.take().unwrap().read_to_string(&mut e);
                panic!("uuidkit serve exited with {st}: {e}");
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "uuidkit serve did not answer on {}",
                sock.display()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut e = String::new();
            let _ = err.read_to_string(&mut e);
            e
        });
        Served {
            child,
            stderr: Some(stderr),
        }
    }

    /// SIGTERM, then the exit code and standard error.
    fn stop(mut self) -> (Option<i32>, String) {
        // SAFETY: kill only sends a signal to our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let st = self.child.wait().unwrap();
        (st.code(), self.stderr.take().unwrap().join().unwrap())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn mode(p: &Path) -> u32 {
    fs::symlink_metadata(p).unwrap().mode() & 0o7777
}

#[test]
#[ignore = "needs root and a private /run: scripts/root-tests runs it"]
fn root_every_user_finds_the_system_socket_and_prefers_their_own() {
    if !is_root() {
        panic!(
            "not root: this test runs a server on {SYSTEM_SOCKET} and clients as nobody; it \
             fails rather than pass unchecked"
        );
    }
    common::require_private_run(SYSTEM_SOCKET);
    let system = Path::new(SYSTEM_SOCKET);
    let d = TempDir::new();
    fs::set_permissions(&d.0, fs::Permissions::from_mode(0o755)).unwrap();

    // Root's server with no --socket: the system socket, mode 0666, in a directory every user
    // may pass through.
    let mut c = Command::new(BIN);
    c.args(["serve", "--state"]).arg(d.path("state"));
    let root_server = Served::start(c, system);
    let root_pid = root_server.child.id();
    eprintln!(
        "{SYSTEM_SOCKET}: mode {:04o}, directory mode {:04o}",
        mode(system),
        mode(system.parent().unwrap())
    );
    assert_eq!(mode(system) & 0o777, 0o666);
    assert_eq!(mode(system.parent().unwrap()) & 0o005, 0o005);

    // nobody, with nothing set: the CLI and the library find it.
    let o = as_nobody(BIN, &[])
        .args(["gen", "v7", "--system", "-C", "3"])
        .output()
        .unwrap();
    eprintln!(
        "nobody, no environment: gen v7 --system -C 3: status {:?}\n{}{}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).lines().count(), 3);
    assert_eq!(discovered(&[]), format!("PID {root_pid}"));

    // nobody with an XDG_RUNTIME_DIR that holds no socket: on to the system socket.
    let xdg = d.path("xdg");
    fs::create_dir(&xdg).unwrap();
    std::os::unix::fs::chown(&xdg, Some(OTHER_UID), Some(OTHER_UID)).unwrap();
    fs::set_permissions(&xdg, fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(
        discovered(&[("XDG_RUNTIME_DIR", &xdg)]),
        format!("PID {root_pid}")
    );

    // nobody's own server in its XDG_RUNTIME_DIR (default socket there, 0600): preferred.
    let user_sock = xdg.join("uuidkit.sock");
    let mut c = as_nobody(BIN, &[("XDG_RUNTIME_DIR", &xdg)]);
    c.args(["serve", "--state"]).arg(xdg.join("state"));
    let user_server = Served::start(c, &user_sock);
    let user_pid = user_server.child.id();
    assert_eq!(mode(&user_sock) & 0o777, 0o600);
    assert_eq!(
        discovered(&[("XDG_RUNTIME_DIR", &xdg)]),
        format!("PID {user_pid}")
    );
    // UUIDKIT_SOCKET comes first of all.
    assert_eq!(
        discovered(&[("XDG_RUNTIME_DIR", &xdg), ("UUIDKIT_SOCKET", system)]),
        format!("PID {root_pid}")
    );

    // Clean stops: nothing of either server is left but the state files.
    let (code, err) = user_server.stop();
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = root_server.stop();
    assert_eq!(code, Some(0), "{err}");
    let left: Vec<_> = fs::read_dir(system.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("uuidkit.sock"))
        .collect();
    assert!(left.is_empty(), "left in /run/uuidkit: {left:?}");
    let mut in_xdg: Vec<_> = fs::read_dir(&xdg)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    in_xdg.sort();
    assert_eq!(in_xdg, ["state"]);

    // Nobody answers anywhere: the error names every place tried.
    let none = d.path("none.sock");
    let o = as_nobody(BIN, &[("XDG_RUNTIME_DIR", &xdg), ("UUIDKIT_SOCKET", &none)])
        .args(["gen", "v7", "--system"])
        .output()
        .unwrap();
    let err = text(&o.stderr);
    eprintln!("no service: status {:?}: {err}", o.status.code());
    assert_eq!(o.status.code(), Some(2), "{err}");
    for p in [none.as_path(), &user_sock, system] {
        assert!(
            err.contains(&p.display().to_string()),
            "{p:?} not in: {err}"
        );
    }
}

/// A socket every user may connect to (mode 0666) in a directory others cannot pass through
/// is served, with a warning saying why others will not reach it; in a 0755 directory, none.
#[test]
fn a_world_connectable_socket_in_a_private_directory_is_warned_about() {
    let d = TempDir::new();
    for (dir_mode, warned) in [(0o700, true), (0o755, false)] {
        let dir = d.path(&format!("d{dir_mode:o}"));
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(dir_mode)).unwrap();
        let o = Command::new(BIN)
            .args(["serve", "--mode", "666", "--idle-exit", "1", "--socket"])
            .arg(dir.join("s.sock"))
            .arg("--state")
            .arg(dir.join("state"))
            .env_remove("LISTEN_FDS")
            .env_remove("LISTEN_PID")
            .env_remove("NOTIFY_SOCKET")
            .output()
            .unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert_eq!(
            err.contains("does not let other users reach it"),
            warned,
            "directory mode {dir_mode:o}: {err}"
        );
    }
}

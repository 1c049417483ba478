//! `uuidkit serve`: the system-wide generator service (RFC 9562 §6.3). The server itself is
//! in the library ([`uuidkit_service::server`]); this command resolves the paths and options,
//! opens the state, logs to standard error, and runs in the foreground until SIGTERM, SIGINT,
//! SIGHUP or SIGQUIT. The signal handlers are installed first: a stop signal during start-up
//! (including the catch-up wait after an unclean shutdown, which is logged before it starts
//! and ends early on a signal) stops the service cleanly instead of killing it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use uuidkit_service::client::default_server_socket;
use uuidkit_service::server::uuidd::UUIDD_SOCKET_PATH;
use uuidkit_service::server::{self, InstanceLock, Server, ServerConfig};
use uuidkit_service::state::{
    default_state_path, DurableGenerator, StateErrorKind, StateOptions, StateWarning,
};

use super::inspect::node_text;
use crate::args::{usage_error, ServeArgs};
use crate::io::{CmdResult, Fatal, Status};

/// What `serve` does, resolved from the flags.
pub struct Config {
    socket: PathBuf,
    state: PathBuf,
    /// Create the socket's directory (default path only).
    make_socket_dir: bool,
    /// Create the state file's directory (default path only).
    make_state_dir: bool,
    mode: u32,
    group: Option<u32>,
    strict: bool,
    reserve: Duration,
    max_connections: usize,
    max_per_user: Option<usize>,
    timeout: Duration,
    verbose: bool,
    /// util-linux uuidd's protocol on this socket too, if given.
    uuidd_socket: Option<PathBuf>,
}

fn usage(msg: impl std::fmt::Display) -> clap::Error {
    usage_error(&["serve"], msg)
}

/// The path given, or the default one (and `true`: its directory may be created), or a usage
/// error saying why there is no default.
fn given_or_default(
    given: Option<PathBuf>,
    default: fn() -> Option<PathBuf>,
    none: &str,
) -> Result<(PathBuf, bool), clap::Error> {
    match given {
        Some(p) => Ok((p, false)),
        None => default().map(|p| (p, true)).ok_or_else(|| usage(none)),
    }
}

impl Config {
    /// Resolves paths and checks values.
    pub fn resolve(a: ServeArgs) -> Result<Config, clap::Error> {
        let (socket, make_socket_dir) = given_or_default(
            a.socket,
            default_server_socket,
            "no default socket: XDG_RUNTIME_DIR is not set; give --socket PATH",
        )?;
        let (state, make_state_dir) = given_or_default(
            a.state,
            default_state_path,
            "no default state file: neither XDG_STATE_HOME nor HOME is set; give --state PATH",
        )?;
        let group = match &a.group {
            Some(g) => Some(server::group_id(g).map_err(|e| usage(format_args!("--group: {e}")))?),
            None => None,
        };
        let mode = match &a.mode {
            Some(m) => match u32::from_str_radix(m, 8) {
                Ok(v) if v <= 0o777 => v,
                _ => {
                    return Err(usage(format_args!(
                        "--mode {m:?}: expected octal permission bits such as 600 or 660"
                    )))
                }
            },
            None if group.is_some() => 0o660,
            None => 0o600,
        };
        if !(1..=3_600_000).contains(&a.reserve) {
            return Err(usage(format_args!(
                "--reserve {}: expected 1 to 3600000 milliseconds",
                a.reserve
            )));
        }
        if a.timeout == 0 {
            return Err(usage("--timeout 0: expected at least 1 second"));
        }
        if a.max_connections == 0 {
            return Err(usage("--max-connections 0: expected at least 1"));
        }
        if a.max_connections_per_user == Some(0) {
            return Err(usage("--max-connections-per-user 0: expected at least 1"));
        }
        Ok(Config {
            socket,
            state,
            make_socket_dir,
            make_state_dir,
            mode,
            group,
            strict: a.strict,
            reserve: Duration::from_millis(a.reserve),
            max_connections: a.max_connections,
            max_per_user: a.max_connections_per_user,
            timeout: Duration::from_secs(a.timeout),
            verbose: a.verbose,
            uuidd_socket: a.uuidd_socket,
        })
    }
}

fn log(msg: &str) {
    eprintln!("uuidkit serve: {msg}");
}

/// Logs the catch-up wait before it starts.
fn log_wait(w: &StateWarning) {
    log(&format!("{w}; SIGTERM stops the wait"));
}

/// Whether a stop signal has arrived (polled by the catch-up wait).
fn stop_requested() -> bool {
    server::received_signal().is_some()
}

/// The name of the signal that stopped the service.
fn signal_name() -> &'static str {
    // The numbers POSIX (XSI) fixes for these signals.
    match server::received_signal() {
        Some(15) => "SIGTERM",
        Some(2) => "SIGINT",
        Some(1) => "SIGHUP",
        Some(3) => "SIGQUIT",
        Some(_) => "a signal",
        None => "request",
    }
}

fn make_dir(dir: Option<&Path>, mode: u32) -> Result<(), Fatal> {
    use std::os::unix::fs::DirBuilderExt;
    let Some(dir) = dir.filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(mode)
        .create(dir)
        .map_err(|e| Fatal::Msg(format!("cannot create directory {}: {e}", dir.display())))
}

/// Runs the service until a signal stops it.
pub fn run(c: Config) -> CmdResult {
    // First of all: a stop signal from here on is recorded, not fatal (the start may wait for
    // the clock), and a file-size limit must fail writes, not kill the server.
    server::catch_stop_signals().map_err(|e| Fatal::Msg(e.to_string()))?;
    if c.make_socket_dir {
        make_dir(c.socket.parent(), 0o755)?;
    }
    if c.make_state_dir {
        make_dir(c.state.parent(), 0o700)?;
    }
    if let Some(u) = &c.uuidd_socket {
        // The default path's directory, as uuidd's package makes it (0755), where missing.
        if u.as_path() == Path::new(UUIDD_SOCKET_PATH) && u.parent().is_some_and(|d| !d.exists()) {
            make_dir(u.parent(), 0o755)?;
        }
        server::check_socket_path(u).map_err(|e| Fatal::Msg(e.to_string()))?;
    }
    // A path no client could reach, or a directory where others could take the socket's
    // place: refused before anything is created.
    server::check_socket_path(&c.socket).map_err(|e| Fatal::Msg(e.to_string()))?;
    // The socket's lock first: a second server must fail before it touches the state file.
    let lock = InstanceLock::acquire(&c.socket).map_err(|e| Fatal::Msg(e.to_string()))?;
    let opts = StateOptions::new()
        .strict(c.strict)
        .reserve(c.reserve)
        .on_wait(log_wait)
        .interrupt_wait(stop_requested);
    let gen = match DurableGenerator::open(&c.state, opts) {
        Ok(g) => g,
        Err(e) if e.kind() == StateErrorKind::Interrupted => {
            log(&format!(
                "stopped by {} during start-up: {e}",
                signal_name()
            ));
            return Ok(Status::Ok);
        }
        Err(e) => return Err(Fatal::Msg(e.to_string())),
    };
    for w in gen.warnings() {
        log(&format!("warning: {w}"));
    }
    let durable = gen.is_durable();
    let (seq, node) = (gen.clock_seq(), gen.node());
    let mut cfg = ServerConfig::new(&c.socket)
        .mode(c.mode)
        .max_connections(c.max_connections)
        .timeout(c.timeout)
        .verbose(c.verbose)
        .log(log);
    if let Some(g) = c.group {
        cfg = cfg.group(g);
    }
    if let Some(n) = c.max_per_user {
        cfg = cfg.max_connections_per_user(n);
    }
    if let Some(u) = &c.uuidd_socket {
        cfg = cfg.uuidd_socket(u);
    }
    let server = Server::bind_locked(cfg, lock, gen).map_err(|e| Fatal::Msg(e.to_string()))?;
    server
        .stop_on_signals()
        .map_err(|e| Fatal::Msg(e.to_string()))?;
    log(&format!(
        "listening on {} (mode {:03o}), state {}{}, clock sequence {seq:#06x}, node {}, pid {}",
        c.socket.display(),
        c.mode,
        c.state.display(),
        if durable {
            ""
        } else {
            " (NOT writable: UUIDs are not durable)"
        },
        String::from_utf8_lossy(&node_text(&node)),
        std::process::id()
    ));
    if let Some(u) = &c.uuidd_socket {
        log(&format!(
            "serving util-linux uuidd clients on {} (mode 666)",
            u.display()
        ));
    }
    let result = server.run();
    let why = signal_name();
    match result {
        Ok(s) => {
            log(&format!(
                "stopped by {why} after {} connections; state written",
                s.connections
            ));
            Ok(Status::Ok)
        }
        Err(e) => Err(Fatal::Msg(format!("stopped by {why}: {e}"))),
    }
}

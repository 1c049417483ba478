//! `uuidkit serve`: the system-wide generator service (RFC 9562 §6.3). The server itself is
//! in the library ([`uuidkit_service::server`]); this command resolves the paths and options,
//! takes the listeners a service manager passed (socket activation), opens the state, logs to
//! standard error, tells the service manager where it stands (`NOTIFY_SOCKET`), and runs in
//! the foreground until SIGTERM, SIGINT, SIGHUP or SIGQUIT, or until it has been idle for
//! `--idle-exit`. The signal handlers are installed first: a stop signal during start-up
//! (including the catch-up wait after an unclean shutdown, which is logged before it starts
//! and ends early on a signal) stops the service cleanly instead of killing it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use uuidkit_service::client::{default_server_socket, SYSTEM_SOCKET};
use uuidkit_service::server::uuidd::UUIDD_SOCKET_PATH;
use uuidkit_service::server::{self, InstanceLock, Notifier, Server, ServerConfig};
use uuidkit_service::state::{
    default_state_path, DurableGenerator, StateErrorKind, StateOptions, StateWarning,
};

use super::inspect::node_text;
use crate::args::{usage_error, ServeArgs};
use crate::io::{CmdResult, Fatal, Status};

/// What `serve` does, resolved from the flags.
pub struct Config {
    /// `--socket`, if given.
    socket: Option<PathBuf>,
    state: PathBuf,
    /// Create the state file's directory (default path only).
    make_state_dir: bool,
    /// `--mode`, if given.
    mode: Option<u32>,
    group: Option<u32>,
    strict: bool,
    reserve: Duration,
    max_connections: usize,
    max_per_user: Option<usize>,
    timeout: Duration,
    idle_exit: Option<Duration>,
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
                Ok(v) if v <= 0o777 => Some(v),
                _ => {
                    return Err(usage(format_args!(
                        "--mode {m:?}: expected octal permission bits such as 600 or 660"
                    )))
                }
            },
            None => None,
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
        if a.idle_exit == Some(0) {
            return Err(usage("--idle-exit 0: expected at least 1 second"));
        }
        Ok(Config {
            socket: a.socket,
            state,
            make_state_dir,
            mode,
            group,
            strict: a.strict,
            reserve: Duration::from_millis(a.reserve),
            max_connections: a.max_connections,
            max_per_user: a.max_connections_per_user,
            timeout: Duration::from_secs(a.timeout),
            idle_exit: a.idle_exit.map(Duration::from_secs),
            verbose: a.verbose,
            uuidd_socket: a.uuidd_socket,
        })
    }
}

/// The socket's default permissions: every local user may connect to the system socket (as
/// to uuidd's), only the owner to any other; with `--group`, its members too.
fn default_mode(socket: &Path, group: bool) -> u32 {
    match (socket == Path::new(SYSTEM_SOCKET), group) {
        (true, false) => 0o666,
        (_, true) => 0o660,
        (false, false) => 0o600,
    }
}

/// Logs a warning when a socket meant for every user (its mode lets others connect) sits in a
/// directory others cannot pass through (such as a /run/uuidkit made 0700 by hand).
fn warn_if_unreachable_by_others(socket: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    if mode & 0o006 == 0 {
        return;
    }
    let Some(dir) = socket.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return;
    };
    if let Ok(m) = std::fs::metadata(dir) {
        let dmode = m.permissions().mode() & 0o7777;
        if dmode & 0o001 == 0 {
            log(&format!(
                "warning: the socket's mode {mode:03o} lets every user connect, but its \
                 directory {} (mode {dmode:04o}) does not let other users reach it \
                 (chmod o+x it, or give --mode/--group)",
                dir.display()
            ));
        }
    }
}

/// Where notices for the service manager go (`$NOTIFY_SOCKET`), set once at the start.
static NOTIFIER: OnceLock<Notifier> = OnceLock::new();

/// Sends a notice to the service manager, if there is one; a failure is logged.
fn notify(state: &str) {
    if let Some(n) = NOTIFIER.get() {
        if let Err(e) = n.notify(state) {
            log(&format!("cannot notify the service manager: {e}"));
        }
    }
}

fn log(msg: &str) {
    eprintln!("uuidkit serve: {msg}");
}

/// Logs the catch-up wait before it starts.
fn log_wait(w: &StateWarning) {
    log(&format!("{w}; SIGTERM stops the wait"));
    notify("STATUS=waiting for the clock to pass the last run's reservation (unclean stop)");
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

/// Creates `dir` (and its parents) if missing, the last one with exactly `mode` (whatever the
/// umask: the system socket's directory must let every user through).
fn make_dir(dir: Option<&Path>, mode: u32) -> Result<(), Fatal> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let Some(dir) = dir.filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    if dir.is_dir() {
        return Ok(());
    }
    let fail =
        |e: std::io::Error| Fatal::Msg(format!("cannot create directory {}: {e}", dir.display()));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(mode)
        .create(dir)
        .map_err(fail)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).map_err(fail)
}

/// Runs the service until a signal stops it, or it has been idle for `--idle-exit`.
pub fn run(c: Config) -> CmdResult {
    // First of all: a stop signal from here on is recorded, not fatal (the start may wait for
    // the clock), and a file-size limit must fail writes, not kill the server.
    server::catch_stop_signals().map_err(|e| Fatal::Msg(e.to_string()))?;
    // The service manager's variables, read and removed from the environment while this is
    // the only thread.
    let _ = NOTIFIER.set(Notifier::from_env());
    let inherited = server::activation_listeners().map_err(|e| Fatal::Msg(e.to_string()))?;
    // The socket of its own: the one given; else, unless the service manager passed the
    // listeners, the default one (its directory is created).
    let socket = match (c.socket, inherited.is_empty()) {
        (Some(p), _) => Some(p),
        (None, false) => None,
        (None, true) => {
            let p = default_server_socket().ok_or_else(|| {
                Fatal::Msg(
                    "serve: no default socket: XDG_RUNTIME_DIR is not set; give --socket PATH"
                        .to_string(),
                )
            })?;
            make_dir(p.parent(), 0o755)?;
            Some(p)
        }
    };
    if c.make_state_dir {
        make_dir(c.state.parent(), 0o700)?;
    }
    if let Some(u) = &c.uuidd_socket {
        // The default path's directory, as uuidd's package makes it (0755), where missing.
        if u.as_path() == Path::new(UUIDD_SOCKET_PATH) {
            make_dir(u.parent(), 0o755)?;
        }
        server::check_socket_path(u).map_err(|e| Fatal::Msg(e.to_string()))?;
    }
    // A path no client could reach, or a directory where others could take the socket's
    // place: refused before anything is created. Then the socket's lock: a second server must
    // fail before it touches the state file.
    let lock = match &socket {
        Some(p) => {
            server::check_socket_path(p).map_err(|e| Fatal::Msg(e.to_string()))?;
            Some(InstanceLock::acquire(p).map_err(|e| Fatal::Msg(e.to_string()))?)
        }
        None => None,
    };
    let opts = StateOptions::new()
        .strict(c.strict)
        .reserve(c.reserve)
        .on_wait(log_wait)
        .interrupt_wait(stop_requested);
    let g = match DurableGenerator::open(&c.state, opts) {
        Ok(g) => g,
        Err(e) if e.kind() == StateErrorKind::Interrupted => {
            notify("STOPPING=1\nSTATUS=stopped during start-up; state file left as it was");
            log(&format!(
                "stopped by {} during start-up: {e}",
                signal_name()
            ));
            return Ok(Status::Ok);
        }
        Err(e) => return Err(Fatal::Msg(e.to_string())),
    };
    for w in g.warnings() {
        log(&format!("warning: {w}"));
    }
    let durable = g.is_durable();
    let (seq, node) = (g.clock_seq(), g.node());
    let mut cfg = match &socket {
        Some(p) => {
            let mode = c.mode.unwrap_or_else(|| default_mode(p, c.group.is_some()));
            ServerConfig::new(p).mode(mode)
        }
        None => ServerConfig::without_socket(),
    };
    cfg = cfg
        .max_connections(c.max_connections)
        .timeout(c.timeout)
        .verbose(c.verbose)
        .notify(NOTIFIER.get().cloned().unwrap_or_default())
        .log(log);
    if let Some(g) = c.group {
        cfg = cfg.group(g);
    }
    if let Some(n) = c.max_per_user {
        cfg = cfg.max_connections_per_user(n);
    }
    if let Some(t) = c.idle_exit {
        cfg = cfg.idle_exit(t);
    }
    if let Some(u) = &c.uuidd_socket {
        cfg = cfg.uuidd_socket(u);
    }
    let mode = socket
        .as_deref()
        .map(|p| c.mode.unwrap_or_else(|| default_mode(p, c.group.is_some())));
    let server =
        Server::bind_with(cfg, lock, inherited, g).map_err(|e| Fatal::Msg(e.to_string()))?;
    server
        .stop_on_signals()
        .map_err(|e| Fatal::Msg(e.to_string()))?;
    log(&format!(
        "listening on {}{}, state {}{}, clock sequence {seq:#06x}, node {}, pid {}{}",
        server.describe_listeners(),
        mode.map_or(String::new(), |m| match &c.uuidd_socket {
            // The uuidd socket's mode is in the list; say which one this is.
            Some(_) => format!(" (uuidkit socket mode {m:03o})"),
            None => format!(" (mode {m:03o})"),
        }),
        c.state.display(),
        if durable {
            ""
        } else {
            " (NOT writable: UUIDs are not durable)"
        },
        String::from_utf8_lossy(&node_text(&node)),
        std::process::id(),
        c.idle_exit.map_or(String::new(), |t| format!(
            ", exits after {}s idle",
            t.as_secs()
        ))
    ));
    if let (Some(p), Some(m)) = (&socket, mode) {
        warn_if_unreachable_by_others(p, m);
    }
    let result = server.run();
    match result {
        Ok(s) if s.idle_exit => {
            log(&format!(
                "stopped after {} s without connections, {} connections served; state written",
                c.idle_exit.map_or(0, |t| t.as_secs()),
                s.connections
            ));
            Ok(Status::Ok)
        }
        Ok(s) => {
            log(&format!(
                "stopped by {} after {} connections; state written",
                signal_name(),
                s.connections
            ));
            Ok(Status::Ok)
        }
        Err(e) => Err(Fatal::Msg(format!("stopped by {}: {e}", signal_name()))),
    }
}

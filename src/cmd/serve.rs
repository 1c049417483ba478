//! `uuidkit serve`: the system-wide generator service (RFC 9562 §6.3). The server itself is
//! in the library ([`uuidkit_service::server`]); this command resolves the paths and options,
//! opens the state, logs to standard error, and runs in the foreground until SIGTERM/SIGINT.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use uuidkit_service::client::default_server_socket;
use uuidkit_service::server::{self, InstanceLock, Server, ServerConfig};
use uuidkit_service::state::{default_state_path, DurableGenerator, StateOptions};

use super::inspect::node_text;
use crate::io::{CmdResult, Fatal, Status};

const SERVE_HELP: &str = "\
What it does:
  Hands out v1, v6 and v7 UUIDs over a Unix socket so that every UUID issued on the machine is
  unique and, per version, increasing in the order requests are served. The generator state
  (v1/v6 timestamp, clock sequence and node; v7 millisecond and counter) is kept in the state
  file, written ahead (a reservation --reserve ahead of the clock, renewed twice per reserve
  under load) and atomically, so that a crash or kill -9 at any moment cannot make a UUID
  repeat, and every v7 after a restart is greater than all before it.

  Runs in the foreground only (--foreground is accepted and changes nothing): start it from
  systemd or another supervisor. Logs go to standard error. SIGTERM and SIGINT write the exact
  state and exit with status 0 (2 if that last write failed). After an unclean shutdown, the
  start waits until the clock passes the last run's v7 reservation (at most --reserve + 1 s),
  so that repeated crashes do not push v7 timestamps ahead of the clock.

  One server per socket: a second one fails at once; a stale socket left by a killed server
  (connecting is refused) is replaced. One process per state file: a second one fails at once.

Defaults:
  --socket  $XDG_RUNTIME_DIR/uuidkit.sock; for root /run/uuidkit/uuidkit.sock
  --state   $XDG_STATE_HOME/uuidkit/state (else ~/.local/state/uuidkit/state);
            for root /var/lib/uuidkit/state
  Directories of the default paths are created (0755 for the socket's, 0700 for the state's).

State file problems:
  Missing, unreadable, corrupt, or writable by others: a warning, a new random clock sequence,
  and the server starts. With --strict it refuses to start instead (a missing file is still
  accepted as the first start). A symbolic link is never followed: an error either way.
  When the state file cannot be written, UUIDs are still served but marked not durable in the
  reply (`uuidkit gen --system` then warns); with --strict they are refused instead.

Clients:
  uuidkit gen v7 --system -C 10         ten v7 UUIDs from the service
  UUIDKIT_SOCKET=/path/to.sock uuidkit gen v1 --system
  The protocol is described in DESIGN.md, section The wire protocol.

Examples:
  uuidkit serve --foreground
  uuidkit serve --socket /run/uuidkit/uuidkit.sock --group uuidkit --state /var/lib/uuidkit/state";

/// `uuidkit serve`.
#[derive(Debug, Args)]
#[command(after_help = SERVE_HELP)]
pub struct ServeArgs {
    /// The Unix socket to listen on.
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// The state file.
    #[arg(long, value_name = "PATH")]
    pub state: Option<PathBuf>,
    /// The socket's permissions in octal [default: 600, or 660 with --group].
    #[arg(long, value_name = "OCTAL")]
    pub mode: Option<String>,
    /// The group (name or number) given the socket, so that its members may connect.
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
    /// Stay in the foreground, logging to standard error (the only mode there is).
    #[arg(long)]
    pub foreground: bool,
    /// Strict safety: refuse to start on an unreadable or corrupt state file, and never hand
    /// out a UUID the state file does not cover.
    #[arg(long)]
    pub strict: bool,
    /// How far ahead of the clock the state file reserves, in milliseconds (1 to 3600000).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub reserve: u64,
    /// The most connections open at once; more are refused with a "busy" reply.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// Per-connection read and write timeout, in seconds: idle or stalled connections are
    /// closed after it.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
    /// Log every connection and every rejected request.
    #[arg(short, long)]
    pub verbose: bool,
}

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
    timeout: Duration,
    verbose: bool,
}

fn usage(msg: impl std::fmt::Display) -> clap::Error {
    super::usage_error(&["serve"], msg)
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
            timeout: Duration::from_secs(a.timeout),
            verbose: a.verbose,
        })
    }
}

fn log(msg: &str) {
    eprintln!("uuidkit serve: {msg}");
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
    // Before any file is written: a file-size limit must fail writes, not kill the server.
    server::ignore_file_size_signal().map_err(|e| Fatal::Msg(e.to_string()))?;
    if c.make_socket_dir {
        make_dir(c.socket.parent(), 0o755)?;
    }
    if c.make_state_dir {
        make_dir(c.state.parent(), 0o700)?;
    }
    // The socket's lock first: a second server must fail before it touches the state file.
    let lock = InstanceLock::acquire(&c.socket).map_err(|e| Fatal::Msg(e.to_string()))?;
    let opts = StateOptions::new().strict(c.strict).reserve(c.reserve);
    let gen = DurableGenerator::open(&c.state, opts).map_err(|e| Fatal::Msg(e.to_string()))?;
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
    let result = server.run();
    let why = match server::received_signal() {
        Some(15) => "SIGTERM",
        Some(2) => "SIGINT",
        Some(_) => "a signal",
        None => "request",
    };
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

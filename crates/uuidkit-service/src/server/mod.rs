//! The server behind `uuidkit serve`: a Unix socket, one thread per connection, and one
//! [`DurableGenerator`](crate::state::DurableGenerator) behind a mutex, so that requests are
//! served one after another and every UUID issued on the machine is unique and, per version,
//! increasing in the order requests are served (RFC 9562 §6.3 "system-wide shared volatile store").
//!
//! # Why threads
//!
//! A connection costs a thread with a 64 KiB stack while it is open; an idle one sleeps in
//! `read` and never holds the generator, so it cannot delay anyone else. A thread whose
//! connection ends waits up to 10 s for the next one (at most 32 such threads), so that
//! clients that connect once per request do not pay a thread start each time. Connections beyond
//! [`max_connections`](ServerConfig::max_connections) get a
//! [`Status::Busy`](crate::protocol::Status::Busy) reply and are closed. Each read and write
//! has a [timeout](ServerConfig::timeout): a client that sends half a frame, or does not read
//! its reply, loses its connection.
//!
//! # One user cannot move the clock
//!
//! Every v1/v6 timestamp handed out — one UUID of a batch, each one of a range reply, of a
//! uuidd bulk time block — takes one 100-ns tick of the one machine-wide timeline, which the
//! state file keeps across restarts. Taken faster than the clock advances, the timeline runs
//! ahead of the clock and every user's v1/v6 carry wrong times. So each peer user id (root
//! too; the kernel's peer credentials say who) has a budget of [`TICK_BURST`] timestamps (1 s
//! of them), refilled at the clock's speed (ten million a second, on the monotonic clock): a
//! request is charged before it is served and, when the budget is spent, waits until the
//! clock has caught up with it (the reply comes in full, later). A large request (more than
//! [`SMALL_TICKS`]) that would take the debt beyond [`MAX_DEBT`] (1 s) waits for room; a small
//! one is charged up to [`MAX_WAIT`] (3 s) of debt, so that a single UUID is not starved by a
//! stream of large ones. A request that cannot be served within [`MAX_WAIT`] (or the
//! connection's [timeout](ServerConfig::timeout), if shorter) is refused: a
//! [`Status::Busy`](crate::protocol::Status::Busy) reply saying why (the connection is then
//! closed), or on the uuidd socket a close without a reply (libuuid then generates on its
//! own). So all the connections of one user together move the timeline at most 1 s ahead of
//! where it would be without them, whatever they ask; a single request of that user is
//! served once its debt is paid (within 1 s of debt from large requests, 3 s at most). v7 has no such budget: a v7 range or batch takes counter values
//! within one millisecond, not milliseconds. Several users at full speed each get the
//! clock's speed: the bound is per user, not per machine (a limit on the machine would let one
//! user starve everyone).
//!
//! # One instance per socket
//!
//! [`Server::bind`] takes an exclusive `flock` on `SOCKET.lock` and keeps it. If the socket
//! path exists it must be a socket nobody listens on (`connect` fails with `ECONNREFUSED`): a
//! stale one left by a killed server, which is replaced. Anything else there is left alone and
//! is an error. The socket is created in a private (0700) directory next to the final path,
//! given its mode and group, and renamed into place, so that it is never reachable with other
//! permissions.
//!
//! # Listeners passed by a service manager
//!
//! [`activation_listeners`] takes the sockets systemd passed (socket activation,
//! `LISTEN_FDS`), checked strictly, each with its [`ListenerKind`] from its name: `uuidd` for
//! util-linux uuidd's protocol, anything else uuidkit's. [`Server::bind_with`] serves them,
//! with or without a socket of its own ([`ServerConfig::without_socket`]), and never removes
//! them. [`ServerConfig::notify`] sends READY=1, STATUS= and STOPPING=1 to the service
//! manager ([`Notifier`], `NOTIFY_SOCKET`); [`ServerConfig::idle_exit`] stops the server by
//! itself once no connection has been open for a while.
//!
//! # Shutting down
//!
//! [`ShutdownHandle::shutdown`] (or SIGTERM, SIGINT, SIGHUP or SIGQUIT after
//! [`Server::stop_on_signals`]; [`catch_stop_signals`] installs the handler earlier; or the
//! idle exit) wakes the accept loop through a socket pair, which sends STOPPING=1, stops
//! accepting, removes the socket file it created, writes the exact state
//! ([`DurableGenerator::shut_down`](crate::state::DurableGenerator::shut_down), which also
//! removes the state's lock file), closes the connections, and last releases the instance
//! lock and removes `SOCKET.lock`: a clean stop leaves only the state file.
//!
//! ```
//! use std::time::Duration;
//! use uuidkit_service::client::Connection;
//! use uuidkit_service::server::{is_socket, Server, ServerConfig};
//! use uuidkit_service::state::{DurableGenerator, StateOptions, TimeVersion};
//! # let dir = std::env::temp_dir().join(format!("uk-doc-{}-server", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! let sock = dir.join("uuidkit.sock");
//! let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
//! let server = Server::bind(ServerConfig::new(&sock), g)?;
//! let stop = server.shutdown_handle();
//! let running = std::thread::spawn(move || server.run());
//!
//! let mut c = Connection::connect(&sock, Duration::from_secs(5))?;
//! let mut out = Vec::new();
//! c.generate(TimeVersion::V6, 3, &mut out)?;
//! assert!(out.len() == 3 && out[0] < out[1] && out[1] < out[2]);
//!
//! stop.shutdown();
//! running.join().map_err(|_| "server thread panicked")??; // Ok: the state was written
//! assert!(!is_socket(&sock));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Source layout
//!
//! By concern, each file calling only the ones listed after it: `listener.rs` (binding, the accept
//! loop, the idle exit, shutdown), `uuidd.rs` (util-linux uuidd's protocol on listeners of that
//! kind: [`ServerConfig::uuidd_socket`], or passed by a service manager), `connection.rs` (admission, one thread per connection, serving requests),
//! `pool.rs` (threads waiting for the next connection), `instance.rs` (the instance lock),
//! `socket.rs` (the socket file and its permissions), `signals.rs`, `config.rs`, `notify.rs`
//! (notices to the service manager), `activation.rs` (listeners a service manager passed, and
//! their kinds), `log.rs`, `error.rs`.

mod activation;
mod budget;
mod config;
mod connection;
mod error;
mod instance;
mod listener;
mod log;
mod notify;
mod pool;
mod signals;
mod socket;
pub mod uuidd;

pub use activation::{activation_listeners, Listener, ListenerKind};
pub use budget::{MAX_DEBT, MAX_WAIT, SMALL_TICKS, TICK_BURST};
pub use config::ServerConfig;
pub use error::ServerError;
pub use instance::InstanceLock;
pub use listener::{RunSummary, Server, ShutdownHandle};
pub use notify::{Notifier, NOTIFY_SOCKET_ENV};
pub use signals::{catch_stop_signals, ignore_file_size_signal, received_signal};
pub use socket::{check_socket_path, group_id, is_socket};

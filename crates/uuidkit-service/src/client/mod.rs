//! Clients of `uuidkit serve`: one blocking [`Connection`], and the [`SystemGenerator`] that
//! caches a block of UUIDs per process (RFC 9562 §6.3) and falls back to the in-process
//! generators when the service cannot be reached.
//!
//! Without a socket given, a client tries `$UUIDKIT_SOCKET`, the per-user socket
//! (`$XDG_RUNTIME_DIR/uuidkit.sock`) and the system socket ([`SYSTEM_SOCKET`]) in that order,
//! whoever runs it ([`default_sockets`]), and uses the first that answers.
//!
//! ```
//! use uuidkit_service::client::{ClientConfig, Source, SystemGenerator};
//! use uuidkit_service::state::{Safety, TimeVersion};
//! # use uuidkit_service::server::{Server, ServerConfig};
//! # use uuidkit_service::state::{DurableGenerator, StateOptions};
//! # let dir = std::env::temp_dir().join(format!("uk-doc-{}-client", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let sock = dir.join("s.sock");
//! # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
//! # let server = Server::bind(ServerConfig::new(&sock), g)?;
//! # let stop = server.shutdown_handle();
//! # let running = std::thread::spawn(move || server.run());
//! // `sock` is where `uuidkit serve` listens (here: a server run by this process).
//! let g = SystemGenerator::new(ClientConfig::new(&sock).block(1));
//! let a = g.next(TimeVersion::V7)?;
//! assert_eq!((a.source, a.safety), (Source::Service, Safety::Durable));
//! // Once the service is gone, the in-process generator takes over.
//! stop.shutdown();
//! # running.join().map_err(|_| "server thread panicked")??;
//! let b = g.next(TimeVersion::V7)?;
//! assert_eq!((b.source, b.safety), (Source::Local, Safety::Volatile));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Source layout
//!
//! By concern, each file calling only the ones listed after it: `system.rs` (the
//! [`SystemGenerator`]: cache, fork, fallback), `connection.rs` (one [`Connection`]: framing and
//! checks), `connect.rs` (connecting within a time limit), `config.rs` (socket discovery and
//! [`ClientConfig`]), `error.rs`.

mod config;
mod connect;
mod connection;
mod error;
mod system;

pub use config::{
    default_server_socket, default_socket, default_sockets, ClientConfig, SERVER_UID_ENV,
    SOCKET_ENV, SYSTEM_SOCKET,
};
pub use connection::Connection;
pub use error::{ServiceError, ServiceErrorKind};
pub use system::{Filled, Generated, Source, SystemGenerator};

//! # uuidkit-service
//!
//! The system-wide generator service of uuidkit (RFC 9562 §6.3), for Unix (Linux, macOS,
//! FreeBSD): one process, `uuidkit serve`, owns the
//! generator state and its file ([`state`]), and hands out v1, v6 and v7 over a
//! Unix socket, so that every UUID issued on the machine is unique and, per version,
//! increasing in the order requests are served. util-linux's `uuidd` is the model (it serves
//! v1 and v4 only).
//!
//! - [`state`]: generator state in stable storage and the
//!   [`DurableGenerator`](state::DurableGenerator) built on it; usable without the service. A folder by concern: the file format, reading
//!   and atomic writing, the lock, the restart rules (one pure function, tested by a table),
//!   the generator and its background writer.
//! - [`protocol`]: the length-prefixed binary frames (also documented in
//!   DESIGN.md, "Generator state and the system-wide service").
//! - [`server`]: the server. It lives in the library, rather than in the CLI, so that programs
//!   can embed it and tests can run it in-process; `uuidkit serve` is a thin wrapper. A folder
//!   by concern: binding and the accept loop, connections and their threads, the instance lock,
//!   the socket file and its permissions, signals, configuration, logging.
//! - [`client`]: one [`Connection`](client::Connection), and the
//!   [`SystemGenerator`](client::SystemGenerator) that caches a block per process and falls
//!   back to the in-process generators when the service is unreachable. A folder by concern:
//!   the system generator, the connection and its framing, connecting within a time limit,
//!   socket discovery and configuration.
//! - `sys` (private): the calls whose names or behaviour differ between Linux, macOS and
//!   FreeBSD, each behind one portable signature.
//!
//! Modules only call downward: `client` and `server` use `protocol` and `state`, `protocol`
//! uses `state`, and each file of a folder uses only the files listed after it in the folder's
//! module docs (no module imports one that imports it back).
//!
//! ```
//! use uuidkit_service::client::{ClientConfig, SystemGenerator};
//! use uuidkit_service::state::TimeVersion;
//! # // A test machine may know no socket at all (no $XDG_RUNTIME_DIR): name one nobody serves.
//! # // SAFETY: one thread: nothing reads the environment meanwhile.
//! # unsafe {
//! #     std::env::set_var("UUIDKIT_SOCKET", "/nonexistent/uuidkit.sock");
//! # }
//! let g = SystemGenerator::new(ClientConfig::from_env());
//! let g = g.next(TimeVersion::V7)?;
//! println!("{} from {:?} ({:?})", g.uuid, g.source, g.safety);
//! assert_eq!(g.uuid.version_num(), 7); // from the service if it is up, else made locally
//! # Ok::<(), uuidkit_service::client::ServiceError>(())
//! ```

//! On other platforms (Windows, WASM) the crate builds empty: the service needs Unix sockets,
//! `flock` and `fork`. The portable generators are in the `uuidkit` crate.

// docs.rs (Cargo.toml, `package.metadata.docs.rs`): each item shows the platform it needs.
// `doc_cfg` is nightly-only; it took in the former `doc_auto_cfg`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(unix)]
pub mod client;
#[cfg(unix)]
pub mod protocol;
#[cfg(unix)]
pub mod server;
#[cfg(unix)]
pub mod state;
// The platform calls that differ between Linux, macOS and FreeBSD, in one place.
#[cfg(unix)]
mod sys;

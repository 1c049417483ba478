//! A system-wide generator service (RFC 9562 §6.3): one process, `uuidkit serve`, owns the
//! generator state and its file ([`state`](crate::state)), and hands out v1, v6 and v7 over a
//! Unix socket, so that every UUID issued on the machine is unique and, per version,
//! increasing in the order requests are served. util-linux's `uuidd` is the model (it serves
//! v1 and v4 only).
//!
//! - [`protocol`]: the length-prefixed binary frames (also documented in
//!   DESIGN.md, "Generator state and the system-wide service").
//! - [`server`]: the server. It lives in the library, rather than in the CLI, so that programs
//!   can embed it and tests can run it in-process; `uuidkit serve` is a thin wrapper.
//! - [`client`]: one [`Connection`](client::Connection), and the
//!   [`SystemGenerator`](client::SystemGenerator) that caches a block per process and falls
//!   back to the in-process generators when the service is unreachable.
//!
//! ```
//! use uuidkit::service::client::{ClientConfig, SystemGenerator};
//! use uuidkit::state::TimeVersion;
//! # // A test machine may know no socket at all (no $XDG_RUNTIME_DIR): name one nobody serves.
//! # std::env::set_var("UUIDKIT_SOCKET", "/nonexistent/uuidkit.sock");
//! let gen = SystemGenerator::new(ClientConfig::from_env());
//! let g = gen.next(TimeVersion::V7)?;
//! println!("{} from {:?} ({:?})", g.uuid, g.source, g.safety);
//! assert_eq!(g.uuid.version_num(), 7); // from the service if it is up, else made locally
//! # Ok::<(), uuidkit::service::client::ServiceError>(())
//! ```

pub mod client;
pub mod protocol;
pub mod server;

//! util-linux uuidd's protocol on the listeners of kind
//! [`ListenerKind::Uuidd`](super::activation::ListenerKind::Uuidd).
//!
//! PLACEHOLDER: the protocol itself is not written yet; this file only gives the server the
//! function it routes such connections to. Until then a uuidd connection is logged and closed
//! at once (a libuuid client then makes its UUIDs itself, as when no uuidd runs).

use std::os::unix::net::UnixStream;

use uuidkit::gen::Clock;

use super::connection::Shared;

/// Serves one connection accepted on a uuidd listener, until it ends (the connection is closed
/// by the caller afterwards). `id` numbers the connection in the log.
pub(super) fn serve_uuidd_connection<C: Clock>(shared: &Shared<C>, _stream: &UnixStream, id: u64) {
    // PLACEHOLDER: replaced by the uuidd protocol.
    shared.log(format_args!(
        "connection {id}: uuidd protocol not available in this build; closed"
    ));
}

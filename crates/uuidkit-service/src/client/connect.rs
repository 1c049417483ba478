//! Connecting to a Unix socket within a time limit: a plain `connect` can block while a
//! server's accept queue is full.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::sys;

/// The address of the socket at `path`, and its length.
fn socket_addr(path: &Path) -> io::Result<(libc::sockaddr_un, libc::socklen_t)> {
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid, empty address.
    let mut addr: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    addr.sun_family = libc::AF_UNIX as libc::sa_family_t;
    let bytes = path.as_os_str().as_bytes();
    if bytes.contains(&0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the socket path contains a NUL byte",
        ));
    }
    // One byte stays for the terminating NUL.
    if bytes.len() >= addr.sun_path.len() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the socket path is {} bytes long; a Unix socket address holds at most {}",
                bytes.len(),
                addr.sun_path.len() - 1
            ),
        ));
    }
    for (d, s) in addr.sun_path.iter_mut().zip(bytes) {
        *d = *s as libc::c_char;
    }
    let len = std::mem::offset_of!(libc::sockaddr_un, sun_path) + bytes.len() + 1;
    Ok((addr, len as libc::socklen_t))
}

/// Connects to the socket at `path`, giving up after `timeout`. On Linux a plain `connect`
/// blocks for as long as the server's accept queue is full (a hung or overwhelmed server), which
/// would hang the client before its fallback could take over; Linux bounds that wait by the
/// socket's send timeout (`SO_SNDTIMEO`), so the socket is made by hand to set it first. macOS
/// and FreeBSD refuse such a connection at once (`ECONNREFUSED`); setting the timeout there is
/// harmless.
pub(super) fn connect_within(path: &Path, timeout: Duration) -> io::Result<UnixStream> {
    let (addr, len) = socket_addr(path)?;
    let sock = sys::unix_stream_socket()?;
    let deadline = Instant::now() + timeout;
    loop {
        // A zero send timeout means none at all: keep at least a microsecond.
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_micros(1));
        let tv = libc::timeval {
            tv_sec: left.as_secs().min(libc::time_t::MAX as u64) as libc::time_t,
            tv_usec: left.subsec_micros() as libc::suseconds_t,
        };
        // SAFETY: `tv` is a live timeval and the length passed is its size; the descriptor
        // is open (owned by `sock`).
        let rc = unsafe {
            libc::setsockopt(
                sock.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_SNDTIMEO,
                (&raw const tv).cast(),
                std::mem::size_of::<libc::timeval>() as libc::socklen_t,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `addr` is a live, initialised sockaddr_un and `len` does not exceed its
        // size; the descriptor is open.
        let rc = unsafe { libc::connect(sock.as_raw_fd(), (&raw const addr).cast(), len) };
        if rc == 0 {
            return Ok(UnixStream::from(sock));
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            // A signal cut the wait short; an AF_UNIX socket is still unconnected then.
            Some(libc::EINTR) if Instant::now() < deadline => continue,
            // The send timeout ran out with the server's queue still full.
            Some(libc::EAGAIN) => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "no connection within {timeout:?}: the server is not accepting \
                         connections (its queue is full)"
                    ),
                ))
            }
            _ => return Err(e),
        }
    }
}

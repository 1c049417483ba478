//! The platform calls that differ between the Unix systems the service runs on (Linux, macOS,
//! FreeBSD), each with one portable signature. Everything else the service asks of the OS is
//! POSIX and called directly.
//!
//! Also here, so that each is written (and its `unsafe` justified) once: the calls that more
//! than one module makes, `geteuid` and `flock` (not POSIX, but Linux, macOS and the BSDs
//! have it).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// The calling thread's `errno` slot, for code that must save and restore it (a signal
/// handler). Its name differs per C library.
pub(crate) fn errno_location() -> *mut libc::c_int {
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "emscripten"))]
    // SAFETY: takes no arguments and returns the thread's errno slot; it is async-signal-safe.
    let p = unsafe { libc::__errno_location() };
    #[cfg(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "dragonfly"
    ))]
    // SAFETY: as above; this C library calls it `__error`.
    let p = unsafe { libc::__error() };
    #[cfg(any(target_os = "netbsd", target_os = "openbsd"))]
    // SAFETY: as above; this C library calls it `__errno`.
    let p = unsafe { libc::__errno() };
    p
}

/// A new Unix stream socket that is closed on `exec`. Where the system has no `SOCK_CLOEXEC`
/// (macOS), the flag is set with `fcntl` right after `socket`; a process that forks and execs
/// in another thread in between could inherit it, which the service never does.
pub(crate) fn unix_stream_socket() -> io::Result<OwnedFd> {
    #[cfg(not(any(target_os = "macos", target_os = "ios")))]
    // SAFETY: socket takes no pointers; a non-negative result is a new descriptor.
    let fd = unsafe { libc::socket(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    // SAFETY: as above.
    let fd = unsafe { libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by socket and nothing else owns it; from here on it is
    // closed when the `OwnedFd` is dropped, on every path.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    {
        // SAFETY: `fd` is open (owned above); F_SETFD takes an integer argument.
        if unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(owned)
}

/// The effective user id of the process (who owns the files it creates).
pub(crate) fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, cannot fail and has no side effects.
    unsafe { libc::geteuid() }
}

/// Whether `open` with `O_NOFOLLOW` failed because the last component of the path is a
/// symbolic link. POSIX says `ELOOP`; FreeBSD and DragonFly say `EMLINK`, NetBSD `EFTYPE`.
pub(crate) fn is_symlink_refused(e: &io::Error) -> bool {
    #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
    let code = libc::EMLINK;
    #[cfg(target_os = "netbsd")]
    let code = libc::EFTYPE;
    #[cfg(not(any(target_os = "freebsd", target_os = "dragonfly", target_os = "netbsd")))]
    let code = libc::ELOOP;
    e.raw_os_error() == Some(code)
}

/// Takes an exclusive `flock` on `file` without waiting: `Ok` when taken, else the error
/// (`EWOULDBLOCK` when another open file description holds it; `EINTR` to try again).
/// `flock` is not POSIX but Linux, macOS and the BSDs all have it, with these semantics.
pub(crate) fn try_lock_exclusive(file: &std::fs::File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: the descriptor belongs to `file`, which is open for the whole call; flock only
    // changes the lock state of that open file description.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

// ---- Peer credentials, the open-file limit and socket addresses (the server's and client's
// defences: who is on the other end of a socket, how many descriptors the process may hold).

/// The effective group id of the process.
pub(crate) fn effective_gid() -> u32 {
    // SAFETY: getegid takes no arguments, cannot fail and has no side effects.
    unsafe { libc::getegid() }
}

/// The effective user id of the process at the other end of a connected Unix socket, as the
/// kernel recorded it when the connection was made (it cannot be forged by the peer): Linux
/// `SO_PEERCRED`, macOS and the BSDs `getpeereid`.
pub(crate) fn peer_uid(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<u32> {
    use std::os::fd::AsRawFd;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // SAFETY: ucred is plain old data; all zeroes is a valid value.
        let mut cred: libc::ucred = unsafe { std::mem::zeroed() };
        let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
        // SAFETY: `cred` is a live, writable ucred and `len` holds its size; the descriptor
        // is borrowed, so open for the call.
        let rc = unsafe {
            libc::getsockopt(
                fd.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                (&raw mut cred).cast(),
                &mut len,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(cred.uid)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let (mut uid, mut gid): (libc::uid_t, libc::gid_t) = (0, 0);
        // SAFETY: both pointers are live, writable locals; the descriptor is borrowed, so
        // open for the call.
        if unsafe { libc::getpeereid(fd.as_raw_fd(), &mut uid, &mut gid) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(uid)
    }
}

/// The longest path a Unix socket address holds, in bytes: `sun_path` less its terminating
/// NUL (107 on Linux, 103 on macOS and FreeBSD).
pub(crate) fn max_socket_path_len() -> usize {
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid value.
    let addr: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    addr.sun_path.len() - 1
}

/// The soft and hard limits on open file descriptors (`RLIMIT_NOFILE`); `u64::MAX` for none.
pub(crate) fn open_file_limits() -> io::Result<(u64, u64)> {
    // SAFETY: rlimit is plain old data; all zeroes is a valid value.
    let mut r: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: `r` is a live, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // rlim_t is u64 on Linux and macOS, i64 on FreeBSD, narrower on some 32-bit systems.
    #[allow(clippy::useless_conversion, clippy::unnecessary_fallible_conversions)]
    let lim = |v: libc::rlim_t| {
        if v == libc::RLIM_INFINITY {
            u64::MAX
        } else {
            u64::try_from(v).unwrap_or(0)
        }
    };
    Ok((lim(r.rlim_cur), lim(r.rlim_max)))
}

/// Sets the soft limit on open file descriptors to `soft` (at most the hard limit, which stays).
/// macOS refuses more than `OPEN_MAX` (10240) whatever the hard limit: it gets that instead.
pub(crate) fn set_open_file_soft_limit(soft: u64) -> io::Result<()> {
    match set_soft_nofile(soft) {
        #[cfg(any(target_os = "macos", target_os = "ios"))]
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) && soft > 10240 => set_soft_nofile(10240),
        r => r,
    }
}

fn set_soft_nofile(soft: u64) -> io::Result<()> {
    // SAFETY: rlimit is plain old data; all zeroes is a valid value.
    let mut r: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: `r` is a live, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0 {
        return Err(io::Error::last_os_error());
    }
    r.rlim_cur = if soft == u64::MAX {
        libc::RLIM_INFINITY
    } else {
        libc::rlim_t::try_from(soft).unwrap_or(libc::RLIM_INFINITY)
    };
    // SAFETY: `r` is a live, initialised rlimit; setrlimit only reads it.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &r) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Whether an `accept` failed because the process or the system has no descriptor left.
pub(crate) fn is_out_of_descriptors(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

// ---- End of the server's and client's defences.

/// Sends `msg` from `sock` to the abstract Unix address `name` (without the leading NUL):
/// a Linux feature (the service manager's `@` notification sockets); elsewhere an error.
pub(crate) fn send_to_abstract(
    sock: &std::os::unix::net::UnixDatagram,
    name: &[u8],
    msg: &[u8],
) -> io::Result<usize> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        #[cfg(target_os = "android")]
        use std::os::android::net::SocketAddrExt;
        #[cfg(target_os = "linux")]
        use std::os::linux::net::SocketAddrExt;
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(name)?;
        sock.send_to_addr(msg, &addr)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = (sock, name, msg);
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "abstract socket addresses exist on Linux only",
        ))
    }
}

/// Whether `path` (not followed if it is a symbolic link) is the file open as `file`: after
/// taking a lock on a lock file, the taker checks that nobody removed the file (releasing its
/// lock) between its `open` and its `flock`; a lock on a file no longer at the path protects
/// nothing.
pub(crate) fn is_same_file(file: &std::fs::File, path: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Removes the lock file at `path`, which `file` holds locked, if it is still that file: done
/// while holding the lock, so that the next taker either locks this file before the removal
/// (and then sees that it is gone from the path, and starts over) or creates a new one.
pub(crate) fn remove_held_lock_file(file: &std::fs::File, path: &std::path::Path) {
    if is_same_file(file, path) {
        let _ = std::fs::remove_file(path);
    }
}

/// A monotonic clock cheap enough to read for every UUID a client hands out, in nanoseconds
/// from an arbitrary start: on Linux `CLOCK_MONOTONIC_COARSE` (read without a system call or
/// a time-stamp counter, to the kernel's tick: 1 to 10 ms), elsewhere `CLOCK_MONOTONIC`.
pub(crate) fn coarse_monotonic_nanos() -> u64 {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const CLOCK: libc::clockid_t = libc::CLOCK_MONOTONIC_COARSE;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const CLOCK: libc::clockid_t = libc::CLOCK_MONOTONIC;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a live, writable timespec; the clock id exists on this platform.
    unsafe { libc::clock_gettime(CLOCK, &mut ts) };
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

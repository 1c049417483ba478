//! Signals: SIGTERM, SIGINT, SIGHUP and SIGQUIT stop the server through a handler that only
//! stores the signal number and writes one byte to the server's wake-up socket; SIGXFSZ is
//! ignored so that a file-size limit fails a state write instead of killing the process.
//!
//! A program installs the handler first, before any slow start-up step
//! ([`catch_stop_signals`]): a stop signal that arrives before the server runs is kept, and
//! the server stops as soon as it is ready to (or a start-up step that polls
//! [`received_signal`] gives up early).

use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, Ordering};

use super::error::ServerError;

/// The process-wide file descriptor the signal handler writes to; -1 when none.
static SIGNAL_WAKE_FD: AtomicI32 = AtomicI32::new(-1);
/// The last signal received (0: none).
static SIGNAL_RECEIVED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_stop_signal(sig: libc::c_int) {
    SIGNAL_RECEIVED.store(sig, Ordering::Relaxed);
    let fd = SIGNAL_WAKE_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: `errno_location` returns the calling thread's errno slot, valid for the
        // thread's life; saving and restoring it keeps the interrupted code's errno intact.
        // `write` is async-signal-safe; `fd` is the non-blocking socket the server keeps open
        // while the handler is installed, and the buffer is a live one-byte local.
        unsafe {
            let errno = crate::sys::errno_location();
            let saved = *errno;
            let byte = 1u8;
            libc::write(fd, (&byte as *const u8).cast(), 1);
            *errno = saved;
        }
    }
}

/// The stop signals: SIGTERM, SIGINT, SIGHUP, SIGQUIT.
const STOP_SIGNALS: [libc::c_int; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT];

/// The signal that stopped the server, if one did (SIGTERM is 15, SIGINT 2, SIGHUP 1,
/// SIGQUIT 3).
///
/// ```
/// use uuidkit_service::server::{received_signal, Server, ServerConfig};
/// # use uuidkit_service::state::{DurableGenerator, StateOptions};
/// # let dir = std::env::temp_dir().join(format!("uk-doc-{}-signal", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let sock = dir.join("s.sock");
/// # let g = DurableGenerator::open(dir.join("state"), StateOptions::new())?;
/// let server = Server::bind(ServerConfig::new(&sock), g)?;
/// server.stop_on_signals()?;
/// let running = std::thread::spawn(move || server.run());
/// assert_eq!(received_signal(), None);
/// // SAFETY: SIGINT now has the server's handler, which only stores and writes a byte.
/// assert_eq!(unsafe { libc::raise(libc::SIGINT) }, 0);
/// running.join().map_err(|_| "server thread panicked")??;
/// assert_eq!(received_signal(), Some(2));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn received_signal() -> Option<i32> {
    match SIGNAL_RECEIVED.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// Ignores SIGXFSZ for the whole process, so that exceeding a file-size limit (`ulimit -f`)
/// makes a write fail with `EFBIG`, which the state file reports, instead of killing the
/// process. A server calls it before opening its state.
///
/// ```
/// use uuidkit_service::server::ignore_file_size_signal;
/// ignore_file_size_signal()?;
/// // By default SIGXFSZ ends the process; now raising it does nothing.
/// // SAFETY: raise only delivers SIGXFSZ, whose disposition is now SIG_IGN.
/// assert_eq!(unsafe { libc::raise(libc::SIGXFSZ) }, 0);
/// # Ok::<(), uuidkit_service::server::ServerError>(())
/// ```
pub fn ignore_file_size_signal() -> Result<(), ServerError> {
    // SAFETY: SIG_IGN is a valid disposition for SIGXFSZ; no handler code runs.
    let old = unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    if old == libc::SIG_ERR {
        return Err(ServerError::io(
            "ignoring SIGXFSZ",
            io::Error::last_os_error(),
        ));
    }
    Ok(())
}

/// Installs the stop handler for SIGTERM, SIGINT, SIGHUP and SIGQUIT, before a server exists,
/// and ignores SIGXFSZ: from now on these signals no longer end the process, but are recorded
/// ([`received_signal`]); [`Server::stop_on_signals`](crate::server::Server::stop_on_signals)
/// later makes them stop the server, at once if one has already arrived. A program calls it
/// first thing, so that a signal during a slow start (the state file's catch-up wait) is not
/// fatal.
///
/// ```
/// use uuidkit_service::server::{catch_stop_signals, received_signal};
/// catch_stop_signals()?;
/// // SAFETY: SIGHUP now has the handler, which only stores the number (no server yet).
/// assert_eq!(unsafe { libc::raise(libc::SIGHUP) }, 0);
/// assert_eq!(received_signal(), Some(libc::SIGHUP)); // and the process is still here
/// # Ok::<(), uuidkit_service::server::ServerError>(())
/// ```
pub fn catch_stop_signals() -> Result<(), ServerError> {
    ignore_file_size_signal()?;
    install_stop_handler()
}

/// Installs the stop handler for SIGTERM, SIGINT, SIGHUP and SIGQUIT, which from now on writes
/// a byte to `wake_fd` (a non-blocking socket that stays open while the server runs), and
/// ignores SIGXFSZ. A stop signal received before (after [`catch_stop_signals`]) wakes the
/// server at once.
pub(super) fn stop_on_signals(wake_fd: RawFd) -> Result<(), ServerError> {
    ignore_file_size_signal()?;
    SIGNAL_WAKE_FD.store(wake_fd, Ordering::Relaxed);
    install_stop_handler()?;
    if SIGNAL_RECEIVED.load(Ordering::Relaxed) != 0 {
        // Arrived before there was a server to wake: wake it now (a second byte, if the
        // handler also wrote one meanwhile, changes nothing).
        let byte = 1u8;
        // SAFETY: `wake_fd` is the server's open, non-blocking wake-up socket; the buffer is
        // a live one-byte local.
        unsafe { libc::write(wake_fd, (&byte as *const u8).cast(), 1) };
    }
    Ok(())
}

fn install_stop_handler() -> Result<(), ServerError> {
    let stop = on_stop_signal as extern "C" fn(libc::c_int) as *const () as libc::sighandler_t;
    for sig in STOP_SIGNALS {
        // SAFETY: `sa` is zero-initialised (a valid, empty `sigaction`) and then given a
        // handler that only performs async-signal-safe operations (atomics and write); the
        // old action is not needed. sigemptyset and sigaction only read and write the
        // structures passed.
        let rc = unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = stop;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut())
        };
        if rc != 0 {
            return Err(ServerError::io(
                format!("installing the handler for signal {sig}"),
                io::Error::last_os_error(),
            ));
        }
    }
    Ok(())
}

/// The server's wake-up socket is about to close: the handler must no longer write to it.
pub(super) fn forget_wake_fd() {
    SIGNAL_WAKE_FD.store(-1, Ordering::Relaxed);
}

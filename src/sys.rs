//! What the command line asks of the operating system directly, behind `cfg` in this one
//! place: the local zone's offset from UTC (for `uuidparse`'s local times), bytes of an
//! argument back into an `OsString` (the personalities' option reader), making the
//! `uuidgen`/`uuidparse` links (`install-links`), the width of the terminal on standard error,
//! the SIGINT/SIGTERM handlers that clear a progress line before the process dies, and on Linux
//! the runtime's start-up and exit that the program's own entry point keeps ([`start`],
//! [`finish`]).

use std::ffi::OsString;
use std::io;
use std::path::Path;

/// What the Rust runtime's start-up does that the program relies on, for the Linux entry point
/// (the C `main` in `main.rs`, which skips that start-up: on Linux it reads `/proc/self/maps`
/// to find the main thread's stack, about 75,000 instructions, a fifth of a whole `uuidkit
/// gen`, and sets up an alternate signal stack and handlers for stack overflows: 19 system
/// calls in all). Done here the same way: standard input, output and error, if closed, are
/// opened on `/dev/null` (so that no file the program opens takes their place), and SIGPIPE is
/// ignored (a closed pipe is a write error, which `io` turns into a quiet end). A stack
/// overflow still stops at the guard page, with SIGSEGV instead of the runtime's message.
#[cfg(all(target_os = "linux", not(test)))]
pub fn start() {
    open_closed_standard_fds();
    // SAFETY: sets SIGPIPE's disposition to "ignore"; no handler of ours is involved.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

/// The C `main`'s return value for the program's outcome, after flushing standard output (as
/// the runtime does at exit): the exit status, or 101 for a panic, as the runtime gives.
#[cfg(target_os = "linux")]
pub fn finish(outcome: std::thread::Result<std::process::ExitCode>) -> libc::c_int {
    let _ = std::io::Write::flush(&mut std::io::stdout());
    match outcome {
        // `ExitCode` has no stable accessor for its number; it compares equal to the one it
        // was made from (the program makes them from `u8`s).
        Ok(code) => (0..=u8::MAX)
            .find(|&n| std::process::ExitCode::from(n) == code)
            .map_or(2, libc::c_int::from),
        Err(_) => 101,
    }
}

/// Opens `/dev/null` on each of the descriptors 0, 1 and 2 that is closed, as the Rust runtime
/// does at start-up; aborts when that fails (the program must not run with a standard stream
/// that a file it opens could take over).
///
/// Standard output is opened read-only, unlike the runtime's (read-write): a write to it then
/// fails with EBADF, as it would on the closed descriptor, so that `uuidkit gen -C 1000000 >&-`
/// ends at once with status 2 and a message instead of writing every UUID to `/dev/null` and
/// reporting success. Standard input and error are opened read-write, as by the runtime (an
/// empty input; messages nobody reads).
#[cfg(all(target_os = "linux", not(test)))]
fn open_closed_standard_fds() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `fds` is an array of three initialised `pollfd`s; a timeout of 0 returns at once.
    let polled = unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) };
    for p in fds {
        let closed = if polled == -1 {
            // SAFETY: F_GETFD on any descriptor number only reads its flags.
            let flags = unsafe { libc::fcntl(p.fd, libc::F_GETFD) };
            flags == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
        } else {
            p.revents & libc::POLLNVAL != 0
        };
        if closed {
            // Standard output read-only: writing it fails (EBADF) as on the closed descriptor.
            let mode = if p.fd == 1 {
                libc::O_RDONLY
            } else {
                libc::O_RDWR
            };
            // SAFETY: a NUL-terminated path and plain flags; the descriptor is the lowest free
            // one, which is `p.fd` since the lower standard ones are open by now.
            let fd = unsafe { libc::open(c"/dev/null".as_ptr(), mode) };
            if fd != p.fd {
                std::process::abort();
            }
        }
    }
}

/// The local zone's offset from UTC, in seconds east, at `unix_secs` (from the C library's
/// `localtime_r`, which reads TZ and the zone files as util-linux does). 0 where there is no
/// such call, or when the C library cannot tell (a time outside its range).
#[cfg(unix)]
pub fn utc_offset(unix_secs: i64) -> i64 {
    // time_t is 64 bits on most targets (the pattern then always matches), 32 on some.
    #[allow(irrefutable_let_patterns)]
    let Ok(t) = libc::time_t::try_from(unix_secs) else {
        return 0;
    };
    let mut tm = std::mem::MaybeUninit::<libc::tm>::zeroed();
    // SAFETY: `t` is a valid time_t and `tm` points to writable memory of a `struct tm`;
    // localtime_r keeps no pointer to either after it returns.
    let r = unsafe { libc::localtime_r(&t, tm.as_mut_ptr()) };
    if r.is_null() {
        return 0;
    }
    // SAFETY: localtime_r returned non-null, so it filled `tm` (and it was zeroed before).
    let tm = unsafe { tm.assume_init() };
    // A C `long`: 64 bits on most targets.
    #[allow(clippy::useless_conversion)]
    i64::from(tm.tm_gmtoff)
}

/// Whether standard output and standard error lead to the same place where the order of
/// their lines can be seen: the same open file, pipe or terminal (`2>&1`), but not both
/// `/dev/null`. When they cannot be compared, they are taken to meet.
#[cfg(unix)]
// `dev_t` is `u64` on Linux, narrower elsewhere.
#[allow(clippy::unnecessary_cast)]
pub fn stdout_and_stderr_meet() -> bool {
    let stat = |fd| {
        let mut st = std::mem::MaybeUninit::<libc::stat>::zeroed();
        // SAFETY: `st` points to writable memory of a `struct stat`; fstat keeps no pointer.
        let r = unsafe { libc::fstat(fd, st.as_mut_ptr()) };
        // SAFETY: fstat succeeded, so it filled `st` (zeroed before in any case).
        (r == 0).then(|| unsafe { st.assume_init() })
    };
    match (stat(1), stat(2)) {
        (Some(o), Some(e)) => {
            let same = o.st_dev == e.st_dev && o.st_ino == e.st_ino;
            let null = std::fs::metadata("/dev/null").is_ok_and(|n| {
                use std::os::unix::fs::MetadataExt;
                n.rdev() == o.st_rdev as u64 && (o.st_mode & libc::S_IFMT) == libc::S_IFCHR
            });
            same && !null
        }
        _ => true,
    }
}

/// Elsewhere: taken to meet (reports are written at once).
#[cfg(not(unix))]
pub fn stdout_and_stderr_meet() -> bool {
    true
}

/// Without a C library zone database: UTC.
#[cfg(not(unix))]
pub fn utc_offset(_unix_secs: i64) -> i64 {
    0
}

/// Makes `link` name `target`: a symbolic link on Unix, a hard link elsewhere (where symbolic
/// links need privileges).
pub fn link(target: &Path, link: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(not(unix))]
    {
        std::fs::hard_link(target, link)
    }
}

/// Bytes taken from an argument back into an `OsString`. They were a part of an `OsString`
/// split at an ASCII byte, which keeps them valid for `from_encoded_bytes_unchecked`; the
/// checked route is taken instead: on Unix any bytes are valid, elsewhere through UTF-8.
pub fn os_from_bytes(b: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::OsStr::from_bytes(b).to_os_string()
    }
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(b).into_owned())
    }
}

/// The width in columns of the terminal on standard error, if it says; else `COLUMNS`, as
/// clap reads it for `--help`.
pub fn stderr_width() -> Option<usize> {
    terminal_size::terminal_size_of(std::io::stderr())
        .map(|(w, _)| usize::from(w.0))
        .or_else(|| std::env::var("COLUMNS").ok()?.trim().parse().ok())
        .filter(|&w| w > 0)
}

/// Makes SIGINT and SIGTERM clear the progress line (when `shown` says one is on the screen)
/// and then end the process as the signal would have (the default action, re-raised). Once per
/// process; elsewhere than Unix, nothing.
pub fn clear_progress_on_signal(shown: &'static std::sync::atomic::AtomicBool) {
    #[cfg(unix)]
    unix::install(shown);
    #[cfg(not(unix))]
    let _ = shown;
}

#[cfg(unix)]
mod unix {
    use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
    use std::sync::Once;

    /// The flag the handler reads (set once, before the handlers are installed).
    static SHOWN: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());

    /// What clears the line: carriage return, erase to the end of the line.
    const CLEAR: &[u8] = b"\r\x1b[K";

    extern "C" fn on_signal(sig: libc::c_int) {
        // Only async-signal-safe calls: an atomic load, write(2), signal(2), raise(3).
        let shown = SHOWN.load(Ordering::Relaxed);
        // SAFETY: SHOWN is null or points to a `'static` AtomicBool (set in `install`).
        if let Some(flag) = unsafe { shown.as_ref() } {
            if flag.swap(false, Ordering::Relaxed) {
                // SAFETY: CLEAR is a valid buffer of CLEAR.len() bytes; fd 2 may be closed, in
                // which case write fails harmlessly.
                unsafe {
                    libc::write(2, CLEAR.as_ptr().cast(), CLEAR.len());
                }
            }
        }
        // SAFETY: restoring the default action and re-raising ends the process as the signal
        // would have, with the status a shell expects (128 + the signal).
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    pub fn install(shown: &'static AtomicBool) {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            SHOWN.store(std::ptr::from_ref(shown).cast_mut(), Ordering::Relaxed);
            for sig in [libc::SIGINT, libc::SIGTERM] {
                // SAFETY: `on_signal` is an `extern "C" fn(c_int)` that makes only
                // async-signal-safe calls. A signal already ignored (e.g. SIGINT of a
                // background job started by a non-interactive shell) stays ignored.
                unsafe {
                    let old = libc::signal(sig, on_signal as *const () as libc::sighandler_t);
                    if old == libc::SIG_IGN {
                        libc::signal(sig, libc::SIG_IGN);
                    }
                }
            }
        });
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::process::ExitCode;

    #[test]
    fn finish_gives_each_status_and_101_for_a_panic() {
        for n in [0u8, 1, 2, 101, 255] {
            assert_eq!(super::finish(Ok(ExitCode::from(n))), libc::c_int::from(n));
        }
        let panicked = std::panic::catch_unwind(|| -> ExitCode { panic!("on purpose") });
        assert_eq!(super::finish(panicked), 101);
    }
}

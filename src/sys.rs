//! What the command line asks of the operating system directly, behind `cfg` in this one
//! place: the local zone's offset from UTC (for `uuidparse`'s local times) and making the
//! `uuidgen`/`uuidparse` links (`install-links`).

use std::io;
use std::path::Path;

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

//! Every call of the native module into the operating system (beside the library's): the
//! memory advice for large buffers and the size of physical memory.

/// Asks Linux for transparent huge pages on the 2 MiB-aligned part of a large fresh buffer
/// (`madvise(MADV_HUGEPAGE)`, where THP is in "madvise" mode): a 16 MB bytes object then
/// costs 8 page faults instead of 4,096. Advice only: any failure leaves the buffer as it was.
#[cfg(target_os = "linux")]
pub(crate) fn huge_pages(addr: usize, len: usize) {
    use std::ffi::{c_int, c_void};
    const HUGE: usize = 2 << 20;
    const MADV_HUGEPAGE: c_int = 14;
    extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    if len < 2 * HUGE {
        return;
    }
    let start = (addr + HUGE - 1) & !(HUGE - 1);
    let end = (addr + len) & !(HUGE - 1);
    if end > start {
        // SAFETY: [start, end) lies inside the caller's buffer, which it owns; MADV_HUGEPAGE
        // changes no contents and no mapping, only how later page faults are served.
        unsafe {
            madvise(start as *mut c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn huge_pages(_addr: usize, _len: usize) {}

/// The machine's physical memory in bytes, where it can be asked (Linux: `sysconf`).
#[cfg(target_os = "linux")]
pub(crate) fn physical_memory() -> Option<u64> {
    use std::ffi::{c_int, c_long};
    const SC_PAGESIZE: c_int = 30;
    const SC_PHYS_PAGES: c_int = 85;
    extern "C" {
        fn sysconf(name: c_int) -> c_long;
    }
    // SAFETY: sysconf reads a system value; -1 means unknown.
    let (pages, size) = unsafe { (sysconf(SC_PHYS_PAGES), sysconf(SC_PAGESIZE)) };
    if pages <= 0 || size <= 0 {
        return None;
    }
    (pages as u64).checked_mul(size as u64)
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn physical_memory() -> Option<u64> {
    None
}

//! Every point where the library touches its operating system, in one place (feature `std`).
//!
//! The rest of the crate calls these functions and never names an OS. Each has one
//! implementation per platform family:
//!
//! | function | Unix (Linux, macOS, FreeBSD, …) | `wasm32-unknown-unknown` + `js` | elsewhere (Windows, WASI) |
//! |---|---|---|---|
//! | [`wall_clock`] | `clock_gettime(CLOCK_REALTIME)` | JavaScript's `Date.now()` (1 ms) | `SystemTime::now()` |
//! | [`clock_resolution_nanos`] | `clock_getres(CLOCK_REALTIME)` | 1 ms | 100 ns (assumed) |
//! | [`register_fork_child`] | `pthread_atfork` | nothing: no fork | nothing: no fork |
//! | [`zeroed_in_child_word`] | a page with `MADV_WIPEONFORK` (Linux ≥ 4.14), `minherit` inherit-zero (FreeBSD ≥ 12, OpenBSD, NetBSD); `None` on macOS and older kernels | `None` | `None` |
//! | [`process_id`] | `getpid` | 0 | `std::process::id()` |
//! | [`real_uid`], [`real_gid`] | `getuid`, `getgid` | — | — |
//! | [`Instant`], [`sleep`] | `std::time`, `std::thread` | `Date.now()`; no sleep | `std::time`, `std::thread` |
//! | `map_zeroed`, `unmap` (feature `arrow`) | `mmap` of anonymous memory, `madvise(MADV_HUGEPAGE)` on Linux; `munmap` | `None`: the allocator | `None`: the allocator |
//!
//! Entropy comes from the `getrandom` crate on every platform (on `wasm32-unknown-unknown` its
//! `wasm_js` backend, `crypto.getRandomValues`, which the `js` feature turns on).
//!
//! `wasm32-unknown-unknown` has no operating system: without `js` there is no clock and no
//! entropy, so `std` refuses to build there and only the `no_std` core (default features off)
//! is available.

pub(crate) use imp::*;

#[cfg(unix)]
mod imp {
    pub(crate) use std::thread::sleep;
    pub(crate) use std::time::Instant;

    /// The wall clock as seconds since 1970 (negative before) and nanoseconds; `None` if it
    /// cannot be read.
    ///
    /// Read directly rather than through `SystemTime`: the process-wide generators read it on
    /// every call, and the conversion from `SystemTime` costs more than the read.
    #[inline]
    pub(crate) fn wall_clock() -> Option<(i64, u32)> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable `timespec` for the duration of the call, and
        // `CLOCK_REALTIME` is a clock id every Unix supports.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
        if rc != 0 || !(0..1_000_000_000).contains(&ts.tv_nsec) {
            return None;
        }
        // `time_t` is 32 bits wide on some targets.
        #[allow(clippy::unnecessary_cast)]
        Some((ts.tv_sec as i64, ts.tv_nsec as u32))
    }

    /// The resolution of [`wall_clock`] in nanoseconds (at least 1).
    pub(crate) fn clock_resolution_nanos() -> u64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable `timespec` for the duration of the call, and
        // `CLOCK_REALTIME` is a clock id every Unix supports.
        let rc = unsafe { libc::clock_getres(libc::CLOCK_REALTIME, &mut ts) };
        if rc != 0 {
            return 1;
        }
        let nanos = (ts.tv_sec as i128) * 1_000_000_000 + ts.tv_nsec as i128;
        if nanos <= 0 {
            1
        } else {
            u64::try_from(nanos).unwrap_or(u64::MAX)
        }
    }

    /// Registers `child` to run in the child process of every later `fork()`. Returns `false`
    /// if the C library refused (then callers compare [`process_id`]s instead).
    ///
    /// # Safety
    ///
    /// `child` runs in the forked child of a possibly multi-threaded process, before `fork()`
    /// returns there: it must do only async-signal-safe operations (no allocation, no locks).
    pub(crate) unsafe fn register_fork_child(child: extern "C" fn()) -> bool {
        // SAFETY: `pthread_atfork` only records the function pointer, which lives for the whole
        // program; the caller guarantees that `child` is async-signal-safe.
        unsafe { libc::pthread_atfork(None, None, Some(child)) == 0 }
    }

    /// The id of the calling process.
    pub(crate) fn process_id() -> u32 {
        std::process::id()
    }

    /// The calling process's real user id.
    pub(crate) fn real_uid() -> u32 {
        // SAFETY: getuid has no preconditions, touches no memory of ours and cannot fail.
        unsafe { libc::getuid() }
    }

    /// The calling process's real group id.
    pub(crate) fn real_gid() -> u32 {
        // SAFETY: getgid has no preconditions, touches no memory of ours and cannot fail.
        unsafe { libc::getgid() }
    }
}

/// A JavaScript host (browser, Node, Deno) without an operating system interface: the clock is
/// JavaScript's, entropy comes through getrandom's `wasm_js` backend.
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "js"))]
mod imp {
    use std::time::Duration;

    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen]
    extern "C" {
        /// `Date.now()`: milliseconds since 1970 as an integral `f64`.
        #[wasm_bindgen(js_namespace = Date, js_name = now)]
        fn now_millis() -> f64;
    }

    /// The wall clock as seconds since 1970 (negative before) and nanoseconds: JavaScript's
    /// `Date.now()`, to the millisecond. `None` if the host returned no finite number.
    #[inline]
    pub(crate) fn wall_clock() -> Option<(i64, u32)> {
        let ms = now_millis();
        if !ms.is_finite() || ms.abs() > 8.64e15 {
            // 8.64e15 ms is the range of a JavaScript `Date`.
            return None;
        }
        let ms = ms.floor() as i64;
        let secs = ms.div_euclid(1000);
        let nanos = ms.rem_euclid(1000) as u32 * 1_000_000;
        Some((secs, nanos))
    }

    /// `Date.now()` counts whole milliseconds.
    pub(crate) fn clock_resolution_nanos() -> u64 {
        1_000_000
    }

    /// There is no `fork()` in a WebAssembly instance: nothing to register, and nothing fails.
    ///
    /// # Safety
    ///
    /// None needed here; the signature matches the Unix one, whose contract callers keep.
    pub(crate) unsafe fn register_fork_child(_child: extern "C" fn()) -> bool {
        true
    }

    /// No processes: a constant (only read where fork registration failed, which it cannot).
    pub(crate) fn process_id() -> u32 {
        0
    }

    /// An elapsed-time measure on `Date.now()`: `std::time::Instant` panics on this target.
    /// It follows the wall clock (no monotonic clock without a browser API); a backward step
    /// reads as no time elapsed.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Instant(f64);

    impl Instant {
        pub(crate) fn now() -> Instant {
            Instant(now_millis())
        }

        pub(crate) fn elapsed(&self) -> Duration {
            let ms = now_millis() - self.0;
            if ms.is_finite() && ms > 0.0 {
                Duration::from_secs_f64(ms / 1000.0)
            } else {
                Duration::ZERO
            }
        }
    }

    /// JavaScript's main thread cannot block: instead of sleeping, callers spin on the clock
    /// (`std::thread::sleep` panics on this target).
    pub(crate) fn sleep(_: Duration) {}
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown", not(feature = "js")))]
compile_error!(
    "uuidkit: on wasm32-unknown-unknown the `std` feature needs a clock and an entropy source: \
     enable the `js` feature for JavaScript hosts (browsers, Node), or build with \
     `default-features = false` for the no_std core"
);

/// Windows, WASI and the other non-Unix platforms with a std: the standard library's clock, no
/// fork.
#[cfg(not(any(unix, all(target_arch = "wasm32", target_os = "unknown"))))]
mod imp {
    pub(crate) use std::thread::sleep;
    pub(crate) use std::time::Instant;

    /// The wall clock as seconds since 1970 (negative before) and nanoseconds.
    #[inline]
    pub(crate) fn wall_clock() -> Option<(i64, u32)> {
        let now = std::time::SystemTime::now();
        match now.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => Some((i64::try_from(d.as_secs()).ok()?, d.subsec_nanos())),
            Err(e) => {
                let back = e.duration();
                let secs = i64::try_from(back.as_secs()).ok()?;
                match back.subsec_nanos() {
                    0 => Some((-secs, 0)),
                    n => Some((-secs - 1, 1_000_000_000 - n)),
                }
            }
        }
    }

    /// Not asked of the OS: 100 ns, the tick of Windows' `FILETIME` (WASI has no portable way to
    /// ask through std either).
    pub(crate) fn clock_resolution_nanos() -> u64 {
        100
    }

    /// Windows and WASI have no `fork()`: a new process starts with fresh memory, so there is
    /// nothing to register and nothing fails.
    ///
    /// # Safety
    ///
    /// None needed here; the signature matches the Unix one, whose contract callers keep.
    pub(crate) unsafe fn register_fork_child(_child: extern "C" fn()) -> bool {
        true
    }

    /// The id of the calling process (0 where there are no processes, as on WASI).
    pub(crate) fn process_id() -> u32 {
        #[cfg(windows)]
        {
            std::process::id()
        }
        #[cfg(not(windows))]
        {
            0
        }
    }
}

// ---- a word the kernel zeroes in every child ---------------------------------------------------
//
// Fork detection that does not depend on the C library's `fork()` running `pthread_atfork`
// handlers: a child made by glibc's `_Fork()` or by a raw `fork`/`clone` system call runs none,
// but the kernel still zeroes this page in it.

pub(crate) use fork_page::zeroed_in_child_word;

/// Linux (kernel 4.14 and later): `madvise(MADV_WIPEONFORK)`; FreeBSD, OpenBSD, NetBSD:
/// `minherit` with their "inherit zero" setting.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
))]
mod fork_page {
    use core::sync::atomic::AtomicU64;

    /// The anonymous-mapping flag under its name on this platform.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const MAP_ANON: libc::c_int = libc::MAP_ANONYMOUS;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const MAP_ANON: libc::c_int = libc::MAP_ANON;

    /// Asks the kernel to hand every child a zeroed copy of the page at `addr`.
    ///
    /// # Safety
    ///
    /// `addr` is the start of a private anonymous mapping of `len` bytes that this module owns.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    unsafe fn zero_in_child(addr: *mut libc::c_void, len: usize) -> bool {
        // SAFETY: the caller passes a private anonymous mapping it owns; the advice changes
        // nothing in this process (kernels before 4.14 refuse it with EINVAL).
        unsafe { libc::madvise(addr, len, libc::MADV_WIPEONFORK) == 0 }
    }

    /// `INHERIT_ZERO` from FreeBSD's `<sys/mman.h>` (FreeBSD 12 and later), `MAP_INHERIT_ZERO`
    /// from OpenBSD's (5.6 and later) and NetBSD's; an older kernel refuses the value.
    #[cfg(target_os = "freebsd")]
    const INHERIT_ZERO: libc::c_int = 3;
    #[cfg(target_os = "openbsd")]
    const INHERIT_ZERO: libc::c_int = 3;
    #[cfg(target_os = "netbsd")]
    const INHERIT_ZERO: libc::c_int = 4;

    /// See the Linux version.
    ///
    /// # Safety
    ///
    /// `addr` is the start of a private anonymous mapping of `len` bytes that this module owns.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    unsafe fn zero_in_child(addr: *mut libc::c_void, len: usize) -> bool {
        // SAFETY: as for the Linux version; `minherit` only changes what a child inherits.
        unsafe { libc::minherit(addr, len, INHERIT_ZERO) == 0 }
    }

    /// A zero word on a page of its own that reads zero again in the child of any fork (with
    /// or without the C library's fork handlers), or `None` where the kernel cannot do that.
    ///
    /// Each call maps a new page and never unmaps it (the word is `'static`): call it once per
    /// process.
    pub(crate) fn zeroed_in_child_word() -> Option<&'static AtomicU64> {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let len = usize::try_from(page)
            .ok()
            .filter(|&p| p >= core::mem::size_of::<AtomicU64>())?;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let addr = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | MAP_ANON,
                -1,
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: `addr` is the mapping made above, `len` bytes long, owned here.
        if !unsafe { zero_in_child(addr, len) } {
            // SAFETY: the mapping made above, which nothing else refers to.
            unsafe { libc::munmap(addr, len) };
            return None;
        }
        // SAFETY: the mapping is page-aligned (so aligned for a u64), zero-filled (a valid
        // `AtomicU64`), readable and writable, and never unmapped: the reference may be
        // `'static`. Nothing else in the process knows the address.
        Some(unsafe { &*addr.cast::<AtomicU64>() })
    }
}

/// Elsewhere (macOS has no "inherit zero" setting; Windows, WASI and WebAssembly have no fork):
/// no such page; fork detection relies on [`register_fork_child`] alone.
#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
)))]
mod fork_page {
    /// Always `None` here.
    pub(crate) fn zeroed_in_child_word() -> Option<&'static core::sync::atomic::AtomicU64> {
        None
    }
}

// ---- large zeroed buffers (the `arrow` feature's column outputs) --------------------------------
//
// A column of 10^7 UUIDs is 160 MB of fresh memory per call: from the allocator it comes as
// 4 KiB pages, one page fault each on first write (on the benchmark machine more time than
// the kernels' own work), and glibc returns it to the kernel at every free. A mapping of its
// own with transparent huge pages takes one fault per 2 MiB.

#[cfg(feature = "arrow")]
pub(crate) use pages::{map_zeroed, physical_memory, unmap};

#[cfg(all(feature = "arrow", unix))]
mod pages {
    use core::ptr::NonNull;

    /// `len` (> 0) zeroed bytes in an anonymous private mapping of their own, asked for as
    /// transparent huge pages on Linux; `None` if the kernel refuses (the caller then uses the
    /// allocator). Free with [`unmap`].
    pub(crate) fn map_zeroed(len: usize) -> Option<NonNull<u8>> {
        // Huge pages only cover the 2 MiB-aligned part of a mapping: map 2 MiB more, keep the
        // aligned `len` bytes, give back the rest.
        const HUGE: usize = 2 << 20;
        let total = len.checked_add(HUGE)?;
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches
        // no existing memory; the result is checked for MAP_FAILED before use.
        let p = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        let base = p as usize;
        let start = (base + HUGE - 1) & !(HUGE - 1);
        let head = start - base;
        let tail = total - head - len;
        // SAFETY: `[base, start)` and `[start + len, base + total)` are page-aligned parts
        // (mmap returns page-aligned memory; `len` is rounded up by the kernel, so the tail
        // from `start + len` is unmapped from its page boundary up) of the mapping just made,
        // which nothing else uses; unmapping them leaves `[start, start + len)` mapped.
        unsafe {
            if head > 0 {
                libc::munmap(p, head);
            }
            let page = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)).unwrap_or(4096);
            let end = (start + len + page - 1) & !(page - 1);
            let tail_len = (base + total).saturating_sub(end);
            if tail > 0 && tail_len > 0 {
                libc::munmap(end as *mut libc::c_void, tail_len);
            }
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        // SAFETY: `start .. start + len` is mapped (above); MADV_HUGEPAGE is advice on how to
        // serve its page faults and changes no contents. Its failure (THP off) is harmless.
        unsafe {
            libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
        NonNull::new(start as *mut u8)
    }

    /// Frees a mapping made by [`map_zeroed`].
    ///
    /// # Safety
    ///
    /// `p` and `len` are those of one [`map_zeroed`] mapping, not freed before and not used
    /// after.
    pub(crate) unsafe fn unmap(p: NonNull<u8>, len: usize) {
        // SAFETY: the function's contract: our own mapping, freed once. A failure (which
        // munmap of a whole mapping does not have) would only leak it.
        unsafe {
            libc::munmap(p.as_ptr().cast(), len);
        }
    }

    /// The machine's physical memory in bytes, if the system says.
    pub(crate) fn physical_memory() -> Option<usize> {
        // SAFETY: sysconf reads a system constant; it has no memory effects.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        usize::try_from(pages)
            .ok()?
            .checked_mul(usize::try_from(size).ok()?)
    }
}

#[cfg(all(feature = "arrow", not(unix)))]
mod pages {
    use core::ptr::NonNull;

    /// No mapping of its own here: the caller uses the allocator.
    pub(crate) fn map_zeroed(_len: usize) -> Option<NonNull<u8>> {
        None
    }

    /// Never called: [`map_zeroed`] maps nothing.
    ///
    /// # Safety
    ///
    /// None needed: it does nothing.
    pub(crate) unsafe fn unmap(_p: NonNull<u8>, _len: usize) {}

    /// Not asked here.
    pub(crate) fn physical_memory() -> Option<usize> {
        None
    }
}

//! SIMD kernels for the text codecs, chosen once per process by what the CPU can do.
//!
//! The scalar `const fn` code in `scalar.rs` is the reference: every kernel here accepts exactly
//! the inputs the scalar fast path accepts and returns the same bytes; a rejected input goes to
//! the slow path (`diagnose.rs`) for its diagnosis, so errors never depend on the CPU. The unit
//! tests in `tests.rs` check every level this machine can run against the scalar code.
//!
//! Layers call only downward: the public API (`parse.rs`, `fmt.rs`) calls [`active`]; this file
//! assembles each level's table from its kernels (`x86.rs`, `aarch64.rs`, and the scalar code);
//! the kernels are built from the shared pieces in `entries.rs`, and nothing here calls back up.
//!
//! Dispatch works like an ifunc: [`active`] reads one pointer to a [`Kernels`] table. The pointer
//! starts at a table whose entries detect the CPU, store the best supported table and forward
//! the call, so detection costs one time and every later call is a load and an indirect call.
//! Without `std` there is no run-time detection and the table is chosen at compile time from the
//! enabled target features; without the `simd` feature the scalar table is used directly.

use crate::error::Error;
use crate::text::{Case, Format};
use crate::Uuid;

#[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
mod aarch64;
mod entries;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) mod short;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod x86;

#[cfg(test)]
mod tests;

/// An instruction-set level with its own kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// The portable `const fn` code.
    Scalar,
    /// x86-64 with SSSE3 (`pshufb`, `pmaddubsw`): 16 bytes per step.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    Ssse3,
    /// x86-64 with AVX2: 32 bytes per step.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    Avx2,
    /// AArch64 Advanced SIMD (always present on AArch64).
    #[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
    Neon,
}

/// The one table of dispatched functions: every level provides each entry.
///
/// Contract shared by all levels (the unit tests check it on every level the machine runs):
/// - `parse`, `hyphenated` and `simple` return exactly what the scalar `const fn`s
///   `scalar::parse`, `scalar::parse_hyphenated` and `scalar::parse_simple` return: a SIMD
///   level accepts exactly what the scalar fast path accepts, with the same bytes, and hands
///   every rejected input to the slow path (`diagnose.rs`) for the error;
/// - `encode_*` write exactly what `scalar::encode_hyphenated` / `encode_simple` return.
///
/// The entries return the final `Result` so that the caller has nothing left to repack. They
/// are `unsafe fn` because a SIMD kernel may only run on a CPU with its features; a
/// `&'static Kernels` is only ever handed out for a supported level (see [`Level::kernels`]),
/// which is what makes the safe wrappers below sound.
///
/// # Safety
///
/// The contract every entry and every kernel under it (`x86.rs`, `aarch64.rs`, the entries
/// `entries.rs` writes) states by pointing here: it is called only on a CPU that supports its
/// level's target features, SSSE3 for `Level::Ssse3`, AVX2 for `Level::Avx2`, NEON for
/// `Level::Neon`. Within a kernel, a call to another kernel of the same level keeps it (the
/// caller has the features); from outside, the safe methods of `Kernels` keep it for every
/// table they are called on.
pub(crate) struct Kernels {
    pub(crate) level: Level,
    parse: unsafe fn(&[u8]) -> Result<Uuid, Error>,
    hyphenated: unsafe fn(&[u8]) -> Result<Uuid, Error>,
    simple: unsafe fn(&[u8]) -> Result<Uuid, Error>,
    encode_hyphenated: unsafe fn(&[u8; 16], Case, &mut [u8; 36]),
    encode_simple: unsafe fn(&[u8; 16], Case, &mut [u8; 32]),
    encode_lines: unsafe fn(&[Uuid], Format, Case, &mut [u8]) -> usize,
    #[cfg(feature = "arrow")]
    hyphenated_run: unsafe fn(&[u8], &mut [u8]) -> usize,
    #[cfg(feature = "arrow")]
    encode_hyphenated_run: unsafe fn(&[u8], Case, &mut [u8]),
}

impl Kernels {
    /// Any of the four text forms (hyphenated, simple, braced, URN).
    #[inline(always)]
    pub(crate) fn parse(&self, s: &[u8]) -> Result<Uuid, Error> {
        // SAFETY: `self` is a table of a level this CPU supports (type invariant of `Kernels`
        // references, see the struct docs).
        unsafe { (self.parse)(s) }
    }

    /// The bare hyphenated form only.
    #[inline(always)]
    pub(crate) fn hyphenated(&self, s: &[u8]) -> Result<Uuid, Error> {
        // SAFETY: as in `parse`.
        unsafe { (self.hyphenated)(s) }
    }

    /// The 32-digit simple form only.
    #[inline(always)]
    pub(crate) fn simple(&self, s: &[u8]) -> Result<Uuid, Error> {
        // SAFETY: as in `parse`.
        unsafe { (self.simple)(s) }
    }

    /// Writes the hyphenated form.
    #[inline(always)]
    pub(crate) fn encode_hyphenated(&self, b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
        // SAFETY: as in `parse`.
        unsafe { (self.encode_hyphenated)(b, case, out) }
    }

    /// Writes the simple form.
    #[inline(always)]
    pub(crate) fn encode_simple(&self, b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
        // SAFETY: as in `parse`.
        unsafe { (self.encode_simple)(b, case, out) }
    }

    /// Writes each UUID in `format`, each followed by `\n`, as many as fit; returns the bytes
    /// written.
    #[inline(always)]
    pub(crate) fn encode_lines(
        &self,
        u: &[Uuid],
        format: Format,
        case: Case,
        out: &mut [u8],
    ) -> usize {
        // SAFETY: as in `parse`.
        unsafe { (self.encode_lines)(u, format, case, out) }
    }

    /// Parses consecutive 36-byte hyphenated bodies of `text` into consecutive 16-byte values
    /// of `out` (as many as both hold) up to the first that is not one (what
    /// [`hyphenated`](Self::hyphenated) rejects); returns how many it wrote.
    #[cfg(feature = "arrow")]
    #[inline(always)]
    pub(crate) fn hyphenated_run(&self, text: &[u8], out: &mut [u8]) -> usize {
        // SAFETY: as in `parse`.
        unsafe { (self.hyphenated_run)(text, out) }
    }

    /// Writes consecutive 16-byte values in the hyphenated form into consecutive 36-byte slots
    /// of `out`, as many as both hold.
    #[cfg(feature = "arrow")]
    #[inline(always)]
    pub(crate) fn encode_hyphenated_run(&self, values: &[u8], case: Case, out: &mut [u8]) {
        // SAFETY: as in `parse`.
        unsafe { (self.encode_hyphenated_run)(values, case, out) }
    }
}

// ---- the scalar level: the reference code itself ------------------------------------------------

mod scalar_level {
    use crate::error::Error;
    use crate::scalar;
    use crate::text::{Case, Format};
    use crate::Uuid;

    pub(super) fn parse(s: &[u8]) -> Result<Uuid, Error> {
        scalar::parse(s)
    }

    pub(super) fn hyphenated(s: &[u8]) -> Result<Uuid, Error> {
        scalar::parse_hyphenated(s)
    }

    pub(super) fn simple(s: &[u8]) -> Result<Uuid, Error> {
        scalar::parse_simple(s)
    }

    pub(super) fn encode_hyphenated(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
        *out = scalar::encode_hyphenated(b, case);
    }

    pub(super) fn encode_simple(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
        *out = scalar::encode_simple(b, case);
    }

    pub(super) fn encode_lines(u: &[Uuid], format: Format, case: Case, out: &mut [u8]) -> usize {
        super::entries::encode_lines_body!(u, format, case, out, encode_hyphenated, encode_simple)
    }

    #[cfg(feature = "arrow")]
    fn hyphenated_body(s: &[u8; 36]) -> Option<[u8; 16]> {
        scalar::parse_hyphenated(s).ok().map(Uuid::into_bytes)
    }

    #[cfg(feature = "arrow")]
    super::entries::run_entries!(
        hyphenated_run,
        encode_hyphenated_run,
        hyphenated_body,
        encode_hyphenated
    );
}

// ---- the tables: every level's entries, side by side --------------------------------------------

static SCALAR: Kernels = Kernels {
    level: Level::Scalar,
    parse: scalar_level::parse,
    hyphenated: scalar_level::hyphenated,
    simple: scalar_level::simple,
    encode_hyphenated: scalar_level::encode_hyphenated,
    encode_simple: scalar_level::encode_simple,
    encode_lines: scalar_level::encode_lines,
    #[cfg(feature = "arrow")]
    hyphenated_run: scalar_level::hyphenated_run,
    #[cfg(feature = "arrow")]
    encode_hyphenated_run: scalar_level::encode_hyphenated_run,
};

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
static SSSE3: Kernels = Kernels {
    level: Level::Ssse3,
    parse: x86::parse_ssse3,
    hyphenated: x86::hyphenated_ssse3,
    simple: x86::simple_ssse3,
    encode_hyphenated: x86::encode_hyphenated_ssse3,
    encode_simple: x86::encode_simple_ssse3,
    encode_lines: x86::encode_lines_ssse3,
    #[cfg(feature = "arrow")]
    hyphenated_run: x86::hyphenated_run_ssse3,
    #[cfg(feature = "arrow")]
    encode_hyphenated_run: x86::encode_hyphenated_run_ssse3,
};

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
static AVX2: Kernels = Kernels {
    level: Level::Avx2,
    parse: x86::parse_avx2,
    hyphenated: x86::hyphenated_avx2,
    simple: x86::simple_avx2,
    encode_hyphenated: x86::encode_hyphenated_avx2,
    encode_simple: x86::encode_simple_avx2,
    encode_lines: x86::encode_lines_avx2,
    #[cfg(feature = "arrow")]
    hyphenated_run: x86::hyphenated_run_avx2,
    #[cfg(feature = "arrow")]
    encode_hyphenated_run: x86::encode_hyphenated_run_avx2,
};

#[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
static NEON: Kernels = Kernels {
    level: Level::Neon,
    parse: aarch64::parse_neon,
    hyphenated: aarch64::hyphenated_neon,
    simple: aarch64::simple_neon,
    encode_hyphenated: aarch64::encode_hyphenated_neon,
    encode_simple: aarch64::encode_simple_neon,
    encode_lines: aarch64::encode_lines_neon,
    #[cfg(feature = "arrow")]
    hyphenated_run: aarch64::hyphenated_run_neon,
    #[cfg(feature = "arrow")]
    encode_hyphenated_run: aarch64::encode_hyphenated_run_neon,
};

// ---- level selection --------------------------------------------------------------------------

/// Feature test: at run time with `std`, from the compile-time target features without it.
#[cfg(all(feature = "simd", target_arch = "x86_64", feature = "std"))]
macro_rules! has_x86_feature {
    ($f:tt) => {
        std::is_x86_feature_detected!($f)
    };
}
#[cfg(all(feature = "simd", target_arch = "x86_64", not(feature = "std")))]
macro_rules! has_x86_feature {
    ($f:tt) => {
        cfg!(target_feature = $f)
    };
}

impl Level {
    /// Every level compiled into this build, slowest first.
    pub(crate) const ALL: &'static [Level] = &[
        Level::Scalar,
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        Level::Ssse3,
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        Level::Avx2,
        #[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
        Level::Neon,
    ];

    /// A short name for the level (`"avx2"`, `"scalar"`, ...).
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Level::Ssse3 => "ssse3",
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Level::Avx2 => "avx2",
            #[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
            Level::Neon => "neon",
        }
    }

    /// Whether this CPU can run the level.
    pub(crate) fn is_supported(self) -> bool {
        match self {
            Level::Scalar => true,
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Level::Ssse3 => has_x86_feature!("ssse3"),
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Level::Avx2 => has_x86_feature!("avx2"),
            // Advanced SIMD is part of the AArch64 base architecture.
            #[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
            Level::Neon => true,
        }
    }

    /// The level's table, if this CPU can run it. The only way to a SIMD table: this check is
    /// what makes calling through a `&'static Kernels` safe.
    pub(crate) fn kernels(self) -> Option<&'static Kernels> {
        if !self.is_supported() {
            return None;
        }
        Some(match self {
            Level::Scalar => &SCALAR,
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Level::Ssse3 => &SSSE3,
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Level::Avx2 => &AVX2,
            #[cfg(all(feature = "simd", target_arch = "aarch64", target_endian = "little"))]
            Level::Neon => &NEON,
        })
    }
}

/// The fastest table this CPU supports.
fn best() -> &'static Kernels {
    let mut best = &SCALAR;
    for level in Level::ALL {
        if let Some(k) = level.kernels() {
            best = k;
        }
    }
    best
}

#[cfg(all(feature = "simd", feature = "std"))]
mod select {
    use super::{best, Kernels, Level};
    use crate::error::Error;
    use crate::text::{Case, Format};
    use crate::Uuid;
    use core::sync::atomic::{AtomicPtr, Ordering};

    /// Points at [`DETECT`] until the first call, then at the chosen table for good. Relaxed
    /// ordering suffices: every table is a `static` (nothing to publish), and a thread that
    /// still sees `DETECT` merely detects again and stores the same pointer.
    static ACTIVE: AtomicPtr<Kernels> = AtomicPtr::new(&DETECT as *const Kernels as *mut Kernels);

    fn choose() -> &'static Kernels {
        let k = best();
        ACTIVE.store(k as *const Kernels as *mut Kernels, Ordering::Relaxed);
        k
    }

    fn detect_parse(s: &[u8]) -> Result<Uuid, Error> {
        choose().parse(s)
    }
    fn detect_hyphenated(s: &[u8]) -> Result<Uuid, Error> {
        choose().hyphenated(s)
    }
    fn detect_simple(s: &[u8]) -> Result<Uuid, Error> {
        choose().simple(s)
    }
    fn detect_encode_hyphenated(b: &[u8; 16], case: Case, out: &mut [u8; 36]) {
        choose().encode_hyphenated(b, case, out)
    }
    fn detect_encode_simple(b: &[u8; 16], case: Case, out: &mut [u8; 32]) {
        choose().encode_simple(b, case, out)
    }
    fn detect_encode_lines(u: &[Uuid], format: Format, case: Case, out: &mut [u8]) -> usize {
        choose().encode_lines(u, format, case, out)
    }
    #[cfg(feature = "arrow")]
    fn detect_hyphenated_run(text: &[u8], out: &mut [u8]) -> usize {
        choose().hyphenated_run(text, out)
    }
    #[cfg(feature = "arrow")]
    fn detect_encode_hyphenated_run(values: &[u8], case: Case, out: &mut [u8]) {
        choose().encode_hyphenated_run(values, case, out)
    }

    /// The first-call table: each entry selects the real table and forwards to it. Safe to
    /// call on any CPU (it is plain code), so handing it out keeps the `Kernels` invariant.
    static DETECT: Kernels = Kernels {
        level: Level::Scalar,
        parse: detect_parse,
        hyphenated: detect_hyphenated,
        simple: detect_simple,
        encode_hyphenated: detect_encode_hyphenated,
        encode_simple: detect_encode_simple,
        encode_lines: detect_encode_lines,
        #[cfg(feature = "arrow")]
        hyphenated_run: detect_hyphenated_run,
        #[cfg(feature = "arrow")]
        encode_hyphenated_run: detect_encode_hyphenated_run,
    };

    #[inline(always)]
    pub(super) fn active() -> &'static Kernels {
        // SAFETY: `ACTIVE` only ever holds the address of `DETECT` or of a table returned by
        // `Level::kernels` (through `best`), all `static`s: valid for `'static` and supported.
        unsafe { &*ACTIVE.load(Ordering::Relaxed) }
    }
}

/// The table in use: the best level of this CPU (chosen at the first call).
#[cfg(all(feature = "simd", feature = "std"))]
#[inline(always)]
pub(crate) fn active() -> &'static Kernels {
    select::active()
}

/// The table in use: without `std` the level is fixed by the compile-time target features.
#[cfg(not(all(feature = "simd", feature = "std")))]
#[inline(always)]
pub(crate) fn active() -> &'static Kernels {
    best()
}

/// The level the text codecs use on this CPU: [`best`]'s, the only table [`active`] ever
/// hands out besides the detection table, which forwards to it.
pub(crate) fn active_level() -> Level {
    best().level
}

/// Runs `f` with the table of every level this machine supports; for the tests that check each
/// level against the scalar code.
#[cfg(test)]
pub(crate) fn for_each_level(mut f: impl FnMut(&'static Kernels)) {
    for level in Level::ALL {
        if let Some(k) = level.kernels() {
            f(k);
        }
    }
}

/// The instruction set the text codecs (parsing and formatting) use on this CPU: `"avx2"`,
/// `"ssse3"`, `"neon"` or `"scalar"` (also when built without the `simd` feature).
///
/// The choice is made once, at the first call of a codec, from what the CPU reports; every
/// level gives the same results.
///
/// ```
/// let level = uuidkit::simd_level();
/// assert!(["avx2", "ssse3", "neon", "scalar"].contains(&level));
/// ```
pub fn simd_level() -> &'static str {
    active_level().name()
}

/// Writes each UUID of `uuids` in `format` and `case`, each followed by a newline, into `out`,
/// as many as fit whole; returns the number of bytes written (always ASCII: `n` UUIDs take
/// `n * (format.len() + 1)` bytes).
///
/// The batch form of [`Uuid::encode_bytes`] for output of many UUIDs (the `uuidkit gen` loop):
/// one call into the CPU's SIMD kernel per batch instead of one per UUID.
///
/// ```
/// use uuidkit::{Case, Format, Uuid};
/// let ids = [Uuid::NIL, Uuid::MAX];
/// let mut out = [0u8; 100];
/// let n = uuidkit::encode_lines(&ids, Format::Simple, Case::Upper, &mut out);
/// assert_eq!(n, 66);
/// assert_eq!(&out[..n], b"00000000000000000000000000000000\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\n");
/// // Only whole lines are written.
/// assert_eq!(uuidkit::encode_lines(&ids, Format::Hyphenated, Case::Lower, &mut out[..40]), 37);
/// ```
pub fn encode_lines(uuids: &[Uuid], format: Format, case: Case, out: &mut [u8]) -> usize {
    active().encode_lines(uuids, format, case, out)
}

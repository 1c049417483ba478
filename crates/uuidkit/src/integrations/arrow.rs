//! Column kernels on [arrow-rs](https://docs.rs/arrow-array) arrays (feature `arrow`): text
//! columns to and from UUID columns, bulk generation, timestamps, versions and validation.
//!
//! A UUID column is a `FixedSizeBinary(16)` array holding the 16 bytes in the RFC's (network)
//! order; its field carries Arrow's canonical extension type `arrow.uuid`
//! ([`arrow_schema::extension::Uuid`]): [`uuid_field`] makes one. Text columns in are
//! `Utf8`, `LargeUtf8` and `Utf8View`; UUID columns in are `FixedSizeBinary(16)` and also
//! `Binary`, `LargeBinary` and `BinaryView` whose values are all 16 bytes (Polars has no
//! fixed-size binary type: its UUID columns arrive as `Binary`).
//!
//! Like arrow-rs's own compute kernels, each function returns `Result<_, ArrowError>`, reuses the
//! input's null buffer (nulls stay null), writes into one values buffer allocated up front (no
//! allocation per row), and reads sliced arrays at their offset. The per-row work is the
//! library's codecs: the CPU's SIMD kernel table is looked up once per call, not once per row.
//!
//! Large columns: [`parse`], [`format()`], [`timestamp`], [`v4`] and [`v7`] split a column of
//! 2 × 2^18 rows or more into pieces of whole 2 MiB pages that up to [`max_threads`] scoped
//! threads take from a queue (the calling thread too; [`set_max_threads`]`(1)` keeps it alone);
//! the results are the same bytes whatever the split. Outputs of 4 MiB or more are a memory
//! mapping of their own with transparent huge pages (Linux); when the last `Buffer` over one is
//! dropped it is kept for a later call, up to [`cache_limit`] bytes ([`set_cache_limit`]), so
//! that calls in a loop reuse memory already in place instead of fresh pages the system must
//! zero. Every kernel writes every byte of its output, so a reused one never shows an earlier
//! column.
//!
//! Errors: a row that cannot be read is an [`ArrowError::ExternalError`] holding a [`RowError`]
//! (the row, and the library's [`Error`] with the character and byte); a column of the wrong
//! type is one holding a [`TypeError`] naming the type. Nothing here panics on any input.
//!
//! ```
//! use arrow_array::{Array, StringArray};
//! use uuidkit::arrow::{self, InputForm, OnError, OutputForm};
//!
//! let text = StringArray::from(vec![
//!     Some("67e55044-10b1-426f-9247-bb680e5fe0c8"),
//!     None,
//!     Some("{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}"),
//! ]);
//! let ids = arrow::parse(&text, InputForm::Rfc, OnError::Raise)?;
//! assert_eq!(ids.value(2), uuidkit::Uuid::NAMESPACE_DNS.as_bytes());
//! assert!(ids.is_null(1));
//!
//! let back = arrow::format::<i32>(&ids, &OutputForm::HYPHENATED)?;
//! assert_eq!(back.value(2), "6ba7b810-9dad-11d1-80b4-00c04fd430c8");
//!
//! let bad = StringArray::from(vec!["67e55044-10b1-426f-9247-bb680e5fe0cX"]);
//! let err = arrow::parse(&bad, InputForm::Rfc, OnError::Raise).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "External error: row 0: invalid character 'X' at byte 35: expected a hexadecimal digit"
//! );
//! # Ok::<(), arrow_schema::ArrowError>(())
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, BooleanArray, FixedSizeBinaryArray, GenericStringArray, OffsetSizeTrait,
    StringViewArray, TimestampMillisecondArray, UInt8Array,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field};

use crate::text::{Case, Format, ShortForm};
use crate::typeid::{Prefix, TypeId};
use crate::{Error, Uuid, GREGORIAN_OFFSET_TICKS};

/// The data type of a UUID column: `FixedSizeBinary(16)`.
pub const UUID_DATA_TYPE: DataType = DataType::FixedSizeBinary(16);

/// A field of type `FixedSizeBinary(16)` with Arrow's canonical extension type `arrow.uuid`
/// (the `ARROW:extension:name` metadata key), the field every UUID column here goes with.
///
/// ```
/// let f = uuidkit::arrow::uuid_field("id", false);
/// assert_eq!(f.extension_type_name(), Some("arrow.uuid"));
/// assert_eq!(f.data_type(), &arrow_schema::DataType::FixedSizeBinary(16));
/// ```
pub fn uuid_field(name: impl Into<String>, nullable: bool) -> Field {
    Field::new(name, UUID_DATA_TYPE, nullable).with_extension_type(arrow_schema::extension::Uuid)
}

/// Which text a parsing kernel accepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputForm {
    /// The four RFC forms (hyphenated, simple, braced, URN; either case), exactly what
    /// [`Uuid::try_parse_ascii`] accepts.
    #[default]
    Rfc,
    /// One RFC form only, in either case: [`Uuid::parse_hyphenated`] and
    /// [`Uuid::parse_simple`] for those two; the braced and URN forms as [`InputForm::Rfc`]
    /// reads them, any other length being a length error.
    Only(Format),
    /// One short form only ([`Uuid::parse_short`]).
    Short(ShortForm),
    /// A TypeID with any prefix, or none ([`TypeId::parse`]); the prefix is dropped.
    TypeId,
}

/// Which text a formatting kernel writes. Every form has one length, so the output's offsets
/// are multiples of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputForm {
    /// An RFC form in a case ([`Uuid::encode`]).
    Rfc(Format, Case),
    /// A short form ([`Uuid::encode_short`]).
    Short(ShortForm),
    /// A TypeID with this prefix (an empty prefix writes the bare 26-character suffix).
    TypeId(Prefix),
}

impl OutputForm {
    /// `67e55044-10b1-426f-9247-bb680e5fe0c8`: hyphenated, lower case.
    pub const HYPHENATED: OutputForm = OutputForm::Rfc(Format::Hyphenated, Case::Lower);

    /// The length of every value written in this form.
    ///
    /// ```
    /// use uuidkit::arrow::OutputForm;
    /// assert_eq!(OutputForm::HYPHENATED.len(), 36);
    /// let user = uuidkit::Prefix::new("user")?;
    /// assert_eq!(OutputForm::TypeId(user).len(), 31);
    /// # Ok::<(), uuidkit::Error>(())
    /// ```
    // No form is empty.
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(&self) -> usize {
        match self {
            OutputForm::Rfc(f, _) => f.len(),
            OutputForm::Short(s) => s.len(),
            OutputForm::TypeId(p) if p.is_empty() => 26,
            OutputForm::TypeId(p) => p.len() + 27,
        }
    }
}

/// What a parsing kernel does with a row it cannot read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OnError {
    /// Fail with a [`RowError`] for the first such row.
    #[default]
    Raise,
    /// Make the row null.
    Null,
}

/// A row a kernel could not read: its index (0-based, within the array as given, i.e. after
/// any slicing) and why. Carried in [`ArrowError::ExternalError`].
///
/// ```
/// use arrow_array::BinaryArray;
/// use uuidkit::arrow::{self, OutputForm, RowError};
/// let bad = BinaryArray::from_vec(vec![&[0u8; 16][..], &[1u8; 8][..]]);
/// let err = arrow::format::<i32>(&bad, &OutputForm::HYPHENATED).unwrap_err();
/// let row = arrow::row_error(&err).unwrap();
/// assert_eq!((row.row(), row.length()), (1, Some(8)));
/// assert_eq!(row.to_string(), "row 1: a UUID is 16 bytes, found 8");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    row: usize,
    why: Why,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Why {
    Text(Error),
    Length(usize),
}

impl RowError {
    /// The row's index in the array as given (0-based).
    pub const fn row(&self) -> usize {
        self.row
    }

    /// The text error (with its character and byte position), if the row was text.
    pub const fn text_error(&self) -> Option<&Error> {
        match &self.why {
            Why::Text(e) => Some(e),
            Why::Length(_) => None,
        }
    }

    /// The length found, if the row was a binary value of another length than 16.
    pub const fn length(&self) -> Option<usize> {
        match self.why {
            Why::Length(n) => Some(n),
            Why::Text(_) => None,
        }
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.why {
            Why::Text(e) => write!(f, "row {}: {e}", self.row),
            Why::Length(n) => write!(f, "row {}: a UUID is 16 bytes, found {n}", self.row),
        }
    }
}

impl std::error::Error for RowError {}

/// A column of a type the kernel does not take. Carried in [`ArrowError::ExternalError`].
///
/// ```
/// use arrow_array::Int64Array;
/// use uuidkit::arrow::{self, InputForm, OnError};
/// let err = arrow::parse(&Int64Array::from(vec![1]), InputForm::Rfc, OnError::Raise).unwrap_err();
/// let t = arrow::type_error(&err).unwrap();
/// assert_eq!(t.found(), &arrow_schema::DataType::Int64);
/// assert_eq!(t.to_string(), "expected a string, large string or string view column, got Int64");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    expected: &'static str,
    found: DataType,
}

impl TypeError {
    /// The type of the column given.
    pub const fn found(&self) -> &DataType {
        &self.found
    }
}

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, got {}", self.expected, self.found)
    }
}

impl std::error::Error for TypeError {}

/// The [`RowError`] inside a kernel's error, if that is what it is.
pub fn row_error(e: &ArrowError) -> Option<&RowError> {
    match e {
        ArrowError::ExternalError(b) => b.downcast_ref(),
        _ => None,
    }
}

/// The [`TypeError`] inside a kernel's error, if that is what it is.
pub fn type_error(e: &ArrowError) -> Option<&TypeError> {
    match e {
        ArrowError::ExternalError(b) => b.downcast_ref(),
        _ => None,
    }
}

const TEXT_TYPES: &str = "a string, large string or string view column";
const UUID_TYPES: &str =
    "a FixedSizeBinary(16) column (or binary, large binary or binary view of 16-byte values)";

fn wrong_type(expected: &'static str, found: &DataType) -> ArrowError {
    ArrowError::ExternalError(Box::new(TypeError {
        expected,
        found: found.clone(),
    }))
}

fn bad_row(row: usize, why: Why) -> ArrowError {
    ArrowError::ExternalError(Box::new(RowError { row, why }))
}

/// Outputs of this size and more get a mapping of their own (`sys::map_zeroed`: huge pages,
/// one page fault per 2 MiB instead of per 4 KiB), kept for reuse when freed (see [`cache`]).
const MAP_FROM: usize = 4 << 20;

/// A kernel's output buffer: from the allocator (zeroed), or a mapping of its own when large,
/// fresh (zeroed) or reused from [`cache`] (holding what an earlier output held), of which the
/// first `len` bytes are the output. Every kernel writes every byte of the `len` it asked for,
/// so which one it got is never seen.
enum Out {
    Heap(Vec<u8>),
    Mapped(Region, usize),
}

/// A `sys::map_zeroed` mapping of `cap` bytes, unmapped when dropped.
struct Region {
    ptr: std::ptr::NonNull<u8>,
    cap: usize,
}

// SAFETY: the mapping is plain memory owned by this value alone (no thread affinity); shared
// references only read it, and arrow-rs's `Buffer` hands out only shared access.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}
impl std::panic::RefUnwindSafe for Region {}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: `ptr` and `cap` are one `map_zeroed` mapping, owned by this value alone and
        // freed only here.
        unsafe { crate::sys::unmap(self.ptr, self.cap) }
    }
}

/// The owner of a mapping behind `Buffer`s: when the last of them is dropped, the mapping goes
/// to [`cache`], which keeps it or drops it (unmapping it).
struct Kept(Option<Region>);

impl Drop for Kept {
    fn drop(&mut self) {
        if let Some(r) = self.0.take() {
            cache::keep(r);
        }
    }
}

impl Out {
    fn into_buffer(self) -> Buffer {
        match self {
            Out::Heap(v) => Buffer::from_vec(v),
            Out::Mapped(r, len) => {
                let ptr = r.ptr;
                // SAFETY: `ptr` is valid for `len <= cap` initialised bytes (zeroed or an
                // earlier output's, then written) for as long as the region lives, and the
                // buffer keeps its owner until its last clone is dropped.
                unsafe { Buffer::from_custom_allocation(ptr, len, Arc::new(Kept(Some(r)))) }
            }
        }
    }
}

impl std::ops::Deref for Out {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Out::Heap(v) => v,
            // SAFETY: `len <= cap` initialised bytes of the mapping, borrowed with `self`.
            Out::Mapped(r, len) => unsafe { std::slice::from_raw_parts(r.ptr.as_ptr(), *len) },
        }
    }
}

impl std::ops::DerefMut for Out {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Out::Heap(v) => v,
            // SAFETY: as in `deref`, borrowed mutably with `self` (the mapping has no other
            // owner before `into_buffer`).
            Out::Mapped(r, len) => unsafe { std::slice::from_raw_parts_mut(r.ptr.as_ptr(), *len) },
        }
    }
}

/// `len` bytes for a kernel to write whole, or an error (not an abort) when they cannot be had.
///
/// From [`MAP_FROM`] bytes: a freed output's mapping if [`cache`] holds one that fits (its
/// pages are already faulted in and often still in the CPU's caches), else a fresh mapping,
/// zeroed by the kernel. Smaller ones: `calloc`. Either way the kernel's pass over it is the
/// only one.
fn output(len: usize) -> Result<Out, ArrowError> {
    if len == 0 {
        return Ok(Out::Heap(Vec::new()));
    }
    if len >= MAP_FROM {
        if let Some(r) = cache::take(len) {
            return Ok(Out::Mapped(r, len));
        }
        if let Some(ptr) = crate::sys::map_zeroed(len) {
            return Ok(Out::Mapped(Region { ptr, cap: len }, len));
        }
    }
    let layout = std::alloc::Layout::array::<u8>(len)
        .map_err(|_| ArrowError::MemoryError(format!("cannot allocate {len} bytes")))?;
    // SAFETY: `layout` has a non-zero size (checked above).
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    if p.is_null() {
        return Err(ArrowError::MemoryError(format!(
            "cannot allocate {len} bytes"
        )));
    }
    // SAFETY: `p` was allocated by the global allocator with the layout of `[u8; len]` (the
    // size and alignment `Vec<u8>` uses for capacity `len`), and all `len` bytes are
    // initialised (zero).
    Ok(Out::Heap(unsafe { Vec::from_raw_parts(p, len, len) }))
}

/// Freed output mappings, kept for the next kernel call.
///
/// A fresh mapping costs the kernel's zeroing of every page at first touch: on the benchmark
/// machine 1.2 ns per 16-byte row, more than some kernels' own work. Like an allocator that
/// keeps freed memory, the kernels keep their freed outputs, up to [`cache_limit`] bytes in
/// all and [`SLOTS`](cache::SLOTS) mappings, the oldest given back first; a call takes the
/// smallest one that holds its output and wastes at most a quarter of it (of equal ones the most
/// recently freed). The lock is only ever tried: a call that finds it held (another thread, or
/// a child forked while a thread held it) maps or unmaps as if there were no cache, so nothing
/// waits on it. A region given back is unmapped by its `Drop`, outside the lock.
pub(crate) mod cache {
    use super::Region;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    /// The most mappings kept.
    pub(super) const SLOTS: usize = 8;

    /// `usize::MAX`: not set, the default.
    static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

    static KEPT: Mutex<Vec<Region>> = Mutex::new(Vec::new());

    /// The default limit: 1 GiB, or a sixteenth of the machine's memory if less.
    fn default_limit() -> usize {
        let sixteenth = crate::sys::physical_memory().map_or(256 << 20, |m| m / 16);
        sixteenth.min(1 << 30)
    }

    /// The limit in bytes.
    pub(super) fn limit() -> usize {
        match LIMIT.load(Ordering::Relaxed) {
            usize::MAX => default_limit(),
            n => n,
        }
    }

    /// Takes the oldest of `kept` out until at most `bytes` bytes in at most `slots` mappings
    /// remain; the caller drops them (unmapping them) after the lock.
    fn evict(kept: &mut Vec<Region>, bytes: usize, slots: usize) -> Vec<Region> {
        let mut total: usize = kept.iter().map(|r| r.cap).sum();
        let mut n = 0;
        while n < kept.len() && (total > bytes || kept.len() - n > slots) {
            total -= kept[n].cap;
            n += 1;
        }
        kept.drain(..n).collect()
    }

    /// Sets the limit and gives back to the system what is kept beyond it.
    pub(super) fn set_limit(bytes: usize) {
        LIMIT.store(bytes.min(usize::MAX - 1), Ordering::Relaxed);
        let old = match KEPT.lock() {
            Ok(mut kept) => evict(&mut kept, bytes, SLOTS),
            Err(_) => Vec::new(),
        };
        drop(old);
    }

    /// The bytes kept now.
    pub(super) fn held() -> usize {
        KEPT.try_lock().map_or(0, |k| k.iter().map(|r| r.cap).sum())
    }

    /// A kept mapping of at least `len` bytes and at most a third more (plus a huge page), or
    /// `None`.
    pub(super) fn take(len: usize) -> Option<Region> {
        let mut kept = KEPT.try_lock().ok()?;
        let most = len.saturating_add(len / 3).saturating_add(2 << 20);
        // Of equal sizes the most recently freed, whose pages are likeliest still in the CPU's
        // caches (`min_by_key` keeps the first of equal keys: newest first).
        let best = kept
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, r)| r.cap >= len && r.cap <= most)
            .min_by_key(|(_, r)| r.cap)
            .map(|(i, _)| i)?;
        Some(kept.remove(best))
    }

    /// Keeps `r` if it fits under the limit, making room by giving back the oldest; otherwise
    /// (too large, or the lock held) drops it.
    pub(super) fn keep(r: Region) {
        let limit = limit();
        if r.cap > limit {
            return;
        }
        let Ok(mut kept) = KEPT.try_lock() else {
            return;
        };
        let old = evict(&mut kept, limit - r.cap, SLOTS - 1);
        kept.push(r);
        drop(kept);
        drop(old);
    }
}

/// Sets how many bytes of freed output memory the kernels keep for their next calls (large
/// outputs only: 4 MiB and more, each a mapping of its own); what is kept beyond it is given
/// back to the system at once, and 0 gives back everything and keeps nothing. The default is
/// 1 GiB, or a sixteenth of the machine's memory where that is less. Results do not depend on
/// it, only the time a call takes: reused memory is already faulted in, fresh memory is zeroed
/// by the system at first touch.
///
/// ```
/// use uuidkit::arrow;
/// let limit = arrow::cache_limit();
/// drop(arrow::v4(1 << 20)?); // 16 MiB, kept when dropped
/// assert!(arrow::cache_held() <= limit);
/// arrow::set_cache_limit(0);
/// assert_eq!(arrow::cache_held(), 0);
/// arrow::set_cache_limit(limit);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn set_cache_limit(bytes: usize) {
    cache::set_limit(bytes)
}

/// The most bytes of freed output memory the kernels keep (see [`set_cache_limit`]).
pub fn cache_limit() -> usize {
    cache::limit()
}

/// The bytes of freed output memory the kernels keep now (0 if another thread is using the
/// cache at this moment).
pub fn cache_held() -> usize {
    cache::held()
}

/// `n` values of `width` bytes each.
fn values_len(n: usize, width: usize) -> Result<usize, ArrowError> {
    n.checked_mul(width)
        .ok_or_else(|| ArrowError::MemoryError(format!("{n} values of {width} bytes overflow")))
}

// ---- threads ---------------------------------------------------------------------------------

/// The most threads a kernel uses; 0: the machine's (`available_parallelism`).
static MAX_THREADS: AtomicUsize = AtomicUsize::new(0);

/// Fewer rows than this per thread are not worth a thread's start (tens of microseconds).
const MIN_ROWS_PER_THREAD: usize = 1 << 18;

/// Sets the most threads a kernel splits a large column over (`parse`, `format`, `timestamp`,
/// `v4`, `v7` split columns of at least 2 × 2^18 rows into parts of at least 2^18, each on a scoped
/// thread of its own, with the calling thread doing the first): 1 keeps every kernel on the
/// calling thread, 0 (the default) means the machine's available parallelism. The results do
/// not depend on it: the same bytes, the same first error, v7 the same order.
///
/// ```
/// uuidkit::arrow::set_max_threads(1);
/// assert_eq!(uuidkit::arrow::max_threads(), 1);
/// uuidkit::arrow::set_max_threads(0);
/// assert!(uuidkit::arrow::max_threads() >= 1);
/// ```
pub fn set_max_threads(n: usize) {
    MAX_THREADS.store(n, Ordering::Relaxed);
}

/// The most threads a kernel uses (see [`set_max_threads`]).
pub fn max_threads() -> usize {
    match MAX_THREADS.load(Ordering::Relaxed) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The threads for a column of `n` rows.
fn threads_for(n: usize) -> usize {
    max_threads().min(n / MIN_ROWS_PER_THREAD).max(1)
}

/// Rows per piece of work when a column is split, at least: small enough that a thread whose
/// core is busy elsewhere holds the others up by one piece at most (equal halves made the call
/// wait for the slower core: 5 to 10 times slower on a loaded machine), large enough that
/// taking the next piece (one lock) costs nothing.
const PIECE_ROWS: usize = 1 << 16;
// `timestamp` builds each piece's validity bits in whole 64-bit words.
const _: () = assert!(PIECE_ROWS % 64 == 0);

/// The rows of a piece for `width`-byte rows: [`PIECE_ROWS`], or more so that every piece is a
/// whole number of 2 MiB huge pages (pieces start on them: the mapping is aligned), so that no
/// two threads fault the same huge page (which made some calls several times slower).
fn piece_rows(width: usize) -> usize {
    let twos = width.trailing_zeros().min(21);
    PIECE_ROWS.max(1 << (21 - twos))
}

/// Runs `f(first_row, part)` over consecutive parts of `out` (`width` bytes a row, `n` rows):
/// on the calling thread alone, or, for a large column, in pieces of [`PIECE_ROWS`] rows that
/// up to [`threads_for`]`(n)` threads (the calling one too) take in turn from a shared queue.
/// Returns the parts' results in row order, or the error of the first part (in row order) that
/// failed. A thread that cannot be started leaves its share to the others.
fn split_rows<T: Send, E: Send>(
    n: usize,
    out: &mut [u8],
    width: usize,
    f: impl Fn(usize, &mut [u8]) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let threads = threads_for(n);
    if threads <= 1 || width == 0 {
        return f(0, out).map(|t| vec![t]);
    }
    let rows = piece_rows(width);
    let queue = std::sync::Mutex::new(out.chunks_mut(rows * width).enumerate());
    let work = || {
        let mut done = Vec::new();
        loop {
            // A poisoned lock (a panic in another piece, which no input causes) ends the work;
            // the panic itself is passed on by the scope.
            let next = match queue.lock() {
                Ok(mut q) => q.next(),
                Err(_) => None,
            };
            let Some((k, part)) = next else {
                return done;
            };
            done.push((k, f(k * rows, part)));
        }
    };
    let mut results: Vec<(usize, Result<T, E>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        let mut all = work();
        for h in handles {
            // A panic in a piece (there is none on any input) is passed on as it is.
            all.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        all
    });
    results.sort_unstable_by_key(|(k, _)| *k);
    results.into_iter().map(|(_, r)| r).collect()
}

// ---- text in ---------------------------------------------------------------------------------

/// A text column's rows as byte slices, whatever its layout.
trait Rows {
    fn len(&self) -> usize;
    fn nulls(&self) -> Option<&NullBuffer>;
    /// Row `i < len()`; any row (a null one's bytes are whatever the array holds).
    fn row(&self, i: usize) -> &[u8];
    /// The longest run of rows from `i` (before `end`) that are each `width` bytes and lie one
    /// after another in one buffer: how many, and their bytes (a null row's too, whatever they
    /// are); none: 0 rows.
    fn run_from(&self, i: usize, end: usize, width: usize) -> (usize, &[u8]);
}

struct Offsets<'a, O> {
    offsets: &'a [O],
    data: &'a [u8],
    nulls: Option<&'a NullBuffer>,
}

impl<O: OffsetSizeTrait> Rows for Offsets<'_, O> {
    #[inline]
    fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    #[inline]
    fn nulls(&self) -> Option<&NullBuffer> {
        self.nulls
    }
    #[inline(always)]
    fn row(&self, i: usize) -> &[u8] {
        // A valid array's offsets are increasing and within `data`; `get` keeps a broken one
        // (built with `new_unchecked`) from panicking: its rows read as empty.
        let (a, b) = (self.offsets[i].as_usize(), self.offsets[i + 1].as_usize());
        self.data.get(a..b).unwrap_or_default()
    }
    fn run_from(&self, i: usize, end: usize, width: usize) -> (usize, &[u8]) {
        let Some(o) = self.offsets.get(i..end.saturating_add(1)) else {
            return (0, &[]);
        };
        let k = o
            .windows(2)
            .take_while(|w| w[1].as_usize().wrapping_sub(w[0].as_usize()) == width)
            .count();
        let start = o.first().map_or(0, |o| o.as_usize());
        match self.data.get(start..start.saturating_add(k * width)) {
            Some(text) => (k, text),
            None => (0, &[]),
        }
    }
}

struct Views<'a>(&'a StringViewArray);

impl Rows for Views<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn nulls(&self) -> Option<&NullBuffer> {
        self.0.nulls()
    }
    #[inline(always)]
    fn row(&self, i: usize) -> &[u8] {
        self.0.value(i).as_bytes()
    }
    fn run_from(&self, i: usize, end: usize, width: usize) -> (usize, &[u8]) {
        let Some(views) = self.0.views().get(i..end) else {
            return (0, &[]);
        };
        let Some(&first) = views.first() else {
            return (0, &[]);
        };
        if width <= 12 {
            return (0, &[]);
        }
        // A view of more than 12 bytes: length (bits 0-31), prefix, buffer index (64-95),
        // offset (96-127). Rows one after another: the same buffer, offsets `width` apart.
        let (buffer, start) = ((first >> 64) as u32, (first >> 96) as u32 as usize);
        let k = views
            .iter()
            .enumerate()
            .take_while(|(j, v)| {
                **v as u32 as usize == width
                    && (**v >> 64) as u32 == buffer
                    && ((**v >> 96) as u32 as usize).wrapping_sub(start) == j.wrapping_mul(width)
            })
            .count();
        let text = self
            .0
            .data_buffers()
            .get(buffer as usize)
            .and_then(|d| d.get(start..start.saturating_add(k * width)));
        match text {
            Some(text) => (k, text),
            None => (0, &[]),
        }
    }
}

fn offsets<O: OffsetSizeTrait>(a: &GenericStringArray<O>) -> Offsets<'_, O> {
    Offsets {
        offsets: a.value_offsets(),
        data: a.value_data(),
        nulls: a.nulls(),
    }
}

/// Runs `f` with the rows of a text column, or fails naming the type.
fn with_rows<T>(
    array: &dyn Array,
    f: impl FnOnce(&dyn RowsDyn) -> Result<T, ArrowError>,
) -> Result<T, ArrowError> {
    match array.data_type() {
        DataType::Utf8 => f(&offsets(array.as_string::<i32>())),
        DataType::LargeUtf8 => f(&offsets(array.as_string::<i64>())),
        DataType::Utf8View => f(&Views(array.as_string_view())),
        other => Err(wrong_type(TEXT_TYPES, other)),
    }
}

/// [`Rows`] behind a `dyn`: one indirect call per kernel, then the monomorphic loop.
trait RowsDyn {
    fn parse(&self, form: InputForm, on_error: OnError)
        -> Result<FixedSizeBinaryArray, ArrowError>;
    fn validate(&self, form: InputForm) -> BooleanArray;
}

impl<R: Rows + Sync> RowsDyn for R {
    fn parse(
        &self,
        form: InputForm,
        on_error: OnError,
    ) -> Result<FixedSizeBinaryArray, ArrowError> {
        let k = crate::simd::active();
        // The RFC forms and the hyphenated one: runs of 36-byte rows go through the column
        // kernel, the rest (and a run's rejected row) through the row parser.
        let run = Some(k);
        match form {
            InputForm::Rfc => parse_rows(self, on_error, run, |s| k.parse(s)),
            InputForm::Only(f @ Format::Hyphenated) => parse_rows(self, on_error, run, only(k, f)),
            InputForm::Only(f) => parse_rows(self, on_error, None, only(k, f)),
            InputForm::Short(f) => parse_rows(self, on_error, None, |s| Uuid::parse_short(f, s)),
            InputForm::TypeId => {
                parse_rows(self, on_error, None, |s| TypeId::parse(s).map(|t| t.uuid()))
            }
        }
    }

    fn validate(&self, form: InputForm) -> BooleanArray {
        let k = crate::simd::active();
        let bits = match form {
            InputForm::Rfc => {
                BooleanBuffer::collect_bool(self.len(), |i| k.parse(self.row(i)).is_ok())
            }
            InputForm::Only(f) => {
                let p = only(k, f);
                BooleanBuffer::collect_bool(self.len(), |i| p(self.row(i)).is_ok())
            }
            InputForm::Short(f) => BooleanBuffer::collect_bool(self.len(), |i| {
                Uuid::parse_short(f, self.row(i)).is_ok()
            }),
            InputForm::TypeId => {
                BooleanBuffer::collect_bool(self.len(), |i| TypeId::parse(self.row(i)).is_ok())
            }
        };
        BooleanArray::new(bits, self.nulls().cloned())
    }
}

/// The parser of one RFC form.
fn only(
    k: &'static crate::simd::Kernels,
    f: Format,
) -> impl Fn(&[u8]) -> Result<Uuid, Error> + Sync {
    move |s: &[u8]| match f {
        Format::Hyphenated => k.hyphenated(s),
        Format::Simple => k.simple(s),
        Format::Braced | Format::Urn if s.len() == f.len() => k.parse(s),
        Format::Braced | Format::Urn => Err(crate::diagnose::length_error(s.len(), f.len())),
    }
}

/// Rows per block of parse's column path: the check of the rows' lengths reads their offsets
/// (or views) just before the kernel reads their text, both in the L1 cache.
const RUN_ROWS: usize = 64;

#[inline(always)]
fn parse_rows<R: Rows + Sync + ?Sized>(
    rows: &R,
    on_error: OnError,
    run: Option<&'static crate::simd::Kernels>,
    parse: impl Fn(&[u8]) -> Result<Uuid, Error> + Sync,
) -> Result<FixedSizeBinaryArray, ArrowError> {
    let n = rows.len();
    let mut out = output(values_len(n, 16)?)?;
    let nulls = rows.nulls().filter(|b| b.null_count() > 0);
    let parts = split_rows(n, &mut out, 16, |first, chunk| {
        let mut bad: Vec<usize> = Vec::new();
        // One row through the row parser. Null and bad rows are written too (zero): the
        // output may be reused memory.
        let mut one = |i: usize, dst: &mut [u8]| -> Result<(), ArrowError> {
            if nulls.is_some_and(|b| b.is_null(i)) {
                dst.fill(0);
                return Ok(());
            }
            match parse(rows.row(i)) {
                Ok(u) => dst.copy_from_slice(u.as_bytes()),
                Err(e) => match on_error {
                    OnError::Raise => return Err(bad_row(i, Why::Text(e))),
                    OnError::Null => {
                        dst.fill(0);
                        bad.push(i);
                    }
                },
            }
            Ok(())
        };
        for (b, block) in chunk.chunks_mut(16 * RUN_ROWS).enumerate() {
            let at = first + b * RUN_ROWS;
            let count = block.len() / 16;
            let Some(k) = run else {
                for (j, dst) in block.chunks_exact_mut(16).enumerate() {
                    one(at + j, dst)?;
                }
                continue;
            };
            // Runs of 36-byte rows (mostly the whole block) between rows of other lengths (a
            // null's empty row, another form), which go to the row parser.
            let mut j = 0;
            while j < count {
                let (m, text) = rows.run_from(at + j, at + count, 36);
                if m == 0 {
                    one(at + j, &mut block[16 * j..16 * j + 16])?;
                    j += 1;
                    continue;
                }
                // The kernel stops at a row it rejects; that row goes to the row parser (for
                // its error, or it is null), and the kernel goes on after it.
                let end = j + m;
                let mut d = 0;
                while d < m {
                    d += k.hyphenated_run(&text[36 * d..], &mut block[16 * (j + d)..16 * end]);
                    if d < m {
                        one(at + j + d, &mut block[16 * (j + d)..16 * (j + d + 1)])?;
                        d += 1;
                    }
                }
                j = end;
            }
            // A null row's bytes may have been text the kernel read: zero them.
            if let Some(nb) = nulls {
                for (j, dst) in block.chunks_exact_mut(16).enumerate() {
                    if nb.is_null(at + j) {
                        dst.fill(0);
                    }
                }
            }
        }
        Ok::<_, ArrowError>(bad)
    })?;
    let bad = parts.concat();
    let nulls = if bad.is_empty() {
        rows.nulls().cloned()
    } else {
        let mut valid = arrow_buffer::BooleanBufferBuilder::new(n);
        valid.append_n(n, true);
        for &i in &bad {
            valid.set_bit(i, false);
        }
        NullBuffer::union(rows.nulls(), Some(&NullBuffer::new(valid.finish())))
    };
    FixedSizeBinaryArray::try_new(16, out.into_buffer(), nulls)
}

/// Parses a text column (`Utf8`, `LargeUtf8` or `Utf8View`) into a UUID column
/// (`FixedSizeBinary(16)`; its field: [`uuid_field`]). Nulls stay null; a row that is not a
/// UUID in `form` fails the call with a [`RowError`] naming the row, the character and its
/// byte ([`OnError::Raise`]) or becomes null ([`OnError::Null`]).
///
/// ```
/// use arrow_array::{Array, LargeStringArray};
/// use uuidkit::arrow::{self, InputForm, OnError};
/// let text = LargeStringArray::from(vec!["01H455VB4PEX5VSKNK084SN02Q", "not a ulid"]);
/// let ids = arrow::parse(&text, InputForm::Short(uuidkit::ShortForm::Ulid), OnError::Null)?;
/// assert_eq!(uuidkit::Uuid::from_slice(ids.value(0))?.to_string(), "01890a5d-ac96-774b-bcce-b302099a8057");
/// assert!(ids.is_null(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse(
    array: &dyn Array,
    form: InputForm,
    on_error: OnError,
) -> Result<FixedSizeBinaryArray, ArrowError> {
    with_rows(array, |r| r.parse(form, on_error))
}

/// [`parse`] for a `Utf8` or `LargeUtf8` array.
pub fn parse_strings<O: OffsetSizeTrait>(
    array: &GenericStringArray<O>,
    form: InputForm,
    on_error: OnError,
) -> Result<FixedSizeBinaryArray, ArrowError> {
    offsets(array).parse(form, on_error)
}

/// [`parse`] for a `Utf8View` array.
pub fn parse_string_view(
    array: &StringViewArray,
    form: InputForm,
    on_error: OnError,
) -> Result<FixedSizeBinaryArray, ArrowError> {
    Views(array).parse(form, on_error)
}

/// A boolean column: true where the row parses in `form` (as [`parse`] reads it), false where
/// it does not; null where the row is null.
///
/// ```
/// use arrow_array::StringViewArray;
/// use uuidkit::arrow::{self, InputForm};
/// let text = StringViewArray::from(vec![Some("6ba7b8109dad11d180b400c04fd430c8"), Some("x"), None]);
/// let ok = arrow::validate(&text, InputForm::Rfc)?;
/// assert_eq!(ok.iter().collect::<Vec<_>>(), [Some(true), Some(false), None]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn validate(array: &dyn Array, form: InputForm) -> Result<BooleanArray, ArrowError> {
    with_rows(array, |r| Ok(r.validate(form)))
}

// ---- UUIDs in --------------------------------------------------------------------------------

/// The 16-byte values of a UUID column, contiguous (borrowed from a `FixedSizeBinary(16)`
/// array; copied from the binary types, whose values are checked to be 16 bytes), and its nulls.
fn uuid_values(array: &dyn Array) -> Result<(Cow<'_, [u8]>, Option<NullBuffer>), ArrowError> {
    fn copy<'a>(
        n: usize,
        nulls: Option<&NullBuffer>,
        row: impl Fn(usize) -> &'a [u8],
    ) -> Result<Vec<u8>, ArrowError> {
        // A temporary, read once: the allocator's memory is the right kind.
        let len = values_len(n, 16)?;
        let mut out = Vec::new();
        out.try_reserve_exact(len)
            .map_err(|_| ArrowError::MemoryError(format!("cannot allocate {len} bytes")))?;
        out.resize(len, 0);
        for (i, dst) in out.chunks_exact_mut(16).enumerate() {
            if nulls.is_some_and(|b| b.is_null(i)) {
                continue;
            }
            let v = row(i);
            if v.len() != 16 {
                return Err(bad_row(i, Why::Length(v.len())));
            }
            dst.copy_from_slice(v);
        }
        Ok(out)
    }
    let n = array.len();
    let nulls = array.nulls().cloned();
    let values = match array.data_type() {
        DataType::FixedSizeBinary(16) => Cow::Borrowed(array.as_fixed_size_binary().value_data()),
        DataType::Binary => {
            let a = array.as_binary::<i32>();
            Cow::Owned(copy(n, a.nulls(), |i| a.value(i))?)
        }
        DataType::LargeBinary => {
            let a = array.as_binary::<i64>();
            Cow::Owned(copy(n, a.nulls(), |i| a.value(i))?)
        }
        DataType::BinaryView => {
            let a = array.as_binary_view();
            Cow::Owned(copy(n, a.nulls(), |i| a.value(i))?)
        }
        other => return Err(wrong_type(UUID_TYPES, other)),
    };
    if values.len() != n * 16 {
        // A FixedSizeBinaryArray always holds len × 16 bytes; this only guards the loops.
        return Err(ArrowError::InvalidArgumentError(format!(
            "a UUID column of {n} rows holds {} bytes",
            values.len()
        )));
    }
    Ok((values, nulls))
}

/// The `i64` in 8 bytes of native order.
#[inline(always)]
fn ne8(b: &[u8]) -> i64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    i64::from_ne_bytes(a)
}

#[inline(always)]
fn as16(b: &[u8]) -> [u8; 16] {
    let mut a = [0u8; 16];
    a.copy_from_slice(b);
    a
}

/// Writes `values` (16 bytes each) in `form`, `form.len()` bytes each, into `out`.
fn encode_all(values: &[u8], form: &OutputForm, out: &mut [u8]) {
    let k = crate::simd::active();
    let width = form.len();
    let pairs = values.chunks_exact(16).zip(out.chunks_exact_mut(width));
    match *form {
        OutputForm::Rfc(Format::Hyphenated, case) => k.encode_hyphenated_run(values, case, out),
        OutputForm::Rfc(Format::Simple, case) => {
            for (src, dst) in pairs {
                if let Some(d) = dst.first_chunk_mut::<32>() {
                    k.encode_simple(&as16(src), case, d);
                }
            }
        }
        OutputForm::Rfc(Format::Braced, case) => {
            for (src, dst) in pairs {
                dst[0] = b'{';
                dst[37] = b'}';
                if let Some(d) = dst[1..].first_chunk_mut::<36>() {
                    k.encode_hyphenated(&as16(src), case, d);
                }
            }
        }
        OutputForm::Rfc(Format::Urn, case) => {
            for (src, dst) in pairs {
                dst[..9].copy_from_slice(b"urn:uuid:");
                if let Some(d) = dst[9..].first_chunk_mut::<36>() {
                    k.encode_hyphenated(&as16(src), case, d);
                }
            }
        }
        OutputForm::Short(f) => {
            let mut buf = [0u8; crate::MAX_SHORT_LEN];
            for (src, dst) in pairs {
                let n = Uuid::from_bytes(as16(src)).encode_short_bytes(f, &mut buf);
                dst.copy_from_slice(&buf[..n]);
            }
        }
        OutputForm::TypeId(prefix) => {
            let p = prefix.as_bytes();
            let at = if p.is_empty() { 0 } else { p.len() + 1 };
            for (src, dst) in pairs {
                if at > 0 {
                    dst[..p.len()].copy_from_slice(p);
                    dst[p.len()] = b'_';
                }
                dst[at..].copy_from_slice(&Uuid::from_bytes(as16(src)).encode_typeid_suffix());
            }
        }
    }
}

/// The `n + 1` offsets `0, width, 2 width, …` (which the caller has checked fit `O`): in an
/// output buffer of [`output`]'s when large (a reused one is already faulted in).
fn stride_offsets<O: OffsetSizeTrait>(
    n: usize,
    width: usize,
) -> Result<ScalarBuffer<O>, ArrowError> {
    let size = std::mem::size_of::<O>();
    let len = values_len(n.saturating_add(1), size)?;
    if len >= MAP_FROM {
        let mut out = output(len)?;
        // `O` is `i32` or `i64` (the two `OffsetSizeTrait` types), in native byte order.
        match size {
            4 => {
                for (i, d) in out.chunks_exact_mut(4).enumerate() {
                    d.copy_from_slice(&((i * width) as u32).to_ne_bytes());
                }
            }
            _ => {
                for (i, d) in out.chunks_exact_mut(8).enumerate() {
                    d.copy_from_slice(&((i * width) as u64).to_ne_bytes());
                }
            }
        }
        let buffer = out.into_buffer();
        // A mapping is page-aligned; the allocator's block (align 1 asked) may not be.
        if buffer.as_ptr().align_offset(std::mem::align_of::<O>()) == 0 {
            return Ok(ScalarBuffer::new(buffer, 0, n + 1));
        }
    }
    Ok((0..=n).map(|i| O::usize_as(i * width)).collect())
}

/// Writes a UUID column in `form` as a string column (`Utf8` for `O = i32`, `LargeUtf8` for
/// `i64`). Nulls stay null. Takes `FixedSizeBinary(16)`, and `Binary`, `LargeBinary`,
/// `BinaryView` whose non-null values are all 16 bytes (another length is a [`RowError`]);
/// another type is a [`TypeError`]. A `Utf8` result of more than 2^31 − 1 bytes is an error
/// (ask for `LargeUtf8`).
///
/// ```
/// use arrow_array::{Array, FixedSizeBinaryArray};
/// use uuidkit::arrow::{self, OutputForm};
/// use uuidkit::{Case, Format, Prefix, ShortForm, Uuid};
/// let ids = FixedSizeBinaryArray::try_from_iter([Uuid::NAMESPACE_DNS.as_bytes()].into_iter())?;
/// let urn = arrow::format::<i64>(&ids, &OutputForm::Rfc(Format::Urn, Case::Upper))?;
/// assert_eq!(urn.value(0), "urn:uuid:6BA7B810-9DAD-11D1-80B4-00C04FD430C8");
/// let b58 = arrow::format::<i32>(&ids, &OutputForm::Short(ShortForm::Base58))?;
/// assert_eq!(b58.value(0), Uuid::NAMESPACE_DNS.short(ShortForm::Base58).to_string());
/// let tid = arrow::format::<i32>(&ids, &OutputForm::TypeId(Prefix::new("dns")?))?;
/// assert!(tid.value(0).starts_with("dns_"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn format<O: OffsetSizeTrait>(
    array: &dyn Array,
    form: &OutputForm,
) -> Result<GenericStringArray<O>, ArrowError> {
    let (values, nulls) = uuid_values(array)?;
    let n = array.len();
    let width = form.len();
    let total = values_len(n, width)?;
    if O::from_usize(total).is_none() {
        return Err(ArrowError::OffsetOverflowError(total));
    }
    let mut out = output(total)?;
    split_rows(n, &mut out, width, |first, chunk| {
        let rows = chunk.len() / width;
        encode_all(&values[16 * first..16 * (first + rows)], form, chunk);
        Ok::<(), ArrowError>(())
    })?;
    // SAFETY: offsets start at 0, increase by `width` and end at `total`, the length of `out`
    // (which fits `O`, checked above).
    let offsets = unsafe { OffsetBuffer::new_unchecked(stride_offsets::<O>(n, width)?) };
    // SAFETY: every byte of `out` is ASCII, hence UTF-8 at every offset: `encode_all` writes
    // each of the `n` slots whole with the library's encoders (hex digits from an ASCII table,
    // `-`, braces, `urn:uuid:`, the short forms' ASCII alphabets, a TypeID prefix checked to be
    // `a-z_` and `_`; `simd::tests` checks the SIMD encoders against the scalar ones), and
    // `total` is exactly `n` slots. Validating instead would cost as much as encoding.
    Ok(unsafe { GenericStringArray::new_unchecked(offsets, out.into_buffer(), nulls) })
}

/// A `timestamp[ms, UTC]` column of the time each UUID carries: v1 and v6 (their 100-ns
/// Gregorian time, rounded down to the millisecond) and v7 (its `unix_ts_ms`); null for other
/// versions and variants and for null rows. Takes the inputs [`format()`] takes.
///
/// ```
/// use arrow_array::FixedSizeBinaryArray;
/// let v7 = uuidkit::Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")?;
/// let ids = FixedSizeBinaryArray::try_from_iter([v7.as_bytes(), uuidkit::v4().as_bytes()].into_iter())?;
/// let t = uuidkit::arrow::timestamp(&ids)?;
/// assert_eq!(t.iter().collect::<Vec<_>>(), [Some(1645557742000), None]);
/// assert_eq!(t.timezone(), Some("UTC"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn timestamp(array: &dyn Array) -> Result<TimestampMillisecondArray, ArrowError> {
    let (values, nulls) = uuid_values(array)?;
    let n = array.len();
    // One pass: the milliseconds, and `i64::MIN` (which no UUID's time reaches: v1/v6 times
    // are at least -12,219,292,800,000 ms) for the rows that carry none.
    const NONE: i64 = i64::MIN;
    let ms = |b: &[u8]| -> i64 {
        let rfc = b[8] & 0xc0 == 0x80;
        match b[6] >> 4 {
            // 48 bits: fits i64.
            7 if rfc => i64::from_be_bytes([0, 0, b[0], b[1], b[2], b[3], b[4], b[5]]),
            1 | 6 if rfc => match Uuid::from_bytes(as16(b)).gregorian_ticks() {
                // Below 2^60: fits i64, as does the difference.
                Some(t) => (t as i64 - GREGORIAN_OFFSET_TICKS as i64).div_euclid(10_000),
                None => NONE,
            },
            _ => NONE,
        }
    };
    let mut out = output(values_len(n, 8)?)?;
    // One pass: each piece writes its rows' milliseconds and returns their validity bits, 64
    // rows a word (every piece but the last is a whole number of words: `piece_rows` is
    // `PIECE_ROWS` or a larger power of two, so the words join up).
    let words = split_rows(n, &mut out, 8, |first, chunk| {
        let src = &values[16 * first..16 * (first + chunk.len() / 8)];
        let mut words = Vec::with_capacity(chunk.len() / 8 / 64 + 1);
        for (dst, src) in chunk.chunks_mut(8 * 64).zip(src.chunks(16 * 64)) {
            let mut word = 0u64;
            for (j, (d, b)) in dst
                .chunks_exact_mut(8)
                .zip(src.chunks_exact(16))
                .enumerate()
            {
                let t = ms(b);
                word |= u64::from(t != NONE) << j;
                d.copy_from_slice(&t.to_ne_bytes());
            }
            // Arrow bitmaps are little-endian: bit i of byte i / 8.
            words.push(word.to_le());
        }
        Ok::<_, ArrowError>(words)
    })?;
    let bits: Vec<u64> = words.concat();
    let has_time = BooleanBuffer::new(Buffer::from_vec(bits), 0, n);
    let nulls = NullBuffer::union(nulls.as_ref(), Some(&NullBuffer::new(has_time)));
    let buffer = out.into_buffer();
    // `ScalarBuffer` needs 8-byte alignment: a mapping is page-aligned; the allocator's block
    // (align 1 asked) is copied where it is not.
    let ts = if buffer.as_ptr().align_offset(8) == 0 {
        ScalarBuffer::new(buffer, 0, n)
    } else {
        let copy: Vec<i64> = buffer.chunks_exact(8).map(ne8).collect();
        ScalarBuffer::from(copy)
    };
    Ok(TimestampMillisecondArray::new(ts, nulls).with_timezone(Arc::<str>::from("UTC")))
}

/// A `UInt8` column of each UUID's version field (the top four bits of octet 6, 0 to 15);
/// null where the variant is not RFC 9562's (so for Nil and Max) and for null rows. Takes the
/// inputs [`format()`] takes.
///
/// ```
/// use arrow_array::FixedSizeBinaryArray;
/// use uuidkit::Uuid;
/// let ids = FixedSizeBinaryArray::try_from_iter([Uuid::NAMESPACE_DNS.as_bytes(), Uuid::NIL.as_bytes()].into_iter())?;
/// let v = uuidkit::arrow::version(&ids)?;
/// assert_eq!(v.iter().collect::<Vec<_>>(), [Some(1), None]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn version(array: &dyn Array) -> Result<UInt8Array, ArrowError> {
    let (values, nulls) = uuid_values(array)?;
    let n = array.len();
    let v: Vec<u8> = values.chunks_exact(16).map(|b| b[6] >> 4).collect();
    let rfc = BooleanBuffer::collect_bool(n, |i| values[16 * i + 8] & 0xc0 == 0x80);
    let nulls = NullBuffer::union(nulls.as_ref(), Some(&NullBuffer::new(rfc)));
    Ok(UInt8Array::new(ScalarBuffer::from(v), nulls))
}

// ---- generation ------------------------------------------------------------------------------

/// A UUID column of `n` random (version 4) UUIDs from the thread's CSPRNG (RFC 9562 §5.4,
/// §6.9); no nulls. A count whose 16 × `n` bytes cannot be allocated is an
/// [`ArrowError::MemoryError`], not an abort.
///
/// ```
/// use arrow_array::Array;
/// let ids = uuidkit::arrow::v4(1000)?;
/// assert_eq!(ids.len(), 1000);
/// assert!(ids.iter().flatten().all(|b| b[6] >> 4 == 4 && b[8] >> 6 == 2));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn v4(n: usize) -> Result<FixedSizeBinaryArray, ArrowError> {
    let mut out = output(values_len(n, 16)?)?;
    // Each thread draws from its own CSPRNG.
    split_rows(n, &mut out, 16, |_, chunk| {
        fill_v4_bytes(chunk);
        Ok::<(), ArrowError>(())
    })?;
    FixedSizeBinaryArray::try_new(16, out.into_buffer(), None)
}

/// Fills `out` (a multiple of 16 bytes) with v4 UUIDs: the CSPRNG's keystream about 16 KiB at
/// a time (four of its refills, each written straight into the output), then the version and
/// variant bits of those 1008 while they are in the L1 cache (one pass over a cold buffer, not
/// two).
fn fill_v4_bytes(out: &mut [u8]) {
    for chunk in out.chunks_mut(16 * 1008) {
        crate::generator::rng::fill_random(chunk);
        for u in chunk.chunks_exact_mut(16) {
            u[6] = (u[6] & 0x0f) | 0x40;
            u[8] = (u[8] & 0x3f) | 0x80;
        }
    }
}

/// A UUID column of `n` version 7 UUIDs from the process-wide generator
/// ([`try_v7_batch`](crate::generator::global::try_v7_batch)): strictly increasing, and greater
/// than every v7 UUID the process-wide generator ([`v7()`](crate::v7)) returned before; no
/// nulls. The time-range error of the generator and a count that cannot be allocated are
/// errors, not panics.
///
/// ```
/// let before = uuidkit::v7();
/// let ids = uuidkit::arrow::v7(1000)?;
/// assert!(ids.value(0) > before.as_bytes().as_slice());
/// assert!((1..1000).all(|i| ids.value(i - 1) < ids.value(i)));
/// assert!(uuidkit::v7().as_bytes().as_slice() > ids.value(999));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn v7(n: usize) -> Result<FixedSizeBinaryArray, ArrowError> {
    let mut out = output(values_len(n, 16)?)?;
    // SAFETY: `Uuid` is `repr(transparent)` over `[u8; 16]` (size 16, alignment 1), so `n`
    // of them are exactly the `16 n` initialised bytes of `out`, which this borrow owns.
    let ids = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<Uuid>(), n) };
    crate::generator::global::try_v7_batch_threads(ids, threads_for(n))
        .map_err(|e| ArrowError::ComputeError(e.to_string()))?;
    FixedSizeBinaryArray::try_new(16, out.into_buffer(), None)
}

//! `uuidkit._uuidkit`: the native half of the `uuidkit` Python package.
//!
//! The package's `UUID` class is a Python subclass of the standard `uuid.UUID` (defined in
//! `uuidkit/__init__.py`, with `__slots__ = ()`), so its instances have the standard class's
//! layout: two object slots, `int` and `is_safe`. [`setup`] learns where those slots are
//! (by probing an instance), then this module
//! - creates instances itself: `tp_alloc`, then the two slots written directly (what
//!   `object.__new__` plus two `object.__setattr__` calls do, without the calls);
//! - gives the class C-level `tp_str`, `tp_repr`, `tp_hash` and `tp_richcompare`, a vectorcall
//!   constructor whose fast paths cover `UUID(str)`, `UUID(bytes=…)`, `UUID(hex=…)` and
//!   `UUID(int=…)` (everything else goes to the Python `__init__`, which has the standard
//!   module's exact checks and exceptions), and C getters for `bytes` and `hex`;
//! - generates with the uuidkit library (fork-safe CSPRNG, process-wide ordered v1/v6/v7, or
//!   the system service).
//!
//! Every slot it reads may hold something other than an `int` (the standard constructor stores
//! whatever `int=` it was given once it compares in range, e.g. `True`): then each function
//! here does what the standard class's Python code does, by calling that code.

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::ffi::{c_int, c_uchar, c_void, CStr};
use std::ptr;
use std::sync::OnceLock;
use uuidkit::Uuid;

mod arrow;
#[cfg(unix)]
mod service;
mod short;

// `_PyLong_AsByteArray` gained a sixth parameter (`with_exceptions`) in 3.13; pyo3-ffi declares
// the five-parameter form only, so both are declared here.
extern "C" {
    #[cfg(Py_3_13)]
    #[link_name = "_PyLong_AsByteArray"]
    fn long_as_byte_array(
        v: *mut ffi::PyObject,
        bytes: *mut c_uchar,
        n: usize,
        little_endian: c_int,
        is_signed: c_int,
        with_exceptions: c_int,
    ) -> c_int;
    #[cfg(not(Py_3_13))]
    #[link_name = "_PyLong_AsByteArray"]
    fn long_as_byte_array(
        v: *mut ffi::PyObject,
        bytes: *mut c_uchar,
        n: usize,
        little_endian: c_int,
        is_signed: c_int,
    ) -> c_int;
}

extern "C" {
    fn _PyLong_New(size: ffi::Py_ssize_t) -> *mut ffi::PyObject;
    fn _PyObject_GC_New(tp: *mut ffi::PyTypeObject) -> *mut ffi::PyObject;
}

/// Whether `int` objects are CPython's usual 30-bit digits in 32-bit words after a 3-word
/// header (every 64-bit build of 3.9-3.13; checked by [`setup`] against `sys.int_info`):
/// then values are read and written digit by digit, else through `_PyLong_*ByteArray`.
static DIGITS30: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Offset of `ob_digit` in a `PyLongObject`: `ob_size` (3.9-3.11) or `lv_tag` (3.12+) follows
/// the object header.
const DIGIT_OFF: usize = 3 * std::mem::size_of::<usize>();

/// What [`setup`] learnt; never freed (the class lives as long as the interpreter).
struct State {
    /// `uuidkit.UUID`.
    cls: *mut ffi::PyTypeObject,
    /// The standard `uuid.UUID`.
    base: *mut ffi::PyTypeObject,
    /// Byte offsets of the `int` and `is_safe` slots in an instance.
    int_off: isize,
    safe_off: isize,
    /// `SafeUUID.unknown` and `SafeUUID.safe`.
    unknown: *mut ffi::PyObject,
    safe: *mut ffi::PyObject,
    /// `uuidkit.UUID.__init__` (the Python constructor: every form, every check).
    init: *mut ffi::PyObject,
    /// The standard class's Python `__str__`, `__repr__`, and the `bytes` and `hex` getters,
    /// for slots that hold something other than an exact `int`.
    base_str: *mut ffi::PyObject,
    base_repr: *mut ffi::PyObject,
    base_bytes: *mut ffi::PyObject,
    base_hex: *mut ffi::PyObject,
}

// SAFETY: the pointers are strong references to immutable-for-our-purpose objects, written
// once before any reader can see them (OnceLock) and only dereferenced with the GIL held (or,
// on a free-threaded build, on objects that are never freed).
unsafe impl Send for State {}
// SAFETY: as above.
unsafe impl Sync for State {}

static STATE: OnceLock<State> = OnceLock::new();

fn state() -> PyResult<&'static State> {
    STATE
        .get()
        .ok_or_else(|| PyRuntimeError::new_err("uuidkit._uuidkit.setup() has not been called"))
}

/// The 36-character lowercase hyphenated form (what `str(uuid.UUID)` gives).
fn hyphenated(v: u128) -> [u8; 36] {
    uuidkit::Uuid::from_u128(v).encode_hyphenated(uuidkit::Case::Lower)
}

fn simple(v: u128) -> [u8; 32] {
    uuidkit::Uuid::from_u128(v).encode_simple(uuidkit::Case::Lower)
}

/// The forms whose meaning is plain: 32 hex digits, or the 36-character hyphenated form, each
/// optionally in one pair of braces or after `urn:uuid:`. Anything else is left to the Python
/// constructor, which reproduces every quirk of the standard one (e.g. `int(x, 16)` accepting
/// underscores and non-ASCII digits).
fn parse_plain(s: &[u8]) -> Option<u128> {
    let s = if s.len() >= 2 && s[0] == b'{' && s[s.len() - 1] == b'}' {
        &s[1..s.len() - 1]
    } else if let Some(rest) = s.strip_prefix(b"urn:uuid:") {
        rest
    } else {
        s
    };
    // 32 hex digits or the hyphenated form, either case: the library's reading of both is the
    // standard constructor's (which removes the hyphens wherever they are, so a 36-character
    // string with them elsewhere goes to the Python path).
    match s.len() {
        32 | 36 => uuidkit::Uuid::try_parse_ascii(s).ok().map(|u| u.as_u128()),
        _ => None,
    }
}

/// The UTF-8 of an exact `str` if it is ASCII and of a length a plain form can have; None
/// (with no exception set) otherwise.
///
/// # Safety
/// `o` is a live `str` object and the caller holds the GIL.
unsafe fn plain_ascii<'a>(o: *mut ffi::PyObject) -> Option<&'a [u8]> {
    // SAFETY: the caller's promise: `o` is a `str`.
    let n = unsafe { ffi::PyUnicode_GET_LENGTH(o) };
    if !matches!(n, 32 | 34 | 36 | 38 | 41 | 45) {
        return None;
    }
    let mut len: ffi::Py_ssize_t = 0;
    // SAFETY: as above; for an ASCII string this is its own buffer, alive as long as `o`.
    let p = unsafe { ffi::PyUnicode_AsUTF8AndSize(o, &mut len) };
    if p.is_null() {
        // SAFETY: an exception is set (e.g. a lone surrogate): the slow path raises its own.
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    if len != n {
        return None; // not ASCII
    }
    // SAFETY: `p` points to `len` bytes owned by `o`.
    Some(unsafe { std::slice::from_raw_parts(p as *const u8, len as usize) })
}

/// A new reference to a Python `int` of `v`.
///
/// # Safety
/// GIL held.
unsafe fn int_from_u128(v: u128) -> *mut ffi::PyObject {
    if v <= u64::MAX as u128 {
        // SAFETY: a plain constructor.
        return unsafe { ffi::PyLong_FromUnsignedLongLong(v as u64) };
    }
    if DIGITS30.load(std::sync::atomic::Ordering::Relaxed) {
        // 2^64 <= v < 2^128: 3 to 5 digits, the top one non-zero (a normalised int).
        let nd = if v >> 120 != 0 {
            5
        } else if v >> 90 != 0 {
            4
        } else {
            3
        };
        // SAFETY: a new int of `nd` digits whose digits are all written below before anyone
        // sees it; DIGITS30 says where they are and how wide.
        unsafe {
            let o = _PyLong_New(nd as ffi::Py_ssize_t);
            if o.is_null() {
                return o;
            }
            let d = (o as *mut u8).add(DIGIT_OFF) as *mut u32;
            for i in 0..nd {
                *d.add(i) = ((v >> (30 * i)) & 0x3fff_ffff) as u32;
            }
            return o;
        }
    }
    let b = v.to_le_bytes();
    // SAFETY: 16 readable bytes.
    unsafe { ffi::_PyLong_FromByteArray(b.as_ptr(), 16, 1, 0) }
}

/// The value of an exact `int` in 0..2^128; None (no exception set) if out of range.
///
/// # Safety
/// `o` is an exact `int`; GIL held.
unsafe fn u128_of_int(o: *mut ffi::PyObject) -> Option<u128> {
    if DIGITS30.load(std::sync::atomic::Ordering::Relaxed) {
        // SAFETY: `o` is an int with the layout DIGITS30 describes; only its own digits are
        // read.
        unsafe {
            let head =
                *((o as *const u8).add(DIGIT_OFF - std::mem::size_of::<usize>()) as *const isize);
            #[cfg(Py_3_12)]
            let (negative, nd) = (head & 3 == 2, (head as usize) >> 3);
            #[cfg(not(Py_3_12))]
            let (negative, nd) = (head < 0, head.unsigned_abs());
            if negative || nd > 5 {
                return None;
            }
            let d = (o as *const u8).add(DIGIT_OFF) as *const u32;
            if nd == 5 && *d.add(4) >> 8 != 0 {
                return None;
            }
            let mut v: u128 = 0;
            for i in (0..nd).rev() {
                v = (v << 30) | *d.add(i) as u128;
            }
            return Some(v);
        }
    }
    let mut b = [0u8; 16];
    // SAFETY: `o` is an int; 16 writable bytes.
    #[cfg(Py_3_13)]
    let r = unsafe { long_as_byte_array(o, b.as_mut_ptr(), 16, 1, 0, 1) };
    // SAFETY: as above.
    #[cfg(not(Py_3_13))]
    let r = unsafe { long_as_byte_array(o, b.as_mut_ptr(), 16, 1, 0) };
    if r < 0 {
        // SAFETY: OverflowError (negative or too large) is set; the caller decides.
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    Some(u128::from_le_bytes(b))
}

/// `Py_NewRef` (3.10+), for 3.9 too.
///
/// # Safety
/// `o` is live; GIL held.
#[inline]
unsafe fn new_ref(o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: the caller's promise.
    unsafe { ffi::Py_INCREF(o) };
    o
}

/// The slot at `off` of `o` (borrowed; may be null if never set).
///
/// # Safety
/// `o` is an instance of the standard `uuid.UUID` (or a subclass without a layout of its own).
#[inline]
unsafe fn slot(o: *mut ffi::PyObject, off: isize) -> *mut ffi::PyObject {
    // SAFETY: `off` was found inside the instance's layout by `setup`.
    unsafe { *((o as *mut u8).offset(off) as *mut *mut ffi::PyObject) }
}

/// Whether `o`'s type has the standard layout (exactly `uuidkit.UUID` or `uuid.UUID`).
#[inline]
fn plain_layout(st: &State, o: *mut ffi::PyObject) -> bool {
    // SAFETY: reading the type pointer of a live object.
    let t = unsafe { ffi::Py_TYPE(o) };
    t == st.cls || t == st.base
}

/// The value of `o` if it is a `uuidkit.UUID`/`uuid.UUID` whose `int` slot holds an exact
/// in-range `int`.
///
/// # Safety
/// GIL held; `o` live.
unsafe fn value_of(st: &State, o: *mut ffi::PyObject) -> Option<u128> {
    if !plain_layout(st, o) {
        return None;
    }
    // SAFETY: standard layout.
    let i = unsafe { slot(o, st.int_off) };
    // SAFETY: `i` is null or a live object.
    if i.is_null() || unsafe { ffi::PyLong_CheckExact(i) } == 0 {
        return None;
    }
    // SAFETY: an exact int.
    unsafe { u128_of_int(i) }
}

/// A new instance of `tp` (the package's class or a subclass) holding `int_obj` (stolen) and
/// `safe` (borrowed), or null with an exception set.
///
/// # Safety
/// GIL held; `tp` is `st.cls` or one of its subclasses with the same layout.
unsafe fn wrap(
    st: &State,
    tp: *mut ffi::PyTypeObject,
    int_obj: *mut ffi::PyObject,
    safe: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    if int_obj.is_null() {
        return ptr::null_mut();
    }
    if tp == st.cls {
        // `PyObject_GC_New`: the object's memory with its header set (type reference taken),
        // neither zeroed nor tracked by the cycle collector. Its body is the slots `int`,
        // `is_safe` and (up to 3.11) `__weakref__` (checked by `setup`), all written here. An exact
        // instance refers to an int and an enum member only, so it can never be part of a
        // reference cycle: like a tuple of atoms it needs no tracking (and the collector then
        // never visits the millions of them a list may hold); `subtype_dealloc` untracks only
        // what is tracked.
        // SAFETY: `tp` is the package's class, a GC type of `tp_basicsize` bytes whose body
        // is pointer slots only.
        unsafe {
            let o = _PyObject_GC_New(tp);
            if o.is_null() {
                ffi::Py_DECREF(int_obj);
                return o;
            }
            let body = (o as *mut u8).add(std::mem::size_of::<ffi::PyObject>());
            ptr::write_bytes(
                body,
                0,
                (*tp).tp_basicsize as usize - std::mem::size_of::<ffi::PyObject>(),
            );
            *((o as *mut u8).offset(st.int_off) as *mut *mut ffi::PyObject) = int_obj;
            ffi::Py_INCREF(safe);
            *((o as *mut u8).offset(st.safe_off) as *mut *mut ffi::PyObject) = safe;
            return o;
        }
    }
    // SAFETY: `tp` is a live type; tp_alloc is set on every ready type.
    let o = unsafe {
        match (*tp).tp_alloc {
            Some(alloc) => alloc(tp, 0),
            None => ffi::PyType_GenericAlloc(tp, 0),
        }
    };
    if o.is_null() {
        // SAFETY: we own int_obj.
        unsafe { ffi::Py_DECREF(int_obj) };
        return ptr::null_mut();
    }
    // SAFETY: the slots are inside the (zeroed) instance; the references are ours to store.
    unsafe {
        *((o as *mut u8).offset(st.int_off) as *mut *mut ffi::PyObject) = int_obj;
        ffi::Py_INCREF(safe);
        *((o as *mut u8).offset(st.safe_off) as *mut *mut ffi::PyObject) = safe;
    }
    o
}

/// A new `uuidkit.UUID` of value `v` with `is_safe` = `safe`.
///
/// # Safety
/// GIL held.
unsafe fn new_uuid(st: &State, v: u128, safe: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: GIL held; st.cls has the layout.
    unsafe { wrap(st, st.cls, int_from_u128(v), safe) }
}

fn owned(py: Python<'_>, p: *mut ffi::PyObject) -> PyResult<Py<PyAny>> {
    // SAFETY: `p` is a new reference or null with an exception set.
    unsafe { Ok(Bound::from_owned_ptr_or_err(py, p)?.unbind()) }
}

// ---------------------------------------------------------------------------------------------
// Type slots of uuidkit.UUID

/// Calls `f(o)` (a Python function of the standard class) for the cases the C code leaves to it.
///
/// # Safety
/// GIL held.
unsafe fn call1(f: *mut ffi::PyObject, o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: live objects, GIL held.
    unsafe { ffi::PyObject_CallOneArg(f, o) }
}

/// `tp_str`: the hyphenated form.
///
/// # Safety
/// A type slot: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn uuid_str(o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: called by the interpreter with the GIL and a live `o`.
    unsafe {
        match value_of(st, o) {
            Some(v) => {
                let s = hyphenated(v);
                ffi::PyUnicode_FromStringAndSize(s.as_ptr().cast(), 36)
            }
            None => call1(st.base_str, o),
        }
    }
}

/// `tp_repr`: `UUID('…')`, under the instance's own class name.
///
/// # Safety
/// A type slot: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn uuid_repr(o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: as in uuid_str.
    unsafe {
        if ffi::Py_TYPE(o) == st.cls {
            if let Some(v) = value_of(st, o) {
                let mut s = [0u8; 44];
                s[..6].copy_from_slice(b"UUID('");
                s[6..42].copy_from_slice(&hyphenated(v));
                s[42..].copy_from_slice(b"')");
                return ffi::PyUnicode_FromStringAndSize(s.as_ptr().cast(), 44);
            }
        }
        call1(st.base_repr, o)
    }
}

/// The `int` attribute of a `uuid.UUID` (new reference), or null with AttributeError.
///
/// # Safety
/// GIL held.
unsafe fn int_attr(st: &State, o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: GIL held, `o` live.
    unsafe {
        if plain_layout(st, o) {
            let i = slot(o, st.int_off);
            if !i.is_null() {
                ffi::Py_INCREF(i);
                return i;
            }
        }
        ffi::PyObject_GetAttrString(o, c"int".as_ptr())
    }
}

/// `tp_hash`: the hash of the `int`, as the standard class's `__hash__`.
///
/// # Safety
/// A type slot: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn uuid_hash(o: *mut ffi::PyObject) -> ffi::Py_hash_t {
    let Some(st) = STATE.get() else {
        return -1;
    };
    // SAFETY: GIL held, `o` live; `hash(self.int)` as the standard class computes it.
    unsafe {
        let i = int_attr(st, o);
        if i.is_null() {
            return -1;
        }
        let h = ffi::PyObject_Hash(i);
        ffi::Py_DECREF(i);
        h
    }
}

/// `tp_richcompare`: the standard class's comparisons, by the `int`.
///
/// # Safety
/// A type slot: CPython calls it with the GIL held, `a` and `b` live objects (at least one an
/// instance of the class) and `op` one of the six `Py_LT`..`Py_GE` codes.
unsafe extern "C" fn uuid_richcompare(
    a: *mut ffi::PyObject,
    b: *mut ffi::PyObject,
    op: c_int,
) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: GIL held, live operands. The standard class compares `self.int` with
    // `other.int` when both are `uuid.UUID` instances, else returns NotImplemented.
    unsafe {
        let is_uuid = |x: *mut ffi::PyObject| {
            plain_layout(st, x) || ffi::PyType_IsSubtype(ffi::Py_TYPE(x), st.base) != 0
        };
        if !is_uuid(a) || !is_uuid(b) {
            return new_ref(ffi::Py_NotImplemented());
        }
        if plain_layout(st, a) && plain_layout(st, b) {
            let (x, y) = (slot(a, st.int_off), slot(b, st.int_off));
            if !x.is_null() && !y.is_null() {
                return ffi::PyObject_RichCompare(x, y, op);
            }
        }
        let x = int_attr(st, a);
        if x.is_null() {
            return ptr::null_mut();
        }
        let y = int_attr(st, b);
        if y.is_null() {
            ffi::Py_DECREF(x);
            return ptr::null_mut();
        }
        let r = ffi::PyObject_RichCompare(x, y, op);
        ffi::Py_DECREF(x);
        ffi::Py_DECREF(y);
        r
    }
}

/// `tp_dealloc` of the package's own class (subclasses keep `subtype_dealloc`): what
/// `subtype_dealloc` does for an object without `__dict__`, finaliser or nested containers,
/// without its generic walk: weak references cleared, the two slots released, the memory
/// freed, the type's reference dropped.
///
/// # Safety
/// A type slot: CPython calls it once, with the GIL held, when the last reference to `o` (a
/// live instance of the class) is dropped; nothing uses `o` afterwards.
unsafe extern "C" fn uuid_dealloc(o: *mut ffi::PyObject) {
    // SAFETY: called once by the interpreter on an instance of the class whose refcount fell
    // to zero; only its own slots are released.
    unsafe {
        let tp = ffi::Py_TYPE(o);
        ffi::PyObject_GC_UnTrack(o as *mut c_void);
        ffi::PyObject_ClearWeakRefs(o);
        if let Some(st) = STATE.get() {
            for off in [st.int_off, st.safe_off] {
                let p = (o as *mut u8).offset(off) as *mut *mut ffi::PyObject;
                let v = *p;
                if !v.is_null() {
                    *p = ptr::null_mut();
                    ffi::Py_DECREF(v);
                }
            }
        }
        ffi::PyObject_GC_Del(o as *mut c_void);
        ffi::Py_DECREF(tp as *mut ffi::PyObject);
    }
}

/// The `bytes` attribute: 16 big-endian bytes.
///
/// # Safety
/// A getter (`PyGetSetDef`): CPython calls it with the GIL held and `o` a live instance of the
/// class.
unsafe extern "C" fn get_bytes(o: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: GIL held, `o` live.
    unsafe {
        match value_of(st, o) {
            Some(v) => ffi::PyBytes_FromStringAndSize(v.to_be_bytes().as_ptr().cast(), 16),
            None => call1(st.base_bytes, o),
        }
    }
}

/// The `hex` attribute: 32 lowercase hex digits.
///
/// # Safety
/// A getter (`PyGetSetDef`): CPython calls it with the GIL held and `o` a live instance of the
/// class.
unsafe extern "C" fn get_hex(o: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: GIL held, `o` live.
    unsafe {
        match value_of(st, o) {
            Some(v) => ffi::PyUnicode_FromStringAndSize(simple(v).as_ptr().cast(), 32),
            None => call1(st.base_hex, o),
        }
    }
}

/// Compares a keyword name with an ASCII name.
///
/// # Safety
/// `k` is a `str`; GIL held.
unsafe fn kw_is(k: *mut ffi::PyObject, name: &CStr) -> bool {
    // SAFETY: `k` is a str (vectorcall keyword names always are).
    unsafe { ffi::PyUnicode_CompareWithASCIIString(k, name.as_ptr()) == 0 }
}

/// The fast forms of the constructor, or None to take the Python `__init__`.
///
/// # Safety
/// GIL held; the vectorcall arguments are valid.
unsafe fn construct_fast(
    st: &State,
    args: *const *mut ffi::PyObject,
    nargs: isize,
    kwnames: *mut ffi::PyObject,
) -> Option<*mut ffi::PyObject> {
    // SAFETY: the interpreter's vectorcall arguments.
    unsafe {
        let nkw = if kwnames.is_null() {
            0
        } else {
            ffi::PyTuple_GET_SIZE(kwnames)
        };
        if nargs + nkw != 1 {
            return None;
        }
        let arg = *args;
        let name = if nkw == 1 {
            let k = ffi::PyTuple_GET_ITEM(kwnames, 0);
            if kw_is(k, c"hex") {
                c"hex"
            } else if kw_is(k, c"bytes") {
                c"bytes"
            } else if kw_is(k, c"int") {
                c"int"
            } else {
                return None;
            }
        } else {
            c"hex"
        };
        match name.to_bytes() {
            b"hex" => {
                if ffi::PyUnicode_CheckExact(arg) == 0 {
                    return None;
                }
                let v = parse_plain(plain_ascii(arg)?)?;
                Some(new_uuid(st, v, st.unknown))
            }
            b"bytes" => {
                if ffi::PyBytes_CheckExact(arg) == 0 || ffi::PyBytes_Size(arg) != 16 {
                    return None;
                }
                let p = ffi::PyBytes_AS_STRING(arg) as *const [u8; 16];
                Some(new_uuid(st, u128::from_be_bytes(*p), st.unknown))
            }
            _ => {
                if ffi::PyLong_CheckExact(arg) == 0 {
                    return None;
                }
                u128_of_int(arg)?;
                // The standard constructor keeps the very object it was given.
                Some(wrap(st, st.cls, new_ref(arg), st.unknown))
            }
        }
    }
}

/// The class's vectorcall constructor: `UUID(…)` with the fast paths of the module's docs.
///
/// # Safety
/// A vectorcall: CPython calls it with the GIL held, `callable` the class (or a subclass),
/// `args` pointing to the positional arguments (their count in `nargsf`) followed by one value
/// per name in `kwnames`, a tuple of `str` or null.
unsafe extern "C" fn uuid_vectorcall(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: a plain computation on the flag word.
    let nargs = unsafe { ffi::PyVectorcall_NARGS(nargsf) };
    let tp = callable as *mut ffi::PyTypeObject;
    // SAFETY: called by the interpreter with the GIL and valid arguments.
    unsafe {
        if tp == st.cls {
            if let Some(r) = construct_fast(st, args, nargs, kwnames) {
                return r;
            }
        }
        // The general path: what type.__call__ does (new instance, then __init__).
        let o = match (*tp).tp_alloc {
            Some(alloc) => alloc(tp, 0),
            None => ffi::PyType_GenericAlloc(tp, 0),
        };
        if o.is_null() {
            return ptr::null_mut();
        }
        let nkw = if kwnames.is_null() {
            0
        } else {
            ffi::PyTuple_GET_SIZE(kwnames)
        };
        let total = (nargs + nkw) as usize;
        let mut v: Vec<*mut ffi::PyObject> = Vec::with_capacity(total + 1);
        v.push(o);
        v.extend_from_slice(std::slice::from_raw_parts(args, total));
        let r = ffi::PyObject_Vectorcall(st.init, v.as_ptr(), (nargs + 1) as usize, kwnames);
        if r.is_null() {
            ffi::Py_DECREF(o);
            return ptr::null_mut();
        }
        ffi::Py_DECREF(r);
        o
    }
}

static mut GETSETS: [ffi::PyGetSetDef; 2] = [
    ffi::PyGetSetDef {
        name: c"bytes".as_ptr(),
        get: Some(get_bytes),
        set: None,
        doc: c"The UUID as 16 bytes, big-endian (the six fields in network order).".as_ptr(),
        closure: ptr::null_mut(),
    },
    ffi::PyGetSetDef {
        name: c"hex".as_ptr(),
        get: Some(get_hex),
        set: None,
        doc: c"The UUID as 32 lowercase hexadecimal digits.".as_ptr(),
        closure: ptr::null_mut(),
    },
];

/// Finds the byte offset at which `probe` holds `needle`.
///
/// # Safety
/// GIL held; `probe` is live.
unsafe fn find_slot(probe: *mut ffi::PyObject, needle: *mut ffi::PyObject) -> Option<isize> {
    // SAFETY: reading pointer-sized words inside the object's basic size.
    unsafe {
        let size = (*ffi::Py_TYPE(probe)).tp_basicsize;
        let word = std::mem::size_of::<*mut ffi::PyObject>() as isize;
        let mut off = std::mem::size_of::<ffi::PyObject>() as isize;
        let mut found = None;
        while off + word <= size {
            if slot(probe, off) == needle {
                if found.is_some() {
                    return None;
                }
                found = Some(off);
            }
            off += word;
        }
        found
    }
}

/// Wires the Python class to this module. Called once by `uuidkit/__init__.py`.
///
/// `probe` is an instance of `cls` whose `int` slot holds `int_mark` and `is_safe` slot
/// `safe_mark` (two distinct objects), from which the slots' offsets are read.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn setup(
    cls: &Bound<'_, PyAny>,
    base: &Bound<'_, PyAny>,
    probe: &Bound<'_, PyAny>,
    int_mark: &Bound<'_, PyAny>,
    safe_mark: &Bound<'_, PyAny>,
    unknown: &Bound<'_, PyAny>,
    safe: &Bound<'_, PyAny>,
    bits_per_digit: u32,
    sizeof_digit: u32,
) -> PyResult<()> {
    if STATE.get().is_some() {
        return Err(PyRuntimeError::new_err(
            "uuidkit._uuidkit.setup() was already called",
        ));
    }
    let py = cls.py();
    let cls_t = cls.as_ptr() as *mut ffi::PyTypeObject;
    let base_t = base.as_ptr() as *mut ffi::PyTypeObject;
    // SAFETY: GIL held; the objects are live; the checks below make sure that the class has
    // exactly the standard layout before anything is written through the offsets.
    unsafe {
        if ffi::PyType_Check(cls.as_ptr()) == 0
            || ffi::PyType_Check(base.as_ptr()) == 0
            || ffi::PyType_IsSubtype(cls_t, base_t) == 0
            || (*cls_t).tp_basicsize != (*base_t).tp_basicsize
            || (*cls_t).tp_dictoffset != 0
            || ffi::Py_TYPE(probe.as_ptr()) != cls_t
        {
            return Err(PyTypeError::new_err(
                "uuidkit: the UUID class must be a slot-less subclass of uuid.UUID",
            ));
        }
        let int_off = find_slot(probe.as_ptr(), int_mark.as_ptr());
        let safe_off = find_slot(probe.as_ptr(), safe_mark.as_ptr());
        let (Some(int_off), Some(safe_off)) = (int_off, safe_off) else {
            return Err(PyRuntimeError::new_err(
                "uuidkit: could not find the int and is_safe slots of uuid.UUID",
            ));
        };
        let word = std::mem::size_of::<*mut ffi::PyObject>() as isize;
        let body = (*cls_t).tp_basicsize - std::mem::size_of::<ffi::PyObject>() as isize;
        // Up to 3.11 the `__weakref__` slot is the third word of the body; from 3.12 it is
        // managed by the interpreter before the object (a negative offset), and `gc_alloc`
        // clears it there.
        let weak = (*cls_t).tp_weaklistoffset;
        let ok = (*cls_t).tp_itemsize == 0
            && ((body == 3 * word && weak > 0) || (body == 2 * word && weak < 0));
        if !ok {
            return Err(PyRuntimeError::new_err(
                "uuidkit: uuid.UUID's layout is not (int, is_safe[, __weakref__])",
            ));
        }
        let get =
            |name: &str| -> PyResult<*mut ffi::PyObject> { Ok(base.getattr(name)?.into_ptr()) };
        let fget = |name: &str| -> PyResult<*mut ffi::PyObject> {
            Ok(base.getattr(name)?.getattr("fget")?.into_ptr())
        };
        let st = State {
            cls: cls_t,
            base: base_t,
            int_off,
            safe_off,
            unknown: unknown.clone().into_ptr(),
            safe: safe.clone().into_ptr(),
            init: cls.getattr("__init__")?.into_ptr(),
            base_str: get("__str__")?,
            base_repr: get("__repr__")?,
            base_bytes: fget("bytes")?,
            base_hex: fget("hex")?,
        };
        ffi::Py_INCREF(cls.as_ptr());
        ffi::Py_INCREF(base.as_ptr());
        for def in (*ptr::addr_of_mut!(GETSETS)).iter_mut() {
            let d = ffi::PyDescr_NewGetSet(cls_t, def);
            if d.is_null() {
                return Err(PyErr::fetch(py));
            }
            let r = ffi::PyObject_SetAttrString(cls.as_ptr(), def.name, d);
            ffi::Py_DECREF(d);
            if r < 0 {
                return Err(PyErr::fetch(py));
            }
        }
        (*cls_t).tp_str = Some(uuid_str);
        (*cls_t).tp_repr = Some(uuid_repr);
        (*cls_t).tp_hash = Some(uuid_hash);
        (*cls_t).tp_richcompare = Some(uuid_richcompare);
        (*cls_t).tp_vectorcall = Some(uuid_vectorcall);
        // Instances made so far (the probe) carry nothing the new dealloc would miss.
        (*cls_t).tp_dealloc = Some(uuid_dealloc);
        ffi::PyType_Modified(cls_t);
        let _ = STATE.set(st);
        let words64 = std::mem::size_of::<usize>() == 8;
        DIGITS30.store(
            words64 && bits_per_digit == 30 && sizeof_digit == 4,
            std::sync::atomic::Ordering::Relaxed,
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Generators

fn gen_error(e: uuidkit::generator::GenError) -> PyErr {
    PyOSError::new_err(format!("uuidkit: {e}"))
}

/// Which generator `uuid1`/`uuid6`/`uuid7` draw from (see `service.rs`).
fn time_based(py: Python<'_>, version: u8) -> PyResult<Py<PyAny>> {
    time_based_node(py, version, None)
}

/// The low 48 bits (v1's and v6's node) of `v` replaced by `node`, when given.
fn with_node(v: u128, node: Option<u64>) -> u128 {
    match node {
        Some(n) => (v & !0xFFFF_FFFF_FFFF) | u128::from(n & 0xFFFF_FFFF_FFFF),
        None => v,
    }
}

/// The next v1/v6/v7 UUID; for v1 and v6 with `node` (48 bits kept) as the node, if given.
/// The order guarantee holds: the generator's timestamp and clock sequence come first.
fn time_based_node(py: Python<'_>, version: u8, node: Option<u64>) -> PyResult<Py<PyAny>> {
    let st = state()?;
    #[cfg(unix)]
    if let Some((u, durable)) = service::next(py, version)? {
        let safe = if durable { st.safe } else { st.unknown };
        // SAFETY: GIL held.
        return owned(py, unsafe {
            new_uuid(st, with_node(u.as_u128(), node), safe)
        });
    }
    let u = match version {
        1 => uuidkit::generator::try_v1(),
        6 => uuidkit::generator::try_v6(),
        _ => uuidkit::generator::try_v7(),
    }
    .map_err(gen_error)?;
    // SAFETY: GIL held.
    owned(py, unsafe {
        new_uuid(st, with_node(u.as_u128(), node), st.unknown)
    })
}

// uuid4() and uuid7() are plain METH_NOARGS C functions (no argument parsing to do): the
// call costs what a C call costs.

/// Runs `f` with a `Python` token, turning an error or a panic into a Python exception.
///
/// # Safety
/// GIL held.
unsafe fn raw_call(
    f: impl FnOnce(Python<'_>) -> PyResult<*mut ffi::PyObject>,
) -> *mut ffi::PyObject {
    // SAFETY: the caller holds the GIL.
    let py = unsafe { Python::assume_attached() };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(py))) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            e.restore(py);
            ptr::null_mut()
        }
        Err(_) => {
            PyRuntimeError::new_err("uuidkit: internal error (panic) while generating").restore(py);
            ptr::null_mut()
        }
    }
}

/// `uuid4()`: a random UUID from the fork-safe CSPRNG.
///
/// # Safety
/// A `METH_NOARGS` module function: CPython calls it with the GIL held.
unsafe extern "C" fn raw_uuid4(
    _m: *mut ffi::PyObject,
    _a: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter with the GIL.
    unsafe {
        raw_call(|_| {
            let st = state()?;
            Ok(new_uuid(st, uuidkit::v4().as_u128(), st.unknown))
        })
    }
}

/// `uuid7()`: the next v7 UUID, from the system service when it is on, else the process-wide
/// generator.
///
/// # Safety
/// A `METH_NOARGS` module function: CPython calls it with the GIL held.
unsafe extern "C" fn raw_uuid7(
    _m: *mut ffi::PyObject,
    _a: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter with the GIL.
    unsafe {
        raw_call(|py| {
            #[cfg(unix)]
            if service::enabled() {
                return Ok(time_based(py, 7)?.into_ptr());
            }
            let _ = py;
            let st = state()?;
            let u = uuidkit::generator::try_v7().map_err(gen_error)?;
            Ok(new_uuid(st, u.as_u128(), st.unknown))
        })
    }
}

/// The floor of creating an instance, for the benchmark: a new `uuidkit.UUID` around an `int`
/// made once (no random bits, no new `int`), through the same call path as `uuid4()`.
///
/// # Safety
/// A `METH_NOARGS` module function: CPython calls it with the GIL held.
unsafe extern "C" fn raw_floor(
    _m: *mut ffi::PyObject,
    _a: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    static ONE: OnceLock<usize> = OnceLock::new();
    // SAFETY: called by the interpreter with the GIL; the cached int is a strong reference
    // kept for the process's life.
    unsafe {
        raw_call(|py| {
            let st = state()?;
            let i = *ONE.get_or_init(|| int_from_u128(u128::MAX) as usize) as *mut ffi::PyObject;
            if i.is_null() {
                return Err(PyErr::fetch(py));
            }
            Ok(wrap(st, st.cls, new_ref(i), st.unknown))
        })
    }
}

static mut RAW_FUNCS: [ffi::PyMethodDef; 3] = [
    ffi::PyMethodDef {
        ml_name: c"_floor".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunction: raw_floor },
        ml_flags: ffi::METH_NOARGS,
        ml_doc: c"The cost of creating an instance alone (benchmark floor).".as_ptr(),
    },
    ffi::PyMethodDef {
        ml_name: c"uuid4".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunction: raw_uuid4 },
        ml_flags: ffi::METH_NOARGS,
        ml_doc: c"uuid4()\n--\n\nA random UUID (version 4) from uuidkit's CSPRNG: ChaCha20 per thread,\nseeded from the operating system and reseeded in a child after fork(), so no\nvalue repeats across forks.".as_ptr(),
    },
    ffi::PyMethodDef {
        ml_name: c"uuid7".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunction: raw_uuid7 },
        ml_flags: ffi::METH_NOARGS,
        ml_doc: c"uuid7()\n--\n\nA time-ordered UUID (version 7) from the process-wide generator: strictly\ngreater than every v7 UUID returned before in this process, on any thread (or\nfrom the system service, see use_system_service()).".as_ptr(),
    },
];

/// The process-wide v6 generator's next UUID, with `node` (48 bits kept) as its node if
/// given (else the generator's random node, fixed per process).
#[pyfunction]
#[pyo3(signature = (node=None))]
fn _uuid6(py: Python<'_>, node: Option<u64>) -> PyResult<Py<PyAny>> {
    time_based_node(py, 6, node)
}

/// The process-wide v1 generator's next UUID, with `node` (48 bits kept) as its node if
/// given (else the generator's random node, fixed per process).
#[pyfunction]
#[pyo3(signature = (node=None))]
fn _uuid1(py: Python<'_>, node: Option<u64>) -> PyResult<Py<PyAny>> {
    time_based_node(py, 1, node)
}

/// The namespace's 16 bytes: read directly from a `uuid.UUID`, else its `bytes` attribute
/// (AttributeError if it has none, as the standard module raises).
fn namespace_bytes(ns: &Bound<'_, PyAny>) -> PyResult<[u8; 16]> {
    let st = state()?;
    // SAFETY: GIL held.
    if let Some(v) = unsafe { value_of(st, ns.as_ptr()) } {
        return Ok(v.to_be_bytes());
    }
    let b = ns.getattr("bytes")?;
    let b = b.cast::<PyBytes>().map_err(|_| {
        PyTypeError::new_err("uuidkit: the namespace's bytes attribute is not bytes")
    })?;
    let s = b.as_bytes();
    if s.len() != 16 {
        // The standard module would hash whatever it got; a namespace of another length is no
        // UUID, so say so.
        return Err(PyValueError::new_err(
            "uuidkit: the namespace's bytes are not 16 bytes long",
        ));
    }
    let mut out = [0u8; 16];
    out.copy_from_slice(s);
    Ok(out)
}

fn name_based(
    ns: &Bound<'_, PyAny>,
    name: &Bound<'_, PyAny>,
    f: fn(&Uuid, &[u8]) -> Uuid,
) -> PyResult<Py<PyAny>> {
    let py = ns.py();
    let st = state()?;
    let nsb = namespace_bytes(ns)?;
    let nsu = Uuid::from_bytes(nsb);
    let np = name.as_ptr();
    // SAFETY: GIL held; the buffers are the objects' own, alive while `name` is.
    let u = if unsafe { ffi::PyUnicode_Check(np) } != 0 {
        let mut len: ffi::Py_ssize_t = 0;
        // UnicodeEncodeError for lone surrogates, as `bytes(name, "utf-8")` raises.
        let p = unsafe { ffi::PyUnicode_AsUTF8AndSize(np, &mut len) };
        if p.is_null() {
            return Err(PyErr::fetch(py));
        }
        f(&nsu, unsafe {
            std::slice::from_raw_parts(p as *const u8, len as usize)
        })
    } else if unsafe { ffi::PyBytes_Check(np) } != 0 {
        let p = unsafe { ffi::PyBytes_AsString(np) };
        let len = unsafe { ffi::PyBytes_Size(np) };
        f(&nsu, unsafe {
            std::slice::from_raw_parts(p as *const u8, len as usize)
        })
    } else {
        // `namespace.bytes + name`: bytes-like objects concatenate, anything else is a
        // TypeError; so the name's buffer is taken when it has one.
        let buf: Vec<u8> = match pyo3::buffer::PyBuffer::<u8>::get(name) {
            Ok(b) => b.to_vec(py)?,
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "can't concat {} to bytes",
                    name.get_type().name()?
                )))
            }
        };
        f(&nsu, &buf)
    };
    // SAFETY: GIL held.
    owned(py, unsafe { new_uuid(st, u.as_u128(), st.unknown) })
}

/// uuid3(namespace, name) -> UUID: MD5 of the namespace's bytes and the name (str as UTF-8).
#[pyfunction]
fn uuid3(namespace: &Bound<'_, PyAny>, name: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    name_based(namespace, name, Uuid::new_v3)
}

/// uuid5(namespace, name) -> UUID: SHA-1 of the namespace's bytes and the name (str as UTF-8).
#[pyfunction]
fn uuid5(namespace: &Bound<'_, PyAny>, name: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    name_based(namespace, name, Uuid::new_v5)
}

/// 128 bits from the CSPRNG, as an int (for uuid8's missing parts).
#[pyfunction]
fn _random_u128(py: Python<'_>) -> PyResult<Py<PyAny>> {
    let mut b = [0u8; 16];
    uuidkit::generator::rng::fill_random(&mut b);
    // SAFETY: GIL held.
    owned(py, unsafe { int_from_u128(u128::from_le_bytes(b)) })
}

/// A `uuidkit.UUID` of an int known to be in range (internal: uuid8, uuid1/uuid6 with fields).
#[pyfunction]
fn _from_int(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let st = state()?;
    // SAFETY: GIL held.
    unsafe {
        if ffi::PyLong_CheckExact(value.as_ptr()) == 0 || u128_of_int(value.as_ptr()).is_none() {
            return Err(PyValueError::new_err(
                "int is out of range (need a 128-bit value)",
            ));
        }
        owned(py, wrap(st, st.cls, value.clone().into_ptr(), st.unknown))
    }
}

// ---------------------------------------------------------------------------------------------
// Bulk

fn check_count(n: isize) -> PyResult<usize> {
    if n < 0 {
        return Err(PyValueError::new_err(format!("n must be >= 0, not {n}")));
    }
    // 16·n must fit a bytes object.
    if n as usize > (isize::MAX as usize) / 16 {
        return Err(PyValueError::new_err(format!("n is too large: {n}")));
    }
    Ok(n as usize)
}

/// `n` UUIDs into a fresh vector, the GIL released while they are generated.
fn generate(py: Python<'_>, n: usize, version: u8) -> PyResult<Vec<Uuid>> {
    let mut v = vec![Uuid::from_u128(0); n];
    #[cfg(unix)]
    if version == 7 && service::enabled() {
        service::fill(py, &mut v)?;
        return Ok(v);
    }
    py.detach(|| match version {
        4 => {
            uuidkit::generator::v4::fill_v4(&mut v);
            Ok(())
        }
        _ => uuidkit::generator::try_v7_batch(&mut v),
    })
    .map_err(gen_error)?;
    Ok(v)
}

fn to_list(py: Python<'_>, v: &[Uuid]) -> PyResult<Py<PyAny>> {
    let st = state()?;
    // SAFETY: GIL held; every item is set before the list is seen by Python code.
    unsafe {
        let list = ffi::PyList_New(v.len() as isize);
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        for (i, u) in v.iter().enumerate() {
            let o = new_uuid(st, u.as_u128(), st.unknown);
            if o.is_null() {
                ffi::Py_DECREF(list);
                return Err(PyErr::fetch(py));
            }
            ffi::PyList_SET_ITEM(list, i as isize, o);
        }
        owned(py, list)
    }
}

/// Asks Linux for transparent huge pages on the 2 MiB-aligned part of a large fresh buffer
/// (`madvise(MADV_HUGEPAGE)`, where THP is in "madvise" mode): a 16 MB bytes object then
/// costs 8 page faults instead of 4,096. Advice only: any failure leaves the buffer as it was.
#[cfg(target_os = "linux")]
fn huge_pages(addr: usize, len: usize) {
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
fn huge_pages(_addr: usize, _len: usize) {}

fn to_bytes(py: Python<'_>, n: usize, version: u8) -> PyResult<Py<PyAny>> {
    // SAFETY: a bytes object of 16·n bytes, filled before anything else sees it.
    unsafe {
        let b = ffi::PyBytes_FromStringAndSize(ptr::null(), (16 * n) as isize);
        if b.is_null() {
            return Err(PyErr::fetch(py));
        }
        let b: Bound<'_, PyAny> = Bound::from_owned_ptr(py, b);
        let p = ffi::PyBytes_AS_STRING(b.as_ptr()) as *mut Uuid;
        // `Uuid` is `repr(transparent)` over `[u8; 16]`: alignment 1, so any pointer fits.
        let out = std::slice::from_raw_parts_mut(p, n);
        #[cfg(unix)]
        if version == 7 && service::enabled() {
            service::fill(py, out)?;
            return Ok(b.unbind());
        }
        let addr = p as usize;
        huge_pages(addr, 16 * n);
        py.detach(move || {
            if version == 4 {
                // The thread's CSPRNG's keystream, 4 KiB at a time (its buffer's size), then
                // the version and variant bits of those 256 UUIDs while they are still in the
                // L1 cache: one pass over the (cold, 16 MB for 10^6) buffer, not two.
                let bytes = std::slice::from_raw_parts_mut(addr as *mut u8, 16 * n);
                for chunk in bytes.chunks_mut(4096) {
                    uuidkit::generator::rng::fill_random(chunk);
                    for u in chunk.chunks_exact_mut(16) {
                        u[6] = (u[6] & 0x0f) | 0x40;
                        u[8] = (u[8] & 0x3f) | 0x80;
                    }
                }
                return Ok(());
            }
            let out = std::slice::from_raw_parts_mut(addr as *mut Uuid, n);
            match version {
                4 => {
                    uuidkit::generator::v4::fill_v4(out);
                    Ok(())
                }
                _ => uuidkit::generator::try_v7_batch(out),
            }
        })
        .map_err(gen_error)?;
        Ok(b.unbind())
    }
}

/// uuid4_list(n) -> list[UUID]: `n` random UUIDs.
#[pyfunction]
fn uuid4_list(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    let n = check_count(n)?;
    let v = generate(py, n, 4)?;
    to_list(py, &v)
}

/// uuid7_list(n) -> list[UUID]: `n` v7 UUIDs, strictly increasing.
#[pyfunction]
fn uuid7_list(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    let n = check_count(n)?;
    let v = generate(py, n, 7)?;
    to_list(py, &v)
}

/// uuid4_bytes(n) -> bytes: `n` random UUIDs, 16 bytes each, big-endian, back to back.
#[pyfunction]
fn uuid4_bytes(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    to_bytes(py, check_count(n)?, 4)
}

/// uuid7_bytes(n) -> bytes: `n` v7 UUIDs in increasing order, 16 bytes each.
#[pyfunction]
fn uuid7_bytes(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    to_bytes(py, check_count(n)?, 7)
}

/// parse_list(strings) -> list[UUID]: each string as `UUID(s)` would take it (same
/// exceptions; the message names the index of the first bad item).
#[pyfunction]
fn parse_list(py: Python<'_>, strings: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let st = state()?;
    let out = PyList::empty(py);
    for (i, item) in strings.try_iter()?.enumerate() {
        let item = item?;
        // SAFETY: GIL held; `item` is live for the call.
        let fast = unsafe {
            if ffi::PyUnicode_CheckExact(item.as_ptr()) != 0 {
                plain_ascii(item.as_ptr()).and_then(parse_plain)
            } else {
                None
            }
        };
        let u = match fast {
            // SAFETY: GIL held.
            Some(v) => owned(py, unsafe { new_uuid(st, v, st.unknown) })?,
            None => {
                // SAFETY: the class object is alive for the interpreter's life.
                let cls = unsafe { Bound::from_borrowed_ptr(py, st.cls as *mut ffi::PyObject) };
                match cls.call1((&item,)) {
                    Ok(u) => u.unbind(),
                    Err(e) => {
                        // The same exception type, its message naming the item; types whose
                        // constructor takes more than a message are passed on as they are.
                        let t = e.get_type(py);
                        let plain = [
                            py.get_type::<PyValueError>(),
                            py.get_type::<PyTypeError>(),
                            py.get_type::<pyo3::exceptions::PyAttributeError>(),
                        ]
                        .iter()
                        .any(|k| t.is(k));
                        if !plain {
                            return Err(e);
                        }
                        let msg = format!("item {i}: {}", e.value(py));
                        let err = PyErr::from_type(t, msg);
                        err.set_cause(py, Some(e));
                        return Err(err);
                    }
                }
            }
        };
        out.append(u)?;
    }
    Ok(out.into_any().unbind())
}

/// format_list(uuids) -> list[str]: `str(u)` of each (any `uuid.UUID`).
#[pyfunction]
fn format_list(py: Python<'_>, uuids: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let st = state()?;
    let out = PyList::empty(py);
    for item in uuids.try_iter()? {
        let item = item?;
        // SAFETY: GIL held.
        let s = unsafe {
            match value_of(st, item.as_ptr()) {
                Some(v) => {
                    let s = hyphenated(v);
                    ffi::PyUnicode_FromStringAndSize(s.as_ptr().cast(), 36)
                }
                None => {
                    if ffi::PyType_IsSubtype(ffi::Py_TYPE(item.as_ptr()), st.base) == 0 {
                        return Err(PyTypeError::new_err(format!(
                            "format_list: expected uuid.UUID, got {}",
                            item.get_type().name()?
                        )));
                    }
                    ffi::PyObject_Str(item.as_ptr())
                }
            }
        };
        out.append(owned(py, s)?)?;
    }
    Ok(out.into_any().unbind())
}

/// The CSPRNG's fork generation: how many forks the library has seen in this process's line.
#[pyfunction]
fn _fork_generation() -> u64 {
    uuidkit::generator::rng::fork_generation()
}

#[pymodule(gil_used = false)]
fn _uuidkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The CSPRNG's fork detection is armed before any fork can happen.
    uuidkit::generator::rng::ensure_fork_detection();
    m.add_function(wrap_pyfunction!(setup, m)?)?;
    // SAFETY: static method definitions that outlive the module; GIL held.
    unsafe {
        for def in (*ptr::addr_of_mut!(RAW_FUNCS)).iter_mut() {
            let f = ffi::PyCFunction_NewEx(def, m.as_ptr(), ptr::null_mut());
            let f = Bound::from_owned_ptr_or_err(m.py(), f)?;
            m.add(CStr::from_ptr(def.ml_name).to_str().unwrap_or("?"), f)?;
        }
    }
    m.add_function(wrap_pyfunction!(_uuid6, m)?)?;
    m.add_function(wrap_pyfunction!(_uuid1, m)?)?;
    m.add_function(wrap_pyfunction!(uuid3, m)?)?;
    m.add_function(wrap_pyfunction!(uuid5, m)?)?;
    m.add_function(wrap_pyfunction!(_random_u128, m)?)?;
    m.add_function(wrap_pyfunction!(_from_int, m)?)?;
    m.add_function(wrap_pyfunction!(uuid4_list, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_list, m)?)?;
    m.add_function(wrap_pyfunction!(uuid4_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(parse_list, m)?)?;
    m.add_function(wrap_pyfunction!(format_list, m)?)?;
    m.add_function(wrap_pyfunction!(_fork_generation, m)?)?;
    #[cfg(unix)]
    service::register(m)?;
    short::register(m)?;
    arrow::register(m)?;
    Ok(())
}

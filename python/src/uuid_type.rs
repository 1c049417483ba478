//! `uuidkit.UUID`: the type and its slots.
//!
//! The class is a heap type made from a spec ([`make_type`]) with the standard `uuid.UUID` as
//! its base, so every instance is a `uuid.UUID`. It adds 16 bytes, the value, and keeps the
//! base's two slots with one rule: **an empty `int` slot means the value** (the common case:
//! what the generators and the fast constructors make), and an empty `is_safe` slot means
//! `SafeUUID.unknown`. A slot holds an object only when one was stored through the class's
//! `int`/`is_safe` descriptors with something other than an exact int in range (e.g. `True`,
//! which the standard constructor keeps as it is); every function here then does what the
//! standard class's Python code does, by calling that code.
//!
//! Deallocation, cycle traversal and clearing are the standard machinery's
//! (`subtype_dealloc` with its trashcan, `subtype_traverse`, `subtype_clear`, which see the
//! base's two slots): no deallocator of ours, so a chain of any depth is freed without deep
//! recursion. Instances start untracked by the cycle collector (empty slots cannot take part
//! in a cycle); [`store`] tracks one when a slot is given an object that can.

use crate::layout::{self, Layout};
use pyo3::ffi;
use std::ffi::{c_int, c_void, CStr};
use std::ptr;
use std::sync::OnceLock;

/// What [`crate::setup`] learnt; never freed (the class lives as long as the interpreter).
pub(crate) struct State {
    /// `uuidkit.UUID`.
    pub(crate) cls: *mut ffi::PyTypeObject,
    /// The standard `uuid.UUID`.
    pub(crate) base: *mut ffi::PyTypeObject,
    pub(crate) lay: Layout,
    /// `SafeUUID.unknown`, `.safe`, `.unsafe`.
    pub(crate) unknown: *mut ffi::PyObject,
    pub(crate) safe: *mut ffi::PyObject,
    pub(crate) unsafe_: *mut ffi::PyObject,
    /// `uuidkit.UUID.__init__` (the Python constructor: every form, every check).
    pub(crate) init: *mut ffi::PyObject,
    /// The standard class's Python `__str__`, `__repr__`, and the `bytes` and `hex` getters,
    /// for instances whose `int` slot holds an object.
    pub(crate) base_str: *mut ffi::PyObject,
    pub(crate) base_repr: *mut ffi::PyObject,
    pub(crate) base_bytes: *mut ffi::PyObject,
    pub(crate) base_hex: *mut ffi::PyObject,
    /// Where `uuid1`/`uuid6`/`uuid7` take their time from (`time.time_ns`, when replaced).
    pub(crate) clock: crate::clock::TimeSource,
}

// SAFETY: the pointers are strong references to objects that live as long as the
// interpreter, written once before any reader can see them (OnceLock) and only used with the
// GIL held (the module declares that it needs the GIL).
unsafe impl Send for State {}
// SAFETY: as above.
unsafe impl Sync for State {}

pub(crate) static STATE: OnceLock<State> = OnceLock::new();

pub(crate) fn state() -> pyo3::PyResult<&'static State> {
    STATE.get().ok_or_else(|| {
        pyo3::exceptions::PyRuntimeError::new_err("uuidkit._uuidkit.setup() has not been called")
    })
}

/// The value of `o` if it is a `uuid.UUID` whose value is known without running Python code:
/// a `uuidkit.UUID` with an empty `int` slot, or one (or a standard instance) whose slot holds
/// an exact int in range.
///
/// # Safety
/// GIL held; `o` live.
#[inline]
pub(crate) unsafe fn value_of(st: &State, o: *mut ffi::PyObject) -> Option<u128> {
    // SAFETY: GIL held; the layout is checked for the class and its base.
    unsafe {
        let t = ffi::Py_TYPE(o);
        let ours = t == st.cls || (t != st.base && ffi::PyType_IsSubtype(t, st.cls) != 0);
        if !ours && ffi::PyType_IsSubtype(t, st.base) == 0 {
            return None;
        }
        let i = layout::slot(o, st.lay.int_off);
        if i.is_null() {
            return if ours {
                Some(layout::value(o, &st.lay))
            } else {
                None
            };
        }
        if ffi::PyLong_CheckExact(i) == 0 {
            return None;
        }
        layout::u128_of_int(i)
    }
}

/// A new `uuidkit.UUID` of value `v`, with `is_safe` = `safe` (borrowed) when not null.
///
/// # Safety
/// GIL held.
#[inline]
pub(crate) unsafe fn new_uuid(st: &State, v: u128, safe: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: GIL held; `st.cls` has the layout `st.lay`; the slot takes a new reference to a
    // SafeUUID member (an object that cannot make a cycle garbage, see `store`).
    unsafe {
        let o = layout::alloc(st.cls, &st.lay, v);
        if !o.is_null() && !safe.is_null() && safe != st.unknown {
            ffi::Py_INCREF(safe);
            layout::swap_slot(o, st.lay.safe_off, safe);
        }
        o
    }
}

/// Stores `v` (borrowed, not null) in the slot at `off` of `o` (a `uuidkit.UUID`), and makes
/// sure the cycle collector sees `o` if `v` could lead back to it.
///
/// # Safety
/// GIL held; `o` is a `uuidkit.UUID` (or subclass) instance.
unsafe fn store(st: &State, o: *mut ffi::PyObject, off: isize, v: *mut ffi::PyObject) {
    // SAFETY: GIL held; `o` has the layout. The old content is released after the slot
    // holds the new one (its finaliser may look at `o`).
    unsafe {
        ffi::Py_INCREF(v);
        let old = layout::swap_slot(o, off, v);
        // An object the collector tracks can lead back to `o`: then so must `o` be tracked
        // (the SafeUUID members live in their class forever: no cycle through them is garbage).
        let atom = v == st.unknown || v == st.safe || v == st.unsafe_;
        if !atom && ffi::PyObject_IS_GC(v) != 0 && ffi::PyObject_GC_IsTracked(o) == 0 {
            ffi::PyObject_GC_Track(o as *mut c_void);
        }
        ffi::Py_XDECREF(old);
    }
}

// ---------------------------------------------------------------------------------------------
// The `int` and `is_safe` descriptors (shadowing the base's slot descriptors)

/// `u.int`: the value as an int (a new one each time when the slot is empty).
///
/// # Safety
/// A getter: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn get_int(o: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: GIL held, `o` an instance of the class.
    unsafe {
        let i = layout::slot(o, st.lay.int_off);
        if !i.is_null() {
            ffi::Py_INCREF(i);
            return i;
        }
        layout::int_from_u128(layout::value(o, &st.lay))
    }
}

/// `object.__setattr__(u, "int", v)` (what the standard constructor does): an exact int in
/// range becomes the value (the slot emptied); anything else is kept in the slot, as the
/// standard class keeps it.
///
/// # Safety
/// A setter: CPython calls it with the GIL held, `o` a live instance of the class and `v` the
/// new value or null (deletion).
unsafe extern "C" fn set_int(
    o: *mut ffi::PyObject,
    v: *mut ffi::PyObject,
    _: *mut c_void,
) -> c_int {
    let Some(st) = STATE.get() else {
        return -1;
    };
    // SAFETY: GIL held, `o` an instance of the class, `v` live or null.
    unsafe {
        if v.is_null() {
            return immutable();
        }
        if ffi::PyLong_CheckExact(v) != 0 {
            if let Some(x) = layout::u128_of_int(v) {
                layout::set_value(o, &st.lay, x);
                let old = layout::swap_slot(o, st.lay.int_off, ptr::null_mut());
                ffi::Py_XDECREF(old);
                return 0;
            }
        }
        store(st, o, st.lay.int_off, v);
        0
    }
}

/// `u.is_safe`.
///
/// # Safety
/// A getter: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn get_is_safe(o: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: GIL held, `o` an instance of the class.
    unsafe {
        let s = layout::slot(o, st.lay.safe_off);
        let s = if s.is_null() { st.unknown } else { s };
        ffi::Py_INCREF(s);
        s
    }
}

/// `object.__setattr__(u, "is_safe", v)`.
///
/// # Safety
/// A setter: as [`set_int`].
unsafe extern "C" fn set_is_safe(
    o: *mut ffi::PyObject,
    v: *mut ffi::PyObject,
    _: *mut c_void,
) -> c_int {
    let Some(st) = STATE.get() else {
        return -1;
    };
    // SAFETY: as in set_int.
    unsafe {
        if v.is_null() {
            return immutable();
        }
        store(st, o, st.lay.safe_off, v);
        0
    }
}

/// The standard class's answer to changing an instance: `TypeError`.
///
/// # Safety
/// GIL held.
unsafe fn immutable() -> c_int {
    // SAFETY: GIL held.
    unsafe {
        ffi::PyErr_SetString(ffi::PyExc_TypeError, c"UUID objects are immutable".as_ptr());
    }
    -1
}

/// The `bytes` attribute: 16 big-endian bytes.
///
/// # Safety
/// A getter: CPython calls it with the GIL held and `o` a live instance of the class.
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
/// A getter: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn get_hex(o: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    let Some(st) = STATE.get() else {
        return ptr::null_mut();
    };
    // SAFETY: GIL held, `o` live.
    unsafe {
        match value_of(st, o) {
            Some(v) => {
                let s = uuidkit::Uuid::from_u128(v).encode_simple(uuidkit::Case::Lower);
                ffi::PyUnicode_FromStringAndSize(s.as_ptr().cast(), 32)
            }
            None => call1(st.base_hex, o),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Type slots

/// Calls `f(o)` (a Python function of the standard class) for the cases the C code leaves to it.
///
/// # Safety
/// GIL held.
unsafe fn call1(f: *mut ffi::PyObject, o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: live objects, GIL held.
    unsafe { ffi::PyObject_CallOneArg(f, o) }
}

/// The 36-character lowercase hyphenated form (what `str(uuid.UUID)` gives).
pub(crate) fn hyphenated(v: u128) -> [u8; 36] {
    uuidkit::Uuid::from_u128(v).encode_hyphenated(uuidkit::Case::Lower)
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
            Some(v) => ffi::PyUnicode_FromStringAndSize(hyphenated(v).as_ptr().cast(), 36),
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

/// The `int` attribute of a `uuid.UUID` (new reference), or null with the exception set.
///
/// # Safety
/// GIL held; `o` live.
unsafe fn int_attr(o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: GIL held, `o` live.
    unsafe { ffi::PyObject_GetAttrString(o, c"int".as_ptr()) }
}

/// `tp_hash`: `hash(self.int)`, as the standard class's `__hash__`.
///
/// # Safety
/// A type slot: CPython calls it with the GIL held and `o` a live instance of the class.
unsafe extern "C" fn uuid_hash(o: *mut ffi::PyObject) -> ffi::Py_hash_t {
    let Some(st) = STATE.get() else {
        return -1;
    };
    // SAFETY: GIL held, `o` live.
    unsafe {
        if let Some(v) = value_of(st, o) {
            return layout::int_hash(v);
        }
        let i = int_attr(o);
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
        let is_uuid = |x: *mut ffi::PyObject| ffi::PyType_IsSubtype(ffi::Py_TYPE(x), st.base) != 0;
        if !is_uuid(a) || !is_uuid(b) {
            return new_ref(ffi::Py_NotImplemented());
        }
        if let (Some(x), Some(y)) = (value_of(st, a), value_of(st, b)) {
            let r = match op {
                ffi::Py_LT => x < y,
                ffi::Py_LE => x <= y,
                ffi::Py_EQ => x == y,
                ffi::Py_NE => x != y,
                ffi::Py_GT => x > y,
                ffi::Py_GE => x >= y,
                _ => return new_ref(ffi::Py_NotImplemented()),
            };
            return new_ref(if r { ffi::Py_True() } else { ffi::Py_False() });
        }
        let x = int_attr(a);
        if x.is_null() {
            return ptr::null_mut();
        }
        let y = int_attr(b);
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

/// `Py_NewRef` (3.10+), for 3.9 too.
///
/// # Safety
/// `o` is live; GIL held.
#[inline]
pub(crate) unsafe fn new_ref(o: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: the caller's promise.
    unsafe { ffi::Py_INCREF(o) };
    o
}

// ---------------------------------------------------------------------------------------------
// The constructor

/// The forms whose meaning is plain: 32 hex digits, or the 36-character hyphenated form, each
/// optionally in one pair of braces or after `urn:uuid:`. Anything else is left to the Python
/// constructor, which reproduces every quirk of the standard one (e.g. `int(x, 16)` accepting
/// underscores and non-ASCII digits).
pub(crate) fn parse_plain(s: &[u8]) -> Option<u128> {
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

/// The UTF-8 of a `str` if it is ASCII and of a length a plain form can have; None (with no
/// exception set) otherwise.
///
/// # Safety
/// `o` is a live `str` object and the caller holds the GIL.
pub(crate) unsafe fn plain_ascii<'a>(o: *mut ffi::PyObject) -> Option<&'a [u8]> {
    // SAFETY: the caller's promise: `o` is a `str`.
    let n = unsafe { ffi::PyUnicode_GetLength(o) };
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
            ffi::PyTuple_Size(kwnames)
        };
        if nargs + nkw != 1 {
            return None;
        }
        let arg = *args;
        let name = if nkw == 1 {
            let k = ffi::PyTuple_GetItem(kwnames, 0);
            if k.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            if kw_is(k, c"hex") {
                "hex"
            } else if kw_is(k, c"bytes") {
                "bytes"
            } else if kw_is(k, c"int") {
                "int"
            } else {
                return None;
            }
        } else {
            "hex"
        };
        let v = match name {
            "hex" => {
                if ffi::PyUnicode_CheckExact(arg) == 0 {
                    return None;
                }
                parse_plain(plain_ascii(arg)?)?
            }
            "bytes" => {
                if ffi::PyBytes_CheckExact(arg) == 0 || ffi::PyBytes_Size(arg) != 16 {
                    return None;
                }
                let p = ffi::PyBytes_AsString(arg) as *const [u8; 16];
                u128::from_be_bytes(*p)
            }
            _ => {
                if ffi::PyLong_CheckExact(arg) == 0 {
                    return None;
                }
                layout::u128_of_int(arg)?
            }
        };
        Some(new_uuid(st, v, ptr::null_mut()))
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
        let o = ffi::PyType_GenericAlloc(tp, 0);
        if o.is_null() {
            return ptr::null_mut();
        }
        let nkw = if kwnames.is_null() {
            0
        } else {
            ffi::PyTuple_Size(kwnames)
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

// ---------------------------------------------------------------------------------------------
// Making the type

static mut GETSETS: [ffi::PyGetSetDef; 5] = [
    ffi::PyGetSetDef {
        name: c"int".as_ptr(),
        get: Some(get_int),
        set: Some(set_int),
        doc: c"The UUID as a 128-bit integer.".as_ptr(),
        closure: ptr::null_mut(),
    },
    ffi::PyGetSetDef {
        name: c"is_safe".as_ptr(),
        get: Some(get_is_safe),
        set: Some(set_is_safe),
        doc: c"Whether the UUID was generated in a multiprocessing-safe way (SafeUUID).".as_ptr(),
        closure: ptr::null_mut(),
    },
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
    ffi::PyGetSetDef {
        name: ptr::null(),
        get: None,
        set: None,
        doc: ptr::null(),
        closure: ptr::null_mut(),
    },
];

/// Creates `uuidkit.UUID`: `base`'s layout plus the 16-byte value, the slots above, no
/// deallocator, traversal or clearing of its own (the base's standard ones, inherited).
///
/// # Safety
/// GIL held; `base` is a ready type whose layout is `lay` minus the value.
pub(crate) unsafe fn make_type(
    base: *mut ffi::PyTypeObject,
    lay: &Layout,
) -> *mut ffi::PyTypeObject {
    // SAFETY: the slot table points at static functions and the static getset table, which
    // outlive the type; PyType_FromSpecWithBases copies the spec.
    unsafe {
        let mut slots = [
            ffi::PyType_Slot {
                slot: ffi::Py_tp_str,
                pfunc: uuid_str as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_repr,
                pfunc: uuid_repr as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_hash,
                pfunc: uuid_hash as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_richcompare,
                pfunc: uuid_richcompare as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_getset,
                pfunc: ptr::addr_of_mut!(GETSETS) as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: 0,
                pfunc: ptr::null_mut(),
            },
        ];
        let mut spec = ffi::PyType_Spec {
            name: c"uuidkit.UUID".as_ptr(),
            basicsize: lay.size as c_int,
            itemsize: 0,
            flags: (ffi::Py_TPFLAGS_DEFAULT | ffi::Py_TPFLAGS_BASETYPE) as _,
            slots: slots.as_mut_ptr(),
        };
        let bases = ffi::PyTuple_Pack(1, base as *mut ffi::PyObject);
        if bases.is_null() {
            return ptr::null_mut();
        }
        let t = ffi::PyType_FromSpecWithBases(&mut spec, bases);
        ffi::Py_DECREF(bases);
        if t.is_null() {
            return ptr::null_mut();
        }
        let tp = t as *mut ffi::PyTypeObject;
        (*tp).tp_vectorcall = Some(uuid_vectorcall);
        ffi::PyType_Modified(tp);
        tp
    }
}

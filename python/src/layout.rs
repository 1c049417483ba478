//! The bridge between Rust values and CPython objects that depends on the interpreter: ints to
//! and from `u128`, the instance memory of `uuidkit.UUID`, and the hash of an int. Everything
//! here is either public C API of the Python this module was built for, or a layout fact
//! taken from that build's own definitions (pyo3-ffi for this version and build,
//! `Py_GIL_DISABLED` included) and checked by [`Layout::check`] at import.
//!
//! - Ints: `PyLong_FromNativeBytes`/`PyLong_AsNativeBytes` from 3.13 (public API),
//!   `_PyLong_FromByteArray`/`_PyLong_AsByteArray` before (the functions those replaced, with
//!   the signatures of 3.9-3.12). No digit of an int is read or written directly.
//! - Instances: `uuidkit.UUID` is a heap type made from a spec with `uuid.UUID` as its base
//!   and 16 bytes more than it: the value, in native byte order, at the end of the base's
//!   layout. The offsets of the base's two slots (`int`, `is_safe`) are learnt by probing an
//!   instance and checked to lie inside the base's body.

use pyo3::ffi;
use std::ffi::c_int;

/// Where the parts of an instance are, in bytes from the object's start.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// The `int` slot of `uuid.UUID` (a `PyObject *`).
    pub(crate) int_off: isize,
    /// The `is_safe` slot of `uuid.UUID`.
    pub(crate) safe_off: isize,
    /// The 16-byte value of a `uuidkit.UUID` (`uuid.UUID`'s basic size).
    pub(crate) value_off: isize,
    /// `uuidkit.UUID`'s basic size (the value's end).
    pub(crate) size: isize,
}

const WORD: isize = std::mem::size_of::<*mut ffi::PyObject>() as isize;
const HEAD: isize = std::mem::size_of::<ffi::PyObject>() as isize;
/// The value stored in an instance.
pub(crate) const VALUE_SIZE: isize = 16;

impl Layout {
    /// The layout for a base of `base_size` bytes with its slots at `int_off` and `safe_off`,
    /// if those are distinct, word-aligned pointer slots inside the base's body (after this
    /// build's object header).
    pub(crate) fn check(base_size: isize, int_off: isize, safe_off: isize) -> Option<Layout> {
        let in_body = |off: isize| off >= HEAD && off + WORD <= base_size && off % WORD == 0;
        if !in_body(int_off) || !in_body(safe_off) || int_off == safe_off || base_size % WORD != 0 {
            return None;
        }
        Some(Layout {
            int_off,
            safe_off,
            value_off: base_size,
            size: base_size + VALUE_SIZE,
        })
    }
}

/// The pointer slot at `off` of `o` (borrowed; null if unset).
///
/// # Safety
/// `o` is a live instance of a type whose layout has a pointer slot at `off` (checked by
/// [`Layout::check`] for `uuid.UUID` and its subtypes).
#[inline]
pub(crate) unsafe fn slot(o: *mut ffi::PyObject, off: isize) -> *mut ffi::PyObject {
    // SAFETY: the caller's promise; the slot is word-aligned.
    unsafe { *((o as *mut u8).offset(off) as *mut *mut ffi::PyObject) }
}

/// Replaces the pointer slot at `off` of `o` with `v` (a reference the slot takes over, or
/// null) and returns the old content (a reference the caller now owns, or null).
///
/// # Safety
/// As [`slot`]; the caller holds the object (the GIL, or on a free-threaded build the
/// object's critical section).
#[inline]
pub(crate) unsafe fn swap_slot(
    o: *mut ffi::PyObject,
    off: isize,
    v: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: the caller's promise.
    unsafe { std::ptr::replace((o as *mut u8).offset(off) as *mut *mut ffi::PyObject, v) }
}

/// The 16-byte value of a `uuidkit.UUID` instance.
///
/// # Safety
/// `o` is a live instance of `uuidkit.UUID` or a subtype; `lay` is its layout.
#[inline]
pub(crate) unsafe fn value(o: *mut ffi::PyObject, lay: &Layout) -> u128 {
    // SAFETY: the value lies inside the instance (`value_off + 16 <= basicsize`); an
    // unaligned read, since the base's size is a multiple of 8 only.
    unsafe { std::ptr::read_unaligned((o as *const u8).offset(lay.value_off) as *const u128) }
}

/// Stores the value of a `uuidkit.UUID` instance.
///
/// # Safety
/// As [`value`]; nothing else reads the value meanwhile (GIL or critical section).
#[inline]
pub(crate) unsafe fn set_value(o: *mut ffi::PyObject, lay: &Layout, v: u128) {
    // SAFETY: as in `value`.
    unsafe { std::ptr::write_unaligned((o as *mut u8).offset(lay.value_off) as *mut u128, v) }
}

/// A new, untracked instance of `tp` (`uuidkit.UUID`) of value `v`, its two slots empty (an
/// empty `int` slot means "the value", an empty `is_safe` slot `SafeUUID.unknown`); null
/// with `MemoryError` set when the allocation fails.
///
/// `PyObject_GC_New` sets the header (and, from 3.12, clears the pre-header where the
/// interpreter keeps the weak-reference list); the body is cleared here. The instance is not
/// tracked by the cycle collector: empty slots cannot be part of a cycle. It is tracked when a
/// slot is given an object that can (see `uuid_type::store`).
///
/// # Safety
/// GIL held (or an attached thread state); `tp` is `uuidkit.UUID`, whose layout is `lay`.
#[inline]
pub(crate) unsafe fn alloc(
    tp: *mut ffi::PyTypeObject,
    lay: &Layout,
    v: u128,
) -> *mut ffi::PyObject {
    // SAFETY: `tp` is a ready GC type of basic size `lay.size`; the body after the header is
    // ours to initialise before anyone sees the object.
    unsafe {
        let o = ffi::PyObject_GC_New::<ffi::PyObject>(tp);
        if o.is_null() {
            return o;
        }
        std::ptr::write_bytes((o as *mut u8).offset(HEAD), 0, (lay.size - HEAD) as usize);
        set_value(o, lay, v);
        o
    }
}

/// A new reference to a Python `int` of `v`; null with an exception set on failure.
///
/// # Safety
/// GIL held.
#[inline]
pub(crate) unsafe fn int_from_u128(v: u128) -> *mut ffi::PyObject {
    if v <= u64::MAX as u128 {
        // SAFETY: a plain constructor.
        return unsafe { ffi::PyLong_FromUnsignedLongLong(v as u64) };
    }
    let b = v.to_le_bytes();
    #[cfg(Py_3_13)]
    // SAFETY: 16 readable bytes, read as an unsigned little-endian number.
    unsafe {
        ffi::PyLong_FromUnsignedNativeBytes(
            b.as_ptr().cast(),
            16,
            ffi::Py_ASNATIVEBYTES_LITTLE_ENDIAN | ffi::Py_ASNATIVEBYTES_UNSIGNED_BUFFER,
        )
    }
    #[cfg(not(Py_3_13))]
    // SAFETY: 16 readable bytes, little-endian, unsigned.
    unsafe {
        ffi::_PyLong_FromByteArray(b.as_ptr(), 16, 1, 0)
    }
}

/// The value of an `int` (exact or a subclass) if it is in 0..2^128; None, with no exception
/// set, otherwise.
///
/// # Safety
/// `o` is a live `int`; GIL held.
#[inline]
pub(crate) unsafe fn u128_of_int(o: *mut ffi::PyObject) -> Option<u128> {
    let mut b = [0u8; 16];
    #[cfg(Py_3_13)]
    {
        // Returns the bytes the value needs (more than 16 when it does not fit), or -1 with
        // an exception (a negative value, with REJECT_NEGATIVE).
        let flags: c_int = ffi::Py_ASNATIVEBYTES_LITTLE_ENDIAN
            | ffi::Py_ASNATIVEBYTES_UNSIGNED_BUFFER
            | ffi::Py_ASNATIVEBYTES_REJECT_NEGATIVE;
        // SAFETY: `o` is an int; 16 writable bytes.
        let n = unsafe { ffi::PyLong_AsNativeBytes(o, b.as_mut_ptr().cast(), 16, flags) };
        if n < 0 {
            // SAFETY: the ValueError of a negative value is ours to clear.
            unsafe { ffi::PyErr_Clear() };
            return None;
        }
        if n > 16 {
            return None;
        }
    }
    #[cfg(not(Py_3_13))]
    {
        let little: c_int = 1;
        // SAFETY: `o` is an int; 16 writable bytes.
        let r = unsafe {
            ffi::_PyLong_AsByteArray(o as *mut ffi::PyLongObject, b.as_mut_ptr(), 16, little, 0)
        };
        if r < 0 {
            // SAFETY: the OverflowError (negative or too large) is ours to clear.
            unsafe { ffi::PyErr_Clear() };
            return None;
        }
    }
    Some(u128::from_le_bytes(b))
}

/// `hash(int(v))` without making the int: a non-negative int's hash is its value modulo
/// `sys.hash_info.modulus` (2^61 - 1 where `Py_hash_t` has 64 bits, 2^31 - 1 where it has
/// 32), which [`crate::setup`] checks against the running interpreter.
#[inline]
pub(crate) fn int_hash(v: u128) -> ffi::Py_hash_t {
    // The result is below the modulus, so never -1 (CPython's error value).
    (v % HASH_MODULUS) as ffi::Py_hash_t
}

/// `sys.hash_info.modulus` of this build.
pub(crate) const HASH_MODULUS: u128 = if std::mem::size_of::<ffi::Py_hash_t>() == 8 {
    (1 << 61) - 1
} else {
    (1 << 31) - 1
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_rejects_slots_outside_the_body() {
        let size = HEAD + 2 * WORD;
        assert!(Layout::check(size, HEAD, HEAD + WORD).is_some());
        assert!(Layout::check(size, HEAD - WORD, HEAD).is_none());
        assert!(Layout::check(size, HEAD, HEAD).is_none());
        assert!(Layout::check(size, HEAD, size).is_none());
        assert!(Layout::check(size, HEAD + 1, HEAD + WORD).is_none());
    }
}

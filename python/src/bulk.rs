//! Bulk calls: `n` UUIDs into a list or into one `bytes` object, and lists of strings parsed
//! or formatted in one call.
//!
//! Sizes are checked before anything is allocated: a count whose result could not fit this
//! machine's memory is a `MemoryError` naming both, and every allocation that fails later is a
//! `MemoryError` too (no Rust allocation that could abort the process).

use crate::uuid_type::{hyphenated, new_uuid, parse_plain, plain_ascii, state, value_of, State};
use crate::{guard, owned, sys};
use pyo3::exceptions::{PyAttributeError, PyMemoryError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::ptr;
use uuidkit::Uuid;

#[cfg(unix)]
use crate::service;

/// UUIDs generated at a time for a list: a stack buffer, filled and turned into objects
/// while it is in the L1 cache.
const CHUNK: usize = 256;

/// `n` as a count for `what`, each result taking about `per_item` bytes: ValueError when
/// negative, MemoryError when the total exceeds the address space or the machine's memory.
fn check_count(what: &str, n: isize, per_item: u64) -> PyResult<usize> {
    if n < 0 {
        return Err(PyValueError::new_err(format!("n must be >= 0, not {n}")));
    }
    let need = (n as u64).checked_mul(per_item);
    let limit = (isize::MAX as u64).min(sys::physical_memory().unwrap_or(u64::MAX));
    match need {
        Some(need) if need <= limit => Ok(n as usize),
        _ => Err(PyMemoryError::new_err(format!(
            "{what}({n}) needs {} bytes, more than this machine's {} bytes of memory",
            need.map_or_else(|| "over 2^64".to_string(), |b| b.to_string()),
            limit
        ))),
    }
}

/// Fills `out` with version `version` UUIDs (4, or 7: from the service when it is on).
fn fill(py: Python<'_>, out: &mut [Uuid], version: u8) -> PyResult<()> {
    if version == 4 {
        uuidkit::generator::v4::fill_v4(out);
        return Ok(());
    }
    #[cfg(unix)]
    if service::enabled() {
        return service::fill(py, out);
    }
    let _ = py;
    uuidkit::generator::try_v7_batch(out).map_err(crate::generators::gen_error)
}

fn to_list(py: Python<'_>, st: &State, n: usize, version: u8) -> PyResult<Py<PyAny>> {
    // SAFETY: GIL held; the list's items are all set before it is returned (a failed
    // allocation drops the list, whose unset items are null, which it allows).
    unsafe {
        let list = ffi::PyList_New(n as isize);
        let list = Bound::from_owned_ptr_or_err(py, list)?;
        let mut buf = [Uuid::NIL; CHUNK];
        let mut i = 0;
        while i < n {
            let k = CHUNK.min(n - i);
            fill(py, &mut buf[..k], version)?;
            for u in &buf[..k] {
                let o = new_uuid(st, u.as_u128(), ptr::null_mut());
                if o.is_null() {
                    return Err(PyErr::fetch(py));
                }
                ffi::PyList_SET_ITEM(list.as_ptr(), i as isize, o);
                i += 1;
            }
        }
        Ok(list.unbind())
    }
}

fn to_bytes(py: Python<'_>, n: usize, version: u8) -> PyResult<Py<PyAny>> {
    // SAFETY: a bytes object of 16·n bytes (checked to fit), filled before anything else sees it.
    unsafe {
        let b = ffi::PyBytes_FromStringAndSize(ptr::null(), (16 * n) as isize);
        let b = Bound::from_owned_ptr_or_err(py, b)?;
        let p = ffi::PyBytes_AsString(b.as_ptr()) as *mut Uuid;
        // `Uuid` is `repr(transparent)` over `[u8; 16]`: alignment 1, so any pointer fits.
        #[cfg(unix)]
        if version == 7 && service::enabled() {
            service::fill(py, std::slice::from_raw_parts_mut(p, n))?;
            return Ok(b.unbind());
        }
        let addr = p as usize;
        sys::huge_pages(addr, 16 * n);
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
            uuidkit::generator::try_v7_batch(std::slice::from_raw_parts_mut(addr as *mut Uuid, n))
        })
        .map_err(crate::generators::gen_error)?;
        Ok(b.unbind())
    }
}

/// Bytes per item of a list of new instances: the list's pointer, the instance with its GC
/// header (and, from 3.12, pre-header), rounded up to the allocator's 16 bytes.
fn list_item_bytes(st: &State) -> u64 {
    8 + ((st.lay.size as u64 + 32 + 15) & !15)
}

/// uuid4_list(n) -> list[UUID]: `n` random UUIDs.
#[pyfunction]
fn uuid4_list(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    guard(|| {
        let st = state()?;
        to_list(
            py,
            st,
            check_count("uuid4_list", n, list_item_bytes(st))?,
            4,
        )
    })
}

/// uuid7_list(n) -> list[UUID]: `n` v7 UUIDs, strictly increasing.
#[pyfunction]
fn uuid7_list(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    guard(|| {
        let st = state()?;
        to_list(
            py,
            st,
            check_count("uuid7_list", n, list_item_bytes(st))?,
            7,
        )
    })
}

/// uuid4_bytes(n) -> bytes: `n` random UUIDs, 16 bytes each, big-endian, back to back.
#[pyfunction]
fn uuid4_bytes(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    guard(|| to_bytes(py, check_count("uuid4_bytes", n, 16)?, 4))
}

/// uuid7_bytes(n) -> bytes: `n` v7 UUIDs in increasing order, 16 bytes each.
#[pyfunction]
fn uuid7_bytes(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    guard(|| to_bytes(py, check_count("uuid7_bytes", n, 16)?, 7))
}

/// parse_list(strings) -> list[UUID]: each string as `UUID(s)` would take it (same
/// exceptions; the message names the index of the first bad item).
#[pyfunction]
fn parse_list(py: Python<'_>, strings: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    guard(|| {
        let st = state()?;
        let out = PyList::empty(py);
        // SAFETY: the class object is alive for the interpreter's life.
        let cls = unsafe { Bound::from_borrowed_ptr(py, st.cls as *mut ffi::PyObject) };
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
                Some(v) => owned(py, unsafe { new_uuid(st, v, ptr::null_mut()) })?,
                None => match cls.call1((&item,)) {
                    Ok(u) => u.unbind(),
                    Err(e) => return Err(name_item(py, i, e)),
                },
            };
            out.append(u)?;
        }
        Ok(out.into_any().unbind())
    })
}

/// The same exception type as `e`, its message naming item `i`; types whose constructor
/// takes more than a message are passed on as they are.
fn name_item(py: Python<'_>, i: usize, e: PyErr) -> PyErr {
    let t = e.get_type(py);
    let plain = [
        py.get_type::<PyValueError>(),
        py.get_type::<PyTypeError>(),
        py.get_type::<PyAttributeError>(),
    ]
    .iter()
    .any(|k| t.is(k));
    if !plain {
        return e;
    }
    let err = PyErr::from_type(t, format!("item {i}: {}", e.value(py)));
    err.set_cause(py, Some(e));
    err
}

/// format_list(uuids) -> list[str]: `str(u)` of each (any `uuid.UUID`).
#[pyfunction]
fn format_list(py: Python<'_>, uuids: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    guard(|| {
        let st = state()?;
        let out = PyList::empty(py);
        for item in uuids.try_iter()? {
            let item = item?;
            // SAFETY: GIL held.
            let s = unsafe {
                match value_of(st, item.as_ptr()) {
                    Some(v) => ffi::PyUnicode_FromStringAndSize(hyphenated(v).as_ptr().cast(), 36),
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
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(uuid4_list, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_list, m)?)?;
    m.add_function(wrap_pyfunction!(uuid4_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(parse_list, m)?)?;
    m.add_function(wrap_pyfunction!(format_list, m)?)?;
    Ok(())
}

//! The time source of `uuid1`/`uuid6`/`uuid7`: the system clock, or `time.time_ns` when a test
//! has replaced it.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;

/// Where `uuid1()`, `uuid6()` and `uuid7()` take their time from. The standard module calls
/// `time.time_ns()`, so a test that replaces it (freezegun, `unittest.mock.patch`) controls
/// their timestamps; uuidkit reads the system clock itself, unless `time.time_ns` is no longer
/// the function it was at import: then it calls it, as the standard module would. The check is
/// one lookup in the `time` module's dictionary, with an interned key.
pub(crate) struct TimeSource {
    /// `time.__dict__` (a strong reference).
    dict: *mut ffi::PyObject,
    /// The interned string `"time_ns"`.
    key: *mut ffi::PyObject,
    /// `time.time_ns` at import.
    original: *mut ffi::PyObject,
}

impl TimeSource {
    /// The time source of the `time` module `time_mod`.
    pub(crate) fn new(time_mod: &Bound<'_, PyAny>) -> PyResult<TimeSource> {
        let dict = time_mod.getattr("__dict__")?;
        let original = time_mod.getattr("time_ns")?;
        let key = pyo3::types::PyString::intern(time_mod.py(), "time_ns");
        Ok(TimeSource {
            dict: dict.into_ptr(),
            key: key.clone().into_ptr(),
            original: original.into_ptr(),
        })
    }

    /// Whether `time.time_ns` is another object than at import (the check alone).
    pub(crate) fn is_replaced(&self) -> PyResult<bool> {
        // SAFETY: GIL held (the callers are module functions); a borrowed item, compared only.
        let f = unsafe { ffi::PyDict_GetItemWithError(self.dict, self.key) };
        Ok(f != self.original)
    }

    /// None while `time.time_ns` is the original; else what the replacement returns, in
    /// nanoseconds since 1970.
    pub(crate) fn replaced(&self, py: Python<'_>) -> PyResult<Option<i128>> {
        // SAFETY: GIL held; the dictionary and key are alive for the interpreter's life; the
        // borrowed item is made a strong reference before any Python code runs.
        let f = unsafe {
            let f = ffi::PyDict_GetItemWithError(self.dict, self.key);
            if f == self.original {
                return Ok(None);
            }
            if f.is_null() {
                if let Some(e) = PyErr::take(py) {
                    return Err(e);
                }
                return Err(pyo3::exceptions::PyAttributeError::new_err(
                    "module 'time' has no attribute 'time_ns'",
                ));
            }
            Bound::from_borrowed_ptr(py, f)
        };
        let r = f.call0()?;
        if let Ok(ns) = r.extract::<i128>() {
            return Ok(Some(ns));
        }
        match r.extract::<f64>() {
            Ok(ns) if ns.is_finite() => Ok(Some(ns.floor() as i128)),
            _ => Err(PyTypeError::new_err(format!(
                "time.time_ns() returned {}, not a number of nanoseconds",
                r.get_type().name()?
            ))),
        }
    }
}

//! `uuidkit._uuidkit`: the native half of the `uuidkit` Python package.
//!
//! - `layout.rs`: the int/bytes bridge and the instance memory, the one place that depends on
//!   the interpreter's layout (taken from this build's definitions, checked at import);
//! - `uuid_type.rs`: `uuidkit.UUID`, a heap type whose base is the standard `uuid.UUID`, and
//!   its slots (`str`, `repr`, `hash`, comparisons, a vectorcall constructor, the `int`,
//!   `is_safe`, `bytes` and `hex` descriptors);
//! - `generators.rs`: `uuid4`, `uuid7` (C functions), `uuid1`/`uuid6` with a node, `uuid3`,
//!   `uuid5`; `clock.rs`: their time source (`time.time_ns` when a test replaced it);
//! - `bulk.rs`: lists and `bytes` of many UUIDs, lists parsed and formatted in one call;
//! - `short.rs`: the short text forms and TypeID; `service.rs`: the system service's client;
//! - `sys.rs`: the module's own operating-system calls.
//!
//! Every entry point turns bad input into a Python exception; a panic, which none should
//! reach, is caught at the boundary ([`guard`]) and raised as `RuntimeError`.

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod arrow;
mod bulk;
mod clock;
mod generators;
mod layout;
#[cfg(unix)]
mod service;
mod short;
mod sys;
mod uuid_type;

use uuid_type::{State, STATE};

/// Runs `f`, turning a panic (a bug: no input should cause one) into `RuntimeError`, so that
/// nothing but an ordinary exception ever reaches Python code.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(PyRuntimeError::new_err(format!(
                "uuidkit: internal error: {what}"
            )))
        }
    }
}

/// A new reference (or null with an exception set) as a `Py<PyAny>`.
pub(crate) fn owned(py: Python<'_>, p: *mut ffi::PyObject) -> PyResult<Py<PyAny>> {
    // SAFETY: `p` is a new reference or null with an exception set.
    unsafe { Ok(Bound::from_owned_ptr_or_err(py, p)?.unbind()) }
}

/// Finds the byte offset at which `probe` holds `needle`, once.
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
            if layout::slot(probe, off) == needle {
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

/// Makes `uuidkit.UUID` and wires it to this module; returns the class. Called once by
/// `uuidkit/__init__.py`.
///
/// `base` is the standard `uuid.UUID`; `probe` an instance of it whose `int` slot holds
/// `int_mark` and `is_safe` slot `safe_mark` (two distinct objects), from which the slots'
/// offsets are read; `methods` the Python-level attributes the class gets (`__init__`, `time`,
/// `__reduce__`, …); `hash_modulus` is `sys.hash_info.modulus`, checked against this build's.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn setup<'py>(
    base: &Bound<'py, PyAny>,
    methods: &Bound<'py, PyDict>,
    probe: &Bound<'py, PyAny>,
    int_mark: &Bound<'py, PyAny>,
    safe_mark: &Bound<'py, PyAny>,
    safe_uuid: &Bound<'py, PyAny>,
    hash_modulus: u128,
    time_mod: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if STATE.get().is_some() {
        return Err(PyRuntimeError::new_err(
            "uuidkit._uuidkit.setup() was already called",
        ));
    }
    if hash_modulus != layout::HASH_MODULUS {
        return Err(PyRuntimeError::new_err(format!(
            "uuidkit: sys.hash_info.modulus is {hash_modulus}, this build expects {}",
            layout::HASH_MODULUS
        )));
    }
    let py = base.py();
    let base_t = base.as_ptr() as *mut ffi::PyTypeObject;
    // SAFETY: GIL held; the objects are live; the checks below make sure that the base has
    // the standard layout (two pointer slots in its body, no instance dict, no items) before
    // anything is written through the offsets.
    unsafe {
        if ffi::PyType_Check(base.as_ptr()) == 0
            || ffi::Py_TYPE(probe.as_ptr()) != base_t
            || (*base_t).tp_itemsize != 0
            || (*base_t).tp_dictoffset != 0
        {
            return Err(PyTypeError::new_err(
                "uuidkit: the base must be uuid.UUID, with __slots__ and no instance dict",
            ));
        }
        let int_off = find_slot(probe.as_ptr(), int_mark.as_ptr());
        let safe_off = find_slot(probe.as_ptr(), safe_mark.as_ptr());
        let lay = match (int_off, safe_off) {
            (Some(i), Some(s)) => layout::Layout::check((*base_t).tp_basicsize, i, s),
            _ => None,
        };
        let Some(lay) = lay else {
            return Err(PyRuntimeError::new_err(
                "uuidkit: could not find the int and is_safe slots of uuid.UUID",
            ));
        };
        let cls_t = uuid_type::make_type(base_t, &lay);
        if cls_t.is_null() {
            return Err(PyErr::fetch(py));
        }
        let cls = Bound::from_owned_ptr(py, cls_t as *mut ffi::PyObject);
        if (*cls_t).tp_basicsize != lay.size {
            return Err(PyRuntimeError::new_err(
                "uuidkit: the class's size is not as made",
            ));
        }
        for (k, v) in methods.iter() {
            cls.setattr(k.cast::<pyo3::types::PyString>()?, v)?;
        }
        let get =
            |name: &str| -> PyResult<*mut ffi::PyObject> { Ok(base.getattr(name)?.into_ptr()) };
        let fget = |name: &str| -> PyResult<*mut ffi::PyObject> {
            Ok(base.getattr(name)?.getattr("fget")?.into_ptr())
        };
        let st = State {
            cls: cls_t,
            base: base_t,
            lay,
            unknown: safe_uuid.getattr("unknown")?.into_ptr(),
            safe: safe_uuid.getattr("safe")?.into_ptr(),
            unsafe_: safe_uuid.getattr("unsafe")?.into_ptr(),
            init: cls.getattr("__init__")?.into_ptr(),
            base_str: get("__str__")?,
            base_repr: get("__repr__")?,
            base_bytes: fget("bytes")?,
            base_hex: fget("hex")?,
            clock: clock::TimeSource::new(time_mod)?,
        };
        // The state holds the class (and its base) for the interpreter's life.
        ffi::Py_INCREF(cls_t as *mut ffi::PyObject);
        ffi::Py_INCREF(base_t as *mut ffi::PyObject);
        let _ = STATE.set(st);
        Ok(cls)
    }
}

/// The CSPRNG's fork generation: how many forks the library has seen in this process's line.
#[pyfunction]
fn _fork_generation() -> u64 {
    uuidkit::generator::rng::fork_generation()
}

// The module needs the GIL (the default): it has not been run on a free-threaded build.
#[pymodule]
fn _uuidkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The CSPRNG's fork detection is armed before any fork can happen.
    uuidkit::generator::rng::ensure_fork_detection();
    m.add_function(wrap_pyfunction!(setup, m)?)?;
    m.add_function(wrap_pyfunction!(_fork_generation, m)?)?;
    generators::register(m)?;
    bulk::register(m)?;
    #[cfg(unix)]
    service::register(m)?;
    short::register(m)?;
    arrow::register(m)?;
    Ok(())
}

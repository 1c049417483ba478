//! The generators: `uuid4()` and `uuid7()` as plain `METH_NOARGS` C functions (the call costs
//! what a C call costs), `uuid1`/`uuid6` with a node, the name-based `uuid3`/`uuid5`; the
//! time-based ones take a replaced `time.time_ns` into account (`clock.rs`).

use crate::uuid_type::{new_uuid, state, value_of, State};
use crate::{guard, owned};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::ptr;
use uuidkit::Uuid;

#[cfg(unix)]
use crate::service;

pub(crate) fn gen_error(e: uuidkit::generator::GenError) -> PyErr {
    PyOSError::new_err(format!("uuidkit: {e}"))
}

fn mocked_error(e: uuidkit::generator::GenError) -> PyErr {
    PyValueError::new_err(format!(
        "uuidkit: time.time_ns() gave a time out of range: {e}"
    ))
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
fn time_based(
    py: Python<'_>,
    st: &State,
    version: u8,
    node: Option<u64>,
) -> PyResult<*mut ffi::PyObject> {
    #[cfg(unix)]
    if let Some((u, durable)) = service::next(py, version)? {
        let safe = if durable { st.safe } else { ptr::null_mut() };
        // SAFETY: GIL held.
        return Ok(unsafe { new_uuid(st, with_node(u.as_u128(), node), safe) });
    }
    use uuidkit::generator::global as g;
    let u = match st.clock.replaced(py)? {
        None => match version {
            1 => g::try_v1(),
            6 => g::try_v6(),
            _ => g::try_v7(),
        }
        .map_err(gen_error)?,
        Some(ns) => match version {
            1 => g::try_v1_at(ns),
            6 => g::try_v6_at(ns),
            _ => g::try_v7_at(ns),
        }
        .map_err(mocked_error)?,
    };
    // SAFETY: GIL held.
    Ok(unsafe { new_uuid(st, with_node(u.as_u128(), node), ptr::null_mut()) })
}

/// Runs `f` with a `Python` token, turning an error or a panic into a Python exception.
///
/// # Safety
/// GIL held.
unsafe fn raw_call(
    f: impl FnOnce(Python<'_>) -> PyResult<*mut ffi::PyObject>,
) -> *mut ffi::PyObject {
    // SAFETY: the caller holds the GIL.
    let py = unsafe { Python::assume_attached() };
    match guard(|| f(py)) {
        Ok(p) => p,
        Err(e) => {
            e.restore(py);
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
            Ok(new_uuid(st, uuidkit::v4().as_u128(), ptr::null_mut()))
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
    unsafe { raw_call(|py| time_based(py, state()?, 7, None)) }
}

/// The floor of creating an instance, for the benchmark: a new `uuidkit.UUID` of a fixed
/// value (no random bits), through the same call path as `uuid4()`.
///
/// # Safety
/// A `METH_NOARGS` module function: CPython calls it with the GIL held.
unsafe extern "C" fn raw_floor(
    _m: *mut ffi::PyObject,
    _a: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter with the GIL.
    unsafe { raw_call(|_| Ok(new_uuid(state()?, u128::MAX, ptr::null_mut()))) }
}

pub(crate) static mut RAW_FUNCS: [ffi::PyMethodDef; 3] = [
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
    guard(|| owned(py, time_based(py, state()?, 6, node)?))
}

/// The process-wide v1 generator's next UUID, with `node` (48 bits kept) as its node if
/// given (else the generator's random node, fixed per process).
#[pyfunction]
#[pyo3(signature = (node=None))]
fn _uuid1(py: Python<'_>, node: Option<u64>) -> PyResult<Py<PyAny>> {
    guard(|| owned(py, time_based(py, state()?, 1, node)?))
}

/// The namespace's 16 bytes: read directly from a `uuid.UUID`, else its `bytes` attribute
/// (AttributeError if it has none, as the standard module raises).
fn namespace_bytes(st: &State, ns: &Bound<'_, PyAny>) -> PyResult<[u8; 16]> {
    // SAFETY: GIL held.
    if let Some(v) = unsafe { value_of(st, ns.as_ptr()) } {
        return Ok(v.to_be_bytes());
    }
    let b = ns.getattr("bytes")?;
    let b = b.cast::<PyBytes>().map_err(|_| {
        PyTypeError::new_err("uuidkit: the namespace's bytes attribute is not bytes")
    })?;
    <[u8; 16]>::try_from(b.as_bytes()).map_err(|_| {
        // The standard module would hash whatever it got; a namespace of another length is
        // no UUID, so say so.
        PyValueError::new_err("uuidkit: the namespace's bytes are not 16 bytes long")
    })
}

fn name_based(
    ns: &Bound<'_, PyAny>,
    name: &Bound<'_, PyAny>,
    f: fn(&Uuid, &[u8]) -> Uuid,
) -> PyResult<Py<PyAny>> {
    let py = ns.py();
    let st = state()?;
    let nsu = Uuid::from_bytes(namespace_bytes(st, ns)?);
    let u = if let Ok(s) = name.cast::<pyo3::types::PyString>() {
        // UnicodeEncodeError for lone surrogates, as `bytes(name, "utf-8")` raises.
        f(&nsu, s.to_str()?.as_bytes())
    } else if let Ok(b) = name.cast::<PyBytes>() {
        f(&nsu, b.as_bytes())
    } else {
        // `namespace.bytes + name`: bytes-like objects concatenate, anything else is a
        // TypeError; so the name's buffer is taken when it has one.
        match pyo3::buffer::PyBuffer::<u8>::get(name) {
            Ok(b) => f(&nsu, &b.to_vec(py)?),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "can't concat {} to bytes",
                    name.get_type().name()?
                )))
            }
        }
    };
    // SAFETY: GIL held.
    owned(py, unsafe { new_uuid(st, u.as_u128(), ptr::null_mut()) })
}

/// uuid3(namespace, name) -> UUID: MD5 of the namespace's bytes and the name (str as UTF-8).
#[pyfunction]
fn uuid3(namespace: &Bound<'_, PyAny>, name: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    guard(|| name_based(namespace, name, Uuid::new_v3))
}

/// uuid5(namespace, name) -> UUID: SHA-1 of the namespace's bytes and the name (str as UTF-8).
#[pyfunction]
fn uuid5(namespace: &Bound<'_, PyAny>, name: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    guard(|| name_based(namespace, name, Uuid::new_v5))
}

/// 128 bits from the CSPRNG, as an int (for uuid8's missing parts).
#[pyfunction]
fn _random_u128(py: Python<'_>) -> PyResult<Py<PyAny>> {
    guard(|| {
        let mut b = [0u8; 16];
        uuidkit::generator::rng::fill_random(&mut b);
        // SAFETY: GIL held.
        owned(py, unsafe {
            crate::layout::int_from_u128(u128::from_le_bytes(b))
        })
    })
}

/// A `uuidkit.UUID` of an int in range (internal: uuid8, uuid6 with fields).
#[pyfunction]
fn _from_int(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    guard(|| {
        let st = state()?;
        let v = value
            .extract::<u128>()
            .map_err(|_| PyValueError::new_err("int is out of range (need a 128-bit value)"))?;
        // SAFETY: GIL held.
        owned(py, unsafe { new_uuid(st, v, ptr::null_mut()) })
    })
}

/// For the benchmark: the check `uuid1`/`uuid6`/`uuid7` make of `time.time_ns`, `n` times.
#[pyfunction]
fn _clock_check(py: Python<'_>, n: u32) -> PyResult<bool> {
    guard(|| {
        let st = state()?;
        let mut replaced = false;
        for _ in 0..n {
            replaced |= st.clock.is_replaced()?;
        }
        let _ = py;
        Ok(replaced)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // SAFETY: static method definitions that outlive the module; GIL held.
    unsafe {
        for def in (*ptr::addr_of_mut!(RAW_FUNCS)).iter_mut() {
            let f = ffi::PyCFunction_NewEx(def, m.as_ptr(), ptr::null_mut());
            let f = Bound::from_owned_ptr_or_err(m.py(), f)?;
            let name = std::ffi::CStr::from_ptr(def.ml_name)
                .to_str()
                .unwrap_or("?");
            m.add(name, f)?;
        }
    }
    m.add_function(wrap_pyfunction!(_uuid6, m)?)?;
    m.add_function(wrap_pyfunction!(_uuid1, m)?)?;
    m.add_function(wrap_pyfunction!(uuid3, m)?)?;
    m.add_function(wrap_pyfunction!(uuid5, m)?)?;
    m.add_function(wrap_pyfunction!(_random_u128, m)?)?;
    m.add_function(wrap_pyfunction!(_from_int, m)?)?;
    m.add_function(wrap_pyfunction!(_clock_check, m)?)?;
    Ok(())
}

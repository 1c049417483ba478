//! The library's short text forms (ULID text, base32hex, base58, base58-flickr, base64url) and
//! TypeID, as package functions. A bad string raises `ValueError` with the library's message
//! (the rule broken and the byte where it was found); a wrong type raises `TypeError`.

use crate::uuid_type::{new_uuid, state, value_of};
use crate::{guard, owned};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::ptr;
use uuidkit::{
    Prefix, ShortBuffer, ShortForm, TypeId, TypeIdBuffer, Uuid, MAX_SHORT_LEN, MAX_TYPEID_LEN,
};

fn form_of(name: &str) -> PyResult<ShortForm> {
    ShortForm::ALL
        .iter()
        .copied()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = ShortForm::ALL.iter().map(|f| f.name()).collect();
            PyValueError::new_err(format!(
                "unknown short form {name:?}: expected one of {}",
                names.join(", ")
            ))
        })
}

/// The value of any `uuid.UUID` (its `int`), TypeError for anything else.
fn uuid_arg(u: &Bound<'_, PyAny>) -> PyResult<Uuid> {
    let st = state()?;
    // SAFETY: GIL held, `u` live.
    if let Some(v) = unsafe { value_of(st, u.as_ptr()) } {
        return Ok(Uuid::from_u128(v));
    }
    let std_uuid = u.py().import("uuid")?.getattr("UUID")?;
    if !u.is_instance(&std_uuid)? {
        return Err(PyTypeError::new_err(format!(
            "expected uuid.UUID, got {}",
            u.get_type().name()?
        )));
    }
    let v: u128 = u.getattr("int")?.extract()?;
    Ok(Uuid::from_u128(v))
}

/// The text of a `str` (UTF-8) or the bytes of a `bytes`.
fn text_arg<'a>(s: &'a Bound<'_, PyAny>) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    if let Ok(t) = s.cast::<PyString>() {
        // A lone surrogate cannot be in any form: its UTF-8 error is a ValueError too.
        let t = t
            .to_str()
            .map_err(|_| PyValueError::new_err("invalid character: a lone surrogate"))?;
        return Ok(std::borrow::Cow::Owned(t.as_bytes().to_vec()));
    }
    if let Ok(b) = s.cast::<PyBytes>() {
        return Ok(std::borrow::Cow::Borrowed(b.as_bytes()));
    }
    Err(PyTypeError::new_err(format!(
        "expected str or bytes, got {}",
        s.get_type().name()?
    )))
}

fn lib_err(e: uuidkit::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// to_short(u, form) -> str: `u` in a short form: "ulid", "base32hex", "base58",
/// "base58-flickr" or "base64url".
#[pyfunction]
fn to_short(u: &Bound<'_, PyAny>, form: &str) -> PyResult<String> {
    guard(|| {
        let f = form_of(form)?;
        let u = uuid_arg(u)?;
        let mut buf: ShortBuffer = [0; MAX_SHORT_LEN];
        Ok(u.encode_short(f, &mut buf).to_owned())
    })
}

/// from_short(s, form) -> UUID: reads `s` (str or bytes) in the short form named.
#[pyfunction]
fn from_short(py: Python<'_>, s: &Bound<'_, PyAny>, form: &str) -> PyResult<Py<PyAny>> {
    guard(|| {
        let f = form_of(form)?;
        let t = text_arg(s)?;
        let u = Uuid::parse_short(f, &t).map_err(lib_err)?;
        let st = state()?;
        // SAFETY: GIL held.
        owned(py, unsafe { new_uuid(st, u.as_u128(), ptr::null_mut()) })
    })
}

/// to_typeid(u, prefix="") -> str: the TypeID (spec v0.3.0) of `u` with `prefix`.
#[pyfunction]
#[pyo3(signature = (u, prefix=""))]
fn to_typeid(u: &Bound<'_, PyAny>, prefix: &str) -> PyResult<String> {
    guard(|| {
        let p = Prefix::new(prefix).map_err(lib_err)?;
        let u = uuid_arg(u)?;
        let mut buf: TypeIdBuffer = [0; MAX_TYPEID_LEN];
        Ok(TypeId::new(p, u).encode(&mut buf).to_owned())
    })
}

/// parse_typeid(s) -> (prefix, UUID): reads a TypeID strictly (spec v0.3.0).
#[pyfunction]
fn parse_typeid(py: Python<'_>, s: &Bound<'_, PyAny>) -> PyResult<(String, Py<PyAny>)> {
    guard(|| {
        let t = text_arg(s)?;
        let id = TypeId::parse(&t).map_err(lib_err)?;
        let st = state()?;
        // SAFETY: GIL held.
        let u = owned(py, unsafe {
            new_uuid(st, id.uuid().as_u128(), ptr::null_mut())
        })?;
        Ok((id.prefix().as_str().to_owned(), u))
    })
}

/// typeid7(prefix="") -> str: a new TypeID whose UUID is the process-wide generator's next
/// v7 (as the spec asks of generated TypeIDs).
#[pyfunction]
#[pyo3(signature = (prefix=""))]
fn typeid7(prefix: &str) -> PyResult<String> {
    guard(|| {
        let p = Prefix::new(prefix).map_err(lib_err)?;
        let u = uuidkit::generator::try_v7().map_err(crate::generators::gen_error)?;
        let mut buf: TypeIdBuffer = [0; MAX_TYPEID_LEN];
        Ok(TypeId::new(p, u).encode(&mut buf).to_owned())
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(to_short, m)?)?;
    m.add_function(wrap_pyfunction!(from_short, m)?)?;
    m.add_function(wrap_pyfunction!(to_typeid, m)?)?;
    m.add_function(wrap_pyfunction!(parse_typeid, m)?)?;
    m.add_function(wrap_pyfunction!(typeid7, m)?)?;
    Ok(())
}

//! `uuidkit.arrow`: the library's column kernels (`uuidkit::arrow`, feature `arrow`) for any
//! Python object that speaks the Arrow PyCapsule interface, in both directions, so that neither
//! the build nor the import needs pyarrow.
//!
//! In: an object with `__arrow_c_array__` (one array; a struct array of one field, i.e. a
//! one-column record batch, stands for that column) or `__arrow_c_stream__` (a chunked array, a
//! stream, a Polars `Series`, a one-column table). The C structs are moved out of the
//! producer's capsules and imported by arrow-rs without copying the buffers.
//!
//! Out: an `Array` (`__arrow_c_schema__`, `__arrow_c_array__`, `__arrow_c_stream__`) for one
//! array in, or a `ChunkedArray` (`__arrow_c_schema__`, `__arrow_c_stream__`) of one result
//! chunk per input chunk for a stream in. The buffers the kernels wrote are handed over as
//! they are: a consumer's array points at the memory written here.
//!
//! Errors: a bad row is `ValueError("row N: …")` counting rows across chunks, a column of the
//! wrong type `TypeError` naming the type, an allocation that fails `MemoryError`.

use std::collections::VecDeque;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::Arc;

use arrow_array::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{make_array, Array, ArrayRef, StructArray};
use arrow_schema::{ArrowError, DataType, Field, TimeUnit};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use uuidkit::arrow::{self as kernels, InputForm, OnError, OutputForm};
use uuidkit::{Case, Format, Prefix, ShortForm, Uuid};

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";
const STREAM: &CStr = c"arrow_array_stream";

// ---- results ---------------------------------------------------------------------------------

/// The chunks of a result and the field they go with.
struct Chunks {
    field: Arc<Field>,
    chunks: Vec<ArrayRef>,
}

impl Chunks {
    fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    fn null_count(&self) -> usize {
        self.chunks.iter().map(|c| c.null_count()).sum()
    }

    fn schema_capsule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.field.as_ref()).map_err(arrow_err)?;
        PyCapsule::new_with_value(py, schema, SCHEMA)
    }

    fn stream_capsule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let state = Box::new(StreamState {
            field: self.field.clone(),
            chunks: self.chunks.iter().cloned().collect(),
            error: None,
        });
        let stream = FFI_ArrowArrayStream {
            get_schema: Some(stream_get_schema),
            get_next: Some(stream_get_next),
            get_last_error: Some(stream_get_last_error),
            release: Some(stream_release),
            private_data: Box::into_raw(state).cast::<c_void>(),
        };
        PyCapsule::new_with_value(py, stream, STREAM)
    }

    /// The addresses of chunk `i`'s buffers in the C data interface's order (validity first,
    /// 0 where there is none), as pyarrow's `Array.buffers()` lists them.
    fn buffer_addresses(&self, i: usize) -> PyResult<Vec<usize>> {
        let c = self
            .chunks
            .get(i)
            .ok_or_else(|| PyValueError::new_err(format!("no chunk {i}")))?;
        let data = c.to_data();
        let mut out = vec![data.nulls().map_or(0, |n| n.buffer().as_ptr() as usize)];
        out.extend(data.buffers().iter().map(|b| b.as_ptr() as usize));
        Ok(out)
    }

    fn describe(&self) -> String {
        let ext = self
            .field
            .extension_type_name()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        format!(
            "{} rows of {}{ext}, {} null, {} chunk(s)",
            self.len(),
            self.field.data_type(),
            self.null_count(),
            self.chunks.len()
        )
    }
}

/// One Arrow array made by `uuidkit.arrow`; hand it to `pyarrow.array`, `polars.Series`,
/// `duckdb.from_arrow` or any consumer of the Arrow PyCapsule interface (no copy).
#[pyclass(module = "uuidkit.arrow", name = "Array", frozen)]
pub(crate) struct PyArrowArray(Chunks);

/// A chunked Arrow array made by `uuidkit.arrow` (one chunk per input chunk); consumers read
/// it as a stream (`__arrow_c_stream__`).
#[pyclass(module = "uuidkit.arrow", name = "ChunkedArray", frozen)]
pub(crate) struct PyChunkedArray(Chunks);

#[pymethods]
impl PyArrowArray {
    #[pyo3(signature = ())]
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        self.0.schema_capsule(py)
    }

    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // A request for another schema may be ignored (the interface's rule): the result has
        // one type.
        let _ = requested_schema;
        let data = match self.0.chunks.first() {
            Some(c) => c.to_data(),
            None => arrow_array::new_empty_array(self.0.field.data_type()).to_data(),
        };
        let array = FFI_ArrowArray::new(&data);
        let schema = self.0.schema_capsule(py)?;
        let array = PyCapsule::new_with_value(py, array, ARRAY)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }

    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        self.0.stream_capsule(py)
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    /// The number of null rows.
    #[getter]
    fn null_count(&self) -> usize {
        self.0.null_count()
    }

    /// The Arrow type, as arrow-rs writes it (`FixedSizeBinary(16)`, `Utf8`, …).
    #[getter]
    fn r#type(&self) -> String {
        self.0.field.data_type().to_string()
    }

    /// The buffers' addresses (validity first, 0 for none), to check that a consumer reads the
    /// memory written here.
    fn buffer_addresses(&self) -> PyResult<Vec<usize>> {
        self.0.buffer_addresses(0)
    }

    fn __repr__(&self) -> String {
        format!("<uuidkit.arrow.Array: {}>", self.0.describe())
    }
}

#[pymethods]
impl PyChunkedArray {
    #[pyo3(signature = ())]
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        self.0.schema_capsule(py)
    }

    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        self.0.stream_capsule(py)
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    /// The number of null rows.
    #[getter]
    fn null_count(&self) -> usize {
        self.0.null_count()
    }

    /// The number of chunks.
    #[getter]
    fn num_chunks(&self) -> usize {
        self.0.chunks.len()
    }

    /// The Arrow type, as arrow-rs writes it.
    #[getter]
    fn r#type(&self) -> String {
        self.0.field.data_type().to_string()
    }

    /// Chunk `i`'s buffers' addresses (validity first, 0 for none).
    #[pyo3(signature = (i = 0))]
    fn buffer_addresses(&self, i: usize) -> PyResult<Vec<usize>> {
        self.0.buffer_addresses(i)
    }

    fn __repr__(&self) -> String {
        format!("<uuidkit.arrow.ChunkedArray: {}>", self.0.describe())
    }
}

/// Named columns of equal length as one Arrow stream of record batches (`__arrow_c_stream__`,
/// a struct schema): for consumers that want a table (`duckdb.from_arrow` before DuckDB 2,
/// `pyarrow.table`, `polars.DataFrame`).
#[pyclass(module = "uuidkit.arrow", name = "Table", frozen)]
pub(crate) struct PyTable {
    names: Vec<String>,
    batches: Chunks,
}

#[pymethods]
impl PyTable {
    #[pyo3(signature = ())]
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        self.batches.schema_capsule(py)
    }

    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        self.batches.stream_capsule(py)
    }

    fn __len__(&self) -> usize {
        self.batches.len()
    }

    /// The columns' names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.names.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<uuidkit.arrow.Table: {} rows, columns {:?}, {} batch(es)>",
            self.batches.len(),
            self.names,
            self.batches.chunks.len()
        )
    }
}

/// _arrow_table(names, columns) -> Table: the columns cut into batches where any of them has
/// a chunk boundary (no data copied: batches are slices).
#[pyfunction]
fn _arrow_table(
    py: Python<'_>,
    names: Vec<String>,
    columns: Vec<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if names.len() != columns.len() || names.is_empty() {
        return Err(PyValueError::new_err(
            "a table needs one name per column, and a column",
        ));
    }
    let mut fields = Vec::new();
    let mut chunked = Vec::new();
    for (name, c) in names.iter().zip(&columns) {
        let field = if let Ok(a) = c.cast::<PyArrowArray>() {
            Some(a.get().0.field.clone())
        } else if let Ok(a) = c.cast::<PyChunkedArray>() {
            Some(a.get().0.field.clone())
        } else {
            None
        };
        let input = read(c)?;
        let dt = match (&field, input.chunks.first()) {
            (Some(f), _) => f.data_type().clone(),
            (None, Some(a)) => a.data_type().clone(),
            (None, None) => DataType::Null,
        };
        let f = match field {
            Some(f) => f.as_ref().clone().with_name(name.as_str()),
            None => Field::new(name.as_str(), dt, true),
        };
        fields.push(f);
        chunked.push(input.chunks);
    }
    let len: usize = chunked[0].iter().map(|c| c.len()).sum();
    for (name, chunks) in names.iter().zip(&chunked) {
        let n: usize = chunks.iter().map(|c| c.len()).sum();
        if n != len {
            return Err(PyValueError::new_err(format!(
                "column {name:?} has {n} rows, the first column {len}"
            )));
        }
    }
    // Every chunk boundary of any column cuts a batch.
    let mut cuts: Vec<usize> = chunked
        .iter()
        .flat_map(|chunks| {
            chunks.iter().scan(0, |at, c| {
                *at += c.len();
                Some(*at)
            })
        })
        .filter(|&at| at > 0 && at < len)
        .collect();
    cuts.push(len);
    cuts.sort_unstable();
    cuts.dedup();
    let fields = arrow_schema::Fields::from(fields);
    let mut batches: Vec<ArrayRef> = Vec::new();
    let mut start = 0;
    for end in cuts {
        if end == start {
            continue;
        }
        let mut cols = Vec::new();
        for chunks in &chunked {
            cols.push(slice_of(chunks, start, end - start));
        }
        let batch = StructArray::try_new(fields.clone(), cols, None).map_err(arrow_err)?;
        batches.push(Arc::new(batch));
        start = end;
    }
    let table = PyTable {
        names,
        batches: Chunks {
            field: Arc::new(Field::new("", DataType::Struct(fields), false)),
            chunks: batches,
        },
    };
    Ok(Py::new(py, table)?.into_any())
}

/// Rows `start .. start + len` of a chunked column that lie within one chunk (the cuts
/// guarantee it).
fn slice_of(chunks: &[ArrayRef], start: usize, len: usize) -> ArrayRef {
    let mut at = 0;
    for c in chunks {
        if start < at + c.len() || (len == 0 && start == at) {
            return c.slice(start - at, len);
        }
        at += c.len();
    }
    match chunks.first() {
        Some(c) => c.slice(0, 0),
        None => arrow_array::new_null_array(&DataType::Null, len),
    }
}

// ---- the exported stream (the C stream interface's callbacks) --------------------------------

struct StreamState {
    field: Arc<Field>,
    chunks: VecDeque<ArrayRef>,
    error: Option<CString>,
}

/// # Safety
///
/// `stream` is a live stream made by `stream_capsule` (its `private_data` a `StreamState`),
/// not released; `out` points to writable memory for one `FFI_ArrowSchema`.
unsafe extern "C" fn stream_get_schema(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowSchema,
) -> c_int {
    // SAFETY: the function's contract: a live stream of ours.
    let state = unsafe { &mut *(*stream).private_data.cast::<StreamState>() };
    match FFI_ArrowSchema::try_from(state.field.as_ref()) {
        Ok(schema) => {
            // SAFETY: `out` is writable (the contract); what it held is not ours to drop.
            unsafe { out.write(schema) };
            0
        }
        Err(e) => {
            state.error = CString::new(e.to_string()).ok();
            libc_einval()
        }
    }
}

/// # Safety
///
/// As `stream_get_schema`, with `out` memory for one `FFI_ArrowArray`.
unsafe extern "C" fn stream_get_next(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowArray,
) -> c_int {
    // SAFETY: the function's contract: a live stream of ours.
    let state = unsafe { &mut *(*stream).private_data.cast::<StreamState>() };
    let next = match state.chunks.pop_front() {
        Some(c) => FFI_ArrowArray::new(&c.to_data()),
        // The end of the stream: a released array.
        None => FFI_ArrowArray::empty(),
    };
    // SAFETY: `out` is writable (the contract); what it held is not ours to drop.
    unsafe { out.write(next) };
    0
}

/// # Safety
///
/// As `stream_get_schema`. The text lives until the next call on the stream.
unsafe extern "C" fn stream_get_last_error(stream: *mut FFI_ArrowArrayStream) -> *const c_char {
    // SAFETY: the function's contract: a live stream of ours.
    let state = unsafe { &*(*stream).private_data.cast::<StreamState>() };
    state
        .error
        .as_ref()
        .map_or(std::ptr::null(), |e| e.as_ptr())
}

/// # Safety
///
/// `stream` is null or a stream made by `stream_capsule`; released once (then marked so).
unsafe extern "C" fn stream_release(stream: *mut FFI_ArrowArrayStream) {
    if stream.is_null() {
        return;
    }
    // SAFETY: the function's contract.
    let s = unsafe { &mut *stream };
    if !s.private_data.is_null() {
        // SAFETY: `private_data` is the `Box<StreamState>` `stream_capsule` leaked, freed
        // only here, after which it is set to null.
        drop(unsafe { Box::from_raw(s.private_data.cast::<StreamState>()) });
    }
    s.private_data = std::ptr::null_mut();
    s.get_schema = None;
    s.get_next = None;
    s.get_last_error = None;
    s.release = None;
}

const fn libc_einval() -> c_int {
    22
}

// ---- inputs ----------------------------------------------------------------------------------

/// A column read from a Python object: its chunks (one for an array) and its field.
struct Input {
    chunks: Vec<ArrayRef>,
    chunked: bool,
}

fn arrow_err(e: ArrowError) -> PyErr {
    if let Some(t) = kernels::type_error(&e) {
        return PyTypeError::new_err(t.to_string());
    }
    match e {
        ArrowError::MemoryError(m) => PyMemoryError::new_err(m),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// A kernel's error with the row counted from the start of the whole column.
fn kernel_err(e: ArrowError, base: usize) -> PyErr {
    if let Some(r) = kernels::row_error(&e) {
        let row = base + r.row();
        let msg = match (r.text_error(), r.length()) {
            (Some(t), _) => format!("row {row}: {t}"),
            (None, Some(n)) => format!("row {row}: a UUID is 16 bytes, found {n}"),
            (None, None) => format!("row {row}: {r}"),
        };
        return PyValueError::new_err(msg);
    }
    arrow_err(e)
}

/// A one-field struct (a record batch of one column) stands for its column.
fn unwrap_struct(a: ArrayRef) -> PyResult<ArrayRef> {
    if let DataType::Struct(fields) = a.data_type() {
        if fields.len() != 1 {
            return Err(PyTypeError::new_err(format!(
                "expected one column, got a struct (table) of {} columns",
                fields.len()
            )));
        }
        let s = a
            .as_any()
            .downcast_ref::<StructArray>()
            .ok_or_else(|| PyTypeError::new_err("a struct column that is not a StructArray"))?;
        if s.null_count() > 0 {
            return Err(PyTypeError::new_err(
                "expected one column, got a struct column with nulls",
            ));
        }
        return Ok(s.column(0).clone());
    }
    Ok(a)
}

fn import_array(schema: &Bound<'_, PyAny>, array: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let schema = schema.cast::<PyCapsule>()?;
    let array = array.cast::<PyCapsule>()?;
    let sp = schema.pointer_checked(Some(SCHEMA))?;
    let ap = array.pointer_checked(Some(ARRAY))?;
    // SAFETY: a capsule named "arrow_schema" holds an `ArrowSchema` (the interface's rule);
    // it is read in place, and the capsule (alive for this call) releases it.
    let schema = unsafe { &*sp.as_ptr().cast::<FFI_ArrowSchema>() };
    // SAFETY: a capsule named "arrow_array" holds an `ArrowArray`; `from_raw` moves it out
    // and marks the capsule's copy released, so that its destructor does not free the
    // buffers the imported array now owns (the interface's rule for consumers).
    let array = unsafe { FFI_ArrowArray::from_raw(ap.as_ptr().cast::<FFI_ArrowArray>()) };
    // SAFETY: `array` and `schema` come from one producer's `__arrow_c_array__`, which
    // promises that they describe each other.
    let data = unsafe { from_ffi(array, schema) }.map_err(arrow_err)?;
    unwrap_struct(make_array(data))
}

fn import_stream(capsule: &Bound<'_, PyAny>) -> PyResult<Vec<ArrayRef>> {
    let capsule = capsule.cast::<PyCapsule>()?;
    let p = capsule.pointer_checked(Some(STREAM))?;
    // SAFETY: a capsule named "arrow_array_stream" holds an `ArrowArrayStream`; `from_raw`
    // moves it out, marking the capsule's copy released; ours is released when dropped.
    let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(p.as_ptr().cast()) };
    let stream_err = |stream: &mut FFI_ArrowArrayStream, rc: c_int| {
        let text = match stream.get_last_error {
            // SAFETY: a live stream's callback; the text is valid until the next call.
            Some(f) => match unsafe { f(stream) } {
                p if p.is_null() => String::new(),
                // SAFETY: a NUL-terminated string, as the interface requires.
                p => unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned(),
            },
            None => String::new(),
        };
        PyValueError::new_err(format!("the Arrow stream failed (error {rc}): {text}"))
    };
    let (Some(get_schema), Some(get_next)) = (stream.get_schema, stream.get_next) else {
        return Err(PyValueError::new_err("a released Arrow stream"));
    };
    let mut schema = FFI_ArrowSchema::empty();
    // SAFETY: a live stream; `schema` is writable.
    let rc = unsafe { get_schema(&mut stream, &mut schema) };
    if rc != 0 {
        return Err(stream_err(&mut stream, rc));
    }
    let mut chunks = Vec::new();
    loop {
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: a live stream; `array` is writable.
        let rc = unsafe { get_next(&mut stream, &mut array) };
        if rc != 0 {
            return Err(stream_err(&mut stream, rc));
        }
        if array.is_released() {
            break;
        }
        // SAFETY: the stream's arrays all have the stream's schema (the interface's rule).
        let data = unsafe { from_ffi(array, &schema) }.map_err(arrow_err)?;
        chunks.push(unwrap_struct(make_array(data))?);
    }
    Ok(chunks)
}

/// Reads any Arrow-speaking object: uuidkit's own results directly, else through the
/// PyCapsule interface (`__arrow_c_array__` first, then `__arrow_c_stream__`).
fn read(column: &Bound<'_, PyAny>) -> PyResult<Input> {
    if let Ok(a) = column.cast::<PyArrowArray>() {
        return Ok(Input {
            chunks: a.get().0.chunks.clone(),
            chunked: false,
        });
    }
    if let Ok(a) = column.cast::<PyChunkedArray>() {
        return Ok(Input {
            chunks: a.get().0.chunks.clone(),
            chunked: true,
        });
    }
    if column.hasattr("__arrow_c_array__")? {
        let pair = column.call_method0("__arrow_c_array__")?;
        let pair = pair.cast::<PyTuple>()?;
        if pair.len() != 2 {
            return Err(PyTypeError::new_err(
                "__arrow_c_array__ returned something other than (schema, array)",
            ));
        }
        let array = import_array(&pair.get_item(0)?, &pair.get_item(1)?)?;
        return Ok(Input {
            chunks: vec![array],
            chunked: false,
        });
    }
    if column.hasattr("__arrow_c_stream__")? {
        let capsule = column.call_method0("__arrow_c_stream__")?;
        return Ok(Input {
            chunks: import_stream(&capsule)?,
            chunked: true,
        });
    }
    Err(PyTypeError::new_err(format!(
        "expected an Arrow array, chunked array or stream (an object with __arrow_c_array__ or __arrow_c_stream__), got {}",
        column.get_type().name()?
    )))
}

/// Runs `kernel` on every chunk with the GIL released, and wraps the results like the input.
fn run<F>(py: Python<'_>, column: &Bound<'_, PyAny>, field: Field, kernel: F) -> PyResult<Py<PyAny>>
where
    F: Fn(&dyn Array) -> Result<ArrayRef, ArrowError> + Send + Sync,
{
    let input = read(column)?;
    let results = py.detach(|| {
        let mut base = 0;
        let mut out = Vec::with_capacity(input.chunks.len());
        for c in &input.chunks {
            out.push(kernel(c.as_ref()).map_err(|e| (e, base))?);
            base += c.len();
        }
        Ok::<_, (ArrowError, usize)>(out)
    });
    let chunks = results.map_err(|(e, base)| kernel_err(e, base))?;
    // A text result's type is known only after the fact (Utf8 or LargeUtf8).
    let field = match chunks.first() {
        Some(c) if field.data_type() != c.data_type() => {
            field.with_data_type(c.data_type().clone())
        }
        _ => field,
    };
    wrap(py, field, chunks, input.chunked)
}

fn wrap(py: Python<'_>, field: Field, chunks: Vec<ArrayRef>, chunked: bool) -> PyResult<Py<PyAny>> {
    // Chunks of both text types (a column with a chunk over 2 GiB of text) become LargeUtf8.
    let large = chunks.iter().any(|c| c.data_type() == &DataType::LargeUtf8);
    let (field, chunks) = if large && chunks.iter().any(|c| c.data_type() == &DataType::Utf8) {
        return Err(PyValueError::new_err(
            "the text result needs LargeUtf8 in some chunks and not others",
        ));
    } else {
        (field, chunks)
    };
    let chunks = Chunks {
        field: Arc::new(field),
        chunks,
    };
    if chunked {
        Ok(Py::new(py, PyChunkedArray(chunks))?.into_any())
    } else {
        Ok(Py::new(py, PyArrowArray(chunks))?.into_any())
    }
}

// ---- forms -----------------------------------------------------------------------------------

fn short_form(name: &str) -> Option<ShortForm> {
    ShortForm::ALL.iter().copied().find(|f| f.name() == name)
}

const PARSE_FORMS: &str = "None (any RFC form), 'hyphenated', 'simple', 'braced', 'urn', 'typeid', 'ulid', 'base32hex', 'base58', 'base58-flickr', 'base64url'";
const FORMAT_FORMS: &str = "'hyphenated', 'simple', 'braced', 'urn' (each also '-upper'), 'typeid', 'ulid', 'base32hex', 'base58', 'base58-flickr', 'base64url'";

fn rfc_format(name: &str) -> Option<Format> {
    match name {
        "hyphenated" => Some(Format::Hyphenated),
        "simple" => Some(Format::Simple),
        "braced" => Some(Format::Braced),
        "urn" => Some(Format::Urn),
        _ => None,
    }
}

fn input_form(form: Option<&str>) -> PyResult<InputForm> {
    let Some(name) = form else {
        return Ok(InputForm::Rfc);
    };
    if let Some(f) = rfc_format(name) {
        return Ok(InputForm::Only(f));
    }
    if name == "typeid" {
        return Ok(InputForm::TypeId);
    }
    short_form(name).map(InputForm::Short).ok_or_else(|| {
        PyValueError::new_err(format!("unknown form '{name}': expected {PARSE_FORMS}"))
    })
}

fn output_form(form: &str, prefix: Option<&str>) -> PyResult<OutputForm> {
    if form == "typeid" {
        let p = Prefix::new(prefix.unwrap_or("")).map_err(|e| {
            PyValueError::new_err(format!(
                "invalid TypeID prefix {:?}: {e}",
                prefix.unwrap_or("")
            ))
        })?;
        return Ok(OutputForm::TypeId(p));
    }
    if prefix.is_some() {
        return Err(PyValueError::new_err(format!(
            "prefix= is for form='typeid', not '{form}'"
        )));
    }
    let (base, case) = match form.strip_suffix("-upper") {
        Some(b) => (b, Case::Upper),
        None => (form, Case::Lower),
    };
    if let Some(f) = rfc_format(base) {
        return Ok(OutputForm::Rfc(f, case));
    }
    match short_form(form) {
        Some(s) => Ok(OutputForm::Short(s)),
        None => Err(PyValueError::new_err(format!(
            "unknown form '{form}': expected {FORMAT_FORMS}"
        ))),
    }
}

fn on_error(errors: &str) -> PyResult<OnError> {
    match errors {
        "raise" => Ok(OnError::Raise),
        "null" => Ok(OnError::Null),
        other => Err(PyValueError::new_err(format!(
            "errors must be 'raise' or 'null', not '{other}'"
        ))),
    }
}

fn count(n: isize) -> PyResult<usize> {
    if n < 0 {
        return Err(PyValueError::new_err(format!("n must be >= 0, not {n}")));
    }
    let n = n as usize;
    if n > isize::MAX as usize / 16 {
        return Err(PyValueError::new_err(format!(
            "n is too large: {n} UUIDs do not fit in memory"
        )));
    }
    Ok(n)
}

// ---- the functions ---------------------------------------------------------------------------

/// _arrow_parse(column, form, errors) -> Array | ChunkedArray
#[pyfunction]
#[pyo3(signature = (column, form = None, errors = "raise"))]
fn _arrow_parse(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    form: Option<&str>,
    errors: &str,
) -> PyResult<Py<PyAny>> {
    let form = input_form(form)?;
    let on_error = on_error(errors)?;
    run(py, column, kernels::uuid_field("", true), move |a| {
        kernels::parse(a, form, on_error).map(|r| Arc::new(r) as ArrayRef)
    })
}

/// _arrow_validate(column, form) -> Array | ChunkedArray
#[pyfunction]
#[pyo3(signature = (column, form = None))]
fn _arrow_validate(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    form: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let form = input_form(form)?;
    run(
        py,
        column,
        Field::new("", DataType::Boolean, true),
        move |a| kernels::validate(a, form).map(|r| Arc::new(r) as ArrayRef),
    )
}

/// _arrow_format(column, form, prefix) -> Array | ChunkedArray
#[pyfunction]
#[pyo3(signature = (column, form = "hyphenated", prefix = None))]
fn _arrow_format(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    form: &str,
    prefix: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let form = output_form(form, prefix)?;
    run(py, column, Field::new("", DataType::Utf8, true), move |a| {
        // Utf8 while its i32 offsets reach (2 GiB of text), LargeUtf8 beyond.
        if a.len().saturating_mul(form.len()) <= i32::MAX as usize {
            kernels::format::<i32>(a, &form).map(|r| Arc::new(r) as ArrayRef)
        } else {
            kernels::format::<i64>(a, &form).map(|r| Arc::new(r) as ArrayRef)
        }
    })
}

/// _arrow_timestamp(column) -> Array | ChunkedArray
#[pyfunction]
fn _arrow_timestamp(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let ty = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
    run(py, column, Field::new("", ty, true), |a| {
        kernels::timestamp(a).map(|r| Arc::new(r) as ArrayRef)
    })
}

/// _arrow_version(column) -> Array | ChunkedArray
#[pyfunction]
fn _arrow_version(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    run(py, column, Field::new("", DataType::UInt8, true), |a| {
        kernels::version(a).map(|r| Arc::new(r) as ArrayRef)
    })
}

/// _arrow_uuid4(n) -> Array
#[pyfunction]
fn _arrow_uuid4(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    let n = count(n)?;
    let a = py.detach(|| kernels::v4(n)).map_err(arrow_err)?;
    wrap(py, kernels::uuid_field("", false), vec![Arc::new(a)], false)
}

/// _arrow_uuid7(n) -> Array: the process-wide v7 sequence (`uuidkit.uuid7()`'s), or the
/// system service's while `use_system_service()` is on.
#[pyfunction]
fn _arrow_uuid7(py: Python<'_>, n: isize) -> PyResult<Py<PyAny>> {
    let n = count(n)?;
    #[cfg(unix)]
    if crate::service::enabled() {
        let mut v = vec![Uuid::NIL; n];
        crate::service::fill(py, &mut v)?;
        let a = arrow_array::FixedSizeBinaryArray::try_from_iter(v.iter().map(|u| *u.as_bytes()))
            .map_err(arrow_err)?;
        return wrap(py, kernels::uuid_field("", false), vec![Arc::new(a)], false);
    }
    let a = py.detach(|| kernels::v7(n)).map_err(arrow_err)?;
    wrap(py, kernels::uuid_field("", false), vec![Arc::new(a)], false)
}

/// _arrow_set_max_threads(n): the most threads a kernel splits a large column over (0: the
/// machine's; 1: the calling thread only).
#[pyfunction]
fn _arrow_set_max_threads(n: usize) {
    kernels::set_max_threads(n)
}

/// _arrow_max_threads() -> int
#[pyfunction]
fn _arrow_max_threads() -> usize {
    kernels::max_threads()
}

/// _arrow_set_cache_limit(n): the most bytes of freed output memory the kernels keep for
/// their next calls (0: none, and what is kept is given back now).
#[pyfunction]
fn _arrow_set_cache_limit(n: usize) {
    kernels::set_cache_limit(n)
}

/// _arrow_cache_limit() -> int
#[pyfunction]
fn _arrow_cache_limit() -> usize {
    kernels::cache_limit()
}

/// _arrow_cache_held() -> int
#[pyfunction]
fn _arrow_cache_held() -> usize {
    kernels::cache_held()
}

/// Adds the `_arrow_*` functions and the three result classes to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyArrowArray>()?;
    m.add_class::<PyChunkedArray>()?;
    m.add_class::<PyTable>()?;
    m.add_function(wrap_pyfunction!(_arrow_table, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_parse, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_validate, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_format, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_timestamp, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_version, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_uuid4, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_uuid7, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_set_max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_set_cache_limit, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_cache_limit, m)?)?;
    m.add_function(wrap_pyfunction!(_arrow_cache_held, m)?)?;
    Ok(())
}

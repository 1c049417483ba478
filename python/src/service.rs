//! The switch to the system service (`uuidkit serve`, Unix): when on, `uuid1`, `uuid6`,
//! `uuid7` and the v7 bulk functions take their UUIDs from the service's client
//! (`uuidkit_service::client::SystemGenerator`), which keeps v1/v6/v7 order across every
//! process of the machine that uses it.

use pyo3::exceptions::{PyConnectionError, PyOSError, PyValueError};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use uuidkit::Uuid;
use uuidkit_service::client::{ClientConfig, ServiceError, Source, SystemGenerator};
use uuidkit_service::state::{Safety, TimeVersion};

/// The longest timeout `use_system_service` takes: a day (a socket's timeout is a `timeval`;
/// anything longer is no timeout a caller means).
const MAX_TIMEOUT: Duration = Duration::from_secs(86_400);

static ON: AtomicBool = AtomicBool::new(false);
static GEN: Mutex<Option<Arc<SystemGenerator>>> = Mutex::new(None);

pub(crate) fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

fn current() -> Option<Arc<SystemGenerator>> {
    GEN.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn err(e: ServiceError) -> PyErr {
    PyConnectionError::new_err(format!("uuidkit system service: {e}"))
}

/// The next UUID of `version` from the service (and whether the service's state file covers
/// it), or None when the switch is off.
pub(crate) fn next(py: Python<'_>, version: u8) -> PyResult<Option<(Uuid, bool)>> {
    if !enabled() {
        return Ok(None);
    }
    let Some(g) = current() else {
        return Ok(None);
    };
    let v = match version {
        1 => TimeVersion::V1,
        6 => TimeVersion::V6,
        _ => TimeVersion::V7,
    };
    let r = py.detach(|| g.next(v)).map_err(err)?;
    let durable = r.source == Source::Service && r.safety == Safety::Durable;
    Ok(Some((r.uuid, durable)))
}

/// Fills `out` with v7 UUIDs from the service.
pub(crate) fn fill(py: Python<'_>, out: &mut [Uuid]) -> PyResult<()> {
    let Some(g) = current() else {
        return Err(PyOSError::new_err("uuidkit system service: not configured"));
    };
    py.detach(|| g.fill(TimeVersion::V7, out)).map_err(err)?;
    Ok(())
}

/// use_system_service(enabled=True, socket=None, *, fallback=False, block=128, timeout=5.0)
/// --
///
/// Switches `uuid1()`, `uuid6()`, `uuid7()`, `uuid7_list()` and `uuid7_bytes()` to the
/// system service (`uuidkit serve`). With `block=1` every UUID comes from the service, in one
/// order across all processes that use it; with larger blocks (each used for at most 1 s) a
/// process hands out a block the service reserved for it (unique machine-wide, ordered
/// within the process). UUIDs covered by the service's state file have `is_safe` =
/// `SafeUUID.safe`. `socket` is the service's socket; without one, `$UUIDKIT_SOCKET`,
/// the per-user socket and `/run/uuidkit/uuidkit.sock` are tried in turn. With `fallback`
/// off (the default) a service that cannot be reached is a `ConnectionError`; with it on,
/// the in-process generators take over (order within the process only) until it answers
/// again. `use_system_service(False)` switches back to the in-process generators.
#[pyfunction]
#[pyo3(signature = (enabled=true, socket=None, *, fallback=false, block=128, timeout=5.0))]
fn use_system_service(
    enabled: bool,
    socket: Option<std::path::PathBuf>,
    fallback: bool,
    block: u32,
    timeout: f64,
) -> PyResult<()> {
    crate::guard(|| configure(enabled, socket, fallback, block, timeout))
}

fn configure(
    enabled: bool,
    socket: Option<std::path::PathBuf>,
    fallback: bool,
    block: u32,
    timeout: f64,
) -> PyResult<()> {
    if !enabled {
        ON.store(false, Ordering::SeqCst);
        *GEN.lock().unwrap_or_else(|e| e.into_inner()) = None;
        return Ok(());
    }
    if block == 0 {
        return Err(PyValueError::new_err("block must be at least 1"));
    }
    let timeout = Duration::try_from_secs_f64(timeout)
        .ok()
        .filter(|t| !t.is_zero() && *t <= MAX_TIMEOUT)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "timeout must be a number of seconds above 0 and at most {}, not {timeout}",
                MAX_TIMEOUT.as_secs()
            ))
        })?;
    let cfg = match socket {
        Some(p) => ClientConfig::new(p),
        None => ClientConfig::from_env(),
    }
    .fallback(fallback)
    .block(block)
    .timeout(timeout);
    *GEN.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(SystemGenerator::new(cfg)));
    ON.store(true, Ordering::SeqCst);
    Ok(())
}

/// Whether `use_system_service()` is on.
#[pyfunction]
fn system_service_enabled() -> bool {
    enabled()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(use_system_service, m)?)?;
    m.add_function(wrap_pyfunction!(system_service_enabled, m)?)?;
    Ok(())
}

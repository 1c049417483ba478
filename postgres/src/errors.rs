//! SQL errors: each with its SQLSTATE, raised with `ereport` (a longjmp-free Rust panic that
//! pgrx turns into a PostgreSQL ERROR: the transaction aborts, the backend lives).

use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises an SQL ERROR with `code` and `message`; never returns.
pub(crate) fn raise(code: PgSqlErrorCode, message: impl std::fmt::Display) -> ! {
    ErrorReport::new(code, message.to_string(), "uuidkit").report(PgLogLevel::ERROR);
    // `report` at ERROR level does not return (it unwinds to pgrx's guard).
    unreachable!("an ERROR report returned")
}

/// 22P02 invalid_text_representation: text that does not decode, with the library's message
/// (what is wrong, and at which byte).
pub(crate) fn invalid_text(what: &str, e: impl std::fmt::Display) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
        format!("invalid input syntax for {what}: {e}"),
    )
}

/// 22008 datetime_field_overflow: a time outside what the UUID version can hold.
pub(crate) fn time_out_of_range(message: impl std::fmt::Display) -> ! {
    raise(PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW, message)
}

/// 22023 invalid_parameter_value: a UUID of the wrong version for a conversion.
pub(crate) fn invalid_parameter(message: impl std::fmt::Display) -> ! {
    raise(PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE, message)
}

/// Generation failed (the library's generators fail only on exhausted counters under a
/// refusing policy or an unreadable clock/entropy source): 58000 system_error.
pub(crate) fn generation_failed(e: impl std::fmt::Display) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_SYSTEM_ERROR,
        format!("uuidkit: generation failed: {e}"),
    )
}

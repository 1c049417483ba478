//! `TextBytes`: a `text` argument as its bytes, whatever the database's encoding.
//!
//! pgrx's `&str` arguments are checked for UTF-8 before the function runs, and text that is not
//! (a `SQL_ASCII` database holds any bytes) becomes an internal error (XX000) raised by pgrx.
//! The decoding functions take their text as bytes instead and hand them to the library's
//! parsers, which work on bytes: any input is then either a UUID or 22P02 with the library's
//! message (`invalid byte 0xff at byte 3`, …).

use pgrx::callconv::{Arg, ArgAbi};
use pgrx::{pg_sys, FromDatum};

use crate::errors;

/// The bytes of a non-NULL `text` argument (detoasted, borrowed for the call).
pub(crate) struct TextBytes<'a>(pub(crate) &'a [u8]);

impl FromDatum for TextBytes<'_> {
    unsafe fn from_polymorphic_datum(
        datum: pg_sys::Datum,
        is_null: bool,
        _typoid: pg_sys::Oid,
    ) -> Option<Self> {
        if is_null || datum.is_null() {
            return None;
        }
        // SAFETY: the caller (pgrx's argument unboxing) gives a non-NULL datum of SQL type
        // `text` (the function's declared argument type), a varlena pointer. Detoasting returns
        // a varlena in the call's memory context, which outlives this borrow (the function
        // call), and `varlena_to_byte_slice` reads exactly its payload length.
        unsafe {
            let v = pg_sys::pg_detoast_datum_packed(datum.cast_mut_ptr());
            Some(TextBytes(pgrx::varlena_to_byte_slice(v)))
        }
    }
}

// SAFETY: `unbox_arg_unchecked` reads the argument through `FromDatum` above, which only
// accepts the `text` datum that the SQL signature (`impl_sql_translatable!` below) declares.
unsafe impl<'fcx> ArgAbi<'fcx> for TextBytes<'fcx> {
    unsafe fn unbox_arg_unchecked(arg: Arg<'_, 'fcx>) -> Self {
        // SAFETY: as above; the functions are STRICT, so PostgreSQL never calls them with NULL.
        let value = unsafe { arg.unbox_arg_using_from_datum::<TextBytes<'fcx>>() };
        value.unwrap_or_else(|| {
            errors::invalid_parameter("uuidkit: a NULL text argument to a STRICT function")
        })
    }
}

pgrx::impl_sql_translatable!(TextBytes<'_>, "text");

//! `schemars::JsonSchema` (feature `schemars`): the JSON Schema of what `Uuid`'s `Serialize`
//! writes in JSON, `{"type": "string", "format": "uuid"}` (the hyphenated form).
//!
//! ```
//! let schema = schemars::schema_for!(uuidkit::Uuid);
//! assert_eq!(schema.get("type").unwrap(), "string");
//! assert_eq!(schema.get("format").unwrap(), "uuid");
//! ```

extern crate alloc;

use alloc::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::Uuid;

impl JsonSchema for Uuid {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Uuid")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("uuidkit::Uuid")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "format": "uuid",
        })
    }
}

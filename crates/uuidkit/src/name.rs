//! (placeholder: name-based v3/v5/v8)

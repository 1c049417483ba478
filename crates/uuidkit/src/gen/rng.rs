//! (placeholder: random sources)

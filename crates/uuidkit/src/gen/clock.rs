//! (placeholder: clocks)

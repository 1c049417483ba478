//! Empty: the tests in `tests/` exercise uuidkit on `wasm32-unknown-unknown` (feature `js`).

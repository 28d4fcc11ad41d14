//! Integration tests: store.

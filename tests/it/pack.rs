//! Integration tests: pack.

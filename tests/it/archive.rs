//! Integration tests: archive.

//! Integration tests: clients.

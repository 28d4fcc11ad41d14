//! Integration tests: one binary, one module per area. Each test runs the real `agx` binary
//! with HOME and AGX_HOME in a temporary folder.

mod support;

mod archive;
mod cli;
mod clients;
mod generated;
mod pack;
mod registry;
mod runtime_hardening;
mod serve;
mod store;
mod validate;

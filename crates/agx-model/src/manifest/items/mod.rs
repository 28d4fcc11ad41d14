//! Checking the contents of one definition and building its model: one module per item kind,
//! each with its allowed keys and one `check_*` function. What the kinds share (the table, the
//! name check, commands, lists of named tables) lives beside them, so a new kind only adds
//! its own module. The keys and findings are described in docs/validate.md.

mod completion;
mod named_tables;
mod permissions;
mod prompts;
mod resources;
mod servers;
mod settings;
mod source;
mod tools;

pub use permissions::read_permissions;
pub use prompts::check_prompt;
pub use resources::{check_resource, check_unique_addresses};
pub use servers::{Reference, check_server};
pub use settings::read_settings;
pub use source::DefinitionSource;
pub use tools::check_tool;

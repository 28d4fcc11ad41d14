//! Agent Skills (agentskills.io): folders with a `SKILL.md` (YAML front matter and Markdown
//! instructions, optional `scripts/`, `references/`, `assets/`) that agents load on demand.
//! This module reads and validates them (docs/skills.md); findings use the codes of
//! `agx validate` (docs/validate.md).

pub mod check;
pub mod copies;

pub mod folders;
pub mod front_matter;
pub mod keys;
pub mod model;
pub mod references;
pub mod rules;
pub mod tree_hash;
pub mod wrap;

pub use check::{SKILL_FILE, check_skill};
pub use model::SkillDef;

#[cfg(test)]
mod tests;

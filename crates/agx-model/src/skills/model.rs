//! A skill as validation loaded it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One skill: a folder whose `SKILL.md` passed validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillDef {
    pub name: String,
    pub description: String,
    /// The folder, relative to the package (`skills/review`), `/`-separated.
    pub folder: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compatibility: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    /// `allowed-tools`, space-separated as the specification writes it (a YAML list is
    /// joined with spaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_tools: Option<String>,
}

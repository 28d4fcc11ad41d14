//! `agx tools`: the tools a client sees of a server after its filter, each with an estimate
//! of what its listing costs the model's context (docs/profiles.md, "Context cost").
//!
//! The estimate counts the tokens of the tool's `tools/list` entry as JSON (name,
//! description, input schema, annotations) with tiktoken's `cl100k_base` BPE (the
//! `tiktoken-rs` crate): a real tokenizer of a deployed model family. Models that publish
//! no tokenizer (Claude's) count differently by some percent; the totals are for comparing
//! servers and filters, not for billing. `cl100k_base` rather than the newer `o200k_base`:
//! its table is half the size in the `agx` binary (1.7 MB against 3.6 MB) and JSON schemas
//! count within a few percent alike. `agx-serve` never links it.

use serde::Serialize;
use serde_json::Value;

use super::{Context, OpsResult};
use agx_core::name::PinnedServer;
use agx_model::filter::{Hidden, Kind};
use agx_runtime::{self as runtime, filtered, listing};

/// The tokenizer the estimates use.
pub const TOKENIZER: &str = "cl100k_base (tiktoken)";

/// One tool of the server, shown or hidden.
#[derive(Debug, Clone, Serialize)]
pub struct ToolCost {
    /// The name clients see (the original name of a hidden tool).
    pub name: String,
    /// The server's own name, when the filter renames it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
    pub description: Option<String>,
    /// Whether clients see it.
    pub shown: bool,
    /// Why it is hidden: `deny GLOB` or `allow`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_by: Option<String>,
    /// Tokens of its listing as clients see it (as the server lists it, when hidden).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<usize>,
    /// The key of the profile's server it belongs to (`agx tools @NAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
}

/// A server of a profile, in `agx tools @NAME`.
#[derive(Debug, Clone, Serialize)]
pub struct MemberReport {
    pub key: String,
    pub server: String,
    /// The file of its filter, when it has one.
    pub filter: Option<String>,
}

/// What `agx tools` shows.
#[derive(Debug, Clone, Serialize)]
pub struct ToolsReport {
    pub server: String,
    /// The file of the filter that applies, when there is one.
    pub filter: Option<String>,
    pub tools: Vec<ToolCost>,
    /// Counted only with `--tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Totals>,
    /// The servers of a profile (`agx tools @NAME`), in its order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<MemberReport>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Totals {
    pub tokenizer: &'static str,
    /// Every tool the server lists.
    pub before_filter: usize,
    /// The tools clients see.
    pub after_filter: usize,
}

/// List the tools of `reference` as `agx serve` would serve them here, counting tokens when
/// asked. A wrapped server is started (and stopped) to ask it.
pub fn tools(ctx: &Context, reference: &str, count_tokens: bool) -> OpsResult<ToolsReport> {
    if let Some(name) = agx_project::profile::profile_name(reference) {
        let profile = agx_project::profile::find_profile(ctx.paths, name?)?;
        return profile_tools(ctx, &profile, count_tokens);
    }
    server_tools(ctx, reference, &[], count_tokens)
}

/// The tools of every server of `profile` as `agx serve @NAME` shows them (`KEY__name`),
/// each server's own filter applied. Under `namespace = "none"`, a name that two servers
/// show is refused: that is how a profile is checked when it is written.
pub fn profile_tools(
    ctx: &Context,
    profile: &agx_project::profile::Profile,
    count_tokens: bool,
) -> OpsResult<ToolsReport> {
    let mut report = ToolsReport {
        server: format!("@{}", profile.name),
        filter: None,
        tools: Vec::new(),
        tokens: count_tokens.then_some(Totals {
            tokenizer: TOKENIZER,
            before_filter: 0,
            after_filter: 0,
        }),
        members: Vec::new(),
    };
    for member in &profile.members {
        let own = server_tools(ctx, &member.reference, &member.args, count_tokens)?;
        report.members.push(MemberReport {
            key: member.key.clone(),
            server: own.server,
            filter: own.filter,
        });
        if let (Some(all), Some(its)) = (&mut report.tokens, own.tokens) {
            all.before_filter += its.before_filter;
            all.after_filter += its.after_filter;
        }
        for mut tool in own.tools {
            if tool.shown {
                tool.name = profile.shown_name(&member.key, &tool.name);
            }
            tool.member = Some(member.key.clone());
            report.tools.push(tool);
        }
    }
    let shown = report
        .tools
        .iter()
        .filter(|t| t.shown)
        .map(|t| (t.member.as_deref().unwrap_or_default(), t.name.as_str()));
    if let Some((name, keys)) = agx_project::profile::clashes(shown).into_iter().next() {
        return Err(agx_project::profile::ProfileError::Clash {
            profile: profile.name.clone(),
            source_file: profile.source.clone(),
            detail: format!(
                "servers {} all show a tool `{name}`, and `namespace = \"none\"` keeps their own names",
                keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ")
            ),
        }
        .into());
    }
    Ok(report)
}

fn server_tools(
    ctx: &Context,
    reference: &str,
    args: &[String],
    count_tokens: bool,
) -> OpsResult<ToolsReport> {
    let pinned = PinnedServer::parse(reference)?;
    let loaded = runtime::load_installed(ctx.paths, &pinned, args)?;
    let filter = runtime::server_filter(ctx.paths, &loaded.server)?;
    let server = loaded.server.to_string();
    let listed = listing::list_tools(loaded.assembled)?;
    if let Some(f) = &filter {
        let names = listed.iter().filter_map(|t| t["name"].as_str());
        if let Some(clash) = f.rename_clash(Kind::Tool, names) {
            return Err(agx_model::filter::FiltersFileError::from(clash).into());
        }
    }
    let bpe = count_tokens.then(tiktoken_rs::cl100k_base_singleton);
    let count = |item: &Value| bpe.map(|b| b.encode_ordinary(&item.to_string()).len());
    let mut totals = Totals {
        tokenizer: TOKENIZER,
        before_filter: 0,
        after_filter: 0,
    };
    let mut tools = Vec::with_capacity(listed.len());
    for original in listed {
        let own_name = original["name"].as_str().unwrap_or_default().to_string();
        let before = count(&original);
        totals.before_filter += before.unwrap_or(0);
        let mut item = original.clone();
        let verdict = match &filter {
            Some(f) => filtered::rewrite_item(f, Kind::Tool, "name", &mut item),
            None => Ok(()),
        };
        let cost = match verdict {
            Ok(()) => {
                let tokens = count(&item);
                totals.after_filter += tokens.unwrap_or(0);
                let name = item["name"].as_str().unwrap_or_default().to_string();
                ToolCost {
                    original: (name != own_name).then_some(own_name),
                    name,
                    description: item["description"].as_str().map(str::to_string),
                    shown: true,
                    hidden_by: None,
                    tokens,
                    member: None,
                }
            }
            Err(hidden) => ToolCost {
                name: own_name,
                original: None,
                description: original["description"].as_str().map(str::to_string),
                shown: false,
                hidden_by: Some(match hidden {
                    Hidden::Denied(glob) => format!("deny {glob}"),
                    Hidden::NotAllowed | Hidden::Renamed(_) => "allow".to_string(),
                }),
                tokens: before,
                member: None,
            },
        };
        tools.push(cost);
    }
    Ok(ToolsReport {
        server,
        filter: filter.map(|f| f.source_name.clone()),
        tools,
        tokens: count_tokens.then_some(totals),
        members: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_tokenizer_counts_a_tool_listing() {
        let bpe = tiktoken_rs::cl100k_base_singleton();
        let listing = serde_json::json!({"name": "echo", "description": "Echoes back the input",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}});
        let tokens = bpe.encode_ordinary(&listing.to_string()).len();
        // cl100k_base splits this 110-byte JSON into a few dozen tokens.
        assert!((20..60).contains(&tokens), "{tokens}");
    }
}

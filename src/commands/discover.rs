//! `agx discover [DIR] [--write]`: probe a folder of scripts through `ops::discover`, show
//! the tools found and the scripts skipped (with why), and write definitions on request.

use std::path::PathBuf;
use std::time::Duration;

use super::Context;
use crate::cli::DiscoverArgs;
use agx_core::error::CliResult;
use agx_core::style::Style;
use agx_ops::discover::write::{Written, write};
use agx_ops::discover::{self, Discovery, FoundTool, Options, Schema};
use serde_json::{Value, json};

pub fn run(ctx: &Context, args: &DiscoverArgs) -> CliResult {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let options = Options {
        timeout: Duration::from_millis(args.timeout),
        ..Options::default()
    };
    let discovery = discover::discover(&dir, options)?;
    let written = match args.write && !discovery.tools.is_empty() {
        true => Some(write(&discovery, args.name.as_deref())?),
        false => None,
    };
    if args.json {
        let shown = json!({ "discovery": discovery, "written": written });
        return ctx
            .printer
            .outln(&serde_json::to_string_pretty(&shown).expect("serializable"));
    }
    show(ctx, &discovery)?;
    match &written {
        Some(written) => show_written(ctx, &dir, written),
        None if discovery.tools.is_empty() => Ok(()),
        None => ctx
            .printer
            .outln(&format!("\nnext: agx discover --write {}", dir.display())),
    }
}

fn show(ctx: &Context, d: &Discovery) -> CliResult {
    let p = &ctx.printer;
    let probed = d
        .tools
        .iter()
        .map(|t| &t.script)
        .collect::<std::collections::BTreeSet<_>>();
    p.status(
        "Probed",
        &format!(
            "{} scripts in {} in {} ms ({})",
            probed.len() + d.skipped.len(),
            d.dir.display(),
            d.elapsed_ms,
            d.confinement
        ),
    );
    let mut out = String::new();
    for tool in &d.tools {
        out.push_str(&describe(ctx, tool));
    }
    if !d.skipped.is_empty() {
        out.push_str(&format!("\n{}\n", p.paint(Style::Bold, "skipped")));
        for s in &d.skipped {
            out.push_str(&format!("  {}: {}\n", s.script, s.reason));
        }
    }
    if !d.declared.is_empty() {
        out.push_str(&format!(
            "\ndeclared already (left alone): {}\n",
            d.declared.join(", ")
        ));
    }
    if d.tools.is_empty() {
        out.push_str("\nno tools found\n");
    }
    p.out(out)
}

/// A found tool: name, where from and how it runs, description, and its parameters.
fn describe(ctx: &Context, tool: &FoundTool) -> String {
    let p = &ctx.printer;
    let via = serde_json::to_value(tool.via).unwrap_or(Value::Null);
    let mut out = format!(
        "{}  {} via {}, input {}\n    {}\n",
        p.paint(Style::Bold, &tool.name),
        tool.script,
        via.as_str().unwrap_or_default(),
        tool.input.as_str(),
        tool.description
    );
    let rows: Vec<(String, String, bool, String)> = match &tool.schema {
        Schema::Parameters(parameters) => parameters
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.kind.as_str().to_string(),
                    p.required,
                    p.description.clone().unwrap_or_default(),
                )
            })
            .collect(),
        Schema::Json(schema) => {
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, s)| {
                    (
                        name.clone(),
                        s["type"].as_str().unwrap_or("any").to_string(),
                        required.contains(&name.as_str()),
                        s["description"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        }
    };
    if rows.is_empty() {
        out.push_str("    (no parameters declared: any JSON object)\n");
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    for (name, kind, required, description) in rows {
        let required = if required { "required" } else { "optional" };
        out.push_str(&format!(
            "    {name:<width$}  {kind:<7}  {required}  {description}\n"
        ));
    }
    out
}

fn show_written(ctx: &Context, dir: &std::path::Path, written: &Written) -> CliResult {
    let p = &ctx.printer;
    for file in &written.files {
        p.status("Wrote", &dir.join(file).display().to_string());
    }
    for file in &written.left_alone {
        p.warn(&format!(
            "{} exists: left as it is, and its tool not added",
            dir.join(file).display()
        ));
    }
    let dir = dir.display();
    match (&written.package, &written.server) {
        (Some(_), Some(server)) => p.outln(&format!(
            "\nnext:\n  agx validate --probe {dir}\n  agx install {dir}\n  agx serve {server}"
        )),
        _ => p.outln(&format!(
            "\nnext: offer the new tools through a server (its `tools`), then\n  agx validate --probe {dir}"
        )),
    }
}

//! `agx call <publisher/package/tool>`: run the tool through `ops::call` and print its result;
//! its stderr, progress and log messages appear on stderr while it runs.

use serde_json::Value;

use super::Context;
use crate::cli::{CallArgs, ResultFormat};
use agx_core::error::{CliError, CliResult};
use agx_ops::call;
use agx_runtime::StderrLine;

pub fn run(ctx: &Context, args: &CallArgs) -> CliResult {
    let printer = &ctx.printer;
    let show = |line: StderrLine| match line {
        StderrLine::Plain { text, .. } => printer.err(&format!("{text}\n")),
        StderrLine::Progress(p) => {
            let total = p.total.map(|t| format!("/{t}")).unwrap_or_default();
            let message = p.message.map(|m| format!(" {m}")).unwrap_or_default();
            printer.status("Progress", &format!("{}{total}{message}", p.progress));
        }
        StderrLine::Log(m) => {
            printer.status("Log", &format!("{}: {}", m.level, m.notification_data()))
        }
    };
    let result = call::call(
        &ctx.ops()?,
        &args.tool,
        args.json.as_deref(),
        &args.args,
        show,
    )?;
    let result = serde_json::to_value(&result).expect("a tool result serializes");
    let failed = result["isError"] == true;
    match args.format {
        ResultFormat::Json => printer.outln(&result.to_string())?,
        ResultFormat::Text if failed => {}
        // A tool's text usually ends with its own newline; print one.
        ResultFormat::Text => {
            let text = content_text(&result["content"]);
            printer.outln(text.strip_suffix('\n').unwrap_or(&text))?
        }
    }
    if failed {
        let error = CliError::new(format!("tool {} returned an error", args.tool));
        return Err(match args.format {
            ResultFormat::Text => error.with_cause(content_text(&result["content"])),
            ResultFormat::Json => error,
        });
    }
    Ok(())
}

/// MCP content blocks as text: text as it is, other blocks as a bracketed line naming them.
pub fn content_text(blocks: &Value) -> String {
    let blocks = match blocks {
        Value::Array(blocks) => blocks.as_slice(),
        single => std::slice::from_ref(single),
    };
    let mut parts = Vec::new();
    for block in blocks {
        let str_of = |key: &str| block[key].as_str().unwrap_or("?").to_string();
        parts.push(match block["type"].as_str() {
            Some("text") => str_of("text"),
            Some(kind @ ("image" | "audio")) => format!(
                "[{kind} {}, {} bytes of base64]",
                str_of("mimeType"),
                block["data"].as_str().map_or(0, str::len)
            ),
            Some("resource") => match block["resource"]["text"].as_str() {
                Some(text) => text.to_string(),
                None => format!(
                    "[resource {}]",
                    block["resource"]["uri"].as_str().unwrap_or("?")
                ),
            },
            Some("resource_link") => format!("[link {}]", str_of("uri")),
            _ => block.to_string(),
        });
    }
    parts.join("\n")
}

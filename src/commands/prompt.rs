//! `agx prompt <publisher/package/prompt>`: render it through `ops::prompt` and print its
//! messages.

use super::Context;
use super::call::content_text;
use crate::cli::{PromptArgs, ResultFormat};
use agx_core::error::CliResult;
use agx_ops::prompt;

pub fn run(ctx: &Context, args: &PromptArgs) -> CliResult {
    let result = prompt::prompt(&ctx.ops()?, &args.prompt, &args.args)?;
    let result = serde_json::to_value(&result).expect("a prompt result serializes");
    if args.format == ResultFormat::Json {
        return ctx.printer.outln(&result.to_string());
    }
    let messages = result["messages"].as_array().cloned().unwrap_or_default();
    // One message (the usual text prompt) prints as its text alone; several are labelled.
    let text = match messages.as_slice() {
        [only] => content_text(&only["content"]),
        all => all
            .iter()
            .map(|m| {
                let role = m["role"].as_str().unwrap_or("?");
                format!("[{role}]\n{}", content_text(&m["content"]))
            })
            .collect::<Vec<_>>()
            .join("\n\n"),
    };
    ctx.printer.outln(&text)
}

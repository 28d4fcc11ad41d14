//! `agx prompt`: render one installed prompt as `prompts/get` would.

use rmcp::model::GetPromptResult;
use serde_json::Value;

use super::Context;
use super::call::{CallError, arguments, installed_package, no_item, resolved_settings};
use agx_core::name::QualifiedName;
use agx_runtime::ExposedPrompt;

/// Render `prompt` (`publisher/package/prompt`) with `NAME=VALUE` arguments (text, as
/// clients send prompt arguments).
pub fn prompt(ctx: &Context, prompt: &str, pairs: &[String]) -> Result<GetPromptResult, CallError> {
    let name = QualifiedName::parse(prompt)?;
    let package = installed_package(ctx, &name)?;
    let Some(def) = package.prompt(name.item.as_str()) else {
        return Err(no_item(
            &package,
            "prompt",
            &name,
            package.prompts.iter().map(|p| &p.name),
        ));
    };
    let exposed = ExposedPrompt {
        exposed: def.name.to_string(),
        qualified: name.clone(),
        def: def.clone(),
        package_dir: package.dir.clone(),
        settings: resolved_settings(ctx, &package, &format!("prompt {name}"))?,
        sandbox: agx_sandbox::for_package(&package, None),
    };
    let args = arguments(&Value::Null, None, pairs)?;
    Ok(agx_runtime::render_prompt(&exposed, args)?)
}

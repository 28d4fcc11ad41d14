//! `completion/complete` for prompt arguments and resource-template variables: the values of a
//! declared `enum` that start with what the user typed, or the lines a `complete` command
//! prints (docs/package-format.md).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CompleteResult, CompletionInfo};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::assemble::{ExposedPrompt, ExposedResource};
use super::process::{self, Ending, OUTPUT_CAP, RunSpec};
use agx_model::manifest::{CompletionSource, ResourceAddress, resolve_program};

/// How long a `complete` command may take: it answers a user typing.
pub(crate) const COMPLETE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a reference names: a prompt (its exposed name) or a resource template (its text).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    Prompt(String),
    Template(String),
}

/// A completion source with what its command needs to run.
struct Offer {
    source: CompletionSource,
    package_dir: PathBuf,
    env: Vec<(String, String)>,
    sandbox: Option<std::sync::Arc<agx_sandbox::Resolved>>,
}

/// Every completion a server offers, by (target, argument name).
#[derive(Default)]
pub(crate) struct Completions {
    offers: HashMap<(Target, String), Offer>,
}

impl Completions {
    pub(crate) fn new(prompts: &[ExposedPrompt], resources: &[ExposedResource]) -> Completions {
        let mut offers = HashMap::new();
        for p in prompts {
            for a in &p.def.arguments {
                let Some(source) = &a.complete else { continue };
                offers.insert(
                    (Target::Prompt(p.exposed.clone()), a.name.clone()),
                    Offer {
                        source: source.clone(),
                        package_dir: p.package_dir.clone(),
                        env: p.command_env(),
                        sandbox: p.sandbox.clone(),
                    },
                );
            }
        }
        for r in resources {
            let ResourceAddress::UriTemplate(template) = &r.def.address else {
                continue;
            };
            for v in &r.def.variables {
                let Some(source) = &v.complete else { continue };
                offers.insert(
                    (Target::Template(template.clone()), v.name.clone()),
                    Offer {
                        source: source.clone(),
                        package_dir: r.package_dir.clone(),
                        env: r.command_env(),
                        sandbox: r.sandbox.clone(),
                    },
                );
            }
        }
        Completions { offers }
    }

    /// Whether anything offers completions (the capability is advertised only then).
    pub(crate) fn is_empty(&self) -> bool {
        self.offers.is_empty()
    }

    /// Candidates for `argument` of `target` starting from `value`; none when the argument
    /// offers no completions. `context` holds the arguments already given.
    pub(crate) async fn complete(
        &self,
        target: Target,
        argument: &str,
        value: &str,
        context: HashMap<String, String>,
        cancel: CancellationToken,
    ) -> Result<CompleteResult, ErrorData> {
        let Some(offer) = self.offers.get(&(target, argument.to_string())) else {
            return Ok(result(Vec::new(), 0));
        };
        let (candidates, total) = match &offer.source {
            CompletionSource::Enum(values) => by_prefix(values, value),
            CompletionSource::Command(command) => {
                let lines = run_command(offer, command, argument, value, &context, cancel)
                    .await
                    .map_err(|e| {
                        ErrorData::internal_error(format!("completing `{argument}`: {e}"), None)
                    })?;
                let total = lines.len();
                (lines, total)
            }
        };
        Ok(result(candidates, total))
    }
}

/// The values that start with `prefix`, ignoring ASCII case, in declared order (those with
/// control characters left out): the first
/// [`CompletionInfo::MAX_VALUES`] of them and how many there are.
fn by_prefix(values: &[String], prefix: &str) -> (Vec<String>, usize) {
    let n = prefix.len();
    let mut shown = Vec::new();
    let mut total = 0;
    for v in values {
        if v.len() >= n
            && v.is_char_boundary(n)
            && v[..n].eq_ignore_ascii_case(prefix)
            && offerable(v)
        {
            total += 1;
            if shown.len() < CompletionInfo::MAX_VALUES {
                shown.push(v.clone());
            }
        }
    }
    (shown, total)
}

/// At most [`CompletionInfo::MAX_VALUES`] of `candidates`, with how many there were.
fn result(mut candidates: Vec<String>, total: usize) -> CompleteResult {
    candidates.truncate(CompletionInfo::MAX_VALUES);
    let info = CompletionInfo::with_pagination(
        candidates,
        Some(u32::try_from(total).unwrap_or(u32::MAX)),
        total > CompletionInfo::MAX_VALUES,
    )
    .expect("at most MAX_VALUES values");
    CompleteResult::new(info)
}

async fn run_command(
    offer: &Offer,
    command: &[String],
    argument: &str,
    value: &str,
    context: &HashMap<String, String>,
    cancel: CancellationToken,
) -> Result<Vec<String>, String> {
    let Some((program, rest)) = command.split_first() else {
        return Err("its complete command is empty".into());
    };
    let mut input = serde_json::to_vec(&json!({
        "argument": argument,
        "value": value,
        "context": context,
    }))
    .expect("the request serializes");
    input.push(b'\n');
    let spec = RunSpec {
        program: resolve_program(&offer.package_dir, program),
        args: rest.to_vec(),
        cwd: offer.package_dir.clone(),
        env: offer.env.clone(),
        stdin: Some(input),
        timeout: COMPLETE_TIMEOUT,
        output_cap: OUTPUT_CAP,
        sandbox: offer.sandbox.clone(),
    };
    let outcome = process::run(&spec, None, cancel.cancelled())
        .await
        .map_err(|e| format!("could not start `{program}`: {e}"))?;
    match outcome.ending {
        Ending::Exited(s) if s.success() => {}
        Ending::Exited(s) => {
            return Err(format!(
                "the complete command exited with {s}; stderr:\n{}",
                outcome.stderr_tail.trim_end()
            ));
        }
        Ending::TimedOut => {
            return Err(format!(
                "the complete command did not finish within {} s",
                COMPLETE_TIMEOUT.as_secs()
            ));
        }
        Ending::Cancelled => return Err("cancelled".into()),
    }
    let (candidates, refused) = candidates(&outcome.stdout, outcome.truncated());
    if refused > 0 {
        tracing::warn!(
            "the complete command of `{argument}` printed {refused} value(s) with control characters; they are left out"
        );
    }
    Ok(candidates)
}

/// The candidates a `complete` command printed, one a line, and how many lines were left
/// out for holding control characters. A cut last line is left out rather than offered half.
fn candidates(stdout: &[u8], truncated: bool) -> (Vec<String>, usize) {
    let text = String::from_utf8_lossy(stdout);
    let mut lines: Vec<&str> = text.lines().collect();
    if truncated && !text.ends_with('\n') {
        lines.pop();
    }
    let lines = lines
        .into_iter()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty());
    let (offered, refused): (Vec<&str>, Vec<&str>) = lines.partition(|l| offerable(l));
    (
        offered.into_iter().map(str::to_string).collect(),
        refused.len(),
    )
}

/// Whether a value may be sent to a client, which shows it to a person or types it into a
/// prompt: not when it holds a control character (a terminal escape, a NUL, a line break).
fn offerable(value: &str) -> bool {
    !value.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_values_are_offered_by_prefix_ignoring_case() {
        let values: Vec<String> = ["Paris", "parma", "Berlin", "é"].map(String::from).into();
        assert_eq!(
            by_prefix(&values, "par"),
            (vec!["Paris".into(), "parma".into()], 2)
        );
        assert_eq!(by_prefix(&values, ""), (values.clone(), 4));
        assert_eq!(by_prefix(&values, "x").1, 0);
        // A prefix that would cut a character matches nothing instead of panicking.
        assert_eq!(by_prefix(&values, "\u{e9}x").1, 0);
        let many: Vec<String> = (0..150).map(|i| i.to_string()).collect();
        let (shown, total) = by_prefix(&many, "");
        assert_eq!((shown.len(), total), (100, 150));
    }

    #[test]
    fn values_with_control_characters_are_never_offered() {
        let printed =
            b"north\r\n\x1b]0;owned\x07title\nnul\x00byte\n\nsouth\ttab\nc1\xc2\x9bx\nnook\n";
        assert_eq!(
            candidates(printed, false),
            (vec!["north".to_string(), "nook".to_string()], 4)
        );
        // A cut last line is not offered either.
        assert_eq!(candidates(b"north\nno", true), (vec!["north".into()], 0));
        let values: Vec<String> = ["pa\x1b[2Jris", "parma"].map(String::from).into();
        assert_eq!(by_prefix(&values, "pa"), (vec!["parma".into()], 1));
    }

    #[test]
    fn results_are_capped_with_the_total_and_has_more() {
        let many: Vec<String> = (0..150).map(|i| i.to_string()).collect();
        let r = result(many, 150);
        assert_eq!(r.completion.values.len(), 100);
        assert_eq!(r.completion.total, Some(150));
        assert_eq!(r.completion.has_more, Some(true));
        let few = result(vec!["a".into()], 1);
        assert_eq!(few.completion.has_more, Some(false));
    }
}

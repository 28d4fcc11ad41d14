//! `agx discover DIR`: find the tools in a folder of scripts that have no definition, by
//! asking each script (the Fractalic contract, docs/authoring.md "From a folder of
//! scripts"): the self-test `{"__test__": true}` as its one argument, the schema dumps
//! `--fractalic-dump-multi-schema` and `--fractalic-dump-schema`, and else `--help`. Every
//! probe runs confined (the folder read-only, a scratch folder writable, no network) under a
//! deadline. `--write` turns what was found into definitions ([`write`]). Declarations stay
//! the source of truth: install, list and serve never run discovery.

mod argparse;
pub mod help;
mod scripts;
pub mod write;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use agx_core::name::ItemName;
use agx_model::manifest::probe::{Outcome, SELF_TEST_INPUT, run_with_deadline};
use agx_model::manifest::{InputMode, Parameter, load_package};
use agx_sandbox::{Network, Resolved};
use serde::Serialize;
use serde_json::Value;

use scripts::Script;

#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("could not read the folder {}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{} has an agx.toml that does not load: {message}", dir.display())]
    Package { dir: PathBuf, message: String },
    #[error("could not make a scratch folder for the probes: {0}")]
    Scratch(std::io::Error),
}

impl agx_core::error::Hint for DiscoverError {
    fn hint(&self) -> Option<String> {
        match self {
            DiscoverError::Package { dir, .. } => Some(format!(
                "`agx validate {}` shows what to fix; discovery adds to a package that loads",
                dir.display()
            )),
            DiscoverError::Folder { .. } => Some("give a folder of scripts".into()),
            DiscoverError::Scratch(_) => None,
        }
    }
}

/// How the tool was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// It answered the self-test with JSON and dumped no schema: it takes any JSON object.
    SelfTest,
    /// `--fractalic-dump-multi-schema`: one of several tools of the script.
    MultiSchema,
    /// `--fractalic-dump-schema`.
    Schema,
    /// Its argparse parser, read by running it up to `parse_args` (a Python script).
    Argparse,
    /// Its `--help` text.
    Help,
}

/// The input schema of a found tool.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Schema {
    /// Read from `--help`: written as `[[parameters]]`.
    Parameters(Vec<Parameter>),
    /// A schema the script dumped (or `{"type": "object"}`): written as `input_schema`.
    Json(Value),
}

/// A tool that discovery found.
#[derive(Debug, Clone, Serialize)]
pub struct FoundTool {
    pub name: String,
    pub script: String,
    pub description: String,
    #[serde(serialize_with = "input_spelling")]
    pub input: InputMode,
    pub via: Via,
    /// The tool's `command`, relative to the folder.
    pub command: Vec<String>,
    pub schema: Schema,
}

fn input_spelling<S: serde::Serializer>(input: &InputMode, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(input.as_str())
}

/// A script that offers no tool, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    pub script: String,
    pub reason: String,
}

/// What `agx discover` found in a folder.
#[derive(Debug, Serialize)]
pub struct Discovery {
    pub dir: PathBuf,
    pub tools: Vec<FoundTool>,
    pub skipped: Vec<Skipped>,
    /// Scripts that a definition of the folder's package runs already (left alone).
    pub declared: Vec<String>,
    /// What confined the probes on this machine.
    pub confinement: String,
    /// Wall time of all probes, and the sum of every probe's own time.
    pub elapsed_ms: u128,
    pub probe_time_ms: u128,
}

/// How discovery runs.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The deadline of each probe.
    pub timeout: Duration,
    /// How many scripts are probed at once.
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: agx_model::manifest::probe::DEFAULT_PROBE_TIMEOUT,
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

/// Probe the scripts of `dir` that no definition runs yet.
pub fn discover(dir: &Path, options: Options) -> Result<Discovery, DiscoverError> {
    let existing = Existing::of(dir)?;
    let all = scripts::scripts_of(dir).map_err(|source| DiscoverError::Folder {
        dir: dir.into(),
        source,
    })?;
    let (declared, scripts): (Vec<Script>, Vec<Script>) = all
        .into_iter()
        .partition(|s| existing.scripts.contains(&s.file));
    let scratch = tempfile::Builder::new()
        .prefix("agx-discover-")
        .tempdir()
        .map_err(DiscoverError::Scratch)?;
    let dir_abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let sandbox = Resolved {
        read: vec![dir_abs.clone()],
        write: vec![scratch.path().to_path_buf()],
        network: Network::None,
        env: Vec::new(),
        declared: true,
    };
    let prober = Prober {
        dir: &dir_abs,
        scratch: scratch.path(),
        sandbox: &sandbox,
        timeout: options.timeout,
    };
    let started = Instant::now();
    let mut results = in_parallel(&scripts, options.jobs.max(1), |script| {
        prober.script(script)
    });
    // A probe that missed its deadline while others ran gets a second chance alone: the
    // deadline is the script's, not the machine's.
    if options.jobs > 1 {
        for (script, result) in scripts.iter().zip(results.iter_mut()) {
            if result.found.is_err() && result.timed_out {
                let spent = result.spent;
                *result = prober.script(script);
                result.spent += spent;
            }
        }
    }
    let elapsed_ms = started.elapsed().as_millis();

    let mut discovery = Discovery {
        dir: dir.into(),
        tools: Vec::new(),
        skipped: Vec::new(),
        declared: declared.into_iter().map(|s| s.file).collect(),
        confinement: agx_sandbox::enforcement(&sandbox),
        elapsed_ms,
        probe_time_ms: results.iter().map(|r| r.spent.as_millis()).sum(),
    };
    for (script, probed) in scripts.iter().zip(results) {
        match probed
            .found
            .and_then(|tools| unique(tools, &discovery.tools, &existing))
        {
            Ok(tools) => discovery.tools.extend(tools),
            Err(reason) => discovery.skipped.push(Skipped {
                script: script.file.clone(),
                reason,
            }),
        }
    }
    Ok(discovery)
}

/// What the folder's package declares already.
#[derive(Default)]
struct Existing {
    /// Files a tool or server command runs.
    scripts: Vec<String>,
    tools: Vec<String>,
}

impl Existing {
    fn of(dir: &Path) -> Result<Existing, DiscoverError> {
        if !dir.join("agx.toml").is_file() {
            return Ok(Existing::default());
        }
        let package = load_package(dir).map_err(|e| DiscoverError::Package {
            dir: dir.into(),
            message: e.to_string(),
        })?;
        let commands = package
            .tools
            .iter()
            .map(|t| &t.command)
            .chain(package.servers.iter().filter_map(|s| s.command.as_ref()));
        let scripts = commands
            .flatten()
            .map(|word| word.trim_start_matches("./").to_string())
            .collect();
        Ok(Existing {
            scripts,
            tools: package.tools.iter().map(|t| t.name.to_string()).collect(),
        })
    }
}

/// `tools`, unless one's name is taken by a tool found before or declared already.
fn unique(
    tools: Vec<FoundTool>,
    found: &[FoundTool],
    existing: &Existing,
) -> Result<Vec<FoundTool>, String> {
    for tool in &tools {
        if let Some(other) = found.iter().find(|t| t.name == tool.name) {
            return Err(format!(
                "its tool name `{}` is taken by {}: rename the file, or declare one by hand",
                tool.name, other.script
            ));
        }
        if existing.tools.contains(&tool.name) {
            return Err(format!(
                "a tool named `{}` is declared already: rename the file, or declare it by hand",
                tool.name
            ));
        }
    }
    Ok(tools)
}

/// Run `work` over `items` on up to `jobs` threads, results in the order of `items`. A
/// probe is mostly a process start, so as many run at once as there are cores: more would
/// make them miss their deadlines.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    let slots = std::sync::Mutex::new(&mut results);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(items.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = work(item);
                    slots.lock().expect("no worker panics holding it")[i] = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every item was worked on"))
        .collect()
}

/// Runs one probe: a command and its arguments, under the deadline.
type RunProbe<'a> = dyn FnMut(&[String], &[&str]) -> std::io::Result<Outcome> + 'a;

/// What probing one script gave.
struct Probed {
    found: Result<Vec<FoundTool>, String>,
    /// The time its probes took.
    spent: Duration,
    /// Whether a probe missed the deadline.
    timed_out: bool,
}

/// Runs the probes of one folder.
struct Prober<'a> {
    dir: &'a Path,
    scratch: &'a Path,
    sandbox: &'a Resolved,
    timeout: Duration,
}

/// What stdout held.
enum Answer {
    Json(Value),
    /// JSON on its last line after other text (logs on stdout): the first other line.
    Mixed(String),
    Nothing,
    Text(String),
}

impl Answer {
    fn of(stdout: &[u8]) -> Answer {
        let text = String::from_utf8_lossy(stdout);
        let text = text.trim();
        if text.is_empty() {
            return Answer::Nothing;
        }
        if let Ok(value) = serde_json::from_str(text) {
            return Answer::Json(value);
        }
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let first = lines.next().unwrap_or_default().trim().to_string();
        let last_is_json = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| serde_json::from_str::<Value>(l.trim()).is_ok_and(|v| v.is_object()));
        if last_is_json {
            Answer::Mixed(first)
        } else {
            Answer::Text(first)
        }
    }
}

impl Prober<'_> {
    /// Run `command` with `args` under the deadline; the outcome and the time it took.
    fn run(&self, command: &[String], args: &[&str]) -> (std::io::Result<Outcome>, Duration) {
        let started = Instant::now();
        let outcome = (|| {
            let program = agx_model::manifest::resolve_program(self.dir, &command[0]);
            let (launcher, before) = agx_sandbox::launch_line(&program, Some(self.sandbox));
            let mut cmd = Command::new(launcher);
            cmd.args(before)
                .args(&command[1..])
                .args(args)
                .current_dir(self.dir);
            agx_sandbox::confine_std(&mut cmd, self.sandbox)?;
            // Scratch files go to the one folder the probe may write.
            for var in ["TMPDIR", "TMP", "TEMP"] {
                cmd.env(var, self.scratch);
            }
            cmd.env("PYTHONDONTWRITEBYTECODE", "1");
            run_with_deadline(&mut cmd, None, self.timeout)
        })();
        (outcome, started.elapsed())
    }

    /// The tools a script offers, or why it offers none; and the time its probes took.
    fn script(&self, script: &Script) -> Probed {
        let mut spent = Duration::ZERO;
        let mut timed_out = false;
        let mut run = |command: &[String], args: &[&str]| {
            let (outcome, took) = self.run(command, args);
            spent += took;
            timed_out |= matches!(outcome, Ok(Outcome::TimedOut));
            outcome
        };
        let found = self.classify(script, &mut run);
        Probed {
            found,
            spent,
            timed_out,
        }
    }

    fn classify(&self, script: &Script, run: &mut RunProbe<'_>) -> Result<Vec<FoundTool>, String> {
        let ms = self.timeout.as_millis();
        let test = run(&script.command, &[SELF_TEST_INPUT]).map_err(|e| {
            format!(
                "could not start `{}`: {e}; is it installed and on PATH?",
                script.command[0]
            )
        })?;
        let test_said = match &test {
            Outcome::TimedOut => {
                return Err(format!(
                    "did not answer {SELF_TEST_INPUT} within {ms} ms: move slow imports and work \
                     below the check for the self-test (or raise --timeout)"
                ));
            }
            Outcome::Exited {
                success: true,
                stdout,
                ..
            } => match Answer::of(stdout) {
                Answer::Json(_) => None,
                Answer::Mixed(line) => {
                    return Err(format!(
                        "printed other text with its JSON on stdout (`{}`): agx takes all of \
                         stdout as the result, so print logs on stderr",
                        shorten(&line)
                    ));
                }
                Answer::Nothing => Some("printed nothing".to_string()),
                Answer::Text(line) => Some(format!("printed `{}`", shorten(&line))),
            },
            Outcome::Exited { code, .. } => Some(match code {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".into(),
            }),
        };
        let simple_json = test_said.is_none();
        let dumped = self.dumped(script, run);
        if let Some((via, manifests)) = dumped {
            let input = if simple_json {
                InputMode::Argv
            } else {
                InputMode::ArgvFlags
            };
            return manifests
                .into_iter()
                .map(|m| self.tool_from_manifest(script, via, input, m))
                .collect();
        }
        if simple_json {
            let name = tool_name(None, script)?;
            return Ok(vec![FoundTool {
                description: described(script, None),
                name,
                script: script.file.clone(),
                input: InputMode::Argv,
                via: Via::SelfTest,
                command: script.command.clone(),
                schema: Schema::Json(
                    serde_json::json!({ "type": "object", "additionalProperties": true }),
                ),
            }]);
        }
        let test_said = test_said.unwrap_or_default();
        if let Some(help) = self.introspected(script, run) {
            return self.flags_tool(script, Via::Argparse, help);
        }
        let help = match run(&script.command, &["--help"]) {
            Ok(Outcome::Exited {
                success: true,
                stdout,
                stderr,
                ..
            }) => {
                // Some scripts print their usage on stderr.
                let text = if stdout.iter().all(u8::is_ascii_whitespace) {
                    stderr
                } else {
                    stdout
                };
                help::parse(&String::from_utf8_lossy(&text))
            }
            Ok(Outcome::TimedOut) => {
                return Err(format!(
                    "{test_said} on {SELF_TEST_INPUT} and did not answer --help within {ms} ms"
                ));
            }
            _ => None,
        };
        let Some(help) = help else {
            return Err(format!(
                "not a tool: it {test_said} on {SELF_TEST_INPUT}, dumped no schema and showed no \
                 usage for --help (a helper module? a script that needs a definition written \
                 by hand?)"
            ));
        };
        self.flags_tool(script, Via::Help, help)
    }

    /// A tool that takes flags, as its `--help` (or argparse itself) describes it.
    fn flags_tool(
        &self,
        script: &Script,
        via: Via,
        help: help::Help,
    ) -> Result<Vec<FoundTool>, String> {
        if !help.positional.is_empty() {
            return Err(format!(
                "takes arguments without flags ({}), which a tool called with flags cannot \
                 fill: declare it by hand",
                help.positional.join(", ")
            ));
        }
        Ok(vec![FoundTool {
            name: tool_name(None, script)?,
            script: script.file.clone(),
            description: described(script, help.description),
            input: InputMode::ArgvFlags,
            via,
            command: script.command.clone(),
            schema: Schema::Parameters(help.parameters),
        }])
    }

    /// A Python script's argparse arguments, read from the parser itself
    /// ([`argparse::INTROSPECT`]); `None` for another script, or one that uses no argparse.
    fn introspected(&self, script: &Script, run: &mut RunProbe<'_>) -> Option<help::Help> {
        let interpreter = &script.command[0];
        if !interpreter.contains("python") || script.command.len() != 2 {
            return None;
        }
        let command = [
            interpreter.clone(),
            "-c".into(),
            argparse::INTROSPECT.into(),
        ];
        match run(&command, &[script.command[1].as_str()]) {
            Ok(Outcome::Exited {
                success: true,
                stdout,
                ..
            }) => argparse::read(&stdout),
            _ => None,
        }
    }

    /// The manifests a schema dump gives: the multi dump first, then the single one; each
    /// asked only of a script whose text names its flag.
    fn dumped(&self, script: &Script, run: &mut RunProbe<'_>) -> Option<(Via, Vec<Manifest>)> {
        for &flag in &script.dumps {
            let Ok(Outcome::Exited {
                success: true,
                stdout,
                ..
            }) = run(&script.command, &[flag])
            else {
                continue;
            };
            let Answer::Json(value) = Answer::of(&stdout) else {
                continue;
            };
            if let Some(manifests) = manifests_of(&value) {
                let via = if manifests.len() > 1 || value.is_array() {
                    Via::MultiSchema
                } else {
                    Via::Schema
                };
                return Some((via, manifests));
            }
        }
        None
    }

    fn tool_from_manifest(
        &self,
        script: &Script,
        via: Via,
        input: InputMode,
        manifest: Manifest,
    ) -> Result<FoundTool, String> {
        let name = tool_name(manifest.name.as_deref(), script)?;
        // A script with several tools is told which one runs by the first argument.
        let mut command = script.command.clone();
        if via == Via::MultiSchema {
            command.push(manifest.name.clone().unwrap_or_default());
        }
        Ok(FoundTool {
            description: described(script, manifest.description),
            name,
            script: script.file.clone(),
            input,
            via,
            command,
            schema: Schema::Json(manifest.parameters),
        })
    }
}

/// One tool of a schema dump.
struct Manifest {
    name: Option<String>,
    description: Option<String>,
    parameters: Value,
}

/// The tools a schema dump describes: an object (`{name?, description?, parameters}`, also
/// wrapped as OpenAI's `{"type": "function", "function": {…}}`) or an array of them, each
/// named. `None` when it is neither.
fn manifests_of(value: &Value) -> Option<Vec<Manifest>> {
    let one = |v: &Value| -> Option<Manifest> {
        let v = v.get("function").filter(|f| f.is_object()).unwrap_or(v);
        let mut parameters = v.get("parameters")?.clone();
        let schema = parameters.as_object_mut()?;
        schema.entry("type").or_insert_with(|| "object".into());
        Some(Manifest {
            name: v.get("name").and_then(Value::as_str).map(str::to_string),
            description: v
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            parameters,
        })
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            let manifests: Option<Vec<Manifest>> = items.iter().map(one).collect();
            manifests.filter(|m| m.iter().all(|m| m.name.is_some()))
        }
        Value::Object(_) => one(value).map(|m| vec![m]),
        _ => None,
    }
}

/// The tool's name: the one it gave, else the file's stem, made an item name (characters
/// other than `A-Z a-z 0-9 _ . -` become `_`).
fn tool_name(given: Option<&str>, script: &Script) -> Result<String, String> {
    let raw = given.unwrap_or_else(|| {
        script
            .file
            .rsplit_once('.')
            .map_or(script.file.as_str(), |(stem, _)| stem)
    });
    let cleaned: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    ItemName::parse(&cleaned)
        .map(|n| n.to_string())
        .map_err(|e| format!("`{raw}` cannot be made a tool name ({e}): declare it by hand"))
}

/// The description: what the script said, else its docstring or first comment.
fn described(script: &Script, said: Option<String>) -> String {
    said.filter(|s| !s.trim().is_empty())
        .or_else(|| script.summary.clone())
        .unwrap_or_else(|| format!("Runs {}", script.file))
}

fn shorten(line: &str) -> String {
    let mut chars = line.chars();
    let cut: String = chars.by_ref().take(80).collect();
    if chars.next().is_some() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_dumps_are_read_in_every_shape() {
        let single = serde_json::json!({"description": "d", "parameters": {"properties": {}}});
        let m = manifests_of(&single).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].parameters["type"], "object");
        let wrapped = serde_json::json!({"type": "function", "function":
            {"name": "f", "parameters": {"type": "object"}}});
        assert_eq!(
            manifests_of(&wrapped).unwrap()[0].name.as_deref(),
            Some("f")
        );
        let multi =
            serde_json::json!([{"name": "a", "parameters": {}}, {"name": "b", "parameters": {}}]);
        assert_eq!(manifests_of(&multi).unwrap().len(), 2);
        let unnamed = serde_json::json!([{"parameters": {}}]);
        assert!(manifests_of(&unnamed).is_none());
        assert!(manifests_of(&serde_json::json!({"success": true})).is_none());
    }

    #[test]
    fn names_come_from_the_file_made_valid() {
        let script = |file: &str| Script {
            file: file.into(),
            command: vec![],
            summary: None,
            dumps: vec![],
        };
        assert_eq!(
            tool_name(None, &script("get weather.py")).unwrap(),
            "get_weather"
        );
        assert_eq!(
            tool_name(Some("lookup"), &script("x.py")).unwrap(),
            "lookup"
        );
    }

    #[test]
    fn answers_are_told_apart() {
        assert!(matches!(Answer::of(b" {\"ok\": 1}\n"), Answer::Json(_)));
        assert!(
            matches!(Answer::of(b"loading\n{\"ok\": 1}\n"), Answer::Mixed(l) if l == "loading")
        );
        assert!(matches!(Answer::of(b"usage: x\n"), Answer::Text(_)));
        assert!(matches!(Answer::of(b"  \n"), Answer::Nothing));
    }
}

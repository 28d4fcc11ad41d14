//! `agx validate --probe`: run each tool's self-test (`{"__test__": true}`, see
//! docs/package-format.md, "the self-test") and report tools that fail, time out, or do not answer a JSON object. This is
//! the only part of validation that runs package code.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::diagnostics::{self as codes, Finding, Findings};
use super::model::{InputMode, Package, ToolDef, resolve_program};
use agx_core::process_tree::spawn_tree;

/// How long a tool may take to answer its self-test (docs/validate.md: under 200 ms).
pub const DEFAULT_PROBE_TIMEOUT: Duration = Duration::from_millis(200);

/// The self-test input, spelled as Fractalic's tools compare it (docs/authoring.md, "From a
/// folder of scripts"): some test `argv[1]` for this exact text.
pub const SELF_TEST_INPUT: &str = r#"{"__test__": true}"#;

/// Output kept from a probed tool; a self-test answer is small.
const OUTPUT_CAP: u64 = 1 << 20;

/// Probe every tool of the package, one after the other: each is timed alone, so that tools
/// do not compete for the CPU and fail each other's deadline.
pub fn probe_package(package: &Package, timeout: Duration) -> Vec<Finding> {
    package
        .tools
        .iter()
        .flat_map(|tool| probe_tool(package, tool, timeout).list)
        .collect()
}

/// What happened when a program ran under a deadline.
#[derive(Debug)]
pub enum Outcome {
    Exited {
        success: bool,
        code: Option<i32>,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    TimedOut,
}

/// What the self-test gives a tool: the JSON input, or `--help` to a tool that takes flags.
fn test_input(tool: &ToolDef) -> &'static str {
    match tool.input {
        InputMode::ArgvFlags => "--help",
        InputMode::Stdin | InputMode::Argv => SELF_TEST_INPUT,
    }
}

fn probe_tool(package: &Package, tool: &ToolDef, timeout: Duration) -> Findings {
    let mut f = Findings::default();
    let name = &tool.name;
    let given = test_input(tool);
    let outcome = match run(package, tool, timeout) {
        Ok(o) => o,
        Err(e) => {
            f.push(
                codes::PROBE_FAILED,
                tool.location.clone(),
                1,
                format!("tool `{name}` could not start `{}`: {e}", tool.command[0]),
                Some("check `command`: the program must exist and be executable".into()),
            );
            return f;
        }
    };
    match outcome {
        Outcome::TimedOut => f.push(
            codes::PROBE_TIMEOUT,
            tool.location.clone(),
            1,
            format!(
                "tool `{name}` did not answer its self-test within {} ms (its process group was killed)",
                timeout.as_millis()
            ),
            Some(format!(
                "given {given} a tool should answer at once, before any slow work"
            )),
        ),
        Outcome::Exited {
            success: false,
            code,
            stderr,
            ..
        } => {
            let status = code.map_or("was killed by a signal".to_string(), |c| format!("exited with status {c}"));
            let tail = tail_text(&stderr);
            let said = if tail.is_empty() {
                String::new()
            } else {
                format!("; stderr: {tail}")
            };
            f.push(
                codes::PROBE_FAILED,
                tool.location.clone(),
                1,
                format!("tool `{name}` {status} on its self-test{said}"),
                Some(match tool.input {
                    InputMode::ArgvFlags => "given --help a tool that takes flags should print its usage and exit 0".into(),
                    _ => format!("given {given} a tool should print a JSON object and exit 0"),
                }),
            );
        }
        // Usage text is the answer to `--help`: any is fine.
        Outcome::Exited { .. } if tool.input == InputMode::ArgvFlags => {}
        Outcome::Exited { stdout, .. } => {
            let text = String::from_utf8_lossy(&stdout);
            let is_object = serde_json::from_str::<serde_json::Value>(text.trim()).is_ok_and(|v| v.is_object());
            if !is_object {
                let shown = tail_text(&stdout);
                let shown = if shown.is_empty() { "nothing".to_string() } else { format!("`{shown}`") };
                f.push(
                    codes::PROBE_BAD_OUTPUT,
                    tool.location.clone(),
                    1,
                    format!("tool `{name}` answered its self-test with {shown}, not a JSON object"),
                    Some("print one JSON object on stdout, e.g. {\"ok\": true}".into()),
                );
            }
        }
    }
    f
}

/// The last few hundred characters of an output, on one line.
fn tail_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    let chars: Vec<char> = text.chars().collect();
    let start = chars.len().saturating_sub(300);
    chars[start..]
        .iter()
        .collect::<String>()
        .replace('\n', " ⏎ ")
}

fn run(package: &Package, tool: &ToolDef, timeout: Duration) -> std::io::Result<Outcome> {
    let program = resolve_program(&package.dir, &tool.command[0]);
    let mut cmd = Command::new(program);
    cmd.args(&tool.command[1..])
        .current_dir(&package.dir)
        .envs(&tool.env)
        .env("AGX_PACKAGE_DIR", &package.dir)
        .env("AGX_PACKAGE", package.name().to_string())
        .env("AGX_TOOL", tool.name.as_str());
    let stdin = match tool.input {
        InputMode::Argv => {
            cmd.arg(SELF_TEST_INPUT);
            None
        }
        // A program that takes flags has no JSON to test: it shows it is alive and quick by
        // answering `--help`.
        InputMode::ArgvFlags => {
            cmd.arg("--help");
            None
        }
        InputMode::Stdin => Some(SELF_TEST_INPUT.as_bytes()),
    };
    run_with_deadline(&mut cmd, stdin, timeout)
}

/// Run `cmd` (stdin: these bytes, else nothing), capturing its output, and end its whole
/// process tree at `timeout`. Also runs the scripts `agx discover` probes.
pub fn run_with_deadline(
    cmd: &mut Command,
    stdin: Option<&[u8]>,
    timeout: Duration,
) -> std::io::Result<Outcome> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    } else {
        cmd.stdin(Stdio::null());
    }
    let started = Instant::now();
    let (mut child, tree) = spawn_tree(cmd)?;
    if let (Some(mut pipe), Some(input)) = (child.stdin.take(), stdin) {
        // A tool that exits without reading its input closes the pipe; that is its business.
        let _ = pipe.write_all(input);
    }
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());

    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() >= timeout {
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    // Also ends anything the tool left running, so the output pipes close.
    tree.kill(&mut child);
    let Some(status) = status else {
        let _ = child.wait();
        return Ok(Outcome::TimedOut);
    };
    Ok(Outcome::Exited {
        success: status.success(),
        code: status.code(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Read a child's pipe to its end (at most 1 MiB) on a thread of its own, so that neither
/// pipe fills while the other is read. Also used for npm and pip (`agx_sources::ecosystem`).
pub fn read_in_background<R: Read + Send + 'static>(
    pipe: Option<R>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(pipe) = pipe {
            let _ = pipe.take(OUTPUT_CAP).read_to_end(&mut buf);
        }
        buf
    })
}

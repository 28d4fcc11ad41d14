//! Turning what a tool did into an MCP `tools/call` result (the tool contract:
//! docs/package-format.md).

use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use super::process::{Ending, RunOutcome};

/// A result with one text block.
pub(crate) fn text_result(text: impl Into<String>, is_error: bool) -> CallToolResult {
    from_json(json!({ "content": [{ "type": "text", "text": text.into() }], "isError": is_error }))
}

fn from_json(value: Value) -> CallToolResult {
    complete(serde_json::from_value(value).expect("a well-formed CallToolResult"))
}

/// Mark a result final. Clients on protocol 2026-07-28 require `resultType`; rmcp's own
/// constructors set it (and strip it for older peers), but results built through serde do not.
fn complete(mut result: CallToolResult) -> CallToolResult {
    result
        .result_type
        .get_or_insert(rmcp::model::ResultType::COMPLETE);
    result
}

/// The result of a finished run of tool `tool` (its exposed name, for messages).
pub(crate) fn tool_result(tool: &str, timeout_secs: u64, outcome: &RunOutcome) -> CallToolResult {
    match outcome.ending {
        Ending::TimedOut => {
            return text_result(
                format!(
                    "tool `{tool}` did not finish within its timeout of {timeout_secs} s; \
                     its processes were stopped{}",
                    stderr_suffix(&outcome.stderr_tail)
                ),
                true,
            );
        }
        Ending::Cancelled => return text_result(format!("tool `{tool}` was cancelled"), true),
        // A tool that reports its failure as `{"error": …}` and also exits non-zero (as
        // Fractalic's scripts do) gets its own words, as with status 0.
        Ending::Exited(status) if !status.success() && !reports_error(&outcome.stdout) => {
            let how = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".to_string(),
            };
            let detail = if outcome.stderr_tail.trim().is_empty() {
                let out = String::from_utf8_lossy(&outcome.stdout);
                if out.trim().is_empty() {
                    String::new()
                } else {
                    format!("\nstdout:\n{}", tail(out.trim_end(), 4096))
                }
            } else {
                stderr_suffix(&outcome.stderr_tail)
            };
            return text_result(format!("tool `{tool}` {how}{detail}"), true);
        }
        Ending::Exited(_) => {}
    }
    if outcome.truncated() {
        let mut text = String::from_utf8_lossy(&outcome.stdout).into_owned();
        text.push_str(&format!(
            "\n[agx: output truncated: the tool printed {} bytes; only the first {} are shown]",
            outcome.stdout_total,
            outcome.stdout.len()
        ));
        return text_result(text, false);
    }
    stdout_result(&outcome.stdout)
}

/// Whether stdout is a JSON object with an `error` key.
fn reports_error(stdout: &[u8]) -> bool {
    serde_json::from_slice::<Value>(stdout).is_ok_and(|v| v.get("error").is_some())
}

/// Interpret complete stdout: JSON error, content blocks, other JSON, or text.
pub(crate) fn stdout_result(stdout: &[u8]) -> CallToolResult {
    let parsed = serde_json::from_slice::<Value>(stdout).ok();
    match parsed {
        Some(Value::Object(obj)) if obj.contains_key("error") => {
            let message = match &obj["error"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            text_result(message, true)
        }
        Some(Value::Object(obj)) if obj.get("content").is_some_and(Value::is_array) => {
            let mut result = json!({ "content": obj["content"] });
            if let Some(v) = obj.get("structuredContent") {
                result["structuredContent"] = v.clone();
            }
            if let Some(v) = obj.get("isError") {
                result["isError"] = v.clone();
            }
            match serde_json::from_value::<CallToolResult>(result) {
                Ok(r) => complete(r),
                Err(e) => text_result(
                    format!(
                        "the tool printed a `content` array that is not valid MCP content: {e}"
                    ),
                    true,
                ),
            }
        }
        Some(value @ Value::Object(_)) => from_json(json!({
            "content": [{ "type": "text", "text": value.to_string() }],
            "structuredContent": value,
            "isError": false,
        })),
        Some(value) => text_result(value.to_string(), false),
        None => text_result(String::from_utf8_lossy(stdout).into_owned(), false),
    }
}

fn stderr_suffix(stderr_tail: &str) -> String {
    if stderr_tail.trim().is_empty() {
        String::new()
    } else {
        format!("\nstderr:\n{}", stderr_tail.trim_end())
    }
}

fn tail(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut cut = s.len() - max;
    while !s.is_char_boundary(cut) {
        cut += 1;
    }
    &s[cut..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn as_json(r: &CallToolResult) -> Value {
        serde_json::to_value(r).unwrap()
    }

    #[test]
    fn json_error_is_an_error_result() {
        let r = as_json(&stdout_result(br#"{"error": "no such city"}"#));
        assert_eq!(r["isError"], true);
        assert_eq!(r["content"][0]["text"], "no such city");
    }

    #[test]
    fn content_is_passed_through() {
        let r = as_json(&stdout_result(
            br#"{"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]}"#,
        ));
        assert_eq!(r["content"][0]["type"], "image");
        assert_eq!(r["content"][0]["mimeType"], "image/png");
    }

    #[test]
    fn other_json_is_structured() {
        let r = as_json(&stdout_result(br#"{"temp": 21}"#));
        assert_eq!(r["structuredContent"]["temp"], 21);
        assert_eq!(r["content"][0]["text"], r#"{"temp":21}"#);
        assert_ne!(r["isError"], true);
    }

    #[test]
    fn text_and_invalid_utf8_become_text() {
        let r = as_json(&stdout_result(b"hello\n"));
        assert_eq!(r["content"][0]["text"], "hello\n");
        let r = as_json(&stdout_result(b"a\xffb"));
        assert_eq!(r["content"][0]["text"], "a\u{fffd}b");
    }

    #[cfg(unix)]
    #[test]
    fn a_failed_exit_with_a_json_error_gives_the_tools_words() {
        use std::os::unix::process::ExitStatusExt;
        use std::process::ExitStatus;
        let outcome = |stdout: &[u8]| RunOutcome {
            ending: Ending::Exited(ExitStatus::from_raw(1 << 8)),
            stdout: stdout.to_vec(),
            stdout_total: stdout.len() as u64,
            stderr_tail: String::new(),
        };
        let r = as_json(&tool_result("t", 5, &outcome(br#"{"error": "bad lat"}"#)));
        assert_eq!(r["isError"], true);
        assert_eq!(r["content"][0]["text"], "bad lat");
        let r = as_json(&tool_result("t", 5, &outcome(b"oops")));
        assert_eq!(r["isError"], true);
        assert_eq!(
            r["content"][0]["text"],
            "tool `t` exited with status 1\nstdout:\noops"
        );
    }

    #[test]
    fn invalid_content_blocks_are_an_error() {
        let r = as_json(&stdout_result(br#"{"content": [{"type": "bogus"}]}"#));
        assert_eq!(r["isError"], true);
    }
}

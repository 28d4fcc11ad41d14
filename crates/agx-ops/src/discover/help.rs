//! Reading a script's `--help` text (docs/authoring.md, "From a folder of scripts"): the
//! layout argparse prints, and the usual hand-written `Usage:` / `Options:` block of a shell
//! script. Flags become parameters (a flag with a value a string, one with `{a,b}` choices an
//! enum, one with `[X ...]` an array, a bare flag a boolean), help texts their descriptions,
//! flags outside `[…]` in the usage line (or marked `(required)`) required.

use agx_model::manifest::{ParamType, Parameter};
use serde_json::Value;

/// What a help text says about a tool.
#[derive(Debug, Default, PartialEq)]
pub struct Help {
    /// The paragraph after the usage line (argparse's `description`), if any.
    pub description: Option<String>,
    pub parameters: Vec<Parameter>,
    /// Arguments given without a flag (argparse's "positional arguments"): a tool called
    /// with flags cannot fill them.
    pub positional: Vec<String>,
}

/// Flags every script has that are not the tool's input.
fn is_introspection(name: &str) -> bool {
    name == "help" || name == "version" || name.starts_with("fractalic-")
}

/// Parse `text`; `None` when it shows neither a usage line nor a flag (not a help text).
pub fn parse(text: &str) -> Option<Help> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let usage_end = usage_block(&lines);
    let usage = usage_end.map(|end| lines[..end].join(" "));
    let mut help = Help::default();
    let mut section = Section::Other;
    let mut i = usage_end.unwrap_or(0);
    let mut seen_flag = false;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            i += 1;
            continue;
        }
        if indent == 0 && trimmed.ends_with(':') && !trimmed.starts_with('-') {
            section = Section::of(trimmed);
            i += 1;
            continue;
        }
        if trimmed.starts_with('-') {
            let (mut parameter, mut words) = option_line(trimmed);
            i += 1;
            // The help text goes on on lines indented deeper that are not flags themselves.
            while i < lines.len() {
                let next = lines[i];
                let next_indent = next.len() - next.trim_start().len();
                let next_trimmed = next.trim_start();
                if next_trimmed.is_empty() || next_indent <= indent || next_trimmed.starts_with('-')
                {
                    break;
                }
                words.push(next_trimmed.to_string());
                i += 1;
            }
            seen_flag = true;
            if let Some(p) = parameter.as_mut() {
                let text = words.join(" ");
                if text.to_ascii_lowercase().contains("(required)") {
                    p.required = true;
                }
                p.description = (!text.is_empty()).then_some(text);
                if !is_introspection(&p.name)
                    && !help.parameters.iter().any(|known| known.name == p.name)
                {
                    help.parameters
                        .push(parameter.take().expect("checked above"));
                }
            }
            continue;
        }
        match section {
            Section::Positional if indent > 0 => {
                let name = trimmed.split_whitespace().next().unwrap_or_default();
                help.positional.push(name.to_string());
            }
            // The first paragraph that is not under a heading describes the tool.
            Section::Other if help.description.is_none() && !seen_flag => {
                let mut paragraph = vec![trimmed];
                while i + 1 < lines.len() && !lines[i + 1].trim().is_empty() {
                    let next = lines[i + 1].trim();
                    if next.starts_with('-') || next.ends_with(':') {
                        break;
                    }
                    paragraph.push(next);
                    i += 1;
                }
                help.description = Some(paragraph.join(" "));
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(usage) = &usage {
        for name in required_in_usage(usage) {
            if let Some(p) = help.parameters.iter_mut().find(|p| p.name == name) {
                p.required = true;
            }
        }
    }
    (usage.is_some() || seen_flag).then_some(help)
}

#[derive(Clone, Copy)]
enum Section {
    Positional,
    Other,
}

impl Section {
    fn of(heading: &str) -> Section {
        if heading.to_ascii_lowercase().starts_with("positional") {
            Section::Positional
        } else {
            Section::Other
        }
    }
}

/// Where the usage block (a `usage:` line and the lines indented under it) ends.
fn usage_block(lines: &[&str]) -> Option<usize> {
    let start = lines.iter().position(|l| !l.trim().is_empty())?;
    if !lines[start]
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("usage:")
    {
        return None;
    }
    // argparse aligns a long usage's next lines under the program's name (deeper than the
    // two or four spaces of an option line, which may follow without a blank line).
    let mut end = start + 1;
    while end < lines.len() && lines[end].starts_with("     ") && !lines[end].trim().is_empty() {
        end += 1;
    }
    Some(end)
}

/// One option line: the parameter of its long flag (`None` for a short flag alone) and the
/// words of help on the same line.
fn option_line(line: &str) -> (Option<Parameter>, Vec<String>) {
    // The flags and their values end where two spaces (or a tab) start the help text.
    let split = line
        .find("  ")
        .into_iter()
        .chain(line.find('\t'))
        .min()
        .unwrap_or(line.len());
    let (spec, rest) = line.split_at(split);
    let words = match rest.trim() {
        "" => Vec::new(),
        text => vec![text.to_string()],
    };
    let long = spec
        .split(", ")
        .map(str::trim)
        .find(|form| form.starts_with("--") && form.len() > 2);
    let Some(long) = long else {
        return (None, words);
    };
    let (flag, value) = match long.split_once(['=', ' ']) {
        Some((flag, value)) => (flag, Some(value.trim())),
        None => (long, None),
    };
    let name = flag.strip_prefix("--").unwrap_or(flag).to_string();
    // A flag a tool can be called with: letters, digits, `_`, `.` and `-` (argparse's and
    // getopt's in practice); a line that only looks like a flag is text.
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) || !name.chars().all(plain) {
        return (None, words);
    }
    let mut parameter = Parameter {
        name,
        kind: ParamType::Boolean,
        description: None,
        required: false,
        r#enum: None,
        default: None,
        items: None,
    };
    if let Some(value) = value.filter(|v| !v.is_empty()) {
        parameter.kind = ParamType::String;
        if let Some(choices) = value
            .split_whitespace()
            .next()
            .and_then(|v| v.strip_prefix('{'))
            .and_then(|v| v.strip_suffix('}'))
        {
            let choices: Vec<&str> = choices.split(',').collect();
            let numbers: Option<Vec<i64>> = choices.iter().map(|c| c.parse().ok()).collect();
            parameter.r#enum = Some(match numbers {
                Some(numbers) => {
                    parameter.kind = ParamType::Integer;
                    numbers.into_iter().map(Value::from).collect()
                }
                None => choices.into_iter().map(Value::from).collect(),
            });
        }
        // argparse shows `nargs="+"` and `"*"` as `X [X ...]`, `append` not at all.
        if value.contains("...") {
            let element = match parameter.kind {
                ParamType::Integer => "integer",
                _ => "string",
            };
            let mut items = serde_json::json!({ "type": element });
            if let Some(choices) = parameter.r#enum.take() {
                items["enum"] = Value::Array(choices);
            }
            parameter.kind = ParamType::Array;
            parameter.items = Some(items);
        }
    }
    (Some(parameter), words)
}

/// The long flags of a usage line that are outside every `[…]`: argparse shows required
/// options that way.
fn required_in_usage(usage: &str) -> Vec<String> {
    let mut depth = 0usize;
    let mut outside = String::new();
    for c in usage.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    outside
        .split_whitespace()
        .filter_map(|word| word.strip_prefix("--"))
        .map(|flag| flag.split('=').next().unwrap_or(flag).to_string())
        .filter(|name| !name.is_empty() && !is_introspection(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARGPARSE: &str = "\
usage: weather.py [-h] --lat LAT --lon LON [--units {metric,imperial}]
                  [--days {1,3,7}] [--tag TAG [TAG ...]] [--verbose]

Simple weather fetcher

options:
  -h, --help            show this help message and exit
  --lat LAT             Latitude of the location (e.g., 48.8566)
  --lon LON             Longitude of the location
  --units {metric,imperial}
                        Temperature units (default:
                        metric)
  --days {1,3,7}        Days ahead
  --tag TAG [TAG ...]   Tags to attach
  -v, --verbose         Say more
";

    #[test]
    fn reads_argparse_help() {
        let help = parse(ARGPARSE).unwrap();
        assert_eq!(help.description.as_deref(), Some("Simple weather fetcher"));
        let names: Vec<&str> = help.parameters.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["lat", "lon", "units", "days", "tag", "verbose"]);
        let p = |n: &str| help.parameters.iter().find(|p| p.name == n).unwrap();
        assert!(p("lat").required && p("lon").required);
        assert!(!p("units").required && !p("verbose").required);
        assert_eq!(p("lat").kind, ParamType::String);
        assert_eq!(
            p("lat").description.as_deref(),
            Some("Latitude of the location (e.g., 48.8566)")
        );
        assert_eq!(
            p("units").description.as_deref(),
            Some("Temperature units (default: metric)")
        );
        assert_eq!(
            p("units").r#enum,
            Some(vec![Value::from("metric"), Value::from("imperial")])
        );
        assert_eq!(p("days").kind, ParamType::Integer);
        assert_eq!(p("days").r#enum, Some(vec![1.into(), 3.into(), 7.into()]));
        assert_eq!(p("tag").kind, ParamType::Array);
        assert_eq!(p("tag").items, Some(serde_json::json!({"type": "string"})));
        assert_eq!(p("verbose").kind, ParamType::Boolean);
        assert!(help.positional.is_empty());
    }

    #[test]
    fn reads_a_shell_help_block() {
        let text = "\
Usage: convert.sh [OPTIONS]

Convert a temperature between Celsius and Fahrenheit.
Prints JSON.

Options:
  --value=N      The temperature to convert (required)
  --to UNIT      Target unit: C or F
  --round        Round the result
  -h, --help     Show this help
";
        let help = parse(text).unwrap();
        assert_eq!(
            help.description.as_deref(),
            Some("Convert a temperature between Celsius and Fahrenheit. Prints JSON.")
        );
        let names: Vec<(&str, bool)> = help
            .parameters
            .iter()
            .map(|p| (p.name.as_str(), p.required))
            .collect();
        assert_eq!(names, [("value", true), ("to", false), ("round", false)]);
    }

    #[test]
    fn names_positional_arguments_and_leaves_out_introspection_flags() {
        let text = "\
usage: get.py [-h] [--fractalic-dump-schema] city

positional arguments:
  city        The city

options:
  -h, --help  show this help message and exit
  --fractalic-dump-schema
";
        let help = parse(text).unwrap();
        assert_eq!(help.positional, ["city"]);
        assert!(help.parameters.is_empty());
    }

    #[test]
    fn only_plain_flag_names_are_parameters() {
        let help =
            parse("usage: x\n  --ok-name_1  fine\n  --bad\u{c}name  odd\n  ---x  no\n").unwrap();
        let names: Vec<&str> = help.parameters.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["ok-name_1"]);
    }

    #[test]
    fn text_without_usage_or_flags_is_not_help() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("hello world\n{\"ok\": true}\n"), None);
    }
}

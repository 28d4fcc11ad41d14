//! The types `--help` does not show: for a Python script that uses argparse, discovery runs
//! the script with `ArgumentParser.parse_args` replaced by a function that prints the
//! parser's arguments as JSON and exits (Fractalic's "ArgumentParser introspection"). The
//! script runs up to its `parse_args` call, as it does for `--help`, under the same sandbox
//! and deadline. What it gives: `type=int` an integer, `type=float` a number, `store_true`
//! a boolean, `append` or `nargs="+"` an array, `choices` an enum, and the defaults.

use agx_model::manifest::{ParamType, Parameter};
use serde::Deserialize;
use serde_json::Value;

use super::help::Help;

/// Run as `python3 -c INTROSPECT SCRIPT`: prints `{"description", "arguments": [...]}` at the
/// script's first `parse_args` (or `parse_known_args`) and exits.
pub(crate) const INTROSPECT: &str = r#"
import argparse, json, os, runpy, sys
script = sys.argv[1]
def dump(self, *args, **kwargs):
    out = []
    for act in self._actions:
        if isinstance(act, (argparse._HelpAction, argparse._VersionAction)):
            continue
        if not act.option_strings:
            out.append({"positional": str(act.dest)})
            continue
        longs = [o for o in act.option_strings if o.startswith("--")]
        if not longs or act.help == argparse.SUPPRESS:
            continue
        flag = isinstance(act, (argparse._StoreTrueAction, argparse._StoreFalseAction)) or act.nargs == 0
        kind = "boolean" if flag else "integer" if act.type is int else "number" if act.type is float else "string"
        many = isinstance(act, argparse._AppendAction) or act.nargs in ("+", "*") or (isinstance(act.nargs, int) and act.nargs > 1)
        default = act.default
        if flag or default is None or default == argparse.SUPPRESS or not isinstance(default, (str, int, float, bool, list)):
            default = None
        choices = [c for c in act.choices if isinstance(c, (str, int, float))] if act.choices else None
        out.append({"flag": longs[0][2:], "type": kind, "many": many, "required": bool(act.required),
                    "help": act.help, "choices": choices, "default": default})
    sys.stdout.write(json.dumps({"description": self.description, "arguments": out}))
    sys.stdout.flush()
    os._exit(0)
argparse.ArgumentParser.parse_args = dump
argparse.ArgumentParser.parse_known_args = dump
sys.argv = [script]
runpy.run_path(script, run_name="__main__")
"#;

#[derive(Deserialize)]
struct Dump {
    description: Option<String>,
    arguments: Vec<Argument>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Argument {
    Positional {
        positional: String,
    },
    Flag {
        flag: String,
        #[serde(rename = "type")]
        kind: String,
        many: bool,
        required: bool,
        help: Option<String>,
        choices: Option<Vec<Value>>,
        default: Option<Value>,
    },
}

/// What the introspection printed, as a help text would have said it; `None` when it is not
/// the introspection's output (the script uses no argparse, or printed before it).
pub(crate) fn read(stdout: &[u8]) -> Option<Help> {
    let dump: Dump = serde_json::from_slice(stdout).ok()?;
    let mut help = Help {
        description: dump.description.filter(|d| !d.trim().is_empty()),
        ..Help::default()
    };
    for argument in dump.arguments {
        match argument {
            Argument::Positional { positional } => help.positional.push(positional),
            Argument::Flag {
                flag,
                kind,
                many,
                required,
                help: text,
                choices,
                default,
            } => {
                let element = match kind.as_str() {
                    "boolean" => ParamType::Boolean,
                    "integer" => ParamType::Integer,
                    "number" => ParamType::Number,
                    _ => ParamType::String,
                };
                let mut parameter = Parameter {
                    name: flag,
                    kind: element,
                    description: text.filter(|t| !t.trim().is_empty()),
                    required,
                    r#enum: choices.filter(|c| !c.is_empty()),
                    default,
                    items: None,
                };
                if many && element != ParamType::Boolean {
                    let mut items = serde_json::json!({ "type": element.as_str() });
                    if let Some(choices) = parameter.r#enum.take() {
                        items["enum"] = Value::Array(choices);
                    }
                    parameter.kind = ParamType::Array;
                    parameter.items = Some(items);
                }
                if !help.parameters.iter().any(|p| p.name == parameter.name) {
                    help.parameters.push(parameter);
                }
            }
        }
    }
    Some(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_types_arrays_choices_and_defaults() {
        let out = br#"{"description": "Forecast", "arguments": [
            {"flag": "lat", "type": "number", "many": false, "required": true, "help": "Latitude", "choices": null, "default": null},
            {"flag": "days", "type": "integer", "many": false, "required": false, "help": null, "choices": [1, 3], "default": 1},
            {"flag": "day", "type": "string", "many": true, "required": false, "help": "Days", "choices": null, "default": null},
            {"flag": "verbose", "type": "boolean", "many": false, "required": false, "help": "More", "choices": null, "default": null}
        ]}"#;
        let help = read(out).unwrap();
        assert_eq!(help.description.as_deref(), Some("Forecast"));
        let p = |n: &str| help.parameters.iter().find(|p| p.name == n).unwrap();
        assert_eq!(p("lat").kind, ParamType::Number);
        assert!(p("lat").required);
        assert_eq!(p("days").kind, ParamType::Integer);
        assert_eq!(p("days").default, Some(1.into()));
        assert_eq!(p("days").r#enum, Some(vec![1.into(), 3.into()]));
        assert_eq!(p("day").kind, ParamType::Array);
        assert_eq!(p("day").items, Some(serde_json::json!({"type": "string"})));
        assert_eq!(p("verbose").kind, ParamType::Boolean);
        assert!(help.positional.is_empty());
    }

    #[test]
    fn names_positionals_and_refuses_other_output() {
        let help =
            read(br#"{"description": null, "arguments": [{"positional": "city"}]}"#).unwrap();
        assert_eq!(help.positional, ["city"]);
        assert!(read(b"usage: x\n").is_none());
    }
}

//! The messages a filtered server's proxy reads from both sides
//! (`runtime::filtered::Rewriter`): from a client that may try any spelling of a hidden
//! tool, and from a server that may answer anything. Input: lines; the first byte of each
//! line says which side sent it (even: the client, odd: the server), the rest is the message
//! (JSON or not). The filter denies `delete*` tools, hides the resource `file:///secret` and
//! renames `echo` to `say`.
//!
//! Properties: nothing panics; every `tools/call` the proxy sends the server names, exactly,
//! a tool the server listed (in an answer the proxy saw) that the filter shows; every
//! `resources/read` names a listed resource or an exact expansion of a listed template, and
//! never `file:///secret`; a message the proxy sends the server is never a batch.
#![no_main]

use std::collections::HashSet;
use std::sync::Arc;

use agx_model::filter::{Filter, FilterSpec, Kind, Rules};
use agx_runtime::filtered::Rewriter;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let spec = FilterSpec {
        tools: Rules {
            deny: vec!["delete*".into()],
            rename: [("echo".to_string(), "say".to_string())].into(),
            ..Rules::default()
        },
        resources: Rules {
            deny: vec!["file:///secret".into()],
            ..Rules::default()
        },
        ..FilterSpec::default()
    };
    let filter = Arc::new(Filter::new(spec, "agx.toml").expect("a valid filter"));
    let mut rewriter = Rewriter::new(filter.clone(), "acme/x/y".into());
    let mut listed_tools: HashSet<String> = HashSet::new();
    for line in data.split(|b| *b == b'\n') {
        let Some((&side, body)) = line.split_first() else {
            continue;
        };
        let Ok(message) = serde_json::from_slice::<Value>(body) else {
            continue;
        };
        let sends = if side % 2 == 0 {
            rewriter.from_client(message)
        } else {
            // What the server lists (before the filter), whatever it was asked.
            if let Some(Value::Array(tools)) = message.pointer("/result/tools") {
                listed_tools.extend(
                    tools
                        .iter()
                        .filter_map(|t| t.get("name").and_then(Value::as_str))
                        .map(str::to_string),
                );
            }
            rewriter.from_server(message)
        };
        for sent in &sends.to_server {
            assert!(!sent.is_array(), "a batch reached the server");
            match sent.get("method").and_then(Value::as_str) {
                Some("tools/call") if sent.get("id").is_some() => {
                    let name = sent
                        .pointer("/params/name")
                        .and_then(Value::as_str)
                        .expect("a forwarded call names its tool as text");
                    assert!(listed_tools.contains(name), "unlisted tool {name:?} called");
                    assert!(filter.show(Kind::Tool, name).is_ok(), "hidden tool {name:?} called");
                }
                Some("resources/read") if sent.get("id").is_some() => {
                    let uri = sent.pointer("/params/uri").and_then(Value::as_str);
                    assert_ne!(uri, Some("file:///secret"), "the hidden resource was read");
                }
                _ => {}
            }
        }
    }
});

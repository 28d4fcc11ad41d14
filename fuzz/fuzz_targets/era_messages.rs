//! The messages `agx serve` translates between the two MCP eras in front of a filtered
//! server (`runtime::filtered::Between`, as the filtering proxy and the remote bridge run
//! it): from a client of either era (`initialize`, `_meta` era keys, retries with
//! `requestState` and `inputResponses`, `subscriptions/listen`, cancellations) and from a
//! server of either era (`server/discover` results, `input_required` answers, requests of
//! its own, tagged stream notifications). Input: lines; the first byte of each line says
//! which side sent it (even: the client, odd: the server; 0xff: the probe's time runs
//! out), the rest is the message (JSON or not).
//!
//! Properties: nothing panics (the translation keeps its own state of calls waiting for
//! input, streams and probes, whatever the two sides send); a message sent to the server
//! is never a batch.
#![no_main]

use std::sync::Arc;

use agx_model::filter::{Filter, FilterSpec, Rules};
use agx_runtime::filtered::{Between, Rewriter};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let spec = FilterSpec {
        tools: Rules {
            deny: vec!["delete*".into()],
            ..Rules::default()
        },
        ..FilterSpec::default()
    };
    let filter = Arc::new(Filter::new(spec, "agx.toml").expect("a valid filter"));
    let mut between = Between::new(Some(Rewriter::new(filter, "acme/x/y".into())));
    for line in data.split(|b| *b == b'\n') {
        let Some((&side, body)) = line.split_first() else {
            continue;
        };
        let sends = if side == 0xff {
            between.time_out()
        } else {
            let Ok(message) = serde_json::from_slice::<Value>(body) else {
                continue;
            };
            if side % 2 == 0 {
                between.from_client(message)
            } else {
                between.from_server(message)
            }
        };
        for sent in &sends.to_server {
            assert!(!sent.is_array(), "a batch reached the server");
        }
        let _ = between.reads_server_messages();
        let _ = between.deadline();
    }
});

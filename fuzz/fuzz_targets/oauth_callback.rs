//! The request the browser (or any local program) sends to `agx auth login`'s loopback
//! listener (`agx_auth::parse_callback`).
//!
//! Properties: no panic; a code is only ever taken from a GET of `/callback` on the
//! listener's own address, and its URL carries the `code` it was read from.
#![no_main]

use agx_auth::{Callback, Redirect, parse_callback};
use libfuzzer_sys::fuzz_target;

const PORT: u16 = 43117;

fuzz_target!(|data: &[u8]| {
    if let Callback::Redirect(Redirect::Code { url }) = parse_callback(data, PORT) {
        let parsed = url::Url::parse(&url).expect("a URL it built");
        assert_eq!(parsed.host_str(), Some("127.0.0.1"));
        assert_eq!(parsed.port(), Some(PORT));
        assert_eq!(parsed.path(), "/callback");
        assert!(parsed.query_pairs().any(|(k, _)| k == "code"));
        assert!(data.starts_with(b"GET /"));
    }
});

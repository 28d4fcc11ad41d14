//! The request heads agx's network proxy reads from confined programs
//! (`sandbox::proxy::parse_head`), hostile by assumption: a program under a host list may
//! send anything to reach another host.
//!
//! Property: parsing never panics; a forwarded plain request is one whole, well-formed head
//! that names exactly the host the proxy checked (one `Host`, the checked authority), carries
//! no `Proxy-*` header and ends the connection after one request.
#![no_main]

use agx_sandbox::proxy::{Head, parse_head};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Head::Complete(Ok(request)) = parse_head(data) else {
        return;
    };
    assert!(!request.host.is_empty());
    let Some(forward) = request.forward else {
        return;
    };
    let mut headers = [httparse::EMPTY_HEADER; 80];
    let mut parsed = httparse::Request::new(&mut headers);
    let status = parsed.parse(&forward).expect("the forwarded head parses");
    assert_eq!(
        status,
        httparse::Status::Complete(forward.len()),
        "one whole head"
    );
    let hosts: Vec<&[u8]> = parsed
        .headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("host"))
        .map(|h| h.value)
        .collect();
    assert_eq!(hosts.len(), 1, "exactly one Host");
    let host = String::from_utf8_lossy(hosts[0]).to_ascii_lowercase();
    let checked = request.host.to_ascii_lowercase();
    assert!(
        host == checked
            || host.starts_with(&format!("{checked}:"))
            || host.starts_with(&format!("[{checked}]")),
        "Host {host} is not the checked {checked}"
    );
    assert!(
        !parsed
            .headers
            .iter()
            .any(|h| h.name.to_ascii_lowercase().starts_with("proxy-")),
        "a Proxy-* header is forwarded"
    );
    assert!(forward.ends_with(b"Connection: close\r\n\r\n"));
});

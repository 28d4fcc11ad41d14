//! The loopback HTTP(S) proxy agx runs for programs whose network is `"loopback"` or a host
//! list (docs/sandbox.md, "Network"): they get it as `HTTP(S)_PROXY`, Landlock lets them
//! connect to its port only, and it opens a tunnel (`CONNECT host:port`) or forwards a plain
//! `http://` request only to a destination their permissions name. A refused destination
//! gets `403` and a line in the log.
//!
//! One proxy per distinct network policy, started on first need in a thread of its own (so
//! it serves whatever the caller does: a tool run in `agx serve`, `agx call`, or a wrapped
//! server that agx waits for), and living as long as the process.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, OnceLock};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::Network;
use super::permissions::{host_problem, split_port};

/// The largest request head the proxy reads (request line and headers).
const MAX_HEAD: usize = 16 * 1024;
/// Headers a request may carry; more is refused as a bad request.
const MAX_HEADERS: usize = 64;
/// How long a connection may take to send its request head before the proxy drops it.
const HEAD_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Where a confined program may connect through the proxy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Policy {
    /// Only destinations that resolve to this machine's loopback addresses.
    Loopback,
    /// Only these hosts (as written in the permissions).
    Hosts(Vec<HostRule>),
}

/// One entry of a host list: `name`, `*.domain` or an address, with an optional port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRule {
    host: RuleHost,
    port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum RuleHost {
    /// A host name, lower case without a trailing dot.
    Name(String),
    /// `*.domain`: any name under `domain` (not `domain` itself).
    Under(String),
    Address(IpAddr),
}

impl HostRule {
    /// The rule a validated `network` entry stands for (`None` for one validation refuses).
    pub fn parse(entry: &str) -> Option<HostRule> {
        let (name, port) = split_port(entry).ok()?;
        let host = match name.trim_matches(['[', ']']).parse::<IpAddr>() {
            Ok(address) => RuleHost::Address(address),
            Err(_) => match name.strip_prefix("*.") {
                Some(domain) => RuleHost::Under(normal_name(domain)),
                None => RuleHost::Name(normal_name(name)),
            },
        };
        Some(HostRule { host, port })
    }

    fn admits(&self, host: &Destination, port: u16) -> bool {
        let host_matches = match (&self.host, host) {
            (RuleHost::Address(rule), Destination::Address(address)) => rule == address,
            (RuleHost::Name(rule), Destination::Name(name)) => rule == name,
            (RuleHost::Under(domain), Destination::Name(name)) => name
                .strip_suffix(domain.as_str())
                .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
            _ => false,
        };
        host_matches && self.port.is_none_or(|p| p == port)
    }
}

/// A requested host: a name (lower case, no trailing dot) or an address.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Destination {
    Name(String),
    Address(IpAddr),
}

impl Destination {
    fn parse(host: &str) -> Destination {
        let bare = host.trim_matches(['[', ']']);
        match bare.parse::<IpAddr>() {
            Ok(address) => Destination::Address(address),
            Err(_) => Destination::Name(normal_name(bare)),
        }
    }
}

fn normal_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

impl Policy {
    /// The proxy's policy for `network`; `None` for `"none"` and `"any"`, which need none.
    pub fn of(network: &Network) -> Option<Policy> {
        match network {
            Network::Loopback => Some(Policy::Loopback),
            Network::Hosts(hosts) => Some(Policy::Hosts(
                hosts.iter().filter_map(|h| HostRule::parse(h)).collect(),
            )),
            Network::None | Network::Any => None,
        }
    }

    /// Whether `host:port` may be asked for at all (before resolving it).
    fn admits_name(&self, host: &Destination, port: u16) -> bool {
        match self {
            Policy::Loopback => true,
            Policy::Hosts(rules) => rules.iter().any(|r| r.admits(host, port)),
        }
    }

    /// Of the addresses `host:port` resolved to, those the program may reach; empty when the
    /// destination is refused.
    pub fn reachable(&self, host: &str, port: u16, resolved: &[SocketAddr]) -> Vec<SocketAddr> {
        if !self.admits_name(&Destination::parse(host), port) {
            return Vec::new();
        }
        match self {
            Policy::Loopback => resolved
                .iter()
                .filter(|a| a.ip().is_loopback() || is_mapped_loopback(a.ip()))
                .copied()
                .collect(),
            Policy::Hosts(_) => resolved.to_vec(),
        }
    }

    fn describe(&self, network: &Network) -> String {
        match self {
            Policy::Loopback => "network \"loopback\" reaches this machine only".into(),
            Policy::Hosts(_) => format!("network allows {network} only"),
        }
    }
}

fn is_mapped_loopback(ip: IpAddr) -> bool {
    matches!(ip, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()))
}

/// The variables that point a program at the proxy at `address`: both cases of the
/// `*_PROXY` names (tools read one or the other), an empty `NO_PROXY` (so nothing bypasses
/// it), and `NODE_USE_ENV_PROXY` for Node's built-in `fetch` (Node 24 and later).
pub fn environment(address: SocketAddr) -> Vec<(&'static str, String)> {
    let url = format!("http://{address}");
    let mut vars: Vec<(&'static str, String)> = [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ]
    .into_iter()
    .map(|name| (name, url.clone()))
    .collect();
    vars.extend([
        ("NO_PROXY", String::new()),
        ("no_proxy", String::new()),
        ("NODE_USE_ENV_PROXY", "1".into()),
    ]);
    vars
}

/// The proxies started in this process, by the network they serve.
static RUNNING: Mutex<Vec<(Network, SocketAddr)>> = Mutex::new(Vec::new());
/// The thread the proxies run on.
static RUNTIME: OnceLock<tokio::runtime::Handle> = OnceLock::new();

/// The address of the proxy for `network`, started on first need; `None` for a network
/// that needs none (`"none"`, `"any"`).
pub fn address_for(network: &Network) -> std::io::Result<Option<SocketAddr>> {
    let Some(policy) = Policy::of(network) else {
        return Ok(None);
    };
    let mut running = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, address)) = running.iter().find(|(n, _)| n == network) {
        return Ok(Some(*address));
    }
    let listener = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))?;
    listener.set_nonblocking(true)?;
    let address = listener.local_addr()?;
    let described = policy.describe(network);
    runtime()?.spawn(async move {
        match TcpListener::from_std(listener) {
            Ok(listener) => serve(listener, policy, described).await,
            Err(e) => tracing::warn!("the network proxy at {address} cannot listen: {e}"),
        }
    });
    tracing::debug!("network proxy for `{network}` at {address}");
    running.push((network.clone(), address));
    Ok(Some(address))
}

fn runtime() -> std::io::Result<&'static tokio::runtime::Handle> {
    if let Some(handle) = RUNTIME.get() {
        return Ok(handle);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let handle = rt.handle().clone();
    std::thread::Builder::new()
        .name("agx-proxy".into())
        .spawn(move || rt.block_on(std::future::pending::<()>()))?;
    // Called under `RUNNING`'s lock: no other thread sets it meanwhile.
    Ok(RUNTIME.get_or_init(|| handle))
}

/// Accept connections until the process ends; each is served on its own.
async fn serve(listener: TcpListener, policy: Policy, described: String) {
    let policy = std::sync::Arc::new((policy, described));
    loop {
        let Ok((client, _)) = listener.accept().await else {
            // Out of descriptors, most likely: wait for some to close rather than spin.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            continue;
        };
        let policy = policy.clone();
        tokio::spawn(async move {
            let (policy, described) = &*policy;
            let _ = handle(client, policy, described).await;
        });
    }
}

/// A parsed request head: where it goes, and for a plain request the head to send there.
#[derive(Debug)]
pub struct Request {
    pub host: String,
    pub port: u16,
    /// `None` for CONNECT; else the request rewritten to origin form.
    pub forward: Option<Vec<u8>>,
    /// Bytes the client sent after the head (the start of a body, or of TLS).
    pub rest: Vec<u8>,
}

/// What the bytes a client sent so far hold.
#[derive(Debug)]
pub enum Head {
    /// Not a whole request head yet.
    Partial,
    /// A whole head: the request, or why the proxy does not serve it.
    Complete(Result<Request, String>),
}

/// Parse the start of what a confined program sent the proxy (hostile input: a program
/// under a host list may try anything to reach another host).
pub fn parse_head(buf: &[u8]) -> Head {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(buf) {
        Ok(httparse::Status::Complete(len)) => {
            Head::Complete(request_of(&parsed, buf[len..].to_vec()))
        }
        Ok(httparse::Status::Partial) if buf.len() < MAX_HEAD => Head::Partial,
        Ok(httparse::Status::Partial) => {
            Head::Complete(Err(format!("request head longer than {MAX_HEAD} bytes")))
        }
        Err(e) => Head::Complete(Err(format!("bad request: {e}"))),
    }
}

async fn handle(mut client: TcpStream, policy: &Policy, described: &str) -> std::io::Result<()> {
    let Ok(head) = tokio::time::timeout(HEAD_WAIT, read_request(&mut client)).await else {
        return Ok(());
    };
    let request = match head? {
        Ok(r) => r,
        Err(problem) => {
            return reply(&mut client, "400 Bad Request", &format!("{problem}\n")).await;
        }
    };
    let target = format!("{}:{}", request.host, request.port);
    // A name the list does not hold is refused before agx looks it up.
    if !policy.admits_name(&Destination::parse(&request.host), request.port) {
        return refuse(&mut client, &target, described).await;
    }
    let resolved: Vec<SocketAddr> = match tokio::net::lookup_host(&target).await {
        Ok(found) => found.collect(),
        Err(e) => {
            let message = format!("agx: cannot resolve {target}: {e}\n");
            return reply(&mut client, "502 Bad Gateway", &message).await;
        }
    };
    let reachable = policy.reachable(&request.host, request.port, &resolved);
    if reachable.is_empty() {
        return refuse(&mut client, &target, described).await;
    }
    let mut upstream = match TcpStream::connect(&reachable[..]).await {
        Ok(s) => s,
        Err(e) => {
            let message = format!("agx: cannot connect to {target}: {e}\n");
            return reply(&mut client, "502 Bad Gateway", &message).await;
        }
    };
    match &request.forward {
        None => {
            client
                .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                .await?
        }
        Some(head) => upstream.write_all(head).await?,
    }
    upstream.write_all(&request.rest).await?;
    tokio::io::copy_bidirectional(&mut client, &mut upstream).await?;
    Ok(())
}

/// Read the request head: `Ok(Err(problem))` for a request the proxy does not serve.
async fn read_request(client: &mut TcpStream) -> std::io::Result<Result<Request, String>> {
    let mut buf = Vec::with_capacity(1024);
    loop {
        let mut chunk = [0u8; 4096];
        let n = client.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Head::Complete(request) = parse_head(&buf) {
            return Ok(request);
        }
    }
}

/// Where a complete request goes: `CONNECT host:port`, or an absolute `http://` URI.
fn request_of(parsed: &httparse::Request, rest: Vec<u8>) -> Result<Request, String> {
    let (Some(method), Some(target)) = (parsed.method, parsed.path) else {
        return Err("bad request".into());
    };
    if method.eq_ignore_ascii_case("CONNECT") {
        // A name or an address, not a pattern (`*.x`) nor what only looks like one (`]`).
        let (host, port) = match split_port(target) {
            Ok((host, Some(port))) if host_problem(target).is_none() && !host.starts_with('*') => {
                (host, port)
            }
            _ => return Err(format!("CONNECT needs host:port, not `{target}`")),
        };
        return Ok(Request {
            host: host.trim_matches(['[', ']']).to_string(),
            port,
            forward: None,
            rest,
        });
    }
    let url = url::Url::parse(target)
        .ok()
        .filter(|u| u.scheme() == "http")
        .ok_or_else(|| {
            format!("the proxy forwards `http://` URLs and CONNECT tunnels, not `{target}`")
        })?;
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return Err(format!("`{target}` names no host"));
    };
    let mut path = url.path().to_string();
    if let Some(query) = url.query() {
        path = format!("{path}?{query}");
    }
    // One request per connection: the next may be for another host.
    let version = parsed.version.unwrap_or(1);
    let mut head = format!("{method} {path} HTTP/1.{version}\r\n").into_bytes();
    // The host that was checked is the one named: a client's own `Host` (another site on
    // the same server) is replaced.
    let authority = &url[url::Position::BeforeHost..url::Position::AfterPort];
    head.extend_from_slice(format!("Host: {authority}\r\n").as_bytes());
    for header in parsed.headers.iter() {
        let name = header.name.to_ascii_lowercase();
        if name.starts_with("proxy-")
            || name == "connection"
            || name == "keep-alive"
            || name == "host"
        {
            continue;
        }
        head.extend_from_slice(header.name.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(header.value);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"Connection: close\r\n\r\n");
    Ok(Request {
        host: host.trim_matches(['[', ']']).to_string(),
        port,
        forward: Some(head),
        rest,
    })
}

/// Answer `403` for a destination the permissions do not name, and say so in the log.
async fn refuse(client: &mut TcpStream, target: &str, described: &str) -> std::io::Result<()> {
    tracing::warn!("network: refused {target}: {described} (docs/sandbox.md)");
    let message =
        format!("agx: {target} is not in this server's network permissions: {described}\n");
    reply(client, "403 Forbidden", &message).await
}

async fn reply(client: &mut TcpStream, status: &str, body: &str) -> std::io::Result<()> {
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    client.write_all(response.as_bytes()).await?;
    client.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(list: &[&str]) -> Policy {
        Policy::of(&Network::Hosts(
            list.iter().map(|h| h.to_string()).collect(),
        ))
        .unwrap()
    }

    fn addr(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    #[test]
    fn host_lists_admit_names_wildcards_and_addresses_with_their_ports() {
        let policy = hosts(&[
            "api.example.org",
            "*.tiles.example:443",
            "127.0.0.1:8080",
            "::1",
        ]);
        let somewhere = [addr("192.0.2.1:443")];
        let admitted = |host: &str, port: u16| !policy.reachable(host, port, &somewhere).is_empty();
        assert!(admitted("api.example.org", 443));
        assert!(admitted("API.Example.org.", 80));
        assert!(!admitted("example.org", 443));
        assert!(!admitted("evil-api.example.org", 443));
        assert!(admitted("a.tiles.example", 443));
        assert!(admitted("a.b.tiles.example", 443));
        assert!(!admitted("a.tiles.example", 80));
        assert!(!admitted("tiles.example", 443));
        assert!(!admitted("xtiles.example", 443));
        assert!(admitted("127.0.0.1", 8080));
        assert!(!admitted("127.0.0.1", 8081));
        assert!(!admitted("localhost", 8080));
        assert!(admitted("::1", 9));
        assert!(admitted("[::1]", 9));
    }

    #[test]
    fn loopback_admits_only_what_resolves_to_this_machine() {
        let policy = Policy::of(&Network::Loopback).unwrap();
        assert_eq!(
            policy.reachable("localhost", 80, &[addr("127.0.0.1:80"), addr("[::1]:80")]),
            [addr("127.0.0.1:80"), addr("[::1]:80")]
        );
        assert_eq!(
            policy.reachable("127.0.0.2", 80, &[addr("127.0.0.2:80")]),
            [addr("127.0.0.2:80")]
        );
        assert_eq!(
            policy.reachable(
                "mixed.example",
                80,
                &[addr("192.0.2.1:80"), addr("127.0.0.1:80")]
            ),
            [addr("127.0.0.1:80")]
        );
        assert!(
            policy
                .reachable("example.org", 80, &[addr("192.0.2.1:80")])
                .is_empty()
        );
        assert!(policy.reachable("nowhere", 80, &[]).is_empty());
        assert!(Policy::of(&Network::Any).is_none());
        assert!(Policy::of(&Network::None).is_none());
    }

    fn parse(head: &str) -> Result<Request, String> {
        match parse_head(head.as_bytes()) {
            Head::Complete(request) => request,
            Head::Partial => panic!("a partial head: {head:?}"),
        }
    }

    #[test]
    fn requests_name_their_destination_and_plain_ones_go_out_in_origin_form() {
        let tunnel = parse("CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n").unwrap();
        assert_eq!(
            (tunnel.host.as_str(), tunnel.port, tunnel.forward),
            ("::1", 443, None)
        );
        let plain = parse(
            "GET http://Example.org/a?b=1 HTTP/1.1\r\nHost: example.org\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\n",
        )
        .unwrap();
        assert_eq!((plain.host.as_str(), plain.port), ("example.org", 80));
        assert_eq!(
            String::from_utf8(plain.forward.unwrap()).unwrap(),
            "GET /a?b=1 HTTP/1.1\r\nHost: example.org\r\nAccept: */*\r\nConnection: close\r\n\r\n"
        );
        assert!(
            parse("GET /a HTTP/1.1\r\n\r\n")
                .unwrap_err()
                .contains("http://")
        );
        assert!(parse("CONNECT example.org HTTP/1.1\r\n\r\n").is_err());
        // Found by fuzz/fuzz_targets/proxy_request.rs: a CONNECT to no host at all.
        for bad in ["]:8443", "[]:443", "*.example.org:443", "a b:1"] {
            assert!(
                parse(&format!("CONNECT {bad} HTTP/1.1\r\n\r\n")).is_err(),
                "{bad}"
            );
        }
        let fronted =
            parse("GET http://example.org/ HTTP/1.1\r\nHost: other.example\r\n\r\n").unwrap();
        assert_eq!(
            String::from_utf8(fronted.forward.unwrap()).unwrap(),
            "GET / HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n",
            "the Host the client names is replaced by the one checked"
        );
        let bare = parse("GET http://[::1]:8080/ HTTP/1.0\r\n\r\n").unwrap();
        assert_eq!(
            String::from_utf8(bare.forward.unwrap()).unwrap(),
            "GET / HTTP/1.0\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n"
        );
    }

    /// A real round trip: the proxy forwards to an allowed loopback server and refuses
    /// another port with 403.
    #[tokio::test]
    async fn the_proxy_forwards_what_is_allowed_and_refuses_the_rest() {
        let origin = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin_port = origin.local_addr().unwrap().port();
        tokio::spawn(async move {
            let (mut s, _) = origin.accept().await.unwrap();
            let mut buf = vec![0u8; 1024];
            let n = s.read(&mut buf).await.unwrap();
            assert!(buf[..n].starts_with(b"GET /x HTTP/1.1\r\n"));
            s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                .await
                .unwrap();
        });
        let network = Network::Hosts(vec![format!("127.0.0.1:{origin_port}")]);
        let proxy = address_for(&network).unwrap().unwrap();
        assert_eq!(
            address_for(&network).unwrap(),
            Some(proxy),
            "one proxy per policy"
        );
        let ask = |request: String| async move {
            let mut s = TcpStream::connect(proxy).await.unwrap();
            s.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            s.read_to_string(&mut answer).await.unwrap();
            answer
        };
        let allowed = ask(format!(
            "GET http://127.0.0.1:{origin_port}/x HTTP/1.1\r\nHost: x\r\n\r\n"
        ))
        .await;
        assert!(
            allowed.starts_with("HTTP/1.1 200 OK") && allowed.ends_with("ok"),
            "{allowed}"
        );
        let other = origin_port.wrapping_add(1);
        let refused = ask(format!("CONNECT 127.0.0.1:{other} HTTP/1.1\r\n\r\n")).await;
        assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
        assert!(refused.contains(&format!("127.0.0.1:{other}")), "{refused}");
    }
}

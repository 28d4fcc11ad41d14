//! A client of the MCP Registry REST API: `GET {base}/v0.1/servers` page by page (following
//! `metadata.nextCursor`) and `GET {base}/v0.1/servers/{name}/versions/{version}`. Every
//! answer goes through the same HTTP layer and cache as agx indexes (deadlines, size caps,
//! conditional requests, `--offline`).

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::cache::answer_path;
use super::server_json::ServerJson;
use crate::index::cache::{CachedRemote, IndexCache};
use crate::index::http::{Http, Limits};
use crate::index::{HttpSettings, IndexError};
use agx_core::paths::AgxPaths;

/// Servers asked for per page (the API's `limit`).
pub const PAGE_SIZE: usize = 100;

/// The most pages one listing follows: 100,000 servers at [`PAGE_SIZE`], ten times the
/// official registry today. A registry that pages on past it is broken.
pub const MAX_PAGES: usize = 1000;

/// A server's lifecycle in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    #[default]
    Active,
    Deprecated,
    Deleted,
}

/// One server as the registry lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryServer {
    pub server: ServerJson,
    pub status: Status,
    /// Why it is deprecated (or deleted), when the registry says.
    pub status_message: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ServerList {
    servers: Vec<ServerResponse>,
    #[serde(default)]
    metadata: ListMetadata,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ListMetadata {
    #[serde(default)]
    next_cursor: Option<String>,
}

/// One entry of an answer. The server document is kept as raw text and parsed on its own, so
/// that one bad entry does not hide the rest of a page, without building a `Value` tree of
/// every document first (listing a large registry is mostly this parsing).
#[derive(Debug, Deserialize)]
struct ServerResponse {
    server: Box<RawValue>,
    #[serde(rename = "_meta", default)]
    meta: ResponseMeta,
}

/// The registry's metadata of an entry; other publishers' keys are skipped unread.
#[derive(Debug, Deserialize, Default)]
struct ResponseMeta {
    #[serde(rename = "io.modelcontextprotocol.registry/official", default)]
    official: Option<Box<RawValue>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct OfficialMeta {
    #[serde(default)]
    status: Status,
    #[serde(default)]
    status_message: Option<String>,
}

impl ServerResponse {
    /// The entry's `name`, when it has one as text: to say which entry is skipped.
    fn name(&self) -> Option<String> {
        #[derive(Deserialize)]
        struct Named {
            name: String,
        }
        serde_json::from_str::<Named>(self.server.get())
            .ok()
            .map(|n| n.name)
    }

    /// The server with its status; `location` names the answer in errors.
    fn into_server(self, location: &str) -> Result<RegistryServer, IndexError> {
        let server: ServerJson =
            serde_json::from_str(self.server.get()).map_err(|e| IndexError::Parse {
                location: location.to_string(),
                message: format!("a server entry is not valid server.json: {e}"),
            })?;
        server.check(location)?;
        let official: OfficialMeta = self
            .meta
            .official
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or_default();
        Ok(RegistryServer {
            server,
            status: official.status,
            status_message: official.status_message,
        })
    }
}

/// An MCP registry at a base URL, read through agx's cache.
#[derive(Debug)]
pub struct McpRegistry {
    base: String,
    remote: CachedRemote,
    offline: bool,
}

impl McpRegistry {
    /// The registry at `base` (an `http(s)://` URL without a trailing slash), with HTTP
    /// settings and limits from the environment.
    pub fn new(base: &str, offline: bool, paths: &AgxPaths) -> Result<McpRegistry, IndexError> {
        let http = Http::new(HttpSettings::from_env()?, Limits::from_env()?);
        http.offer_login(base, None, paths);
        Ok(McpRegistry {
            base: base.trim_end_matches('/').to_string(),
            remote: CachedRemote::new(http, IndexCache::new(&paths.cache_dir, base)),
            offline,
        })
    }

    /// Name the configured source, whose `AGX_TOKEN__<SOURCE>` is then a credential for it.
    pub fn named(self, source: Option<&str>, paths: &AgxPaths) -> Self {
        if source.is_some() {
            self.remote.http.offer_login(&self.base, source, paths);
        }
        self
    }

    /// The base URL, for messages.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Whether answers come from the cache only (`--offline`).
    pub fn is_offline(&self) -> bool {
        self.offline
    }

    /// The registry's cache folder, for what discovery derives from its answers.
    pub(super) fn cache(&self) -> &IndexCache {
        &self.remote.cache
    }

    /// Every server's latest version matching `search` (the API's name substring filter;
    /// `None` lists all), handed to `each` one page at a time so memory holds one page.
    /// Deleted servers are never handed on. A page cursor seen twice, or more than
    /// [`MAX_PAGES`] pages, is an error.
    pub fn for_each_page(
        &self,
        search: Option<&str>,
        mut each: impl FnMut(Vec<RegistryServer>) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let mut seen = HashSet::new();
        // A name listed twice (on one page or across pages) keeps its first entry: every
        // entry is filed under the name it carries, and a later one cannot displace it.
        let mut names = HashSet::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let url = self.list_url(search, cursor.as_deref());
            let page = self
                .remote
                .get(&url, &answer_path(&url), self.offline, parse_list)?
                .ok_or_else(|| IndexError::NotFound { url: url.clone() })?;
            let mut servers = Vec::with_capacity(page.servers.len());
            for response in page.servers {
                let location = match response.name() {
                    Some(name) => format!("the entry `{name}` of {url}"),
                    None => format!("an entry without a name of {url}"),
                };
                match response.into_server(&location) {
                    Ok(server) if server.status == Status::Deleted => {}
                    Ok(server) if !names.insert(server.server.name.clone()) => {
                        tracing::warn!(
                            "skipping a second entry for {} listed by {url}",
                            server.server.name
                        );
                    }
                    Ok(server) => servers.push(server),
                    // One bad entry must not hide the rest of the registry.
                    Err(e) => tracing::warn!("skipped {e}"),
                }
            }
            each(servers)?;
            match page.metadata.next_cursor.filter(|c| !c.is_empty()) {
                None => return Ok(()),
                Some(next) => {
                    if !seen.insert(next.clone()) {
                        return Err(IndexError::CursorLoop {
                            registry: self.base.clone(),
                            cursor: next,
                        });
                    }
                    cursor = Some(next);
                }
            }
        }
        Err(IndexError::TooManyPages {
            registry: self.base.clone(),
            pages: MAX_PAGES,
        })
    }

    /// One server at `version` (`None`: its latest). A deleted one is an error.
    pub fn server(&self, name: &str, version: Option<&str>) -> Result<RegistryServer, IndexError> {
        let mut url = self.endpoint();
        url.path_segments_mut()
            .expect("http(s) URLs have paths")
            .extend(["servers", name, "versions", version.unwrap_or("latest")]);
        let url = url.to_string();
        let server = self
            .remote
            .get(&url, &answer_path(&url), self.offline, parse_server_answer)?
            .ok_or_else(|| IndexError::ServerNotFound {
                name: name.to_string(),
                registry: self.base.clone(),
            })?;
        check_answer_matches(&server.server, name, version, &url)?;
        if server.status == Status::Deleted {
            return Err(IndexError::ServerDeleted {
                name: name.to_string(),
                registry: self.base.clone(),
            });
        }
        Ok(server)
    }

    /// `{base}/v0.1`.
    fn endpoint(&self) -> reqwest::Url {
        let mut url = reqwest::Url::parse(&self.base).expect("the base URL was parsed before");
        url.path_segments_mut()
            .expect("http(s) URLs have paths")
            .pop_if_empty()
            .push("v0.1");
        url
    }

    fn list_url(&self, search: Option<&str>, cursor: Option<&str>) -> String {
        let mut url = self.endpoint();
        url.path_segments_mut()
            .expect("http(s) URLs have paths")
            .push("servers");
        {
            let mut query = url.query_pairs_mut();
            query.append_pair("limit", &PAGE_SIZE.to_string());
            query.append_pair("version", "latest");
            if let Some(search) = search.filter(|s| !s.is_empty()) {
                query.append_pair("search", search);
            }
            if let Some(cursor) = cursor {
                query.append_pair("cursor", cursor);
            }
        }
        url.to_string()
    }
}

/// An answer for server `name` (at `version`, unless the latest was asked for) must describe
/// that server at that version: the name of the answer is what gets installed, so an answer
/// carrying another name would install, or replace, a server nobody asked for.
pub fn check_answer_matches(
    answer: &ServerJson,
    name: &str,
    version: Option<&str>,
    url: &str,
) -> Result<(), IndexError> {
    let version = version.filter(|v| *v != "latest");
    let name_matches = answer.name == name;
    let version_matches = version.is_none_or(|v| answer.version == v);
    if name_matches && version_matches {
        return Ok(());
    }
    Err(IndexError::AnswerMismatch {
        url: url.to_string(),
        asked: match version {
            Some(v) => format!("{name} {v}"),
            None => name.to_string(),
        },
        answered_name: answer.name.clone(),
        answered_version: answer.version.clone(),
    })
}

/// One server's answer (`GET …/servers/{name}/versions/{version}`), checked as a document;
/// whether it is the server asked for is [`check_answer_matches`]'s to say.
pub fn parse_server_answer(body: &[u8], location: &str) -> Result<RegistryServer, IndexError> {
    let response: ServerResponse = parse_json(body, location)?;
    response.into_server(location)
}

/// One page of a listing, each entry parsed on its own (one bad entry does not hide the rest).
pub struct Page {
    pub servers: Vec<Result<RegistryServer, IndexError>>,
    pub next_cursor: Option<String>,
}

/// Parse one page of a listing.
pub fn parse_page(body: &[u8], location: &str) -> Result<Page, IndexError> {
    let page = parse_list(body, location)?;
    let servers = page
        .servers
        .into_iter()
        .map(|response| response.into_server(location))
        .collect();
    Ok(Page {
        servers,
        next_cursor: page.metadata.next_cursor,
    })
}

fn parse_list(body: &[u8], location: &str) -> Result<ServerList, IndexError> {
    parse_json(body, location)
}

/// Parse an API answer; an HTML page (a login wall, a web site, an error page) is named as
/// such rather than as a JSON syntax error.
fn parse_json<T: serde::de::DeserializeOwned>(
    body: &[u8],
    location: &str,
) -> Result<T, IndexError> {
    if body.trim_ascii_start().starts_with(b"<") {
        return Err(IndexError::McpHtml {
            url: location.to_string(),
        });
    }
    serde_json::from_slice(body).map_err(|e| IndexError::Parse {
        location: location.to_string(),
        message: format!("not an MCP Registry API answer: {e}"),
    })
}

/// Whether `base` answers the MCP Registry API (`GET {base}/v0.1/servers?limit=1` with a
/// server list). Used to detect a registry's kind.
pub fn answers_api(http: &Http, base: &str) -> Result<bool, IndexError> {
    let url = format!("{}/v0.1/servers?limit=1", base.trim_end_matches('/'));
    match http.fetch(&url, &Default::default()) {
        Ok(crate::index::http::Fetched::Fresh { body, .. }) => {
            Ok(parse_json::<ServerList>(&body, &url).is_ok())
        }
        Ok(crate::index::http::Fetched::NotModified) => Ok(false),
        Err(IndexError::NotFound { .. } | IndexError::Status { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_encode_names_and_cursors() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().to_path_buf(), true);
        let registry = McpRegistry::new("http://127.0.0.1:9/base/", true, &paths).unwrap();
        assert_eq!(
            registry.list_url(Some("we ather"), Some("a/b&c")),
            "http://127.0.0.1:9/base/v0.1/servers?limit=100&version=latest&search=we+ather&cursor=a%2Fb%26c"
        );
        let mut url = registry.endpoint();
        url.path_segments_mut().unwrap().extend([
            "servers",
            "io.github.user/weather",
            "versions",
            "1.0.0+b1",
        ]);
        assert_eq!(
            url.as_str(),
            "http://127.0.0.1:9/base/v0.1/servers/io.github.user%2Fweather/versions/1.0.0+b1"
        );
    }

    #[test]
    fn html_and_bad_json_are_named() {
        let err = parse_list(b"  <!doctype html><p>hi", "http://x/v0.1/servers").unwrap_err();
        assert!(matches!(err, IndexError::McpHtml { .. }), "{err}");
        let err = parse_list(b"{\"servers\": 3}", "http://x/v0.1/servers").unwrap_err();
        assert!(err.to_string().contains("http://x/v0.1/servers"), "{err}");
    }

    fn server_json(name: &str, version: &str) -> ServerJson {
        serde_json::from_value(serde_json::json!({
            "name": name, "description": "d", "version": version
        }))
        .unwrap()
    }

    #[test]
    fn an_answer_must_describe_the_server_asked_for() {
        let url = "http://127.0.0.1:9/v0.1/servers/io.evil%2Finnocent/versions/latest";
        let answer = server_json("io.victim/tool", "9.0.0");
        let err = check_answer_matches(&answer, "io.evil/innocent", None, url).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("io.victim/tool 9.0.0"), "{message}");
        assert!(
            message.contains("io.evil/innocent was asked for"),
            "{message}"
        );
        // The version too, when one was asked for; `latest` accepts any.
        let answer = server_json("io.victim/tool", "9.0.0");
        let err = check_answer_matches(&answer, "io.victim/tool", Some("1.0.0"), url).unwrap_err();
        assert!(
            err.to_string()
                .contains("io.victim/tool 1.0.0 was asked for"),
            "{err}"
        );
        check_answer_matches(&answer, "io.victim/tool", Some("9.0.0"), url).unwrap();
        check_answer_matches(&answer, "io.victim/tool", Some("latest"), url).unwrap();
        check_answer_matches(&answer, "io.victim/tool", None, url).unwrap();
        // Names are compared exactly: no case folding that could alias another publisher.
        assert!(check_answer_matches(&answer, "io.Victim/tool", None, url).is_err());
    }

    #[test]
    fn status_comes_from_the_official_meta() {
        let response: ServerResponse = serde_json::from_str(
            r#"{"server": {"name": "io.github.a/b", "description": "d", "version": "1.0.0"},
                "_meta": {"io.modelcontextprotocol.registry/official":
                          {"status": "deprecated", "statusMessage": "use io.github.a/c", "isLatest": true}}}"#,
        )
        .unwrap();
        let server = response.into_server("x").unwrap();
        assert_eq!(server.status, Status::Deprecated);
        assert_eq!(server.status_message.as_deref(), Some("use io.github.a/c"));
    }
}

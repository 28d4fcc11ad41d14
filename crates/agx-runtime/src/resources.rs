//! `resources/list`, `resources/templates/list` and `resources/read`: a server's resources,
//! their content read from a package file or printed by a command (docs/serve.md).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::assemble::ExposedResource;
use super::process::{self, Ending, RunSpec};
use agx_model::manifest::package_file::{self, ReadProblem};
use agx_model::manifest::uri_template::UriTemplate;
use agx_model::manifest::{RESOURCE_FILE_CAP, ResourceAddress, ResourceSource, resolve_program};

/// Entries per page of `resources/list` and `resources/templates/list`.
pub(crate) const PAGE_SIZE: usize = 100;

/// Reads that run at once; later ones wait their turn. Each may hold up to
/// [`RESOURCE_FILE_CAP`] (8 MiB) and its base64 and JSON copies, so this bounds the memory
/// a client's burst of reads takes.
pub(crate) const CONCURRENT_READS: usize = 4;

/// The resources of one server, indexed for reads.
pub struct ServedResources {
    resources: Vec<ExposedResource>,
    /// Static URI → index into `resources`.
    by_uri: HashMap<String, usize>,
    /// Parsed templates with the index of their resource, in server order.
    templates: Vec<(UriTemplate, usize)>,
    resource_list: Vec<Resource>,
    template_list: Vec<ResourceTemplate>,
    /// [`CONCURRENT_READS`] permits.
    reads: tokio::sync::Semaphore,
}

impl ServedResources {
    pub fn new(resources: Vec<ExposedResource>) -> ServedResources {
        let mut by_uri = HashMap::new();
        let mut templates = Vec::new();
        let mut resource_list = Vec::new();
        let mut template_list = Vec::new();
        for (i, r) in resources.iter().enumerate() {
            match &r.def.address {
                ResourceAddress::Uri(uri) => {
                    by_uri.insert(uri.clone(), i);
                    resource_list.push(list_entry(r, uri));
                }
                ResourceAddress::UriTemplate(text) => {
                    // Validation parsed it before the package was installed.
                    if let Ok(t) = UriTemplate::parse(text) {
                        templates.push((t, i));
                    }
                    template_list.push(template_entry(r, text));
                }
            }
        }
        ServedResources {
            resources,
            by_uri,
            templates,
            resource_list,
            template_list,
            reads: tokio::sync::Semaphore::new(CONCURRENT_READS),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    /// One page of `resources/list`.
    pub fn list(&self, cursor: Option<&str>) -> Result<(Vec<Resource>, Option<String>), ErrorData> {
        page(&self.resource_list, cursor)
    }

    /// One page of `resources/templates/list`.
    pub fn templates(
        &self,
        cursor: Option<&str>,
    ) -> Result<(Vec<ResourceTemplate>, Option<String>), ErrorData> {
        page(&self.template_list, cursor)
    }

    /// The resource a URI names, with the template variables it was read with.
    fn find(&self, uri: &str) -> Result<(&ExposedResource, Map<String, Value>), ErrorData> {
        if let Some(&i) = self.by_uri.get(uri) {
            return Ok((&self.resources[i], Map::new()));
        }
        for (template, i) in &self.templates {
            if let Some(values) = template.matches(uri) {
                let vars = values.into_iter().map(|(k, v)| (k, v.into())).collect();
                return Ok((&self.resources[*i], vars));
            }
        }
        Err(ErrorData::invalid_params(
            format!(
                "no resource of this server has the URI `{uri}`, and it matches none of its \
                 templates; `resources/list` and `resources/templates/list` show them"
            ),
            None,
        ))
    }

    /// The file of a file-backed resource (for subscriptions).
    pub fn watched_file(&self, uri: &str) -> Result<PathBuf, ErrorData> {
        let (r, _) = self.find(uri)?;
        match (&r.def.address, r.def.file()) {
            (ResourceAddress::Uri(_), Some(path)) => Ok(r.package_dir.join(path)),
            _ => Err(ErrorData::invalid_params(
                format!(
                    "resource `{uri}` is produced by a command; only file-backed resources \
                     send update notifications"
                ),
                None,
            )),
        }
    }

    /// The resource whose `uri_template` is exactly `text` (completion references).
    pub fn template(&self, text: &str) -> Option<&ExposedResource> {
        self.templates
            .iter()
            .map(|(_, i)| &self.resources[*i])
            .find(|r| matches!(&r.def.address, ResourceAddress::UriTemplate(t) if t == text))
    }

    /// Read `uri`, until done or `cancel`led.
    pub async fn read(
        &self,
        uri: &str,
        cancel: CancellationToken,
    ) -> Result<ReadResourceResult, ErrorData> {
        let (r, vars) = self.find(uri)?;
        let fail = |msg: String| {
            ErrorData::internal_error(format!("resource `{}` ({uri}): {msg}", r.qualified), None)
        };
        if self.reads.available_permits() == 0 {
            tracing::debug!(
                "resources/read of {uri} waits for one of the {CONCURRENT_READS} reads running"
            );
        }
        // Held until the contents are built; the semaphore is never closed.
        let _permit = tokio::select! {
            permit = self.reads.acquire() => permit.map_err(|e| fail(e.to_string()))?,
            _ = cancel.cancelled() => return Err(fail("cancelled".into())),
        };
        let bytes = match &r.def.source {
            ResourceSource::Path(path) => {
                let dir = r.package_dir.clone();
                let rel = path.clone();
                let reading = tokio::task::spawn_blocking(move || {
                    package_file::read_bytes(&dir, &rel, RESOURCE_FILE_CAP)
                });
                tokio::select! {
                    read = reading => read
                        .map_err(|e| fail(format!("reading stopped: {e}")))?
                        .map_err(|problem| fail(describe_file_problem(path, &problem)))?,
                    _ = cancel.cancelled() => return Err(fail("cancelled".into())),
                }
            }
            ResourceSource::Command(command) => {
                run_command(r, command, &vars, cancel).await.map_err(fail)?
            }
        };
        Ok(ReadResourceResult::new(vec![contents(
            uri,
            r.def.mime_type.as_deref(),
            bytes,
        )]))
    }
}

fn describe_file_problem(path: &str, problem: &ReadProblem) -> String {
    match problem {
        ReadProblem::NotFound => format!("its file `{path}` does not exist"),
        other => format!("its file `{path}` {}", other.describe()),
    }
}

fn list_entry(r: &ExposedResource, uri: &str) -> Resource {
    let mut entry = Resource::new(uri, r.exposed.clone());
    if let Some(t) = &r.def.title {
        entry = entry.with_title(t.clone());
    }
    if let Some(d) = &r.def.description {
        entry = entry.with_description(d.clone());
    }
    if let Some(m) = &r.def.mime_type {
        entry = entry.with_mime_type(m.clone());
    }
    entry
}

fn template_entry(r: &ExposedResource, template: &str) -> ResourceTemplate {
    let mut entry = ResourceTemplate::new(template, r.exposed.clone());
    if let Some(t) = &r.def.title {
        entry = entry.with_title(t.clone());
    }
    if let Some(d) = &r.def.description {
        entry = entry.with_description(d.clone());
    }
    if let Some(m) = &r.def.mime_type {
        entry = entry.with_mime_type(m.clone());
    }
    entry
}

/// The page of `items` at `cursor` (an offset written by an earlier page), and the next cursor.
fn page<T: Clone>(
    items: &[T],
    cursor: Option<&str>,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= items.len())
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!(
                        "cursor `{c}` is not one this server gave; start again without a cursor"
                    ),
                    None,
                )
            })?,
    };
    let end = (start + PAGE_SIZE).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((items[start..end].to_vec(), next))
}

/// Whether content of this media type is text (sent as `text` when it is UTF-8).
fn is_textual(mime: &str) -> bool {
    let essence = mime
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence.starts_with("text/")
        || essence.ends_with("+json")
        || essence.ends_with("+xml")
        || matches!(
            essence.as_str(),
            "application/json"
                | "application/xml"
                | "application/javascript"
                | "application/toml"
                | "application/yaml"
                | "application/x-yaml"
                | "application/x-sh"
        )
}

/// Content as MCP sends it: text for a textual type (or, with no declared type, for UTF-8),
/// else base64 in `blob`.
fn contents(uri: &str, declared: Option<&str>, bytes: Vec<u8>) -> ResourceContents {
    let text_wanted = declared.is_none_or(is_textual);
    match (text_wanted, String::from_utf8(bytes)) {
        (true, Ok(text)) => ResourceContents::TextResourceContents {
            uri: uri.to_string(),
            mime_type: Some(declared.unwrap_or("text/plain").to_string()),
            text,
            meta: None,
        },
        (_, Ok(text)) => blob(uri, declared, text.as_bytes()),
        (_, Err(e)) => blob(uri, declared, e.as_bytes()),
    }
}

fn blob(uri: &str, declared: Option<&str>, bytes: &[u8]) -> ResourceContents {
    ResourceContents::BlobResourceContents {
        uri: uri.to_string(),
        mime_type: Some(declared.unwrap_or("application/octet-stream").to_string()),
        blob: base64::engine::general_purpose::STANDARD.encode(bytes),
        meta: None,
    }
}

/// Run a resource's command with the template variables as JSON on stdin; its stdout.
async fn run_command(
    r: &ExposedResource,
    command: &[String],
    vars: &Map<String, Value>,
    cancel: CancellationToken,
) -> Result<Vec<u8>, String> {
    let Some((program, rest)) = command.split_first() else {
        return Err("it has no command".into());
    };
    let mut input = serde_json::to_vec(vars).expect("variables serialize");
    input.push(b'\n');
    let spec = RunSpec {
        program: resolve_program(&r.package_dir, program),
        args: rest.to_vec(),
        cwd: r.package_dir.clone(),
        env: r.command_env(),
        stdin: Some(input),
        timeout: Duration::from_secs(r.def.timeout_secs),
        output_cap: RESOURCE_FILE_CAP as usize,
        sandbox: r.sandbox.clone(),
    };
    let outcome = process::run(&spec, None, cancel.cancelled())
        .await
        .map_err(|e| format!("could not start `{program}`: {e}"))?;
    match outcome.ending {
        Ending::Exited(s) if s.success() => {}
        Ending::Exited(s) => {
            return Err(format!(
                "its command exited with {s}; stderr:\n{}",
                outcome.stderr_tail.trim_end()
            ));
        }
        Ending::TimedOut => {
            return Err(format!(
                "its command did not finish within {} s",
                r.def.timeout_secs
            ));
        }
        Ending::Cancelled => return Err("cancelled".into()),
    }
    if outcome.truncated() {
        return Err(format!(
            "its command printed {} bytes, more than the {} a resource may have",
            outcome.stdout_total,
            agx_core::regular_file::human_size(RESOURCE_FILE_CAP)
        ));
    }
    Ok(outcome.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_types_and_utf8_are_text_the_rest_is_base64() {
        let text = contents("a://t", Some("text/markdown"), b"# hi".to_vec());
        assert!(
            matches!(text, ResourceContents::TextResourceContents { ref text, .. } if text == "# hi")
        );
        let guessed = contents("a://t", None, b"plain".to_vec());
        assert!(
            matches!(guessed, ResourceContents::TextResourceContents { mime_type: Some(ref m), .. } if m == "text/plain")
        );
        let png = contents("a://b", Some("image/png"), vec![0x89, b'P', b'N', b'G']);
        assert!(
            matches!(png, ResourceContents::BlobResourceContents { ref blob, .. } if blob == "iVBORw==")
        );
        let unknown = contents("a://b", None, vec![0xff, 0xfe]);
        assert!(
            matches!(unknown, ResourceContents::BlobResourceContents { mime_type: Some(ref m), .. } if m == "application/octet-stream")
        );
    }

    #[test]
    fn pages_follow_their_cursors_and_a_bad_cursor_is_invalid_params() {
        let items: Vec<usize> = (0..250).collect();
        let (first, next) = page(&items, None).unwrap();
        assert_eq!((first.len(), next.as_deref()), (100, Some("100")));
        let (last, next) = page(&items, Some("200")).unwrap();
        assert_eq!((last.len(), next), (50, None));
        let err = page(&items, Some("x")).unwrap_err();
        assert_eq!(err.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(page(&items, Some("251")).is_err());
    }
}

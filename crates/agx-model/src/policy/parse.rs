//! Reading a policy: `policy.toml` (the system's or the user's) or a project's `[policy]`
//! table. Every problem points at its file, line and column; unknown keys are errors, since
//! a misspelt rule would otherwise silently allow what it was meant to refuse.

use std::path::Path;

use super::{
    Layer, Located, Location, NetworkMax, Pattern, PolicyError, PolicyLayer, Require, Rules,
};
use crate::manifest::fields::did_you_mean;
use crate::manifest::spanned::{Entry, Node, SourceFile, parse_toml};

const ROOT_KEYS: [&str; 6] = [
    "require",
    "sources",
    "publishers",
    "packages",
    "permissions",
    "clients",
];

/// Read a whole policy file of `layer`.
pub fn parse_file(path: &Path, text: String, layer: Layer) -> Result<PolicyLayer, PolicyError> {
    let file = SourceFile::new(path.display().to_string(), text);
    let root = parse_toml(&file.text).map_err(|e| PolicyError::Invalid {
        at: location(&file, e.span.start),
        message: format!("not valid TOML: {}", e.message),
        hint: None,
    })?;
    let rules = Reader { file: &file }.rules(&root, "")?;
    Ok(PolicyLayer {
        layer,
        file: path.to_path_buf(),
        rules,
    })
}

/// Read the `[policy]` table of a project's `agx.toml`, already parsed into `node`.
pub fn parse_project(
    path: &Path,
    file: &SourceFile,
    node: &Node,
) -> Result<PolicyLayer, PolicyError> {
    let rules = Reader { file }.rules(node, "policy.")?;
    Ok(PolicyLayer {
        layer: Layer::Project,
        file: path.to_path_buf(),
        rules,
    })
}

fn location(file: &SourceFile, offset: usize) -> Location {
    let (line, column) = file.line_col(offset);
    Location {
        file: file.rel.clone().into(),
        line,
        column,
    }
}

struct Reader<'a> {
    file: &'a SourceFile,
}

impl Reader<'_> {
    fn at(&self, offset: usize) -> Location {
        location(self.file, offset)
    }

    fn invalid(&self, offset: usize, message: String, hint: Option<String>) -> PolicyError {
        PolicyError::Invalid {
            at: self.at(offset),
            message,
            hint,
        }
    }

    fn table<'n>(
        &self,
        node: &'n Node,
        what: &str,
        allowed: &[&str],
    ) -> Result<&'n [Entry], PolicyError> {
        let Some(entries) = node.as_table() else {
            return Err(self.invalid(
                node.span.start,
                format!("`{what}` must be a table, found {}", node.type_name()),
                None,
            ));
        };
        for e in entries {
            if !allowed.contains(&e.key.as_str()) {
                let hint = match did_you_mean(&e.key, allowed.iter().copied()) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("the keys of `{what}` are {}", allowed.join(", ")),
                };
                let name = if what.is_empty() {
                    e.key.clone()
                } else {
                    format!("{what}.{}", e.key)
                };
                return Err(self.invalid(
                    e.key_span.start,
                    format!("unknown policy key `{name}`"),
                    Some(hint),
                ));
            }
        }
        Ok(entries)
    }

    fn rules(&self, root: &Node, prefix: &str) -> Result<Rules, PolicyError> {
        let mut rules = Rules::default();
        let what = prefix.trim_end_matches('.');
        for e in self.table(root, what, &ROOT_KEYS)? {
            let key = |k: &str| format!("{prefix}{}.{k}", e.key);
            match e.key.as_str() {
                "require" => {
                    let text = self.string(&e.value, &format!("{prefix}require"))?;
                    let value = Require::parse(text).ok_or_else(|| {
                        self.invalid(
                            e.value.span.start,
                            format!("`{prefix}require` is `{text}`"),
                            Some(format!(
                                "write one of {}",
                                Require::NAMES.map(|n| format!("\"{n}\"")).join(", ")
                            )),
                        )
                    })?;
                    rules.require = Some(Located {
                        value,
                        at: self.at(e.key_span.start),
                    });
                }
                "sources" => {
                    for s in self.table(&e.value, &format!("{prefix}sources"), &["allow"])? {
                        rules.sources_allow = Some(self.patterns(s, &key("allow"))?);
                    }
                }
                "publishers" => {
                    for s in
                        self.table(&e.value, &format!("{prefix}publishers"), &["allow", "deny"])?
                    {
                        let rule = Some(self.patterns(s, &key(&s.key))?);
                        match s.key.as_str() {
                            "allow" => rules.publishers_allow = rule,
                            _ => rules.publishers_deny = rule,
                        }
                    }
                }
                "packages" => {
                    for s in self.table(&e.value, &format!("{prefix}packages"), &["deny"])? {
                        rules.packages_deny = Some(self.patterns(s, &key("deny"))?);
                    }
                }
                "permissions" => {
                    for m in self.table(&e.value, &format!("{prefix}permissions"), &["max"])? {
                        let what = format!("{prefix}permissions.max");
                        for s in self.table(&m.value, &what, &["network", "write", "env"])? {
                            self.permission(&mut rules, s, &format!("{what}.{}", s.key))?;
                        }
                    }
                }
                _ => {
                    for s in self.table(&e.value, &format!("{prefix}clients"), &["allow"])? {
                        rules.clients_allow = Some(self.clients(s, &key("allow"))?);
                    }
                }
            }
        }
        Ok(rules)
    }

    fn permission(&self, rules: &mut Rules, e: &Entry, what: &str) -> Result<(), PolicyError> {
        let at = self.at(e.key_span.start);
        match e.key.as_str() {
            "network" => {
                let value = match &e.value.as_str() {
                    Some("none") => NetworkMax::None,
                    Some("loopback") => NetworkMax::Loopback,
                    Some("any") => NetworkMax::Any,
                    Some(other) => {
                        return Err(self.invalid(e.value.span.start, format!("`{what}` is `{other}`"), Some("write \"none\", \"loopback\", \"any\", or a list of hosts such as [\"*.example.com\"]".into())));
                    }
                    None => {
                        let hosts = self.strings(&e.value, what)?;
                        for (text, offset) in &hosts {
                            if let Some(problem) =
                                crate::permissions::host_problem(text.trim_start_matches("*."))
                            {
                                return Err(self.invalid(
                                    *offset,
                                    format!("`{what}`: {problem}"),
                                    None,
                                ));
                            }
                        }
                        NetworkMax::Hosts(self.compile(hosts))
                    }
                };
                rules.max_network = Some(Located { value, at });
            }
            "write" => {
                let paths = self.strings(&e.value, what)?;
                for (path, offset) in &paths {
                    if let Some((problem, hint)) = crate::permissions::path_problem(path) {
                        return Err(self.invalid(
                            *offset,
                            format!("`{what}`: {problem}"),
                            Some(hint),
                        ));
                    }
                }
                rules.max_write = Some(Located {
                    value: paths.into_iter().map(|(p, _)| p).collect(),
                    at,
                });
            }
            _ => {
                let env = self.strings(&e.value, what)?;
                rules.max_env = Some(Located {
                    value: self.compile(env),
                    at,
                });
            }
        }
        Ok(())
    }

    fn string<'n>(&self, node: &'n Node, what: &str) -> Result<&'n str, PolicyError> {
        node.as_str().ok_or_else(|| {
            self.invalid(
                node.span.start,
                format!("`{what}` must be a string, found {}", node.type_name()),
                None,
            )
        })
    }

    /// A list of non-empty strings, each with where it starts.
    fn strings(&self, node: &Node, what: &str) -> Result<Vec<(String, usize)>, PolicyError> {
        let Some(items) = node.as_array() else {
            return Err(self.invalid(
                node.span.start,
                format!(
                    "`{what}` must be a list of strings, found {}",
                    node.type_name()
                ),
                None,
            ));
        };
        items
            .iter()
            .map(|item| match self.string(item, what)? {
                "" => Err(self.invalid(
                    item.span.start,
                    format!("`{what}` holds an empty string"),
                    None,
                )),
                text => Ok((text.to_string(), item.span.start)),
            })
            .collect()
    }

    fn compile(&self, items: Vec<(String, usize)>) -> Vec<Pattern> {
        items
            .into_iter()
            .map(|(text, _)| Pattern::new(&text))
            .collect()
    }

    fn patterns(&self, e: &Entry, what: &str) -> Result<Located<Vec<Pattern>>, PolicyError> {
        let items = self.strings(&e.value, what)?;
        Ok(Located {
            value: self.compile(items),
            at: self.at(e.key_span.start),
        })
    }

    /// Client names, each a known client (by id or alias) or a skill folder's client,
    /// recorded by id.
    fn clients(&self, e: &Entry, what: &str) -> Result<Located<Vec<String>>, PolicyError> {
        let mut ids = Vec::new();
        for (name, offset) in self.strings(&e.value, what)? {
            let id = match crate::client_table::find(&name) {
                Some(client) => client.id.to_string(),
                None if crate::skills::folders::SKILL_CLIENTS.contains(&name.as_str()) => name,
                None => {
                    let known = crate::client_table::all_names()
                        .chain(crate::skills::folders::SKILL_CLIENTS.iter().copied());
                    let hint = match did_you_mean(&name, known) {
                        Some(close) => format!("did you mean `{close}`?"),
                        None => "`agx clients` lists the clients agx knows".into(),
                    };
                    return Err(self.invalid(
                        offset,
                        format!("`{what}`: `{name}` is not a client agx knows"),
                        Some(hint),
                    ));
                }
            };
            ids.push(id);
        }
        Ok(Located {
            value: ids,
            at: self.at(e.key_span.start),
        })
    }
}

//! The four MCP lists a server answers (`tools/list`, `prompts/list`, `resources/list`,
//! `resources/templates/list`), as the filtering proxy and profiles read them.

use agx_model::filter::Kind;
use serde_json::Value;

/// One of the lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum List {
    Tools,
    Prompts,
    Resources,
    Templates,
}

impl List {
    pub(crate) const ALL: [List; 4] =
        [List::Tools, List::Prompts, List::Resources, List::Templates];

    /// The list a request method asks for.
    pub(crate) fn of(method: &str) -> Option<List> {
        Some(match method {
            "tools/list" => List::Tools,
            "prompts/list" => List::Prompts,
            "resources/list" => List::Resources,
            "resources/templates/list" => List::Templates,
            _ => return None,
        })
    }

    pub(crate) fn method(self) -> &'static str {
        match self {
            List::Tools => "tools/list",
            List::Prompts => "prompts/list",
            List::Resources => "resources/list",
            List::Templates => "resources/templates/list",
        }
    }

    /// The result's array.
    pub(crate) fn array(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Prompts => "prompts",
            List::Resources => "resources",
            List::Templates => "resourceTemplates",
        }
    }

    /// Each item's key field: its name, URI or URI template.
    pub(crate) fn key(self) -> &'static str {
        match self {
            List::Tools | List::Prompts => "name",
            List::Resources => "uri",
            List::Templates => "uriTemplate",
        }
    }

    /// Its pinned counterpart (docs/security.md): resources themselves are not pinned.
    pub(crate) fn pinned(self) -> Option<agx_store::pins::PinnedList> {
        use agx_store::pins::PinnedList;
        match self {
            List::Tools => Some(PinnedList::Tools),
            List::Prompts => Some(PinnedList::Prompts),
            List::Resources => None,
            List::Templates => Some(PinnedList::ResourceTemplates),
        }
    }

    /// The kind of item a filter sees in it.
    pub(crate) fn kind(self) -> Kind {
        match self {
            List::Tools => Kind::Tool,
            List::Prompts => Kind::Prompt,
            List::Resources | List::Templates => Kind::Resource,
        }
    }

    /// The capability a server advertises for it (and the word of its `list_changed`).
    pub(crate) fn capability(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Prompts => "prompts",
            List::Resources | List::Templates => "resources",
        }
    }

    /// The lists that name the items a call of `kind` may name.
    pub(crate) fn naming(kind: Kind) -> &'static [List] {
        match kind {
            Kind::Tool => &[List::Tools],
            Kind::Prompt => &[List::Prompts],
            Kind::Resource => &[List::Resources, List::Templates],
        }
    }

    /// The lists a server's `list_changed` notification is about (none for another method).
    pub(crate) fn changed_by(method: &str) -> &'static [List] {
        match method {
            "notifications/tools/list_changed" => &[List::Tools],
            "notifications/prompts/list_changed" => &[List::Prompts],
            "notifications/resources/list_changed" => &[List::Resources, List::Templates],
            _ => &[],
        }
    }

    /// The list naming the item a call names, and where its name (URI) is in the call:
    /// `tools/call`, `prompts/get`, `resources/read`, `subscribe` and `unsubscribe`, and
    /// `completion/complete` of a prompt or resource; `None` for any other message.
    pub(crate) fn named_by(method: &str, message: &Value) -> Option<(List, &'static str)> {
        match method {
            "tools/call" => Some((List::Tools, "/params/name")),
            "prompts/get" => Some((List::Prompts, "/params/name")),
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                Some((List::Resources, "/params/uri"))
            }
            "completion/complete" => match message.pointer("/params/ref/type") {
                Some(t) if t == "ref/prompt" => Some((List::Prompts, "/params/ref/name")),
                Some(t) if t == "ref/resource" => Some((List::Resources, "/params/ref/uri")),
                _ => None,
            },
            _ => None,
        }
    }
}

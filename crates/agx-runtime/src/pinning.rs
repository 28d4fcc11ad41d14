//! Pinned definitions at serve time (docs/security.md, "Pinned definitions"): the proxy in
//! front of a wrapped or remote server compares every tool, prompt and resource template the
//! server lists with what was pinned when agx first saw it. A changed or new item is
//! withheld (or the session stopped, or it passes, as `on-change` says) and logged with the
//! fields that changed and the commands that show and accept it. A list with no pins yet is
//! pinned as first seen.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use agx_core::name::QualifiedName;
use agx_store::pins::{OnChange, Pin, PinCheck, PinnedList, Pins};

/// One session's view of a server's pins.
pub struct Pinning {
    path: PathBuf,
    pins: Pins,
    rule: OnChange,
    /// The server as `agx trust` and `agx tools` name it.
    server: String,
    /// Items withheld this session, with why, by list and name.
    withheld: HashMap<(PinnedList, String), String>,
    /// Set by `on-change = "stop"` once a change was seen: why every request is refused.
    stopped: Option<String>,
    /// Lists that had no pins when the session began and have not been read whole yet:
    /// their items are pinned as they come, page by page.
    recording: HashSet<PinnedList>,
    /// Lists this session pins (they had none when it began): what it writes of them is
    /// theirs, whatever another session wrote meanwhile.
    pins_here: HashSet<PinnedList>,
    /// Pins recorded this session and not yet written.
    dirty: bool,
}

impl Pinning {
    /// The pins of `server` in `file`, under `rule`.
    pub fn load(
        file: &Path,
        server: &QualifiedName,
        rule: OnChange,
    ) -> Result<Pinning, agx_store::StoreError> {
        let path = file.to_path_buf();
        let pins = Pins::read(&path)?.unwrap_or_else(Pins::new);
        let recording: HashSet<PinnedList> = PinnedList::ALL
            .into_iter()
            .filter(|l| !pins.has(*l))
            .collect();
        Ok(Pinning {
            pins_here: recording.clone(),
            recording,
            path,
            pins,
            rule,
            server: server.to_string(),
            withheld: HashMap::new(),
            stopped: None,
            dirty: false,
        })
    }

    /// The rule of `server` here: its project entry's `on-change`, else hide. A project file
    /// that names the server and does not load is an error (as for its filter).
    pub fn rule_of(
        server: &QualifiedName,
    ) -> Result<OnChange, agx_model::filter::FiltersFileError> {
        agx_project::serve_on_change(server).map_err(|(path, detail)| {
            agx_model::filter::FiltersFileError::ProjectUnreadable { path, detail }
        })
    }

    /// Whether a listed `item` of `list` may pass to the client. A list seen for the first
    /// time is pinned as it is.
    pub fn passes(&mut self, list: PinnedList, item: &Value) -> bool {
        let Some(name) = item.get(list.key()).and_then(Value::as_str) else {
            return true;
        };
        let pin = Pin::of(list, item);
        if self.recording.contains(&list) {
            self.pins.insert(list, name.to_string(), pin);
            self.dirty = true;
            return true;
        }
        let change = match self.pins.check(list, name, &pin) {
            PinCheck::Same => return true,
            // Not reached: a list without pins is being recorded.
            PinCheck::Unpinned => return true,
            PinCheck::New => "is new since the server's definitions were pinned".to_string(),
            PinCheck::Changed(old) => format!(
                "changed since it was pinned ({})",
                old.changed_fields(&pin, list).join(", ")
            ),
        };
        let what = format!("{} `{name}` of {}", list.noun(), self.server);
        let show = format!(
            "`agx tools {} --diff` shows it; `agx trust {} {name}` accepts it",
            self.server, self.server
        );
        match self.rule {
            OnChange::Allow => {
                tracing::info!("passing on {what}, which {change} (on-change = \"allow\")");
                true
            }
            OnChange::Hide => {
                tracing::warn!("not passing on {what}: it {change}; {show}");
                self.withheld
                    .insert((list, name.to_string()), format!("{what} {change}; {show}"));
                false
            }
            OnChange::Stop => {
                tracing::warn!(
                    "stopping {}: {what} {change} (on-change = \"stop\"); {show}",
                    self.server
                );
                self.stopped = Some(format!(
                    "agx stopped serving {}: {what} {change} (on-change = \"stop\"); {show}",
                    self.server
                ));
                false
            }
        }
    }

    /// Whether changes are withheld (any rule but allow).
    pub fn guards(&self) -> bool {
        self.rule != OnChange::Allow
    }

    /// `list` was read to its last page: its recording ends (an empty list is pinned
    /// empty), so that an item it gains later is new.
    pub fn read_whole(&mut self, list: PinnedList) {
        if self.recording.remove(&list) {
            self.pins.mark_seen(list);
            self.dirty = true;
        }
    }

    /// Why a call to `name` of `list` is refused, when this session withheld it.
    pub fn withheld(&self, list: PinnedList, name: &str) -> Option<&str> {
        self.withheld
            .get(&(list, name.to_string()))
            .map(String::as_str)
    }

    /// Why every request is refused, once `on-change = "stop"` saw a change.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Write the pins recorded since the last save, beside what another session wrote
    /// meanwhile (`agx trust`, another client's first serve): only the lists this session
    /// pins are replaced. A failure is logged, never fatal: the items pass this session, and
    /// the next one pins them again.
    pub fn save(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let mut on_disk = match Pins::read(&self.path) {
            Ok(pins) => pins.unwrap_or_else(Pins::new),
            Err(e) => {
                tracing::warn!(
                    "not recording the pinned definitions of {}: {e}",
                    self.server
                );
                return;
            }
        };
        for list in &self.pins_here {
            if let Some(items) = self.pins.list(*list) {
                on_disk.replace(*list, items.clone());
            }
        }
        if let Err(e) = on_disk.write(&self.path) {
            tracing::warn!(
                "could not record the pinned definitions of {}: {e}",
                self.server
            );
        }
    }
}

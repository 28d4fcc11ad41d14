//! `resources/subscribe` and `resources/unsubscribe` for one connection: the folders of the
//! subscribed files are watched (a folder, not the file, so that an editor's
//! write-to-temp-and-rename is seen too), and each change sends
//! `notifications/resources/updated` for the URIs of the changed file.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::{EventKind, RecursiveMode, Watcher};
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::{Peer, RoleServer};
use tokio::sync::mpsc;

/// Changes waiting to be sent. A burst beyond this is dropped: one notification per URI is
/// all a client needs to read it again, and the queue already holds one.
const PENDING_CHANGES: usize = 256;

/// Subscribed file → its URIs.
type Subscribed = Arc<Mutex<HashMap<PathBuf, BTreeSet<String>>>>;

/// One connection's subscriptions. Dropping it stops the watcher and its forwarding task.
#[derive(Default)]
pub struct Subscriptions {
    state: Mutex<Option<Watching>>,
}

struct Watching {
    watcher: notify::RecommendedWatcher,
    subscribed: Subscribed,
    /// Watched folder → how many subscribed files it holds.
    folders: HashMap<PathBuf, usize>,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot watch `{}` for changes: {source}", path.display())]
pub struct WatchError {
    path: PathBuf,
    source: notify::Error,
}

impl Subscriptions {
    /// Send an update for `uri` to `peer` whenever `file` changes.
    pub fn subscribe(
        &self,
        uri: &str,
        file: &Path,
        peer: &Peer<RoleServer>,
    ) -> Result<(), WatchError> {
        let file = canonical(file);
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut state = self.state.lock().expect("subscriptions lock");
        if state.is_none() {
            *state = Some(Watching::start(peer.clone()).map_err(|source| WatchError {
                path: folder.clone(),
                source,
            })?);
        }
        let watching = state.as_mut().expect("started above");
        let new_file = !watching.subscribed().contains_key(&file);
        // `subscribed` is not held here: the watcher's thread takes it for each event, and
        // `watch` waits for that thread.
        if new_file && !watching.folders.contains_key(&folder) {
            watching
                .watcher
                .watch(&folder, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError {
                    path: folder.clone(),
                    source,
                })?;
        }
        if new_file {
            *watching.folders.entry(folder).or_default() += 1;
        }
        watching
            .subscribed()
            .entry(file)
            .or_default()
            .insert(uri.to_string());
        Ok(())
    }

    /// Stop sending updates for `uri`; unknown URIs are ignored.
    pub fn unsubscribe(&self, uri: &str) {
        let mut state = self.state.lock().expect("subscriptions lock");
        let Some(watching) = state.as_mut() else {
            return;
        };
        let emptied: Vec<PathBuf> = {
            let mut subscribed = watching.subscribed();
            let emptied: Vec<PathBuf> = subscribed
                .iter_mut()
                .filter_map(|(file, uris)| {
                    (uris.remove(uri) && uris.is_empty()).then(|| file.clone())
                })
                .collect();
            for file in &emptied {
                subscribed.remove(file);
            }
            emptied
        };
        for file in emptied {
            let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
            if let Some(count) = watching.folders.get_mut(&folder) {
                *count -= 1;
                if *count == 0 {
                    watching.folders.remove(&folder);
                    let _ = watching.watcher.unwatch(&folder);
                }
            }
        }
    }
}

impl Watching {
    fn subscribed(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, BTreeSet<String>>> {
        self.subscribed.lock().expect("subscribed lock")
    }

    fn start(peer: Peer<RoleServer>) -> notify::Result<Watching> {
        let subscribed: Subscribed = Arc::default();
        let (tx, rx) = mpsc::channel::<String>(PENDING_CHANGES);
        let seen = subscribed.clone();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else {
                return;
            };
            if !matches!(
                event.kind,
                EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
            ) {
                return;
            }
            let subscribed = seen.lock().expect("subscribed lock");
            for path in &event.paths {
                for uri in subscribed.get(&normalize(path)).into_iter().flatten() {
                    let _ = tx.try_send(uri.clone());
                }
            }
        })?;
        tokio::spawn(forward(rx, peer));
        Ok(Watching {
            watcher,
            subscribed,
            folders: HashMap::new(),
        })
    }
}

/// Send the queued changes, each URI once per batch (one save is often several events).
/// Ends when the watcher, which holds the sender, is dropped.
async fn forward(mut rx: mpsc::Receiver<String>, peer: Peer<RoleServer>) {
    while let Some(uri) = rx.recv().await {
        let mut batch = BTreeSet::from([uri]);
        while let Ok(more) = rx.try_recv() {
            batch.insert(more);
        }
        for uri in batch {
            if peer
                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                .await
                .is_err()
            {
                return;
            }
        }
    }
}

/// `a/./b` → `a/b`, so a path from the manifest and one from the watcher compare equal.
fn normalize(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// The file's path through its folder's real path (watchers report real paths, e.g.
/// `/private/var/…` on macOS for `/var/…`); the file itself may not exist yet.
fn canonical(file: &Path) -> PathBuf {
    let file = normalize(file);
    match (file.parent(), file.file_name()) {
        (Some(folder), Some(name)) => std::fs::canonicalize(folder)
            .map(|f| f.join(name))
            .unwrap_or(file.clone()),
        _ => file,
    }
}

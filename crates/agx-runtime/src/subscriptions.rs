//! `resources/subscribe` and `resources/unsubscribe` for one connection, or one
//! `subscriptions/listen` stream of a 2026-07-28 client: the folders of the subscribed files
//! are watched (a folder, not the file, so that an editor's
//! write-to-temp-and-rename is seen too), and a change sends
//! `notifications/resources/updated` for the URIs of the changed file. Changes are coalesced
//! per URI: one waits [`SETTLE`] for the rest of its burst, and a URI is pending at most once.

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};
use rmcp::model::{
    ResourceUpdatedNotification, ResourceUpdatedNotificationParam, ServerNotification,
};
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};
use tokio::sync::mpsc;

/// How long the first change of a burst waits for the rest before its updates are sent: one
/// save is several events, and an editor or a build may save many times in a row. One
/// update per URI is all a client needs to read it again.
const SETTLE: Duration = Duration::from_millis(50);

/// Subscribed file → its URIs.
type Subscribed = Arc<Mutex<HashMap<PathBuf, BTreeSet<String>>>>;

/// URIs changed since updates were last sent: a set, so a URI is pending at most once
/// however often its file changes.
type Changed = Arc<Mutex<BTreeSet<String>>>;

/// Where a subscription's updates go.
#[derive(Clone)]
pub(crate) enum Updates {
    /// A legacy session's client (`resources/subscribe`).
    Session(Peer<RoleServer>),
    /// A 2026-07-28 client's stream, which tags each update with its id.
    Stream(SubscriptionSink),
}

/// What a file looked like: changed when its modification time or length did, or it
/// appeared or went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileStamp(Option<(Option<std::time::SystemTime>, u64)>);

impl FileStamp {
    pub(crate) fn of(file: &Path) -> FileStamp {
        FileStamp(
            std::fs::metadata(file)
                .ok()
                .map(|m| (m.modified().ok(), m.len())),
        )
    }
}

impl Updates {
    /// Send the update of `uri`; `false` once the client or the stream is gone.
    pub(crate) async fn send(&self, uri: String) -> bool {
        let param = ResourceUpdatedNotificationParam::new(uri);
        match self {
            Updates::Session(peer) => peer.notify_resource_updated(param).await.is_ok(),
            Updates::Stream(sink) => sink
                .send(ServerNotification::ResourceUpdatedNotification(
                    ResourceUpdatedNotification::new(param),
                ))
                .await
                .is_ok(),
        }
    }
}

/// One connection's (or stream's) subscriptions. Dropping it stops the watcher and its
/// forwarding task.
#[derive(Default)]
pub(crate) struct Subscriptions {
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
pub(crate) struct WatchError {
    path: PathBuf,
    source: notify::Error,
}

impl Subscriptions {
    /// Send an update for `uri` to `updates` whenever `file` changes.
    pub(crate) fn subscribe(
        &self,
        uri: &str,
        file: &Path,
        updates: &Updates,
    ) -> Result<(), WatchError> {
        let file = canonical(file);
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut state = self.state.lock().expect("subscriptions lock");
        if state.is_none() {
            *state = Some(
                Watching::start(updates.clone()).map_err(|source| WatchError {
                    path: folder.clone(),
                    source,
                })?,
            );
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
    pub(crate) fn unsubscribe(&self, uri: &str) {
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

    fn start(updates: Updates) -> notify::Result<Watching> {
        let subscribed: Subscribed = Arc::default();
        let changed: Changed = Arc::default();
        // Holds one wake-up at most: the URIs themselves wait in `changed`.
        let (wake, woken) = mpsc::channel::<()>(1);
        let seen = subscribed.clone();
        let pending = changed.clone();
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
            let mut pending = pending.lock().expect("changed lock");
            let before = pending.len();
            for path in &event.paths {
                pending.extend(
                    subscribed
                        .get(&normalize(path))
                        .into_iter()
                        .flatten()
                        .cloned(),
                );
            }
            if pending.len() > before {
                let _ = wake.try_send(());
            }
        })?;
        tokio::spawn(forward(woken, changed, subscribed.clone(), updates));
        Ok(Watching {
            watcher,
            subscribed,
            folders: HashMap::new(),
        })
    }
}

/// Once woken, wait [`SETTLE`], then send one update for each changed URI still subscribed.
/// Ends when the watcher, which holds the sender, is dropped.
async fn forward(
    mut woken: mpsc::Receiver<()>,
    changed: Changed,
    subscribed: Subscribed,
    updates: Updates,
) {
    while woken.recv().await.is_some() {
        tokio::time::sleep(SETTLE).await;
        let batch = std::mem::take(&mut *changed.lock().expect("changed lock"));
        let batch: Vec<String> = {
            let subscribed = subscribed.lock().expect("subscribed lock");
            batch
                .into_iter()
                .filter(|uri| subscribed.values().any(|uris| uris.contains(uri)))
                .collect()
        };
        for uri in batch {
            if !updates.send(uri).await {
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

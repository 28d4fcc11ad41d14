//! The trusted metadata set: the client workflow's checks (specification §5.3–5.6), one
//! method per role, each either accepting the new file or leaving the set as it was.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::error::{Result, TufError, malformed};
use crate::keys::check_threshold;
use crate::metadata::{
    Envelope, MetaFile, ROOT, Root, SNAPSHOT, Snapshot, TARGETS, TIMESTAMP, Targets, Timestamp,
    parse_expires,
};

/// A verified metadata file: its typed content and the bytes it came as (to persist).
#[derive(Debug, Clone)]
pub struct Verified<T> {
    pub signed: T,
    pub bytes: Vec<u8>,
}

/// A verified targets role and the role that delegated it (a role reached through another
/// delegator is verified again against that one).
#[derive(Debug, Clone)]
pub struct VerifiedTargets {
    pub delegator: String,
    pub targets: Verified<Targets>,
}

#[derive(Debug, Clone)]
pub struct TrustedSet {
    now: DateTime<Utc>,
    root: Verified<Root>,
    timestamp: Option<Verified<Timestamp>>,
    snapshot: Option<Verified<Snapshot>>,
    targets: BTreeMap<String, VerifiedTargets>,
}

/// The error for a file that is not new: the set keeps the one it has.
#[derive(Debug)]
pub enum TimestampUpdate {
    Accepted,
    /// The same version as the trusted one: nothing to do.
    Unchanged,
}

pub fn role_file(role: &str) -> String {
    format!("{role}.json")
}

impl TrustedSet {
    /// Start from a root the user trusts (pinned): it must be signed by its own keys.
    pub fn new(root_bytes: &[u8], now: DateTime<Utc>) -> Result<Self> {
        let file = role_file(ROOT);
        let envelope = Envelope::parse(&file, root_bytes)?;
        let root: Root = envelope.typed(&file, ROOT)?;
        check_threshold(&file, ROOT, &envelope, root.role(&file, ROOT)?, &root.keys)?;
        Ok(TrustedSet {
            now,
            root: Verified {
                signed: root,
                bytes: root_bytes.to_vec(),
            },
            timestamp: None,
            snapshot: None,
            targets: BTreeMap::new(),
        })
    }

    pub fn root(&self) -> &Verified<Root> {
        &self.root
    }

    pub fn timestamp(&self) -> Option<&Verified<Timestamp>> {
        self.timestamp.as_ref()
    }

    pub fn snapshot(&self) -> Option<&Verified<Snapshot>> {
        self.snapshot.as_ref()
    }

    pub fn targets(&self, role: &str) -> Option<&VerifiedTargets> {
        self.targets.get(role)
    }

    fn expired(&self, file: &str, expires: &str) -> Result<()> {
        if parse_expires(file, expires)? <= self.now {
            return Err(TufError::Expired {
                file: file.to_string(),
                expires: expires.to_string(),
            });
        }
        Ok(())
    }

    /// §5.3: the next root, signed by the trusted root's keys and by its own, one version on.
    pub fn update_root(&mut self, bytes: &[u8], file: &str) -> Result<()> {
        if self.timestamp.is_some() {
            return Err(TufError::Usage {
                what: "root cannot change after the timestamp was loaded".into(),
            });
        }
        let envelope = Envelope::parse(file, bytes)?;
        let new: Root = envelope.typed(file, ROOT)?;
        let trusted = &self.root.signed;
        let rotation = |e: TufError| TufError::RootRotation {
            file: file.to_string(),
            reason: e.to_string(),
        };
        check_threshold(
            file,
            ROOT,
            &envelope,
            trusted.role(file, ROOT)?,
            &trusted.keys,
        )
        .map_err(rotation)?;
        check_threshold(file, ROOT, &envelope, new.role(file, ROOT)?, &new.keys)
            .map_err(rotation)?;
        let expected = trusted.common.version + 1;
        if new.common.version != expected {
            return Err(TufError::RootRotation {
                file: file.to_string(),
                reason: format!(
                    "version {} where {expected} was expected",
                    new.common.version
                ),
            });
        }
        self.root = Verified {
            signed: new,
            bytes: bytes.to_vec(),
        };
        Ok(())
    }

    /// The final root must not have expired (checked once the rotation chain is done).
    pub fn check_root_expiry(&self) -> Result<()> {
        self.expired(&role_file(ROOT), &self.root.signed.common.expires)
    }

    /// §5.4: a timestamp signed by the root's timestamp keys, never older than the trusted one.
    pub fn update_timestamp(&mut self, bytes: &[u8]) -> Result<TimestampUpdate> {
        let file = role_file(TIMESTAMP);
        if self.snapshot.is_some() {
            return Err(TufError::Usage {
                what: "timestamp cannot change after the snapshot was loaded".into(),
            });
        }
        self.check_root_expiry()?;
        let envelope = Envelope::parse(&file, bytes)?;
        let new: Timestamp = envelope.typed(&file, TIMESTAMP)?;
        let root = &self.root.signed;
        check_threshold(
            &file,
            TIMESTAMP,
            &envelope,
            root.role(&file, TIMESTAMP)?,
            &root.keys,
        )?;
        let new_snapshot = new.snapshot_meta(&file)?.version;
        if let Some(trusted) = &self.timestamp {
            let trusted = &trusted.signed;
            if new.common.version < trusted.common.version {
                return Err(TufError::Rollback {
                    file,
                    trusted: trusted.common.version,
                    new: new.common.version,
                });
            }
            if new.common.version == trusted.common.version {
                return Ok(TimestampUpdate::Unchanged);
            }
            let trusted_snapshot = trusted.snapshot_meta(&file)?.version;
            if new_snapshot < trusted_snapshot {
                return Err(TufError::Rollback {
                    file: "snapshot.json (named by timestamp.json)".into(),
                    trusted: trusted_snapshot,
                    new: new_snapshot,
                });
            }
        }
        let expires = new.common.expires.clone();
        // Kept even when expired, so that an older one cannot replace it later.
        self.timestamp = Some(Verified {
            signed: new,
            bytes: bytes.to_vec(),
        });
        self.expired(&file, &expires)?;
        Ok(TimestampUpdate::Accepted)
    }

    fn check_final_timestamp(&self) -> Result<&Timestamp> {
        let timestamp = &self
            .timestamp
            .as_ref()
            .ok_or_else(|| TufError::Usage {
                what: "the timestamp must be loaded first".into(),
            })?
            .signed;
        self.expired(&role_file(TIMESTAMP), &timestamp.common.expires)?;
        Ok(timestamp)
    }

    /// §5.5: the snapshot the timestamp names (length, hashes, version), never dropping or
    /// lowering a role the trusted snapshot listed. `local` skips the hash check for a file
    /// agx verified before (the timestamp may have moved on since).
    pub fn update_snapshot(&mut self, bytes: &[u8], local: bool) -> Result<()> {
        let file = role_file(SNAPSHOT);
        if !self.targets.is_empty() {
            return Err(TufError::Usage {
                what: "snapshot cannot change after targets were loaded".into(),
            });
        }
        let meta = self.check_final_timestamp()?.snapshot_meta(&file)?.clone();
        if !local {
            check_meta_file(&file, TIMESTAMP, &meta, bytes)?;
        }
        let envelope = Envelope::parse(&file, bytes)?;
        let new: Snapshot = envelope.typed(&file, SNAPSHOT)?;
        let root = &self.root.signed;
        check_threshold(
            &file,
            SNAPSHOT,
            &envelope,
            root.role(&file, SNAPSHOT)?,
            &root.keys,
        )?;
        if let Some(trusted) = &self.snapshot {
            for (name, old) in &trusted.signed.meta {
                match new.meta.get(name) {
                    None => {
                        return Err(TufError::MixAndMatch {
                            file,
                            by: "the trusted snapshot".into(),
                            detail: format!("{name} is missing"),
                        });
                    }
                    Some(now) if now.version < old.version => {
                        return Err(TufError::Rollback {
                            file: format!("{name} (named by snapshot.json)"),
                            trusted: old.version,
                            new: now.version,
                        });
                    }
                    Some(_) => {}
                }
            }
        }
        self.snapshot = Some(Verified {
            signed: new,
            bytes: bytes.to_vec(),
        });
        self.check_final_snapshot()?;
        Ok(())
    }

    fn check_final_snapshot(&self) -> Result<&Snapshot> {
        let file = role_file(SNAPSHOT);
        let snapshot = &self
            .snapshot
            .as_ref()
            .ok_or_else(|| TufError::Usage {
                what: "the snapshot must be loaded first".into(),
            })?
            .signed;
        self.expired(&file, &snapshot.common.expires)?;
        let expected = self.check_final_timestamp()?.snapshot_meta(&file)?.version;
        if snapshot.common.version != expected {
            return Err(TufError::MixAndMatch {
                file,
                by: "timestamp.json".into(),
                detail: format!(
                    "version {} where the timestamp names {expected}",
                    snapshot.common.version
                ),
            });
        }
        Ok(snapshot)
    }

    /// §5.6: targets (or a delegated role), as the snapshot names it, signed by the keys its
    /// delegator gives it.
    pub fn update_targets(&mut self, bytes: &[u8], role: &str, delegator: &str) -> Result<()> {
        let file = role_file(role);
        let meta = self
            .check_final_snapshot()?
            .meta
            .get(&file)
            .cloned()
            .ok_or_else(|| TufError::MixAndMatch {
                file: file.clone(),
                by: "snapshot.json".into(),
                detail: "the snapshot does not list it".into(),
            })?;
        let (keys, role_keys) = if delegator == ROOT {
            let root = &self.root.signed;
            (root.keys.clone(), root.role(&file, TARGETS)?.clone())
        } else {
            let parent = &self
                .targets
                .get(delegator)
                .ok_or_else(|| TufError::Usage {
                    what: format!("{delegator} must be loaded before {role}"),
                })?
                .targets
                .signed;
            let delegations = parent
                .delegations
                .as_ref()
                .ok_or_else(|| malformed(&file, format!("{delegator} delegates nothing")))?;
            let role_keys = delegations
                .role_keys(role)
                .ok_or_else(|| malformed(&file, format!("{delegator} does not delegate {role}")))?;
            (delegations.keys.clone(), role_keys)
        };
        check_meta_file(&file, SNAPSHOT, &meta, bytes)?;
        let envelope = Envelope::parse(&file, bytes)?;
        let new: Targets = envelope.typed(&file, TARGETS)?;
        check_threshold(&file, role, &envelope, &role_keys, &keys)?;
        if new.common.version != meta.version {
            return Err(TufError::MixAndMatch {
                file,
                by: "snapshot.json".into(),
                detail: format!(
                    "version {} where the snapshot names {}",
                    new.common.version, meta.version
                ),
            });
        }
        self.expired(&file, &new.common.expires)?;
        if let Some(delegations) = &new.delegations {
            delegations.check(&file)?;
        }
        self.targets.insert(
            role.to_string(),
            VerifiedTargets {
                delegator: delegator.to_string(),
                targets: Verified {
                    signed: new,
                    bytes: bytes.to_vec(),
                },
            },
        );
        Ok(())
    }
}

/// A metadata file against what the role above says about it: length and hashes when given.
fn check_meta_file(file: &str, by: &str, meta: &MetaFile, bytes: &[u8]) -> Result<()> {
    if let Some(length) = meta.length
        && bytes.len() as u64 != length
    {
        return Err(TufError::MixAndMatch {
            file: file.to_string(),
            by: role_file(by),
            detail: format!("{} bytes where it names {length}", bytes.len()),
        });
    }
    if let Some(hashes) = &meta.hashes
        && let Err(what) = crate::hashes::check(hashes, bytes)
    {
        return Err(TufError::MixAndMatch {
            file: file.to_string(),
            by: role_file(by),
            detail: what,
        });
    }
    Ok(())
}

//! Whether a later version asks for more than the installed one (docs/sandbox.md, "When
//! an update asks for more"): `agx update` keeps the installed version of a package whose
//! permissions grew until the user accepts them.

use std::path::Path;

use super::{Network, Permissions};
use agx_model::manifest::Package;

/// What `new` grants that `old` did not, one line each; empty when nothing grew. `None`
/// declares nothing and runs unconfined: from it nothing can grow, and to it everything
/// does.
pub fn grown(old: Option<&Permissions>, new: Option<&Permissions>) -> Vec<String> {
    let (old, new) = match (old, new) {
        (None, _) => return Vec::new(),
        (Some(_), None) => {
            return vec!["declares no permissions any more: it would run unconfined".into()];
        }
        (Some(old), Some(new)) => (old, new),
    };
    let covered =
        |path: &str, granted: &[&String]| granted.iter().any(|g| Path::new(path).starts_with(g));
    let old_read: Vec<&String> = old.read.iter().chain(&old.write).collect();
    let old_write: Vec<&String> = old.write.iter().collect();
    let mut lines = Vec::new();
    for path in &new.read {
        if !covered(path, &old_read) {
            lines.push(format!("read {path}"));
        }
    }
    for path in &new.write {
        if !covered(path, &old_write) {
            lines.push(format!("write {path}"));
        }
    }
    match (&old.network, &new.network) {
        (Network::Hosts(was), Network::Hosts(now)) => {
            for host in now.iter().filter(|h| !was.contains(h)) {
                lines.push(format!("network host {host}"));
            }
        }
        (was, now) if reach(now) > reach(was) => {
            lines.push(format!("network {now} (was {was})"));
        }
        _ => {}
    }
    for name in new.env.iter().filter(|n| !old.env.contains(n)) {
        lines.push(format!("env {name}"));
    }
    lines
}

/// How far a network setting reaches: none < loopback < hosts < any.
fn reach(network: &Network) -> u8 {
    match network {
        Network::None => 0,
        Network::Loopback => 1,
        Network::Hosts(_) => 2,
        Network::Any => 3,
    }
}

/// What `new` (a later version of `old`) asks for beyond `old`: the package's permissions,
/// then each server's that has a table of its own in either version, prefixed with
/// `server NAME: `.
pub fn package_growth(old: &Package, new: &Package) -> Vec<String> {
    let mut lines = grown(old.permissions_of(None), new.permissions_of(None));
    for server in &new.servers {
        let name = server.name.as_str();
        let own = |p: &Package| p.server(name).is_some_and(|s| s.permissions.is_some());
        if !own(old) && !own(new) {
            continue;
        }
        lines.extend(
            grown(
                old.permissions_of(Some(name)),
                new.permissions_of(Some(name)),
            )
            .into_iter()
            .map(|line| format!("server {name}: {line}")),
        );
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perms(read: &[&str], write: &[&str], network: Network, env: &[&str]) -> Permissions {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
        Permissions {
            read: strings(read),
            write: strings(write),
            network,
            env: strings(env),
        }
    }

    #[test]
    fn nothing_grows_from_unconfined_and_everything_grows_to_it() {
        let some = perms(&[], &[], Network::None, &[]);
        assert!(grown(None, Some(&some)).is_empty());
        assert!(grown(None, None).is_empty());
        assert_eq!(grown(Some(&some), None).len(), 1);
        assert!(grown(Some(&some), Some(&some)).is_empty());
    }

    #[test]
    fn new_paths_grow_unless_under_what_was_granted() {
        let old = perms(&["{home}/.config/x"], &["{data}/cache"], Network::None, &[]);
        let new = perms(
            &["{home}/.config/x/sub", "{data}/cache/y", "{home}/.aws"],
            &["{data}/cache/z", "{home}/.config/x"],
            Network::None,
            &[],
        );
        assert_eq!(
            grown(Some(&old), Some(&new)),
            ["read {home}/.aws", "write {home}/.config/x"]
        );
        // Narrower is not growth.
        let narrower = perms(&["{home}/.config/x/sub"], &[], Network::None, &[]);
        assert!(grown(Some(&old), Some(&narrower)).is_empty());
    }

    #[test]
    fn the_network_grows_along_none_loopback_hosts_any_and_by_new_hosts() {
        let with = |n: Network| perms(&[], &[], n, &[]);
        let hosts = |h: &[&str]| Network::Hosts(h.iter().map(|s| s.to_string()).collect());
        let order = [
            Network::None,
            Network::Loopback,
            hosts(&["a.example"]),
            Network::Any,
        ];
        for (i, lower) in order.iter().enumerate() {
            for higher in &order[i + 1..] {
                assert_eq!(
                    grown(Some(&with(lower.clone())), Some(&with(higher.clone()))),
                    [format!("network {higher} (was {lower})")]
                );
                assert!(grown(Some(&with(higher.clone())), Some(&with(lower.clone()))).is_empty());
            }
        }
        assert_eq!(
            grown(
                Some(&with(hosts(&["a.example"]))),
                Some(&with(hosts(&["a.example", "b.example:443"])))
            ),
            ["network host b.example:443"]
        );
        assert!(
            grown(
                Some(&with(hosts(&["a.example", "b.example"]))),
                Some(&with(hosts(&["b.example"])))
            )
            .is_empty()
        );
    }

    #[test]
    fn new_env_names_grow() {
        let old = perms(&[], &[], Network::None, &["LANG"]);
        let new = perms(&[], &[], Network::None, &["LANG", "GITHUB_TOKEN"]);
        assert_eq!(grown(Some(&old), Some(&new)), ["env GITHUB_TOKEN"]);
        assert!(grown(Some(&new), Some(&old)).is_empty());
    }
}

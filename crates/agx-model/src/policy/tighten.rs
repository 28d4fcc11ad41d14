//! A layer may only tighten the layers above it. Every layer is enforced anyway (a package
//! must satisfy all of them), so a looser rule could never take effect; it is refused so
//! that nobody reads it as a grant, and the project that wrote it learns at once.

use super::{
    Located, Location, Loosening, NetworkMax, Pattern, PolicyError, PolicyLayer, Rules, within_text,
};

pub(super) fn check(above: &PolicyLayer, layer: &PolicyLayer) -> Result<(), PolicyError> {
    let (a, l) = (&above.rules, &layer.rules);
    let loosens = |rule: &'static str, at: &Location, above_at: &Location, detail: String| {
        PolicyError::Loosens(Box::new(Loosening {
            at: at.clone(),
            layer: layer.layer,
            rule,
            above_layer: above.layer,
            above_at: above_at.clone(),
            detail,
        }))
    };
    if let (Some(a), Some(l)) = (&a.require, &l.require)
        && l.value < a.value
    {
        return Err(loosens(
            "require",
            &l.at,
            &a.at,
            format!("`{}` is weaker than `{}`", l.value, a.value),
        ));
    }
    for (rule, above_rule, rule_here) in patterns(a, l) {
        if let (Some(a), Some(l)) = (above_rule, rule_here)
            && let Some(extra) = l.value.iter().find(|p| !covered(&a.value, &p.text))
        {
            return Err(loosens(
                rule,
                &l.at,
                &a.at,
                format!("`{}` is not within {}", extra.text, list(&a.value)),
            ));
        }
    }
    if let (Some(a), Some(l)) = (&a.max_network, &l.max_network)
        && !network_within(&l.value, &a.value)
    {
        return Err(loosens(
            "permissions.max.network",
            &l.at,
            &a.at,
            format!("`{}` is wider than `{}`", l.value, a.value),
        ));
    }
    if let (Some(a), Some(l)) = (&a.max_write, &l.max_write)
        && let Some(extra) = l
            .value
            .iter()
            .find(|p| !a.value.iter().any(|above| within_text(p, above)))
    {
        return Err(loosens(
            "permissions.max.write",
            &l.at,
            &a.at,
            format!("`{extra}` is not within {}", a.value.join(", ")),
        ));
    }
    if let (Some(a), Some(l)) = (&a.clients_allow, &l.clients_allow)
        && let Some(extra) = l.value.iter().find(|c| !a.value.contains(c))
    {
        return Err(loosens(
            "clients.allow",
            &l.at,
            &a.at,
            format!("`{extra}` is not among {}", a.value.join(", ")),
        ));
    }
    Ok(())
}

type PatternRule<'r> = Option<&'r Located<Vec<Pattern>>>;

/// The allow-lists of patterns, which a lower layer may only narrow. Deny-lists may only
/// grow, and any addition does.
fn patterns<'r>(
    a: &'r Rules,
    l: &'r Rules,
) -> [(&'static str, PatternRule<'r>, PatternRule<'r>); 3] {
    [
        (
            "sources.allow",
            a.sources_allow.as_ref(),
            l.sources_allow.as_ref(),
        ),
        (
            "publishers.allow",
            a.publishers_allow.as_ref(),
            l.publishers_allow.as_ref(),
        ),
        (
            "permissions.max.env",
            a.max_env.as_ref(),
            l.max_env.as_ref(),
        ),
    ]
}

/// Whether a pattern written below is within the patterns above: one of them matches its
/// text (`oci://ghcr.io/*` covers `oci://ghcr.io/acme/*`).
fn covered(above: &[Pattern], text: &str) -> bool {
    above.iter().any(|a| a.text == text || a.matches(text))
}

fn network_within(l: &NetworkMax, a: &NetworkMax) -> bool {
    use NetworkMax::*;
    match (l, a) {
        (_, Any) | (None, _) => true,
        (Loopback, Loopback | Hosts(_)) => true,
        (Hosts(l), Hosts(a)) => l.iter().all(|h| covered(a, &h.text)),
        _ => false,
    }
}

fn list(patterns: &[Pattern]) -> String {
    patterns
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

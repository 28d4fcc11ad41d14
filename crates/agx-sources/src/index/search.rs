//! Ranking catalog entries for `agx search`.
//!
//! Every query word must match somewhere in a package: its name, its description, or the
//! name or description of one of its servers, tools, prompts or skills. Matches in the name weigh
//! most, then item names, then descriptions; ties are broken by name.

use serde::Serialize;

use super::CatalogEntry;

/// One search hit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit<'a> {
    #[serde(flatten)]
    pub entry: &'a CatalogEntry,
    pub score: u32,
    /// What matched, e.g. `name`, `description`, `tool:get_forecast`.
    pub matched: Vec<String>,
}

/// The hits for `query` (split into words, case-insensitive), best first.
pub fn search<'a>(packages: &'a [CatalogEntry], query: &str) -> Vec<Hit<'a>> {
    let words = query_words(query);
    let mut hits: Vec<Hit> = packages
        .iter()
        .filter_map(|entry| score(entry, &words))
        .collect();
    hits.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| a.entry.name.cmp(&b.entry.name))
    });
    hits
}

fn score<'a>(entry: &'a CatalogEntry, words: &[String]) -> Option<Hit<'a>> {
    let ext = &entry.extension;
    let items = ext
        .servers
        .iter()
        .map(|s| ("server", &s.name, &s.description))
        .chain(ext.tools.iter().map(|t| ("tool", &t.name, &t.description)))
        .chain(
            ext.prompts
                .iter()
                .map(|p| ("prompt", &p.name, &p.description)),
        );
    let items: Vec<(&str, String, String)> = items
        .map(|(kind, n, d)| {
            (
                kind,
                n.to_lowercase(),
                d.as_deref().unwrap_or("").to_lowercase(),
            )
        })
        .chain(
            ext.skills
                .iter()
                .map(|s| ("skill", s.name.to_lowercase(), s.description.to_lowercase())),
        )
        .collect();
    let (score, matched) = score_text(
        &entry.name.to_string(),
        entry.name.name(),
        entry.description.as_deref().unwrap_or(""),
        &items,
        words,
    )?;
    Some(Hit {
        entry,
        score,
        matched,
    })
}

/// The query words split as [`search`] splits them.
pub fn query_words(query: &str) -> Vec<String> {
    query.split_whitespace().map(|w| w.to_lowercase()).collect()
}

/// Score one entry of any source: its full `name` (lowercase), its `short` name (after the
/// last `/`), its description and its items (`(kind, lowercase name, lowercase
/// description)`). `None` when some word matches nothing. Returns the score and what matched.
pub fn score_text(
    name: &str,
    short: &str,
    description: &str,
    items: &[(&str, String, String)],
    words: &[String],
) -> Option<(u32, Vec<String>)> {
    if words.is_empty() {
        return None;
    }
    let description = description.to_lowercase();
    let mut total = 0;
    let mut matched = Vec::new();
    let mut note = |what: String| {
        if !matched.contains(&what) {
            matched.push(what);
        }
    };
    for word in words {
        let word = word.as_str();
        let mut best = 0;
        if short == word || name == word {
            best = 100;
        } else if has_word_start(name, word) {
            best = 50;
        } else if name.contains(word) {
            best = 15;
        }
        if best > 0 {
            note("name".into());
        }
        for (kind, item, item_description) in items {
            let s = if item == word {
                30
            } else if has_word_start(item, word) {
                20
            } else if item.contains(word) {
                8
            } else if item_description.contains(word) {
                5
            } else {
                continue;
            };
            // An item counts as "matched" by its name, or by its description alone.
            if s > 5 || best == 0 {
                note(format!("{kind}:{item}"));
            }
            best = best.max(s);
        }
        if has_word_start(&description, word) {
            best = best.max(10);
            note("description".into());
        } else if description.contains(word) {
            best = best.max(4);
            note("description".into());
        }
        if best == 0 {
            return None;
        }
        total += best;
    }
    Some((total, matched))
}

/// True when `word` occurs in `text` at the start of a word (after a non-alphanumeric
/// character, or at the beginning), so `search` matches `web-search` but not only `research`.
fn has_word_start(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agx_core::name::PackageName;
    use agx_model::manifest::{ExtensionSummary, ToolSummary};

    fn entry(name: &str, description: &str, tools: &[&str]) -> CatalogEntry {
        CatalogEntry {
            name: PackageName::parse(name).unwrap(),
            version: semver::Version::new(1, 0, 0),
            description: Some(description.into()),
            extension: ExtensionSummary {
                tools: tools
                    .iter()
                    .map(|t| ToolSummary {
                        name: t.to_string(),
                        description: None,
                        parameters: vec![],
                    })
                    .collect(),
                ..Default::default()
            },
        }
    }

    #[test]
    fn ranks_name_over_items_over_descriptions() {
        let packages = [
            entry("acme/notes", "Keeps weather notes", &[]),
            entry("acme/weather", "Forecasts", &["get_forecast"]),
            entry("acme/sky", "Sky charts", &["weather_map"]),
            entry("acme/geo", "Coordinates", &[]),
        ];
        let hits = search(&packages, "Weather");
        let names: Vec<String> = hits.iter().map(|h| h.entry.name.to_string()).collect();
        assert_eq!(names, ["acme/weather", "acme/sky", "acme/notes"]);
        assert_eq!(hits[1].matched, ["tool:weather_map"]);
    }

    #[test]
    fn every_word_must_match() {
        let packages = [
            entry("acme/weather", "Forecasts and alerts", &[]),
            entry("acme/alerts", "Pager alerts", &[]),
        ];
        let hits = search(&packages, "weather alerts");
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].entry.name.to_string(), "acme/weather");
        assert!(search(&packages, "nothing-like-this").is_empty());
        // A word inside another word ranks below a whole word.
        let packages = [
            entry("acme/research", "Research", &[]),
            entry("acme/docs", "Docs", &["search"]),
        ];
        let names: Vec<String> = search(&packages, "search")
            .iter()
            .map(|h| h.entry.name.to_string())
            .collect();
        assert_eq!(names, ["acme/docs", "acme/research"]);
        assert!(search(&packages, "  ").is_empty());
    }
}

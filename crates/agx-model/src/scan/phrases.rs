//! Text addressed to the model: a small, documented set of word patterns (docs/security.md)
//! matched sentence by sentence over lowercased words, with invisible characters ignored so
//! that `ig\u{200B}nore` still reads `ignore`.
//!
//! A pattern is slots separated by spaces: `a|b` matches either word, a trailing `?` makes a
//! slot optional, and `..` skips up to [`GAP`] words.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};

use super::{
    ADDRESSED_TO_MODEL, HIDE_FROM_USER, Hit, MODEL_TAG, OVERRIDE_INSTRUCTIONS, SECRET_ACCESS,
    SECRET_PATH, ScanCode, TOOL_REDIRECTION, hidden::excerpt,
};

/// How many words `..` may skip.
const GAP: usize = 6;

/// Phrases that are a finding on their own.
const PATTERNS: &[(ScanCode, &str)] = &[
    (
        HIDE_FROM_USER,
        "do|must|should|shall not tell|mention|inform|notify|alert|reveal|disclose|show .. user|users|human|humans",
    ),
    (
        HIDE_FROM_USER,
        "don't|dont|never|mustn't|shouldn't tell|mention|inform|notify|alert|reveal|disclose|show .. user|users|human|humans",
    ),
    (
        HIDE_FROM_USER,
        "do|must|should not|never mention|reveal|disclose .. these|this|the instructions|instruction|sidenote|step",
    ),
    (
        HIDE_FROM_USER,
        "don't|dont|never mention|reveal|disclose .. these|this|the instructions|instruction|sidenote|step",
    ),
    (
        HIDE_FROM_USER,
        "without telling|informing|notifying|alerting|asking|letting|showing the? user|users|human|them",
    ),
    (
        HIDE_FROM_USER,
        "hide|conceal this|it|these|that|them from the? user|users|human",
    ),
    (
        HIDE_FROM_USER,
        "user|users|human must|should not know|see|notice|learn",
    ),
    (
        HIDE_FROM_USER,
        "user|users|human mustn't|shouldn't know|see|notice|learn",
    ),
    (
        OVERRIDE_INSTRUCTIONS,
        "ignore|disregard|forget .. previous|prior|above|earlier|preceding|original|system|existing|other instructions|instruction|prompt|prompts|rules|directions|guidelines|messages",
    ),
    (
        OVERRIDE_INSTRUCTIONS,
        "ignore|disregard|forget all|everything|anything? the? above|before|previously|earlier",
    ),
    (
        TOOL_REDIRECTION,
        "when|whenever|if|while this tool|server|function|extension is available|present|loaded|installed|enabled|connected",
    ),
    (
        TOOL_REDIRECTION,
        "instead of using|calling|invoking|running the|any|other? .. tool|tools|server|function",
    ),
    (
        TOOL_REDIRECTION,
        "do|must|should not|never use|call|invoke any|the? other tool|tools|server|servers",
    ),
    (
        TOOL_REDIRECTION,
        "don't|dont|never|mustn't use|call|invoke any|the? other tool|tools|server|servers",
    ),
    (
        ADDRESSED_TO_MODEL,
        "note|message|instructions|instruction to|for the|any? ai|assistant|model|llm|agent",
    ),
    (ADDRESSED_TO_MODEL, "you are now"),
    (
        ADDRESSED_TO_MODEL,
        "dear|attention|hey ai|assistant|model|llm|agent|claude|chatgpt|gpt|gemini|copilot",
    ),
];

/// Markup that poses as a message of higher rank than the description it sits in.
const TAGS: &[&str] = &[
    "<important>",
    "</important>",
    "<system>",
    "</system>",
    "<system-reminder>",
    "<|im_start|>",
    "<|system|>",
    "<<sys>>",
    "[inst]",
    "[system]",
];

/// Files and phrases that name a secret outright.
const SECRET_FILES: &[&str] = &[
    "~/.ssh",
    ".ssh/",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    ".aws/credentials",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".pgpass",
    ".docker/config.json",
    ".kube/config",
    "/etc/shadow",
    "/etc/passwd",
    "credentials.json",
    "mcp.json",
    "claude_desktop_config.json",
    "wallet.dat",
    "private key",
    "private keys",
    "seed phrase",
];

/// Words that name a secret but also appear in ordinary descriptions of tools that need one
/// ("the API token to use"): a finding only with both a reading and a sending verb and
/// words addressed to the model.
const SECRET_WORDS: &[&str] = &[
    "token",
    "tokens",
    "password",
    "passwords",
    "apikey",
    "api_key",
    "secret",
    "secrets",
    "credential",
    "credentials",
    "cookie",
    "cookies",
];

/// Verbs that get at a file's content.
const READ_VERBS: &[&str] = &[
    "read", "cat", "open", "load", "dump", "extract", "collect", "retrieve", "fetch", "grab",
    "access", "copy", "get",
];

/// Verbs that move text somewhere the user did not ask for.
const SEND_VERBS: &[&str] = &[
    "send",
    "pass",
    "include",
    "upload",
    "attach",
    "append",
    "post",
    "forward",
    "embed",
    "put",
    "paste",
    "transmit",
    "exfiltrate",
    "leak",
    "share",
    "provide",
    "add",
];

/// Words that tell the model what to do (as opposed to describing what a tool does).
const ADDRESSED: &[&str] = &[
    "you must",
    "you should",
    "you need",
    "you have to",
    "make sure",
    "be sure",
    "always",
    "before using",
    "before calling",
    "before invoking",
    "before running",
    "before you",
    "it is important",
    "it's important",
    "important",
    "remember to",
    "do not forget",
    "don't forget",
    "otherwise",
    "mandatory",
    "first",
];

/// Append a hit for each pattern, tag and secret rule matched in `text`.
pub(super) fn scan(text: &str, hits: &mut Vec<Hit>) {
    let norm = Normalized::new(text);
    // Every tag opens with `<` or `[`: most descriptions have neither.
    let tags: &[&str] = if norm.text.contains(['<', '[']) {
        TAGS
    } else {
        &[]
    };
    for tag in tags {
        for (at, _) in norm.text.match_indices(tag) {
            hits.push(Hit {
                code: MODEL_TAG,
                offset: norm.original(at),
                code_point: None,
                detail: format!(
                    "`{}`",
                    &text[norm.original(at)..norm.original_end(at + tag.len())]
                ),
            });
        }
    }
    for sentence in norm.sentences() {
        let words = words(&norm.text, sentence.clone());
        for pattern in compiled() {
            if let Some((first, last)) = pattern.find(&words) {
                let (start, end) = (words[first].start, words[last].end);
                hits.push(phrase_hit(pattern.code, text, &norm, start, end));
            }
        }
        secrets(text, &norm, &words, sentence, hits);
    }
}

/// S101 and S106 in one sentence.
fn secrets(
    text: &str,
    norm: &Normalized,
    words: &[Word],
    sentence: std::ops::Range<usize>,
    hits: &mut Vec<Hit>,
) {
    let s = &norm.text[sentence.clone()];
    let file = secret_files()
        .find_overlapping_iter(s)
        .map(|m| (m.start(), SECRET_FILES[m.pattern().as_usize()]))
        .filter(|&(at, f)| names_file(s, at, f))
        .map(|(at, f)| (at, f.len()))
        .min();
    let word = words.iter().enumerate().find_map(|(i, w)| {
        let api_key = w.text == "api"
            && words
                .get(i + 1)
                .is_some_and(|n| n.text == "key" || n.text == "keys");
        (api_key || SECRET_WORDS.contains(&w.text.as_str())).then_some(w)
    });
    // Orders use a verb's plain form; a description says what a tool `reads`.
    let ordered = |verbs: &[&str]| words.iter().any(|w| verbs.contains(&w.text.as_str()));
    let described = |verbs: &[&str]| {
        words.iter().any(|w| {
            verbs.iter().any(|v| {
                w.text
                    .strip_prefix(v)
                    .is_some_and(|end| ["", "s", "es", "ing", "ed"].contains(&end))
            })
        })
    };
    let (reads, sends) = (ordered(READ_VERBS), ordered(SEND_VERBS));
    let mentioned = described(READ_VERBS) || described(SEND_VERBS);
    let addressed = addressed_phrases()
        .find_overlapping_iter(s)
        .any(|m| stands_alone(s, m.start(), m.end()))
        || s.contains("<important>");
    let (code, start, len) = match (file, word) {
        (Some((at, len)), _) if (reads || sends) && addressed => {
            (SECRET_ACCESS, sentence.start + at, len)
        }
        (Some((at, len)), _) if mentioned => (SECRET_PATH, sentence.start + at, len),
        (None, Some(w)) if reads && sends && addressed => (SECRET_ACCESS, w.start, w.end - w.start),
        _ => return,
    };
    let mut hit = phrase_hit(code, text, norm, start, start + len);
    hit.detail = format!(
        "{} in \"{}\"",
        hit.detail,
        excerpt(
            text[norm.original(sentence.start)..norm.original_end(sentence.end)].trim(),
            120
        )
    );
    hits.push(hit);
}

fn phrase_hit(code: ScanCode, text: &str, norm: &Normalized, start: usize, end: usize) -> Hit {
    let (from, to) = (norm.original(start), norm.original_end(end));
    Hit {
        code,
        offset: from,
        code_point: None,
        detail: format!("\"{}\"", excerpt(&text[from..to], 120)),
    }
}

/// Whether the `file` found at `at` in `s` is a name of its own (not `process.env` or
/// `my_id_rsa_tool`).
fn names_file(s: &str, at: usize, file: &str) -> bool {
    let before = s[..at].chars().next_back();
    let after = s[at + file.len()..].chars().next();
    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_');
    (edge(before) || file.starts_with(['~', '/', '.'])) && edge(after)
        || file.ends_with('/') && edge(before)
}

/// Whether `s[start..end]` is whole words (no letter or digit on either side).
fn stands_alone(s: &str, start: usize, end: usize) -> bool {
    let before = s[..start].chars().next_back();
    let after = s[end..].chars().next();
    before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
}

/// One automaton for [`SECRET_FILES`], built on first use: a sentence is read once, not once
/// per name.
fn secret_files() -> &'static AhoCorasick {
    static FILES: OnceLock<AhoCorasick> = OnceLock::new();
    FILES.get_or_init(|| automaton(SECRET_FILES))
}

/// One automaton for [`ADDRESSED`].
fn addressed_phrases() -> &'static AhoCorasick {
    static PHRASES: OnceLock<AhoCorasick> = OnceLock::new();
    PHRASES.get_or_init(|| automaton(ADDRESSED))
}

/// An automaton that is cheap to build: every `agx serve` builds both at start to scan a
/// few dozen short descriptions, where building the DFA the crate would choose cost more
/// than all the searches it speeds up (a tenth of `agx-serve`'s start, measured with perf).
fn automaton(patterns: &[&str]) -> AhoCorasick {
    AhoCorasick::builder()
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(patterns)
        .expect("fixed patterns build")
}

/// A word of the normalized text: where it is, and what it says.
#[derive(Debug, Clone)]
struct Word {
    start: usize,
    end: usize,
    text: String,
}

/// The words (letters, digits, `'`, `_`) of `norm[range]`.
fn words(norm: &str, range: std::ops::Range<usize>) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start = None;
    let push = |s: usize, end: usize, out: &mut Vec<Word>| {
        out.push(Word {
            start: s,
            end,
            text: norm[s..end].trim_matches('\'').to_string(),
        })
    };
    for (i, c) in norm[range.clone()].char_indices() {
        let at = range.start + i;
        let in_word = c.is_alphanumeric() || c == '\'' || c == '_';
        match (in_word, start) {
            (true, None) => start = Some(at),
            (false, Some(s)) => {
                push(s, at, &mut out);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        push(s, range.end, &mut out);
    }
    out
}

/// A slot of a pattern: `..`, or the words it accepts and whether it may be left out.
#[derive(Debug)]
enum Slot {
    Gap,
    Words {
        alternatives: Vec<&'static str>,
        optional: bool,
    },
}

impl Slot {
    fn parse(slot: &'static str) -> Slot {
        if slot == ".." {
            return Slot::Gap;
        }
        let optional = slot.ends_with('?');
        Slot::Words {
            alternatives: slot.trim_end_matches('?').split('|').collect(),
            optional,
        }
    }
}

/// A pattern of [`PATTERNS`] split into its slots once.
#[derive(Debug)]
struct Pattern {
    code: ScanCode,
    slots: Vec<Slot>,
}

/// [`PATTERNS`], parsed on first use.
fn compiled() -> &'static [Pattern] {
    static COMPILED: OnceLock<Vec<Pattern>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        PATTERNS
            .iter()
            .map(|&(code, pattern)| Pattern {
                code,
                slots: pattern.split(' ').map(Slot::parse).collect(),
            })
            .collect()
    })
}

impl Pattern {
    /// The first match in `words`: the indices of its first and last word.
    fn find(&self, words: &[Word]) -> Option<(usize, usize)> {
        // A required first word rules out every start that is not one of its words.
        let first = match self.slots.first() {
            Some(Slot::Words {
                alternatives,
                optional: false,
            }) => Some(alternatives),
            _ => None,
        };
        (0..words.len())
            .filter(|&start| first.is_none_or(|alts| alts.contains(&words[start].text.as_str())))
            .find_map(|start| {
                match_slots(words, start, &self.slots, None).map(|last| (start, last))
            })
    }
}

/// Match `slots` from word `at` (`last` is the last word matched so far); the index of the
/// last word of the whole match.
fn match_slots(words: &[Word], at: usize, slots: &[Slot], last: Option<usize>) -> Option<usize> {
    let Some((slot, rest)) = slots.split_first() else {
        return last;
    };
    let (alternatives, optional) = match slot {
        Slot::Gap => return (0..=GAP).find_map(|skip| match_slots(words, at + skip, rest, last)),
        Slot::Words {
            alternatives,
            optional,
        } => (alternatives, *optional),
    };
    let here = words
        .get(at)
        .is_some_and(|w| alternatives.contains(&w.text.as_str()));
    here.then(|| match_slots(words, at + 1, rest, Some(at)))
        .flatten()
        .or_else(|| {
            optional
                .then(|| match_slots(words, at, rest, last))
                .flatten()
        })
}

/// `text` lowercased, with invisible characters dropped and typographic apostrophes made
/// plain, and the way back to byte offsets in `text`.
struct Normalized {
    text: String,
    /// For each byte of `text`, the offset in the original of the character it came from;
    /// `None` when every offset is its own (an ASCII original).
    map: Option<Vec<usize>>,
    original_len: usize,
}

impl Normalized {
    fn new(original: &str) -> Self {
        // ASCII has nothing to drop or replace and lowers byte for byte: offsets stay.
        if original.is_ascii() {
            return Normalized {
                text: original.to_ascii_lowercase(),
                map: None,
                original_len: original.len(),
            };
        }
        let mut text = String::with_capacity(original.len());
        let mut map = Vec::with_capacity(original.len());
        for (at, c) in original.char_indices() {
            if is_ignorable(c) {
                continue;
            }
            let c = match c {
                '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
                c => c,
            };
            for lower in c.to_lowercase() {
                let before = text.len();
                text.push(lower);
                map.extend(std::iter::repeat_n(at, text.len() - before));
            }
        }
        Normalized {
            text,
            map: Some(map),
            original_len: original.len(),
        }
    }

    /// The original offset of normalized byte `at`.
    fn original(&self, at: usize) -> usize {
        match &self.map {
            Some(map) => map.get(at).copied().unwrap_or(self.original_len),
            None => at.min(self.original_len),
        }
    }

    /// The original offset just past the character that ends at normalized byte `end`.
    fn original_end(&self, end: usize) -> usize {
        self.original(end)
    }

    /// Sentences: split after `.`, `!` or `?` followed by white space, and at blank lines.
    fn sentences(&self) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = self.text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let end_mark = matches!(bytes[i], b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace());
            let blank_line = bytes[i] == b'\n' && next_line_blank(bytes, i + 1);
            if end_mark || blank_line {
                out.push(start..i + 1);
                start = i + 1;
            }
            i += 1;
        }
        if start < bytes.len() {
            out.push(start..bytes.len());
        }
        out
    }
}

/// Whether the line starting at `from` holds only white space.
fn next_line_blank(bytes: &[u8], from: usize) -> bool {
    bytes[from..]
        .iter()
        .take_while(|&&b| b != b'\n')
        .all(|b| b.is_ascii_whitespace())
        && from < bytes.len()
}

/// Characters dropped before matching words: format characters that split a word without
/// showing.
fn is_ignorable(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064
        | 0x2066..=0x206F | 0xFEFF | 0xFE00..=0xFE0F | 0xE0000..=0xE007F | 0xE0100..=0xE01EF
    )
}

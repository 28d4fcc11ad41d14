//! Characters a person does not see, or that change what a terminal shows: tag characters,
//! variation-selector runs, bidi controls, zero-width and other format characters, fillers,
//! escapes and controls. Joiners are left alone where a script or an emoji needs them.

use super::{
    BIDI_CONTROL, CONTROL_CHARACTER, HIDDEN_TEXT, Hit, INVISIBLE_FILLER, ScanCode, TERMINAL_ESCAPE,
    ZERO_WIDTH,
};

/// Append a hit for each run of hidden characters of one class in `text`.
pub(super) fn scan(text: &str, hits: &mut Vec<Hit>) {
    // Printable ASCII, tabs and line ends are never hidden: most descriptions are only that,
    // and `agx serve` scans every one of a package's at start.
    if text
        .bytes()
        .all(|b| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7E))
    {
        return;
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let Some(code) = classify(&chars, i) else {
            i += 1;
            continue;
        };
        let start = i;
        while i < chars.len() && classify(&chars, i) == Some(code) {
            i += 1;
        }
        let run: Vec<char> = chars[start..i].iter().map(|&(_, c)| c).collect();
        if code == HIDDEN_TEXT && is_flag_tag_sequence(&chars, start, &run) {
            continue;
        }
        hits.push(Hit {
            code,
            offset: chars[start].0,
            code_point: Some(run[0] as u32),
            detail: describe(code, &run),
        });
    }
}

/// The class of the character at `i`, given its neighbours; `None` for a visible or
/// legitimately placed one.
fn classify(chars: &[(usize, char)], i: usize) -> Option<ScanCode> {
    let c = chars[i].1;
    let prev = i.checked_sub(1).map(|j| chars[j].1);
    let next = chars.get(i + 1).map(|&(_, c)| c);
    Some(match c as u32 {
        0xE0000..=0xE007F => HIDDEN_TEXT,
        // One selector after a character chooses its glyph; two or more in a row carry data.
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF
            if prev.is_some_and(is_variation_selector)
                || next.is_some_and(is_variation_selector) =>
        {
            HIDDEN_TEXT
        }
        0x202A..=0x202E | 0x2066..=0x2069 => BIDI_CONTROL,
        0x1B | 0x80..=0x9F => TERMINAL_ESCAPE,
        0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1A | 0x1C..=0x1F | 0x7F => CONTROL_CHARACTER,
        0x200C | 0x200D if joins(prev, c, next) => return None,
        0x180E if prev.is_some_and(is_mongolian) && next.is_some_and(is_mongolian) => {
            return None;
        }
        // A byte order mark opening a file is an encoding mark, not hidden text.
        0xFEFF if i == 0 => return None,
        0x200B..=0x200D
        | 0x2060..=0x2064
        | 0x206A..=0x206F
        | 0xFEFF
        | 0x180E
        | 0x034F
        | 0xFFF9..=0xFFFB
        | 0x1BCA0..=0x1BCA3 => ZERO_WIDTH,
        0x115F | 0x1160 | 0x3164 | 0xFFA0 => INVISIBLE_FILLER,
        0x2800 if !(prev.is_some_and(is_braille) || next.is_some_and(is_braille)) => {
            INVISIBLE_FILLER
        }
        _ => return None,
    })
}

fn is_variation_selector(c: char) -> bool {
    matches!(c as u32, 0xFE00..=0xFE0F | 0xE0100..=0xE01EF)
}

/// ZWJ and ZWNJ between letters of a script that shapes with them (Arabic and Persian,
/// Syriac, the Indic scripts, Myanmar, Khmer, Mongolian), and ZWJ inside an emoji sequence.
fn joins(prev: Option<char>, joiner: char, next: Option<char>) -> bool {
    let (Some(prev), Some(next)) = (prev, next) else {
        return false;
    };
    if is_joining_script(prev) && is_joining_script(next) {
        return true;
    }
    joiner == '\u{200D}' && (is_emoji(prev) || prev == '\u{FE0F}') && is_emoji(next)
}

fn is_joining_script(c: char) -> bool {
    matches!(c as u32,
        0x0600..=0x06FF      // Arabic (Persian, Urdu)
        | 0x0700..=0x074F    // Syriac
        | 0x0750..=0x077F    // Arabic Supplement
        | 0x08A0..=0x08FF    // Arabic Extended-A
        | 0x0900..=0x0DFF    // Devanagari … Sinhala
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
        | 0x1800..=0x18AF    // Mongolian
        | 0xA8E0..=0xA8FF    // Devanagari Extended
        | 0xFB50..=0xFDFF    // Arabic Presentation Forms-A
        | 0xFE70..=0xFEFE    // Arabic Presentation Forms-B
    )
}

fn is_mongolian(c: char) -> bool {
    matches!(c as u32, 0x1800..=0x18AF)
}

fn is_braille(c: char) -> bool {
    matches!(c as u32, 0x2801..=0x28FF)
}

/// Characters that take part in emoji ZWJ sequences (an approximation of
/// Extended_Pictographic, with skin tones and gender signs).
fn is_emoji(c: char) -> bool {
    matches!(c as u32,
        0x1F000..=0x1FAFF
        | 0x2600..=0x27BF
        | 0x2300..=0x23FF
        | 0x2B00..=0x2BFF
        | 0x2190..=0x21FF
        | 0x00A9 | 0x00AE | 0x203C | 0x2049 | 0x2122 | 0x2139 | 0x3030 | 0x303D | 0x3297 | 0x3299
    )
}

/// A subdivision flag (🏴 then the region's letters as tags, then CANCEL TAG), the one
/// legitimate use of tag characters.
fn is_flag_tag_sequence(chars: &[(usize, char)], start: usize, run: &[char]) -> bool {
    let after_flag = start > 0 && chars[start - 1].1 == '\u{1F3F4}';
    let letters = &run[..run.len().saturating_sub(1)];
    after_flag
        && run.last() == Some(&'\u{E007F}')
        && (2..=6).contains(&letters.len())
        && letters
            .iter()
            .all(|&c| matches!(c as u32, 0xE0030..=0xE0039 | 0xE0061..=0xE007A))
}

/// `57 tag characters spelling "ignore previous…"`, `U+202E RIGHT-TO-LEFT OVERRIDE`, …
fn describe(code: ScanCode, run: &[char]) -> String {
    let first = run[0] as u32;
    let count = match run.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    if code == HIDDEN_TEXT && (0xE0000..=0xE007F).contains(&first) {
        let spelled: String = run
            .iter()
            .filter_map(|&c| char::from_u32(c as u32 - 0xE0000))
            .filter(|c| c.is_ascii_graphic() || *c == ' ')
            .collect();
        let spelled = excerpt(&spelled, 80);
        return format!(
            "{} tag characters (U+{first:04X}{count}) spelling \"{spelled}\"",
            run.len()
        );
    }
    format!("{} (U+{first:04X}{count})", name_of(run[0]))
}

/// A short name for the characters this scan reports.
fn name_of(c: char) -> &'static str {
    match c as u32 {
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF => "variation selectors in a row",
        0x202A => "LEFT-TO-RIGHT EMBEDDING",
        0x202B => "RIGHT-TO-LEFT EMBEDDING",
        0x202C => "POP DIRECTIONAL FORMATTING",
        0x202D => "LEFT-TO-RIGHT OVERRIDE",
        0x202E => "RIGHT-TO-LEFT OVERRIDE",
        0x2066 => "LEFT-TO-RIGHT ISOLATE",
        0x2067 => "RIGHT-TO-LEFT ISOLATE",
        0x2068 => "FIRST STRONG ISOLATE",
        0x2069 => "POP DIRECTIONAL ISOLATE",
        0x1B => "ESCAPE",
        0x80..=0x9F => "C1 control character",
        0x200B => "ZERO WIDTH SPACE",
        0x200C => "ZERO WIDTH NON-JOINER",
        0x200D => "ZERO WIDTH JOINER",
        0x2060 => "WORD JOINER",
        0x2061..=0x2064 => "invisible mathematical operator",
        0xFEFF => "ZERO WIDTH NO-BREAK SPACE (byte order mark)",
        0x180E => "MONGOLIAN VOWEL SEPARATOR",
        0x034F => "COMBINING GRAPHEME JOINER",
        0x115F | 0x1160 | 0x3164 | 0xFFA0 => "Hangul filler",
        0x2800 => "BRAILLE PATTERN BLANK",
        _ if c.is_control() => "control character",
        _ => "invisible format character",
    }
}

/// At most `max` characters of `text`, with `…` when cut, on one line: line ends and tabs as
/// spaces, and the characters this scan reports as `\u{…}`, so that a quoted sentence shows
/// where they are and a terminal never acts on them.
pub(super) fn excerpt(text: &str, max: usize) -> String {
    let chars: Vec<(usize, char)> = text.char_indices().take(max).collect();
    let mut out = String::new();
    for (i, &(_, c)) in chars.iter().enumerate() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if classify(&chars, i).is_some() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

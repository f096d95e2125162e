//! Cuts a contract into units (sentences, list items, heading lines) and
//! tracks the section each unit sits in.
//!
//! CUAD texts come from PDF and HTML conversions: paragraphs are separated by
//! newlines, lines are padded with runs of spaces, and headings are either on
//! their own line ("ARTICLE 12 INDEMNITY") or run into the paragraph
//! ("12. Indemnity. Each party shall ..."). Offsets are byte offsets into the
//! analysed text.

/// Units longer than this are cut at a space: tables and run-on exhibits
/// would otherwise become one giant unit that matches nothing.
const MAX_UNIT_BYTES: usize = 1500;
/// A unit this short (in words) with a heading shape is a heading.
const MAX_HEADING_WORDS: usize = 12;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub start: usize,
    pub end: usize,
    /// Index into [`Segmented::headings`] of the heading in force, if any.
    pub heading: Option<usize>,
    /// Index into [`Segmented::sections`] of the section number in force.
    pub section: Option<usize>,
    pub is_heading: bool,
}

#[derive(Debug, Default)]
pub struct Segmented {
    pub units: Vec<Unit>,
    /// Heading texts as byte ranges.
    pub headings: Vec<(usize, usize)>,
    /// Section numbers as written ("12", "12.3", "IV").
    pub sections: Vec<String>,
}

pub fn segment(text: &str) -> Segmented {
    let mut out = Segmented::default();
    let mut heading = None;
    let mut section = None;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let mut first_in_line = true;
        for (start, end) in sentences(text, line_start, line_end) {
            let unit_text = &text[start..end];
            if let Some(number) = section_number(unit_text) {
                out.sections.push(number);
                section = Some(out.sections.len() - 1);
            }
            let is_heading = looks_like_heading(unit_text, first_in_line);
            if is_heading {
                let (hs, he) = heading_words(text, start, end);
                out.headings.push((hs, he));
                heading = Some(out.headings.len() - 1);
            }
            out.units.push(Unit {
                start,
                end,
                heading,
                section,
                is_heading,
            });
            first_in_line = false;
        }
        line_start = line_end;
    }
    out
}

/// Sentence ranges of one line, trimmed, long ones cut.
fn sentences(text: &str, from: usize, to: usize) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = from;
    let mut i = from;
    while i < to {
        let b = bytes[i];
        if matches!(b, b'.' | b';' | b':' | b'!' | b'?') && is_boundary(text, start, i, to) {
            let mut end = i + 1;
            while end < to && matches!(bytes[end], b'"' | b')' | b'\'') {
                end += 1;
            }
            push_trimmed(text, start, end, &mut out);
            start = end;
            i = end;
            continue;
        }
        i += 1;
    }
    push_trimmed(text, start, to, &mut out);
    out
}

/// Whether the punctuation at `at` ends a sentence: whitespace follows, then
/// something that can open one, and the word before is not an abbreviation
/// or a bare list number ("1.", "(a).", "Inc.").
fn is_boundary(text: &str, start: usize, at: usize, to: usize) -> bool {
    let bytes = text.as_bytes();
    let mut j = at + 1;
    while j < to && matches!(bytes[j], b'"' | b')' | b'\'') {
        j += 1;
    }
    if j >= to || !bytes[j].is_ascii_whitespace() {
        return false;
    }
    while j < to && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    if j >= to {
        return true;
    }
    let next = bytes[j];
    let opens = next.is_ascii_uppercase()
        || next.is_ascii_digit()
        || matches!(next, b'(' | b'[' | b'"' | b'\'')
        || next >= 0x80;
    if !opens {
        return false;
    }
    if bytes[at] != b'.' {
        return true;
    }
    let word = text[start..at]
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    let word_start = at - word.len();
    if word.is_empty() {
        return true;
    }
    if word.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        // "1." or "12.3." at the start of a line numbers a section.
        return !text[start..word_start].trim().is_empty();
    }
    if word.len() == 1 && word.as_bytes()[0].is_ascii_alphabetic() {
        return false;
    }
    !is_abbreviation(word)
}

fn is_abbreviation(word: &str) -> bool {
    const ABBREVIATIONS: &[&str] = &[
        "inc", "ltd", "co", "corp", "no", "nos", "mr", "mrs", "ms", "dr", "st", "sec", "art", "vs",
        "v", "u.s", "e.g", "i.e", "etc", "jr", "sr", "p.a", "l.p", "n.v", "b.v", "s.a", "s.p.a",
        "u.k", "n.a", "cf", "approx", "dept", "ave", "para", "pty", "plc", "llc",
    ];
    let lower = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_ascii_lowercase();
    ABBREVIATIONS.contains(&lower.as_str())
        || (lower.len() <= 4 && lower.contains('.') && !lower.ends_with('.'))
}

fn push_trimmed(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
    let piece = &text[start..end];
    let lead = piece.len() - piece.trim_start().len();
    let (mut s, e) = (start + lead, start + piece.trim_end().len());
    if s >= e {
        return;
    }
    while e - s > MAX_UNIT_BYTES {
        let mut cut = s + MAX_UNIT_BYTES;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let cut = text[s..cut].rfind(' ').map_or(cut, |k| s + k).max(s + 1);
        let mut cut = cut;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        out.push((s, cut));
        s = cut;
        while s < e && text.as_bytes()[s].is_ascii_whitespace() {
            s += 1;
        }
    }
    if s < e {
        out.push((s, e));
    }
}

/// The section number a line opens with: "12.", "12.3", "Section 4.1",
/// "ARTICLE IV".
pub fn section_number(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    for prefix in ["section", "article", "clause", "sec."] {
        let head = rest.get(..prefix.len());
        if rest.len() > prefix.len() && head.is_some_and(|h| h.eq_ignore_ascii_case(prefix)) {
            rest = rest[prefix.len()..].trim_start();
            let roman: String = rest
                .chars()
                .take_while(|c| matches!(c, 'I' | 'V' | 'X' | 'L'))
                .collect();
            if !roman.is_empty() && rest[roman.len()..].starts_with(|c: char| !c.is_alphabetic()) {
                return Some(roman);
            }
            break;
        }
    }
    let number: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let number = number.trim_end_matches('.');
    let digits = number.bytes().filter(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 || number.starts_with('.') || number.contains("..") {
        return None;
    }
    let after = &rest[number.len()..];
    // "12. Term", "12.3 Term", "4 GOVERNING LAW"; not "30 days".
    let capital_next = after
        .trim_start_matches([' ', '\t'])
        .starts_with(|c: char| c.is_uppercase());
    let after_ok = after.starts_with(". ")
        || after == "."
        || (after.starts_with([' ', '\t']) && (number.contains('.') || capital_next));
    // "2020 " or "100 units" are not section numbers.
    let plausible = number.contains('.') || number.len() <= 3;
    (after_ok && plausible).then(|| number.to_string())
}

fn looks_like_heading(unit: &str, first_in_line: bool) -> bool {
    if !first_in_line {
        return false;
    }
    let words: Vec<&str> = unit.split_whitespace().collect();
    if words.is_empty() || words.len() > MAX_HEADING_WORDS {
        return false;
    }
    let letters: Vec<char> = unit.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 3 {
        return false;
    }
    let upper = letters.iter().filter(|c| c.is_uppercase()).count();
    if upper * 10 >= letters.len() * 8 {
        return true;
    }
    // "12. Indemnity." or "Term and Termination": few words, capitalised,
    // no verb-like lowercase run.
    let capitalised = words
        .iter()
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        })
        .count();
    let small_words = words
        .iter()
        .filter(|w| {
            matches!(
                **w,
                "and" | "of" | "the" | "to" | "for" | "or" | "in" | "on"
            )
        })
        .count();
    words.len() <= 8 && capitalised + small_words == words.len() && !unit.ends_with(',')
}

/// The words of a heading without its section number.
fn heading_words(text: &str, start: usize, end: usize) -> (usize, usize) {
    let unit = &text[start..end];
    let skip = unit.find(|c: char| c.is_alphabetic()).unwrap_or(unit.len());
    let word = unit[skip..].split_whitespace().next().unwrap_or("");
    let lower = word.to_ascii_lowercase();
    let skip = if matches!(lower.as_str(), "section" | "article" | "clause") {
        let after = skip + word.len();
        unit[after..]
            .find(|c: char| c.is_alphabetic() && !matches!(c, 'I' | 'V' | 'X' | 'L'))
            .map_or(skip, |k| after + k)
    } else {
        skip
    };
    (start + skip, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<&str> {
        segment(text)
            .units
            .iter()
            .map(|u| &text[u.start..u.end])
            .collect()
    }

    #[test]
    fn splits_sentences_and_keeps_numbered_headings() {
        let text = "CONSULTING AGREEMENT\n\n1. Services. Acme Inc. will advise the Client. It will report monthly.\n2.1 Fees: The Client pays $5.00 per hour.";
        assert_eq!(
            texts(text),
            vec![
                "CONSULTING AGREEMENT",
                "1. Services.",
                "Acme Inc. will advise the Client.",
                "It will report monthly.",
                "2.1 Fees:",
                "The Client pays $5.00 per hour."
            ]
        );
        let seg = segment(text);
        assert!(seg.units[0].is_heading && seg.units[1].is_heading);
        assert_eq!(seg.sections, vec!["1", "2.1"]);
        assert_eq!(seg.units[3].section, Some(0));
        let (hs, he) = seg.headings[seg.units[2].heading.unwrap()];
        assert_eq!(&text[hs..he], "Services.");
    }

    #[test]
    fn section_numbers() {
        assert_eq!(section_number("12.3 Term").as_deref(), Some("12.3"));
        assert_eq!(section_number("Section 4.1. Fees").as_deref(), Some("4.1"));
        assert_eq!(
            section_number("ARTICLE IV INDEMNITY").as_deref(),
            Some("IV")
        );
        assert_eq!(section_number("2020 was a year"), None);
        assert_eq!(section_number("The term"), None);
    }

    #[test]
    fn cuts_overlong_units_on_char_boundaries() {
        let text = "é ".repeat(2000);
        let seg = segment(&text);
        assert!(seg.units.len() >= 3);
        for u in &seg.units {
            assert!(u.end - u.start <= MAX_UNIT_BYTES);
            assert!(text.is_char_boundary(u.start) && text.is_char_boundary(u.end));
        }
    }
}

//! A rule's subdivision ("(b)(6)") looked for in the rule's text.

use std::ops::Range;

/// The levels of a subdivision: "(d)(2)(F)" is d, 2, F.
pub(super) fn subdivision_path(subdivision: &str) -> Vec<&str> {
    subdivision
        .split(['(', ')'])
        .filter(|part| !part.trim().is_empty())
        .collect()
}

/// Whether a rule's text shows the subdivision `path`: each level's marker
/// ("(b)", or "1." as the Supreme Court Rules number paragraphs) opening an
/// item inside the part of the text the level before it opens, up to its
/// next sibling's marker. A marker inside a sentence is a cross-reference ("Rule 12(b),
/// (e), or (f)", "Rule 801(d)(2)", "(1963)"), not an item.
pub(super) fn text_shows_subdivision(text: &str, path: &[&str]) -> bool {
    let Some((part, deeper)) = path.split_first() else {
        return true;
    };
    // The rule's own subdivisions stand at the text's outermost indent, or
    // follow the one before them there (a transcription indents FRCP 12's
    // "(i)" as if it were a numeral): a "(v)" deeper in, with no "(u)"
    // before it, is a roman numeral, no subdivision of the rule.
    let outermost = text
        .lines()
        .filter(|line| line.split_whitespace().next().is_some_and(is_marker))
        .map(|line| line.len() - line.trim_start().len())
        .min();
    let whole = 0..text.len();
    let outer = |item: &Item| outermost.is_none_or(|indent| item.indent <= indent);
    let after_its_sibling = |item: &Item| {
        previous_sibling(part)
            .is_some_and(|before| items(text, 0..item.start, &before).iter().any(outer))
    };
    items(text, whole.clone(), part)
        .into_iter()
        .filter(|item| outer(item) || after_its_sibling(item))
        .any(|item| shows_below(text, whole.clone(), part, &item, deeper))
}

fn shows_within(text: &str, scope: Range<usize>, path: &[&str]) -> bool {
    let Some((part, deeper)) = path.split_first() else {
        return true;
    };
    items(text, scope.clone(), part)
        .into_iter()
        .any(|item| shows_below(text, scope.clone(), part, &item, deeper))
}

/// Whether the levels `deeper` are shown inside `item`, the item of `part`
/// within `scope`.
fn shows_below(text: &str, scope: Range<usize>, part: &str, item: &Item, deeper: &[&str]) -> bool {
    // A sibling is no deeper in the outline than the item: "(i)" under
    // "(B)" is a roman numeral, not the letter after "(h)".
    let end = next_sibling(part)
        .as_deref()
        .and_then(|next| {
            items(text, item.end..scope.end, next)
                .into_iter()
                .find(|s| s.indent <= item.indent)
        })
        .map_or(scope.end, |s| s.start);
    shows_within(text, item.end..end, deeper)
}

/// Where a marker opens an item: its bytes in the text, and how far its
/// line is indented.
struct Item {
    start: usize,
    end: usize,
    indent: usize,
}

/// The items `part` opens within `scope` of `text`: marked "(b)", or for a
/// number also "2. ".
fn items(text: &str, scope: Range<usize>, part: &str) -> Vec<Item> {
    let window = &text[scope.clone()];
    let bracketed = format!("({part})");
    let mut found: Vec<(usize, usize)> = window
        .match_indices(&bracketed)
        .map(|(at, m)| (scope.start + at, m.len()))
        .collect();
    if part.bytes().all(|b| b.is_ascii_digit()) {
        // "1. " as the Supreme Court Rules number their paragraphs.
        let listed = format!("{part}. ");
        found.extend(
            window
                .match_indices(&listed)
                .map(|(at, m)| (scope.start + at, m.len())),
        );
        found.sort_unstable();
    }
    found
        .into_iter()
        .filter_map(|(start, len)| {
            let line = text[..start].rsplit('\n').next().unwrap_or_default();
            opens_an_item(line).then(|| Item {
                start,
                end: start + len,
                indent: line.len() - line.trim_start().len(),
            })
        })
        .collect()
}

/// Whether a marker after `before` on its line opens an item: it starts the
/// line (after the transcription's indent and "- " bullet), follows other
/// markers that do ("2. (A) The petition", "(B) (i) If"), or follows the
/// colon or semicolon of an inline list ("who may be: (A) a marshal; (B) …").
fn opens_an_item(before: &str) -> bool {
    let line = before.trim();
    let line = line.strip_prefix('-').unwrap_or(line).trim_start();
    let listed = line
        .strip_suffix(" and")
        .or_else(|| line.strip_suffix(" or"))
        .unwrap_or(line);
    line.split_whitespace().all(is_marker) || listed.ends_with([':', ';'])
}

/// "(b)", "(iv)", "(12)" or "2.": a marker, not a word.
fn is_marker(word: &str) -> bool {
    let inner = match word.strip_prefix('(') {
        Some(rest) => rest.strip_suffix(')'),
        None => word
            .strip_suffix('.')
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit())),
    };
    inner.is_some_and(|inner| !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The marker before `part` at its level: 7 → 6, c → b; none before the
/// first.
fn previous_sibling(part: &str) -> Option<String> {
    if let Ok(n) = part.parse::<u32>() {
        return (n > 1).then(|| (n - 1).to_string());
    }
    let mut chars = part.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() && c != 'a' && c != 'A' => {
            Some(char::from(c as u8 - 1).to_string())
        }
        _ => None,
    }
}

/// The marker that follows `part` at its level: 6 → 7, b → c, F → G.
fn next_sibling(part: &str) -> Option<String> {
    if let Ok(n) = part.parse::<u32>() {
        return Some((n + 1).to_string());
    }
    let mut chars = part.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() && c != 'z' && c != 'Z' => {
            Some(char::from(c as u8 + 1).to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{subdivision_path, text_shows_subdivision};

    #[test]
    fn subdivisions_in_a_rules_text() {
        let text = "(a) Time.\n1. In general. Under Rule 12(b), (e), or (f) and Rule 801(d)(2).\n(b) How. Rule 12(b) says:\n - (1) lack;\n - (6) failure; (7) joinder.\n(c) Motion. 2. (A) The petition.\n(d) Marshal, who may be: (A) a marshal; or (B) someone else.\n(e) Brady v. Maryland (1963).";
        let shows = |path: &str| text_shows_subdivision(text, &subdivision_path(path));
        assert!(shows("(b)(6)"));
        assert!(shows("(a)(1)"));
        assert!(
            shows("(d)(A)") && shows("(d)(B)"),
            "items of an inline list"
        );
        assert!(
            shows("(c)"),
            "a cross-reference \"Rule 12(b), (e), or (f)\" ends no item"
        );
        assert!(!shows("(b)(9)"));
        assert!(!shows("(a)(6)"), "(6) is in (b), not (a)");
        assert!(shows("(b)(7)"), "an inline list's item after a semicolon");
        assert!(
            !shows("(a)(1)(f)") && !shows("(a)(1)(d)(2)"),
            "cross-references"
        );
        assert!(!shows("(e)(1963)"), "a year");
        assert!(!shows("(z)"));
        // A roman numeral deep in the outline is no subdivision of the
        // rule; a letter a transcription indents, after its sibling, is.
        let nested = "(a) Scope.\n    - (A) when:\n        - (v) the fifth;\n(h) Waiver.\n    - (i) Hearing Before Trial.";
        let shows = |path: &str| text_shows_subdivision(nested, &subdivision_path(path));
        assert!(!shows("(v)"));
        assert!(shows("(a)(A)(v)"));
        assert!(shows("(i)"));
        let listed = "(d) Exclusions.\n\n2. Statement.\n - (A) made;\n - (E) conspiracy.";
        assert!(text_shows_subdivision(
            listed,
            &subdivision_path("(d)(2)(E)")
        ));
        assert!(!text_shows_subdivision(
            listed,
            &subdivision_path("(d)(2)(F)")
        ));
    }
}

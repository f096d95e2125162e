//! A rule's subdivision ("(b)(6)") looked for in the rule's text.

/// The levels of a subdivision: "(d)(2)(F)" is d, 2, F.
pub(super) fn subdivision_path(subdivision: &str) -> Vec<&str> {
    subdivision
        .split(['(', ')'])
        .filter(|part| !part.trim().is_empty())
        .collect()
}

/// Whether a rule's text shows the subdivision `path`: each level's marker
/// ("(b)", or "6." as a transcription numbers items) inside the part of the
/// text the level before it opens, up to its next sibling's marker. Every
/// place a marker appears is tried (the text also cites "Rule 12(b)").
pub(super) fn text_shows_subdivision(text: &str, path: &[&str]) -> bool {
    let Some((part, deeper)) = path.split_first() else {
        return true;
    };
    let sibling = next_sibling(part);
    markers(text, part).into_iter().any(|(start, len)| {
        let inside = &text[start + len..];
        let end = sibling
            .as_deref()
            .and_then(|next| markers(inside, next).first().map(|(at, _)| *at))
            .unwrap_or(inside.len());
        text_shows_subdivision(&inside[..end], deeper)
    })
}

/// Where a subdivision's marker appears in `text`: "(b)", or for a number
/// "2." opening a line; each as (offset, length).
fn markers(text: &str, part: &str) -> Vec<(usize, usize)> {
    let bracketed = format!("({part})");
    let mut found: Vec<(usize, usize)> = text
        .match_indices(&bracketed)
        .map(|(at, m)| (at, m.len()))
        .collect();
    if part.bytes().all(|b| b.is_ascii_digit()) {
        let listed = format!("\n{part}. ");
        found.extend(text.match_indices(&listed).map(|(at, m)| (at, m.len())));
        found.sort_unstable();
    }
    found
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
        let text = "(a) Time. (1) In general.\n(b) How. Rule 12(b) says: (1) lack; (6) failure; (7) joinder.\n(c) Motion.";
        let shows = |path: &str| text_shows_subdivision(text, &subdivision_path(path));
        assert!(shows("(b)(6)"));
        assert!(shows("(a)(1)"));
        assert!(!shows("(b)(9)"));
        assert!(!shows("(a)(6)"), "(6) is in (b), not (a)");
        assert!(!shows("(z)"));
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

//! Reads the case name written before a citation, walking back word by
//! word from the citation until a signal ("See", "cf."), a sentence end,
//! a string-cite semicolon or an earlier citation.

use std::ops::Range;

use super::tail::{CourtYear, court_year, paren_before};
use crate::citations::names;
use crate::citations::text::char_before;

/// Most words read back for one name.
const MAX_WORDS: usize = 24;
/// Farthest a name may start before its citation, in bytes.
const MAX_REACH: usize = 400;

/// What precedes a citation.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Before {
    /// The name as written, whitespace normalised.
    pub name: Option<String>,
    pub name_span: Option<Range<usize>>,
    pub plaintiff: Option<String>,
    pub defendant: Option<String>,
    /// A "(2009)" or "(S.D.N.Y. 1973)" between name and citation.
    pub court_year: Option<CourtYear>,
}

/// Reads the name before `start`, never looking before `floor`.
pub(crate) fn before(text: &str, start: usize, floor: usize, split_parties: bool) -> Before {
    let floor = floor.max(start.saturating_sub(MAX_REACH));
    let mut result = Before::default();
    let mut name_parenthetical = None;
    let name_end = skip_between(text, start, floor, &mut result, &mut name_parenthetical);
    let words = words_back(text, name_end, floor);
    let Some(mut span) = name_span(text, &words, false) else {
        return result;
    };
    if let Some(parenthetical) = name_parenthetical {
        // A parenthetical is a party's given name or a decision's short
        // name only after a case name ("People v Romero (Wilbert)"); after
        // a word ("the Guidelines (Commentary)") the name read is no
        // case's.
        let name = clean_name(&text[span.clone()]);
        if split(&name).0.is_none() && !names::names_one_party(&name) {
            return result;
        }
        // It is part of the name as written, so a wrong given name is
        // checked too.
        if text[span.end..parenthetical.start].trim().is_empty() {
            span.end = parenthetical.end;
        }
    }
    let name = clean_name(&text[span.clone()]);
    if split_parties {
        let (plaintiff, defendant) = split(&name);
        result.plaintiff = plaintiff;
        result.defendant = defendant;
    }
    result.name = Some(name);
    result.name_span = Some(span);
    result
}

/// Whether `word` ("a", "an") begins a description of the party before it,
/// after its comma: "Beta Dozers, Inc., a Wyoming Corporation", "Lewis
/// Holding Company, Inc., a Wyoming Corporation v. …". `taken` holds the
/// words after it, last first.
fn describes_a_party(text: &str, word: &str, before: Option<&str>, taken: &[Range<usize>]) -> bool {
    const KINDS: [&str; 12] = [
        "corporation",
        "corporations",
        "corp",
        "company",
        "companies",
        "co",
        "partnership",
        "association",
        "entity",
        "individual",
        "municipality",
        "trust",
    ];
    if !matches!(word, "a" | "an") || !before.is_some_and(|b| b.ends_with(',')) {
        return false;
    }
    // The description's last word: up to its comma, its party's "v.", or
    // the name's end.
    let description = taken.iter().rev().map(|w| &text[w.clone()]);
    let mut last = None;
    for described in description {
        if is_versus(described) {
            break;
        }
        last = Some(described);
        if described.ends_with(',') {
            break;
        }
    }
    last.is_some_and(|w| {
        let kind = w.trim_end_matches([',', '.']).to_lowercase();
        KINDS.contains(&kind.as_str())
    })
}

/// The name written just before `end` (a party before its "v."), read as
/// a name before a citation is, never looking before `floor`.
pub fn name_before(text: &str, end: usize, floor: usize) -> Option<String> {
    let floor = floor.max(end.saturating_sub(MAX_REACH));
    let words = words_back(text, end, floor);
    name_span(text, &words, true).map(|span| clean_name(&text[span]))
}

/// Steps back over what may sit between a case name and its citation:
/// commas, an opening bracket, a "(year)" parenthetical, a caption
/// parenthetical ("(In re Smith)", "(per curiam)"), "et al." (Bluebook
/// drops it from the name), the closing quote of a quoted name, blank-page
/// placeholders ("— U.S. —"), a docket number, "supra".
fn skip_between(
    text: &str,
    start: usize,
    floor: usize,
    result: &mut Before,
    name_parenthetical: &mut Option<Range<usize>>,
) -> usize {
    let mut pos = start;
    // Set after a docket number part, so "No." and "p." before it go too.
    let mut in_docket = false;
    for _ in 0..12 {
        let before_space = back_over_space(text, pos, floor);
        match char_before(text, before_space) {
            Some(',' | '(' | '[') if before_space > floor => {
                pos = before_space - 1;
                continue;
            }
            _ => {}
        }
        if let Some(paren) = paren_before(text, before_space).filter(|p| p.span.start >= floor) {
            let inner = &text[paren.inner.clone()];
            if let Some(cy) = court_year(text, paren.inner.clone()) {
                if result.court_year.is_none() {
                    result.court_year = Some(cy);
                }
                pos = paren.span.start;
                continue;
            }
            // A court and date ("(La.App. 1 Cir. 12/15/95)") or a docket
            // judge code ("(SHS)").
            if has_date(inner)
                || !inner.is_empty() && inner.chars().all(|c| c.is_uppercase() || c == '.')
            {
                pos = paren.span.start;
                in_docket = true;
                continue;
            }
            if is_caption_parenthetical(inner) {
                pos = paren.span.start;
                continue;
            }
            if names::is_name_parenthetical(inner) && name_parenthetical.is_none() {
                *name_parenthetical = Some(paren.span.clone());
                pos = paren.span.start;
                continue;
            }
        }
        if let Some(inside) = closing_quote_of_name(text, before_space, floor) {
            pos = inside;
            continue;
        }
        let Some(word) = last_word(text, before_space, floor) else {
            return before_space;
        };
        let w = &text[word.clone()];
        if let Some(start) = et_al(text, word.clone(), floor) {
            pos = start;
            continue;
        }
        if is_placeholder(w) {
            pos = skip_placeholder_citation(text, word.start, floor);
            continue;
        }
        if w.trim_end_matches(',') == "supra" {
            pos = word.start;
            continue;
        }
        if let Some(start) = docket_number(text, before_space, floor, in_docket) {
            pos = start;
            in_docket = false;
            continue;
        }
        return before_space;
    }
    back_over_space(text, pos, floor)
}

/// A parenthetical between a name and its citation that describes the
/// case rather than citing anything: a bankruptcy caption ("In re Smith"),
/// the kind of opinion ("per curiam", "mem.", "en banc").
fn is_caption_parenthetical(inner: &str) -> bool {
    let lowered = inner.trim().to_lowercase();
    [
        "in re ",
        "in the matter of ",
        "matter of ",
        "ex parte ",
        "ex rel. ",
    ]
    .iter()
    .any(|prefix| lowered.starts_with(prefix))
        || matches!(
            lowered.as_str(),
            "per curiam" | "mem." | "mem" | "en banc" | "plurality opinion" | "table"
        )
}

/// "et al." (or "et ux.") ending at `word`: where "et" starts.
fn et_al(text: &str, word: Range<usize>, floor: usize) -> Option<usize> {
    let w = text[word.clone()].trim_end_matches(',');
    if !matches!(w, "al." | "ux." | "al" | "ux") {
        return None;
    }
    let et = last_word(text, back_over_space(text, word.start, floor), floor)?;
    (&text[et.clone()] == "et").then_some(et.start)
}

/// A name written in quotes (`"Smith v. Jones,"`), its closing quote just
/// before `end`: the position inside the closing quote. Only a quote that
/// holds a case name ("v.", "In re", "Ex parte") is stepped over; a quoted
/// passage before a citation is not a name.
fn closing_quote_of_name(text: &str, end: usize, floor: usize) -> Option<usize> {
    let close = char_before(text, end).filter(|c| matches!(c, '"' | '”'))?;
    let inside = end - close.len_utf8();
    let open = if close == '"' { '"' } else { '“' };
    let quoted = text.get(floor..inside)?;
    let opened = quoted.rfind(open)?;
    let name = &quoted[opened + open.len_utf8()..];
    let names_a_case = name.contains(" v. ")
        || name.contains(" vs. ")
        || ["In re ", "Ex parte ", "Matter of "]
            .iter()
            .any(|prefix| name.starts_with(prefix));
    (names_a_case && name.len() <= MAX_REACH).then_some(inside)
}

/// A citation to pages not yet assigned ("— U.S. —", "___ Nev. ___"),
/// given its trailing blank at `pos`: returns where it starts.
fn skip_placeholder_citation(text: &str, pos: usize, floor: usize) -> usize {
    let mut at = pos;
    for _ in 0..4 {
        let end = back_over_space(text, at, floor);
        let Some(word) = last_word(text, end, floor) else {
            return pos;
        };
        let w = &text[word.clone()];
        at = word.start;
        if is_placeholder(w) {
            return at;
        }
        let reporter_like = w.chars().next().is_some_and(char::is_uppercase)
            || w.bytes().all(|b| b.is_ascii_digit());
        if !reporter_like {
            return pos;
        }
    }
    pos
}

/// A docket number ending at `end` ("No. 99 Civ. 9404", "95-0754, p. 3"):
/// where it starts. Digits alone are a docket only after "No." or next to
/// a court-and-date parenthetical (`after_court_date`).
fn docket_number(text: &str, end: usize, floor: usize, after_court_date: bool) -> Option<usize> {
    let mut pos = end;
    let mut start = None;
    let mut numbered = false;
    for _ in 0..8 {
        let Some(word) = last_word(text, back_over_space(text, pos, floor), floor) else {
            break;
        };
        let w = text[word.clone()].trim_end_matches(',');
        if matches!(w, "No." | "Nos." | "Docket" | "Case") {
            // Only before a number: "Fake v. Case, 350 U.S. 1" ends a name.
            if start.is_none() {
                break;
            }
            numbered = true;
            start = Some(word.start);
            pos = word.start;
            continue;
        }
        if is_docket_word(w) || matches!(w, "p." | "pp." | "at") {
            // "2021-CA-0077-MR" or "95-0754" is a docket number by its shape.
            numbered |=
                w.len() >= 5 && w.contains(['-', ':']) && w.bytes().any(|b| b.is_ascii_digit());
            start = Some(word.start);
            pos = word.start;
            continue;
        }
        break;
    }
    start.filter(|_| numbered || after_court_date)
}

/// A date like 12/15/95.
fn has_date(s: &str) -> bool {
    s.split(|c: char| !(c.is_ascii_digit() || c == '/'))
        .any(|part| {
            part.split('/').count() == 3 && part.split('/').all(|n| (1..=4).contains(&n.len()))
        })
}

fn back_over_space(text: &str, mut pos: usize, floor: usize) -> usize {
    while pos > floor {
        match char_before(text, pos) {
            Some(c) if c.is_whitespace() => pos -= c.len_utf8(),
            _ => break,
        }
    }
    pos
}

fn last_word(text: &str, end: usize, floor: usize) -> Option<Range<usize>> {
    let mut start = end;
    while start > floor {
        match char_before(text, start) {
            Some(c) if !c.is_whitespace() => start -= c.len_utf8(),
            _ => break,
        }
    }
    (start < end).then_some(start..end)
}

/// Blank volume or page placeholders: "___", "—", "----", "_".
fn is_placeholder(word: &str) -> bool {
    let w = word.trim_end_matches(',');
    !w.is_empty() && w.chars().all(|c| matches!(c, '_' | '—' | '–' | '-'))
}

/// Parts of a docket number ("95-0754,", "99", "Civ.", "CV-12").
fn is_docket_word(word: &str) -> bool {
    let w = word.trim_end_matches(',');
    if w.is_empty() {
        return false;
    }
    let has_digit = w.bytes().any(|b| b.is_ascii_digit());
    has_digit
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-–:/.".contains(c))
        || matches!(w, "Civ." | "Civ" | "Cr." | "Crim." | "CV" | "Misc.")
}

/// The words before `end` back to `floor`, last first.
fn words_back(text: &str, end: usize, floor: usize) -> Vec<Range<usize>> {
    let mut words = Vec::new();
    let mut pos = end;
    while words.len() < MAX_WORDS && pos > floor {
        let word_end = pos;
        let mut newlines = 0;
        let mut p = pos;
        while p > floor {
            match char_before(text, p) {
                Some(c) if c.is_whitespace() => {
                    if c == '\n' {
                        newlines += 1;
                    }
                    p -= c.len_utf8();
                }
                _ => break,
            }
        }
        // A name starts no line with its "v." ("Brady\nv. Maryland").
        let name_starts_the_line = || {
            words
                .last()
                .is_some_and(|first: &Range<usize>| !is_versus(&text[first.clone()]))
        };
        if !words.is_empty()
            && (newlines > 1
                || newlines == 1 && name_starts_the_line() && heading_ends_at(text, p, floor))
        {
            break;
        }
        let trimmed_end = if words.is_empty() { word_end } else { p };
        let Some(word) = last_word(text, trimmed_end, floor) else {
            break;
        };
        pos = word.start;
        // A word broken across lines ("Flint-\nkote") is one word.
        let broken = words.last().is_some_and(|next: &Range<usize>| {
            text[word.clone()].ends_with(['-', '\u{ad}'])
                && text[word.end..next.start].contains('\n')
        });
        if broken {
            let next = words.pop().map_or(word.end, |n| n.end);
            words.push(word.start..next);
        } else {
            words.push(word);
        }
    }
    words
}

/// Whether the line ending at `end` is a heading, which no name runs back
/// into ("Cases", "AUTHORITIES CITED", "I. The Stop Was Lawful" on a line
/// of its own before "Miranda v. Arizona"): a line after a blank one (or
/// the text's start), past `floor` (a line holding the citation before is
/// none), of one word, in capitals, or opened by an outline's number ("I.",
/// "A.", "(1)", a page's "-8-"), whose words are all capitalised, numbers or
/// small words. A wrapped sentence's line holds lower-case words, and a
/// line with a "v." is a name's.
fn heading_ends_at(text: &str, end: usize, floor: usize) -> bool {
    const SMALL: [&str; 13] = [
        "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to",
    ];
    let Some(before_end) = text.get(..end) else {
        return false;
    };
    let line_start = before_end.rfind('\n').map_or(0, |at| at + 1);
    if line_start < floor {
        return false;
    }
    let before = &before_end[..line_start];
    let before = before.strip_suffix('\n').unwrap_or(before);
    let after_a_blank = before
        .rsplit('\n')
        .next()
        .is_none_or(|last| last.trim().is_empty());
    if !after_a_blank {
        return false;
    }
    let line = before_end[line_start..].trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    let outline_number = {
        let marker = first.trim_matches(['(', ')', '.', '-']);
        first.len() > marker.len()
            && !marker.is_empty()
            && marker.len() <= 4
            && marker.chars().all(|c| c.is_ascii_alphanumeric())
    };
    let in_capitals =
        line.chars().any(char::is_alphabetic) && !line.chars().any(char::is_lowercase);
    words.len() <= 12
        && !line.ends_with([',', ';'])
        && (words.len() == 1 || in_capitals || outline_number)
        && words.iter().all(|word| {
            let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
            !is_versus(word)
                && (bare.is_empty()
                    || bare.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
                    || SMALL.contains(&bare))
        })
}

/// Which words (last first) form the name; returns its span. `continued`:
/// the name goes on after them (a first party before its "v."), so their
/// last word ends no sentence.
fn name_span(text: &str, words: &[Range<usize>], continued: bool) -> Option<Range<usize>> {
    let mut taken: Vec<Range<usize>> = Vec::new();
    let mut read_to = 0;
    for (i, word) in words.iter().enumerate() {
        if i < read_to {
            continue;
        }
        let raw = &text[word.clone()];
        if raw.ends_with(';') || raw.ends_with(':') {
            break;
        }
        if !taken.is_empty()
            && let Some(opening) = part_of_a_party(text, &words[i..])
        {
            taken.extend(words[i..=i + opening].iter().cloned());
            read_to = i + opening + 1;
            continue;
        }
        // A one-word given name inside the name ("Causey (Kasie) v. Dist.
        // Ct."): part of it, read past.
        let given_name = raw
            .trim_end_matches(',')
            .strip_prefix('(')
            .and_then(|w| w.strip_suffix(')'));
        let given_name = given_name.filter(|w| w.chars().any(char::is_lowercase));
        if !taken.is_empty() && given_name.is_some_and(names::is_name_parenthetical) {
            continue;
        }
        // A capitalised word in quotes inside a party ("Ohanian v. "Best"
        // Foods, Inc.", a nickname) is one of its words.
        let quoted_word = !taken.is_empty()
            && raw
                .strip_prefix(['“', '"'])
                .and_then(|w| w.strip_suffix(['”', '"']))
                .is_some_and(|w| {
                    w.starts_with(char::is_uppercase) && w.chars().all(char::is_alphanumeric)
                });
        let opens = raw.starts_with(['(', '[', '“', '"', '‘']) && !quoted_word;
        let closes_quote = raw.ends_with(['”', '"', '’']) && !raw.ends_with("s’") && !quoted_word;
        if closes_quote || raw.ends_with(')') || raw.ends_with(']') {
            break;
        }
        let core = raw.trim_start_matches(['(', '[', '“', '"', '‘']);
        let bare = core.trim_end_matches(',');
        // After "v." a signal word is a party's ("United States v. The
        // Amistad"), not the start of a clause.
        let after_versus = words
            .get(i + 1)
            .is_some_and(|w| is_versus(&text[w.clone()]));
        // "The" after a name's "Of" or "and" is the name's ("General
        // Telephone Company Of The Southwest").
        let inside_after_of = bare == "The"
            && !taken.is_empty()
            && words
                .get(i + 1)
                .is_some_and(|w| matches!(&text[w.clone()], "Of" | "of" | "And" | "and"));
        if bare.is_empty() || is_signal(bare) && !after_versus && !inside_after_of {
            break;
        }
        if core.ends_with(',')
            && is_transition(bare)
            && !after_versus
            && !before_corporate_word(text, &taken)
        {
            break;
        }
        let has_digits = bare.bytes().any(|b| b.is_ascii_digit());
        let brand = particle_before_capital(bare);
        let before = words.get(i + 1).map(|w| &text[w.clone()]);
        let before_that = words.get(i + 2).map(|w| &text[w.clone()]);
        // A number ending a party after its "v." ("NLRB v. District 50",
        // "… School District 7") is the name's last word.
        let ends_a_party = || versus_within(text, &words[i + 1..], 12);
        if has_digits
            && !brand
            && !number_in_name(
                text,
                core,
                bare,
                &taken,
                (before, before_that),
                ends_a_party,
            )
        {
            break;
        }
        let first = bare.chars().next().unwrap_or(' ');
        let capital = first.is_uppercase() || brand || is_elided_and(bare) && !taken.is_empty();
        let inside_a_party = || {
            is_function_word(bare)
                && !taken.iter().any(|w| is_versus(&text[w.clone()]))
                && versus_beyond(text, &words[i + 1..])
        };
        let before_a_capital = || {
            taken
                .last()
                .is_some_and(|w| text[w.clone()].starts_with(char::is_uppercase))
        };
        // "Org. for a Better Austin", "Citizens to a …": an article after a
        // capitalised word's "for" or "to", before a capitalised word.
        let article_in_a_name = || {
            matches!(bare, "a" | "an")
                && before.is_some_and(|w| matches!(w, "for" | "to"))
                && before_that.is_some_and(|w| {
                    w.starts_with(char::is_uppercase) && !w.ends_with([',', ';', ':', ')'])
                })
                && before_a_capital()
        };
        // "Coal. for Fair Trade in Garlic", "Citizens for Responsibility &
        // Ethics in Washington": an "in" after an organisation's "for" and
        // its capitalised words, before a capitalised word.
        let in_an_organisations_name =
            || bare == "in" && before_a_capital() && organisation_for(text, &words[i + 1..]);
        if !capital
            && !is_connector(bare)
            && !has_digits
            && !inside_a_party()
            && !article_in_a_name()
            && !in_an_organisations_name()
            && !describes_a_party(text, bare, before, &taken)
            && !inside_a_companys_name(text, bare, before, &taken)
        {
            break;
        }
        let ends_its_sentence = if i == 0 {
            !continued && !text[word.end..].trim_start().starts_with(',')
        } else {
            !before_corporate_word(text, &taken)
        };
        if ends_sentence(bare) && ends_its_sentence {
            // A name is not followed by the end of its sentence ("… the
            // Constitution. 469 U.S., at 332").
            break;
        }
        if introduces_name(bare, taken.last().map(|w| &text[w.clone()])) {
            break;
        }
        let start = word.start + (raw.len() - core.len());
        taken.push(start..word.end);
        if opens {
            break;
        }
    }
    // Leading joining words ("and", "of") and a sentence-initial "In" are
    // not part of the name.
    while let Some(first) = taken.last() {
        let w = text[first.clone()].trim_end_matches(',');
        let next = taken
            .len()
            .checked_sub(2)
            .map(|i| text[taken[i].clone()].to_string());
        let keeps_in = next
            .as_deref()
            .is_some_and(|n| matches!(n, "re" | "Re" | "RE" | "the" | "Matter"));
        if is_connector(w) || is_elided_and(w) || (w == "In" || w == "IN") && !keeps_in {
            taken.pop();
        } else {
            break;
        }
    }
    // A name ending in a joining word ("Foo v.") is no name.
    let last = taken.first()?;
    if is_connector(text[last.clone()].trim_end_matches(',')) {
        return None;
    }
    let start = taken.last()?.start;
    let mut end = taken.first()?.end;
    while let Some(c) = char_before(text, end) {
        if c == ',' || c.is_whitespace() {
            end -= c.len_utf8();
        } else {
            break;
        }
    }
    (start < end).then_some(start..end)
}

/// A parenthetical of capitalised words inside a party's name, such as a
/// company's line or place ("Laidlaw Environmental Services (TOC), Inc.",
/// "Citibank (South Dakota), N.A."), ending at `words[0]` (words last
/// first): how many words before it it opens, when a capitalised word
/// precedes it.
fn part_of_a_party(text: &str, words: &[Range<usize>]) -> Option<usize> {
    let closing = text[words[0].clone()].trim_end_matches(',');
    if !closing.ends_with(')') {
        return None;
    }
    let opening = (0..words.len().min(3)).find(|&j| text[words[j].clone()].starts_with('('))?;
    let inner = &text[words[opening].start + 1..words[0].start + closing.len() - 1];
    let before = &text[words.get(opening + 1)?.clone()];
    let named_before =
        before.starts_with(|c: char| c.is_uppercase()) && !before.ends_with([',', ';', ':', ')']);
    (names::is_name_parenthetical(inner) && named_before).then_some(opening)
}

/// Words that start a citation clause rather than a name.
fn is_signal(word: &str) -> bool {
    matches!(
        word,
        "See"
            | "see"
            | "Cf."
            | "cf."
            | "Cf"
            | "E.g."
            | "e.g."
            | "E.g.,"
            | "Accord"
            | "accord"
            | "Compare"
            | "compare"
            | "Contra"
            | "contra"
            | "But"
            | "but"
            | "Also"
            | "also"
            | "quoting"
            | "citing"
            | "Quoting"
            | "Citing"
            | "Id."
            | "id."
            | "Ibid."
            | "ibid."
            | "Per"
            | "Curiam"
            | "Under"
            | "Following"
            | "Like"
            | "Unlike"
            | "Because"
            | "Although"
            | "While"
            | "Here"
            | "There"
            | "Thus"
            | "Moreover"
            | "However"
            | "Further"
            | "Furthermore"
            | "Similarly"
            | "Likewise"
            | "Accordingly"
            | "Therefore"
            | "As"
            | "The"
            | "This"
            | "That"
            | "These"
            | "Those"
            | "When"
            | "Where"
            | "Whether"
            | "If"
            | "After"
            | "Before"
            | "Since"
            | "Until"
            | "Generally"
            | "generally"
            | "Supra"
            | "supra"
            | "aff'd"
            | "rev'd"
    )
}

/// Words that open a sentence when a comma follows them ("Again, Brown v.
/// Board"); without the comma some start a name ("Second National Bank").
fn is_transition(word: &str) -> bool {
    matches!(
        word,
        "Again"
            | "Indeed"
            | "Nevertheless"
            | "Nonetheless"
            | "Instead"
            | "Finally"
            | "Notably"
            | "Consequently"
            | "Additionally"
            | "Still"
            | "Yet"
            | "Hence"
            | "Later"
            | "Then"
            | "Now"
            | "Today"
            | "Recently"
            | "First"
            | "Second"
            | "Third"
            | "Next"
            | "Lastly"
            | "Ultimately"
            | "Importantly"
            | "Specifically"
            | "Conversely"
            | "Rather"
            | "Otherwise"
            | "Meanwhile"
            | "Subsequently"
            | "Previously"
            | "Earlier"
            | "Elsewhere"
            | "Initially"
            | "Thereafter"
            | "Significantly"
            | "Critically"
    )
}

fn is_versus(word: &str) -> bool {
    matches!(
        word,
        "v." | "v" | "vs." | "vs" | "V." | "V" | "VS." | "versus"
    )
}

/// "'N" of "Park 'N Fly", "'N'" of "Posters 'N' Things": an "and" inside
/// a name.
fn is_elided_and(word: &str) -> bool {
    word.starts_with(['\'', '’']) && matches!(word.trim_matches(['\'', '’']), "N" | "n")
}

/// A particle or brand prefix before a capital: a name's word ("al-Kidd",
/// "d'Amico", "eBay"), not prose; or a brand of letters around a digit
/// ("i4i").
fn particle_before_capital(word: &str) -> bool {
    const LONGEST_PREFIX: usize = 3;
    let prefix = word.chars().take_while(char::is_ascii_lowercase).count();
    let mut rest = word.chars().skip(prefix);
    let next = match rest.next() {
        Some('-' | '\'' | '’') => rest.next(),
        other => other,
    };
    let lettered_digits = next.is_some_and(|c| c.is_ascii_digit())
        && word.chars().all(|c| c.is_ascii_alphanumeric())
        && word.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
    (1..=LONGEST_PREFIX).contains(&prefix)
        && (next.is_some_and(char::is_uppercase) || lettered_digits)
}

/// Small words of a party's name ("Citizens for a Better Environment",
/// "Citizens to Preserve Overton Park") that prose uses everywhere.
fn is_function_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "an" | "to" | "in" | "at" | "for" | "of" | "the" | "on" | "with" | "from" | "and"
    )
}

/// Whether the words before a small word (`before`, nearest first) run, in
/// capitalised words and small ones, to a "v." with a party before it
/// ("Smith v. Citizens for a …"): then the small word is inside the second
/// party's name, not the prose before the name.
fn versus_beyond(text: &str, before: &[Range<usize>]) -> bool {
    versus_within(text, before, 6)
}

/// Whether the words before an "in" (`before`, nearest first) are an
/// organisation's name up to it: capitalised words (and "&", "and", "of")
/// back to a "for" that follows an organisation's word ("Coalition for
/// Fair Trade", "Citizens for Responsibility & Ethics"). "Motion for
/// Summary Judgment in Smith v. Jones" is prose.
fn organisation_for(text: &str, before: &[Range<usize>]) -> bool {
    const ORGANISATIONS: [&str; 31] = [
        "Alliance",
        "Americans",
        "Ass'n",
        "Association",
        "Campaign",
        "Ctr.",
        "Center",
        "Citizens",
        "Coal.",
        "Coalition",
        "Comm.",
        "Comm'n",
        "Commission",
        "Committee",
        "Council",
        "Fed'n",
        "Federation",
        "Found.",
        "Foundation",
        "Fund",
        "Inst.",
        "Institute",
        "League",
        "Network",
        "Org.",
        "Organization",
        "P'ship",
        "Partnership",
        "Project",
        "Soc'y",
        "Society",
    ];
    let words = || before.iter().map(|w| &text[w.clone()]);
    let name_words = words()
        .take(8)
        .take_while(|w| {
            w.starts_with(char::is_uppercase) && !w.ends_with([',', ';', ':', ')'])
                || matches!(*w, "&" | "and" | "of")
        })
        .count();
    name_words > 0
        && words().nth(name_words) == Some("for")
        && words()
            .nth(name_words + 1)
            .is_some_and(|w| ORGANISATIONS.contains(&w))
}

/// Whether [`versus_beyond`] holds within `most` words.
fn versus_within(text: &str, before: &[Range<usize>], most: usize) -> bool {
    for (k, word) in before.iter().take(most).enumerate() {
        let raw = &text[word.clone()];
        if is_versus(raw) {
            return before.get(k + 1).is_some_and(|party| {
                let party = text[party.clone()].trim_end_matches(',');
                party.starts_with(char::is_uppercase) && !ends_sentence(party)
            });
        }
        let capital = raw.starts_with(char::is_uppercase) && !ends_sentence(raw);
        if raw.ends_with([',', ';', ':', ')']) || !(capital || is_function_word(raw)) {
            return false;
        }
    }
    false
}

/// Lower-case words that may sit inside a case name.
fn is_connector(word: &str) -> bool {
    matches!(
        word,
        "v." | "v"
            | "vs."
            | "vs"
            | "V."
            | "V"
            | "VS."
            | "versus"
            | "of"
            | "the"
            | "and"
            | "&"
            | "ex"
            | "rel."
            | "re"
            | "for"
            | "de"
            | "del"
            | "la"
            | "le"
            | "van"
            | "von"
            | "der"
            | "du"
            | "da"
            | "dos"
            | "y"
            | "on"
            | "et"
            | "al."
            | "ux."
            | "a/k/a"
            | "d/b/a"
            | "f/k/a"
            | "n/k/a"
            | "o/b/o"
            | "by"
            | "through"
            | "behalf"
            | "as"
            | "next"
            | "friend"
            | "parte"
            | "matter"
    )
}

/// A participle that opens a sentence before a case name ("Relying on",
/// "Turning to", "Citing to").
fn introduces_name(word: &str, next: Option<&str>) -> bool {
    word.len() > 5
        && word.ends_with("ing")
        && next.is_some_and(|n| matches!(n, "on" | "upon" | "to" | "in" | "that"))
}

/// A word with digits inside a name, between capitalised words ("INK 954
/// LLC", "Motel 6 v.", "LSG 105 W. 28th, LLC"). Not a year, which more
/// likely dates the sentence ("In 2019, Smith v. Jones"), nor a section,
/// a docket or a statute ("439.3106", "12-345", "5/2-619", "10(b)"), nor
/// the number of a label ("Rule 23", "Section 301", "No. 92", "Count 3"),
/// nor a number closing a phrase with a comma ("Under Rule 23, Wal-Mart"),
/// unless a corporate word follows it ("28th, LLC"). As the name's last
/// word it ends a party when `ends_a_party` finds that party's "v."
/// before it ("NLRB v. District 50").
fn number_in_name(
    text: &str,
    raw: &str,
    word: &str,
    taken: &[Range<usize>],
    (before, before_that): (Option<&str>, Option<&str>),
    ends_a_party: impl Fn() -> bool,
) -> bool {
    let year = word.len() == 4
        && word.bytes().all(|b| b.is_ascii_digit())
        && word.parse::<u32>().is_ok_and(|n| (1600..2100).contains(&n));
    let digits_joined = word.as_bytes().windows(3).any(|w| {
        w[0].is_ascii_digit() && matches!(w[1], b'.' | b':' | b'-' | b'/') && w[2].is_ascii_digit()
    });
    // "No.92ofPottawatomie": a label run into its number.
    let label_run_in = word
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'.' && w[1].is_ascii_digit());
    if year || digits_joined || label_run_in || word.contains(['/', '(', '§']) {
        return false;
    }
    // "3M Co.", "7-Eleven, Inc.": a company named with a number, the
    // name's first word too.
    let lettered = word.bytes().any(|b| b.is_ascii_uppercase())
        && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if lettered && before_corporate_word(text, taken) {
        return true;
    }
    // "15 Penn Plaza LLC", "45 Liquormart, Inc.", "v. 203 N. LaSalle St.
    // P'ship": a number leading a company's name, before a capital.
    let leads_a_company = word.bytes().all(|b| b.is_ascii_digit())
        && !raw.ends_with(',')
        && taken
            .last()
            .is_some_and(|w| text[w.clone()].starts_with(char::is_uppercase))
        && taken.iter().any(|w| is_corporate_word(&text[w.clone()]))
        && before.is_none_or(|b| !is_number_label(b.trim_end_matches(['.', ','])));
    if leads_a_company {
        return true;
    }
    let Some(before) = before else {
        return false;
    };
    let ends_a_party = taken.is_empty() && ends_a_party();
    if raw.ends_with(',') && !before_corporate_word(text, taken) && !ends_a_party {
        return false;
    }
    let bare_before = before.trim_end_matches(['.', ',']);
    // "Local No. 93", "School Dist. No. 283": a body's number.
    let numbered_body = bare_before.eq_ignore_ascii_case("no")
        && before_that.is_some_and(|w| is_numbered_body(w.trim_end_matches(['.', ','])));
    let label = !numbered_body && is_number_label(bare_before);
    let named_before = before.starts_with(|c: char| c.is_uppercase())
        && !before.ends_with([',', ';', ':', ')'])
        && !is_signal(before);
    // "The Shops on 58, L.L.C.": a company's number after a small word.
    let companys_number = before_corporate_word(text, taken)
        && is_function_word(bare_before)
        && before_that.is_some_and(|w| w.starts_with(char::is_uppercase));
    // "16th St. Regency, LLC", "30th Judicial Circuit Court": an ordinal
    // before a capitalised word of the name, after its "v." too.
    let ordinal = ["st", "nd", "rd", "th"].iter().any(|suffix| {
        word.strip_suffix(suffix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let capital_after = taken
        .last()
        .is_some_and(|w| text[w.clone()].starts_with(|c: char| c.is_uppercase()));
    (!taken.is_empty() || ends_a_party)
        && !label
        && (named_before || companys_number || ordinal && capital_after && is_versus(before))
}

/// Bodies known by a number: "Local No. 93", "School Dist. No. 283".
fn is_numbered_body(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "local" | "dist" | "district" | "union" | "unit" | "lodge" | "council" | "post"
    )
}

/// Words that label a number in prose or a record, not in a name; a
/// month's name dates a sentence ("On March 3 Terry v. Ohio").
fn is_number_label(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "rule"
            | "rules"
            | "section"
            | "sections"
            | "sec"
            | "no"
            | "nos"
            | "number"
            | "count"
            | "counts"
            | "claim"
            | "claims"
            | "chapter"
            | "ch"
            | "exhibit"
            | "ex"
            | "part"
            | "pt"
            | "page"
            | "pageid"
            | "table"
            | "title"
            | "form"
            | "document"
            | "doc"
            | "dkt"
            | "docket"
            | "de"
            | "ecf"
            | "footnote"
            | "fn"
            | "n"
            | "note"
            | "exemption"
            | "order"
            | "article"
            | "art"
            | "amendment"
            | "paragraph"
            | "para"
            | "volume"
            | "vol"
            | "schedule"
            | "appendix"
            | "app"
            | "step"
            | "phase"
            | "category"
            | "class"
            | "code"
            | "act"
            | "item"
            | "question"
            | "issue"
            | "ground"
            | "point"
            | "factor"
            | "prong"
            | "element"
            | "line"
            | "figure"
            | "fig"
            | "opin"
            | "headnote"
            | "syllabus"
            | "region"
            | "interstate"
            | "tab"
            | "attachment"
            | "annex"
            | "clause"
            | "task"
            | "milestone"
            | "amend"
            | "slip"
            | "op"
            | "id"
            | "january"
            | "jan"
            | "february"
            | "feb"
            | "march"
            | "mar"
            | "april"
            | "apr"
            | "may"
            | "june"
            | "jun"
            | "july"
            | "jul"
            | "august"
            | "aug"
            | "september"
            | "sept"
            | "sep"
            | "october"
            | "oct"
            | "november"
            | "nov"
            | "december"
            | "dec"
    )
}

/// Whether the name read so far begins with a corporate word ("Co.",
/// "Inc."), before which a period-ended word is part of the name
/// ("Loup-Miller Const. Co.").
fn before_corporate_word(text: &str, taken: &[Range<usize>]) -> bool {
    taken
        .last()
        .is_some_and(|w| is_corporate_word(&text[w.clone()]))
}

fn is_corporate_word(word: &str) -> bool {
    matches!(
        word.trim_end_matches(','),
        "Co."
            | "Inc."
            | "Corp."
            | "Ltd."
            | "LLC"
            | "L.L.C."
            | "Ass'n"
            | "Co"
            | "Inc"
            | "Bros."
            | "P.C."
            | "P.A."
            | "L.P."
            | "LP"
            | "LLP"
            | "L.L.P."
            | "PLLC"
            | "N.A."
            | "P'ship"
    )
}

/// Whether a small word read before a "v." (`word`, with `before` the
/// word before it) is inside the first party, a company's name ("Avis
/// Rent a Car System, LLC", "Places in Saratoga, LLC", "Scott & Scott
/// Attorneys at Law LLP"): the party ends in a corporate word and a
/// capitalised word that is no court, signal or sentence end precedes the
/// small word ("The Court in Acme Co. v. Jones" is prose).
fn inside_a_companys_name(
    text: &str,
    word: &str,
    before: Option<&str>,
    taken: &[Range<usize>],
) -> bool {
    const PROSE_NOUNS: [&str; 8] = [
        "Court",
        "Circuit",
        "Congress",
        "Justice",
        "Judge",
        "Commission",
        "Board",
        "Legislature",
    ];
    if !matches!(word, "a" | "at" | "in" | "on") {
        return false;
    }
    let Some(versus) = taken.iter().position(|w| is_versus(&text[w.clone()])) else {
        return false;
    };
    let party_ends_in_a_company = taken
        .get(versus + 1)
        .is_some_and(|w| is_corporate_word(&text[w.clone()]));
    party_ends_in_a_company
        && before.is_some_and(|before| {
            let bare = before.trim_end_matches(',');
            before.starts_with(char::is_uppercase)
                && before == bare
                && !ends_sentence(bare)
                && !is_signal(bare)
                && !PROSE_NOUNS.contains(&bare)
        })
}

/// Whether a word that precedes the name's first word ends a sentence:
/// it ends with a period and is not an abbreviation.
fn ends_sentence(word: &str) -> bool {
    let w = word.trim_end_matches(',');
    if w.ends_with(['!', '?']) {
        return true;
    }
    let Some(stem) = w.strip_suffix('.') else {
        return false;
    };
    // "Great-W. Life": an abbreviation or an initial after a hyphen.
    if let Some((_, tail)) = w.rsplit_once('-')
        && (names::is_abbreviation(tail) || tail.len() == 2 && tail.starts_with(char::is_uppercase))
    {
        return false;
    }
    // "Title VII. Bostock v. Clayton County": a numeral of I, V and X ends
    // its sentence (one letter may be an initial).
    let numeral = stem.len() >= 2 && stem.bytes().all(|b| matches!(b, b'I' | b'V' | b'X'));
    numeral || !names::is_abbreviation(w)
}

/// Splits "A v. B" into plaintiff and defendant. Without "v.", the name is
/// the defendant ("In re Smith" → "Smith"; a bare "Smith" too), as eyecite
/// reports it.
pub(crate) fn split(name: &str) -> (Option<String>, Option<String>) {
    let words: Vec<&str> = name.split(' ').collect();
    let separator = words
        .iter()
        .position(|w| matches!(*w, "v." | "v" | "vs." | "vs" | "V." | "VS." | "versus"));
    match separator {
        Some(i) if i > 0 && i + 1 < words.len() => {
            let plaintiff = words[..i].join(" ");
            let defendant = words[i + 1..].join(" ");
            (
                Some(plaintiff),
                Some(defendant.trim_end_matches(',').to_string()),
            )
        }
        Some(_) => (None, None),
        None => {
            for prefix in [
                "In re ",
                "In Re ",
                "IN RE ",
                "In the Matter of ",
                "Matter of ",
                "Ex parte ",
                "Ex Parte ",
                "In the matter of ",
            ] {
                if let Some(rest) = name.strip_prefix(prefix) {
                    return (None, Some(rest.to_string()));
                }
            }
            (None, Some(name.to_string()))
        }
    }
}

/// The name with whitespace runs made single spaces, soft hyphens (and the
/// line breaks after them) dropped and words broken at line ends rejoined
/// ("Flint-\nkote" → "Flintkote", "Loup-\nMiller" → "Loup-Miller").
fn clean_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{ad}' {
            // A soft hyphen only ever marks a break inside a word: the
            // line break after it is not a space ("Corne\u{ad}\nlius").
            while chars.next_if(|n| n.is_whitespace()).is_some() {}
            continue;
        }
        if c == '-' && chars.peek().is_some_and(|n| n.is_whitespace()) {
            let mut gap = String::new();
            while let Some(&n) = chars.peek() {
                if !n.is_whitespace() {
                    break;
                }
                gap.push(n);
                chars.next();
            }
            if gap.contains('\n') {
                if !chars.peek().is_some_and(|n| n.is_lowercase()) {
                    out.push('-');
                }
            } else {
                out.push('-');
                out.push(' ');
            }
            continue;
        }
        if c.is_whitespace() {
            if !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parties(text: &str) -> (Option<String>, Option<String>) {
        let start = text.find("CITE").unwrap();
        let b = before(text, start, 0, true);
        (b.plaintiff, b.defendant)
    }

    fn p(a: &str, b: &str) -> (Option<String>, Option<String>) {
        (
            (!a.is_empty()).then(|| a.to_string()),
            (!b.is_empty()).then(|| b.to_string()),
        )
    }

    #[test]
    fn a_quoted_word_inside_a_party() {
        assert_eq!(
            parties("See Ohanian v. \"Best\" Foods, Inc., CITE"),
            p("Ohanian", "\"Best\" Foods, Inc.")
        );
        assert_eq!(
            parties("Smith v. John “Jack” Jones, CITE"),
            p("Smith", "John “Jack” Jones")
        );
        assert_eq!(
            parties("as the “Court” said. Smith v. Jones, CITE"),
            p("Smith", "Jones")
        );
    }

    /// A heading on a line of its own is no part of the name after it; a
    /// wrapped line is, and so is a line holding the first party.
    #[test]
    fn a_heading_line_is_not_a_name() {
        for text in [
            "TABLE OF AUTHORITIES\n\nCases\nMiranda v. Arizona, CITE",
            "AUTHORITIES RELIED ON\nMiranda v. Arizona, CITE",
            "ARGUMENT\n\nI. The Stop Was Lawful\nMiranda v. Arizona, CITE",
            "Argument\n\n-8-\nMiranda v. Arizona, CITE",
        ] {
            assert_eq!(parties(text), p("Miranda", "Arizona"), "{text:?}");
        }
        for (text, parties_read) in [
            (
                "As held in\nMiranda v. Arizona, CITE",
                p("Miranda", "Arizona"),
            ),
            ("\n\nSee Brady\nv. Maryland, CITE", p("Brady", "Maryland")),
            (
                "Opinion\n\nParents Involved v. Seattle School\nDistrict, CITE",
                p("Parents Involved", "Seattle School District"),
            ),
            (
                "the Court in Bell Atlantic\nCorp. v. Twombly, CITE",
                p("Bell Atlantic Corp.", "Twombly"),
            ),
        ] {
            assert_eq!(parties(text), parties_read, "{text:?}");
        }
    }

    #[test]
    fn plain_names() {
        assert_eq!(parties("Lissner v. Test CITE"), p("Lissner", "Test"));
        assert_eq!(parties("bob Lissner v. Test CITE"), p("Lissner", "Test"));
        assert_eq!(
            parties("Bob Lissner v. Test CITE"),
            p("Bob Lissner", "Test")
        );
        assert_eq!(
            parties("Mavrovich v Vanderpool, CITE"),
            p("Mavrovich", "Vanderpool")
        );
        assert_eq!(parties("See Foo v. Bar, CITE"), p("Foo", "Bar"));
        assert_eq!(parties("In Foo v. Bar CITE"), p("Foo", "Bar"));
    }

    #[test]
    fn a_number_can_end_a_party_or_a_companys_name() {
        assert_eq!(
            parties("NLRB v. District 50, CITE"),
            p("NLRB", "District 50")
        );
        assert_eq!(
            parties("Dynak v. Board of Education of Wood Dale School District 7, CITE"),
            p("Dynak", "Board of Education of Wood Dale School District 7")
        );
        assert_eq!(
            parties("Mr. Pulpstone, L.L.C. v. The Shops on 58, L.L.C., CITE"),
            p("Mr. Pulpstone, L.L.C.", "The Shops on 58, L.L.C.")
        );
        // A labelled number, or one with no "v." before it, is no name's.
        for text in [
            "Smith v. Jones, Rule 12, CITE",
            "Doe v. Roe Part 2, CITE",
            "as held at 12, CITE",
            "In 12, CITE",
        ] {
            assert_eq!(parties(text), p("", ""), "{text}");
        }
    }

    #[test]
    fn a_numeral_with_a_period_ends_the_sentence_before_a_name() {
        assert_eq!(
            parties("An employer violates Title VII. Bostock v. Clayton County, CITE"),
            p("Bostock", "Clayton County")
        );
        assert_eq!(
            parties("Rule II. Smith v. Jones, CITE"),
            p("Smith", "Jones")
        );
    }

    #[test]
    fn small_words_and_particles_inside_a_party() {
        // Read to "a", the name was "Better Env't": any first party matched.
        assert_eq!(
            parties("Smith v. Citizens for a Better Env't, CITE"),
            p("Smith", "Citizens for a Better Env't")
        );
        // ... and in a first party, where "a" stopped it too.
        assert_eq!(
            parties("See Org. for a Better Austin v. Keefe, CITE"),
            p("Org. for a Better Austin", "Keefe")
        );
        assert_eq!(
            parties("The court ruled for a Smith v. Jones, CITE"),
            p("Smith", "Jones")
        );
        // An organisation's "in", which ended its name at the word after.
        assert_eq!(
            parties("See Coal. for Fair Trade in Garlic v. United States, CITE"),
            p("Coal. for Fair Trade in Garlic", "United States")
        );
        assert_eq!(
            parties("Citizens for Responsibility & Ethics in Wash. v. FEC, CITE"),
            p("Citizens for Responsibility & Ethics in Wash.", "FEC")
        );
        assert_eq!(
            parties("Society for Ethical Culture in Mass. v. Spatt, CITE"),
            p("Society for Ethical Culture in Mass.", "Spatt")
        );
        for text in [
            "The Motion for Summary Judgment in Smith v. Jones, CITE",
            "Congress legislated for the States in Smith v. Jones, CITE",
        ] {
            assert_eq!(parties(text), p("Smith", "Jones"), "{text}");
        }
        assert_eq!(
            parties("Ashcroft v. al-Kidd, CITE"),
            p("Ashcroft", "al-Kidd")
        );
        assert_eq!(
            parties("eBay Inc. v. MercExchange, L.L.C., CITE"),
            p("eBay Inc.", "MercExchange, L.L.C.")
        );
        assert_eq!(
            parties("Microsoft Corp. v. i4i Ltd. P'ship, CITE"),
            p("Microsoft Corp.", "i4i Ltd. P'ship")
        );
        assert_eq!(parties("See 3M Co. v. Smith, CITE"), p("3M Co.", "Smith"));
        assert_eq!(
            parties("Park 'N Fly, Inc. v. Dollar Park & Fly, Inc., CITE"),
            p("Park 'N Fly, Inc.", "Dollar Park & Fly, Inc.")
        );
        assert_eq!(
            parties("Posters 'N' Things, Ltd. v. United States, CITE"),
            p("Posters 'N' Things, Ltd.", "United States")
        );
        assert_eq!(
            parties("as in 'N Smith v. Jones, CITE"),
            p("Smith", "Jones")
        );
        assert_eq!(
            parties("General Telephone Company Of The Southwest v. Falcon, CITE"),
            p("General Telephone Company Of The Southwest", "Falcon")
        );
        // A small word before a whole name is prose.
        assert_eq!(
            parties("The Court in Smith v. Jones, CITE"),
            p("Smith", "Jones")
        );
        assert_eq!(
            parties("the test of a Smith v. Jones, CITE"),
            p("Smith", "Jones")
        );
        assert_eq!(
            parties("cases—The City of Carlisle, CITE"),
            p("", "City of Carlisle")
        );
        // Inside a first party that is a company; not after a court.
        assert_eq!(
            parties("See Avis Rent a Car System, LLC v. Burrill, CITE"),
            p("Avis Rent a Car System, LLC", "Burrill")
        );
        assert_eq!(
            parties("See Places in Saratoga, LLC v. Izzo, CITE"),
            p("Places in Saratoga, LLC", "Izzo")
        );
        assert_eq!(
            parties("The Court in Acme Co. v. Jones, CITE"),
            p("Acme Co.", "Jones")
        );
        assert_eq!(
            parties("as held in Acme Co. v. Jones, CITE"),
            p("Acme Co.", "Jones")
        );
    }

    #[test]
    fn stops_at_sentences_signals_and_string_cites() {
        assert_eq!(
            parties("speech.” Houston Cmty. Coll. Sys. v. Wilson, CITE"),
            p("Houston Cmty. Coll. Sys.", "Wilson")
        );
        assert_eq!(
            parties("curiams. Spano v. People of State of New York, CITE"),
            p("Spano", "People of State of New York")
        );
        assert_eq!(
            parties("(1963); Reece v. State of Washington, CITE"),
            p("Reece", "State of Washington")
        );
        assert_eq!(
            parties("General Casualty cites as compelling Amick v. Liberty Mut. Ins. Co., CITE"),
            p("Amick", "Liberty Mut. Ins. Co.")
        );
        assert_eq!(
            parties("Overruled and so on Jin Fuey Moy v. United States, CITE"),
            p("Jin Fuey Moy", "United States")
        );
        assert_eq!(
            parties("objection. Our Lady of the Lake Hosp. v. Vanner, CITE"),
            p("Our Lady of the Lake Hosp.", "Vanner")
        );
        assert_eq!(parties("Cf. Akins v. State, CITE"), p("Akins", "State"));
        assert_eq!(
            parties("held. Again, Brown v. Board of Education, CITE"),
            p("Brown", "Board of Education")
        );
        assert_eq!(
            parties("Second National Bank v. Ames, CITE"),
            p("Second National Bank", "Ames")
        );
        assert_eq!(
            parties("(quoting Ohree v. Commonwealth, CITE"),
            p("Ohree", "Commonwealth")
        );
        assert_eq!(
            parties("them.  Relying on Butler v. Commonwealth, CITE"),
            p("Butler", "Commonwealth")
        );
        assert_eq!(
            parties("Commonwealth v. Ullman, 2021-CA-0077-MR, CITE"),
            p("Commonwealth", "Ullman")
        );
    }

    #[test]
    fn skips_what_sits_between_name_and_citation() {
        assert_eq!(parties("In re K.F. (2009) CITE"), p("", "K.F."));
        assert_eq!(
            parties("Hurst v. Florida, — U.S. —, CITE"),
            p("Hurst", "Florida")
        );
        assert_eq!(
            parties("Craig v. Harrah, ___ Nev. ___ [CITE"),
            p("Craig", "Harrah")
        );
        assert_eq!(
            parties("Corp. v. Nature's Farm Prods., No. 99 Civ. 9404 (SHS), CITE"),
            p("Corp.", "Nature's Farm Prods.")
        );
        assert_eq!(
            parties(
                "Our Lady of the Lake Hosp. v. Vanner, 95-0754, p. 3 (La.App. 1 Cir. 12/15/95), CITE"
            ),
            p("Our Lady of the Lake Hosp.", "Vanner")
        );
        assert_eq!(
            parties("\n Smart v. Tatum,\n \n \n CITE"),
            p("Smart", "Tatum")
        );
        assert_eq!(
            parties("DeSantis v. Wackenhut Corp. , CITE"),
            p("DeSantis", "Wackenhut Corp.")
        );
        assert_eq!(
            parties("See Lee v. Flint-\nkote Co., CITE"),
            p("Lee", "Flintkote Co.")
        );
        assert_eq!(
            parties("See Loup-\nMiller v. Denver, CITE"),
            p("Loup-Miller", "Denver")
        );
        assert_eq!(
            parties("See Corne\u{ad}\nlius v. NAACP, CITE"),
            p("Cornelius", "NAACP")
        );
    }

    #[test]
    fn names_with_commas_and_relators() {
        assert_eq!(
            parties("Judge Regan (dissenting) in Thrift Funds Canal, Inc. v. Foy, CITE"),
            p("Thrift Funds Canal, Inc.", "Foy")
        );
        assert_eq!(
            parties("United States ex rel. Russo v. New Jersey , CITE"),
            p("United States ex rel. Russo", "New Jersey")
        );
        assert_eq!(
            parties("Angelopoulos v. Keystone Orthopedic Specialists, S.C., Wachn, LCC, CITE"),
            p(
                "Angelopoulos",
                "Keystone Orthopedic Specialists, S.C., Wachn, LCC"
            )
        );
        assert_eq!(
            parties("U.S. v. Boch Oldsmobile, Inc., CITE"),
            p("U.S.", "Boch Oldsmobile, Inc.")
        );
    }

    #[test]
    fn no_name() {
        assert_eq!(parties("The rule is settled. CITE"), p("", ""));
        assert_eq!(parties("1 U.S. 1. CITE"), p("", ""));
        assert_eq!(parties("CITE"), p("", ""));
        assert_eq!(parties("aff'd, CITE"), p("", ""));
        assert_eq!(parties("violated the Constitution. CITE"), p("", ""));
    }

    #[test]
    fn words_that_usually_start_a_clause_can_be_a_party() {
        assert_eq!(parties("Fake v. Case, CITE"), p("Fake", "Case"));
        assert_eq!(parties("Zzz v. The, CITE"), p("Zzz", "The"));
        assert_eq!(parties("Foo v. See, CITE"), p("Foo", "See"));
        assert_eq!(
            parties("United States v. The Amistad, CITE"),
            p("United States", "The Amistad")
        );
        assert_eq!(
            parties("Smith v. Jones, Case No. 12-345, CITE"),
            p("Smith", "Jones")
        );
        assert_eq!(parties("See The rule, CITE"), p("", ""));
    }

    #[test]
    fn steps_over_et_al_captions_and_quotes() {
        assert_eq!(
            parties("Mata v. Avianca, Inc., et al., CITE"),
            p("Mata", "Avianca, Inc.")
        );
        assert_eq!(parties("Smith v. Jones et al., CITE"), p("Smith", "Jones"));
        assert_eq!(
            parties("Jones v. Smith (In re Smith), CITE"),
            p("Jones", "Smith")
        );
        assert_eq!(
            parties("Smith v. Jones (per curiam), CITE"),
            p("Smith", "Jones")
        );
        assert_eq!(parties("See \"Smith v. Jones,\" CITE"), p("Smith", "Jones"));
        assert_eq!(parties("See “Smith v. Jones,” CITE"), p("Smith", "Jones"));
        assert_eq!(
            parties("The Court said \"separate is not equal.\" CITE"),
            p("", "")
        );
    }
}

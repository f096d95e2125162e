//! What follows a citation: pin cites, the court-and-year parenthetical,
//! explanatory parentheticals and subsequent history. Hand-written
//! scanners, each bounded in how far it reads.

use std::ops::Range;

use crate::citations::courts;
use crate::citations::text::{char_after, char_before};

/// Longest parenthetical read, in bytes; longer ones are left alone.
const MAX_PAREN: usize = 2_000;
/// Deepest nesting of parentheses inside one parenthetical.
const MAX_DEPTH: usize = 32;
/// Most pin-cite items read after one citation.
const MAX_PIN_ITEMS: usize = 64;

/// Skips spaces and tabs (not newlines twice in a row) from `pos`.
pub(crate) fn skip_spaces(text: &str, mut pos: usize) -> usize {
    let mut newlines = 0;
    while let Some(c) = char_after(text, pos) {
        if c == '\n' {
            newlines += 1;
            if newlines > 1 {
                break;
            }
        } else if !c.is_whitespace() {
            break;
        }
        pos += c.len_utf8();
    }
    pos
}

pub(crate) fn skip_spaces_back(text: &str, mut pos: usize) -> usize {
    while let Some(c) = char_before(text, pos) {
        if !c.is_whitespace() {
            break;
        }
        pos -= c.len_utf8();
    }
    pos
}

/// A pin cite: where its text is, and where the citation now ends.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pin {
    pub span: Range<usize>,
}

/// How a pin cite is introduced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PinLead {
    /// After a full citation: ", 347-348" or ", at 5".
    Comma,
    /// After "Id." or "supra": " at 5", ", at 5", " ¶ 34", " 119:12-14".
    Loose,
    /// Continuing the page of a short form ("at 20-25").
    Page,
}

/// Reads a pin cite at `pos`, stopping before `limit` (the next citation).
pub(crate) fn pin_cite(text: &str, pos: usize, lead: PinLead, limit: usize) -> Option<Pin> {
    let text = text.get(..limit.min(text.len()))?;
    let mut at = pos;
    match lead {
        PinLead::Comma => {
            let after_space = skip_spaces(text, at);
            at = text[after_space..]
                .strip_prefix(',')
                .map(|_| after_space + 1)?;
            at = skip_spaces(text, at);
        }
        PinLead::Loose => {
            if text[at..].starts_with(',') {
                at += 1;
            }
            at = skip_spaces(text, at);
        }
        PinLead::Page => {}
    }
    let start = at;
    if lead != PinLead::Page
        && let Some(rest) = text[at..].strip_prefix("at")
    {
        let after = skip_spaces(text, at + 2);
        if after > at + 2 || rest.starts_with(['¶', '*', '§']) {
            at = after;
        }
    }
    let mut end = pin_item(text, at)?;
    let mut items = 1;
    loop {
        let next = separator(text, end).and_then(|sep| pin_item(text, sep));
        match next {
            Some(next_end) if items < MAX_PIN_ITEMS && pin_may_end(text, next_end) => {
                end = next_end;
                items += 1;
            }
            _ => break,
        }
    }
    pin_may_end(text, end).then_some(Pin { span: start..end })
}

/// ", " or " & " between pin items.
fn separator(text: &str, pos: usize) -> Option<usize> {
    let rest = &text[pos..];
    if let Some(r) = rest.strip_prefix(',') {
        let skip = r.len() - r.trim_start_matches(' ').len();
        let at = pos + 1 + skip.min(2);
        // The last item of a list: "495, 497, and 500".
        let conjunction = ["and ", "& "].iter().find(|c| text[at..].starts_with(**c));
        return Some(at + conjunction.map_or(0, |c| c.len()));
    }
    for sep in [" & ", " and "] {
        if rest.starts_with(sep) {
            return Some(pos + sep.len());
        }
    }
    None
}

/// What joins the ends of a page range other than a dash against them.
const RANGE_WORDS: [&str; 6] = [" - ", " – ", " — ", " to ", " through ", " thru "];

/// One pin item at `pos` ("347-348", "n. 4", "¶ 12", "*3", "119:12-14"),
/// returning its end.
fn pin_item(text: &str, pos: usize) -> Option<usize> {
    let rest = &text[pos..];
    let mut at = pos;
    const LABELS: [&str; 14] = [
        "& note ", "note ", "& nn.", "& n.", "nn.", "n.", "fn.", "fn ", "¶¶", "¶", "§§", "§",
        "pp.", "p.",
    ];
    if let Some(label) = LABELS.iter().find(|l| rest.starts_with(**l)) {
        at += label.len();
        if text[at..].starts_with(' ') {
            at += 1;
        }
    } else if rest.starts_with("pg.") || rest.starts_with("para.") {
        at += if rest.starts_with("pg.") { 3 } else { 5 };
        if text[at..].starts_with(' ') {
            at += 1;
        }
    }
    let stars = text[at..].bytes().take_while(|b| *b == b'*').count().min(4);
    at += stars;
    let digits = count_digits(text, at);
    if digits == 0 {
        return None;
    }
    at += digits;
    // page:line, like 119:12-14 or 12:3-13:4
    if text[at..].starts_with(':') && count_digits(text, at + 1) > 0 {
        at += 1 + count_digits(text, at + 1);
    }
    if let Some(dash) = ["-", "–", "—"].iter().find(|d| text[at..].starts_with(**d)) {
        let after = at + dash.len();
        let n = count_digits(text, after);
        if n > 0 {
            at = after + n;
            if text[at..].starts_with(':') && count_digits(text, at + 1) > 0 {
                at += 1 + count_digits(text, at + 1);
            }
        }
    } else if let Some(word) = RANGE_WORDS.iter().find(|w| text[at..].starts_with(**w)) {
        // A range written out or with a spaced dash ("495 to 500",
        // "495 — 500"), where the pin can end after it.
        let after = at + word.len();
        let n = count_digits(text, after);
        if n > 0 && pin_may_end(text, after + n) {
            at = after + n;
        }
    }
    // A footnote of the page: "499 n.11", "499 n. 11", "499 nn.11-12".
    if let Some(note) = [" nn.", " n."]
        .iter()
        .find(|label| text[at..].starts_with(**label))
    {
        let mut after = at + note.len();
        if text[after..].starts_with(' ') {
            after += 1;
        }
        let n = count_digits(text, after);
        if n > 0 {
            at = after + n;
            if let Some(dash) = ["-", "–"].iter().find(|d| text[at..].starts_with(**d)) {
                let more = count_digits(text, at + dash.len());
                if more > 0 {
                    at += dash.len() + more;
                }
            }
        }
    }
    // A Georgia-style division number after the page: "218 (1)".
    if let Some(rest) = text[at..].strip_prefix(" (") {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if (1..=2).contains(&n) && rest[n..].starts_with(')') {
            at += 2 + n + 1;
        }
    }
    Some(at)
}

pub(crate) fn count_digits(text: &str, pos: usize) -> usize {
    text.as_bytes()
        .get(pos..)
        .map_or(0, |b| b.iter().take_while(|b| b.is_ascii_digit()).count())
}

/// A pin cite must end where a citation can: before punctuation, a
/// parenthesis, or the end, so it does not swallow the next citation's
/// volume.
fn pin_may_end(text: &str, end: usize) -> bool {
    match char_after(text, end) {
        None => true,
        Some(c) if ",.;:)]\\}”\"'’".contains(c) => true,
        Some(c) if c.is_whitespace() => {
            let next = skip_spaces(text, end);
            match char_after(text, next) {
                None => true,
                Some(n) => "([&".contains(n) || next == end + 1 && text[next..].starts_with("and "),
            }
        }
        Some(_) => false,
    }
}

/// A parallel citation to pages not yet assigned, after a citation
/// (", ---- L. Ed. 2d ----"); returns where it ends.
pub(crate) fn placeholder_citation(text: &str, pos: usize) -> Option<usize> {
    let is_blank = |w: &str| !w.is_empty() && w.chars().all(|c| matches!(c, '_' | '—' | '–' | '-'));
    let rest = text.get(pos..)?.trim_start().strip_prefix(',')?;
    let mut consumed = text.len() - pos - rest.len();
    let mut words = rest.split_whitespace();
    let mut offset_in_rest = 0;
    let mut seen_blank = false;
    for (n, word) in words.by_ref().enumerate() {
        let at = rest[offset_in_rest..].find(word)? + offset_in_rest;
        offset_in_rest = at + word.len();
        let bare = word.trim_end_matches([',', ';', '.']);
        if is_blank(bare) {
            if seen_blank {
                consumed += at + bare.len();
                return Some(pos + consumed);
            }
            seen_blank = true;
        } else if !seen_blank || n > 5 {
            return None;
        }
    }
    None
}

/// A parenthetical (or bracketed) aside.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Paren {
    /// With the brackets.
    pub span: Range<usize>,
    /// Without them.
    pub inner: Range<usize>,
}

/// A balanced parenthetical starting at `pos` after a little whitespace
/// (one line break at most).
pub(crate) fn paren_at(text: &str, pos: usize) -> Option<Paren> {
    let at = skip_spaces(text, pos);
    if at - pos > 4 {
        return None;
    }
    let open = char_after(text, at)?;
    let close = match open {
        '(' => ')',
        '[' => ']',
        _ => return None,
    };
    let mut depth = 0usize;
    for (offset, c) in text[at..].char_indices() {
        if offset > MAX_PAREN {
            return None;
        }
        if c == '(' || c == '[' {
            depth += 1;
            if depth > MAX_DEPTH {
                return None;
            }
        } else if c == ')' || c == ']' {
            depth -= 1;
            if depth == 0 {
                if c != close {
                    return None;
                }
                let end = at + offset + 1;
                return Some(Paren {
                    span: at..end,
                    inner: at + 1..end - 1,
                });
            }
        }
    }
    None
}

/// The court, date and year of a parenthetical like "(9th Cir. 1982)",
/// "(Pa. Feb. 9, 2017)", "[D Kan 2006]" or "(2007)".
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CourtYear {
    pub court: Option<Range<usize>>,
    pub year: i32,
}

const MONTHS: [&str; 24] = [
    "Jan.",
    "Feb.",
    "Mar.",
    "Apr.",
    "May",
    "June",
    "July",
    "Aug.",
    "Sept.",
    "Sep.",
    "Oct.",
    "Nov.",
    "Dec.",
    "January",
    "February",
    "March",
    "April",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Jun.",
    "Jul.",
];

/// A number alone in a parenthetical that is not four digits long
/// ("(20000)", "(954)", "(0)"): where a citation's year goes, and no year a
/// decision can have. It is read as the year given (saturating), so that
/// the check says the year is wrong rather than passing it over.
fn number_for_a_year(content: &str) -> Option<i32> {
    let digits = content.trim();
    is_other_length_number(digits).then(|| digits.parse().unwrap_or(i32::MAX))
}

/// Where a parenthetical's last word, a number not four digits long,
/// starts, and its length ("9th Cir. 20000").
fn last_number(content: &str) -> Option<(usize, usize)> {
    let trimmed = content.trim_end();
    // After the space, which may be more than one byte (a no-break space).
    let (space_at, space) = trimmed
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())?;
    let word_at = space_at + space.len_utf8();
    let word = &trimmed[word_at..];
    is_other_length_number(word).then_some((word_at, word.len()))
}

/// Digits, more or fewer than a year's four.
fn is_other_length_number(word: &str) -> bool {
    !word.is_empty() && word.len() != 4 && word.bytes().all(|b| b.is_ascii_digit())
}

/// Reads a court-and-year parenthetical; `None` if `inner` is something
/// else (an explanatory parenthetical, a parallel citation).
pub(crate) fn court_year(text: &str, inner: Range<usize>) -> Option<CourtYear> {
    let content = text.get(inner.clone())?;
    if content.len() > 120 {
        return None;
    }
    if let Some(year) = number_for_a_year(content) {
        return Some(CourtYear { court: None, year });
    }
    // The year is the last 4-digit number; after it may come a range end
    // ("1993-94") and, Texas style, a short writ history (", no pet.").
    let bytes = content.as_bytes();
    let mut year_at = None;
    let mut i = 0;
    while i + 4 <= bytes.len() {
        let is_year = bytes[i..i + 4].iter().all(u8::is_ascii_digit)
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + 4).is_none_or(|b| !b.is_ascii_digit());
        if is_year {
            year_at = Some(i);
            i += 4;
        } else {
            i += 1;
        }
    }
    // Else a number of another length ending it may be a mistyped year
    // ("9th Cir. 20000"), if a court or a date comes before it (below).
    let (year_at, year_len) = match year_at {
        Some(at) => (at, 4),
        None => last_number(content)?,
    };
    let year: i32 = content[year_at..year_at + year_len]
        .parse()
        .unwrap_or(i32::MAX);
    // A number outside the years of American reports is still a year,
    // mistyped ("(2106)" for 2016), alone in the parenthetical or after a
    // court or a date: a claim to check, not a note to pass over. With
    // other words it may be a docket or a record number.
    let mistyped = year_len != 4 || !(1600..=2100).contains(&year);
    let mut after = &content[year_at + year_len..];
    if let Some(rest) = after.strip_prefix(['-', '–']) {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if n == 2 || n == 4 {
            after = &rest[n..];
        }
    }
    let after = after.trim();
    if !(after.is_empty() || after.starts_with(',') && after.len() <= 40) {
        return None;
    }
    let mut court_text = content[..year_at].trim_end();
    // Drop the date before the year: "Feb. 9," or "Aug. 25,".
    court_text = court_text.trim_end_matches(',').trim_end();
    let day_len = court_text
        .bytes()
        .rev()
        .take_while(u8::is_ascii_digit)
        .count();
    if (1..=2).contains(&day_len) {
        let before = court_text[..court_text.len() - day_len].trim_end();
        if MONTHS.iter().any(|m| before.ends_with(m)) {
            court_text = before;
        }
    }
    let mut dated = false;
    if let Some(month) = MONTHS.iter().find(|m| court_text.ends_with(**m)) {
        let before = &court_text[..court_text.len() - month.len()];
        if before.is_empty() || before.ends_with(' ') {
            court_text = before.trim_end();
            dated = true;
        }
    }
    let court_text = court_text.trim_matches(|c: char| c.is_whitespace() || c == ',');
    if !looks_like_court(court_text) {
        return None;
    }
    let court_known = || courts::court_by_abbreviation(court_text).is_some();
    if mistyped && !(court_text.is_empty() && (dated || after.is_empty())) && !court_known() {
        return None;
    }
    let court = if court_text.is_empty() {
        None
    } else {
        let start = inner.start + (court_text.as_ptr() as usize - content.as_ptr() as usize);
        Some(start..start + court_text.len())
    };
    Some(CourtYear { court, year })
}

/// The court a parenthetical names alone, without a year ("(9th Cir.)"):
/// one courts-db knows by that abbreviation.
pub(crate) fn court_alone(text: &str, inner: Range<usize>) -> Option<Range<usize>> {
    let content = text.get(inner.clone())?;
    let court = content.trim();
    let known = looks_like_court(court) && courts::court_by_abbreviation(court).is_some();
    known.then(|| {
        let start = inner.start + (content.len() - content.trim_start().len());
        start..start + court.len()
    })
}

/// A court abbreviation is short and made of capitalised words, numbers
/// and a few joining words ("4th Cir.", "Cal. Ct. App.", "D Kan").
fn looks_like_court(s: &str) -> bool {
    if s.len() > 60 {
        return false;
    }
    s.split_whitespace().all(|word| {
        let first = word.chars().next().unwrap_or(' ');
        first.is_uppercase()
            || first.is_ascii_digit()
            || "[—–-".contains(first)
            || matches!(
                word,
                "of" | "the" | "and" | "ex" | "rel." | "en" | "banc" | "div."
            )
    })
}

/// Phrases that introduce later history of the same case.
const HISTORY: [&str; 30] = [
    "aff'd in part and rev'd in part",
    "aff'd in part, rev'd in part",
    "aff'd in part",
    "aff'd",
    "affirmed",
    "rev'd in part",
    "rev'd",
    "reversed",
    "vacated",
    "vacated and remanded",
    "cert. denied",
    "cert. granted",
    "cert. dismissed",
    "cert denied",
    "cert. granted in part",
    "reh'g denied",
    "reh'g granted",
    "reh'g en banc denied",
    "reh'g en banc granted",
    "appeal dismissed",
    "appeal denied",
    "modified",
    "overruled by",
    "overruled",
    "abrogated by",
    "superseded by statute",
    "withdrawn",
    "remanded",
    "review denied",
    "dismissed",
];

/// Subsequent history at `pos`: ", aff'd, " or ", cert. denied, " (possibly
/// "on other grounds" or "sub nom. X v. Y,") reaching `next_citation`.
/// Returns the phrase's span.
pub(crate) fn history(text: &str, pos: usize, next_citation: usize) -> Option<Range<usize>> {
    let between = text.get(pos..next_citation)?;
    if between.len() > 200 {
        return None;
    }
    let rest = between.trim_start().strip_prefix(',')?.trim_start();
    let phrase_start = next_citation - between.len() + (between.len() - rest.len());
    let lower = rest.to_ascii_lowercase();
    let phrase = HISTORY
        .iter()
        .filter(|p| lower.starts_with(**p))
        .max_by_key(|p| p.len())?;
    let mut after = &lower[phrase.len()..];
    for qualifier in [" on other grounds", " in part", " per curiam", " mem."] {
        after = after.strip_prefix(qualifier).unwrap_or(after);
    }
    let after = after.trim_start().trim_start_matches(',').trim_start();
    let allowed = after.is_empty() || after.starts_with("sub nom.") || after.starts_with("by ");
    allowed.then(|| phrase_start..phrase_start + phrase.len())
}

/// Skips a court/year parenthetical or "(year)" that ends right before
/// `pos` (California style: "Smith v. Jones (2009) 1 Cal.4th 1").
pub(crate) fn paren_before(text: &str, pos: usize) -> Option<Paren> {
    let end = skip_spaces_back(text, pos);
    let close = char_before(text, end)?;
    let open = match close {
        ')' => '(',
        ']' => '[',
        _ => return None,
    };
    let mut window_start = end.saturating_sub(120);
    while !text.is_char_boundary(window_start) {
        window_start += 1;
    }
    let window = text.get(window_start..end - 1)?;
    let open_at = window.rfind(open)?;
    let start = end - 1 - (window.len() - open_at);
    let inner = start + 1..end - 1;
    if text[inner.clone()].contains([')', ']', '(', '[']) {
        return None;
    }
    Some(Paren {
        span: start..end,
        inner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(text: &str, lead: PinLead) -> Option<&str> {
        pin_cite(text, 0, lead, text.len()).map(|p| &text[p.span])
    }

    #[test]
    fn pin_cites() {
        assert_eq!(
            pin(", 347-348 (4th Cir. 1982)", PinLead::Comma),
            Some("347-348")
        );
        assert_eq!(
            pin(", 347-348, 1 S. Ct. 2", PinLead::Comma),
            Some("347-348")
        );
        assert_eq!(pin(", 1 S. Ct. 2", PinLead::Comma), None);
        assert_eq!(pin(", at *4. More", PinLead::Comma), Some("at *4"));
        assert_eq!(
            pin(" at 62-63, 67-68. f", PinLead::Loose),
            Some("at 62-63, 67-68")
        );
        assert_eq!(pin(" ¶ 34. foo", PinLead::Loose), Some("¶ 34"));
        assert_eq!(pin(" 119:12-14. foo", PinLead::Loose), Some("119:12-14"));
        assert_eq!(pin(", at 123. foo", PinLead::Loose), Some("at 123"));
        assert_eq!(
            pin(" at pp. 45, 64. foo", PinLead::Loose),
            Some("at pp. 45, 64")
        );
        assert_eq!(
            pin(" at 7-9, ¶¶ 38-53. f", PinLead::Loose),
            Some("at 7-9, ¶¶ 38-53")
        );
        assert_eq!(pin(" No page number.", PinLead::Loose), None);
        assert_eq!(pin("20-25 & n. 4 (x)", PinLead::Page), Some("20-25 & n. 4"));
        assert_eq!(pin(", 499 n.11 (1954)", PinLead::Comma), Some("499 n.11"));
        assert_eq!(pin(", 499 n. 11.", PinLead::Comma), Some("499 n. 11"));
        assert_eq!(pin(", 499 nn.11-12.", PinLead::Comma), Some("499 nn.11-12"));
        assert_eq!(pin(", 490, 499 (1954)", PinLead::Comma), Some("490, 499"));
        assert_eq!(pin(", 5 years later", PinLead::Comma), None);
        assert_eq!(
            pin(", 495 to 500 (1954)", PinLead::Comma),
            Some("495 to 500")
        );
        assert_eq!(pin(", 495 — 500.", PinLead::Comma), Some("495 — 500"));
        assert_eq!(
            pin(", 495 through 500;", PinLead::Comma),
            Some("495 through 500")
        );
        assert_eq!(pin(", 495, and 500.", PinLead::Comma), Some("495, and 500"));
        assert_eq!(
            pin(", 495, 497, & 500.", PinLead::Comma),
            Some("495, 497, & 500")
        );
        assert_eq!(pin(", 495 to 500 people", PinLead::Comma), None);
    }

    #[test]
    fn placeholder_parallel_citations() {
        let text = ", ---- L. Ed. 2d ---- (2022)";
        assert_eq!(placeholder_citation(text, 0), Some(21));
        assert_eq!(placeholder_citation(", 5 L. Ed. 2d 3", 0), None);
    }

    #[test]
    fn parentheticals_balance() {
        let text = " (discussing abc (Holmes, J., concurring)) (x)";
        let p = paren_at(text, 0).unwrap();
        assert_eq!(&text[p.inner], "discussing abc (Holmes, J., concurring)");
        assert!(paren_at("(unclosed", 0).is_none());
        assert!(paren_at("(a]", 0).is_none());
        assert!(paren_at(&"(".repeat(100_000), 0).is_none());
    }

    fn cy(inner: &str) -> Option<(Option<&str>, i32)> {
        court_year(inner, 0..inner.len()).map(|c| (c.court.map(|r| &inner[r]), c.year))
    }

    #[test]
    fn court_and_year() {
        assert_eq!(cy("4th Cir. 1982"), Some((Some("4th Cir."), 1982)));
        assert_eq!(cy("Pa. Feb. 9, 2017"), Some((Some("Pa."), 2017)));
        assert_eq!(cy("2007"), Some((None, 2007)));
        assert_eq!(cy("1993-94"), Some((None, 1993)));
        assert_eq!(cy("1st Cir.1990"), Some((Some("1st Cir."), 1990)));
        assert_eq!(cy("S.D.N.Y. Aug. 25, 2000"), Some((Some("S.D.N.Y."), 2000)));
        assert_eq!(cy(" 1st Cir. 1998"), Some((Some("1st Cir."), 1998)));
        assert_eq!(
            cy("Tex. App.—Houston [14th Dist.] 2005, no pet."),
            Some((Some("Tex. App.—Houston [14th Dist.]"), 2005))
        );
        assert_eq!(cy("2106"), Some((None, 2106)), "a mistyped year is read");
        // A number of another length alone stands where the year goes.
        assert_eq!(cy("20000"), Some((None, 20000)));
        assert_eq!(cy(" 954 "), Some((None, 954)));
        assert_eq!(cy("0"), Some((None, 0)));
        assert_eq!(cy("99999999999999999999"), Some((None, i32::MAX)));
        // After a court or a date too; after other words it may be a
        // docket's or a record's number.
        assert_eq!(cy("9th Cir. 20000"), Some((Some("9th Cir."), 20000)));
        assert_eq!(cy("N.M. 211"), Some((Some("N.M."), 211)));
        assert_eq!(cy("Jan. 5, 20000"), Some((None, 20000)));
        assert_eq!(cy("9th Cir. 1066"), Some((Some("9th Cir."), 1066)));
        assert_eq!(cy("No. 12"), None);
        assert_eq!(cy("Harvard 12"), None);
        assert_eq!(
            cy("No. 1054"),
            None,
            "a number with words may be a docket's"
        );
        assert_eq!(cy("holding that 1990 was late"), None);
        assert_eq!(cy("overruling foo"), None);
        assert_eq!(cy("198⁴"), None);
        // A space of more than one byte before the number.
        assert_eq!(cy("9th Cir.\u{a0}20000"), Some((Some("9th Cir."), 20000)));
        assert_eq!(cy("No.\u{3000}12"), None);
    }

    #[test]
    fn subsequent_history() {
        let text = "x, aff'd, 2 F.3d 3";
        assert_eq!(history(text, 1, 10).map(|r| &text[r]), Some("aff'd"));
        let text = "x, cert. denied, 510 U.S. 1";
        assert_eq!(history(text, 1, 17).map(|r| &text[r]), Some("cert. denied"));
        let text = "x, see 2 F.3d 3";
        assert_eq!(history(text, 1, 7), None);
    }

    #[test]
    fn parenthetical_before() {
        let text = "In re K.F. (2009) 1 U.S. 1";
        let p = paren_before(text, 18).unwrap();
        assert_eq!(&text[p.inner], "2009");
    }
}

//! Statutes, regulations and rules: the section the library holds, every
//! section of a "§§" list or range, and a rule's subdivision in its text.

use std::ops::Range;

use redb::ReadTransaction;

use super::constitution_citations::{check_constitution, unread_constitution_part};
use super::subdivisions::{subdivision_path, text_shows_subdivision};
use super::{this_year, year_to_come};
use crate::citations::{Citation, CitationKind, bluebook, range_end_in_full, section_range};
use crate::library::lookup::{
    AuthorityLookup, PartLookup, find_authority, find_part, sections_named,
};
use crate::library::model::{Authority, codes};
use crate::library::{law_code, law_title, rule_and_paragraph};
use crate::store::StoreError;
use crate::verification::{CheckedCitation, ContentType, urls};

fn content_type_of(code: &str) -> ContentType {
    match code {
        codes::USC => ContentType::Statute,
        codes::CFR => ContentType::Regulation,
        _ => ContentType::Rule,
    }
}

/// The content type of a law collection the library does not hold, from
/// the kind of law its key names (rules, regulations, else statutes).
fn content_type_of_collection(key: &str) -> ContentType {
    match crate::citations::law_cite_type(key) {
        Some("court_rule") => ContentType::Rule,
        Some("admin_compilation" | "admin_register") => ContentType::Regulation,
        _ => ContentType::Statute,
    }
}

pub(super) fn check_law(
    txn: &ReadTransaction,
    citation: &Citation,
    written: String,
    text: &str,
) -> Result<CheckedCitation, StoreError> {
    let Some(law) = citation.law.as_deref() else {
        return Ok(CheckedCitation::unavailable(
            written,
            None,
            "the law citation could not be read",
        ));
    };
    let after = after_law(citation, text);
    if law.code == crate::citations::CONSTITUTION {
        if let Some(unread) = unread_constitution_part(after) {
            // "amend. XIV, §§ 6-7", "art. I, § 8, cls. 17, 19": each part
            // is a claim, and the parts after the one read were not read.
            return Ok(CheckedCitation::unavailable(
                written,
                None,
                format!(
                    "the citation goes on ({unread}) past what could be read, so it cannot be checked"
                ),
            ));
        }
        return Ok(check_constitution(citation, law, written));
    }
    let Some(code) = law_code(&law.code) else {
        return Ok(CheckedCitation::unavailable(
            written,
            Some(content_type_of_collection(&law.code)),
            format!("the library holds no {} data", law.code),
        ));
    };
    let content_type = Some(content_type_of(code));
    if law.appendix {
        return Ok(CheckedCitation::unavailable(
            written,
            content_type,
            "the U.S. Code appendix is not in the library",
        ));
    }
    if let Some(reason) = year_to_come(citation, this_year()).or_else(|| {
        citation
            .year
            .and_then(|year| before_first_edition(code, &law.code, year))
    }) {
        return Ok(CheckedCitation::unverified(
            written,
            content_type,
            None,
            reason,
        ));
    }
    let title = law_title(law);
    if let (None, Some(part)) = (&law.section, &law.part) {
        return check_part(txn, code, &title, part, citation, written);
    }
    let Some(section) = law.section.clone() else {
        return Ok(CheckedCitation::unavailable(
            written,
            content_type,
            "no section, rule or part of it could be read",
        ));
    };
    let (section, paragraph) = rule_and_paragraph(code, &section);
    let (first, last) = sections_named(txn, code, &title, section, written.contains("§§"))?;
    let last = last.map(|last| range_end_in_full(&first, &last).into_owned());
    let authority = match find_authority(txn, code, &title, &first)? {
        AuthorityLookup::Found { authority } => authority,
        AuthorityLookup::Absent { reason } => {
            return Ok(cannot_exist(reason, written, content_type));
        }
        AuthorityLookup::NotHeld { reason } => {
            return Ok(cannot_tell(reason, written, content_type));
        }
    };
    // The other sections or rules it names: its range's end, or the rest
    // of its list ("§§ 101, 999", "Fed. R. Civ. P. 12, 56").
    let listed = if last.is_none() {
        listed_after(citation, text)
    } else {
        Vec::new()
    };
    let label = if law.unit == "rule" { "Rule" } else { "§" };
    for other in last.as_deref().into_iter().chain(listed) {
        match find_authority(txn, code, &title, other)? {
            AuthorityLookup::Found { authority } => {
                // A listed rule's own subdivisions ("12(b)(6), 12(b)(9)")
                // are checked as the first item's are.
                let subdivision =
                    Some(subdivisions_following(text, other)).filter(|s| !s.is_empty());
                if let Some(reason) =
                    subdivision_unshown(code, &law.code, other, subdivision, &authority)
                {
                    return Ok(CheckedCitation::unavailable(written, content_type, reason));
                }
            }
            AuthorityLookup::Absent { reason } => {
                let reason = format!("{label} {other}: {reason}");
                return Ok(cannot_exist(reason, written, content_type));
            }
            AuthorityLookup::NotHeld { reason } => {
                let reason = format!("{label} {other}: {reason}");
                return Ok(cannot_tell(reason, written, content_type));
            }
        }
    }
    let subsection = match &paragraph {
        Some(paragraph) => Some(format!(
            "({paragraph}){}",
            law.subsection.as_deref().unwrap_or("")
        )),
        None => law.subsection.clone(),
    };
    let subdivision = subsection
        .as_deref()
        .filter(|_| subdivisions_checkable(code));
    if let Some(reason) = subdivision_unshown(code, &law.code, section, subdivision, &authority) {
        return Ok(CheckedCitation::unavailable(written, content_type, reason));
    }
    let mut reason = if authority.status == "live" {
        format!("in force: {}", authority.heading)
    } else {
        format!("{} (the section is no longer in force)", authority.heading)
    };
    // A subsection the library had no text to look in is not vouched for.
    if let Some(subsection) = subsection.as_deref() {
        if subdivision.is_some() && authority.text.is_some() {
            reason.push_str(&format!("; subdivision {subsection} is in its text"));
        } else if authority.text.is_none() {
            reason.push_str(&format!(
                "; subsection {subsection} is not checked (the library holds no text of the section)"
            ));
        } else {
            reason.push_str(&format!("; subsection {subsection} is not checked"));
        }
    }
    Ok(CheckedCitation::verified_law(
        written,
        content_type,
        bluebook(citation),
        urls::authority_page(&authority),
        reason,
    ))
}

/// Why the year of a code citation, the year of the code's edition, names
/// none: a year before the code's first edition (the U.S. Code's of 1926,
/// the C.F.R.'s of 1938).
fn before_first_edition(code: &str, written: &str, year: i32) -> Option<String> {
    let first = match code {
        codes::USC => 1926,
        codes::CFR => 1938,
        _ => return None,
    };
    (year < first)
        .then(|| format!("no edition of {written} is of {year}: its first edition is of {first}"))
}

/// A regulation part cited whole ("29 C.F.R. pt. 1630"): it exists when
/// the library holds a section of it ("§ 1630.2").
fn check_part(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
    part: &str,
    citation: &Citation,
    written: String,
) -> Result<CheckedCitation, StoreError> {
    let content_type = Some(content_type_of(code));
    let not_held = |written| {
        cannot_tell(
            format!("the library holds no section of part {part} of this title"),
            written,
            content_type,
        )
    };
    let sections = match find_part(txn, code, title, part)? {
        PartLookup::Found { sections } => sections,
        PartLookup::Absent { reason } => return Ok(cannot_exist(reason, written, content_type)),
        PartLookup::NotHeld => return Ok(not_held(written)),
    };
    let live = sections.iter().filter(|s| s.status == "live").count();
    let reason = match sections.as_slice() {
        [only] => {
            let force = if live == 1 {
                "in force"
            } else {
                "not in force"
            };
            format!(
                "the library holds one section of part {part} ({force}), § {}: {}",
                only.section, only.heading
            )
        }
        [first, ..] => format!(
            "the library holds {} sections of part {part} ({live} in force), the first § {}: {}",
            sections.len(),
            first.section,
            first.heading
        ),
        [] => return Ok(not_held(written)),
    };
    Ok(CheckedCitation::verified_law(
        written,
        content_type,
        bluebook(citation),
        urls::regulation_part_page(title, part),
        reason,
    ))
}

/// The text after a law citation and its parentheticals.
fn after_law<'t>(citation: &Citation, text: &'t str) -> &'t str {
    text.get(citation.full_span.end..).unwrap_or("")
}

/// The text a law citation may go on in: up to the next citation found
/// (a section sign alone, as in "amend. XIV, §§ 6-7", is no other
/// citation), so a list ends there ("§§ 1981, 1983, and 28 U.S.C. § 1331"
/// lists 1983, not 28, the next citation's title).
pub(in crate::verification) fn list_text<'t>(
    found: &[Citation],
    index: usize,
    text: &'t str,
) -> &'t str {
    let end = found[index].span.end;
    let next = found[index + 1..]
        .iter()
        .filter(|citation| citation.kind != CitationKind::Unknown)
        .map(|citation| citation.span.start)
        .find(|&start| start >= end);
    next.and_then(|next| text.get(..next)).unwrap_or(text)
}

/// The further parts a regulation citation lists after the one read
/// ("29 C.F.R. pts. 1630, 1635", "Parts 1630 and 1635"), as places in
/// `text`: each is a claim of its own, checked as if cited alone.
pub(in crate::verification) fn listed_parts(citation: &Citation, text: &str) -> Vec<Range<usize>> {
    let whole_part = citation
        .law
        .as_deref()
        .is_some_and(|law| law.part.is_some() && law.section.is_none());
    if !whole_part {
        return Vec::new();
    }
    let written = citation.text(text).to_ascii_lowercase();
    if written.contains("parts") || written.contains("pts") {
        items_after(citation, text)
    } else {
        Vec::new()
    }
}

/// A citation of one part a regulation citation lists after the one read
/// ([`listed_parts`]), as if cited alone.
pub(in crate::verification) fn with_part(citation: &Citation, part: &str) -> Citation {
    let mut alone = citation.clone();
    if let Some(law) = alone.law.as_deref_mut() {
        law.part = Some(part.to_string());
    }
    alone
}

/// Checks a part a regulation citation lists after the one read
/// ("1635" of "29 C.F.R. Parts 1630 and 1635") as "29 C.F.R. pt. 1635".
pub(in crate::verification) fn check_listed_part(
    txn: &ReadTransaction,
    citation: &Citation,
    part: &str,
    text: &str,
) -> Result<CheckedCitation, StoreError> {
    let alone = with_part(citation, part);
    let written = bluebook(&alone).unwrap_or_else(|| part.to_string());
    check_law(txn, &alone, written, text)
}

/// The further sections or rules a law citation names after the one read:
/// the end of a range written after it ("Fed. R. Evid. 401–1200", "§§ 1981
/// to 1983"), or the rest of a list ("§§ 101, 999", "Fed. R. Civ. P. 12,
/// 56, and 92", "§ 1983, § 1985, and § 1986"). None for a range read whole
/// ("§§ 51–60") or a single section.
pub(in crate::verification) fn listed_after<'t>(
    citation: &Citation,
    text: &'t str,
) -> Vec<&'t str> {
    let Some(law) = citation.law.as_deref() else {
        return Vec::new();
    };
    let written = citation.text(text);
    let signs = written.contains("§§");
    let ranged = law
        .section
        .as_deref()
        .is_some_and(|section| range_endpoints(section, signs).1.is_some());
    if law.section.is_none() || ranged {
        return Vec::new();
    }
    // A rule's number has no hyphen, and rules are listed without a sign.
    let several = signs || law.unit == "rule" || names_sections(written);
    let after = after_law(citation, text);
    if several && let Some(end) = range_end(after) {
        return vec![end];
    }
    let offset = text.len() - after.len();
    listed_sections(after, !several)
        .into_iter()
        .map(|item| &text[item.start + offset..item.end + offset])
        .collect()
}

/// Whether a citation's words name several sections ("sections 1981 and
/// 1983", "secs.", "ss.").
fn names_sections(written: &str) -> bool {
    let lower = written.to_lowercase();
    ["sections", "secs.", "ss."]
        .iter()
        .any(|word| lower.contains(word))
}

/// The end of a range written after a citation: a dash (spaced or not),
/// "to" or "through", then a number that ends the item ("–1200", " - 99",
/// " through 1999").
fn range_end(after: &str) -> Option<&str> {
    let rest = after.trim_start();
    let rest = ["–", "—", "-", "to ", "through ", "thru "]
        .iter()
        .find_map(|dash| rest.strip_prefix(dash))?
        .trim_start();
    let item = item_at(rest)?;
    Some(&rest[..item])
}

/// The items of a list after a law citation, as places in `text`.
fn items_after(citation: &Citation, text: &str) -> Vec<Range<usize>> {
    let after = after_law(citation, text);
    let offset = text.len() - after.len();
    listed_sections(after, false)
        .into_iter()
        .map(|item| item.start + offset..item.end + offset)
        .collect()
}

/// The further items of a list after the one read ("§§ 101, 999" leaves
/// ", 999"; "§§ 101 and 999"; ", § 1985, and § 1986"), as places in
/// `after`: each item after a comma, "and" or "&" that starts with a digit
/// (after its own section sign, which `signed_only` requires) and ends
/// there ("Rule 803(6), 1000 pages" lists no rule 1000).
fn listed_sections(after: &str, signed_only: bool) -> Vec<Range<usize>> {
    let mut sections = Vec::new();
    let mut rest = after;
    while let Some(next) = after_separator(rest) {
        let unsigned = next
            .strip_prefix("§§")
            .or_else(|| next.strip_prefix('§'))
            .map(str::trim_start);
        if signed_only && unsigned.is_none() {
            break;
        }
        let next = unsigned.unwrap_or(next);
        let Some(item_len) = item_at(next) else {
            break;
        };
        let start = after.len() - next.len();
        sections.push(start..start + item_len);
        rest = without_subdivisions(&next[item_len..]);
    }
    sections
}

/// Why a rule's subdivision cannot be taken as cited: the library's text
/// of the rule does not show it. The rules' text is a transcription, so a
/// subdivision it does not show may still be there: no proof either way.
fn subdivision_unshown(
    code: &str,
    cited_as: &str,
    number: &str,
    subdivision: Option<&str>,
    authority: &Authority,
) -> Option<String> {
    let subdivision = subdivision?;
    let rule_text = authority.text.as_deref()?;
    (subdivisions_checkable(code)
        && !text_shows_subdivision(rule_text, &subdivision_path(subdivision)))
    .then(|| {
        format!(
            "the library's text of {cited_as} {number} shows no subdivision {subdivision}: check it"
        )
    })
}

/// Whether the library's text of `code`'s sections shows their
/// subdivisions: the rules' does; the Code and the C.F.R. are held without
/// such text.
fn subdivisions_checkable(code: &str) -> bool {
    code != codes::USC && code != codes::CFR
}

/// The subdivisions written right after `item` in `text` ("(b)(9)" after
/// "12"); empty when there are none, or when `item` is not a part of
/// `text` (a range's end written out in full).
fn subdivisions_following<'t>(text: &'t str, item: &str) -> &'t str {
    let start = (item.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let Some(rest) = start
        .checked_add(item.len())
        .filter(|&end| start <= text.len() && end <= text.len())
        .and_then(|end| text.get(end..))
    else {
        return "";
    };
    &rest[..rest.len() - without_subdivisions(rest).len()]
}

/// `rest` after the subdivisions an item of a list goes on to ("(a)",
/// "(b)(6)"), so that the list goes on after them ("56(a), and 92").
fn without_subdivisions(mut rest: &str) -> &str {
    while let Some(inner) = rest.strip_prefix('(') {
        let Some(close) = inner.find(')') else {
            break;
        };
        let subdivision = &inner[..close];
        if subdivision.is_empty() || !subdivision.chars().all(|c| c.is_ascii_alphanumeric()) {
            break;
        }
        rest = &inner[close + 1..];
    }
    rest
}

/// The length of the section or rule number `rest` starts with, when it
/// ends an item: the text after it closes the list or goes on to a
/// subdivision, another item, a parenthetical or "of title 35", not to
/// another word ("12, 14 days").
fn item_at(rest: &str) -> Option<usize> {
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '–' | '.')))
        .unwrap_or(rest.len());
    let len = rest[..len].trim_end_matches('.').len();
    let len = len + crate::citations::treasury_tail_len(&rest[len..]);
    let follows = rest[len..].trim_start();
    let closes = follows.is_empty()
        || follows.starts_with(['.', ',', ';', '(', ')', '&'])
        || matches!(follows.split_whitespace().next(), Some("and" | "or" | "of"));
    closes.then_some(len)
}

/// The text after a list separator at the start of `rest`: ",", ", and",
/// "and" or "&".
fn after_separator(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    let (comma, rest) = match rest.strip_prefix(',') {
        Some(after) => (true, after.trim_start()),
        None => (false, rest),
    };
    match rest
        .strip_prefix("and ")
        .or_else(|| rest.strip_prefix("& "))
    {
        Some(after) => Some(after.trim_start()),
        None => comma.then_some(rest),
    }
}

/// The verdict on a section or rule that cannot exist (past a set's last
/// rule, a title past the code's last).
fn cannot_exist(
    reason: String,
    written: String,
    content_type: Option<ContentType>,
) -> CheckedCitation {
    CheckedCitation::unverified(
        written,
        content_type,
        None,
        format!("this cannot exist: {reason}"),
    )
}

/// The verdict on a section or rule the library does not hold and cannot
/// tell about.
fn cannot_tell(
    reason: String,
    written: String,
    content_type: Option<ContentType>,
) -> CheckedCitation {
    CheckedCitation::unavailable(
        written,
        content_type,
        format!("{reason}, so it cannot tell"),
    )
}

/// The sections a section reference names: the first and, for a range
/// ("51–60", or "51-60" after "§§"), the last. A dash inside a section
/// number ("2000e-2", "1.61-1") makes no range.
fn range_endpoints(section: &str, several: bool) -> (&str, Option<&str>) {
    match section_range(section, several) {
        Some((first, last)) => (first, Some(last)),
        None => (section, None),
    }
}

#[cfg(test)]
mod tests {
    use super::{before_first_edition, codes, listed_sections, range_end, range_endpoints};

    #[test]
    fn lists_after_a_law_citation() {
        let listed = |after: &str| -> Vec<String> {
            listed_sections(after, false)
                .into_iter()
                .map(|item| after[item].to_string())
                .collect()
        };
        assert_eq!(listed(", 999. Next"), ["999"]);
        assert_eq!(listed(" and 1635 of"), ["1635"]);
        assert_eq!(listed(", 101, and 102a; x"), ["101", "102a"]);
        assert!(listed(" (2018)").is_empty());
        assert_eq!(listed(", § 1985, and § 1986."), ["1985", "1986"]);
        assert_eq!(listed(" and 56(c)."), ["56"]);
        assert_eq!(listed(", 56(a), and 92."), ["56", "92"]);
        assert_eq!(listed(", 1985(3), 99999"), ["1985", "99999"]);
        assert_eq!(listed(", 164.514(d), 164.99999"), ["164.514", "164.99999"]);
        assert_eq!(listed(", 1.501(c)(4)-1."), ["1.501(c)(4)-1"]);
        assert_eq!(listed(" and 1.1031(d)-1T;"), ["1.1031(d)-1T"]);
        assert_eq!(listed(", 1.1402(e)-2A."), ["1.1402(e)-2A"]);
        assert!(listed(", 14 days after").is_empty(), "a count, not a rule");
        let signed = |after: &str| listed_sections(after, true).len();
        assert_eq!(signed(", § 1985, and § 99999"), 2);
        assert_eq!(
            signed(", 1985"),
            0,
            "one section sign: a number after it is no section"
        );
        assert_eq!(range_end("–1200."), Some("1200"));
        assert_eq!(range_end(" through 1999 (2018)"), Some("1999"));
        assert_eq!(range_end(" - 99"), Some("99"));
        assert_eq!(range_end(" to 5 years"), None);
    }

    #[test]
    fn a_year_before_a_codes_first_edition_names_no_edition() {
        let never = before_first_edition;
        assert!(never(codes::USC, "U.S.C.", 1925).unwrap().contains("1926"));
        assert!(never(codes::CFR, "C.F.R.", 1937).unwrap().contains("1938"));
        for (code, year) in [(codes::USC, 1926), (codes::CFR, 2026), (codes::FRCP, 1901)] {
            assert_eq!(never(code, "x", year), None, "{code} {year}");
        }
    }

    #[test]
    fn section_ranges() {
        assert_eq!(range_endpoints("51–60", false), ("51", Some("60")));
        assert_eq!(range_endpoints("51-60", true), ("51", Some("60")));
        assert_eq!(range_endpoints("2000e-2", false), ("2000e-2", None));
        assert_eq!(range_endpoints("1983", true), ("1983", None));
        assert_eq!(range_endpoints("5–", false), ("5–", None));
        // The first of "§§ 2000e-2 to 2000e-5" or "§§ 1.61-1, 1.61-2".
        assert_eq!(range_endpoints("2000e-2", true), ("2000e-2", None));
        assert_eq!(range_endpoints("1.61-1", true), ("1.61-1", None));
    }
}

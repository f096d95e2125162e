//! Reference citations: a case cited in full earlier, named again later
//! ("Bivens at 122", "Angelopoulos p. *4", or "the Jin Fuey Moy rule").
//!
//! Every party name of every full case citation is searched for in one
//! pass (Aho-Corasick). A name followed by "at" and a page is a reference
//! with a pin cite; a bare name counts only when it has two words or more
//! (or a hyphen), since single surnames are too often just people.

use std::collections::HashMap;
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::build::Context;
use super::tail::{self, PinLead};
use crate::citations::model::{Citation, CitationKind};
use crate::citations::text::{char_after, char_before};

/// Parties that name no particular case.
const GENERIC: [&str; 14] = [
    "United States",
    "U.S.",
    "United States of America",
    "State",
    "People",
    "Commonwealth",
    "Government",
    "City",
    "County",
    "Town",
    "Village",
    "Township",
    "Territory",
    "District of Columbia",
];

/// Adds reference citations to `citations`, keeping text order and the
/// indexes citations hold of each other.
pub(crate) fn add(text: &str, citations: &mut Vec<Citation>, contexts: &mut Vec<Context>) {
    let mut names: Vec<String> = Vec::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    let mut index_of: HashMap<String, usize> = HashMap::new();
    for (i, citation) in citations.iter().enumerate() {
        if citation.kind != CitationKind::FullCase {
            continue;
        }
        for party in [&citation.plaintiff, &citation.defendant]
            .into_iter()
            .flatten()
        {
            if !usable(party) {
                continue;
            }
            match index_of.get(party) {
                Some(&k) => owners[k].push(i),
                None => {
                    index_of.insert(party.clone(), names.len());
                    names.push(party.clone());
                    owners.push(vec![i]);
                }
            }
        }
    }
    if names.is_empty() {
        return;
    }
    // Built once per document, over a few names: a contiguous NFA builds
    // far faster than the DFA the builder would pick for so few patterns,
    // and the search is one pass over the text either way.
    let Ok(matcher) = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(&names)
    else {
        return;
    };
    let mut taken: Vec<Range<usize>> = citations
        .iter()
        .flat_map(|c| [c.full_span.clone(), c.span.clone()])
        .collect();
    taken.sort_by_key(|r| r.start);
    let mut found: Vec<(Citation, Context)> = Vec::new();
    for m in matcher.find_iter(text) {
        let span = m.start()..m.end();
        if char_before(text, span.start).is_some_and(char::is_alphanumeric)
            || char_after(text, span.end).is_some_and(char::is_alphanumeric)
            || inside(&taken, &span)
        {
            continue;
        }
        let name = &names[m.pattern().as_usize()];
        let Some(&owner) = owners[m.pattern().as_usize()]
            .iter()
            .rev()
            .find(|&&o| citations[o].span.end <= span.start)
        else {
            continue;
        };
        let pin = pin_after(text, span.end);
        let bare_ok = name.split_whitespace().count() >= 2 || name.contains('-');
        if pin.is_none() && !bare_ok {
            continue;
        }
        let end = pin.as_ref().map_or(span.end, |p| p.end);
        let mut reference = Citation::new(CitationKind::Reference, span.start..end);
        reference.pin_cite = pin.map(|p| text[p].to_string());
        reference.case_name = Some(name.clone());
        if citations[owner].plaintiff.as_deref() == Some(name.as_str()) {
            reference.plaintiff = Some(name.clone());
        } else {
            reference.defendant = Some(name.clone());
        }
        found.push((
            reference,
            Context {
                nested: false,
                refers_to: Some(owner),
                after_record: false,
            },
        ));
    }
    if found.is_empty() {
        return;
    }
    let count = citations.len();
    // Merge in text order and remap the indexes citations hold.
    let old: Vec<(Citation, Context)> = citations.drain(..).zip(contexts.drain(..)).collect();
    let mut merged: Vec<(Option<usize>, Citation, Context)> = old
        .into_iter()
        .enumerate()
        .map(|(i, (c, x))| (Some(i), c, x))
        .chain(found.into_iter().map(|(c, x)| (None, c, x)))
        .collect();
    merged.sort_by_key(|(_, c, _)| c.span.start);
    let mut mapping = vec![0; count];
    for (new, (old, _, _)) in merged.iter().enumerate() {
        if let Some(old) = old {
            mapping[*old] = new;
        }
    }
    for (_, mut citation, mut context) in merged {
        citation.parallel.iter_mut().for_each(|p| *p = mapping[*p]);
        for history in &mut citation.subsequent_history {
            history.citation = history.citation.map(|c| mapping[c]);
        }
        context.refers_to = context.refers_to.map(|r| mapping[r]);
        citations.push(citation);
        contexts.push(context);
    }
}

/// A party name worth searching for: not a government, not an initial,
/// not a court (a writ's respondent: "X v. Dist. Ct.").
fn usable(party: &str) -> bool {
    let trimmed = party.trim();
    let court = trimmed.ends_with("Ct.") || trimmed.ends_with("Court");
    !court
        && trimmed.chars().count() >= 3
        && trimmed.split_whitespace().count() <= 6
        && trimmed.chars().next().is_some_and(char::is_uppercase)
        && !GENERIC.iter().any(|g| trimmed.eq_ignore_ascii_case(g))
        && ![
            "State of ",
            "People of ",
            "Commonwealth of ",
            "City of ",
            "County of ",
        ]
        .iter()
        .any(|p| trimmed.starts_with(p))
}

fn inside(taken: &[Range<usize>], span: &Range<usize>) -> bool {
    let upto = taken.partition_point(|r| r.start <= span.start);
    taken[..upto]
        .iter()
        .rev()
        .take(64)
        .any(|r| r.start <= span.start && span.start < r.end)
        || taken[upto..].first().is_some_and(|r| r.start < span.end)
}

/// " at 62", ", at 62", " p. *4" after a name.
fn pin_after(text: &str, end: usize) -> Option<Range<usize>> {
    let start = tail::skip_spaces(text, end);
    let rest = text.get(start..)?;
    let lead = if rest.starts_with("at ") || rest.starts_with("at ¶") {
        PinLead::Loose
    } else if rest.starts_with("p. ") || rest.starts_with("pp. ") {
        PinLead::Page
    } else {
        return None;
    };
    let pin = tail::pin_cite(text, start, lead, text.len())?;
    (pin.span.start == start).then_some(pin.span)
}

//! Which full citation each short form, "Id.", "supra" and reference
//! stands for.
//!
//! Rules, in document order:
//! - a full citation resolves to the first full citation of the same
//!   volume, reporter and page (usually itself);
//! - a short form ("347 U.S. at 495") to the one earlier full citation of
//!   that volume and reporter whose pages can hold the pin, or, if several
//!   can, the one whose party the short form names;
//! - "supra" to the one earlier case whose party it names;
//! - "Id." to the authority cited just before — skipping citations inside
//!   an explanatory parenthetical (eyecite#348) — and to nothing after a
//!   record cite such as "Compl. ¶ 12" (eyecite#349), a bare section sign
//!   or another "Id." that did not resolve, nor when its pin cannot be a
//!   page of that authority;
//! - a reference to the case whose name it repeats.

use std::collections::HashMap;

use super::extract::Context;
use super::model::{Citation, CitationKind};
use super::names;

/// Longest opinion, in pages, for checking that a pin cite can belong to a
/// citation's first page.
const MAX_OPINION_PAGES: u64 = 150;

/// Earlier full citations, indexed for the lookups resolution makes.
#[derive(Default)]
struct Seen {
    /// Full citations by (kind, volume, reporter, page) or law key, to the
    /// first one's target.
    identical: HashMap<String, usize>,
    /// Case targets by (volume, reporter).
    by_volume: HashMap<(String, String), Vec<usize>>,
    /// Case targets by each distinctive word of their parties.
    by_party_word: HashMap<String, Vec<usize>>,
}

fn push_unique(list: &mut Vec<usize>, value: usize) {
    if !list.contains(&value) {
        list.push(value);
    }
}

pub(crate) fn resolve(citations: &mut [Citation], contexts: &[Context]) {
    // The authority "Id." would refer to: the targets of the previous
    // citation clause (several for parallel citations).
    let mut last: Vec<usize> = Vec::new();
    let mut seen = Seen::default();
    for i in 0..citations.len() {
        let nested = contexts.get(i).is_some_and(|c| c.nested);
        if contexts.get(i).is_some_and(|c| c.after_record) {
            // "Compl. ¶ 12. Id. ¶ 14." cites the complaint (eyecite#349).
            last.clear();
        }
        let resolution: Option<usize> = match citations[i].kind {
            CitationKind::FullCase | CitationKind::Law | CitationKind::Journal => {
                let target = match identity(&citations[i]) {
                    Some(key) => *seen.identical.entry(key).or_insert(i),
                    None => i,
                };
                if citations[i].kind == CitationKind::FullCase {
                    remember_case(&mut seen, &citations[i], target);
                }
                if !nested {
                    let group_end = citations[i].parallel.iter().all(|&p| p < i);
                    if citations[i].parallel.is_empty() || group_end {
                        // In the order written: "Id. at 414" after "491
                        // U.S. 397, 414, 109 S. Ct. 2533, 105 L. Ed. 2d 342"
                        // is the first reporter's page, which fits the
                        // others' ranges too.
                        let mut group: Vec<usize> = std::iter::once(i)
                            .chain(citations[i].parallel.iter().copied())
                            .collect();
                        group.sort_unstable();
                        last = group
                            .into_iter()
                            .map(|j| {
                                if j < i {
                                    citations[j].resolves_to.unwrap_or(j)
                                } else {
                                    target
                                }
                            })
                            .collect();
                    }
                }
                Some(target)
            }
            CitationKind::ShortCase => {
                let target = short_form(citations, i, &seen);
                if !nested {
                    last = target.into_iter().collect();
                }
                target
            }
            CitationKind::Supra => {
                let target = supra(citations, i, &seen);
                if !nested {
                    last = target.into_iter().collect();
                }
                target
            }
            CitationKind::Reference => {
                let target = contexts
                    .get(i)
                    .and_then(|c| c.refers_to)
                    .map(|j| citations[j].resolves_to.unwrap_or(j));
                if !nested {
                    last = target.into_iter().collect();
                }
                target
            }
            CitationKind::Id => {
                let pin = citations[i].pin_cite.clone();
                let target = last
                    .iter()
                    .copied()
                    .find(|&t| pin_fits(&citations[t], pin.as_deref()));
                last = target.into_iter().collect();
                target
            }
            CitationKind::Unknown => {
                last.clear();
                None
            }
        };
        citations[i].resolves_to = resolution;
        // A short form names the parties of the case it stands for.
        if let (CitationKind::ShortCase, Some(target)) = (citations[i].kind, resolution)
            && citations[i].plaintiff.is_none()
            && citations[i].defendant.is_none()
        {
            citations[i].plaintiff = citations[target].plaintiff.clone();
            citations[i].defendant = citations[target].defendant.clone();
        }
    }
}

/// What makes two full citations the same authority; `None` when the
/// citation cannot be compared (no page, unknown reporter).
fn identity(c: &Citation) -> Option<String> {
    match c.kind {
        CitationKind::Law => {
            let law = c.law.as_ref()?;
            Some(format!("law\u{1}{}", serde_json::to_string(law).ok()?))
        }
        _ => Some(format!(
            "{:?}\u{1}{}\u{1}{}\u{1}{}",
            c.kind,
            c.volume.as_deref().unwrap_or(""),
            reporter_of(c)?,
            c.page.as_deref()?
        )),
    }
}

fn reporter_of(c: &Citation) -> Option<&str> {
    c.reporter.or(c.reporter_found.as_deref())
}

fn remember_case(seen: &mut Seen, c: &Citation, target: usize) {
    if let (Some(volume), Some(reporter)) = (&c.volume, reporter_of(c)) {
        let list = seen
            .by_volume
            .entry((volume.clone(), reporter.to_string()))
            .or_default();
        push_unique(list, target);
    }
    for party in [&c.plaintiff, &c.defendant].into_iter().flatten() {
        for token in names::distinctive_tokens(party) {
            push_unique(seen.by_party_word.entry(token).or_default(), target);
        }
    }
}

fn number(s: &str) -> Option<u64> {
    let digits: String = s
        .trim_start_matches(|c: char| !c.is_ascii_digit() && c != '¶')
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Whether `pin` can be a page of `full` (always true when either is not a
/// plain page number).
fn pin_fits(full: &Citation, pin: Option<&str>) -> bool {
    if full.kind != CitationKind::FullCase {
        return true;
    }
    let Some(pin) = pin else {
        return true;
    };
    let Some(page) = full.page.as_deref() else {
        // A blank page ("___"): no pin can be checked against it.
        return false;
    };
    let pin = pin.trim().trim_start_matches("at").trim();
    if pin.starts_with('¶') {
        // Paragraphs are the pins of a neutral citation ("2015 IL 116725,
        // ¶ 12"), not of a reporter's pages.
        return full.reporter.is_some_and(super::reporters::is_neutral)
            || full
                .pin_cite
                .as_deref()
                .is_some_and(|p| p.trim_start().starts_with('¶'));
    }
    match (page.parse::<u64>().ok(), number(pin)) {
        (Some(first), Some(p)) if !pin.starts_with('*') => {
            first <= p && p <= first + MAX_OPINION_PAGES
        }
        _ => true,
    }
}

fn short_form(citations: &[Citation], i: usize, seen: &Seen) -> Option<usize> {
    let short = &citations[i];
    let key = (short.volume.clone()?, reporter_of(short)?.to_string());
    let candidates = seen.by_volume.get(&key)?.clone();
    let fits: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&t| pin_fits(&citations[t], short.pin_cite.as_deref()))
        .collect();
    let pool = if fits.is_empty() { candidates } else { fits };
    let Some(antecedent) = short.case_name.as_deref() else {
        return (pool.len() == 1).then(|| pool[0]);
    };
    // A short form naming another party ("Smith, 347 U.S. at 495" after
    // Brown) does not stand for the one case cited in that volume.
    let named: Vec<usize> = pool
        .into_iter()
        .filter(|&t| names_party(&citations[t], antecedent))
        .collect();
    (named.len() == 1).then(|| named[0])
}

fn supra(citations: &[Citation], i: usize, seen: &Seen) -> Option<usize> {
    let antecedent = citations[i].case_name.as_deref()?;
    let mut targets: Vec<usize> = Vec::new();
    for token in names::distinctive_tokens(antecedent) {
        for &t in seen.by_party_word.get(&token).into_iter().flatten() {
            if names_party(&citations[t], antecedent) {
                push_unique(&mut targets, t);
            }
        }
    }
    (targets.len() == 1).then(|| targets[0])
}

/// Whether `name` (as a short form or supra writes it) names a party of
/// the full citation.
fn names_party(full: &Citation, name: &str) -> bool {
    let Some(case_name) = full.case_name.as_deref() else {
        return false;
    };
    if names::case_names_match(name, case_name) {
        return true;
    }
    // Written with both parties ("Employment Div. v. Smith"), it names
    // that case only: a party word it shares with another is not enough.
    if names::case_sides(name).is_some() {
        return false;
    }
    // A short form may write only the last word of a party ("Qwerty"),
    // when that word is one of a party's own: not a suffix, nor a word
    // Bluebook abbreviates ("Assn.", "Bd.": anyone's).
    let last_word = name.split_whitespace().last().unwrap_or("");
    if names::distinctive_tokens(last_word).is_empty() || names::spellings(last_word).len() > 1 {
        return false;
    }
    [&full.plaintiff, &full.defendant]
        .into_iter()
        .flatten()
        .any(|party| {
            party
                .split_whitespace()
                .any(|w| w.trim_end_matches(',') == last_word)
        })
}

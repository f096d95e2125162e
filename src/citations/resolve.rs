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

use super::extract::Context;
use super::model::{Citation, CitationKind};
use super::names;

/// Longest opinion, in pages, for checking that a pin cite can belong to a
/// citation's first page.
const MAX_OPINION_PAGES: u64 = 150;

pub(crate) fn resolve(citations: &mut [Citation], contexts: &[Context]) {
    // The authority "Id." would refer to: the targets of the previous
    // citation clause (several for parallel citations).
    let mut last: Vec<usize> = Vec::new();
    for i in 0..citations.len() {
        let nested = contexts.get(i).is_some_and(|c| c.nested);
        if contexts.get(i).is_some_and(|c| c.after_record) {
            // "Compl. ¶ 12. Id. ¶ 14." cites the complaint (eyecite#349).
            last.clear();
        }
        let resolution: Option<usize> = match citations[i].kind {
            CitationKind::FullCase | CitationKind::Law | CitationKind::Journal => {
                let target = first_identical(citations, i);
                if !nested {
                    let group_end = citations[i].parallel.iter().all(|&p| p < i);
                    if citations[i].parallel.is_empty() || group_end {
                        last = std::iter::once(i)
                            .chain(citations[i].parallel.iter().copied())
                            .map(|j| if j < i { citations[j].resolves_to.unwrap_or(j) } else { target })
                            .collect();
                    }
                }
                Some(target)
            }
            CitationKind::ShortCase => {
                let target = short_form(citations, i);
                if !nested {
                    last = target.into_iter().collect();
                }
                target
            }
            CitationKind::Supra => {
                let target = supra(citations, i);
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
        if let (CitationKind::ShortCase, Some(target)) = (citations[i].kind, resolution) {
            if citations[i].plaintiff.is_none() && citations[i].defendant.is_none() {
                citations[i].plaintiff = citations[target].plaintiff.clone();
                citations[i].defendant = citations[target].defendant.clone();
            }
        }
    }
}

fn same_authority(a: &Citation, b: &Citation) -> bool {
    if a.kind != b.kind {
        return false;
    }
    match a.kind {
        CitationKind::Law => a.law.is_some() && a.law == b.law,
        _ => {
            a.page.is_some()
                && a.page == b.page
                && a.volume == b.volume
                && reporter_of(a).is_some()
                && reporter_of(a) == reporter_of(b)
        }
    }
}

fn reporter_of(c: &Citation) -> Option<&str> {
    c.reporter.or(c.reporter_found.as_deref())
}

fn first_identical(citations: &[Citation], i: usize) -> usize {
    (0..i)
        .find(|&j| citations[j].is_full() && same_authority(&citations[j], &citations[i]))
        .map_or(i, |j| citations[j].resolves_to.unwrap_or(j))
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
        return false;
    }
    match (page.parse::<u64>().ok(), number(pin)) {
        (Some(first), Some(p)) if !pin.starts_with('*') => first <= p && p <= first + MAX_OPINION_PAGES,
        _ => true,
    }
}

fn short_form(citations: &[Citation], i: usize) -> Option<usize> {
    let short = &citations[i];
    let mut candidates: Vec<usize> = Vec::new();
    for j in 0..i {
        let full = &citations[j];
        if full.kind != CitationKind::FullCase
            || full.volume != short.volume
            || reporter_of(full).is_none()
            || reporter_of(full) != reporter_of(short)
        {
            continue;
        }
        let target = full.resolves_to.unwrap_or(j);
        if !candidates.contains(&target) {
            candidates.push(target);
        }
    }
    let fits: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&t| pin_fits(&citations[t], short.pin_cite.as_deref()))
        .collect();
    let pool = if fits.is_empty() { candidates } else { fits };
    if pool.len() == 1 {
        return pool.first().copied();
    }
    let antecedent = short.case_name.as_deref()?;
    let named: Vec<usize> = pool
        .into_iter()
        .filter(|&t| names_party(&citations[t], antecedent))
        .collect();
    (named.len() == 1).then(|| named[0])
}

fn supra(citations: &[Citation], i: usize) -> Option<usize> {
    let antecedent = citations[i].case_name.as_deref()?;
    let mut targets: Vec<usize> = Vec::new();
    for j in 0..i {
        let full = &citations[j];
        if full.kind == CitationKind::FullCase && names_party(full, antecedent) {
            let target = full.resolves_to.unwrap_or(j);
            if !targets.contains(&target) {
                targets.push(target);
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
    // A short form may write only the last word of a party ("Qwerty"),
    // or the whole "A v. B".
    let last_word = name.split_whitespace().last().unwrap_or("");
    [&full.plaintiff, &full.defendant]
        .into_iter()
        .flatten()
        .any(|party| party.split_whitespace().any(|w| w.trim_end_matches(',') == last_word))
}

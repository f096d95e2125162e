//! The verdict for one citation.

mod case_names;
mod cases;
mod constitution_citations;
mod laws;
mod pins;
mod subdivisions;

use redb::ReadTransaction;

use super::case_status::CaseStatus;
use super::{CheckedCitation, ContentType, Status, urls};
use crate::citations::{Citation, CitationKind, case_names_match};
use crate::library::index::SearchHit;
use crate::library::{Library, store};
use crate::store::StoreError;
pub(super) use cases::nominative_mismatch;
use cases::{check_case, check_short_form};
use laws::check_law;
pub(super) use laws::{check_listed_part, list_text, listed_after, listed_parts, with_part};

/// Checks `citations[index]` (a full citation) of `text`.
pub fn check(
    library: &Library,
    txn: &ReadTransaction,
    public_url: &str,
    citations: &[Citation],
    index: usize,
    text: &str,
) -> Result<CheckedCitation, StoreError> {
    let citation = &citations[index];
    let written = citation.text(text).to_string();
    match citation.kind {
        CitationKind::FullCase => check_case(
            library,
            txn,
            public_url,
            citations,
            index,
            citation.pin_cite.as_deref(),
            text,
        ),
        CitationKind::ShortCase => {
            check_short_form(library, txn, public_url, citations, index, text)
        }
        CitationKind::Law => check_law(
            txn,
            citation,
            written,
            laws::list_text(citations, index, text),
        ),
        _ => Ok(CheckedCitation::unavailable(
            written,
            None,
            "law journals and other secondary sources are not in the library",
        )),
    }
}

/// This year, by the server's clock (UTC).
fn this_year() -> i32 {
    chrono::Datelike::year(&chrono::Utc::now())
}

/// Past it, a year is printed as "more than four digits", not as the
/// number, which may have been cut to fit (`i32::MAX`).
const LAST_FOUR_DIGIT_YEAR: i32 = 9_999;

/// Why a decision's or a code edition's date cannot be right: it gives a
/// year still to come, as the year or in a supplement ("(2018 & Supp. V
/// 2090)"). Journals are not asked: an article may be "forthcoming 2027".
fn year_to_come(citation: &Citation, this_year: i32) -> Option<String> {
    let supplement_year = citation
        .supplement
        .as_deref()
        .and_then(|supplement| supplement.split_whitespace().last()?.parse().ok());
    [citation.year, supplement_year]
        .into_iter()
        .flatten()
        .find(|&year| year > this_year)
        .map(|year| {
            if year > LAST_FOUR_DIGIT_YEAR {
                "the year given has more than four digits: no year a decision or a code can have"
                    .to_string()
            } else {
                format!("the year {year} is still to come")
            }
        })
}

/// Checks the full case citation `citations[index]` of `text` as if its
/// pin were `pin`: a short form, "Id." or "supra" that stands for it.
pub use cases::check_case as check_at_pin;

/// searchMode `lenient`: a bare case name, found by name in the index and
/// confirmed by the name matcher.
///
/// Several decisions often share a name (the four "Brown v. Board of
/// Education" entries of the Supreme Court Database). The hits the name
/// matcher accepts are ranked by how many cases in the library cite them,
/// then by their id, so the answer never depends on the index's segment
/// order; it is the most cited decision only when that one is cited more
/// than twice as often as the next (five "Smith v. United States" cited by
/// none are a guess, not an answer).
pub fn by_name(
    library: &Library,
    public_url: &str,
    text: &str,
) -> Result<Option<CheckedCitation>, StoreError> {
    let hits = library.search_names(text, 10)?;
    // Each hit with the name of it that matches: its own, or a case
    // decided with it (Vignera v. New York with Miranda).
    let matching: Vec<(SearchHit, String)> = hits
        .into_iter()
        .filter_map(|hit| {
            let named = hit.names().find(|name| case_names_match(text, name))?;
            let named = named.to_string();
            Some((hit, named))
        })
        .collect();
    if matching.is_empty() {
        return Ok(None);
    }
    // One party ("Arizona", "Smith") fits many different cases: naming
    // one of them would be a guess. Several decisions under one name
    // (Brown I and II) are one name, answered below with the most cited
    // when it stands out.
    let first = &matching[0].1;
    let others: Vec<&str> = matching
        .iter()
        .map(|(_, named)| named.as_str())
        .filter(|name| !case_names_match(first, name) || !case_names_match(name, first))
        .collect();
    if !others.is_empty() {
        let names: Vec<&str> = std::iter::once(first.as_str())
            .chain(others.into_iter().take(2))
            .collect();
        return Ok(Some(CheckedCitation::unavailable(
            text.to_string(),
            None,
            format!(
                "several cases go by that name ({}, …): give the citation",
                names.join("; ")
            ),
        )));
    }
    let chosen = library.store.read(|txn| -> Result<_, StoreError> {
        let mut ranked = Vec::new();
        for (hit, _) in &matching {
            if let Some(record) = store::case(txn, &hit.id)? {
                let cited_by = library
                    .index
                    .citing_count(&record.id)?;
                ranked.push((cited_by, record));
            }
        }
        ranked.sort_by(|(a_cited, a), (b_cited, b)| b_cited.cmp(a_cited).then(a.id.cmp(&b.id)));
        ranked.dedup_by(|(_, a), (_, b)| a.id == b.id);
        if let [(most, first), (next, second), ..] = ranked.as_slice()
            && *most <= 2 * *next
        {
            return Ok(Err(format!(
                "several decisions go by that name ({} and {}, cited alike in the library): give the citation",
                first.name, second.name
            )));
        }
        let Some((_, record)) = ranked.into_iter().next() else {
            return Ok(Ok(None));
        };
        let case_status = CaseStatus::of(txn, &record)?;
        Ok(Ok(Some((record, case_status))))
    })?;
    let chosen = match chosen {
        Ok(chosen) => chosen,
        Err(reason) => {
            return Ok(Some(CheckedCitation::unavailable(
                text.to_string(),
                None,
                reason,
            )));
        }
    };
    Ok(chosen.map(|(record, case_status)| {
        let companion = matching
            .iter()
            .find(|(hit, named)| hit.id == record.id && *named != hit.name);
        let reason = match companion {
            Some((_, named)) => format!("found by name: {named} was decided with {}", record.name),
            None => "found by name".into(),
        };
        CheckedCitation {
            citation: text.to_string(),
            status: Status::Verified,
            content_type: Some(ContentType::Case),
            bluebook_citation: None,
            title: Some(record.name.clone()),
            case_status: Some(case_status),
            source_url: Some(urls::case_page(public_url, &record)),
            reason,
        }
    }))
}

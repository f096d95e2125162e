//! The verdict for one citation.

use redb::ReadTransaction;

use super::case_status::CaseStatus;
use super::{CheckedCitation, ContentType, Status};
use super::{constitution, urls};
use crate::citations::names::{distinctive_tokens, is_abbreviation, reversed};
use crate::citations::{Citation, CitationKind, bluebook, case_names_match, reporters};
use crate::library::lookup::{AuthorityLookup, CaseLookup, find_authority, find_case};
use crate::library::model::{CaseRecord, CiteKey, codes};
use crate::library::{Library, law_code, store};
use crate::store::StoreError;

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
        CitationKind::ShortCase => check_short_form(library, txn, public_url, citation, written),
        CitationKind::Law => check_law(txn, citation, written, text),
        _ => Ok(CheckedCitation::unavailable(
            written,
            None,
            "law journals and other secondary sources are not in the library",
        )),
    }
}

/// Checks the full case citation `citations[index]` of `text` as if its
/// pin were `pin`: a short form, "Id." or "supra" that stands for it.
pub fn check_at_pin(
    library: &Library,
    txn: &ReadTransaction,
    public_url: &str,
    citations: &[Citation],
    index: usize,
    pin: Option<&str>,
    text: &str,
) -> Result<CheckedCitation, StoreError> {
    check_case(library, txn, public_url, citations, index, pin, text)
}

/// The case name written with a citation, or with the citation it is
/// given in parallel with ("347 U.S. 483, 74 S. Ct. 686").
fn cited_name(citations: &[Citation], index: usize) -> Option<String> {
    let named = |c: &Citation| {
        c.case_name
            .clone()
            .or_else(|| match (&c.plaintiff, &c.defendant) {
                (Some(p), Some(d)) => Some(format!("{p} v. {d}")),
                (Some(p), None) => Some(p.clone()),
                _ => None,
            })
            .filter(|n| !n.trim().is_empty())
    };
    named(&citations[index]).or_else(|| {
        citations[index]
            .parallel
            .iter()
            .filter_map(|&i| citations.get(i))
            .find_map(named)
    })
}

/// Whether the text before a citation that was read without a name
/// plainly holds one ("v.", "In re", "Ex parte") between the previous
/// citation (or the sentence's start) and the citation's group: a name
/// the extractor could not read, which must not pass as no name at all.
fn unread_case_name(citations: &[Citation], index: usize, text: &str) -> bool {
    let group: Vec<usize> = std::iter::once(index)
        .chain(citations[index].parallel.iter().copied())
        .collect();
    let start = group
        .iter()
        .filter_map(|&i| citations.get(i))
        .map(|c| c.span.start)
        .min()
        .unwrap_or(citations[index].span.start);
    let floor = citations
        .iter()
        .enumerate()
        .filter(|(i, c)| !group.contains(i) && c.full_span.end <= start)
        .map(|(_, c)| c.full_span.end)
        .max()
        .unwrap_or(0);
    let before = text.get(floor..start).unwrap_or("");
    let sentence = &before[sentence_start(before)..];
    [" v. ", " vs. ", " v ", "In re ", "Ex parte ", "Matter of "]
        .iter()
        .any(|marker| sentence.contains(marker))
}

/// Where the last sentence or string-cite clause of `text` starts: after a
/// ";" or after a sentence-ending punctuation mark followed by a space
/// ("v." and other abbreviations do not end one).
fn sentence_start(text: &str) -> usize {
    let mut start = 0;
    for (at, c) in text.char_indices() {
        let after = at + c.len_utf8();
        let followed_by_space = text[after..].starts_with(char::is_whitespace);
        let ends = match c {
            ';' | '?' | '!' => followed_by_space,
            '.' => {
                let word_start = text[..at].rfind(char::is_whitespace).map_or(0, |w| w + 1);
                followed_by_space && !is_abbreviation(&text[word_start..after])
            }
            _ => false,
        };
        if ends {
            start = after;
        }
    }
    start
}

/// The library's address of a case citation, or why it has none.
fn address_of(citation: &Citation) -> Result<CiteKey, &'static str> {
    let reporter = citation
        .reporter
        .ok_or("the reporter abbreviation is unknown or could stand for several")?;
    let (Some(volume), Some(page)) = (
        citation.volume.as_deref().and_then(|v| v.parse().ok()),
        citation.page.as_deref().and_then(|p| p.parse().ok()),
    ) else {
        return Err("the citation has no volume or page to look up");
    };
    Ok(CiteKey::new(
        volume,
        reporter,
        citation.reporter_found.as_deref().unwrap_or(reporter),
        page,
    ))
}

/// The cases the library holds at `key`, or the answer when it holds none
/// there (none can be there, or it cannot tell).
fn cases_at(
    txn: &ReadTransaction,
    key: &CiteKey,
    written: &str,
) -> Result<Result<Vec<CaseRecord>, CheckedCitation>, StoreError> {
    let case = Some(ContentType::Case);
    let (volume, reporter, page) = (key.volume, &key.reporter, key.page);
    let cases = match find_case(txn, key)? {
        CaseLookup::Found { cases, .. } => cases,
        CaseLookup::Absent { source } => {
            return Ok(Err(CheckedCitation::unverified(
                written.to_string(),
                case,
                None,
                format!(
                    "the library holds {volume} {reporter} completely ({source}) and no case is at page {page}"
                ),
            )));
        }
        CaseLookup::NotHeld => {
            return Ok(Err(CheckedCitation::unavailable(
                written.to_string(),
                case,
                format!(
                    "the library does not hold {volume} {reporter} completely, so it cannot tell"
                ),
            )));
        }
    };
    let mut records = Vec::new();
    for id in cases {
        if let Some(record) = store::case(txn, &id)? {
            records.push(record);
        }
    }
    if records.is_empty() {
        return Ok(Err(CheckedCitation::unavailable(
            written.to_string(),
            case,
            "the case record is missing",
        )));
    }
    Ok(Ok(records))
}

/// The answer when the name given says nothing about which case it means:
/// "United States" or "State" alone, often all a PDF's broken line left of
/// the name ("N evada v. United States"). It can neither confirm nor
/// contradict the case at the page.
fn vague_name(name: &str, written: &str) -> Option<CheckedCitation> {
    distinctive_tokens(name).is_empty().then(|| {
        CheckedCitation::unavailable(
            written.to_string(),
            Some(ContentType::Case),
            format!("the name given ({name}) does not say which case it means"),
        )
    })
}

/// The case at the page that the name given is the name of, if any.
fn named_case<'r>(name: &str, records: &'r [CaseRecord]) -> Option<&'r CaseRecord> {
    records
        .iter()
        .find(|r| !r.name.is_empty() && names_match(name, r))
}

fn check_case(
    library: &Library,
    txn: &ReadTransaction,
    public_url: &str,
    citations: &[Citation],
    index: usize,
    pin: Option<&str>,
    text: &str,
) -> Result<CheckedCitation, StoreError> {
    let citation = &citations[index];
    let written = citation.text(text).to_string();
    let case = Some(ContentType::Case);
    let key = match address_of(citation) {
        Ok(key) => key,
        Err(reason) => return Ok(CheckedCitation::unavailable(written, case, reason)),
    };
    if key.reporter == "U.S."
        && let Some(reason) = nominative_mismatch(key.volume, &written)
    {
        return Ok(CheckedCitation::unverified(written, case, None, reason));
    }
    let name = cited_name(citations, index);
    let records = match cases_at(txn, &key, &written)? {
        Ok(records) => records,
        Err(answer) => return Ok(answer),
    };
    let first = &records[0];
    if let Some(vague) = name.as_deref().and_then(|name| vague_name(name, &written)) {
        return Ok(vague);
    }
    let chosen = match &name {
        None if unread_case_name(citations, index, text) => {
            return Ok(CheckedCitation::unavailable(
                written,
                case,
                "a case name is written before this citation but could not be read, so it cannot be checked",
            ));
        }
        None if records.len() == 1 => Some(first),
        None => {
            return Ok(CheckedCitation::unavailable(
                written,
                case,
                "several cases start at this page and no name says which",
            ));
        }
        Some(name) => named_case(name, &records),
    };
    if let Some(record) = chosen {
        if let Some(reason) = pin_outside_case(txn, &key, pin, record)? {
            return Ok(CheckedCitation::unverified(
                written,
                case,
                Some(record.name.clone()),
                reason,
            ));
        }
        return verified_case(txn, public_url, citation, written, record, name.is_some());
    }
    let name = name.unwrap_or_default();
    name_mismatch(library, txn, &name, &records, written)
}

/// The answer when the name given is not the name of any case at the page
/// (`records`, never empty).
fn name_mismatch(
    library: &Library,
    txn: &ReadTransaction,
    name: &str,
    records: &[CaseRecord],
    written: String,
) -> Result<CheckedCitation, StoreError> {
    let case = Some(ContentType::Case);
    if let Some(reversed) = reversed(name)
        && let Some(here) = named_case(&reversed, records)
        && let Some(other) = other_case_named(library, txn, name, records)?
    {
        // "Johnson v. Texas, 491 U.S. 397": the parties of the case here the
        // other way round, and that name is another case's.
        return Ok(CheckedCitation::unverified(
            written,
            case,
            Some(here.name.clone()),
            format!(
                "the case at this page is {}; {name} is another case ({other})",
                here.name
            ),
        ));
    }
    Ok(partial_or_different(name, records, written))
}

/// Another case than `records` that the library holds under `name`,
/// written as its first citation.
fn other_case_named(
    library: &Library,
    txn: &ReadTransaction,
    name: &str,
    records: &[CaseRecord],
) -> Result<Option<String>, StoreError> {
    let hits = library
        .search_names(name, 10)
        .map_err(|e| StoreError::Corrupt(format!("search: {e}")))?;
    for hit in hits {
        if records.iter().any(|r| r.id == hit.id) || !case_names_match(name, &hit.name) {
            continue;
        }
        if let Some(record) = store::case(txn, &hit.id)? {
            let cite = record.citations.first().map(|c| c.cite.clone());
            return Ok(Some(match cite {
                Some(cite) => format!("{}, {cite}", record.name),
                None => record.name,
            }));
        }
    }
    Ok(None)
}

/// A name that only partly matches the case at the page (a misspelling,
/// parties the other way round) is `unavailable`; one that shares nothing
/// with it is `unverified`.
fn partial_or_different(name: &str, records: &[CaseRecord], written: String) -> CheckedCitation {
    let case = Some(ContentType::Case);
    if let Some(near) = records.iter().find(|r| shares_a_party_word(name, r)) {
        // Some of the name is right: a misspelling, an acronym, a line
        // break in the middle of a word. Calling it fabricated could wrong
        // a lawyer; calling it verified could pass a fabrication.
        return CheckedCitation {
            title: Some(near.name.clone()),
            ..CheckedCitation::unavailable(
                written,
                case,
                format!(
                    "the name only partly matches the case at this page ({}): check it",
                    near.name
                ),
            )
        };
    }
    if records.iter().any(|r| r.name.is_empty()) {
        return CheckedCitation::unavailable(
            written,
            case,
            "the library knows a decision at this page but not its name, so the name cannot be checked",
        );
    }
    let first = &records[0];
    CheckedCitation::unverified(
        written,
        case,
        Some(first.name.clone()),
        format!(
            "the case at this page is {}, a different case from the one named",
            first.name
        ),
    )
}

/// A short form with no full citation before it ("Henderson v. Kessler,
/// 512 U.S. at 214"): the case whose pages hold the pin page must be the
/// one named. Unnamed, it says nothing the library can check.
fn check_short_form(
    library: &Library,
    txn: &ReadTransaction,
    public_url: &str,
    citation: &Citation,
    written: String,
) -> Result<CheckedCitation, StoreError> {
    let case = Some(ContentType::Case);
    let key = match address_of(citation) {
        Ok(key) => key,
        Err(reason) => return Ok(CheckedCitation::unavailable(written, case, reason)),
    };
    let Some(name) = citation.case_name.as_deref() else {
        return Ok(CheckedCitation::unavailable(
            written,
            case,
            "a short form with no full citation before it and no name: the library cannot tell which case it means",
        ));
    };
    let records = match cases_at(txn, &key, &written)? {
        Ok(records) => records,
        Err(answer) => return Ok(answer),
    };
    if let Some(vague) = vague_name(name, &written) {
        return Ok(vague);
    }
    if let Some(record) = named_case(name, &records) {
        return Ok(CheckedCitation {
            citation: written,
            status: Status::Verified,
            content_type: case,
            bluebook_citation: None,
            title: None,
            case_status: Some(CaseStatus::of(txn, record)?),
            source_url: Some(urls::case_page(public_url, record)),
            reason: format!(
                "a short form with no full citation before it: page {} lies in {}, the case named",
                key.page, record.name
            ),
        });
    }
    if !name.contains(" v. ") {
        // One word ("Smith", or a word the reader took for a name, "IEP")
        // may be a party the record's caption leaves out.
        return Ok(CheckedCitation {
            title: Some(records[0].name.clone()),
            ..CheckedCitation::unavailable(
                written,
                case,
                format!(
                    "the name given ({name}) is not that of the case whose pages hold page {} ({}): check it",
                    key.page, records[0].name
                ),
            )
        });
    }
    if store::cases_at(txn, &key)?.len() == records.len() {
        // A case starts at this page; the case named may end on it.
        let next = &records[0].name;
        return Ok(CheckedCitation::unavailable(
            written,
            case,
            format!(
                "page {} starts another case ({next}); the case named may end on it: give the full citation",
                key.page
            ),
        ));
    }
    name_mismatch(library, txn, name, &records, written)
}

/// Why a U.S. citation's nominative volume ("22 U.S. (3 Dall.) 738") is not
/// that U.S. volume's (22 U.S. is 9 Wheat.), when it is not.
fn nominative_mismatch(volume: u32, written: &str) -> Option<String> {
    let inside = written.split_once('(')?.1.split_once(')')?.0.trim();
    let (number, name) = inside.split_once(' ')?;
    let number: u32 = number.parse().ok()?;
    let reporter = reporters::canonical_reporter(name)
        .filter(|_| reporters::is_early_scotus_spelling(name))?;
    // Only the series reprinted as U.S. 1-90 are judged ("(10 Otto)" is not).
    reporters::us_reports_volume(reporter, 1)?;
    if reporters::us_reports_volume(reporter, number) == Some(volume) {
        return None;
    }
    Some(match reporters::nominative_volume(volume) {
        Some((expected, reporter)) => {
            format!("{volume} U.S. is {expected} {reporter}, not {inside}")
        }
        None => format!("{volume} U.S. was not published as {inside}"),
    })
}

/// Why the pin page cannot be a page of `record` (cited at `key`), when the
/// library can tell: it comes before the case's first page, after its known
/// last page, or on a page another case holds. When the library cannot
/// tell (a page past the last case it knows of the volume), none.
fn pin_outside_case(
    txn: &ReadTransaction,
    key: &CiteKey,
    pin: Option<&str>,
    record: &CaseRecord,
) -> Result<Option<String>, StoreError> {
    for page in pin.map(pin_pages).unwrap_or_default() {
        if let Some(reason) = page_outside_case(txn, key, page, record)? {
            return Ok(Some(reason));
        }
    }
    Ok(None)
}

/// The pages a pin names: each item of a list ("490, 499"), both ends of
/// a range ("495-501"; "1602-05" ends at 1605), the page of a footnote
/// ("499 n.11"). A star page, a paragraph or a footnote alone names none.
fn pin_pages(pin: &str) -> Vec<u32> {
    let pin = pin.trim();
    let pin = pin.strip_prefix("at").map_or(pin, str::trim_start);
    let mut pages: Vec<u32> = Vec::new();
    for item in pin.split([',', '&']).flat_map(|item| item.split(" and ")) {
        let item = item.trim();
        let digits: String = item.chars().take_while(char::is_ascii_digit).collect();
        let Ok(first) = digits.parse::<u32>() else {
            continue;
        };
        if pages.last().is_some_and(|&last| first < last) {
            // Pages of a list ascend; a smaller number is not one of them
            // (a footnote mark of PDF text: "at 541,1 and").
            break;
        }
        pages.push(first);
        let Some(end) = item[digits.len()..].strip_prefix(['-', '–', '—']) else {
            continue;
        };
        let end: String = end.chars().take_while(char::is_ascii_digit).collect();
        if end.is_empty() || end.len() > digits.len() {
            continue;
        }
        let last = format!("{}{end}", &digits[..digits.len() - end.len()]);
        if let Ok(last) = last.parse::<u32>()
            && last > first
        {
            pages.push(last);
        }
    }
    pages
}

/// Why `pin` cannot be a page of `record` (cited at `key`), when the library
/// can tell: see [`pin_outside_case`].
fn page_outside_case(
    txn: &ReadTransaction,
    key: &CiteKey,
    pin: u32,
    record: &CaseRecord,
) -> Result<Option<String>, StoreError> {
    let Some(own) = record.citations.iter().find(|c| {
        c.key.as_ref().is_some_and(|k| {
            k.reporter == key.reporter && k.volume == key.volume && k.page <= key.page
        })
    }) else {
        return Ok(None);
    };
    let first = own.key.as_ref().map_or(key.page, |k| k.page);
    if pin < first {
        return Ok(Some(format!(
            "the pin page {pin} comes before the case's first page, {first}"
        )));
    }
    if let Some(last) = own.last_page {
        return Ok((pin > last).then(|| {
            format!("the case runs from page {first} to {last}; page {pin} is not in it")
        }));
    }
    let at_pin = CiteKey {
        page: pin,
        ..key.clone()
    };
    let other = match find_case(txn, &at_pin)? {
        CaseLookup::Found { cases, .. } if !cases.contains(&record.id) => cases.into_iter().next(),
        _ => None,
    };
    if let Some(other) = other {
        let name = store::case(txn, &other)?.map_or(other, |case| case.name);
        return Ok(Some(format!("page {pin} belongs to another case ({name})")));
    }
    // Another case the library knows starts between the first page and the
    // pin: the pin is past this case's end, held volume or not.
    let Some((next, ids)) = next_other_case(txn, key, first, record)? else {
        return Ok(None);
    };
    if pin <= next {
        return Ok(None);
    }
    let name = match ids.first() {
        Some(id) => store::case(txn, id)?.map_or_else(|| id.clone(), |case| case.name),
        None => String::new(),
    };
    Ok(Some(format!(
        "page {pin} is past the start of the next case the library knows in the volume ({name}, page {next})"
    )))
}

/// The first case after page `first` of `key`'s volume that is not
/// `record`, with the page it starts on.
fn next_other_case(
    txn: &ReadTransaction,
    key: &CiteKey,
    first: u32,
    record: &CaseRecord,
) -> Result<Option<(u32, Vec<String>)>, StoreError> {
    let mut from = first;
    // A record listed at a second page of its own volume is skipped over.
    for _ in 0..4 {
        let Some(next) = store::next_case_page(txn, &key.reporter, key.volume, from)? else {
            return Ok(None);
        };
        let at_next = CiteKey {
            page: next,
            ..key.clone()
        };
        let ids = store::cases_at(txn, &at_next)?;
        if !ids.contains(&record.id) {
            return Ok(Some((next, ids)));
        }
        from = next;
    }
    Ok(None)
}

/// Whether the cited name and the case's name share a word that
/// identifies a party (not "Inc.", "United States", "v.").
fn shares_a_party_word(cited: &str, record: &CaseRecord) -> bool {
    let cited = distinctive_tokens(cited);
    [
        Some(record.name.as_str()),
        record.name_abbreviation.as_deref(),
        record.name_short.as_deref(),
    ]
    .into_iter()
    .flatten()
    .any(|actual| {
        let actual = distinctive_tokens(actual);
        cited.iter().any(|token| actual.contains(token))
    })
}

/// The cited name fits the case's name or its short name.
fn names_match(cited: &str, record: &CaseRecord) -> bool {
    case_names_match(cited, &record.name)
        || record
            .name_abbreviation
            .as_deref()
            .is_some_and(|n| case_names_match(cited, n))
        || record
            .name_short
            .as_deref()
            .is_some_and(|n| case_names_match(cited, n))
}

fn verified_case(
    txn: &ReadTransaction,
    public_url: &str,
    citation: &Citation,
    written: String,
    record: &CaseRecord,
    named: bool,
) -> Result<CheckedCitation, StoreError> {
    // The library supplies what the citation left out; nothing is guessed.
    let mut complete = citation.clone();
    let mut notes = Vec::new();
    match (citation.year, record.year()) {
        (Some(given), Some(decided)) if (given - decided).abs() > 1 => {
            return Ok(CheckedCitation::unverified(
                written,
                Some(ContentType::Case),
                Some(record.name.clone()),
                format!("the case at this citation was decided in {decided}, not in {given}"),
            ));
        }
        (Some(given), Some(decided)) if given != decided => {
            // A year off by one may be the term rather than the decision;
            // the Bluebook form gives the decision's year, never one the
            // library knows is wrong.
            complete.year = Some(decided);
            notes.push(format!(
                "the year given is {given}; the library dates the decision {decided}"
            ));
        }
        (None, decided) => complete.year = decided,
        _ => {}
    }
    if complete.court.is_none() {
        complete.court = record
            .court
            .as_deref()
            .and_then(crate::citations::court_by_id)
            .map(|court| court.id.as_ref());
    }
    // A page inside the case ("410 U.S. 150" for Roe, which starts at 113)
    // is a pin cite: Bluebook form gives the first page, then the pin.
    let cited_page = citation.page.as_deref().and_then(|p| p.parse::<u32>().ok());
    let cited_volume = citation
        .volume
        .as_deref()
        .and_then(|v| v.parse::<u32>().ok());
    let first_page = record
        .citations
        .iter()
        .filter_map(|c| c.key.as_ref())
        .find(|key| {
            Some(key.reporter.as_str()) == citation.reporter
                && cited_volume == Some(key.volume)
                && cited_page.is_some_and(|page| key.page < page)
        });
    if let (Some(key), Some(page)) = (first_page, cited_page) {
        complete.page = Some(key.page.to_string());
        if complete.pin_cite.is_none() {
            complete.pin_cite = Some(page.to_string());
        }
        notes.push(format!(
            "page {page} is not the case's first page ({}), but a page inside it",
            key.page
        ));
    }
    let mut reason = if named {
        "the library holds this case at this citation, under the name given".to_string()
    } else {
        "the library holds a case at this citation; no name was given to check it against"
            .to_string()
    };
    for note in notes {
        reason.push_str("; ");
        reason.push_str(&note);
    }
    Ok(CheckedCitation {
        citation: written,
        status: Status::Verified,
        content_type: Some(ContentType::Case),
        bluebook_citation: bluebook(&complete),
        title: None,
        case_status: Some(CaseStatus::of(txn, record)?),
        source_url: Some(urls::case_page(public_url, record)),
        reason,
    })
}

fn content_type_of(code: &str) -> ContentType {
    match code {
        codes::USC => ContentType::Statute,
        codes::CFR => ContentType::Regulation,
        _ => ContentType::Rule,
    }
}

fn check_law(
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
    if law.code == "U.S. Const." {
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
            Some(ContentType::Statute),
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
    let title = law.title.clone().unwrap_or_default();
    let Some(section) = law.section.clone() else {
        return Ok(CheckedCitation::unavailable(
            written,
            content_type,
            "the citation names no section or rule",
        ));
    };
    let (first, last) = range_endpoints(&section, written.contains("§§"));
    let authority = match find_authority(txn, code, &title, first)? {
        AuthorityLookup::Found { authority } => authority,
        AuthorityLookup::Absent { reason } => {
            return Ok(not_found(Some(reason), written, content_type));
        }
        AuthorityLookup::NotHeld => return Ok(not_found(None, written, content_type)),
    };
    // The other sections a "§§" citation names: its range's end, or the
    // rest of its list ("§§ 101, 999").
    let listed = if last.is_none() {
        listed_after(citation, text)
    } else {
        Vec::new()
    };
    for other in last.into_iter().chain(listed.iter().map(String::as_str)) {
        match find_authority(txn, code, &title, other)? {
            AuthorityLookup::Found { .. } => {}
            AuthorityLookup::Absent { reason } => {
                let reason = format!("§ {other}: {reason}");
                return Ok(not_found(Some(reason), written, content_type));
            }
            AuthorityLookup::NotHeld => return Ok(not_found(None, written, content_type)),
        }
    }
    let subdivision = law
        .subsection
        .as_deref()
        .filter(|_| code != codes::USC && code != codes::CFR);
    if let (Some(subdivision), Some(rule_text)) = (subdivision, authority.text.as_deref())
        && !text_shows_subdivision(rule_text, &subdivision_path(subdivision))
    {
        // The rules' text is a transcription: a subdivision it does not
        // show may still be there, so this is no proof either way.
        return Ok(CheckedCitation::unavailable(
            written,
            content_type,
            format!(
                "the library's text of {} {} shows no subdivision {subdivision}: check it",
                law.code, section
            ),
        ));
    }
    Ok(CheckedCitation {
        citation: written,
        status: Status::Verified,
        content_type,
        bluebook_citation: bluebook(citation),
        title: None,
        case_status: None,
        source_url: Some(urls::authority_page(&authority)),
        reason: if authority.status == "live" {
            format!("in force: {}", authority.heading)
        } else {
            format!("{} (the section is no longer in force)", authority.heading)
        },
    })
}

/// What follows a constitution citation that the extractor did not read
/// ("§§ 6-7", "cls. 17, 19", "cl. 9"), if anything.
fn unread_constitution_part(after: &str) -> Option<String> {
    let rest = after.trim_start().strip_prefix(',')?.trim_start();
    ["§", "cl.", "cls.", "Cl.", "Cls."]
        .iter()
        .any(|part| rest.starts_with(part))
        .then(|| {
            let end = rest.find(['.', ';', ')']).map_or(rest.len(), |at| {
                // "cl." and "cls." keep their own period.
                if rest[..at].ends_with("cl") || rest[..at].ends_with("cls") {
                    rest[at + 1..]
                        .find(['.', ';', ')'])
                        .map_or(rest.len(), |next| at + 1 + next)
                } else {
                    at
                }
            });
            rest[..end].trim().to_string()
        })
}

/// The text after a law citation and its parentheticals.
fn after_law<'t>(citation: &Citation, text: &'t str) -> &'t str {
    text.get(citation.full_span.end..).unwrap_or("")
}

/// The further sections a "§§" citation lists after the one read (none
/// for a range or a single section).
pub(super) fn listed_after(citation: &Citation, text: &str) -> Vec<String> {
    let several = citation.text(text).contains("§§");
    let ranged = citation
        .law
        .as_deref()
        .and_then(|law| law.section.as_deref())
        .is_some_and(|section| range_endpoints(section, several).1.is_some());
    if several && !ranged {
        listed_sections(after_law(citation, text))
    } else {
        Vec::new()
    }
}

/// The further sections of a "§§" list after the one read ("§§ 101, 999"
/// leaves ", 999"): each item after a comma (or "and") that starts with a
/// digit.
fn listed_sections(after: &str) -> Vec<String> {
    let mut sections = Vec::new();
    let mut rest = after;
    while let Some(next) = rest.trim_start().strip_prefix(',') {
        let next = next.trim_start();
        let next = next.strip_prefix("and ").unwrap_or(next).trim_start();
        let item: String = next
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '–' | '.'))
            .collect();
        let item = item.trim_end_matches('.');
        if !item.starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
        sections.push(item.to_string());
        rest = &next[item.len()..];
    }
    sections
}

/// The levels of a subdivision: "(d)(2)(F)" is d, 2, F.
fn subdivision_path(subdivision: &str) -> Vec<&str> {
    subdivision
        .split(['(', ')'])
        .filter(|part| !part.trim().is_empty())
        .collect()
}

/// Whether a rule's text shows the subdivision `path`: each level's marker
/// ("(b)", or "6." as a transcription numbers items) inside the part of the
/// text the level before it opens, up to its next sibling's marker. Every
/// place a marker appears is tried (the text also cites "Rule 12(b)").
fn text_shows_subdivision(text: &str, path: &[&str]) -> bool {
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

/// The verdict on a section or rule the library did not find: why it
/// cannot exist, when the library holds the whole title (`absent`), else
/// that the library cannot tell.
fn not_found(
    absent: Option<String>,
    written: String,
    content_type: Option<ContentType>,
) -> CheckedCitation {
    match absent {
        Some(reason) => CheckedCitation::unverified(
            written,
            content_type,
            None,
            format!("this cannot exist: {reason}"),
        ),
        None => CheckedCitation::unavailable(
            written,
            content_type,
            "the library does not hold this title with its history, so it cannot tell",
        ),
    }
}

/// The sections a section reference names: the first and, for a range
/// ("51–60", or "51-60" after "§§"), the last. A hyphen alone is part of
/// many section numbers ("2000e-2"), so it splits only after "§§".
fn range_endpoints(section: &str, several: bool) -> (&str, Option<&str>) {
    let split = section
        .split_once(['–', '—'])
        .or_else(|| several.then(|| section.split_once('-')).flatten());
    match split {
        Some((first, last)) if !first.trim().is_empty() && !last.trim().is_empty() => {
            (first.trim(), Some(last.trim()))
        }
        _ => (section, None),
    }
}

fn check_constitution(
    citation: &Citation,
    law: &crate::citations::LawKey,
    written: String,
) -> CheckedCitation {
    type PartOf = fn(u32, Option<u32>, Option<u32>) -> constitution::Part;
    let (part, number, highest, part_of): (_, _, _, PartOf) = match (&law.article, &law.amendment) {
        (Some(article), _) => (
            "article",
            roman_or_number(article),
            constitution::ARTICLE_COUNT,
            constitution::article_part,
        ),
        (None, Some(amendment)) => (
            "amendment",
            roman_or_number(amendment),
            constitution::AMENDMENT_COUNT,
            constitution::amendment_part,
        ),
        (None, None) => {
            return CheckedCitation::unavailable(
                written,
                None,
                "the citation names no article or amendment",
            );
        }
    };
    let n = match number {
        Some(n) if (1..=highest).contains(&n) => n,
        Some(n) => {
            return CheckedCitation::unverified(
                written,
                None,
                None,
                format!("the Constitution has no {part} {n} (the last is {highest})"),
            );
        }
        None => {
            return CheckedCitation::unavailable(
                written,
                None,
                "the article or amendment number could not be read",
            );
        }
    };
    let number_of = |text: &Option<String>| match text.as_deref() {
        None => Ok(None),
        Some(t) => t.trim().parse::<u32>().map(Some).map_err(|_| t.to_string()),
    };
    let (section, clause) = match (number_of(&law.section), number_of(&law.clause)) {
        (Ok(section), Ok(clause)) => (section, clause),
        (Err(unread), _) | (_, Err(unread)) => {
            return CheckedCitation::unavailable(
                written,
                None,
                format!("the section or clause {unread:?} could not be read"),
            );
        }
    };
    match part_of(n, section, clause) {
        constitution::Part::Missing(reason) => {
            CheckedCitation::unverified(written, None, None, reason)
        }
        constitution::Part::Unknown(reason) => CheckedCitation::unavailable(written, None, reason),
        constitution::Part::Exists => CheckedCitation {
            citation: written,
            status: Status::Verified,
            content_type: None,
            bluebook_citation: bluebook(citation),
            title: None,
            case_status: None,
            source_url: Some(urls::constitution_page(part, n)),
            reason: format!("the Constitution has {part} {n}"),
        },
    }
}

fn roman_or_number(text: &str) -> Option<u32> {
    let text = text
        .trim()
        .trim_start_matches("art.")
        .trim_start_matches("amend.")
        .trim();
    if let Ok(n) = text.parse() {
        return Some(n);
    }
    let value = |c: char| match c.to_ascii_uppercase() {
        'I' => Some(1),
        'V' => Some(5),
        'X' => Some(10),
        'L' => Some(50),
        _ => None,
    };
    let digits: Option<Vec<u32>> = text.chars().map(value).collect();
    let digits = digits.filter(|d| !d.is_empty())?;
    let mut total = 0;
    for (i, digit) in digits.iter().enumerate() {
        if digits.get(i + 1).is_some_and(|next| next > digit) {
            total -= *digit as i64;
        } else {
            total += *digit as i64;
        }
    }
    u32::try_from(total).ok().filter(|n| *n > 0)
}

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
    let hits = library
        .search_names(text, 10)
        .map_err(|e| StoreError::Corrupt(format!("search: {e}")))?;
    let matching: Vec<_> = hits
        .into_iter()
        .filter(|hit| case_names_match(text, &hit.name))
        .collect();
    if matching.is_empty() {
        return Ok(None);
    }
    // One party ("Arizona", "Smith") fits many different cases: naming
    // one of them would be a guess. Several decisions under one name
    // (Brown I and II) are one name, answered below with the most cited
    // when it stands out.
    let first = &matching[0].name;
    let others: Vec<&str> = matching
        .iter()
        .map(|hit| hit.name.as_str())
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
        for hit in &matching {
            if let Some(record) = store::case(txn, &hit.id)? {
                let cited_by = library
                    .index
                    .citing_count(&record.id)
                    .map_err(|e| StoreError::Corrupt(format!("search: {e}")))?;
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
    Ok(chosen.map(|(record, case_status)| CheckedCitation {
        citation: text.to_string(),
        status: Status::Verified,
        content_type: Some(ContentType::Case),
        bluebook_citation: None,
        title: Some(record.name.clone()),
        case_status: Some(case_status),
        source_url: Some(urls::case_page(public_url, &record)),
        reason: "found by name".into(),
    }))
}

#[cfg(test)]
mod tests {
    use super::{
        listed_sections, nominative_mismatch, pin_pages, range_endpoints, roman_or_number,
        subdivision_path, text_shows_subdivision, unread_case_name, unread_constitution_part,
    };
    use crate::citations::Extractor;

    /// Whether the last full case citation of `text` has a name written
    /// before it that was not read.
    fn name_unread(text: &str) -> bool {
        let found = Extractor::shared().extract(text);
        let last = found
            .iter()
            .rposition(|c| c.kind == crate::citations::CitationKind::FullCase)
            .unwrap();
        found[last].case_name.is_none() && unread_case_name(&found, last, text)
    }

    #[test]
    fn a_name_the_extractor_could_not_read_is_noticed() {
        assert!(name_unread(
            "Smith v. Jones (opinion of Alito, J.), 347 U.S. 483."
        ));
        assert!(name_unread("See [In re Smith], 347 U.S. 483."));
        assert!(!name_unread("The rule is settled. 347 U.S. 483."));
        assert!(!name_unread(
            "Smith v. Jones held it. The rule is settled. 347 U.S. 483."
        ));
        assert!(!name_unread(
            "Brown v. Board of Education, 347 U.S. 483 (1954); 349 U.S. 294 (1955)."
        ));
    }

    #[test]
    fn nominative_volumes_of_the_us_reports() {
        assert_eq!(nominative_mismatch(22, "22 U.S. (9 Wheat.) 738"), None);
        assert_eq!(nominative_mismatch(5, "5 U.S. (1 Cranch) 137"), None);
        assert_eq!(
            nominative_mismatch(22, "22 U.S. (3 Dall.) 738").as_deref(),
            Some("22 U.S. is 9 Wheat., not 3 Dall.")
        );
        assert_eq!(
            nominative_mismatch(17, "17 U.S. (9 Wheat.) 316").as_deref(),
            Some("17 U.S. is 4 Wheat., not 9 Wheat.")
        );
        assert_eq!(
            nominative_mismatch(100, "100 U.S. (10 Otto) 1").as_deref(),
            None,
            "a reporter not in the table is not judged"
        );
        assert_eq!(nominative_mismatch(22, "22 U.S. 738"), None);
    }

    #[test]
    fn pages_a_pin_names() {
        assert_eq!(pin_pages("499"), [499]);
        assert_eq!(pin_pages("at 499"), [499]);
        assert_eq!(pin_pages("490, 499"), [490, 499]);
        assert_eq!(pin_pages("495-501"), [495, 501]);
        assert_eq!(pin_pages("495–501"), [495, 501]);
        assert_eq!(pin_pages("1602-05"), [1602, 1605]);
        assert_eq!(pin_pages("499 n.11"), [499]);
        assert_eq!(pin_pages("499 nn.11-12"), [499]);
        assert_eq!(pin_pages("20-25 & n. 4"), [20, 25]);
        assert_eq!(pin_pages("541,1"), [541]);
        assert_eq!(pin_pages("*4"), Vec::<u32>::new());
        assert_eq!(pin_pages("¶ 12"), Vec::<u32>::new());
    }

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

    #[test]
    fn lists_and_unread_parts_after_a_law_citation() {
        assert_eq!(listed_sections(", 999. Next"), ["999"]);
        assert_eq!(listed_sections(", 101, and 102a; x"), ["101", "102a"]);
        assert_eq!(listed_sections(" (2018)"), Vec::<String>::new());
        assert_eq!(
            unread_constitution_part(", §§ 6-7. Next").as_deref(),
            Some("§§ 6-7")
        );
        assert_eq!(
            unread_constitution_part(", cls. 17, 19. Next").as_deref(),
            Some("cls. 17, 19")
        );
        assert_eq!(
            unread_constitution_part(", cl. 9."),
            Some("cl. 9".to_string())
        );
        assert_eq!(unread_constitution_part(". Next"), None);
    }

    #[test]
    fn roman_numerals() {
        assert_eq!(roman_or_number("XIV"), Some(14));
        assert_eq!(roman_or_number("XXVII"), Some(27));
        assert_eq!(roman_or_number("IV"), Some(4));
        assert_eq!(roman_or_number("3"), Some(3));
        assert_eq!(roman_or_number("XXX"), Some(30));
        assert_eq!(roman_or_number("Q"), None);
    }

    #[test]
    fn section_ranges() {
        assert_eq!(range_endpoints("51–60", false), ("51", Some("60")));
        assert_eq!(range_endpoints("51-60", true), ("51", Some("60")));
        assert_eq!(range_endpoints("2000e-2", false), ("2000e-2", None));
        assert_eq!(range_endpoints("1983", true), ("1983", None));
        assert_eq!(range_endpoints("5–", false), ("5–", None));
    }
}

//! Full case citations and short forms: the case the library holds at the
//! volume and page, checked against the name and year given.

use redb::ReadTransaction;

use super::case_names::{
    NameAsChecked, cited_name, companion_named, longer_name, name_as_checked, name_mismatch,
    named_case, vague_name,
};
use super::pins::{described, pin_outside_case};
use super::{this_year, year_to_come};
use crate::citations::extract::split_parties;
use crate::citations::names::reversed;
use crate::citations::{Citation, bluebook, reporters};
use crate::library::import::scdb;
use crate::library::lookup::{CaseLookup, find_case, unlisted_series_reason};
use crate::library::model::{CaseRecord, CiteKey};
use crate::library::{Library, store, unlisted_series};
use crate::store::StoreError;
use crate::verification::case_status::CaseStatus;
use crate::verification::{CheckedCitation, ContentType, Status, urls};

/// Why a case citation has no address in the library.
enum NoAddress {
    /// It cannot be looked up, which tells nothing of the case.
    Unknown(&'static str),
    /// No reporter prints it: a volume or page too large for any.
    Impossible(String),
}

impl NoAddress {
    fn answer(self, written: String) -> CheckedCitation {
        let case = Some(ContentType::Case);
        match self {
            NoAddress::Unknown(reason) => CheckedCitation::unavailable(written, case, reason),
            NoAddress::Impossible(reason) => {
                CheckedCitation::unverified(written, case, None, reason)
            }
        }
    }
}

/// The library's address of a case citation, or why it has none.
fn address_of(citation: &Citation) -> Result<CiteKey, NoAddress> {
    if let Some(reason) = number_past_any_volume(citation) {
        return Err(NoAddress::Impossible(reason));
    }
    let reporter = citation.reporter.ok_or(NoAddress::Unknown(
        "the reporter abbreviation is unknown or could stand for several",
    ))?;
    let no_page = NoAddress::Unknown("the citation has no volume or page to look up");
    let (Some(volume), Some(page)) = (
        citation.volume.as_deref().and_then(|v| v.parse().ok()),
        citation.page.as_deref(),
    ) else {
        return Err(no_page);
    };
    CiteKey::of_page_text(
        volume,
        reporter,
        citation.reporter_found.as_deref().unwrap_or(reporter),
        page,
    )
    .ok_or(no_page)
}

/// Why no reporter can print the volume or page a citation gives: a number
/// too large for any volume or page ("347 U.S. 99999999999", or a short
/// form's "at 99999999999") names nothing that could exist.
fn number_past_any_volume(citation: &Citation) -> Option<String> {
    let too_large = |number: Option<&str>| {
        let number = number?;
        let after = number.trim_start_matches(|c: char| c.is_ascii_digit());
        let digits = &number[..number.len() - after.len()];
        (!digits.is_empty() && digits.parse::<u32>().is_err()).then(|| digits.to_string())
    };
    if let Some(volume) = too_large(citation.volume.as_deref()) {
        return Some(format!(
            "volume {volume} is past any volume a reporter prints"
        ));
    }
    too_large(citation.page.as_deref())
        .map(|page| format!("page {page} is past any page a reporter volume prints"))
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
        CaseLookup::Unplaced { source } => {
            return Ok(Err(CheckedCitation::unavailable(
                written.to_string(),
                case,
                format!(
                    "the library holds {volume} {reporter} ({source}) but cannot tell what is printed at page {page}"
                ),
            )));
        }
    };
    let records = records_of(txn, &cases)?;
    if records.is_empty() {
        return Ok(Err(CheckedCitation::unavailable(
            written.to_string(),
            case,
            "the case record is missing",
        )));
    }
    Ok(Ok(records))
}

/// The stored records of the cases `ids`.
fn records_of(txn: &ReadTransaction, ids: &[String]) -> Result<Vec<CaseRecord>, StoreError> {
    let mut records = Vec::new();
    for id in ids {
        if let Some(record) = store::case(txn, id)? {
            records.push(record);
        }
    }
    Ok(records)
}

pub fn check_case(
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
    if let Some(reason) = year_to_come(citation, this_year()) {
        return Ok(CheckedCitation::unverified(written, case, None, reason));
    }
    if let Some(unlisted) = unlisted_series(citation) {
        let reporter = citation.reporter_found.as_deref().unwrap_or_default();
        let reason = unlisted_series_reason(reporter, &unlisted.published, unlisted.may_be_newer);
        return Ok(if unlisted.may_be_newer {
            CheckedCitation::unavailable(written, case, reason)
        } else {
            CheckedCitation::unverified(written, case, None, reason)
        });
    }
    let key = match address_of(citation) {
        Ok(key) => key,
        Err(no_address) => return Ok(no_address.answer(written)),
    };
    if key.reporter == "U.S."
        && let Some(reason) = nominative_mismatch(key.volume, &written)
    {
        return Ok(CheckedCitation::unverified(written, case, None, reason));
    }
    let name = cited_name(citations, index);
    let read = name.clone();
    let records = cases_at(txn, &key, &written)?;
    // A page that holds the case named is its own proof; one that does not
    // may be a mistyped parallel of a citation that does.
    let holds_the_case_named = match (&records, name.as_deref()) {
        (Ok(records), Some(name)) => named_case(name, records).is_some(),
        _ => false,
    };
    // A name that says no one case ("United States") names none elsewhere.
    if let Some(name) = name
        .as_deref()
        .filter(|name| !holds_the_case_named && vague_name(name, &written).is_none())
        && let Some(reason) = named_case_elsewhere(txn, citations, index, &key, name, text)?
    {
        return Ok(CheckedCitation::unverified(written, case, None, reason));
    }
    let records = match records {
        Ok(records) => records,
        Err(answer) => return Ok(answer),
    };
    let first = &records[0];
    if let Some(vague) = name.as_deref().and_then(|name| vague_name(name, &written)) {
        return Ok(vague);
    }
    let name = match name_as_checked(citations, index, name, text) {
        NameAsChecked::AsRead(name) => name,
        NameAsChecked::WithFirstParty(name) => Some(name),
        NameAsChecked::Unread => {
            return Ok(CheckedCitation::unavailable(
                written,
                case,
                "a case name is written before this citation but could not be read, so it cannot be checked",
            ));
        }
    };
    let chosen = match &name {
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
    // A later decision cited after "rev'd" or "aff'd" carries the caption
    // below, whose parties an appeal often turns round ("Ramirez v.
    // TransUnion LLC …, rev'd, 141 S. Ct. 2190" is TransUnion v. Ramirez).
    let turned = match (chosen, &name) {
        (None, Some(name)) if is_subsequent_history(citations, index) => {
            reversed(name).and_then(|turned| Some((named_case(&turned, &records)?, turned)))
        }
        _ => None,
    };
    // Else a name the extractor cut short at a word it does not take for
    // a name's ("First National Bank in Plant City v. Dickinson").
    let longer = match (chosen, &turned, read.as_deref()) {
        (None, None, Some(read)) => longer_name(citations, index, text, read, &records),
        _ => None,
    };
    let (chosen, name, name_read) = match (turned, longer) {
        (Some((record, turned)), _) => (Some(record), Some(turned), NameRead::TurnedRound),
        (None, Some((record, longer))) => (Some(record), Some(longer), NameRead::InFull),
        (None, None) => (chosen, name, NameRead::AsRead),
    };
    if let Some(record) = chosen {
        if let Some(outside) = pin_outside_case(txn, &key, pin, record)? {
            return Ok(if outside.proven {
                CheckedCitation::unverified(written, case, outside.holder, outside.reason)
            } else {
                CheckedCitation::unavailable(written, case, format!("{}: check it", outside.reason))
            });
        }
        // Unnamed parallels that disagree cannot say which is wrong; a name
        // says: the one whose page holds the case named is right.
        if name.is_none()
            && let Some(reason) = parallel_of_another_case(citations, index, &key, record, text)
        {
            return Ok(CheckedCitation::unverified(written, case, None, reason));
        }
        return verified_case(
            txn,
            public_url,
            citation,
            written,
            record,
            name.as_deref(),
            name_read,
        );
    }
    if let Some(reason) = year_of_no_decision_here(citation, &records) {
        return Ok(CheckedCitation::unverified(written, case, None, reason));
    }
    let name = name.unwrap_or_default();
    name_mismatch(library, txn, &name, &records, written)
}

/// Why a citation is not of the case its name names, when a parallel
/// given with it holds that case under that name and the case's own
/// citation in this citation's reporter is another ("Mapp v. Ohio, 367
/// U.S. 643, 81 S. Ct. 1648": Mapp, at 367 U.S. 643, is 81 S. Ct. 1684).
fn named_case_elsewhere(
    txn: &ReadTransaction,
    citations: &[Citation],
    index: usize,
    key: &CiteKey,
    name: &str,
    text: &str,
) -> Result<Option<String>, StoreError> {
    for &other in citations[index].parallel.iter().filter(|&&o| o != index) {
        let Ok(given) = address_of(&citations[other]) else {
            continue;
        };
        if given.reporter == key.reporter {
            continue;
        }
        let CaseLookup::Found { cases, .. } = find_case(txn, &given)? else {
            continue;
        };
        let records = records_of(txn, &cases)?;
        if let Some(record) = named_case(name, &records)
            && let Some(own) = own_citation_besides(record, key)
        {
            return Ok(Some(format!(
                "{} is given with it, and {} is at {own}",
                citations[other].text(text),
                described(record),
            )));
        }
    }
    Ok(None)
}

/// `record`'s own citation in `key`'s reporter (or another edition of it)
/// when it has one there and `key` is not among them.
fn own_citation_besides<'r>(record: &'r CaseRecord, key: &CiteKey) -> Option<&'r CiteKey> {
    let mut own = record
        .citations
        .iter()
        .filter_map(|c| c.key.as_ref())
        .filter(|k| {
            k.reporter == key.reporter || reporters::same_reporter(&k.reporter, &key.reporter)
        });
    let first = own.clone().next()?;
    (!own.any(|k| k == key)).then_some(first)
}

/// Why a citation given in parallel with this one cannot be of `record`,
/// the case at this page: the case's own citation in that reporter, or in
/// another edition of it, is another ("347 U.S. 483, 74 S. Ct. 548":
/// Brown's is 74 S. Ct. 686; "98 L. Ed. 2d 873": it is 98 L. Ed. 873). A
/// name would tell two cases apart; parallels alone only so.
fn parallel_of_another_case(
    citations: &[Citation],
    index: usize,
    key: &CiteKey,
    record: &CaseRecord,
    text: &str,
) -> Option<String> {
    citations[index]
        .parallel
        .iter()
        .filter(|&&other| other != index)
        .find_map(|&other| {
            let given = address_of(&citations[other]).ok()?;
            if given.reporter == key.reporter {
                return None;
            }
            let first_own = own_citation_besides(record, &given)?;
            Some(format!(
                "{} is given with it, but the case at this page ({}) is {first_own}",
                citations[other].text(text),
                described(record),
            ))
        })
}

/// Why no decision at the page can be the one cited, when the name could
/// not be matched but the year can: every case at the page was decided
/// more than a year from the year given ("McCulloch v. Maryland, 17 U.S.
/// 316 (1919)", where the library knows a decision of 1819 with no name).
fn year_of_no_decision_here(citation: &Citation, records: &[CaseRecord]) -> Option<String> {
    let given = citation.year?;
    let years: Vec<i32> = records
        .iter()
        .map(CaseRecord::year)
        .collect::<Option<_>>()?;
    let off = years.iter().all(|decided| (given - decided).abs() > 1);
    (off && !years.is_empty()).then(|| {
        let decided: Vec<String> = years.iter().map(i32::to_string).collect();
        format!(
            "the decision at this page was decided in {}, not in {given}",
            decided.join(" or ")
        )
    })
}

/// Whether citation `index` is one an earlier citation's subsequent history
/// introduces ("…, rev'd, 141 S. Ct. 2190").
fn is_subsequent_history(citations: &[Citation], index: usize) -> bool {
    citations[..index].iter().any(|earlier| {
        earlier
            .subsequent_history
            .iter()
            .any(|history| history.citation == Some(index))
    })
}

/// A short form with no full citation before it ("Henderson v. Kessler,
/// 512 U.S. at 214"): the case whose pages hold the pin page must be the
/// one named. Unnamed, it says nothing the library can check.
pub(super) fn check_short_form(
    library: &Library,
    txn: &ReadTransaction,
    public_url: &str,
    citations: &[Citation],
    index: usize,
    text: &str,
) -> Result<CheckedCitation, StoreError> {
    let citation = &citations[index];
    let written = citation.text(text).to_string();
    let case = Some(ContentType::Case);
    let key = match address_of(citation) {
        Ok(key) => key,
        Err(no_address) => return Ok(no_address.answer(written)),
    };
    let Some(name) = citation.case_name.as_deref() else {
        return Ok(CheckedCitation::unavailable(
            written,
            case,
            "a short form with no name, and no one full citation of its volume before it to stand for: the library cannot tell which case it means",
        ));
    };
    let records = match cases_at(txn, &key, &written)? {
        Ok(records) => records,
        Err(answer) => return Ok(answer),
    };
    if let Some(vague) = vague_name(name, &written) {
        return Ok(vague);
    }
    // The name as read, or written in full where the extractor cut it short
    // ([`longer_name`]).
    let named = named_case(name, &records)
        .or_else(|| longer_name(citations, index, text, name, &records).map(|(record, _)| record));
    if let Some(record) = named {
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
pub(in crate::verification) fn nominative_mismatch(volume: u32, written: &str) -> Option<String> {
    let inside = written.split_once('(')?.1.split_once(')')?.0.trim();
    let (number, name) = match inside.split_once(' ') {
        Some((number, name)) => (number.parse::<u32>().ok(), name),
        None => (None, inside),
    };
    if name.trim_end_matches('.').eq_ignore_ascii_case("Otto") {
        // Otto's volumes are U.S. 91-107 ("94 U.S. (4 Otto) 113").
        let fits = match number {
            Some(number) => reporters::otto_us_volume(number) == Some(volume),
            None => reporters::otto_volume(volume).is_some(),
        };
        return (!fits).then(|| match reporters::otto_volume(volume) {
            Some(expected) => format!("{volume} U.S. is {expected} Otto, not {inside}"),
            None => format!("{volume} U.S. was not published as {inside}"),
        });
    }
    let number = number?;
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

/// Why the court a citation names cannot have decided the case at its
/// page ("Miranda v. Arizona, 384 U.S. 436 (9th Cir. 1966)", a New Mexico
/// decision cited as "(Ariz. 2011)"). Courts are compared at the grain of
/// [`crate::citations::courts_differ`]: sources and citations name a
/// state's courts at different grains, so two courts of one state are not
/// told apart.
fn court_mismatch(citation: &Citation, record: &CaseRecord) -> Option<String> {
    let held = record.court.as_deref()?;
    let differs = match (citation.court, citation.court_found.as_deref()) {
        (Some(cited), _) => crate::citations::courts_differ(cited, held),
        (None, Some(written)) => {
            crate::citations::written_court_differs(written, held).unwrap_or(false)
        }
        (None, None) => false,
    };
    differs.then(|| {
        format!(
            "the case at this citation was decided by {}, not the court named ({})",
            court_named(held),
            citation
                .court_found
                .as_deref()
                .or(citation.court)
                .unwrap_or_default()
        )
    })
}

/// A court by its name, with its article ("the Arizona Supreme Court",
/// "The Four Departments of the Appellate Division").
fn court_named(id: &str) -> String {
    let name = crate::citations::court_by_id(id).map_or(id, |c| c.name.trim());
    if name.starts_with("The ") {
        name.to_string()
    } else {
        format!("the {name}")
    }
}

/// Whether the library's date of a decision is its day, so that a year off
/// by one is wrong: the Supreme Court Database's, when the term in its case
/// id ("1963-074") holds that day. Other sources may give a rehearing's or
/// a filing's date, and an SCDB date its term contradicts is another
/// decision's (the decree at 84 S. Ct. 755 is dated as the opinion before
/// it).
fn dated_to_its_day(record: &CaseRecord) -> bool {
    let Some((year, month)) = record
        .decision_date
        .as_deref()
        .and_then(scdb::year_and_month)
    else {
        return false;
    };
    let term_of_date = scdb::october_term(year, month);
    record
        .provenance
        .iter()
        .filter(|p| p.source == scdb::SOURCE)
        .filter_map(|p| p.id.get(..4)?.parse::<u32>().ok())
        .any(|term| term == term_of_date)
}

/// How the name a case is verified under was read from the citation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NameRead {
    /// As the extractor read it.
    AsRead,
    /// A later decision's, with its parties turned round.
    TurnedRound,
    /// Written in full, with words the extractor stopped before.
    InFull,
}

fn verified_case(
    txn: &ReadTransaction,
    public_url: &str,
    citation: &Citation,
    written: String,
    record: &CaseRecord,
    name: Option<&str>,
    name_read: NameRead,
) -> Result<CheckedCitation, StoreError> {
    // The library supplies what the citation left out; nothing is guessed.
    let mut complete = citation.clone();
    // Its Bluebook form names the parties as the name verified does.
    match name_read {
        NameRead::AsRead => {}
        NameRead::TurnedRound => {
            std::mem::swap(&mut complete.plaintiff, &mut complete.defendant);
            complete.case_name = name.map(str::to_string);
        }
        NameRead::InFull => {
            if let Some(name) = name {
                (complete.plaintiff, complete.defendant) = split_parties(name);
                complete.case_name = Some(name.to_string());
            }
        }
    }
    let mut notes = Vec::new();
    if let Some(reason) = court_mismatch(citation, record) {
        return Ok(CheckedCitation::unverified(
            written,
            Some(ContentType::Case),
            Some(record.name.clone()),
            reason,
        ));
    }
    let dated_exactly = dated_to_its_day(record);
    match (citation.year, record.year()) {
        (Some(given), Some(decided))
            if (given - decided).abs() > 1 || given != decided && dated_exactly =>
        {
            return Ok(CheckedCitation::unverified(
                written,
                Some(ContentType::Case),
                Some(record.name.clone()),
                match record.decision_date.as_deref().filter(|d| d.len() == 10) {
                    Some(day) => {
                        format!("the case at this citation was decided on {day}, not in {given}")
                    }
                    None => {
                        format!(
                            "the case at this citation was decided in {decided}, not in {given}"
                        )
                    }
                },
            ));
        }
        (Some(given), Some(decided)) if given != decided => {
            // A year off by one may be the term or the source's date rather
            // than the decision's; the Bluebook form gives the library's
            // year, never one it knows is wrong.
            complete.year = Some(decided);
            notes.push(format!(
                "the year given is {given}; the library dates the decision {decided}"
            ));
        }
        (None, decided) => complete.year = decided,
        _ => {}
    }
    // Courts of one state are not told apart, but the library says which
    // its record gives when the court written is another it knows.
    if let (Some(cited), Some(held)) = (citation.court, record.court.as_deref())
        && cited != held
    {
        notes.push(format!(
            "the library's record gives the court as {}",
            court_named(held)
        ));
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
    if let Some(companion) = name.and_then(|name| companion_named(name, record)) {
        notes.push(format!(
            "{companion} was decided with {} and is reported under its citation",
            record.name
        ));
    }
    let mut reason = if name_read == NameRead::TurnedRound {
        "the library holds this case at this citation, as a later decision in the case, cited under the caption below with its parties the other way round"
            .to_string()
    } else if name.is_some() {
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

#[cfg(test)]
mod tests {
    use super::nominative_mismatch;

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
}

//! Checking citations against the library: the verdicts behind
//! `/v1/citations/verify`, `/v1/citations/resolve` and `/v1/cases/lookup`.
//! No HTTP here.
//!
//! The rule that governs everything below: a citation is `verified` only
//! when the library holds the authority and, for a case, the case at that
//! page is the one named; `unverified` only when the library can say so
//! (it holds the whole volume, or the authority cannot exist, or the page
//! holds another case); everything else is `unavailable`.

mod case_status;
mod checks;
mod constitution;
pub mod lookup;
mod urls;

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use redb::ReadTransaction;

use serde::Serialize;

use crate::citations::courts::courts_differ;
use crate::citations::{Citation, CitationKind, Extractor, normalize_case_name};
use crate::library::Library;
use crate::library::model::CiteKey;
use crate::store::StoreError;
pub use case_status::{CaseStatus, Validity};

/// Citations checked per verify request (public-api.md §8).
pub const MAX_CHECKED: usize = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Verified,
    Unverified,
    Unavailable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentType {
    Case,
    Statute,
    Regulation,
    Rule,
}

/// One citation checked (public-api.md §2.2, with `contentType` and the
/// `reason` for the status added).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckedCitation {
    pub citation: String,
    pub status: Status,
    pub content_type: Option<ContentType>,
    pub bluebook_citation: Option<String>,
    pub title: Option<String>,
    pub case_status: Option<CaseStatus>,
    pub source_url: Option<String>,
    pub reason: String,
}

impl CheckedCitation {
    /// The library cannot tell: nothing is claimed either way.
    pub fn unavailable(
        citation: String,
        content_type: Option<ContentType>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            citation,
            status: Status::Unavailable,
            content_type,
            bluebook_citation: None,
            title: None,
            case_status: None,
            source_url: None,
            reason: reason.into(),
        }
    }

    /// The library can say the authority, as cited, does not exist;
    /// `title` names what is really there, when something is.
    pub fn unverified(
        citation: String,
        content_type: Option<ContentType>,
        title: Option<String>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            status: Status::Unverified,
            title,
            ..Self::unavailable(citation, content_type, reason)
        }
    }

    /// A statute, regulation, rule or Constitution part the library holds,
    /// with its Bluebook form and official page.
    pub fn verified_law(
        citation: String,
        content_type: Option<ContentType>,
        bluebook_citation: Option<String>,
        source_url: String,
        reason: String,
    ) -> Self {
        Self {
            status: Status::Verified,
            bluebook_citation,
            source_url: Some(source_url),
            ..Self::unavailable(citation, content_type, reason)
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub total: usize,
    pub verified: usize,
    pub unverified: usize,
    pub unavailable: usize,
}

/// The answer of verify (public-api.md §2.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    pub citations: Vec<CheckedCitation>,
    pub stats: Stats,
    /// Citations found that are checked on their own, repeats included:
    /// full citations and short forms with no full citation before them.
    /// Zero means none were found, not that the document is clean.
    pub extracted_count: usize,
    /// More than [`MAX_CHECKED`] distinct citations were found.
    pub truncated: bool,
}

impl VerifyReport {
    /// The billed units: distinct citations checked.
    pub fn units(&self) -> u64 {
        self.citations.len() as u64
    }
}

/// Checks citations against one library; `public_url` is this server's
/// address, for links to its own case pages.
pub struct Verifier<'a> {
    pub library: &'a Library,
    pub public_url: &'a str,
}

impl Verifier<'_> {
    /// Finds every citation in `text` and checks the distinct ones (at
    /// most [`MAX_CHECKED`]).
    pub fn verify_text(&self, text: &str) -> Result<VerifyReport, StoreError> {
        self.verify_up_to(text, MAX_CHECKED)
    }

    /// Checks every distinct citation (for the operator's own tools).
    pub fn verify_all(&self, text: &str) -> Result<VerifyReport, StoreError> {
        self.verify_up_to(text, usize::MAX)
    }

    fn verify_up_to(&self, text: &str, limit: usize) -> Result<VerifyReport, StoreError> {
        let found = Extractor::shared().extract(text);
        let claims = claims(&found, text);
        let truncated = claims.len() > limit;
        let citations = self
            .library
            .store
            .read(|txn| -> Result<Vec<_>, StoreError> {
                claims
                    .iter()
                    .take(limit)
                    .map(|claim| self.check_claim(txn, &found, claim, text))
                    .collect()
            })?;
        Ok(VerifyReport {
            stats: stats(&citations),
            citations,
            extracted_count: found.iter().filter(|c| checked_as_written(c)).count(),
            truncated,
        })
    }

    /// Checks one claim at its first citation; when that verifies, a later
    /// pin the case cannot have makes the claim unverified (that citation's
    /// answer, naming the pin, is given), or unavailable when only an "Id."
    /// gives that pin.
    fn check_claim(
        &self,
        txn: &ReadTransaction,
        found: &[Citation],
        claim: &[Mention],
        text: &str,
    ) -> Result<CheckedCitation, StoreError> {
        let first = self.check_mention(txn, found, claim[0], text)?;
        if first.status != Status::Verified {
            return Ok(first);
        }
        let mut doubt = None;
        for &other in &claim[1..] {
            let checked = self.check_mention(txn, found, other, text)?;
            match checked.status {
                Status::Unverified => return Ok(checked),
                Status::Unavailable if matches!(other, Mention::PinOf { .. }) => {
                    doubt.get_or_insert(checked);
                }
                _ => {}
            }
        }
        Ok(doubt.unwrap_or(first))
    }

    fn check_mention(
        &self,
        txn: &ReadTransaction,
        found: &[Citation],
        mention: Mention,
        text: &str,
    ) -> Result<CheckedCitation, StoreError> {
        match mention {
            Mention::Written(index) => {
                checks::check(self.library, txn, self.public_url, found, index, text)
            }
            Mention::ListedPart {
                citation,
                part: (start, end),
            } => checks::check_listed_part(
                txn,
                &found[citation],
                &text[start..end],
                checks::list_text(found, citation, text),
            ),
            Mention::PinOf { full, short } => {
                let pin = found[short].pin_cite.as_deref();
                let mut checked = checks::check_at_pin(
                    self.library,
                    txn,
                    self.public_url,
                    found,
                    full,
                    pin,
                    text,
                )?;
                let written = found[short].text(text);
                // "Id." is taken to mean the authority cited just before,
                // and a short form with no name ("539 U.S., at 326") the
                // one case of its volume cited before it, which a document
                // does not always mean (a record, a page heading, a case
                // cited in full pages earlier): a pin outside the case
                // casts doubt on the pair, not proof on the case.
                let unnamed = found[short].kind == CitationKind::Id
                    || found[short].kind == CitationKind::ShortCase
                        && found[short].case_name.is_none();
                if unnamed && checked.status == Status::Unverified {
                    checked.status = Status::Unavailable;
                    checked.title = None;
                    checked.reason = format!(
                        "{written}: if it means this case, {}; check which authority it means",
                        checked.reason
                    );
                } else {
                    checked.reason = format!("{written}: {}", checked.reason);
                }
                Ok(checked)
            }
        }
    }

    /// Checks citation strings (resolve), on one snapshot of the library.
    /// Every citation of a string is checked as verify checks it, and the
    /// string gets the worst answer (see [`worst_of`]). `lenient` also
    /// takes a bare case name and looks it up by name.
    pub fn resolve(
        &self,
        texts: &[String],
        lenient: bool,
    ) -> Result<Vec<CheckedCitation>, StoreError> {
        let mut answers: Vec<Option<CheckedCitation>> = self.library.store.read(|txn| {
            texts
                .iter()
                .map(|text| {
                    let found = Extractor::shared().extract(text);
                    let parts = claims(&found, text)
                        .iter()
                        .map(|claim| self.check_claim(txn, &found, claim, text))
                        .collect::<Result<Vec<_>, StoreError>>()?;
                    Ok(worst_of(parts).map(|mut checked| {
                        checked.citation = text.clone();
                        checked
                    }))
                })
                .collect::<Result<Vec<_>, StoreError>>()
        })?;
        for (answer, text) in answers.iter_mut().zip(texts) {
            if answer.is_none() {
                *answer = Some(self.not_a_citation(text, lenient)?);
            }
        }
        Ok(answers.into_iter().flatten().collect())
    }

    fn not_a_citation(&self, text: &str, lenient: bool) -> Result<CheckedCitation, StoreError> {
        if lenient && let Some(checked) = checks::by_name(self.library, self.public_url, text)? {
            return Ok(checked);
        }
        let reason = if lenient {
            "no citation was recognised, and no case of that name is in the library"
        } else {
            "no citation was recognised (searchMode lenient also looks up case names)"
        };
        Ok(CheckedCitation::unavailable(text.to_string(), None, reason))
    }
}

/// The answer for a string of several citations: the worst of its parts
/// (`unverified`, then `unavailable`), its reason naming that part; the
/// first part's answer when all verify. `None` for no part.
fn worst_of(parts: Vec<CheckedCitation>) -> Option<CheckedCitation> {
    let severity = |status: Status| match status {
        Status::Verified => 0,
        Status::Unavailable => 1,
        Status::Unverified => 2,
    };
    let several = parts.len() > 1;
    let mut worst: Option<CheckedCitation> = None;
    for part in parts {
        if worst
            .as_ref()
            .is_none_or(|w| severity(part.status) > severity(w.status))
        {
            worst = Some(part);
        }
    }
    worst.map(|mut part| {
        if several {
            part.reason = format!("{}: {}", part.citation, part.reason);
        }
        part
    })
}

/// One place a claim's authority is cited in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mention {
    /// A citation checked as written: a full citation, or a short form
    /// with no full citation before it to stand for.
    Written(usize),
    /// A short form, "Id." or "supra" standing for the full case citation
    /// `full`, checked at its own pin page.
    PinOf { full: usize, short: usize },
    /// A further regulation part the law citation `citation` lists, at
    /// `part` in the text ("1635" of "29 C.F.R. Parts 1630 and 1635"),
    /// checked as if cited alone.
    ListedPart {
        citation: usize,
        part: (usize, usize),
    },
}

impl Mention {
    /// The citation written at this mention.
    fn citation(self) -> usize {
        match self {
            Mention::Written(i)
            | Mention::PinOf { short: i, .. }
            | Mention::ListedPart { citation: i, .. } => i,
        }
    }
}

/// Whether a citation is checked on its own: a full citation, or a short
/// form ("Henderson, 512 U.S. at 214") with no full citation before it,
/// which still names a volume, reporter and page.
fn checked_as_written(citation: &Citation) -> bool {
    citation.is_full() || citation.kind == CitationKind::ShortCase && citation.resolves_to.is_none()
}

/// The distinct claims of a document, in order of first appearance: for
/// each, its first citation, then each other pin page it is cited at (in
/// full again, or by a short form, "Id." or "supra"). A repeat counts once;
/// another name at an address already cited is another claim ("Smith v.
/// Jones, 347 U.S. 483" after Brown's), the same name again, or none, is
/// not, and neither is the same year again or none; another year is ("347
/// U.S. 483 (1955)" after "(1954)": one of them is wrong), and so is another
/// court ("(7th Cir. 2013)" after "(Ind. Ct. App. 2013)"; courts compared as
/// [`courts_differ`] does). A short form with no full citation before it is
/// a claim of its own.
fn claims(found: &[Citation], text: &str) -> Vec<Vec<Mention>> {
    let mut claims: Vec<Vec<Mention>> = Vec::new();
    let mut at_address: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    // The claim of each full citation, for the short forms that follow it.
    let mut claim_of: HashMap<usize, usize> = HashMap::new();
    for (i, citation) in found.iter().enumerate() {
        if !checked_as_written(citation) {
            let stands_for = citation
                .resolves_to
                .filter(|&full| found[full].kind == CitationKind::FullCase);
            if let Some(full) = stands_for
                && citation.pin_cite.is_some()
                && let Some(&claim) = claim_of.get(&full)
            {
                add_pin(&mut claims[claim], found, Mention::PinOf { full, short: i });
            }
            continue;
        }
        let list_text = checks::list_text(found, i, text);
        let address = identity(citation, list_text);
        let named = if citation.kind == CitationKind::ShortCase {
            // Short forms of one volume under one name cite one case, at
            // several pins.
            let volume = citation.volume.as_deref().unwrap_or("");
            let reporter = citation.reporter.unwrap_or("");
            let name = citation.case_name.as_deref().unwrap_or("");
            Some(format!(
                "{volume}|{reporter}|at|{}",
                normalize_case_name(name)
            ))
        } else {
            parties_key(citation).map(|parties| format!("{address}|{parties}"))
        };
        let candidates = match &named {
            Some(named) => by_name.get(named),
            None => at_address.get(&address),
        };
        // Compared with the claim's first citation.
        let same_claim = |&&claim: &&usize| {
            let first = &found[claims[claim][0].citation()];
            let same_year = match (first.year, citation.year) {
                (Some(first), Some(this)) => first == this,
                _ => true,
            };
            let other_court = match (first.court, citation.court) {
                (Some(first), Some(this)) => courts_differ(first, this),
                _ => false,
            };
            same_year && !other_court
        };
        let known = candidates.and_then(|claims| claims.iter().find(same_claim).copied());
        let claim = known.unwrap_or_else(|| {
            claims.push(Vec::new());
            let claim = claims.len() - 1;
            at_address.entry(address).or_default().push(claim);
            if let Some(named) = named {
                by_name.entry(named).or_default().push(claim);
            }
            claim
        });
        claim_of.insert(i, claim);
        add_pin(&mut claims[claim], found, Mention::Written(i));
        for part in checks::listed_parts(citation, list_text) {
            let address = identity(&checks::with_part(citation, &text[part.clone()]), list_text);
            if let Entry::Vacant(unclaimed) = at_address.entry(address) {
                unclaimed.insert(vec![claims.len()]);
                claims.push(vec![Mention::ListedPart {
                    citation: i,
                    part: (part.start, part.end),
                }]);
            }
        }
    }
    claims
}

/// Adds a mention to a claim unless one at the same pin and date (year,
/// court, a code's supplement) is there already: a later citation that
/// gives a date the first left out is checked with it too ("Terry v. Ohio,
/// 392 U.S. 1" in a table of authorities, then "(1975)" in the text).
fn add_pin(claim: &mut Vec<Mention>, found: &[Citation], mention: Mention) {
    let pin_of = |mention: &Mention| {
        let citation = &found[mention.citation()];
        (
            pin_key(citation),
            citation.year,
            citation.court,
            citation.supplement.as_deref(),
        )
    };
    let pin = pin_of(&mention);
    if !claim.iter().any(|m| pin_of(m) == pin) {
        claim.push(mention);
    }
}

/// A citation's pin page as written, spacing, case and "at" aside.
fn pin_key(citation: &Citation) -> String {
    let pin = citation.pin_cite.as_deref().unwrap_or("").trim();
    pin.strip_prefix("at ")
        .unwrap_or(pin)
        .split_whitespace()
        .collect::<String>()
        .to_lowercase()
}

/// What makes two citations in one document the same authority.
fn identity(citation: &Citation, text: &str) -> String {
    match (&citation.kind, citation.reporter, &citation.law) {
        (CitationKind::FullCase | CitationKind::Journal, Some(reporter), _) => {
            let volume = citation.volume.as_deref().unwrap_or("");
            let page = citation.page.as_deref().unwrap_or("");
            match (volume.parse(), page.parse()) {
                // The library's address: "1 Cranch 137" is 5 U.S. 137.
                (Ok(volume), Ok(page)) => {
                    let written = citation.reporter_found.as_deref().unwrap_or(reporter);
                    let key = CiteKey::new(volume, reporter, written, page);
                    // A wrong nominative volume ("5 U.S. (2 Cranch) 137") is
                    // a claim of its own, not the right one written again.
                    match checks::nominative_mismatch(key.volume, citation.text(text)) {
                        Some(_) if key.reporter == "U.S." => {
                            format!("{key}|{}", citation.text(text))
                        }
                        _ => key.to_string(),
                    }
                }
                _ => format!("{volume}|{reporter}|{page}"),
            }
        }
        // A rule's subdivisions are checked, so distinct ones are distinct
        // claims ("12(b)(6)", "12(b)(9)"); so are the sections a "§§" list
        // names after the one read.
        (CitationKind::Law, _, Some(law)) => format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}",
            law.code,
            law.title.as_deref().unwrap_or(""),
            law.section.as_deref().unwrap_or(""),
            law.part.as_deref().unwrap_or(""),
            law.article.as_deref().unwrap_or(""),
            law.amendment.as_deref().unwrap_or(""),
            law.clause.as_deref().unwrap_or(""),
            law.subsection
                .as_deref()
                .filter(|_| law.unit == "rule")
                .unwrap_or(""),
            checks::listed_after(citation, text).join(",")
        ),
        _ => citation.text(text).to_string(),
    }
}

/// The first word of each party of a case citation, folded: the same case
/// named in full and abbreviated ("Board of Education" / "Board of Educ.")
/// keeps one key, another case's name does not.
fn parties_key(citation: &Citation) -> Option<String> {
    if citation.kind != CitationKind::FullCase || citation.case_name.is_none() {
        return None;
    }
    let first_word = |party: &Option<String>| {
        party
            .as_deref()
            .and_then(|p| {
                p.split(|c: char| !c.is_alphanumeric())
                    .find(|w| !w.is_empty())
            })
            .map(str::to_lowercase)
            .unwrap_or_default()
    };
    Some(format!(
        "{}|{}",
        first_word(&citation.plaintiff),
        first_word(&citation.defendant)
    ))
}

pub fn stats(citations: &[CheckedCitation]) -> Stats {
    let mut stats = Stats {
        total: citations.len(),
        ..Stats::default()
    };
    for citation in citations {
        match citation.status {
            Status::Verified => stats.verified += 1,
            Status::Unverified => stats.unverified += 1,
            Status::Unavailable => stats.unavailable += 1,
        }
    }
    stats
}

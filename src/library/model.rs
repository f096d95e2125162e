//! What the library holds: cases (decisions) with their opinions and
//! citations, and authorities that are not cases (rules, code sections,
//! regulations). `data-schema/library.md` documents the model.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A citation's address in a reporter: (volume, canonical reporter, page).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CiteKey {
    pub volume: u32,
    pub reporter: String,
    pub page: u32,
}

impl fmt::Display for CiteKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.volume, self.reporter, self.page)
    }
}

/// One citation of a case, as the source gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseCitation {
    /// The citation as printed, e.g. "347 U.S. 483" or "2013-Ohio-55".
    pub cite: String,
    /// Its reporter address, when it has numeric volume and page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<CiteKey>,
    /// The last page of the case in that reporter, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_page: Option<u32>,
}

/// How an opinion's text is stored (public-api.md §2.7 `Body.format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BodyFormat {
    Html,
    Markdown,
    Text,
}

/// One writing within a decision: majority, dissent, concurrence…
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpinionMeta {
    pub number: u32,
    /// CourtListener's opinion type words (`combined`, `lead`, `dissent`, …)
    /// or CAP's (`majority`, `dissent`, `concurrence`).
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    pub format: BodyFormat,
    /// Where the text came from (source name, and its id there).
    pub provenance: Provenance,
    pub chars: u64,
    /// Hash of the text, so that re-importing an unchanged opinion changes
    /// nothing (and is not read into the citation graph twice).
    #[serde(default)]
    pub text_hash: u64,
}

/// A source and the id of the record there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    pub source: String,
    pub id: String,
}

/// A decision.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseRecord {
    /// Stable id: `<first source>-<its id there>`, e.g. `scdb-1953-089`.
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_short: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_abbreviation: Option<String>,
    /// courts-db id (CourtListener court id), e.g. `scotus`, `ca9`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<String>,
    /// ISO date; may be only a year or a year and month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_date: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub docket_numbers: Vec<String>,
    #[serde(default)]
    pub citations: Vec<CaseCitation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precedential_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judges: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syllabus: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_matter: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default)]
    pub opinions: Vec<OpinionMeta>,
    /// The external page of the decision (court site, CourtListener, CAP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// Every source that contributed to this record.
    #[serde(default)]
    pub provenance: Vec<Provenance>,
}

impl CaseRecord {
    /// The year of decision, when the date has one.
    pub fn year(&self) -> Option<i32> {
        self.decision_date.as_deref()?.get(..4)?.parse().ok()
    }

    pub fn has_text(&self) -> bool {
        !self.opinions.is_empty()
    }

    /// Fills what this record lacks from `other` (a later source on the same
    /// decision) and adds what it has that this one does not.
    pub fn merge(&mut self, other: CaseRecord) {
        fn fill(mine: &mut Option<String>, theirs: Option<String>) {
            if mine.as_deref().is_none_or(str::is_empty) {
                *mine = theirs.filter(|t| !t.is_empty());
            }
        }
        if self.name.is_empty() {
            self.name = other.name;
        }
        fill(&mut self.name_short, other.name_short);
        fill(&mut self.name_abbreviation, other.name_abbreviation);
        fill(&mut self.court, other.court);
        fill(&mut self.decision_date, other.decision_date);
        fill(&mut self.precedential_status, other.precedential_status);
        fill(&mut self.judges, other.judges);
        fill(&mut self.syllabus, other.syllabus);
        fill(&mut self.head_matter, other.head_matter);
        fill(&mut self.summary, other.summary);
        fill(&mut self.source_url, other.source_url);
        for docket in other.docket_numbers {
            if !self.docket_numbers.contains(&docket) {
                self.docket_numbers.push(docket);
            }
        }
        for citation in other.citations {
            let known = self
                .citations
                .iter_mut()
                .find(|c| c.cite == citation.cite || (c.key.is_some() && c.key == citation.key));
            match known {
                Some(known) => {
                    if known.last_page.is_none() {
                        known.last_page = citation.last_page;
                    }
                }
                None => self.citations.push(citation),
            }
        }
        for source in other.provenance {
            if !self.provenance.contains(&source) {
                self.provenance.push(source);
            }
        }
    }
}

/// An opinion about to be stored.
#[derive(Debug, Clone)]
pub struct NewOpinion {
    pub kind: String,
    pub author: Option<String>,
    pub format: BodyFormat,
    pub text: String,
    pub provenance: Provenance,
}

/// A case about to be stored. Its `record.provenance` says which source
/// brought it (and makes re-imports idempotent); `record.opinions` is filled
/// from `opinions` when stored.
#[derive(Debug, Clone, Default)]
pub struct NewCase {
    pub record: CaseRecord,
    pub opinions: Vec<NewOpinion>,
}

/// The codes and rule sets an authority can belong to.
pub mod codes {
    pub const USC: &str = "usc";
    pub const CFR: &str = "cfr";
    pub const FRCP: &str = "frcp";
    pub const FRCRP: &str = "frcrp";
    pub const FRE: &str = "fre";
    pub const FRAP: &str = "frap";
    pub const SUP_CT_R: &str = "supctr";
}

/// An authority that is not a case: a rule, a code section, a regulation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Authority {
    /// One of [`codes`].
    pub code: String,
    /// Title number for codes (`42`), empty for rule sets.
    pub title: String,
    /// Section or rule number (`1983`, `12`, `1910.1200`).
    pub section: String,
    pub heading: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// `live`, or the status a dead section carries (repealed, transferred…).
    pub status: String,
    pub source: String,
}

impl Authority {
    /// The id the API uses for it, e.g. `usc/42/1983`, `frcp/12`.
    pub fn id(&self) -> String {
        if self.title.is_empty() {
            format!("{}/{}", self.code, self.section)
        } else {
            format!("{}/{}/{}", self.code, self.title, self.section)
        }
    }
}

/// How completely the library holds a code title or rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LawCoverage {
    /// Every live section (or rule) is held: a number not held is not live.
    pub live_complete: bool,
    /// Dead sections (repealed, transferred…) are held too: a number not
    /// held never existed (for rule sets: is above the highest rule).
    pub history_complete: bool,
    /// For rule sets: the highest rule number; a number above it cannot exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highest: Option<u32>,
    pub sections: u64,
    pub source: String,
}

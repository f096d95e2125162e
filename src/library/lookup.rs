//! What the library can say about a citation: the case(s) or authority it
//! names, or — when it names nothing held — whether that is because the
//! library holds the whole volume (or code title) and nothing is there, or
//! because the library cannot tell.

use redb::ReadTransaction;
use serde::Serialize;

use super::model::{Authority, CaseRecord, CiteKey, codes, numbers_documents};
use super::store;
use crate::store::StoreError;

/// The answer for a reporter citation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "verdict")]
pub enum CaseLookup {
    /// Cases that start at the page, or (`byPageRange`) the case whose pages
    /// run over it. Several ids: the citation is ambiguous.
    Found {
        cases: Vec<String>,
        by_page_range: bool,
    },
    /// The library holds this volume completely and no case starts or runs
    /// at this page (before the volume's first case, or between a case's
    /// last page and the next case).
    Absent { source: String },
    /// The library does not hold this volume completely: it cannot tell.
    NotHeld,
    /// The library holds this volume, but its sources do not say what is
    /// printed at this page: it is past the last case they list, in front
    /// of the first, in a gap between cases too wide to be empty, past the
    /// pages the case before it can run to, or where an order they do not
    /// list may be printed.
    Unplaced { source: String },
}

/// The answer for a statute, regulation or rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "verdict")]
pub enum AuthorityLookup {
    Found {
        authority: Authority,
    },
    /// It cannot exist: past the last rule of a set, or missing from a code
    /// title held with its history.
    Absent {
        reason: String,
    },
    /// The library cannot tell; `reason` says why.
    NotHeld {
        reason: String,
    },
}

/// Looks up a reporter citation: its first page, or the case whose known
/// page range holds `page` when no case starts there.
pub fn find_case(txn: &ReadTransaction, key: &CiteKey) -> Result<CaseLookup, StoreError> {
    let at = store::cases_at(txn, key)?;
    if !at.is_empty() {
        return Ok(CaseLookup::Found {
            cases: at,
            by_page_range: false,
        });
    }
    // A Westlaw or LEXIS number, a neutral citation's or an order's names
    // one document: no other document runs over it, and no volume is whole.
    if numbers_documents(&key.reporter) {
        return Ok(CaseLookup::NotHeld);
    }
    let held = store::volume_coverage(txn, &key.reporter, key.volume)?;
    let before = store::case_starting_before(txn, &key.reporter, key.volume, key.page)?;
    // Whether every case starting before the page is known to end before
    // it, and the last page they run to.
    let mut all_end_before = true;
    let mut ended_at = 0;
    if let Some((first_page, ids)) = &before {
        let mut holding = Vec::new();
        for id in ids {
            let Some(case) = store::case(txn, id)? else {
                continue;
            };
            let last = case
                .citations
                .iter()
                .filter(|c| {
                    c.key.as_ref().is_some_and(|k| {
                        k.reporter == key.reporter
                            && k.volume == key.volume
                            && k.page == *first_page
                    })
                })
                .find_map(|c| c.last_page);
            match last {
                Some(last) if key.page <= last => holding.push(id.clone()),
                Some(last) => ended_at = ended_at.max(last),
                None => all_end_before = false,
            }
        }
        if !holding.is_empty() {
            return Ok(CaseLookup::Found {
                cases: holding,
                by_page_range: true,
            });
        }
    }
    let Some(source) = held else {
        return Ok(CaseLookup::NotHeld);
    };
    let Some((first_page, ids)) = before else {
        // Before the first case: only a bulk dump has the volume's front,
        // and only when its first case starts there.
        let first_case = store::next_case_page(txn, &key.reporter, key.volume, 0)?;
        let front_accounted_for = first_case.is_some_and(|first| first <= UNACCOUNTED_PAGES + 1);
        return Ok(if is_bulk_dump(&source) && front_accounted_for {
            CaseLookup::Absent { source }
        } else {
            CaseLookup::Unplaced { source }
        });
    };
    // Past the last case the library does not know where the volume ends
    // (order pages may follow).
    let Some(next_case) = store::next_case_page(txn, &key.reporter, key.volume, first_page)? else {
        return Ok(CaseLookup::Unplaced { source });
    };
    Ok(if all_end_before {
        // After the case's last page and before the next case: empty in a
        // bulk dump, unless too many pages lie between for that.
        let between = next_case.saturating_sub(ended_at + 1);
        if is_bulk_dump(&source) && between <= UNACCOUNTED_PAGES {
            CaseLookup::Absent { source }
        } else {
            CaseLookup::Unplaced { source }
        }
    } else if lists_every_start(&source, key) {
        // The pages up to the next case belong to the case before them, as
        // far as a case can run.
        if past_every_case_at(txn, key, &ids, key.page - first_page)? {
            CaseLookup::Unplaced { source }
        } else {
            CaseLookup::Found {
                cases: ids,
                by_page_range: true,
            }
        }
    } else {
        CaseLookup::Unplaced { source }
    })
}

/// Whether a page `past` pages after the first page of each of `ids` (in
/// `key`'s reporter) is farther than each of them can run
/// ([`pages_at_most`]).
fn past_every_case_at(
    txn: &ReadTransaction,
    key: &CiteKey,
    ids: &[String],
    past: u32,
) -> Result<bool, StoreError> {
    for id in ids {
        let Some(case) = store::case(txn, id)? else {
            continue;
        };
        if pages_at_most(txn, &case, &key.reporter)?.is_none_or(|most| past <= most) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How many pages past its first page in `reporter` a case can run, when
/// its parallel citations tell: for the U.S. Reports, when the library
/// knows where its S. Ct. or its L. Ed. citation ends (or where the next
/// case starts there). SCDB gives no last pages, and a
/// volume's decisions are followed by its orders, which SCDB does not list:
/// "514 U.S. 938, 1075" would otherwise be a page of First Options v.
/// Kaplan, which runs 7 pages in the S. Ct. The longer of the two counts,
/// so that where both are known one wrong citation in a source cannot cut
/// a case short (SCDB puts another decision 7 pages into Citizens United's
/// 105 in the S. Ct.).
pub fn pages_at_most(
    txn: &ReadTransaction,
    case: &CaseRecord,
    reporter: &str,
) -> Result<Option<u32>, StoreError> {
    // Measured for the U.S. Reports alone; other reporters' pages compare
    // otherwise with their parallels'.
    if reporter != "U.S." {
        return Ok(None);
    }
    let (mut sct, mut led) = (None, None);
    for citation in &case.citations {
        let Some(key) = &citation.key else {
            continue;
        };
        let slot = match key.reporter.as_str() {
            "S. Ct." => &mut sct,
            "L. Ed." | "L. Ed. 2d" => &mut led,
            _ => continue,
        };
        if slot.is_some() {
            continue;
        }
        *slot = match citation.last_page {
            Some(last) => Some(last.saturating_sub(key.page).saturating_add(1)),
            None => store::next_case_page(txn, &key.reporter, key.volume, key.page)?
                .map(|next| next - key.page),
        };
    }
    Ok(sct.max(led).map(|pages| {
        pages
            .saturating_mul(US_PAGES_PER_PARALLEL_PAGE)
            .saturating_add(US_PAGES_PAST_PARALLELS)
    }))
}

/// U.S. Reports pages to a page of the S. Ct. or the L. Ed., at most. Over
/// SCDB's decisions whose next decision is the same in both reporters,
/// U.S. pages per S. Ct. page are 1.8 at the median and 3.0 at the 99th
/// percentile (spans of a page or two, where rounding counts); per L. Ed.
/// 2d page 1.25 at the median.
const US_PAGES_PER_PARALLEL_PAGE: u32 = 3;

/// Pages a U.S. Reports case may run past what its parallels allow
/// ([`US_PAGES_PER_PARALLEL_PAGE`]): the syllabus, the opinions' heads.
const US_PAGES_PAST_PARALLELS: u32 = 5;

/// Pages of a volume a bulk dump holds that may lie before its first case,
/// or between one case's last page and the next case, without a case the
/// dump lacks being printed there (a blank page, a page of a table). In a
/// real volume consecutive cases share a page or follow on the next; a
/// wider gap, or a first case further in, is where a sample imported as a
/// whole dump ("the last ten cases of 359 Ill. App. 3d", from page 921)
/// lacks cases, and the library cannot tell what is printed there.
const UNACCOUNTED_PAGES: u32 = 2;

/// A bulk dump (CourtListener, CAP) carries every case of its volumes.
fn is_bulk_dump(source: &str) -> bool {
    source == super::import::courtlistener::SOURCE || source == super::import::cap::SOURCE
}

/// Whether the source names every page of a volume where a case starts, so
/// a page between two cases belongs to the first. A bulk dump does, and the
/// dates index and SCDB together do. Either list alone does not: the dates
/// index misses ~4% of SCDB's decisions of volumes 329–546, and SCDB lists
/// no orders (~8% of the gaps between its decisions hold one). From
/// [`US_ORDERS_APART_FROM`] on, SCDB's list alone does.
fn lists_every_start(source: &str, key: &CiteKey) -> bool {
    is_bulk_dump(source)
        || source == super::import::default::US_REPORTS_LISTS
        || (source == super::import::scdb::SOURCE
            && key.reporter == "U.S."
            && key.volume >= US_ORDERS_APART_FROM)
}

/// The first volume of the U.S. Reports whose orders are printed apart from
/// its decisions, so a page between two of SCDB's decisions belongs to the
/// first. Measured against the dates index: in volumes 329–449, 297 of
/// 4,728 gaps between SCDB's decisions hold another document; in 450–546,
/// 5 of 2,944 (0.2 %).
const US_ORDERS_APART_FROM: u32 = 450;

/// The sections a section reference names, as the library holds them: the
/// first and, for a range, the last ("§§ 1981–1983"). A dash may also join
/// one section number: the Code prints § 1962-3 as "§ 1962–3", which reads
/// as §§ 1962 to 1963 written short too. Under one section sign the
/// reference is the section the library holds by that whole number; under
/// "§§" (`several`) it is always a range.
pub fn sections_named(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
    section: &str,
    several: bool,
) -> Result<(String, Option<String>), StoreError> {
    let Some((first, last)) = crate::citations::section_range(section, several) else {
        return Ok((section.to_string(), None));
    };
    let whole = crate::citations::one_section(section);
    if !several && store::authority(txn, code, title, &whole)?.is_some() {
        return Ok((whole, None));
    }
    Ok((first.to_string(), Some(last.to_string())))
}

/// Looks up a code section, regulation or rule.
pub fn find_authority(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
    section: &str,
) -> Result<AuthorityLookup, StoreError> {
    if let Some(authority) = store::authority(txn, code, title, section)? {
        return Ok(AuthorityLookup::Found { authority });
    }
    if let Some(reason) = title_out_of_range(code, title) {
        return Ok(AuthorityLookup::Absent { reason });
    }
    let Some(coverage) = store::law_coverage(txn, code, title)? else {
        return Ok(AuthorityLookup::NotHeld {
            reason: "the library does not hold this title".into(),
        });
    };
    if let Some(reason) = leading_number(section).and_then(|n| coverage.rule_number_fault(n)) {
        return Ok(AuthorityLookup::Absent { reason });
    }
    // Even a title held with its repealed and moved sections is held as
    // numbered now: a title enacted into positive law was renumbered
    // (41 U.S.C. in 2011: § 253 is now § 3301), so a number not held may
    // be an earlier edition's.
    let reason = match (coverage.live_complete, coverage.history_complete) {
        (true, true) => {
            "the library holds this title as numbered now, with its repealed and moved sections, and an earlier edition may have used this number"
        }
        (true, false) => {
            "the library holds this title's live sections only; a section not held may have been repealed or moved"
        }
        _ => "the library holds only part of this title or set",
    };
    Ok(AuthorityLookup::NotHeld {
        reason: reason.into(),
    })
}

/// The sections the library holds of a regulation part cited whole ("29
/// C.F.R. pt. 1630" holds § 1630.1, § 1630.2, …), in section order. No
/// CFR title is held with its history, so when none is held the part may
/// still exist (reserved, moved, or in a title not held): `NotHeld`.
pub fn find_part(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
    part: &str,
) -> Result<PartLookup, StoreError> {
    if let Some(reason) = title_out_of_range(code, title) {
        return Ok(PartLookup::Absent { reason });
    }
    let prefix = format!("{part}.");
    let mut sections = store::authorities_with_prefix(txn, code, title, &prefix)?;
    // § 1630.2 before § 1630.10.
    sections.sort_by_cached_key(|authority| {
        let number = authority.section[prefix.len()..].to_string();
        (leading_number(&number).unwrap_or(u32::MAX), number)
    });
    Ok(if sections.is_empty() {
        PartLookup::NotHeld
    } else {
        PartLookup::Found { sections }
    })
}

/// The answer for a regulation part cited whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartLookup {
    Found { sections: Vec<Authority> },
    Absent { reason: String },
    NotHeld,
}

/// Why a code has no such title, when it numbers its titles.
fn title_out_of_range(code: &str, title: &str) -> Option<String> {
    let last = last_title(code)?;
    let number = title.parse::<u32>().ok().filter(|t| (1..=last).contains(t));
    match number {
        None => Some(format!("its titles are numbered 1 to {last}")),
        Some(number) if code == codes::USC && number == USC_RESERVED_TITLE => Some(format!(
            "title {USC_RESERVED_TITLE} of the U.S. Code is reserved: no section has been enacted in it"
        )),
        Some(_) => None,
    }
}

/// The one title number of the U.S. Code below its last that no law has
/// filled: the Office of the Law Revision Counsel lists it as
/// "[Reserved]".
const USC_RESERVED_TITLE: u32 = 53;

/// The last title of a code: 54 of the U.S. Code, 50 of the CFR.
fn last_title(code: &str) -> Option<u32> {
    match code {
        codes::USC => Some(54),
        codes::CFR => Some(50),
        _ => None,
    }
}

/// The number a section or rule starts with; one too large for a `u32` is
/// `u32::MAX`, past any set's last rule.
fn leading_number(section: &str) -> Option<u32> {
    let digits: String = section.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty()).then(|| digits.parse().unwrap_or(u32::MAX))
}

/// The Bluebook form of an authority's citation.
pub fn authority_citation(authority: &Authority) -> String {
    let section = &authority.section;
    match authority.code.as_str() {
        codes::USC => format!("{} U.S.C. § {section}", authority.title),
        codes::CFR => format!("{} C.F.R. § {section}", authority.title),
        codes::FRCP => format!("Fed. R. Civ. P. {section}"),
        codes::FRCRP => format!("Fed. R. Crim. P. {section}"),
        codes::FRE => format!("Fed. R. Evid. {section}"),
        codes::FRAP => format!("Fed. R. App. P. {section}"),
        codes::SUP_CT_R => format!("Sup. Ct. R. {section}"),
        other => format!("{other} {} {section}", authority.title),
    }
}

/// What a citation string was read as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum CitationQuery {
    Case {
        key: CiteKey,
    },
    Authority {
        code: String,
        title: String,
        section: String,
    },
    /// A regulation part cited whole ("29 C.F.R. pt. 1630").
    Part {
        code: String,
        title: String,
        part: String,
    },
    /// A reporter cited in a series the reporter data does not list ("16
    /// L. Ed. 3d 694"): `published` are the series it lists.
    #[serde(rename_all = "camelCase")]
    UnlistedSeries {
        reporter: String,
        published: Vec<String>,
        may_be_newer: bool,
    },
}

/// A case in a lookup or search answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseSummary {
    pub case_id: String,
    pub name: String,
    pub court: Option<String>,
    pub decision_date: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub docket_numbers: Vec<String>,
    pub citations: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub companion_names: Vec<String>,
    pub source_url: Option<String>,
    pub has_text: bool,
    /// The decisions that overruled it, as the library's overruling tables
    /// list them: a case looked up is not always good law.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overruled_by: Vec<OverruledBy>,
}

/// A decision that overruled a case, in a lookup's answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverruledBy {
    pub name: String,
    pub citation: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// "in part", "plurality opinion"… when the table qualifies it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
}

impl From<store::Overruling> for OverruledBy {
    fn from(overruling: store::Overruling) -> Self {
        Self {
            name: overruling.by_name,
            citation: overruling.by_citation,
            case_id: overruling.by_case_id,
            year: overruling.year,
            qualifier: overruling.qualifier,
        }
    }
}

impl CaseSummary {
    /// The summary of a stored case, with the decisions that overruled it.
    fn of(txn: &ReadTransaction, case: &CaseRecord) -> Result<Self, StoreError> {
        Ok(Self {
            case_id: case.id.clone(),
            name: case.name.clone(),
            court: case.court.clone(),
            decision_date: case.decision_date.clone(),
            docket_numbers: case.docket_numbers.clone(),
            citations: case.citations.iter().map(|c| c.cite.clone()).collect(),
            companion_names: case.companion_names.clone(),
            source_url: case.source_url.clone(),
            has_text: case.has_text(),
            overruled_by: store::overrulings(txn, &case.id)?
                .into_iter()
                .map(OverruledBy::from)
                .collect(),
        })
    }
}

/// The answer of `lexstack library lookup`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupReport {
    pub query: String,
    pub read_as: Option<CitationQuery>,
    pub verdict: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<CaseSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authority: Option<Authority>,
    /// The sections held of a regulation part cited whole.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<Authority>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The string's other citations (not parallels of the one read), which
    /// a lookup of their own answers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_looked_up: Vec<String>,
}

/// Answers a parsed citation from the library.
pub fn report(
    txn: &ReadTransaction,
    text: &str,
    query: Option<CitationQuery>,
) -> Result<LookupReport, StoreError> {
    let mut report = LookupReport {
        query: text.to_string(),
        read_as: query.clone(),
        verdict: "unparsed".into(),
        cases: Vec::new(),
        authority: None,
        sections: Vec::new(),
        detail: None,
        not_looked_up: Vec::new(),
    };
    match query {
        None => {
            report.detail = Some(
                "no citation was read here: write a case's volume, reporter and page (\"347 U.S. \
                 483\"), a code section (\"42 U.S.C. § 1983\"), a regulation (\"29 C.F.R. § \
                 1630.2\") or a rule (\"Fed. R. Civ. P. 12\"); a citation without its page \
                 (\"581 U.S. ___\") names no case"
                    .into(),
            );
        }
        Some(CitationQuery::Case { key }) => match find_case(txn, &key)? {
            CaseLookup::Found {
                cases,
                by_page_range,
            } => {
                report.verdict = if by_page_range {
                    "found_by_page_range"
                } else {
                    "found"
                }
                .into();
                for id in cases {
                    if let Some(case) = store::case(txn, &id)? {
                        report.cases.push(CaseSummary::of(txn, &case)?);
                    }
                }
                if report.cases.len() > 1 {
                    report.detail = Some(format!(
                        "{} cases are at this page: the citation alone is ambiguous (the name \
                         written with it tells them apart; `library verify` checks it)",
                        report.cases.len()
                    ));
                }
            }
            CaseLookup::Absent { source } => {
                report.verdict = "not_in_held_volume".into();
                report.detail = Some(format!(
                    "the library holds this volume completely ({source}); no case starts or runs at this page"
                ));
            }
            CaseLookup::NotHeld => {
                report.verdict = "volume_not_held".into();
                report.detail = Some("the library does not hold this volume completely".into());
            }
            CaseLookup::Unplaced { source } => {
                report.verdict = "page_not_placed".into();
                report.detail = Some(format!(
                    "the library holds this volume ({source}) but cannot tell what is printed at this page: past its last known case, before its first, in a gap between its cases too wide to be empty, past the pages the case before it can run to, or where an unlisted order may be"
                ));
            }
        },
        Some(CitationQuery::Authority {
            code,
            title,
            section,
        }) => match find_authority(txn, &code, &title, &section)? {
            AuthorityLookup::Found { authority } => {
                report.verdict = "found".into();
                report.authority = Some(authority);
            }
            AuthorityLookup::Absent { reason } => {
                report.verdict = "cannot_exist".into();
                report.detail = Some(reason);
            }
            AuthorityLookup::NotHeld { reason } => {
                report.verdict = "not_held".into();
                report.detail = Some(format!("the library cannot tell: {reason}"));
            }
        },
        Some(CitationQuery::Part { code, title, part }) => {
            match find_part(txn, &code, &title, &part)? {
                PartLookup::Found { sections } => {
                    report.verdict = "found".into();
                    report.sections = sections;
                }
                PartLookup::Absent { reason } => {
                    report.verdict = "cannot_exist".into();
                    report.detail = Some(reason);
                }
                PartLookup::NotHeld => {
                    report.verdict = "not_held".into();
                    report.detail = Some(format!(
                        "the library holds no section of part {part}, so it cannot tell"
                    ));
                }
            }
        }
        Some(CitationQuery::UnlistedSeries {
            reporter,
            published,
            may_be_newer,
        }) => {
            report.verdict = if may_be_newer {
                "not_held"
            } else {
                "cannot_exist"
            }
            .into();
            report.detail = Some(unlisted_series_reason(&reporter, &published, may_be_newer));
        }
    }
    Ok(report)
}

/// What the reporter data says of a series it does not list.
pub fn unlisted_series_reason(
    reporter: &str,
    published: &[impl AsRef<str>],
    may_be_newer: bool,
) -> String {
    // Reporters that share a name ("Wash." of the territory and the state)
    // list their series once.
    let mut series: Vec<&str> = Vec::with_capacity(published.len());
    for name in published.iter().map(AsRef::as_ref) {
        if !series.contains(&name) {
            series.push(name);
        }
    }
    let published = series.join(", ");
    if may_be_newer {
        format!(
            "{reporter} is not in the reporter data, which lists {published}, the last still running: \
             a series begun since, or a mistake; check it"
        )
    } else {
        format!(
            "no such reporter series: {reporter} does not exist (the series of that reporter are {published})"
        )
    }
}

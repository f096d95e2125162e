//! The Supreme Court Database (SCDB) case-centred CSV: one row per case,
//! with its U.S., S. Ct., L. Ed. and LEXIS citations; or its docket-level
//! form, one row per docket, where a case decided with others under one
//! citation has a row for each (`docketId` = the `caseId` and the docket's
//! number, the lead's `01`; the citation-level file has the lead's only):
//! the other rows give the companions' names.

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::path::Path;

use super::csv::{CsvReader, Dialect, Row};
use super::{
    FirstSeen, ImportError, ImportReport, Progress, checkpoint_key, date_numbers, decision_date,
    iso_date, normalize_docket, open_input, parse_simple_cite, run_batches, unpaged_volume,
    warn_recoded,
};
use crate::library::model::{CaseCitation, CaseRecord, NewCase, Provenance};
use crate::library::store::LibraryWriter;
use crate::store::Store;

/// SCDB publishes every decision of a term, so a U.S. Reports volume whose
/// terms SCDB has fully paginated is held (up to the last case page of the
/// volume; the order pages after it are not in SCDB).
pub const SOURCE: &str = "scdb";

pub fn import_file(store: &Store, path: &Path) -> Result<ImportReport, ImportError> {
    let scan = open_input(path)?;
    let survey = survey(path, scan.reader);
    if let Some(unreadable) = scan.meter.unreadable(path) {
        return Err(unreadable);
    }
    let survey = survey?;
    let input = open_input(path)?;
    let mut progress = Progress::new("scdb", input.meter.clone(), input.size);
    let key = checkpoint_key(SOURCE, path, input.size);
    let mut report = ImportReport::new(SOURCE);
    let outcome = import_reader(
        store,
        path,
        &key,
        input.reader,
        &survey,
        &mut progress,
        &mut report,
    );
    report.end_one_file(outcome)?;
    Ok(report)
}

/// What a first reading of a whole SCDB file tells about each row: the
/// U.S. volumes it holds completely, and the L. Ed. volumes its decisions
/// are in, to catch a cite far from its neighbours'.
pub struct Survey {
    /// Every case of every term in the volume has its U.S. cite, and SCDB
    /// has cases in the next volume too (the newest paginated volume may
    /// still be missing cases of the next term).
    pub held_volumes: BTreeSet<u32>,
    /// L. Ed. volumes (sorted) by series and by the decisions' U.S. volume
    /// or term.
    led_volumes: BTreeMap<(String, LedGroup), Vec<u32>>,
    /// The S. Ct. pages of each volume's decisions, with the day each was
    /// decided ([`day_number`]).
    sct_pages: BTreeMap<u32, BTreeSet<(i32, u32)>>,
}

/// The decisions an L. Ed. cite is compared with: those of its U.S. volume
/// (one or two L. Ed. volumes), or of its term (three or four) when it has
/// no U.S. cite yet.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum LedGroup {
    UsVolume(u32),
    Term(String),
}

impl LedGroup {
    /// How many volumes from the group's median a cite may be.
    fn reach(&self) -> u32 {
        match self {
            LedGroup::UsVolume(_) => 2,
            LedGroup::Term(_) => 4,
        }
    }
}

/// Reads a whole SCDB file once for its [`Survey`].
pub fn survey(name: &Path, reader: impl BufRead) -> Result<Survey, ImportError> {
    let csv = CsvReader::new(reader, Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let [us, term, led] = required_columns(&csv, ["usCite", "term", "ledCite"])
        .map_err(|missing| not_scdb(name, &missing))?;
    let (sct, date) = (csv.column("sctCite"), csv.column("dateDecision"));
    let mut unpaginated_terms = BTreeSet::new();
    let mut volume_terms: BTreeMap<u32, BTreeSet<String>> = BTreeMap::new();
    let mut led_volumes: BTreeMap<(String, LedGroup), Vec<u32>> = BTreeMap::new();
    let mut sct_pages: BTreeMap<u32, BTreeSet<(i32, u32)>> = BTreeMap::new();
    for row in csv.flatten() {
        let sct_key = sct
            .and_then(|column| row.field(column))
            .and_then(|cite| column_citation(cite, "sctCite", &["S. Ct."]).ok())
            .and_then(|cite| cite.key);
        let day = date
            .and_then(|column| row.field(column))
            .and_then(us_date_to_iso)
            .and_then(|iso| day_number(&iso));
        if let (Some(key), Some(day)) = (sct_key, day) {
            sct_pages
                .entry(key.volume)
                .or_default()
                .insert((day, key.page));
        }
        let term_value = row.field(term).unwrap_or_default().trim().to_string();
        let us_cite = row
            .field(us)
            .and_then(|cite| column_citation(cite, "usCite", &["U.S."]).ok());
        let volume = us_cite
            .as_ref()
            .and_then(|c| c.key.as_ref())
            .map(|k| k.volume);
        let led_key = row
            .field(led)
            .and_then(|cite| column_citation(cite, "ledCite", LED_REPORTERS).ok())
            .and_then(|cite| fix_led_series(cite, us_cite.as_ref()).key);
        if let Some(key) = led_key {
            let groups = volume
                .map(LedGroup::UsVolume)
                .into_iter()
                .chain([LedGroup::Term(term_value.clone())]);
            for group in groups {
                led_volumes
                    .entry((key.reporter.clone(), group))
                    .or_default()
                    .push(key.volume);
            }
        }
        match volume {
            Some(volume) => {
                volume_terms.entry(volume).or_default().insert(term_value);
            }
            None => {
                unpaginated_terms.insert(term_value);
            }
        }
    }
    for volumes in led_volumes.values_mut() {
        volumes.sort_unstable();
    }
    let held_volumes = volume_terms
        .iter()
        .filter(|(volume, terms)| {
            terms.iter().all(|t| !unpaginated_terms.contains(t))
                && volume_terms.contains_key(&(**volume + 1))
        })
        .map(|(volume, _)| *volume)
        .collect();
    Ok(Survey {
        held_volumes,
        led_volumes,
        sct_pages,
    })
}

/// An ISO date as a count of days, to compare dates by how far apart they
/// are.
fn day_number(iso: &str) -> Option<i32> {
    use chrono::Datelike;
    chrono::NaiveDate::parse_from_str(iso, "%Y-%m-%d")
        .ok()
        .map(|date| date.num_days_from_ce())
}

impl Survey {
    /// Why an S. Ct. cite cannot be its decision's, when it cannot: the
    /// Supreme Court Reporter prints a term's documents in the order they
    /// came down, and the cite is on a page before those of several
    /// decisions of months earlier. SCDB has a few such cites of the grant
    /// of certiorari in the decision's own volume ("135 S. Ct. 44" for Baker
    /// Botts v. ASARCO, decided in June 2015 and printed at 2158).
    fn sct_page_misfit(&self, sct: &CaseCitation, date: Option<&str>) -> Option<String> {
        /// Decisions of months earlier printed after it that make a cite
        /// misplaced: one could be a misplaced cite itself.
        const FEWEST_EARLIER: usize = 3;
        const DAYS_EARLIER: i32 = 45;
        const PAGES_AFTER: u32 = 50;
        let key = sct.key.as_ref()?;
        let day = day_number(date?)?;
        let earlier_printed_after = self
            .sct_pages
            .get(&key.volume)?
            .iter()
            .filter(|(other_day, page)| {
                other_day + DAYS_EARLIER < day && *page > key.page + PAGES_AFTER
            })
            .count();
        (earlier_printed_after >= FEWEST_EARLIER).then(|| {
            format!(
                "sctCite {} is printed before {earlier_printed_after} decisions of more than \
                 {DAYS_EARLIER} days earlier in its volume, so it is not this decision's page \
                 (SCDB gives a few of a grant of certiorari): the case is stored without it",
                sct.cite
            )
        })
    }

    /// Why an L. Ed. cite cannot be its decision's, when it cannot: its
    /// volume is far from where the other decisions of its U.S. volume (or,
    /// without one, of its term) are. SCDB has a few mistyped ones
    /// ("293 L. Ed. 2d 11" for Timbs v. Indiana, in 203); the check needs
    /// three decisions to compare with.
    fn led_misfit(&self, led: &CaseCitation, us_volume: Option<u32>, term: &str) -> Option<String> {
        const FEWEST_COMPARED: usize = 3;
        let key = led.key.as_ref()?;
        let (group, volumes) = us_volume
            .map(LedGroup::UsVolume)
            .into_iter()
            .chain([LedGroup::Term(term.to_string())])
            .find_map(|group| {
                let volumes = self
                    .led_volumes
                    .get(&(key.reporter.clone(), group.clone()))?;
                (volumes.len() >= FEWEST_COMPARED).then_some((group, volumes))
            })?;
        let median = volumes[(volumes.len() - 1) / 2];
        (key.volume.abs_diff(median) > group.reach()).then(|| {
            let neighbours = match group {
                LedGroup::UsVolume(volume) => format!("{volume} U.S."),
                LedGroup::Term(term) => format!("the {term} term"),
            };
            format!(
                "ledCite {} is far from the volumes of the other decisions of {neighbours} \
                 (around {median} {}): the case is stored without it",
                led.cite, key.reporter
            )
        })
    }
}

const LED_REPORTERS: &[&str] = &["L. Ed.", "L. Ed. 2d"];

/// The places of the `names` columns, or the names the header lacks.
fn required_columns<R: BufRead, const N: usize>(
    csv: &CsvReader<R>,
    names: [&'static str; N],
) -> Result<[usize; N], Vec<&'static str>> {
    let missing = csv.missing_columns(&names);
    if missing.is_empty() {
        Ok(names.map(|name| csv.column(name).unwrap_or_default()))
    } else {
        Err(missing)
    }
}

fn not_scdb(name: &Path, missing: &[&str]) -> ImportError {
    ImportError::format(
        name,
        format!(
            "not an SCDB case-centred file: the header has no {} column",
            missing.join(", ")
        ),
    )
}

/// Imports SCDB rows from any reader (the embedded copy or a file),
/// resumable under the checkpoint `key` (the embedded copy's names the
/// default library's version, so a new version reads it again), telling
/// `report` what it did, also of the rows read before a failure.
pub fn import_reader(
    store: &Store,
    name: &Path,
    key: &str,
    reader: impl BufRead + Send,
    survey: &Survey,
    progress: &mut Progress,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    let csv = CsvReader::new(reader, Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?
        .reporting_cuts_to(progress.input.clone());
    let columns = Columns::find(&csv).map_err(|missing| not_scdb(name, &missing))?;
    // A companion docket's row repeats its case's caseId; any other repeat
    // is skipped.
    let mut first_lines = FirstSeen::default();
    run_batches(
        store,
        key,
        name,
        csv,
        progress,
        report,
        |writer, row, report| {
            if row.recoded {
                warn_recoded(name, row.line, report);
            }
            match columns.case(&row, survey) {
                // Its id would make another case of the same decision.
                Some(case) if !is_case_id(&case.case_id) => report.skip(
                    name,
                    format!(
                        "line {}: caseId {:?} is not an SCDB case id (its term, a dash and its \
                         number: 1953-069)",
                        row.line, case.case_id
                    ),
                ),
                Some(case) if case.companion => {
                    store_companion(writer, name, row.line, &case, report)?;
                }
                Some(case) => match first_lines.earlier(&case.case_id, row.line) {
                    Some(first) => report.skip(
                        name,
                        format!(
                            "line {}: caseId {} appears again (first on line {first})",
                            row.line, case.case_id
                        ),
                    ),
                    None => {
                        for why in &case.left_out {
                            report.warn(name, format!("line {}: {why}", row.line));
                        }
                        store_case(writer, case, &survey.held_volumes)?;
                        report.stored += 1;
                    }
                },
                None => report.skip(name, format!("line {}: no caseId", row.line)),
            }
            Ok(())
        },
    )
}

struct Columns {
    case_id: usize,
    date: usize,
    us: usize,
    sct: usize,
    led: usize,
    lexis: usize,
    docket: usize,
    name: usize,
    term: usize,
    /// Present in the docket-level file.
    docket_id: Option<usize>,
}

struct ScdbCase {
    record: CaseRecord,
    case_id: String,
    /// A docket decided with the case's lead docket (`docketId` not ending
    /// in `-01`).
    companion: bool,
    docket_id: Option<String>,
    docket: Option<String>,
    /// What was left out of it and why: a date that is not a real one, a
    /// citation not of its column's reporter.
    left_out: Vec<String>,
    /// The reporters of the citation cells that could not be read at all:
    /// the case keeps what an earlier import gave in those.
    unread: Vec<&'static str>,
}

impl Columns {
    /// The columns, or the names of the required ones the header lacks.
    fn find<R: BufRead>(csv: &CsvReader<R>) -> Result<Self, Vec<&'static str>> {
        let [case_id, date, us, sct, led, lexis, docket, name, term] = required_columns(
            csv,
            [
                "caseId",
                "dateDecision",
                "usCite",
                "sctCite",
                "ledCite",
                "lexisCite",
                "docket",
                "caseName",
                "term",
            ],
        )?;
        Ok(Self {
            case_id,
            date,
            us,
            sct,
            led,
            lexis,
            docket,
            name,
            term,
            docket_id: csv.column("docketId"),
        })
    }

    fn case(&self, row: &Row, survey: &Survey) -> Option<ScdbCase> {
        let field = |i: usize| row.field(i).map(str::trim).filter(|v| !v.is_empty());
        let case_id = field(self.case_id)?;
        let docket_id = self.docket_id.and_then(field);
        let companion = docket_id.is_some_and(|id| {
            id.strip_prefix(case_id)
                .and_then(|number| number.strip_prefix('-'))
                .is_some_and(|number| number != "01")
        });

        let mut left_out = Vec::new();
        let mut unread = Vec::new();
        let mut cited = |index: usize, column: &str, reporters: &'static [&'static str]| {
            column_citation(field(index)?, column, reporters)
                .map_err(|why| {
                    left_out.push(why);
                    unread.extend(reporters);
                })
                .ok()
        };
        let us = cited(self.us, "usCite", &["U.S."]);
        let sct = cited(self.sct, "sctCite", &["S. Ct."]);
        let led = cited(self.led, "ledCite", LED_REPORTERS);
        let lexis = cited(self.lexis, "lexisCite", &["U.S. LEXIS"]);
        let date = decision_date(field(self.date), us_date_to_iso);
        left_out.extend(date.left_out);
        if field(self.date).is_none() {
            left_out.push(
                "dateDecision is empty: the case is stored without a date, so a year given \
                 with its citation cannot be checked"
                    .to_string(),
            );
        }
        if field(self.name).is_none() {
            left_out.push(
                "caseName is empty: the case is stored without a name, so a name given with \
                 its citation cannot be checked"
                    .to_string(),
            );
        }
        let term = field(self.term).unwrap_or_default();
        let date = date.date;
        // A date the row's own term contradicts still dates the decision
        // within a year or so (a wrong year is caught), but judges no cite.
        let sct_judged_by = kept(date.as_deref(), &mut left_out, |date| {
            date_before_term(date, term)
        });
        let sct = kept(sct, &mut left_out, |sct| {
            sct_volume_misfit(sct, sct_judged_by)
                .or_else(|| survey.sct_page_misfit(sct, sct_judged_by))
        });
        let us_volume = us.as_ref().and_then(|c| c.key.as_ref()).map(|k| k.volume);
        let led = kept(
            led.map(|led| fix_led_series(led, us.as_ref())),
            &mut left_out,
            |led| survey.led_misfit(led, us_volume, term),
        );
        let mut citations: Vec<CaseCitation> = us.iter().cloned().collect();
        citations.extend(sct);
        citations.extend(led);
        citations.extend(lexis);
        let docket = field(self.docket).map(str::to_string);
        let record = CaseRecord {
            id: format!("scdb-{case_id}"),
            name: field(self.name).unwrap_or_default().to_string(),
            court: Some("scotus".into()),
            decision_date: date,
            docket_numbers: docket.iter().cloned().collect(),
            citations,
            precedential_status: Some("Published".into()),
            provenance: vec![Provenance {
                source: SOURCE.into(),
                id: case_id.to_string(),
            }],
            ..CaseRecord::default()
        };
        Some(ScdbCase {
            record,
            case_id: case_id.to_string(),
            companion,
            docket_id: docket_id.map(str::to_string),
            docket,
            left_out,
            unread,
        })
    }
}

fn store_case(
    writer: &mut LibraryWriter<'_>,
    case: ScdbCase,
    held: &BTreeSet<u32>,
) -> Result<(), ImportError> {
    let volume = case
        .record
        .citations
        .iter()
        .filter_map(|c| c.key.as_ref())
        .find(|k| k.reporter == "U.S.")
        .map(|k| k.volume);
    let stored = writer.put_case_keeping(
        NewCase {
            record: case.record,
            opinions: Vec::new(),
        },
        &case.unread,
    )?;
    if let Some(docket) = case.docket {
        writer.add_alias("scotus-docket", &normalize_docket(&docket), &stored.id)?;
    }
    if let Some(volume) = volume.filter(|v| held.contains(v)) {
        writer.mark_volume_held("U.S.", volume, SOURCE)?;
    }
    Ok(())
}

/// The citation an SCDB column gives, when it is one to a reporter of that
/// column ("347 F.3d 483" in usCite is not the U.S. Reports); a volume not
/// yet paginated ("582 U.S. ___") is kept without an address.
fn column_citation(value: &str, column: &str, reporters: &[&str]) -> Result<CaseCitation, String> {
    let citation = parse_simple_cite(value);
    let of_the_column = |reporter: &str| {
        reporters
            .iter()
            .any(|expected| crate::library::canonical_reporter(expected) == reporter)
    };
    let is_one = match &citation.key {
        Some(key) => of_the_column(&key.reporter),
        None => unpaged_volume(&citation.cite).is_some_and(|(reporter, _)| {
            of_the_column(&crate::library::canonical_reporter(&reporter))
        }),
    };
    if is_one {
        Ok(citation)
    } else {
        Err(format!(
            "{column} {value:?} is not a citation to {}: the case keeps the one an earlier \
             import gave, or is stored without it",
            reporters.join(" or ")
        ))
    }
}

/// A docket decided with a case: its name and number go to that case.
fn store_companion(
    writer: &mut LibraryWriter<'_>,
    name: &Path,
    line: u64,
    case: &ScdbCase,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    let Some(lead) = writer.external_case(SOURCE, &case.case_id)? else {
        report.skip(
            name,
            format!(
                "line {line}: docketId {} is a docket of case {}, which is not in the library",
                case.docket_id.as_deref().unwrap_or_default(),
                case.case_id
            ),
        );
        return Ok(());
    };
    writer.add_companion(&lead, &case.record.name, case.docket.as_deref())?;
    if let Some(docket) = &case.docket {
        writer.add_alias("scotus-docket", &normalize_docket(docket), &lead)?;
    }
    report.stored += 1;
    Ok(())
}

/// The year and month of an ISO date ("1959-06-22").
pub fn year_and_month(date: &str) -> Option<(u32, u32)> {
    let mut parts = date.split('-').map(|n| n.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??))
}

/// The Supreme Court's October term that a decision of this year and month
/// belongs to: a term opens in October and sits into the next summer.
pub fn october_term(year: u32, month: u32) -> u32 {
    if month >= 10 {
        year
    } else {
        year.saturating_sub(1)
    }
}

/// Why an S. Ct. cite cannot be the decision's, when it cannot: each
/// Supreme Court Reporter volume holds one October term (volume 142 the term
/// of October 2021), and a decision of the summer after a term may be
/// printed in the next one. SCDB has a few cites of another document
/// (the grant of certiorari: "141 S. Ct. 2111" for Bruen, decided in June
/// 2022), which would verify a wrong citation and push the case really at
/// that page off it.
fn sct_volume_misfit(sct: &CaseCitation, date: Option<&str>) -> Option<String> {
    /// The October term of 1880 is volume 1.
    const FIRST_TERM: u32 = 1879;
    let key = sct.key.as_ref()?;
    let (year, month) = year_and_month(date?)?;
    let volume = october_term(year, month).checked_sub(FIRST_TERM)?;
    let summer = (7..=9).contains(&month);
    let fits = key.volume == volume || summer && key.volume == volume + 1;
    (!fits).then(|| {
        format!(
            "sctCite {} is not in the volume of a decision of {} (S. Ct. {volume}): the case is stored without it",
            sct.cite,
            date.unwrap_or_default()
        )
    })
}

/// `value`, unless `misfit` says why it cannot be right: then none, and the
/// reason goes to `left_out`.
fn kept<T>(
    value: Option<T>,
    left_out: &mut Vec<String>,
    misfit: impl FnOnce(&T) -> Option<String>,
) -> Option<T> {
    let value = value?;
    match misfit(&value) {
        Some(why) => {
            left_out.push(why);
            None
        }
        None => Some(value),
    }
}

/// Why a decision date cannot be exact, when it cannot: it falls before
/// July of the year its October term began (a special session in the
/// summer before a term belongs to it, as Cooper v. Aaron's of September
/// 1958 does to the 1958 term). SCDB dates Arizona v. California's decree of
/// 1964 "6/3/1963" in the 1963 term, which judged its S. Ct. cite by the
/// wrong term.
fn date_before_term(date: &str, term: &str) -> Option<String> {
    const SUMMER_BEFORE: &str = "-07-01";
    let term_year: u32 = term.trim().parse().ok()?;
    let earliest = format!("{term_year:04}{SUMMER_BEFORE}");
    (date < earliest.as_str()).then(|| {
        format!(
            "dateDecision {date} is before the {term_year} term: the S. Ct. cite is not checked \
             against it"
        )
    })
}

/// SCDB labels first-series L. Ed. cites of U.S. volumes 332–351 "L. Ed. 2d";
/// the second series starts at 352 U.S.
fn fix_led_series(mut led: CaseCitation, us: Option<&CaseCitation>) -> CaseCitation {
    let us_volume = us.and_then(|c| c.key.as_ref()).map(|k| k.volume);
    if let (Some(key), Some(volume)) = (led.key.as_mut(), us_volume)
        && key.reporter == "L. Ed. 2d"
        && volume < 352
    {
        key.reporter = "L. Ed.".into();
        led.cite = key.to_string();
    }
    led
}

/// "5/17/1954" → "1954-05-17".
pub fn us_date_to_iso(date: &str) -> Option<String> {
    match date_numbers(date, &['/'])?[..] {
        [month, day, year] => iso_date(&[year, month, day]),
        _ => None,
    }
}

/// Whether `id` has the form of an SCDB `caseId`: the term, a dash and the
/// case's number in it ("1953-069").
pub fn is_case_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    bytes.len() == 8
        && bytes[4] == b'-'
        && bytes[..4].iter().chain(&bytes[5..]).all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sct_cite_is_in_its_decisions_term_volume() {
        let misfit = |cite: &str, date: &str| {
            let sct = column_citation(cite, "sctCite", &["S. Ct."]).unwrap();
            sct_volume_misfit(&sct, Some(date))
        };
        assert_eq!(misfit("142 S. Ct. 2111", "2022-06-23"), None);
        assert_eq!(misfit("142 S. Ct. 1", "2021-10-04"), None);
        assert!(
            misfit("141 S. Ct. 2111", "2022-06-23")
                .unwrap()
                .contains("S. Ct. 142")
        );
        assert!(misfit("144 S. Ct. 777", "2021-03-04").is_some());
        // A decision of the summer after a term may be in the next volume.
        assert_eq!(misfit("116 S. Ct. 4", "1995-08-10"), None);
        assert_eq!(misfit("92 S. Ct. 2718", "1972-07-07"), None);
        assert!(misfit("116 S. Ct. 4", "1995-06-10").is_some());
        let unpaged = column_citation("142 S. Ct. ___", "sctCite", &["S. Ct."]).unwrap();
        assert_eq!(sct_volume_misfit(&unpaged, Some("2020-01-01")), None);
    }

    #[test]
    fn an_sct_page_before_those_of_decisions_months_earlier_is_a_misfit() {
        let mut csv = String::from("usCite,term,ledCite,sctCite,dateDecision\n");
        for (page, date) in [
            (1, "10/20/2014"),
            (300, "11/10/2014"),
            (800, "1/20/2015"),
            (1200, "3/2/2015"),
            (2158, "6/15/2015"),
        ] {
            csv.push_str(&format!(",2014,,135 S. Ct. {page},{date}\n"));
        }
        let survey = survey(Path::new("scdb.csv"), csv.as_bytes()).unwrap();
        let misfit = |cite: &str, date: &str| {
            let sct = column_citation(cite, "sctCite", &["S. Ct."]).unwrap();
            survey.sct_page_misfit(&sct, Some(date))
        };
        // A June decision at page 44: three decisions of months before are
        // printed after it.
        assert!(
            misfit("135 S. Ct. 44", "2015-06-15")
                .unwrap()
                .contains("printed before 3 decisions")
        );
        assert_eq!(misfit("135 S. Ct. 2158", "2015-06-15"), None);
        // Two such are not enough, nor pages within a few of each other.
        assert_eq!(misfit("135 S. Ct. 250", "2015-03-02"), None);
        assert_eq!(misfit("135 S. Ct. 1190", "2015-06-15"), None);
        assert_eq!(
            misfit("136 S. Ct. 44", "2015-06-15"),
            None,
            "no decisions there"
        );
    }

    #[test]
    fn an_led_cite_far_from_its_neighbours_volumes_is_a_misfit() {
        let mut csv = String::from("usCite,term,ledCite\n");
        for (us, led) in [(575, 191), (575, 191), (575, 192), (575, 181)] {
            csv.push_str(&format!("{us} U.S. 1,2014,{led} L. Ed. 2d 1\n"));
        }
        for led in [202, 203, 203, 204, 293] {
            csv.push_str(&format!(",2018,{led} L. Ed. 2d 1\n"));
        }
        let survey = survey(Path::new("scdb.csv"), csv.as_bytes()).unwrap();
        let misfit = |cite: &str, us: Option<u32>, term: &str| {
            let led = column_citation(cite, "ledCite", LED_REPORTERS).unwrap();
            survey.led_misfit(&led, us, term)
        };
        // Its U.S. volume's decisions are in 191-192.
        assert!(
            misfit("181 L. Ed. 2d 449", Some(575), "2014")
                .unwrap()
                .contains("575 U.S. (around 191 L. Ed. 2d)")
        );
        assert_eq!(misfit("193 L. Ed. 2d 1", Some(575), "2014"), None);
        // Without a U.S. cite, its term's are in 202-204.
        assert!(
            misfit("293 L. Ed. 2d 11", None, "2018")
                .unwrap()
                .contains("the 2018 term")
        );
        assert_eq!(misfit("206 L. Ed. 2d 11", None, "2018"), None);
        // Too few decisions to compare with, or another series: no verdict.
        assert_eq!(misfit("1 L. Ed. 2d 1", Some(400), "1970"), None);
        assert_eq!(misfit("50 L. Ed. 1", Some(575), "2014"), None);
    }

    #[test]
    fn a_date_before_its_term_is_not_the_decisions() {
        assert!(date_before_term("1963-06-03", "1963").is_some());
        assert!(date_before_term("1972-01-15", "1972").is_some());
        // A special session in the summer before the term, or a decision
        // long after it.
        assert_eq!(date_before_term("1958-09-12", "1958"), None);
        assert_eq!(date_before_term("1972-07-07", "1972"), None);
        assert_eq!(date_before_term("2011-06-27", "2009"), None);
        assert_eq!(date_before_term("1963-06-03", ""), None);
    }

    #[test]
    fn case_ids() {
        assert!(is_case_id("1953-069"));
        for not_one in ["\\N", "1953-69", "1953069", "19530-69", "", "abcd-efg"] {
            assert!(!is_case_id(not_one), "{not_one}");
        }
    }

    #[test]
    fn a_column_gives_only_citations_to_its_own_reporter() {
        let us = |value: &str| column_citation(value, "usCite", &["U.S."]);
        assert_eq!(us("347 U.S. 483").unwrap().cite, "347 U.S. 483");
        assert_eq!(us("582 U.S. ___").unwrap().key, None, "not yet paginated");
        for wrong in [
            "347 U.S. 483 484",
            "347 F.3d 483",
            "0 U.S. 0",
            "-1 U.S. 5",
            "U.S. 483",
            "347 U.S.",
        ] {
            let why = us(wrong).unwrap_err();
            assert!(why.contains("is not a citation to U.S."), "{wrong}: {why}");
        }
        let led = column_citation("98 L. Ed. 873", "ledCite", &["L. Ed.", "L. Ed. 2d"]);
        assert!(led.is_ok());
    }

    #[test]
    fn dates_and_led_series() {
        assert_eq!(us_date_to_iso("5/17/1954").as_deref(), Some("1954-05-17"));
        assert_eq!(us_date_to_iso("13/1/1954"), None);
        let us = parse_simple_cite("347 U.S. 483");
        let fixed = fix_led_series(parse_simple_cite("98 L. Ed. 2d 873"), Some(&us));
        assert_eq!(fixed.cite, "98 L. Ed. 873");
        let later = parse_simple_cite("352 U.S. 1");
        let kept = fix_led_series(parse_simple_cite("1 L. Ed. 2d 1"), Some(&later));
        assert_eq!(kept.cite, "1 L. Ed. 2d 1");
    }
}

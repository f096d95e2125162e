//! The default library compiled into the binary (assets/library/): built on
//! a fresh data directory at first start, with no network. Each source is
//! imported through the same writer as the bulk importers, so rebuilding is
//! idempotent.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::csv::{CsvReader, Dialect, Row};
use super::{
    ImportError, ImportReport, Progress, date_numbers, iso_date, normalize_docket,
    parse_simple_cite, run_batches,
};
use crate::citations::names;
use crate::library::model::{
    Authority, BodyFormat, CaseCitation, CaseRecord, CiteKey, LawCoverage, NewCase, NewOpinion,
    Provenance, codes, rule_number_fault,
};
use crate::library::store::{LibraryWriter, Overruling, PreparedOpinion};
use crate::library::text::{decode_entities, last_bracketed_page, markup_to_text};
use crate::store::{Store, StoreError};

/// Bumped whenever the embedded data or the way it is read changes, so an
/// existing data directory picks the new default library up at start.
/// 3: SCDB's docket-level file, with the cases decided together.
/// 4: neutral citations of metadata records keyed as a lookup reads them;
/// the Federal Rules of Evidence checked by article.
/// 5: unpublished orders keyed in series of their own; Fastcase courts by
/// name; CAP text between opinions kept.
/// 6: Civil Rule 87's text without the Supplemental Rules printed after it.
/// 7: SCDB's S. Ct. cites outside their decision's term volume left out.
/// 8: Fastcase's twice-escaped and juriscraper's hashless entities decoded
/// in names.
/// 9: SCDB read again on an upgrade (its checkpoint named only its file, so
/// libraries upgraded to 7 and 8 kept the SCDB records of the version
/// before; its citations now replace those it no longer gives).
/// 10: SCDB's L. Ed. cites far from their neighbours' volumes left out.
/// 11: the dates index's records of 1-4 U.S. (Dallas) name no court;
/// juriscraper's court ids that courts-db spells otherwise mapped.
/// 12: two SCDB cases sharing a page are never merged into one record.
/// 13: SCDB dates before their term began left out.
/// 14: such dates kept (a wrong year is still caught), but no S. Ct. cite
/// judged by them.
/// 15: Supreme Court dockets joined whatever their dash (SCDB writes
/// "14–95"), so the corpus's slip opinions join their SCDB decisions; both
/// headings of a U.S. Code number given to two sections kept.
/// 16: decisions the tables of overruled decisions name where no held case
/// starts are found by their pages or recorded; overruling decisions take
/// the tables' U.S. cites; a bound volume's back matter (orders, index) is
/// no opinion's text, and its opinions in chambers are cases of their own;
/// New York's "(A)" decisions ("88 Misc 3d 129(A)") addressed; Fastcase's
/// header kept as head matter.
/// 17: a Fastcase case ends at the last page its text marks when its
/// header gives fewer.
/// 18: an overruling decision's U.S. cite from the tables names the table
/// among its sources, so SCDB given again does not withdraw it.
/// 19: Tennessee's workers' compensation panel's records name its court.
/// 20: cases an older build merged of juriscraper records alone are stored
/// again as the current rules merge them (New York's table cases); a
/// Supreme Court case's own caption dropped from its companion names.
/// 21: juriscraper's citations run into their page ("154 Haw.434") keyed as
/// a lookup reads them.
/// 22: the official FRCP print's rule texts without its table of contents
/// and its page heads; SCDB's S. Ct. cites printed before decisions of
/// months earlier left out.
/// 23: the transcribed rules numbered and punctuated as printed ("(6)",
/// not "6."; "Rule 4(d)," not "Rule 4(d) ,"); names whose "v." runs into
/// the period before it ("CONLEY et al.v. GIBSON") spaced.
/// 24: the transcribed rules' "( l )" as printed, "(l)", so FRCP 4(l) and
/// 4(m) are subdivisions a citation can be checked against.
pub const DEFAULT_LIBRARY_VERSION: u32 = 24;

const SCOTUS_INDEX: &[u8] =
    include_bytes!("../../../assets/library/scotus/scotus_citation_index.csv.gz");
/// SCDB's case-centred file at docket level: each case's first row is its
/// row in the citation-level file; the others are the dockets decided
/// with it.
const SCDB_DOCKETS: &[u8] =
    include_bytes!("../../../assets/library/scotus/SCDB_2024_01_caseCentered_Docket.csv.gz");
const OVERRULED: &[u8] =
    include_bytes!("../../../assets/library/overruled/scotus_overruled_conan_pairs.csv");
/// Overrulings after ConAn's table ends (April 2020), compiled here from the
/// overruling opinions' own words.
const OVERRULED_SINCE: &[u8] =
    include_bytes!("../../../assets/library/overruled/overrulings_since_conan_2020.csv");
const JURISCRAPER: &[u8] =
    include_bytes!("../../../assets/library/juriscraper/opinion_metadata_from_tests.jsonl.gz");
const CAP_ILLINOIS: &[u8] =
    include_bytes!("../../../assets/library/cap/illinois_bulk_sample_10.jsonl.gz");
const FASTCASE: &[u8] =
    include_bytes!("../../../assets/library/cap/fastcase_opinion_samples.tar.gz");
const CL_CLUSTER: &[u8] =
    include_bytes!("../../../assets/library/courtlistener/cluster_891689.json");
const CL_OPINION: &[u8] =
    include_bytes!("../../../assets/library/courtlistener/opinion_891689.json.gz");
const CORPUS: &[u8] = include_bytes!("../../../assets/library/corpus/opinions.tar.gz");
const CORPUS_CASES: &str = include_str!("../../../assets/library/corpus/cases.json");
const RULE_SETS: &str = include_str!("../../../assets/library/rules/rule_sets.json");
const RULES_INDEX: &[u8] = include_bytes!("../../../assets/library/rules/federal_rules_index.csv");
const RULES_TEXT: &[u8] =
    include_bytes!("../../../assets/library/rules/federal_rules_text.json.gz");
const FRCP_PRINT: &[u8] =
    include_bytes!("../../../assets/library/rules/frcp_2022-12-01_official_print.md.gz");
const USC_LIVE: &[u8] =
    include_bytes!("../../../assets/library/usc/usc_sections_live_rp119-100.csv.gz");
const USC_STATUS: &[u8] =
    include_bytes!("../../../assets/library/usc/usc_sections_with_status_19titles_rp119-36.csv.gz");
const CFR_SECTIONS: &[u8] =
    include_bytes!("../../../assets/library/cfr/cfr_sections_partial.csv.gz");

/// CFR titles the partial index holds completely (SOURCES.md).
const CFR_COMPLETE_TITLES: &[&str] = &["1", "2", "14", "22", "26", "29", "36", "38", "45"];

/// The Supreme Court dates index lists the pages of U.S. Reports volumes
/// 1–546 where a decision or order begins (not all: ~4% of SCDB's decisions
/// in volumes 329–546 are missing from it).
pub const SCOTUS_DATES: &str = "scotus_dates";

/// A U.S. Reports volume both the dates index and SCDB list completely: the
/// two lists together name every page where a case starts.
pub const US_REPORTS_LISTS: &str = "scotus_dates+scdb";

/// Checkpoint keys carry the version, so a new default library is read again.
fn checkpoint(part: &str) -> String {
    format!("{}{part}", checkpoint_prefix())
}

fn checkpoint_prefix() -> String {
    format!("default-v{DEFAULT_LIBRARY_VERSION}:")
}

/// Meta key: the default library version this data directory holds.
pub const VERSION_KEY: &str = "default_library_version";

/// Meta key: the default library version whose build last finished here.
/// It outlives a downgrade to a lexstack built before the downgrade guard,
/// which reads its older data over this version's and writes its own
/// version number, but leaves this key (and this version's checkpoints).
pub const LAST_FINISHED: &str = "default_library_last_finished";

/// Makes every step of this version read its data again when an older
/// lexstack wrote over this version's finished build: its checkpoints
/// would otherwise skip every step, keeping what the older one wrote.
/// Returns whether it did.
pub fn forget_overwritten_build(store: &Store) -> Result<bool, StoreError> {
    store.write(|txn| -> Result<bool, StoreError> {
        let mut writer = LibraryWriter::new(txn)?;
        let finished: Option<u32> = writer.get_meta(LAST_FINISHED)?;
        let held: Option<u32> = writer.get_meta(VERSION_KEY)?;
        if finished != Some(DEFAULT_LIBRARY_VERSION) || held == finished {
            return Ok(false);
        }
        writer.forget_checkpoints(&checkpoint_prefix())?;
        writer.set_meta(LAST_FINISHED, &held)?;
        writer.finish()?;
        Ok(true)
    })
}

fn gunzip(bytes: &'static [u8]) -> BufReader<flate2::bufread::MultiGzDecoder<&'static [u8]>> {
    BufReader::new(flate2::bufread::MultiGzDecoder::new(bytes))
}

/// Builds (or brings up to date) the default library; returns one report
/// per source.
pub fn build(store: &Store) -> Result<Vec<ImportReport>, ImportError> {
    // The volumes an earlier default library held on the dates index (alone,
    // before version 2) are marked again by this version's step, which
    // forgets them only before it starts: a build resumed after a kill
    // keeps what the step marked before it.
    if !super::has_checkpoint(store, &checkpoint("scotus_dates"))? {
        store.write(|txn| -> Result<(), StoreError> {
            let mut writer = LibraryWriter::new(txn)?;
            writer.forget_volumes_held_by(SCOTUS_DATES, None)?;
            writer.finish()
        })?;
    }
    let scdb_survey = super::scdb::survey(Path::new(SCDB_NAME), gunzip(SCDB_DOCKETS))?;
    let mut reports = vec![
        scotus_dates(store, &scdb_survey.held_volumes)?,
        scdb(store, &scdb_survey)?,
        overruled(
            store,
            "scotus_overruled_conan_pairs.csv",
            OVERRULED,
            OverrulingSource::CONAN,
        )?,
        overruled(
            store,
            "overrulings_since_conan_2020.csv",
            OVERRULED_SINCE,
            OverrulingSource::OPINIONS,
        )?,
        juriscraper(store)?,
    ];
    let mut illinois = Progress::rows("cap sample", 10);
    let mut cap_sample = ImportReport::new(super::cap::SOURCE);
    super::cap::import_jsonl(
        store,
        Path::new("default/cap/illinois_bulk_sample_10.jsonl"),
        gunzip(CAP_ILLINOIS),
        CAP_ILLINOIS.len() as u64,
        super::cap::Options {
            mark_coverage: false,
        },
        &mut illinois,
        &mut cap_sample,
    )?;
    reports.push(cap_sample);
    reports.push(fastcase(store)?);
    reports.push(courtlistener_sample(store)?);
    reports.push(corpus(store)?);
    reports.push(federal_rules(store)?);
    reports.push(us_code(store)?);
    reports.push(cfr(store)?);
    Ok(reports)
}

fn field(row: &Row, index: Option<usize>) -> Option<&str> {
    row.field(index?).map(str::trim).filter(|v| !v.is_empty())
}

/// The dates index rows not in SCDB: a U.S. cite and a date, no name. A
/// volume is held where SCDB holds it too: each list misses cases the other
/// has, so neither alone says where every case starts.
fn scotus_dates(store: &Store, scdb_held: &BTreeSet<u32>) -> Result<ImportReport, ImportError> {
    let name = Path::new("default/scotus/scotus_citation_index.csv");
    let csv = CsvReader::new(gunzip(SCOTUS_INDEX), Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let us = csv.column("us_cite");
    let date = csv.column("date_decision");
    let source = csv.column("source");
    let mut report = ImportReport::new(SCOTUS_DATES);
    let mut progress = Progress::rows("scotus dates", 33_377);
    run_batches(
        store,
        &checkpoint("scotus_dates"),
        name,
        csv,
        &mut progress,
        &mut report,
        |writer, row, report| {
            let Some(cite) = field(&row, us) else {
                return Ok(());
            };
            let citation = parse_simple_cite(cite);
            let Some(key) = citation.key.clone() else {
                return Ok(());
            };
            let from_dates = field(&row, source).is_some_and(|s| s.contains("scotus_dates"));
            if from_dates && key.volume <= 546 && scdb_held.contains(&key.volume) {
                writer.mark_volume_held("U.S.", key.volume, US_REPORTS_LISTS)?;
            }
            // SCDB rows come from the SCDB file itself, with their names.
            if field(&row, source).is_some_and(|s| s.starts_with("scdb")) {
                return Ok(());
            }
            // The first four volumes (Dallas) also print Pennsylvania's and
            // the circuit courts' decisions, which the index does not tell
            // apart from the Supreme Court's.
            const LAST_DALLAS_VOLUME: u32 = 4;
            let record = CaseRecord {
                id: format!("us-{}-{}", key.volume, key.page),
                court: (key.volume > LAST_DALLAS_VOLUME).then(|| "scotus".into()),
                decision_date: field(&row, date).map(str::to_string),
                citations: vec![citation],
                provenance: vec![Provenance {
                    source: SCOTUS_DATES.into(),
                    id: key.to_string(),
                }],
                ..CaseRecord::default()
            };
            writer.put_case(NewCase {
                record,
                opinions: Vec::new(),
            })?;
            report.stored += 1;
            Ok(())
        },
    )?;
    Ok(report)
}

const SCDB_NAME: &str = "default/scdb/SCDB_2024_01_caseCentered_Docket.csv";

fn scdb(store: &Store, survey: &super::scdb::Survey) -> Result<ImportReport, ImportError> {
    // Builds before version 20 could list a docket decided under the case's
    // own caption as a companion; reading SCDB again adds none such, and
    // removes none, so they are dropped first.
    before_reading_again(store, "scdb", |writer| {
        for case_id in writer.case_ids_of(super::scdb::SOURCE)? {
            writer.drop_own_name_from_companions(&case_id)?;
        }
        Ok(())
    })?;
    let mut progress = Progress::rows("scdb", 10_783);
    let mut report = ImportReport::new(super::scdb::SOURCE);
    super::scdb::import_reader(
        store,
        Path::new(SCDB_NAME),
        &checkpoint("scdb"),
        gunzip(SCDB_DOCKETS),
        survey,
        &mut progress,
        &mut report,
    )?;
    Ok(report)
}

/// Where a table of overruled Supreme Court decisions comes from: the label
/// its report and its records carry.
struct OverrulingSource {
    report: &'static str,
    record: &'static str,
}

impl OverrulingSource {
    /// The Constitution Annotated's table, to April 2020.
    const CONAN: Self = Self {
        report: "conan_overruled",
        record: "conan",
    };
    /// The overrulings since, from the overruling opinions.
    const OPINIONS: Self = Self {
        report: "overruled_since_2020",
        record: "opinions",
    };
}

/// A table of overruled Supreme Court decisions (ConAn's columns).
fn overruled(
    store: &Store,
    file: &str,
    bytes: &'static [u8],
    source: OverrulingSource,
) -> Result<ImportReport, ImportError> {
    let path = format!("default/overruled/{file}");
    let name = Path::new(&path);
    let csv = CsvReader::new(bytes, Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let col = |n: &str| csv.column(n);
    let (overruled_cite, overruled_name) = (col("overruled_us_cite"), col("overruled_name"));
    let overruled_year = col("overruled_year");
    let (qualifier, by_name, by_us) = (
        col("overruled_qualifier"),
        col("overruling_name"),
        col("overruling_us_cite"),
    );
    let (by_sct, by_year) = (col("overruling_sct_cite_from_scdb"), col("overruling_year"));
    let mut report = ImportReport::new(source.report);
    let lines = bytes.iter().filter(|&&byte| byte == b'\n').count();
    let mut progress = Progress::rows("overruled", lines.saturating_sub(1) as u64);
    run_batches(
        store,
        &checkpoint(file),
        name,
        csv,
        &mut progress,
        &mut report,
        |writer, row, report| {
            let Some(key) = field(&row, overruled_cite).and_then(|c| parse_simple_cite(c).key)
            else {
                report.skip(
                    name,
                    format!(
                        "line {}: no U.S. cite for {:?}",
                        row.line,
                        field(&row, overruled_name)
                    ),
                );
                return Ok(());
            };
            let by_citation = field(&row, by_us)
                .or(field(&row, by_sct))
                .unwrap_or_default()
                .to_string();
            // The overruling decision by whichever of its cites the library
            // holds (recent U.S. volumes are not paginated yet).
            let mut by_case_id = None;
            for cite in [field(&row, by_us), field(&row, by_sct)]
                .into_iter()
                .flatten()
            {
                if let Some(by_key) = parse_simple_cite(cite).key
                    && by_case_id.is_none()
                {
                    by_case_id = single_case(writer, &by_key)?;
                }
            }
            let overruling = Overruling {
                by_name: field(&row, by_name).unwrap_or_default().to_string(),
                by_citation,
                by_case_id,
                year: field(&row, by_year).and_then(|y| y.parse().ok()),
                qualifier: field(&row, qualifier).map(str::to_string),
                source: source.record.into(),
            };
            let name_of_overruled = field(&row, overruled_name).unwrap_or_default();
            let mut overruled_cases = writer.cases_at(&key)?;
            if let [only] = overruled_cases.as_slice() {
                // The dates index gives pre-1946 decisions no names; ConAn does.
                writer.fill_missing_name(only, name_of_overruled)?;
            }
            if overruled_cases.is_empty() {
                let year = field(&row, overruled_year);
                overruled_cases =
                    overruled_decision(writer, &key, name_of_overruled, year, &source)?;
            }
            if let (Some(by_id), Some(name)) = (&overruling.by_case_id, field(&row, by_name)) {
                writer.fill_missing_name(by_id, name)?;
                // Recent decisions have their U.S. cite from the table only
                // (SCDB gives none yet): "Dobbs, 597 U.S. 215" finds Dobbs.
                if let Some(cite) = field(&row, by_us) {
                    writer.add_citations_given_by(
                        by_id,
                        vec![parse_simple_cite(cite)],
                        Provenance {
                            source: source.record.into(),
                            id: cite.to_string(),
                        },
                    )?;
                }
            }
            for case_id in overruled_cases {
                writer.put_overruling(&case_id, &overruling)?;
                report.stored += 1;
            }
            Ok(())
        },
    )?;
    Ok(report)
}

/// The decision a table of overruled decisions names at a page where no
/// held case starts: the case whose pages hold it, when named alike (a
/// concurrence cited at its own page: Johnson v. Louisiana's at 406 U.S.
/// 366); else a record of the table's own, so that its citation finds it
/// and its status (Baker v. Nelson, 409 U.S. 810, a summary disposition
/// inside an order list the dates index lists at 806).
fn overruled_decision(
    writer: &mut LibraryWriter<'_>,
    key: &CiteKey,
    name: &str,
    year: Option<&str>,
    source: &OverrulingSource,
) -> Result<Vec<String>, ImportError> {
    if let Some((_, ids)) = writer.case_starting_before(key)? {
        let mut named = Vec::new();
        for id in ids {
            if writer
                .case(&id)?
                .is_some_and(|case| names::case_names_match(name, &case.name))
            {
                named.push(id);
            }
        }
        if !named.is_empty() {
            return Ok(named);
        }
    }
    if name.is_empty() || key.reporter != "U.S." {
        return Ok(Vec::new());
    }
    let record = CaseRecord {
        id: format!("us-{}-{}", key.volume, key.page),
        name: name.to_string(),
        court: Some("scotus".into()),
        decision_date: year.map(str::to_string),
        citations: vec![parse_simple_cite(&key.to_string())],
        provenance: vec![Provenance {
            source: source.record.into(),
            id: key.to_string(),
        }],
        ..CaseRecord::default()
    };
    let stored = writer.put_case(NewCase {
        record,
        opinions: Vec::new(),
    })?;
    Ok(vec![stored.id])
}

fn single_case(writer: &LibraryWriter<'_>, key: &CiteKey) -> Result<Option<String>, ImportError> {
    let mut at = writer.cases_at(key)?;
    Ok(if at.len() == 1 { at.pop() } else { None })
}

#[derive(Deserialize)]
struct ScraperRecord {
    case_names: Option<String>,
    case_dates: Option<String>,
    #[serde(default)]
    docket_numbers: Option<String>,
    #[serde(default)]
    citations: Option<String>,
    #[serde(default)]
    parallel_citations: Option<String>,
    #[serde(default)]
    precedential_statuses: Option<String>,
    #[serde(default)]
    judges: Option<String>,
    #[serde(default)]
    summaries: Option<String>,
    #[serde(default)]
    download_urls: Option<String>,
    #[serde(rename = "_scraper")]
    scraper: String,
}

/// Court ids never contain `_`; juriscraper names its test scrapers
/// `<court>[_<variant>]_example[_n]`, with a few named otherwise than
/// courts-db's court (`del` is a Python keyword), and one variant that is a
/// court of its own (Tennessee's Special Workers' Compensation Appeals
/// Panel).
fn scraper_court(scraper: &str) -> &str {
    let base = scraper.split("_example").next().unwrap_or(scraper);
    if base == "tenn_workers_comp" {
        return "tennworkcompapp";
    }
    let court = base.split('_').next().unwrap_or(base);
    match court {
        "delaware" => "del",
        "nmariana" => "nmi",
        _ if court.strip_prefix("txctapp").is_some_and(|district| {
            !district.is_empty() && district.bytes().all(|b| b.is_ascii_digit())
        }) =>
        {
            "texapp"
        }
        _ => court,
    }
}

/// Opinion metadata from juriscraper's test fixtures: names, dates,
/// dockets and citations, no text.
fn juriscraper(store: &Store) -> Result<ImportReport, ImportError> {
    // What an older build merged of these records is undone first.
    before_reading_again(store, "juriscraper", undo_merges_of_juriscraper_records)?;
    let name = Path::new("default/juriscraper/opinion_metadata_from_tests.jsonl");
    let mut seen: HashMap<String, u32> = HashMap::new();
    let lines = gunzip(JURISCRAPER)
        .lines()
        .enumerate()
        .map(move |(n, line)| {
            let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
            let record: ScraperRecord = serde_json::from_str(&line)
                .map_err(|e| format!("line {} column {}: {e}", n + 1, e.column()))?;
            let count = seen.entry(record.scraper.clone()).or_insert(0);
            *count += 1;
            Ok::<_, String>((record, *count))
        });
    let mut report = ImportReport::new("juriscraper");
    let mut progress = Progress::rows("juriscraper", 11_409);
    run_batches(
        store,
        &checkpoint("juriscraper"),
        name,
        lines,
        &mut progress,
        &mut report,
        |writer, (record, n), report| {
            let court = scraper_court(&record.scraper).to_string();
            let id = format!("{}-{n}", record.scraper);
            let citations = [
                record.citations.as_deref(),
                record.parallel_citations.as_deref(),
            ]
            .into_iter()
            .flatten()
            .flat_map(|list| list.split(';'))
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(parse_simple_cite)
            .collect();
            let docket = record
                .docket_numbers
                .clone()
                .filter(|d| !d.trim().is_empty());
            let case = CaseRecord {
                id: format!("jur-{id}"),
                name: decode_entities(&record.case_names.unwrap_or_default()),
                court: Some(court.clone()),
                decision_date: record.case_dates,
                docket_numbers: docket.iter().cloned().collect(),
                citations,
                precedential_status: record.precedential_statuses,
                judges: record.judges,
                summary: record.summaries,
                source_url: record.download_urls,
                provenance: vec![Provenance {
                    source: "juriscraper".into(),
                    id,
                }],
                ..CaseRecord::default()
            };
            let stored = writer.put_case(NewCase {
                record: case,
                opinions: Vec::new(),
            })?;
            if let Some(docket) = docket {
                writer.add_alias(
                    &docket_namespace(&court),
                    &normalize_docket(&docket),
                    &stored.id,
                )?;
            }
            report.stored += 1;
            Ok(())
        },
    )?;
    Ok(report)
}

/// Runs `mend` on what an older build stored, in one transaction, before
/// this version's `step` reads its records: once, since a step resumed
/// after a kill has begun reading them (and its checkpoint says so).
fn before_reading_again(
    store: &Store,
    step: &str,
    mend: impl FnOnce(&mut LibraryWriter) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    if super::has_checkpoint(store, &checkpoint(step))? {
        return Ok(());
    }
    store.write(|txn| -> Result<(), StoreError> {
        let mut writer = LibraryWriter::new(txn)?;
        mend(&mut writer)?;
        writer.finish()
    })
}

/// Removes every case made of two or more juriscraper records and nothing
/// else (no import of the user's joined it, no opinion text), so that
/// reading the records again stores them as the current rules merge them:
/// an older build merged decisions that are two ("Summer P.T. v. MVAIC"
/// and "Grand Med. Supply v. MVAIC", which share a table page), and a read
/// over them keeps every merge. A case the records still make is stored
/// again as it was, under the id of its first record.
fn undo_merges_of_juriscraper_records(writer: &mut LibraryWriter) -> Result<(), StoreError> {
    const SOURCE: &str = "juriscraper";
    for case_id in writer.case_ids_of(SOURCE)? {
        let Some(case) = writer.case(&case_id)? else {
            continue;
        };
        let merged_records_alone = case.provenance.len() > 1
            && case.provenance.iter().all(|p| p.source == SOURCE)
            && case.opinions.is_empty();
        if !merged_records_alone {
            continue;
        }
        let courts: BTreeSet<&str> = case
            .provenance
            .iter()
            .map(|p| scraper_court(p.id.rsplit_once('-').map_or(p.id.as_str(), |(s, _)| s)))
            .chain(case.court.as_deref())
            .collect();
        for court in courts {
            for docket in &case.docket_numbers {
                writer.remove_alias(
                    &docket_namespace(court),
                    &normalize_docket(docket),
                    &case.id,
                )?;
            }
        }
        writer.remove_case_without_opinions(&case)?;
    }
    Ok(())
}

/// The alias namespace of a court's docket numbers.
fn docket_namespace(court: &str) -> String {
    format!("docket:{court}")
}

/// A Fastcase decision date as an ISO date: the files write both
/// `2013-12-24` and `12-24-2013` (months and days not always padded); an
/// impossible date is none.
fn fastcase_date(text: &str) -> Option<String> {
    match date_numbers(text, &['-', '/'])?[..] {
        [year, month, day] if year > 999 => iso_date(&[year, month, day]),
        [month, day, year] if year > 999 => iso_date(&[year, month, day]),
        _ => None,
    }
}

/// The Fastcase opinions CAP published as test data: XML with the opinion
/// as escaped HTML, and an HTML rendering giving the page range.
fn fastcase(store: &Store) -> Result<ImportReport, ImportError> {
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(FASTCASE));
    let mut xml: BTreeMap<String, String> = BTreeMap::new();
    let mut html: BTreeMap<String, String> = BTreeMap::new();
    let name = Path::new("default/cap/fastcase_opinion_samples.tar.gz");
    let entries = archive.entries().map_err(|e| ImportError::io(name, e))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| ImportError::io(name, e))?;
        let path = entry
            .path()
            .map_err(|e| ImportError::io(name, e))?
            .to_string_lossy()
            .into_owned();
        let mut text = String::new();
        if entry.read_to_string(&mut text).is_err() {
            continue;
        }
        if let Some(stem) = path.strip_suffix(".xml") {
            xml.insert(stem.to_string(), text);
        } else if let Some(stem) = path.strip_suffix(".html") {
            html.insert(stem.to_string(), text);
        }
    }
    let mut report = ImportReport::new("fastcase");
    let mut progress = Progress::rows("fastcase", xml.len() as u64);
    let rows = xml.into_iter().map(|(stem, text)| {
        let pages = html.get(&stem).and_then(|h| page_range(h));
        parse_fastcase(&stem, &text, pages).ok_or_else(|| format!("{stem}: not a Fastcase case"))
    });
    run_batches(
        store,
        &checkpoint("fastcase"),
        name,
        rows,
        &mut progress,
        &mut report,
        |writer, case, report| {
            writer.put_case(case)?;
            report.stored += 1;
            Ok(())
        },
    )?;
    Ok(report)
}

/// `data-firstpage` and `data-lastpage` of CAP's HTML rendering.
fn page_range(html: &str) -> Option<(u32, u32)> {
    let attribute = |name: &str| -> Option<u32> {
        let start = html.find(name)? + name.len();
        let rest = html[start..].trim_start_matches(['=', '"']);
        rest.split('"').next()?.parse().ok()
    };
    Some((attribute("data-firstpage")?, attribute("data-lastpage")?))
}

fn parse_fastcase(stem: &str, xml: &str, pages: Option<(u32, u32)>) -> Option<NewCase> {
    let element = |name: &str| -> Option<String> {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        let start = xml.find(&open)? + open.len();
        let end = start + xml[start..].find(&close)?;
        // Fastcase escapes its metadata twice ("Oversight &amp;amp; Mgmt.").
        Some(
            decode_entities(&markup_to_text(&xml[start..end]))
                .trim()
                .to_string(),
        )
    };
    let all = |name: &str| -> Vec<String> {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        xml.match_indices(&open)
            .filter_map(|(at, _)| {
                let start = at + open.len();
                let end = start + xml[start..].find(&close)?;
                Some(xml[start..end].to_string())
            })
            .collect()
    };
    let name = element("ShortName")?;
    let body = {
        let open = "<CaseHtml>";
        let start = xml.find(open)? + open.len();
        let end = start + xml[start..].find("</CaseHtml>")?;
        unescape_xml(&xml[start..end])
    };
    let citations: Vec<CaseCitation> = all("Citation")
        .iter()
        .filter_map(|block| {
            let part = |tag: &str| -> Option<String> {
                let open = format!("<{tag}>");
                let start = block.find(&open)? + open.len();
                let end = start + block[start..].find(&format!("</{tag}>"))?;
                Some(block[start..end].trim().to_string())
            };
            let (volume, reporter) = (part("Volume")?, part("Reporter")?);
            let mut citation = parse_simple_cite(&format!("{volume} {reporter} {}", part("Page")?));
            if let (Some(key), Some((first, last))) = (&citation.key, pages)
                && key.page == first
            {
                // The header's last page can be the first page when the
                // text's own page marks run on ("[698 S.E.2d  425]" …).
                let marked = last_bracketed_page(&body, &volume, &reporter);
                citation.last_page = Some(marked.map_or(last, |marked| marked.max(last)));
            }
            Some(citation)
        })
        .collect();
    let date = element("DecisionDate").and_then(|d| fastcase_date(&d));
    let provenance = Provenance {
        source: "fastcase".into(),
        id: stem.rsplit('/').next().unwrap_or(stem).to_string(),
    };
    Some(NewCase {
        record: CaseRecord {
            id: format!("fc-{}", provenance.id.replace(' ', "")),
            name,
            court: crate::library::court_id(
                element("CourtAbbreviation").as_deref(),
                element("CourtName").as_deref(),
            ),
            decision_date: date,
            docket_numbers: all("DocketNumber")
                .iter()
                .map(|d| markup_to_text(d).trim().to_string())
                .collect(),
            citations,
            judges: element("Author"),
            // The caption, dockets and court, and in an order what the
            // court ordered.
            head_matter: all("HeaderHtml")
                .first()
                .map(|head| markup_to_text(&unescape_xml(head)).trim().to_string())
                .filter(|head| !head.is_empty()),
            provenance: vec![provenance.clone()],
            ..CaseRecord::default()
        },
        opinions: vec![NewOpinion {
            kind: "combined".into(),
            author: element("Author"),
            format: BodyFormat::Html,
            text: body,
            provenance,
        }],
    })
}

/// The escaped HTML inside an XML element, unescaped once.
fn unescape_xml(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// CourtListener's API sample: one cluster with its opinion.
fn courtlistener_sample(store: &Store) -> Result<ImportReport, ImportError> {
    let name = Path::new("default/courtlistener/api_v3_sample");
    let cluster: Value =
        serde_json::from_slice(CL_CLUSTER).map_err(|e| ImportError::format(name, e.to_string()))?;
    let mut opinion_json = String::new();
    flate2::read::GzDecoder::new(CL_OPINION)
        .read_to_string(&mut opinion_json)
        .map_err(|e| ImportError::io(name, e))?;
    let opinion: Value = serde_json::from_str(&opinion_json)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let text = |value: &Value, key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let id = cluster
        .get("id")
        .and_then(Value::as_u64)
        .unwrap_or_default();
    let citations = cluster
        .get("citations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let volume = c.get("volume")?.to_string();
            let page = c.get("page")?.as_str()?.to_string();
            Some(parse_simple_cite(&format!(
                "{volume} {} {page}",
                c.get("reporter")?.as_str()?
            )))
        })
        .collect();
    let body = text(&opinion, "html_with_citations")
        .map(|h| (BodyFormat::Html, h))
        .or_else(|| text(&opinion, "plain_text").map(|t| (BodyFormat::Text, t)));
    let record = CaseRecord {
        id: format!("cl-{id}"),
        name: text(&cluster, "case_name").unwrap_or_default(),
        name_short: text(&cluster, "case_name_short"),
        court: Some("nm".into()),
        decision_date: text(&cluster, "date_filed"),
        citations,
        precedential_status: text(&cluster, "precedential_status"),
        judges: text(&cluster, "judges"),
        source_url: text(&cluster, "absolute_url")
            .map(|u| format!("https://www.courtlistener.com{u}")),
        provenance: vec![Provenance {
            source: super::courtlistener::SOURCE.into(),
            id: id.to_string(),
        }],
        ..CaseRecord::default()
    };
    let opinion_number = opinion
        .get("id")
        .and_then(Value::as_u64)
        .unwrap_or_default();
    let opinion_id = opinion_number.to_string();
    let opinions = body
        .map(|(format, text)| NewOpinion {
            kind: "combined".into(),
            author: None,
            format,
            text,
            provenance: Provenance {
                source: super::courtlistener::SOURCE.into(),
                id: opinion_id.clone(),
            },
        })
        .into_iter()
        .collect();
    let mut report = ImportReport::new("courtlistener sample");
    store.write(|txn| -> Result<(), ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        let stored = writer.put_case(NewCase { record, opinions })?;
        writer.set_courtlistener_opinion(opinion_number, &stored.id)?;
        writer.finish()?;
        Ok(())
    })?;
    report.rows = 1;
    report.stored = 1;
    Ok(report)
}

#[derive(Deserialize)]
struct CorpusManifest {
    texts: Vec<CorpusText>,
}

#[derive(Deserialize)]
struct CorpusText {
    file: String,
    #[serde(default)]
    split: Option<String>,
    #[serde(default)]
    court: Option<String>,
    #[serde(default)]
    citation: Option<String>,
    #[serde(default)]
    docket: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    date: Option<String>,
}

/// Real opinion texts: U.S. Reports vol. 557 split into its cases, and
/// single opinions joined to the cases they belong to.
fn corpus(store: &Store) -> Result<ImportReport, ImportError> {
    let name = Path::new("default/corpus/opinions.tar.gz");
    let manifest: CorpusManifest =
        serde_json::from_str(CORPUS_CASES).map_err(|e| ImportError::format(name, e.to_string()))?;
    let mut files: HashMap<String, String> = HashMap::new();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(CORPUS));
    for entry in archive.entries().map_err(|e| ImportError::io(name, e))? {
        let mut entry = entry.map_err(|e| ImportError::io(name, e))?;
        let path = entry
            .path()
            .map_err(|e| ImportError::io(name, e))?
            .to_string_lossy()
            .into_owned();
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| ImportError::io(name, e))?;
        files.insert(path, String::from_utf8_lossy(&bytes).into_owned());
    }
    let mut cases = Vec::new();
    for text in &manifest.texts {
        let Some(body) = files.get(&text.file) else {
            return Err(ImportError::format(
                name,
                format!("{} is missing", text.file),
            ));
        };
        if text.split.as_deref() == Some("us_bound_volume") {
            cases.extend(split_bound_volume(&text.file, body));
            continue;
        }
        let stem = text.file.trim_end_matches(".txt").to_string();
        let provenance = Provenance {
            source: "corpus".into(),
            id: stem.clone(),
        };
        cases.push(CorpusCase {
            record: CaseRecord {
                id: format!("corpus-{stem}"),
                name: text.name.clone().unwrap_or_default(),
                court: text.court.clone(),
                decision_date: text.date.clone(),
                docket_numbers: text.docket.iter().cloned().collect(),
                citations: text.citation.iter().map(|c| parse_simple_cite(c)).collect(),
                provenance: vec![provenance.clone()],
                ..CaseRecord::default()
            },
            text: body.clone(),
            docket: text.docket.clone().zip(text.court.clone()),
            provenance,
        });
    }
    let mut report = ImportReport::new("corpus");
    let mut progress = Progress::rows("opinions", cases.len() as u64);
    let rows = cases.into_iter().map(Ok::<_, String>);
    run_batches(
        store,
        &checkpoint("corpus"),
        name,
        rows,
        &mut progress,
        &mut report,
        |writer, case, report| {
            let opinion = NewOpinion {
                kind: "combined".into(),
                author: None,
                format: BodyFormat::Text,
                text: case.text,
                provenance: case.provenance,
            };
            let joined = match &case.docket {
                Some((docket, court)) => {
                    let namespace = if court == "scotus" {
                        "scotus-docket".to_string()
                    } else {
                        docket_namespace(court)
                    };
                    writer.external_case(&namespace, &normalize_docket(docket))?
                }
                None => None,
            };
            match joined {
                Some(case_id) => {
                    writer.add_opinion(&case_id, PreparedOpinion::new(opinion))?;
                }
                None => {
                    writer.put_case(NewCase {
                        record: case.record,
                        opinions: vec![opinion],
                    })?;
                }
            }
            report.stored += 1;
            Ok(())
        },
    )?;
    Ok(report)
}

struct CorpusCase {
    record: CaseRecord,
    text: String,
    docket: Option<(String, String)>,
    provenance: Provenance,
}

/// Splits a U.S. Reports bound volume printed from PDF into its cases: the
/// printer's marker line `557US1 Unit: $U70 …` starts each page and names
/// the unit (one unit per case), and the unit's pages carry the running
/// head `Cite as: 557 U. S. 29 (2009)`.
fn split_bound_volume(file: &str, text: &str) -> Vec<CorpusCase> {
    let mut units: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(unit) = unit_code(line) {
            if units.last().is_none_or(|(last, _)| *last != unit) {
                units.push((unit, String::new()));
            }
            continue;
        }
        if let Some((_, body)) = units.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    let mut cases = Vec::new();
    for (unit, body) in units {
        let Some((volume, page)) = cite_as(&body) else {
            continue;
        };
        let cite = format!("{volume} U.S. {page}");
        let provenance = Provenance {
            source: "corpus".into(),
            id: format!("{file}#{unit}"),
        };
        cases.push(CorpusCase {
            record: CaseRecord {
                id: format!("us-{volume}-{page}"),
                court: Some("scotus".into()),
                citations: vec![parse_simple_cite(&cite)],
                provenance: vec![provenance.clone()],
                ..CaseRecord::default()
            },
            text: body,
            docket: None,
            provenance,
        });
    }
    cases
}

/// The unit of a printer's marker line. An opinion's pages are marked
/// `557US1 Unit: $U70 [...]`; the front and back matter's are other parts
/// of the volume (`557ORD Unit: $PT1`, the orders; `Job: 557ORD Take:
/// NOT1 …`, a reporter's note; `557IND Unit: $U12`, the index), units of
/// their own so that no opinion runs on into them; an opinion in chambers
/// is stamped `557US2IC2Z 05-27-14 17:41:12 PAGES …`, the stamp's last
/// letter changing from page to page.
fn unit_code(line: &str) -> Option<String> {
    let line = line.strip_prefix("Job: ").unwrap_or(line);
    let (head, rest) = line.split_once(' ')?;
    let volume_digits = head.bytes().take_while(u8::is_ascii_digit).count();
    let part = &head[volume_digits..];
    let printer_mark = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'$';
    if volume_digits == 0 || part.is_empty() || !part.bytes().all(printer_mark) {
        return None;
    }
    let named = rest
        .strip_prefix("Unit: ")
        .or_else(|| rest.strip_prefix("Take: "));
    if let Some(unit) = named {
        let code = unit.split_whitespace().next()?;
        return Some(if part.starts_with("US") {
            code.to_string()
        } else {
            format!("{part}{code}")
        });
    }
    let stamp = rest.split_whitespace().next()?.as_bytes();
    let dated = stamp.len() == 8
        && stamp.iter().enumerate().all(|(i, b)| {
            if i == 2 || i == 5 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    dated.then(|| {
        head.trim_end_matches(|c: char| c.is_ascii_uppercase())
            .to_string()
    })
}

/// The volume and first page named by `Cite as: 557 U. S. 29 (2009)`.
fn cite_as(text: &str) -> Option<(u32, u32)> {
    let at = text.find("Cite as: ")? + "Cite as: ".len();
    let mut words = text[at..].split_whitespace();
    let volume = words.next()?.parse().ok()?;
    let (first, second) = (words.next()?, words.next()?);
    let page = if first == "U." && second == "S." {
        words.next()?
    } else {
        return None;
    };
    Some((volume, page.parse().ok()?))
}

#[derive(Deserialize)]
struct RuleSets {
    sets: Vec<RuleSet>,
}

#[derive(Deserialize)]
struct RuleSet {
    source: String,
    code: String,
    highest: u32,
    #[serde(default, rename = "lastOfArticle")]
    last_of_article: Vec<u32>,
}

#[derive(Deserialize)]
struct RuleText {
    set: String,
    rule: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    text: String,
}

/// A transcribed rule's text without the rules printed after it: the
/// transcription appends the Supplemental Rules ("Rule A. Scope of Rules",
/// …) to Civil Rule 87, whose subdivisions they are not.
fn own_rule_text(text: &str) -> &str {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let heading = line.trim_start().strip_prefix("Rule ").and_then(|rest| {
            let (number, after) = rest.split_once(". ")?;
            Some(
                !number.is_empty()
                    && !after.trim().is_empty()
                    && number.bytes().all(|b| b.is_ascii_alphanumeric()),
            )
        });
        if line_start > 0 && heading == Some(true) {
            return text[..line_start].trim_end();
        }
        line_start += line.len();
    }
    text
}

/// A transcribed rule's text as the rules print it. The transcription's
/// Markdown numbers a paragraph "6." where the Federal Rules print "(6)",
/// escapes the Supreme Court Rules' own "1." as "1\\.", leaves a space
/// where a link ended before punctuation ("Rule 4(d) ,"), and spaces the
/// letter l inside its parentheses ("( l )", as if it could be read as a
/// one), where the rules print "(l)".
fn as_printed(code: &str, text: &str) -> String {
    let text = text.replace("( l )", "(l)");
    let mut printed = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches(' ');
        printed.push_str(&line[..line.len() - body.len()]);
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        let after = &body[digits..];
        let rest = after
            .strip_prefix(". ")
            .or_else(|| after.strip_prefix("\\. "));
        match rest {
            Some(rest) if digits > 0 && code == codes::SUP_CT_R => {
                printed.push_str(&body[..digits]);
                printed.push_str(". ");
                printed.push_str(rest);
            }
            Some(rest) if digits > 0 => {
                printed.push('(');
                printed.push_str(&body[..digits]);
                printed.push_str(") ");
                printed.push_str(rest);
            }
            _ => printed.push_str(body),
        }
    }
    without_space_before_punctuation(&printed)
}

/// "Rule 4(d) , within" as "Rule 4(d), within": a space between a word
/// and the punctuation that ends it (not an ellipsis's " . . ."), or
/// between a reference and a dash run into what follows.
fn without_space_before_punctuation(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        let ends_a_word = out
            .chars()
            .next_back()
            .is_some_and(|before: char| before.is_alphanumeric() || before == ')');
        let punctuation = rest.starts_with([',', ';', ':', ')'])
            || (rest.starts_with('.') && !rest[1..].starts_with(" ."));
        // "Rule 12(b)(2) –(5)", "Rule 23(b)(3) —or": a dash run into
        // what follows it.
        let after_a_link = out.ends_with(')')
            && rest
                .strip_prefix(['–', '—'])
                .is_some_and(|after| after.starts_with(|c: char| !c.is_whitespace()));
        if c == ' ' && ((ends_a_word && punctuation) || after_a_link) {
            continue;
        }
        out.push(c);
    }
    out
}

/// The five federal rule sets: every rule number that exists, with its
/// title and text where the transcription has it; rules above a set's
/// last rule are dropped (see rule_sets.json).
fn federal_rules(store: &Store) -> Result<ImportReport, ImportError> {
    let name = Path::new("default/rules/federal_rules_index.csv");
    let sets: RuleSets =
        serde_json::from_str(RULE_SETS).map_err(|e| ImportError::format(name, e.to_string()))?;
    let mut texts_json = String::new();
    flate2::read::GzDecoder::new(RULES_TEXT)
        .read_to_string(&mut texts_json)
        .map_err(|e| ImportError::io(name, e))?;
    let texts: Vec<RuleText> =
        serde_json::from_str(&texts_json).map_err(|e| ImportError::format(name, e.to_string()))?;
    let texts: HashMap<(String, String), RuleText> = texts
        .into_iter()
        .map(|t| ((t.set.clone(), t.rule.clone()), t))
        .collect();
    let official_frcp = frcp_print_texts();
    let csv = CsvReader::new(RULES_INDEX, Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let (set_col, rule_col, title_col) =
        (csv.column("set"), csv.column("rule"), csv.column("title"));
    let mut report = ImportReport::new("federal_rules");
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let rows: Vec<Row> = csv.filter_map(Result::ok).collect();
    store.write(|txn| -> Result<(), ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        for row in &rows {
            report.rows += 1;
            let (Some(set_name), Some(rule)) = (field(row, set_col), field(row, rule_col)) else {
                continue;
            };
            let Some(set) = sets.sets.iter().find(|s| s.source == set_name) else {
                continue;
            };
            let number: u32 = rule
                .split('.')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(u32::MAX);
            if let Some(fault) = rule_number_fault(set.highest, &set.last_of_article, number) {
                report.skip(
                    name,
                    format!("{set_name} {rule}: {fault} (not a real rule)"),
                );
                continue;
            }
            let transcribed = texts.get(&(set_name.to_string(), rule.to_string()));
            let text = transcribed
                .map(|t| as_printed(&set.code, own_rule_text(&t.text)))
                .filter(|t| !t.trim().is_empty())
                .or_else(|| {
                    (set.code == codes::FRCP)
                        .then(|| official_frcp.get(rule).cloned())
                        .flatten()
                });
            let heading = field(row, title_col)
                .map(str::to_string)
                .or_else(|| transcribed.map(|t| t.title.clone()))
                .unwrap_or_default();
            writer.put_authority(&Authority {
                code: set.code.clone(),
                title: String::new(),
                section: rule.to_string(),
                heading,
                text,
                status: "live".into(),
                source: "usarscotus/legal-directory".into(),
            })?;
            *counts.entry(set.code.clone()).or_default() += 1;
            report.stored += 1;
        }
        for set in &sets.sets {
            let coverage = LawCoverage {
                live_complete: false,
                history_complete: false,
                highest: Some(set.highest),
                last_of_article: set.last_of_article.clone(),
                sections: counts.get(&set.code).copied().unwrap_or(0),
                source: "federal rules".into(),
            };
            writer.put_law_coverage(&set.code, "", &coverage)?;
        }
        writer.finish()?;
        Ok(())
    })?;
    Ok(report)
}

/// Rule texts of the official FRCP print, by rule number ("# Rule 12. …").
fn frcp_print_texts() -> HashMap<String, String> {
    let mut markdown = String::new();
    if flate2::read::GzDecoder::new(FRCP_PRINT)
        .read_to_string(&mut markdown)
        .is_err()
    {
        return HashMap::new();
    }
    let mut texts: HashMap<String, String> = HashMap::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        if let Some(rest) = line.strip_prefix("# Rule ")
            && let Some((number, _)) = rest.split_once(". ")
            && number.chars().all(|c| c.is_ascii_digit() || c == '.')
        {
            // The table of contents names some rules as headings too; the
            // rule's own heading comes after it, and its text starts there.
            texts.insert(number.to_string(), String::new());
            current = Some(number.to_string());
            continue;
        }
        let line = line.trim_start_matches("# ");
        if is_running_head(line) {
            continue;
        }
        if let Some(rule) = &current {
            let entry = texts.entry(rule.clone()).or_default();
            entry.push_str(line);
            entry.push('\n');
        }
    }
    texts
}

/// A line of the print's page heads, not of a rule: "FEDERAL RULES OF CIVIL
/// PROCEDURE", the rule a page holds ("Rule 54"), "Page 58 59".
fn is_running_head(line: &str) -> bool {
    let line = line.trim();
    let numbers = |rest: &str| {
        !rest.is_empty()
            && rest
                .split_whitespace()
                .all(|word| word.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    line == "FEDERAL RULES OF CIVIL PROCEDURE"
        || line.strip_prefix("Rule ").is_some_and(numbers)
        || line.strip_prefix("Page ").is_some_and(numbers)
}

/// Every live U.S. Code section, and the repealed, transferred and omitted
/// sections of the 19 titles whose full history is held.
fn us_code(store: &Store) -> Result<ImportReport, ImportError> {
    let mut report = ImportReport::new("usc");
    let live_headings = section_headings(USC_LIVE)?;
    let live_titles = title_counts(&live_headings);
    let history_titles = title_counts(&section_headings(USC_STATUS)?);
    let name = Path::new("default/usc/usc_sections_live_rp119-100.csv");
    let csv = CsvReader::new(gunzip(USC_LIVE), Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let (title, section, heading) = (
        csv.column("title"),
        csv.column("section"),
        csv.column("heading"),
    );
    let mut progress = Progress::rows("u.s. code", 50_936);
    run_batches(
        store,
        &checkpoint("usc_live"),
        name,
        csv,
        &mut progress,
        &mut report,
        |writer, row, report| {
            let (Some(t), Some(s)) = (field(&row, title), field(&row, section)) else {
                return Ok(());
            };
            let key = (t.to_string(), s.to_string());
            writer.put_authority(&Authority {
                heading: live_headings
                    .get(&key)
                    .cloned()
                    .unwrap_or_else(|| field(&row, heading).unwrap_or_default().to_string()),
                code: codes::USC.into(),
                title: key.0,
                section: key.1,
                text: None,
                status: "live".into(),
                source: "OLRC release point 119-100".into(),
            })?;
            report.stored += 1;
            Ok(())
        },
    )?;
    let name = Path::new("default/usc/usc_sections_with_status_19titles_rp119-36.csv");
    let csv = CsvReader::new(gunzip(USC_STATUS), Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let (title, section, heading, status) = (
        csv.column("title"),
        csv.column("section"),
        csv.column("heading"),
        csv.column("status"),
    );
    let mut progress = Progress::rows("u.s. code history", 3_372);
    run_batches(
        store,
        &checkpoint("usc_history"),
        name,
        csv,
        &mut progress,
        &mut report,
        |writer, row, report| {
            let (Some(t), Some(s)) = (field(&row, title), field(&row, section)) else {
                return Ok(());
            };
            let Some(dead) = field(&row, status) else {
                return Ok(());
            };
            // Range rows ("202...204") stand for each section in the range.
            for number in expand_range(s) {
                writer.put_authority(&Authority {
                    code: codes::USC.into(),
                    title: t.to_string(),
                    section: number,
                    heading: field(&row, heading).unwrap_or_default().to_string(),
                    text: None,
                    status: dead.to_string(),
                    source: "OLRC release point 119-36".into(),
                })?;
                report.stored += 1;
            }
            Ok(())
        },
    )?;
    store.write(|txn| -> Result<(), ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        for (t, sections) in &live_titles {
            let coverage = LawCoverage {
                live_complete: true,
                history_complete: history_titles.contains_key(t),
                highest: None,
                last_of_article: Vec::new(),
                sections: *sections,
                source: "U.S. Code".into(),
            };
            writer.put_law_coverage(codes::USC, t, &coverage)?;
        }
        writer.finish()?;
        Ok(())
    })?;
    Ok(report)
}

/// Sections per title of an embedded CSV's [`section_headings`] (coverage
/// is written from these, so a resumed build that skips finished rows still
/// writes it).
fn title_counts(sections: &BTreeMap<(String, String), String>) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for (title, _) in sections.keys() {
        *counts.entry(title.clone()).or_default() += 1;
    }
    counts
}

/// Each (title, section) a Code file lists, with its heading; the headings
/// of a number the Code gives two sections ("5 U.S.C. § 5757") joined by
/// " | ", so neither is lost.
fn section_headings(
    bytes: &'static [u8],
) -> Result<BTreeMap<(String, String), String>, ImportError> {
    let name = Path::new("default/section headings");
    let csv = CsvReader::new(gunzip(bytes), Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let (title, section, heading) = (
        csv.column("title"),
        csv.column("section"),
        csv.column("heading"),
    );
    let mut headings: BTreeMap<(String, String), String> = BTreeMap::new();
    for row in csv.flatten() {
        let (Some(t), Some(s)) = (field(&row, title), field(&row, section)) else {
            continue;
        };
        let this = field(&row, heading).unwrap_or_default();
        let held = headings.entry((t.to_string(), s.to_string())).or_default();
        if held.is_empty() {
            held.push_str(this);
        } else if !held.split(" | ").any(|h| h == this) {
            held.push_str(" | ");
            held.push_str(this);
        }
    }
    Ok(headings)
}

/// The sections one row of the status file stands for: "202...204" → 202,
/// 203, 204; "45...46b" → 45, 46, 46a, 46b; "228a...228c-1" → 228a, 228b,
/// 228c, 228c-1; "155 /us/usc/t35/s155A" (one row for two sections) → 155,
/// 155A; anything else stands for itself.
fn expand_range(section: &str) -> Vec<String> {
    if let Some((first, identifier)) = section.split_once(' ') {
        let mut sections = vec![first.to_string()];
        if let Some((_, second)) = identifier.rsplit_once("/s") {
            sections.push(second.to_string());
        }
        return sections;
    }
    let Some((from, to)) = section.split_once("...") else {
        return vec![section.to_string()];
    };
    let (Some((from_base, from_suffix)), Some((to_base, to_suffix))) =
        (base_and_suffix(from), base_and_suffix(to))
    else {
        return vec![section.to_string()];
    };
    if from_base > to_base || to_base - from_base >= 1000 {
        return vec![section.to_string()];
    }
    let mut sections = vec![from.to_string()];
    let first_letter = if from_base == to_base {
        from_suffix.chars().next().unwrap_or('a')
    } else {
        sections.extend((from_base + 1..=to_base).map(|n| n.to_string()));
        'a'
    };
    if let Some(last_letter) = to_suffix.chars().next().filter(char::is_ascii_lowercase) {
        sections.extend((first_letter..=last_letter).map(|letter| format!("{to_base}{letter}")));
    }
    sections.push(to.to_string());
    let mut unique = Vec::new();
    for section in sections {
        if !unique.contains(&section) {
            unique.push(section);
        }
    }
    unique
}

/// "46b" → (46, "b").
fn base_and_suffix(section: &str) -> Option<(u32, &str)> {
    let digits = section.len()
        - section
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    Some((section[..digits].parse().ok()?, &section[digits..]))
}

/// The partial CFR index: sections and appendices of 21 titles.
fn cfr(store: &Store) -> Result<ImportReport, ImportError> {
    let name = Path::new("default/cfr/cfr_sections_partial.csv");
    let csv = CsvReader::new(gunzip(CFR_SECTIONS), Dialect::Rfc4180)
        .map_err(|e| ImportError::format(name, e.to_string()))?;
    let (title, section, heading, reserved) = (
        csv.column("title"),
        csv.column("section"),
        csv.column("heading"),
        csv.column("reserved"),
    );
    let mut report = ImportReport::new("cfr");
    let titles = title_counts(&section_headings(CFR_SECTIONS)?);
    let mut progress = Progress::rows("cfr", 46_828);
    run_batches(
        store,
        &checkpoint("cfr"),
        name,
        csv,
        &mut progress,
        &mut report,
        |writer, row, report| {
            let (Some(t), Some(s)) = (field(&row, title), field(&row, section)) else {
                return Ok(());
            };
            let status = if field(&row, reserved) == Some("1") {
                "reserved"
            } else {
                "live"
            };
            writer.put_authority(&Authority {
                code: codes::CFR.into(),
                title: t.to_string(),
                section: s.to_string(),
                heading: field(&row, heading).unwrap_or_default().to_string(),
                text: None,
                status: status.into(),
                source: "eCFR structure".into(),
            })?;
            report.stored += 1;
            Ok(())
        },
    )?;
    store.write(|txn| -> Result<(), ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        for (t, sections) in &titles {
            let coverage = LawCoverage {
                live_complete: CFR_COMPLETE_TITLES.contains(&t.as_str()),
                history_complete: false,
                highest: None,
                last_of_article: Vec::new(),
                sections: *sections,
                source: "eCFR".into(),
            };
            writer.put_law_coverage(codes::CFR, t, &coverage)?;
        }
        writer.finish()?;
        Ok(())
    })?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_official_prints_rules_leave_out_its_contents_and_page_heads() {
        let texts = frcp_print_texts();
        let conducting_business = &texts["77"];
        assert!(
            conducting_business.contains("WHEN COURT IS OPEN")
                && !conducting_business.contains("TITLE XI"),
            "{conducting_business}"
        );
        let judgment = &texts["54"];
        assert!(judgment.contains("DEMAND FOR JUDGMENT"));
        for head in [
            "FEDERAL RULES OF CIVIL PROCEDURE\n",
            "\nRule 54\n",
            "\nPage ",
        ] {
            assert!(!judgment.contains(head), "{head:?} in {judgment}");
        }
    }

    #[test]
    fn a_rule_is_numbered_and_punctuated_as_printed() {
        let transcribed = "(b) How to Present.\n\n6. failure to state a claim ;\n    - (A) under Rule 4(d) , within Rule 19 .\n  12\\. Rule (2) : x, 12(b)(2) –(5) and 23(b)(3) —or (a) — b\n";
        assert_eq!(
            as_printed(codes::FRCP, transcribed),
            "(b) How to Present.\n\n(6) failure to state a claim;\n    - (A) under Rule 4(d), within Rule 19.\n  (12) Rule (2): x, 12(b)(2)–(5) and 23(b)(3)—or (a) — b\n"
        );
        assert_eq!(
            as_printed(codes::FRCP, "( l ) Proving Service. Rule 4( l ) governs"),
            "(l) Proving Service. Rule 4(l) governs"
        );
        // The Supreme Court Rules number their paragraphs "1.".
        assert_eq!(
            as_printed(codes::SUP_CT_R, "1\\. A petition\n2. Another"),
            "1. A petition\n2. Another"
        );
        // A number that opens no item, an ellipsis, and a space after
        // punctuation.
        for kept in ["2024 was the year", "1.5 days", "a . . . b", "(a), (b) ; c"] {
            assert_eq!(as_printed(codes::FRE, kept), kept.replace(" ;", ";"));
        }
    }

    #[test]
    fn a_rules_text_ends_where_another_rule_begins() {
        let text = "(c) Emergency Rules.\n\n2. Rule 6(b)(2). Under Rule 4. Service.\n\nRule A. Scope of Rules\n\n1. These Supplemental Rules apply.";
        assert_eq!(
            own_rule_text(text),
            "(c) Emergency Rules.\n\n2. Rule 6(b)(2). Under Rule 4. Service."
        );
        assert_eq!(own_rule_text("Rule 4. Summons"), "Rule 4. Summons");
    }

    #[test]
    fn every_fastcase_sample_has_its_court() {
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(FASTCASE));
        let mut courts = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let Some(stem) = path.strip_suffix(".xml").map(str::to_string) else {
                continue;
            };
            let mut xml = String::new();
            entry.read_to_string(&mut xml).unwrap();
            let case = parse_fastcase(&stem, &xml, None).unwrap();
            courts.push((stem, case.record.court));
        }
        assert_eq!(courts.len(), 33);
        let missing: Vec<_> = courts.iter().filter(|(_, court)| court.is_none()).collect();
        assert!(missing.is_empty(), "{missing:?}");
        let supreme_court = courts
            .iter()
            .filter(|(_, court)| court.as_deref() == Some("scotus"));
        assert_eq!(supreme_court.count(), 1, "abbreviated \"U.S.\"");
        // "DC" is also the abbreviation of the District's criminal court;
        // the name says which.
        let court_of = |stem_end: &str| {
            courts
                .iter()
                .find(|(stem, _)| stem.ends_with(stem_end))
                .and_then(|(_, court)| court.clone())
        };
        assert_eq!(court_of("100a3d1076_Replace2").as_deref(), Some("dc"));
    }

    #[test]
    fn fastcase_dates_in_either_order_become_iso() {
        assert_eq!(fastcase_date("2013-12-24").as_deref(), Some("2013-12-24"));
        assert_eq!(fastcase_date("12-24-2013").as_deref(), Some("2013-12-24"));
        assert_eq!(fastcase_date("1-8-2010").as_deref(), Some("2010-01-08"));
        assert_eq!(fastcase_date("2010-1-8").as_deref(), Some("2010-01-08"));
        assert_eq!(fastcase_date("2-30-2010"), None);
        assert_eq!(fastcase_date("24-12"), None);
        assert_eq!(fastcase_date("x-1-2010"), None);
    }

    #[test]
    fn scraper_names_give_court_ids() {
        assert_eq!(scraper_court("illappct_example"), "illappct");
        assert_eq!(scraper_court("ohioctapp_3_example"), "ohioctapp");
        assert_eq!(scraper_court("nyappdiv_2nd_example_2"), "nyappdiv");
        assert_eq!(scraper_court("scotus_slip_example"), "scotus");
        assert_eq!(scraper_court("delaware_example"), "del");
        assert_eq!(scraper_court("txctapp14_example"), "texapp");
        assert_eq!(scraper_court("txctapp_example"), "txctapp");
        assert_eq!(
            scraper_court("tenn_workers_comp_example"),
            "tennworkcompapp"
        );
        assert_eq!(scraper_court("tenn_example"), "tenn");
    }

    #[test]
    fn bound_volume_pages_name_their_case() {
        assert_eq!(
            cite_as("31 Cite as: 557 U. S. 29 (2009)\nSyllabus"),
            Some((557, 29))
        );
        assert_eq!(
            unit_code("557US1 Unit: $U70 [06-10-14 18:12:34] PAGES PGT: OPIN").as_deref(),
            Some("$U70")
        );
        assert_eq!(unit_code("Justice Breyer delivered the opinion"), None);
        // The back matter and an opinion in chambers are units of their own.
        assert_eq!(
            unit_code("557ORD Unit: $PT1 [07-07-14 13:19:01] PGT: ORDBV").as_deref(),
            Some("ORD$PT1")
        );
        assert_eq!(
            unit_code("557US2IC2Z 05-27-14 17:41:12 PAGES IC13BXPGT").as_deref(),
            unit_code("557US2IC2Q 05-27-14 17:41:12 PAGES IC13BXPGT").as_deref(),
        );
        assert_eq!(
            unit_code("Job: 557ORD Take: NOT1 Date/Time: 06-09-14 10:34:17").as_deref(),
            Some("ORDNOT1")
        );
        assert_eq!(unit_code("03-29-12 14:32:26 557US2 1401"), None);
        assert_eq!(unit_code("1303 Cite as: 557 U. S. 1301 (2009)"), None);
        assert_eq!(expand_range("202...204"), ["202", "203", "204"]);
        assert_eq!(expand_range("45...46b"), ["45", "46", "46a", "46b"]);
        assert_eq!(expand_range("63a...63d"), ["63a", "63b", "63c", "63d"]);
        assert_eq!(
            expand_range("228a...228c-1"),
            ["228a", "228b", "228c", "228c-1"]
        );
        assert_eq!(expand_range("155 /us/usc/t35/s155A"), ["155", "155A"]);
        assert_eq!(expand_range("1 /us/usc/t24/s2"), ["1", "2"]);
        assert_eq!(expand_range("1983"), ["1983"]);
        assert_eq!(normalize_docket("No. 11–345"), "11-345");
    }
}

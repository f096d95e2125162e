//! CourtListener bulk data: one `<table>-YYYY-MM-DD.csv[.bz2]` per table,
//! loaded in foreign-key order (courts → dockets → clusters → citations →
//! opinions → citation map → parentheticals; FORMATS.md §1). Citations
//! come before opinions, which depend on clusters only, so that the cases
//! an opinion cites are already indexed when its text is read.
//!
//! Each table is read in two steps: rows are parsed (and opinions
//! compressed and read for citations) on every core, then applied to the
//! store in file order by the one writer.

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::csv::{CsvReader, Dialect, Row, RowError};
use super::{
    Batches, Checkpoint, DecisionDate, ImportError, ImportReport, Input, InputMeter, Progress,
    UnknownReporters, checkpoint_file_name, checkpoint_key, decision_date, each_row, open_input,
    opinions_refused, real_date, unpaged_volume, volume_or_page_number, warn_recoded,
};
use crate::library::cite_snapshot::{CiteSnapshot, MAX_SNAPSHOT_KEYS};
use crate::library::model::{
    BodyFormat, CaseCitation, CaseRecord, CiteKey, NewCase, NewOpinion, Provenance,
};
use crate::library::store::{
    CitationsAdded, DocketInfo, LibraryWriter, NamedIds, OpinionAdded, PreparedOpinion, Unjoined,
    holds_import_dockets, meta_value,
};
use crate::library::text::markup_to_text;
use crate::store::{Store, StoreError};

pub const SOURCE: &str = "courtlistener";

/// The tables read, in load order, by file-name prefix.
const TABLES: &[Table] = &[
    Table::Courts,
    Table::Dockets,
    Table::Clusters,
    Table::Citations,
    Table::Opinions,
    Table::CitationMap,
    Table::Parentheticals,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Courts,
    Dockets,
    Clusters,
    Opinions,
    Citations,
    CitationMap,
    Parentheticals,
}

impl Table {
    /// What the rows name by id, from a table loaded before this one.
    fn names_records_of(self) -> Option<&'static str> {
        match self {
            Table::Opinions | Table::Citations => Some("clusters"),
            Table::CitationMap | Table::Parentheticals => Some("opinions"),
            Table::Courts | Table::Dockets | Table::Clusters => None,
        }
    }

    /// Its files' checkpoints' kind ([`checkpoint_key`]).
    fn kind(self) -> String {
        format!("{SOURCE}-{}", self.label())
    }

    /// Its name in progress bars and reports: its files' prefix.
    fn label(self) -> &'static str {
        self.prefix().trim_end_matches('-')
    }

    fn prefix(self) -> &'static str {
        match self {
            Table::Courts => "courts-",
            Table::Dockets => "dockets-",
            Table::Clusters => "opinion-clusters-",
            Table::Opinions => "opinions-",
            Table::Citations => "citations-",
            Table::CitationMap => "citation-map-",
            Table::Parentheticals => "parentheticals-",
        }
    }

    /// Rows per batch when the user does not say: opinions carry their
    /// text (a few KB each), the other tables a few short fields.
    fn rows_per_batch(self) -> usize {
        match self {
            Table::Opinions => super::BATCH_ROWS,
            _ => 10 * super::BATCH_ROWS,
        }
    }

    /// The ids its rows name, which the library may lack.
    fn names(self) -> Option<NamedIds> {
        match self {
            Table::Opinions | Table::Citations => Some(NamedIds::Cases(SOURCE)),
            Table::CitationMap | Table::Parentheticals => Some(NamedIds::CourtListenerOpinions),
            Table::Courts | Table::Dockets | Table::Clusters => None,
        }
    }

    fn required_columns(self) -> &'static [&'static str] {
        match self {
            Table::Courts => &["id", "full_name", "citation_string", "jurisdiction"],
            Table::Dockets => &["id", "court_id", "docket_number"],
            Table::Clusters => &[
                "id",
                "case_name",
                "date_filed",
                "docket_id",
                "precedential_status",
            ],
            Table::Opinions => &[
                "id",
                "cluster_id",
                "type",
                "plain_text",
                "html_with_citations",
            ],
            Table::Citations => &["volume", "reporter", "page", "cluster_id"],
            Table::CitationMap => &["cited_opinion_id", "citing_opinion_id", "depth"],
            Table::Parentheticals => &["text", "described_opinion_id", "describing_opinion_id"],
        }
    }
}

/// Options of `lexstack import courtlistener`.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Count the (reporter, volume) pairs of the citations table as held
    /// completely (a full CourtListener dump); off for partial extracts.
    pub mark_coverage: bool,
    /// Rows per committed batch (the resume granularity); by default a
    /// size per table.
    pub batch_rows: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            mark_coverage: true,
            batch_rows: None,
        }
    }
}

/// Imports every CourtListener table file found in `dir`. What it stores
/// waits for the search index ([`Library::index_pending`]), as with the
/// other importers.
///
/// [`Library::index_pending`]: crate::library::Library::index_pending
pub fn import_dir(
    store: &Store,
    dir: &Path,
    options: Options,
) -> Result<ImportReport, ImportError> {
    let files = table_files(dir)?;
    if files.is_empty() {
        return Err(ImportError::format(
            dir,
            "no CourtListener bulk files here (expected names like opinion-clusters-2024-05-06.csv.bz2)",
        ));
    }
    // Every file's header is read before any is imported, so that a file
    // the import would stop at stops it before the library changes.
    let opened = files
        .into_iter()
        .map(|(table, path)| Ok((table, open_table(table, &path)?, path)))
        .collect::<Result<Vec<_>, ImportError>>()?;
    super::mark_folder_import(store, SOURCE, dir, false)?;
    let mut report = ImportReport::new(SOURCE);
    let mut joins = Joins::default();
    let reads_clusters = opened
        .iter()
        .any(|(table, ..)| matches!(table, Table::Clusters));
    let mut clusters_skipped = 0;
    // A file that cannot be read to its end is listed, and the others are
    // imported: rows of later tables naming what it did not bring are
    // skipped, and read again once a mended file brings it.
    for (table, file, path) in opened {
        let clusters = matches!(table, Table::Clusters);
        let mut read = ImportReport::new(format!("{SOURCE} {}", table.label()));
        let outcome = import_table(store, table, file, &path, options, &mut joins, &mut read);
        if read.stored == 0
            && read.naming_missing > 0
            && let Some(named) = table.names_records_of()
        {
            read.note(format!(
                "{}: its rows name CourtListener {named} the library lacks, and none was stored: \
                 if the dump's {named} file is missing, import it first, or with this one in one \
                 folder",
                path.display()
            ));
        }
        if clusters {
            clusters_skipped += read.skipped + read.skipped_earlier + u64::from(outcome.is_err());
        }
        report.absorb_file(read, outcome)?;
    }
    // The dockets give clusters their courts, so they stay until a run
    // reads clusters: one of dockets alone keeps them for the clusters of
    // the next, and so does one with skipped cluster rows or a clusters
    // file not read to its end, where the mended clusters are read.
    if reads_clusters && clusters_skipped == 0 {
        store.write(|txn| -> Result<(), ImportError> {
            let mut writer = LibraryWriter::new(txn)?;
            writer.clear_dockets()?;
            writer.finish()?;
            Ok(())
        })?;
    }
    if !reads_clusters {
        note_clusters_waiting_for_dockets(store, &mut report)?;
    }
    if report.failed_files.is_empty() {
        super::mark_folder_import(store, SOURCE, dir, true)?;
    }
    Ok(report)
}

/// The table files in `dir` (`.csv`, compressed or not), in load order
/// (several dumps of one table in name order).
fn table_files(dir: &Path) -> Result<Vec<(Table, PathBuf)>, ImportError> {
    if dir.is_file() {
        return Err(ImportError::format(
            dir,
            "a file: give the folder of a CourtListener bulk dump, which holds its tables' files",
        ));
    }
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ImportError::io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            // Not checksums (`.csv.bz2.md5`), partial downloads (`.part`) or
            // stray copies (`.csv.orig`) lying beside the dump.
            [".csv", ".csv.bz2", ".csv.gz", ".csv.xz"]
                .iter()
                .any(|ending| name.ends_with(ending))
        })
        .collect();
    names.sort();
    let mut files = Vec::new();
    for table in TABLES {
        for path in &names {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            // "citations-" must not take "citation-map-" files, nor "opinions-"
            // take "opinion-clusters-": the prefixes differ before the dash.
            if name.starts_with(table.prefix()) {
                files.push((*table, path.clone()));
            }
        }
    }
    Ok(files)
}

/// CourtListener ids → the library's case ids, for joining rows without a
/// store read each: clusters (read once the clusters are stored, for
/// citations and opinions) and opinions (read once the opinions are
/// stored, for the citation map and parentheticals). One is held at a
/// time (the tables come in that order; reading the other again costs a
/// scan of the store): each grows with the dump.
#[derive(Default)]
struct Joins {
    clusters: Option<CaseIds>,
    opinions: Option<CaseIds>,
}

impl Joins {
    fn clusters(&mut self, store: &Store) -> Result<&CaseIds, ImportError> {
        Ok(self.clusters_mut(store)?)
    }

    fn clusters_mut(&mut self, store: &Store) -> Result<&mut CaseIds, ImportError> {
        if self.clusters.is_none() {
            self.opinions = None;
            let mut ids = CaseIds::default();
            store.read(|txn| {
                crate::library::store::external_ids(txn, SOURCE, |cluster, case_id| {
                    if let Ok(cluster) = cluster.parse() {
                        ids.insert(cluster, case_id);
                    }
                })
            })?;
            self.clusters = Some(ids);
        }
        Ok(self.clusters.get_or_insert_default())
    }

    fn opinions(&mut self, store: &Store) -> Result<&CaseIds, ImportError> {
        if self.opinions.is_none() {
            self.clusters = None;
            let mut ids = CaseIds::default();
            store.read(|txn| {
                crate::library::store::courtlistener_opinions(txn, |opinion, case_id| {
                    ids.insert(opinion, case_id);
                })
            })?;
            self.opinions = Some(ids);
        }
        Ok(self.opinions.get_or_insert_default())
    }
}

/// A map from CourtListener ids to case ids, compact for the common
/// `cl-<cluster>` ids: a number each (16 bytes an entry; ids as strings took
/// twice that).
#[derive(Default)]
struct CaseIds {
    /// The cluster number of a `cl-<cluster>` case, or [`OTHER_CASE`] and
    /// the place of its id in `others`.
    cases: FxHashMap<u64, u64>,
    others: Vec<Box<str>>,
}

const OTHER_CASE: u64 = 1 << 63;

impl CaseIds {
    fn insert(&mut self, id: u64, case_id: &str) {
        let cluster = case_id
            .strip_prefix("cl-")
            .and_then(|n| n.parse::<u64>().ok())
            .filter(|&n| n < OTHER_CASE && format!("cl-{n}") == case_id);
        let case = cluster.unwrap_or_else(|| {
            self.others.push(case_id.into());
            OTHER_CASE | (self.others.len() - 1) as u64
        });
        self.cases.insert(id, case);
    }

    fn case_id(&self, id: u64) -> Option<String> {
        let case = *self.cases.get(&id)?;
        if case & OTHER_CASE == 0 {
            return Some(format!("cl-{case}"));
        }
        let other = usize::try_from(case & !OTHER_CASE).ok()?;
        self.others.get(other).map(|id| id.to_string())
    }
}

/// A table file opened, its header read.
struct TableFile {
    csv: CsvReader<Box<dyn BufRead + Send>>,
    meter: Arc<InputMeter>,
    size: u64,
}

/// Opens a table file and reads its header, which must have the table's
/// columns.
fn open_table(table: Table, path: &Path) -> Result<TableFile, ImportError> {
    let Input {
        reader,
        meter,
        size,
    } = open_input(path)?;
    // Headers are read before any file is imported: one that cannot be
    // read stops the import with the library unchanged.
    let csv = CsvReader::new(reader, Dialect::Postgres).map_err(|e| {
        let why = match meter.fault() {
            Some(fault) => format!(
                "unreadable before its header row ends ({fault}); no file of the import was read"
            ),
            None => e.to_string(),
        };
        ImportError::format(path, why)
    })?;
    let missing = csv.missing_columns(table.required_columns());
    if !missing.is_empty() {
        return Err(ImportError::format(
            path,
            format!("header has no column {}", missing.join(", ")),
        ));
    }
    let csv = csv.reporting_cuts_to(meter.clone());
    Ok(TableFile { csv, meter, size })
}

/// Imports one table's file, telling `report` what it did, also of the
/// rows read before a failure.
fn import_table(
    store: &Store,
    table: Table,
    file: TableFile,
    path: &Path,
    options: Options,
    joins: &mut Joins,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    let TableFile { csv, meter, size } = file;
    let label = table.label();
    let mut progress = Progress::new(label, meter, size);
    let columns = Columns {
        names: csv.header().to_vec(),
    };
    // A sample's citations hold no volume: the same file read again as a
    // whole dump is read again.
    let table_kind = table.kind();
    let kind = if table == Table::Citations && !options.mark_coverage {
        format!("{table_kind}-partial")
    } else {
        table_kind.clone()
    };
    let key = checkpoint_key(&kind, path, size);
    let batches = Batches {
        store,
        key: &key,
        file: path,
        rows_per_batch: options.batch_rows.unwrap_or(table.rows_per_batch()),
        names: table.names(),
    };
    if table == Table::Clusters {
        read_again_with_dockets(store, &key, path, report)?;
    }
    // A file an earlier run finished needs none of the set-up below (the
    // joins and the citation snapshot read the whole store).
    let Some(start) = batches.start(report)? else {
        return Ok(());
    };
    let report_ref = report;
    let progress = &mut progress;
    match table {
        Table::Courts => {
            let c = CourtColumns::new(&columns);
            let mut courts = BTreeMap::new();
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| court(&c, row)),
                progress,
                report_ref,
                each_row(
                    path,
                    stored(path, |_, (id, court)| {
                        courts.insert(id, court);
                        STORED
                    }),
                ),
            )?;
            save_courts(store, courts)?;
        }
        Table::Dockets => {
            let c = DocketColumns::new(&columns);
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| docket(&c, row)),
                progress,
                report_ref,
                each_row(
                    path,
                    stored(path, |writer, (id, docket)| {
                        writer.put_docket(id, &docket)?;
                        STORED
                    }),
                ),
            )?;
        }
        Table::Clusters => {
            let c = ClusterColumns::new(&columns);
            // A second row with an id already read would be merged into
            // that case: it is reported and skipped instead.
            let mut seen = FxHashSet::default();
            let mut before_dockets = BeforeDockets {
                key: &key,
                clusters: 0,
            };
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| cluster(&c, row)),
                progress,
                report_ref,
                each_row(
                    path,
                    stored(path, |writer, cluster: ClusterRow| {
                        if !seen.insert(cluster.cluster) {
                            return Ok(Err(Skip::Malformed(format!(
                                "cluster {} appears again in this file (the first row is kept)",
                                cluster.cluster
                            ))));
                        }
                        store_cluster(writer, cluster, &mut before_dockets)
                    }),
                ),
            )?;
            if before_dockets.clusters > 0 {
                report_ref.note(format!(
                    "{}: {} clusters name a docket, but the library held no dockets (the dump's \
                     dockets file is read before its clusters), so they have no court or docket \
                     number yet; import the dockets file, and this file is read again to give \
                     them theirs",
                    path.display(),
                    before_dockets.clusters
                ));
            }
        }
        Table::Citations => {
            let c = CitationColumns::new(&columns);
            let clusters = joins.clusters_mut(store)?;
            let mut unknown_reporters = UnknownReporters::default();
            // A whole file after an earlier one lists what each case has,
            // so what it no longer lists can be withdrawn. The first file
            // has nothing to withdraw and is spared the listing.
            let listing = options.mark_coverage && follows_another_file(store, &table_kind, &key)?;
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| citation(&c, row)),
                progress,
                report_ref,
                |writer, batch, report| {
                    store_citations(
                        writer,
                        path,
                        batch,
                        report,
                        clusters,
                        CitationsRun { options, listing },
                        &mut unknown_reporters,
                    )
                },
            )?;
            unknown_reporters.note(report_ref, path);
        }
        Table::Opinions => {
            let c = OpinionColumns::new(&columns);
            let clusters = joins.clusters(store)?;
            // Opinion rows add no citations and an import is the library's
            // only writer, so the index read once here is the one the writer
            // would read for every row of the table.
            let cites = store.read(|txn| CiteSnapshot::load(txn, MAX_SNAPSHOT_KEYS))?;
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| opinion(&c, row, cites.as_ref())),
                progress,
                report_ref,
                each_row(
                    path,
                    stored(path, |writer, row| store_opinion(writer, row, clusters)),
                ),
            )?;
        }
        Table::CitationMap => {
            let c = CitationMapColumns::new(&columns);
            let opinions = joins.opinions(store)?;
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| citation_map(&c, row, opinions)),
                progress,
                report_ref,
                |writer, batch, report| store_citation_map(writer, path, batch, report),
            )?;
        }
        Table::Parentheticals => {
            let c = ParentheticalColumns::new(&columns);
            let opinions = joins.opinions(store)?;
            batches.run(
                start,
                csv,
                |row| parse(&row, |row| parenthetical(&c, row)),
                progress,
                report_ref,
                each_row(
                    path,
                    stored(path, |writer, p: ParentheticalRow| {
                        let describing = opinions.case_id(p.describing);
                        let described = opinions.case_id(p.described);
                        match (describing, described) {
                            (Some(from), Some(to)) => {
                                writer.add_parenthetical(&from, &to, &p.text)?;
                                STORED
                            }
                            (describing, described) => {
                                let mut missing: Vec<String> =
                                    [(describing, p.describing), (described, p.described)]
                                        .into_iter()
                                        .filter(|(case, _)| case.is_none())
                                        .map(|(_, id)| id.to_string())
                                        .collect();
                                // One opinion describing itself is named once.
                                missing.dedup();
                                let (opinion, are) = match missing.len() {
                                    1 => ("opinion", "is"),
                                    _ => ("opinions", "are"),
                                };
                                Ok(Err(Skip::NamingMissing(format!(
                                    "{opinion} {} {are} not in the library",
                                    missing.join(" and ")
                                ))))
                            }
                        }
                    }),
                ),
            )?;
        }
    }
    Ok(())
}

fn save_courts(store: &Store, courts: BTreeMap<String, CourtInfo>) -> Result<(), ImportError> {
    if courts.is_empty() {
        return Ok(());
    }
    store.write(|txn| -> Result<(), ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        let mut known: BTreeMap<String, CourtInfo> = writer.get_meta("courts")?.unwrap_or_default();
        known.extend(courts);
        writer.set_meta("courts", &known)?;
        writer.finish()?;
        Ok(())
    })
}

/// A row parsed off the writer: its value, or why it cannot be used.
struct Parsed<T> {
    line: u64,
    value: Result<T, String>,
    /// The row was not UTF-8 and was read as Windows-1252.
    recoded: bool,
}

fn parse<T>(row: &Row, read: impl FnOnce(&Row) -> Result<T, String>) -> Parsed<T> {
    Parsed {
        line: row.line,
        value: read(row),
        recoded: row.recoded,
    }
}

/// Why a row was skipped.
enum Skip {
    /// The row cannot be read as what its table holds.
    Malformed(String),
    /// The row names a case or opinion the library lacks.
    NamingMissing(String),
}

/// What storing a parsed row did: `Ok(Err(skip))` skips the row;
/// `Ok(Ok(Some(why)))` stores it with a value left out.
type RowOutcome = Result<Result<Option<String>, Skip>, ImportError>;

const STORED: RowOutcome = Ok(Ok(None));

/// Stores each parsed row with `store`, counting it stored or skipped
/// (with its line and the reason).
fn stored<'p, T>(
    path: &'p Path,
    mut store: impl FnMut(&mut LibraryWriter<'_>, T) -> RowOutcome + 'p,
) -> impl FnMut(&mut LibraryWriter<'_>, Parsed<T>, &mut ImportReport) -> Result<(), ImportError> + 'p
{
    move |writer, parsed, report| {
        let (line, recoded) = (parsed.line, parsed.recoded);
        let outcome = match parsed.value {
            Ok(value) => store(writer, value)?,
            Err(why) => Err(Skip::Malformed(why)),
        };
        match outcome {
            Ok(warning) => {
                if recoded {
                    warn_recoded(path, line, report);
                }
                report.stored += 1;
                if let Some(why) = warning {
                    report.warn(path, format!("line {line}: {why}"));
                }
            }
            Err(Skip::Malformed(why)) => report.skip(path, format!("line {line}: {why}")),
            Err(Skip::NamingMissing(why)) => {
                report.skip_naming_missing(path, format!("line {line}: {why}"))
            }
        }
        Ok(())
    }
}

/// The header of a table file.
struct Columns {
    names: Vec<String>,
}

impl Columns {
    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    fn col(&self, name: &'static str) -> Col {
        Col {
            name,
            index: self.index(name),
        }
    }
}

/// A column, found once in the header.
#[derive(Clone, Copy)]
struct Col {
    name: &'static str,
    index: Option<usize>,
}

impl Col {
    /// The value, when present and not empty.
    fn get(self, row: &Row) -> Option<&str> {
        row.field(self.index?).filter(|v| !v.is_empty())
    }

    fn text(self, row: &Row) -> Option<String> {
        self.get(row).map(str::to_string)
    }

    fn id(self, row: &Row) -> Result<u64, String> {
        let value = self
            .get(row)
            .ok_or_else(|| format!("{} is empty", self.name))?;
        value.trim().parse().map_err(|_| {
            format!(
                "{} {value:?} is not an id (a whole number from 0 to {})",
                self.name,
                u64::MAX
            )
        })
    }
}

/// What the library keeps about a court (for display).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CourtInfo {
    pub full_name: String,
    pub citation_string: String,
    pub jurisdiction: String,
}

struct CourtColumns {
    id: Col,
    full_name: Col,
    citation_string: Col,
    jurisdiction: Col,
}

impl CourtColumns {
    fn new(c: &Columns) -> Self {
        Self {
            id: c.col("id"),
            full_name: c.col("full_name"),
            citation_string: c.col("citation_string"),
            jurisdiction: c.col("jurisdiction"),
        }
    }
}

fn court(c: &CourtColumns, row: &Row) -> Result<(String, CourtInfo), String> {
    let id = c.id.text(row).ok_or("court id is empty")?;
    let field = |col: Col| col.text(row).unwrap_or_default();
    Ok((
        id,
        CourtInfo {
            full_name: field(c.full_name),
            citation_string: field(c.citation_string),
            jurisdiction: field(c.jurisdiction),
        },
    ))
}

struct DocketColumns {
    id: Col,
    court_id: Col,
    docket_number: Col,
}

impl DocketColumns {
    fn new(c: &Columns) -> Self {
        Self {
            id: c.col("id"),
            court_id: c.col("court_id"),
            docket_number: c.col("docket_number"),
        }
    }
}

fn docket(c: &DocketColumns, row: &Row) -> Result<(u64, DocketInfo), String> {
    Ok((
        c.id.id(row)?,
        DocketInfo {
            court: c.court_id.text(row),
            number: c.docket_number.text(row),
        },
    ))
}

struct ClusterColumns {
    id: Col,
    case_name: Col,
    case_name_full: Col,
    case_name_short: Col,
    slug: Col,
    scdb_id: Col,
    date_filed: Col,
    precedential_status: Col,
    judges: Col,
    syllabus: Col,
    headmatter: Col,
    summary: Col,
    docket_id: Col,
}

impl ClusterColumns {
    fn new(c: &Columns) -> Self {
        Self {
            id: c.col("id"),
            case_name: c.col("case_name"),
            case_name_full: c.col("case_name_full"),
            case_name_short: c.col("case_name_short"),
            slug: c.col("slug"),
            scdb_id: c.col("scdb_id"),
            date_filed: c.col("date_filed"),
            precedential_status: c.col("precedential_status"),
            judges: c.col("judges"),
            syllabus: c.col("syllabus"),
            headmatter: c.col("headmatter"),
            summary: c.col("summary"),
            docket_id: c.col("docket_id"),
        }
    }
}

/// A cluster as a case, before its docket gives it a court.
struct ClusterRow {
    cluster: u64,
    record: CaseRecord,
    docket_id: Option<u64>,
    /// What was left out of it (an impossible date, an id that is not
    /// SCDB's), if anything.
    left_out: Option<String>,
}

fn cluster(c: &ClusterColumns, row: &Row) -> Result<ClusterRow, String> {
    let id = c.id.id(row)?;
    let name = c
        .case_name
        .text(row)
        .or_else(|| c.case_name_full.text(row))
        .or_else(|| c.case_name_short.text(row));
    let mut left_out = Vec::new();
    if name.is_none() {
        // Search by name cannot find it; its citations still can.
        left_out.push("the cluster gives no case name, so the case is stored without one".into());
    }
    let name = name.unwrap_or_default();
    let slug = c.slug.get(row).unwrap_or("case");
    let mut provenance = vec![Provenance {
        source: SOURCE.into(),
        id: id.to_string(),
    }];
    if let Some(scdb_id) = c.scdb_id.get(row) {
        // Joins a Supreme Court cluster to the SCDB record already held; a
        // value that is no SCDB id would join every cluster giving it.
        if super::scdb::is_case_id(scdb_id) {
            provenance.push(Provenance {
                source: super::scdb::SOURCE.into(),
                id: scdb_id.to_string(),
            });
        } else {
            left_out.push(format!(
                "scdb_id {scdb_id:?} is not an SCDB case id (YYYY-NNN), so the cluster is not joined to SCDB"
            ));
        }
    }
    let DecisionDate {
        date,
        left_out: date_left_out,
    } = decision_date(c.date_filed.text(row).as_deref(), real_date);
    left_out.extend(date_left_out);
    let record = CaseRecord {
        id: format!("cl-{id}"),
        name,
        name_short: c.case_name_short.text(row),
        decision_date: date,
        precedential_status: c.precedential_status.text(row),
        judges: c.judges.text(row),
        syllabus: c.syllabus.text(row),
        head_matter: c.headmatter.text(row),
        summary: c.summary.text(row),
        source_url: Some(format!(
            "https://www.courtlistener.com/opinion/{id}/{slug}/"
        )),
        provenance,
        ..CaseRecord::default()
    };
    let docket_id = c.docket_id.get(row).and_then(|docket_id| {
        docket_id
            .parse()
            .map_err(|_| {
                left_out.push(format!(
                    "docket_id {docket_id:?} is not a number, so the case has no court or docket \
                     number from the dockets file"
                ))
            })
            .ok()
    });
    Ok(ClusterRow {
        cluster: id,
        record,
        docket_id,
        left_out: (!left_out.is_empty()).then(|| left_out.join("; ")),
    })
}

/// The meta key listing the clusters files read while the library held
/// no dockets, whose clusters got no court: each is read again by a run
/// that holds dockets ([`read_again_with_dockets`]).
const CLUSTERS_BEFORE_DOCKETS: &str = "courtlistener_clusters_before_dockets";

/// The clusters of a file read while the library held no dockets.
struct BeforeDockets<'k> {
    /// The file's checkpoint key.
    key: &'k str,
    /// How many of them this run read.
    clusters: u64,
}

impl BeforeDockets<'_> {
    /// Counts a cluster that names a docket the library could not hold
    /// yet; the first lists the file, in the transaction that stores it,
    /// so a kill cannot leave it stored and unlisted.
    fn count(&mut self, writer: &mut LibraryWriter<'_>) -> Result<(), ImportError> {
        if self.clusters == 0 {
            let mut files: BTreeSet<String> = writer
                .get_meta(CLUSTERS_BEFORE_DOCKETS)?
                .unwrap_or_default();
            if files.insert(self.key.to_string()) {
                writer.set_meta(CLUSTERS_BEFORE_DOCKETS, &files)?;
            }
        }
        self.clusters += 1;
        Ok(())
    }
}

/// Reads a clusters file again, from its start, when an earlier run read
/// it before any dockets and the library holds dockets now: its clusters
/// get the courts and docket numbers they lack (storing a cluster again
/// changes nothing else).
fn read_again_with_dockets(
    store: &Store,
    key: &str,
    path: &Path,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    // Most runs have nothing to read again: told without a commit.
    let listed = store.read(|txn| {
        meta_value::<BTreeSet<String>>(txn, CLUSTERS_BEFORE_DOCKETS)
            .map(|files| files.is_some_and(|files| files.contains(key)))
    })?;
    if !listed {
        return Ok(());
    }
    let read_again = store.write(|txn| -> Result<bool, ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        let mut files: BTreeSet<String> = writer
            .get_meta(CLUSTERS_BEFORE_DOCKETS)?
            .unwrap_or_default();
        let read_again = writer.holds_dockets()? && files.remove(key);
        if read_again {
            writer.set_meta(CLUSTERS_BEFORE_DOCKETS, &files)?;
            writer.set_checkpoint(key, &Checkpoint::default())?;
        }
        writer.finish()?;
        Ok(read_again)
    })?;
    if read_again {
        report.note(format!(
            "{}: read again: an earlier run read it before the dockets that give its clusters \
             their courts",
            path.display()
        ));
    }
    Ok(())
}

/// Tells a run that brought dockets but no clusters which clusters files,
/// read before any dockets, wait for them: they are read again when their
/// folder is imported again.
fn note_clusters_waiting_for_dockets(
    store: &Store,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    let (holds_dockets, waiting) = store.read(|txn| -> Result<_, StoreError> {
        let waiting: Option<BTreeSet<String>> = meta_value(txn, CLUSTERS_BEFORE_DOCKETS)?;
        Ok((holds_import_dockets(txn)?, waiting.unwrap_or_default()))
    })?;
    if holds_dockets && !waiting.is_empty() {
        let kind = Table::Clusters.kind();
        let names: Vec<&str> = waiting
            .iter()
            .map(|key| checkpoint_file_name(key, &kind))
            .collect();
        report.note(format!(
            "clusters files read before any dockets wait for these: {}; import their folder \
             again to give their clusters courts and docket numbers",
            names.join(", ")
        ));
    }
    Ok(())
}

fn store_cluster(
    writer: &mut LibraryWriter<'_>,
    cluster: ClusterRow,
    before_dockets: &mut BeforeDockets<'_>,
) -> RowOutcome {
    let ClusterRow {
        cluster: _,
        mut record,
        docket_id,
        left_out,
    } = cluster;
    let mut missing_docket = None;
    match docket_id.map(|id| writer.docket(id)).transpose()?.flatten() {
        Some(docket) => {
            record.court = docket.court;
            record.docket_numbers = docket.number.into_iter().collect();
        }
        None => {
            // Dockets are kept only while their import runs: a clusters file
            // read in a later run does not know the court, which is no
            // reason to remove the one an earlier run gave.
            let held = match record.provenance.first() {
                Some(cluster) => writer.external_case(SOURCE, &cluster.id)?,
                None => None,
            };
            match held {
                Some(held) => record.court = writer.case(&held)?.and_then(|case| case.court),
                None if docket_id.is_some() && writer.holds_dockets()? => {
                    missing_docket = docket_id.map(|id| {
                        format!("docket {id} is not in the dockets file, so the case has no court")
                    });
                }
                None if docket_id.is_some() => before_dockets.count(writer)?,
                None => {}
            }
        }
    }
    let stored = writer.put_case(NewCase {
        record,
        opinions: Vec::new(),
    })?;
    let mut left_out: Vec<String> = left_out.into_iter().chain(missing_docket).collect();
    for Unjoined { source, held } in stored.unjoined {
        let named = writer.case(&held)?.map_or(held.clone(), |case| {
            let year = case
                .year()
                .map_or(String::new(), |year| format!(" ({year})"));
            format!("{}{year}", case.name)
        });
        left_out.push(format!(
            "{}_id {:?} is {named}, whose name or year does not fit, so the cluster is not joined to it",
            source.source, source.id
        ));
    }
    Ok(Ok((!left_out.is_empty()).then(|| left_out.join("; "))))
}

struct OpinionColumns {
    id: Col,
    cluster_id: Col,
    kind: Col,
    author_str: Col,
    plain_text: Col,
    /// The markup fields, best first.
    markup: [Col; 6],
}

impl OpinionColumns {
    fn new(c: &Columns) -> Self {
        Self {
            id: c.col("id"),
            cluster_id: c.col("cluster_id"),
            kind: c.col("type"),
            author_str: c.col("author_str"),
            plain_text: c.col("plain_text"),
            markup: [
                c.col("html_with_citations"),
                c.col("html_columbia"),
                c.col("html_lawbox"),
                c.col("xml_harvard"),
                c.col("html_anon_2020"),
                c.col("html"),
            ],
        }
    }
}

/// An opinion row, its text prepared for storing.
struct OpinionRow {
    id: u64,
    cluster: u64,
    opinion: Option<PreparedOpinion>,
}

/// The best text field of an opinion row: html_with_citations, then the
/// other HTML/XML fields, then plain_text.
fn opinion_body(c: &OpinionColumns, row: &Row) -> Option<(BodyFormat, String)> {
    let filled = |col: &Col| col.get(row).filter(|t| !t.trim().is_empty());
    if let Some(markup) = c.markup.iter().find_map(filled) {
        return Some((BodyFormat::Html, markup.to_string()));
    }
    filled(&c.plain_text).map(|t| (BodyFormat::Text, t.to_string()))
}

/// An opinion row, its text prepared (and its citations looked up in
/// `cites` when given).
fn opinion(
    c: &OpinionColumns,
    row: &Row,
    cites: Option<&CiteSnapshot>,
) -> Result<OpinionRow, String> {
    let id = c.id.id(row)?;
    let cluster = c.cluster_id.id(row)?;
    let opinion = opinion_body(c, row).map(|(format, text)| {
        let mut prepared = PreparedOpinion::new(NewOpinion {
            kind: c
                .kind
                .get(row)
                .map(|t| {
                    t.trim_start_matches(|c: char| c.is_ascii_digit())
                        .to_string()
                })
                .unwrap_or_else(|| "combined".into()),
            author: c.author_str.text(row),
            format,
            text,
            provenance: Provenance {
                source: SOURCE.into(),
                id: id.to_string(),
            },
        });
        if let Some(cites) = cites {
            prepared.resolve_cited(cites);
        }
        prepared
    });
    Ok(OpinionRow {
        id,
        cluster,
        opinion,
    })
}

fn store_opinion(
    writer: &mut LibraryWriter<'_>,
    row: OpinionRow,
    clusters: &CaseIds,
) -> RowOutcome {
    let Some(case_id) = clusters.case_id(row.cluster) else {
        return Ok(Err(Skip::NamingMissing(format!(
            "cluster {} is not in the library",
            row.cluster
        ))));
    };
    writer.set_courtlistener_opinion(row.id, &case_id)?;
    if let Some(opinion) = row.opinion
        && writer.add_opinion(&case_id, opinion)? == Some(OpinionAdded::CaseFull)
    {
        return Ok(Ok(Some(opinions_refused(1))));
    }
    STORED
}

struct CitationColumns {
    cluster_id: Col,
    volume: Col,
    reporter: Col,
    page: Col,
    kind: Col,
}

impl CitationColumns {
    fn new(c: &Columns) -> Self {
        Self {
            cluster_id: c.col("cluster_id"),
            volume: c.col("volume"),
            reporter: c.col("reporter"),
            page: c.col("page"),
            kind: c.col("type"),
        }
    }
}

/// `citations.type` of the Supreme Court's early reporters (Dall., Cranch…).
const SCOTUS_EARLY_TYPE: &str = "5";

fn citation(c: &CitationColumns, row: &Row) -> Result<(u64, CaseCitation), String> {
    let cluster = c.cluster_id.id(row)?;
    let (Some(volume), Some(reporter), Some(page)) =
        (c.volume.get(row), c.reporter.get(row), c.page.get(row))
    else {
        return Err("volume, reporter or page is empty".into());
    };
    let given = reporter;
    let reporter = crate::library::canonical_reporter(given);
    // Another type under an early reporter's abbreviation is a circuit
    // court's series ("Cranch" of the D.C. circuit court is type 2).
    let other_series = c
        .kind
        .get(row)
        .is_some_and(|kind| kind.trim() != SCOTUS_EARLY_TYPE);
    // The dump's volume is a number (an integer column); a page may not be
    // one yet ("___", a slip opinion), which the writer reports.
    let volume_number = volume_or_page_number(volume)
        .ok_or_else(|| format!("volume {volume:?} is not a volume number"))?;
    let key = match volume_or_page_number(page) {
        Some(page) if other_series => Some(CiteKey {
            volume: volume_number,
            reporter: reporter.clone(),
            page,
        }),
        Some(page) => Some(CiteKey::new(volume_number, &reporter, given, page)),
        // An unpublished order's number ("190775-U"), else no address.
        None => CiteKey::of_page_text(volume_number, &reporter, given, page),
    };
    // A page with digits that no address takes ("x29", "0") is a damaged
    // row, not a page still to come ("___"): kept, its case would be at a
    // page no lookup finds, in a volume counted as held.
    if key.is_none() && page.bytes().any(|b| b.is_ascii_digit()) {
        return Err(format!("page {page:?} is not a page number"));
    }
    // "1 Cranch 100" would be the Supreme Court's: a series filed under an
    // early reporter's abbreviation ("Cranch C.C.", the D.C. circuit
    // court's) keeps its own spelling, whatever the row's type says.
    let shown =
        if crate::citations::reporters::nominative_reporters().any(|early| early == reporter) {
            given.trim()
        } else {
            reporter.as_str()
        };
    Ok((
        cluster,
        CaseCitation {
            cite: format!("{volume} {shown} {page}"),
            key,
            last_page: None,
        },
    ))
}

/// Stores a batch of citation rows, each case's citations at once.
fn store_citations(
    writer: &mut LibraryWriter<'_>,
    path: &Path,
    batch: Vec<Result<Parsed<(u64, CaseCitation)>, RowError>>,
    report: &mut ImportReport,
    clusters: &mut CaseIds,
    run: CitationsRun,
    unknown_reporters: &mut UnknownReporters,
) -> Result<(), ImportError> {
    // Each case's clusters and citations.
    let mut by_case: BTreeMap<String, (Vec<u64>, Vec<CaseCitation>)> = BTreeMap::new();
    let mut volumes = BTreeSet::new();
    for (line, (cluster, citation)) in parsed_rows(path, batch, report) {
        let Some(case_id) = clusters.case_id(cluster) else {
            // A case of that volume the library lacks.
            let volume = citation
                .key
                .as_ref()
                .map(|key| (key.reporter.clone(), key.volume))
                .or_else(|| unpaged_volume(&citation.cite));
            let withheld = match volume.filter(|_| run.options.mark_coverage) {
                Some((reporter, volume)) => {
                    writer.withhold_volume(&reporter, volume, SOURCE)?;
                    format!(" (this file does not hold {volume} {reporter} completely)")
                }
                None => String::new(),
            };
            report.skip_naming_missing(
                path,
                format!("line {line}: cluster {cluster} is not in the library{withheld}"),
            );
            continue;
        };
        if run.options.mark_coverage {
            match &citation.key {
                Some(key) => {
                    volumes.insert((key.reporter.clone(), key.volume));
                }
                None => {
                    if let Some((reporter, volume)) = unpaged_volume(&citation.cite) {
                        writer.withhold_volume(&reporter, volume, SOURCE)?;
                        report.warn(
                            path,
                            format!(
                                "line {line}: {} has no page number the library can place (a whole number from 1 to 4294967295): this file does not hold {volume} {reporter} completely",
                                citation.cite
                            ),
                        );
                    }
                }
            }
        }
        report.stored += 1;
        let (case_clusters, citations) = by_case.entry(case_id).or_default();
        case_clusters.push(cluster);
        citations.push(citation);
    }
    for (reporter, volume) in volumes {
        if !writer.mark_volume_held(&reporter, volume, SOURCE)? {
            unknown_reporters.insert(&reporter);
        }
    }
    for (case_id, (case_clusters, citations)) in by_case {
        let listed = run.listing.then(|| citations.clone());
        let Some(CitationsAdded {
            case_id: held_by,
            beside_held,
        }) = writer.add_citations(&case_id, citations)?
        else {
            continue;
        };
        for (given, held) in beside_held {
            report.warn(
                path,
                format!(
                    "{given} is given for case {held_by}, which is also cited at {held}: the sources disagree, and both are kept"
                ),
            );
        }
        if let Some(listed) = listed {
            writer.list_citations(&held_by, &listed)?;
        }
        // A cluster that joined a decision held at its citation is that case
        // now, for its other citations and its opinions.
        if held_by != case_id {
            for cluster in case_clusters {
                clusters.insert(cluster, &held_by);
            }
        }
    }
    Ok(())
}

/// How a citations file is read: as a whole dump or not, and whether it
/// lists each case's citations ([`LibraryWriter::list_citations`]).
#[derive(Clone, Copy)]
struct CitationsRun {
    options: Options,
    listing: bool,
}

/// Whether a file of the table `table_kind` (whole or a sample) other than
/// the one keyed `key` was imported, or begun: one whose rows this file
/// may no longer give.
fn follows_another_file(store: &Store, table_kind: &str, key: &str) -> Result<bool, ImportError> {
    Ok(store.read(|txn| -> Result<bool, StoreError> {
        let progress = txn.open_table(crate::store::tables::IMPORT_PROGRESS)?;
        for entry in progress.range(table_kind..)? {
            let (earlier, _) = entry?;
            let earlier = earlier.value();
            if !earlier.starts_with(table_kind) {
                break;
            }
            if earlier != key {
                return Ok(true);
            }
        }
        Ok(false)
    })?)
}

/// The usable rows of a batch with their lines; the others are reported
/// and skipped.
fn parsed_rows<T>(
    path: &Path,
    batch: Vec<Result<Parsed<T>, RowError>>,
    report: &mut ImportReport,
) -> Vec<(u64, T)> {
    let mut rows = Vec::with_capacity(batch.len());
    for row in batch {
        match row {
            Ok(Parsed {
                line,
                value: Ok(value),
                recoded,
            }) => {
                if recoded {
                    warn_recoded(path, line, report);
                }
                rows.push((line, value));
            }
            Ok(Parsed {
                line,
                value: Err(why),
                ..
            }) => report.skip(path, format!("line {line}: {why}")),
            Err(err) => report.skip(path, err),
        }
    }
    rows
}

struct CitationMapColumns {
    citing: Col,
    cited: Col,
    depth: Col,
}

impl CitationMapColumns {
    fn new(c: &Columns) -> Self {
        Self {
            citing: c.col("citing_opinion_id"),
            cited: c.col("cited_opinion_id"),
            depth: c.col("depth"),
        }
    }
}

/// A citation-map row: the citing opinion cites the cited one `depth` times,
/// with the cases of the two opinions when the library holds them (looked
/// up while the row is prepared, off the writer: the opinions' cases do not
/// change while the map is read).
struct OpinionLink {
    citing: u64,
    cited: u64,
    depth: u32,
    citing_case: Option<String>,
    cited_case: Option<String>,
}

fn citation_map(
    c: &CitationMapColumns,
    row: &Row,
    opinions: &CaseIds,
) -> Result<OpinionLink, String> {
    let (citing, cited) = (c.citing.id(row)?, c.cited.id(row)?);
    // A row without a depth still records one citation.
    let depth = match c.depth.get(row) {
        None => 1,
        Some(depth) => depth
            .trim()
            .parse()
            .ok()
            .filter(|&count: &u32| count > 0)
            .ok_or_else(|| format!("depth {depth:?} is not a count of citations"))?,
    };
    Ok(OpinionLink {
        citing,
        cited,
        depth,
        citing_case: opinions.case_id(citing),
        cited_case: opinions.case_id(cited),
    })
}

/// Stores a batch of citation-map rows as edges, each citing case's at
/// once.
fn store_citation_map(
    writer: &mut LibraryWriter<'_>,
    path: &Path,
    batch: Vec<Result<Parsed<OpinionLink>, RowError>>,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    let mut edges = Vec::with_capacity(batch.len());
    for (line, link) in parsed_rows(path, batch, report) {
        match (link.citing_case, link.cited_case) {
            (Some(from), Some(to)) => {
                report.stored += 1;
                edges.push((from, to, link.depth));
            }
            (from, to) => {
                let missing: Vec<String> =
                    [(from, "citing", link.citing), (to, "cited", link.cited)]
                        .into_iter()
                        .filter(|(case, _, _)| case.is_none())
                        .map(|(_, role, opinion)| format!("{role} opinion {opinion}"))
                        .collect();
                let verb = if missing.len() > 1 { "are" } else { "is" };
                report.skip_naming_missing(
                    path,
                    format!(
                        "line {line}: the {} {verb} not in the library",
                        missing.join(" and the ")
                    ),
                )
            }
        }
    }
    writer.add_edges(edges)?;
    Ok(())
}

struct ParentheticalColumns {
    text: Col,
    describing: Col,
    described: Col,
}

impl ParentheticalColumns {
    fn new(c: &Columns) -> Self {
        Self {
            text: c.col("text"),
            describing: c.col("describing_opinion_id"),
            described: c.col("described_opinion_id"),
        }
    }
}

struct ParentheticalRow {
    describing: u64,
    described: u64,
    text: String,
}

fn parenthetical(c: &ParentheticalColumns, row: &Row) -> Result<ParentheticalRow, String> {
    let describing = c.describing.id(row)?;
    let described = c.described.id(row)?;
    let text = c.text.get(row).ok_or("text is empty")?;
    Ok(ParentheticalRow {
        describing,
        described,
        text: markup_to_text(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_ids_give_back_what_was_put_in() {
        let mut ids = CaseIds::default();
        let cases = [
            (1, "cl-1"),
            (2, "cl-77"),
            (3, "scdb-1953-069"),
            (4, "cl-007"),
            (5, "cl-9223372036854775808"),
            (6, "cl-"),
        ];
        for (id, case) in cases {
            ids.insert(id, case);
        }
        // A cluster joined to another case since.
        ids.insert(2, "cap-12");
        ids.insert(3, "cl-3");
        let expected = [
            (1, "cl-1"),
            (2, "cap-12"),
            (3, "cl-3"),
            (4, "cl-007"),
            (5, "cl-9223372036854775808"),
            (6, "cl-"),
        ];
        for (id, case) in expected {
            assert_eq!(ids.case_id(id).as_deref(), Some(case), "{id}");
        }
        assert_eq!(ids.case_id(7), None);
    }

    /// The address of a citations row citing page 137 of volume 1.
    fn address(reporter: &str, kind: Option<&str>) -> String {
        let mut names = vec!["volume", "reporter", "page", "cluster_id"];
        let mut fields = vec!["1", reporter, "137", "9"];
        if let Some(kind) = kind {
            names.push("type");
            fields.push(kind);
        }
        let columns = Columns {
            names: names.into_iter().map(str::to_string).collect(),
        };
        let row = Row::of(2, fields.into_iter().map(Some));
        let (_, citation) = citation(&CitationColumns::new(&columns), &row).unwrap();
        citation.key.unwrap().to_string()
    }

    /// A citations row of this volume and page, as read.
    fn citation_row(volume: &str, page: &str) -> Result<(u64, CaseCitation), String> {
        let columns = Columns {
            names: ["volume", "reporter", "page", "cluster_id"]
                .map(str::to_string)
                .to_vec(),
        };
        let row = Row::of(2, [Some(volume), Some("F.3d"), Some(page), Some("9")]);
        citation(&CitationColumns::new(&columns), &row)
    }

    #[test]
    fn a_citation_whose_volume_or_page_is_no_number_is_malformed() {
        for volume in ["-1", "0", "245.5", "99999999999", "x"] {
            let why = citation_row(volume, "10").unwrap_err();
            assert!(why.contains("is not a volume number"), "{volume}: {why}");
        }
        for page in ["0", "x29", "99999999999", "12.5"] {
            let why = citation_row("245", page).unwrap_err();
            assert!(why.contains("is not a page number"), "{page}: {why}");
        }
        let (_, unpaged) = citation_row("245", "___").unwrap();
        assert_eq!(
            (unpaged.cite.as_str(), unpaged.key),
            ("245 F.3d ___", None),
            "a page still to come: the writer withholds the volume"
        );
    }

    #[test]
    fn early_supreme_court_rows_take_the_us_reports_address() {
        assert_eq!(address("Cranch", Some(SCOTUS_EARLY_TYPE)), "5 U.S. 137");
        assert_eq!(
            address("Cranch", None),
            "5 U.S. 137",
            "no type: the spelling"
        );
        assert_eq!(
            address("Cranch", Some("2")),
            "1 Cranch 137",
            "the D.C. circuit court's series keeps its own"
        );
        assert_eq!(address("F.3d", Some("1")), "1 F.3d 137");
    }
}

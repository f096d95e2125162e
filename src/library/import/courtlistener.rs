//! CourtListener bulk data: one `<table>-YYYY-MM-DD.csv[.bz2]` per table,
//! loaded in foreign-key order (courts → dockets → clusters → opinions →
//! citations → citation map → parentheticals). See FORMATS.md §1.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::csv::{CsvReader, Dialect, Row};
use super::{ImportError, ImportReport, Progress, checkpoint_key, open_input, run_batches_of};
use crate::library::index::IndexError;
use crate::library::model::{
    BodyFormat, CaseCitation, CaseRecord, CiteKey, NewCase, NewOpinion, Provenance,
};
use crate::library::store::{DocketInfo, LibraryWriter};
use crate::library::text::markup_to_text;
use crate::library::{Library, LibraryError};
use crate::store::Store;

pub const SOURCE: &str = "courtlistener";

/// The tables read, in load order, by file-name prefix.
const TABLES: &[Table] = &[
    Table::Courts,
    Table::Dockets,
    Table::Clusters,
    Table::Opinions,
    Table::Citations,
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
    /// Rows per committed batch (the resume granularity).
    pub batch_rows: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            mark_coverage: true,
            batch_rows: super::BATCH_ROWS,
        }
    }
}

/// Imports every CourtListener table file found in `dir`, then indexes
/// what changed. The citation graph tables do not change search documents,
/// so the indexing pass runs beside them, on the other core.
pub fn import_dir(
    library: &Library,
    dir: &Path,
    options: Options,
) -> Result<ImportReport, LibraryError> {
    let files = table_files(dir)?;
    if files.is_empty() {
        return Err(ImportError::format(
            dir,
            "no CourtListener bulk files here (expected names like opinion-clusters-2024-05-06.csv.bz2)",
        )
        .into());
    }
    let store = &library.store;
    let (documents, graph): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|(table, _)| !matches!(table, Table::CitationMap | Table::Parentheticals));
    let mut report = ImportReport::new(SOURCE);
    for (table, path) in documents {
        report.absorb(import_table(store, table, &path, options)?);
    }
    let indexed = std::thread::scope(|scope| -> Result<u64, LibraryError> {
        let indexing = scope.spawn(|| library.index_pending());
        for (table, path) in graph {
            report.absorb(import_table(store, table, &path, options)?);
        }
        indexing
            .join()
            .unwrap_or_else(|_| Err(IndexError::WriterGone.into()))
    })?;
    tracing::info!(indexed, "search documents built beside the graph import");
    store.write(|txn| -> Result<(), ImportError> {
        let mut writer = LibraryWriter::new(txn)?;
        writer.clear_dockets()?;
        writer.finish()?;
        Ok(())
    })?;
    Ok(report)
}

/// The table files in `dir`, in load order (several dumps of one table in
/// name order).
fn table_files(dir: &Path) -> Result<Vec<(Table, PathBuf)>, ImportError> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ImportError::io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.contains(".csv")
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

fn import_table(
    store: &Store,
    table: Table,
    path: &Path,
    options: Options,
) -> Result<ImportReport, ImportError> {
    let input = open_input(path)?;
    let label = table.prefix().trim_end_matches('-');
    let mut progress = Progress::new(label, input.bytes_read.clone(), input.size);
    let csv = CsvReader::new(input.reader, Dialect::Postgres)
        .map_err(|e| ImportError::format(path, e.to_string()))?;
    let columns = Columns::new(&csv);
    if let Some(missing) = table
        .required_columns()
        .iter()
        .find(|c| columns.index(c).is_none())
    {
        return Err(ImportError::format(
            path,
            format!("header has no column {missing:?}"),
        ));
    }
    let key = checkpoint_key(&format!("{SOURCE}-{label}"), path, input.size);
    let mut report = ImportReport::new(format!("{SOURCE} {label}"));
    let mut courts = BTreeMap::new();
    run_batches_of(
        options.batch_rows,
        store,
        &key,
        path,
        csv,
        &mut progress,
        &mut report,
        |writer, row, report| {
            let outcome = match table {
                Table::Courts => court(&columns, &row, &mut courts),
                Table::Dockets => docket(writer, &columns, &row),
                Table::Clusters => cluster(writer, &columns, &row),
                Table::Opinions => opinion(writer, &columns, &row),
                Table::Citations => citation(writer, &columns, &row, options),
                Table::CitationMap => citation_map(writer, &columns, &row),
                Table::Parentheticals => parenthetical(writer, &columns, &row),
            }?;
            match outcome {
                Ok(()) => report.stored += 1,
                Err(why) => report.skip(path, format!("line {}: {why}", row.line)),
            }
            Ok(())
        },
    )?;
    if !courts.is_empty() {
        store.write(|txn| -> Result<(), ImportError> {
            let mut writer = LibraryWriter::new(txn)?;
            let mut known: BTreeMap<String, CourtInfo> =
                writer.get_meta("courts")?.unwrap_or_default();
            known.extend(courts);
            writer.set_meta("courts", &known)?;
            writer.finish()?;
            Ok(())
        })?;
    }
    Ok(report)
}

/// A row the importer could not use, and why (the row is skipped).
type RowOutcome = Result<Result<(), String>, ImportError>;

struct Columns {
    names: Vec<String>,
}

impl Columns {
    fn new<R: BufRead>(csv: &CsvReader<R>) -> Self {
        Self {
            names: csv.header().to_vec(),
        }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    fn get<'r>(&self, row: &'r Row, name: &str) -> Option<&'r str> {
        row.fields
            .get(self.index(name)?)?
            .as_deref()
            .filter(|v| !v.is_empty())
    }

    fn id(&self, row: &Row, name: &str) -> Result<u64, String> {
        let value = self
            .get(row, name)
            .ok_or_else(|| format!("{name} is empty"))?;
        value
            .trim()
            .parse()
            .map_err(|_| format!("{name} {value:?} is not a number"))
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

fn court(columns: &Columns, row: &Row, courts: &mut BTreeMap<String, CourtInfo>) -> RowOutcome {
    let Some(id) = columns.get(row, "id") else {
        return Ok(Err("court id is empty".into()));
    };
    courts.insert(
        id.to_string(),
        CourtInfo {
            full_name: columns
                .get(row, "full_name")
                .unwrap_or_default()
                .to_string(),
            citation_string: columns
                .get(row, "citation_string")
                .unwrap_or_default()
                .to_string(),
            jurisdiction: columns
                .get(row, "jurisdiction")
                .unwrap_or_default()
                .to_string(),
        },
    );
    Ok(Ok(()))
}

fn docket(writer: &mut LibraryWriter<'_>, columns: &Columns, row: &Row) -> RowOutcome {
    let id = match columns.id(row, "id") {
        Ok(id) => id,
        Err(why) => return Ok(Err(why)),
    };
    let info = DocketInfo {
        court: columns.get(row, "court_id").map(str::to_string),
        number: columns.get(row, "docket_number").map(str::to_string),
    };
    writer.put_docket(id, &info)?;
    Ok(Ok(()))
}

fn cluster(writer: &mut LibraryWriter<'_>, columns: &Columns, row: &Row) -> RowOutcome {
    let id = match columns.id(row, "id") {
        Ok(id) => id,
        Err(why) => return Ok(Err(why)),
    };
    let docket = match columns
        .get(row, "docket_id")
        .and_then(|d| d.parse::<u64>().ok())
    {
        Some(docket_id) => writer.docket(docket_id)?.unwrap_or_default(),
        None => DocketInfo::default(),
    };
    let text = |name: &str| columns.get(row, name).map(str::to_string);
    let name = text("case_name")
        .or_else(|| text("case_name_full"))
        .or_else(|| text("case_name_short"))
        .unwrap_or_default();
    let slug = columns.get(row, "slug").unwrap_or("case");
    let mut provenance = vec![Provenance {
        source: SOURCE.into(),
        id: id.to_string(),
    }];
    if let Some(scdb_id) = columns.get(row, "scdb_id") {
        // Joins a Supreme Court cluster to the SCDB record already held.
        provenance.push(Provenance {
            source: super::scdb::SOURCE.into(),
            id: scdb_id.to_string(),
        });
    }
    let record = CaseRecord {
        id: format!("cl-{id}"),
        name,
        name_short: text("case_name_short"),
        court: docket.court,
        decision_date: text("date_filed"),
        docket_numbers: docket.number.into_iter().collect(),
        precedential_status: text("precedential_status"),
        judges: text("judges"),
        syllabus: text("syllabus"),
        head_matter: text("headmatter"),
        summary: text("summary"),
        source_url: Some(format!(
            "https://www.courtlistener.com/opinion/{id}/{slug}/"
        )),
        provenance,
        ..CaseRecord::default()
    };
    writer.put_case(NewCase {
        record,
        opinions: Vec::new(),
    })?;
    Ok(Ok(()))
}

/// The best text field of an opinion row: html_with_citations, then the
/// other HTML/XML fields, then plain_text.
fn opinion_body(columns: &Columns, row: &Row) -> Option<(BodyFormat, String)> {
    const MARKUP: [&str; 6] = [
        "html_with_citations",
        "html_columbia",
        "html_lawbox",
        "xml_harvard",
        "html_anon_2020",
        "html",
    ];
    for field in MARKUP {
        if let Some(markup) = columns.get(row, field).filter(|t| !t.trim().is_empty()) {
            return Some((BodyFormat::Html, markup.to_string()));
        }
    }
    columns
        .get(row, "plain_text")
        .filter(|t| !t.trim().is_empty())
        .map(|t| (BodyFormat::Text, t.to_string()))
}

fn opinion(writer: &mut LibraryWriter<'_>, columns: &Columns, row: &Row) -> RowOutcome {
    let (id, cluster) = match (columns.id(row, "id"), columns.id(row, "cluster_id")) {
        (Ok(id), Ok(cluster)) => (id, cluster),
        (Err(why), _) | (_, Err(why)) => return Ok(Err(why)),
    };
    let Some(case_id) = writer.external_case(SOURCE, &cluster.to_string())? else {
        return Ok(Err(format!("cluster {cluster} is not in the library")));
    };
    writer.set_courtlistener_opinion(id, &case_id)?;
    let Some((format, text)) = opinion_body(columns, row) else {
        return Ok(Ok(()));
    };
    let kind = columns
        .get(row, "type")
        .map(|t| {
            t.trim_start_matches(|c: char| c.is_ascii_digit())
                .to_string()
        })
        .unwrap_or_else(|| "combined".into());
    let opinion = NewOpinion {
        kind,
        author: columns.get(row, "author_str").map(str::to_string),
        format,
        text,
        provenance: Provenance {
            source: SOURCE.into(),
            id: id.to_string(),
        },
    };
    writer.add_opinion(&case_id, opinion)?;
    Ok(Ok(()))
}

fn citation(
    writer: &mut LibraryWriter<'_>,
    columns: &Columns,
    row: &Row,
    options: Options,
) -> RowOutcome {
    let cluster = match columns.id(row, "cluster_id") {
        Ok(cluster) => cluster,
        Err(why) => return Ok(Err(why)),
    };
    let (Some(volume), Some(reporter), Some(page)) = (
        columns.get(row, "volume"),
        columns.get(row, "reporter"),
        columns.get(row, "page"),
    ) else {
        return Ok(Err("volume, reporter or page is empty".into()));
    };
    let Some(case_id) = writer.external_case(SOURCE, &cluster.to_string())? else {
        return Ok(Err(format!("cluster {cluster} is not in the library")));
    };
    let reporter = crate::library::canonical_reporter(reporter);
    let cite = format!("{volume} {reporter} {page}");
    let key = match (volume.trim().parse::<u32>(), page.trim().parse::<u32>()) {
        (Ok(volume), Ok(page)) => Some(CiteKey {
            volume,
            reporter: reporter.clone(),
            page,
        }),
        _ => None,
    };
    if options.mark_coverage
        && let Some(key) = &key
    {
        writer.mark_volume_held(&key.reporter, key.volume, SOURCE)?;
    }
    writer.add_citation(
        &case_id,
        CaseCitation {
            cite,
            key,
            last_page: None,
        },
    )?;
    Ok(Ok(()))
}

fn citation_map(writer: &mut LibraryWriter<'_>, columns: &Columns, row: &Row) -> RowOutcome {
    let (citing, cited) = match (
        columns.id(row, "citing_opinion_id"),
        columns.id(row, "cited_opinion_id"),
    ) {
        (Ok(citing), Ok(cited)) => (citing, cited),
        (Err(why), _) | (_, Err(why)) => return Ok(Err(why)),
    };
    let depth = columns
        .get(row, "depth")
        .and_then(|d| d.parse::<u32>().ok())
        .unwrap_or(1);
    let citing_case = writer.courtlistener_opinion_case(citing)?;
    let cited_case = writer.courtlistener_opinion_case(cited)?;
    match (citing_case, cited_case) {
        (Some(from), Some(to)) => {
            writer.set_edge(&from, &to, depth)?;
            Ok(Ok(()))
        }
        _ => Ok(Err(format!(
            "opinion {citing} or {cited} is not in the library"
        ))),
    }
}

fn parenthetical(writer: &mut LibraryWriter<'_>, columns: &Columns, row: &Row) -> RowOutcome {
    let (describing, described) = match (
        columns.id(row, "describing_opinion_id"),
        columns.id(row, "described_opinion_id"),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(why), _) | (_, Err(why)) => return Ok(Err(why)),
    };
    let Some(text) = columns.get(row, "text") else {
        return Ok(Err("text is empty".into()));
    };
    let describing_case = writer.courtlistener_opinion_case(describing)?;
    let described_case = writer.courtlistener_opinion_case(described)?;
    match (describing_case, described_case) {
        (Some(from), Some(to)) => {
            writer.add_parenthetical(&from, &to, &markup_to_text(text))?;
            Ok(Ok(()))
        }
        _ => Ok(Err(format!(
            "opinion {describing} or {described} is not in the library"
        ))),
    }
}

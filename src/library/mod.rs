//! The case-law library: cases, authorities, the citation index, the
//! coverage map and the citation graph in redb (`library.redb`), names and
//! text in a tantivy index. No HTTP here.

pub mod cite_snapshot;
pub mod graph;
pub mod import;
pub mod index;
mod index_dir;
pub mod lookup;
pub mod model;
pub mod names;
pub mod phrases;
pub mod store;
pub mod synthetic;
pub mod text;

use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::{Path, PathBuf};

use rayon::iter::{IntoParallelRefIterator, ParallelIterator};
use redb::{ReadableTable, ReadableTableMetadata};
use serde::Serialize;

use crate::store::tables::{AUTHORITIES, CASES, CITE_INDEX, COVERAGE, INDEX_PENDING, LAW_COVERAGE};
use crate::store::{Layout, Store, StoreError};
use import::{ImportError, Progress};
pub use index::LibraryIndex;
use index::{IndexDoc, IndexError, SearchHit};
use model::{CaseRecord, LawCoverage};

/// Memory budget of the index writer.
pub const INDEX_MEMORY_BYTES: usize = 128 * 1024 * 1024;
/// Text beyond this is not indexed (the stored opinion keeps all of it).
const MAX_INDEXED_TEXT_BYTES: usize = 2 * 1024 * 1024;
/// The best matches a quoted phrase is looked for in (those holding its
/// words first): the text keeps no positions, so each is read to check it.
const PHRASE_POOL: usize = 200;
/// Search documents built at a time.
const INDEX_CHUNK: usize = 2_000;
/// Search documents given to the index between two commits.
const INDEX_COMMIT_DOCS: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Import(#[from] ImportError),
}

impl LibraryError {
    /// Whether it comes of a damaged store file
    /// ([`StoreError::is_damaged_file`]): [`repair_advice`] says what to do.
    pub fn is_damaged_file(&self) -> bool {
        match self {
            LibraryError::Store(store) => store.is_damaged_file(),
            LibraryError::Import(import) => import.is_damaged_file(),
            LibraryError::Index(_) => false,
        }
    }
}

/// Meta key: the document layout the search index was built with
/// ([`index::INDEX_VERSION`]).
pub const INDEX_VERSION_KEY: &str = "index_version";

fn index_layout(store: &Store) -> Result<Option<u32>, StoreError> {
    store.read(|txn| store::meta_value(txn, INDEX_VERSION_KEY))
}

/// The open library: its store and its search index.
pub struct Library {
    pub store: Store,
    pub index: LibraryIndex,
    /// Whether the index was built with this build's document layout
    /// ([`index::INDEX_VERSION`]); a library opened for writing rebuilds
    /// one that was not, one opened for reading cannot search it.
    index_current: bool,
    data_dir: PathBuf,
}

impl Library {
    /// Opens (creating when absent) the library in `data_dir` for writing.
    /// An index built with another document layout ([`index::INDEX_VERSION`])
    /// is dropped, and every record waits to be indexed again; so does a
    /// missing one (removed by an operator to rebuild it).
    pub fn open(data_dir: &Path) -> Result<Self, LibraryError> {
        let store = Store::open_library(data_dir)?;
        let built_with = index_layout(&store)?;
        let rebuild = built_with != Some(index::INDEX_VERSION) || !LibraryIndex::exists(data_dir);
        if rebuild {
            if built_with.is_some() {
                tracing::info!("the search index is rebuilt from the store");
            }
            LibraryIndex::remove(data_dir)?;
        }
        let index = LibraryIndex::open(data_dir, INDEX_MEMORY_BYTES)?;
        if rebuild {
            store.write(|txn| -> Result<(), StoreError> {
                let mut writer = store::LibraryWriter::new(txn)?;
                writer.mark_all_for_index()?;
                writer.set_meta(INDEX_VERSION_KEY, &index::INDEX_VERSION)?;
                writer.finish()
            })?;
        }
        Ok(Self {
            store,
            index,
            index_current: true,
            data_dir: data_dir.to_path_buf(),
        })
    }

    /// Opens an existing library for reading only, while a server may hold
    /// it for writing.
    pub fn open_read_only(data_dir: &Path) -> Result<Self, LibraryError> {
        let store = Store::open_read_only(data_dir, Layout::Library)?;
        Ok(Self {
            index_current: index_layout(&store)? == Some(index::INDEX_VERSION),
            store,
            index: LibraryIndex::open_read_only(data_dir)?,
            data_dir: data_dir.to_path_buf(),
        })
    }

    /// Refuses to search an index of another document layout: its fields
    /// are not this build's (a name search would fail, a docket search
    /// find nothing).
    fn current_index(&self) -> Result<&LibraryIndex, IndexError> {
        match self.index_current {
            true => Ok(&self.index),
            false => Err(IndexError::OtherVersion(
                self.data_dir.join(index::INDEX_DIR).display().to_string(),
            )),
        }
    }

    /// Records stored but not yet in the search index.
    pub fn index_pending_count(&self) -> Result<u64, StoreError> {
        self.store
            .read(|txn| Ok(txn.open_table(INDEX_PENDING)?.len()?))
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub fn case(&self, id: &str) -> Result<Option<CaseRecord>, StoreError> {
        self.store.read(|txn| store::case(txn, id))
    }

    /// Best matches by name, citation and text ([`LibraryIndex::search`]),
    /// after what the query names when it reads as a citation: "42 USC
    /// 1983" is that section, before the regulations whose numbers hold 42
    /// and 1983. A quoted phrase must be held word for word
    /// ([`phrases::QuotedPhrases`]): of the best [`PHRASE_POOL`] matches,
    /// those that do not are left out.
    pub fn search(
        &self,
        query: &str,
        kind: Option<&str>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, LibraryError> {
        let cited: Vec<String> = match self.parse_citation(query)? {
            Some(citation) => {
                let report = self.lookup_parsed(query, Some(citation))?;
                let cases = report.cases.into_iter().map(|case| case.case_id);
                let authorities = report.authority.into_iter().chain(report.sections);
                // A regulation's part cited whole lists every section held.
                cases
                    .chain(authorities.map(|a| a.id()))
                    .take(limit)
                    .collect()
            }
            None => Vec::new(),
        };
        let index = self.current_index()?;
        let mut hits = index.hits_by_id(&cited)?;
        hits.retain(|hit| kind.is_none_or(|kind| hit.kind == kind));
        match phrases::QuotedPhrases::of(query, index::names_analyzer()) {
            Some(phrases) => {
                let pool = index.search(query, kind, limit.max(PHRASE_POOL))?;
                // Enough to fill the limit after the cited hits they may repeat.
                let wanted = limit.saturating_add(hits.len());
                hits.extend(self.holding_phrases(pool, phrases, wanted)?);
            }
            None => hits.extend(index.search(query, kind, limit)?),
        }
        Ok(index::dedup(hits).into_iter().take(limit).collect())
    }

    /// The first `wanted` hits whose documents hold every quoted phrase, in
    /// their order: each is read from the store, so no more than that.
    fn holding_phrases(
        &self,
        hits: Vec<SearchHit>,
        mut phrases: phrases::QuotedPhrases,
        wanted: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        self.store.read(|txn| {
            let mut held = Vec::new();
            for hit in hits {
                if held.len() >= wanted {
                    break;
                }
                let pending_id = match hit.kind.as_str() {
                    "case" => hit.id.clone(),
                    _ => format!("authority:{}", hit.id),
                };
                let document = search_document(txn, &pending_id)?;
                if document.is_some_and(|document| phrases.held_by(&document)) {
                    held.push(hit);
                }
            }
            Ok(held)
        })
    }

    /// Cases by name: see [`LibraryIndex::search_names`].
    pub fn search_names(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, IndexError> {
        self.current_index()?.search_names(query, limit)
    }

    /// Builds the search documents of every record an import touched and
    /// commits them; returns how many. Resumable: ids leave the pending
    /// table only after their documents are committed. Documents are built
    /// on every core while the index writer takes them, and committed every
    /// [`INDEX_COMMIT_DOCS`] (each commit ends index segments, which later
    /// merges rewrite).
    pub fn index_pending(&self) -> Result<u64, LibraryError> {
        let total = self
            .store
            .read(|txn| -> Result<u64, StoreError> { Ok(txn.open_table(INDEX_PENDING)?.len()?) })?;
        if total == 0 {
            return Ok(0);
        }
        tracing::info!(records = total, "indexing for search");
        let mut progress = Progress::rows("index", total);
        let mut done = 0u64;
        let mut uncommitted: Vec<String> = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let chunk: Vec<String> = self.store.read(|txn| -> Result<Vec<String>, StoreError> {
                let table = txn.open_table(INDEX_PENDING)?;
                let start = match after.as_deref() {
                    Some(last) => Bound::Excluded(last),
                    None => Bound::Unbounded,
                };
                let mut ids = Vec::with_capacity(INDEX_CHUNK);
                for row in table
                    .range::<&str>((start, Bound::Unbounded))?
                    .take(INDEX_CHUNK)
                {
                    ids.push(row?.0.value().to_string());
                }
                Ok(ids)
            })?;
            let Some(last) = chunk.last() else {
                break;
            };
            after = Some(last.clone());
            let docs = self
                .store
                .read(|txn| -> Result<Vec<Option<IndexDoc>>, StoreError> {
                    chunk
                        .par_iter()
                        .map(|id| search_document(txn, id))
                        .collect()
                })?;
            // A record gone since it was marked leaves only its removal.
            self.index
                .replace(chunk.clone(), docs.into_iter().flatten().collect())?;
            done += chunk.len() as u64;
            uncommitted.extend(chunk);
            if uncommitted.len() >= INDEX_COMMIT_DOCS {
                self.commit_indexed(&mut uncommitted)?;
            }
            progress.update(done);
        }
        self.commit_indexed(&mut uncommitted)?;
        progress.finish(done);
        Ok(done)
    }

    /// Commits the documents given to the index, then takes their ids off
    /// the pending table.
    fn commit_indexed(&self, ids: &mut Vec<String>) -> Result<(), LibraryError> {
        self.index.commit()?;
        self.store.write(|txn| -> Result<(), StoreError> {
            let mut table = txn.open_table(INDEX_PENDING)?;
            for id in ids.iter() {
                table.remove(id.as_str())?;
            }
            Ok(())
        })?;
        ids.clear();
        Ok(())
    }

    /// Counts per source, reporter coverage, authorities and sizes.
    pub fn status(&self) -> Result<LibraryStatus, LibraryError> {
        let (mut counts, citations, coverage, law, index_pending, unfinished_imports) =
            self.store.read(|txn| -> Result<_, StoreError> {
                Ok((
                    store::counts(txn)?,
                    txn.open_table(CITE_INDEX)?.len()?,
                    volumes_by_reporter(txn)?,
                    law_titles(txn)?,
                    txn.open_table(INDEX_PENDING)?.len()?,
                    import::unfinished_imports(txn)?,
                ))
            })?;
        // Every source's citations, as the index holds them: one a page,
        // however many cases share it.
        counts.insert("citations".into(), citations as i64);
        let default_library = DefaultLibrary::of(&self.store)?;
        let reporters = coverage
            .into_iter()
            .map(|(reporter, volumes)| ReporterCoverage::new(reporter, volumes))
            .collect();
        let file_size = |name: &str| {
            std::fs::metadata(self.data_dir.join(name))
                .map(|m| m.len())
                .unwrap_or(0)
        };
        Ok(LibraryStatus {
            counts,
            reporters,
            law,
            index_documents: self.index.num_docs(),
            index_current: self.index_current,
            index_pending,
            unfinished_imports,
            index_bytes: LibraryIndex::size_bytes(&self.data_dir),
            default_library,
            store_bytes: file_size(crate::store::LIBRARY_FILE),
        })
    }
}

/// The volumes held completely, with the source of each, by reporter.
fn volumes_by_reporter(
    txn: &redb::ReadTransaction,
) -> Result<BTreeMap<String, Vec<(u32, String)>>, StoreError> {
    let mut volumes: BTreeMap<String, Vec<(u32, String)>> = BTreeMap::new();
    for row in txn.open_table(COVERAGE)?.iter()? {
        let (key, source) = row?;
        let (reporter, volume) = key.value();
        volumes
            .entry(reporter.to_string())
            .or_default()
            .push((volume, source.value().to_string()));
    }
    Ok(volumes)
}

/// The code and regulation titles held, in numeric order (the table keeps
/// them as text: 1, 10, 11, …, 2).
fn law_titles(txn: &redb::ReadTransaction) -> Result<Vec<LawTitleStatus>, StoreError> {
    let mut law = Vec::new();
    for row in txn.open_table(LAW_COVERAGE)?.iter()? {
        let (key, value) = row?;
        let (code, title) = key.value();
        law.push(LawTitleStatus {
            code: code.to_string(),
            title: title.to_string(),
            coverage: serde_json::from_slice(value.value())?,
        });
    }
    law.sort_by_cached_key(|t| {
        let number: String = t.title.chars().take_while(char::is_ascii_digit).collect();
        (
            t.code.clone(),
            number.parse::<u32>().unwrap_or(u32::MAX),
            t.title.clone(),
        )
    });
    Ok(law)
}

/// The search document of a pending id: a case, or `authority:<id>`.
fn search_document(txn: &redb::ReadTransaction, id: &str) -> Result<Option<IndexDoc>, StoreError> {
    if let Some(authority_id) = id.strip_prefix("authority:") {
        let mut parts = authority_id.splitn(3, '/');
        let code = parts.next().unwrap_or_default();
        let (title, section) = match (parts.next(), parts.next()) {
            (Some(title), Some(section)) => (title, section),
            (Some(section), None) => ("", section),
            _ => return Ok(None),
        };
        let Some(authority) = store::authority(txn, code, title, section)? else {
            return Ok(None);
        };
        return Ok(Some(IndexDoc {
            id: authority.id(),
            kind: authority.code.clone(),
            name: authority.heading.clone(),
            other_names: Vec::new(),
            citations: vec![lookup::authority_citation(&authority)],
            docket_numbers: Vec::new(),
            court: None,
            date: None,
            text: authority.text.clone().unwrap_or_default(),
            cites: Vec::new(),
            initials: Vec::new(),
        }));
    }
    let Some(case) = store::case(txn, id)? else {
        return Ok(None);
    };
    // What a reporter prints before the opinions (the judges, and, in some
    // courts' orders, the ruling itself) is searched with them.
    let mut text = String::new();
    for preamble in [&case.judges, &case.head_matter, &case.syllabus]
        .into_iter()
        .flatten()
    {
        text.push_str(preamble);
        text.push('\n');
    }
    for opinion in &case.opinions {
        if text.len() >= MAX_INDEXED_TEXT_BYTES {
            break;
        }
        if let Some(body) = store::opinion_text(txn, &case.id, opinion.number)? {
            text.push_str(&store::plain_text(opinion.format, body));
            text.push('\n');
        }
    }
    if text.len() > MAX_INDEXED_TEXT_BYTES {
        let mut cut = MAX_INDEXED_TEXT_BYTES;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    Ok(Some(IndexDoc {
        id: case.id.clone(),
        kind: "case".into(),
        name: case.name.clone(),
        other_names: case.companion_names.clone(),
        citations: case.citations.iter().map(|c| c.cite.clone()).collect(),
        docket_numbers: case.docket_numbers.clone(),
        court: case.court.clone(),
        date: case.decision_date.clone(),
        text,
        cites: store::cited_by_case(txn, &case.id)?
            .into_iter()
            .map(|(cited, _)| cited)
            .collect(),
        // Built here, on the threads that read documents for the index,
        // not on its one writer.
        initials: std::iter::once(&case.name)
            .chain(&case.companion_names)
            .flat_map(|name| crate::citations::names::party_initials(name))
            .collect(),
    }))
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LibraryStatus {
    /// cases, opinions, citations, edges, and per source/code counts.
    pub counts: store::Counts,
    pub reporters: Vec<ReporterCoverage>,
    pub law: Vec<LawTitleStatus>,
    pub index_documents: u64,
    /// Whether the search index has this build's document layout; the
    /// next `serve`, `library build` or import rebuilds one that has not.
    pub index_current: bool,
    /// Records stored but not yet in the search index (an import still
    /// running, or stopped before its indexing finished; the next import or
    /// `serve` indexes them).
    pub index_pending: u64,
    /// Files an import began and has not finished: the search index may
    /// hold what they stored, but not all they hold.
    pub unfinished_imports: Vec<import::UnfinishedImport>,
    pub index_bytes: u64,
    pub store_bytes: u64,
    pub default_library: DefaultLibrary,
}

/// The embedded default library a store holds, against the one this
/// binary builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "state")]
pub enum DefaultLibrary {
    /// Its first build has not finished (stopped, or still running).
    Unfinished,
    /// Held whole, of an older version: the next `serve` or `library
    /// build` brings `current`.
    Older {
        version: u32,
        current: u32,
    },
    Current {
        version: u32,
    },
}

impl DefaultLibrary {
    pub fn of(store: &Store) -> Result<Self, StoreError> {
        let current = import::default::DEFAULT_LIBRARY_VERSION;
        Ok(match default_version(store)? {
            None => Self::Unfinished,
            Some(version) if version < current => Self::Older { version, current },
            Some(version) => Self::Current { version },
        })
    }
}

/// The volumes of one reporter held completely, as ranges.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReporterCoverage {
    pub reporter: String,
    pub volumes_held: usize,
    /// "1-546, 547-590" style ranges with the source of each.
    pub ranges: Vec<String>,
}

impl ReporterCoverage {
    fn new(reporter: String, mut volumes: Vec<(u32, String)>) -> Self {
        volumes.sort();
        let mut ranges: Vec<(u32, u32, String)> = Vec::new();
        for (volume, source) in &volumes {
            match ranges.last_mut() {
                Some((_, end, last_source)) if *end + 1 == *volume && last_source == source => {
                    *end = *volume;
                }
                _ => ranges.push((*volume, *volume, source.clone())),
            }
        }
        Self {
            reporter,
            volumes_held: volumes.len(),
            ranges: ranges
                .into_iter()
                .map(|(start, end, source)| {
                    if start == end {
                        format!("{start} ({source})")
                    } else {
                        format!("{start}-{end} ({source})")
                    }
                })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LawTitleStatus {
    pub code: String,
    pub title: String,
    pub coverage: LawCoverage,
}

/// The canonical form of a reporter abbreviation (reporters-db), or the
/// abbreviation with its spacing tidied when reporters-db does not know it
/// (vendor series such as "U.S. LEXIS").
pub fn canonical_reporter(reporter: &str) -> String {
    crate::citations::canonical_reporter(reporter)
        .map(str::to_string)
        .unwrap_or_else(|| reporter.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The courts-db id of a court a source gives by its full name, else by
/// its abbreviation ("Ill. App. Ct."). The name goes first: an
/// abbreviation may be shared ("D.C." is the District of Columbia Court of
/// Appeals' and its criminal court's), while a name taken is one court's
/// only. Case-law sources (CAP, Fastcase) abbreviate the Supreme Court
/// "U.S.", which is no court's citation string, and name it in more than
/// one way.
pub fn court_id(abbreviation: Option<&str>, name: Option<&str>) -> Option<String> {
    let abbreviation = abbreviation.map(str::trim);
    if abbreviation == Some("U.S.") {
        return Some(SUPREME_COURT.into());
    }
    name.and_then(crate::citations::court_by_name)
        .or_else(|| abbreviation.and_then(crate::citations::court_by_abbreviation))
        .map(|court| court.id.to_string())
}

/// The courts-db id of the Supreme Court of the United States.
const SUPREME_COURT: &str = "scotus";

impl Library {
    /// Reads a citation string and answers it from the library.
    pub fn lookup(&self, text: &str) -> Result<lookup::LookupReport, StoreError> {
        let (citations, first) = self.read_citation(text)?;
        let mut report = self.lookup_parsed(text, first.clone().map(|(_, query)| query))?;
        if let Some((first, _)) = first {
            report.not_looked_up = citations
                .iter()
                .enumerate()
                .filter(|(at, c)| {
                    *at != first && !citations[first].parallel.contains(at) && query_of(c).is_some()
                })
                .map(|(_, c)| c.text(text).to_string())
                .collect();
        }
        if report.read_as.is_none()
            && let Some(collection) = unheld_law_collection(&citations)
        {
            report.verdict = "not_held".into();
            report.detail = Some(if collection == crate::citations::CONSTITUTION {
                "the library keeps no text of the Constitution; `library verify` checks its \
                 articles, sections and clauses by their numbering"
                    .to_string()
            } else {
                format!("the library holds no {collection} data, so it cannot tell")
            });
        }
        Ok(report)
    }

    /// Reads a citation string with the citation engine: its first case or
    /// law citation, as a library query. A range of sections ("§§
    /// 1983-1985") is read as its first section, as verify and resolve
    /// read it, and "§ 1962–3" as § 1962-3 when the library holds it.
    pub fn parse_citation(&self, text: &str) -> Result<Option<lookup::CitationQuery>, StoreError> {
        Ok(self.read_citation(text)?.1.map(|(_, query)| query))
    }

    /// The citations in `text`, and the first of them as a library query
    /// with its place among them ([`Self::parse_citation`]).
    fn read_citation(&self, text: &str) -> Result<ReadCitation, StoreError> {
        let citations = crate::citations::Extractor::shared().extract(text);
        let first = self.store.read(|txn| first_query(txn, text, &citations))?;
        Ok((citations, first))
    }

    fn lookup_parsed(
        &self,
        text: &str,
        query: Option<lookup::CitationQuery>,
    ) -> Result<lookup::LookupReport, StoreError> {
        self.store.read(|txn| lookup::report(txn, text, query))
    }
}

/// A string's citations, and the first as a query with its place.
type ReadCitation = (
    Vec<crate::citations::Citation>,
    Option<(usize, lookup::CitationQuery)>,
);

/// The collection of the first law citation the library keeps no code for
/// ("Fed. R. Bankr. P.").
fn unheld_law_collection(citations: &[crate::citations::Citation]) -> Option<String> {
    citations
        .iter()
        .filter_map(|citation| citation.law.as_deref())
        .find(|law| law_code(&law.code).is_none())
        .map(|law| law.code.clone())
}

/// [`Library::parse_citation`] of the citations already read from `text`,
/// with the place of the citation it reads among them.
fn first_query(
    txn: &redb::ReadTransaction,
    text: &str,
    citations: &[crate::citations::Citation],
) -> Result<Option<(usize, lookup::CitationQuery)>, StoreError> {
    for (at, citation) in citations.iter().enumerate() {
        if let Some(query) = query_of(citation) {
            return Ok(Some((at, first_section(txn, text, citation, query)?)));
        }
    }
    Ok(None)
}

/// A range of sections read as its first ("§§ 1983-1985" as § 1983), and
/// a reference the library holds as one section as that section
/// ([`lookup::sections_named`]).
fn first_section(
    txn: &redb::ReadTransaction,
    text: &str,
    citation: &crate::citations::Citation,
    query: lookup::CitationQuery,
) -> Result<lookup::CitationQuery, StoreError> {
    let several = citation.text(text).contains("§§");
    Ok(match query {
        lookup::CitationQuery::Authority {
            code,
            title,
            section,
        } => lookup::CitationQuery::Authority {
            section: lookup::sections_named(txn, &code, &title, &section, several)?.0,
            code,
            title,
        },
        other => other,
    })
}

/// The library query a citation names, when the library keeps that kind.
pub fn query_of(citation: &crate::citations::Citation) -> Option<lookup::CitationQuery> {
    use crate::citations::CitationKind;
    match citation.kind {
        CitationKind::FullCase | CitationKind::ShortCase => {
            if let Some(unlisted) = unlisted_series(citation) {
                return Some(lookup::CitationQuery::UnlistedSeries {
                    reporter: citation.reporter_found.clone().unwrap_or_default(),
                    published: unlisted.published.iter().map(|e| e.to_string()).collect(),
                    may_be_newer: unlisted.may_be_newer,
                });
            }
            let reporter = citation.reporter?;
            let key = model::CiteKey::of_page_text(
                citation.volume.as_deref()?.parse().ok()?,
                reporter,
                citation.reporter_found.as_deref().unwrap_or(reporter),
                citation.page.as_deref()?,
            )?;
            Some(lookup::CitationQuery::Case { key })
        }
        CitationKind::Law => {
            let law = citation.law.as_deref()?;
            let code = law_code(&law.code)?;
            if law.appendix {
                return None;
            }
            if let (None, Some(part)) = (&law.section, &law.part) {
                return Some(lookup::CitationQuery::Part {
                    code: code.to_string(),
                    title: law_title(law),
                    part: part.clone(),
                });
            }
            Some(lookup::CitationQuery::Authority {
                code: code.to_string(),
                title: law_title(law),
                section: rule_and_paragraph(code, law.section.as_deref()?)
                    .0
                    .to_string(),
            })
        }
        _ => None,
    }
}

/// The section a law citation names and the paragraph within it. The
/// Supreme Court's Rules number paragraphs after the rule: "Rule 14.1(a)"
/// is paragraph 1(a) of Rule 14; every other code's "14.1" is a section.
pub fn rule_and_paragraph<'s>(code: &str, section: &'s str) -> (&'s str, Option<&'s str>) {
    match section.split_once('.') {
        Some((rule, paragraph))
            if code == model::codes::SUP_CT_R
                && !paragraph.is_empty()
                && paragraph.bytes().all(|b| b.is_ascii_digit()) =>
        {
            (rule, Some(paragraph))
        }
        _ => (section, None),
    }
}

/// What the reporter data says of a case citation's reporter, when it is
/// cited in a series the data does not list ("16 L. Ed. 3d 694").
pub fn unlisted_series(
    citation: &crate::citations::Citation,
) -> Option<crate::citations::reporters::UnlistedSeries> {
    if citation.reporter.is_some() || !citation.reporter_candidates.is_empty() {
        return None;
    }
    crate::citations::reporters::unlisted_series(citation.reporter_found.as_deref()?)
}

/// The library code of a law collection the engine names.
pub fn law_code(collection: &str) -> Option<&'static str> {
    Some(match collection {
        "U.S.C." => model::codes::USC,
        "C.F.R." | "Treas. Reg." => model::codes::CFR,
        "Fed. R. Civ. P." => model::codes::FRCP,
        "Fed. R. Crim. P." => model::codes::FRCRP,
        "Fed. R. Evid." => model::codes::FRE,
        "Fed. R. App. P." => model::codes::FRAP,
        "Sup. Ct. R." => model::codes::SUP_CT_R,
        _ => return None,
    })
}

/// The title of the library's code a law citation is in: the one it gives,
/// or the one its collection is ("Treas. Reg." is 26 C.F.R.).
pub fn law_title(law: &crate::citations::LawKey) -> String {
    match (&law.title, law.code.as_str()) {
        (Some(title), _) => title.clone(),
        (None, "Treas. Reg.") => "26".into(),
        (None, _) => String::new(),
    }
}

/// What to do about a library store file that is damaged
/// ([`StoreError::is_damaged_file`]).
pub fn repair_advice(store_file: &Path) -> String {
    format!(
        "{} is damaged: move it aside and run `lexstack library build --data {}`, then import \
         again what you had imported (or restore the file from a backup)",
        store_file.display(),
        index::data_dir_of(store_file)
    )
}

/// The version of the default library a store holds whole (none before its
/// first build finished).
pub fn default_version(store: &Store) -> Result<Option<u32>, StoreError> {
    store.read(|txn| store::meta_value(txn, import::default::VERSION_KEY))
}

impl Library {
    /// Opens the library for writing, building the embedded default library
    /// first when the data directory lacks it. What a killed import or an
    /// index rebuild left to index waits for the caller's
    /// [`Self::index_pending`].
    ///
    /// A first build into an empty library, or one resumed after a first
    /// build was killed, is compacted afterwards: the build's copy-on-write
    /// pages leave the new file half free (138 MB against 74), and
    /// compacting it costs under a second. A build into a library that
    /// holds more (an upgrade of the default library, or one imported
    /// first) is not: compacting reads and rewrites the whole file (33 s
    /// and 1.6 GB at a million cases), and the free pages the build left
    /// are reused by later writes.
    pub fn open_with_default(
        data_dir: &Path,
    ) -> Result<(Self, Option<Vec<import::ImportReport>>), LibraryError> {
        let library = Self::open(data_dir)?;
        let first_build = library.begin_first_build()?;
        let Some(reports) = library.ensure_default()? else {
            return Ok((library, None));
        };
        if !first_build {
            return Ok((library, Some(reports)));
        }
        drop(library);
        Store::compact_file(data_dir, Layout::Library)?;
        Ok((Self::open(data_dir)?, Some(reports)))
    }

    /// Whether this is a first build of the default library: into an
    /// empty library, or resuming one a kill stopped (which the library
    /// records as it starts, since it is no longer empty then).
    fn begin_first_build(&self) -> Result<bool, StoreError> {
        const BEGUN: &str = "first_build_begun";
        if self.holds_nothing()? {
            self.store.write(|txn| -> Result<(), StoreError> {
                let mut writer = store::LibraryWriter::new(txn)?;
                writer.set_meta(BEGUN, &true)?;
                writer.finish()
            })?;
            return Ok(true);
        }
        let begun: Option<bool> = self.store.read(|txn| store::meta_value(txn, BEGUN))?;
        Ok(begun == Some(true) && default_version(&self.store)?.is_none())
    }

    /// True when the library holds no case and no other authority.
    fn holds_nothing(&self) -> Result<bool, StoreError> {
        self.store.read(|txn| -> Result<bool, StoreError> {
            Ok(txn.open_table(CASES)?.is_empty()? && txn.open_table(AUTHORITIES)?.is_empty()?)
        })
    }

    /// Builds the embedded default library when this data directory lacks
    /// it (or holds an older one); returns the reports when it built.
    pub fn ensure_default(&self) -> Result<Option<Vec<import::ImportReport>>, LibraryError> {
        match default_version(&self.store)? {
            Some(version) if version == import::default::DEFAULT_LIBRARY_VERSION => {
                return Ok(None);
            }
            // A newer lexstack wrote it (the binary was downgraded): reading
            // this binary's older data over it would undo its corrections.
            Some(version) if version > import::default::DEFAULT_LIBRARY_VERSION => {
                tracing::warn!(
                    held = version,
                    this_build = import::default::DEFAULT_LIBRARY_VERSION,
                    "the default library was built by a newer lexstack; it is kept as it is"
                );
                return Ok(None);
            }
            _ => {}
        }
        if import::default::forget_overwritten_build(&self.store)? {
            tracing::warn!(
                "an older lexstack wrote its default library over this build's; \
                 every step is read again"
            );
        }
        let started = std::time::Instant::now();
        tracing::info!(
            version = import::default::DEFAULT_LIBRARY_VERSION,
            "building the default library from the data inside this binary (a few seconds, once)"
        );
        let reports = import::default::build(&self.store)?;
        self.index_pending()?;
        self.store.write(|txn| -> Result<(), StoreError> {
            let mut writer = store::LibraryWriter::new(txn)?;
            for key in [import::default::VERSION_KEY, import::default::LAST_FINISHED] {
                writer.set_meta(key, &import::default::DEFAULT_LIBRARY_VERSION)?;
            }
            writer.finish()
        })?;
        tracing::info!(
            seconds = started.elapsed().as_secs_f64(),
            "default library built"
        );
        Ok(Some(reports))
    }
}

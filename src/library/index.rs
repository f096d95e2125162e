//! The tantivy index of the library: case names, citations, opinion text
//! and authorities. One writer thread owns the `IndexWriter`; readers are
//! reloaded after each commit.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Serialize;
use tantivy::collector::{Count, TopDocs};
use tantivy::directory::error::OpenReadError;
use tantivy::query::{
    BooleanQuery, FuzzyTermQuery, Occur, Query, QueryParser, TermQuery, TermSetQuery,
};
use tantivy::schema::{
    FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{
    DocId, Index, IndexReader, IndexWriter, ReloadPolicy, Score, Searcher, SegmentReader,
    TantivyDocument, TantivyError, Term,
};

use super::import::normalize_docket;
use super::index_dir::IndexDirectory;
use super::store::stable_hash;
use crate::citations::names;
use crate::engine_panics::{self, Engine, EnginePanicked};
use crate::store::{LIBRARY_FILE, StoreError};

/// Where the index lives inside the data directory.
pub const INDEX_DIR: &str = "index";
/// The layout of the index's documents; a library whose index was built
/// with another is re-indexed when opened. 2: the `cites` field; 3: names
/// and citations read without accents ([`NAMES_TOKENIZER`]); 4: opinion
/// text's ligatures as their letters ([`ligatures_spelt_out`]), and head
/// matter and syllabus searched with the opinions; 5: docket numbers, and
/// equal scores ordered by [`TIEBREAK_FIELD`]; 6: the initials parties go
/// by ([`names::party_initials`]); 7: and those of the agency a party acts
/// through; 8: with and without the company's word a name ends with.
pub const INDEX_VERSION: u32 = 8;

/// A fast field of a stable hash of the id, which orders hits of equal
/// score ([`LibraryIndex::run`]).
const TIEBREAK_FIELD: &str = "tiebreak";

/// The analyzer of names and citations: tantivy's default, and accents
/// folded, so "Munoz" finds a case of record as "MUÑOZ". Opinion text keeps
/// the default: folding would cost every word of a bulk import.
const NAMES_TOKENIZER: &str = "names";

pub(super) fn names_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("search index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("search index directory {0}")]
    Directory(String),
    #[error("the search index writer has stopped")]
    WriterGone,
    #[error("the search index was opened read-only")]
    ReadOnly,
    #[error(
        "search index {dir} is damaged ({reason}); remove that directory, then \
         `lexstack serve --data {data}` or `lexstack library build --data {data}` rebuilds it \
         from the store",
        data = data_dir_of(dir)
    )]
    Damaged { dir: String, reason: String },
    #[error(
        "there is no search index in {0}; `lexstack serve --data {data}` or `lexstack library \
         build --data {data}` builds it from the store",
        data = data_dir_of(.0)
    )]
    Missing(String),
    #[error(
        "the search index in {0} was built by another version of lexstack, which laid its \
         documents out otherwise; `lexstack serve --data {data}`, `lexstack library build --data \
         {data}` or an import rebuilds it from the store",
        data = data_dir_of(.0)
    )]
    OtherVersion(String),
}

/// The data directory of a file or folder inside it (the index, the
/// store), as messages name it.
pub(super) fn data_dir_of(inside: impl AsRef<Path>) -> String {
    inside
        .as_ref()
        .parent()
        .map_or_else(|| ".".into(), |data| data.display().to_string())
}

impl From<IndexError> for StoreError {
    fn from(err: IndexError) -> Self {
        match err {
            IndexError::Damaged { .. } => StoreError::SearchIndexDamaged(err.to_string()),
            other => StoreError::Search(other.to_string()),
        }
    }
}

/// A document to index: a case or an authority.
#[derive(Debug, Clone, Default)]
pub struct IndexDoc {
    pub id: String,
    /// `case`, or the authority's code (`usc`, `cfr`, `frcp`, …).
    pub kind: String,
    pub name: String,
    /// More names to find it by (the cases decided with it); hits show
    /// `name`.
    pub other_names: Vec<String>,
    pub citations: Vec<String>,
    pub docket_numbers: Vec<String>,
    pub court: Option<String>,
    pub date: Option<String>,
    pub text: String,
    /// Ids of the cases this one cites: the citation graph read backwards
    /// ("which cases cite X") is a search of this field.
    pub cites: Vec<String>,
    /// The initials its parties go by ([`names::party_initials`]).
    pub initials: Vec<String>,
}

/// Search hits, and whether they hold every word searched for (or only
/// some).
struct Found {
    hits: Vec<SearchHit>,
    every_word: bool,
}

/// One search result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub id: String,
    pub kind: String,
    pub name: String,
    pub citations: Vec<String>,
    /// Shown when it holds any: a docket number is searched like a name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub docket_numbers: Vec<String>,
    pub court: Option<String>,
    pub date: Option<String>,
    /// The text's relevance. Not shown: hits are listed best first, and
    /// that order also weighs how the name matches and how often the case
    /// is cited, so a relevance shown beside it would seem to contradict it.
    #[serde(skip)]
    pub score: f32,
    /// The cases decided with this one and reported under its citation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub companion_names: Vec<String>,
}

impl SearchHit {
    /// Its name, then its companions' names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name.as_str()).chain(self.companion_names.iter().map(String::as_str))
    }
}

#[derive(Clone, Copy)]
struct Fields {
    id: Field,
    kind: Field,
    name: Field,
    citations: Field,
    dockets: Field,
    court: Field,
    date: Field,
    text: Field,
    cites: Field,
    tiebreak: Field,
    initials: Field,
}

enum WriterOp {
    /// The documents of `ids` taken out, then `docs` added.
    Replace {
        ids: Vec<String>,
        docs: Vec<IndexDoc>,
    },
    Commit(SyncSender<Result<(), String>>),
}

pub struct LibraryIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    writer: Option<Mutex<WriterHandle>>,
    dir: PathBuf,
    /// Set once a search met a file that does not hold what tantivy wrote:
    /// every later probe fails, so readiness says what searches would meet.
    damaged: AtomicBool,
    mapped: MappedFiles,
}

/// The index's segment files as the reader mapped them: their lengths and
/// last bytes (where tantivy's footer ends each). A read past the end of a
/// mapped file that was cut short kills the process (SIGBUS) where no error
/// can be returned, and a file written over with other bytes (zeroed) may
/// read as valid but empty, so searches first check that no file is
/// shorter or ends otherwise, at most every [`MAPPED_FILES_CHECKED_EVERY`]:
/// a file changed while searches run may still be read in that window.
struct MappedFiles {
    files: Mutex<Vec<MappedFile>>,
    opened: Instant,
    /// Milliseconds after `opened` of the last check.
    checked_at: AtomicU64,
}

struct MappedFile {
    path: PathBuf,
    length: u64,
    tail: Vec<u8>,
}

/// How many of a file's last bytes are compared: tantivy's footer (its
/// checksum, length and magic number) ends every segment file.
const TAIL_BYTES: u64 = 16;

/// How often searches check the index's files ([`MappedFiles`]); checking
/// at every search would cost system calls for every file each time.
pub const MAPPED_FILES_CHECKED_EVERY: Duration = Duration::from_millis(100);

impl MappedFiles {
    fn of(dir: &Path) -> Self {
        let files = Self {
            files: Mutex::new(Vec::new()),
            opened: Instant::now(),
            checked_at: AtomicU64::new(0),
        };
        files.record(dir);
        files
    }

    /// Notes the segment files in `dir` as they are (after the reader
    /// loaded them). `meta.json` and the lock files are replaced whole, not
    /// mapped, and may change.
    fn record(&self, dir: &Path) {
        let files = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                !name.starts_with('.') && !name.ends_with(".json") && !name.ends_with(".lock")
            })
            .filter_map(|entry| {
                let path = entry.path();
                let length = entry.metadata().ok()?.len();
                let tail = tail_of(&path, length)?;
                Some(MappedFile { path, length, tail })
            })
            .collect();
        *self.files.lock().unwrap_or_else(|e| e.into_inner()) = files;
    }

    /// A mapped file now shorter than it was mapped, or ending in other
    /// bytes, with how it changed. A file gone (removed after a merge)
    /// stays mapped whole.
    fn changed(&self) -> Option<String> {
        let now = self.opened.elapsed().as_millis() as u64;
        let last = self.checked_at.load(Ordering::Relaxed);
        if now.saturating_sub(last) < MAPPED_FILES_CHECKED_EVERY.as_millis() as u64 && last != 0 {
            return None;
        }
        self.checked_at.store(now.max(1), Ordering::Relaxed);
        self.changed_now()
    }

    /// [`Self::changed`], checked now.
    fn changed_now(&self) -> Option<String> {
        let files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        files.iter().find_map(|file| {
            let length = std::fs::metadata(&file.path).ok()?.len();
            let shown = file.path.display();
            if length < file.length {
                return Some(format!("{shown} is shorter than when it was opened"));
            }
            (tail_of(&file.path, file.length)? != file.tail)
                .then(|| format!("{shown} ends in other bytes than when it was opened"))
        })
    }
}

/// The last bytes of the first `length` bytes of a file.
fn tail_of(path: &Path, length: u64) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path).ok()?;
    let from = length.saturating_sub(TAIL_BYTES);
    let mut tail = vec![0; (length - from) as usize];
    file.read_exact_at(&mut tail, from).ok()?;
    Some(tail)
}

struct WriterHandle {
    sender: Option<SyncSender<WriterOp>>,
    thread: Option<JoinHandle<()>>,
}

/// The index's directory `dir`, its files as readable as the store's in
/// `data_dir` ([`IndexDirectory`]).
fn index_directory(dir: &Path, data_dir: &Path) -> Result<IndexDirectory, IndexError> {
    IndexDirectory::open(dir, &data_dir.join(LIBRARY_FILE))
        .map_err(|e| IndexError::Directory(format!("{}: {e}", dir.display())))
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    // Opinion text is the bulk of an import: words and frequencies only
    // (no stemming, no positions) keep bulk indexing within budget; names
    // and citations keep positions for phrase queries.
    let body = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("default")
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let plain = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(NAMES_TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fields = Fields {
        id: builder.add_text_field("id", STRING | STORED),
        kind: builder.add_text_field("kind", STRING | STORED),
        name: builder.add_text_field("name", plain.clone() | STORED),
        citations: builder.add_text_field("citations", plain.clone() | STORED),
        dockets: builder.add_text_field("dockets", plain | STORED),
        court: builder.add_text_field("court", STRING | STORED),
        date: builder.add_text_field("date", STRING | STORED),
        text: builder.add_text_field("text", body),
        cites: builder.add_text_field("cites", STRING),
        tiebreak: builder.add_u64_field(TIEBREAK_FIELD, FAST),
        initials: builder.add_text_field("initials", STRING),
    };
    (builder.build(), fields)
}

impl LibraryIndex {
    /// Opens (creating when absent) the index for reading and writing, with
    /// a writer of `memory_bytes` budget.
    pub fn open(data_dir: &Path, memory_bytes: usize) -> Result<Self, IndexError> {
        let dir = data_dir.join(INDEX_DIR);
        std::fs::create_dir_all(&dir)
            .map_err(|e| IndexError::Directory(format!("{}: {e}", dir.display())))?;
        let (schema, fields) = schema();
        let directory = index_directory(&dir, data_dir)?;
        let damaged = |err| open_error(&dir, err);
        let index = Index::open_or_create(directory, schema).map_err(damaged)?;
        index
            .tokenizers()
            .register(NAMES_TOKENIZER, names_analyzer());
        let writer: IndexWriter = index
            .writer(memory_bytes.max(15_000_000))
            .map_err(damaged)?;
        // A message is a batch of documents: one waits while the writer
        // takes in another.
        let (sender, receiver) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("index-writer".into())
            .spawn(move || run_writer(writer, fields, receiver))
            .map_err(|e| IndexError::Directory(format!("writer thread: {e}")))?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(damaged)?;
        Ok(Self {
            index,
            reader,
            fields,
            writer: Some(Mutex::new(WriterHandle {
                sender: Some(sender),
                thread: Some(thread),
            })),
            mapped: MappedFiles::of(&dir),
            dir,
            damaged: AtomicBool::new(false),
        })
    }

    /// Whether a data directory holds an index (a missing one is rebuilt).
    pub fn exists(data_dir: &Path) -> bool {
        tantivy::directory::MmapDirectory::open(data_dir.join(INDEX_DIR))
            .ok()
            .is_some_and(|directory| Index::exists(&directory).unwrap_or(false))
    }

    /// Deletes the index of a data directory (to build it again).
    pub fn remove(data_dir: &Path) -> Result<(), IndexError> {
        let dir = data_dir.join(INDEX_DIR);
        match std::fs::remove_dir_all(&dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(IndexError::Directory(format!("{}: {e}", dir.display())))
            }
            _ => Ok(()),
        }
    }

    /// Opens an existing index for searching only: another process may be
    /// writing it, and this one may be unable to write its directory.
    pub fn open_read_only(data_dir: &Path) -> Result<Self, IndexError> {
        let dir = data_dir.join(INDEX_DIR);
        if !dir.is_dir() {
            return Err(IndexError::Missing(dir.display().to_string()));
        }
        let directory = index_directory(&dir, data_dir)?;
        let damaged = |err| open_error(&dir, err);
        let index = Index::open(directory).map_err(damaged)?;
        index
            .tokenizers()
            .register(NAMES_TOKENIZER, names_analyzer());
        let (_, fields) = schema();
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(damaged)?;
        Ok(Self {
            index,
            reader,
            fields,
            writer: None,
            mapped: MappedFiles::of(&dir),
            dir,
            damaged: AtomicBool::new(false),
        })
    }

    fn send(&self, op: WriterOp) -> Result<(), IndexError> {
        let handle = self.writer.as_ref().ok_or(IndexError::ReadOnly)?;
        let guard = handle.lock().unwrap_or_else(|e| e.into_inner());
        let sender = guard.sender.as_ref().ok_or(IndexError::WriterGone)?;
        sender.send(op).map_err(|_| IndexError::WriterGone)
    }

    /// Queues, for when it is committed, the removal of every document of
    /// `ids` and the addition of `docs` (whose ids are among them).
    pub fn replace(&self, ids: Vec<String>, docs: Vec<IndexDoc>) -> Result<(), IndexError> {
        self.send(WriterOp::Replace { ids, docs })
    }

    /// Commits what was queued and makes it visible to searches.
    pub fn commit(&self) -> Result<(), IndexError> {
        let (reply, answer) = sync_channel(1);
        self.send(WriterOp::Commit(reply))?;
        answer
            .recv()
            .map_err(|_| IndexError::WriterGone)?
            .map_err(|e| IndexError::Directory(format!("commit: {e}")))?;
        self.reader.reload()?;
        self.mapped.record(&self.dir);
        Ok(())
    }

    /// Picks up commits made by another process (read-only handles).
    pub fn refresh(&self) -> Result<(), IndexError> {
        self.reader.reload()?;
        self.mapped.record(&self.dir);
        Ok(())
    }

    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// Best matches for free text over names, citations and text. Syntax
    /// errors in the query are forgiven, never an error.
    ///
    /// What a query's words name comes before what merely mentions them:
    /// a few dozen opinions with text hold "us", "Nixon", "board" and
    /// "education" between them, and would otherwise bury United States v.
    /// Nixon and Brown v. Board of Education, which the name holds.
    pub fn search(
        &self,
        query: &str,
        kind: Option<&str>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, IndexError> {
        let f = self.fields;
        // A docket number finds the cases of that docket first, as a
        // citation finds what it cites; "No." before it is the court's.
        let (docket, query) = docket_query(query);
        let docket_first = match docket {
            Some(docket) => {
                let dockets = QueryParser::for_index(&self.index, vec![f.dockets]);
                let pool = limit.max(PARTY_POOL);
                let hits = self.parse_and_run(&dockets, &format!("\"{docket}\""), pool)?;
                // "759" is in "73-759" too: the docket itself first, the
                // most cited of its cases first (courts reuse numbers).
                let wanted = normalize_docket(docket);
                let (exact, within): (Vec<SearchHit>, Vec<SearchHit>) =
                    hits.into_iter().partition(|hit| {
                        hit.docket_numbers
                            .iter()
                            .any(|held| normalize_docket(held) == wanted)
                    });
                [self.most_cited_first(exact)?, within].concat()
            }
            None => Vec::new(),
        };
        let mut parser = QueryParser::for_index(
            &self.index,
            vec![f.name, f.citations, f.dockets, f.text, f.court],
        );
        parser.set_field_boost(f.name, 4.0);
        parser.set_field_boost(f.citations, 2.0);
        parser.set_field_boost(f.dockets, 2.0);
        let kind_term = kind.filter(|kind| kind.chars().all(|c| c.is_ascii_alphanumeric()));
        let kind = kind_term.map_or(String::new(), |kind| format!("+kind:{kind} "));
        let court_first = match crate::citations::court_named_by_query(query) {
            _ if docket.is_some() => Vec::new(),
            Some(court) => self.court_cases(&court.id, limit)?,
            None => match crate::citations::court_and_words(query) {
                Some((court, words)) => {
                    self.court_cases_matching(&parser, &kind, &court.id, &words, limit)?
                }
                None => Vec::new(),
            },
        };
        let query = ligatures_spelt_out(query);
        let query = &places_spelt_out(&query);
        // "Brown v. Board of Education" is Brown, not every case that
        // names a board.
        let named = NameQuery::of(query);
        let words = QueryWords::of(query);
        let pool_limit = pool_size(named.as_ref(), limit);
        let names_parser = QueryParser::for_index(&self.index, vec![f.name]);
        // Ranked by citing cases below, so more than are shown.
        let names_limit = limit.max(PARTY_POOL);
        let mut by_name = match named {
            Some(_) => {
                let any = words.words.join(" ");
                self.every_word_first(&names_parser, &kind, &words, &any, names_limit)?
            }
            None => self.every_word_first(&names_parser, &kind, &words, "", names_limit)?,
        };
        // Any word, when no document holds them all: the words of a name,
        // not its "v." (which matches every "V.I." citation), unless the
        // query quotes a phrase.
        let any = if query.contains('"') {
            sanitize(query)
        } else {
            words.words.join(" ")
        };
        let elsewhere = self.every_word_first(&parser, &kind, &words, &any, pool_limit)?;
        let mut same_word: fn(&str, &str) -> bool = as_written;
        // A name of one party that a text holds as written ("Kagan", a
        // judge) is no misspelling of another ("Kahan").
        let one_party_written =
            matches!(named, Some(NameQuery::OneParty(_))) && elsewhere.every_word;
        let misspelt_name = named.is_some()
            && !by_name.every_word
            && !one_party_written
            && kind_term.is_none_or(|kind| kind == "case")
            && words.words.len() <= 2 * MAX_PARTY_WORDS;
        if misspelt_name {
            let misspelt = self.case_names_within_an_edit(&words.words, names_limit)?;
            if !misspelt.is_empty() {
                by_name = Found {
                    hits: misspelt,
                    every_word: true,
                };
                same_word = within_an_edit;
            }
        }
        let names_hold_every_word = by_name.every_word;
        let (head, beyond_pool) = split_at_pool(by_name.hits);
        let (in_order, by_name) = named_in_order(named.as_ref(), head, same_word);
        let named_as_asked = !in_order.is_empty();
        let named_first = [
            self.most_cited_first(in_order)?,
            self.most_cited_first(by_name)?,
            beyond_pool,
        ]
        .concat();
        // A passage quoted from an opinion names the cases it cites ("… in
        // Bracken v. Block"): no case is named so, no name holds all its
        // words, and the opinion that does comes first.
        let ranked = if elsewhere.every_word && !names_hold_every_word && !named_as_asked {
            [elsewhere.hits, named_first]
        } else {
            [named_first, elsewhere.hits]
        };
        Ok(dedup([docket_first, court_first, ranked.concat()].concat())
            .into_iter()
            .take(limit)
            .collect())
    }

    /// A court's cases, for a query naming the court ("Ninth Circuit"):
    /// of a pool of them, those with a name before records known by their
    /// citation alone, the most cited first. The pool grows until it holds
    /// `limit` named cases, or the court's every case, or
    /// [`MAX_COURT_POOL`].
    fn court_cases(&self, court: &str, limit: usize) -> Result<Vec<SearchHit>, IndexError> {
        let of_the_court = TermQuery::new(
            Term::from_field_text(self.fields.court, court),
            IndexRecordOption::Basic,
        );
        let mut pool = limit.max(COURT_POOL);
        loop {
            let hits = self.run(&of_the_court, pool)?;
            let every_case = hits.len() < pool;
            let (named, nameless): (Vec<SearchHit>, Vec<SearchHit>) = hits
                .into_iter()
                .partition(|hit| !hit.name.trim().is_empty());
            if named.len() >= limit || every_case || pool >= MAX_COURT_POOL {
                return Ok([self.most_cited_first(named)?, nameless].concat());
            }
            pool = (pool * 4).min(MAX_COURT_POOL);
        }
    }

    /// A court's cases that hold `words` ("Ninth Circuit immigration"), by
    /// the search's own `parser` and `kind` filter: those holding them all
    /// first.
    fn court_cases_matching(
        &self,
        parser: &QueryParser,
        kind: &str,
        court: &str,
        words: &str,
        limit: usize,
    ) -> Result<Vec<SearchHit>, IndexError> {
        // The id goes into the query's syntax: courts-db's are letters and
        // digits.
        if !court.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(Vec::new());
        }
        let required = format!("{kind}+court:{court} ");
        let words = QueryWords::of(words);
        let any = words.words.join(" ");
        Ok(self
            .every_word_first(parser, &required, &words, &any, limit)?
            .hits)
    }

    /// Cases before authorities, the most cited first; equally cited hits
    /// keep their order by score.
    fn most_cited_first(&self, hits: Vec<SearchHit>) -> Result<Vec<SearchHit>, IndexError> {
        let searcher = self.reader.searcher();
        let mut ranked: Vec<(bool, usize, SearchHit)> = Vec::with_capacity(hits.len());
        for hit in hits {
            let count = if hit.kind == "case" {
                self.count_citing(&searcher, &hit.id)?
            } else {
                0
            };
            ranked.push((hit.kind != "case", count, hit));
        }
        ranked.sort_by_key(|(authority, count, _)| (*authority, std::cmp::Reverse(*count)));
        Ok(ranked.into_iter().map(|(_, _, hit)| hit).collect())
    }

    /// For a query written as a case name ("Brown v. Board"), the cases
    /// whose parties stand on the same sides come first, the most cited of
    /// them first (Brown v. Board of Education before its later orders, and
    /// before NLRB v. Brown); the rest keep their order by score. A party's
    /// name alone ("Miranda") puts first the cases with it as one party,
    /// most cited first. Other queries keep the order by score.
    fn parties_in_order_first(
        &self,
        named: Option<&NameQuery>,
        hits: Vec<SearchHit>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, IndexError> {
        if named.is_none() {
            return Ok(hits.into_iter().take(limit).collect());
        }
        let (head, beyond_pool) = split_at_pool(hits);
        let (in_order, rest) = named_in_order(named, head, as_written);
        Ok(self
            .most_cited_first(in_order)?
            .into_iter()
            .chain(rest)
            .chain(beyond_pool)
            .take(limit)
            .collect())
    }

    /// Documents holding every one of `words` (each as a required term),
    /// else those matching `any`; `required` (a kind filter, or empty)
    /// bounds both. Nothing to search for finds nothing.
    fn every_word_first(
        &self,
        parser: &QueryParser,
        required: &str,
        words: &QueryWords,
        any: &str,
        limit: usize,
    ) -> Result<Found, IndexError> {
        if !words.words.is_empty() {
            let all: Vec<String> = words
                .words
                .iter()
                .map(|w| every_spelling(w, &words.initials))
                .collect();
            let hits =
                self.parse_and_run(parser, &format!("{required}{}", all.join(" ")), limit)?;
            if !hits.is_empty() {
                return Ok(Found {
                    hits,
                    every_word: true,
                });
            }
        }
        let hits = if any.trim().is_empty() {
            Vec::new()
        } else if required.is_empty() {
            self.parse_and_run(parser, any, limit)?
        } else {
            self.parse_and_run(parser, &format!("{required}+({any})"), limit)?
        };
        Ok(Found {
            hits,
            every_word: false,
        })
    }

    fn parse_and_run(
        &self,
        parser: &QueryParser,
        text: &str,
        limit: usize,
    ) -> Result<Vec<SearchHit>, IndexError> {
        let (parsed, _errors) = parser.parse_query_lenient(text);
        self.run(&parsed, limit)
    }

    /// Cases whose name holds, for each of `words`, a word within an edit
    /// of it ([`within_an_edit`]): a name misspelt, "Mirnda v. Arizona",
    /// when no name holds every word as written.
    fn case_names_within_an_edit(
        &self,
        words: &[String],
        limit: usize,
    ) -> Result<Vec<SearchHit>, IndexError> {
        let mut analyzer = names_analyzer();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for word in words {
            let mut tokens = analyzer.token_stream(word);
            while let Some(token) = tokens.next() {
                let term = Term::from_field_text(self.fields.name, &token.text);
                let edits = edits_allowed(&token.text);
                clauses.push((
                    Occur::Must,
                    Box::new(FuzzyTermQuery::new(term, edits, true)),
                ));
            }
        }
        if clauses.is_empty() {
            return Ok(Vec::new());
        }
        let cases = Term::from_field_text(self.fields.kind, "case");
        clauses.push((
            Occur::Must,
            Box::new(TermQuery::new(cases, IndexRecordOption::Basic)),
        ));
        self.run(&BooleanQuery::new(clauses), limit)
    }

    /// The documents of these ids, in their order; an id not indexed is
    /// left out.
    pub fn hits_by_id(&self, ids: &[String]) -> Result<Vec<SearchHit>, IndexError> {
        let mut hits = Vec::with_capacity(ids.len());
        for id in ids {
            let query = TermQuery::new(
                Term::from_field_text(self.fields.id, id),
                IndexRecordOption::Basic,
            );
            hits.extend(self.run(&query, 1)?);
        }
        Ok(hits)
    }

    fn run(&self, query: &dyn Query, limit: usize) -> Result<Vec<SearchHit>, IndexError> {
        let searcher = self.reader.searcher();
        // No more hits than documents: a limit past them ("--limit
        // 18446744073709551615") overflowed the collector's capacity.
        let documents = usize::try_from(searcher.num_docs()).unwrap_or(usize::MAX);
        let limit = limit.clamp(1, documents.max(1));
        // Documents land in segments in whatever order the indexing threads
        // took them, so equal scores are told apart by a stable hash of the
        // id: which of them fall within a limit, and their order, are the
        // same in two identical libraries and for any limit.
        let collector = TopDocs::with_limit(limit).tweak_score(|segment: &SegmentReader| {
            let tiebreaks = segment
                .fast_fields()
                .u64(TIEBREAK_FIELD)
                .ok()
                .map(|column| column.first_or_default_col(0));
            move |doc: DocId, score: Score| {
                let tiebreak = tiebreaks.as_ref().map_or(0, |column| column.get_val(doc));
                (score, Reverse(tiebreak))
            }
        });
        let found = self.reading(|| {
            let top = searcher.search(query, &collector)?;
            top.into_iter()
                .map(|((score, _), address)| Ok((score, searcher.doc(address)?)))
                .collect::<tantivy::Result<Vec<(Score, TantivyDocument)>>>()
        })?;
        let f = self.fields;
        let mut hits = Vec::with_capacity(found.len());
        for (score, doc) in found {
            let first = |field: Field| {
                doc.get_first(field)
                    .and_then(|v| v.as_str().map(str::to_string))
            };
            let mut names = doc
                .get_all(f.name)
                .filter_map(|v| v.as_str().map(str::to_string));
            hits.push(SearchHit {
                id: first(f.id).unwrap_or_default(),
                kind: first(f.kind).unwrap_or_default(),
                name: names.next().unwrap_or_default(),
                companion_names: names.collect(),
                citations: doc
                    .get_all(f.citations)
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
                docket_numbers: doc
                    .get_all(f.dockets)
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
                court: first(f.court),
                date: first(f.date),
                score,
            });
        }
        Ok(hits)
    }

    /// Cases whose name holds every word of `query` (the "v." and other
    /// connectives aside), best first; when none holds them all, cases whose
    /// name holds any of them. Names only: a surname that fills opinion
    /// texts does not drown the case that bears it.
    pub fn search_names(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, IndexError> {
        let query = ligatures_spelt_out(query);
        let query = &places_spelt_out(&query);
        let words = QueryWords::of(query);
        let parser = QueryParser::for_index(&self.index, vec![self.fields.name]);
        let named = NameQuery::of(query);
        let pool = self
            .every_word_first(
                &parser,
                "+kind:case ",
                &words,
                &words.words.join(" "),
                pool_size(named.as_ref(), limit),
            )?
            .hits;
        self.parties_in_order_first(named.as_ref(), pool, limit)
    }

    /// How many cases in the index cite the case `id`.
    pub fn citing_count(&self, id: &str) -> Result<usize, IndexError> {
        self.count_citing(&self.reader.searcher(), id)
    }

    fn count_citing(&self, searcher: &Searcher, id: &str) -> Result<usize, IndexError> {
        let query = TermQuery::new(
            Term::from_field_text(self.fields.cites, id),
            IndexRecordOption::Basic,
        );
        self.reading(|| searcher.search(&query, &Count))
    }

    /// Runs a read of the index's files. The files are mapped into memory,
    /// so a read that fails, or panics in tantivy's code, met a file that
    /// does not hold what tantivy wrote: the index is marked damaged, and
    /// later reads are refused.
    fn reading<T>(&self, read: impl FnOnce() -> tantivy::Result<T>) -> Result<T, IndexError> {
        if self.damaged.load(Ordering::Relaxed) {
            return Err(self.damaged_error(
                "an earlier read met a file that does not hold what tantivy wrote",
            ));
        }
        let reason = match self.mapped.changed() {
            Some(change) => change,
            None => match engine_panics::catch(Engine::Tantivy, read) {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(err)) if !is_damage_when_searching(&err) => return Err(err.into()),
                Ok(Err(err)) => err.to_string(),
                Err(EnginePanicked) => "a read panicked in tantivy's code".to_string(),
            },
        };
        Err(self.mark_damaged(&reason))
    }

    /// Marks the index damaged for `reason`: no later read is made.
    fn mark_damaged(&self, reason: &str) -> IndexError {
        self.damaged.store(true, Ordering::Relaxed);
        self.damaged_error(reason)
    }

    fn damaged_error(&self, reason: &str) -> IndexError {
        IndexError::Damaged {
            dir: self.dir.display().to_string(),
            reason: reason.to_string(),
        }
    }

    /// Checks every file of the index against the checksum tantivy wrote
    /// in its footer (reading the whole index): damage that leaves a
    /// file's end as it was is found only so, or by a search that fails on
    /// it. A mismatch marks the index damaged, as a failed search does.
    pub fn check_files(&self) -> Result<(), IndexError> {
        // A file cut short would kill the process when read.
        if let Some(change) = self.mapped.changed_now() {
            return Err(self.mark_damaged(&change));
        }
        let mismatched = self.reading(|| self.index.validate_checksum())?;
        if mismatched.is_empty() {
            return Ok(());
        }
        let mut names: Vec<String> = mismatched
            .iter()
            .map(|file| file.display().to_string())
            .collect();
        names.sort();
        Err(self.mark_damaged(&format!(
            "files that do not match their checksums: {}",
            names.join(", ")
        )))
    }

    /// Whether the index answers a search (readiness). Once a search met a
    /// damaged file, none reads the index again: what else it holds is not
    /// to be trusted either.
    pub fn probe(&self) -> Result<(), IndexError> {
        self.search("court", None, 1).map(|_| ())
    }

    /// Bytes the index takes on disk.
    pub fn size_bytes(data_dir: &Path) -> u64 {
        std::fs::read_dir(data_dir.join(INDEX_DIR))
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok()?.metadata().ok())
                    .filter(|meta| meta.is_file())
                    .map(|meta| meta.len())
                    .sum()
            })
            .unwrap_or(0)
    }

    /// Lets queued documents commit, then stops the writer thread.
    pub fn close(&self) {
        if let Some(handle) = &self.writer {
            let mut guard = handle.lock().unwrap_or_else(|e| e.into_inner());
            guard.sender.take();
            if let Some(thread) = guard.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

impl Drop for LibraryIndex {
    fn drop(&mut self) {
        self.close();
    }
}

/// Whether a search's failure means the index's files do not hold what
/// tantivy wrote. They are mapped into memory and read without a system
/// call, so any I/O error tantivy reports then is about their bytes.
fn is_damage_when_searching(err: &TantivyError) -> bool {
    matches!(
        err,
        TantivyError::DataCorruption(_) | TantivyError::IoError(_)
    ) || is_damage(err)
}

/// Whether a failed read of the index's files found them not holding what
/// tantivy wrote: data that does not decode, or a file that ends early.
fn is_damage(err: &TantivyError) -> bool {
    let wrong_bytes = |io: &std::io::Error| {
        matches!(
            io.kind(),
            std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof
        )
    };
    match err {
        TantivyError::DataCorruption(_) => true,
        TantivyError::IoError(io) => wrong_bytes(io),
        TantivyError::OpenReadError(OpenReadError::IoError { io_error, .. }) => {
            wrong_bytes(io_error)
        }
        _ => false,
    }
}

/// Why the index cannot be opened. Only wrong files call for rebuilding
/// it; a failed read or write (permissions, a full disk) or a lock is said
/// as it is, since removing the directory would not mend it.
fn open_error(dir: &Path, err: TantivyError) -> IndexError {
    let not_the_files = !is_damage(&err)
        && matches!(
            err,
            TantivyError::IoError(_)
                | TantivyError::OpenDirectoryError(_)
                | TantivyError::OpenWriteError(_)
                | TantivyError::LockFailure(..)
                | TantivyError::SystemError(_)
                | TantivyError::OpenReadError(OpenReadError::IoError { .. })
        );
    if not_the_files {
        IndexError::Directory(format!("{}: {err}", dir.display()))
    } else {
        IndexError::Damaged {
            dir: dir.display().to_string(),
            reason: err.to_string(),
        }
    }
}

/// Words that join the parties of a case name rather than name them.
const NAME_CONNECTIVES: &[&str] = &[
    "v", "vs", "versus", "et", "al", "ex", "rel", "in", "re", "of", "the", "and",
];

/// How many hits to rank by parties for `limit` shown: a case named in
/// order may score below many that hold the same words elsewhere.
fn pool_size(named: Option<&NameQuery>, limit: usize) -> usize {
    if named.is_some() {
        limit.max(PARTY_POOL)
    } else {
        limit
    }
}

const PARTY_POOL: usize = 50;

/// How many of a court's cases a query naming the court ranks by citing
/// cases ([`LibraryIndex::court_cases`]): a court holds many thousands,
/// and each counted is a look-up.
const COURT_POOL: usize = 200;

/// The most of a court's cases looked at to list its named cases first.
const MAX_COURT_POOL: usize = 20_000;

/// The hits ranked by parties and citing cases (the first [`PARTY_POOL`] by
/// score), and those after them, kept in their order by score: so a larger
/// limit adds hits after the ones a smaller limit shows, never before.
fn split_at_pool(mut hits: Vec<SearchHit>) -> (Vec<SearchHit>, Vec<SearchHit>) {
    let beyond = hits.split_off(hits.len().min(PARTY_POOL));
    (hits, beyond)
}

/// A query that names a case: its parties ("Brown v. Board"), a matter
/// ("In re Oliver", "Ex parte Young"), or one party's name in capitals
/// ("Miranda", "Chevron").
#[derive(Debug, PartialEq)]
enum NameQuery {
    Parties(Parties),
    Matter(Vec<String>),
    OneParty(Vec<String>),
}

/// How the name of a case without adverse parties begins.
const MATTER_PREFIXES: &[&str] = &["in re ", "ex parte ", "in the matter of ", "matter of "];

/// What a case without adverse parties is about: "Oliver" in "In re
/// Oliver".
fn matter_of(name: &str) -> Option<&str> {
    let name = name.trim_start();
    MATTER_PREFIXES.iter().find_map(|prefix| {
        let head = name.get(..prefix.len())?;
        head.eq_ignore_ascii_case(prefix)
            .then(|| &name[prefix.len()..])
    })
}

/// The words of a name, connectives aside, as names compare by them.
fn name_tokens(name: &str) -> Vec<String> {
    let words = sanitize(name);
    let words: Vec<&str> = words
        .split_whitespace()
        .filter(|w| !is_connective(w))
        .collect();
    party_tokens(&words)
}

/// A party's name is a few words, each capitalized.
const MAX_PARTY_WORDS: usize = 6;

impl NameQuery {
    fn of(query: &str) -> Option<NameQuery> {
        if let Some(parties) = Parties::of(query) {
            return Some(NameQuery::Parties(parties));
        }
        if let Some(matter) = matter_of(query) {
            let words = name_tokens(matter);
            return (!words.is_empty()).then_some(NameQuery::Matter(words));
        }
        let words = sanitize(query);
        let words: Vec<&str> = words
            .split_whitespace()
            .filter(|w| !is_connective(w))
            .collect();
        let capitalized = words
            .iter()
            .all(|w| w.chars().next().is_some_and(char::is_uppercase));
        (!words.is_empty() && words.len() <= MAX_PARTY_WORDS && capitalized)
            .then(|| NameQuery::OneParty(party_tokens(&words)))
    }

    /// Whether a case of this name is the one the query names, a word of
    /// the query matching a word of the name when `same_word` says so
    /// ([`as_written`], [`within_an_edit`]).
    fn is_named_with(&self, name: &str, same_word: fn(&str, &str) -> bool) -> bool {
        match self {
            NameQuery::Parties(wanted) => {
                Parties::of_record(name).is_some_and(|parties| parties.include(wanted, same_word))
            }
            NameQuery::Matter(words) => {
                matter_of(name).is_some_and(|matter| holds(&name_tokens(matter), words, same_word))
            }
            NameQuery::OneParty(words) => Parties::of_record(name).is_some_and(|parties| {
                holds(&parties.first, words, same_word) || holds(&parties.second, words, same_word)
            }),
        }
    }
}

/// The words on each side of a case name's "v.", connectives aside.
#[derive(Debug, PartialEq)]
struct Parties {
    first: Vec<String>,
    second: Vec<String>,
}

impl Parties {
    /// `None` when the name has no "v." or no party word at all.
    fn of(name: &str) -> Option<Parties> {
        let (first, second) = names::case_sides(name)?;
        let named = |tokens: Vec<String>| -> Vec<String> {
            tokens.into_iter().filter(|t| !is_connective(t)).collect()
        };
        let parties = Parties {
            first: named(first),
            second: named(second),
        };
        (!parties.first.is_empty() || !parties.second.is_empty()).then_some(parties)
    }

    /// [`Self::of`] a case's name of record, each side also holding the
    /// initials its party goes by, so that "CBS v. FCC" names CBS, INC. v.
    /// FEDERAL COMMUNICATIONS COMMISSION on the sides it asks.
    fn of_record(name: &str) -> Option<Parties> {
        let mut parties = Self::of(name)?;
        if let [first, second] = names::initials_by_party(name).as_slice() {
            parties.first.extend(first.iter().cloned());
            parties.second.extend(second.iter().cloned());
        }
        Some(parties)
    }

    /// Whether every word of `wanted` is on the same side here.
    fn include(&self, wanted: &Parties, same_word: fn(&str, &str) -> bool) -> bool {
        holds(&self.first, &wanted.first, same_word)
            && holds(&self.second, &wanted.second, same_word)
    }
}

/// A required word of a query, as written in any of the fields searched,
/// or spelt otherwise in a case name: "Bd." finds "Board", "Board" a name
/// written "Bd." and "Peña" one written "Pena", but "Education" does not
/// find every "L. Ed." citation. A spelling with an apostrophe is looked
/// for as the index holds it, two words ("Nat'l" as `nat` `l`).
fn every_spelling(word: &str, initials: &HashSet<String>) -> String {
    let others: Vec<String> = names::spellings(word)
        .into_iter()
        .filter(|other| other != word)
        .map(|other| format!("name:{other}"))
        .chain(
            names::apostrophe_spellings(word)
                .into_iter()
                .map(|written| format!("name:\"{written}\"")),
        )
        .chain(
            initials
                .contains(word)
                .then(|| [format!("initials:{word}"), letter_by_letter(word)])
                .into_iter()
                .flatten(),
        )
        .collect();
    if others.is_empty() {
        format!("+{word}")
    } else {
        format!("+({word} {})", others.join(" "))
    }
}

/// Initials as a name that writes them with periods or spaces is indexed,
/// a phrase of letters: "nlrb" as `name:"n l r b"`.
fn letter_by_letter(initials: &str) -> String {
    let letters: Vec<String> = initials.chars().map(String::from).collect();
    format!("name:\"{}\"", letters.join(" "))
}

/// The words of a query worth searching ([`name_words`]), and which of
/// them are written as initials ([`written_initials`]).
struct QueryWords {
    words: Vec<String>,
    initials: HashSet<String>,
}

impl QueryWords {
    fn of(query: &str) -> Self {
        Self {
            words: name_words(query),
            initials: written_initials(query),
        }
    }
}

/// The words of a query written as initials, lower-cased as [`name_words`]
/// gives them: three to six capitals ("INS", "NLRB") or letters with
/// periods ("N.L.R.B."), which may stand for a party of that many words
/// ([`names::party_initials`]). A query typed all in lower case ("nlrb v.
/// jones") tells nothing by its capitals: any word of three to six letters
/// in it may be initials.
fn written_initials(query: &str) -> HashSet<String> {
    let all_lower_case = !query.chars().any(char::is_uppercase);
    let words: Vec<&str> = query.split_whitespace().collect();
    (0..words.len())
        .filter_map(|i| {
            if let Some(joined) = dotted_initials(&words, i) {
                return Some(joined);
            }
            let word = words[i].trim_matches(|c: char| !c.is_alphanumeric());
            let letters = (3..=6).contains(&word.len())
                && word.chars().all(|c| c.is_ascii_alphabetic())
                && (all_lower_case || word.chars().all(|c| c.is_ascii_uppercase()));
            (letters && !is_connective(word)).then(|| word.to_lowercase())
        })
        .collect()
}

/// The `i`th of `words` as one word in lower case ("nlrb") when it is
/// initials written with periods, three to six letters ("N.L.R.B.",
/// "F.C.C"); `None` for other words, for "U.S." (a place, spelt out
/// before), and after a number, where such letters are a code or a
/// reporter ("42 U.S.C.").
fn dotted_initials(words: &[&str], i: usize) -> Option<String> {
    let after_a_number = i
        .checked_sub(1)
        .is_some_and(|before| words[before].bytes().all(|b| b.is_ascii_digit()));
    if after_a_number {
        return None;
    }
    let word = words[i].trim_matches(|c: char| !(c.is_alphanumeric() || c == '.'));
    let letters: Vec<&str> = word.trim_end_matches('.').split('.').collect();
    let single_letters = letters
        .iter()
        .all(|letter| letter.len() == 1 && letter.bytes().all(|b| b.is_ascii_alphabetic()));
    ((3..=6).contains(&letters.len()) && single_letters).then(|| letters.concat().to_lowercase())
}

/// Whether a word joins the parties of a case name ("v.", "of", "et al.").
fn is_connective(word: &str) -> bool {
    let bare = word.trim_matches('"');
    NAME_CONNECTIVES
        .iter()
        .any(|connective| bare.eq_ignore_ascii_case(connective))
}

/// A party's words as names compare by them: "Bd." as "Board".
fn party_tokens(words: &[&str]) -> Vec<String> {
    words.iter().flat_map(|w| names::word_tokens(w)).collect()
}

/// The words of a case name worth searching: lowercase, no connectives.
fn name_words(query: &str) -> Vec<String> {
    sanitize(query)
        .split_whitespace()
        .filter(|w| !is_connective(w))
        .map(|w| w.replace('"', "").to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `held` has a word that is `same_word` as each of `words`.
fn holds(held: &[String], words: &[String], same_word: fn(&str, &str) -> bool) -> bool {
    words.iter().all(|w| held.iter().any(|h| same_word(w, h)))
}

/// Words compared as written.
fn as_written(wanted: &str, held: &str) -> bool {
    wanted == held
}

/// How many edits a misspelt word of a name may be from the word meant:
/// none for three letters or fewer, two from ten letters, one between; none
/// for a word with a digit ("District 50" is not District 5).
fn edits_allowed(word: &str) -> u8 {
    if word.chars().any(|c| c.is_ascii_digit()) {
        return 0;
    }
    match word.chars().count() {
        0..=3 => 0,
        4..=9 => 1,
        _ => 2,
    }
}

/// Whether `held` is within [`edits_allowed`] of `wanted`: letters put in,
/// left out, changed, or two side by side swapped, as the fuzzy query
/// counts them.
fn within_an_edit(wanted: &str, held: &str) -> bool {
    let allowed = usize::from(edits_allowed(wanted));
    let a: Vec<char> = wanted.chars().collect();
    let b: Vec<char> = held.chars().collect();
    if a.len().abs_diff(b.len()) > allowed {
        return false;
    }
    // Optimal string alignment distance, three rows at a time.
    let mut before: Vec<usize> = Vec::new();
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let changed = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + changed);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()] <= allowed
}

/// The hits a query written as a case name names, parties on their sides
/// (see [`NameQuery::is_named_with`]), and the others.
fn named_in_order(
    named: Option<&NameQuery>,
    hits: Vec<SearchHit>,
    same_word: fn(&str, &str) -> bool,
) -> (Vec<SearchHit>, Vec<SearchHit>) {
    match named {
        Some(wanted) => hits.into_iter().partition(|hit| {
            hit.kind == "case"
                && hit
                    .names()
                    .any(|name| wanted.is_named_with(name, same_word))
        }),
        None => (Vec::new(), hits),
    }
}

/// A query written as a docket number: the number, when the query reads
/// as one, and the query without the "Docket", "Case No." or "Nos." a
/// court writes before it. It reads as one after such words ("No. 2021 CA
/// 00009"), or as one word holding a digit and a dash, slash or colon
/// ("84-2000"); a list after "Nos." ("07-1428, 08-328") is searched as
/// its words.
fn docket_query(query: &str) -> (Option<&str>, &str) {
    let query = query.trim();
    let mut rest = query;
    for (prefix, needs_space) in [
        ("docket", true),
        ("case", true),
        ("nos.", false),
        ("no.", false),
        ("nos", true),
        ("no", true),
    ] {
        let Some(head) = rest.get(..prefix.len()) else {
            continue;
        };
        let tail = &rest[prefix.len()..];
        if head.eq_ignore_ascii_case(prefix)
            && (!needs_space || tail.starts_with(char::is_whitespace))
        {
            rest = tail.trim_start();
        }
    }
    let number = rest.trim_end_matches(['.', ',', ';']);
    let prefixed = rest.len() < query.len();
    if !number.contains(|c: char| c.is_ascii_digit()) {
        return (None, query);
    }
    let one_number = !number.contains(['"', ',', ';'])
        && (prefixed
            || !number.contains(char::is_whitespace)
                && number.contains(['-', '–', '—', '‑', '/', ':']));
    let searched = if prefixed { rest } else { query };
    (one_number.then_some(number), searched)
}

/// Hits without the repeats of one found twice, first place kept.
pub(super) fn dedup(hits: Vec<SearchHit>) -> Vec<SearchHit> {
    let mut seen = std::collections::HashSet::new();
    hits.into_iter()
        .filter(|hit| seen.insert(hit.id.clone()))
        .collect()
}

/// A query with the abbreviations of places written with periods spelt out
/// ("N.Y. Times v. Sullivan" as "New York Times v. Sullivan", "U.S. v.
/// Nixon" as "United States v. Nixon"), as names of record write them; not
/// a reporter after a volume ("347 U.S. 483"), nor one inside a company's
/// name, after a word of it ("Chevron U.S.A. Inc.", as its name of record
/// writes it too).
fn places_spelt_out(query: &str) -> Cow<'_, str> {
    let words: Vec<&str> = query.split_whitespace().collect();
    let spelt = |i: usize, word: &str| {
        let before = i.checked_sub(1).map(|i| words[i]);
        let volume_before = before.is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
        let name_word_before = before.is_some_and(|w| {
            w.starts_with(char::is_uppercase)
                && !w.ends_with(['.', ',', ';', ':'])
                && !matches!(w, "V" | "VS" | "Vs")
        });
        let bare = word.trim_end_matches([',', ';', ':']);
        (!volume_before && !name_word_before)
            .then(|| crate::citations::courts::place_spelt_out(bare))
            .flatten()
            .map(|place| format!("{place}{}", &word[bare.len()..]))
    };
    if !words.iter().enumerate().any(|(i, w)| spelt(i, w).is_some()) {
        return Cow::Borrowed(query);
    }
    Cow::Owned(
        words
            .iter()
            .enumerate()
            .map(|(i, word)| spelt(i, word).unwrap_or_else(|| word.to_string()))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Keeps the query language's operators from failing on legal text such as
/// "42 U.S.C. § 1983" or "Brown v. Board (1954)": only words reach the parser.
/// An abbreviation with an apostrophe is one word ("Nat'l" is `Natl`,
/// which T6 spells out as "National"); another apostrophe splits its word
/// as the index does ("O'Connor" is `O Connor`). Initials with periods are
/// one word too ([`dotted_initials`]).
fn sanitize(query: &str) -> String {
    let words: Vec<&str> = query
        .split_whitespace()
        .filter_map(without_query_syntax)
        .collect();
    (0..words.len())
        .map(|i| {
            let word = words[i];
            if let Some(initials) = dotted_initials(&words, i) {
                return initials;
            }
            let joined: String = word.chars().filter(|c| !matches!(c, '\'' | '’')).collect();
            if joined.len() < word.len() && names::spellings(&joined).len() > 1 {
                joined
            } else {
                word.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '"' {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A query's word without the search-engine syntax a user may type, which
/// queries here do not read: a field before a colon ("name:miranda"), a
/// fuzziness or boost after the word ("miranda~2", "miranda^10"), and the
/// operators "AND", "OR" and "NOT" in capitals, which would otherwise be
/// required as words.
fn without_query_syntax(word: &str) -> Option<&str> {
    if matches!(word, "AND" | "OR" | "NOT" | "&&" | "||") {
        return None;
    }
    let word = match word.split_once(':') {
        Some((field, rest))
            if !rest.is_empty()
                && matches!(
                    field.to_ascii_lowercase().as_str(),
                    "name" | "text" | "citations" | "dockets" | "court" | "kind" | "id"
                ) =>
        {
            rest
        }
        _ => word,
    };
    let word = match word.rfind(['~', '^']) {
        Some(at)
            if at > 0
                && word[at + 1..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.') =>
        {
            &word[..at]
        }
        _ => word,
    };
    Some(word)
}

fn run_writer(mut writer: IndexWriter, fields: Fields, receiver: Receiver<WriterOp>) {
    // A failed add means tantivy's indexing threads stopped (a full disk,
    // an unwritable directory), and every later add would fail alike: it
    // is said once, and the commit that follows fails with it, so the
    // documents stay pending for the next indexing pass.
    let mut stopped: Option<String> = None;
    for op in receiver {
        match op {
            WriterOp::Replace { ids, docs } if stopped.is_none() => {
                // One delete for the batch, not one a document: tantivy keeps
                // each delete (a query's weight, ~1 KB) until every segment
                // has applied it, which a long merge holds up, so one a
                // document grew with the import (+750 MB at 4 M documents).
                let terms = ids.iter().map(|id| Term::from_field_text(fields.id, id));
                let added = writer
                    .delete_query(Box::new(TermSetQuery::new(terms)))
                    .and_then(|_| {
                        docs.iter().try_for_each(|doc| {
                            writer.add_document(to_document(doc, fields)).map(|_| ())
                        })
                    });
                if let Err(err) = added {
                    tracing::error!(error = %err, "indexing stopped");
                    stopped = Some(err.to_string());
                }
            }
            WriterOp::Replace { .. } => {}
            WriterOp::Commit(reply) => {
                let result = match &stopped {
                    Some(cause) => Err(format!("indexing stopped: {cause}")),
                    None => writer.commit().map(|_| ()).map_err(|e| e.to_string()),
                };
                let _ = reply.send(result);
            }
        }
    }
    if let Err(err) = writer.commit() {
        tracing::error!(error = %err, "final index commit failed");
    }
    let _ = writer.wait_merging_threads();
}

/// Text with its typographic ligatures written as their letters: PDF text
/// has "ﬁnding", a query "finding". Opinion text is folded so before the
/// index reads it (its analyzer does not fold, for speed: see
/// [`NAMES_TOKENIZER`]), and queries are too.
pub(super) fn ligatures_spelt_out(text: &str) -> Cow<'_, str> {
    // Every ligature's UTF-8 begins with 0xEF, which few texts hold.
    if !text.as_bytes().contains(&0xEF)
        || !text.chars().any(|c| names::ligature_letters(c).is_some())
    {
        return Cow::Borrowed(text);
    }
    let mut spelt = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match names::ligature_letters(c) {
            Some(letters) => spelt.push_str(letters),
            None => spelt.push(c),
        }
    }
    Cow::Owned(spelt)
}

fn to_document(doc: &IndexDoc, f: Fields) -> TantivyDocument {
    let mut out = TantivyDocument::default();
    out.add_text(f.id, &doc.id);
    out.add_text(f.kind, &doc.kind);
    out.add_text(f.name, &doc.name);
    for name in &doc.other_names {
        out.add_text(f.name, name);
    }
    for initials in &doc.initials {
        out.add_text(f.initials, initials);
    }
    for citation in &doc.citations {
        out.add_text(f.citations, citation);
    }
    for docket in &doc.docket_numbers {
        out.add_text(f.dockets, docket);
    }
    if let Some(court) = &doc.court {
        out.add_text(f.court, court);
    }
    if let Some(date) = &doc.date {
        out.add_text(f.date, date);
    }
    if !doc.text.is_empty() {
        out.add_text(f.text, &*ligatures_spelt_out(&doc.text));
    }
    for cited in &doc.cites {
        out.add_text(f.cites, cited);
    }
    out.add_u64(f.tiebreak, stable_hash(&doc.id));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parties(first: &[&str], second: &[&str]) -> Parties {
        let owned = |words: &[&str]| words.iter().map(|w| w.to_string()).collect();
        Parties {
            first: owned(first),
            second: owned(second),
        }
    }

    #[test]
    fn a_word_within_an_edit_is_one_letter_put_in_left_out_changed_or_swapped() {
        assert!(within_an_edit("mirnda", "miranda"));
        assert!(within_an_edit("gidoen", "gideon"));
        assert!(within_an_edit("arizonna", "arizona"));
        assert!(within_an_edit("rush", "bush"));
        assert!(!within_an_edit("rush", "ruth1"));
        assert!(!within_an_edit("mirnda", "miranda2"));
        // Three letters or fewer must be as written; ten or more may be two
        // edits off.
        assert!(!within_an_edit("map", "mapp"));
        assert!(!within_an_edit("foo0", "foo3"));
        assert!(within_an_edit("constitutin", "constitution"));
        assert!(within_an_edit("konstitutin", "constitution"));
        assert!(!within_an_edit("konstitutin", "constitutional"));
    }

    #[test]
    fn parties_are_the_words_on_each_side_of_v() {
        assert_eq!(
            Parties::of("Brown v. Board of Education"),
            Some(parties(&["brown"], &["bd", "educ"])),
            "words as their Bluebook abbreviations, so either spelling compares"
        );
        assert_eq!(
            Parties::of("Brown v. Bd. of Educ."),
            Parties::of("Brown v. Board of Education")
        );
        assert_eq!(
            Parties::of("U.S. v. Nixon"),
            Parties::of("United States v. Nixon")
        );
        assert_eq!(
            Parties::of("BROWN et al. vs. BOARD"),
            Some(parties(&["brown"], &["bd"]))
        );
        assert_eq!(Parties::of("Brown Board"), None);
        assert_eq!(Parties::of("v."), None);
        let named = Parties::of("NATIONAL LABOR RELATIONS BOARD v. BROWN").unwrap();
        assert!(!named.include(&Parties::of("Brown v. Board").unwrap(), as_written));
        assert!(named.include(&Parties::of("Board v. Brown").unwrap(), as_written));
        assert!(named.include(&Parties::of("v. Brown").unwrap(), as_written));
        // A party of record goes by its initials on its own side.
        let cbs_v_fcc = Parties::of("CBS v. FCC").unwrap();
        let of_record = |name: &str| Parties::of_record(name).unwrap();
        assert!(
            of_record("CBS, INC. v. FEDERAL COMMUNICATIONS COMMISSION")
                .include(&cbs_v_fcc, as_written)
        );
        assert!(
            !of_record("COLUMBIA BROADCASTING SYSTEM v. DEMOCRATIC NATIONAL COMMITTEE")
                .include(&cbs_v_fcc, as_written)
        );
        assert!(
            !of_record("FEDERAL COMMUNICATIONS COMMISSION v. CBS, INC.")
                .include(&cbs_v_fcc, as_written)
        );
    }

    #[test]
    fn a_word_is_required_as_written_or_spelt_otherwise_in_names() {
        let none = HashSet::new();
        assert_eq!(every_spelling("brown", &none), "+brown");
        assert_eq!(every_spelling("bd", &none), "+(bd name:board)");
        // The index keeps accents: a name written either way is found.
        assert_eq!(every_spelling("peña", &none), "+(peña name:pena)");
        // The index splits "Ass'n" in two: it is looked for as a phrase.
        assert_eq!(
            every_spelling("association", &none),
            "+(association name:assn name:\"ass'n\")"
        );
        // Capitals may be a party's initials.
        let written = written_initials("INS v. Chadha, NLRB v. Fed. Ins. Co., N.L.R.B. v. Bro");
        assert_eq!(
            written,
            HashSet::from(["ins".to_string(), "nlrb".to_string()])
        );
        assert_eq!(
            every_spelling("nlrb", &written),
            "+(nlrb initials:nlrb name:\"n l r b\")"
        );
        // Initials with periods, and any word of a query in lower case;
        // not a code's or reporter's letters after a number.
        assert_eq!(
            written_initials("nlrb v. jones & laughlin"),
            HashSet::from(["nlrb".to_string(), "jones".to_string()])
        );
        assert_eq!(
            written_initials("F.C.C. v. Pacifica, 42 U.S.C. § 1983"),
            HashSet::from(["fcc".to_string()])
        );
        assert_eq!(sanitize("F.C.C. v. Pacifica"), "fcc v Pacifica");
    }

    #[test]
    fn search_engine_syntax_is_read_as_the_words_it_holds() {
        for (query, words) in [
            ("name:miranda", "miranda"),
            ("miranda~2", "miranda"),
            ("miranda^10 arizona", "miranda arizona"),
            ("NOT miranda", "miranda"),
            ("Brown AND Board", "Brown Board"),
            ("Smith v. Jones, 5:23-cv-1", "Smith v Jones 5 23 cv 1"),
        ] {
            assert_eq!(sanitize(query), words, "{query}");
        }
    }

    #[test]
    fn an_abbreviation_with_an_apostrophe_is_one_word() {
        assert_eq!(sanitize("Nat'l Ass’n v. O'Connor"), "Natl Assn v O Connor");
        assert_eq!(sanitize("42 U.S.C. § 1983"), "42 U S C 1983");
    }

    /// An index of `ids`, each "Zeta v. Omega", added in that order and
    /// committed in segments of `per_segment`.
    fn equal_names_index(dir: &Path, ids: &[String], per_segment: usize) -> LibraryIndex {
        let index = LibraryIndex::open(dir, 15_000_000).unwrap();
        for segment in ids.chunks(per_segment) {
            let docs = segment
                .iter()
                .map(|id| named(id, "Zeta v. Omega"))
                .collect();
            index.replace(segment.to_vec(), docs).unwrap();
            index.commit().unwrap();
        }
        index.refresh().unwrap();
        index
    }

    fn named(id: &str, name: &str) -> IndexDoc {
        IndexDoc {
            id: id.to_string(),
            kind: "case".to_string(),
            name: name.to_string(),
            ..IndexDoc::default()
        }
    }

    #[test]
    fn a_replaced_document_is_found_once_and_one_left_out_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let index = LibraryIndex::open(dir.path(), 15_000_000).unwrap();
        let ids = |ids: &[&str]| ids.iter().map(|id| id.to_string()).collect::<Vec<_>>();
        index
            .replace(
                ids(&["cl-1", "cl-2"]),
                vec![
                    named("cl-1", "Alpha v. Beta"),
                    named("cl-2", "Gamma v. Delta"),
                ],
            )
            .unwrap();
        index.commit().unwrap();
        // Again in one commit: the later batch replaces the earlier one's
        // document, and cl-2, given no document, is taken out.
        index
            .replace(ids(&["cl-1"]), vec![named("cl-1", "Alpha v. Epsilon")])
            .unwrap();
        index
            .replace(
                ids(&["cl-1", "cl-2"]),
                vec![named("cl-1", "Alpha v. Omicron")],
            )
            .unwrap();
        index.commit().unwrap();
        index.refresh().unwrap();
        let found = |query: &str| -> Vec<String> {
            let hits = index.search(query, None, 10).unwrap();
            hits.into_iter().map(|hit| hit.id).collect()
        };
        assert_eq!(found("Alpha"), ["cl-1"]);
        assert_eq!(found("Omicron"), ["cl-1"]);
        assert!(found("Epsilon").is_empty());
        assert!(found("Beta").is_empty());
        assert!(found("Gamma").is_empty());
        assert_eq!(index.num_docs(), 1);
    }

    #[test]
    fn hits_of_equal_score_come_in_one_order_whatever_the_limit_or_segments() {
        // More equal hits than the ranking pool, so that which of them a
        // small limit shows is at stake.
        let ids: Vec<String> = (0..3 * PARTY_POOL).map(|n| format!("cl-{n}")).collect();
        let reversed: Vec<String> = ids.iter().rev().cloned().collect();
        let (first_dir, second_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let first = equal_names_index(first_dir.path(), &ids, 7);
        let second = equal_names_index(second_dir.path(), &reversed, 40);
        let found = |index: &LibraryIndex, limit: usize| -> Vec<String> {
            let hits = index.search("Zeta v. Omega", None, limit).unwrap();
            hits.into_iter().map(|hit| hit.id).collect()
        };
        let whole = found(&first, ids.len());
        assert_eq!(whole.len(), ids.len());
        assert_eq!(found(&second, ids.len()), whole);
        for limit in [
            1,
            5,
            PARTY_POOL - 1,
            PARTY_POOL,
            PARTY_POOL + 1,
            2 * PARTY_POOL,
        ] {
            assert_eq!(found(&first, limit), whole[..limit], "limit {limit}");
            assert_eq!(found(&second, limit), whole[..limit], "limit {limit}");
        }
        first.close();
        second.close();
    }

    #[test]
    fn a_docket_number_is_read_after_the_words_courts_put_before_it() {
        for (query, docket, searched) in [
            ("84-2000", Some("84-2000"), "84-2000"),
            ("No. 84-2000", Some("84-2000"), "84-2000"),
            ("no 84-2000", Some("84-2000"), "84-2000"),
            (
                "Docket No. 2022-SC-0293-DG",
                Some("2022-SC-0293-DG"),
                "2022-SC-0293-DG",
            ),
            ("Nos. 19-1392", Some("19-1392"), "19-1392"),
            ("No.1:23-cv-04567.", Some("1:23-cv-04567"), "1:23-cv-04567."),
            ("Docket No. 20240106", Some("20240106"), "20240106"),
            (
                "Case No. 2021 CA 00009",
                Some("2021 CA 00009"),
                "2021 CA 00009",
            ),
            ("Nos. 07-1428, 08-328", None, "07-1428, 08-328"),
            ("Nostrand 84-2000", None, "Nostrand 84-2000"),
            ("20240106", None, "20240106"),
            ("No. Brown", None, "No. Brown"),
            ("Brown v. Board", None, "Brown v. Board"),
            ("347 U.S. 483", None, "347 U.S. 483"),
            ("42 U.S.C. 1983-1985", None, "42 U.S.C. 1983-1985"),
            // As SCDB and the Court print them.
            ("14–95", Some("14–95"), "14–95"),
            ("21—707", Some("21—707"), "21—707"),
        ] {
            assert_eq!(docket_query(query), (docket, searched), "{query}");
        }
    }

    #[test]
    fn only_wrong_files_are_called_damaged() {
        let dir = Path::new("/data/index");
        let denied = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let io = open_error(dir, TantivyError::IoError(std::sync::Arc::new(denied)));
        assert!(matches!(io, IndexError::Directory(_)), "{io}");
        assert!(!io.to_string().contains("remove that directory"));
        let corrupt = open_error(
            dir,
            TantivyError::DataCorruption(tantivy::error::DataCorruption::comment_only(
                "bad footer",
            )),
        );
        assert!(
            corrupt.to_string().contains("remove that directory"),
            "{corrupt}"
        );
    }

    #[test]
    fn ligatures_are_spelt_out_and_other_text_kept() {
        assert_eq!(
            ligatures_spelt_out("the ﬁrst ofﬁcial ﬂaw"),
            "the first official flaw"
        );
        assert!(matches!(
            ligatures_spelt_out("plain text"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            ligatures_spelt_out("\u{fffd} and \u{feff}"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_party_name_alone_names_cases_with_that_party() {
        let miranda = NameQuery::of("Miranda").unwrap();
        assert_eq!(miranda, NameQuery::OneParty(vec!["miranda".into()]));
        assert!(miranda.is_named_with("MIRANDA v. ARIZONA", as_written));
        assert!(miranda.is_named_with("INS v. Miranda", as_written));
        assert!(!miranda.is_named_with("Smith v. Jones", as_written));
        // Lower-case words are a topic, not a party.
        assert_eq!(NameQuery::of("summary judgment"), None);
        assert_eq!(NameQuery::of(""), None);
    }

    #[test]
    fn a_matter_names_cases_of_that_matter_not_parties_of_that_name() {
        let oliver = NameQuery::of("In re Oliver").unwrap();
        assert_eq!(oliver, NameQuery::Matter(vec!["oliver".into()]));
        assert!(oliver.is_named_with("IN RE OLIVER", as_written));
        assert!(oliver.is_named_with("In the Matter of Oliver", as_written));
        assert!(!oliver.is_named_with("VAUGHN v. OLIVER", as_written));
        assert!(!oliver.is_named_with("In re Green", as_written));
        let young = NameQuery::of("Ex parte Young").unwrap();
        assert!(young.is_named_with("EX PARTE YOUNG", as_written));
        assert_eq!(NameQuery::of("In re"), None);
    }
}

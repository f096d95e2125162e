//! Importers: the embedded default library and the real bulk formats.
//! Each streams its input in constant memory, commits in batches with a
//! checkpoint (so a killed import resumes after its last committed batch),
//! changes nothing when re-run, and skips and counts malformed rows, naming
//! file, line and column.

pub mod cap;
pub mod courtlistener;
pub mod csv;
pub mod default;
pub mod scdb;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::index::IndexError;
use super::model::{CaseCitation, CiteKey};
use super::store::{LibraryWriter, NamedIds, Settled, Withdrawn, count_named_ids};
use crate::store::{Store, StoreError};

/// Rows committed per write transaction.
pub const BATCH_ROWS: usize = 5_000;
/// The most one row or line of an input may hold (a CourtListener opinion
/// with all its markup, a CAP case with its body): a longer one is read to
/// its end without being kept and skipped as malformed, so a file without
/// line breaks or closing quotes cannot take memory without bound.
pub const MAX_RECORD_BYTES: usize = 64 << 20;

/// Why opinions of a case were left out (a row's or a case's warning).
pub fn opinions_refused(count: usize) -> String {
    format!(
        "{count} opinion(s) not stored: the case already holds {}, more than any decision has",
        super::store::MAX_OPINIONS_PER_CASE
    )
}

/// Why a row, line or file past [`MAX_RECORD_BYTES`] is skipped, said the
/// same way by every reader.
pub fn longer_than_any_record() -> String {
    format!(
        "longer than {} MiB, more than any record of a bulk file",
        MAX_RECORD_BYTES >> 20
    )
}
/// At most this many row errors are kept in a report (all are counted).
const MAX_REPORTED_ERRORS: usize = 50;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    // The cause is in the message, not the error chain, which would
    // print it twice.
    #[error("{path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: {message}")]
    Format { path: PathBuf, message: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error("import threads: {0}")]
    Threads(String),
}

impl ImportError {
    pub fn io(path: &Path, cause: std::io::Error) -> Self {
        ImportError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }

    pub fn format(path: &Path, message: impl Into<String>) -> Self {
        ImportError::Format {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// Whether it comes of a damaged store file
    /// ([`StoreError::is_damaged_file`]).
    pub fn is_damaged_file(&self) -> bool {
        matches!(self, ImportError::Store(store) if store.is_damaged_file())
    }
}

/// What one import (or one file of it) did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    pub source: String,
    pub rows: u64,
    pub stored: u64,
    /// Rows already imported by an earlier, interrupted run.
    pub resumed_past: u64,
    pub skipped: u64,
    /// Rows an earlier run skipped: of a file it finished, which this run
    /// did not read again (unchanged, it would skip them again), or of one
    /// it was stopped in, which this run resumed.
    #[serde(default)]
    pub skipped_earlier: u64,
    /// Of the skipped rows, those naming a case or opinion the library
    /// lacked: the file is read again once the library knows more ids.
    #[serde(skip)]
    pub naming_missing: u64,
    /// The first malformed rows, as "file line L column C: why".
    pub errors: Vec<String>,
    /// The first of the rows an earlier run skipped (`skipped_earlier`),
    /// as in `errors`: what to mend is listed however often the import
    /// was stopped and run again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors_earlier: Vec<String>,
    /// What the skipped rows cost: volumes not counted as held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Rows stored with a value left out (a date that is not a real one)
    /// or read otherwise than written (text that is not UTF-8).
    #[serde(default)]
    pub warned: u64,
    /// The first of them, as "file line L: why".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Files that could not be read to their end (a compressed stream
    /// that is not one, a file cut short), as "file: why". The rows read
    /// before the failure are stored; the file is not counted as imported,
    /// and the import went on with the other files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_files: Vec<String>,
    pub seconds: f64,
}

impl ImportReport {
    pub fn new(source: impl Into<String>) -> Self {
        Self {
            source: source.into(),
            ..Self::default()
        }
    }

    pub fn skip(&mut self, file: &Path, error: impl std::fmt::Display) {
        self.skipped += 1;
        if self.errors.len() < MAX_REPORTED_ERRORS {
            self.errors.push(format!("{} {error}", file.display()));
        } else {
            tracing::debug!("skipped: {} {error}", file.display());
        }
    }

    /// A row skipped because it names a case or opinion not in the library
    /// (yet: a mended file of the same dump may bring it).
    pub fn skip_naming_missing(&mut self, file: &Path, error: impl std::fmt::Display) {
        self.naming_missing += 1;
        self.skip(file, error);
    }

    /// A row stored with a value left out.
    pub fn warn(&mut self, file: &Path, warning: impl std::fmt::Display) {
        self.warned += 1;
        if self.warnings.len() < MAX_REPORTED_ERRORS {
            self.warnings.push(format!("{} {warning}", file.display()));
        } else {
            tracing::debug!("stored with a value left out: {} {warning}", file.display());
        }
    }

    /// Something the user must know about the import as a whole.
    pub fn note(&mut self, message: String) {
        self.notes.push(message);
    }

    /// Records a file that could not be read to its end: `Ok` for a
    /// failure of that file (read or format), which the import goes on
    /// past; any other (the store) is returned.
    pub fn fail_file(&mut self, failure: ImportError) -> Result<(), ImportError> {
        match failure {
            ImportError::Io { .. } | ImportError::Format { .. } => {
                self.failed_files.push(failure.to_string());
                Ok(())
            }
            other => Err(other),
        }
    }

    /// Adds one file's report of a folder's import, and its failure, if it
    /// was not read to its end ([`Self::fail_file`]): what a file cut short
    /// stored before its end counts too.
    pub fn absorb_file(
        &mut self,
        read: ImportReport,
        outcome: Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        self.absorb(read);
        outcome.or_else(|failure| self.fail_file(failure))
    }

    fn list_skipped_earlier(&mut self, rows: Vec<String>) {
        let room = MAX_REPORTED_ERRORS.saturating_sub(self.errors_earlier.len());
        self.errors_earlier.extend(rows.into_iter().take(room));
    }

    /// Ends a one-file import: a failure after rows were read is listed
    /// beside what they stored ([`Self::fail_file`]); one before any row (a
    /// header that is not the source's) is the import's error.
    pub fn end_one_file(&mut self, outcome: Result<(), ImportError>) -> Result<(), ImportError> {
        match outcome {
            Err(failure) if self.rows > 0 => self.fail_file(failure),
            outcome => outcome,
        }
    }

    pub fn absorb(&mut self, other: ImportReport) {
        self.rows += other.rows;
        self.stored += other.stored;
        self.resumed_past += other.resumed_past;
        self.skipped += other.skipped;
        self.skipped_earlier += other.skipped_earlier;
        self.naming_missing += other.naming_missing;
        let room = MAX_REPORTED_ERRORS.saturating_sub(self.errors.len());
        self.errors.extend(other.errors.into_iter().take(room));
        self.list_skipped_earlier(other.errors_earlier);
        self.notes.extend(other.notes);
        self.warned += other.warned;
        let room = MAX_REPORTED_ERRORS.saturating_sub(self.warnings.len());
        self.warnings.extend(other.warnings.into_iter().take(room));
        self.failed_files.extend(other.failed_files);
    }
}

/// A resumable position in one input file, and what its rows could not
/// give.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    pub rows_committed: u64,
    pub done: bool,
    /// Rows skipped so far (malformed, or naming what the library lacked).
    #[serde(default)]
    pub rows_skipped: u64,
    /// Of them, rows naming a case or opinion the library lacked.
    #[serde(default)]
    pub rows_naming_missing: u64,
    /// When rows named ids the library lacked: how many ids of that kind
    /// it held when the file was done ([`count_named_ids`]). Once it holds
    /// others, those rows may be placed, so the file is read again.
    #[serde(default)]
    pub named_ids_when_done: Option<u64>,
    /// The first skipped rows, as the report lists them, for a run that
    /// resumes the file or finds it done to list again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_rows: Vec<String>,
}

/// Tells that a row's text was not UTF-8 (CourtListener's dumps and
/// recent SCDB releases are), so what was stored may not be what the
/// source meant.
pub fn warn_recoded(path: &Path, line: u64, report: &mut ImportReport) {
    report.warn(
        path,
        format!("line {line}: not UTF-8; its text was read as Windows-1252"),
    );
}

/// Whether an import under checkpoint `key` has committed a batch.
pub fn has_checkpoint(store: &Store, key: &str) -> Result<bool, StoreError> {
    store.read(|txn| -> Result<bool, StoreError> {
        let table = txn.open_table(crate::store::tables::IMPORT_PROGRESS)?;
        Ok(table.get(key)?.is_some())
    })
}

/// Records that an import of the folder `dir` began (`done` false) or read
/// every file of it to its end (`done` true), under the kind
/// `{source}-dump`: a run killed between two files, or stopped by a file
/// it could not read, leaves no file of its own begun and unfinished, and
/// `library status` still lists the folder ([`unfinished_imports`]).
pub fn mark_folder_import(
    store: &Store,
    source: &str,
    dir: &Path,
    done: bool,
) -> Result<(), StoreError> {
    let name = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let key = format!("{source}-dump:{name}:0:0");
    store.write(|txn| -> Result<(), StoreError> {
        let mut writer = LibraryWriter::new(txn)?;
        writer.set_checkpoint(
            &key,
            &Checkpoint {
                done,
                ..Checkpoint::default()
            },
        )?;
        writer.finish()
    })
}

/// An input file an import began and has not finished: stopped (killed,
/// or on an error), or still running.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnfinishedImport {
    /// What was read: the source and table ("courtlistener-opinions",
    /// "cap", "scdb").
    pub kind: String,
    /// The file's (or CAP volume's, or a folder's for a `…-dump` kind)
    /// name.
    pub file: String,
    pub rows_committed: u64,
}

/// The inputs imports began and have not finished, from their
/// checkpoints; the default library's own build is not an import. Of a
/// file imported in several versions (replaced after a run stopped on
/// it), only its latest counts.
pub fn unfinished_imports(
    txn: &redb::ReadTransaction,
) -> Result<Vec<UnfinishedImport>, StoreError> {
    let mut latest: BTreeMap<(String, String), (u128, Checkpoint)> = BTreeMap::new();
    for row in txn
        .open_table(crate::store::tables::IMPORT_PROGRESS)?
        .iter()?
    {
        let (key, value) = row?;
        let key = key.value();
        if key.starts_with("default") || is_pre_modification_time_key(key) {
            continue;
        }
        // "kind:name:size:modified", the name holding any colon.
        let mut fields = key.rsplitn(3, ':');
        let (Some(modified), Some(_size), Some(kind_and_name)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Some((kind, file)) = kind_and_name.split_once(':') else {
            continue;
        };
        let checkpoint: Checkpoint = serde_json::from_slice(value.value())?;
        let modified = modified.parse().unwrap_or(0);
        let file = (kind.to_string(), file.to_string());
        if latest.get(&file).is_none_or(|(held, _)| *held <= modified) {
            latest.insert(file, (modified, checkpoint));
        }
    }
    Ok(latest
        .into_iter()
        .filter(|(_, (_, checkpoint))| !checkpoint.done)
        .map(|((kind, file), (_, checkpoint))| UnfinishedImport {
            kind,
            file,
            rows_committed: checkpoint.rows_committed,
        })
        .collect())
}

/// Progress on a terminal: a bar with rows/s and ETA (by compressed bytes
/// read); elsewhere a log line every ten seconds.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    label: String,
    input: Arc<InputMeter>,
    total: u64,
    started: Instant,
    last_log: Instant,
}

impl Progress {
    pub fn new(label: &str, input: Arc<InputMeter>, total: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total.max(1));
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{prefix:>14} [{bar:30}] {percent:>3}% {msg} eta {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_prefix(label.to_string());
            bar
        });
        Self {
            bar,
            label: label.to_string(),
            input,
            total,
            started: Instant::now(),
            last_log: Instant::now(),
        }
    }

    /// A bar for work counted in rows rather than bytes.
    pub fn rows(label: &str, total: u64) -> Self {
        Self::new(label, Arc::new(InputMeter::default()), total)
    }

    pub fn update(&mut self, rows: u64) {
        let elapsed = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = rows as f64 / elapsed;
        // The reader runs batches ahead of the writer: the bar shows the
        // bytes of the rows stored, in proportion to the rows read.
        let position = match (self.input.bytes(), self.input.rows()) {
            (0, _) => rows,
            (bytes, 0) => bytes,
            (bytes, read) => {
                (u128::from(bytes) * u128::from(rows.min(read)) / u128::from(read)) as u64
            }
        };
        if let Some(bar) = &self.bar {
            bar.set_position(position.min(self.total));
            bar.set_message(format!("{rows} rows {rate:.0}/s"));
        } else if self.last_log.elapsed() >= Duration::from_secs(10) {
            self.last_log = Instant::now();
            tracing::info!(
                label = self.label,
                rows,
                rows_per_sec = rate as u64,
                "importing"
            );
        }
    }

    pub fn finish(&self, rows: u64) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        tracing::info!(
            label = self.label,
            rows,
            seconds = self.started.elapsed().as_secs_f64(),
            "imported"
        );
    }
}

/// What reading an input has come to: the bytes read from the file (the
/// compressed ones, for the ETA) and the first error of the file or its
/// decompressor. A truncated or corrupt file must fail its import, not end
/// it early as if it were whole.
#[derive(Debug, Default)]
pub struct InputMeter {
    bytes: AtomicU64,
    /// Rows the reader has handed on (those an earlier run stored too).
    rows: AtomicU64,
    fault: Mutex<Option<String>>,
}

impl InputMeter {
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    pub fn rows(&self) -> u64 {
        self.rows.load(Ordering::Relaxed)
    }

    fn count_rows(&self, rows: u64) {
        self.rows.fetch_add(rows, Ordering::Relaxed);
    }

    /// The first read error, if any.
    pub fn fault(&self) -> Option<String> {
        self.fault.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The import error for a file whose read failed: what stopped it,
    /// rather than what a parser made of the early end (a truncated file
    /// reads as empty).
    pub fn unreadable(&self, path: &Path) -> Option<ImportError> {
        self.fault()
            .map(|fault| ImportError::format(path, format!("unreadable: {fault}")))
    }

    /// Keeps `fault` unless an earlier one is kept.
    pub fn record_fault(&self, fault: String) {
        let mut kept = self.fault.lock().unwrap_or_else(|e| e.into_inner());
        kept.get_or_insert(fault);
    }

    /// Keeps the first error.
    fn record(&self, err: &std::io::Error) {
        self.record_fault(match err.kind() {
            std::io::ErrorKind::UnexpectedEof => {
                format!("the file ends before its compressed data does ({err})")
            }
            _ => err.to_string(),
        });
    }
}

/// Counts the bytes a reader hands out (the compressed input, for ETA).
struct CountingReader<R> {
    inner: R,
    meter: Arc<InputMeter>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.meter.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Ends the input at its first read error, which it leaves in the meter:
/// the parsers see an end of file (decompressors repeat their error on
/// every read, which a line reader would take for rows without end), and
/// the import fails on the fault before it counts the file as done.
struct StopAtFault<R> {
    inner: R,
    meter: Arc<InputMeter>,
    failed: bool,
}

impl<R: BufRead> Read for StopAtFault<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for StopAtFault<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.failed {
            return Ok(&[]);
        }
        match self.inner.fill_buf() {
            Ok(buffer) => Ok(buffer),
            Err(err) => {
                self.meter.record(&err);
                self.failed = true;
                Ok(&[])
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        if !self.failed {
            self.inner.consume(amount);
        }
    }
}

/// A compressed format read, known by a file's extension.
#[derive(Clone, Copy)]
enum Compression {
    Bz2,
    Gz,
    Xz,
}

impl Compression {
    const ALL: [Compression; 3] = [Compression::Bz2, Compression::Gz, Compression::Xz];

    /// The format a (lower-case) file name says.
    fn named(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|format| name.ends_with(&format!(".{}", format.extension())))
    }

    fn extension(self) -> &'static str {
        match self {
            Compression::Bz2 => "bz2",
            Compression::Gz => "gz",
            Compression::Xz => "xz",
        }
    }

    /// How a file of the format starts.
    fn magic(self) -> &'static [u8] {
        match self {
            Compression::Bz2 => b"BZh",
            Compression::Gz => &[0x1f, 0x8b],
            Compression::Xz => &[0xfd, b'7', b'z', b'X', b'Z', 0x00],
        }
    }
}

/// An input file, decompressed by its extension (.bz2, .gz, .xz or plain).
pub struct Input {
    pub reader: Box<dyn BufRead + Send>,
    pub meter: Arc<InputMeter>,
    pub size: u64,
}

pub fn open_input(path: &Path) -> Result<Input, ImportError> {
    let file = File::open(path).map_err(|e| ImportError::io(path, e))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let meter = Arc::new(InputMeter::default());
    let mut counted = BufReader::with_capacity(
        1 << 16,
        CountingReader {
            inner: file,
            meter: meter.clone(),
        },
    );
    let name = path.to_string_lossy().to_ascii_lowercase();
    let format = Compression::named(&name);
    if let Some(format) = format {
        // A file named for a format it is not in would fail later with a
        // decoder's word for it ("unexpected end of file").
        let start = counted.fill_buf().map_err(|e| ImportError::io(path, e))?;
        if !start.is_empty() && !start.starts_with(format.magic()) {
            let extension = format.extension();
            return Err(ImportError::format(
                path,
                format!(
                    "named .{extension}, but it is not {extension} data (it does not start as one)"
                ),
            ));
        }
    }
    let decompressed: Box<dyn BufRead + Send> = match format {
        Some(Compression::Bz2) => Box::new(BufReader::with_capacity(
            1 << 16,
            bzip2::bufread::MultiBzDecoder::new(counted),
        )),
        Some(Compression::Gz) => Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(counted),
        )),
        Some(Compression::Xz) => Box::new(BufReader::with_capacity(
            1 << 16,
            lzma_rust2::XzReader::new(counted, true),
        )),
        None => Box::new(counted),
    };
    Ok(Input {
        reader: Box::new(StopAtFault {
            inner: decompressed,
            meter: meter.clone(),
            failed: false,
        }),
        meter,
        size,
    })
}

/// A decision date as the bulk files write it (`YYYY-MM-DD`, or `YYYY-MM`
/// or `YYYY` when only that is known), if it is a real one: `0000-00-00`
/// or `2001-02-30` is stored as no date rather than as a wrong year.
pub fn real_date(text: &str) -> Option<String> {
    iso_date(&date_numbers(text, &['-'])?)
}

/// A decision date as an importer read it.
pub struct DecisionDate {
    /// ISO, when the source gave a real date.
    pub date: Option<String>,
    /// Why the date the source gave is left out, when it is not real.
    pub left_out: Option<String>,
}

/// Reads the decision date a source gives with `read`, its format's reader
/// ([`real_date`], SCDB's month-first one): one read gives both the date
/// and, for a date given but not real, the warning.
pub fn decision_date(text: Option<&str>, read: impl Fn(&str) -> Option<String>) -> DecisionDate {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return DecisionDate {
            date: None,
            left_out: None,
        };
    };
    match read(text) {
        Some(date) if is_after_tomorrow(&date) => DecisionDate {
            date: None,
            left_out: Some(format!(
                "decision date {text:?} is in the future; the case is stored without one"
            )),
        },
        Some(date) => DecisionDate {
            date: Some(date),
            left_out: None,
        },
        None => DecisionDate {
            date: None,
            left_out: Some(format!(
                "decision date {text:?} is not a real date; the case is stored without one"
            )),
        },
    }
}

/// Whether an ISO date (or year, or year and month) is after tomorrow: no
/// decision is dated later, whatever time zone its court sits in. Tomorrow
/// is taken once a process, not at every row of an import.
fn is_after_tomorrow(iso: &str) -> bool {
    static TOMORROW: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let tomorrow = TOMORROW.get_or_init(|| {
        (chrono::Utc::now().date_naive() + chrono::Days::new(1))
            .format("%Y-%m-%d")
            .to_string()
    });
    iso > &tomorrow[..iso.len().min(tomorrow.len())]
}

/// The lines of a text input, numbered from 1, each as text or as why it
/// cannot be read: longer than [`MAX_RECORD_BYTES`] (read to its end but
/// not kept) or not UTF-8. Blank lines are passed over.
pub struct Lines<R> {
    input: R,
    number: u64,
}

impl<R: BufRead> Lines<R> {
    pub fn new(input: R) -> Self {
        Self { input, number: 0 }
    }

    /// Reads to the end of the line into `line`, keeping at most
    /// [`MAX_RECORD_BYTES`]; false when the line was longer.
    fn read_capped(&mut self, line: &mut Vec<u8>) -> bool {
        let mut kept_all = true;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) if !buffer.is_empty() => buffer,
                _ => return kept_all,
            };
            let (taken, ends) = match memchr::memchr(b'\n', buffer) {
                Some(at) => (at, true),
                None => (buffer.len(), false),
            };
            if kept_all && line.len() + taken <= MAX_RECORD_BYTES {
                line.extend_from_slice(&buffer[..taken]);
            } else {
                kept_all = false;
                line.clear();
            }
            self.input.consume(taken + usize::from(ends));
            if ends {
                return kept_all;
            }
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = (u64, Result<String, String>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self
                .input
                .fill_buf()
                .map_or(true, |buffer| buffer.is_empty())
            {
                return None;
            }
            self.number += 1;
            let mut line = Vec::new();
            if !self.read_capped(&mut line) {
                let why = format!("line {}: {}", self.number, longer_than_any_record());
                return Some((self.number, Err(why)));
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let text = String::from_utf8(line).map_err(|err| {
                let column = err.utf8_error().valid_up_to() + 1;
                format!("line {} column {column}: not UTF-8", self.number)
            });
            return Some((self.number, text));
        }
    }
}

/// Skips a UTF-8 byte-order mark at the start of `input` (spreadsheet
/// exports write one), so the header or first record reads as it should.
pub fn skip_byte_order_mark(input: &mut impl BufRead) {
    const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";
    if input
        .fill_buf()
        .is_ok_and(|bytes| bytes.starts_with(BYTE_ORDER_MARK))
    {
        input.consume(BYTE_ORDER_MARK.len());
    }
}

/// The numbers of a date written with `separators` ("12-24-2013").
pub fn date_numbers(text: &str, separators: &[char]) -> Option<Vec<u32>> {
    text.trim()
        .split(separators)
        .map(|part| part.parse().ok())
        .collect()
}

/// A date given year first (`[year]`, `[year, month]` or `[year, month,
/// day]`) as ISO text, if it is a real one.
pub fn iso_date(numbers: &[u32]) -> Option<String> {
    let year_ok = |year: u32| (1..=9999).contains(&year);
    match *numbers {
        [year] => year_ok(year).then(|| format!("{year:04}")),
        [year, month] => {
            (year_ok(year) && (1..=12).contains(&month)).then(|| format!("{year:04}-{month:02}"))
        }
        [year, month, day] if year_ok(year) => {
            chrono::NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)
                .map(|date| date.format("%Y-%m-%d").to_string())
        }
        _ => None,
    }
}

/// Parses "347 U.S. 483"-shaped text (volume, reporter words, page) into a
/// citation; the reporter is put in its canonical form. Other shapes
/// without spaces ("2021-Ohio-4396") are keyed as the citation engine reads
/// them, so a lookup of the same text finds them.
pub fn parse_simple_cite(text: &str) -> CaseCitation {
    let cite = text.split_whitespace().collect::<Vec<_>>().join(" ");
    CaseCitation {
        key: simple_cite_key(&cite).or_else(|| engine_cite_key(&cite)),
        cite,
        last_page: None,
    }
}

/// The key of a citation not written "VOLUME REPORTER PAGE" ("2021-Ohio-4396",
/// "154 Haw.434") that the engine reads as the whole of `cite`, as a lookup
/// of the same string reads it.
fn engine_cite_key(cite: &str) -> Option<CiteKey> {
    let citations = crate::citations::Extractor::shared().extract(cite);
    let [citation] = citations.as_slice() else {
        return None;
    };
    if citation.span != (0..cite.len()) {
        return None;
    }
    match super::query_of(citation)? {
        super::lookup::CitationQuery::Case { key } if key.volume > 0 && key.page > 0 => Some(key),
        _ => None,
    }
}

fn simple_cite_key(cite: &str) -> Option<CiteKey> {
    let (volume, rest) = cite.split_once(' ')?;
    let (reporter, page) = rest.rsplit_once(' ')?;
    let volume = volume_or_page_number(volume)?;
    CiteKey::of_page_text(volume, &super::canonical_reporter(reporter), reporter, page)
}

/// The reporter and volume of a citation written "VOLUME REPORTER PAGE"
/// whose page is not a number yet ("50 F.4th ___": a slip opinion not yet
/// paginated). A page of digits is a number, though perhaps none the
/// library can place ("0", one past u32).
pub fn unpaged_volume(cite: &str) -> Option<(String, u32)> {
    let (volume, rest) = cite.split_once(' ')?;
    let (reporter, page) = rest.rsplit_once(' ')?;
    if page.is_empty() || page.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((reporter.to_string(), volume_or_page_number(volume)?))
}

/// A volume or page number as a source writes it: a whole number from 1
/// ("0", "-1", "245.5" and numbers past u32 name no volume or page).
pub fn volume_or_page_number(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|&number| number > 0)
}

/// Where each record id of one input was first read. A second record with
/// an id already read would be merged into the first, so importers report
/// and skip it.
#[derive(Default)]
pub struct FirstSeen<P>(std::collections::HashMap<String, P>);

impl<P: Copy> FirstSeen<P> {
    /// Where `id` was first read, when it was; otherwise remembers `at` as
    /// its first place and returns `None`.
    pub fn earlier(&mut self, id: &str, at: P) -> Option<P> {
        if let Some(first) = self.0.get(id) {
            return Some(*first);
        }
        self.0.insert(id.to_string(), at);
        None
    }
}

/// The reporters of one input's volumes that the citation engine does not
/// know, so none of their volumes is counted as held: told once for the
/// input, not once for each row or case.
#[derive(Default)]
pub struct UnknownReporters(std::collections::BTreeSet<String>);

impl UnknownReporters {
    pub fn insert(&mut self, reporter: &str) {
        if !self.0.contains(reporter) {
            self.0.insert(reporter.to_string());
        }
    }

    /// Adds the note naming them (the first ten) to `report`, if there are
    /// any.
    pub fn note(self, report: &mut ImportReport, file: &Path) {
        if self.0.is_empty() {
            return;
        }
        let some: Vec<&str> = self.0.iter().take(10).map(String::as_str).collect();
        let count = match self.0.len() {
            1 => "1 reporter is not one".to_string(),
            n => format!("{n} reporters are not ones"),
        };
        report.note(format!(
            "{}: {count} the citation engine knows, so no volume of theirs is counted \
             as held (their cases and citations are stored): {}",
            file.display(),
            some.join(", ")
        ));
    }
}

/// Feeds `rows` to `apply` in batches of [`BATCH_ROWS`], one transaction
/// each, with a checkpoint under `key`: rows an earlier run committed are
/// skipped, and a finished input is not read again (see [`Batches::start`]).
pub fn run_batches<T, E, I, F>(
    store: &Store,
    key: &str,
    file: &Path,
    rows: I,
    progress: &mut Progress,
    report: &mut ImportReport,
    apply: F,
) -> Result<(), ImportError>
where
    T: Send,
    E: std::fmt::Display + Send,
    I: Iterator<Item = Result<T, E>> + Send,
    F: FnMut(&mut LibraryWriter<'_>, T, &mut ImportReport) -> Result<(), ImportError>,
{
    let batches = Batches {
        store,
        key,
        file,
        rows_per_batch: BATCH_ROWS,
        names: None,
    };
    let Some(start) = batches.start(report)? else {
        return Ok(());
    };
    batches.run(
        start,
        rows,
        |row| row,
        progress,
        report,
        each_row(file, apply),
    )
}

/// Adapts a per-row `apply` to a whole batch: malformed rows are counted
/// and reported, the others applied in order.
pub fn each_row<P, E, F>(
    file: &Path,
    mut apply: F,
) -> impl FnMut(&mut LibraryWriter<'_>, Vec<Result<P, E>>, &mut ImportReport) -> Result<(), ImportError>
where
    E: std::fmt::Display,
    F: FnMut(&mut LibraryWriter<'_>, P, &mut ImportReport) -> Result<(), ImportError>,
{
    move |writer, batch, report| {
        for row in batch {
            match row {
                Ok(row) => apply(writer, row, report)?,
                Err(err) => report.skip(file, err),
            }
        }
        Ok(())
    }
}

/// How an input is committed: its checkpoint key and batch size.
pub struct Batches<'a> {
    pub store: &'a Store,
    /// The checkpoint key ([`checkpoint_key`]).
    pub key: &'a str,
    pub file: &'a Path,
    pub rows_per_batch: usize,
    /// The ids its rows name, when rows may name ones the library lacks
    /// ([`ImportReport::skip_naming_missing`]).
    pub names: Option<NamedIds>,
}

impl Batches<'_> {
    /// Where this run reads the input from: after the rows an earlier run
    /// committed, or from the start when an earlier run finished it but
    /// some of its rows named ids the library lacked and it holds others of
    /// that kind now. `None` when the input is done: an unchanged file
    /// gives the same rows, so they are not read (nor skipped) again. Rows
    /// an earlier run skipped are counted in `skipped_earlier` either way.
    pub fn start(&self, report: &mut ImportReport) -> Result<Option<Checkpoint>, ImportError> {
        let earlier = self.store.read(|txn| -> Result<Checkpoint, StoreError> {
            let table = txn.open_table(crate::store::tables::IMPORT_PROGRESS)?;
            Ok(match table.get(self.key)? {
                Some(bytes) => serde_json::from_slice(bytes.value())?,
                None => Checkpoint::default(),
            })
        })?;
        if earlier.done && self.holds_more_of_what_was_missing(&earlier)? {
            report.note(format!(
                "{}: read again: {} of its rows named cases or opinions the library lacked, \
                 and it has others now",
                self.file.display(),
                earlier.rows_naming_missing
            ));
            return Ok(Some(Checkpoint::default()));
        }
        report.resumed_past += earlier.rows_committed;
        report.skipped_earlier += earlier.rows_skipped;
        report.list_skipped_earlier(earlier.skipped_rows.clone());
        Ok((!earlier.done).then_some(earlier))
    }

    fn holds_more_of_what_was_missing(&self, done: &Checkpoint) -> Result<bool, ImportError> {
        let (Some(names), Some(then)) = (self.names, done.named_ids_when_done) else {
            return Ok(false);
        };
        let now = self.store.read(|txn| count_named_ids(txn, names))?;
        Ok(now != then)
    }

    /// Settles the citations this file listed
    /// ([`LibraryWriter::settle_listed_citations`]), a chunk of cases a
    /// transaction: the cases rewritten in one are a few pages of the
    /// store, which later ones reuse, and a kill resumes with the cases
    /// not yet settled.
    fn settle_listed_citations(&self, withdraw: bool) -> Result<Withdrawn, ImportError> {
        const CASES_PER_TRANSACTION: usize = 4096;
        let mut withdrawn = Withdrawn::default();
        // Only a CourtListener citations file after an earlier one lists
        // any; every other file would otherwise pay a commit for nothing.
        if !self
            .store
            .read(|txn| super::store::lists_citations(txn, self.key))?
        {
            return Ok(withdrawn);
        }
        let started = Instant::now();
        loop {
            let chunk = self.store.write(|txn| -> Result<Withdrawn, StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                let chunk =
                    writer.settle_listed_citations(self.key, withdraw, CASES_PER_TRANSACTION)?;
                writer.finish()?;
                Ok(chunk)
            })?;
            if chunk.listed == 0 {
                if withdrawn.listed > 0 {
                    tracing::info!(
                        cases = withdrawn.listed,
                        withdrawn = withdrawn.citations,
                        seconds = started.elapsed().as_secs_f64(),
                        "settled the citations {} lists",
                        self.file.display()
                    );
                }
                return Ok(withdrawn);
            }
            if withdrawn.listed == 0 {
                tracing::info!(
                    "withdrawing the citations {} no longer lists",
                    self.file.display()
                );
            }
            withdrawn += chunk;
        }
    }

    /// [`count_named_ids`] for a file whose rows named missing ids.
    fn named_ids_now(&self, rows_naming_missing: u64) -> Result<Option<u64>, ImportError> {
        match self.names.filter(|_| rows_naming_missing > 0) {
            Some(names) => Ok(Some(self.store.read(|txn| count_named_ids(txn, names))?)),
            None => Ok(None),
        }
    }

    /// Reads `rows` on one thread, `prepare`s whole batches of them on a
    /// thread per core (the work that needs no store: parsing, compressing,
    /// reading citations) and gives each batch, in input order, to `apply`
    /// inside one write transaction with the checkpoint.
    pub fn run<T, P, E, I, Prep, F>(
        &self,
        start: Checkpoint,
        rows: I,
        prepare: Prep,
        progress: &mut Progress,
        report: &mut ImportReport,
        mut apply: F,
    ) -> Result<(), ImportError>
    where
        T: Send,
        P: Send,
        E: std::fmt::Display + Send,
        I: Iterator<Item = Result<T, E>> + Send,
        Prep: Fn(T) -> P + Sync,
        F: FnMut(
            &mut LibraryWriter<'_>,
            Vec<Result<P, E>>,
            &mut ImportReport,
        ) -> Result<(), ImportError>,
    {
        let rows_per_batch = self.rows_per_batch.max(1);
        let mut committed = start.rows_committed;
        let mut skipped = start.rows_skipped;
        let mut naming_missing = start.rows_naming_missing;
        let mut skipped_rows = start.skipped_rows.clone();
        std::thread::scope(|scope| -> Result<(), ImportError> {
            // Batch i goes to worker i % workers and comes back on that
            // worker's lane, so the writer takes the lanes in turn to get the
            // batches in input order, with at most a few per lane in flight.
            let workers = preparing_workers();
            let (raw_txs, raw_rxs): (Vec<_>, Vec<_>) = (0..workers)
                .map(|_| sync_channel::<Vec<Result<T, E>>>(1))
                .unzip();
            let (ready_txs, ready_rxs): (Vec<_>, Vec<_>) = (0..workers)
                .map(|_| sync_channel::<Vec<Result<P, E>>>(1))
                .unzip();
            let meter = progress.input.clone();
            let reading = move || {
                let mut rows =
                    rows.skip(usize::try_from(start.rows_committed).unwrap_or(usize::MAX));
                meter.count_rows(start.rows_committed);
                for lane in raw_txs.iter().cycle() {
                    let batch: Vec<_> = rows.by_ref().take(rows_per_batch).collect();
                    meter.count_rows(batch.len() as u64);
                    if batch.is_empty() || lane.send(batch).is_err() {
                        break;
                    }
                }
            };
            std::thread::Builder::new()
                .name("import-read".into())
                .spawn_scoped(scope, reading)
                .map_err(|e| ImportError::Threads(e.to_string()))?;
            let prepare = &prepare;
            for (n, (raw_rx, ready_tx)) in raw_rxs.into_iter().zip(ready_txs).enumerate() {
                let preparing = move || {
                    for batch in raw_rx {
                        let ready = batch.into_iter().map(|row| row.map(prepare)).collect();
                        if ready_tx.send(ready).is_err() {
                            break;
                        }
                    }
                };
                std::thread::Builder::new()
                    .name(format!("import-prepare-{n}"))
                    .spawn_scoped(scope, preparing)
                    .map_err(|e| ImportError::Threads(e.to_string()))?;
            }
            let in_order = InTurn {
                lanes: ready_rxs,
                next: 0,
            };
            for batch in in_order {
                let taken = batch.len() as u64;
                self.store.write(|txn| -> Result<(), ImportError> {
                    let mut writer = LibraryWriter::new(txn)?;
                    writer.import_file(self.key);
                    report.rows += taken;
                    let (skipped_before, missing_before) = (report.skipped, report.naming_missing);
                    let listed_before = report.errors.len();
                    apply(&mut writer, batch, report)?;
                    // A malformed row may be a case of any volume the file
                    // brings; a row naming a case the library lacks withholds
                    // its own volume where it is read.
                    let malformed_before = skipped_before - missing_before;
                    if report.skipped - report.naming_missing > malformed_before {
                        writer.mark_import_incomplete()?;
                    }
                    skipped += report.skipped - skipped_before;
                    naming_missing += report.naming_missing - missing_before;
                    let room = MAX_REPORTED_ERRORS.saturating_sub(skipped_rows.len());
                    skipped_rows.extend(report.errors[listed_before..].iter().take(room).cloned());
                    writer.set_checkpoint(
                        self.key,
                        &Checkpoint {
                            rows_committed: committed + taken,
                            done: false,
                            rows_skipped: skipped,
                            rows_naming_missing: naming_missing,
                            named_ids_when_done: None,
                            skipped_rows: skipped_rows.clone(),
                        },
                    )?;
                    writer.finish()?;
                    Ok(())
                })?;
                committed += taken;
                progress.update(committed);
            }
            Ok(())
        })?;
        if let Some(fault) = progress.input.fault() {
            return Err(ImportError::format(
                self.file,
                format!(
                    "unreadable after {committed} rows: {fault}. The rows before it are stored; \
                     the file is not counted as imported"
                ),
            ));
        }
        let named_ids_when_done = self.named_ids_now(naming_missing)?;
        let malformed = skipped.saturating_sub(naming_missing);
        let withdrawn = self.settle_listed_citations(malformed == 0)?;
        self.store.write(|txn| -> Result<(), ImportError> {
            let mut writer = LibraryWriter::new(txn)?;
            let settled = writer.settle_coverage(self.key)?;
            if settled.withheld > 0 {
                report.note(format!(
                    "{}: rows were skipped or placed no case in its volume, so the volumes it \
                     brings ({}) are not counted as held completely (citations there answer \
                     `unavailable`); mend the rows and import again",
                    self.file.display(),
                    settled.withheld
                ));
            }
            if settled.sparse * 2 > settled.newly_held {
                report.note(format!(
                    "{}: {} of the {} volumes it brings, now counted as held completely, hold {} \
                     cases or fewer in the library; if this is a sample of a dump rather than \
                     the whole dump, a case there that it lacks may be taken for one that does \
                     not exist (`unverified` where it should be `unavailable`): run `lexstack \
                     library forget-coverage {}`, and import samples with `--partial`",
                    self.file.display(),
                    settled.sparse,
                    settled.newly_held,
                    Settled::SPARSE_CASES,
                    settled.source.as_deref().unwrap_or("SOURCE"),
                ));
            }
            if withdrawn.citations > 0 {
                let plural = |n: usize| if n == 1 { "" } else { "s" };
                report.note(format!(
                    "{}: withdrew {} citation{} it no longer lists, from {} case{} it alone gives",
                    self.file.display(),
                    withdrawn.citations,
                    plural(withdrawn.citations),
                    withdrawn.cases,
                    plural(withdrawn.cases)
                ));
            } else if withdrawn.listed > 0 && malformed > 0 {
                report.note(format!(
                    "{}: rows were malformed, so the citations it no longer lists are kept; \
                     mend the rows and import again",
                    self.file.display()
                ));
            }
            writer.set_checkpoint(
                self.key,
                &Checkpoint {
                    rows_committed: committed,
                    done: true,
                    rows_skipped: skipped,
                    rows_naming_missing: naming_missing,
                    named_ids_when_done,
                    skipped_rows,
                },
            )?;
            writer.finish()?;
            Ok(())
        })?;
        progress.finish(committed);
        Ok(())
    }
}

/// Threads that prepare rows: one per core. They block, rather than spin,
/// while they wait, so the operating system shares the cores between them
/// and the writer, whichever of the two is behind.
fn preparing_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Prepared batches in the order they were read: the lanes in turn, the
/// way the reader dealt the batches out. It ends at the first lane that is
/// closed and empty: the reader stopped before that batch.
struct InTurn<B> {
    lanes: Vec<Receiver<B>>,
    next: usize,
}

impl<B> Iterator for InTurn<B> {
    type Item = B;

    fn next(&mut self) -> Option<B> {
        let batch = self
            .lanes
            .get(self.next % self.lanes.len().max(1))?
            .recv()
            .ok()?;
        self.next += 1;
        Some(batch)
    }
}

/// The checkpoint key of an input file: kind, name, size and modification
/// time, so that a new dump under the same name, or a file corrected in
/// place, is read again.
pub fn checkpoint_key(kind: &str, path: &Path, size: u64) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let modified = std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|at| at.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!("{kind}:{name}:{size}:{modified}")
}

/// The file name in a checkpoint key of `kind` ([`checkpoint_key`]), which
/// may itself hold colons; the key itself when it is not of that kind.
pub fn checkpoint_file_name<'k>(key: &'k str, kind: &str) -> &'k str {
    key.strip_prefix(kind)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|rest| rest.rsplitn(3, ':').nth(2))
        .unwrap_or(key)
}

/// Whether `key` is of the form builds before [`checkpoint_key`] took a
/// file's modification time wrote ("kind:name:size"), which no import
/// reads any more. The default library's keys ("default-v3:scdb") are not.
pub fn is_pre_modification_time_key(key: &str) -> bool {
    let fields: Vec<&str> = key.split(':').collect();
    matches!(fields.as_slice(), [_, _, size] if !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit()))
}

/// Docket numbers as printed vary in dashes and prefixes ("No. 11–345",
/// SCDB's "14–95"): the form dockets are joined by.
pub(crate) fn normalize_docket(docket: &str) -> String {
    docket
        .trim()
        .trim_start_matches("No.")
        .trim_start_matches("NO.")
        .trim()
        .replace(['–', '—', '‑'], "-")
        .to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_real_dates_are_kept() {
        assert_eq!(real_date("1954-05-17").as_deref(), Some("1954-05-17"));
        assert_eq!(real_date("1954-05").as_deref(), Some("1954-05"));
        assert_eq!(real_date("1954").as_deref(), Some("1954"));
        assert_eq!(real_date("2000-02-29").as_deref(), Some("2000-02-29"));
        assert_eq!(
            real_date("1954-5-7").as_deref(),
            Some("1954-05-07"),
            "written as ISO"
        );
        for impossible in [
            "0000-00-00",
            "2001-02-30",
            "1954-13",
            "0",
            "1954-5-x",
            "",
            "May 1954",
        ] {
            assert_eq!(real_date(impossible), None, "{impossible}");
        }
    }

    #[test]
    fn a_decision_date_in_the_future_is_left_out_with_a_warning() {
        let today = chrono::Utc::now().date_naive();
        let next_year = (chrono::Datelike::year(&today) + 1).to_string();
        let in_a_week = (today + chrono::Days::new(7))
            .format("%Y-%m-%d")
            .to_string();
        for future in ["2999-01-01", next_year.as_str(), in_a_week.as_str()] {
            let read = decision_date(Some(future), real_date);
            assert_eq!(read.date, None, "{future}");
            assert!(read.left_out.unwrap().contains("in the future"), "{future}");
        }
        let today = today.format("%Y-%m-%d").to_string();
        for past_or_now in ["1954-05-17", "1700", today.as_str(), &today[..7]] {
            let read = decision_date(Some(past_or_now), real_date);
            assert_eq!(read.date.as_deref(), Some(past_or_now));
            assert_eq!(read.left_out, None);
        }
    }

    fn batches_over<'a>(store: &'a Store, names: Option<NamedIds>) -> Batches<'a> {
        Batches {
            store,
            key: "courtlistener-citation-map:map.csv:10:1",
            file: Path::new("map.csv"),
            rows_per_batch: 10,
            names,
        }
    }

    fn write(store: &Store, work: impl FnOnce(&mut LibraryWriter<'_>)) {
        store
            .write(|txn| -> Result<(), StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                work(&mut writer);
                writer.finish()
            })
            .unwrap();
    }

    #[test]
    fn a_resumed_file_counts_the_rows_skipped_before_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        let batches = batches_over(&store, None);
        let stopped = Checkpoint {
            rows_committed: 10,
            rows_skipped: 3,
            skipped_rows: vec!["f.csv line 4 column 2: why".into()],
            ..Checkpoint::default()
        };
        write(&store, |w| w.set_checkpoint(batches.key, &stopped).unwrap());
        let mut report = ImportReport::default();
        let start = batches.start(&mut report).unwrap().expect("resumed");
        assert_eq!(start.rows_committed, 10);
        assert_eq!((report.resumed_past, report.skipped_earlier), (10, 3));
        assert_eq!(report.errors_earlier, stopped.skipped_rows);
        assert_eq!(
            start.skipped_rows, stopped.skipped_rows,
            "kept as more are added"
        );
    }

    #[test]
    fn a_done_file_is_read_again_only_once_more_of_the_ids_it_missed_are_held() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        let done = Checkpoint {
            rows_committed: 10,
            done: true,
            rows_skipped: 2,
            rows_naming_missing: 1,
            named_ids_when_done: Some(0),
            skipped_rows: Vec::new(),
        };
        let opinions = batches_over(&store, Some(NamedIds::CourtListenerOpinions));
        let clusters = batches_over(&store, Some(NamedIds::Cases("courtlistener")));
        write(&store, |w| w.set_checkpoint(opinions.key, &done).unwrap());
        let start = |batches: &Batches<'_>| {
            let mut report = ImportReport::default();
            let start = batches.start(&mut report).unwrap();
            (start.map(|s| s.rows_committed), report.skipped_earlier)
        };
        assert_eq!(start(&opinions), (None, 2), "nothing new: not read");
        write(&store, |w| w.set_courtlistener_opinion(7, "cl-1").unwrap());
        assert_eq!(
            start(&opinions),
            (Some(0), 0),
            "an opinion more: read again"
        );
        assert_eq!(start(&clusters), (None, 2), "no cluster more: not read");
    }

    #[test]
    fn lines_are_capped_checked_for_utf8_and_blank_ones_passed_over() {
        use std::io::Read;
        let long = std::io::repeat(b'x').take(MAX_RECORD_BYTES as u64 + 1);
        let input = (&b"first\r\n\n  \n"[..])
            .chain(long)
            .chain(&b"\nab\xffc\nlast"[..]);
        let lines: Vec<(u64, Result<String, String>)> =
            Lines::new(std::io::BufReader::new(input)).collect();
        assert_eq!(lines[0], (1, Ok("first".into())));
        assert_eq!(lines[1].0, 4);
        assert!(
            lines[1]
                .1
                .as_ref()
                .unwrap_err()
                .contains("longer than 64 MiB")
        );
        assert_eq!(lines[2], (5, Err("line 5 column 3: not UTF-8".into())));
        assert_eq!(lines[3], (6, Ok("last".into())));
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn volume_and_page_numbers_are_whole_numbers_from_one() {
        assert_eq!(volume_or_page_number(" 347 "), Some(347));
        for not_one in ["0", "-1", "245.5", "99999999999", "", "xiv", "___"] {
            assert_eq!(volume_or_page_number(not_one), None, "{not_one}");
        }
        assert_eq!(parse_simple_cite("0 Ill. App. 3d 5").key, None);
        assert_eq!(parse_simple_cite("5 Ill. App. 3d 0").key, None);
        let neutral = parse_simple_cite("2021-Ohio-4396").key.unwrap();
        assert_eq!((neutral.volume, neutral.page), (2021, 4396));
        assert_eq!(parse_simple_cite("See 2021-Ohio-4396").key, None);
        let run_together = parse_simple_cite("154 Haw.434").key.unwrap();
        assert_eq!(
            (
                run_together.volume,
                run_together.reporter.as_str(),
                run_together.page
            ),
            (154, "Haw.", 434)
        );
        assert_eq!(
            unpaged_volume("50 F. Supp. 3d ___"),
            Some(("F. Supp. 3d".to_string(), 50))
        );
        for paged_or_no_volume in [
            "50 F.4th 12",
            "0 F.4th ___",
            "F.4th ___",
            "50 F.4th",
            "640 U.S. 99999999999999999999",
            "640 U.S. 0",
        ] {
            assert_eq!(
                unpaged_volume(paged_or_no_volume),
                None,
                "{paged_or_no_volume}"
            );
        }
    }

    #[test]
    fn a_checkpoint_key_gives_back_its_file_name() {
        let file = std::env::temp_dir().join("opinion-clusters:2024.csv");
        let key = checkpoint_key("courtlistener-clusters", &file, 120);
        assert_eq!(
            checkpoint_file_name(&key, "courtlistener-clusters"),
            "opinion-clusters:2024.csv"
        );
        assert_eq!(
            checkpoint_file_name("cap:a:1:2", "courtlistener-clusters"),
            "cap:a:1:2"
        );
    }

    #[test]
    fn checkpoint_keys_of_earlier_builds_are_told_apart() {
        let file = std::env::temp_dir().join("clusters.csv");
        for current in [
            checkpoint_key("courtlistener-clusters", &file, 120),
            "cap:a:b.jsonl:120:99".into(),
            "default-v3:scdb".into(),
        ] {
            assert!(!is_pre_modification_time_key(&current), "{current}");
        }
        for earlier in ["courtlistener-clusters:clusters.csv:120", "cap:347:88"] {
            assert!(is_pre_modification_time_key(earlier), "{earlier}");
        }
    }

    #[test]
    fn prepared_batches_come_back_in_the_order_they_were_read() {
        let (even_tx, even) = sync_channel(4);
        let (odd_tx, odd) = sync_channel(4);
        // Filled out of turn, as workers finish; batch 5 was never read.
        for batch in [1, 3] {
            odd_tx.send(batch).unwrap();
        }
        for batch in [0, 2, 4] {
            even_tx.send(batch).unwrap();
        }
        drop((even_tx, odd_tx));
        let in_turn = InTurn {
            lanes: vec![even, odd],
            next: 0,
        };
        assert_eq!(in_turn.collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
    }
}

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

use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::index::IndexError;
use super::model::{CaseCitation, CiteKey};
use super::store::LibraryWriter;
use crate::store::{Store, StoreError};

/// Rows committed per write transaction.
pub const BATCH_ROWS: usize = 5_000;
/// At most this many row errors are kept in a report (all are counted).
const MAX_REPORTED_ERRORS: usize = 50;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Format { path: PathBuf, message: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Index(#[from] IndexError),
}

impl ImportError {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        ImportError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn format(path: &Path, message: impl Into<String>) -> Self {
        ImportError::Format {
            path: path.to_path_buf(),
            message: message.into(),
        }
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
    /// The first malformed rows, as "file line L column C: why".
    pub errors: Vec<String>,
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
        }
    }

    pub fn absorb(&mut self, other: ImportReport) {
        self.rows += other.rows;
        self.stored += other.stored;
        self.resumed_past += other.resumed_past;
        self.skipped += other.skipped;
        let room = MAX_REPORTED_ERRORS.saturating_sub(self.errors.len());
        self.errors.extend(other.errors.into_iter().take(room));
    }
}

/// A resumable position in one input file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    pub rows_committed: u64,
    pub done: bool,
}

/// Progress on a terminal: a bar with rows/s and ETA (by compressed bytes
/// read); elsewhere a log line every ten seconds.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    label: String,
    bytes: Arc<AtomicU64>,
    total: u64,
    started: Instant,
    last_log: Instant,
}

impl Progress {
    pub fn new(label: &str, bytes: Arc<AtomicU64>, total: u64) -> Self {
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
            bytes,
            total,
            started: Instant::now(),
            last_log: Instant::now(),
        }
    }

    /// A bar for work counted in rows rather than bytes.
    pub fn rows(label: &str, total: u64) -> Self {
        Self::new(label, Arc::new(AtomicU64::new(0)), total)
    }

    pub fn update(&mut self, rows: u64) {
        let elapsed = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = rows as f64 / elapsed;
        let position = match self.bytes.load(Ordering::Relaxed) {
            0 => rows,
            bytes => bytes,
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

/// Counts the bytes a reader hands out (the compressed input, for ETA).
pub struct CountingReader<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An input file, decompressed by its extension (.bz2, .gz, .xz or plain).
pub struct Input {
    pub reader: Box<dyn BufRead + Send>,
    pub bytes_read: Arc<AtomicU64>,
    pub size: u64,
}

pub fn open_input(path: &Path) -> Result<Input, ImportError> {
    let file = File::open(path).map_err(|e| ImportError::io(path, e))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bytes_read = Arc::new(AtomicU64::new(0));
    let counted = BufReader::with_capacity(
        1 << 16,
        CountingReader {
            inner: file,
            count: bytes_read.clone(),
        },
    );
    let name = path.to_string_lossy().to_ascii_lowercase();
    let reader: Box<dyn BufRead + Send> = if name.ends_with(".bz2") {
        Box::new(BufReader::with_capacity(
            1 << 16,
            bzip2::bufread::MultiBzDecoder::new(counted),
        ))
    } else if name.ends_with(".gz") {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(counted),
        ))
    } else if name.ends_with(".xz") {
        Box::new(BufReader::with_capacity(
            1 << 16,
            lzma_rust2::XzReader::new(counted, true),
        ))
    } else {
        Box::new(counted)
    };
    Ok(Input {
        reader,
        bytes_read,
        size,
    })
}

/// Parses "347 U.S. 483"-shaped text (volume, reporter words, page) into a
/// citation; the reporter is put in its canonical form.
pub fn parse_simple_cite(text: &str) -> CaseCitation {
    let cite = text.split_whitespace().collect::<Vec<_>>().join(" ");
    CaseCitation {
        key: simple_cite_key(&cite),
        cite,
        last_page: None,
    }
}

fn simple_cite_key(cite: &str) -> Option<CiteKey> {
    let (volume, rest) = cite.split_once(' ')?;
    let (reporter, page) = rest.rsplit_once(' ')?;
    let volume: u32 = volume.parse().ok()?;
    let page: u32 = page.parse().ok()?;
    let reporter = super::canonical_reporter(reporter);
    Some(CiteKey {
        volume,
        reporter,
        page,
    })
}

/// Feeds `rows` to `apply` in batches of [`BATCH_ROWS`], one durable
/// transaction each, with a checkpoint under `key`: rows an earlier run
/// committed are skipped, and a finished input is not read again.
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
    E: std::fmt::Display,
    I: Iterator<Item = Result<T, E>>,
    F: FnMut(&mut LibraryWriter<'_>, T, &mut ImportReport) -> Result<(), ImportError>,
{
    run_batches_of(BATCH_ROWS, store, key, file, rows, progress, report, apply)
}

/// [`run_batches`] with another batch size.
#[allow(clippy::too_many_arguments)]
pub fn run_batches_of<T, E, I, F>(
    batch_rows: usize,
    store: &Store,
    key: &str,
    file: &Path,
    rows: I,
    progress: &mut Progress,
    report: &mut ImportReport,
    mut apply: F,
) -> Result<(), ImportError>
where
    E: std::fmt::Display,
    I: Iterator<Item = Result<T, E>>,
    F: FnMut(&mut LibraryWriter<'_>, T, &mut ImportReport) -> Result<(), ImportError>,
{
    let start = store.read(|txn| -> Result<Checkpoint, StoreError> {
        let table = txn.open_table(crate::store::tables::IMPORT_PROGRESS)?;
        Ok(match table.get(key)? {
            Some(bytes) => serde_json::from_slice(bytes.value())?,
            None => Checkpoint::default(),
        })
    })?;
    if start.done {
        report.resumed_past += start.rows_committed;
        return Ok(());
    }
    let mut rows = rows.peekable();
    for _ in 0..start.rows_committed {
        if rows.next().is_none() {
            break;
        }
    }
    report.resumed_past += start.rows_committed;
    let mut committed = start.rows_committed;
    loop {
        let finished = store.write(|txn| -> Result<bool, ImportError> {
            let mut writer = LibraryWriter::new(txn)?;
            let mut taken = 0u64;
            while taken < batch_rows.max(1) as u64 {
                let Some(row) = rows.next() else { break };
                taken += 1;
                report.rows += 1;
                match row {
                    Ok(row) => apply(&mut writer, row, report)?,
                    Err(err) => report.skip(file, err),
                }
            }
            let finished = rows.peek().is_none();
            let checkpoint = Checkpoint {
                rows_committed: committed + taken,
                done: finished,
            };
            writer.set_checkpoint(key, &checkpoint)?;
            writer.finish()?;
            committed += taken;
            Ok(finished)
        })?;
        progress.update(committed);
        if finished {
            break;
        }
    }
    progress.finish(committed);
    Ok(())
}

/// The checkpoint key of an input file: kind, name and size, so that a new
/// dump under the same name is read again.
pub fn checkpoint_key(kind: &str, path: &Path, size: u64) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{kind}:{name}:{size}")
}

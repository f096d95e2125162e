//! `lexstack library …` and `lexstack import …`.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use clap::Subcommand;

use super::{GlobalArgs, init_quiet_logging, out};
use crate::app::{SERVER_FILE, ServerInfo};
use crate::config::Config;
use crate::library::import::{self, ImportReport};
use crate::library::model::codes;
use crate::library::store::LibraryWriter;
use crate::library::{DefaultLibrary, Library, LibraryStatus};
use crate::store::{LIBRARY_FILE, Store, StoreError};
use crate::verification::Verifier;

/// What `library search --kind` accepts: cases and the authority codes.
const SEARCH_KINDS: [&str; 8] = [
    "case",
    codes::USC,
    codes::CFR,
    codes::FRCP,
    codes::FRCRP,
    codes::FRE,
    codes::FRAP,
    codes::SUP_CT_R,
];

#[derive(Debug, Subcommand)]
pub enum LibraryCommand {
    /// Counts per source, reporter coverage and index size.
    Status {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// What a citation names: the case(s) or authority, or the coverage verdict.
    ///
    /// Prints JSON. `verdict`: found; found_by_page_range (a page inside a
    /// case); not_in_held_volume (the volume is held whole and no case is
    /// there); volume_not_held and page_not_placed (the library cannot
    /// tell); not_held (a collection or series the library does not keep);
    /// cannot_exist; unparsed. `detail` says why in words; `cases` or
    /// `authority` is what was found; `notLookedUp` lists the string's other
    /// citations. Every field: data-schema/library.md.
    Lookup {
        /// Taken as written, even when it starts with a dash.
        #[arg(value_name = "CITATION", allow_hyphen_values = true)]
        citation: String,
        /// The citation's further words, when it is not quoted (347 U.S. 483).
        #[arg(value_name = "MORE")]
        more: Vec<String>,
    },
    /// Best matches by name and text.
    ///
    /// Prints a JSON array, best first: each hit's `id` (a case id, or an
    /// authority's as "frcp/12"), `kind`, `name`, `citations`, `court`,
    /// `date`, and `docketNumbers` and `companionNames` when it has any.
    Search {
        /// Words of a name or of the text; "A v. B" ranks by the parties; a
        /// phrase in double quotes lists only what holds it word for word.
        #[arg(value_name = "QUERY", allow_hyphen_values = true)]
        query: String,
        /// The query's further words, when it is not quoted (Brown v. Board).
        #[arg(value_name = "MORE")]
        more: Vec<String>,
        /// How many matches to print.
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// Only this kind: case, usc, cfr, frcp, frcrp, fre, frap, supctr.
        #[arg(long, value_parser = SEARCH_KINDS)]
        kind: Option<String>,
    },
    /// Build the embedded default library now (serve does it on first start).
    Build,
    /// Forget that SOURCE brought whole volumes (all, or REPORTER's): after
    /// a sample was imported without --partial. Its cases stay; citations
    /// there answer `unavailable` until a whole dump holds the volumes again.
    /// Fails, naming the sources that hold volumes, when SOURCE holds none.
    ForgetCoverage {
        /// The source named in `library status` (courtlistener, cap, scdb…:
        /// every volume it holds; "scotus_dates+scdb": the volumes they hold
        /// together).
        #[arg(value_name = "SOURCE")]
        source: String,
        /// Only the volumes of this reporter (e.g. "F.3d").
        #[arg(long)]
        reporter: Option<String>,
    },
    /// Check every citation in a document (stdin, or FILE) as the verify
    /// endpoint does, and print its answer; nothing is billed.
    Verify {
        /// The document to check (plain text); stdin when absent.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        /// Check every distinct citation, not only the first 50.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// CourtListener bulk files (courts-, dockets-, opinion-clusters-,
    /// opinions-, citations-, citation-map-, parentheticals-*.csv, as
    /// downloaded or compressed .bz2, .gz or .xz).
    Courtlistener {
        /// The folder holding the bulk files.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Do not count the imported volumes as held completely (partial dumps).
        #[arg(long)]
        partial: bool,
        /// Rows per committed batch: how much a killed import redoes
        /// (default: 5,000 opinions, 50,000 rows of the other tables).
        #[arg(long)]
        batch_rows: Option<std::num::NonZeroUsize>,
    },
    /// Caselaw Access Project: *.jsonl[.xz|.gz] bag data or a static.case.law tree.
    Cap {
        /// A .jsonl[.xz|.gz] file, or a folder of them or of static.case.law volumes.
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// Do not count the imported volumes as held completely (samples).
        #[arg(long)]
        partial: bool,
    },
    /// The Supreme Court Database case-centred CSV (citation- or
    /// docket-level).
    Scdb {
        /// The SCDB CSV (.csv or .csv.gz).
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

impl ImportCommand {
    /// The command as typed, less its options: what to run again.
    fn again(&self, data: &Path) -> String {
        let kind = match self {
            ImportCommand::Courtlistener { .. } => "courtlistener",
            ImportCommand::Cap { .. } => "cap",
            ImportCommand::Scdb { .. } => "scdb",
        };
        format!(
            "lexstack --data {} import {kind} {}",
            data.display(),
            self.source().display()
        )
    }

    /// The directory or file to import.
    fn source(&self) -> &Path {
        match self {
            ImportCommand::Courtlistener { dir, .. } => dir,
            ImportCommand::Cap { path, .. } => path,
            ImportCommand::Scdb { file } => file,
        }
    }
}

pub async fn run_library(global: &GlobalArgs, command: LibraryCommand) -> anyhow::Result<()> {
    init_quiet_logging(global);
    let config = Config::load(&global.overrides())?;
    let data = config.data_dir.clone();
    let done = tokio::task::spawn_blocking(move || library_command(&config, command)).await?;
    with_advice(done, &data)
}

/// Says what to do when `done` failed on a damaged store file or a full
/// disk.
fn with_advice(done: anyhow::Result<()>, data: &Path) -> anyhow::Result<()> {
    done.map_err(|err| {
        if store_damaged(&err) {
            err.context(crate::library::repair_advice(&data.join(LIBRARY_FILE)))
        } else if super::caused_by_io(&err, std::io::ErrorKind::StorageFull, "(os error 28)") {
            err.context(format!(
                "the disk holding {} is full: free space on it, then run the same command again \
                 (an import goes on from its last committed batch, a build from where it stopped)",
                data.display()
            ))
        } else {
            err
        }
    })
}

/// Whether `err` comes of a damaged store file
/// ([`StoreError::is_damaged_file`]), however deep in its causes.
fn store_damaged(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<StoreError>()
            .is_some_and(StoreError::is_damaged_file)
            || cause
                .downcast_ref::<crate::library::LibraryError>()
                .is_some_and(crate::library::LibraryError::is_damaged_file)
            || cause
                .downcast_ref::<crate::library::import::ImportError>()
                .is_some_and(crate::library::import::ImportError::is_damaged_file)
    })
}

fn library_command(config: &Config, command: LibraryCommand) -> anyhow::Result<()> {
    let data = config.data_dir.as_path();
    if let LibraryCommand::Build = command {
        let (library, built) = open_for_writing(data)?;
        match built {
            Some(reports) => print_reports(&reports),
            None => out("the default library is already built"),
        }
        // A removed or outdated search index is rebuilt here too, not left
        // to the next server start.
        let indexed = library.index_pending()?;
        if indexed > 0 {
            out(format_args!("indexed {indexed} records"));
        }
        return Ok(());
    }
    let store_file = data.join(LIBRARY_FILE);
    let held = store_file.try_exists().with_context(|| {
        format!(
            "cannot read {}; run this as the user that owns it",
            store_file.display()
        )
    })?;
    if !held {
        bail!(
            "no library in {} yet: start `lexstack serve --data {0}` once, or run `lexstack library build --data {0}`",
            data.display()
        );
    }
    if let LibraryCommand::ForgetCoverage { source, reporter } = &command {
        // Only the coverage map changes: the store alone, not the library's
        // build and index.
        let store = Store::open_library(data).map_err(|err| held_library(data, err))?;
        let reporter = reporter.as_deref().map(crate::library::canonical_reporter);
        let source = &source.to_lowercase();
        let (forgotten, holding) = store.write(|txn| -> Result<_, StoreError> {
            let mut writer = LibraryWriter::new(txn)?;
            let forgotten = writer.forget_volumes_held_by(source, reporter.as_deref())?;
            let holding = match forgotten {
                0 => writer.sources_holding_volumes(reporter.as_deref())?,
                _ => Default::default(),
            };
            writer.finish()?;
            Ok((forgotten, holding))
        })?;
        // A mistyped source or reporter would otherwise pass for a library
        // that had nothing to forget.
        if forgotten == 0 {
            let of_reporter = reporter.map(|r| format!(" of {r}")).unwrap_or_default();
            let holding = match holding.len() {
                0 => "none".to_string(),
                _ => holding.into_iter().collect::<Vec<_>>().join(", "),
            };
            bail!("{source} holds no whole volumes{of_reporter}; the sources that do: {holding}");
        }
        out(format_args!(
            "volumes no longer held by {source}: {forgotten}"
        ));
        return Ok(());
    }
    let library = open_for_reading(data)?;
    if !matches!(command, LibraryCommand::Status { .. }) {
        let held = DefaultLibrary::of(&library.store)?;
        if let Some(warning) = default_library_built(held, data)? {
            tracing::warn!("{warning}");
        }
    }
    match command {
        LibraryCommand::Status { json } => {
            let status = library.status()?;
            if json {
                out(format_args!("{}", serde_json::to_string_pretty(&status)?));
            } else {
                print_status(&status);
            }
        }
        LibraryCommand::Lookup { citation, more } => {
            let citation = unquoted(citation, more);
            if citation.trim().is_empty() {
                bail!("the citation to look up is empty");
            }
            out(format_args!(
                "{}",
                serde_json::to_string_pretty(&library.lookup(&citation)?)?
            ));
        }
        LibraryCommand::Search {
            query,
            more,
            limit,
            kind,
        } => {
            let query = unquoted(query, more);
            if query.trim().is_empty() {
                bail!("the search query is empty");
            }
            let hits = library.search(&query, kind.as_deref(), limit)?;
            let pending = library.index_pending_count()?;
            if pending > 0 {
                tracing::warn!(
                    "{pending} records are not yet searchable, so these hits may miss some: an import or a library build is still running, or stopped before indexing them (`lexstack library status --data {}` says which)",
                    data.display()
                );
            }
            out(format_args!("{}", serde_json::to_string_pretty(&hits)?));
        }
        LibraryCommand::Verify { file, all } => {
            let text = match file {
                Some(path) => std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?,
                None => std::io::read_to_string(std::io::stdin())?,
            };
            // Case links name the running server's address unless the
            // configuration names one.
            let public_url = match (&config.public_url, ServerInfo::read(data)) {
                (None, Some(server)) => format!("http://{}", server.addr),
                _ => config.public_url(),
            };
            let verifier = Verifier {
                library: &library,
                public_url: &public_url,
            };
            let report = if all {
                verifier.verify_all(&text)?
            } else {
                verifier.verify_text(&text)?
            };
            out(serde_json::to_string_pretty(&report)?);
        }
        LibraryCommand::Build | LibraryCommand::ForgetCoverage { .. } => {}
    }
    Ok(())
}

pub async fn run_import(global: &GlobalArgs, command: ImportCommand) -> anyhow::Result<()> {
    crate::telemetry::init(
        crate::config::LogFormat::Human,
        global
            .log_filter
            .as_deref()
            .unwrap_or("info,tokio_cron_scheduler=warn"),
    );
    let config = Config::load(&global.overrides())?;
    let data = config.data_dir.clone();
    let again = command.again(&data);
    let import = tokio::task::spawn_blocking(move || import_command(&config.data_dir, command));
    let done = tokio::select! {
        done = import => done?,
        () = crate::app::shutdown_signal() => interrupted(&again),
    };
    with_advice(done, &data)
}

/// Ends the process at SIGTERM or Ctrl-C during an import, saying what was
/// kept: each batch is committed durably, so stopping between two is as
/// safe as a kill, and the run that goes on from there indexes the rows.
fn interrupted(again: &str) -> ! {
    eprintln!(
        "interrupted: the rows committed so far are kept; run `{again}` (with the same options) \
         again to go on from there (it makes what was stored searchable too)"
    );
    std::process::exit(130)
}

fn import_command(data: &Path, command: ImportCommand) -> anyhow::Result<()> {
    // A mistyped path is reported before the library is opened (and,
    // in a new data directory, the default library built).
    let source = command.source();
    std::fs::metadata(source).with_context(|| format!("{}", source.display()))?;
    let (library, _) = open_for_writing(data)?;
    let imported = match command {
        ImportCommand::Courtlistener {
            dir,
            partial,
            batch_rows,
        } => import::courtlistener::import_dir(
            &library.store,
            &dir,
            import::courtlistener::Options {
                mark_coverage: !partial,
                batch_rows: batch_rows.map(std::num::NonZeroUsize::get),
            },
        ),
        ImportCommand::Cap { path, partial } => import::cap::import_path(
            &library.store,
            &path,
            import::cap::Options {
                mark_coverage: !partial,
            },
        ),
        ImportCommand::Scdb { file } => import::scdb::import_file(&library.store, &file),
    };
    // What was stored is searchable even when the import stopped on an
    // error (the rows before a truncated file's end stay stored); that
    // error, the cause, is the one reported.
    let indexed = library.index_pending();
    let report = imported?;
    let indexed = indexed?;
    print_reports(std::slice::from_ref(&report));
    out(format_args!("indexed {indexed} records"));
    match report.failed_files.len() {
        // Not a resumed file whose rows before were stored.
        0 if report.stored == 0 && report.resumed_past == 0 && report.skipped > 0 => bail!(
            "every row this import read was skipped ({} rows; the first are listed above with why): nothing was imported",
            report.skipped
        ),
        0 => Ok(()),
        failed => bail!(
            "{failed} of the files could not be read to their end (listed above); the rows read \
             from them before are stored, and the other files were imported; mend or replace \
             them and import again"
        ),
    }
}

/// Refuses to answer from a default library whose first build did not
/// finish (a first start stopped part-way): Roe v. Wade would be held,
/// but not the decision that overruled it. An older version, held whole,
/// answers, with a word on how to update it.
fn default_library_built(held: DefaultLibrary, data: &Path) -> anyhow::Result<Option<String>> {
    match held {
        DefaultLibrary::Unfinished => bail!(
            "the default library in {dir} was not fully built (its first build was stopped, or is still running); start `lexstack serve --data {dir}` or run `lexstack library build --data {dir}` to finish it",
            dir = data.display()
        ),
        DefaultLibrary::Older { version, current } => Ok(Some(format!(
            "the default library in {} is version {version}; this lexstack builds version {current} on its next `serve`, `library build` or import",
            data.display()
        ))),
        DefaultLibrary::Current { .. } => Ok(None),
    }
}

/// Opens the library to read while a server may be writing it. A file
/// whose writer was killed is repaired first by one writable open of the
/// store, when nothing holds it; building and indexing are left to the
/// server or an import.
fn open_for_reading(data: &Path) -> anyhow::Result<Library> {
    match Library::open_read_only(data) {
        Ok(library) => Ok(library),
        Err(crate::library::LibraryError::Store(StoreError::Redb(redb::Error::RepairAborted))) => {
            drop(Store::open_library(data).map_err(|err| match err {
                err if err.is_permission_denied() => anyhow!(
                    "the library in {} was not closed cleanly (a server or an import was killed) and must be repaired once, which needs write access: run this once as the user that owns {}, or start the server",
                    data.display(),
                    data.join(LIBRARY_FILE).display()
                ),
                err => held_library(data, err),
            })?);
            Library::open_read_only(data).context("cannot open the library")
        }
        Err(err) => Err(err).context("cannot open the library"),
    }
}

/// A citation or query typed without quotes, its words joined again.
fn unquoted(first: String, more: Vec<String>) -> String {
    std::iter::once(first)
        .chain(more)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The library takes one writing process: the server, or this command.
fn open_for_writing(data: &Path) -> anyhow::Result<(Library, Option<Vec<ImportReport>>)> {
    Library::open_with_default(data).map_err(|err| match err {
        crate::library::LibraryError::Store(err) => held_library(data, err),
        err => {
            anyhow::Error::new(err).context("cannot open the library or build its default library")
        }
    })
}

/// Why the library cannot be opened for writing, naming who holds it.
fn held_library(data: &Path, err: StoreError) -> anyhow::Error {
    match err {
        StoreError::Locked if ServerInfo::read(data).is_some() => anyhow!(
            "the library in {} is open in a running lexstack server ({}); stop the server to change the library (import, build, forget coverage), then start it again",
            data.display(),
            data.join(SERVER_FILE).display()
        ),
        StoreError::Locked => anyhow!(
            "the library in {} is open in another lexstack process: an import or a library build (wait for it to finish), or a server starting up (stop it to change the library, then start it again)",
            data.display()
        ),
        err if err.is_permission_denied() => {
            anyhow!(
                "cannot write the library in {}: permission denied; run this as the user that owns {}",
                data.display(),
                data.join(LIBRARY_FILE).display()
            )
        }
        err => anyhow::Error::new(err).context("cannot open the library"),
    }
}

fn print_reports(reports: &[ImportReport]) {
    for report in reports {
        out(format_args!(
            "{:<22} rows {:>9}  stored {:>9}  skipped {:>6}  already done {:>9}",
            report.source, report.rows, report.stored, report.skipped, report.resumed_past
        ));
        for error in &report.errors {
            out(format_args!("    {error}"));
        }
        not_listed(report.skipped, report.errors.len(), LISTED_AS_READ);
        if report.skipped_earlier > 0 {
            out(format_args!(
                "  skipped by an earlier import of these files: {} (a malformed row holds back \
                 every volume of its file from being counted as held completely, a row naming a \
                 case the library lacks its own volume; mend the rows and import again)",
                report.skipped_earlier
            ));
            for error in &report.errors_earlier {
                out(format_args!("    {error}"));
            }
            not_listed(
                report.skipped_earlier,
                report.errors_earlier.len(),
                "only the first are kept",
            );
        }
        if report.warned > 0 {
            out(format_args!(
                "  with a warning (stored, less what each says was left out): {}",
                report.warned
            ));
        }
        for warning in &report.warnings {
            out(format_args!("    {warning}"));
        }
        not_listed(report.warned, report.warnings.len(), LISTED_AS_READ);
        for note in &report.notes {
            out(format_args!("  note: {note}"));
        }
        for failed in &report.failed_files {
            out(format_args!("  could not be read: {failed}"));
        }
    }
}

/// Where the rows a report counts but does not list are: in the log of
/// the run that read them.
const LISTED_AS_READ: &str = "`--log lexstack=debug` lists every one";

/// A line for the rows a report counts but does not list.
fn not_listed(counted: u64, listed: usize, why: &str) {
    let more = counted.saturating_sub(listed as u64);
    if more > 0 {
        out(format_args!(
            "    … and {more} more, not listed here ({why})"
        ));
    }
}

fn print_status(status: &LibraryStatus) {
    out(format_args!("counts:"));
    for (name, count) in &status.counts {
        out(format_args!("  {name:<28} {count:>10}"));
    }
    out(format_args!("reporters held completely:"));
    for reporter in &status.reporters {
        out(format_args!(
            "  {:<14} {:>5} volumes  {}",
            reporter.reporter,
            reporter.volumes_held,
            reporter.ranges.join(", ")
        ));
    }
    out(format_args!("codes and rules:"));
    for law in &status.law {
        let held = match (law.coverage.live_complete, law.coverage.history_complete) {
            (true, true) => "complete with history",
            (true, false) => "live sections",
            _ => "partial",
        };
        out(format_args!(
            "  {:<8} {:<4} {:>7} sections  {held}",
            law.code, law.title, law.coverage.sections
        ));
    }
    out(format_args!(
        "index: {} documents, {} bytes; store {} bytes",
        status.index_documents, status.index_bytes, status.store_bytes
    ));
    match status.default_library {
        DefaultLibrary::Unfinished => out(format_args!(
            "  the default library is not fully built (its first build was stopped, or is still running): `serve` or `library build` finishes it"
        )),
        DefaultLibrary::Older { version, current } => out(format_args!(
            "  default library {version}; `serve`, `library build` or an import updates it to {current}"
        )),
        DefaultLibrary::Current { version } => out(format_args!("  default library {version}")),
    }
    if !status.index_current {
        out(format_args!(
            "  the search index was built by another version of lexstack: the next `serve`, `library build` or import rebuilds it; until then `library search` refuses"
        ));
    }
    if status.index_pending > 0 {
        out(format_args!(
            "  {} records not yet searchable: an import or a library build is still running, or stopped before indexing them; the next import, build or `serve` indexes them",
            status.index_pending
        ));
    }
    for unfinished in &status.unfinished_imports {
        let committed = match unfinished.rows_committed {
            0 => String::new(),
            rows => format!(", {rows} rows committed"),
        };
        out(format_args!(
            "  import not finished: {} ({}){committed}; still running, or stopped (killed, or at a file it could not read): the same `lexstack import` run again, with no server holding the library, goes on from there, after mending any file it named",
            unfinished.file, unfinished.kind
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::default_library_built;
    use crate::library::DefaultLibrary;
    use crate::library::import::default::DEFAULT_LIBRARY_VERSION;
    use std::path::Path;

    #[test]
    fn a_default_library_not_fully_built_answers_nothing() {
        let data = Path::new("/srv/lexstack");
        let refused = default_library_built(DefaultLibrary::Unfinished, data)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("not fully built"), "{refused}");
        assert!(
            refused.contains("library build --data /srv/lexstack"),
            "{refused}"
        );
        let older = DefaultLibrary::Older {
            version: DEFAULT_LIBRARY_VERSION - 1,
            current: DEFAULT_LIBRARY_VERSION,
        };
        let older = default_library_built(older, data).unwrap();
        assert!(older.is_some_and(|w| w.contains("next `serve`")));
        let current = DefaultLibrary::Current {
            version: DEFAULT_LIBRARY_VERSION,
        };
        assert_eq!(default_library_built(current, data).unwrap(), None);
    }
}

//! Caselaw Access Project exports (FORMATS.md §2): the legacy bulk bags
//! (`data/data.jsonl.xz`, one case per line) and the static.case.law layout
//! (per volume `CasesMetadata.json` plus `cases/*.json`).

use std::collections::HashSet;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::Deserialize;
use serde_json::Value;

use super::{
    DecisionDate, FirstSeen, ImportError, ImportReport, Lines, MAX_RECORD_BYTES, Progress,
    UnknownReporters, checkpoint_key, decision_date, longer_than_any_record, open_input,
    opinions_refused, parse_simple_cite, real_date, run_batches,
};
use crate::library::graph::Link;
use crate::library::model::{
    BodyFormat, CaseRecord, CiteKey, NewCase, NewOpinion, Provenance, shown_name,
};
use crate::library::store::LibraryWriter;
use crate::library::text::markup_to_text;
use crate::store::Store;

pub const SOURCE: &str = "cap";

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// CAP exports whole volumes: count each imported volume as held
    /// completely. Off for samples and partial extracts.
    pub mark_coverage: bool,
}

impl Options {
    /// The checkpoint kind of a file read with these options: a sample read
    /// first is read again when it comes as a whole export.
    fn checkpoint_kind(self) -> &'static str {
        if self.mark_coverage {
            SOURCE
        } else {
            "cap-partial"
        }
    }
}

/// Imports a CAP export: a `.jsonl[.xz|.gz]` file, a directory of them (an
/// unzipped bag), or a static.case.law tree.
pub fn import_path(
    store: &Store,
    path: &Path,
    options: Options,
) -> Result<ImportReport, ImportError> {
    let mut report = ImportReport::new(SOURCE);
    if path.is_file() {
        if is_archive(path) {
            return Err(ImportError::format(path, UNPACK_FIRST));
        }
        let (read, outcome) = import_jsonl_file(store, path, options);
        report.absorb(read);
        report.end_one_file(outcome)?;
        return Ok(report);
    }
    let mut found = Found::default();
    collect(path, &mut HashSet::new(), &mut found)?;
    let Found {
        mut jsonl,
        mut volumes,
        archives,
        without_cases,
    } = found;
    for volume in without_cases {
        report.failed_files.push(format!(
            "{}: a volume folder (VolumeMetadata.json) without CasesMetadata.json; the volume is \
             not imported",
            volume.display()
        ));
    }
    if jsonl.is_empty() && volumes.is_empty() {
        let why = if archives.is_empty() {
            "no CAP data here (expected *.jsonl files, plain or .gz or .xz, or volume folders with \
             CasesMetadata.json)"
        } else {
            UNPACK_FIRST
        };
        return Err(ImportError::format(path, why));
    }
    for archive in archives {
        report.note(format!("{}: not read ({UNPACK_FIRST})", archive.display()));
    }
    jsonl.sort();
    volumes.sort();
    super::mark_folder_import(store, SOURCE, path, false)?;
    // Each file and volume stands alone: one that cannot be read is
    // reported, and the others are imported.
    for file in jsonl {
        let (read, outcome) = import_jsonl_file(store, &file, options);
        report.absorb_file(read, outcome)?;
    }
    for volume in volumes {
        match import_static_volume(store, &volume, options) {
            Ok(read) => report.absorb(read),
            Err(failure) => report.fail_file(failure)?,
        }
    }
    if report.failed_files.is_empty() {
        super::mark_folder_import(store, SOURCE, path, true)?;
    }
    Ok(report)
}

const UNPACK_FIRST: &str =
    "an archive: unpack it (`tar xf`, `unzip`) and import the folder it holds";

/// Whether a file is an archive the importer does not open.
fn is_archive(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    [".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".zip"]
        .iter()
        .any(|ending| name.ends_with(ending))
}

/// What a CAP folder holds.
#[derive(Default)]
struct Found {
    jsonl: Vec<PathBuf>,
    volumes: Vec<PathBuf>,
    archives: Vec<PathBuf>,
    /// Volume folders (with `VolumeMetadata.json`) without their list of
    /// cases.
    without_cases: Vec<PathBuf>,
}

/// Finds the JSON-lines files, volume folders and archives under `dir`,
/// following symbolic links but reading each real folder once (a link
/// back up the tree would otherwise never end).
fn collect(
    dir: &Path,
    visited: &mut HashSet<PathBuf>,
    found: &mut Found,
) -> Result<(), ImportError> {
    let real = dir.canonicalize().map_err(|e| ImportError::io(dir, e))?;
    if !visited.insert(real) {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| ImportError::io(dir, e))?;
    let (mut volume_metadata, mut cases_metadata) = (false, false);
    for entry in entries {
        let path = entry.map_err(|e| ImportError::io(dir, e))?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            collect(&path, visited, found)?;
        } else if name == "CasesMetadata.json" {
            cases_metadata = true;
            found.volumes.push(dir.to_path_buf());
        } else if name == "VolumeMetadata.json" {
            volume_metadata = true;
        } else if name.ends_with(".jsonl")
            || name.ends_with(".jsonl.xz")
            || name.ends_with(".jsonl.gz")
        {
            found.jsonl.push(path);
        } else if is_archive(&path) {
            found.archives.push(path);
        }
    }
    if volume_metadata && !cases_metadata {
        found.without_cases.push(dir.to_path_buf());
    }
    Ok(())
}

/// Imports one JSON-lines file of CAP cases: what it did, and whether it
/// was read to its end.
fn import_jsonl_file(
    store: &Store,
    path: &Path,
    options: Options,
) -> (ImportReport, Result<(), ImportError>) {
    let mut report = ImportReport::new(SOURCE);
    let outcome = open_input(path).and_then(|input| {
        let mut progress = Progress::new("cap", input.meter.clone(), input.size);
        import_jsonl(
            store,
            path,
            input.reader,
            input.size,
            options,
            &mut progress,
            &mut report,
        )
    });
    (report, outcome)
}

/// Imports CAP cases, one JSON object per line, from any reader, telling
/// `report` what it did, also of the lines read before a failure.
pub fn import_jsonl(
    store: &Store,
    name: &Path,
    mut reader: impl BufRead + Send,
    size: u64,
    options: Options,
    progress: &mut Progress,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    super::skip_byte_order_mark(&mut reader);
    let key = checkpoint_key(options.checkpoint_kind(), name, size);
    // A blank line (one at the end of the file, say) holds no case.
    let lines = Lines::new(reader).map(|(line_number, line)| {
        read_case(&line?)
            .map(|case| (line_number, case))
            .map_err(|why| format!("line {line_number} {why}"))
    });
    let mut first_lines = FirstSeen::default();
    let mut unknown_reporters = UnknownReporters::default();
    run_batches(
        store,
        &key,
        name,
        lines,
        progress,
        report,
        |writer, (line, case), report| {
            let Some(id) = id_text(&case.id) else {
                report.skip(name, format!("line {line}: {}", not_a_case_id(&case.id)));
                return Ok(());
            };
            if let Some(first) = first_lines.earlier(&id, line) {
                report.skip(
                    name,
                    format!("line {line}: case id {id} appears again (first on line {first})"),
                );
                return Ok(());
            }
            let held = HeldVolumes::Cited;
            for why in store_case(writer, case, None, options, &held, &mut unknown_reporters)? {
                report.warn(name, format!("line {line}: {why}"));
            }
            report.stored += 1;
            Ok(())
        },
    )?;
    unknown_reporters.note(report, name);
    Ok(())
}

/// Which volumes a file's cases may make held.
enum HeldVolumes {
    /// Each case's official citation's (a jsonl export spans volumes).
    Cited,
    /// Only the static layout's folder's own, as its metadata names it.
    Folder { reporter: String, volume: u32 },
    /// None: the folder's metadata does not say which volume it is.
    Unknown,
}

/// The reporter volume a static layout's folder is: its `VolumeMetadata.json`
/// number (else the folder's name) of its reporter folder's
/// `ReporterMetadata.json` short name.
fn folder_volume(volume: &Path) -> HeldVolumes {
    let field = |path: PathBuf, name: &str| {
        let text = read_capped(&path).ok()?;
        let value: Value = serde_json::from_str(&text).ok()?;
        value.get(name)?.as_str().map(str::to_string)
    };
    let number = field(volume.join("VolumeMetadata.json"), "volume_number")
        .or_else(|| volume.file_name()?.to_str().map(str::to_string))
        .and_then(|number| number.trim().parse::<u32>().ok());
    let reporter = volume
        .parent()
        .and_then(|reporter| field(reporter.join("ReporterMetadata.json"), "short_name"))
        .map(|short_name| crate::library::canonical_reporter(&short_name));
    match (reporter, number) {
        (Some(reporter), Some(volume)) => HeldVolumes::Folder { reporter, volume },
        _ => HeldVolumes::Unknown,
    }
}

/// What a static volume's checkpoint is keyed on: its metadata, whether its
/// folder's metadata names its volume (mended after the warning that it
/// names none, the volume is read again and becomes held) and each case
/// file's name, size and modification time, so a corrected case file is
/// read again (a checkpoint on the metadata alone called it done).
fn volume_fingerprint(metadata: &str, held: &HeldVolumes, cases_dir: &Path) -> u64 {
    let mut files: Vec<(String, u64, u128)> = std::fs::read_dir(cases_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let meta = entry.metadata().ok()?;
            let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
            Some((
                entry.file_name().to_string_lossy().into_owned(),
                meta.len(),
                modified.as_nanos(),
            ))
        })
        .collect();
    files.sort();
    // FNV-1a: the same on every build, unlike the standard library's hasher.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(metadata.as_bytes());
    // Only then, so that the keys of volumes imported before stay theirs.
    if let HeldVolumes::Unknown = held {
        feed(b"\0no volume named");
    }
    for (name, size, modified) in files {
        feed(name.as_bytes());
        feed(&size.to_le_bytes());
        feed(&modified.to_le_bytes());
    }
    hash
}

/// Imports one static.case.law volume folder.
fn import_static_volume(
    store: &Store,
    volume: &Path,
    options: Options,
) -> Result<ImportReport, ImportError> {
    let metadata_path = volume.join("CasesMetadata.json");
    let mut report = ImportReport::new(SOURCE);
    // A volume whose list of cases cannot be read is skipped, named; the
    // tree's other volumes are imported.
    let read = read_capped(&metadata_path).and_then(|text| {
        let cases: Vec<Value> = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        Ok((text, cases))
    });
    let (text, cases) = match read {
        Ok(read) => read,
        Err(why) => {
            report.failed_files.push(format!(
                "{}: {why}; the volume is not imported",
                metadata_path.display()
            ));
            return Ok(report);
        }
    };
    if cases.is_empty() {
        report.note(format!("{}: lists no cases", metadata_path.display()));
    }
    let mut progress = Progress::rows("cap", cases.len() as u64);
    let cases_dir = volume.join("cases");
    let held = folder_volume(volume);
    let key = checkpoint_key(
        options.checkpoint_kind(),
        volume,
        volume_fingerprint(&text, &held, &cases_dir),
    );
    let rows = cases.into_iter().enumerate().map(|(n, value)| {
        let entry = n + 1;
        if !value.is_object() {
            return Err(format!("entry {entry}: {NOT_A_CASE}"));
        }
        let case: CapCase =
            serde_json::from_value(value).map_err(|e| format!("entry {entry}: {e}"))?;
        let body = match case.file_name.as_deref() {
            Some(file) => read_static_body(&cases_dir, file, &case.id)
                .map_err(|why| format!("entry {entry}: {why}"))?,
            None => None,
        };
        Ok::<_, String>((entry, case, body))
    });
    let mut first_entries = FirstSeen::default();
    let mut unknown_reporters = UnknownReporters::default();
    if options.mark_coverage && matches!(held, HeldVolumes::Unknown) {
        report.warn(
            &metadata_path,
            "its volume's metadata names no reporter and volume, so no volume is counted as held",
        );
    }
    run_batches(
        store,
        &key,
        &metadata_path,
        rows,
        &mut progress,
        &mut report,
        |writer, (entry, mut case, body), report| {
            let Some(id) = id_text(&case.id) else {
                report.skip(
                    &metadata_path,
                    format!("entry {entry}: {}", not_a_case_id(&case.id)),
                );
                return Ok(());
            };
            if let Some(first) = first_entries.earlier(&id, entry) {
                report.skip(
                    &metadata_path,
                    format!("entry {entry}: case id {id} appears again (first as entry {first})"),
                );
                return Ok(());
            }
            if case.frontend_url.is_none() {
                case.frontend_url = static_case_url(volume, case.file_name.as_deref());
            }
            for why in store_case(writer, case, body, options, &held, &mut unknown_reporters)? {
                report.warn(&metadata_path, format!("case {id}: {why}"));
            }
            report.stored += 1;
            Ok(())
        },
    )?;
    unknown_reporters.note(&mut report, &metadata_path);
    Ok(report)
}

/// Where static.case.law publishes a case of the static layout: its
/// reporter's and volume's folders, then the case's file. The layout's
/// metadata gives no link of its own, and another layout's link to the
/// same case would otherwise be taken as withdrawn.
fn static_case_url(volume: &Path, file_name: Option<&str>) -> Option<String> {
    let number = volume.file_name()?.to_str()?;
    let reporter = volume.parent()?.file_name()?.to_str()?;
    let file = file_name?;
    Some(format!(
        "https://static.case.law/{reporter}/{number}/cases/{file}.json"
    ))
}

/// A file of an export read whole (a volume's metadata, a case's file),
/// if it is no longer than [`MAX_RECORD_BYTES`]: at most one byte more is
/// read, whatever the file's size says by then.
fn read_capped(path: &Path) -> Result<String, String> {
    let failed = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(failed)?
        .take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(failed)?;
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(format!("{}: {}", path.display(), longer_than_any_record()));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to() + 1;
        format!("{}: not UTF-8 at byte {at}", path.display())
    })
}

/// The case body of the case file `file_name` lists (`cases/NNNN.json`); a
/// file that is missing, malformed or another case's makes its case a
/// skipped row, so the volume is not held. The name must be a file's name
/// in `cases/`: a metadata file must not send the import to read files
/// elsewhere ("../../etc/passwd").
fn read_static_body(
    cases_dir: &Path,
    file_name: &str,
    id: &Value,
) -> Result<Option<Value>, String> {
    let mut parts = Path::new(file_name).components();
    let (Some(std::path::Component::Normal(name)), None) = (parts.next(), parts.next()) else {
        return Err(format!(
            "file_name {file_name:?} is not the name of a file in cases/"
        ));
    };
    let mut file = name.to_os_string();
    file.push(".json");
    let path = cases_dir.join(file);
    let text = read_capped(&path)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} line {} column {}: {}",
            path.display(),
            e.line(),
            e.column(),
            json_error(&e)
        )
    })?;
    let listed = id_text(id);
    if let Some(held) = value.get("id").and_then(id_text)
        && listed.as_ref() != Some(&held)
    {
        return Err(format!(
            "{} is case {held}, not case {}",
            path.display(),
            listed.unwrap_or_else(|| id.to_string())
        ));
    }
    Ok(value.get("casebody").cloned())
}

const NOT_A_CASE: &str = "expected a CAP case (a JSON object)";

/// A line read as a CAP case, or "column C: why" it is none. A JSON array
/// is no case, though serde would read one as the fields in order.
fn read_case(line: &str) -> Result<CapCase, String> {
    if !line.trim_start().starts_with('{') {
        return Err(format!("column 1: {NOT_A_CASE}"));
    }
    serde_json::from_str(line).map_err(|e| format!("column {}: {}", e.column(), json_error(&e)))
}

/// A JSON error's message without the position serde_json appends: the
/// caller names the place in the file, which a line's own position is not.
fn json_error(err: &serde_json::Error) -> String {
    let message = err.to_string();
    let position = format!(" at line {} column {}", err.line(), err.column());
    match message.strip_suffix(&position) {
        Some(bare) => bare.to_string(),
        None => message,
    }
}

#[derive(Debug, Deserialize)]
#[serde(expecting = "a CAP case (a JSON object)")]
struct CapCase {
    id: Value,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    name_abbreviation: Option<String>,
    #[serde(default)]
    decision_date: Option<String>,
    #[serde(default)]
    docket_number: Option<String>,
    #[serde(default)]
    first_page: Option<Value>,
    #[serde(default)]
    last_page: Option<Value>,
    #[serde(default)]
    citations: Vec<CapCitation>,
    #[serde(default)]
    court: Option<CapCourt>,
    #[serde(default)]
    cites_to: Vec<CapCitesTo>,
    #[serde(default)]
    frontend_url: Option<String>,
    #[serde(default)]
    casebody: Option<Value>,
    #[serde(default)]
    file_name: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(expecting = "a citation (an object with a cite)")]
struct CapCitation {
    cite: String,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(expecting = "a court (an object)")]
struct CapCourt {
    #[serde(default)]
    name_abbreviation: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

impl CapCourt {
    fn court_id(&self) -> Option<String> {
        crate::library::court_id(self.name_abbreviation.as_deref(), self.name.as_deref())
    }
}

#[derive(Debug, Deserialize)]
#[serde(expecting = "a cited case (an object with a cite)")]
struct CapCitesTo {
    cite: String,
    #[serde(default)]
    case_ids: Vec<Value>,
    /// How many times the case cites it.
    #[serde(default)]
    weight: Option<Value>,
    #[serde(default)]
    pin_cites: Vec<CapPinCite>,
}

#[derive(Debug, Deserialize)]
#[serde(expecting = "a pin cite (an object)")]
struct CapPinCite {
    /// How the case describes the one it cites ("overruling").
    #[serde(default)]
    parenthetical: Option<String>,
}

fn page_number(value: &Option<Value>) -> Option<u32> {
    match value.as_ref()? {
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A CAP case id: a whole number, sometimes written as a string ("8101"
/// and 8101 are one case).
fn id_text(value: &Value) -> Option<String> {
    let id = match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    }?;
    Some(id.to_string())
}

fn not_a_case_id(value: &Value) -> String {
    format!("id {value} is not a case number")
}

fn store_case(
    writer: &mut LibraryWriter<'_>,
    case: CapCase,
    body: Option<Value>,
    options: Options,
    held: &HeldVolumes,
    unknown_reporters: &mut UnknownReporters,
) -> Result<Vec<String>, ImportError> {
    let Some(cap_id) = id_text(&case.id) else {
        return Ok(Vec::new());
    };
    let DecisionDate { date, left_out } = decision_date(case.decision_date.as_deref(), real_date);
    let mut warnings: Vec<String> = left_out.into_iter().collect();
    let first_page = page_number(&case.first_page);
    let mut last_page = page_number(&case.last_page);
    if let (Some(first), Some(last)) = (first_page, last_page)
        && last < first
    {
        warnings.push(format!(
            "last_page {last} comes before first_page {first}: the case is stored without its \
             last page"
        ));
        last_page = None;
    }
    let mut official_key = None;
    let mut citations: Vec<_> = case
        .citations
        .iter()
        .map(|c| {
            let mut citation = parse_simple_cite(&c.cite);
            let official = c.kind.as_deref().is_none_or(|k| k == "official");
            if official && citation.key.as_ref().map(|k| Some(k.page)) == Some(first_page) {
                citation.last_page = last_page;
            }
            if official && official_key.is_none() {
                official_key = citation.key.clone();
            }
            citation
        })
        .collect();
    citations.dedup_by(|a, b| a.cite == b.cite);
    let opinions = case_opinions(body.as_ref().or(case.casebody.as_ref()), &cap_id);
    let name = [&case.name, &case.name_abbreviation]
        .into_iter()
        .flatten()
        .find(|name| !shown_name(name).trim().is_empty())
        .cloned();
    if name.is_none() {
        warnings.push(
            "has no name (name and name_abbreviation are empty): stored without one, so a \
             name given with its citation cannot be checked"
                .to_string(),
        );
    }
    let record = CaseRecord {
        id: format!("cap-{cap_id}"),
        name: name.unwrap_or_default(),
        name_abbreviation: case.name_abbreviation,
        court: case.court.as_ref().and_then(CapCourt::court_id),
        decision_date: date,
        docket_numbers: case
            .docket_number
            .into_iter()
            .filter(|d| !d.is_empty())
            .collect(),
        citations,
        head_matter: opinions.head_matter,
        judges: opinions.judges,
        source_url: case.frontend_url,
        provenance: vec![Provenance {
            source: SOURCE.into(),
            id: cap_id.clone(),
        }],
        ..CaseRecord::default()
    };
    // The file brings its official reporter's volumes whole; a parallel
    // regional reporter's volume holds other courts' cases too.
    let held_volume = official_key.filter(|_| options.mark_coverage);
    let cites_to = case.cites_to;
    let stored = writer.put_case(NewCase {
        record,
        opinions: opinions.opinions,
    })?;
    if stored.opinions_refused > 0 {
        warnings.push(opinions_refused(stored.opinions_refused));
    }
    let outside_the_folder = |key: &CiteKey| match held {
        HeldVolumes::Cited => false,
        HeldVolumes::Folder { reporter, volume } => {
            key.reporter != *reporter || key.volume != *volume
        }
        HeldVolumes::Unknown => true,
    };
    match held_volume {
        Some(key) if outside_the_folder(&key) => {
            // The folder may lack a case of its own volume then.
            writer.mark_import_incomplete()?;
            if let HeldVolumes::Folder { reporter, volume } = held {
                warnings.push(format!(
                    "its official citation ({key}) is not in the folder's volume ({volume} \
                     {reporter}), so the volume is not counted as held"
                ));
            }
        }
        Some(key) if !writer.mark_volume_held(&key.reporter, key.volume, SOURCE)? => {
            unknown_reporters.insert(&key.reporter);
        }
        Some(_) => {}
        None if options.mark_coverage => {
            // It is a case of one of the file's volumes, at a page unknown.
            writer.mark_import_incomplete()?;
            warnings.push(
                "the case has no official citation with a volume and page, so the file's \
                 volumes are not counted as held"
                    .into(),
            );
        }
        None => {}
    }
    // The citation engine reads the opinion text's links (with their
    // passages) as the case is stored; CAP's own links add those it missed,
    // and their counts and parentheticals.
    let mut links = Vec::new();
    for cited in cites_to {
        let count = page_number(&cited.weight)
            .filter(|&weight| weight > 0)
            .unwrap_or(1);
        let by_cap_id = cited
            .case_ids
            .iter()
            .filter_map(id_text)
            .find_map(|id| writer.external_case(SOURCE, &id).transpose());
        let target = match by_cap_id {
            Some(found) => Some(found?),
            None => match parse_simple_cite(&cited.cite).key {
                Some(key) => {
                    let at = writer.cases_at(&key)?;
                    if at.is_empty() {
                        writer.add_unresolved(&key, &stored.id, count, None)?;
                    }
                    (at.len() == 1).then(|| at[0].clone())
                }
                None => None,
            },
        };
        let Some(target) = target else { continue };
        links.push(Link {
            cited: target,
            count,
            passage: None,
            parentheticals: cited
                .pin_cites
                .iter()
                .filter_map(|pin| pin.parenthetical.as_deref().map(str::trim))
                .filter(|text| !text.is_empty())
                .map(str::to_string)
                .collect(),
        });
    }
    writer.add_links(&stored.id, links)?;
    Ok(warnings)
}

struct CaseBody {
    opinions: Vec<NewOpinion>,
    head_matter: Option<String>,
    judges: Option<String>,
}

/// The opinions of a casebody: the text export's `opinions[]`, or the
/// XML/HTML export's single document (kept as plain text).
fn case_opinions(casebody: Option<&Value>, cap_id: &str) -> CaseBody {
    let mut body = CaseBody {
        opinions: Vec::new(),
        head_matter: None,
        judges: None,
    };
    let data = match casebody {
        Some(value) => value.get("data").unwrap_or(value),
        None => return body,
    };
    let provenance = |n: usize| Provenance {
        source: SOURCE.into(),
        id: format!("{cap_id}#{n}"),
    };
    match data {
        Value::String(markup) if !markup.trim().is_empty() => match marked_opinions(markup) {
            Some((head_matter, opinions)) => {
                body.head_matter = Some(head_matter).filter(|head| !head.is_empty());
                for (n, opinion) in opinions.into_iter().enumerate() {
                    body.opinions.push(NewOpinion {
                        kind: opinion.kind,
                        author: opinion.author,
                        format: BodyFormat::Text,
                        text: opinion.text,
                        provenance: provenance(n),
                    });
                }
            }
            None => body.opinions.push(NewOpinion {
                kind: "combined".into(),
                author: None,
                format: BodyFormat::Text,
                text: markup_to_text(markup),
                provenance: provenance(0),
            }),
        },
        Value::Object(object) => {
            body.head_matter = object
                .get("head_matter")
                .and_then(Value::as_str)
                .map(str::to_string);
            body.judges = object
                .get("judges")
                .and_then(Value::as_array)
                .map(|judges| {
                    judges
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join("; ")
                });
            let opinions = object.get("opinions").and_then(Value::as_array);
            for (n, opinion) in opinions.into_iter().flatten().enumerate() {
                let Some(text) = opinion.get("text").and_then(Value::as_str) else {
                    continue;
                };
                body.opinions.push(NewOpinion {
                    kind: opinion
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("majority")
                        .to_string(),
                    author: opinion
                        .get("author")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    format: BodyFormat::Text,
                    text: text.to_string(),
                    provenance: provenance(n),
                });
            }
        }
        _ => {}
    }
    body
}

/// More `<opinion>` elements than any decision has (a Supreme Court case
/// has a dozen at most) mark no real opinions: the casebody is read as one
/// combined text, so a hostile file cannot make one case hold thousands of
/// opinions (each one more is a scan of those held).
const MAX_MARKED_OPINIONS: usize = 100;

/// One `<opinion>` of an XML or HTML casebody, as text.
struct MarkedOpinion {
    kind: String,
    author: Option<String>,
    text: String,
}

/// The head matter (parties, court, attorneys: what comes before the first
/// opinion) and the `<opinion type="…">` elements of an XML or HTML
/// casebody, each with its `<author>`; `None` when it marks no opinion,
/// or more than [`MAX_MARKED_OPINIONS`].
fn marked_opinions(markup: &str) -> Option<(String, Vec<MarkedOpinion>)> {
    let starts: Vec<usize> = markup
        .match_indices("<opinion")
        .map(|(at, _)| at)
        .filter(|&at| {
            markup[at + "<opinion".len()..]
                .starts_with(|c: char| c == '>' || c.is_ascii_whitespace())
        })
        .take(MAX_MARKED_OPINIONS + 1)
        .collect();
    if starts.len() > MAX_MARKED_OPINIONS {
        return None;
    }
    let first = *starts.first()?;
    let mut opinions = Vec::with_capacity(starts.len());
    for (n, &start) in starts.iter().enumerate() {
        let next = starts.get(n + 1).copied().unwrap_or(markup.len());
        let element = &markup[start..next];
        let tag_end = element.find('>').map_or(element.len(), |at| at + 1);
        let (tag, body) = element.split_at(tag_end);
        let (inner, after) = body.split_once("</opinion>").unwrap_or((body, ""));
        let mut text = markup_to_text(inner).trim().to_string();
        // What follows an opinion before the next one (a disposition, a
        // note on rehearing) is the casebody's too: kept with it.
        let trailing = markup_to_text(after);
        if !trailing.trim().is_empty() {
            text.push_str("\n\n");
            text.push_str(trailing.trim());
        }
        opinions.push(MarkedOpinion {
            kind: attribute(tag, "type").unwrap_or("majority").to_string(),
            author: element_text(inner, "author"),
            text,
        });
    }
    Some((
        markup_to_text(&markup[..first]).trim().to_string(),
        opinions,
    ))
}

/// The value of `name="…"` in an opening tag.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &tag[at..];
    value
        .find('"')
        .map(|end| &value[..end])
        .filter(|v| !v.is_empty())
}

/// The text of the first `<name>` element in `markup`.
fn element_text(markup: &str, name: &str) -> Option<String> {
    let open = markup.find(&format!("<{name}"))?;
    let after = &markup[open..];
    let body = &after[after.find('>')? + 1..];
    let body = &body[..body.find(&format!("</{name}>"))?];
    Some(markup_to_text(body).trim().to_string()).filter(|text| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_xml_casebody_is_split_into_its_opinions() {
        let markup = r#"<casebody><parties>A v. B</parties><attorneys>X, for appellant.</attorneys>
<opinion type="majority"><author id="a1">JUSTICE SCHMIDT</author><p>We affirm.</p></opinion>
<opinion type="dissent"><author>JUSTICE LYTTON,</author><p>I dissent &amp; would reverse.</p></opinion></casebody>"#;
        let (head, opinions) = marked_opinions(markup).unwrap();
        assert!(
            head.contains("A v. B") && head.contains("for appellant"),
            "{head}"
        );
        let summary: Vec<(&str, Option<&str>)> = opinions
            .iter()
            .map(|o| (o.kind.as_str(), o.author.as_deref()))
            .collect();
        assert_eq!(
            summary,
            [
                ("majority", Some("JUSTICE SCHMIDT")),
                ("dissent", Some("JUSTICE LYTTON,"))
            ]
        );
        assert!(opinions[1].text.ends_with("I dissent & would reverse."));
        assert!(!opinions[0].text.contains("dissent"));
        // Text between opinions stays with the one before it.
        let with_disposition = r#"<opinion type="majority"><p>We affirm.</p></opinion>
<p>Judgment affirmed.</p><opinion type="dissent"><p>No.</p></opinion>"#;
        let (_, opinions) = marked_opinions(with_disposition).unwrap();
        assert!(
            opinions[0].text.ends_with("Judgment affirmed."),
            "{}",
            opinions[0].text
        );
        assert_eq!(opinions[1].text, "No.");
        assert!(marked_opinions("<p>No opinion element; <opinions>none</opinions></p>").is_none());
        // Broken markup is still read, never a panic.
        for broken in [
            "<opinion",
            "<opinion type=\"",
            "<opinion type=\"x\"><author>",
            "<opinion>",
        ] {
            let _ = marked_opinions(broken);
        }
    }

    #[test]
    fn a_case_file_is_read_only_from_cases_and_only_as_the_case_listed() {
        let dir = tempfile::tempdir().unwrap();
        let cases = dir.path().join("cases");
        std::fs::create_dir(&cases).unwrap();
        std::fs::write(
            dir.path().join("outside.json"),
            r#"{"id": 1, "casebody": {}}"#,
        )
        .unwrap();
        std::fs::write(
            cases.join("0001.json"),
            r#"{"id": 1, "casebody": {"x": 1}}"#,
        )
        .unwrap();
        let id = Value::from(1);
        for elsewhere in ["../outside", "/etc/hostname", "sub/0001", "..", ""] {
            let why = read_static_body(&cases, elsewhere, &id).unwrap_err();
            assert!(
                why.contains("is not the name of a file in cases/"),
                "{elsewhere}: {why}"
            );
        }
        assert_eq!(
            read_static_body(&cases, "0001", &id).unwrap(),
            Some(serde_json::json!({"x": 1}))
        );
        let why = read_static_body(&cases, "0001", &Value::from(2)).unwrap_err();
        assert!(why.ends_with("0001.json is case 1, not case 2"), "{why}");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_without_reading_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("CasesMetadata.json");
        std::fs::File::create(&path)
            .unwrap()
            .set_len(MAX_RECORD_BYTES as u64 + 1)
            .unwrap();
        let why = read_capped(&path).unwrap_err();
        assert!(
            why.ends_with("longer than 64 MiB, more than any record of a bulk file"),
            "{why}"
        );
        std::fs::write(&path, b"[\xff]").unwrap();
        assert!(
            read_capped(&path)
                .unwrap_err()
                .ends_with("not UTF-8 at byte 2")
        );
    }

    #[test]
    fn a_casebody_of_more_opinions_than_any_case_has_is_one_text() {
        let many = "<opinion type=\"x\"><p>part</p></opinion>".repeat(MAX_MARKED_OPINIONS + 1);
        let body = case_opinions(Some(&Value::String(many)), "1");
        assert_eq!(body.opinions.len(), 1);
        assert_eq!(body.opinions[0].kind, "combined");
        assert_eq!(
            body.opinions[0].text.matches("part").count(),
            MAX_MARKED_OPINIONS + 1
        );
        let few = "<opinion type=\"dissent\"><p>no</p></opinion>".repeat(3);
        assert_eq!(
            case_opinions(Some(&Value::String(few)), "1").opinions.len(),
            3
        );
    }

    #[test]
    fn a_court_is_found_by_name_or_else_by_abbreviation() {
        let court = |abbreviation: &str, name: &str| {
            CapCourt {
                name_abbreviation: Some(abbreviation.into()),
                name: Some(name.into()),
            }
            .court_id()
        };
        // CAP's abbreviation, whatever the name beside it.
        assert_eq!(
            court("U.S.", "United States Supreme Court").as_deref(),
            Some("scotus")
        );
        // The name alone, as courts-db writes it.
        assert_eq!(
            court("", "Supreme Court of the United States").as_deref(),
            Some("scotus")
        );
        assert_eq!(court("", "United States Supreme Court"), None);
        assert_eq!(
            court("Ill. App. Ct.", "Illinois Appellate Court").as_deref(),
            Some("illappct")
        );
        // A shared abbreviation: the name says which court.
        assert_eq!(
            court("D.C.", "District of Columbia Court of Appeals").as_deref(),
            Some("dc")
        );
        assert_eq!(court("Zz.", "No Such Court"), None);
    }

    #[test]
    fn json_errors_name_the_place_once_and_no_type_of_ours() {
        for not_an_object in ["[]", "[1, 2, 3]", "null", "5"] {
            assert_eq!(
                read_case(not_an_object).unwrap_err(),
                "column 1: expected a CAP case (a JSON object)"
            );
        }
        let error = serde_json::from_str::<CapCase>(r#"{"id": 1, "citations": 5}"#).unwrap_err();
        assert_eq!(
            json_error(&error),
            "invalid type: integer `5`, expected a sequence"
        );
    }
}

//! The bulk importers, through the real CLI, on the project's own fixtures
//! in the exact bulk formats.

use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use lexstack::library::Library;
use lexstack::store::{Layout, Store};
use redb::ReadableTable;
use serde_json::{Value, json};

use crate::helpers::{copy_library, lexstack, lexstack_on};

fn fixtures(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn data_with_library() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    dir
}

fn import(data: &Path, args: &[&str]) -> Output {
    let output = lexstack()
        .arg("--data")
        .arg(data)
        .arg("import")
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "import {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The standard output of an import that lists `count` files it could not
/// read, and fails for them once it imported the others.
fn import_with_unreadable_files(data: &Path, args: &[&str], count: usize) -> String {
    let output = lexstack_on(data).arg("import").args(args).output().unwrap();
    assert!(!output.status.success(), "import {args:?} succeeded");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("{count} of the files could not be read")),
        "{stderr}"
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The error output of an import that must fail.
fn failed_import(data: &Path, source: &str, input: &Path) -> String {
    let output = lexstack()
        .arg("--data")
        .arg(data)
        .args(["import", source])
        .arg(input)
        .output()
        .unwrap();
    assert!(!output.status.success(), "import {source} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A folder `name` in `parent` holding one file, `file`, of `contents`.
fn folder_of_one_file(parent: &Path, name: &str, file: &str, contents: &[u8]) -> PathBuf {
    let folder = parent.join(name);
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join(file), contents).unwrap();
    folder
}

/// Rows an import read, over all its files (its report lines' "rows N").
fn rows_read(output: &Output) -> u64 {
    rows_in(&String::from_utf8_lossy(&output.stdout))
}

/// The rows an import's printed report says it read.
fn rows_in(stdout: &str) -> u64 {
    stdout
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace().skip_while(|w| *w != "rows");
            words.next()?;
            words.next()?.parse::<u64>().ok()
        })
        .sum()
}

fn counts(data: &Path) -> std::collections::BTreeMap<String, i64> {
    Library::open_read_only(data)
        .unwrap()
        .status()
        .unwrap()
        .counts
}

#[test]
fn courtlistener_bulk_files_with_every_quirk() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    let output = import(dir.path(), &["courtlistener", fixtures.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("skipped      5"), "{stdout}");
    assert!(
        stdout.contains(
            "citation-map-2024-05-06.csv line 4: the cited opinion 999 is not in the library"
        ) && stdout
            .contains("parentheticals-2024-05-06.csv line 3: opinion 888 is not in the library")
            && stdout.contains(
                "citation-map-2024-05-06.csv line 6: depth \"many\" is not a count of citations"
            ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "citations-2024-05-06.csv.bz2 line 6 column 22: unexpected 'x' after a closing quote"
        ),
        "malformed rows name file, line and column: {stdout}"
    );
    assert!(
        stdout.contains("cluster 999 is not in the library"),
        "{stdout}"
    );
    assert!(
        stdout.contains("indexed 4 records"),
        "the four clusters' cases are counted as indexed: {stdout}"
    );

    let library = Library::open_read_only(dir.path()).unwrap();
    let smith = library.case("cl-101").unwrap().unwrap();
    assert_eq!(smith.name, "Smith v. Jones");
    assert_eq!(smith.court.as_deref(), Some("ca9"), "court from the docket");
    assert_eq!(smith.docket_numbers, ["99-55555"]);
    assert_eq!(smith.opinions.len(), 2, "lead opinion and dissent");
    let text = library
        .store
        .read(|txn| lexstack::library::store::opinion_text(txn, "cl-101", smith.opinions[0].number))
        .unwrap()
        .unwrap();
    assert!(
        text.contains("called it \"a \\\"plain\\\" case\" at C:\\docs.\n"),
        "escapes and newlines: {text:?}"
    );

    let quoted = library.case("cl-102").unwrap().unwrap();
    assert_eq!(quoted.name, "In re \"Quoted\" Name, Inc.");
    assert_eq!(quoted.precedential_status.as_deref(), Some("Unpublished"));
    assert_eq!(
        quoted.syllabus.as_deref(),
        Some("A syllabus\nover two lines, with a backslash \\ in it.")
    );
    assert_eq!(quoted.citations.len(), 2);
    let unnamed = library.case("cl-104").unwrap().unwrap();
    assert!(
        unnamed.name.starts_with("Doe, an individual"),
        "NULL case_name falls back: {}",
        unnamed.name
    );
    assert_eq!(unnamed.decision_date, None);
    assert!(
        stdout.contains("with a warning (stored, less what each says was left out): 1")
            && stdout.contains(
                "opinion-clusters-2024-05-06.csv line 6: decision date \"2002-02-30\" is not a real date"
            ),
        "{stdout}"
    );

    let brown = library.case("scdb-1953-069").unwrap().unwrap();
    assert!(
        brown
            .provenance
            .iter()
            .any(|p| p.source == "courtlistener" && p.id == "103"),
        "joined by scdb_id"
    );
    assert!(brown.has_text());
    assert!(library.case("cl-103").unwrap().is_none());

    let edges = library
        .store
        .read(|txn| lexstack::library::store::cited_by_case(txn, "cl-101"))
        .unwrap();
    // The lead opinion cites it twice (its map row), the dissent once (a
    // later row): the case cites it as often as the most any record says.
    let to_quoted = edges.iter().find(|(to, _)| to == "cl-102").unwrap();
    assert_eq!(to_quoted.1.count, 2);
    assert_eq!(
        to_quoted.1.parentheticals,
        ["holding that a \"quoted\" name is a name"]
    );
    assert!(edges.iter().any(|(to, _)| to == "scdb-1953-069"));

    let found = library.lookup("245 F.3d 100").unwrap();
    assert_eq!(found.cases[0].case_id, "cl-101");
    let withheld = library.lookup("245 F.3d 1").unwrap();
    assert_eq!(
        withheld.verdict, "volume_not_held",
        "a citations file with a skipped row may lack cases of any volume it brings"
    );
    assert!(
        stdout.contains("are not counted as held completely"),
        "{stdout}"
    );
    let hits = library.search("Quoted Name", Some("case"), 3).unwrap();
    assert_eq!(hits[0].id, "cl-102");
    drop(library);

    // The same dump with the malformed row mended: its volumes are held.
    let mended = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("citations-") {
            let mut text = String::new();
            std::io::Read::read_to_string(
                &mut bzip2::read::BzDecoder::new(std::fs::File::open(&path).unwrap()),
                &mut text,
            )
            .unwrap();
            let mut rows: Vec<&str> = text.lines().filter(|l| !l.contains("\"x,")).collect();
            // A case of 246 F.3d whose page is not given yet: that volume
            // cannot be held, the others can.
            rows.push(r#""90","246","F.3d","7","1","101","2024-05-06 12:00:00+00","2024-05-06 12:00:00+00""#);
            rows.push(r#""91","246","F.3d","___","1","102","2024-05-06 12:00:00+00","2024-05-06 12:00:00+00""#);
            std::fs::write(
                mended.path().join("citations-2024-05-06.csv"),
                rows.join("\n") + "\n",
            )
            .unwrap();
        } else {
            std::fs::copy(&path, mended.path().join(name)).unwrap();
        }
    }
    let output = import(
        dir.path(),
        &["courtlistener", mended.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("not counted as held"), "{stdout}");
    let library = Library::open_read_only(dir.path()).unwrap();
    // Held, but 99 pages before its first case are more than a volume
    // leaves empty: the library cannot tell what is printed there.
    assert_eq!(
        library.lookup("245 F.3d 1").unwrap().verdict,
        "page_not_placed",
        "a full dump holds the volumes it has"
    );
    assert!(
        stdout.contains("246 F.3d ___ has no page number"),
        "{stdout}"
    );
    assert_eq!(
        library.lookup("246 F.3d 2").unwrap().verdict,
        "volume_not_held"
    );
}

/// A truncated compressed file fails its import (exit 1, naming the file),
/// keeps the rows before the break and holds none of its volumes.
#[test]
fn a_truncated_compressed_file_fails_its_import() {
    let (dir, output) = import_fixtures_with_a_file_cut("citations-", |bytes| {
        bytes.truncate(bytes.len() * 2 / 3);
    });
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("citations-2024-05-06.csv.bz2: unreadable")
            && stderr.contains("ends before its compressed data does"),
        "{stderr}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    assert_eq!(
        library.lookup("245 F.3d 1").unwrap().verdict,
        "volume_not_held"
    );
}

/// Imports the CourtListener fixtures into a new library, the file whose
/// name starts with `prefix` changed by `cut`: the data directory and the
/// import's output.
fn import_fixtures_with_a_file_cut(
    prefix: &str,
    cut: impl Fn(&mut Vec<u8>),
) -> (tempfile::TempDir, Output) {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixtures("courtlistener")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let mut bytes = std::fs::read(&path).unwrap();
        if name.starts_with(prefix) {
            cut(&mut bytes);
        }
        std::fs::write(input.path().join(name), bytes).unwrap();
    }
    let output = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["import", "courtlistener"])
        .arg(input.path())
        .output()
        .unwrap();
    (dir, output)
}

/// An uncompressed file cut inside a quoted field is cut short as surely
/// as a compressed one that ends early: its import fails, where it counted
/// one skipped row and succeeded.
#[test]
fn a_plain_file_cut_inside_a_quoted_field_fails_its_import() {
    let (_dir, output) = import_fixtures_with_a_file_cut("opinion-clusters-", |bytes| {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let last_line = text.trim_end().rfind('\n').unwrap() + 1;
        let inside_quotes = last_line + text[last_line..].find('"').unwrap() + 2;
        bytes.truncate(inside_quotes);
    });
    assert!(!output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("opinion-clusters-2024-05-06.csv: unreadable")
            && stdout.contains("the file ends inside a quoted field"),
        "{stdout}"
    );
}

/// The same for an SCDB file, which is read with the same CSV reader.
#[test]
fn an_scdb_file_cut_inside_a_quoted_field_fails_its_import() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let scdb =
        std::fs::read_to_string(fixtures("scdb/SCDB_fixture_caseCentered_Citation.csv")).unwrap();
    let last_line = scdb.trim_end().rfind('\n').unwrap() + 1;
    let inside_quotes = last_line + scdb[last_line..].find('"').unwrap() + 2;
    let path = input.path().join("scdb.csv");
    std::fs::write(&path, &scdb[..inside_quotes]).unwrap();
    let output = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["import", "scdb"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!output.status.success());
    // The rows before the cut are stored, and reported with the file.
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("could not be read: ")
            && said.contains("the file ends inside a quoted field"),
        "{said}"
    );
    assert!(rows_in(&said) > 0, "{said}");
}

/// A file that breaks off part-way (its header read, so the import began)
/// is listed and fails the import, once the dump's later tables are
/// imported: their rows that name what it did not bring are read again
/// when a mended file brings it.
#[test]
fn a_file_broken_part_way_does_not_keep_the_later_tables_out() {
    let dir = data_with_library();
    let before = counts(dir.path())["opinions"];
    let input = tempfile::tempdir().unwrap();
    let fixtures = fixtures("courtlistener");
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.starts_with("citations-") {
            std::fs::copy(&path, input.path().join(&name)).unwrap();
            continue;
        }
        // The citations, their rows repeated until the file is long enough
        // to break off after its header, gzipped and cut in half.
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut bzip2::read::BzDecoder::new(std::fs::File::open(&path).unwrap()),
            &mut text,
        )
        .unwrap();
        let (header, rows) = text.split_once('\n').unwrap();
        let long = format!("{header}\n{}", rows.repeat(2_000));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, long.as_bytes()).unwrap();
        let mut bytes = gz.finish().unwrap();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(input.path().join("citations-2024-05-06.csv.gz"), bytes).unwrap();
    }
    let stdout = import_with_unreadable_files(
        dir.path(),
        &["courtlistener", input.path().to_str().unwrap()],
        1,
    );
    assert!(
        stdout.contains("could not be read: ") && stdout.contains("citations-2024-05-06.csv.gz"),
        "{stdout}"
    );
    assert!(
        rows_in(&stdout) > 1_000,
        "the rows read before the break are counted: {stdout}"
    );
    assert!(
        counts(dir.path())["opinions"] > before,
        "no opinion was imported after the broken file: {stdout}"
    );
}

#[test]
fn re_running_an_import_changes_nothing() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    let first = import(dir.path(), &["courtlistener", fixtures.to_str().unwrap()]);
    assert!(rows_read(&first) > 0);
    let before = counts(dir.path());
    let again = import(dir.path(), &["courtlistener", fixtures.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(said.contains("already done"));
    assert_eq!(
        rows_read(&again),
        0,
        "unchanged files are not read again, those with malformed rows neither: {said}"
    );
    assert!(
        said.contains("skipped by an earlier import of these files")
            && said.contains("counted as held completely"),
        "{said}"
    );
    // ... and which rows those were, to mend.
    let first_said = String::from_utf8_lossy(&first.stdout);
    let skipped_rows: Vec<&str> = first_said
        .lines()
        .take_while(|line| !line.starts_with("  with a warning"))
        .filter(|line| line.starts_with("    ") && line.contains(" line "))
        .collect();
    assert!(!skipped_rows.is_empty(), "{first_said}");
    for row in skipped_rows {
        assert!(said.contains(row), "{row} is not listed again: {said}");
    }
    assert_eq!(counts(dir.path()), before);

    // The same rows under new file names are read again, and still change nothing.
    let renamed = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let entry = entry.unwrap();
        let name = entry
            .file_name()
            .to_string_lossy()
            .replace("2024-05-06", "2024-06-01");
        std::fs::copy(entry.path(), renamed.path().join(name)).unwrap();
    }
    import(
        dir.path(),
        &["courtlistener", renamed.path().to_str().unwrap()],
    );
    assert_eq!(counts(dir.path()), before);
}

/// A new build's default library replaces the old one in a library that
/// holds imported cases too, keeps them, and leaves the file as it is: a
/// compaction would read and rewrite the whole file (33 s at a million
/// cases), and later writes reuse the pages the rebuild freed.
#[test]
fn an_upgraded_default_library_keeps_imported_cases_in_place() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    import(dir.path(), &["courtlistener", fixtures.to_str().unwrap()]);
    let before = counts(dir.path());
    {
        let store = Store::open_library(dir.path()).unwrap();
        store
            .write(|txn| -> Result<(), lexstack::store::StoreError> {
                let mut writer = lexstack::library::store::LibraryWriter::new(txn)?;
                use lexstack::library::import::default::{DEFAULT_LIBRARY_VERSION, VERSION_KEY};
                writer.set_meta(VERSION_KEY, &(DEFAULT_LIBRARY_VERSION - 1))?;
                writer.finish()
            })
            .unwrap();
    }
    let file = dir.path().join(Layout::Library.file_name());
    let size_before = std::fs::metadata(&file).unwrap().len();

    let (library, rebuilt) = Library::open_with_default(dir.path()).unwrap();
    assert!(rebuilt.is_some(), "an older default library is rebuilt");
    drop(library);
    // Every embedded source's checkpoint names the version, so the next one
    // reads it again: SCDB's named only its file, and a new version's
    // reading of it never ran on an upgraded library.
    let checkpoints: Vec<String> = Store::open_library(dir.path())
        .unwrap()
        .read(|txn| -> Result<Vec<String>, lexstack::store::StoreError> {
            let table = txn.open_table(lexstack::store::tables::IMPORT_PROGRESS)?;
            let mut keys = Vec::new();
            for row in table.iter()? {
                keys.push(row?.0.value().to_string());
            }
            Ok(keys)
        })
        .unwrap();
    let version = format!(
        "default-v{}:",
        lexstack::library::import::default::DEFAULT_LIBRARY_VERSION
    );
    for source in ["scdb", "scotus_dates", "juriscraper"] {
        assert!(
            checkpoints
                .iter()
                .any(|key| key.starts_with(&version) && key.contains(source)),
            "{source}: {checkpoints:?}"
        );
    }
    assert_eq!(
        lexstack::library::default_version(&Store::open_library(dir.path()).unwrap()).unwrap(),
        Some(lexstack::library::import::default::DEFAULT_LIBRARY_VERSION)
    );
    assert_eq!(
        counts(dir.path()),
        before,
        "imported and default cases alike"
    );
    assert!(std::fs::metadata(&file).unwrap().len() >= size_before);
}

/// The index's files are as readable as the store's, whatever the umask
/// of the process that writes them: tantivy wrote `meta.json` through a
/// temporary file of mode 0600.
#[test]
fn the_index_files_an_import_writes_take_the_store_files_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = data_with_library();
    let index = dir.path().join("index");
    let names = || -> std::collections::BTreeSet<std::ffi::OsString> {
        std::fs::read_dir(&index)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect()
    };
    let copied = names();
    let store = dir.path().join("library.redb");
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o640)).unwrap();
    let fixtures = fixtures("courtlistener");
    import(
        dir.path(),
        &["courtlistener", "--partial", fixtures.to_str().unwrap()],
    );
    let written: Vec<_> = names()
        .into_iter()
        .filter(|name| !copied.contains(name) || name == "meta.json" || name == ".managed.json")
        .collect();
    assert!(written.len() > 2, "{written:?}");
    for name in written {
        let mode = std::fs::metadata(index.join(&name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "{name:?}");
    }
}

#[test]
fn partial_imports_do_not_claim_whole_volumes() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    import(
        dir.path(),
        &["courtlistener", "--partial", fixtures.to_str().unwrap()],
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    assert_eq!(
        library.lookup("245 F.3d 1").unwrap().verdict,
        "volume_not_held"
    );
    drop(library);

    // The same files imported as a whole dump afterwards hold their volumes.
    let dump = small_dump(
        &[("7201", "Alpha v. Beta", "2001-01-01", "")],
        &[("402", "F.3d", "5", "1", "7201")],
    );
    let path = dump.path().to_str().unwrap();
    import(dir.path(), &["courtlistener", "--partial", path]);
    let verdict = || {
        Library::open_read_only(dir.path())
            .unwrap()
            .lookup("402 F.3d 1")
            .unwrap()
            .verdict
    };
    assert_eq!(verdict(), "volume_not_held");
    import(dir.path(), &["courtlistener", path]);
    assert_eq!(verdict(), "page_not_placed", "held, before its first case");

    // A sample imported whole by mistake gives its volumes back.
    let forgot = lexstack_on(dir.path())
        .args([
            "library",
            "forget-coverage",
            "courtlistener",
            "--reporter",
            "F. 3d",
        ])
        .output()
        .unwrap();
    assert!(forgot.status.success());
    assert_eq!(
        String::from_utf8_lossy(&forgot.stdout).trim(),
        "volumes no longer held by courtlistener: 1"
    );
    assert_eq!(verdict(), "volume_not_held");

    // A mistyped source fails, naming the sources that hold volumes.
    let mistyped = lexstack_on(dir.path())
        .args(["library", "forget-coverage", "courtlisten"])
        .output()
        .unwrap();
    assert!(!mistyped.status.success());
    let said = String::from_utf8_lossy(&mistyped.stderr);
    assert!(
        said.contains("courtlisten holds no whole volumes; the sources that do: ")
            && said.contains("scdb"),
        "{said}"
    );
    // The label `library status` gives volumes held together names them
    // alone ...
    let us_volumes = |dir: &Path| {
        let status = Library::open_read_only(dir).unwrap().status().unwrap();
        status
            .reporters
            .iter()
            .find(|r| r.reporter == "U.S.")
            .map(|r| (r.volumes_held, r.ranges.clone()))
    };
    let (before, ranges) = us_volumes(dir.path()).unwrap();
    let together = ranges
        .iter()
        .find(|range| range.contains("(scotus_dates+scdb)"))
        .unwrap();
    let (first, last) = together.split_once(' ').unwrap().0.split_once('-').unwrap();
    let shared = last.parse::<usize>().unwrap() - first.parse::<usize>().unwrap() + 1;
    let label = lexstack_on(dir.path())
        .args(["library", "forget-coverage", "scotus_dates+scdb"])
        .output()
        .unwrap();
    assert!(label.status.success(), "{label:?}");
    assert_eq!(
        us_volumes(dir.path()).map(|(held, _)| held),
        Some(before - shared)
    );
    // ... and a source, named in any case, every volume it holds.
    let forgot = lexstack_on(dir.path())
        .args(["library", "forget-coverage", "SCDB"])
        .output()
        .unwrap();
    assert!(forgot.status.success());
    let status = Library::open_read_only(dir.path())
        .unwrap()
        .status()
        .unwrap();
    assert!(
        !status.reporters.iter().any(|r| r.reporter == "U.S."),
        "{:?}",
        status.reporters
    );

    // In a data directory with no library yet it says so, and builds none.
    let empty = tempfile::tempdir().unwrap();
    let nothing = lexstack_on(empty.path())
        .args(["library", "forget-coverage", "courtlistener"])
        .output()
        .unwrap();
    assert!(!nothing.status.success());
    assert!(
        String::from_utf8_lossy(&nothing.stderr).contains("no library in"),
        "{}",
        String::from_utf8_lossy(&nothing.stderr)
    );
    assert!(!empty.path().join(lexstack::store::LIBRARY_FILE).exists());
}

/// "Mend the rows and import again": the rows of other files that named
/// what was skipped are read again, and the mended cluster gets its court.
#[test]
fn a_mended_file_imported_again_completes_what_its_skipped_rows_held_back() {
    let dir = data_with_library();
    let dump = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dump.path().join(name), text).unwrap();
    write(
        "dockets-2024-05-06.csv",
        "\"id\",\"court_id\",\"docket_number\"\n\"901\",\"ca9\",\"01-100\"\n\"902\",\"ca9\",\"01-200\"\n",
    );
    let clusters = |second_id: &str| {
        format!(
            "\"id\",\"case_name\",\"date_filed\",\"docket_id\",\"precedential_status\"\n\
             \"7601\",\"Alpha v. Beta\",\"2001-01-01\",\"901\",\"Published\"\n\
             {second_id},\"Gamma v. Delta\",\"2001-01-02\",\"902\",\"Published\"\n"
        )
    };
    write("opinion-clusters-2024-05-06.csv", &clusters("\"7603\"x"));
    write(
        "citations-2024-05-06.csv",
        "\"id\",\"volume\",\"reporter\",\"page\",\"type\",\"cluster_id\"\n\
         \"1\",\"406\",\"F.3d\",\"10\",\"1\",\"7601\"\n\
         \"2\",\"406\",\"F.3d\",\"30\",\"1\",\"7603\"\n",
    );
    // Opinions bring opinion ids after the citations file is done: no
    // cluster id, so the citations file waits unread for the mended row.
    write(
        "opinions-2024-05-06.csv",
        "\"id\",\"cluster_id\",\"type\",\"plain_text\",\"html_with_citations\"\n\
         \"81\",\"7601\",\"010combined\",\"Alpha wins.\",\"\"\n\
         \"83\",\"7603\",\"010combined\",\"Gamma wins.\",\"\"\n",
    );
    let path = dump.path().to_str().unwrap();
    let first = import(dir.path(), &["courtlistener", path]);
    assert!(
        String::from_utf8_lossy(&first.stdout).contains("cluster 7603 is not in the library"),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    let verdict = |cite: &str| {
        Library::open_read_only(dir.path())
            .unwrap()
            .lookup(cite)
            .unwrap()
    };
    assert_eq!(verdict("406 F.3d 5").verdict, "volume_not_held");

    // Run again unchanged: nothing is read, the malformed row is not
    // reported again as new, and the dockets wait for the mended row.
    let again = import(dir.path(), &["courtlistener", path]);
    assert_eq!(
        rows_read(&again),
        0,
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    assert_eq!(verdict("406 F.3d 5").verdict, "volume_not_held");

    write("opinion-clusters-2024-05-06.csv", &clusters("\"7603\""));
    let mended = import(dir.path(), &["courtlistener", path]);
    assert!(
        String::from_utf8_lossy(&mended.stdout)
            .contains("read again: 1 of its rows named cases or opinions the library lacked"),
        "{}",
        String::from_utf8_lossy(&mended.stdout)
    );
    let gamma = verdict("406 F.3d 30");
    assert_eq!(gamma.verdict, "found");
    assert_eq!(gamma.cases[0].name, "Gamma v. Delta");
    assert_eq!(
        gamma.cases[0].court.as_deref(),
        Some("ca9"),
        "court from the kept docket"
    );
    assert_eq!(
        verdict("406 F.3d 5").verdict,
        "page_not_placed",
        "held, before its first case"
    );
}

/// A later file of the same source with a citation of a case the library
/// lacks (its cluster's row was skipped) says that case's volume lacks it:
/// a volume an earlier file held is no longer held, or the case would
/// answer as a fabrication. The file's other volumes stay held: the row is
/// whole, and names its volume.
#[test]
fn a_later_file_with_a_skipped_row_withdraws_the_volumes_it_brings() {
    let dir = data_with_library();
    let clean = small_dump(
        &[
            ("7701", "Alpha v. Beta", "2001-01-01", ""),
            ("7704", "Iota v. Kappa", "2001-03-01", ""),
        ],
        &[
            ("406", "F.3d", "10", "1", "7701"),
            ("407", "F.3d", "3", "1", "7704"),
        ],
    );
    import(
        dir.path(),
        &["courtlistener", clean.path().to_str().unwrap()],
    );
    let verdict = |cite: &str| {
        Library::open_read_only(dir.path())
            .unwrap()
            .lookup(cite)
            .unwrap()
            .verdict
    };
    assert_eq!(verdict("406 F.3d 5"), "page_not_placed", "held");
    assert_eq!(verdict("407 F.3d 1"), "not_in_held_volume");
    let later = small_dump(
        &[
            ("7701", "Alpha v. Beta", "2001-01-01", ""),
            ("7702", "Gamma v. Delta", "2001-02-01", ""),
            ("7704", "Iota v. Kappa", "2001-03-01", ""),
        ],
        &[
            ("406", "F.3d", "10", "1", "7701"),
            ("406", "F.3d", "200", "1", "7702"),
            ("407", "F.3d", "3", "1", "7704"),
        ],
    );
    let clusters = later.path().join("opinion-clusters-2024-05-06.csv");
    let text = std::fs::read_to_string(&clusters).unwrap();
    std::fs::write(&clusters, text.replace("\"7702\",", "\"7702\"x,")).unwrap();
    let output = import(
        dir.path(),
        &["courtlistener", later.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "line 3: cluster 7702 is not in the library (this file does not hold 406 F.3d completely)"
        ),
        "{stdout}"
    );
    assert_eq!(verdict("406 F.3d 5"), "volume_not_held");
    assert_eq!(verdict("407 F.3d 1"), "not_in_held_volume");
    // A volume held by another source stays held.
    assert_eq!(verdict("347 U.S. 5"), "found_by_page_range");

    // A malformed row may be a case of any volume: none stays held.
    let malformed = small_dump(
        &[("7704", "Iota v. Kappa", "2001-03-01", "")],
        &[
            ("407", "F.3d", "3", "1", "7704"),
            ("x", "F.3d", "9", "1", "7704"),
        ],
    );
    let citations = malformed.path().join("citations-2024-05-06.csv");
    std::fs::rename(
        &citations,
        malformed.path().join("citations-2024-07-01.csv"),
    )
    .unwrap();
    let output = import(
        dir.path(),
        &["courtlistener", malformed.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("are not counted as held completely"),
        "{stdout}"
    );
    assert_eq!(verdict("407 F.3d 1"), "volume_not_held");
}

/// The default library's own SCDB file imported again changes nothing: a
/// citation another source gave a decision SCDB gives (Dobbs's U.S. cite,
/// from the table of overruled decisions; SCDB has none yet) stays.
#[test]
fn the_default_librarys_scdb_imported_again_changes_nothing() {
    let dir = data_with_library();
    let scdb = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/library/scotus/SCDB_2024_01_caseCentered_Docket.csv.gz");
    let before = counts(dir.path());
    let output = import(dir.path(), &["scdb", scdb.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("indexed 0 records"), "{stdout}");
    assert_eq!(counts(dir.path()), before);
    let dobbs = Library::open_read_only(dir.path())
        .unwrap()
        .lookup("597 U.S. 215")
        .unwrap();
    assert_eq!(dobbs.cases[0].case_id, "scdb-2021-019");
}

/// The report lists the first skipped rows and counts the rest.
#[test]
fn a_report_counts_the_skipped_rows_it_does_not_list() {
    let dir = data_with_library();
    let citations: Vec<(&str, &str, &str, &str, &str)> = vec![("x", "F.3d", "10", "1", "7701"); 60];
    let dump = small_dump(&[("7701", "Alpha v. Beta", "2001-01-01", "")], &citations);
    let output = import(
        dir.path(),
        &["courtlistener", dump.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let listed = stdout
        .lines()
        .filter(|line| line.contains("is not a volume number"))
        .count();
    assert_eq!(listed, 50, "{stdout}");
    assert!(
        stdout.contains("… and 10 more, not listed here"),
        "{stdout}"
    );
}

/// A file corrected in place, at the same size, is read again.
#[test]
fn a_file_corrected_at_the_same_size_is_read_again() {
    let dir = data_with_library();
    let dump = small_dump(
        &[("7301", "Gamma v. Detla", "2001-01-01", "")],
        &[("403", "F.3d", "5", "1", "7301")],
    );
    let path = dump.path().to_str().unwrap();
    import(dir.path(), &["courtlistener", path]);
    let clusters = dump.path().join("opinion-clusters-2024-05-06.csv");
    let text = std::fs::read_to_string(&clusters)
        .unwrap()
        .replace("Detla", "Delta");
    std::fs::write(&clusters, text).unwrap();
    let later = std::time::SystemTime::now() + Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&clusters)
        .unwrap()
        .set_modified(later)
        .unwrap();
    import(dir.path(), &["courtlistener", path]);
    let library = Library::open_read_only(dir.path()).unwrap();
    assert_eq!(
        library.lookup("403 F.3d 5").unwrap().cases[0].name,
        "Gamma v. Delta"
    );
}

#[test]
fn a_killed_import_resumes_where_it_stopped() {
    let bulk = generated_dump(&["--clusters", "1500", "--opinion-bytes", "300"]);

    let clean = data_with_library();
    let clean_run = import(clean.path(), &in_batches(&bulk, "100"));
    let expected = counts(clean.path());

    let killed = data_with_library();
    let batches = in_batches(&bulk, "100");
    let mut child = spawn_import(killed.path(), &batches, Stdio::null());
    kill_once_rows_are_committed(&mut child, killed.path(), "courtlistener-opinion-clusters");
    // A store killed mid-write is repaired by the next writable open.
    let partial = Library::open(killed.path()).unwrap().status().unwrap();
    assert!(
        partial
            .counts
            .get("source:courtlistener")
            .copied()
            .unwrap_or(0)
            < 1500,
        "killed mid-way"
    );
    assert!(
        partial.index_pending > 0,
        "status tells of records not yet searchable"
    );
    // ... and of the file left unfinished, which indexing the records it
    // stored (as a server start does) does not finish.
    let unfinished = |status: &lexstack::library::LibraryStatus| -> Vec<String> {
        status
            .unfinished_imports
            .iter()
            .map(|import| format!("{} {}", import.kind, import.file))
            .collect()
    };
    let library = Library::open(killed.path()).unwrap();
    library.index_pending().unwrap();
    let stopped = unfinished(&library.status().unwrap());
    drop(library);
    assert!(
        stopped
            .iter()
            .any(|file| file.starts_with("courtlistener-opinion-clusters opinion-clusters-")),
        "{stopped:?}"
    );
    // The folder too, which a kill between two files leaves listed alone.
    let folder = bulk.path().file_name().unwrap().to_string_lossy();
    assert!(
        stopped.contains(&format!("courtlistener-dump {folder}")),
        "{stopped:?}"
    );

    let resumed = import(killed.path(), &in_batches(&bulk, "100"));
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("already done"));
    assert_eq!(counts(killed.path()), expected);
    let finished = Library::open_read_only(killed.path())
        .unwrap()
        .status()
        .unwrap();
    assert_eq!(unfinished(&finished), Vec::<String>::new());
    // The killed run indexed nothing: the resumed one indexes all of it, once.
    let indexed_line = |output: &Output| {
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .find(|line| line.starts_with("indexed "))
            .map(str::to_string)
    };
    assert_eq!(indexed_line(&resumed), indexed_line(&clean_run));
    let documents = |dir: &Path| {
        let status = Library::open_read_only(dir).unwrap().status().unwrap();
        (status.index_documents, status.index_pending)
    };
    assert_eq!(documents(killed.path()), documents(clean.path()));
    assert_eq!(documents(clean.path()).1, 0);
}

/// Names as a reader is shown them (no NUL, no right-to-left override),
/// and what a case lacks or gives wrong said, not stored in silence.
#[test]
fn cap_names_are_shown_clean_and_what_a_case_lacks_is_said() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let file = input.path().join("odd.jsonl");
    let case = |id: u32, name: Value, first: u32, last: u32| {
        json!({
            "id": id,
            "name": name,
            "decision_date": "2001-05-01",
            "first_page": first.to_string(),
            "last_page": last.to_string(),
            "citations": [{ "cite": format!("201 Ill. 2d {first}"), "type": "official" }],
        })
        .to_string()
    };
    let lines = [
        case(7001, json!("CTRL\u{0}CHARS\u{202e} v. ROW"), 10, 20),
        case(7002, Value::Null, 30, 40),
        case(7003, json!("Late v. Early"), 70, 60),
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let output = import(dir.path(), &["cap", "--partial", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("line 2: has no name (name and name_abbreviation are empty)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("line 3: last_page 60 comes before first_page 70"),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let shown = library.case("cap-7001").unwrap().unwrap();
    assert_eq!(shown.name, "CTRL CHARS v. ROW");
    let late = library.case("cap-7003").unwrap().unwrap();
    assert_eq!(late.citations[0].last_page, None);
}

/// Each file of a CAP folder stands alone: one that cannot be read (a
/// compressed stream that is none, a volume folder without its list of
/// cases) is named and fails the import, once the others are imported.
#[test]
fn a_cap_file_that_cannot_be_read_does_not_keep_the_others_out() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(fixtures("cap/legacy.jsonl")).unwrap();
    let first_case = good.lines().next().unwrap();
    std::fs::write(input.path().join("z.jsonl"), first_case).unwrap();
    std::fs::write(input.path().join("b.jsonl.xz"), "not xz").unwrap();
    let volume = input.path().join("ill-2d/204");
    std::fs::create_dir_all(&volume).unwrap();
    std::fs::write(volume.join("VolumeMetadata.json"), "{}").unwrap();
    let stdout = import_with_unreadable_files(
        dir.path(),
        &["cap", "--partial", input.path().to_str().unwrap()],
        2,
    );
    assert!(
        stdout.contains("could not be read: ") && stdout.contains("b.jsonl.xz"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "ill-2d/204: a volume folder (VolumeMetadata.json) without CasesMetadata.json"
        ),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    assert!(
        library.case("cap-9001").unwrap().is_some(),
        "z.jsonl was imported"
    );
}

#[test]
fn cap_legacy_jsonl_and_static_layout() {
    let dir = data_with_library();
    let output = import(
        dir.path(),
        &[
            "cap",
            "--partial",
            fixtures("cap/legacy.jsonl").to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("legacy.jsonl line 3 column"), "{stdout}");
    let library = Library::open_read_only(dir.path()).unwrap();
    let alpha = library.case("cap-9001").unwrap().unwrap();
    assert_eq!(
        alpha.name_abbreviation.as_deref(),
        Some("Alpha Corp. v. Beta Quote LLC")
    );
    assert_eq!(alpha.citations[0].last_page, Some(108));
    let text = library
        .store
        .read(|txn| lexstack::library::store::opinion_text(txn, "cap-9001", 0))
        .unwrap()
        .unwrap();
    assert!(
        text.contains("We affirm & remand."),
        "XML casebody as text: {text:?}"
    );
    // Its <opinion> element is the opinion, with its type and author; what
    // comes before is the head matter.
    assert_eq!(alpha.opinions[0].kind, "majority");
    assert_eq!(
        alpha.opinions[0].author.as_deref(),
        Some("JUSTICE SMITH delivered the opinion of the court:")
    );
    assert!(alpha.head_matter.is_some(), "{alpha:?}");
    let gamma = library.case("cap-9002").unwrap().unwrap();
    assert_eq!(gamma.opinions.len(), 2);
    assert_eq!(gamma.judges.as_deref(), Some("Smith; Jones"));
    let edges = library
        .store
        .read(|txn| lexstack::library::store::cited_by_case(txn, "cap-9001"))
        .unwrap();
    let (_, to_gamma) = edges
        .iter()
        .find(|(to, _)| to == "cap-9002")
        .expect("the citation read from the text waited for its case");
    let at = to_gamma
        .passage
        .expect("the edge knows where the text cites");
    let passage = library
        .store
        .read(|txn| lexstack::library::store::passage(txn, "cap-9001", at))
        .unwrap()
        .unwrap();
    assert!(
        passage.contains("See Gamma v. Delta, 359 Ill. App. 3d 120"),
        "{passage:?}"
    );
    // CAP's own links add what the text does not say: Brown, three times,
    // with its pin cite's parenthetical.
    let (_, to_brown) = edges
        .iter()
        .find(|(to, _)| to == "scdb-1953-069")
        .expect("cites_to links a case with text too");
    assert_eq!(to_brown.count, 3);
    assert_eq!(to_brown.parentheticals, ["separate schools are unequal"]);
    assert_eq!(
        library.lookup("359 Ill. App. 3d 104").unwrap().verdict,
        "found_by_page_range"
    );
    drop(library);

    // Links back up the tree are followed once, not for ever.
    let tree = static_tree_copy();
    let root = tree.path().join("static");
    std::os::unix::fs::symlink("..", root.join("redacted/loop")).unwrap();
    std::os::unix::fs::symlink(&root, root.join("redacted/self")).unwrap();
    let fresh = data_with_library();
    let output = import(fresh.path(), &["cap", root.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("already done         0"),
        "each volume once: {stdout}"
    );
    // A broken case file is a skipped row naming it, not a case without text.
    let broken_file = root.join("redacted/us/2/cases/0001-01.json");
    let intact = std::fs::read(&broken_file).unwrap();
    std::fs::write(&broken_file, "{broken").unwrap();
    let broken = data_with_library();
    let output = import(broken.path(), &["cap", root.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("0001-01.json line 1 column") && stdout.contains("skipped      1"),
        "{stdout}"
    );
    // Mended, the same tree is read again (the case files are in its
    // checkpoint) and the case gets its text.
    std::fs::write(&broken_file, intact).unwrap();
    let output = import(broken.path(), &["cap", root.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("skipped      0"), "{stdout}");
    // A volume whose case list is broken is named, and the import fails
    // for it once the others are imported.
    let metadata = root.join("redacted/us/1/CasesMetadata.json");
    let intact_metadata = std::fs::read(&metadata).unwrap();
    std::fs::write(&metadata, "[{\"id\": ").unwrap();
    let one_broken = data_with_library();
    let stdout =
        import_with_unreadable_files(one_broken.path(), &["cap", root.to_str().unwrap()], 1);
    assert!(
        stdout.contains("could not be read: ")
            && stdout.contains("us/1/CasesMetadata.json: EOF while parsing a value at line 1 column 8; the volume is not imported"),
        "{stdout}"
    );
    assert!(stdout.contains("skipped      0"), "{stdout}");
    std::fs::write(&metadata, intact_metadata).unwrap();
    // A volume listing one case twice keeps the first entry and names the
    // second; an entry that is no JSON object is named as no case.
    let listing = root.join("redacted/us/2/CasesMetadata.json");
    let mut entries: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&listing).unwrap()).unwrap();
    entries.push(entries[0].clone());
    let repeated_entry = entries.len();
    entries.push(json!([1, 2, 3]));
    let array_entry = entries.len();
    std::fs::write(&listing, serde_json::to_vec(&entries).unwrap()).unwrap();
    let repeated = data_with_library();
    let output = import(repeated.path(), &["cap", root.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "entry {repeated_entry}: case id 4 appears again (first as entry 1)"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "entry {array_entry}: expected a CAP case (a JSON object)"
        )),
        "{stdout}"
    );
    let library = Library::open_read_only(one_broken.path()).unwrap();
    let found = |name: &str| !library.search(name, Some("case"), 3).unwrap().is_empty();
    assert!(found("Foo3 Bar3"), "volume 2 is imported");
    assert!(!found("Foo0 Bar0"), "volume 1 is not");
    drop(library);
    let library = Library::open_read_only(fresh.path()).unwrap();
    let foo = library.search("Foo0 Bar0", Some("case"), 3).unwrap();
    assert!(!foo.is_empty(), "static cases are searchable");
    let case = library.case(&foo[0].id).unwrap().unwrap();
    assert!(case.has_text(), "casebody read from cases/*.json");
    let url = case.source_url.as_deref().unwrap_or_default();
    assert!(
        url.starts_with("https://static.case.law/us/1/cases/") && url.ends_with(".json"),
        "{url}"
    );
}

/// A copy of the CAP static-layout fixture, to change (its tree is under
/// `static/`).
fn static_tree_copy() -> tempfile::TempDir {
    let tree = tempfile::tempdir().unwrap();
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(fixtures("cap/static"))
        .arg(tree.path())
        .status()
        .unwrap();
    assert!(copied.success());
    tree
}

/// A static layout's folder is one volume: its cases make that volume held,
/// not the volumes their citations name; a case cited outside it is named
/// and the folder's volume is not held.
#[test]
fn a_static_folder_holds_only_its_own_volume() {
    let tree = static_tree_copy();
    let volume_one = tree.path().join("static/redacted/us/1/CasesMetadata.json");
    let listing = std::fs::read_to_string(&volume_one).unwrap();
    std::fs::write(&volume_one, listing.replace("1 Mass. 1", "1 U.S. 3")).unwrap();
    let dir = data_with_library();
    let output = import(
        dir.path(),
        &["cap", tree.path().join("static").to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("its official citation (1 U.S. 1) is not in the folder's volume (2 U.S.)"),
        "{stdout}"
    );
    let status = Library::open_read_only(dir.path())
        .unwrap()
        .status()
        .unwrap();
    let held_by_cap: Vec<String> = status
        .reporters
        .iter()
        .flat_map(|r| {
            r.ranges
                .iter()
                .map(move |range| format!("{} {range}", r.reporter))
        })
        .filter(|range| range.contains("(cap)"))
        .collect();
    assert_eq!(held_by_cap, ["U.S. 1 (cap)"], "{stdout}");
}

/// A folder whose metadata named no reporter is read again once the
/// metadata the import's warning pointed at is there: its volume is then
/// held, where a checkpoint on its case files alone called it done.
#[test]
fn a_static_folder_mended_after_its_warning_is_read_again() {
    let tree = static_tree_copy();
    let root = tree.path().join("static");
    // Volume 1's cases all in it, as in the test above: it can be held.
    let volume_one = root.join("redacted/us/1/CasesMetadata.json");
    let listing = std::fs::read_to_string(&volume_one).unwrap();
    std::fs::write(&volume_one, listing.replace("1 Mass. 1", "1 U.S. 3")).unwrap();
    let reporter_metadata = root.join("redacted/us/ReporterMetadata.json");
    let kept = std::fs::read(&reporter_metadata).unwrap();
    std::fs::remove_file(&reporter_metadata).unwrap();
    let dir = data_with_library();
    let held_by_cap = || {
        let status = Library::open_read_only(dir.path())
            .unwrap()
            .status()
            .unwrap();
        status
            .reporters
            .iter()
            .flat_map(|r| {
                r.ranges
                    .iter()
                    .map(move |range| format!("{} {range}", r.reporter))
            })
            .filter(|range| range.contains("(cap)"))
            .collect::<Vec<_>>()
    };
    let output = import(dir.path(), &["cap", root.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("names no reporter and volume"), "{stdout}");
    assert!(held_by_cap().is_empty(), "{:?}", held_by_cap());

    std::fs::write(&reporter_metadata, kept).unwrap();
    let output = import(dir.path(), &["cap", root.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("names no reporter and volume"), "{stdout}");
    assert_eq!(held_by_cap(), ["U.S. 1 (cap)"], "{stdout}");
}

/// A source's corrected file (here under a new name, so it is not skipped
/// as done) replaces what that source gave: a name, and a date it no longer
/// gives; what another source gave stays.
#[test]
fn a_corrected_re_import_replaces_what_its_source_gave() {
    let dir = data_with_library();
    let original = fixtures("cap/legacy.jsonl");
    import(
        dir.path(),
        &["cap", "--partial", original.to_str().unwrap()],
    );
    let before = Library::open_read_only(dir.path())
        .unwrap()
        .case("cap-9002")
        .unwrap()
        .unwrap();
    assert_eq!(before.decision_date.as_deref(), Some("2005-09-01"));

    let corrected = tempfile::tempdir().unwrap();
    let corrected_file = corrected.path().join("legacy-corrected.jsonl");
    let text = std::fs::read_to_string(&original).unwrap();
    let gamma = text.lines().find(|l| l.contains("\"id\": 9002")).unwrap();
    let mended = gamma
        .replace(
            "\"name_abbreviation\": \"Gamma v. Delta\"",
            "\"name_abbreviation\": \"Gamma Mills v. Delta\"",
        )
        .replace(
            "\"decision_date\": \"2005-09-01\"",
            "\"decision_date\": \"2005-02-30\"",
        );
    assert_ne!(mended, gamma);
    std::fs::write(&corrected_file, text.replace(gamma, &mended)).unwrap();
    let output = import(
        dir.path(),
        &["cap", "--partial", corrected_file.to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "legacy-corrected.jsonl line 2: decision date \"2005-02-30\" is not a real date"
        ),
        "{stdout}"
    );

    let library = Library::open_read_only(dir.path()).unwrap();
    let after = library.case("cap-9002").unwrap().unwrap();
    assert_eq!(
        after.name_abbreviation.as_deref(),
        Some("Gamma Mills v. Delta")
    );
    assert_eq!(
        after.decision_date, None,
        "the corrected file has no real date"
    );
    assert_eq!(after.judges, before.judges);
    assert_eq!(after.citations, before.citations);
    let found = library.search("Gamma Mills", Some("case"), 3).unwrap();
    assert_eq!(found.first().map(|f| f.id.as_str()), Some("cap-9002"));
}

/// A corrected clusters file read in a later run, without the dockets
/// (which an import keeps only while it runs), keeps the court an earlier
/// run gave and takes the corrected name.
#[test]
fn a_corrected_clusters_file_keeps_the_court_of_an_earlier_run() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    import(dir.path(), &["courtlistener", fixtures.to_str().unwrap()]);
    let corrected = tempfile::tempdir().unwrap();
    let clusters =
        std::fs::read_to_string(fixtures.join("opinion-clusters-2024-05-06.csv")).unwrap();
    std::fs::write(
        corrected.path().join("opinion-clusters-2024-06-01.csv"),
        clusters.replace("\"Smith v. Jones\"", "\"Smith v. Jonas\""),
    )
    .unwrap();
    import(
        dir.path(),
        &[
            "courtlistener",
            "--partial",
            corrected.path().to_str().unwrap(),
        ],
    );
    let smith = Library::open_read_only(dir.path())
        .unwrap()
        .case("cl-101")
        .unwrap()
        .unwrap();
    assert_eq!(smith.name, "Smith v. Jonas");
    assert_eq!(smith.court.as_deref(), Some("ca9"));
    assert_eq!(smith.docket_numbers, ["99-55555"]);
}

/// Dockets imported in a run of their own give the clusters of a later run
/// their courts and docket numbers, as the same files imported at once do.
#[test]
fn dockets_imported_alone_give_a_later_runs_clusters_their_courts() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    let (dockets, clusters) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (name, into) in [
        ("courts-2024-05-06.csv", &dockets),
        ("dockets-2024-05-06.csv", &dockets),
        ("opinion-clusters-2024-05-06.csv", &clusters),
        ("citations-2024-05-06.csv.bz2", &clusters),
    ] {
        std::fs::copy(fixtures.join(name), into.path().join(name)).unwrap();
    }
    for dump in [&dockets, &clusters] {
        import(
            dir.path(),
            &["courtlistener", "--partial", dump.path().to_str().unwrap()],
        );
    }
    let smith = Library::open_read_only(dir.path())
        .unwrap()
        .case("cl-101")
        .unwrap()
        .unwrap();
    assert_eq!(smith.court.as_deref(), Some("ca9"));
    assert_eq!(smith.docket_numbers, ["99-55555"]);
}

/// Clusters imported before any dockets get no court, and the report says
/// so; once the dockets are imported, the clusters file is read again and
/// they get their courts and docket numbers.
#[test]
fn clusters_imported_before_their_dockets_get_their_courts_once_the_dockets_come() {
    let dir = data_with_library();
    let fixtures = fixtures("courtlistener");
    let dump = tempfile::tempdir().unwrap();
    let copy = |name: &str| {
        std::fs::copy(fixtures.join(name), dump.path().join(name)).unwrap();
    };
    copy("opinion-clusters-2024-05-06.csv");
    let args = ["courtlistener", "--partial", dump.path().to_str().unwrap()];
    let first = import(dir.path(), &args);
    let report = String::from_utf8_lossy(&first.stdout);
    assert!(
        report.contains("clusters name a docket, but the library held no dockets"),
        "{report}"
    );
    let smith = |dir: &Path| {
        Library::open_read_only(dir)
            .unwrap()
            .case("cl-101")
            .unwrap()
            .unwrap()
    };
    assert_eq!(smith(dir.path()).court, None);
    copy("courts-2024-05-06.csv");
    copy("dockets-2024-05-06.csv");
    let second = import(dir.path(), &args);
    let report = String::from_utf8_lossy(&second.stdout);
    assert!(
        report.contains("read again: an earlier run read it before the dockets"),
        "{report}"
    );
    assert_eq!(smith(dir.path()).court.as_deref(), Some("ca9"));
    assert_eq!(smith(dir.path()).docket_numbers, ["99-55555"]);
    // Read again once: a third run finds every file done.
    let third = import(dir.path(), &args);
    let report = String::from_utf8_lossy(&third.stdout);
    assert!(!report.contains("read again"), "{report}");
    // Dockets brought from a folder of their own name the clusters files
    // waiting for them, which are read again with their folder.
    let dir = data_with_library();
    let (clusters, dockets) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (name, into) in [
        ("opinion-clusters-2024-05-06.csv", &clusters),
        ("courts-2024-05-06.csv", &dockets),
        ("dockets-2024-05-06.csv", &dockets),
    ] {
        std::fs::copy(fixtures.join(name), into.path().join(name)).unwrap();
    }
    let import_folder = |folder: &tempfile::TempDir| {
        let output = import(
            dir.path(),
            &[
                "courtlistener",
                "--partial",
                folder.path().to_str().unwrap(),
            ],
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    import_folder(&clusters);
    let report = import_folder(&dockets);
    assert!(
        report.contains("read before any dockets wait for these: opinion-clusters-2024-05-06.csv"),
        "{report}"
    );
    let report = import_folder(&clusters);
    assert!(report.contains("read again"), "{report}");
    assert_eq!(smith(dir.path()).court.as_deref(), Some("ca9"));
}

/// A dump whose volumes mostly hold a case or two is likely a sample
/// imported as a whole dump: the report says what that costs and how to
/// undo it. With `--partial` nothing is held, and nothing is said.
#[test]
fn a_sample_imported_as_a_whole_dump_is_pointed_out() {
    let fixtures = fixtures("courtlistener");
    let dump = tempfile::tempdir().unwrap();
    for name in [
        "courts-2024-05-06.csv",
        "dockets-2024-05-06.csv",
        "opinion-clusters-2024-05-06.csv",
    ] {
        std::fs::copy(fixtures.join(name), dump.path().join(name)).unwrap();
    }
    std::fs::write(
        dump.path().join("citations-2024-05-06.csv"),
        "\"id\",\"volume\",\"reporter\",\"page\",\"type\",\"cluster_id\"\n\
         \"1\",\"245\",\"F.3d\",\"100\",\"1\",\"101\"\n\
         \"2\",\"24\",\"Cal. 4th\",\"500\",\"2\",\"102\"\n",
    )
    .unwrap();
    let dump = dump.path().to_str().unwrap();
    let whole = data_with_library();
    let report = import(whole.path(), &["courtlistener", dump]);
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(
        report.contains(
            "2 of the 2 volumes it brings, now counted as held completely, hold 2 cases or fewer"
        ) && report.contains("lexstack library forget-coverage courtlistener"),
        "{report}"
    );
    let partial = data_with_library();
    let report = import(partial.path(), &["courtlistener", "--partial", dump]);
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(
        !report.contains("now counted as held completely"),
        "{report}"
    );
}

/// An import that stored none of the rows it read, every one skipped,
/// fails, so a script sees nothing was imported.
#[test]
fn an_import_that_skips_every_row_fails() {
    let dir = data_with_library();
    let dump = tempfile::tempdir().unwrap();
    std::fs::write(
        dump.path().join("citations-2024-05-06.csv"),
        "\"id\",\"volume\",\"reporter\",\"page\",\"type\",\"cluster_id\"\n\
         \"1\",\"1\",\"F.3d\",\"8\",\"1\",\"424242\"\n",
    )
    .unwrap();
    let stderr = failed_import(dir.path(), "courtlistener", dump.path());
    assert!(
        stderr.contains("every row this import read was skipped (1 rows"),
        "{stderr}"
    );
}

/// A page past a case's known last page is not that case's: in a volume a
/// bulk dump holds, nothing starts or runs there, unless more pages lie
/// between that case and the next (or before the first case) than a
/// volume leaves empty: a case the file lacks may be printed there.
#[test]
fn a_page_after_a_cases_last_page_is_not_that_case() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let file = input.path().join("volume.jsonl");
    let case = |id: u32, name: &str, first: u32, last: u32| {
        serde_json::json!({
            "id": id, "name": name, "decision_date": "2010-01-05",
            "first_page": first.to_string(), "last_page": last.to_string(),
            "citations": [{ "cite": format!("900 Ill. App. 3d {first}"), "type": "official" }],
        })
        .to_string()
    };
    let lines = [
        case(8101, "ALPHA v. BETA", 3, 12),
        case(8105, "IOTA v. KAPPA", 14, 20),
        case(8102, "GAMMA v. DELTA", 500, 510),
    ];
    // Written with a byte-order mark, as a spreadsheet export would be, and
    // a blank line at the end, which is no row.
    std::fs::write(&file, "\u{feff}".to_string() + &lines.join("\n") + "\n\n").unwrap();
    import(dir.path(), &["cap", file.to_str().unwrap()]);
    let library = Library::open_read_only(dir.path()).unwrap();
    let verdict = |cite: &str| library.lookup(cite).unwrap().verdict;
    assert_eq!(verdict("900 Ill. App. 3d 11"), "found_by_page_range");
    assert_eq!(verdict("900 Ill. App. 3d 13"), "not_in_held_volume");
    assert_eq!(verdict("900 Ill. App. 3d 1"), "not_in_held_volume");
    assert_eq!(verdict("900 Ill. App. 3d 400"), "page_not_placed");
    assert_eq!(verdict("900 Ill. App. 3d 511"), "page_not_placed");
    drop(library);

    // A third case with no citation is somewhere in the file's volumes: none
    // of them is held.
    let unpaged = serde_json::json!({ "id": 8103, "name": "EPSILON v. ZETA", "citations": [] });
    let with_unpaged = input.path().join("volume-with-unpaged.jsonl");
    std::fs::write(
        &with_unpaged,
        format!("{}\n{}\n{unpaged}\n", lines[0], lines[2]),
    )
    .unwrap();
    let fresh = data_with_library();
    let output = import(fresh.path(), &["cap", with_unpaged.to_str().unwrap()]);
    assert_eq!(rows_read(&output), 3, "the report's rows are read");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("line 3: the case has no official citation with a volume and page"),
        "{stdout}"
    );
    let library = Library::open_read_only(fresh.path()).unwrap();
    assert_eq!(
        library.lookup("900 Ill. App. 3d 400").unwrap().verdict,
        "volume_not_held"
    );
    drop(library);
    // Nothing was skipped: the file is done, and not read again.
    let again = import(fresh.path(), &["cap", with_unpaged.to_str().unwrap()]);
    assert_eq!(rows_read(&again), 0);

    // The official reporter's volume is held, not a parallel regional one
    // listed first: 502 N.E.2d holds other states' cases too.
    let parallel_first = serde_json::json!({
        "id": 8104, "name": "ETA v. THETA", "decision_date": "1986-12-01",
        "first_page": "200", "last_page": "204",
        "citations": [
            { "cite": "502 N.E.2d 300", "type": "parallel" },
            { "cite": "150 Ill. App. 3d 200", "type": "official" },
        ],
    });
    let file = input.path().join("parallel-first.jsonl");
    std::fs::write(&file, format!("{parallel_first}\n")).unwrap();
    let fresh = data_with_library();
    import(fresh.path(), &["cap", file.to_str().unwrap()]);
    let library = Library::open_read_only(fresh.path()).unwrap();
    let verdict = |cite: &str| library.lookup(cite).unwrap().verdict;
    assert_eq!(verdict("150 Ill. App. 3d 100"), "page_not_placed", "held");
    assert_eq!(verdict("502 N.E.2d 1"), "volume_not_held");
    assert_eq!(verdict("502 N.E.2d 300"), "found");
}

/// A CourtListener dump of clusters (id, name, date, scdb_id, an empty one
/// being NULL) and citations (volume, reporter, page, type, cluster), with
/// the columns the importer needs, every value quoted.
fn small_dump(
    clusters: &[(&str, &str, &str, &str)],
    citations: &[(&str, &str, &str, &str, &str)],
) -> tempfile::TempDir {
    let dump = tempfile::tempdir().unwrap();
    let quoted = |value: &str| {
        if value.is_empty() {
            String::new()
        } else {
            format!("\"{value}\"")
        }
    };
    let mut rows = String::from(
        "\"id\",\"case_name\",\"date_filed\",\"scdb_id\",\"docket_id\",\"precedential_status\",\"slug\"\n",
    );
    for (id, name, date, scdb_id) in clusters {
        rows += &format!(
            "\"{id}\",\"{name}\",\"{date}\",{},,\"Published\",\"case\"\n",
            quoted(scdb_id)
        );
    }
    std::fs::write(dump.path().join("opinion-clusters-2024-05-06.csv"), rows).unwrap();
    let mut rows =
        String::from("\"id\",\"volume\",\"reporter\",\"page\",\"type\",\"cluster_id\"\n");
    for (n, (volume, reporter, page, kind, cluster)) in citations.iter().enumerate() {
        rows +=
            &format!("\"{n}\",\"{volume}\",\"{reporter}\",\"{page}\",\"{kind}\",\"{cluster}\"\n");
    }
    std::fs::write(dump.path().join("citations-2024-05-06.csv"), rows).unwrap();
    dump
}

/// The arguments of `lexstack import courtlistener --batch-rows ROWS DUMP`.
fn in_batches<'a>(dump: &'a tempfile::TempDir, rows: &'a str) -> [&'a str; 4] {
    [
        "courtlistener",
        "--batch-rows",
        rows,
        dump.path().to_str().unwrap(),
    ]
}

/// A synthetic CourtListener dump, `lexstack dev gen-courtlistener OPTIONS`.
fn generated_dump(options: &[&str]) -> tempfile::TempDir {
    let bulk = tempfile::tempdir().unwrap();
    let generated = lexstack()
        .args(["dev", "gen-courtlistener"])
        .args(options)
        .arg(bulk.path())
        .output()
        .unwrap();
    assert!(generated.status.success());
    // Its made-up cases sit at real citations: it says where to import it.
    assert!(
        String::from_utf8_lossy(&generated.stderr).contains("a data directory of their own"),
        "{generated:?}"
    );
    bulk
}

/// Starts `lexstack import ARGS` on `data` (to be killed or stopped), its
/// stderr going to `stderr`.
// The caller owns the child and waits for it.
#[allow(clippy::zombie_processes)]
fn spawn_import(data: &Path, args: &[&str], stderr: Stdio) -> Child {
    lexstack()
        .arg("--data")
        .arg(data)
        .arg("import")
        .args(args)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// Kills an import (SIGKILL) once it has committed rows of a file whose
/// checkpoint key starts with `key_prefix`.
fn kill_once_rows_are_committed(child: &mut Child, data: &Path, key_prefix: &str) {
    wait_until_rows_are_committed(child, data, key_prefix);
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Waits until an import has committed rows of a file whose checkpoint key
/// starts with `key_prefix`.
fn wait_until_rows_are_committed(child: &mut Child, data: &Path, key_prefix: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let rows = checkpoint(data, key_prefix).and_then(|c| c["rowsCommitted"].as_u64());
        if rows.is_some_and(|rows| rows > 0) {
            break;
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("the import never reached {key_prefix}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SIGTERM (or Ctrl-C) stops an import at once with a word on what was
/// kept and how to go on, where it ended in silence; the same command
/// then finishes it.
#[test]
fn an_import_stopped_by_sigterm_says_how_to_go_on() {
    let bulk = generated_dump(&["--clusters", "3000"]);
    let data = data_with_library();
    let batches = in_batches(&bulk, "10");
    let mut child = spawn_import(data.path(), &batches, Stdio::piped());
    wait_until_rows_are_committed(&mut child, data.path(), "courtlistener-opinion-clusters");
    let signalled = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(signalled.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted: the rows committed so far are kept")
            && stderr.contains(" import courtlistener "),
        "{stderr}"
    );
    let resumed = import(
        data.path(),
        &["courtlistener", bulk.path().to_str().unwrap()],
    );
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("already done"));
    let clean = data_with_library();
    import(
        clean.path(),
        &["courtlistener", bulk.path().to_str().unwrap()],
    );
    assert_eq!(counts(data.path()), counts(clean.path()));
    let status = Library::open_read_only(data.path())
        .unwrap()
        .status()
        .unwrap();
    assert_eq!(status.index_pending, 0);
}

/// The import checkpoint of the file whose key starts with `key_prefix`
/// (the last such, in key order), when the store can be read.
fn checkpoint(data: &Path, key_prefix: &str) -> Option<serde_json::Value> {
    let store = Store::open_read_only(data, Layout::Library).ok()?;
    store
        .read(|txn| -> Result<_, lexstack::store::StoreError> {
            let table = txn.open_table(lexstack::store::tables::IMPORT_PROGRESS)?;
            let mut found = None;
            for row in redb::ReadableTable::iter(&table)? {
                let (key, value) = row?;
                if key.value().starts_with(key_prefix) {
                    found = Some(serde_json::from_slice(value.value())?);
                }
            }
            Ok(found)
        })
        .ok()
        .flatten()
}

/// The citation index, whole.
fn cite_index(data: &Path) -> Vec<(String, u32, u32, String)> {
    let store = Store::open_read_only(data, Layout::Library).unwrap();
    store
        .read(|txn| -> Result<_, lexstack::store::StoreError> {
            let table = txn.open_table(lexstack::store::tables::CITE_INDEX)?;
            let mut entries = Vec::new();
            for row in table.iter()? {
                let (key, ids) = row?;
                let (reporter, volume, page) = key.value();
                entries.push((reporter.to_string(), volume, page, ids.value().to_string()));
            }
            Ok(entries)
        })
        .unwrap()
}

/// A later citations file killed part-way and run again withdraws what it
/// withdraws run once: what it lists is committed with its rows.
#[test]
fn a_later_citations_file_killed_and_resumed_withdraws_as_run_once() {
    let bulk = generated_dump(&["--clusters", "500", "--opinion-bytes", "300"]);
    let citations = std::fs::read_dir(bulk.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("citations-")
        })
        .unwrap();
    let text = std::fs::read_to_string(citations).unwrap();
    // Every fifth row dropped: a cluster with another row loses that
    // citation.
    let rows: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(n, _)| *n == 0 || n % 5 != 0)
        .map(|(_, row)| row)
        .collect();
    let later = tempfile::tempdir().unwrap();
    std::fs::write(
        later.path().join("citations-2024-06-01.csv"),
        rows.join("\n") + "\n",
    )
    .unwrap();
    let import_both = |data: &Path| {
        import(data, &["courtlistener", bulk.path().to_str().unwrap()]);
    };
    let later_args = in_batches(&later, "1");

    let clean = data_with_library();
    import_both(clean.path());
    let clean_run = import(clean.path(), &later_args);
    assert!(
        String::from_utf8_lossy(&clean_run.stdout).contains("it no longer lists, from"),
        "{}",
        String::from_utf8_lossy(&clean_run.stdout)
    );

    let killed = data_with_library();
    import_both(killed.path());
    let mut child = spawn_import(killed.path(), &later_args, Stdio::null());
    let later_file = "courtlistener-citations:citations-2024-06-01";
    kill_once_rows_are_committed(&mut child, killed.path(), later_file);
    // A store killed mid-write is repaired by the next writable open.
    drop(Store::open_library(killed.path()).unwrap());
    assert_eq!(
        checkpoint(killed.path(), later_file).map(|c| c["done"].clone()),
        Some(serde_json::Value::Bool(false)),
        "killed before the file was all in, so the run again resumes it"
    );
    import(killed.path(), &later_args);
    assert_eq!(counts(killed.path()), counts(clean.path()));
    assert_eq!(cite_index(killed.path()), cite_index(clean.path()));
}

/// A cluster is stored before its citations are read: at its first
/// citation it joins the decision the library already holds there, as a
/// source that brings its citations along would.
#[test]
fn a_cluster_joins_the_decision_held_at_its_citation() {
    let dir = data_with_library();
    let dump = small_dump(
        &[
            ("7401", "Marbury v. Madison", "1803-02-24", ""),
            ("7402", "Stuart v. Laird", "1803-03-02", ""),
        ],
        &[
            ("5", "U.S.", "137", "1", "7401"),
            ("2", "L. Ed.", "60", "4", "7401"),
            ("5", "U.S.", "137", "1", "7402"),
        ],
    );
    import(
        dir.path(),
        &["courtlistener", dump.path().to_str().unwrap()],
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let marbury = library.lookup("5 U.S. 137").unwrap();
    let ids: Vec<&str> = marbury.cases.iter().map(|c| c.case_id.as_str()).collect();
    assert_eq!(
        ids,
        ["us-5-137", "cl-7402"],
        "Marbury joined the dates index's record; another name there did not"
    );
    let joined = &marbury.cases[0];
    assert_eq!(joined.name, "Marbury v. Madison");
    assert!(
        joined.citations.iter().any(|c| c == "2 L. Ed. 60"),
        "{joined:?}"
    );
    assert_eq!(
        library.lookup("2 L. Ed. 60").unwrap().cases[0].case_id,
        "us-5-137",
        "the cluster's later citations go to the case it joined"
    );
    assert!(library.case("cl-7401").unwrap().is_none());
}

/// A whole citations file imported after an earlier one lists each case's
/// citations: one it no longer lists is withdrawn from a case only
/// CourtListener gives, and kept by a case another source gives too (the
/// record does not say which source gave it). A file with a malformed row
/// withdraws nothing: that row may have been any case's citation.
#[test]
fn a_later_citations_file_withdraws_what_it_no_longer_lists() {
    let dir = data_with_library();
    let clusters = [
        ("7901", "Alpha v. Beta", "2001-01-01", ""),
        (
            "7902",
            "Brown v. Board of Education",
            "1954-05-17",
            "1953-069",
        ),
    ];
    let first = small_dump(
        &clusters,
        &[
            ("406", "F.3d", "10", "1", "7901"),
            ("55", "P.3d", "20", "3", "7901"),
            ("347", "U.S.", "483", "1", "7902"),
            ("98", "Ohio App.", "1", "2", "7902"),
        ],
    );
    import(
        dir.path(),
        &["courtlistener", first.path().to_str().unwrap()],
    );
    let cases_at = |cite: &str| -> Vec<String> {
        Library::open_read_only(dir.path())
            .unwrap()
            .lookup(cite)
            .unwrap()
            .cases
            .into_iter()
            .map(|case| case.case_id)
            .collect()
    };
    assert_eq!(cases_at("55 P.3d 20"), ["cl-7901"]);
    assert_eq!(cases_at("98 Ohio App. 1"), ["scdb-1953-069"]);

    // The later dump's citations file alone, under its own date.
    let later = |date: &str, rows: &[(&str, &str, &str, &str, &str)]| {
        let dump = small_dump(&clusters, rows);
        let folder = tempfile::tempdir().unwrap();
        std::fs::rename(
            dump.path().join("citations-2024-05-06.csv"),
            folder.path().join(format!("citations-{date}.csv")),
        )
        .unwrap();
        folder
    };
    let kept = [
        ("406", "F.3d", "10", "1", "7901"),
        ("347", "U.S.", "483", "1", "7902"),
    ];
    let with_a_malformed_row = later(
        "2024-06-01",
        &[kept[0], kept[1], ("x", "F.3d", "1", "1", "7901")],
    );
    let output = import(
        dir.path(),
        &[
            "courtlistener",
            with_a_malformed_row.path().to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("rows were malformed, so the citations it no longer lists are kept"),
        "{stdout}"
    );
    assert_eq!(cases_at("55 P.3d 20"), ["cl-7901"]);

    let mended = later("2024-06-02", &kept);
    let output = import(
        dir.path(),
        &["courtlistener", mended.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("withdrew 1 citation it no longer lists, from 1 case it alone gives"),
        "{stdout}"
    );
    assert!(cases_at("55 P.3d 20").is_empty());
    assert_eq!(cases_at("406 F.3d 10"), ["cl-7901"]);
    let library = Library::open_read_only(dir.path()).unwrap();
    let alpha = library.case("cl-7901").unwrap().unwrap();
    let cites: Vec<&str> = alpha.citations.iter().map(|c| c.cite.as_str()).collect();
    assert_eq!(cites, ["406 F.3d 10"]);
    let found = library.search("Alpha v. Beta", Some("case"), 1).unwrap();
    assert_eq!(found[0].id, "cl-7901");
    drop(library);
    assert_eq!(
        cases_at("98 Ohio App. 1"),
        ["scdb-1953-069"],
        "Brown is SCDB's case too: which source gave the citation is not known"
    );
}

/// A value that is no SCDB case id (a `\N` from another NULL convention)
/// joins no cluster to anything.
#[test]
fn an_scdb_id_that_is_not_one_joins_nothing() {
    let dir = data_with_library();
    let dump = small_dump(
        &[
            ("7101", "Alpha v. Beta", "2005-01-01", "\\N"),
            ("7102", "Gamma v. Delta", "2005-01-02", "\\N"),
        ],
        &[
            ("401", "F.3d", "10", "1", "7101"),
            ("401", "F.3d", "20", "1", "7102"),
        ],
    );
    let output = import(
        dir.path(),
        &["courtlistener", dump.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(r#"scdb_id "\\N" is not an SCDB case id"#),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let named = |cite: &str| library.lookup(cite).unwrap().cases[0].name.clone();
    assert_eq!(named("401 F.3d 10"), "Alpha v. Beta");
    assert_eq!(named("401 F.3d 20"), "Gamma v. Delta");
}

/// Rows a damaged dump gives that no check caught before: a page with
/// digits no address takes, a decision dated in the future, a cluster
/// whose docket the dockets file lacks or whose docket id is no number.
/// Each is reported with its line.
#[test]
fn a_damaged_page_a_future_date_and_a_missing_docket_are_reported() {
    let dir = data_with_library();
    let dump = small_dump(
        &[
            ("7201", "Alpha v. Beta", "2999-01-01", ""),
            ("7202", "Gamma v. Delta", "2005-01-02", ""),
        ],
        &[
            ("402", "F.3d", "10", "1", "7201"),
            ("402", "F.3d", "x29", "1", "7202"),
        ],
    );
    std::fs::write(
        dump.path().join("dockets-2024-05-06.csv"),
        "\"id\",\"court_id\",\"docket_number\"\n\"1\",\"ca1\",\"05-1\"\n",
    )
    .unwrap();
    let clusters = dump.path().join("opinion-clusters-2024-05-06.csv");
    let rows = std::fs::read_to_string(&clusters)
        .unwrap()
        .replace("\"2999-01-01\",,", "\"2999-01-01\",,\"99999\"")
        .replace("\"2005-01-02\",,", "\"2005-01-02\",,\"zz\"");
    std::fs::write(&clusters, rows).unwrap();
    let output = import(
        dir.path(),
        &["courtlistener", dump.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    for said in [
        r#"line 2: decision date "2999-01-01" is in the future"#,
        "docket 99999 is not in the dockets file, so the case has no court",
        r#"line 3: page "x29" is not a page number"#,
        r#"line 3: docket_id "zz" is not a number, so the case has no court"#,
        "are not counted as held completely",
    ] {
        assert!(stdout.contains(said), "{said}: {stdout}");
    }
    let library = Library::open_read_only(dir.path()).unwrap();
    let alpha = library.lookup("402 F.3d 10").unwrap();
    assert_eq!(alpha.cases[0].decision_date, None);
    assert!(
        library
            .search_names("Gamma v. Delta", 3)
            .unwrap()
            .iter()
            .all(|hit| {
                library
                    .case(&hit.id)
                    .unwrap()
                    .is_none_or(|case| case.citations.iter().all(|c| !c.cite.contains("x29")))
            })
    );
}

/// A cluster that joins a held decision and gives another page in a
/// reporter the decision is cited in: both pages are kept (which source is
/// right is not known), and the import says the sources disagree.
#[test]
fn a_joined_cluster_giving_another_parallel_page_is_reported() {
    let dir = data_with_library();
    let dump = small_dump(
        &[("7301", "Miranda v. Arizona", "1966-06-13", "")],
        &[
            ("384", "U.S.", "436", "1", "7301"),
            ("16", "L. Ed. 2d", "695", "1", "7301"),
        ],
    );
    let output = import(
        dir.path(),
        &["courtlistener", "--partial", dump.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "16 L. Ed. 2d 695 is given for case scdb-1965-122, which is also cited at 16 L. Ed. 2d 694: the sources disagree, and both are kept"
        ),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    for cite in ["16 L. Ed. 2d 694", "16 L. Ed. 2d 695"] {
        assert_eq!(
            library.lookup(cite).unwrap().cases[0].case_id,
            "scdb-1965-122"
        );
    }
}

/// An SCDB id naming a decision of another name or year (a data error in
/// the dump) joins nothing: the cluster is its own case, and the report
/// says which decision the id named.
#[test]
fn an_scdb_id_of_another_decision_joins_nothing() {
    let dir = data_with_library();
    let dump = small_dump(
        &[
            ("7201", "Alpha v. Beta", "2005-01-01", "1953-069"),
            (
                "7202",
                "Brown v. Board of Education",
                "1954-05-17",
                "1953-069",
            ),
        ],
        &[("402", "F.3d", "10", "1", "7201")],
    );
    let output = import(
        dir.path(),
        &["courtlistener", "--partial", dump.path().to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(r#"scdb_id "1953-069" is BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al. (1954), whose name or year does not fit, so the cluster is not joined to it"#),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let alpha = library.case("cl-7201").unwrap().expect("its own case");
    assert!(
        alpha.provenance.iter().all(|p| p.source != "scdb"),
        "{alpha:?}"
    );
    assert_eq!(
        library.lookup("402 F.3d 10").unwrap().cases[0].name,
        "Alpha v. Beta"
    );
    let brown = library.case("scdb-1953-069").unwrap().unwrap();
    assert!(
        brown
            .provenance
            .iter()
            .any(|p| p.source == "courtlistener" && p.id == "7202"),
        "the fitting cluster joins: {brown:?}"
    );
}

/// Cranch's reports of the D.C. circuit court are filed under the Supreme
/// Court reporter's abbreviation: the citation keeps its own spelling.
#[test]
fn a_circuit_courts_early_series_keeps_its_spelling() {
    let dir = data_with_library();
    // The second row's type says the Supreme Court's early reporters.
    let dump = small_dump(
        &[
            ("7301", "United States v. Smith", "1801-06-01", ""),
            ("7302", "United States v. Jones", "1801-07-01", ""),
        ],
        &[
            ("1", "Cranch C.C.", "100", "2", "7301"),
            ("1", "Cranch C.C.", "120", "5", "7302"),
        ],
    );
    import(
        dir.path(),
        &["courtlistener", "--partial", dump.path().to_str().unwrap()],
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let smith = library.case("cl-7301").unwrap().unwrap();
    let cites: Vec<&str> = smith.citations.iter().map(|c| c.cite.as_str()).collect();
    assert_eq!(cites, ["1 Cranch C.C. 100"]);
    let jones = library.case("cl-7302").unwrap().unwrap();
    assert_eq!(jones.citations[0].cite, "1 Cranch C.C. 120");
}

/// Westlaw and LEXIS number documents and neutral citations number
/// decisions: a dump holds some of them, never a whole "volume", and no
/// document runs over the next number.
#[test]
fn vendor_and_neutral_citations_hold_no_volume() {
    let dir = data_with_library();
    let dump = small_dump(
        &[("7001", "Doe v. Roe", "2010-02-03", "")],
        &[
            ("401", "F.3d", "10", "1", "7001"),
            ("2010", "WL", "1234500", "7", "7001"),
            ("2010", "U.S. Dist. LEXIS", "20000", "6", "7001"),
            ("2013", "Ohio", "55", "8", "7001"),
            ("2020", "IL App (2d)", "190775-U", "8", "7001"),
        ],
    );
    import(
        dir.path(),
        &["courtlistener", dump.path().to_str().unwrap()],
    );

    let library = Library::open_read_only(dir.path()).unwrap();
    let held: Vec<String> = library
        .status()
        .unwrap()
        .reporters
        .iter()
        .map(|r| r.reporter.clone())
        .collect();
    assert!(held.iter().any(|r| r == "F.3d"), "{held:?}");
    for unpaged in ["WL", "U.S. Dist. LEXIS", "Ohio", "IL App (2d) -U"] {
        assert!(!held.iter().any(|r| r == unpaged), "{unpaged}: {held:?}");
    }
    let verdict = |cite: &str| library.lookup(cite).unwrap().verdict;
    assert_eq!(verdict("2010 WL 1234500"), "found");
    assert_eq!(verdict("2010 WL 1234567"), "volume_not_held");
    assert_eq!(verdict("2010 U.S. Dist. LEXIS 20001"), "volume_not_held");
    assert_eq!(verdict("401 F.3d 10"), "found");
    assert_eq!(verdict("401 F.3d 5"), "page_not_placed", "held");
    // An unpublished order is found by its number, and holds no volume.
    assert_eq!(verdict("2020 IL App (2d) 190775-U"), "found");
    assert_eq!(verdict("2020 IL App (2d) 190775–U"), "found");
    assert_eq!(verdict("2020 IL App (2d) 190776-U"), "volume_not_held");
    assert_eq!(verdict("2020 IL App (2d) 190775"), "volume_not_held");
}

/// SCDB's docket-level file: the rows after a case's first are the dockets
/// decided with it, whose names and numbers go to that case.
#[test]
fn scdb_dockets_decided_together_name_their_cases() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let file = input.path().join("SCDB_docket_level.csv");
    let row = |case: &str, docket_id: &str, docket: &str, name: &str| {
        format!(
            "\"{case}\",\"{docket_id}\",6/13/2030,\"700 U.S. 1\",\"150 S. Ct. 1\",\"210 L. Ed. 2d 1\",\"2030 U.S. LEXIS 1\",2029,\"{docket}\",\"{name}\"\n"
        )
    };
    let text = String::from(
        "\"caseId\",\"docketId\",\"dateDecision\",\"usCite\",\"sctCite\",\"ledCite\",\"lexisCite\",\"term\",\"docket\",\"caseName\"\n",
    ) + &row("2029-001", "2029-001-01", "11", "ALPHA v. BETA")
        + &row("2029-001", "2029-001-02", "12", "GAMMA v. DELTA")
        + &row("2029-002", "2029-002-02", "13", "EPSILON v. ZETA");
    std::fs::write(&file, text).unwrap();
    let output = import(dir.path(), &["scdb", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "line 4: docketId 2029-002-02 is a docket of case 2029-002, which is not in the library"
        ),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let alpha = library.case("scdb-2029-001").unwrap().unwrap();
    assert_eq!(alpha.name, "ALPHA v. BETA");
    assert_eq!(alpha.companion_names, ["GAMMA v. DELTA"]);
    assert_eq!(alpha.docket_numbers, ["11", "12"]);
    let found = library.search_names("Gamma v. Delta", 3).unwrap();
    assert_eq!(
        found
            .first()
            .map(|hit| (hit.id.as_str(), hit.name.as_str())),
        Some(("scdb-2029-001", "ALPHA v. BETA")),
        "found by a companion's name, shown by the case's"
    );
}

#[test]
fn scdb_csv_with_the_series_fix_and_a_broken_row() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_library(dir.path()).unwrap();
    let report = lexstack::library::import::scdb::import_file(
        &store,
        &fixtures("scdb/SCDB_fixture_caseCentered_Citation.csv.gz"),
    )
    .unwrap();
    assert_eq!(report.stored, 3);
    assert_eq!(report.skipped, 1, "{report:?}");
    let brown = store
        .read(|txn| lexstack::library::store::case(txn, "scdb-1953-069"))
        .unwrap()
        .unwrap();
    assert!(brown.citations.iter().any(|c| c.cite == "98 L. Ed. 873"));
    assert_eq!(brown.decision_date.as_deref(), Some("1954-05-17"));
    let gibson = store
        .read(|txn| lexstack::library::store::case(txn, "scdb-1957-001"))
        .unwrap()
        .unwrap();
    assert!(
        gibson.citations.iter().any(|c| c.cite == "2 L. Ed. 2d 1"),
        "the second series stays"
    );

    let impossible = tempfile::tempdir().unwrap();
    let path = impossible.path().join("scdb.csv");
    let text =
        std::fs::read_to_string(fixtures("scdb/SCDB_fixture_caseCentered_Citation.csv")).unwrap();
    std::fs::write(&path, text.replace("5/17/1954", "2/30/1954")).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let store = Store::open_library(fresh.path()).unwrap();
    let report = lexstack::library::import::scdb::import_file(&store, &path).unwrap();
    assert_eq!(report.warned, 1, "{report:?}");
    assert!(
        report.warnings[0].contains("decision date \"2/30/1954\" is not a real date"),
        "{report:?}"
    );

    // Brown's row in Windows-1252 with its date left empty, and a page no
    // library can place as Gibson's U.S. cite.
    let odd = impossible.path().join("odd.csv");
    let edited = text
        .replace("5/17/1954", "")
        .replace("\"355 U.S. 18\"", "\"355 U.S. 99999999999999999999\"");
    // "é" in Windows-1252 is the one byte 0xE9.
    let (before, after) = edited.split_once("BROWN et al.").unwrap();
    let latin = [before.as_bytes(), b"BROWN \xe9t al.", after.as_bytes()].concat();
    std::fs::write(&odd, latin).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let store = Store::open_library(fresh.path()).unwrap();
    let report = lexstack::library::import::scdb::import_file(&store, &odd).unwrap();
    let said = report.warnings.join("\n");
    assert!(
        said.contains("not UTF-8; its text was read as Windows-1252"),
        "{said}"
    );
    assert!(said.contains("dateDecision is empty"), "{said}");
    assert!(
        said.contains("usCite \"355 U.S. 99999999999999999999\" is not a citation"),
        "{said}"
    );
    let brown = store
        .read(|txn| lexstack::library::store::case(txn, "scdb-1953-069"))
        .unwrap()
        .unwrap();
    assert!(
        brown.name.starts_with("BROWN \u{e9}t al."),
        "{}",
        brown.name
    );
}

/// A citation cell that is no citation is no correction: a later SCDB file
/// garbling Brown's usCite keeps the U.S. cite the library held, where
/// withdrawing it made "347 U.S. 483" read as the case before Brown's.
#[test]
fn an_unreadable_citation_cell_keeps_the_citation_held() {
    let dir = data_with_library();
    let text =
        std::fs::read_to_string(fixtures("scdb/SCDB_fixture_caseCentered_Citation.csv")).unwrap();
    let garbled = tempfile::tempdir().unwrap();
    let path = garbled.path().join("scdb-garbled.csv");
    std::fs::write(&path, text.replace("\"347 U.S. 483\"", "\"abc U.S. 483\"")).unwrap();
    let output = import(dir.path(), &["scdb", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("usCite \"abc U.S. 483\" is not a citation to U.S.: the case keeps"),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    let brown = library.case("scdb-1953-069").unwrap().unwrap();
    assert!(
        brown.citations.iter().any(|c| c.cite == "347 U.S. 483"),
        "{:?}",
        brown.citations
    );
    let found = library.lookup("347 U.S. 483").unwrap();
    assert_eq!(found.verdict, "found");
    assert_eq!(found.cases[0].case_id, "scdb-1953-069");
}

#[test]
fn imports_refuse_while_another_process_holds_the_library() {
    let dir = data_with_library();
    let _library = Library::open(dir.path()).unwrap();
    let import_scdb = || {
        let output = lexstack()
            .arg("--data")
            .arg(dir.path())
            .args(["import", "scdb"])
            .arg(fixtures("scdb/SCDB_fixture_caseCentered_Citation.csv"))
            .output()
            .unwrap();
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = import_scdb();
    assert!(
        stderr.contains("open in another lexstack process: an import or a library build"),
        "no server runs: another import holds it: {stderr}"
    );
    // The file a live server writes (this test's own process stands in).
    let server = serde_json::json!({
        "addr": "127.0.0.1:1",
        "pid": std::process::id(),
        "startedAt": "2026-11-25T00:00:00Z",
        "version": "test",
    });
    std::fs::write(
        dir.path().join(lexstack::app::SERVER_FILE),
        server.to_string(),
    )
    .unwrap();
    let stderr = import_scdb();
    assert!(
        stderr.contains("stop the server to change the library"),
        "{stderr}"
    );
}

/// A decompressor repeats its error on every read; a line reader took each
/// for a malformed row and never reached an end. The import must stop, fail
/// and say why.
#[test]
fn a_truncated_jsonl_archive_ends_its_import_with_an_error() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let jsonl = std::fs::read(fixtures("cap/legacy.jsonl")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &jsonl.repeat(20)).unwrap();
    let whole = gz.finish().unwrap();
    let path = input.path().join("cases.jsonl.gz");
    std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let mut child = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["import", "cap", "--partial"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A guard against the old endless loop, not a speed check.
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the import did not stop on a truncated archive");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    // The rows read before the break are reported with the file.
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("could not be read: ")
            && said.contains("cases.jsonl.gz: unreadable after ")
            && said.contains("ends before its compressed data does"),
        "{said}"
    );
    assert!(rows_in(&said) > 0, "{said}");
    let unfinished = || {
        Library::open_read_only(dir.path())
            .unwrap()
            .status()
            .unwrap()
            .unfinished_imports
    };
    assert_eq!(unfinished().len(), 1, "{:?}", unfinished());

    // The whole file in its place: its import finishes, and the cut one's
    // checkpoint no longer counts.
    std::fs::write(&path, &whole).unwrap();
    import(dir.path(), &["cap", "--partial", path.to_str().unwrap()]);
    assert_eq!(unfinished(), [], "{:?}", unfinished());
}

/// A second row with an id already read in the same file would be merged
/// into the first case (its citations added, its name lost): each importer
/// reports it with its line and skips it.
#[test]
fn a_repeated_id_in_one_file_is_reported_not_merged() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();

    let scdb =
        std::fs::read_to_string(fixtures("scdb/SCDB_fixture_caseCentered_Citation.csv")).unwrap();
    let mut lines = scdb.lines();
    let (header, first) = (lines.next().unwrap(), lines.next().unwrap());
    let again = first
        .replace("\"329 U.S. 1\"", "\"329 U.S. 900\"")
        .replace("HALLIBURTON OIL WELL", "ZEPHYR");
    // Its id mangled (a spreadsheet's round trip) would make a second case.
    let mangled = first.replace("\"1946-001\"", "\"not-an-id\"");
    assert_ne!(mangled, first);
    let scdb_path = input.path().join("scdb.csv");
    std::fs::write(
        &scdb_path,
        format!("{header}\n{first}\n{again}\n{mangled}\n"),
    )
    .unwrap();
    let output = import(dir.path(), &["scdb", scdb_path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("line 3: caseId 1946-001 appears again (first on line 2)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("line 4: caseId \"not-an-id\" is not an SCDB case id"),
        "{stdout}"
    );
    let library = Library::open_read_only(dir.path()).unwrap();
    assert!(library.case("scdb-not-an-id").unwrap().is_none());
    drop(library);

    let cap = std::fs::read_to_string(fixtures("cap/legacy.jsonl")).unwrap();
    let first_case = cap.lines().next().unwrap();
    let cap_path = input.path().join("cases.jsonl");
    // The repeat writes its id as a string; a third line's id is no number.
    let as_string = first_case.replacen("\"id\": 9001", "\"id\": \" 9001\"", 1);
    let negative = first_case.replacen("\"id\": 9001", "\"id\": -1", 1);
    assert_ne!(as_string, first_case);
    std::fs::write(
        &cap_path,
        format!("{first_case}\n{as_string}\n{negative}\n"),
    )
    .unwrap();
    let output = import(
        dir.path(),
        &["cap", "--partial", cap_path.to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("line 2: case id 9001 appears again (first on line 1)")
            && stdout.contains("line 3: id -1 is not a case number"),
        "{stdout}"
    );

    let cl = input.path().join("courtlistener");
    std::fs::create_dir(&cl).unwrap();
    for name in ["courts-2024-05-06.csv", "dockets-2024-05-06.csv"] {
        std::fs::copy(fixtures("courtlistener").join(name), cl.join(name)).unwrap();
    }
    let clusters =
        std::fs::read_to_string(fixtures("courtlistener/opinion-clusters-2024-05-06.csv")).unwrap();
    let first_row_end = clusters.find("\n\"10").unwrap();
    let second_row = clusters[first_row_end + 1..].find("\n\"10").unwrap() + first_row_end + 1;
    let repeated = format!("{}{}", clusters, &clusters[first_row_end + 1..=second_row]);
    std::fs::write(cl.join("opinion-clusters-2024-05-06.csv"), repeated).unwrap();
    let output = import(
        dir.path(),
        &["courtlistener", "--partial", cl.to_str().unwrap()],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("cluster 101 appears again in this file"),
        "{stdout}"
    );

    let library = Library::open_read_only(dir.path()).unwrap();
    assert!(
        library.lookup("329 U.S. 900").unwrap().cases.is_empty(),
        "the repeated row's citation was not added to the first case"
    );
}

/// A file that is not what the importer reads fails naming the file once.
#[test]
fn a_wrong_file_is_named_once_in_its_error() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let path = input.path().join("not-scdb.csv");
    std::fs::write(&path, "\"a\",\"b\"\n\"1\",\"2\"\n").unwrap();
    let stderr = failed_import(dir.path(), "scdb", &path);
    assert!(stderr.contains("not an SCDB case-centred file"), "{stderr}");
    assert_eq!(
        stderr.matches("not-scdb.csv").count(),
        1,
        "the path once: {stderr}"
    );

    // Every missing column named; and a file named for a compression it is
    // not in says so, not what the decoder made of it.
    let dump = folder_of_one_file(
        input.path(),
        "courtlistener",
        "dockets-2024-05-06.csv",
        b"\"id\",\"court\"\n\"1\",\"scotus\"\n",
    );
    let misnamed = folder_of_one_file(
        input.path(),
        "misnamed",
        "courts-2024-05-06.csv.gz",
        b"\"id\",\"full_name\"\n",
    );
    for (folder, says) in [
        (&dump, "header has no column court_id, docket_number"),
        (&misnamed, "named .gz, but it is not gz data"),
    ] {
        let stderr = failed_import(dir.path(), "courtlistener", folder);
        assert!(stderr.contains(says), "{stderr}");
    }
    // A table whose rows name records of a table the dump lacks says so.
    let map = "citation-map-2024-05-06.csv";
    let alone = folder_of_one_file(
        input.path(),
        "citation-map-alone",
        map,
        &std::fs::read(fixtures("courtlistener").join(map)).unwrap(),
    );
    let output = lexstack_on(dir.path())
        .args(["import", "courtlistener"])
        .arg(&alone)
        .output()
        .unwrap();
    assert!(!output.status.success(), "every row is skipped");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "its rows name CourtListener opinions the library lacks, and none was stored: if the \
             dump's opinions file is missing, import it first"
        ),
        "{stdout}"
    );
    // One of a dump's files given where its folder goes.
    let stderr = failed_import(
        dir.path(),
        "courtlistener",
        &dump.join("dockets-2024-05-06.csv"),
    );
    assert!(
        stderr.contains("a file: give the folder of a CourtListener bulk dump"),
        "{stderr}"
    );

    // An archive is not read as JSON lines: it is to be unpacked first.
    let archive = input.path().join("cap-export.tar.gz");
    std::fs::write(&archive, b"\x1f\x8b not really").unwrap();
    let stderr = failed_import(dir.path(), "cap", &archive);
    assert!(stderr.contains("an archive: unpack it"), "{stderr}");

    // A later table's bad header stops the import before any file of the
    // dump is stored, not after the tables before it.
    let before = counts(dir.path());
    for table in ["dockets", "opinion-clusters"] {
        let name = format!("{table}-2024-05-06.csv");
        std::fs::copy(fixtures("courtlistener").join(&name), dump.join(&name)).unwrap();
    }
    std::fs::write(
        dump.join("citations-2024-05-06.csv"),
        "\"id\",\"volume\",\"page\",\"type\",\"cluster_id\"\n",
    )
    .unwrap();
    let stderr = failed_import(dir.path(), "courtlistener", &dump);
    assert!(
        stderr.contains("citations-2024-05-06.csv: header has no column reporter"),
        "{stderr}"
    );
    assert_eq!(counts(dir.path()), before, "nothing stored");
}

/// A CAP file whose official reporter the citation engine does not know
/// says so once for the file, naming the reporter, not once for each case.
#[test]
fn an_unknown_reporter_is_noted_once_for_its_file() {
    let dir = data_with_library();
    let input = tempfile::tempdir().unwrap();
    let case = |id: u32, cite: &str| {
        format!(
            r#"{{"id": {id}, "name": "Case {id} v. Other", "decision_date": "1901-02-03", "citations": [{{"cite": "{cite}", "type": "official"}}]}}"#
        )
    };
    let lines = [
        case(8101, "5 Zyx. Rep. 10"),
        case(8102, "5 Zyx. Rep. 20"),
        case(8103, "6 Zyx. Rep. 1"),
    ];
    let path = input.path().join("cases.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let before = counts(dir.path());
    let output = import(dir.path(), &["cap", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.matches("Zyx. Rep.").count(), 1, "{stdout}");
    assert!(
        stdout.contains("1 reporter is not one the citation engine knows"),
        "{stdout}"
    );
    let after = counts(dir.path());
    assert_eq!(after["cases"], before["cases"] + 3, "the cases are stored");
}

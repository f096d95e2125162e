//! The embedded default library: what it holds and how lookups answer.

use lexstack::library::Library;
use serde_json::Value;

use crate::helpers::copy_library;

fn library() -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let library = Library::open_read_only(dir.path()).unwrap();
    (dir, library)
}

fn lookup(library: &Library, citation: &str) -> Value {
    serde_json::to_value(library.lookup(citation).unwrap()).unwrap()
}

/// The lookup's detail, "" when it has none.
fn detail(answer: &Value) -> &str {
    answer["detail"].as_str().unwrap_or_default()
}

fn case_ids(answer: &Value) -> Vec<String> {
    answer["cases"]
        .as_array()
        .map(|cases| {
            cases
                .iter()
                .map(|c| c["caseId"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// An operator may read a data directory the service's user owns and they
/// cannot write. tantivy's reader lock opens its file to write; a directory
/// in the file's place cannot be opened so, even by root, as another user's
/// file cannot.
#[test]
fn a_library_whose_index_lock_cannot_be_written_is_still_read() {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let lock = dir.path().join("index/.tantivy-meta.lock");
    let _ = std::fs::remove_file(&lock);
    std::fs::create_dir(&lock).unwrap();
    let library = Library::open_read_only(dir.path()).unwrap();
    let hits = library.search("Miranda v. Arizona", None, 1).unwrap();
    assert!(
        hits[0].citations.iter().any(|c| c == "384 U.S. 436"),
        "{hits:?}"
    );
}

#[test]
fn supreme_court_citations_of_every_series_find_their_case() {
    let (_dir, library) = library();
    for citation in [
        "347 U.S. 483",
        "74 S. Ct. 686",
        "98 L. Ed. 873",
        "1954 U.S. LEXIS 2094",
    ] {
        let answer = lookup(&library, citation);
        assert_eq!(answer["verdict"], "found", "{citation}: {answer}");
        assert_eq!(case_ids(&answer), ["scdb-1953-069"], "{citation}");
    }
    let answer = lookup(&library, "98 L. Ed. 2d 873");
    assert_ne!(
        case_ids(&answer),
        ["scdb-1953-069"],
        "SCDB's mislabelled series is corrected"
    );
    let marbury = lookup(&library, "5 U.S. 137");
    assert_eq!(marbury["verdict"], "found");
    assert_eq!(marbury["cases"][0]["decisionDate"], "1803-02-24");
    let miranda = library.case("scdb-1965-122").unwrap().unwrap();
    assert_eq!(
        miranda.companion_names,
        [
            "VIGNERA v. NEW YORK",
            "WESTOVER v. UNITED STATES",
            "CALIFORNIA v. STEWART"
        ],
        "the cases decided with Miranda"
    );
    let recent = lookup(&library, "2 L. Ed. 2d 1");
    assert_eq!(recent["cases"][0]["name"], "GIBSON v. THOMPSON, TRUSTEE");
}

#[test]
fn early_supreme_court_reporters_find_the_us_reports_case() {
    let (_dir, library) = library();
    for citation in ["1 Cranch 137", "5 U.S. (1 Cranch) 137", "1 Cranch (US) 137"] {
        let answer = lookup(&library, citation);
        assert_eq!(answer["verdict"], "found", "{citation}: {answer}");
        assert_eq!(answer["readAs"]["key"]["reporter"], "U.S.", "{citation}");
        assert_eq!(answer["readAs"]["key"]["volume"], 5, "{citation}");
        assert_eq!(answer["cases"][0]["decisionDate"], "1803-02-24");
    }
    let brown_nominative = lookup(&library, "4 Wheat. 316");
    assert_eq!(
        case_ids(&brown_nominative),
        case_ids(&lookup(&library, "17 U.S. 316"))
    );
    // Cranch's reports of the D.C. circuit court are another series.
    let circuit = lookup(&library, "1 Cranch C.C. 137");
    assert_eq!(circuit["readAs"]["key"]["reporter"], "Cranch");
    assert_ne!(circuit["verdict"], "found");
    // Wallace's reports end at volume 23 (90 U.S.).
    assert_eq!(
        lookup(&library, "24 Wall. 1")["readAs"]["key"]["reporter"],
        "Wall."
    );
}

/// A law citation of a collection the library keeps no code for is read,
/// and answered as one the library cannot tell of.
#[test]
fn a_collection_the_library_lacks_is_not_held_not_unparsed() {
    let (_dir, library) = library();
    let bankruptcy = lookup(&library, "Fed. R. Bankr. P. 7001");
    assert_eq!(bankruptcy["verdict"], "not_held", "{bankruptcy}");
    assert!(
        bankruptcy["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("Fed. R. Bankr. P."),
        "{bankruptcy}"
    );
    let constitution = lookup(&library, "U.S. Const. art. I, § 8");
    assert!(
        constitution["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("library verify"),
        "{constitution}"
    );
    let unread = lookup(&library, "no citation here");
    assert_eq!(unread["verdict"], "unparsed");
    assert!(
        unread["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("volume, reporter and page"),
        "{unread}"
    );
}

/// Two decisions reported at one page (Chiafalo v. Washington and Colorado
/// Dep't of State v. Baca): the citation alone is ambiguous, and says so.
#[test]
fn several_cases_at_a_page_are_called_ambiguous() {
    let (_dir, library) = library();
    let answer = lookup(&library, "140 S. Ct. 2316");
    assert_eq!(answer["verdict"], "found");
    assert_eq!(case_ids(&answer).len(), 2, "{answer}");
    let detail = answer["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("ambiguous"), "{answer}");
    assert!(lookup(&library, "347 U.S. 483")["detail"].is_null());
}

#[test]
fn a_pin_page_finds_the_case_that_holds_it() {
    let (_dir, library) = library();
    let answer = lookup(&library, "347 U.S. 490");
    assert_eq!(answer["verdict"], "found_by_page_range");
    assert_eq!(case_ids(&answer), ["scdb-1953-069"]);
    // From volume 450 the U.S. Reports print orders apart from decisions,
    // so SCDB's list of decisions alone places a page between two of them.
    let nijhawan = lookup(&library, "557 U.S. 40");
    assert_eq!(nijhawan["verdict"], "found_by_page_range");
    assert_eq!(
        case_ids(&nijhawan),
        ["scdb-2008-070"],
        "Nijhawan v. Holder, 29-51"
    );
    // No farther than the case's S. Ct. and L. Ed. pages allow: First
    // Options v. Kaplan runs 7 pages in the S. Ct., and the pages after it
    // up to the next decision SCDB lists are the volume's orders.
    assert_eq!(
        case_ids(&lookup(&library, "514 U.S. 945")),
        ["scdb-1994-061"]
    );
    assert_eq!(
        lookup(&library, "514 U.S. 1075")["verdict"],
        "page_not_placed"
    );
    // Citizens United runs 175 pages; SCDB puts another decision 7 pages
    // into it in the S. Ct., and its L. Ed. pages still allow them.
    assert_eq!(
        case_ids(&lookup(&library, "558 U.S. 365")),
        ["scdb-2009-012"]
    );
    // The dates index alone does not: it lacks Wilson v. Daniel, 3 U.S.
    // 401 (which the table of overruled decisions brings), so 402 is not
    // the case at 386's.
    assert_eq!(lookup(&library, "3 U.S. 402")["verdict"], "volume_not_held");
    // A Fastcase case ends where its text's page marks do ("[698 S.E.2d
    // 446]"), though its header says it ends on its first page.
    let mosteller = lookup(&library, "698 S.E.2d 430");
    assert_eq!(mosteller["verdict"], "found_by_page_range", "{mosteller}");
    assert_eq!(case_ids(&mosteller), ["fc-698SE2d424"]);
}

#[test]
fn a_bound_volumes_back_matter_is_no_opinions_text() {
    let (_dir, library) = library();
    // Ricci v. DeStefano is the volume's last decision: the orders, the
    // opinion in chambers and the index after it are not its text.
    let ricci = library.case("scdb-2008-083").unwrap().unwrap();
    let text: String = ricci
        .opinions
        .iter()
        .map(|o| {
            library
                .store
                .read(|txn| lexstack::library::store::opinion_text(txn, &ricci.id, o.number))
                .unwrap()
                .unwrap_or_default()
        })
        .collect();
    assert!(text.contains("DeStefano"));
    for back_matter in ["Dismissal Under Rule 46", "IN CHAMBERS", "Reporter’s Note"] {
        assert!(!text.contains(back_matter), "{back_matter}");
    }
    let in_chambers = lookup(&library, "557 U.S. 1301");
    assert_eq!(in_chambers["verdict"], "found", "{in_chambers}");
}

#[test]
fn coverage_tells_held_volumes_from_unheld_ones() {
    let (_dir, library) = library();
    assert_eq!(lookup(&library, "999 F.3d 1")["verdict"], "volume_not_held");
    assert_eq!(
        lookup(&library, "585 U.S. 1")["verdict"],
        "volume_not_held",
        "SCDB has not paginated it"
    );
    let past_the_last_case = lookup(&library, "347 U.S. 99999");
    assert_eq!(past_the_last_case["verdict"], "page_not_placed");
    assert!(
        detail(&past_the_last_case)
            .starts_with("the library holds this volume (scotus_dates+scdb) but cannot tell"),
        "{past_the_last_case}"
    );
    let status = library.status().unwrap();
    let us = status
        .reporters
        .iter()
        .find(|r| r.reporter == "U.S.")
        .unwrap();
    assert!(us.volumes_held >= 250, "{us:?}");
    // Every source's citations are counted: each Supreme Court decision
    // has its U.S., S. Ct., L. Ed. and Lexis citations.
    assert!(
        status.counts["citations"] > 3 * status.counts["source:scdb"],
        "{:?}",
        status.counts
    );
    // Code titles in numeric order, not as text (1, 2, …, 10).
    let titles: Vec<u32> = status
        .law
        .iter()
        .filter(|t| t.code == "usc")
        .map(|t| t.title.parse().unwrap())
        .collect();
    assert!(titles.windows(2).all(|w| w[0] < w[1]), "{titles:?}");
}

/// Damage inside a file of the search index that leaves its end as it was
/// is found by checking the files against their checksums (the
/// `index_checksums` sweep), which marks the index damaged.
#[test]
fn index_files_are_checked_against_their_checksums() {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let library = Library::open_read_only(dir.path()).unwrap();
    library.index.check_files().unwrap();
    for entry in std::fs::read_dir(dir.path().join("index")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "idx") {
            crate::helpers::zero_pages(&path, 0.3, 0.6);
        }
    }
    let damaged = library.index.check_files().unwrap_err().to_string();
    assert!(
        damaged.contains("do not match their checksums"),
        "{damaged}"
    );
    assert!(library.index.probe().is_err());
}

/// A first build killed after its steps committed, before it recorded
/// its version, runs again at the next start: the steps already done are
/// not read again, and the volumes they held stay held.
#[test]
fn a_default_build_run_again_keeps_the_volumes_its_done_steps_hold() {
    // Killed after its last step, before it wrote that it finished.
    use lexstack::library::import::default::{LAST_FINISHED, VERSION_KEY};
    let (_dir, library) = library_with_meta(&[(VERSION_KEY, 0), (LAST_FINISHED, 0)]);
    let reports = library.ensure_default().unwrap().expect("built again");
    let dates = reports.iter().find(|r| r.source == "scotus_dates").unwrap();
    assert_eq!(dates.stored, 0, "the dates index was read again");
    let brown = lookup(&library, "347 U.S. 490");
    assert_eq!(brown["verdict"], "found_by_page_range", "{brown}");
    let us = library.status().unwrap();
    let us = us.reporters.iter().find(|r| r.reporter == "U.S.").unwrap();
    assert!(us.volumes_held >= 250, "{us:?}");
}

/// A copy of the test library with these meta values written, as another
/// build or a killed one leaves them.
fn library_with_meta(entries: &[(&str, u32)]) -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let library = Library::open(dir.path()).unwrap();
    library
        .store
        .write(|txn| -> Result<(), lexstack::store::StoreError> {
            let mut writer = lexstack::library::store::LibraryWriter::new(txn)?;
            for (key, value) in entries {
                writer.set_meta(key, value)?;
            }
            writer.finish()
        })
        .unwrap();
    (dir, library)
}

/// A library a newer lexstack built is not read over with this binary's
/// older default library when the binary is downgraded.
#[test]
fn a_default_library_newer_than_this_build_is_kept() {
    let newer = lexstack::library::import::default::DEFAULT_LIBRARY_VERSION + 1;
    let (_dir, library) =
        library_with_meta(&[(lexstack::library::import::default::VERSION_KEY, newer)]);
    assert!(library.ensure_default().unwrap().is_none(), "read again");
    assert_eq!(
        library.status().unwrap().default_library,
        lexstack::library::DefaultLibrary::Current { version: newer }
    );
}

#[test]
fn the_volume_557_opinions_are_split_into_their_cases() {
    let (_dir, library) = library();
    for (citation, name) in [
        ("557 U.S. 1", "POLAR TANKERS"),
        ("557 U.S. 29", "NIJHAWAN"),
        ("557 U.S. 557", "RICCI"),
    ] {
        let answer = lookup(&library, citation);
        assert!(
            answer["cases"][0]["name"].as_str().unwrap().contains(name),
            "{answer}"
        );
        assert_eq!(answer["cases"][0]["hasText"], true, "{citation}");
    }
    let ricci = library.case("scdb-2008-083").unwrap().unwrap();
    assert!(ricci.opinions.iter().any(|o| o.chars > 10_000));
}

/// A slip opinion joins its SCDB decision by docket, whatever dash either
/// writes ("14-95", SCDB's "14–95"): one case, with the text, not two.
#[test]
fn a_slip_opinion_joins_its_decision_by_docket() {
    let (_dir, library) = library();
    let glebe = lookup(&library, "574 U.S. 21");
    assert_eq!(glebe["cases"][0]["caseId"], "scdb-2014-079", "{glebe}");
    assert_eq!(glebe["cases"][0]["hasText"], true, "{glebe}");
    let named = library.search_names("Glebe v. Frost", 5).unwrap();
    assert_eq!(
        named.iter().map(|hit| hit.id.as_str()).collect::<Vec<_>>(),
        ["scdb-2014-079"]
    );
}

/// An upgrade undoes what an older build merged of juriscraper's records
/// alone, by rules since corrected: the library then answers as a new one
/// does, and a case built of those records and an import is left alone.
#[test]
fn an_upgrade_splits_decisions_an_older_build_merged() {
    splits_decisions_an_older_build_merged(OlderBuild::BuiltTheLibrary);
}

/// The same after a round trip: this build finished its default library,
/// an older lexstack (from before the downgrade guard) wrote its own over
/// it, and this build runs again. Its checkpoints alone would skip every
/// step and keep the older merge.
#[test]
fn a_default_library_an_older_build_wrote_over_is_read_again() {
    splits_decisions_an_older_build_merged(OlderBuild::WroteOverThisBuild);
}

enum OlderBuild {
    /// The library was built by the older lexstack: only its own
    /// version's checkpoints exist.
    BuiltTheLibrary,
    /// This build's library, then the older lexstack's build over it:
    /// both versions' checkpoints exist.
    WroteOverThisBuild,
}

fn splits_decisions_an_older_build_merged(older: OlderBuild) {
    use lexstack::library::import::default::DEFAULT_LIBRARY_VERSION;
    use lexstack::library::model::CaseRecord;
    use lexstack::store::tables::{CASES, CITE_INDEX, EXTERNAL_IDS, IMPORT_PROGRESS};
    use redb::ReadableTable;
    let (_fresh_dir, fresh) = library();
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let library = Library::open(dir.path()).unwrap();
    let case_at = |library: &Library, citation: &str| -> String {
        let answer = lookup(library, citation);
        assert_eq!(answer["cases"].as_array().unwrap().len(), 1, "{answer}");
        answer["cases"][0]["caseId"].as_str().unwrap().to_string()
    };
    let summer = case_at(&library, "2026 NYSlipOp 50213(U)");
    let grand = case_at(&library, "2026 NYSlipOp 50216(U)");
    // Grand Med.'s record merged into Summer P.T.'s, as builds before
    // version 19 stored them.
    let held = library.case(&summer).unwrap().unwrap();
    let joined = library.case(&grand).unwrap().unwrap();
    library
        .store
        .write(|txn| -> Result<(), lexstack::store::StoreError> {
            {
                let mut merged: CaseRecord = held.clone();
                merged.merge(joined.clone());
                let mut cases = txn.open_table(CASES)?;
                cases.insert(
                    summer.as_str(),
                    serde_json::to_vec(&merged).unwrap().as_slice(),
                )?;
                cases.remove(grand.as_str())?;
                let mut external = txn.open_table(EXTERNAL_IDS)?;
                for source in &joined.provenance {
                    external.insert(
                        (source.source.as_str(), source.id.as_str()),
                        summer.as_str(),
                    )?;
                }
                // The older build's checkpoints are its own version's.
                let mut progress = txn.open_table(IMPORT_PROGRESS)?;
                let this_build = format!("default-v{DEFAULT_LIBRARY_VERSION}:");
                let mut steps = Vec::new();
                for row in progress.range(this_build.as_str()..)? {
                    let (key, value) = row?;
                    match key.value().strip_prefix(&this_build) {
                        Some(step) => steps.push((step.to_string(), value.value().to_vec())),
                        None => break,
                    }
                }
                for (step, value) in steps {
                    if let OlderBuild::BuiltTheLibrary = older {
                        progress.remove(format!("{this_build}{step}").as_str())?;
                    }
                    progress.insert(format!("default-v19:{step}").as_str(), value.as_slice())?;
                }
                let mut index = txn.open_table(CITE_INDEX)?;
                for key in joined.cite_keys() {
                    let at = (key.reporter.as_str(), key.volume, key.page);
                    let ids = index
                        .get(at)?
                        .map(|ids| ids.value().replace(&grand, &summer));
                    if let Some(ids) = ids {
                        index.insert(at, ids.as_str())?;
                    }
                }
            }
            let mut writer = lexstack::library::store::LibraryWriter::new(txn)?;
            writer.bump("cases", -1);
            writer.set_meta(lexstack::library::import::default::VERSION_KEY, &19u32)?;
            writer.finish()
        })
        .unwrap();
    assert_eq!(
        case_at(&library, "2026 NYSlipOp 50216(U)"),
        summer,
        "merged"
    );

    library.ensure_default().unwrap().expect("read again");
    library.index_pending().unwrap();
    // The cases a page holds, in id order: a case stored again comes last
    // among those sharing its page.
    let cases = |library: &Library, citation: &str| {
        let mut cases = lookup(library, citation)["cases"]
            .as_array()
            .unwrap()
            .clone();
        cases.sort_by_key(|case| case["caseId"].as_str().unwrap().to_string());
        cases
    };
    for citation in [
        "2026 NYSlipOp 50216(U)",
        "2026 NYSlipOp 50213(U)",
        "88 Misc 3d 130(A)",
    ] {
        assert_eq!(
            cases(&library, citation),
            cases(&fresh, citation),
            "{citation}"
        );
    }
    assert_eq!(case_at(&library, "2026 NYSlipOp 50216(U)"), grand);
    assert_eq!(
        library.status().unwrap().counts,
        fresh.status().unwrap().counts
    );
    let hits = library
        .search_names("Grand Med. Supply Corp. v. MVAIC", 5)
        .unwrap();
    // It is searchable again under its own name (the court decided two
    // cases of that caption that day).
    assert!(hits.iter().any(|hit| hit.id == grand), "{hits:?}");
}

/// Decisions that share a table page ("88 Misc 3d 130(A)") but not their
/// slip opinion numbers stay apart; a decision reported twice under one
/// neutral citation, once per docket, is one case that answers to both
/// captions.
#[test]
fn decisions_at_one_page_stay_apart_and_consolidated_captions_are_kept() {
    let (_dir, library) = library();
    for (citation, name) in [
        ("2026 NYSlipOp 50215(U)", "Harmonized Acupuncture v. MVAIC"),
        ("2026 NYSlipOp 50216(U)", "Grand Med. Supply Corp. v. MVAIC"),
        ("2026 NYSlipOp 50213(U)", "Summer P.T., P.C. v. MVAIC"),
    ] {
        let answer = lookup(&library, citation);
        assert_eq!(answer["cases"].as_array().unwrap().len(), 1, "{answer}");
        assert_eq!(answer["cases"][0]["name"], name, "{answer}");
    }
    let table_page = lookup(&library, "88 Misc 3d 130(A)");
    assert!(
        table_page["cases"].as_array().unwrap().len() > 10,
        "{table_page}"
    );
    let nelson = lookup(&library, "2024 ND 208");
    assert_eq!(nelson["cases"].as_array().unwrap().len(), 1, "{nelson}");
    assert_eq!(nelson["cases"][0]["name"], "Nelson v. Persons Unknown");
    assert_eq!(nelson["cases"][0]["companionNames"][0], "Nelson v. Lindvig");
    let named = library.search_names("Nelson v. Lindvig", 3).unwrap();
    assert_eq!(named[0].id, nelson["cases"][0]["caseId"].as_str().unwrap());
    // SCDB's second docket under the case's own caption is no companion.
    let will = lookup(&library, "449 U.S. 200");
    assert_eq!(will["cases"][0]["name"], "UNITED STATES v. WILL et al.");
    assert!(will["cases"][0].get("companionNames").is_none(), "{will}");
}

/// A string of several citations is answered for its first (with its
/// parallels); the others are named as not looked up, not dropped unsaid.
#[test]
fn a_lookup_names_the_citations_it_did_not_look_up() {
    let (_dir, library) = library();
    let two = lookup(
        &library,
        "384 U.S. 436; see also 347 U.S. 483, 74 S. Ct. 686",
    );
    assert!(
        two["cases"][0]["name"]
            .as_str()
            .unwrap()
            .contains("MIRANDA"),
        "{two}"
    );
    assert_eq!(
        two["notLookedUp"],
        serde_json::json!(["347 U.S. 483", "74 S. Ct. 686"])
    );
    let parallels = lookup(&library, "347 U.S. 483, 74 S. Ct. 686, 98 L. Ed. 873");
    assert!(parallels.get("notLookedUp").is_none(), "{parallels}");
}

/// A larger limit adds hits after those a smaller one shows: the ranking
/// by parties and citing cases covers the same pool whatever the limit.
#[test]
fn a_larger_search_limit_only_adds_hits_after() {
    let (_dir, library) = library();
    for query in ["Brown", "Brown v. Board", "United States"] {
        let ids = |limit: usize| -> Vec<String> {
            let hits = library.search(query, None, limit).unwrap();
            hits.into_iter().map(|hit| hit.id).collect()
        };
        let (few, many) = (ids(5), ids(200));
        assert!(query != "Brown" || many.len() > 50, "{}", many.len());
        assert_eq!(few, many[..5], "{query}");
        let names = |limit: usize| -> Vec<String> {
            let hits = library.search_names(query, limit).unwrap();
            hits.into_iter().map(|hit| hit.id).collect()
        };
        assert_eq!(names(5), names(200)[..5], "{query}");
    }
}

/// A case looked up says when the overruling tables list it as overruled.
#[test]
fn a_lookup_says_which_decision_overruled_a_case() {
    let (_dir, library) = library();
    let roe = lookup(&library, "410 U.S. 113");
    let overruled_by = &roe["cases"][0]["overruledBy"];
    assert_eq!(overruled_by[0]["citation"], "597 U.S. 215", "{roe}");
    assert_eq!(overruled_by[0]["caseId"], "scdb-2021-019", "{roe}");
    assert!(
        overruled_by[0]["name"]
            .as_str()
            .unwrap()
            .starts_with("Dobbs")
    );
    let brown = lookup(&library, "347 U.S. 483");
    assert!(brown["cases"][0].get("overruledBy").is_none(), "{brown}");
}

#[test]
fn rules_statutes_and_regulations_resolve() {
    let (_dir, library) = library();
    let rule = lookup(&library, "Fed. R. Civ. P. 12");
    assert_eq!(rule["verdict"], "found");
    assert!(
        rule["authority"]["heading"]
            .as_str()
            .unwrap()
            .starts_with("Defenses and Objections")
    );
    // Numbered and punctuated as the rules print it, where the
    // transcription's Markdown wrote "6. failure" and "Rule 4(d) ,".
    let text = rule["authority"]["text"].as_str().unwrap();
    assert!(text.contains("21 days"));
    assert!(
        text.contains("\n(6) failure to state a claim upon which relief can be granted;"),
        "{text}"
    );
    assert!(text.contains("under Rule 4(d), within 60 days"), "{text}");
    assert!(!text.contains("\n6. ") && !text.contains(" ,"), "{text}");
    let paragraphs = lookup(&library, "Sup. Ct. R. 14");
    let text = paragraphs["authority"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("1. A petition for a writ of certiorari"),
        "{text}"
    );
    assert_eq!(
        lookup(&library, "Fed. R. Civ. P. 99")["verdict"],
        "cannot_exist"
    );
    // A number the Code gives two sections keeps both headings.
    let twice = lookup(&library, "5 U.S.C. § 5757");
    let heading = twice["authority"]["heading"].as_str().unwrap();
    assert!(
        heading.contains("Extended assignment incentive")
            && heading.contains("Payment of expenses to obtain professional credentials"),
        "{twice}"
    );
    // A range of sections is read as its first, as verify reads it; a
    // hyphen inside a section number makes no range, nor does the Code's
    // en dash in one ("§ 1962–3") under one section sign.
    for (citation, section) in [
        ("42 U.S.C. §§ 1983-1985", "1983"),
        ("42 U.S.C. §§ 1981–1983", "1981"),
        ("42 U.S.C. § 2000e-2", "2000e-2"),
        ("42 U.S.C. § 1962–3", "1962-3"),
        ("42 U.S.C. §§ 1962–3", "1962"),
        ("42 U.S.C. § 1981–83", "1981"),
    ] {
        let answer = lookup(&library, citation);
        assert_eq!(answer["verdict"], "found", "{answer}");
        assert_eq!(answer["readAs"]["section"], section, "{answer}");
    }
    assert_eq!(
        lookup(&library, "Fed. R. Civ. P. 89")["verdict"],
        "cannot_exist",
        "not a real rule"
    );
    assert_eq!(
        lookup(&library, "Sup. Ct. R. 53")["verdict"],
        "cannot_exist",
        "not a real rule"
    );
    // The Supreme Court's Rules number paragraphs after the rule, as
    // verify reads them: "14.1" is Rule 14, paragraph 1; "53.1" no rule.
    let paragraph = lookup(&library, "Sup. Ct. R. 14.1");
    assert_eq!(paragraph["verdict"], "found", "{paragraph}");
    assert_eq!(paragraph["readAs"]["section"], "14", "{paragraph}");
    assert_eq!(
        lookup(&library, "Sup. Ct. R. 53.1")["verdict"],
        "cannot_exist"
    );
    assert_eq!(
        lookup(&library, "Fed. R. Civ. P. 84")["verdict"],
        "not_held",
        "abrogated, not in the data"
    );
    // The Federal Rules of Evidence are numbered by article: Article IV ends
    // at 415, and 107 (2024) is Article I's last.
    let past_article = lookup(&library, "Fed. R. Evid. 416");
    assert_eq!(past_article["verdict"], "cannot_exist", "{past_article}");
    assert_eq!(
        past_article["detail"],
        "article 4 of this set runs from rule 401 to 415"
    );
    assert_eq!(
        lookup(&library, "Fed. R. Evid. 107")["authority"]["heading"],
        "Illustrative Aids"
    );
    assert_eq!(lookup(&library, "Fed. R. Evid. 1103")["verdict"], "found");
    // A number before an article's first rule, or below any article's, or
    // too large to hold, is no rule either.
    for cite in [
        "Fed. R. Evid. 1",
        "Fed. R. Evid. 50",
        "Fed. R. Evid. 100",
        "Fed. R. Evid. 1000",
        "Fed. R. Evid. 1100",
        "Fed. R. Civ. P. 4294967297",
    ] {
        assert_eq!(lookup(&library, cite)["verdict"], "cannot_exist", "{cite}");
    }
    assert_eq!(
        lookup(&library, "42 U.S.C. § 1983")["authority"]["heading"],
        "Civil action for deprivation of rights"
    );
    assert_eq!(
        lookup(&library, "42 U.S.C. § 1971")["verdict"],
        "not_held",
        "transferred: not live, history not held"
    );
    assert_eq!(
        lookup(&library, "3 U.S.C. § 203")["authority"]["status"],
        "repealed"
    );
    // A title held with its repealed and moved sections is held as
    // numbered now: an earlier edition may have had the number (41 U.S.C.
    // § 253 became § 3301 when the title was enacted in 2011).
    for cite in ["3 U.S.C. § 999", "41 U.S.C. § 253"] {
        let earlier = lookup(&library, cite);
        assert_eq!(earlier["verdict"], "not_held", "{cite}: {earlier}");
        assert!(
            detail(&earlier).contains("an earlier edition may have used this number"),
            "{earlier}"
        );
    }
    assert_eq!(
        lookup(&library, "29 C.F.R. § 1910.1200")["authority"]["heading"],
        "Hazard communication."
    );
    assert_eq!(lookup(&library, "40 C.F.R. § 1.1")["verdict"], "not_held");
    // Treasury Regulations are title 26, cited without it.
    for (cite, heading) in [
        (
            "Treas. Reg. § 1.501(c)(3)-1(d)(2)",
            "Organizations organized",
        ),
        (
            "Temp. Treas. Reg. § 1.1031(d)-1T",
            "Coordination of section 1060",
        ),
    ] {
        let regulation = lookup(&library, cite);
        let found = regulation["authority"]["heading"].as_str().unwrap_or("");
        assert!(found.starts_with(heading), "{cite}: {regulation}");
    }
    assert_eq!(
        lookup(&library, "Treas. Reg. § 1.999-99")["verdict"],
        "not_held"
    );
    assert_ne!(
        lookup(&library, "Prop. Treas. Reg. § 1.199A-1")["verdict"],
        "found",
        "a proposed regulation is no section of the C.F.R."
    );
    // Status rows naming two sections, and ranges ending in lettered ones.
    for (cite, status) in [
        ("35 U.S.C. § 155", "repealed"),
        ("35 U.S.C. § 155A", "repealed"),
        ("24 U.S.C. § 46a", "repealed"),
        ("45 U.S.C. § 228b", "omitted"),
    ] {
        let answer = lookup(&library, cite);
        assert_eq!(answer["authority"]["status"], status, "{cite}: {answer}");
    }
    assert_eq!(
        lookup(&library, "26 C.F.R. § 1.401(k)-1")["authority"]["heading"],
        "Certain cash or deferred arrangements.",
        "a Treasury regulation numbered after the Code's subsection"
    );
    // Past the last title, and title 53 of the U.S. Code, which is reserved.
    for cite in [
        "55 U.S.C. § 1",
        "0 U.S.C. § 1",
        "51 C.F.R. § 1.1",
        "53 U.S.C. § 101",
    ] {
        assert_eq!(lookup(&library, cite)["verdict"], "cannot_exist", "{cite}");
    }
    // A regulation part cited whole answers with the sections held of it,
    // in their order.
    let part = lookup(&library, "29 C.F.R. pt. 1630");
    assert_eq!(part["verdict"], "found", "{part}");
    let sections: Vec<&str> = part["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["section"].as_str().unwrap())
        .collect();
    assert_eq!(&sections[..3], ["1630.1", "1630.2", "1630.3"], "{part}");
    assert_eq!(lookup(&library, "40 C.F.R. pt. 230")["verdict"], "not_held");
    assert_eq!(
        lookup(&library, "60 C.F.R. pt. 1")["verdict"],
        "cannot_exist"
    );
}

#[test]
fn reporter_series_the_data_does_not_list() {
    let (_dir, library) = library();
    // The series after the last, which still runs, may have begun since.
    let next = lookup(&library, "16 L. Ed. 3d 694");
    assert_eq!(next["verdict"], "not_held", "{next}");
    assert_eq!(next["readAs"]["published"][1], "L. Ed. 2d", "{next}");
    assert_eq!(next["readAs"]["mayBeNewer"], true, "{next}");
    let further = lookup(&library, "16 L. Ed. 4th 694");
    assert_eq!(further["verdict"], "cannot_exist", "{further}");
    assert!(
        detail(&further).contains("no such reporter series"),
        "{further}"
    );
}

#[test]
fn metadata_and_sample_opinions_are_held() {
    let (_dir, library) = library();
    let status = library.status().unwrap();
    let count = |name: &str| status.counts.get(name).copied().unwrap_or(0);
    assert_eq!(count("source:scdb"), 9277);
    assert_eq!(count("source:juriscraper"), 11409);
    assert_eq!(count("source:cap"), 10);
    assert_eq!(count("source:fastcase"), 33);
    assert!(count("authority:usc") > 50_000);
    assert!(count("authority:cfr") > 46_000);
    let ramirez = lookup(&library, "254 P.3d 649");
    assert_eq!(ramirez["cases"][0]["name"], "State v. Ramirez");
    assert_eq!(ramirez["cases"][0]["hasText"], true);
    let fastcase = lookup(&library, "100 A.3d 1004");
    assert_eq!(fastcase["cases"][0]["name"], "State v. Dyous");
    assert_eq!(
        lookup(&library, "100 A.3d 1010")["verdict"],
        "found_by_page_range"
    );
    let glebe = library.case("scdb-2014-019").unwrap().map(|c| c.has_text());
    assert!(glebe.is_some(), "Glebe v. Frost is in SCDB");
    // A record's neutral citation is keyed as a lookup reads it, and so
    // is one the record runs into its page ("154 Haw.434").
    let neutral = lookup(&library, "2021-Ohio-4396");
    assert_eq!(
        neutral["cases"][0]["name"], "State v. Montgomery",
        "{neutral}"
    );
    for written in ["154 Haw. 434", "154 Haw.434"] {
        let yuen = lookup(&library, written);
        assert_eq!(yuen["cases"][0]["name"], "State v. Yuen", "{yuen}");
    }
    // Three records at one citation, one named by initials only: none is
    // taken for another.
    let mut names: Vec<String> = lookup(&library, "154 Haw. 417")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "J.L. v. M.V.",
            "McGee v. Campaign Spending Commission",
            "Unicredit S.P.A v. Han"
        ]
    );
}

/// Illinois Rule 23 orders and New York's unreported slip opinions are
/// found by their numbers with the suffix, apart from the published
/// decision of the same number; no volume of theirs is held.
#[test]
fn unpublished_orders_are_found_in_their_own_series() {
    let (_dir, library) = library();
    let name = |citation: &str| lookup(&library, citation)["cases"][0]["name"].clone();
    assert_eq!(name("2020 IL App (4th) 180071-U"), "People v. Gilliam");
    assert_eq!(
        name("2026 NY Slip Op 50326(U)"),
        "Amicus Assoc., LP v. Boeskov"
    );
    assert_eq!(
        name("2026 NYSlipOp 50326(U)"),
        "Amicus Assoc., LP v. Boeskov"
    );
    // Written loosely, as briefs do.
    assert_eq!(name("2020 IL App (4th) 180071–U"), "People v. Gilliam");
    assert_eq!(name("2020 IL App (4th) 180071-u"), "People v. Gilliam");
    assert_eq!(
        name("2026 NY Slip Op 50326 (U)"),
        "Amicus Assoc., LP v. Boeskov"
    );
    // New York's decisions printed in abstract, numbered "(A)".
    let names = |citation: &str| -> Vec<String> {
        let answer = lookup(&library, citation);
        answer["cases"]
            .as_array()
            .map(|cases| cases.iter().map(|c| c["name"].to_string()).collect())
            .unwrap_or_default()
    };
    let abstracts = names("88 Misc 3d 130(A)");
    assert!(
        abstracts.iter().any(|n| n.contains("Rickenbacker")),
        "{abstracts:?}"
    );
    assert_eq!(names("88 Misc. 3d 130(A)"), abstracts);
    assert!(
        !names("88 Misc 3d 130")
            .iter()
            .any(|n| n.contains("Rickenbacker"))
    );
    // A workers' compensation division order.
    let hamann = name("2020 IL App (3d) 190486WC-U");
    assert!(hamann.as_str().unwrap().starts_with("Hamann"), "{hamann}");
    for unknown in [
        "2020 IL App (4th) 180071",
        "2020 IL App (4th) 180072-U",
        "2026 NY Slip Op 50327(U)",
    ] {
        assert_eq!(
            lookup(&library, unknown)["verdict"],
            "volume_not_held",
            "{unknown}"
        );
    }
}

/// An operator who removes `index/` gets it back from the store; a damaged
/// one is named, with that remedy.
#[test]
fn a_removed_search_index_is_rebuilt_and_a_damaged_one_says_how() {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let index = dir.path().join("index");
    std::fs::remove_dir_all(&index).unwrap();
    let library = Library::open(dir.path()).unwrap();
    let indexed = library.index_pending().unwrap();
    let hits = library.search_names("Miranda v. Arizona", 1).unwrap();
    assert_eq!(
        hits.first().map(|h| h.id.as_str()),
        Some("scdb-1965-122"),
        "{indexed} records indexed again"
    );
    let status = library.status().unwrap();
    drop(library);
    assert!(status.index_documents > status.counts["cases"] as u64);

    let segment = std::fs::read_dir(&index)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|ext| ext == "idx"))
        .unwrap();
    std::fs::remove_file(segment).unwrap();
    let error = Library::open(dir.path()).err().expect("a damaged index");
    assert!(
        error.to_string().contains("remove that directory"),
        "{error}"
    );
}

/// An index an older lexstack laid out is not searched read-only (its
/// fields are not this build's: a name search failed as if the index were
/// damaged, a docket search found nothing): the refusal says what rebuilds
/// it, and status tells; opened for writing, it is rebuilt.
#[test]
fn an_index_of_another_version_is_rebuilt_not_searched() {
    let older = lexstack::library::index::INDEX_VERSION - 1;
    let (dir, library) = library_with_meta(&[(lexstack::library::INDEX_VERSION_KEY, older)]);
    drop(library);

    let reading = Library::open_read_only(dir.path()).unwrap();
    let refused = reading.search("Miranda v. Arizona", None, 5).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("built by another version of lexstack")
            && refused.to_string().contains("rebuilds it"),
        "{refused}"
    );
    assert!(reading.search_names("Miranda v. Arizona", 5).is_err());
    assert!(!reading.status().unwrap().index_current);
    assert_eq!(lookup(&reading, "384 U.S. 436")["verdict"], "found");
    drop(reading);

    let library = Library::open(dir.path()).unwrap();
    library.index_pending().unwrap();
    assert!(library.status().unwrap().index_current);
    let hits = library.search_names("Miranda v. Arizona", 1).unwrap();
    assert_eq!(hits.first().map(|h| h.id.as_str()), Some("scdb-1965-122"));
}

/// The opinion text is indexed without positions, so a quoted phrase is
/// checked word for word in what the index finds: before, "claim state
/// failure" in quotes listed the same rules as the words alone.
#[test]
fn a_quoted_phrase_lists_only_what_holds_it_word_for_word() {
    let (_dir, library) = library();
    // Rule 12 holds the phrase, and its words in another order.
    for query in [
        "\"failure to state a claim\"",
        "“Failure to State a Claim”",
        "claim state failure",
    ] {
        let hits = library.search(query, Some("frcp"), 10).unwrap();
        assert!(
            hits.iter().any(|hit| hit.id == "frcp/12"),
            "{query}: {hits:?}"
        );
    }
    let quoted = library
        .search("\"claim state failure\"", Some("frcp"), 10)
        .unwrap();
    assert!(quoted.is_empty(), "{quoted:?}");
    // A name of record holds the name as cited, without its "et al.".
    assert_found_first(&library, "\"Brown v. Board\"", "scdb-1953-069");
    // Every phrase quoted, and what the query cites first all the same.
    let both = library
        .search("\"Brown v. Board\" \"claim state failure\"", None, 10)
        .unwrap();
    assert!(both.is_empty(), "{both:?}");
    assert_found_first(&library, "\"42 U.S.C. § 1983\"", "usc/42/1983");
}

#[test]
fn search_finds_cases_and_rules_by_name_and_text() {
    let (_dir, library) = library();
    let hits = library
        .search("Brown Board of Education", Some("case"), 5)
        .unwrap();
    assert!(hits.iter().any(|h| h.id == "scdb-1953-069"), "{hits:?}");
    // Every word first: Brown v. Board, not Department of Education v. Brown.
    let hits = library
        .search("Brown v. Board of Education", Some("case"), 5)
        .unwrap();
    assert!(
        hits.first()
            .is_some_and(|h| h.name.to_uppercase().starts_with("BROWN")),
        "{hits:?}"
    );
    // A name with its parties in order: the case so named comes first, the
    // most cited of its decisions (Brown I, not its later orders), before
    // NLRB v. Brown and the Code's "Brown v. Board of Education" sections.
    // Bluebook's abbreviations ("Bd.", "Educ.") find the names spelt out.
    for query in [
        "Brown v. Board",
        "brown v board",
        "Brown v. Bd. of Educ.",
        "Brown v. Bd.",
    ] {
        assert_found_first(&library, query, "scdb-1953-069");
        let names = library.search_names(query, 3).unwrap();
        assert_eq!(names[0].id, "scdb-1953-069", "{query}: {names:?}");
    }
    // What names a case comes before opinions that mention its words (the
    // corpus's few dozen texts hold "us", "Nixon", "board" and
    // "education"), and places written with periods are their names of
    // record; a name without its "v." finds the most cited of its cases.
    for (query, id) in [
        ("US v. Nixon", "scdb-1973-172"),
        ("U.S. v. Nixon", "scdb-1973-172"),
        ("N.Y. Times v. Sullivan", "scdb-1963-067"),
        ("brown board of education", "scdb-1953-069"),
        ("Brown Board", "scdb-1953-069"),
        // An agency by its initials, as briefs cite it, and a company with
        // "U.S.A." in its name.
        ("INS v. Chadha", "scdb-1982-130"),
        ("NLRB v. Brown", "scdb-1964-063"),
        ("EPA v. West Virginia", "scdb-2021-045"),
        ("Chevron U.S.A. Inc. v. NRDC", "scdb-1983-134"),
        // Initials with periods, a query typed in lower case, and the
        // agency a party acts through.
        ("N.L.R.B. v. Brown", "scdb-1964-063"),
        ("ins v. chadha", "scdb-1982-130"),
        ("epa v. west virginia", "scdb-2021-045"),
        ("IRS v. McDermott", "scdb-1992-048"),
        // Initials with or without the company's word, on the sides asked
        // (not COLUMBIA BROADCASTING SYSTEM v. DEMOCRATIC NATIONAL
        // COMMITTEE, more cited).
        ("Rodriguez v. FDIC", "scdb-2019-023"),
        ("United States v. IBM", "scdb-1995-065"),
        ("CBS v. FCC", "scdb-1980-145"),
    ] {
        assert_found_first(&library, query, id);
        if query.contains(" v. ") {
            let names = library.search_names(query, 3).unwrap();
            assert_eq!(names[0].id, id, "{query}: {names:?}");
        }
    }
    // A court named by a query, in words or as the Bluebook abbreviates
    // it, lists its cases, those with names first.
    for (query, court, limit) in [
        ("Ninth Circuit", "ca9", 5),
        ("9th Cir.", "ca9", 5),
        ("scotus", "scotus", 500),
    ] {
        let hits = library.search(query, None, limit).unwrap();
        assert_eq!(hits.len(), limit, "{query}");
        assert!(
            hits.iter()
                .all(|hit| hit.court.as_deref() == Some(court) && !hit.name.is_empty()),
            "{query}: {hits:?}"
        );
    }
    // ... and, beside other words, its cases that hold them.
    for query in ["Ninth Circuit Garland", "Garland 9th Cir."] {
        let hits = library.search(query, None, 5).unwrap();
        assert_eq!(hits.len(), 5, "{query}");
        assert!(
            hits.iter()
                .all(|hit| hit.court.as_deref() == Some("ca9") && hit.name.contains("Garland")),
            "{query}: {hits:?}"
        );
    }
    // A limit past the library's documents gives them all, not a panic.
    for query in ["Brown v. Board", "scotus"] {
        assert!(!library.search(query, None, usize::MAX).unwrap().is_empty());
    }
    // A query that reads as a citation finds what it cites first, in the
    // shorthand lawyers type as well as in Bluebook form; numbers alone
    // would match regulations whose numbers hold them. A name misspelt
    // finds the case when no name holds its words as written: before,
    // "Gidoen v. Wainwright" gave Wainwright v. Sykes.
    for (query, id) in [
        ("42 USC 1983", "usc/42/1983"),
        ("42 U.S.C. § 1983", "usc/42/1983"),
        ("28 USC 1331", "usc/28/1331"),
        ("FRE 803", "fre/803"),
        ("Fed R Civ P 12(b)(6)", "frcp/12"),
        ("Miranda, 384 U.S. 436", "scdb-1965-122"),
        ("Mirnda v. Arizona", "scdb-1965-122"),
        ("Gidoen v. Wainwright", "scdb-1962-058"),
        ("Obergefel v. Hodges", "scdb-2014-070"),
    ] {
        assert_found_first(&library, query, id);
    }
    let cases_only = library.search("42 USC 1983", Some("case"), 3).unwrap();
    assert!(
        cases_only.iter().all(|hit| hit.kind == "case"),
        "{cases_only:?}"
    );
    // Accents are not needed to find a name that has them.
    let hits = library
        .search("Department of State v. Munoz", None, 3)
        .unwrap();
    assert_eq!(hits[0].id, "scdb-2023-058", "{hits:?}");
    // A docket number finds its case, written as the court writes it or in
    // other case, and the hit shows it.
    for query in [
        "CL-2025-0576",
        "cl 2025 0576",
        "20240106",
        "No. CL-2025-0576",
        "Docket No. 20240106",
    ] {
        let hits = library.search(query, None, 3).unwrap();
        let docket = query
            .rsplit(' ')
            .next()
            .filter(|_| query.contains("No."))
            .map_or_else(|| query.to_uppercase().replace(' ', "-"), str::to_string);
        assert!(
            hits.first()
                .is_some_and(|hit| hit.docket_numbers.contains(&docket)),
            "{query}: {hits:?}"
        );
    }
    // Numbers written with spaces after "Case No.", and a list after "Nos.",
    // whose case holds both.
    for (query, docket) in [
        ("Case No. 2021 CA 00009", "2021 CA 00009"),
        ("Nos. 07-1428, 08-328", "08-328"),
    ] {
        let hits = library.search(query, None, 3).unwrap();
        assert!(
            hits.first()
                .is_some_and(|hit| hit.docket_numbers.iter().any(|d| d == docket)),
            "{query}: {hits:?}"
        );
    }
    // A docket number with the dash SCDB prints (Glebe v. Frost); the
    // cases of that docket itself before those of longer ones holding its
    // number ("73-759"), the most cited first (Miranda v. Arizona is No.
    // 759 of its Term, as is Swenson v. Bosler).
    for (query, id) in [("14–95", "scdb-2014-079"), ("No. 759", "scdb-1965-122")] {
        let hits = library.search(query, None, 3).unwrap();
        assert_eq!(
            hits.first().map(|h| h.id.as_str()),
            Some(id),
            "{query}: {hits:?}"
        );
    }
    // A court by its id; a name no case has lists no "V.I." citation for
    // its "v."; a judge's name that opinions hold as written is no
    // misspelling of a party's (Justice Kagan is not United States v.
    // Kahan).
    let scotus = library.search("scotus", Some("case"), 3).unwrap();
    assert!(
        scotus.len() == 3
            && scotus
                .iter()
                .all(|hit| hit.court.as_deref() == Some("scotus")),
        "{scotus:?}"
    );
    let nobody = library.search("Xyzzy v. Plugh", None, 10).unwrap();
    assert!(
        nobody
            .iter()
            .all(|hit| hit.citations.iter().all(|c| !c.contains("V.I."))),
        "{nobody:?}"
    );
    let kagan = library.search("Kagan", None, 3).unwrap();
    assert!(
        !kagan.is_empty() && kagan.iter().all(|hit| !hit.name.contains("KAHAN")),
        "{kagan:?}"
    );
    // A matter is named by its subject: In re Oliver before the cases with
    // an Oliver as a party.
    for query in ["In re Oliver", "in re oliver"] {
        let hits = library.search(query, Some("case"), 5).unwrap();
        assert_eq!(
            hits.first().map(|h| h.id.as_str()),
            Some("scdb-1947-048"),
            "{query}: {hits:?}"
        );
    }
    // Abbreviations written with an apostrophe too.
    let nfib = library
        .search_names("Nat'l Fed'n of Indep. Bus. v. Sebelius", 3)
        .unwrap();
    assert_eq!(nfib[0].id, "scdb-2011-077", "{nfib:?}");
    // Names the index holds with apostrophes (as two words, "ass" "n"),
    // found spelt out and abbreviated.
    for query in [
        "National Association of Manufacturers v. Department of Treasury",
        "Nat'l Ass'n of Mfrs. v. Dep't of Treasury",
    ] {
        let names = library.search_names(query, 3).unwrap();
        assert_eq!(
            names.first().map(|h| h.name.as_str()),
            Some("Nat'l Ass'n of Mfrs. v. U.S. Dep't of Treasury"),
            "{query}: {names:?}"
        );
    }
    let names = library
        .search_names("Direct Marketing Association v. Brohl", 3)
        .unwrap();
    assert_eq!(names[0].id, "scdb-2014-029", "{names:?}");
    let reversed = library.search("Board v. Brown", Some("case"), 3).unwrap();
    let name = reversed[0].name.to_uppercase();
    let (first, second) = name.split_once(" V. ").unwrap();
    assert!(
        first.contains("BOARD") && second.contains("BROWN"),
        "{reversed:?}"
    );
    // A party's name alone, in capitals: the most cited case with it.
    let hits = library.search("Miranda", None, 3).unwrap();
    assert_eq!(hits[0].id, "scdb-1965-122", "{hits:?}");
    let names = library.search_names("Miranda v. Arizona", 3).unwrap();
    assert_eq!(
        names.first().map(|h| h.name.to_uppercase()).as_deref(),
        Some("MIRANDA V. ARIZONA")
    );
    assert!(
        library
            .search_names("v. in re of the", 3)
            .unwrap()
            .is_empty(),
        "connectives alone name no case"
    );
    let hits = library
        .search(
            "separate educational facilities inherently unequal",
            None,
            5,
        )
        .unwrap();
    assert!(!hits.is_empty());
    // A passage quoted from an opinion, with a case it cites: the opinion
    // holding every word, before the cases of one party's name.
    let hits = library
        .search("is unpersuasive in Bracken v. Block", None, 3)
        .unwrap();
    assert_eq!(hits[0].id, "cap-5594507", "{hits:?}");
    // PDF text's ligatures ("deﬁciency") are found as letters typed, and
    // as pasted.
    for query in [
        "iron deficiency anaemia and hypoalbuminaemia",
        "iron deﬁciency anaemia and hypoalbuminaemia",
    ] {
        assert_found_first(&library, query, "scdb-2008-079");
    }
    // Head matter is searched with the opinions: this order's ruling is
    // in it.
    let hits = library
        .search(
            "erroneous notion that disqualification of a Justice",
            None,
            3,
        )
        .unwrap();
    assert_eq!(hits[0].id, "fc-737NW2d768_3New", "{hits:?}");
    let rules = library.search("summary judgment", Some("frcp"), 3).unwrap();
    assert_eq!(rules[0].id, "frcp/56");
    assert!(
        library.search("§§ (( \"unbalanced", None, 5).is_ok(),
        "hostile queries are not errors"
    );
}

#[test]
fn overruled_decisions_are_recorded() {
    let (_dir, library) = library();
    let bowers = lookup(&library, "478 U.S. 186");
    let id = bowers["cases"][0]["caseId"].as_str().unwrap().to_string();
    let overrulings = library
        .store
        .read(|txn| lexstack::library::store::overrulings(txn, &id))
        .unwrap();
    assert!(
        overrulings.iter().any(|o| o.by_name.contains("Lawrence")),
        "{overrulings:?}"
    );
    let overruled_by = |cite: &str| {
        let answer = lookup(&library, cite);
        let id = answer["cases"][0]["caseId"].as_str().unwrap().to_string();
        let overrulings = library
            .store
            .read(|txn| lexstack::library::store::overrulings(txn, &id))
            .unwrap();
        (answer, overrulings)
    };
    // Where no held case starts at the table's page: a concurrence at its
    // own page is its decision's (Johnson v. Louisiana, 406 U.S. 356)...
    let (johnson, overrulings) = overruled_by("406 U.S. 366");
    assert_eq!(johnson["cases"][0]["caseId"], "scdb-1971-110", "{johnson}");
    assert!(
        overrulings.iter().any(|o| o.by_name.contains("Ramos")),
        "{overrulings:?}"
    );
    // ... and a summary disposition inside an order list is recorded from
    // the table, so that its citation finds it.
    let (baker, overrulings) = overruled_by("409 U.S. 810");
    assert_eq!(baker["verdict"], "found", "{baker}");
    assert_eq!(baker["cases"][0]["name"], "Baker v. Nelson", "{baker}");
    assert!(
        overrulings.iter().any(|o| o.by_name.contains("Obergefell")),
        "{overrulings:?}"
    );
    // An overruling decision takes the table's U.S. cite, which SCDB does
    // not give yet.
    let dobbs = lookup(&library, "597 U.S. 215");
    assert_eq!(dobbs["verdict"], "found", "{dobbs}");
    assert_eq!(
        dobbs["cases"][0]["caseId"],
        lookup(&library, "142 S. Ct. 2228")["cases"][0]["caseId"]
    );
}

/// `library search` gives `id` first for `query`.
fn assert_found_first(library: &Library, query: &str, id: &str) {
    let hits = library.search(query, None, 3).unwrap();
    assert_eq!(
        hits.first().map(|h| h.id.as_str()),
        Some(id),
        "{query}: {hits:?}"
    );
}

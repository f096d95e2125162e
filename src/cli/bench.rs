//! Benchmarks run from the command line; they print their figures.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use super::out;
use crate::library::import::courtlistener;
use crate::library::model::CiteKey;
use crate::library::{Library, LibraryIndex, lookup, synthetic};
use crate::store::LIBRARY_FILE;

/// Peak resident set size of this process, from /proc (Linux).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// p50, p99 and max of a set of durations, in microseconds.
pub fn percentiles(mut samples: Vec<Duration>) -> serde_json::Value {
    samples.sort();
    let at = |q: f64| {
        let index = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples
            .get(index)
            .map(|d| d.as_secs_f64() * 1e6)
            .unwrap_or(0.0)
    };
    json!({ "p50_us": at(0.50), "p99_us": at(0.99), "max_us": at(1.0), "n": samples.len() })
}

/// Imports a (synthetic) CourtListener directory into the library of
/// `data` and times it, then times citation lookups and name searches.
pub fn library(data: &Path, dir: &Path, samples: usize) -> anyhow::Result<()> {
    let library = Library::open(data)?;
    let started = Instant::now();
    let report = courtlistener::import_dir(&library, dir, courtlistener::Options::default())?;
    let imported = started.elapsed();
    let indexed = library.index_pending()?;
    let total = started.elapsed();
    let clusters = library
        .status()?
        .counts
        .get("source:courtlistener")
        .copied()
        .unwrap_or(0) as u64;

    let mut lookups = Vec::with_capacity(samples);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut found = 0;
    for _ in 0..samples {
        let cluster = 1 + next() % clusters.max(1);
        let (volume, reporter, page) = synthetic::citation_of(cluster, false);
        let key = CiteKey {
            volume: volume as u32,
            reporter: reporter.to_string(),
            page: page as u32,
        };
        let start = Instant::now();
        let verdict = library.store.read(|txn| lookup::find_case(txn, &key))?;
        lookups.push(start.elapsed());
        if matches!(verdict, lookup::CaseLookup::Found { .. }) {
            found += 1;
        }
    }
    let mut searches = Vec::with_capacity(samples / 10);
    for _ in 0..(samples / 10).max(1) {
        let a = synthetic::SURNAMES[(next() % synthetic::SURNAMES.len() as u64) as usize];
        let b = synthetic::SURNAMES[(next() % synthetic::SURNAMES.len() as u64) as usize];
        let start = Instant::now();
        library.search(&format!("{a} v. {b}"), Some("case"), 10)?;
        searches.push(start.elapsed());
    }
    let store_bytes = std::fs::metadata(data.join(LIBRARY_FILE))
        .map(|m| m.len())
        .unwrap_or(0);
    let figures = json!({
        "rows": report.rows,
        "skipped": report.skipped,
        "clusters": clusters,
        "import_seconds": imported.as_secs_f64(),
        "index_seconds": (total - imported).as_secs_f64(),
        "indexed_documents": indexed,
        "end_to_end_seconds": total.as_secs_f64(),
        "clusters_per_second": clusters as f64 / total.as_secs_f64(),
        "citation_lookup": percentiles(lookups),
        "citation_lookups_found": found,
        "name_search": percentiles(searches),
        "store_bytes": store_bytes,
        "index_bytes": LibraryIndex::size_bytes(data),
        "peak_rss_bytes": peak_rss_bytes(),
    });
    out(serde_json::to_string_pretty(&figures)?);
    Ok(())
}

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
    // Figures of an import into a library that already holds cases, or the
    // same dump, measure something else (a re-run is all "already done").
    if data.join(crate::store::LIBRARY_FILE).exists() {
        anyhow::bail!(
            "{} already holds a library; the bench imports into a fresh one: give it a new --data directory",
            data.display()
        );
    }
    let library = Library::open(data)?;
    let started = Instant::now();
    let report = courtlistener::import_dir(&library.store, dir, courtlistener::Options::default())?;
    let imported = started.elapsed();
    let indexed = library.index_pending()?;
    let total = started.elapsed();
    let clusters = library
        .status()?
        .counts
        .get("source:courtlistener")
        .copied()
        .unwrap_or(0) as u64;
    // Reads are timed as the server started after an import sees them (the
    // import holds the library's only writer, so the server is stopped
    // while it runs): the import's handle closed, its index merges
    // finished, the library opened again.
    drop(library);
    let merged = started.elapsed();
    let library = Library::open(data)?;

    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // The library was just opened: the first `samples` lookups meet a cold
    // page cache. The last `samples`, after ten times as many lookups of
    // other citations, show the steady state of a serving library. Both
    // are reported; the ones between are not.
    let mut found = 0;
    let rounds = 12 * samples;
    let mut timings = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let cluster = 1 + next() % clusters.max(1);
        let (volume, reporter, page) = synthetic::citation_of(cluster, false);
        let key = CiteKey {
            volume: volume as u32,
            reporter: reporter.to_string(),
            page: page as u32,
        };
        let start = Instant::now();
        let verdict = library.store.read(|txn| lookup::find_case(txn, &key))?;
        timings.push(start.elapsed());
        if matches!(verdict, lookup::CaseLookup::Found { .. }) {
            found += 1;
        }
    }
    let cold = timings[..samples].to_vec();
    let lookups = timings.split_off(rounds - samples);
    let mut searches = Vec::with_capacity(samples / 10);
    for _ in 0..(samples / 10).max(1) {
        let a = synthetic::SURNAMES[(next() % synthetic::SURNAMES.len() as u64) as usize];
        let b = synthetic::SURNAMES[(next() % synthetic::SURNAMES.len() as u64) as usize];
        let start = Instant::now();
        library.search_names(&format!("{a} v. {b}"), 10)?;
        searches.push(start.elapsed());
    }
    // What the hourly `index_checksums` sweep costs at this size.
    let start = Instant::now();
    library.index.check_files()?;
    let index_check = start.elapsed();
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
        "index_merges_seconds": (merged - total).as_secs_f64(),
        "clusters_per_second": clusters as f64 / total.as_secs_f64(),
        "citation_lookup_cold": percentiles(cold),
        "citation_lookup": percentiles(lookups),
        "citation_lookups": rounds,
        "citation_lookups_found": found,
        "name_search": percentiles(searches),
        "index_checksums_seconds": index_check.as_secs_f64(),
        "store_bytes": store_bytes,
        "index_bytes": LibraryIndex::size_bytes(data),
        "peak_rss_bytes": peak_rss_bytes(),
    });
    out(serde_json::to_string_pretty(&figures)?);
    Ok(())
}

/// A brief of about `chars` characters citing `citations` distinct
/// authorities the default library holds (and some it does not).
fn brief(chars: usize, citations: usize) -> String {
    let held = [
        "Brown v. Board of Education, 347 U.S. 483, 495 (1954)",
        "Nijhawan v. Holder, 557 U.S. 29, 40 (2009)",
        "Ricci v. DeStefano, 557 U.S. 557, 580 (2009)",
        "Polar Tankers, Inc. v. City of Valdez, 557 U.S. 1, 5 (2009)",
        "Pleasant Grove City v. Summum, 555 U.S. 460, 467 (2009)",
        "Bowers v. Hardwick, 478 U.S. 186 (1986)",
        "42 U.S.C. § 1983",
        "Fed. R. Civ. P. 12(b)(6)",
        "29 C.F.R. § 1910.1200",
    ];
    let mut cites: Vec<String> = held.iter().map(|c| c.to_string()).collect();
    let mut n = 0;
    while cites.len() < citations {
        n += 1;
        cites.push(format!(
            "Doe v. Roe Holdings {n}, {} F.3d {} (9th Cir. 2001)",
            100 + n,
            10 * n
        ));
    }
    let filler = "The district court weighed the record and the parties' submissions with care. ";
    let fillers_per_citation = (chars / citations.max(1)) / filler.len();
    let mut text = String::with_capacity(chars + 1000);
    for cite in cites.iter().take(citations) {
        text.push_str(&filler.repeat(fillers_per_citation));
        text.push_str(&format!("See {cite}. "));
    }
    while text.len() < chars {
        text.push_str(filler);
    }
    text.truncate(chars);
    text
}

/// Serves the data directory's library in-process and measures verify of a
/// 100,000-character brief (one request at a time) and resolve of 50
/// citations under concurrent load, with billing and the durable ledger on.
pub async fn api(data: &Path, seconds: u64, concurrency: usize) -> anyhow::Result<()> {
    let mut config = crate::config::Config::for_data_dir(data);
    config.rate_limits.resolve.per_minute = 0;
    config.rate_limits.verify.per_minute = 0;
    config.log_filter = "warn".into();
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let app = crate::app::App::build(config, listener).await?;
    let base = format!("http://{}", app.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run(async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(concurrency)
        .build()?;
    let token = std::fs::read_to_string(data.join(crate::app::ADMIN_TOKEN_FILE))?;
    let created: serde_json::Value = client
        .post(format!("{base}/admin/keys"))
        .bearer_auth(token.trim())
        .json(&json!({ "balanceUsd": "1000000", "label": "bench" }))
        .send()
        .await?
        .json()
        .await?;
    let key = created["key"].as_str().unwrap_or_default().to_string();

    let document = brief(100_000, 50);
    let mut verify = Vec::new();
    let mut checked = 0;
    for n in 0..200 {
        let start = Instant::now();
        let response: serde_json::Value = client
            .post(format!("{base}/v1/citations/verify"))
            .bearer_auth(&key)
            .header("X-Request-Id", format!("bench-verify-{n}"))
            .json(&json!({ "text": document }))
            .send()
            .await?
            .json()
            .await?;
        verify.push(start.elapsed());
        checked = response["data"]["stats"]["total"].as_u64().unwrap_or(0);
    }

    let citations: Vec<String> = (0..50)
        .map(|n| match n % 5 {
            0 => "347 U.S. 483".to_string(),
            1 => format!("42 U.S.C. § {}", 1981 + n % 7),
            2 => "Fed. R. Civ. P. 56".to_string(),
            3 => format!("{} F.3d {}", 100 + n, 1 + n),
            _ => "557 U.S. 557".to_string(),
        })
        .collect();
    let body = json!({ "citations": citations });
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for worker in 0..concurrency {
        let (client, base, key, body) = (client.clone(), base.clone(), key.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut n = 0u64;
            while Instant::now() < deadline {
                n += 1;
                let start = Instant::now();
                let ok = client
                    .post(format!("{base}/v1/citations/resolve"))
                    .bearer_auth(&key)
                    .header("X-Request-Id", format!("bench-resolve-{worker}-{n}"))
                    .json(&body)
                    .send()
                    .await
                    .map(|r| r.status().is_success())
                    .unwrap_or(false);
                if ok {
                    latencies.push(start.elapsed());
                }
            }
            latencies
        }));
    }
    let started = Instant::now();
    let mut resolve = Vec::new();
    for task in tasks {
        resolve.extend(task.await?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let requests = resolve.len();
    let figures = json!({
        "verify_100k_chars": { "citations_checked": checked, "latency": percentiles(verify) },
        "resolve_50_citations": {
            "concurrency": concurrency,
            "seconds": elapsed,
            "requests": requests,
            "requests_per_second": requests as f64 / elapsed,
            "latency": percentiles(resolve),
        },
        "peak_rss_bytes": peak_rss_bytes(),
    });
    let _ = stop.send(());
    server.await??;
    out(serde_json::to_string_pretty(&figures)?);
    Ok(())
}

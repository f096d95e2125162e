//! `lexstack cite`: citation extraction from the command line, in the
//! format `data-schema/citations.md` describes, and its benchmark.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use std::collections::BTreeMap;

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;
use serde_json::Value;

use crate::citations::{
    Citation, CitationKind, CodePoints, Extractor, LawKey, SubsequentHistory, bluebook,
};

#[derive(Debug, Subcommand)]
pub enum CiteCommand {
    /// Read a document on stdin and print its citations as a JSON array
    /// (with --jsonl: read `{"id","text"}` lines, print `{"id","citations"}`
    /// lines).
    Extract(ExtractArgs),
    /// Measure extraction speed over a directory of .txt documents.
    #[command(hide = true)]
    Bench(BenchArgs),
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Read and write one JSON object per line.
    #[arg(long)]
    jsonl: bool,
    /// How spans count: Unicode code points (Python's str indexes) or
    /// UTF-8 bytes.
    #[arg(long, value_enum, default_value_t = Offsets::Codepoints)]
    offsets: Offsets,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Offsets {
    Codepoints,
    Bytes,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Directory of .txt documents (e.g. the evaluation corpus).
    #[arg(long, value_name = "DIR")]
    corpus: PathBuf,
    /// Timed runs per measurement; the best is reported.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Threads for the all-cores run (default: all available).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(command: CiteCommand) -> anyhow::Result<()> {
    match command {
        CiteCommand::Extract(args) => extract(&args),
        CiteCommand::Bench(args) => bench(&args),
    }
}

/// One output line of `--jsonl`.
#[derive(Serialize)]
struct Line<'a> {
    id: &'a Value,
    citations: Vec<Output<'a>>,
}

fn extract(args: &ExtractArgs) -> anyhow::Result<()> {
    let extractor = Extractor::shared();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.jsonl {
        for (number, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.with_context(|| format!("line {}: reading stdin", number + 1))?;
            if line.trim().is_empty() {
                continue;
            }
            let input: Value = serde_json::from_str(&line)
                .with_context(|| format!("line {}: not a JSON object", number + 1))?;
            let Some(text) = input.get("text").and_then(Value::as_str) else {
                bail!("line {}: no \"text\" string", number + 1);
            };
            let id = input.get("id").cloned().unwrap_or(Value::Null);
            let citations = extractor.extract(text);
            let line = Line {
                id: &id,
                citations: outputs(text, &citations, args.offsets),
            };
            serde_json::to_writer(&mut out, &line)?;
            out.write_all(b"\n")?;
        }
    } else {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("reading stdin")?;
        let text = String::from_utf8_lossy(&bytes);
        let citations = extractor.extract(&text);
        serde_json::to_writer(&mut out, &outputs(&text, &citations, args.offsets))?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// One citation as printed (see data-schema/citations.md).
#[derive(Serialize)]
struct Output<'a> {
    #[serde(rename = "type")]
    kind: CitationKind,
    span: [usize; 2],
    full_span: [usize; 2],
    matched_text: &'a str,
    volume: &'a Option<String>,
    reporter: Option<&'a str>,
    reporter_found: &'a Option<String>,
    page: &'a Option<String>,
    pin_cite: &'a Option<String>,
    year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    publisher: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    supplement: &'a Option<String>,
    court: Option<&'static str>,
    court_found: &'a Option<String>,
    parenthetical: &'a Option<String>,
    plaintiff: &'a Option<String>,
    defendant: &'a Option<String>,
    case_name: &'a Option<String>,
    resolves_to: Option<usize>,
    parallel: &'a [usize],
    subsequent_history: &'a [SubsequentHistory],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    reporter_candidates: &'a [&'static str],
    /// The parts of a law citation under the names reporters-db gives
    /// them (`title`, `chapter`, `section`, `rule`, …), as the scorer and
    /// eyecite read them.
    #[serde(flatten)]
    law_parts: BTreeMap<&'static str, &'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    law: Option<&'a LawKey>,
    bluebook: Option<String>,
}

/// The citations of one document in output form.
fn outputs<'a>(text: &'a str, citations: &'a [Citation], offsets: Offsets) -> Vec<Output<'a>> {
    let code_points = CodePoints::new(text);
    let offset = |byte: usize| match offsets {
        Offsets::Codepoints => code_points.offset(byte),
        Offsets::Bytes => byte,
    };
    citations
        .iter()
        .map(|c| {
            let mut law_parts = BTreeMap::new();
            if let Some(law) = &c.law {
                if c.volume.is_none() {
                    law_parts.extend(law.title.as_deref().map(|t| ("title", t)));
                }
                law_parts.extend(law.chapter.as_deref().map(|t| ("chapter", t)));
                law_parts.extend(law.part.as_deref().map(|t| ("part", t)));
                law_parts.extend(law.section.as_deref().map(|t| (law.unit, t)));
                law_parts.extend(law.article.as_deref().map(|t| ("article", t)));
                law_parts.extend(law.amendment.as_deref().map(|t| ("amendment", t)));
            }
            Output {
                kind: c.kind,
                span: [offset(c.span.start), offset(c.span.end)],
                full_span: [offset(c.full_span.start), offset(c.full_span.end)],
                matched_text: c.text(text),
                volume: &c.volume,
                // An ambiguous abbreviation is printed as written, with
                // the editions it may mean in `reporter_candidates`.
                reporter: c.reporter.or(c
                    .reporter_found
                    .as_deref()
                    .filter(|_| !c.reporter_candidates.is_empty())),
                reporter_found: &c.reporter_found,
                page: &c.page,
                pin_cite: &c.pin_cite,
                year: c.year,
                publisher: &c.publisher,
                supplement: &c.supplement,
                court: c.court,
                court_found: &c.court_found,
                parenthetical: &c.parenthetical,
                plaintiff: &c.plaintiff,
                defendant: &c.defendant,
                case_name: &c.case_name,
                resolves_to: c.resolves_to,
                parallel: &c.parallel,
                subsequent_history: &c.subsequent_history,
                reporter_candidates: &c.reporter_candidates,
                law_parts,
                law: c.law.as_deref(),
                bluebook: bluebook(c),
            }
        })
        .collect()
}

fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let extractor = Extractor::shared();
    let startup = started.elapsed();
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in
        std::fs::read_dir(&args.corpus).with_context(|| format!("reading {:?}", args.corpus))?
    {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "txt") {
            let bytes = std::fs::read(&path)?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            files.push((name, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    files.sort();
    if files.is_empty() {
        bail!("no .txt files in {:?}", args.corpus);
    }
    let repeat = args.repeat.max(1);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!(
        "start-up (building matchers from the embedded data): {:.1} ms",
        ms(startup)
    );
    println!();
    println!(
        "{:<28}{:>10}{:>11}{:>10}{:>14}",
        "document", "MB", "MB/s", "cites", "cites/s"
    );
    let mut total_bytes = 0;
    for (name, text) in &files {
        let (time, count) = best_of(repeat, || extractor.extract(text).len());
        total_bytes += text.len();
        row(name, text.len(), time, count);
    }
    let docs: Vec<&str> = files.iter().map(|(_, t)| t.as_str()).collect();
    let (time, count) = best_of(repeat, || {
        docs.iter().map(|d| extractor.extract(d).len()).sum()
    });
    row("corpus, 1 thread", total_bytes, time, count);
    // Many documents, so the threads share the work evenly.
    let many: Vec<&str> = docs.iter().copied().cycle().take(docs.len() * 8).collect();
    let (time, count) = best_of(repeat, || parallel(extractor, &many, 1));
    row("corpus x8, 1 thread", total_bytes * 8, time, count);
    let (time, count) = best_of(repeat, || parallel(extractor, &many, threads));
    row(
        &format!("corpus x8, {threads} threads"),
        total_bytes * 8,
        time,
        count,
    );
    println!();
    let joined = docs.join("\n\n");
    for size in [1_000_000, 10_000_000] {
        let text = repeat_to(&joined, size);
        let (time, count) = best_of(repeat, || extractor.extract(&text).len());
        row(
            &format!("{} MB document", size / 1_000_000),
            text.len(),
            time,
            count,
        );
    }
    println!();
    println!(
        "peak RSS after the documents above: {}",
        peak_rss().unwrap_or_else(|| "unknown".into())
    );
    println!();
    let adversarial = [
        ("a million digits", "1".repeat(1_000_000)),
        ("1 MB of \"v. \"", "v. ".repeat(333_334)),
        (
            "nested parentheses",
            format!("{}{}", "(".repeat(500_000), ")".repeat(500_000)),
        ),
        ("1 MB of \"1 U.S. \"", "1 U.S. ".repeat(142_858)),
        ("1 MB of \"Id. \"", "Id. ".repeat(250_000)),
        ("1 MB of \"§ \"", "§ ".repeat(333_334)),
        (
            "1 MB of \"A v. B, 1 F.3d 1 (\"",
            "A v. B, 1 F.3d 1 (".repeat(55_556),
        ),
    ];
    for (name, text) in &adversarial {
        let (time, count) = best_of(1, || extractor.extract(text).len());
        row(name, text.len(), time, count);
    }
    println!();
    println!(
        "peak RSS after the adversarial inputs: {}",
        peak_rss().unwrap_or_else(|| "unknown".into())
    );
    Ok(())
}

fn parallel(extractor: &Extractor, docs: &[&str], threads: usize) -> usize {
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    docs.iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|d| extractor.extract(d).len())
                        .sum::<usize>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}

fn best_of(repeat: usize, mut work: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut count = 0;
    for _ in 0..repeat {
        let started = Instant::now();
        count = work();
        best = best.min(started.elapsed());
    }
    (best, count)
}

fn row(name: &str, bytes: usize, time: Duration, count: usize) {
    let secs = time.as_secs_f64().max(1e-9);
    println!(
        "{:<28}{:>10.3}{:>11.1}{:>10}{:>14.0}",
        name,
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs,
        count,
        count as f64 / secs
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `text` repeated to at least `size` bytes, cut at a char boundary.
fn repeat_to(text: &str, size: usize) -> String {
    let mut out = String::with_capacity(size + text.len());
    while out.len() < size {
        out.push_str(text);
        out.push_str("\n\n");
    }
    let mut cut = size;
    while !out.is_char_boundary(cut) {
        cut += 1;
    }
    out.truncate(cut);
    out
}

/// Peak resident set size of this process (Linux `VmHWM`).
fn peak_rss() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_string())
}

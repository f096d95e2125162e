//! `lexstack cite`: citation extraction from the command line, in the
//! format `data-schema/citations.md` describes, and its benchmark.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Map, Value, json};

use crate::citations::{Citation, CodePoints, Extractor, bluebook};

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

fn extract(args: &ExtractArgs) -> anyhow::Result<()> {
    let extractor = Extractor::shared();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.jsonl {
        for (number, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            if line.trim().is_empty() {
                continue;
            }
            let input: Value = serde_json::from_str(&line)
                .with_context(|| format!("line {}: not a JSON object", number + 1))?;
            let Some(text) = input.get("text").and_then(Value::as_str) else {
                bail!("line {}: no \"text\" string", number + 1);
            };
            let id = input.get("id").cloned().unwrap_or(Value::Null);
            let citations = to_json(text, &extractor.extract(text), args.offsets);
            serde_json::to_writer(&mut out, &json!({ "id": id, "citations": citations }))?;
            out.write_all(b"\n")?;
        }
    } else {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("reading stdin")?;
        let text = String::from_utf8_lossy(&bytes);
        let citations = to_json(&text, &extractor.extract(&text), args.offsets);
        serde_json::to_writer(&mut out, &citations)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// The citations of one document as JSON values.
fn to_json(text: &str, citations: &[Citation], offsets: Offsets) -> Value {
    let code_points = CodePoints::new(text);
    let offset = |byte: usize| match offsets {
        Offsets::Codepoints => code_points.offset(byte),
        Offsets::Bytes => byte,
    };
    let list = citations
        .iter()
        .map(|c| {
            let mut object = Map::new();
            let mut put = |key: &str, value: Value| {
                object.insert(key.to_string(), value);
            };
            put("type", json!(c.kind));
            put("span", json!([offset(c.span.start), offset(c.span.end)]));
            put(
                "full_span",
                json!([offset(c.full_span.start), offset(c.full_span.end)]),
            );
            put("matched_text", json!(c.text(text)));
            put("volume", json!(c.volume));
            put("reporter", json!(c.reporter));
            put("reporter_found", json!(c.reporter_found));
            put("page", json!(c.page));
            put("pin_cite", json!(c.pin_cite));
            put("year", json!(c.year));
            put("court", json!(c.court));
            put("court_found", json!(c.court_found));
            put("parenthetical", json!(c.parenthetical));
            put("plaintiff", json!(c.plaintiff));
            put("defendant", json!(c.defendant));
            put("case_name", json!(c.case_name));
            put("resolves_to", json!(c.resolves_to));
            put("parallel", json!(c.parallel));
            put("subsequent_history", json!(c.subsequent_history));
            if !c.reporter_candidates.is_empty() {
                put("reporter_candidates", json!(c.reporter_candidates));
            }
            if let Some(law) = &c.law {
                // The collection's own names for the parts, as the scorer
                // and eyecite read them.
                if c.volume.is_none() {
                    put("title", json!(law.title));
                }
                put("chapter", json!(law.chapter));
                put(law.unit, json!(law.section));
                if let Some(article) = &law.article {
                    put("article", json!(article));
                }
                if let Some(amendment) = &law.amendment {
                    put("amendment", json!(amendment));
                }
                put("law", json!(law));
            }
            put("bluebook", json!(bluebook(c)));
            Value::Object(object)
        })
        .collect();
    Value::Array(list)
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
    let (time, count) = best_of(repeat, || parallel(extractor, &docs, threads));
    row(
        &format!("corpus, {threads} threads"),
        total_bytes,
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
        "peak RSS: {}",
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

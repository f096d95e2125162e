//! Developer tools, hidden from `--help`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, bail};
use clap::Subcommand;

use super::{GlobalArgs, init_quiet_logging};
use crate::billing::{BilledItem, Billing, BillingError, Charge};
use crate::config::Config;
use crate::review::train::{self, TrainOptions};
use crate::store::Store;

/// Where the shipped weights live in the source tree.
const WEIGHTS_PATH: &str = "assets/review/weights.bin.gz";

#[derive(Debug, Subcommand)]
pub enum DevCommand {
    /// Charge a wallet from many tasks at once through the billing layer,
    /// printing `ack <request-id> <seq> <amount-micro-usd>` as each charge is
    /// acknowledged. Used by the crash test (kill -9 mid-run).
    BillingStress {
        /// The key whose wallet is charged.
        #[arg(long, value_name = "KEY_ID")]
        key_id: String,
        /// Concurrent charging tasks.
        #[arg(long, default_value_t = 16)]
        workers: usize,
        /// Charges per worker; 0 runs until killed.
        #[arg(long, default_value_t = 0)]
        charges: u64,
    },
    /// Write synthetic CourtListener bulk files (exact format) into DIR, for
    /// benchmarks: their made-up cases sit at real citations ("5 U.S. 1"),
    /// so import them into a data directory of their own, never into a
    /// library in use.
    GenCourtlistener {
        /// Clusters to write (1.5 citations, 1 opinion and 5 citation-map rows each).
        #[arg(long, default_value_t = 1000)]
        clusters: u64,
        /// Approximate size of each opinion's text.
        #[arg(long, default_value_t = 3000)]
        opinion_bytes: usize,
        /// Where to write the files (created when absent).
        #[arg(value_name = "DIR")]
        dir: std::path::PathBuf,
    },
    /// Import a CourtListener directory into a fresh library and measure:
    /// clusters/s end to end, citation lookup and name search latency,
    /// store and index size, peak RSS.
    BenchLibrary {
        /// The CourtListener folder to import.
        #[arg(value_name = "DIR")]
        dir: std::path::PathBuf,
        /// Lookups and searches to time.
        #[arg(long, default_value_t = 20_000)]
        samples: usize,
    },
    /// Serve the data directory in-process and measure verify (a
    /// 100,000-character brief, 50 citations) and resolve (50 citations,
    /// concurrent clients), billing and the durable ledger on.
    BenchApi {
        /// How long to run the resolve load.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Concurrent resolve clients.
        #[arg(long, default_value_t = 32)]
        concurrency: usize,
    },
    /// Train the review model on CUAD (JSONL, optionally .gz) and write the
    /// weights file compiled into the binary. Deterministic: the same input
    /// gives the same bytes.
    TrainReview {
        /// CUAD in JSONL (optionally .gz).
        #[arg(long, value_name = "FILE")]
        cuad: PathBuf,
        /// Where to write the weights.
        #[arg(long, value_name = "FILE", default_value = WEIGHTS_PATH)]
        out: PathBuf,
    },
    /// Cross-validate the review model on CUAD: per-category clause and
    /// document-presence figures, AUPR and contract-type accuracy, each
    /// contract decoded by a model that never saw it.
    CvReview {
        /// CUAD in JSONL (optionally .gz).
        #[arg(long, value_name = "FILE")]
        cuad: PathBuf,
        /// Folds of the cross-validation.
        #[arg(long, default_value_t = 5)]
        folds: usize,
        /// Also write the out-of-fold predictions (benchmark format) here.
        #[arg(long, value_name = "FILE")]
        predictions: Option<PathBuf>,
    },
}

pub async fn run(global: &GlobalArgs, command: DevCommand) -> anyhow::Result<()> {
    init_quiet_logging(global);
    let config = Config::load(&global.overrides())?;
    match command {
        DevCommand::BillingStress {
            key_id,
            workers,
            charges,
        } => billing_stress(&config, key_id, workers, charges).await,
        DevCommand::GenCourtlistener {
            clusters,
            opinion_bytes,
            dir,
        } => {
            let generated = tokio::task::spawn_blocking(move || {
                crate::library::synthetic::generate(&dir, clusters, opinion_bytes)
                    .with_context(|| format!("cannot write the dump into {}", dir.display()))
            })
            .await??;
            super::out(serde_json::to_string_pretty(&generated)?);
            eprintln!(
                "note: these made-up cases sit at real citations (\"5 U.S. 1\"): import them \
                 into a data directory of their own (`dev bench-library` takes a new one), never \
                 into a library in use"
            );
            Ok(())
        }
        DevCommand::BenchApi {
            seconds,
            concurrency,
        } => super::bench::api(&config.data_dir, seconds, concurrency).await,
        DevCommand::BenchLibrary { dir, samples } => {
            let data = config.data_dir.clone();
            tokio::task::spawn_blocking(move || super::bench::library(&data, &dir, samples)).await?
        }
        DevCommand::TrainReview { cuad, out } => train_review(&cuad, &out),
        DevCommand::CvReview {
            cuad,
            folds,
            predictions,
        } => cv_review(&cuad, folds, predictions.as_deref()),
    }
}

fn progress(message: &str) {
    eprintln!("{message}");
}

fn train_review(cuad: &std::path::Path, out: &std::path::Path) -> anyhow::Result<()> {
    let docs = train::read_cuad(cuad)?;
    let model = train::train(&docs, &TrainOptions::default(), &mut progress)?;
    let bytes = model.to_bytes()?;
    std::fs::write(out, &bytes)?;
    eprintln!(
        "wrote {} ({} bytes, {} clause weights, {} categories)",
        out.display(),
        bytes.len(),
        model.clauses.nonzero_weights(),
        model.clauses.len()
    );
    Ok(())
}

fn cv_review(
    cuad: &std::path::Path,
    folds: usize,
    predictions: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let docs = train::read_cuad(cuad)?;
    let options = TrainOptions {
        folds,
        ..TrainOptions::default()
    };
    let cv = train::cross_validate(&docs, &options, &mut progress)?;
    let mut writer = match predictions {
        Some(path) => Some(std::io::BufWriter::new(std::fs::File::create(path)?)),
        None => None,
    };
    let mut write_error = None;
    let report = train::evaluate(
        &docs,
        &cv.fold_models,
        &cv.fold_of_doc,
        &mut |doc, detection| {
            if let Some(w) = writer.as_mut() {
                let line = crate::review::prediction_json(&doc.id, &doc.text, detection);
                if let Err(e) = writeln!(w, "{line}") {
                    write_error.get_or_insert(e);
                }
            }
        },
    );
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if let Some(mut w) = writer {
        w.flush()?;
    }
    print!("{}", report.render());
    Ok(())
}

async fn billing_stress(
    config: &Config,
    key_id: String,
    workers: usize,
    charges: u64,
) -> anyhow::Result<()> {
    let store = Store::open(&config.data_dir)?;
    let billing = Arc::new(Billing::start(store));
    if billing.balance(&key_id)?.is_none() {
        bail!("no wallet for key {key_id}");
    }
    let stdout = Arc::new(std::sync::Mutex::new(std::io::stdout()));
    let mut tasks = Vec::new();
    for worker in 0..workers {
        let billing = billing.clone();
        let stdout = stdout.clone();
        let key_id = key_id.clone();
        tasks.push(tokio::spawn(async move {
            let mut n = 0u64;
            while charges == 0 || n < charges {
                n += 1;
                let request_id = format!("stress-{worker}-{n}");
                let charge = Charge {
                    key_id: key_id.clone(),
                    endpoint: "dev/billing-stress".into(),
                    request_id: request_id.clone(),
                    item: BilledItem::CitationsResolve,
                    units: 1 + n % 5,
                };
                match billing.charge(charge).await {
                    Ok(entry) => {
                        let mut out = stdout.lock().unwrap_or_else(|e| e.into_inner());
                        let _ = writeln!(
                            out,
                            "ack {request_id} {} {}",
                            entry.seq, entry.amount_micros
                        );
                        let _ = out.flush();
                    }
                    Err(BillingError::Closed) => break,
                    Err(err) => return Err(err),
                }
            }
            Ok(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    billing.shutdown();
    Ok(())
}

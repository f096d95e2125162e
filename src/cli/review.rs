//! `lexstack review`: the review engine on the command line, without a
//! server. `detect --jsonl` speaks the CUAD benchmark's prediction format;
//! `run` prints what `POST /v1/documents/review` returns as `data`.

use std::io::{BufRead, BufWriter, Read, Write};

use anyhow::{Context, bail};
use clap::Subcommand;
use serde::Deserialize;

use crate::review::{Engine, prediction_json};

#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    /// Detect clauses, key terms and the contract type. Reads the whole of
    /// stdin as one contract, or with --jsonl one `{"id","text"}` object per
    /// line; prints one JSON object per contract with code-point offsets.
    Detect {
        /// Read one `{"id","text"}` object per line instead of one contract.
        #[arg(long)]
        jsonl: bool,
    },
    /// Review the contract on stdin against a playbook (the detected
    /// type's when none is named) and print the result as JSON.
    Run {
        /// The playbook to review against (default: the detected type's).
        #[arg(long, value_name = "ID")]
        playbook: Option<String>,
    },
}

#[derive(Deserialize)]
struct Input {
    id: String,
    text: String,
}

pub fn run(command: ReviewCommand) -> anyhow::Result<()> {
    let engine = Engine::embedded().map_err(|e| anyhow::anyhow!("{e}"))?;
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    match command {
        ReviewCommand::Detect { jsonl: true } => {
            for (n, line) in stdin.lock().lines().enumerate() {
                let line = line.with_context(|| format!("line {}: reading stdin", n + 1))?;
                if line.trim().is_empty() {
                    continue;
                }
                let input: Input = serde_json::from_str(&line)
                    .with_context(|| format!("line {}: expected {{\"id\",\"text\"}}", n + 1))?;
                let detection = engine.detect(&input.text);
                serde_json::to_writer(
                    &mut out,
                    &prediction_json(&input.id, &input.text, &detection),
                )?;
                writeln!(out)?;
            }
        }
        ReviewCommand::Detect { jsonl: false } => {
            let text = read_stdin()?;
            let detection = engine.detect(&text);
            serde_json::to_writer(&mut out, &prediction_json("stdin", &text, &detection))?;
            writeln!(out)?;
        }
        ReviewCommand::Run { playbook } => {
            let text = read_stdin()?;
            let result = engine
                .review(&text, playbook.as_deref())
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            serde_json::to_writer_pretty(&mut out, &result)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn read_stdin() -> anyhow::Result<String> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("stdin must be UTF-8 text")?;
    if text.trim().is_empty() {
        bail!("no text on stdin");
    }
    Ok(text)
}

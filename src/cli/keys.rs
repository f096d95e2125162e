//! `lexstack keys …` and `lexstack wallet …`.

use anyhow::Context;
use clap::Subcommand;
use serde_json::{Value, json};

use super::remote::{Target, connect};
use super::{GlobalArgs, init_quiet_logging, out};
use crate::accounts::keys::KeySummary;
use crate::admin::{self, CreateKeyRequest, CreatedKey, WalletReport};
use crate::config::Config;

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create an API key and print it (only the key) on stdout.
    Create {
        /// Opening wallet balance in USD, e.g. 10 or 2.50.
        #[arg(long, value_name = "USD")]
        balance: Option<String>,
        /// Allow this key to read opinion bodies (/v1/cases/{id}/body).
        #[arg(long)]
        opinion_content: bool,
        /// A name to recognise the key by.
        #[arg(long, value_name = "TEXT", default_value = "")]
        label: String,
    },
    /// List every key with its balance.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key: it stops working at once.
    Revoke {
        /// The key's id, as `keys list` shows it.
        #[arg(value_name = "KEY_ID")]
        key_id: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum WalletCommand {
    /// Add USD to a key's wallet.
    Topup {
        /// The key's id, as `keys list` shows it.
        #[arg(value_name = "KEY_ID")]
        key_id: String,
        /// USD to add, e.g. 10 or 2.50.
        #[arg(value_name = "USD")]
        amount: String,
    },
    /// Show a key's balance and recent ledger entries.
    Show {
        /// The key's id, as `keys list` shows it.
        #[arg(value_name = "KEY_ID")]
        key_id: String,
        /// How many ledger entries to show.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub async fn run_keys(global: &GlobalArgs, command: KeysCommand) -> anyhow::Result<()> {
    init_quiet_logging(global);
    let config = Config::load(&global.overrides())?;
    let creates = matches!(command, KeysCommand::Create { .. });
    let target = connect(&config.data_dir, creates).await?;
    let done = keys_command(&target, command).await;
    target.advise(&config.data_dir, done)
}

async fn keys_command(target: &Target, command: KeysCommand) -> anyhow::Result<()> {
    match command {
        KeysCommand::Create {
            balance,
            opinion_content,
            label,
        } => {
            let request = CreateKeyRequest {
                label,
                balance_usd: balance,
                opinion_content,
            };
            let created: CreatedKey = match target {
                Target::Remote(remote) => {
                    serde_json::from_value(remote.post("/admin/keys", &json!(request)).await?)?
                }
                Target::Local(store) => admin::create_key(store, request)?,
            };
            out(format_args!("{}", created.key));
        }
        KeysCommand::List { json } => {
            let keys: Vec<KeySummary> = match target {
                Target::Remote(remote) => {
                    serde_json::from_value(remote.get("/admin/keys").await?["keys"].take())?
                }
                Target::Local(store) => admin::list_keys(store)?,
            };
            if json {
                out(format_args!("{}", serde_json::to_string_pretty(&keys)?));
            } else {
                print_key_table(&keys);
            }
        }
        KeysCommand::Revoke { key_id } => {
            match target {
                Target::Remote(remote) => {
                    remote
                        .post(&format!("/admin/keys/{key_id}/revoke"), &Value::Null)
                        .await?;
                }
                Target::Local(store) => {
                    admin::revoke_key(store, &key_id)?;
                }
            }
            out(format_args!("revoked {key_id}"));
        }
    }
    Ok(())
}

pub async fn run_wallet(global: &GlobalArgs, command: WalletCommand) -> anyhow::Result<()> {
    init_quiet_logging(global);
    let config = Config::load(&global.overrides())?;
    let target = connect(&config.data_dir, false).await?;
    let done = wallet_command(&target, command).await;
    target.advise(&config.data_dir, done)
}

async fn wallet_command(target: &Target, command: WalletCommand) -> anyhow::Result<()> {
    match command {
        WalletCommand::Topup { key_id, amount } => {
            let report: WalletReport = match target {
                Target::Remote(remote) => serde_json::from_value(
                    remote
                        .post(
                            &format!("/admin/wallets/{key_id}/topup"),
                            &json!({ "amountUsd": amount }),
                        )
                        .await?,
                )?,
                Target::Local(store) => admin::top_up(store, &key_id, &amount)?,
            };
            out(format_args!("{key_id} balance {} USD", report.balance_usd));
        }
        WalletCommand::Show {
            key_id,
            limit,
            json,
        } => {
            let report: WalletReport = match target {
                Target::Remote(remote) => serde_json::from_value(
                    remote
                        .get(&format!("/admin/wallets/{key_id}?limit={limit}"))
                        .await?,
                )
                .context("unexpected answer from the server")?,
                Target::Local(store) => admin::wallet(store, &key_id, limit)?,
            };
            if json {
                out(format_args!("{}", serde_json::to_string_pretty(&report)?));
            } else {
                print_wallet(&report);
            }
        }
    }
    Ok(())
}

fn print_key_table(keys: &[KeySummary]) {
    out(format_args!(
        "{:<22} {:<8} {:>16} {:<14} {:<24} LABEL",
        "KEY ID", "STATUS", "BALANCE USD", "PREFIX", "CREATED"
    ));
    for key in keys {
        let status = if key.active { "active" } else { "revoked" };
        out(format_args!(
            "{:<22} {:<8} {:>16} {:<14} {:<24} {}",
            key.key_id, status, key.balance_usd, key.prefix, key.created_at, key.label
        ));
    }
}

fn print_wallet(report: &WalletReport) {
    out(format_args!(
        "{} balance {} USD",
        report.key_id, report.balance_usd
    ));
    for entry in &report.ledger {
        let what = entry
            .endpoint
            .as_deref()
            .map(|e| format!("{e} ×{}", entry.units))
            .unwrap_or_else(|| "top-up".into());
        out(format_args!(
            "  #{:<8} {}  {:>16}  {:<32} {}",
            entry.seq,
            entry.at,
            entry.amount_usd,
            what,
            entry.request_id.as_deref().unwrap_or("")
        ));
    }
}

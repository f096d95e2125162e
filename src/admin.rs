//! The operator's key and wallet commands. The same functions serve the
//! loopback admin endpoints (server running) and the CLI opening the store
//! itself (server stopped), so both paths behave alike.

use serde::{Deserialize, Serialize};

use crate::accounts::keys::{self, KeySummary, NewKey};
use crate::billing::BillingError;
use crate::billing::ledger::{self, LedgerView, Posting};
use crate::billing::prices::{MAX_TOPUP_MICROS, format_usd, parse_usd};
use crate::store::{Store, StoreError, now_millis};

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("{0}")]
    Invalid(String),
    #[error("no API key {0}")]
    UnknownKey(String),
    #[error(transparent)]
    Billing(#[from] BillingError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateKeyRequest {
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    pub label: String,
    /// Opening balance in USD, as decimal text ("10", "2.50").
    #[serde(default)]
    pub balance_usd: Option<String>,
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    pub opinion_content: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatedKey {
    /// The secret, shown once.
    pub key: String,
    pub api_key: KeySummary,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopUpRequest {
    pub amount_usd: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletReport {
    pub key_id: String,
    pub balance_micro_usd: i64,
    pub balance_usd: String,
    pub ledger: Vec<LedgerView>,
}

pub fn create_key(store: &Store, request: CreateKeyRequest) -> Result<CreatedKey, AdminError> {
    let label = keys::validate_label(&request.label).map_err(AdminError::Invalid)?;
    let balance = match request.balance_usd.as_deref() {
        Some(text) => parse_amount(text)?,
        None => 0,
    };
    let issued = keys::issue(
        store,
        NewKey {
            label,
            owner_user_id: None,
            opinion_content: request.opinion_content,
            initial_balance_micros: balance,
        },
    )?;
    Ok(CreatedKey {
        key: issued.secret,
        api_key: KeySummary::new(&issued.record, balance),
    })
}

pub fn list_keys(store: &Store) -> Result<Vec<KeySummary>, AdminError> {
    Ok(keys::list(store, None)?)
}

pub fn revoke_key(store: &Store, key_id: &str) -> Result<KeySummary, AdminError> {
    keys::revoke(store, key_id, None)?.ok_or_else(|| AdminError::UnknownKey(key_id.to_string()))
}

pub fn wallet(store: &Store, key_id: &str, limit: usize) -> Result<WalletReport, AdminError> {
    store.read(|txn| {
        let balance = ledger::balance(txn, key_id)?
            .ok_or_else(|| AdminError::UnknownKey(key_id.to_string()))?;
        let entries = ledger::recent(txn, key_id, limit)?;
        Ok(WalletReport {
            key_id: key_id.to_string(),
            balance_micro_usd: balance,
            balance_usd: format_usd(balance),
            ledger: entries.iter().map(LedgerView::from).collect(),
        })
    })
}

pub fn top_up(store: &Store, key_id: &str, amount_usd: &str) -> Result<WalletReport, AdminError> {
    let amount = parse_amount(amount_usd)?;
    if amount == 0 {
        return Err(AdminError::Invalid(
            "a top-up must be more than zero".into(),
        ));
    }
    store.write(|txn| -> Result<(), AdminError> {
        ledger::post(txn, Posting::top_up(key_id, amount), now_millis()).map_err(
            |err| match err {
                ledger::PostingError::NoWallet(id) => AdminError::UnknownKey(id),
                other => AdminError::Billing(other.into()),
            },
        )?;
        Ok(())
    })?;
    wallet(store, key_id, 10)
}

fn parse_amount(text: &str) -> Result<i64, AdminError> {
    let amount = parse_usd(text).map_err(|err| AdminError::Invalid(err.to_string()))?;
    if amount > MAX_TOPUP_MICROS {
        return Err(AdminError::Invalid(format!(
            "{text} USD is over the limit of {} USD at a time",
            format_usd(MAX_TOPUP_MICROS)
        )));
    }
    Ok(amount)
}

//! Balances and the ledger, at transaction level: a posting writes the
//! ledger entry, the new balance and (for a charge) the idempotency record
//! in the caller's write transaction, so they commit together or not at all.

use redb::{ReadTransaction, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::prices::BilledItem;
use crate::store::tables::{BALANCES, BILLED_REQUESTS, LEDGER};
use crate::store::{StoreError, encode, next_seq};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    Charge,
    Topup,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntry {
    pub seq: u64,
    pub at: i64,
    pub key_id: String,
    pub kind: EntryKind,
    pub endpoint: Option<String>,
    pub request_id: Option<String>,
    pub item: Option<BilledItem>,
    pub units: u64,
    /// Signed: negative for a charge, positive for a top-up.
    pub amount_micros: i64,
    pub balance_after_micros: i64,
}

/// One change to a wallet.
#[derive(Debug, Clone)]
pub struct Posting {
    pub key_id: String,
    pub kind: EntryKind,
    pub endpoint: Option<String>,
    pub request_id: Option<String>,
    pub item: Option<BilledItem>,
    pub units: u64,
    pub amount_micros: i64,
}

impl Posting {
    /// Money added to a wallet by the operator (or an opening balance).
    pub fn top_up(key_id: &str, amount_micros: i64) -> Self {
        Self {
            key_id: key_id.to_string(),
            kind: EntryKind::Topup,
            endpoint: None,
            request_id: None,
            item: None,
            units: 0,
            amount_micros,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PostingError {
    #[error("request id already billed on this endpoint")]
    RequestIdReused,
    #[error("no wallet for key {0}")]
    NoWallet(String),
    #[error("balance out of range")]
    Overflow,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<redb::StorageError> for PostingError {
    fn from(err: redb::StorageError) -> Self {
        PostingError::Store(err.into())
    }
}

impl From<redb::TableError> for PostingError {
    fn from(err: redb::TableError) -> Self {
        PostingError::Store(err.into())
    }
}

/// Opens a wallet at zero for a new key.
pub fn open_wallet(txn: &WriteTransaction, key_id: &str) -> Result<(), StoreError> {
    txn.open_table(BALANCES)?.insert(key_id, 0)?;
    Ok(())
}

/// Applies a posting. Checks everything before writing anything, so an
/// error leaves the transaction as it was.
pub fn post(
    txn: &WriteTransaction,
    posting: Posting,
    at: i64,
) -> Result<LedgerEntry, PostingError> {
    let mut billed = txn.open_table(BILLED_REQUESTS)?;
    let idempotency_key = match (&posting.endpoint, &posting.request_id) {
        (Some(endpoint), Some(request_id)) if posting.kind == EntryKind::Charge => {
            let key = (
                posting.key_id.as_str(),
                endpoint.as_str(),
                request_id.as_str(),
            );
            if billed.get(key)?.is_some() {
                return Err(PostingError::RequestIdReused);
            }
            Some((endpoint.clone(), request_id.clone()))
        }
        _ => None,
    };
    let mut balances = txn.open_table(BALANCES)?;
    let balance = balances
        .get(posting.key_id.as_str())?
        .map(|v| v.value())
        .ok_or_else(|| PostingError::NoWallet(posting.key_id.clone()))?;
    let balance_after = balance
        .checked_add(posting.amount_micros)
        .ok_or(PostingError::Overflow)?;

    let seq = next_seq(txn, "ledger_seq")?;
    let entry = LedgerEntry {
        seq,
        at,
        key_id: posting.key_id,
        kind: posting.kind,
        endpoint: posting.endpoint,
        request_id: posting.request_id,
        item: posting.item,
        units: posting.units,
        amount_micros: posting.amount_micros,
        balance_after_micros: balance_after,
    };
    txn.open_table(LEDGER)?
        .insert((entry.key_id.as_str(), seq), encode(&entry)?.as_slice())?;
    balances.insert(entry.key_id.as_str(), balance_after)?;
    if let Some((endpoint, request_id)) = idempotency_key {
        billed.insert(
            (
                entry.key_id.as_str(),
                endpoint.as_str(),
                request_id.as_str(),
            ),
            seq,
        )?;
    }
    Ok(entry)
}

pub fn balance(txn: &ReadTransaction, key_id: &str) -> Result<Option<i64>, StoreError> {
    Ok(txn.open_table(BALANCES)?.get(key_id)?.map(|v| v.value()))
}

pub fn is_billed(
    txn: &ReadTransaction,
    key_id: &str,
    endpoint: &str,
    request_id: &str,
) -> Result<bool, StoreError> {
    Ok(txn
        .open_table(BILLED_REQUESTS)?
        .get((key_id, endpoint, request_id))?
        .is_some())
}

/// The newest `limit` entries of a key, newest first.
pub fn recent(
    txn: &ReadTransaction,
    key_id: &str,
    limit: usize,
) -> Result<Vec<LedgerEntry>, StoreError> {
    let table = txn.open_table(LEDGER)?;
    let mut entries = Vec::new();
    for row in table.range((key_id, 0)..=(key_id, u64::MAX))?.rev() {
        if entries.len() >= limit {
            break;
        }
        let (_, value) = row?;
        entries.push(serde_json::from_slice(value.value())?);
    }
    Ok(entries)
}

/// A ledger entry on the wire.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LedgerView {
    pub seq: u64,
    pub at: String,
    pub kind: EntryKind,
    pub endpoint: Option<String>,
    pub request_id: Option<String>,
    pub item: Option<BilledItem>,
    pub units: u64,
    pub amount_micro_usd: i64,
    pub amount_usd: String,
    pub balance_after_micro_usd: i64,
}

impl From<&LedgerEntry> for LedgerView {
    fn from(entry: &LedgerEntry) -> Self {
        Self {
            seq: entry.seq,
            at: crate::store::rfc3339(entry.at),
            kind: entry.kind,
            endpoint: entry.endpoint.clone(),
            request_id: entry.request_id.clone(),
            item: entry.item,
            units: entry.units,
            amount_micro_usd: entry.amount_micros,
            amount_usd: super::prices::format_usd(entry.amount_micros),
            balance_after_micro_usd: entry.balance_after_micros,
        }
    }
}

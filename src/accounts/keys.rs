//! API keys: issue, authenticate, list, revoke. A key owns one wallet.

use serde::{Deserialize, Serialize};

use crate::billing::BillingError;
use crate::billing::ledger::{self, Posting};
use crate::billing::prices::format_usd;
use crate::ids::{random_hex, secret_hash};
use crate::store::keys::{self as repo, ApiKeyRecord};
use crate::store::{Store, StoreError, now_millis, rfc3339};

/// Every API key starts with this, so leaked keys are easy to scan for.
pub const KEY_PREFIX: &str = "lsk_";
pub const MAX_LABEL_CHARS: usize = 100;

#[derive(Debug, Clone, Default)]
pub struct NewKey {
    pub label: String,
    pub owner_user_id: Option<String>,
    pub opinion_content: bool,
    pub initial_balance_micros: i64,
}

/// A key just created: the only moment its secret exists outside the client.
#[derive(Debug)]
pub struct IssuedKey {
    pub record: ApiKeyRecord,
    pub secret: String,
}

/// A key as its owner or the operator sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeySummary {
    pub key_id: String,
    pub label: String,
    pub prefix: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
    pub active: bool,
    pub opinion_content: bool,
    pub owner_user_id: Option<String>,
    pub balance_micro_usd: i64,
    pub balance_usd: String,
}

impl KeySummary {
    pub fn new(record: &ApiKeyRecord, balance_micros: i64) -> Self {
        Self {
            key_id: record.id.clone(),
            label: record.label.clone(),
            prefix: record.prefix.clone(),
            created_at: rfc3339(record.created_at),
            revoked_at: record.revoked_at.map(rfc3339),
            active: record.is_active(),
            opinion_content: record.opinion_content,
            owner_user_id: record.owner_user_id.clone(),
            balance_micro_usd: balance_micros,
            balance_usd: format_usd(balance_micros),
        }
    }
}

/// Creates a key, its wallet and, when there is an opening balance, the
/// top-up entry for it, in one transaction.
pub fn issue(store: &Store, new: NewKey) -> Result<IssuedKey, BillingError> {
    let secret = format!("{KEY_PREFIX}{}", random_hex(20));
    let now = now_millis();
    let record = ApiKeyRecord {
        id: format!("key_{}", random_hex(8)),
        label: new.label,
        prefix: format!("{}…", &secret[..KEY_PREFIX.len() + 6]),
        created_at: now,
        revoked_at: None,
        owner_user_id: new.owner_user_id,
        opinion_content: new.opinion_content,
    };
    store.write(|txn| -> Result<(), BillingError> {
        repo::insert(txn, &record, &secret_hash(&secret))?;
        ledger::open_wallet(txn, &record.id)?;
        if new.initial_balance_micros > 0 {
            ledger::post(
                txn,
                Posting::top_up(&record.id, new.initial_balance_micros),
                now,
            )?;
        }
        Ok(())
    })?;
    Ok(IssuedKey { record, secret })
}

/// The active key a presented secret belongs to.
pub fn authenticate(store: &Store, secret: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
    if !secret.starts_with(KEY_PREFIX) {
        return Ok(None);
    }
    let record = store.read(|txn| repo::find_by_hash(txn, &secret_hash(secret)))?;
    Ok(record.filter(ApiKeyRecord::is_active))
}

pub fn get(store: &Store, key_id: &str) -> Result<Option<KeySummary>, StoreError> {
    store.read(|txn| {
        let Some(record) = repo::get(txn, key_id)? else {
            return Ok(None);
        };
        let balance = ledger::balance(txn, key_id)?.unwrap_or(0);
        Ok(Some(KeySummary::new(&record, balance)))
    })
}

/// Every key (the operator's view), or only `owner`'s.
pub fn list(store: &Store, owner: Option<&str>) -> Result<Vec<KeySummary>, StoreError> {
    store.read(|txn| {
        let records = match owner {
            Some(user_id) => repo::list_for_user(txn, user_id)?,
            None => repo::list(txn)?,
        };
        records
            .iter()
            .map(|record| {
                let balance = ledger::balance(txn, &record.id)?.unwrap_or(0);
                Ok(KeySummary::new(record, balance))
            })
            .collect()
    })
}

/// Revokes a key. `owner` limits it to that user's keys. `None` when there
/// is no such key (for that owner). Revoking twice keeps the first time.
pub fn revoke(
    store: &Store,
    key_id: &str,
    owner: Option<&str>,
) -> Result<Option<KeySummary>, StoreError> {
    let found = store.write(|txn| -> Result<bool, StoreError> {
        let Some(mut record) = repo::get_for_update(txn, key_id)? else {
            return Ok(false);
        };
        if owner.is_some() && record.owner_user_id.as_deref() != owner {
            return Ok(false);
        }
        if record.revoked_at.is_none() {
            record.revoked_at = Some(now_millis());
            repo::save(txn, &record)?;
        }
        Ok(true)
    })?;
    if found { get(store, key_id) } else { Ok(None) }
}

/// Labels are short, single-line, trimmed.
pub fn validate_label(label: &str) -> Result<String, String> {
    let label = label.trim();
    if label.chars().count() > MAX_LABEL_CHARS {
        return Err(format!(
            "label must be at most {MAX_LABEL_CHARS} characters"
        ));
    }
    if label.chars().any(char::is_control) {
        return Err("label must not contain control characters".into());
    }
    Ok(label.to_string())
}

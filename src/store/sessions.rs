//! Sign-in sessions, keyed by the hash of their token.

use redb::{ReadTransaction, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::tables::SESSIONS;
use super::{StoreError, encode};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRecord {
    pub user_id: String,
    pub created_at: i64,
    pub expires_at: i64,
}

pub fn insert(
    txn: &WriteTransaction,
    token_hash: &[u8; 32],
    session: &SessionRecord,
) -> Result<(), StoreError> {
    txn.open_table(SESSIONS)?
        .insert(token_hash.as_slice(), encode(session)?.as_slice())?;
    Ok(())
}

pub fn get(
    txn: &ReadTransaction,
    token_hash: &[u8; 32],
) -> Result<Option<SessionRecord>, StoreError> {
    let table = txn.open_table(SESSIONS)?;
    match table.get(token_hash.as_slice())? {
        Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
        None => Ok(None),
    }
}

/// Removes a session; `Ok(false)` when there was none.
pub fn remove(txn: &WriteTransaction, token_hash: &[u8; 32]) -> Result<bool, StoreError> {
    Ok(txn
        .open_table(SESSIONS)?
        .remove(token_hash.as_slice())?
        .is_some())
}

/// Deletes every session that expired before `now`; returns how many.
pub fn remove_expired(txn: &WriteTransaction, now: i64) -> Result<u64, StoreError> {
    let mut table = txn.open_table(SESSIONS)?;
    let mut removed = 0;
    table.retain(|_, value| {
        let keep = serde_json::from_slice::<SessionRecord>(value)
            .map(|s| s.expires_at > now)
            .unwrap_or(false);
        if !keep {
            removed += 1;
        }
        keep
    })?;
    Ok(removed)
}

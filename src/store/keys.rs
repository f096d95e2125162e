//! API keys: the record, its hash index and the owner index.

use redb::{ReadTransaction, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::tables::{API_KEY_HASHES, API_KEYS, USER_API_KEYS};
use super::{StoreError, encode, get_json};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyRecord {
    pub id: String,
    pub label: String,
    /// The first characters of the secret, to recognise a key in a list.
    pub prefix: String,
    pub created_at: i64,
    #[serde(default)]
    pub revoked_at: Option<i64>,
    #[serde(default)]
    pub owner_user_id: Option<String>,
    #[serde(default)]
    pub opinion_content: bool,
}

impl ApiKeyRecord {
    pub fn is_active(&self) -> bool {
        self.revoked_at.is_none()
    }
}

pub fn insert(
    txn: &WriteTransaction,
    record: &ApiKeyRecord,
    secret_hash: &[u8; 32],
) -> Result<(), StoreError> {
    txn.open_table(API_KEYS)?
        .insert(record.id.as_str(), encode(record)?.as_slice())?;
    txn.open_table(API_KEY_HASHES)?
        .insert(secret_hash.as_slice(), record.id.as_str())?;
    if let Some(owner) = &record.owner_user_id {
        txn.open_table(USER_API_KEYS)?
            .insert((owner.as_str(), record.id.as_str()), ())?;
    }
    Ok(())
}

pub fn save(txn: &WriteTransaction, record: &ApiKeyRecord) -> Result<(), StoreError> {
    txn.open_table(API_KEYS)?
        .insert(record.id.as_str(), encode(record)?.as_slice())?;
    Ok(())
}

pub fn get(txn: &ReadTransaction, id: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
    get_json(&txn.open_table(API_KEYS)?, id)
}

pub fn get_for_update(
    txn: &WriteTransaction,
    id: &str,
) -> Result<Option<ApiKeyRecord>, StoreError> {
    get_json(&txn.open_table(API_KEYS)?, id)
}

pub fn find_by_hash(
    txn: &ReadTransaction,
    secret_hash: &[u8; 32],
) -> Result<Option<ApiKeyRecord>, StoreError> {
    let hashes = txn.open_table(API_KEY_HASHES)?;
    let Some(id) = hashes.get(secret_hash.as_slice())? else {
        return Ok(None);
    };
    get(txn, id.value())
}

/// Every key, oldest first.
pub fn list(txn: &ReadTransaction) -> Result<Vec<ApiKeyRecord>, StoreError> {
    let table = txn.open_table(API_KEYS)?;
    let mut keys = Vec::new();
    for row in table.iter()? {
        let (_, value) = row?;
        keys.push(serde_json::from_slice::<ApiKeyRecord>(value.value())?);
    }
    keys.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(keys)
}

/// The keys a user created, oldest first.
pub fn list_for_user(
    txn: &ReadTransaction,
    user_id: &str,
) -> Result<Vec<ApiKeyRecord>, StoreError> {
    let links = txn.open_table(USER_API_KEYS)?;
    let mut keys = Vec::new();
    for row in links.range((user_id, "")..)? {
        let (link, _) = row?;
        let (owner, key_id) = link.value();
        if owner != user_id {
            break;
        }
        if let Some(record) = get(txn, key_id)? {
            keys.push(record);
        }
    }
    keys.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(keys)
}

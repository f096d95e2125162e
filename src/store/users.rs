//! User accounts and the case-insensitive e-mail index.

use redb::{ReadTransaction, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::tables::{USER_EMAILS, USERS};
use super::{StoreError, encode, get_json};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserRecord {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// PHC string of the argon2id hash.
    pub password_hash: String,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The key of the e-mail index: e-mails are unique whatever their case.
pub fn email_key(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Inserts a new user; `Ok(false)` when the e-mail is already taken.
pub fn insert(txn: &WriteTransaction, user: &UserRecord) -> Result<bool, StoreError> {
    let key = email_key(&user.email);
    let mut emails = txn.open_table(USER_EMAILS)?;
    if emails.get(key.as_str())?.is_some() {
        return Ok(false);
    }
    emails.insert(key.as_str(), user.id.as_str())?;
    save(txn, user)?;
    Ok(true)
}

pub fn save(txn: &WriteTransaction, user: &UserRecord) -> Result<(), StoreError> {
    txn.open_table(USERS)?
        .insert(user.id.as_str(), encode(user)?.as_slice())?;
    Ok(())
}

pub fn get(txn: &ReadTransaction, id: &str) -> Result<Option<UserRecord>, StoreError> {
    get_json(&txn.open_table(USERS)?, id)
}

pub fn get_for_update(txn: &WriteTransaction, id: &str) -> Result<Option<UserRecord>, StoreError> {
    get_json(&txn.open_table(USERS)?, id)
}

pub fn find_by_email(txn: &ReadTransaction, email: &str) -> Result<Option<UserRecord>, StoreError> {
    let emails = txn.open_table(USER_EMAILS)?;
    let Some(id) = emails.get(email_key(email).as_str())? else {
        return Ok(None);
    };
    get(txn, id.value())
}

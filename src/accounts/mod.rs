//! Accounts: users, passwords, sign-in sessions and API keys.
//!
//! Everything here is synchronous and may block (argon2, redb); callers on
//! the async runtime go through `spawn_blocking`.

pub mod keys;

use std::sync::OnceLock;
use std::time::Duration;

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use serde::Serialize;

use crate::config::PasswordSettings;
use crate::ids::{random_hex, secret_hash, uuid};
use crate::store::sessions::{self, SessionRecord};
use crate::store::users::{self, UserRecord};
use crate::store::{Store, StoreError, now_millis, rfc3339};

/// Session tokens start with this.
pub const SESSION_PREFIX: &str = "lss_";
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longer passwords are refused so that hashing cannot be used to burn CPU.
pub const MAX_PASSWORD_BYTES: usize = 1024;
pub const MAX_NAME_CHARS: usize = 100;
pub const MAX_EMAIL_CHARS: usize = 254;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("an account with this email already exists")]
    EmailTaken,
    #[error("invalid email or password")]
    InvalidCredentials,
    #[error("password hashing failed: {0}")]
    Hashing(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn invalid(field: &'static str, message: impl Into<String>) -> AccountError {
    AccountError::Invalid {
        field,
        message: message.into(),
    }
}

#[derive(Debug, Clone)]
pub struct SignUp {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
}

/// A user as the user sees it (never the password hash).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub created_at: String,
    pub updated_at: String,
}

impl From<&UserRecord> for UserView {
    fn from(user: &UserRecord) -> Self {
        Self {
            id: user.id.clone(),
            email: user.email.clone(),
            first_name: user.first_name.clone(),
            last_name: user.last_name.clone(),
            created_at: rfc3339(user.created_at),
            updated_at: rfc3339(user.updated_at),
        }
    }
}

/// A session just opened; the token exists only here and with the client.
#[derive(Debug, Clone)]
pub struct IssuedSession {
    pub token: String,
    pub expires_at: i64,
}

pub struct Accounts {
    store: Store,
    hasher: Argon2<'static>,
    session_ttl: Duration,
    /// A hash of a random password with the configured parameters, checked
    /// when the e-mail is unknown so that timing does not tell which part of
    /// the credentials was wrong.
    decoy_hash: OnceLock<Option<String>>,
}

impl Accounts {
    pub fn new(store: Store, passwords: &PasswordSettings, session_ttl: Duration) -> Self {
        let params = Params::new(
            passwords.memory_kib,
            passwords.iterations,
            passwords.parallelism,
            None,
        )
        .expect("password settings are validated with the config");
        Self {
            store,
            hasher: Argon2::new(Algorithm::Argon2id, Version::V0x13, params),
            session_ttl,
            decoy_hash: OnceLock::new(),
        }
    }

    pub fn session_ttl(&self) -> Duration {
        self.session_ttl
    }

    pub fn sign_up(&self, input: SignUp) -> Result<(UserRecord, IssuedSession), AccountError> {
        let email = validate_email(&input.email)?;
        validate_password(&input.password)?;
        let first_name = validate_name("firstName", &input.first_name)?;
        let last_name = validate_name("lastName", &input.last_name)?;
        // Fail fast on a taken e-mail before spending the hash; the insert
        // below checks again inside its transaction.
        if self
            .store
            .read(|txn| users::find_by_email(txn, &email))?
            .is_some()
        {
            return Err(AccountError::EmailTaken);
        }
        let password_hash = self.hash_password(&input.password)?;
        let now = now_millis();
        let user = UserRecord {
            id: uuid(),
            email,
            first_name,
            last_name,
            password_hash,
            created_at: now,
            updated_at: now,
        };
        let session = self.store.write(|txn| {
            if !users::insert(txn, &user)? {
                return Err(AccountError::EmailTaken);
            }
            Ok(self.open_session(txn, &user.id, now)?)
        })?;
        Ok((user, session))
    }

    /// The same error whether the e-mail is unknown or the password wrong,
    /// and the same work: an unknown e-mail still pays for one hash check.
    pub fn sign_in(
        &self,
        email: &str,
        password: &str,
    ) -> Result<(UserRecord, IssuedSession), AccountError> {
        // Measured as sign-up measures it (characters, spaces trimmed), so
        // every address sign-up took can sign in.
        if password.len() > MAX_PASSWORD_BYTES || email.trim().chars().count() > MAX_EMAIL_CHARS {
            return Err(AccountError::InvalidCredentials);
        }
        let user = self.store.read(|txn| users::find_by_email(txn, email))?;
        let Some(user) = user else {
            let decoy = self
                .decoy_hash
                .get_or_init(|| self.hash_password(&random_hex(16)).ok());
            if let Some(decoy) = decoy {
                let _ = self
                    .hasher
                    .verify_password(password.as_bytes(), decoy.as_str());
            }
            return Err(AccountError::InvalidCredentials);
        };
        if self
            .hasher
            .verify_password(password.as_bytes(), user.password_hash.as_str())
            .is_err()
        {
            return Err(AccountError::InvalidCredentials);
        }
        let now = now_millis();
        let session = self
            .store
            .write(|txn| self.open_session(txn, &user.id, now))?;
        Ok((user, session))
    }

    /// The user behind a session token, when the session is live.
    pub fn session_user(
        &self,
        token: &str,
    ) -> Result<Option<(UserRecord, SessionRecord)>, StoreError> {
        if !token.starts_with(SESSION_PREFIX) {
            return Ok(None);
        }
        self.store.read(|txn| {
            let Some(session) = sessions::get(txn, &secret_hash(token))? else {
                return Ok(None);
            };
            if session.expires_at <= now_millis() {
                return Ok(None);
            }
            Ok(users::get(txn, &session.user_id)?.map(|user| (user, session)))
        })
    }

    /// Ends a session; `false` when it was not live.
    pub fn sign_out(&self, token: &str) -> Result<bool, StoreError> {
        self.store
            .write(|txn| sessions::remove(txn, &secret_hash(token)))
    }

    pub fn update_profile(
        &self,
        user_id: &str,
        first_name: Option<&str>,
        last_name: Option<&str>,
    ) -> Result<Option<UserRecord>, AccountError> {
        let first_name = first_name
            .map(|n| validate_name("firstName", n))
            .transpose()?;
        let last_name = last_name
            .map(|n| validate_name("lastName", n))
            .transpose()?;
        self.store.write(|txn| {
            let Some(mut user) = users::get_for_update(txn, user_id)? else {
                return Ok(None);
            };
            if let Some(name) = first_name {
                user.first_name = name;
            }
            if let Some(name) = last_name {
                user.last_name = name;
            }
            user.updated_at = now_millis();
            users::save(txn, &user)?;
            Ok(Some(user))
        })
    }

    pub fn sweep_expired_sessions(&self) -> Result<u64, StoreError> {
        self.store
            .write(|txn| sessions::remove_expired(txn, now_millis()))
    }

    fn hash_password(&self, password: &str) -> Result<String, AccountError> {
        self.hasher
            .hash_password(password.as_bytes())
            .map(|hash| hash.to_string())
            .map_err(|err| AccountError::Hashing(err.to_string()))
    }

    fn open_session(
        &self,
        txn: &redb::WriteTransaction,
        user_id: &str,
        now: i64,
    ) -> Result<IssuedSession, StoreError> {
        let token = format!("{SESSION_PREFIX}{}", random_hex(32));
        let ttl = i64::try_from(self.session_ttl.as_millis()).unwrap_or(i64::MAX);
        let session = SessionRecord {
            user_id: user_id.to_string(),
            created_at: now,
            expires_at: now.saturating_add(ttl),
        };
        sessions::insert(txn, &secret_hash(&token), &session)?;
        Ok(IssuedSession {
            token,
            expires_at: session.expires_at,
        })
    }
}

fn validate_email(email: &str) -> Result<String, AccountError> {
    let email = email.trim();
    if email.is_empty() {
        return Err(invalid("email", "is required"));
    }
    if email.chars().count() > MAX_EMAIL_CHARS {
        return Err(invalid(
            "email",
            format!("must be at most {MAX_EMAIL_CHARS} characters"),
        ));
    }
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        }
        None => false,
    };
    if !valid {
        return Err(invalid("email", "is not an email address"));
    }
    Ok(email.to_string())
}

fn validate_password(password: &str) -> Result<(), AccountError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(invalid(
            "password",
            format!("must be at least {MIN_PASSWORD_CHARS} characters"),
        ));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(invalid(
            "password",
            format!("must be at most {MAX_PASSWORD_BYTES} bytes"),
        ));
    }
    Ok(())
}

fn validate_name(field: &'static str, name: &str) -> Result<String, AccountError> {
    let name = name.trim();
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid(
            field,
            format!("must be at most {MAX_NAME_CHARS} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(invalid(field, "must not contain control characters"));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_checked() {
        assert!(validate_email("a@b.co").is_ok());
        assert_eq!(validate_email("  A@B.co ").unwrap(), "A@B.co");
        for bad in [
            "", "ab", "a@b", "@b.co", "a@.co", "a@b.co.", "a b@c.co", "a@b@c.co",
        ] {
            assert!(validate_email(bad).is_err(), "{bad:?} should be refused");
        }
    }
}

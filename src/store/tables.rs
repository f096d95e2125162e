//! Every redb table the appliance keeps, in one place, with the schema version.
//!
//! Records are JSON bytes (serde), so a field added later reads back from an
//! older record with its serde default. A change that needs more than that
//! bumps [`SCHEMA_VERSION`] and adds a step to `store::migrate`.

use redb::TableDefinition;

/// The layout this build reads and writes.
pub const SCHEMA_VERSION: u64 = 1;

/// Counters and markers: `schema_version`, `ledger_seq`.
pub const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// API key id → key record (JSON). The secret itself is never stored.
pub const API_KEYS: TableDefinition<&str, &[u8]> = TableDefinition::new("api_keys");
/// SHA-256 of the presented secret → key id.
pub const API_KEY_HASHES: TableDefinition<&[u8], &str> = TableDefinition::new("api_key_hashes");
/// (user id, key id) for the keys a signed-in user created.
pub const USER_API_KEYS: TableDefinition<(&str, &str), ()> = TableDefinition::new("user_api_keys");

/// Key id → wallet balance in micro-USD.
pub const BALANCES: TableDefinition<&str, i64> = TableDefinition::new("balances");
/// (key id, global sequence) → ledger entry (JSON): every charge and top-up.
pub const LEDGER: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("ledger");
/// (key id, endpoint, request id) → ledger sequence of the charge: the
/// idempotency record behind `409 request_id_reused`.
pub const BILLED_REQUESTS: TableDefinition<(&str, &str, &str), u64> =
    TableDefinition::new("billed_requests");

/// User id → user record (JSON, with the argon2 password hash).
pub const USERS: TableDefinition<&str, &[u8]> = TableDefinition::new("users");
/// Lower-cased e-mail → user id (e-mails are unique, case-insensitively).
pub const USER_EMAILS: TableDefinition<&str, &str> = TableDefinition::new("user_emails");
/// SHA-256 of a session token → session record (JSON).
pub const SESSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("sessions");

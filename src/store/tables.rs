//! Every redb table the appliance keeps, in one place, with the schema version.
//!
//! Records are JSON bytes (serde), so a field added later reads back from an
//! older record with its serde default. A change that needs more than that
//! bumps [`SCHEMA_VERSION`] and adds a step to `store::migrate`.

use redb::TableDefinition;

/// The layout of `lexstack.redb` this build reads and writes.
/// 1: accounts, keys, wallets, ledger. 2: + asynchronous jobs.
pub const SCHEMA_VERSION: u64 = 2;
/// The layout of `library.redb` this build reads and writes.
/// 1: first layout. 2: a case's graph edges in one binary record
/// (`graph_out`, replacing `cites_out`/`cites_in`), the passage kept as its
/// place in the citing opinion. 3: the early Supreme Court reporters'
/// addresses ("1 Cranch 137") are the U.S. Reports' (5 U.S. 137); no volume
/// of a series without pages (Westlaw, LEXIS, neutral) is held. 4: as 3,
/// enforced on stores the first schema-3 build wrote; import checkpoints
/// keyed by a file's modification time too.
pub const LIBRARY_SCHEMA_VERSION: u64 = 4;

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

/// Job id → job record (JSON), without its input text.
pub const JOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");
/// Job id → the document text a job was given (up to 500,000 characters).
pub const JOB_INPUTS: TableDefinition<&str, &str> = TableDefinition::new("job_inputs");
/// (due time in ms, job id): the queue, in the order jobs may run.
pub const JOB_QUEUE: TableDefinition<(i64, &str), ()> = TableDefinition::new("job_queue");
/// (key id, request id) → job id: a request id that started a job is
/// taken on its endpoint before the job is billed.
pub const JOB_REQUESTS: TableDefinition<(&str, &str), &str> = TableDefinition::new("job_requests");

// ---- library.redb: the case-law library (rebuildable, kept apart from accounts and money) ----

/// Library facts: counts per source, build markers (JSON values).
pub const LIBRARY_META: TableDefinition<&str, &[u8]> = TableDefinition::new("library_meta");
/// Case id → case record (JSON), without opinion texts.
pub const CASES: TableDefinition<&str, &[u8]> = TableDefinition::new("cases");
/// (case id, opinion number) → opinion text, lz4-compressed UTF-8.
pub const OPINION_TEXTS: TableDefinition<(&str, u32), &[u8]> =
    TableDefinition::new("opinion_texts");
/// (canonical reporter, volume, first page) → case ids, newline-separated
/// (several ids: the citation is ambiguous).
pub const CITE_INDEX: TableDefinition<(&str, u32, u32), &str> = TableDefinition::new("cite_index");
/// (source, id in that source) → case id: how re-imports find their cases.
pub const EXTERNAL_IDS: TableDefinition<(&str, &str), &str> = TableDefinition::new("external_ids");
/// (canonical reporter, volume) → the source that brought the whole volume.
pub const COVERAGE: TableDefinition<(&str, u32), &str> = TableDefinition::new("coverage");
/// (import checkpoint key, canonical reporter, volume) → source: volumes a
/// file being imported brings, held once the whole file is in. The entry
/// ("", 0) says rows of that file were skipped, so none of them is held.
pub const COVERAGE_PENDING: TableDefinition<(&str, &str, u32), &str> =
    TableDefinition::new("coverage_pending");
/// (hash of an import checkpoint key, case id) → the citations a whole
/// CourtListener citations file lists for the case, as printed, one a line;
/// kept while such a file is imported after an earlier one: once it is all
/// in, a case only CourtListener gives loses the citations it no longer
/// lists.
pub const CITATIONS_LISTED: TableDefinition<(u64, &str), &str> =
    TableDefinition::new("citations_listed");
/// (code, title) → coverage of a code or rule set title (JSON).
pub const LAW_COVERAGE: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("law_coverage");
/// (code, title, section) → an authority that is not a case (JSON).
pub const AUTHORITIES: TableDefinition<(&str, &str, &str), &[u8]> =
    TableDefinition::new("authorities");
/// Citing case → its edges (`library::graph::OutEdges`, binary: each cited
/// case with the count, the passage's place and parentheticals). The
/// reverse direction is the search index's `cites` field.
pub const GRAPH_OUT: TableDefinition<&str, &[u8]> = TableDefinition::new("graph_out");
/// (reporter, volume, page, citing case) → edge (`library::graph::Edge`):
/// citations to cases not in the library yet, linked when such a case
/// arrives.
pub const UNRESOLVED_CITES: TableDefinition<(&str, u32, u32, &str), &[u8]> =
    TableDefinition::new("unresolved_cites");
/// (overruled case, overruling citation) → treatment record (JSON).
pub const OVERRULINGS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("overrulings");
/// Import name → progress checkpoint (JSON), for resuming after a kill.
pub const IMPORT_PROGRESS: TableDefinition<&str, &[u8]> = TableDefinition::new("import_progress");
/// Case ids whose search document must be (re)built: filled by imports,
/// drained by the indexing pass (so a killed import re-indexes on resume).
pub const INDEX_PENDING: TableDefinition<&str, ()> = TableDefinition::new("index_pending");
/// CourtListener docket id → (court, docket number) while an import runs;
/// dockets are only needed to give clusters their court.
pub const IMPORT_DOCKETS: TableDefinition<u64, &[u8]> = TableDefinition::new("import_dockets");
/// CourtListener opinion id → case id (citation-map and parenthetical rows
/// name opinions; numeric keys keep these lookups cheap at bulk scale).
pub const COURTLISTENER_OPINIONS: TableDefinition<u64, &str> =
    TableDefinition::new("courtlistener_opinions");

//! The embedded redb store: opening, the schema-version check, migrations and
//! the small helpers every repository uses.
//!
//! Every commit is durable (`Durability::Immediate`, redb's default), so a
//! write that returned is on disk; a kill -9 at any moment leaves the last
//! committed state.

pub mod keys;
pub mod sessions;
pub mod tables;
pub mod users;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use redb::{
    ConcurrencyMode, Database, ReadTransaction, ReadableDatabase, ReadableTable, WriteTransaction,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use tables::{META, SCHEMA_VERSION};

use crate::engine_panics::{self, Engine};

/// The file name of the store inside the data directory.
pub const STORE_FILE: &str = "lexstack.redb";
/// The file name of the case-law library inside the data directory.
pub const LIBRARY_FILE: &str = "library.redb";

/// The two store files: accounts, money and jobs in one; the case-law
/// library, large and rebuildable, in the other, so imports never hold up a
/// charge and a library can be copied or rebuilt on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Main,
    Library,
}

impl Layout {
    pub fn file_name(self) -> &'static str {
        match self {
            Layout::Main => STORE_FILE,
            Layout::Library => LIBRARY_FILE,
        }
    }

    /// redb's page cache for the file. The library is larger than memory
    /// should hold and the operating system caches its file anyway; the
    /// store of accounts is small.
    fn cache_bytes(self) -> usize {
        match self {
            Layout::Main => 64 << 20,
            Layout::Library => 256 << 20,
        }
    }

    fn schema_version(self) -> u64 {
        match self {
            Layout::Main => SCHEMA_VERSION,
            Layout::Library => tables::LIBRARY_SCHEMA_VERSION,
        }
    }

    /// Opens every table once so that readers never meet a missing table.
    fn create_tables(self, txn: &WriteTransaction) -> Result<(), StoreError> {
        use tables::*;
        match self {
            Layout::Main => {
                txn.open_table(API_KEYS)?;
                txn.open_table(API_KEY_HASHES)?;
                txn.open_table(USER_API_KEYS)?;
                txn.open_table(BALANCES)?;
                txn.open_table(LEDGER)?;
                txn.open_table(BILLED_REQUESTS)?;
                txn.open_table(USERS)?;
                txn.open_table(USER_EMAILS)?;
                txn.open_table(SESSIONS)?;
                txn.open_table(JOBS)?;
                txn.open_table(JOB_INPUTS)?;
                txn.open_table(JOB_QUEUE)?;
                txn.open_table(JOB_REQUESTS)?;
            }
            Layout::Library => {
                txn.open_table(LIBRARY_META)?;
                txn.open_table(CASES)?;
                txn.open_table(OPINION_TEXTS)?;
                txn.open_table(CITE_INDEX)?;
                txn.open_table(EXTERNAL_IDS)?;
                txn.open_table(COVERAGE)?;
                txn.open_table(COVERAGE_PENDING)?;
                txn.open_table(LAW_COVERAGE)?;
                txn.open_table(AUTHORITIES)?;
                txn.open_table(GRAPH_OUT)?;
                txn.open_table(UNRESOLVED_CITES)?;
                txn.open_table(OVERRULINGS)?;
                txn.open_table(IMPORT_PROGRESS)?;
                txn.open_table(INDEX_PENDING)?;
                txn.open_table(IMPORT_DOCKETS)?;
                txn.open_table(COURTLISTENER_OPINIONS)?;
            }
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the store file is open in another lexstack process (a server, an import or a library build)"
    )]
    Locked,
    #[error("the store was opened read-only")]
    ReadOnly,
    #[error("corrupt record: {0}")]
    Corrupt(String),
    #[error("a page of the store file does not hold what redb wrote there")]
    DamagedPage,
    #[error(
        "the store was written by a newer lexstack (schema {found}, this build reads {supported})"
    )]
    SchemaTooNew { found: u64, supported: u64 },
    #[error(
        "the store was written by an older lexstack (schema {found}, this build reads {supported}): \
         start `lexstack serve` with this build once to upgrade it"
    )]
    SchemaTooOld { found: u64, supported: u64 },
    #[error("store: {0}")]
    Redb(#[from] redb::Error),
    /// The checks read the search index beside the store; its errors
    /// reach them here.
    #[error("{0}")]
    Search(String),
    /// The search index's files do not hold what tantivy wrote.
    #[error("{0}")]
    SearchIndexDamaged(String),
    #[error("store record is not valid json")]
    Record(#[source] serde_json::Error),
    #[error("store file {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

macro_rules! from_redb {
    ($($ty:ty),*) => {$(
        impl From<$ty> for StoreError {
            fn from(err: $ty) -> Self {
                StoreError::Redb(err.into())
            }
        }
    )*};
}
from_redb!(
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError
);

impl From<serde_json::Error> for StoreError {
    /// A record that does not decode is a damaged file ([`Store::read`]
    /// marks its store so); the JSON errors of our own records come only of
    /// decoding them.
    fn from(err: serde_json::Error) -> Self {
        UNDECODABLE_RECORD.set(true);
        StoreError::Record(err)
    }
}

impl StoreError {
    /// Whether the store file does not read as the database redb wrote:
    /// cut short, not a database, with pages that do not hold what was
    /// written, or with a record that does not decode as we wrote it.
    /// Opening it again will not mend it.
    pub fn is_damaged_file(&self) -> bool {
        match self {
            StoreError::Redb(redb::Error::Corrupted(_))
            | StoreError::DamagedPage
            | StoreError::Record(_) => true,
            StoreError::Redb(redb::Error::Io(io)) => matches!(
                io.kind(),
                std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::InvalidData
            ),
            _ => false,
        }
    }

    /// Whether the store cannot serve until its file is mended or opened
    /// again, rather than having failed this one request: a damaged file,
    /// a handle that refuses all work after an I/O error (a file cut short
    /// or a disk that filled under it), or a damaged search index.
    pub fn is_unavailable(&self) -> bool {
        self.is_damaged_file()
            || matches!(
                self,
                StoreError::Redb(redb::Error::PreviousIo | redb::Error::Io(_))
                    | StoreError::SearchIndexDamaged(_)
            )
    }

    /// Whether the store file could not be opened for want of permission
    /// (another user owns it).
    pub fn is_permission_denied(&self) -> bool {
        matches!(
            self,
            StoreError::Redb(redb::Error::Io(io)) if io.kind() == std::io::ErrorKind::PermissionDenied
        )
    }
}

impl From<redb::DatabaseError> for StoreError {
    fn from(err: redb::DatabaseError) -> Self {
        match err {
            redb::DatabaseError::DatabaseAlreadyOpen => StoreError::Locked,
            other => StoreError::Redb(other.into()),
        }
    }
}

thread_local! {
    /// Whether this thread met a record that does not decode since the
    /// flag was last cleared.
    static UNDECODABLE_RECORD: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work`, turning a panic raised in redb's code, as some damaged
/// pages make it, into [`StoreError::DamagedPage`]. A panic of our own is a
/// bug, not damage: it goes on unwinding.
fn catch_damaged_page<T, E>(work: impl FnOnce() -> Result<T, E>) -> Result<T, E>
where
    E: From<StoreError>,
{
    engine_panics::catch(Engine::Redb, work).unwrap_or_else(|_| Err(StoreError::DamagedPage.into()))
}

/// What to do about a damaged `lexstack.redb` (`file`): unlike the
/// library, what it holds cannot be rebuilt.
pub fn main_store_advice(file: &Path) -> String {
    format!(
        "{} is damaged: restore it from a backup. It holds the API keys, wallets, ledger, \
         accounts and jobs, which cannot be rebuilt; moving it aside starts an empty store",
        file.display()
    )
}

/// A shared handle on an open store file.
#[derive(Clone)]
pub struct Store {
    db: Arc<Handle>,
    layout: Layout,
    /// Set once a read met a damaged page or a record that does not decode:
    /// every later probe fails, so readiness says what requests would meet.
    damaged: Arc<AtomicBool>,
}

enum Handle {
    ReadWrite(Database),
    ReadOnly(redb::ReadOnlyDatabase),
}

impl Store {
    /// Opens (creating when absent) `lexstack.redb` in `data_dir`, checks its
    /// schema version and runs any pending migrations.
    pub fn open(data_dir: &Path) -> Result<Self, StoreError> {
        Self::open_layout(data_dir, Layout::Main)
    }

    /// Opens (creating when absent) `library.redb` in `data_dir`.
    pub fn open_library(data_dir: &Path) -> Result<Self, StoreError> {
        Self::open_layout(data_dir, Layout::Library)
    }

    /// Opens (creating when absent) the store file of `layout`. Opening
    /// reads and may migrate the file, outside [`Store::read`] and
    /// [`Store::write`]: a panic of redb's on a damaged page is
    /// [`StoreError::DamagedPage`] here too, as it is in those.
    pub fn open_layout(data_dir: &Path, layout: Layout) -> Result<Self, StoreError> {
        catch_damaged_page(|| Self::open_layout_unguarded(data_dir, layout))
    }

    fn open_layout_unguarded(data_dir: &Path, layout: Layout) -> Result<Self, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::Io {
            path: data_dir.to_path_buf(),
            source,
        })?;
        let db = Database::builder()
            .set_concurrency_mode(ConcurrencyMode::SingleWriter)
            .set_cache_size(layout.cache_bytes())
            .create(data_dir.join(layout.file_name()))?;
        let store = Self {
            db: Arc::new(Handle::ReadWrite(db)),
            layout,
            damaged: Arc::default(),
        };
        store.migrate()?;
        Ok(store)
    }

    /// Opens an existing store file for reading only; it may be open for
    /// writing in another process (the server) at the same time.
    pub fn open_read_only(data_dir: &Path, layout: Layout) -> Result<Self, StoreError> {
        catch_damaged_page(|| Self::open_read_only_unguarded(data_dir, layout))
    }

    fn open_read_only_unguarded(data_dir: &Path, layout: Layout) -> Result<Self, StoreError> {
        let db = Database::builder()
            .set_concurrency_mode(ConcurrencyMode::SingleWriter)
            .set_cache_size(layout.cache_bytes())
            .open_read_only(data_dir.join(layout.file_name()))?;
        let store = Self {
            db: Arc::new(Handle::ReadOnly(db)),
            layout,
            damaged: Arc::default(),
        };
        store.check_version()?;
        Ok(store)
    }

    /// Rewrites a closed store file without its free pages (after a bulk
    /// build that rewrote many records).
    pub fn compact_file(data_dir: &Path, layout: Layout) -> Result<(), StoreError> {
        catch_damaged_page(|| {
            let mut db = Database::builder()
                .set_concurrency_mode(ConcurrencyMode::SingleWriter)
                .set_cache_size(layout.cache_bytes())
                .open(data_dir.join(layout.file_name()))?;
            while db
                .compact()
                .map_err(|e| StoreError::Redb(redb::Error::from(e)))?
            {}
            Ok(())
        })
    }

    fn begin_write(&self) -> Result<WriteTransaction, StoreError> {
        match self.db.as_ref() {
            Handle::ReadWrite(db) => Ok(db.begin_write()?),
            Handle::ReadOnly(_) => Err(StoreError::ReadOnly),
        }
    }

    fn begin_read(&self) -> Result<ReadTransaction, StoreError> {
        Ok(match self.db.as_ref() {
            Handle::ReadWrite(db) => db.begin_read()?,
            Handle::ReadOnly(db) => db.begin_read()?,
        })
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let supported = self.layout.schema_version();
        let txn = self.begin_write()?;
        let found = {
            let mut meta = txn.open_table(META)?;
            let found = meta.get("schema_version")?.map(|v| v.value());
            match found {
                Some(version) if version > supported => {
                    return Err(StoreError::SchemaTooNew {
                        found: version,
                        supported,
                    });
                }
                Some(version) if version == supported => return Ok(()),
                _ => {}
            }
            meta.insert("schema_version", supported)?;
            found
        };
        self.layout.create_tables(&txn)?;
        // Steps that only add tables (main 1 → 2: jobs) are done by
        // `create_tables`; steps that rewrite records run here, in order.
        if self.layout == Layout::Library {
            if found == Some(1) {
                crate::library::store::migrate_edges_to_v2(&txn)?;
            }
            if matches!(found, Some(1 | 2)) {
                crate::library::store::migrate_to_v3(&txn)?;
            }
            if matches!(found, Some(1..=3)) {
                crate::library::store::migrate_to_v4(&txn)?;
            }
        }
        txn.commit()?;
        Ok(())
    }

    fn check_version(&self) -> Result<(), StoreError> {
        let supported = self.layout.schema_version();
        let found = self.read(|txn| -> Result<Option<u64>, StoreError> {
            Ok(txn
                .open_table(META)?
                .get("schema_version")?
                .map(|v| v.value()))
        })?;
        match found.unwrap_or(0) {
            version if version == supported => Ok(()),
            version if version > supported => Err(StoreError::SchemaTooNew {
                found: version,
                supported,
            }),
            version => Err(StoreError::SchemaTooOld {
                found: version,
                supported,
            }),
        }
    }

    /// Runs `work` in one write transaction and commits it durably when it
    /// returns `Ok`; on `Err` nothing it wrote is kept. A panic in redb's
    /// code (a damaged page) is [`StoreError::DamagedPage`], as in
    /// [`Store::read`].
    pub fn write<T, E>(&self, work: impl FnOnce(&WriteTransaction) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        self.marking_damage(|| {
            let txn = self.begin_write()?;
            let value = work(&txn)?;
            txn.commit().map_err(StoreError::from)?;
            Ok(value)
        })
    }

    /// Runs `work` on a consistent snapshot. redb panics on some pages that
    /// do not hold what it wrote (a file damaged on disk); such a read is
    /// [`StoreError::DamagedPage`]. It, or a record that does not decode,
    /// marks the store damaged.
    pub fn read<T, E>(&self, work: impl FnOnce(&ReadTransaction) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let txn = self.begin_read().inspect_err(|err| {
            if err.is_damaged_file() {
                self.mark_damaged();
            }
        })?;
        UNDECODABLE_RECORD.set(false);
        let result = self.marking_damage(|| work(&txn));
        if UNDECODABLE_RECORD.get() {
            self.mark_damaged();
        }
        result
    }

    fn mark_damaged(&self) {
        self.damaged.store(true, Ordering::Relaxed);
    }

    /// [`catch_damaged_page`], marking this store damaged when it caught
    /// one.
    fn marking_damage<T, E>(&self, work: impl FnOnce() -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        engine_panics::catch(Engine::Redb, work).unwrap_or_else(|_| {
            self.mark_damaged();
            Err(StoreError::DamagedPage.into())
        })
    }

    /// Whether a read or write of this handle met a damaged page or a
    /// record that does not decode.
    pub fn is_damaged(&self) -> bool {
        self.damaged.load(Ordering::Relaxed)
    }

    /// Whether this handle refuses all work: a commit failed on an I/O error
    /// (a full disk), and redb trusts nothing it holds until the file is
    /// opened again. Asks by beginning a write transaction, without waiting
    /// for one in progress, and dropping it.
    pub fn refuses_work(&self) -> bool {
        match self.db.as_ref() {
            Handle::ReadWrite(db) => matches!(
                db.try_begin_write(),
                Err(redb::TransactionError::Storage(
                    redb::StorageError::PreviousIo
                ))
            ),
            Handle::ReadOnly(_) => false,
        }
    }

    /// A read of the schema version (for stores this process only reads).
    pub fn probe_read(&self) -> Result<(), StoreError> {
        self.check_damage()?;
        self.check_version()
    }

    fn check_damage(&self) -> Result<(), StoreError> {
        match self.damaged.load(Ordering::Relaxed) {
            true => Err(StoreError::DamagedPage),
            false => Ok(()),
        }
    }

    /// The readiness probe: a real write transaction and a read of the schema
    /// version, so a full disk or a broken file shows up here.
    pub fn probe(&self) -> Result<(), StoreError> {
        self.check_damage()?;
        let txn = self.begin_write()?;
        {
            let mut meta = txn.open_table(META)?;
            let now = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0);
            meta.insert("ready_probe", now)?;
        }
        txn.commit()?;
        self.check_version()
    }
}

/// Serialises a record for a JSON-valued table.
pub fn encode<T: Serialize>(record: &T) -> Result<Vec<u8>, StoreError> {
    Ok(serde_json::to_vec(record)?)
}

/// Reads a JSON record from a `&str`-keyed table.
pub fn get_json<T: DeserializeOwned>(
    table: &impl ReadableTable<&'static str, &'static [u8]>,
    key: &str,
) -> Result<Option<T>, StoreError> {
    match table.get(key)? {
        Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
        None => Ok(None),
    }
}

/// Takes the next value of a named counter in `META` (starting at 1).
pub fn next_seq(txn: &WriteTransaction, counter: &str) -> Result<u64, StoreError> {
    let mut meta = txn.open_table(META)?;
    let next = meta.get(counter)?.map(|v| v.value()).unwrap_or(0) + 1;
    meta.insert(counter, next)?;
    Ok(next)
}

/// Milliseconds since the Unix epoch, the one time unit stored.
pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// RFC 3339 (UTC, milliseconds) for the wire.
pub fn rfc3339(millis: i64) -> String {
    chrono::DateTime::from_timestamp_millis(millis)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library file that says it was written with `version`.
    fn library_of_schema(dir: &Path, version: u64) {
        let db = Database::create(dir.join(LIBRARY_FILE)).unwrap();
        let txn = db.begin_write().unwrap();
        txn.open_table(META)
            .unwrap()
            .insert("schema_version", version)
            .unwrap();
        txn.commit().unwrap();
    }

    #[test]
    fn a_store_of_another_schema_says_which_way_it_differs() {
        let supported = tables::LIBRARY_SCHEMA_VERSION;
        let dir = tempfile::tempdir().unwrap();
        library_of_schema(dir.path(), supported - 1);
        let older = Store::open_read_only(dir.path(), Layout::Library).err();
        assert!(
            matches!(older, Some(StoreError::SchemaTooOld { .. })),
            "read-only cannot upgrade: {older:?}"
        );
        assert!(Store::open_library(dir.path()).is_ok(), "writing upgrades");
        assert!(Store::open_read_only(dir.path(), Layout::Library).is_ok());

        let dir = tempfile::tempdir().unwrap();
        library_of_schema(dir.path(), supported + 1);
        for newer in [
            Store::open_read_only(dir.path(), Layout::Library).err(),
            Store::open_library(dir.path()).err(),
        ] {
            assert!(
                matches!(newer, Some(StoreError::SchemaTooNew { .. })),
                "{newer:?}"
            );
        }
    }

    /// Memory that fails every write and sync while `full` is set, as a full
    /// disk does.
    #[derive(Debug, Default)]
    struct FailingDisk {
        memory: redb::backends::InMemoryBackend,
        full: Arc<std::sync::atomic::AtomicBool>,
    }

    impl FailingDisk {
        fn check(&self) -> std::io::Result<()> {
            if self.full.load(std::sync::atomic::Ordering::SeqCst) {
                return Err(std::io::Error::from(std::io::ErrorKind::StorageFull));
            }
            Ok(())
        }
    }

    impl redb::StorageBackend for FailingDisk {
        fn len(&self) -> std::io::Result<u64> {
            self.memory.len()
        }
        fn read(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
            self.memory.read(offset, out)
        }
        fn set_len(&self, len: u64) -> std::io::Result<()> {
            self.check()?;
            self.memory.set_len(len)
        }
        fn sync_data(&self) -> std::io::Result<()> {
            self.check()?;
            self.memory.sync_data()
        }
        fn write(&self, offset: u64, data: &[u8]) -> std::io::Result<()> {
            self.check()?;
            self.memory.write(offset, data)
        }
    }

    /// Memory whose second half reads as zeros while `damaged` is set, as a
    /// file damaged on disk does.
    #[derive(Debug, Default)]
    struct DamagedDisk {
        memory: redb::backends::InMemoryBackend,
        damaged: Arc<std::sync::atomic::AtomicBool>,
    }

    impl redb::StorageBackend for DamagedDisk {
        fn len(&self) -> std::io::Result<u64> {
            self.memory.len()
        }
        fn read(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
            self.memory.read(offset, out)?;
            if self.damaged.load(std::sync::atomic::Ordering::SeqCst)
                && offset >= self.memory.len()? / 2
            {
                out.fill(0);
            }
            Ok(())
        }
        fn set_len(&self, len: u64) -> std::io::Result<()> {
            self.memory.set_len(len)
        }
        fn sync_data(&self) -> std::io::Result<()> {
            self.memory.sync_data()
        }
        fn write(&self, offset: u64, data: &[u8]) -> std::io::Result<()> {
            self.memory.write(offset, data)
        }
    }

    #[test]
    fn a_write_that_meets_a_damaged_page_is_an_error_and_marks_the_store() {
        let disk = DamagedDisk::default();
        let damaged = disk.damaged.clone();
        let db = Database::builder()
            .set_cache_size(0)
            .create_with_backend(disk)
            .unwrap();
        let store = Store {
            db: Arc::new(Handle::ReadWrite(db)),
            layout: Layout::Main,
            damaged: Arc::default(),
        };
        store.migrate().unwrap();
        const TABLE: redb::TableDefinition<u64, &str> = redb::TableDefinition::new("numbers");
        let put = |from: u64, to: u64| {
            store.write(|txn| -> Result<(), StoreError> {
                let mut table = txn.open_table(TABLE)?;
                for n in from..to {
                    table.insert(n, "a number kept in the store to fill its pages")?;
                }
                Ok(())
            })
        };
        put(0, 20_000).unwrap();
        store.probe().unwrap();
        damaged.store(true, std::sync::atomic::Ordering::SeqCst);
        let mut failed = None;
        for n in (0..20_000).step_by(500) {
            if let Err(err) = put(n, n + 1) {
                failed = Some(err);
                break;
            }
        }
        let err = failed.expect("no write met a zeroed page");
        assert!(err.is_unavailable(), "{err}");
        assert!(store.probe().is_err());
        // Closing the database reads its pages again.
        damaged.store(false, std::sync::atomic::Ordering::SeqCst);
    }

    #[test]
    fn a_commit_that_failed_on_a_full_disk_leaves_a_handle_that_refuses_work() {
        let disk = FailingDisk::default();
        let full = disk.full.clone();
        let db = Database::builder().create_with_backend(disk).unwrap();
        let store = Store {
            db: Arc::new(Handle::ReadWrite(db)),
            layout: Layout::Main,
            damaged: Arc::default(),
        };
        let put = |value: u64| {
            store.write(|txn| -> Result<(), StoreError> {
                txn.open_table(META)?.insert("probe", value)?;
                Ok(())
            })
        };
        put(1).unwrap();
        assert!(!store.refuses_work());
        full.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(put(2).is_err());
        full.store(false, std::sync::atomic::Ordering::SeqCst);
        assert!(
            store.refuses_work(),
            "space back, the handle stays poisoned"
        );
    }
}

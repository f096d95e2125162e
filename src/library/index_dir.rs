//! The directory the search index is kept in: tantivy's memory-mapped
//! files, with two changes so that an operator can read a data directory
//! the service's user writes (and cannot write it themselves).
//!
//! - Every file the index writes takes the permissions of the store file
//!   beside it, so the index is exactly as readable as the store. tantivy
//!   wrote `meta.json` and `.managed.json` through a temporary file of mode
//!   0600, which left the index unreadable to anyone but its writer while
//!   the store was readable; and a writer run under another umask than
//!   the one the store was built under would do the same to every file.
//! - tantivy takes its meta lock to open a reader, so that a writer's
//!   garbage collection cannot delete segment files while they are opened.
//!   Its lock opens the lock file to write, which a reader without write
//!   access cannot. Locking needs no write access, so the lock here falls
//!   back to opening the file to read, and for the meta lock to no lock at
//!   all when the file cannot be opened: absent, no writer has ever
//!   collected there; unreadable, the reader risks only a failed open
//!   while a writer collects, where it would fail anyway.

use std::fs::{File, OpenOptions, Permissions, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, META_LOCK, MmapDirectory, WatchCallback,
    WatchHandle, WritePtr,
};

#[derive(Debug, Clone)]
pub struct IndexDirectory {
    files: MmapDirectory,
    path: PathBuf,
    /// The store file's, for the files written here; none when there is
    /// no store file.
    permissions: Option<Permissions>,
}

impl IndexDirectory {
    /// The index directory at `path`, beside the store file `store_file`.
    pub fn open(
        path: &Path,
        store_file: &Path,
    ) -> Result<Self, tantivy::directory::error::OpenDirectoryError> {
        Ok(Self {
            files: MmapDirectory::open(path)?,
            path: path.to_path_buf(),
            permissions: std::fs::metadata(store_file)
                .ok()
                .map(|meta| meta.permissions()),
        })
    }

    fn as_readable_as_the_store(&self, file: &Path) -> io::Result<()> {
        match &self.permissions {
            Some(permissions) => std::fs::set_permissions(file, permissions.clone()),
            None => Ok(()),
        }
    }

    /// The lock's file, opened to write when it can be, else to read; none
    /// for the meta lock when it cannot be opened at all (absent, or a
    /// writer's file this user may not read).
    fn lock_file(&self, lock: &Lock) -> io::Result<Option<File>> {
        let path = self.path.join(&lock.filepath);
        let writable = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path);
        if let Ok(file) = writable {
            // Best effort: the owner of the file can, another writer of the
            // directory cannot, and then it keeps the owner's.
            let _ = self.as_readable_as_the_store(&path);
            return Ok(Some(file));
        }
        match File::open(&path) {
            Ok(file) => Ok(Some(file)),
            Err(_) if lock.filepath == META_LOCK.filepath => Ok(None),
            Err(err) => Err(err),
        }
    }
}

impl Directory for IndexDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.files.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.files.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.files.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        let written = self.files.open_write(path)?;
        let file = self.path.join(path);
        self.as_readable_as_the_store(&file)
            .map_err(|err| OpenWriteError::wrap_io_error(err, file))?;
        Ok(written)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.files.atomic_read(path)
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let target = self.path.join(path);
        let temporary = self.path.join(format!(
            ".{}.{}.tmp",
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temporary)?;
            self.as_readable_as_the_store(&temporary)?;
            file.write_all(data)?;
            file.sync_data()?;
            std::fs::rename(&temporary, &target)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written
    }

    fn sync_directory(&self) -> io::Result<()> {
        self.files.sync_directory()
    }

    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        let Some(file) = self.lock_file(lock).map_err(LockError::wrap_io_error)? else {
            return Ok(DirectoryLock::from(Box::new(())));
        };
        if lock.is_blocking {
            file.lock().map_err(LockError::wrap_io_error)?;
        } else {
            file.try_lock().map_err(|err| match err {
                TryLockError::WouldBlock => LockError::LockBusy,
                TryLockError::Error(io) => LockError::wrap_io_error(io),
            })?;
        }
        // Closing the file releases the lock.
        Ok(DirectoryLock::from(Box::new(file)))
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.files.watch(watch_callback)
    }
}

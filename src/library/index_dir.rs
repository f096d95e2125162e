//! The directory the search index is kept in: tantivy's memory-mapped
//! files, with two changes so that an operator can read a data directory
//! the service's user writes (and cannot write it themselves).
//!
//! - Files written whole (`meta.json`, `.managed.json`) get the same
//!   permissions as every other file the process creates. tantivy writes
//!   them through a temporary file of mode 0600, which left the index
//!   unreadable to anyone but its writer while the store beside it was
//!   readable.
//! - tantivy takes its meta lock to open a reader, so that a writer's
//!   garbage collection cannot delete segment files while they are opened.
//!   Its lock opens the lock file to write, which a reader without write
//!   access cannot. Locking needs no write access, so the lock here falls
//!   back to opening the file to read, and to no lock at all when the file
//!   is absent: then no writer has ever collected there.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, WatchCallback, WatchHandle, WritePtr,
};

#[derive(Debug, Clone)]
pub struct IndexDirectory {
    files: MmapDirectory,
    path: PathBuf,
}

impl IndexDirectory {
    pub fn open(path: &Path) -> Result<Self, tantivy::directory::error::OpenDirectoryError> {
        Ok(Self {
            files: MmapDirectory::open(path)?,
            path: path.to_path_buf(),
        })
    }

    fn lock_file(&self, lock: &Lock) -> io::Result<Option<File>> {
        let path = self.path.join(&lock.filepath);
        let opened = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .or_else(|_| File::open(&path));
        match opened {
            Ok(file) => Ok(Some(file)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
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
        self.files.open_write(path)
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
        } else if file.try_lock().is_err() {
            return Err(LockError::LockBusy);
        }
        // Closing the file releases the lock.
        Ok(DirectoryLock::from(Box::new(file)))
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.files.watch(watch_callback)
    }
}

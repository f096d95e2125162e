//! Asynchronous jobs: persisted in redb (`queue`), run by a small pool of
//! workers (`worker`). A job is acknowledged (202) only after it is stored.

pub mod queue;
pub mod worker;

use std::time::Duration;

use serde::Deserialize;
use tokio::sync::Notify;

use crate::store::{Store, StoreError, now_millis};
use queue::{JobRecord, JobStatus, JobWork};

/// How the queue runs (config `[jobs]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JobSettings {
    /// Off: URL and long-text verification answer 503 async_unavailable.
    pub enabled: bool,
    pub workers: usize,
    /// Tries of a job whose document service is unreachable.
    pub max_attempts: u32,
    /// Wait before the first retry; doubles after each.
    pub retry_backoff_ms: u64,
    /// Finished jobs are deleted by the sweep after this long.
    pub retention_hours: u64,
}

impl Default for JobSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            workers: 2,
            max_attempts: 4,
            retry_backoff_ms: 5_000,
            retention_hours: 24 * 7,
        }
    }
}

/// The queue as the rest of the server sees it.
pub struct Jobs {
    store: Store,
    settings: JobSettings,
    wake: Notify,
}

impl Jobs {
    pub fn new(store: Store, settings: JobSettings) -> Self {
        Self {
            store,
            settings,
            wake: Notify::new(),
        }
    }

    pub fn settings(&self) -> &JobSettings {
        &self.settings
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Stores a queued job and wakes a worker; `None` when this key's
    /// request id already started a job.
    pub fn submit(
        &self,
        key_id: &str,
        request_id: &str,
        work: JobWork,
        input: Option<&str>,
    ) -> Result<Option<JobRecord>, StoreError> {
        let now = now_millis();
        let job = JobRecord {
            id: format!("job_{}", crate::ids::random_hex(12)),
            key_id: key_id.to_string(),
            request_id: request_id.to_string(),
            work,
            status: JobStatus::Queued,
            attempts: 0,
            created_at: now,
            updated_at: now,
            finished_at: None,
            result: None,
            error: None,
            last_attempt_error: None,
        };
        if !queue::enqueue(&self.store, &job, input)? {
            return Ok(None);
        }
        self.wake.notify_one();
        Ok(Some(job))
    }

    /// A job as its owner sees it; `None` for another key's job.
    pub fn get_for(&self, id: &str, key_id: &str) -> Result<Option<JobRecord>, StoreError> {
        let job = self.store.read(|txn| queue::get(txn, id))?;
        Ok(job.filter(|job| job.key_id == key_id))
    }

    /// Deletes finished jobs older than the retention.
    pub fn sweep(&self) -> Result<usize, StoreError> {
        let retention = i64::try_from(self.settings.retention_hours.saturating_mul(3_600_000))
            .unwrap_or(i64::MAX);
        queue::sweep_finished(&self.store, now_millis().saturating_sub(retention))
    }

    /// The backoff before retry number `attempt` (1-based).
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 1u64 << attempt.saturating_sub(1).min(10);
        Duration::from_millis(self.settings.retry_backoff_ms.saturating_mul(factor))
    }

    pub(crate) async fn wait_for_work(&self, at_most: Duration) {
        let _ = tokio::time::timeout(at_most, self.wake.notified()).await;
    }
}

/// How often a client should poll (public-api.md §8): every 2 s for the
/// first 30 s of a job, then every 10 s.
pub fn poll_advice_secs(created_at: i64, now: i64) -> u64 {
    if now.saturating_sub(created_at) < 30_000 {
        2
    } else {
        10
    }
}

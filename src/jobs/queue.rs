//! The job records and their queue in redb. Every state change is one
//! durable transaction, so a job acknowledged with 202 survives a kill -9,
//! and a job that was running when the process died runs again.

use redb::{ReadTransaction, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use crate::store::tables::{JOB_INPUTS, JOB_QUEUE, JOB_REQUESTS, JOBS};
use crate::store::{Store, StoreError, encode, get_json};

/// public-api.md §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    Queued,
    Running,
    Completed,
    Failed,
}

impl JobStatus {
    pub fn is_finished(self) -> bool {
        matches!(self, JobStatus::Completed | JobStatus::Failed)
    }
}

/// Why a job failed, in the wire's error terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobError {
    pub code: String,
    pub message: String,
}

/// What a job was asked to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum JobWork {
    /// Verify the citations of a document: the text kept in `JOB_INPUTS`,
    /// or the document at `url`.
    Verify {
        url: Option<String>,
        country: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRecord {
    pub id: String,
    pub key_id: String,
    pub request_id: String,
    pub work: JobWork,
    pub status: JobStatus,
    pub attempts: u32,
    pub created_at: i64,
    pub updated_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<JobError>,
    /// The last transient failure, kept while the job waits to retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attempt_error: Option<String>,
}

fn save(txn: &WriteTransaction, job: &JobRecord) -> Result<(), StoreError> {
    txn.open_table(JOBS)?
        .insert(job.id.as_str(), encode(job)?.as_slice())?;
    Ok(())
}

fn load(txn: &WriteTransaction, id: &str) -> Result<Option<JobRecord>, StoreError> {
    get_json(&txn.open_table(JOBS)?, id)
}

/// Stores a new queued job (and its input text) and takes its request id.
/// False, writing nothing, when the key's request id already started a
/// job: the check and the write share one transaction, so of two requests
/// sent at once with one id only one starts a job.
pub fn enqueue(store: &Store, job: &JobRecord, input: Option<&str>) -> Result<bool, StoreError> {
    store.write(|txn| {
        let mut requests = txn.open_table(JOB_REQUESTS)?;
        let request = (job.key_id.as_str(), job.request_id.as_str());
        if requests.get(request)?.is_some() {
            return Ok(false);
        }
        requests.insert(request, job.id.as_str())?;
        save(txn, job)?;
        if let Some(text) = input {
            txn.open_table(JOB_INPUTS)?.insert(job.id.as_str(), text)?;
        }
        txn.open_table(JOB_QUEUE)?
            .insert((job.created_at, job.id.as_str()), ())?;
        Ok(true)
    })
}

pub fn get(txn: &ReadTransaction, id: &str) -> Result<Option<JobRecord>, StoreError> {
    get_json(&txn.open_table(JOBS)?, id)
}

pub fn input(store: &Store, id: &str) -> Result<Option<String>, StoreError> {
    store.read(|txn| {
        Ok(txn
            .open_table(JOB_INPUTS)?
            .get(id)?
            .map(|v| v.value().to_string()))
    })
}

/// Whether a request id already started a job for this key.
pub fn request_taken(
    txn: &ReadTransaction,
    key_id: &str,
    request_id: &str,
) -> Result<bool, StoreError> {
    Ok(txn
        .open_table(JOB_REQUESTS)?
        .get((key_id, request_id))?
        .is_some())
}

/// Takes the first job due at `now` off the queue and marks it running.
pub fn claim_next(store: &Store, now: i64) -> Result<Option<JobRecord>, StoreError> {
    store.write(|txn| {
        let next = {
            let queue = txn.open_table(JOB_QUEUE)?;
            let first = queue.first()?;
            first.map(|(key, _)| {
                let (due, id) = key.value();
                (due, id.to_string())
            })
        };
        let Some((due, id)) = next.filter(|(due, _)| *due <= now) else {
            return Ok(None);
        };
        txn.open_table(JOB_QUEUE)?.remove((due, id.as_str()))?;
        let Some(mut job) = load(txn, &id)? else {
            return Ok(None);
        };
        job.status = JobStatus::Running;
        job.attempts += 1;
        job.updated_at = now;
        save(txn, &job)?;
        Ok(Some(job))
    })
}

/// When the next queued job is due, if any (for the workers' sleep).
pub fn next_due(store: &Store) -> Result<Option<i64>, StoreError> {
    store.read(|txn| {
        Ok(txn
            .open_table(JOB_QUEUE)?
            .first()?
            .map(|(key, _)| key.value().0))
    })
}

/// Finishes a job with its result or its error.
pub fn finish(
    store: &Store,
    id: &str,
    now: i64,
    outcome: Result<serde_json::Value, JobError>,
) -> Result<(), StoreError> {
    store.write(|txn| finish_in(txn, id, now, outcome))
}

/// Records a job's outcome in the caller's transaction (where a completed
/// job's charge is written too).
pub fn finish_in(
    txn: &WriteTransaction,
    id: &str,
    now: i64,
    outcome: Result<serde_json::Value, JobError>,
) -> Result<(), StoreError> {
    let Some(mut job) = load(txn, id)? else {
        return Ok(());
    };
    match outcome {
        Ok(result) => {
            job.status = JobStatus::Completed;
            job.result = Some(result);
        }
        Err(error) => {
            job.status = JobStatus::Failed;
            job.error = Some(error);
        }
    }
    job.updated_at = now;
    job.finished_at = Some(now);
    job.last_attempt_error = None;
    save(txn, &job)?;
    txn.open_table(JOB_INPUTS)?.remove(id)?;
    Ok(())
}

/// Puts a job back in the queue to run again at `due`.
pub fn retry_at(
    store: &Store,
    id: &str,
    now: i64,
    due: i64,
    reason: &str,
) -> Result<(), StoreError> {
    store.write(|txn| {
        let Some(mut job) = load(txn, id)? else {
            return Ok(());
        };
        job.status = JobStatus::Queued;
        job.updated_at = now;
        job.last_attempt_error = Some(reason.to_string());
        save(txn, &job)?;
        txn.open_table(JOB_QUEUE)?.insert((due, id), ())?;
        Ok(())
    })
}

/// At start-up: jobs that were running when the process stopped are queued
/// again. Returns how many.
pub fn requeue_interrupted(store: &Store, now: i64) -> Result<usize, StoreError> {
    store.write(|txn| {
        let running: Vec<JobRecord> = {
            let jobs = txn.open_table(JOBS)?;
            let mut found = Vec::new();
            for row in jobs.iter()? {
                let (_, value) = row?;
                let job: JobRecord = serde_json::from_slice(value.value())?;
                if job.status == JobStatus::Running {
                    found.push(job);
                }
            }
            found
        };
        let mut queue = txn.open_table(JOB_QUEUE)?;
        for mut job in running.iter().cloned() {
            job.status = JobStatus::Queued;
            job.updated_at = now;
            save(txn, &job)?;
            queue.insert((now, job.id.as_str()), ())?;
        }
        Ok(running.len())
    })
}

/// Deletes jobs that finished before `cutoff`; returns how many.
pub fn sweep_finished(store: &Store, cutoff: i64) -> Result<usize, StoreError> {
    store.write(|txn| {
        let old: Vec<JobRecord> = {
            let jobs = txn.open_table(JOBS)?;
            let mut found = Vec::new();
            for row in jobs.iter()? {
                let (_, value) = row?;
                let job: JobRecord = serde_json::from_slice(value.value())?;
                if job.status.is_finished() && job.finished_at.is_some_and(|at| at < cutoff) {
                    found.push(job);
                }
            }
            found
        };
        let mut jobs = txn.open_table(JOBS)?;
        let mut requests = txn.open_table(JOB_REQUESTS)?;
        for job in &old {
            jobs.remove(job.id.as_str())?;
            requests.remove((job.key_id.as_str(), job.request_id.as_str()))?;
        }
        Ok(old.len())
    })
}

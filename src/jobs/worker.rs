//! The workers: each takes the next due job, runs it, bills it and stores
//! its result. `try_execute_next` runs one job, so tests can drain the
//! queue without sleeping.

use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::queue::{self, JobError, JobRecord, JobWork};
use crate::billing::{BilledItem, BillingError, Charge};
use crate::context::Ctx;
use crate::error::ErrorCode;
use crate::store::{StoreError, now_millis};
use crate::verification::Verifier;

/// The billing endpoint name a verify job is charged under (the same as
/// the inline call, so one request id bills once either way).
pub const VERIFY_ENDPOINT: &str = "citations/verify";

/// What one call to [`try_execute_next`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// No job was due.
    Empty,
    /// A job ran (to completion, failure or its next retry).
    Done,
}

/// How a run ended short of a result.
pub enum Failure {
    /// Worth another try later (the document service did not answer).
    Transient(String),
    /// Final.
    Permanent(ErrorCode, String),
}

/// The running workers; dropping them does not stop them, `stop` does.
pub struct Workers {
    cancel: CancellationToken,
    handles: Vec<JoinHandle<()>>,
}

impl Workers {
    /// Queues again the jobs a stopped process left running, then starts
    /// `jobs.workers` workers.
    pub fn start(ctx: Ctx) -> Result<Self, StoreError> {
        let requeued = queue::requeue_interrupted(ctx.jobs.store(), now_millis())?;
        if requeued > 0 {
            tracing::info!(requeued, "jobs interrupted by the last stop will run again");
        }
        let cancel = CancellationToken::new();
        let handles = (0..ctx.jobs.settings().workers)
            .map(|_| tokio::spawn(work(ctx.clone(), cancel.clone())))
            .collect();
        Ok(Self { cancel, handles })
    }

    /// Lets running jobs finish, then stops.
    pub async fn stop(self) {
        self.cancel.cancel();
        for handle in self.handles {
            let _ = handle.await;
        }
    }
}

async fn work(ctx: Ctx, cancel: CancellationToken) {
    while !cancel.is_cancelled() {
        match try_execute_next(&ctx).await {
            Ok(Outcome::Done) => continue,
            Ok(Outcome::Empty) => {}
            Err(err) => tracing::error!(error = %err, "job queue failed"),
        }
        let until_due = queue::next_due(ctx.jobs.store())
            .ok()
            .flatten()
            .map(|due| Duration::from_millis(due.saturating_sub(now_millis()).max(0) as u64))
            .unwrap_or(Duration::from_secs(5))
            .min(Duration::from_secs(5));
        tokio::select! {
            _ = cancel.cancelled() => break,
            _ = ctx.jobs.wait_for_work(until_due) => {}
        }
    }
}

/// Why a job is not run or not given: an inline verify sent under its
/// request id was billed first.
const REQUEST_ID_BILLED_FIRST: &str = "another request with this X-Request-Id was billed on this endpoint first; send a new \
     request id";

/// Runs the next due job, if any.
pub async fn try_execute_next(ctx: &Ctx) -> Result<Outcome, StoreError> {
    let claim_ctx = ctx.clone();
    let claimed = tokio::task::spawn_blocking(move || {
        queue::claim_next(claim_ctx.jobs.store(), now_millis())
    })
    .await
    .map_err(|e| StoreError::Corrupt(format!("job claim: {e}")))??;
    let Some(job) = claimed else {
        return Ok(Outcome::Empty);
    };
    // The job's work begins now: the balance is checked again (it may have
    // run out while the job waited) and held until the charge is in.
    let hold = ctx
        .billing
        .admit(
            &job.key_id,
            VERIFY_ENDPOINT,
            &job.request_id,
            BilledItem::CitationsVerify,
            crate::verification::MAX_CHECKED as u64,
        )
        .await;
    let outcome = match hold {
        Ok(_) => run(ctx, &job).await,
        Err(err) => Err(admission_failure(err)),
    };
    let store = ctx.jobs.store().clone();
    let now = now_millis();
    match outcome {
        Ok((result, units)) => match bill_and_finish(ctx, &job, units, now, result).await {
            Ok(()) => {}
            Err(BillingError::RequestIdReused) => {
                let error = JobError {
                    code: ErrorCode::RequestIdReused.as_str().into(),
                    message: REQUEST_ID_BILLED_FIRST.into(),
                };
                blocking(move || queue::finish(&store, &job.id, now, Err(error))).await?;
            }
            Err(err) => {
                tracing::error!(job = job.id, error = %err, "billing a finished job failed; it will run again");
                let due = now + ctx.jobs.backoff(job.attempts).as_millis() as i64;
                blocking(move || queue::retry_at(&store, &job.id, now, due, "billing failed"))
                    .await?;
            }
        },
        Err(Failure::Transient(reason)) if job.attempts < ctx.jobs.settings().max_attempts => {
            let due = now + ctx.jobs.backoff(job.attempts).as_millis() as i64;
            tracing::info!(
                job = job.id,
                attempt = job.attempts,
                reason,
                "job will retry"
            );
            blocking(move || queue::retry_at(&store, &job.id, now, due, &reason)).await?;
        }
        Err(Failure::Transient(reason)) => {
            let error = JobError {
                code: ErrorCode::DocumentServiceUnavailable.as_str().into(),
                message: format!(
                    "the document service did not answer after {} tries ({reason})",
                    job.attempts
                ),
            };
            blocking(move || queue::finish(&store, &job.id, now, Err(error))).await?;
        }
        Err(Failure::Permanent(code, message)) => {
            let error = JobError {
                code: code.as_str().into(),
                message,
            };
            blocking(move || queue::finish(&store, &job.id, now, Err(error))).await?;
        }
    }
    Ok(Outcome::Done)
}

/// Why a job's work could not begin: a balance held by other work, or a
/// billing writer that is closing or could not commit, may do better on a
/// later try.
fn admission_failure(err: BillingError) -> Failure {
    match err {
        BillingError::PaymentRequired => Failure::Permanent(
            ErrorCode::PaymentRequired,
            "the wallet balance was zero or negative when the job's work was to begin; top up \
             and send the request again"
                .into(),
        ),
        BillingError::RequestIdReused => {
            Failure::Permanent(ErrorCode::RequestIdReused, REQUEST_ID_BILLED_FIRST.into())
        }
        BillingError::NoWallet(_) | BillingError::Overflow => {
            Failure::Permanent(ErrorCode::Internal, err.to_string())
        }
        BillingError::BalanceHeld
        | BillingError::Closed
        | BillingError::CommitFailed(_)
        | BillingError::StoreUnavailable(_)
        | BillingError::Store(_) => Failure::Transient(err.to_string()),
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| StoreError::Corrupt(format!("job task: {e}")))?
}

/// Charges a finished job under its request id and records its result in
/// the same transaction. `RequestIdReused` means another request (an inline
/// verify sent at the same moment) was billed under that id first: the
/// result is not given.
async fn bill_and_finish(
    ctx: &Ctx,
    job: &JobRecord,
    units: u64,
    now: i64,
    result: serde_json::Value,
) -> Result<(), BillingError> {
    let charge = Charge {
        key_id: job.key_id.clone(),
        endpoint: VERIFY_ENDPOINT.into(),
        request_id: job.request_id.clone(),
        item: BilledItem::CitationsVerify,
        units,
    };
    let (finish_ctx, id) = (ctx.clone(), job.id.clone());
    tokio::task::spawn_blocking(move || {
        let store = finish_ctx.jobs.store();
        if units == 0 {
            return Ok(queue::finish(store, &id, now, Ok(result))?);
        }
        finish_ctx
            .billing
            .charge_with(charge, |txn| queue::finish_in(txn, &id, now, Ok(result)))
            .map(|_| ())
    })
    .await
    .map_err(|e| BillingError::CommitFailed(format!("job task: {e}")))?
}

/// Does the job's work: the payload the inline call would return, and its
/// billed units.
async fn run(ctx: &Ctx, job: &JobRecord) -> Result<(serde_json::Value, u64), Failure> {
    let JobWork::Verify { url, .. } = &job.work;
    let text = match url {
        Some(url) => fetch_document(ctx, url).await?,
        None => {
            let store = ctx.jobs.store().clone();
            let id = job.id.clone();
            tokio::task::spawn_blocking(move || queue::input(&store, &id))
                .await
                .map_err(|e| Failure::Transient(e.to_string()))?
                .map_err(|e| Failure::Transient(e.to_string()))?
                .ok_or_else(|| {
                    Failure::Permanent(ErrorCode::Internal, "the job's text is missing".into())
                })?
        }
    };
    let verify_ctx = ctx.clone();
    let report = tokio::task::spawn_blocking(move || {
        let public_url = verify_ctx.config.public_url();
        let verifier = Verifier {
            library: &verify_ctx.library,
            public_url: &public_url,
        };
        verifier.verify_text(&text)
    })
    .await
    .map_err(|e| Failure::Transient(e.to_string()))?
    .map_err(|e| Failure::Transient(e.to_string()))?;
    let units = report.units();
    let payload = serde_json::to_value(&report)
        .map_err(|e| Failure::Permanent(ErrorCode::Internal, e.to_string()))?;
    Ok((payload, units))
}

/// The text of the document at `url`.
async fn fetch_document(ctx: &Ctx, url: &str) -> Result<String, Failure> {
    match crate::documents::read_document(&ctx.fetcher, url).await {
        Ok(document) => Ok(document.text),
        Err(err) if err.is_retryable() => Err(Failure::Transient(err.reason().to_string())),
        Err(err) => Err(Failure::Permanent(err.code(), err.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_billing_writer_in_trouble_is_worth_another_try() {
        let permanent = |err| matches!(admission_failure(err), Failure::Permanent(..));
        assert!(permanent(BillingError::PaymentRequired));
        assert!(permanent(BillingError::RequestIdReused));
        assert!(permanent(BillingError::NoWallet("key".into())));
        assert!(permanent(BillingError::Overflow));
        assert!(!permanent(BillingError::BalanceHeld));
        assert!(!permanent(BillingError::Closed));
        assert!(!permanent(BillingError::CommitFailed("disk".into())));
    }
}

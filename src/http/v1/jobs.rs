//! `GET /v1/jobs/{jobId}`: a job's state, and its result when done.

use serde_json::json;
use warp::reply::Response;

use super::{Endpoint, Outcome, run};
use crate::context::{Ctx, blocking};
use crate::error::ApiError;
use crate::http::filters::RequestMeta;
use crate::jobs::poll_advice_secs;
use crate::ratelimit::Bucket;
use crate::store::now_millis;

const JOBS: Endpoint = Endpoint {
    name: "jobs",
    bucket: Bucket::Jobs,
    billed: None,
};

pub async fn show(job_id: String, ctx: Ctx, meta: RequestMeta) -> Response {
    run(ctx.clone(), meta, JOBS, |caller| async move {
        let key_id = caller.key.id;
        let job = blocking(&ctx, move |ctx| Ok(ctx.jobs.get_for(&job_id, &key_id)?))
            .await?
            .ok_or_else(|| ApiError::not_found("no such job for this API key"))?;
        let mut data = json!({ "jobId": job.id, "status": job.status });
        if let Some(result) = job.result {
            data["result"] = result;
        }
        if let Some(error) = job.error {
            data["error"] = json!({ "code": error.code, "message": error.message });
        }
        let mut outcome = Outcome::ok(data);
        if !job.status.is_finished() {
            outcome.retry_after_secs = Some(poll_advice_secs(job.created_at, now_millis()));
        }
        Ok(outcome)
    })
    .await
}

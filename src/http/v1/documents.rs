//! `POST /v1/documents/review` and `GET /v1/documents/playbooks`: thin
//! handlers over the review engine (`crate::review`).

use serde::Deserialize;
use warp::reply::Response;

use super::{Billed, Endpoint, Outcome, run};
use crate::billing::BilledItem;
use crate::context::Ctx;
use crate::error::{ApiError, ErrorCode};
use crate::http::filters::{Body, RequestMeta, parse_json};
use crate::ratelimit::Bucket;
use crate::review::{Engine, ReviewError};

const REVIEW: Endpoint = Endpoint {
    name: "documents/review",
    bucket: Bucket::Review,
    // One review a request.
    billed: Some(Billed {
        item: BilledItem::DocumentsReview,
        most_units: 1,
    }),
};
const PLAYBOOKS: Endpoint = Endpoint {
    name: "documents/playbooks",
    bucket: Bucket::Review,
    billed: None,
};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReviewRequest {
    text: String,
    playbook_id: Option<String>,
}

pub async fn review(ctx: Ctx, meta: RequestMeta, body: Body) -> Response {
    let request = parse_json::<ReviewRequest>(&meta, body);
    run(ctx, meta, REVIEW, |_caller| async move {
        let request = request?;
        let engine = Engine::embedded().map_err(|e| ApiError::internal(e))?;
        let result = tokio::task::spawn_blocking(move || {
            engine.review(&request.text, request.playbook_id.as_deref())
        })
        .await??;
        // Only a completed review is billed (public-api.md §8).
        let units = u64::from(result.reviewed);
        Ok(Outcome::billed(result, units))
    })
    .await
}

pub async fn playbooks(ctx: Ctx, meta: RequestMeta) -> Response {
    run(ctx, meta, PLAYBOOKS, |_caller| async move {
        let engine = Engine::embedded().map_err(|e| ApiError::internal(e))?;
        Ok(Outcome::ok(engine.playbooks().to_vec()))
    })
    .await
}

impl From<ReviewError> for ApiError {
    fn from(err: ReviewError) -> Self {
        match err {
            ReviewError::TooLarge { .. } => {
                ApiError::new(ErrorCode::DocumentTooLarge, err.to_string())
            }
            ReviewError::UnknownPlaybook(_) => {
                ApiError::new(ErrorCode::PlaybookNotFound, err.to_string())
            }
            ReviewError::Model(_) => ApiError::internal(&err),
        }
    }
}

//! `/health`, `/health/live` and `/api/health` (app-api.md §4.2).

use serde_json::json;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use crate::context::{Ctx, store_usable};
use crate::error::{ApiError, ErrorCode};
use crate::http::filters::{RequestMeta, meta, with_ctx};
use crate::http::{one_of, reply};

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    let shallow = warp::path!("health")
        .and(warp::get())
        .and(meta())
        .then(shallow)
        .boxed();
    let live = warp::path!("health" / "live")
        .and(warp::get())
        .and(with_ctx(ctx))
        .and(meta())
        .then(live)
        .boxed();
    let chat = warp::path!("api" / "health")
        .and(warp::get())
        .and(meta())
        .then(chat)
        .boxed();
    one_of(vec![shallow, live, chat])
}

/// The process is up; nothing else is consulted.
async fn shallow(meta: RequestMeta) -> Response {
    reply::json_response(
        StatusCode::OK,
        &json!({ "status": "ok" }),
        &meta.echo_request_id(),
    )
}

/// 503 when this instance cannot use its store.
async fn live(ctx: Ctx, meta: RequestMeta) -> Response {
    let request_id = meta.echo_request_id();
    if store_usable(&ctx).await {
        let body = json!({ "status": "healthy", "checks": { "store": "ok" } });
        reply::json_response(StatusCode::OK, &body, &request_id)
    } else {
        let err = ApiError::new(ErrorCode::ServiceUnavailable, "store is not usable");
        reply::error(&err, &request_id)
    }
}

async fn chat(meta: RequestMeta) -> Response {
    let body = json!({
        "status": "ok",
        "service": "chat",
        "timestamp": crate::store::rfc3339(crate::store::now_millis()),
    });
    reply::json_response(StatusCode::OK, &body, &meta.echo_request_id())
}

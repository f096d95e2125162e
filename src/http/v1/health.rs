//! `/v1/health`, `/v1/health/ready` (no auth) and the OpenAPI document.

use serde_json::json;
use warp::http::StatusCode;
use warp::reply::Response;

use crate::context::{Ctx, library_usable, store_usable};
use crate::error::{ApiError, ErrorCode};
use crate::http::filters::RequestMeta;
use crate::http::reply;

/// The OpenAPI description of every endpoint, compiled in.
pub const OPENAPI_YAML: &str = include_str!("../../../data-schema/openapi.yaml");

pub async fn live(meta: RequestMeta) -> Response {
    let request_id = meta.echo_request_id();
    let data = json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") });
    reply::envelope(StatusCode::OK, &data, &request_id)
}

/// Ready means the store takes a real write and read, and the library
/// answers a read and a search.
pub async fn ready(ctx: Ctx, meta: RequestMeta) -> Response {
    let request_id = meta.echo_request_id();
    let store = store_usable(&ctx).await;
    let library = library_usable(&ctx).await;
    if store && library {
        let data = json!({ "status": "ready", "checks": { "store": "ok", "library": "ok" } });
        reply::envelope(StatusCode::OK, &data, &request_id)
    } else {
        let failed = if store { "library" } else { "store" };
        let err = ApiError::new(ErrorCode::NotReady, format!("{failed} is not usable"));
        reply::error(&err, &request_id)
    }
}

pub async fn openapi(meta: RequestMeta) -> Response {
    reply::bytes(
        StatusCode::OK,
        "application/yaml",
        OPENAPI_YAML.as_bytes().to_vec(),
        &meta.echo_request_id(),
    )
}

//! The one router: every route of both APIs and the admin endpoints, the
//! 404/405 fallback, and request logging.

mod admin;
mod api;
pub mod filters;
mod pages;
pub mod reply;
pub mod server;
mod v1;

use std::convert::Infallible;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use crate::context::Ctx;
use crate::error::ApiError;
use filters::{RequestMeta, meta};

pub use api::SESSION_COOKIE;
pub use v1::health::OPENAPI_YAML;

/// Every route served, as (method, path template). The fallback uses it to
/// tell 405 from 404, and a test checks each one is served and documented
/// in `data-schema/openapi.yaml`.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/health"),
    ("GET", "/health/live"),
    ("GET", "/api/health"),
    ("POST", "/api/custom-auth/signup"),
    ("POST", "/api/custom-auth/signin"),
    ("GET", "/api/custom-auth/session"),
    ("GET", "/api/custom-auth/me"),
    ("PATCH", "/api/custom-auth/profile"),
    ("POST", "/api/custom-auth/signout"),
    ("GET", "/api/custom-auth/health"),
    ("GET", "/api/subscription"),
    ("GET", "/api/users/api-keys"),
    ("POST", "/api/users/api-keys"),
    ("DELETE", "/api/users/api-keys/{keyId}"),
    ("GET", "/v1/health"),
    ("GET", "/v1/health/ready"),
    ("GET", "/v1/openapi.yaml"),
    ("GET", "/v1/wallet"),
    ("POST", "/v1/citations/resolve"),
    ("POST", "/v1/citations/verify"),
    ("GET", "/v1/jobs/{jobId}"),
    ("POST", "/v1/cases/lookup"),
    ("GET", "/library/cases/{caseId}"),
    ("POST", "/v1/documents/review"),
    ("GET", "/v1/documents/playbooks"),
    ("GET", "/admin/keys"),
    ("POST", "/admin/keys"),
    ("POST", "/admin/keys/{keyId}/revoke"),
    ("GET", "/admin/wallets/{keyId}"),
    ("POST", "/admin/wallets/{keyId}/topup"),
];

/// Seconds a client is told to wait while the server starts.
const STARTING_RETRY_AFTER_SECS: u64 = 5;

/// What a server answers while it opens its library (a first start builds
/// the default library, an import may hold it, a killed one leaves records
/// to index): 503 `not_ready` at once to every request, so that a client or
/// a health probe is not left waiting on a queued connection; each such
/// connection is then closed.
pub fn starting_router() -> BoxedFilter<(Response,)> {
    meta()
        .map(|meta: RequestMeta| {
            let mut err = ApiError::new(
                crate::error::ErrorCode::NotReady,
                "lexstack is starting: it opens its library, which an import or a library build \
                 may hold until it ends; try again shortly",
            );
            err.retry_after_secs = Some(STARTING_RETRY_AFTER_SECS);
            let mut response = reply::error(&err, &meta.echo_request_id());
            // The next request goes to the server proper, on a new
            // connection.
            response.headers_mut().insert(
                warp::http::header::CONNECTION,
                warp::http::HeaderValue::from_static("close"),
            );
            response
        })
        .boxed()
}

pub fn router(ctx: Ctx) -> BoxedFilter<(Response,)> {
    let fallback = warp::any().and(meta()).then(fallback).boxed();
    one_of(vec![
        v1::handlers(ctx.clone()),
        api::handlers(ctx.clone()),
        admin::handlers(ctx.clone()),
        pages::handlers(ctx),
        fallback,
    ])
    .recover(last_resort)
    .unify()
    .with(warp::log::custom(log_request))
    .map(warp::Reply::into_response)
    .boxed()
}

/// Tries each route in turn (boxing keeps compile times and types small).
pub fn one_of(routes: Vec<BoxedFilter<(Response,)>>) -> BoxedFilter<(Response,)> {
    let mut routes = routes.into_iter();
    let first = routes.next().expect("one_of needs at least one route");
    routes.fold(first, |all, next| all.or(next).unify().boxed())
}

/// No route matched: 405 with `Allow` when the path exists under another
/// method, else 404, both in the error envelope.
async fn fallback(meta: RequestMeta) -> Response {
    let request_id = meta.echo_request_id();
    let mut allowed: Vec<&str> = ROUTES
        .iter()
        .filter(|(_, template)| path_matches(template, &meta.path))
        .map(|(method, _)| *method)
        .collect();
    // HEAD is served wherever GET is (src/http/server.rs).
    if let Some(get) = allowed.iter().position(|method| *method == "GET") {
        allowed.insert(get + 1, "HEAD");
    }
    let err = if allowed.is_empty() {
        ApiError::not_found(format!("no route for {}", quoted_path(&meta.path)))
    } else {
        ApiError::method_not_allowed(allowed.join(", "))
    };
    reply::error(&err, &request_id)
}

/// The path as an error message repeats it: a long one is cut, so a 60 KB
/// path does not come back as a 60 KB answer.
fn quoted_path(path: &str) -> String {
    const SHOWN_CHARS: usize = 200;
    match path.char_indices().nth(SHOWN_CHARS) {
        Some((end, _)) => format!("{}…", &path[..end]),
        None => path.to_string(),
    }
}

/// Whether `path` fits `template`, where `{name}` stands for one segment.
/// As warp's routes do, one trailing slash is allowed and an empty segment
/// (`//v1/wallet`) matches nothing.
pub fn path_matches(template: &str, path: &str) -> bool {
    let path = path.strip_prefix('/').unwrap_or(path);
    let path = path.strip_suffix('/').unwrap_or(path);
    let mut want = template.trim_start_matches('/').split('/');
    let mut have = path.split('/');
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some(w), Some(h)) if w.starts_with('{') && w.ends_with('}') => {
                if h.is_empty() {
                    return false;
                }
            }
            (Some(w), Some(h)) if w == h => {}
            _ => return false,
        }
    }
}

/// Only reached if a filter rejected after the fallback, which the routes
/// are built never to do; answer in the envelope all the same.
async fn last_resort(rejection: warp::Rejection) -> Result<Response, Infallible> {
    tracing::error!(?rejection, "unhandled rejection");
    let err = ApiError::new(crate::error::ErrorCode::Internal, "internal error");
    let mut response = reply::error(&err, &crate::ids::uuid());
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    Ok(response)
}

fn log_request(info: warp::log::Info<'_>) {
    tracing::info!(
        target: "lexstack::http",
        method = %info.method(),
        path = info.path(),
        status = info.status().as_u16(),
        elapsed_us = info.elapsed().as_micros() as u64,
        "request"
    );
}

#[cfg(test)]
mod tests {
    use super::path_matches;

    #[test]
    fn templates_match_one_segment_per_parameter() {
        assert!(path_matches("/v1/wallet", "/v1/wallet"));
        assert!(path_matches(
            "/admin/keys/{keyId}/revoke",
            "/admin/keys/key_1/revoke"
        ));
        assert!(!path_matches(
            "/admin/keys/{keyId}/revoke",
            "/admin/keys//revoke"
        ));
        assert!(!path_matches("/v1/wallet", "/v1/wallet/x"));
        assert!(!path_matches("/v1/wallet", "/v1"));
        assert!(path_matches("/v1/wallet", "/v1/wallet/"));
        assert!(!path_matches("/v1/wallet", "//v1/wallet"));
        assert!(!path_matches("/v1/wallet", "/v1//wallet"));
    }
}

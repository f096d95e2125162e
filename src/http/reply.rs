//! Every response body is written here: the public API's success envelope,
//! the error envelope of both APIs, and the application API's plain JSON.

use serde::Serialize;
use serde_json::json;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;

use crate::error::ApiError;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a, T> {
    data: &'a T,
    request_id: &'a str,
}

/// `{ data, requestId }` (public-api.md §2.1), serialized in one pass.
pub fn envelope<T: Serialize>(status: StatusCode, data: &T, request_id: &str) -> Response {
    json_response(status, &Envelope { data, request_id }, request_id)
}

/// `{ error: { code, message, requestId } }` with `Retry-After` for 429 and
/// `Allow` for 405.
pub fn error(err: &ApiError, request_id: &str) -> Response {
    let body = json!({
        "error": {
            "code": err.code.as_str(),
            "message": err.message,
            "requestId": request_id,
        }
    });
    let mut response = json_response(err.code.http_status(), &body, request_id);
    let headers = response.headers_mut();
    if let Some(secs) = err.retry_after_secs {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    if let Some(allow) = err
        .allow
        .as_deref()
        .and_then(|a| HeaderValue::from_str(a).ok())
    {
        headers.insert(header::ALLOW, allow);
    }
    response
}

/// A JSON body as is (the application API returns its DTOs unwrapped).
pub fn json_response<T: Serialize>(status: StatusCode, body: &T, request_id: &str) -> Response {
    let json = serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec());
    let mut response = bytes(status, "application/json", json, request_id);
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Plain bytes with a content type (the OpenAPI document, case pages),
/// with the request id as every response carries it.
pub fn bytes(
    status: StatusCode,
    content_type: &'static str,
    body: Vec<u8>,
    request_id: &str,
) -> Response {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(request_id) {
        headers.insert("x-request-id", value);
    }
    response
}

//! The extractors every route uses. None of them rejects: a bad header or an
//! oversized body becomes a value the handler turns into the right error, so
//! a request whose path matched never falls through to another route (the
//! warp pitfall that turns a bad body into a 405).

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::{Buf, Bytes, BytesMut};
use futures_util::{Stream, StreamExt};
use serde::de::DeserializeOwned;
use warp::Filter;
use warp::http::{HeaderMap, Method};

use crate::context::Ctx;
use crate::error::{ApiError, ErrorCode};

/// Request bodies above this are refused with 413 (public-api.md §8).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// An oversized body is read and discarded up to this size so that the
/// client receives the 413 instead of a reset connection. A body declared
/// larger (or declared too large by a client waiting for `100 Continue`) is
/// refused from its headers, unread.
const DRAIN_LIMIT_BYTES: usize = 8 * MAX_BODY_BYTES;

const MAX_REQUEST_ID_CHARS: usize = 200;
/// X-Request-Id values with this prefix are reserved (public-api.md §7).
const RESERVED_REQUEST_ID_PREFIX: &str = "job:";

/// What a handler may want to know about the request besides its body.
#[derive(Debug, Clone)]
pub struct RequestMeta {
    pub method: Method,
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub remote: Option<SocketAddr>,
}

impl RequestMeta {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The token of an `Authorization: Bearer …` header.
    pub fn bearer(&self) -> Option<&str> {
        let value = self.header("authorization")?.trim();
        let (scheme, token) = value.split_once(' ')?;
        scheme
            .eq_ignore_ascii_case("bearer")
            .then(|| token.trim())
            .filter(|t| !t.is_empty())
    }

    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.headers
            .get_all("cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.trim())
    }

    /// The caller's `X-Request-Id`, or a fresh UUID. An id with the reserved
    /// `job:` prefix, or one that is not printable ASCII of at most 200
    /// characters, is refused with `invalid_request_id`; the error still
    /// carries an id to echo.
    pub fn request_id(&self) -> Result<String, (String, ApiError)> {
        let Some(raw) = self.headers.get("x-request-id") else {
            return Ok(crate::ids::uuid());
        };
        let text = raw.to_str().unwrap_or("");
        let printable = !text.is_empty()
            && text.len() <= MAX_REQUEST_ID_CHARS
            && text.bytes().all(|b| b == b' ' || b.is_ascii_graphic());
        if !printable {
            return Err((
                crate::ids::uuid(),
                ApiError::new(
                    ErrorCode::InvalidRequestId,
                    "X-Request-Id must be 1 to 200 printable ASCII characters",
                ),
            ));
        }
        let reserved = text
            .get(..RESERVED_REQUEST_ID_PREFIX.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(RESERVED_REQUEST_ID_PREFIX));
        if reserved {
            return Err((
                text.to_string(),
                ApiError::new(
                    ErrorCode::InvalidRequestId,
                    "X-Request-Id must not begin with the reserved prefix job:",
                ),
            ));
        }
        Ok(text.to_string())
    }

    /// A request id for the application API, where ids are only echoed.
    pub fn echo_request_id(&self) -> String {
        self.request_id().unwrap_or_else(|(id, _)| id)
    }

    /// Whether the peer is on this machine (the admin endpoints require it).
    pub fn is_loopback(&self) -> bool {
        self.remote.is_some_and(|addr| addr.ip().is_loopback())
    }
}

pub fn with_ctx(ctx: Ctx) -> impl Filter<Extract = (Ctx,), Error = Infallible> + Clone {
    warp::any().map(move || ctx.clone())
}

pub fn meta() -> impl Filter<Extract = (RequestMeta,), Error = Infallible> + Clone {
    warp::method()
        .and(warp::path::full())
        .and(warp::query::raw().or(warp::any().map(String::new)).unify())
        .and(warp::header::headers_cloned())
        .and(super::server::peer())
        .map(
            |method, path: warp::path::FullPath, query, headers, remote| RequestMeta {
                method,
                path: path.as_str().to_string(),
                query,
                headers,
                remote,
            },
        )
}

/// A request body read up to [`MAX_BODY_BYTES`], or the 413 to answer.
pub type Body = Result<Bytes, ApiError>;

/// The body must arrive within the `[http]` body timeout: one trickled in,
/// or shorter than its `Content-Length`, would hold its connection forever.
pub fn body() -> impl Filter<Extract = (Body,), Error = warp::Rejection> + Clone {
    warp::header::headers_cloned()
        .and(super::server::body_read_timeout())
        .and(warp::body::stream())
        .then(read_body)
}

async fn read_body<S, B>(headers: HeaderMap, timeout: std::time::Duration, stream: S) -> Body
where
    S: Stream<Item = Result<B, warp::Error>> + Send,
    B: Buf,
{
    let declared = headers
        .get(warp::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.trim().parse::<u64>().ok());
    let waits_to_send = headers
        .get(warp::http::header::EXPECT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("100-continue"));
    if let Some(declared) = declared
        && declared > MAX_BODY_BYTES as u64
        && (waits_to_send || declared > DRAIN_LIMIT_BYTES as u64)
    {
        return Err(too_large());
    }
    tokio::time::timeout(timeout, read_limited(stream))
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::bad_request(format!(
                "the request body did not arrive within {} s",
                timeout.as_secs()
            )))
        })
}

fn too_large() -> ApiError {
    ApiError::new(
        ErrorCode::DocumentTooLarge,
        format!("request body is over the limit of {MAX_BODY_BYTES} bytes (1 MiB)"),
    )
}

async fn read_limited<S, B>(stream: S) -> Body
where
    S: Stream<Item = Result<B, warp::Error>> + Send,
    B: Buf,
{
    let mut stream = std::pin::pin!(stream);
    let mut collected = BytesMut::new();
    let mut seen = 0usize;
    while let Some(chunk) = stream.next().await {
        let Ok(mut chunk) = chunk else {
            return Err(ApiError::bad_request("the request body could not be read"));
        };
        seen = seen.saturating_add(chunk.remaining());
        if seen > DRAIN_LIMIT_BYTES {
            break;
        }
        if seen <= MAX_BODY_BYTES {
            collected.extend_from_slice(&chunk.copy_to_bytes(chunk.remaining()));
        } else {
            chunk.advance(chunk.remaining());
        }
    }
    if seen > MAX_BODY_BYTES {
        return Err(too_large());
    }
    Ok(collected.freeze())
}

/// Parses a JSON object body, naming the offending field on failure.
pub fn parse_json<T: DeserializeOwned>(meta: &RequestMeta, body: Body) -> Result<T, ApiError> {
    let bytes = body?;
    if let Some(content_type) = meta.header("content-type") {
        let mime = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if mime != "application/json" && !mime.ends_with("+json") {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                format!("content type {mime:?} is not supported; send application/json"),
            ));
        }
    }
    // A byte-order mark some Windows tools write is no part of the JSON.
    let json = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    // serde reads a struct from an array too (its fields in order), which
    // would slip past the unknown-field check: only an object is a body.
    if json.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request("a JSON object body is required"));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        // Broken JSON has no field to name (the path reads "?" there). A
        // well-formed body whose field holds the wrong kind of value has
        // one, even where serde_json words it as syntax ("expected value"
        // for a number where a word goes).
        let broken = (inner.is_syntax() || inner.is_eof())
            && serde_json::from_slice::<serde::de::IgnoredAny>(json).is_err();
        if path == "." || broken {
            ApiError::bad_request(format!("invalid request body: {inner}"))
        } else {
            ApiError::bad_request(format!("invalid field `{path}`: {inner}"))
        }
    })?;
    deserializer
        .end()
        .map_err(|err| ApiError::bad_request(format!("invalid request body: {err}")))?;
    Ok(value)
}

/// A query with only `limit`: how many entries, clamped into a range. Any
/// whole number is read, however large or negative (it is clamped, as the
/// OpenAPI document says); other text is refused.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitQuery {
    #[serde(default, deserialize_with = "whole_number")]
    limit: Option<i64>,
}

impl LimitQuery {
    pub fn limit(&self, default: usize, most: usize) -> usize {
        let most = i64::try_from(most).unwrap_or(i64::MAX);
        self.limit
            .map_or(default, |limit| limit.clamp(1, most) as usize)
    }
}

/// A whole number written in a query, saturating at the ends of `i64`.
fn whole_number<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i64>, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(deserializer)?;
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(serde::de::Error::custom("expected a whole number"));
    }
    let saturated = if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    };
    Ok(Some(text.parse().unwrap_or(saturated)))
}

/// Parses the query string into `T`, naming the offending parameter.
pub fn parse_query<T: DeserializeOwned>(meta: &RequestMeta) -> Result<T, ApiError> {
    let deserializer =
        serde_urlencoded::Deserializer::new(form_urlencoded::parse(meta.query.as_bytes()));
    serde_path_to_error::deserialize(deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if path == "." {
            ApiError::bad_request(format!("invalid query: {inner}"))
        } else {
            ApiError::bad_request(format!("invalid query parameter `{path}`: {inner}"))
        }
    })
}

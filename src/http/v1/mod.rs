//! The public API under `/v1`: API-key authentication, rate limits and
//! billing, applied the same way to every endpoint by [`run`].

mod cases;
mod citations;
mod documents;
pub mod health;
mod jobs;
mod wallet;

use std::future::Future;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::filters::{RequestMeta, body, meta, with_ctx};
use super::{one_of, reply};
use crate::accounts::keys;
use crate::billing::{BilledItem, BillingError, Charge};
use crate::context::{Ctx, blocking};
use crate::error::{ApiError, ErrorCode};
use crate::ratelimit::Bucket;
use crate::store::keys::ApiKeyRecord;

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    let health = warp::path!("v1" / "health")
        .and(warp::get())
        .and(meta())
        .then(health::live)
        .boxed();
    let ready = warp::path!("v1" / "health" / "ready")
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(health::ready)
        .boxed();
    let openapi = warp::path!("v1" / "openapi.yaml")
        .and(warp::get())
        .and(meta())
        .then(health::openapi)
        .boxed();
    let wallet = warp::path!("v1" / "wallet")
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(wallet::show)
        .boxed();
    let resolve = warp::path!("v1" / "citations" / "resolve")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(citations::resolve)
        .boxed();
    let verify = warp::path!("v1" / "citations" / "verify")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(citations::verify)
        .boxed();
    let job = warp::path!("v1" / "jobs" / String)
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(jobs::show)
        .boxed();
    let lookup = warp::path!("v1" / "cases" / "lookup")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(cases::lookup)
        .boxed();
    let review = warp::path!("v1" / "documents" / "review")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(documents::review)
        .boxed();
    let playbooks = warp::path!("v1" / "documents" / "playbooks")
        .and(warp::get())
        .and(with_ctx(ctx))
        .and(meta())
        .then(documents::playbooks)
        .boxed();
    one_of(vec![
        health, ready, openapi, wallet, resolve, verify, job, lookup, review, playbooks,
    ])
}

/// How an endpoint is metered: its rate-limit bucket and, when billed, its
/// item. The name keys request-id idempotency ("per key, per endpoint").
#[derive(Debug, Clone, Copy)]
pub struct Endpoint {
    pub name: &'static str,
    pub bucket: Bucket,
    pub billed: Option<Billed>,
}

/// What a billed endpoint charges: its item, and the most units one request
/// can take (held from the wallet while the request works).
#[derive(Debug, Clone, Copy)]
pub struct Billed {
    pub item: BilledItem,
    pub most_units: u64,
}

/// The authenticated caller of a public-API request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub key: ApiKeyRecord,
    pub request_id: String,
}

/// What an endpoint's work produced: the payload, its status, and how many
/// units of the endpoint's billed item it consumed (0 bills nothing).
pub struct Outcome<T> {
    pub status: StatusCode,
    pub data: T,
    pub units: u64,
    /// `Retry-After` advice on a successful answer (job polling).
    pub retry_after_secs: Option<u64>,
}

impl<T> Outcome<T> {
    pub fn ok(data: T) -> Self {
        Self {
            status: StatusCode::OK,
            data,
            units: 0,
            retry_after_secs: None,
        }
    }

    /// A 200 that bills `units` of the endpoint's item.
    pub fn billed(data: T, units: u64) -> Self {
        Self {
            units,
            ..Self::ok(data)
        }
    }
}

/// The public-API pipeline: request id, API key, rate limit, the billing
/// pre-checks, the endpoint's work, the charge, the envelope.
///
/// A 429 happens before any work and is never billed; 402 and 409 are
/// decided before the work starts; the charge is committed before the
/// response is sent, so an answered request is always in the ledger.
pub async fn run<T, W, Fut>(ctx: Ctx, meta: RequestMeta, endpoint: Endpoint, work: W) -> Response
where
    T: serde::Serialize,
    W: FnOnce(Caller) -> Fut,
    Fut: Future<Output = Result<Outcome<T>, ApiError>>,
{
    let request_id = match meta.request_id() {
        Ok(id) => id,
        Err((id, err)) => return reply::error(&err, &id),
    };
    match run_inner(&ctx, &meta, endpoint, &request_id, work).await {
        Ok(outcome) => {
            let mut response = reply::envelope(outcome.status, &outcome.data, &request_id);
            if let Some(secs) = outcome.retry_after_secs {
                response
                    .headers_mut()
                    .insert(warp::http::header::RETRY_AFTER, secs.into());
            }
            response
        }
        Err(err) => reply::error(&err, &request_id),
    }
}

async fn run_inner<T, W, Fut>(
    ctx: &Ctx,
    meta: &RequestMeta,
    endpoint: Endpoint,
    request_id: &str,
    work: W,
) -> Result<Outcome<T>, ApiError>
where
    W: FnOnce(Caller) -> Fut,
    Fut: Future<Output = Result<Outcome<T>, ApiError>>,
{
    let key = authenticate(ctx, meta).await?;
    ctx.limiter
        .check(&key.id, endpoint.bucket)
        .map_err(ApiError::rate_limited)?;
    // Held until the charge is committed (or the work fails).
    let _hold = match endpoint.billed {
        Some(billed) => Some(
            ctx.billing
                .admit(
                    &key.id,
                    endpoint.name,
                    request_id,
                    billed.item,
                    billed.most_units,
                )
                .await?,
        ),
        None => None,
    };
    let key_id = key.id.clone();
    let outcome = work(Caller {
        key,
        request_id: request_id.to_string(),
    })
    .await?;
    if let Some(Billed { item, .. }) = endpoint.billed
        && outcome.units > 0
    {
        ctx.billing
            .charge(Charge {
                key_id,
                endpoint: endpoint.name.to_string(),
                request_id: request_id.to_string(),
                item,
                units: outcome.units,
            })
            .await?;
    }
    Ok(outcome)
}

/// The active API key of the `Authorization: Bearer` header, or 401.
pub async fn authenticate(ctx: &Ctx, meta: &RequestMeta) -> Result<ApiKeyRecord, ApiError> {
    let Some(secret) = meta.bearer().map(str::to_string) else {
        return Err(ApiError::new(
            ErrorCode::Unauthorized,
            "missing API key: send Authorization: Bearer <API_KEY>",
        ));
    };
    blocking(ctx, move |ctx| Ok(keys::authenticate(&ctx.store, &secret)?))
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::Unauthorized, "invalid or revoked API key"))
}

impl From<BillingError> for ApiError {
    fn from(err: BillingError) -> Self {
        match err {
            BillingError::RequestIdReused => ApiError::new(
                ErrorCode::RequestIdReused,
                "this X-Request-Id was already billed on this endpoint",
            ),
            BillingError::PaymentRequired => ApiError::new(
                ErrorCode::PaymentRequired,
                "wallet balance is zero or negative; top up to continue",
            ),
            BillingError::BalanceHeld => ApiError::new(
                ErrorCode::PaymentRequired,
                "the rest of the wallet balance is held by this key's requests in flight; try \
                 again when they finish, or top up",
            ),
            BillingError::Store(err) => err.into(),
            BillingError::StoreUnavailable(cause) => ApiError::store_unavailable(&cause),
            other => ApiError::internal(&other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_the_store_cannot_commit_is_the_service_unavailable_not_internal() {
        let full = BillingError::StoreUnavailable("No space left on device (os error 28)".into());
        assert_eq!(ApiError::from(full).code, ErrorCode::ServiceUnavailable);
        let other = BillingError::CommitFailed("billing task: cancelled".into());
        assert_eq!(ApiError::from(other).code, ErrorCode::Internal);
    }
}

//! Loopback admin endpoints used by the CLI while the server runs. They
//! answer only to a peer on this machine presenting the token the server
//! wrote to `DATA/admin.token` (mode 0600) when it started.

use serde_json::json;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::filters::{
    Body, LimitQuery, RequestMeta, body, meta, parse_json, parse_query, with_ctx,
};
use super::{one_of, reply};
use crate::admin::{self, AdminError, CreateKeyRequest, TopUpRequest};
use crate::context::{Ctx, blocking};
use crate::error::{ApiError, ErrorCode};
use crate::ids::{constant_time_eq, secret_hash};

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    let list_keys = warp::path!("admin" / "keys")
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|ctx: Ctx, meta: RequestMeta| async move {
            guarded(&ctx, &meta, StatusCode::OK, |ctx| {
                Ok(json!({ "keys": admin::list_keys(&ctx.store)? }))
            })
            .await
        })
        .boxed();
    let create_key = warp::path!("admin" / "keys")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(|ctx: Ctx, meta: RequestMeta, body: Body| async move {
            let request = parse_json::<CreateKeyRequest>(&meta, body);
            guarded(&ctx, &meta, StatusCode::CREATED, move |ctx| {
                Ok(json!(admin::create_key(&ctx.store, request?)?))
            })
            .await
        })
        .boxed();
    let revoke_key = warp::path!("admin" / "keys" / String / "revoke")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|key_id: String, ctx: Ctx, meta: RequestMeta| async move {
            guarded(&ctx, &meta, StatusCode::OK, move |ctx| {
                Ok(json!({ "apiKey": admin::revoke_key(&ctx.store, &key_id)? }))
            })
            .await
        })
        .boxed();
    let show_wallet = warp::path!("admin" / "wallets" / String)
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|key_id: String, ctx: Ctx, meta: RequestMeta| async move {
            let query = parse_query::<LimitQuery>(&meta);
            guarded(&ctx, &meta, StatusCode::OK, move |ctx| {
                let limit = query?.limit(20, 1000);
                Ok(json!(admin::wallet(&ctx.store, &key_id, limit)?))
            })
            .await
        })
        .boxed();
    let top_up = warp::path!("admin" / "wallets" / String / "topup")
        .and(warp::post())
        .and(with_ctx(ctx))
        .and(meta())
        .and(body())
        .then(
            |key_id: String, ctx: Ctx, meta: RequestMeta, body: Body| async move {
                let request = parse_json::<TopUpRequest>(&meta, body);
                guarded(&ctx, &meta, StatusCode::OK, move |ctx| {
                    Ok(json!(admin::top_up(
                        &ctx.store,
                        &key_id,
                        &request?.amount_usd
                    )?))
                })
                .await
            },
        )
        .boxed();
    one_of(vec![list_keys, create_key, revoke_key, show_wallet, top_up])
}

/// Checks the peer and the admin token, then runs `work` off the runtime.
async fn guarded<F>(ctx: &Ctx, meta: &RequestMeta, status: StatusCode, work: F) -> Response
where
    F: FnOnce(&crate::context::AppContext) -> Result<serde_json::Value, ApiError> + Send + 'static,
{
    let request_id = meta.echo_request_id();
    if !meta.is_loopback() {
        let err = ApiError::new(
            ErrorCode::Forbidden,
            "admin endpoints answer only on loopback",
        );
        return reply::error(&err, &request_id);
    }
    let token_ok = meta
        .bearer()
        .is_some_and(|token| constant_time_eq(&secret_hash(token), &ctx.admin_token_hash));
    if !token_ok {
        return reply::error(&ApiError::unauthorized(), &request_id);
    }
    match blocking(ctx, work).await {
        Ok(body) => reply::json_response(status, &body, &request_id),
        Err(err) => reply::error(&err, &request_id),
    }
}

impl From<AdminError> for ApiError {
    fn from(err: AdminError) -> Self {
        match err {
            AdminError::Invalid(message) => ApiError::bad_request(message),
            AdminError::UnknownKey(id) => ApiError::not_found(format!("no API key {id}")),
            AdminError::Billing(err) => err.into(),
            AdminError::Store(err) => err.into(),
        }
    }
}

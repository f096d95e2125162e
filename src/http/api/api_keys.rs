//! A signed-in user's own API keys, the "API section of the account
//! settings" (public-api.md §5): `/api/users/api-keys`.

use serde::Deserialize;
use serde_json::json;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::{require_user, respond};
use crate::accounts::keys::{self, NewKey};
use crate::context::{Ctx, blocking};
use crate::error::ApiError;
use crate::http::filters::{Body, RequestMeta, body, meta, parse_json, with_ctx};
use crate::http::{one_of, reply};

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    let list = warp::path!("api" / "users" / "api-keys")
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|ctx, meta: RequestMeta| async move { respond(&meta, list(ctx, &meta)).await })
        .boxed();
    let create = warp::path!("api" / "users" / "api-keys")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(|ctx, meta: RequestMeta, body| async move {
            respond(&meta, create(ctx, &meta, body)).await
        })
        .boxed();
    let revoke = warp::path!("api" / "users" / "api-keys" / String)
        .and(warp::delete())
        .and(with_ctx(ctx))
        .and(meta())
        .then(|key_id: String, ctx, meta: RequestMeta| async move {
            respond(&meta, revoke(ctx, &meta, key_id)).await
        })
        .boxed();
    one_of(vec![list, create, revoke])
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateKeyDto {
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    label: String,
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    opinion_content: bool,
}

async fn list(ctx: Ctx, meta: &RequestMeta) -> Result<Response, ApiError> {
    let user = require_user(&ctx, meta).await?.user;
    let found = blocking(&ctx, move |ctx| Ok(keys::list(&ctx.store, Some(&user.id))?)).await?;
    Ok(reply::json_response(
        StatusCode::OK,
        &json!({ "keys": found }),
        &meta.echo_request_id(),
    ))
}

/// A new key starts with a zero balance (public-api.md §5); the secret is
/// in this response only.
async fn create(ctx: Ctx, meta: &RequestMeta, body: Body) -> Result<Response, ApiError> {
    let user = require_user(&ctx, meta).await?.user;
    let dto: CreateKeyDto = match body {
        Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => CreateKeyDto::default(),
        other => parse_json(meta, other)?,
    };
    let label = keys::validate_label(&dto.label)
        .map_err(|message| ApiError::bad_request(format!("invalid field `label`: {message}")))?;
    let issued = blocking(&ctx, move |ctx| {
        keys::issue(
            &ctx.store,
            NewKey {
                label,
                owner_user_id: Some(user.id),
                opinion_content: dto.opinion_content,
                initial_balance_micros: 0,
            },
        )
        .map_err(ApiError::from)
    })
    .await?;
    let body = json!({
        "key": issued.secret,
        "apiKey": keys::KeySummary::new(&issued.record, 0),
    });
    Ok(reply::json_response(
        StatusCode::CREATED,
        &body,
        &meta.echo_request_id(),
    ))
}

async fn revoke(ctx: Ctx, meta: &RequestMeta, key_id: String) -> Result<Response, ApiError> {
    let user = require_user(&ctx, meta).await?.user;
    let revoked = blocking(&ctx, move |ctx| {
        Ok(keys::revoke(&ctx.store, &key_id, Some(&user.id))?)
    })
    .await?
    .ok_or_else(|| ApiError::not_found("no such API key on this account"))?;
    Ok(reply::json_response(
        StatusCode::OK,
        &json!({ "revoked": true, "apiKey": revoked }),
        &meta.echo_request_id(),
    ))
}

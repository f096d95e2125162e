//! `/api/custom-auth/*` and `/api/subscription` (app-api.md §4.1).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;

use super::{SESSION_COOKIE, require_user, respond, session_token};
use crate::accounts::keys;
use crate::accounts::{IssuedSession, SignUp, UserView};
use crate::context::{Ctx, blocking, password_work};
use crate::error::{ApiError, ErrorCode};
use crate::http::filters::{Body, RequestMeta, body, meta, parse_json, with_ctx};
use crate::http::{one_of, reply};
use crate::store::rfc3339;

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    let signup = warp::path!("api" / "custom-auth" / "signup")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(|ctx, meta: RequestMeta, body| async move {
            respond(&meta, sign_up(ctx, &meta, body)).await
        })
        .boxed();
    let signin = warp::path!("api" / "custom-auth" / "signin")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(|ctx, meta: RequestMeta, body| async move {
            respond(&meta, sign_in(ctx, &meta, body)).await
        })
        .boxed();
    let session = warp::path!("api" / "custom-auth" / "session")
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|ctx, meta: RequestMeta| async move { respond(&meta, session(ctx, &meta)).await })
        .boxed();
    let me = warp::path!("api" / "custom-auth" / "me")
        .and(warp::get())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|ctx, meta: RequestMeta| async move { respond(&meta, me(ctx, &meta)).await })
        .boxed();
    let profile = warp::path!("api" / "custom-auth" / "profile")
        .and(warp::patch())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .and(body())
        .then(|ctx, meta: RequestMeta, body| async move {
            respond(&meta, update_profile(ctx, &meta, body)).await
        })
        .boxed();
    let signout = warp::path!("api" / "custom-auth" / "signout")
        .and(warp::post())
        .and(with_ctx(ctx.clone()))
        .and(meta())
        .then(|ctx, meta: RequestMeta| async move { respond(&meta, sign_out(ctx, &meta)).await })
        .boxed();
    let health = warp::path!("api" / "custom-auth" / "health")
        .and(warp::get())
        .and(meta())
        .then(|meta: RequestMeta| async move {
            let body = json!({
                "status": "ok",
                "service": "custom-auth",
                "timestamp": rfc3339(crate::store::now_millis()),
            });
            reply::json_response(StatusCode::OK, &body, &meta.echo_request_id())
        })
        .boxed();
    let subscription = warp::path!("api" / "subscription")
        .and(warp::get())
        .and(with_ctx(ctx))
        .and(meta())
        .then(
            |ctx, meta: RequestMeta| async move { respond(&meta, subscription(ctx, &meta)).await },
        )
        .boxed();
    one_of(vec![
        signup,
        signin,
        session,
        me,
        profile,
        signout,
        health,
        subscription,
    ])
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SignUpDto {
    email: String,
    password: String,
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    first_name: String,
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    last_name: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SignInDto {
    email: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UpdateProfileDto {
    first_name: Option<String>,
    last_name: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AuthResponse {
    user: UserView,
    token: String,
    expires_at: String,
}

async fn sign_up(ctx: Ctx, meta: &RequestMeta, body: Body) -> Result<Response, ApiError> {
    let dto: SignUpDto = parse_json(meta, body)?;
    let (user, session) = password_work(&ctx, move |ctx| {
        Ok(ctx.accounts.sign_up(SignUp {
            email: dto.email,
            password: dto.password,
            first_name: dto.first_name,
            last_name: dto.last_name,
        })?)
    })
    .await?;
    let body = AuthResponse {
        user: UserView::from(&user),
        token: session.token.clone(),
        expires_at: rfc3339(session.expires_at),
    };
    let response = reply::json_response(StatusCode::CREATED, &body, &meta.echo_request_id());
    Ok(with_session_cookie(&ctx, response, &session))
}

async fn sign_in(ctx: Ctx, meta: &RequestMeta, body: Body) -> Result<Response, ApiError> {
    let dto: SignInDto = parse_json(meta, body)?;
    let (user, session) = password_work(&ctx, move |ctx| {
        Ok(ctx.accounts.sign_in(&dto.email, &dto.password)?)
    })
    .await?;
    let body = AuthResponse {
        user: UserView::from(&user),
        token: session.token.clone(),
        expires_at: rfc3339(session.expires_at),
    };
    let response = reply::json_response(StatusCode::OK, &body, &meta.echo_request_id());
    Ok(with_session_cookie(&ctx, response, &session))
}

/// Says whether the caller is signed in; never 401, so a front end can ask.
async fn session(ctx: Ctx, meta: &RequestMeta) -> Result<Response, ApiError> {
    let found = match session_token(meta) {
        Some(token) => blocking(&ctx, move |ctx| Ok(ctx.accounts.session_user(&token)?)).await?,
        None => None,
    };
    let body = match found {
        Some((user, session)) => json!({
            "authenticated": true,
            "user": UserView::from(&user),
            "expiresAt": rfc3339(session.expires_at),
        }),
        None => json!({ "authenticated": false, "user": null, "expiresAt": null }),
    };
    Ok(reply::json_response(
        StatusCode::OK,
        &body,
        &meta.echo_request_id(),
    ))
}

async fn me(ctx: Ctx, meta: &RequestMeta) -> Result<Response, ApiError> {
    let signed_in = require_user(&ctx, meta).await?;
    Ok(reply::json_response(
        StatusCode::OK,
        &UserView::from(&signed_in.user),
        &meta.echo_request_id(),
    ))
}

async fn update_profile(ctx: Ctx, meta: &RequestMeta, body: Body) -> Result<Response, ApiError> {
    let signed_in = require_user(&ctx, meta).await?;
    let dto: UpdateProfileDto = parse_json(meta, body)?;
    if dto.first_name.is_none() && dto.last_name.is_none() {
        return Err(ApiError::bad_request(
            "invalid request body: send firstName, lastName or both",
        ));
    }
    let user_id = signed_in.user.id;
    let updated = blocking(&ctx, move |ctx| {
        Ok(ctx.accounts.update_profile(
            &user_id,
            dto.first_name.as_deref(),
            dto.last_name.as_deref(),
        )?)
    })
    .await?
    .ok_or_else(|| ApiError::new(ErrorCode::Unauthorized, "sign-in required"))?;
    Ok(reply::json_response(
        StatusCode::OK,
        &UserView::from(&updated),
        &meta.echo_request_id(),
    ))
}

async fn sign_out(ctx: Ctx, meta: &RequestMeta) -> Result<Response, ApiError> {
    let signed_in = require_user(&ctx, meta).await?;
    let token = signed_in.token;
    blocking(&ctx, move |ctx| Ok(ctx.accounts.sign_out(&token)?)).await?;
    let mut response = reply::json_response(
        StatusCode::OK,
        &json!({ "success": true }),
        &meta.echo_request_id(),
    );
    let expired = format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    if let Ok(value) = HeaderValue::from_str(&expired) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    Ok(response)
}

/// A self-hosted install has one tier; its limits are this server's rate
/// limits and its usage the user's keys and their balances.
async fn subscription(ctx: Ctx, meta: &RequestMeta) -> Result<Response, ApiError> {
    let signed_in = require_user(&ctx, meta).await?;
    let user_id = signed_in.user.id;
    let user_keys = blocking(&ctx, move |ctx| Ok(keys::list(&ctx.store, Some(&user_id))?)).await?;
    let limits = &ctx.config.rate_limits;
    let body = json!({
        "tier": "self-hosted",
        "limits": {
            "requestsPerMinute": {
                "resolve": limits.resolve.per_minute,
                "verify": limits.verify.per_minute,
                "answers": limits.answers.per_minute,
                "review": limits.review.per_minute,
                "jobs": limits.jobs.per_minute,
            },
        },
        "usage": {
            "apiKeys": user_keys.iter().filter(|k| k.active).count(),
            "balanceMicroUsd": user_keys.iter().filter(|k| k.active).map(|k| k.balance_micro_usd).sum::<i64>(),
        },
    });
    Ok(reply::json_response(
        StatusCode::OK,
        &body,
        &meta.echo_request_id(),
    ))
}

fn with_session_cookie(ctx: &Ctx, mut response: Response, session: &IssuedSession) -> Response {
    let max_age = ctx.accounts.session_ttl().as_secs();
    let secure = if ctx.config.sessions.cookie_secure {
        "; Secure"
    } else {
        ""
    };
    let cookie = format!(
        "{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}",
        session.token
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

//! The application API under `/api` and the shallow health checks: session
//! authentication and the plain-JSON replies of the app.

mod api_keys;
mod auth;
mod health;

use std::future::Future;

use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::filters::RequestMeta;
use super::{one_of, reply};
use crate::accounts::AccountError;
use crate::context::{Ctx, blocking};
use crate::error::{ApiError, ErrorCode};
use crate::store::users::UserRecord;

/// Name of the session cookie set by sign-up and sign-in.
pub const SESSION_COOKIE: &str = "lexstack_session";

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    one_of(vec![
        health::handlers(ctx.clone()),
        auth::handlers(ctx.clone()),
        api_keys::handlers(ctx),
    ])
}

/// Answers with the handler's response, or its error in the envelope.
pub async fn respond<Fut>(meta: &RequestMeta, work: Fut) -> Response
where
    Fut: Future<Output = Result<Response, ApiError>>,
{
    match work.await {
        Ok(response) => response,
        Err(err) => reply::error(&err, &meta.echo_request_id()),
    }
}

/// The signed-in user and the token that proved it.
pub struct SignedIn {
    pub user: UserRecord,
    pub token: String,
}

/// The session token: `Authorization: Bearer` first, then the cookie.
pub fn session_token(meta: &RequestMeta) -> Option<String> {
    meta.bearer()
        .or_else(|| meta.cookie(SESSION_COOKIE))
        .map(str::to_string)
}

pub async fn current_user(ctx: &Ctx, meta: &RequestMeta) -> Result<Option<SignedIn>, ApiError> {
    let Some(token) = session_token(meta) else {
        return Ok(None);
    };
    blocking(ctx, move |ctx| {
        let found = ctx.accounts.session_user(&token)?;
        Ok(found.map(|(user, _)| SignedIn { user, token }))
    })
    .await
}

pub async fn require_user(ctx: &Ctx, meta: &RequestMeta) -> Result<SignedIn, ApiError> {
    current_user(ctx, meta)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::Unauthorized, "sign-in required"))
}

impl From<AccountError> for ApiError {
    fn from(err: AccountError) -> Self {
        match err {
            AccountError::Invalid { field, message } => {
                ApiError::bad_request(format!("invalid field `{field}`: {message}"))
            }
            AccountError::EmailTaken => ApiError::new(
                ErrorCode::UserExists,
                "an account with this email already exists",
            ),
            AccountError::InvalidCredentials => {
                ApiError::new(ErrorCode::InvalidCredentials, "invalid email or password")
            }
            AccountError::Store(err) => err.into(),
            other => ApiError::internal(&other),
        }
    }
}

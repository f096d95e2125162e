//! The one table of wire error codes.
//!
//! Every layer has its own error type; each converts into [`ApiError`], whose
//! [`ErrorCode`] decides the HTTP status and the `error.code` string. The
//! envelope itself is written in one place, `http::reply`.

use std::fmt;

use warp::http::StatusCode;

/// Every error code a client can see, on both APIs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    BadRequest,
    UnsupportedJurisdiction,
    InvalidDocumentUrl,
    DocumentUnreadable,
    InvalidRequestId,
    Unauthorized,
    InvalidCredentials,
    PaymentRequired,
    ContentNotEnabled,
    Forbidden,
    NotFound,
    PlaybookNotFound,
    MethodNotAllowed,
    RequestIdReused,
    UserExists,
    Conflict,
    DocumentTooLarge,
    UnsupportedMediaType,
    RateLimited,
    Internal,
    ReviewFailed,
    BadGateway,
    AsyncUnavailable,
    DocumentServiceUnavailable,
    NotReady,
    ServiceUnavailable,
    GatewayTimeout,
}

impl ErrorCode {
    pub fn http_status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            BadRequest
            | UnsupportedJurisdiction
            | InvalidDocumentUrl
            | DocumentUnreadable
            | InvalidRequestId => StatusCode::BAD_REQUEST,
            Unauthorized | InvalidCredentials => StatusCode::UNAUTHORIZED,
            PaymentRequired => StatusCode::PAYMENT_REQUIRED,
            ContentNotEnabled | Forbidden => StatusCode::FORBIDDEN,
            NotFound | PlaybookNotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            RequestIdReused | UserExists | Conflict => StatusCode::CONFLICT,
            DocumentTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ReviewFailed | BadGateway => StatusCode::BAD_GATEWAY,
            AsyncUnavailable | DocumentServiceUnavailable | NotReady | ServiceUnavailable => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            GatewayTimeout => StatusCode::GATEWAY_TIMEOUT,
        }
    }

    /// The string clients match on (`error.code`).
    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            BadRequest => "bad_request",
            UnsupportedJurisdiction => "unsupported_jurisdiction",
            InvalidDocumentUrl => "invalid_document_url",
            DocumentUnreadable => "document_unreadable",
            InvalidRequestId => "invalid_request_id",
            Unauthorized => "unauthorized",
            InvalidCredentials => "invalid_credentials",
            PaymentRequired => "payment_required",
            ContentNotEnabled => "content_not_enabled",
            Forbidden => "forbidden",
            NotFound => "not_found",
            PlaybookNotFound => "playbook_not_found",
            MethodNotAllowed => "method_not_allowed",
            RequestIdReused => "request_id_reused",
            UserExists => "user_exists",
            Conflict => "conflict",
            DocumentTooLarge => "document_too_large",
            UnsupportedMediaType => "unsupported_media_type",
            RateLimited => "rate_limited",
            Internal => "internal_error",
            ReviewFailed => "review_failed",
            BadGateway => "bad_gateway",
            AsyncUnavailable => "async_unavailable",
            DocumentServiceUnavailable => "document_service_unavailable",
            NotReady => "not_ready",
            ServiceUnavailable => "service_unavailable",
            GatewayTimeout => "gateway_timeout",
        }
    }
}

/// An error on its way to the client: a code, a message safe to show, and
/// for 429 the advised wait.
#[derive(Debug)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    pub retry_after_secs: Option<u64>,
    pub allow: Option<String>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retry_after_secs: None,
            allow: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    pub fn unauthorized() -> Self {
        Self::new(ErrorCode::Unauthorized, "missing or invalid credentials")
    }

    pub fn rate_limited(retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(ErrorCode::RateLimited, "too many requests")
        }
    }

    pub fn method_not_allowed(allow: String) -> Self {
        Self {
            allow: Some(allow),
            ..Self::new(
                ErrorCode::MethodNotAllowed,
                "method not allowed on this path",
            )
        }
    }

    /// A failure the client cannot fix. The cause is logged with its chain;
    /// the client sees only an opaque message.
    pub fn internal(cause: &(dyn std::error::Error + 'static)) -> Self {
        let chain = chain_text(cause);
        tracing::error!(cause = %chain, "internal error");
        Self::new(ErrorCode::Internal, "internal error")
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl From<crate::store::StoreError> for ApiError {
    /// A store file that cannot be read (damaged, or its handle refusing
    /// work after an I/O error) is the service being unavailable until its
    /// administrator repairs it, not a fault of this request; any other
    /// store failure is internal.
    fn from(err: crate::store::StoreError) -> Self {
        match err.is_unavailable() {
            true => Self::store_unavailable(&err),
            false => Self::internal(&err),
        }
    }
}

impl ApiError {
    /// A store that refuses work until it is repaired or its disk has room
    /// ([`crate::store::StoreError::is_unavailable`]).
    pub fn store_unavailable(cause: &dyn fmt::Display) -> Self {
        tracing::error!(cause = %cause, "a store file cannot be read or written");
        Self::new(
            ErrorCode::ServiceUnavailable,
            "a data file of this server cannot be read or written (damaged, or its disk full or \
             failed); its administrator must free space or repair it, then restart lexstack",
        )
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(err: tokio::task::JoinError) -> Self {
        Self::internal(&err)
    }
}

/// An error with its causes, "a: b: c". A cause whose words the text
/// already holds is left out: many errors repeat their source's message in
/// their own.
pub fn chain_text(err: &(dyn std::error::Error + 'static)) -> String {
    let mut chain = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        let text = inner.to_string();
        if !chain.contains(&text) {
            chain.push_str(": ");
            chain.push_str(&text);
        }
        source = inner.source();
    }
    chain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("search index: {0}")]
    struct Repeating(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    #[error("cannot open the library")]
    struct Adding(#[source] Repeating);

    #[test]
    fn a_cause_the_text_already_holds_is_said_once() {
        let io = std::io::Error::other("bad block");
        let err = Adding(Repeating(io));
        assert_eq!(
            chain_text(&err),
            "cannot open the library: search index: bad block"
        );
    }
}

//! Documents given by URL: from an untrusted link to plain text, safely.
//!
//! A client's URL makes this appliance open a connection, so the URL is
//! hostile until checked ([`UrlPolicy`]):
//!
//! - only `https` (plain `http` only to loopback, and only when a test turns
//!   on [`UrlPolicy::allow_loopback_http`]), with a host, without a user name
//!   or password, at most [`MAX_URL_LEN`] characters;
//! - the host is resolved, and the URL refused when any address it resolves
//!   to is not public: loopback, private, link-local (with the cloud metadata
//!   services at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT,
//!   multicast, broadcast, unspecified, documentation, benchmarking, reserved,
//!   unique-local IPv6, and the IPv6 forms that carry such an IPv4 address
//!   (mapped, compatible, NAT64); `localhost` names are refused by name.
//!   Anything else would let a client read the appliance's own admin
//!   endpoints or its cloud credentials, or scan the network it sits in;
//! - the connection ([`Fetcher`]) goes only to the addresses that were
//!   checked, so a DNS answer that changes in between (rebinding) cannot
//!   move it, and no proxy is used;
//! - redirects are followed by hand, at most five, each hop checked again;
//! - the body is bounded in size while it streams, the whole fetch in time.
//!
//! The bytes are hostile too ([`extract_text`]): the type is sniffed, not
//! taken from Content-Type; a web page or any other format is refused; PDF
//! and DOCX readers run under page, size, ratio and time bounds, and a
//! reader that panics refuses the document instead of failing the worker.
//!
//! This module knows nothing of HTTP endpoints, jobs or billing; errors say
//! which API error they become and whether trying again can help.

mod address;
mod docx;
mod fetch;
mod pdf;
mod policy;
mod read;
/// Test material: real PDFs and DOCX files built on the spot and a
/// misbehaving document server on loopback, shared by the unit tests and
/// the HTTP tests.
#[doc(hidden)]
pub mod testing;

pub use address::{AddressClass, classify};
pub use fetch::{FetchLimits, FetchedDocument, Fetcher};
pub use pdf::MAX_PAGES;
pub use policy::{CheckedTarget, MAX_URL_LEN, UrlPolicy};
pub use read::{Document, DocumentKind, MAX_TEXT_BYTES, Unreadable, extract_text};

use crate::error::{ApiError, ErrorCode};

/// Why a document given by URL yields no text. Each message is safe to show
/// the client.
///
/// | variant | error code | HTTP | what the job does |
/// |---|---|---|---|
/// | `InvalidUrl` | `invalid_document_url` | 400 | fails at once (the endpoint refuses it before queuing when it can) |
/// | `Unreachable` | `document_service_unavailable` | 503 | retries with backoff, then fails with this code |
/// | `Unreadable` | `document_unreadable` | 400 | fails at once |
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// Not https, malformed, or pointing at a non-public address, on the
    /// first hop or any redirect.
    #[error("invalid document url: {0}")]
    InvalidUrl(String),
    /// DNS failure, connection refused or reset, TLS failure, timeout, a
    /// 5xx, 408, 425 or 429 answer: the server may answer later.
    #[error("document service unreachable: {0}")]
    Unreachable(String),
    /// The server answered for good, but not with a readable PDF or DOCX: a
    /// 4xx, too large, a redirect loop or chain, a web page, a scan without
    /// text, a malformed file, a zip bomb.
    #[error("document unreadable: {0}")]
    Unreadable(String),
}

impl DocumentError {
    pub fn code(&self) -> ErrorCode {
        match self {
            DocumentError::InvalidUrl(_) => ErrorCode::InvalidDocumentUrl,
            DocumentError::Unreachable(_) => ErrorCode::DocumentServiceUnavailable,
            DocumentError::Unreadable(_) => ErrorCode::DocumentUnreadable,
        }
    }

    /// Whether the same fetch may succeed later.
    /// The reason alone, without the kind of error in front.
    pub fn reason(&self) -> &str {
        match self {
            DocumentError::InvalidUrl(reason)
            | DocumentError::Unreachable(reason)
            | DocumentError::Unreadable(reason) => reason,
        }
    }

    pub fn is_retryable(&self) -> bool {
        matches!(self, DocumentError::Unreachable(_))
    }
}

impl From<Unreadable> for DocumentError {
    fn from(err: Unreadable) -> Self {
        DocumentError::Unreadable(err.0)
    }
}

impl From<DocumentError> for ApiError {
    fn from(err: DocumentError) -> Self {
        ApiError::new(err.code(), err.to_string())
    }
}

/// Fetches a document and reads its text, the parsing on a blocking thread.
pub async fn read_document(fetcher: &Fetcher, url: &str) -> Result<Document, DocumentError> {
    let fetched = fetcher.fetch(url).await?;
    let read = tokio::task::spawn_blocking(move || {
        extract_text(
            &fetched.bytes,
            fetched.content_type.as_deref(),
            fetched.url.path(),
        )
    });
    match read.await {
        Ok(result) => Ok(result?),
        // Cancelled because the runtime shuts down: the job resumes later.
        Err(err) if err.is_cancelled() => Err(DocumentError::Unreachable(
            "the reader was stopped by a shutdown".into(),
        )),
        Err(_) => Err(DocumentError::Unreadable(
            "the file is malformed: its reader gave up on it".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_map_to_their_wire_codes() {
        let cases = [
            (
                DocumentError::InvalidUrl("x".into()),
                ErrorCode::InvalidDocumentUrl,
                400,
            ),
            (
                DocumentError::Unreadable("x".into()),
                ErrorCode::DocumentUnreadable,
                400,
            ),
            (
                DocumentError::Unreachable("x".into()),
                ErrorCode::DocumentServiceUnavailable,
                503,
            ),
        ];
        for (err, code, status) in cases {
            assert_eq!(err.code(), code);
            assert_eq!(err.code().http_status().as_u16(), status);
        }
    }
}

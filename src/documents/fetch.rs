//! Fetches a document over HTTP(S) under the URL policy, with every redirect
//! hop checked again and every connection pinned to checked addresses.

use std::collections::HashSet;
use std::error::Error as StdError;
use std::time::Duration;

use reqwest::dns::{Name, Resolve, Resolving};
use reqwest::{StatusCode, header, redirect};
use url::{Host, Url};

use super::DocumentError;
use super::policy::{CheckedTarget, UrlPolicy};
use super::read::describe_size;

const USER_AGENT: &str = concat!("lexstack/", env!("CARGO_PKG_VERSION"), " (citation check)");

/// Bounds on one fetch. `Default` holds the production values.
#[derive(Debug, Clone, Copy)]
pub struct FetchLimits {
    /// Largest body accepted, counted as it streams in.
    pub max_bytes: usize,
    /// For the whole fetch: DNS, every hop, the body.
    pub total_timeout: Duration,
    pub connect_timeout: Duration,
    pub max_redirects: usize,
}

impl Default for FetchLimits {
    fn default() -> Self {
        Self {
            max_bytes: 25 * 1024 * 1024,
            total_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_redirects: 5,
        }
    }
}

/// The bytes of a fetched document and what the server said they are.
#[derive(Debug)]
pub struct FetchedDocument {
    pub bytes: Vec<u8>,
    /// The Content-Type header, a hint only: readers sniff the bytes.
    pub content_type: Option<String>,
    /// Where the bytes came from, after redirects.
    pub url: Url,
}

#[derive(Debug, Clone, Default)]
pub struct Fetcher {
    policy: UrlPolicy,
    limits: FetchLimits,
}

impl Fetcher {
    pub fn new(policy: UrlPolicy, limits: FetchLimits) -> Self {
        Self { policy, limits }
    }

    pub async fn fetch(&self, raw_url: &str) -> Result<FetchedDocument, DocumentError> {
        let total = self.limits.total_timeout;
        match tokio::time::timeout(total, self.follow_redirects(raw_url)).await {
            Ok(result) => result,
            Err(_) => Err(DocumentError::Unreachable(format!(
                "the document did not arrive within {} s",
                total.as_secs_f32()
            ))),
        }
    }

    async fn follow_redirects(&self, raw_url: &str) -> Result<FetchedDocument, DocumentError> {
        let mut url = self.policy.parse(raw_url)?;
        let mut visited = HashSet::new();
        for _ in 0..=self.limits.max_redirects {
            if !visited.insert(url.clone()) {
                return Err(DocumentError::Unreadable(format!(
                    "the url redirects in a loop (back to {url})"
                )));
            }
            let target = self.policy.resolve(url).await?;
            let response = self.get(&target).await?;
            match next_hop(&target.url, &response)? {
                Some(next) => url = self.policy.check_syntax(next)?,
                None => return self.read_body(target.url, response).await,
            }
        }
        Err(DocumentError::Unreadable(format!(
            "the url redirects more than {} times",
            self.limits.max_redirects
        )))
    }

    async fn get(&self, target: &CheckedTarget) -> Result<reqwest::Response, DocumentError> {
        let mut builder = reqwest::Client::builder()
            .redirect(redirect::Policy::none())
            // A proxy would make its own connection, to an address never checked.
            .no_proxy()
            .https_only(!self.policy.allow_loopback_http)
            .connect_timeout(self.limits.connect_timeout)
            .user_agent(USER_AGENT)
            .dns_resolver(PinnedOnly);
        if let Some(Host::Domain(domain)) = target.url.host() {
            builder = builder.resolve_to_addrs(domain, &target.addrs);
        }
        let client = builder.build().map_err(|err| {
            DocumentError::Unreachable(format!("cannot set up the http client: {err}"))
        })?;
        client
            .get(target.url.clone())
            .header(header::ACCEPT, ACCEPT)
            .send()
            .await
            .map_err(transport_error)
    }

    async fn read_body(
        &self,
        url: Url,
        mut response: reqwest::Response,
    ) -> Result<FetchedDocument, DocumentError> {
        let max = self.limits.max_bytes;
        let too_large = || {
            DocumentError::Unreadable(format!(
                "the document is larger than {}",
                describe_size(max as u64)
            ))
        };
        let declared = response.content_length().unwrap_or(0);
        if declared > max as u64 {
            return Err(too_large());
        }
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        // The declared length is a hint for the first allocation, never trusted
        // beyond the limit it was checked against.
        let mut bytes = Vec::with_capacity(declared as usize);
        while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
            if bytes.len() + chunk.len() > max {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        if bytes.is_empty() {
            return Err(DocumentError::Unreadable(
                "the server sent an empty document".into(),
            ));
        }
        Ok(FetchedDocument {
            bytes,
            content_type,
            url,
        })
    }
}

const ACCEPT: &str = "application/pdf, \
    application/vnd.openxmlformats-officedocument.wordprocessingml.document, */*;q=0.1";

/// The next URL when the response is a redirect, `None` when it is the
/// document, or the error its status stands for.
fn next_hop(current: &Url, response: &reqwest::Response) -> Result<Option<Url>, DocumentError> {
    let status = response.status();
    if status.is_success() {
        return Ok(None);
    }
    let redirects = [
        StatusCode::MOVED_PERMANENTLY,
        StatusCode::FOUND,
        StatusCode::SEE_OTHER,
        StatusCode::TEMPORARY_REDIRECT,
        StatusCode::PERMANENT_REDIRECT,
    ];
    if redirects.contains(&status) {
        let location = response
            .headers()
            .get(header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .ok_or_else(|| {
                DocumentError::Unreadable(format!("the server redirected ({status}) to nowhere"))
            })?;
        let next = current.join(location).map_err(|err| {
            DocumentError::Unreadable(format!("the server redirected to a bad url: {err}"))
        })?;
        return Ok(Some(next));
    }
    // Overload and rate limiting pass; the job retries them like an outage.
    let temporary = [
        StatusCode::REQUEST_TIMEOUT,
        StatusCode::TOO_EARLY,
        StatusCode::TOO_MANY_REQUESTS,
    ];
    if status.is_server_error() || temporary.contains(&status) {
        return Err(DocumentError::Unreachable(format!(
            "the document server answered {status}"
        )));
    }
    Err(DocumentError::Unreadable(format!(
        "the document server answered {status}"
    )))
}

/// Connection refused or reset, TLS failure, timeout: the server may be back
/// later. The message names the innermost causes, which say what happened.
fn transport_error(err: reqwest::Error) -> DocumentError {
    let err = err.without_url();
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    DocumentError::Unreachable(message)
}

/// The resolver behind the pinned addresses: a name the fetcher did not pin
/// is refused rather than looked up, so no connection can go to an address
/// the policy did not check.
struct PinnedOnly;

impl Resolve for PinnedOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let message = format!("{} was not checked by the url policy", name.as_str());
        Box::pin(std::future::ready(Err(message.into())))
    }
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, SocketAddr};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::documents::testing::{Reply, brief_docx, brief_pdf, serve};
    use crate::documents::{DocumentKind, read_document};

    const PDF: &str = "application/pdf";

    fn test_fetcher() -> Fetcher {
        Fetcher::new(
            UrlPolicy {
                allow_loopback_http: true,
            },
            FetchLimits {
                max_bytes: 1024 * 1024,
                total_timeout: Duration::from_secs(2),
                connect_timeout: Duration::from_secs(1),
                max_redirects: 5,
            },
        )
    }

    fn routes(path: &str) -> Reply {
        let document = |content_type, body| Reply::Document { content_type, body };
        match path {
            "/brief.pdf" => document(PDF, brief_pdf()),
            "/brief.docx" => document("application/octet-stream", brief_docx()),
            "/page.html" => document("text/html", b"<!doctype html><p>Roe v. Wade".to_vec()),
            "/empty.pdf" => document(PDF, Vec::new()),
            "/moved" => Reply::Redirect("brief.pdf".into()),
            "/to-private" => Reply::Redirect("http://10.0.0.1/brief.pdf".into()),
            "/to-metadata" => Reply::Redirect("https://169.254.169.254/latest/meta-data/".into()),
            "/to-ftp" => Reply::Redirect("ftp://example.com/brief.pdf".into()),
            "/loop-a" => Reply::Redirect("/loop-b".into()),
            "/loop-b" => Reply::Redirect("/loop-a".into()),
            "/huge-unsized" => Reply::Unsized(vec![b'%'; 2 * 1024 * 1024]),
            "/huge-declared" => Reply::Declared(10 * 1024 * 1024 * 1024),
            "/trickle" => Reply::Trickle,
            "/silent" => Reply::Silent,
            "/missing" => Reply::Status(404),
            "/forbidden" => Reply::Status(403),
            "/down" => Reply::Status(503),
            "/broken" => Reply::Status(500),
            "/busy" => Reply::Status(429),
            _ => match path
                .strip_prefix("/hops/")
                .and_then(|n| n.parse::<u32>().ok())
            {
                Some(0) => document(PDF, brief_pdf()),
                Some(n) => Reply::Redirect(format!("/hops/{}", n - 1)),
                None => Reply::Status(404),
            },
        }
    }

    async fn fetch_error(fetcher: &Fetcher, url: &str) -> DocumentError {
        match read_document(fetcher, url).await {
            Err(err) => err,
            Ok(document) => panic!("{url}: expected an error, read {document:?}"),
        }
    }

    fn assert_invalid(err: DocumentError, expected: &str) {
        assert!(
            matches!(&err, DocumentError::InvalidUrl(reason) if reason.contains(expected)),
            "{err:?}"
        );
    }

    fn assert_unreadable(err: DocumentError, expected: &str) {
        assert!(
            matches!(&err, DocumentError::Unreadable(reason) if reason.contains(expected)),
            "{err:?}"
        );
    }

    fn assert_unreachable(err: DocumentError, expected: &str) {
        assert!(
            matches!(&err, DocumentError::Unreachable(reason) if reason.contains(expected)),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn a_served_pdf_and_docx_are_fetched_and_read() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        let pdf = read_document(&fetcher, &format!("http://{addr}/brief.pdf"))
            .await
            .unwrap();
        assert_eq!(pdf.kind, DocumentKind::Pdf);
        assert!(
            pdf.text.contains("Roe v. Wade, 410 U.S. 113 (1973)"),
            "{}",
            pdf.text
        );
        let docx = read_document(&fetcher, &format!("http://{addr}/brief.docx"))
            .await
            .unwrap();
        assert_eq!(docx.kind, DocumentKind::Docx);
        assert!(docx.text.contains("Marbury v. Madison, 5 U.S. 137 (1803)"));
    }

    #[tokio::test]
    async fn a_name_is_resolved_once_and_the_connection_pinned_to_it() {
        let addr = serve(routes).await;
        let url = format!("http://localhost:{}/brief.pdf", addr.port());
        let fetched = test_fetcher().fetch(&url).await.unwrap();
        assert!(fetched.bytes.starts_with(b"%PDF-"));
        assert_eq!(fetched.content_type.as_deref(), Some(PDF));
    }

    /// Rebinding: the name now resolves to where the server is (127.0.0.1),
    /// but the check saw 127.0.0.2, where nothing listens. The connection
    /// must go where the check looked.
    #[tokio::test]
    async fn the_connection_goes_to_the_checked_addresses_only() {
        let addr = serve(routes).await;
        let port = addr.port();
        let target = CheckedTarget {
            url: Url::parse(&format!("http://localhost:{port}/brief.pdf")).unwrap(),
            addrs: vec![SocketAddr::new(Ipv4Addr::new(127, 0, 0, 2).into(), port)],
        };
        let err = test_fetcher().get(&target).await.unwrap_err();
        assert_unreachable(err, "Connection refused");

        let unpinned = reqwest::Client::builder()
            .no_proxy()
            .dns_resolver(PinnedOnly)
            .build()
            .unwrap();
        let err = unpinned
            .get(format!("http://localhost:{port}/"))
            .send()
            .await
            .unwrap_err();
        assert_unreachable(
            transport_error(err),
            "localhost was not checked by the url policy",
        );
    }

    #[tokio::test]
    async fn redirects_are_followed_up_to_five_hops() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        let fetched = fetcher
            .fetch(&format!("http://{addr}/moved"))
            .await
            .unwrap();
        assert_eq!(fetched.url.path(), "/brief.pdf");
        let fetched = fetcher
            .fetch(&format!("http://{addr}/hops/5"))
            .await
            .unwrap();
        assert_eq!(fetched.url.path(), "/hops/0");
        let err = fetch_error(&fetcher, &format!("http://{addr}/hops/6")).await;
        assert_unreadable(err, "the url redirects more than 5 times");
    }

    #[tokio::test]
    async fn a_redirect_to_a_non_public_address_is_an_invalid_url() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        let err = fetch_error(&fetcher, &format!("http://{addr}/to-private")).await;
        assert_invalid(err, "10.0.0.1 is an address that is not public (private)");
        let err = fetch_error(&fetcher, &format!("http://{addr}/to-metadata")).await;
        assert_invalid(
            err,
            "169.254.169.254 is an address that is not public (link-local)",
        );
        let err = fetch_error(&fetcher, &format!("http://{addr}/to-ftp")).await;
        assert_invalid(err, "only https urls are accepted");
    }

    #[tokio::test]
    async fn a_redirect_loop_is_refused() {
        let addr = serve(routes).await;
        let err = fetch_error(&test_fetcher(), &format!("http://{addr}/loop-a")).await;
        assert_unreadable(err, "the url redirects in a loop");
    }

    #[tokio::test]
    async fn an_oversized_body_is_refused_while_it_streams() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        for path in ["/huge-unsized", "/huge-declared"] {
            let err = fetch_error(&fetcher, &format!("http://{addr}{path}")).await;
            assert_unreadable(err, "the document is larger than 1 MiB");
        }
    }

    #[tokio::test]
    async fn a_slow_or_silent_server_times_out_as_unreachable() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        for path in ["/trickle", "/silent"] {
            let err = fetch_error(&fetcher, &format!("http://{addr}{path}")).await;
            assert!(err.is_retryable());
            assert_unreachable(err, "the document did not arrive within 2 s");
        }
    }

    #[tokio::test]
    async fn statuses_are_classified() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        for (path, status) in [
            ("/missing", "404 Not Found"),
            ("/forbidden", "403 Forbidden"),
        ] {
            let err = fetch_error(&fetcher, &format!("http://{addr}{path}")).await;
            assert_unreadable(err, &format!("the document server answered {status}"));
        }
        for (path, status) in [
            ("/down", "503 Service Unavailable"),
            ("/broken", "500 Internal Server Error"),
            ("/busy", "429 Too Many Requests"),
        ] {
            let err = fetch_error(&fetcher, &format!("http://{addr}{path}")).await;
            assert_unreachable(err, &format!("the document server answered {status}"));
        }
    }

    #[tokio::test]
    async fn a_web_page_or_an_empty_body_is_unreadable() {
        let addr = serve(routes).await;
        let fetcher = test_fetcher();
        let err = fetch_error(&fetcher, &format!("http://{addr}/page.html")).await;
        assert_unreadable(err, "a web page, not a PDF or DOCX document");
        let err = fetch_error(&fetcher, &format!("http://{addr}/empty.pdf")).await;
        assert_unreadable(err, "the server sent an empty document");
    }

    #[tokio::test]
    async fn a_refused_connection_is_unreachable() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let err = fetch_error(&test_fetcher(), &format!("http://{addr}/brief.pdf")).await;
        assert!(err.is_retryable());
        assert_unreachable(err, "");
    }

    /// With the test switch off, as in production, loopback is refused
    /// before any connection: the server listening there sees no request.
    #[tokio::test]
    async fn without_the_test_switch_nothing_reaches_loopback() {
        let requests = Arc::new(AtomicUsize::new(0));
        let counted = requests.clone();
        let addr = serve(move |path| {
            counted.fetch_add(1, Ordering::SeqCst);
            routes(path)
        })
        .await;
        let fetcher = Fetcher::default();
        let port = addr.port();
        let v6 = SocketAddr::new(Ipv4Addr::LOCALHOST.to_ipv6_mapped().into(), port);
        for url in [
            format!("http://{addr}/brief.pdf"),
            format!("https://{addr}/brief.pdf"),
            format!("https://[::1]:{port}/brief.pdf"),
            format!("https://{v6}/brief.pdf"),
            format!("https://localhost:{port}/brief.pdf"),
            format!("https://2130706433:{port}/brief.pdf"),
        ] {
            let err = fetch_error(&fetcher, &url).await;
            assert!(
                matches!(err, DocumentError::InvalidUrl(_)),
                "{url}: {err:?}"
            );
            assert!(!err.is_retryable());
        }
        assert_eq!(requests.load(Ordering::SeqCst), 0);
    }
}

//! Which URLs a document may be fetched from, and the addresses to connect to.

use std::net::{IpAddr, SocketAddr};

use url::{Host, Url};

use super::DocumentError;
use super::address::{AddressClass, classify};

/// Longer URLs are refused before parsing: no real document link needs more,
/// and it bounds the work a hostile caller can ask of the parser.
pub const MAX_URL_LEN: usize = 2048;

const ONLY_HTTPS: &str = "only https urls are accepted";

#[derive(Debug, Clone, Copy, Default)]
pub struct UrlPolicy {
    /// Also accept plain `http` to loopback addresses (`http://127.0.0.1:PORT`,
    /// `http://[::1]:PORT`, a name resolving only to loopback). For tests,
    /// which serve documents from a local server without TLS; never in
    /// production, where loopback is the appliance itself.
    pub allow_loopback_http: bool,
}

/// A URL that passed the policy, with the addresses it was checked against.
/// The fetcher connects to these and nothing else, so a DNS answer that
/// changes between the check and the connection cannot move the target.
#[derive(Debug, Clone)]
pub struct CheckedTarget {
    pub url: Url,
    pub addrs: Vec<SocketAddr>,
}

impl UrlPolicy {
    /// Parses a URL given by a client and checks everything that can be
    /// checked without DNS: scheme, host, credentials, length, literal
    /// addresses.
    pub fn parse(&self, raw: &str) -> Result<Url, DocumentError> {
        if raw.len() > MAX_URL_LEN {
            return Err(invalid(format!(
                "the url is longer than {MAX_URL_LEN} characters"
            )));
        }
        let url = Url::parse(raw.trim())
            .map_err(|err| invalid(format!("the url cannot be parsed: {err}")))?;
        self.check_syntax(url)
    }

    /// The checks of [`UrlPolicy::parse`] on an already parsed URL, such as a
    /// redirect target.
    pub fn check_syntax(&self, mut url: Url) -> Result<Url, DocumentError> {
        if url.as_str().len() > MAX_URL_LEN {
            return Err(invalid(format!(
                "the url is longer than {MAX_URL_LEN} characters"
            )));
        }
        match url.scheme() {
            "https" => {}
            "http" if self.allow_loopback_http => {}
            _ => return Err(invalid(ONLY_HTTPS)),
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(invalid("the url must not carry a user name or password"));
        }
        match url.host() {
            None => return Err(invalid("the url has no host")),
            Some(Host::Ipv4(ip)) => self.check_address(IpAddr::V4(ip), url.scheme(), None)?,
            Some(Host::Ipv6(ip)) => self.check_address(IpAddr::V6(ip), url.scheme(), None)?,
            Some(Host::Domain(domain)) if is_localhost(domain) && !self.allow_loopback_http => {
                return Err(invalid(format!(
                    "{domain} names this machine, not a public host"
                )));
            }
            Some(Host::Domain(_)) => {}
        }
        // The fragment never leaves the client; dropping it keeps redirect
        // loop detection from telling `#a` and `#b` apart.
        url.set_fragment(None);
        Ok(url)
    }

    /// Parses and resolves a client's URL: what the endpoint runs before it
    /// accepts a job, and what the fetcher runs again on every hop.
    pub async fn check(&self, raw: &str) -> Result<CheckedTarget, DocumentError> {
        let url = self.parse(raw)?;
        self.resolve(url).await
    }

    /// Resolves the host of a URL that passed [`UrlPolicy::check_syntax`] and
    /// refuses it when any address it resolves to is not public.
    pub async fn resolve(&self, url: Url) -> Result<CheckedTarget, DocumentError> {
        let Some(port) = url.port_or_known_default() else {
            return Err(invalid("the url has no port"));
        };
        let (addrs, domain) = match url.host() {
            None => return Err(invalid("the url has no host")),
            Some(Host::Ipv4(ip)) => (vec![SocketAddr::new(IpAddr::V4(ip), port)], None),
            Some(Host::Ipv6(ip)) => (vec![SocketAddr::new(IpAddr::V6(ip), port)], None),
            Some(Host::Domain(domain)) => (lookup(domain, port).await?, Some(domain)),
        };
        for addr in &addrs {
            self.check_address(addr.ip(), url.scheme(), domain)?;
        }
        Ok(CheckedTarget { url, addrs })
    }

    /// `domain` is the name the address was resolved from, if any.
    fn check_address(
        &self,
        ip: IpAddr,
        scheme: &str,
        domain: Option<&str>,
    ) -> Result<(), DocumentError> {
        let class = classify(ip);
        let admitted =
            class.is_public() || (self.allow_loopback_http && class == AddressClass::Loopback);
        if !admitted {
            return Err(invalid(match domain {
                // The resolved address stays out of the message: it would
                // let a client map the appliance's internal DNS.
                Some(domain) => {
                    format!("{domain} resolves to an address that is not public ({class})")
                }
                None => format!("{ip} is an address that is not public ({class})"),
            }));
        }
        if scheme == "http" && class != AddressClass::Loopback {
            return Err(invalid(ONLY_HTTPS));
        }
        Ok(())
    }
}

async fn lookup(domain: &str, port: u16) -> Result<Vec<SocketAddr>, DocumentError> {
    let found = tokio::net::lookup_host((domain, port))
        .await
        .map_err(|err| DocumentError::Unreachable(format!("cannot resolve {domain}: {err}")))?;
    let mut addrs: Vec<SocketAddr> = Vec::new();
    for addr in found {
        if !addrs.contains(&addr) {
            addrs.push(addr);
        }
    }
    if addrs.is_empty() {
        return Err(DocumentError::Unreachable(format!(
            "{domain} has no address"
        )));
    }
    Ok(addrs)
}

/// RFC 6761 reserves `localhost` and its subdomains for loopback; refusing
/// them by name does not depend on how the resolver treats a trailing dot.
fn is_localhost(domain: &str) -> bool {
    let domain = domain.trim_end_matches('.');
    domain == "localhost" || domain.ends_with(".localhost")
}

fn invalid(reason: impl Into<String>) -> DocumentError {
    DocumentError::InvalidUrl(reason.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TESTS: UrlPolicy = UrlPolicy {
        allow_loopback_http: true,
    };

    fn reason(result: Result<impl std::fmt::Debug, DocumentError>) -> String {
        match result {
            Err(DocumentError::InvalidUrl(reason)) => reason,
            other => panic!("expected InvalidUrl, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn ssrf_targets_are_refused() {
        let policy = UrlPolicy::default();
        for url in [
            "http://127.0.0.1/",
            "https://127.0.0.1/",
            "https://10.0.0.5/brief.pdf",
            "https://172.16.3.4/",
            "https://192.168.1.1/",
            "https://169.254.169.254/latest/meta-data/",
            "https://100.64.0.1/",
            "https://0.0.0.0/",
            "https://255.255.255.255/",
            "https://224.0.0.1/",
            "https://[::1]/",
            "https://[::]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:169.254.169.254]/",
            "https://[::127.0.0.1]/",
            "https://[64:ff9b::10.0.0.1]/",
            "https://[fd00:ec2::254]/latest/meta-data/",
            "https://[fe80::1]/",
            "https://[fc00::1]/",
            "https://[ff02::1]/",
            "https://localhost/",
            "https://LOCALHOST./",
            "https://admin.localhost/",
        ] {
            reason(policy.check(url).await);
        }
    }

    #[tokio::test]
    async fn a_name_resolving_to_loopback_is_refused_after_resolution() {
        // `resolve` alone, without the by-name refusal of `localhost` in the
        // syntax check: the addresses the resolver returns are what counts.
        let url = Url::parse("https://localhost/brief.pdf").unwrap();
        let refused = reason(UrlPolicy::default().resolve(url).await);
        assert_eq!(
            refused,
            "localhost resolves to an address that is not public (loopback)"
        );
    }

    #[test]
    fn encoded_ipv4_hosts_are_judged_as_the_address_they_encode() {
        let policy = UrlPolicy::default();
        for (url, decoded) in [
            ("https://2130706433/", "127.0.0.1"),
            ("https://0x7f.1/", "127.0.0.1"),
            ("https://0177.0.0.1/", "127.0.0.1"),
            ("https://127.1/", "127.0.0.1"),
            ("https://0x0a.0.0.5/", "10.0.0.5"),
            ("https://3232235521/", "192.168.0.1"),
            ("https://0xa9fea9fe/", "169.254.169.254"),
            ("https://0251.0376.0251.0376/", "169.254.169.254"),
            ("https://[0:0:0:0:0:ffff:7f00:0001]/", "::ffff:127.0.0.1"),
        ] {
            let refused = reason(policy.parse(url));
            assert!(refused.starts_with(decoded), "{url}: {refused}");
        }
    }

    #[test]
    fn urls_that_are_not_plain_public_https_are_refused() {
        let policy = UrlPolicy::default();
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
        for url in [
            "http://example.com/brief.pdf",
            "ftp://example.com/brief.pdf",
            "file:///etc/passwd",
            "gopher://example.com/",
            "data:application/pdf;base64,JVBERi0=",
            "javascript:alert(1)",
            "https://user:secret@example.com/brief.pdf",
            "https://user@example.com/brief.pdf",
            "https://:secret@example.com/brief.pdf",
            "example.com/brief.pdf",
            "not a url",
            "",
            &long,
        ] {
            reason(policy.parse(url));
        }
    }

    #[test]
    fn public_https_urls_pass_the_syntax_check() {
        let policy = UrlPolicy::default();
        for url in [
            "https://www.supremecourt.gov/opinions/22pdf/21-476_c185.pdf",
            "https://EXAMPLE.com:8443/a%20brief.docx?download=1",
            "https://8.8.8.8/brief.pdf",
            "https://[2606:4700:4700::1111]/brief.pdf",
            "https://[::ffff:8.8.8.8]/brief.pdf",
        ] {
            policy.parse(url).unwrap();
        }
        let url = policy
            .parse("https://example.com/brief.pdf#page=3")
            .unwrap();
        assert_eq!(url.as_str(), "https://example.com/brief.pdf");
    }

    #[tokio::test]
    async fn a_literal_public_address_is_its_own_target() {
        let target = UrlPolicy::default()
            .check("https://8.8.8.8:8443/brief.pdf")
            .await
            .unwrap();
        assert_eq!(target.addrs, ["8.8.8.8:8443".parse().unwrap()]);
    }

    #[tokio::test]
    async fn the_test_switch_admits_plain_http_to_loopback_only() {
        for url in [
            "http://127.0.0.1:8080/brief.pdf",
            "http://[::1]:8080/brief.pdf",
            "http://localhost:8080/brief.pdf",
        ] {
            let target = TESTS.check(url).await.unwrap();
            assert!(
                target.addrs.iter().all(|addr| addr.ip().is_loopback()),
                "{url}"
            );
            assert!(target.addrs.iter().all(|addr| addr.port() == 8080), "{url}");
        }
        for url in [
            "http://10.0.0.1/brief.pdf",
            "https://10.0.0.1/brief.pdf",
            "https://169.254.169.254/",
            "http://8.8.8.8/brief.pdf",
        ] {
            reason(TESTS.check(url).await);
        }
    }
}

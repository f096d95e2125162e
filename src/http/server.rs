//! The accept loop: the router served by hyper with the limits warp's own
//! server leaves out (`[http]` in the configuration). A request's head must
//! arrive within `header_read_timeout_secs` (a connection that sends
//! nothing, or a header a byte at a time, or that idles between requests,
//! is closed), and at most `max_connections` are open at once (past that
//! the listener waits), so idle connections cannot take every file
//! descriptor the store and the index need. A client that goes away
//! mid-request is logged at debug, not as a server error. HEAD is served
//! wherever GET is. Only HTTP/1 is spoken: hyper's header timeout is an
//! HTTP/1 one, so a client opening with the HTTP/2 preface would otherwise
//! hold its connection for as long as it liked.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use crate::config::HttpSettings;

/// How long the listener rests after an accept error that is the server's
/// (out of file descriptors), rather than the client's.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(100);

/// How long [`serve_while`] waits for its last answers before it returns.
const SERVE_WHILE_DRAIN: Duration = Duration::from_secs(1);

/// The peer of a request's connection, put in the request's extensions
/// (read by [`crate::http::filters::meta`]).
#[derive(Debug, Clone, Copy)]
pub struct PeerAddr(pub SocketAddr);

/// How long the request's body may take to arrive, put in its extensions
/// (read by [`crate::http::filters::body`]).
#[derive(Debug, Clone, Copy)]
pub struct BodyReadTimeout(pub Duration);

/// Serves `router` on `listener` until `shutdown` resolves, then lets the
/// open connections finish their requests.
pub async fn serve(
    router: BoxedFilter<(Response,)>,
    listener: TcpListener,
    limits: &HttpSettings,
    shutdown: impl Future<Output = ()>,
) {
    let ((), graceful) = accept_until(router, &listener, limits, shutdown).await;
    drop(listener);
    graceful.shutdown().await;
}

/// Serves `router` on `listener` while `work` runs, and returns what it
/// gives once the requests taken meanwhile are answered, or after
/// [`SERVE_WHILE_DRAIN`] (a connection that sends nothing is closed later,
/// by its header timeout); the listener is then free for [`serve`].
pub async fn serve_while<T>(
    router: BoxedFilter<(Response,)>,
    listener: &TcpListener,
    limits: &HttpSettings,
    work: impl Future<Output = T>,
) -> T {
    let (outcome, graceful) = accept_until(router, listener, limits, work).await;
    let _ = tokio::time::timeout(SERVE_WHILE_DRAIN, graceful.shutdown()).await;
    outcome
}

/// Takes connections and serves `router` on each until `stop` resolves;
/// returns its output and the connections still open.
async fn accept_until<T>(
    router: BoxedFilter<(Response,)>,
    listener: &TcpListener,
    limits: &HttpSettings,
    stop: impl Future<Output = T>,
) -> (T, GracefulShutdown) {
    let header_read_timeout = Duration::from_secs(limits.header_read_timeout_secs);
    let body_read_timeout = BodyReadTimeout(Duration::from_secs(limits.body_read_timeout_secs));
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    let outcome = loop {
        let accepted = tokio::select! {
            outcome = &mut stop => break outcome,
            accepted = accept(listener, &slots) => accepted,
        };
        let Some((stream, peer, slot)) = accepted else {
            continue;
        };
        let warp_service = TowerToHyperService::new(warp::service(router.clone()));
        let service = service_fn(move |mut request: hyper::Request<Incoming>| {
            // HEAD is GET without the body (RFC 9110 §9.3.2): the routes see
            // a GET, and hyper, which read the request as a HEAD, sends the
            // answer's headers only.
            if request.method() == hyper::Method::HEAD {
                *request.method_mut() = hyper::Method::GET;
            }
            request.extensions_mut().insert(PeerAddr(peer));
            request.extensions_mut().insert(body_read_timeout);
            hyper::service::Service::call(&warp_service, request)
        });
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_read_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, %peer, "connection ended early");
            }
            drop(slot);
        });
    };
    (outcome, graceful)
}

/// The next connection, once a slot is free; `None` after an accept error.
async fn accept(
    listener: &TcpListener,
    slots: &Arc<Semaphore>,
) -> Option<(
    tokio::net::TcpStream,
    SocketAddr,
    tokio::sync::OwnedSemaphorePermit,
)> {
    let slot = slots.clone().acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((stream, peer)) => Some((stream, peer, slot)),
        Err(err) => {
            let the_clients = matches!(
                err.kind(),
                std::io::ErrorKind::ConnectionRefused
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::ConnectionReset
            );
            if !the_clients {
                tracing::warn!(error = %err, "accept failed; pausing");
                tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
            }
            None
        }
    }
}

/// The request's [`BodyReadTimeout`], or the default one.
pub fn body_read_timeout()
-> impl Filter<Extract = (Duration,), Error = std::convert::Infallible> + Clone {
    warp::ext::optional::<BodyReadTimeout>().map(|timeout: Option<BodyReadTimeout>| {
        timeout.map_or_else(
            || Duration::from_secs(HttpSettings::default().body_read_timeout_secs),
            |t| t.0,
        )
    })
}

/// Lets routes read [`PeerAddr`].
pub fn peer()
-> impl Filter<Extract = (Option<SocketAddr>,), Error = std::convert::Infallible> + Clone {
    warp::ext::optional::<PeerAddr>().map(|peer: Option<PeerAddr>| peer.map(|p| p.0))
}

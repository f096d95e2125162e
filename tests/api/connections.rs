//! Clients that hold connections without finishing a request: the head and
//! the body must arrive in time, a body declared too large is refused from
//! its headers, and open connections are capped (`[http]`).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::spawn_app_with;

/// Generous bounds for the server to act within: a test waits this long
/// before calling a wait a failure, whatever the machine's speed.
const PATIENCE: Duration = Duration::from_secs(20);

/// Sends `request` on a new connection and reads what the server answers
/// until it closes the connection.
async fn exchange(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes in time")
        .ok();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn a_request_head_that_never_ends_is_dropped_after_the_header_timeout() {
    let app = spawn_app_with(|config| config.http.header_read_timeout_secs = 1).await;
    let answer = exchange(app.addr, b"GET /v1/health HTTP/1.1\r\nHost: x\r\n").await;
    assert!(!answer.contains("200 OK"), "{answer}");
}

#[tokio::test]
async fn a_client_opening_with_the_http2_preface_is_not_kept() {
    let app = spawn_app_with(|config| config.http.header_read_timeout_secs = 1).await;
    // HTTP/2 "prior knowledge": the preface, then nothing.
    let answer = exchange(app.addr, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await;
    assert!(!answer.contains("200 OK"), "{answer}");
}

#[tokio::test]
async fn a_body_declared_over_the_limit_is_refused_without_reading_it() {
    let app = spawn_app_with(|_| {}).await;
    let head = |length: u64, expect: &str| {
        format!(
            "POST /api/custom-auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\n{expect}Connection: close\r\n\r\n"
        )
    };
    // No body follows: the answer cannot wait for it.
    let answer = exchange(app.addr, head(100_000_000, "").as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("document_too_large"), "{answer}");
    // A client waiting for "100 Continue" is told no before it sends.
    let answer = exchange(
        app.addr,
        head(2_000_000, "Expect: 100-continue\r\n").as_bytes(),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(!answer.contains("100 Continue"), "{answer}");
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_refused_after_the_body_timeout() {
    let app = spawn_app_with(|config| config.http.body_read_timeout_secs = 1).await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    stream
        .write_all(
            b"POST /api/custom-auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 1000\r\nConnection: close\r\n\r\n{\"email\":",
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer))
        .await
        .expect("the server answers in time")
        .ok();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("did not arrive within 1 s"), "{answer}");
}

#[tokio::test]
async fn past_the_connection_cap_the_server_waits_for_one_to_close() {
    let app = spawn_app_with(|config| config.http.max_connections = 2).await;
    let idle = [
        TcpStream::connect(app.addr).await.unwrap(),
        TcpStream::connect(app.addr).await.unwrap(),
    ];
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    let waiting = client.get(app.url("/v1/health")).send().await;
    assert!(
        waiting.is_err(),
        "a third connection is not served while two are open"
    );
    drop(idle);
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    let served = client.get(app.url("/v1/health")).send().await.unwrap();
    assert_eq!(served.status(), 200);
}

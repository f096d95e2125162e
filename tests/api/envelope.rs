//! The error envelope on every failure path of the platform.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, read, spawn_app};

#[tokio::test]
async fn unknown_path_is_404_in_the_envelope() {
    let app = spawn_app().await;
    for path in [
        "/nope",
        "/v1/nope",
        "/api/nope",
        "/v1/health/extra",
        "/",
        "//v1/health",
    ] {
        let (status, body) = app.get(path, None).await;
        assert_error(status, &body, 404, "not_found");
    }
    let long = format!("/v1/{}", "a".repeat(60_000));
    let (status, body) = app.get(&long, None).await;
    assert_error(status, &body, 404, "not_found");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.chars().count() < 300, "the path is cut: {message}");
}

#[tokio::test]
async fn wrong_method_is_405_with_allow() {
    let app = spawn_app().await;
    let response = app
        .client
        .delete(app.url("/v1/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["allow"], "GET, HEAD");
    let (status, body) = read(response).await;
    assert_error(status, &body, 405, "method_not_allowed");

    let response = app
        .client
        .put(app.url("/api/users/api-keys"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["allow"], "GET, HEAD, POST");
    let (status, body) = read(response).await;
    assert_error(status, &body, 405, "method_not_allowed");
}

#[tokio::test]
async fn head_is_get_without_the_body() {
    let app = spawn_app().await;
    let head = app
        .client
        .head(app.url("/v1/health"))
        .header("X-Request-Id", "probe-1")
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["x-request-id"], "probe-1");
    assert_eq!(head.headers()["content-type"], "application/json");
    assert!(head.bytes().await.unwrap().is_empty());
}

/// A wallet read with `id` as its X-Request-Id: status and body.
async fn wallet_read_with_request_id(app: &TestApp, key: &str, id: &str) -> (StatusCode, Value) {
    let response = app
        .client
        .get(app.url("/v1/wallet"))
        .bearer_auth(key)
        .header("X-Request-Id", id)
        .send()
        .await
        .unwrap();
    read(response).await
}

#[tokio::test]
async fn reserved_request_id_prefix_is_refused() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = wallet_read_with_request_id(&app, &key, "job:abc").await;
    assert_error(status, &body, 400, "invalid_request_id");
    assert_eq!(body["error"]["requestId"], "job:abc");
}

/// "1 to 200 printable ASCII characters": a space is one.
#[tokio::test]
async fn a_request_id_may_hold_spaces() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = wallet_read_with_request_id(&app, &key, "brief 12 check").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["requestId"], "brief 12 check");
}

#[tokio::test]
async fn the_request_id_is_echoed_on_errors() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/v1/wallet"))
        .header("X-Request-Id", "caller-42")
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 401, "unauthorized");
    assert_eq!(body["error"]["requestId"], "caller-42");
}

#[tokio::test]
async fn bodies_over_one_mebibyte_are_413() {
    let app = spawn_app().await;
    let big = "x".repeat(1024 * 1024 + 1);
    let response = app
        .client
        .post(app.url("/api/custom-auth/signup"))
        .header("content-type", "application/json")
        .body(format!("{{\"email\":\"{big}\"}}"))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 413, "document_too_large");
    assert!(body["error"]["message"].as_str().unwrap().contains("1 MiB"));
}

#[tokio::test]
async fn a_chunked_body_over_the_limit_is_413_too() {
    let app = spawn_app().await;
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..40).map(|_| Ok(vec![b' '; 32 * 1024])).collect();
    let stream = futures_util::stream::iter(chunks);
    let response = app
        .client
        .post(app.url("/api/custom-auth/signin"))
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(stream))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 413, "document_too_large");
}

#[tokio::test]
async fn malformed_json_and_schema_violations_name_the_field() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/custom-auth/signup"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 400, "bad_request");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("invalid request body: EOF"), "{body}");

    let (status, body) = app
        .post(
            "/api/custom-auth/signup",
            None,
            json!({ "email": 5, "password": "x" }),
        )
        .await;
    assert_error(status, &body, 400, "bad_request");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("email"),
        "{body}"
    );

    let (status, body) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "a@b.co" }),
        )
        .await;
    assert_error(status, &body, 400, "bad_request");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("password"),
        "{body}"
    );

    let (status, body) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "a@b.co", "password": "x", "extra": 1 }),
        )
        .await;
    assert_error(status, &body, 400, "bad_request");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("extra"),
        "{body}"
    );
}

#[tokio::test]
async fn a_non_json_content_type_is_415() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/custom-auth/signin"))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 415, "unsupported_media_type");
}

#[tokio::test]
async fn garbage_bytes_never_cause_a_server_error() {
    let app = spawn_app().await;
    let bodies: [&[u8]; 5] = [
        b"\xff\xfe\x00",
        b"[]",
        b"null",
        b"\"str\"",
        b"{\"email\":\"\\ud800\"}",
    ];
    for path in ["/api/custom-auth/signup", "/api/custom-auth/signin"] {
        for raw in bodies {
            let response = app
                .client
                .post(app.url(path))
                .header("content-type", "application/json")
                .body(raw.to_vec())
                .send()
                .await
                .unwrap();
            let (status, body) = read(response).await;
            assert_error(status, &body, 400, "bad_request");
        }
    }
}

/// A byte-order mark before the JSON (some Windows tools write one) is
/// read past.
#[tokio::test]
async fn a_byte_order_mark_before_the_body_is_read_past() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let response = app
        .client
        .post(app.url("/v1/cases/lookup"))
        .bearer_auth(&key)
        .header("content-type", "application/json")
        .body("\u{feff}{\"citation\":\"347 U.S. 483\"}")
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "not_in_library", "{body}");
}

/// serde would read a struct from an array of its fields in order, past the
/// unknown-field check; a body must be an object, and a refused one is not
/// billed and writes nothing.
#[tokio::test]
async fn an_array_is_not_a_request_body() {
    let app = spawn_app().await;
    let (key_id, key) = app.create_key("1").await;
    let posts = [
        (
            "/v1/citations/resolve",
            r#"[["347 U.S. 483"],"US","lenient"]"#,
        ),
        ("/v1/cases/lookup", r#"["347 U.S. 483"]"#),
        (
            "/api/custom-auth/signup",
            r#"["arr@example.com","12345678pw"]"#,
        ),
    ];
    for (path, raw) in posts {
        let response = app
            .client
            .post(app.url(path))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .body(raw)
            .send()
            .await
            .unwrap();
        let (status, body) = read(response).await;
        assert_error(status, &body, 400, "bad_request");
    }
    let wallet = app.wallet(&key_id).await;
    assert_eq!(wallet["balanceUsd"], "1.000000", "{wallet}");
    let (status, body) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "arr@example.com", "password": "12345678pw" }),
        )
        .await;
    assert_error(status, &body, 401, "invalid_credentials");
}

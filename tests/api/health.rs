use crate::helpers::spawn_app;

#[tokio::test]
async fn public_health_needs_no_key_and_echoes_the_request_id() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/v1/health"))
        .header("X-Request-Id", "req-health-1")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-request-id"], "req-health-1");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["data"]["status"], "ok");
    assert_eq!(body["requestId"], "req-health-1");
}

#[tokio::test]
async fn ready_checks_the_store() {
    let app = spawn_app().await;
    let (status, body) = app.get("/v1/health/ready", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "ready");
    assert_eq!(body["data"]["checks"]["store"], "ok");
    let id = body["requestId"].as_str().unwrap();
    assert_eq!(id.len(), 36, "a fresh UUID when no X-Request-Id: {id}");
}

#[tokio::test]
async fn application_health_checks() {
    let app = spawn_app().await;
    for (path, field, want) in [
        ("/health", "status", "ok"),
        ("/health/live", "status", "healthy"),
        ("/api/health", "service", "chat"),
        ("/api/custom-auth/health", "service", "custom-auth"),
    ] {
        let (status, body) = app.get(path, None).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(body[field], want, "{path}: {body}");
    }
}

//! A user's own API keys, and what a key can do on /v1.

use serde_json::json;

use crate::helpers::{TestApp, assert_error, read, spawn_app};

async fn user_token(app: &TestApp, email: &str) -> String {
    let (status, body) = app
        .post(
            "/api/custom-auth/signup",
            None,
            json!({ "email": email, "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body["token"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_user_creates_lists_and_revokes_own_keys() {
    let app = spawn_app().await;
    let token = user_token(&app, "ada@example.com").await;
    let (status, created) = app
        .post(
            "/api/users/api-keys",
            Some(&token),
            json!({ "label": "brief checker" }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let secret = created["key"].as_str().unwrap().to_string();
    let key_id = created["apiKey"]["keyId"].as_str().unwrap().to_string();
    assert!(secret.starts_with("lsk_"));
    assert_eq!(
        created["apiKey"]["balanceMicroUsd"], 0,
        "a new account starts at zero"
    );
    assert_eq!(created["apiKey"]["label"], "brief checker");

    let (status, listed) = app.get("/api/users/api-keys", Some(&token)).await;
    assert_eq!(status, 200);
    let keys = listed["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["keyId"], key_id.as_str());
    assert!(
        listed.to_string().find(&secret).is_none(),
        "the secret is shown only once"
    );

    let (status, wallet) = app.get("/v1/wallet", Some(&secret)).await;
    assert_eq!(status, 200, "{wallet}");
    assert_eq!(wallet["data"]["balanceMicroUsd"], 0);

    let response = app
        .client
        .delete(app.url(&format!("/api/users/api-keys/{key_id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let (status, revoked) = read(response).await;
    assert_eq!(status, 200, "{revoked}");
    assert_eq!(revoked["apiKey"]["active"], false);

    let (status, body) = app.get("/v1/wallet", Some(&secret)).await;
    assert_error(status, &body, 401, "unauthorized");
}

#[tokio::test]
async fn users_cannot_see_or_revoke_each_others_keys() {
    let app = spawn_app().await;
    let ada = user_token(&app, "ada@example.com").await;
    let bob = user_token(&app, "bob@example.com").await;
    let (_, created) = app.post("/api/users/api-keys", Some(&ada), json!({})).await;
    let key_id = created["apiKey"]["keyId"].as_str().unwrap();

    let (_, listed) = app.get("/api/users/api-keys", Some(&bob)).await;
    assert_eq!(listed["keys"].as_array().unwrap().len(), 0);
    let response = app
        .client
        .delete(app.url(&format!("/api/users/api-keys/{key_id}")))
        .bearer_auth(&bob)
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 404, "not_found");
}

#[tokio::test]
async fn key_routes_require_sign_in() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/users/api-keys", None).await;
    assert_error(status, &body, 401, "unauthorized");
    let (status, body) = app.post("/api/users/api-keys", None, json!({})).await;
    assert_error(status, &body, 401, "unauthorized");
    let (status, body) = app
        .get("/api/users/api-keys", Some("lsk_not_a_session"))
        .await;
    assert_error(status, &body, 401, "unauthorized");
}

#[tokio::test]
async fn v1_rejects_missing_invalid_and_revoked_keys() {
    let app = spawn_app().await;
    let (key_id, secret) = app.create_key("1").await;
    let (status, body) = app.get("/v1/wallet", None).await;
    assert_error(status, &body, 401, "unauthorized");
    let (status, body) = app
        .get(
            "/v1/wallet",
            Some("lsk_0000000000000000000000000000000000000000"),
        )
        .await;
    assert_error(status, &body, 401, "unauthorized");
    let (status, body) = app.get("/v1/wallet", Some("garbage")).await;
    assert_error(status, &body, 401, "unauthorized");
    let response = app
        .client
        .get(app.url("/v1/wallet"))
        .header("authorization", format!("Basic {secret}"))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 401, "unauthorized");

    let (status, _) = app.get("/v1/wallet", Some(&secret)).await;
    assert_eq!(status, 200);
    app.admin(
        reqwest::Method::POST,
        &format!("/admin/keys/{key_id}/revoke"),
        None,
    )
    .await;
    let (status, body) = app.get("/v1/wallet", Some(&secret)).await;
    assert_error(status, &body, 401, "unauthorized");
}

//! `GET /v1/wallet` and the admin top-up.

use reqwest::Method;
use serde_json::json;

use crate::helpers::{assert_error, spawn_app};

#[tokio::test]
async fn wallet_shows_balance_and_ledger_newest_first() {
    let app = spawn_app().await;
    let (key_id, secret) = app.create_key("2.5").await;
    app.admin(
        Method::POST,
        &format!("/admin/wallets/{key_id}/topup"),
        Some(json!({ "amountUsd": "0.015" })),
    )
    .await;
    let (status, body) = app.get("/v1/wallet", Some(&secret)).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["keyId"], key_id.as_str());
    assert_eq!(data["currency"], "USD");
    assert_eq!(data["balanceMicroUsd"], 2_515_000);
    assert_eq!(data["balanceUsd"], "2.515000");
    let ledger = data["ledger"].as_array().unwrap();
    assert_eq!(ledger.len(), 2);
    assert_eq!(ledger[0]["amountMicroUsd"], 15_000);
    assert_eq!(ledger[0]["balanceAfterMicroUsd"], 2_515_000);
    assert_eq!(ledger[1]["amountMicroUsd"], 2_500_000);
    assert_eq!(ledger[1]["kind"], "topup");

    let (_, limited) = app.get("/v1/wallet?limit=1", Some(&secret)).await;
    assert_eq!(limited["data"]["ledger"].as_array().unwrap().len(), 1);
    let (status, body) = app.get("/v1/wallet?limit=lots", Some(&secret)).await;
    assert_error(status, &body, 400, "bad_request");
    assert!(body["error"]["message"].as_str().unwrap().contains("limit"));
    // Any whole number is clamped into 1..500, however large or negative.
    for (limit, entries) in [("-5", 1), ("0", 1), ("99999999999999999999", 2)] {
        let (status, body) = app
            .get(&format!("/v1/wallet?limit={limit}"), Some(&secret))
            .await;
        assert_eq!(status, 200, "{limit}: {body}");
        assert_eq!(
            body["data"]["ledger"].as_array().unwrap().len(),
            entries,
            "{limit}"
        );
    }
}

#[tokio::test]
async fn top_ups_are_exact_and_validated() {
    let app = spawn_app().await;
    let (key_id, _) = app.create_key("0").await;
    let token = std::fs::read_to_string(app.data_dir().join("admin.token")).unwrap();
    for bad in ["-5", "abc", "0", "1.0000001", "100000000"] {
        let response = app
            .client
            .post(app.url(&format!("/admin/wallets/{key_id}/topup")))
            .bearer_auth(token.trim())
            .json(&json!({ "amountUsd": bad }))
            .send()
            .await
            .unwrap();
        let (status, body) = crate::helpers::read(response).await;
        assert_error(status, &body, 400, "bad_request");
    }
    let response = app
        .client
        .post(app.url("/admin/wallets/key_missing/topup"))
        .bearer_auth(token.trim())
        .json(&json!({ "amountUsd": "1" }))
        .send()
        .await
        .unwrap();
    let (status, body) = crate::helpers::read(response).await;
    assert_error(status, &body, 404, "not_found");
}

#[tokio::test]
async fn admin_endpoints_need_the_admin_token() {
    let app = spawn_app().await;
    let (_, secret) = app.create_key("1").await;
    for token in [None, Some("lsa_wrong"), Some(secret.as_str())] {
        let (status, body) = app.get("/admin/keys", token).await;
        assert_error(status, &body, 401, "unauthorized");
    }
}

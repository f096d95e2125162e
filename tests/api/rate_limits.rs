//! Token buckets per key: 429 with Retry-After, recovery after waiting it.

use lexstack::ratelimit::BucketLimit;

use crate::helpers::{assert_error, read, spawn_app_with};

#[tokio::test]
async fn over_the_limit_is_429_with_retry_after_and_recovers() {
    let app = spawn_app_with(|config| {
        config.rate_limits.resolve = BucketLimit {
            per_minute: 60,
            burst: 2,
        };
    })
    .await;
    let (_, key) = app.create_key("1").await;
    assert_eq!(app.get("/v1/wallet", Some(&key)).await.0, 200);
    assert_eq!(app.get("/v1/wallet", Some(&key)).await.0, 200);

    let response = app
        .client
        .get(app.url("/v1/wallet"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 429, "rate_limited");
    assert!((1..=2).contains(&retry_after), "retry after {retry_after}s");

    tokio::time::sleep(std::time::Duration::from_secs(retry_after)).await;
    let (status, body) = app.get("/v1/wallet", Some(&key)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["ledger"].as_array().unwrap().len(),
        1,
        "only the opening top-up"
    );
}

#[tokio::test]
async fn each_key_has_its_own_bucket() {
    let app = spawn_app_with(|config| {
        config.rate_limits.resolve = BucketLimit {
            per_minute: 1,
            burst: 1,
        };
    })
    .await;
    let (_, first) = app.create_key("1").await;
    let (_, second) = app.create_key("1").await;
    assert_eq!(app.get("/v1/wallet", Some(&first)).await.0, 200);
    assert_eq!(app.get("/v1/wallet", Some(&first)).await.0, 429);
    assert_eq!(app.get("/v1/wallet", Some(&second)).await.0, 200);
}

//! Sign-up, sign-in, sessions (bearer and cookie), profile, sign-out.

use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, read, spawn_app};

async fn sign_up(app: &TestApp, email: &str) -> Value {
    let (status, body) = app
        .post(
            "/api/custom-auth/signup",
            None,
            json!({ "email": email, "password": "correct horse", "firstName": "Ada", "lastName": "Lovelace" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body
}

#[tokio::test]
async fn sign_up_returns_the_user_and_a_session() {
    let app = spawn_app().await;
    let body = sign_up(&app, "ada@example.com").await;
    assert_eq!(body["user"]["email"], "ada@example.com");
    assert_eq!(body["user"]["firstName"], "Ada");
    assert_eq!(body["user"]["lastName"], "Lovelace");
    assert!(body["user"].get("passwordHash").is_none());
    let token = body["token"].as_str().unwrap();
    let (status, me) = app.get("/api/custom-auth/me", Some(token)).await;
    assert_eq!(status, 200);
    assert_eq!(me["email"], "ada@example.com");
}

#[tokio::test]
async fn duplicate_email_is_409_whatever_its_case() {
    let app = spawn_app().await;
    sign_up(&app, "ada@example.com").await;
    let (status, body) = app
        .post(
            "/api/custom-auth/signup",
            None,
            json!({ "email": "ADA@Example.com", "password": "another pass" }),
        )
        .await;
    assert_error(status, &body, 409, "user_exists");
}

#[tokio::test]
async fn invalid_sign_up_input_is_400_naming_the_field() {
    let app = spawn_app().await;
    for (body, field) in [
        (
            json!({ "email": "not-an-email", "password": "long enough" }),
            "email",
        ),
        (
            json!({ "email": "a@b.co", "password": "short" }),
            "password",
        ),
        (
            json!({ "email": "a@b.co", "password": "long enough", "firstName": "x".repeat(101) }),
            "firstName",
        ),
    ] {
        let (status, reply) = app.post("/api/custom-auth/signup", None, body).await;
        assert_error(status, &reply, 400, "bad_request");
        assert!(
            reply["error"]["message"].as_str().unwrap().contains(field),
            "{reply}"
        );
    }
}

#[tokio::test]
async fn bad_credentials_do_not_say_which_part_was_wrong() {
    let app = spawn_app().await;
    sign_up(&app, "ada@example.com").await;
    let (s1, wrong_password) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "ada@example.com", "password": "wrong pass" }),
        )
        .await;
    let (s2, unknown_user) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "bob@example.com", "password": "correct horse" }),
        )
        .await;
    assert_error(s1, &wrong_password, 401, "invalid_credentials");
    assert_error(s2, &unknown_user, 401, "invalid_credentials");
    assert_eq!(
        wrong_password["error"]["message"],
        unknown_user["error"]["message"]
    );
}

#[tokio::test]
async fn sign_in_is_case_insensitive_on_email() {
    let app = spawn_app().await;
    sign_up(&app, "ada@example.com").await;
    let (status, body) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "Ada@Example.COM", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["email"], "ada@example.com");
}

/// Sign-in measures the address as sign-up does (characters, trimmed), so
/// an address at the limit in multi-byte characters, or sent with spaces,
/// still signs in.
#[tokio::test]
async fn every_address_sign_up_takes_can_sign_in() {
    let app = spawn_app().await;
    let long = format!("{}@example.com", "é".repeat(242));
    let padded = format!("  {}@example.com ", "a".repeat(242));
    for email in [long.as_str(), padded.as_str()] {
        sign_up(&app, email).await;
        let (status, body) = app
            .post(
                "/api/custom-auth/signin",
                None,
                json!({ "email": email, "password": "correct horse" }),
            )
            .await;
        assert_eq!(status, 200, "{email}: {body}");
    }
}

#[tokio::test]
async fn the_session_cookie_authenticates_and_sign_out_invalidates_it() {
    let app = spawn_app().await;
    sign_up(&app, "ada@example.com").await;
    let response = app
        .client
        .post(app.url("/api/custom-auth/signin"))
        .json(&json!({ "email": "ada@example.com", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap().to_string();
    let (_, body) = read(response).await;
    let token = body["token"].as_str().unwrap().to_string();

    let with_cookie = |path: &str| app.client.get(app.url(path)).header("cookie", pair.clone());
    let (status, me) = read(with_cookie("/api/custom-auth/me").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(me["email"], "ada@example.com");
    let (_, session) = read(
        with_cookie("/api/custom-auth/session")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(session["authenticated"], true);

    let response = app
        .client
        .post(app.url("/api/custom-auth/signout"))
        .header("cookie", pair.clone())
        .send()
        .await
        .unwrap();
    assert!(
        response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    let (status, body) = read(response).await;
    assert_eq!(status, 200);
    assert_eq!(body["success"], true);

    let (status, body) = read(with_cookie("/api/custom-auth/me").send().await.unwrap()).await;
    assert_error(status, &body, 401, "unauthorized");
    let (status, body) = app.get("/api/custom-auth/me", Some(&token)).await;
    assert_error(status, &body, 401, "unauthorized");
    let (_, session) = app.get("/api/custom-auth/session", Some(&token)).await;
    assert_eq!(session["authenticated"], false);
    let (status, body) = app
        .post("/api/custom-auth/signout", Some(&token), json!({}))
        .await;
    assert_error(status, &body, 401, "unauthorized");
}

#[tokio::test]
async fn sign_out_ends_only_that_session() {
    let app = spawn_app().await;
    let first = sign_up(&app, "ada@example.com").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, second) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "ada@example.com", "password": "correct horse" }),
        )
        .await;
    let second = second["token"].as_str().unwrap();
    let (status, _) = app
        .post("/api/custom-auth/signout", Some(&first), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(app.get("/api/custom-auth/me", Some(&first)).await.0, 401);
    assert_eq!(app.get("/api/custom-auth/me", Some(second)).await.0, 200);
}

#[tokio::test]
async fn profile_updates_names() {
    let app = spawn_app().await;
    let token = sign_up(&app, "ada@example.com").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let response = app
        .client
        .patch(app.url("/api/custom-auth/profile"))
        .bearer_auth(&token)
        .json(&json!({ "lastName": "King" }))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["firstName"], "Ada");
    assert_eq!(body["lastName"], "King");
    let (_, me) = app.get("/api/custom-auth/me", Some(&token)).await;
    assert_eq!(me["lastName"], "King");

    let response = app
        .client
        .patch(app.url("/api/custom-auth/profile"))
        .json(&json!({ "lastName": "Nobody" }))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_error(status, &body, 401, "unauthorized");
}

#[tokio::test]
async fn unauthenticated_session_check_says_so() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/custom-auth/session", None).await;
    assert_eq!(status, 200);
    assert_eq!(body["authenticated"], false);
    let (status, body) = app.get("/api/custom-auth/me", Some("lss_forged")).await;
    assert_error(status, &body, 401, "unauthorized");
}

#[tokio::test]
async fn subscription_reports_tier_limits_and_usage() {
    let app = spawn_app().await;
    let token = sign_up(&app, "ada@example.com").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, body) = app.get("/api/subscription", Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tier"], "self-hosted");
    assert!(
        body["limits"]["requestsPerMinute"]["jobs"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert_eq!(body["usage"]["apiKeys"], 0);
    let (status, body) = app.get("/api/subscription", None).await;
    assert_error(status, &body, 401, "unauthorized");
}

#[tokio::test]
async fn accounts_survive_a_restart() {
    let app = spawn_app().await;
    sign_up(&app, "ada@example.com").await;
    let dir = app.stop().await;
    let app = crate::helpers::spawn_app_in(dir, |_| {}).await;
    let (status, body) = app
        .post(
            "/api/custom-auth/signin",
            None,
            json!({ "email": "ada@example.com", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

//! Verify and resolve never claim more than the library knows: names the
//! extractor reads in their common forms, short forms checked on their own,
//! every part of a resolved string, reversed and loosely matched names,
//! every pin page.

use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

/// The checked citations of `text`, each as (citation, status, reason).
async fn checked(app: &TestApp, key: &str, text: &str) -> Vec<(String, String, String)> {
    let (status, body) = app
        .post("/v1/citations/verify", Some(key), json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let field = |name: &str| c[name].as_str().unwrap_or_default().to_string();
            (field("citation"), field("status"), field("reason"))
        })
        .collect()
}

/// The one checked citation of `text`.
async fn only(app: &TestApp, key: &str, text: &str) -> Value {
    let (status, body) = app
        .post("/v1/citations/verify", Some(key), json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{body}");
    let citations = body["data"]["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 1, "{text}: {body}");
    citations[0].clone()
}

/// Names with "et al.", a caption parenthetical or quotes are read, so a
/// wrong one is caught; a name that still cannot be read is `unavailable`,
/// never verified as if no name were given.
#[tokio::test]
async fn names_in_common_forms_are_read_and_unread_names_are_not_verified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for text in [
        "Mata v. Avianca, Inc., et al., 410 U.S. 113 (1973).",
        "Smith v. Jones, et al., 347 U.S. 483.",
        "Jones v. Smith (In re Smith), 347 U.S. 483.",
        "See \"Smith v. Jones,\" 347 U.S. 483.",
        "Smith v. Jones (per curiam), 347 U.S. 483.",
    ] {
        let answer = only(&app, &key, text).await;
        assert_eq!(answer["status"], "unverified", "{text}: {answer}");
    }
    let answer = only(&app, &key, "Brown v. Board of Education, et al., 347 U.S. 483.").await;
    assert_eq!(answer["status"], "verified", "{answer}");

    let unread = only(
        &app,
        &key,
        "Smith v. Jones (opinion of Alito, J.), 347 U.S. 483.",
    )
    .await;
    assert_eq!(unread["status"], "unavailable", "{unread}");
    assert!(
        unread["reason"].as_str().unwrap().contains("could not be read"),
        "{unread}"
    );

    let unnamed = only(&app, &key, "The rule is settled. 347 U.S. 483.").await;
    assert_eq!(unnamed["status"], "verified", "{unnamed}");
    let reason = unnamed["reason"].as_str().unwrap();
    assert!(
        !reason.contains("name given") && reason.contains("no name was given"),
        "{unnamed}"
    );
}

//! `POST /v1/documents/review` and `GET /v1/documents/playbooks`.

use serde_json::json;

use crate::helpers::{assert_error, spawn_app};

const SERVICES: &str = include_str!("../fixtures/review/services_agreement.txt");
const NOT_A_CONTRACT: &str = include_str!("../fixtures/review/not_a_contract.txt");

#[tokio::test]
async fn a_services_agreement_is_reviewed_and_billed_once() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = app
        .post(
            "/v1/documents/review",
            Some(&key),
            json!({ "text": SERVICES }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["reviewed"], true, "{data}");
    assert_eq!(data["contractType"], "services_msa");
    assert_eq!(data["playbookId"], "services-msa");
    let findings = data["findings"].as_array().unwrap();
    assert_eq!(data["checksTotal"], findings.len());
    let passed = findings.iter().filter(|f| f["status"] == "pass").count();
    assert_eq!(data["checksPassed"], passed);
    let law = findings
        .iter()
        .find(|f| f["ruleName"] == "Governing law is stated")
        .unwrap();
    assert_eq!(law["status"], "pass", "{law}");
    let (start, end) = (
        law["citation"]["start"].as_u64().unwrap() as usize,
        law["citation"]["end"].as_u64().unwrap() as usize,
    );
    let cited: String = SERVICES.chars().skip(start).take(end - start).collect();
    assert_eq!(cited, law["clause"].as_str().unwrap());
    assert!(cited.contains("laws of the State of New York"));
    assert_eq!(law["citation"]["section"], "8");
    for failed in findings.iter().filter(|f| f["status"] == "fail") {
        assert!(failed["suggestedLanguage"].is_string(), "{failed}");
    }
    let answers = data["answers"].as_array().unwrap();
    let answer = |key: &str| {
        answers
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| a["value"].clone())
    };
    assert_eq!(answer("governing_law").unwrap(), "New York");
    let parties = answer("parties").unwrap();
    assert_eq!(parties[0]["name"], "Northwind Analytics, Inc.");
    assert_eq!(parties[0]["aliases"][0], "Provider");
    assert_eq!(data["analyzedChars"], data["totalChars"]);

    let (_, wallet) = app.get("/v1/wallet", Some(&key)).await;
    let ledger = wallet["data"]["ledger"].as_array().unwrap();
    let charges: Vec<_> = ledger.iter().filter(|e| e["kind"] == "charge").collect();
    assert_eq!(charges.len(), 1, "{wallet}");
    assert_eq!(charges[0]["amountMicroUsd"], -100_000);
    assert_eq!(wallet["data"]["balanceMicroUsd"], 900_000);
}

#[tokio::test]
async fn text_that_is_not_a_contract_is_not_reviewed_nor_billed() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = app
        .post(
            "/v1/documents/review",
            Some(&key),
            json!({ "text": NOT_A_CONTRACT }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["reviewed"], false);
    assert_eq!(body["data"]["contractType"], "none");
    assert!(body["data"]["reason"].is_string());
    assert_eq!(body["data"]["checksTotal"], 0);
    let (_, wallet) = app.get("/v1/wallet", Some(&key)).await;
    assert_eq!(wallet["data"]["balanceMicroUsd"], 1_000_000);
}

#[tokio::test]
async fn a_named_playbook_runs_even_when_not_auto_detected() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = app
        .post(
            "/v1/documents/review",
            Some(&key),
            json!({ "text": SERVICES, "playbookId": "general-commercial" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["reviewed"], true);
    assert_eq!(body["data"]["playbookId"], "general-commercial");
}

#[tokio::test]
async fn an_unknown_playbook_is_404_and_not_billed() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = app
        .post(
            "/v1/documents/review",
            Some(&key),
            json!({ "text": SERVICES, "playbookId": "no-such-playbook" }),
        )
        .await;
    assert_error(status, &body, 404, "playbook_not_found");
    let (_, wallet) = app.get("/v1/wallet", Some(&key)).await;
    assert_eq!(wallet["data"]["balanceMicroUsd"], 1_000_000);
}

#[tokio::test]
async fn text_over_500000_chars_is_413() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let text = "a".repeat(500_001);
    let (status, body) = app
        .post("/v1/documents/review", Some(&key), json!({ "text": text }))
        .await;
    assert_error(status, &body, 413, "document_too_large");
}

#[tokio::test]
async fn long_text_is_analysed_up_to_200000_chars() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let filler = "The parties shall cooperate in good faith. ".repeat(6_000);
    let text = format!("{SERVICES}\n\n{filler}");
    let total = text.chars().count();
    let (status, body) = app
        .post("/v1/documents/review", Some(&key), json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["totalChars"], total);
    assert_eq!(body["data"]["analyzedChars"], 200_000);
}

#[tokio::test]
async fn bad_bodies_are_400() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    for bad in [
        json!({}),
        json!({ "text": 5 }),
        json!({ "text": "x", "extra": 1 }),
    ] {
        let (status, body) = app.post("/v1/documents/review", Some(&key), bad).await;
        assert_error(status, &body, 400, "bad_request");
    }
}

#[tokio::test]
async fn playbooks_are_listed_unbilled() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = app.get("/v1/documents/playbooks", Some(&key)).await;
    assert_eq!(status, 200, "{body}");
    let playbooks = body["data"].as_array().unwrap();
    assert!(playbooks.len() >= 6);
    for family in [
        "distribution_supply",
        "services_msa",
        "license_ip",
        "saas_hosting",
        "restrictive_covenant",
    ] {
        assert!(
            playbooks
                .iter()
                .any(|p| p["contractType"] == family && p["autoDetected"] == true),
            "no auto-detected playbook for {family}"
        );
    }
    let named_only = playbooks
        .iter()
        .find(|p| p["id"] == "general-commercial")
        .unwrap();
    assert_eq!(named_only["autoDetected"], false);
    assert!(named_only["checks"].as_array().unwrap().len() > 1);
    let (_, wallet) = app.get("/v1/wallet", Some(&key)).await;
    assert_eq!(wallet["data"]["balanceMicroUsd"], 1_000_000);
}

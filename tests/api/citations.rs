//! Resolve and verify over HTTP, against the embedded default library:
//! every status, every error code, billing.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, read, spawn_app, spawn_app_with};

async fn verify(app: &TestApp, key: &str, body: Value) -> (reqwest::StatusCode, Value) {
    app.post("/v1/citations/verify", Some(key), body).await
}

fn by_citation<'a>(data: &'a Value, written: &str) -> &'a Value {
    data["citations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["citation"] == written)
        .unwrap_or_else(|| panic!("{written} not in {data}"))
}

/// Verifies `text` inline: the answer's body, which must be a 200.
async fn verify_text(app: &TestApp, key: &str, text: &str) -> Value {
    let (status, body) = verify(app, key, json!({ "text": text })).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Each checked citation as (citation, status), in order.
fn statuses(body: &Value) -> Vec<(&str, &str)> {
    body["data"]["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["citation"].as_str().unwrap(),
                c["status"].as_str().unwrap(),
            )
        })
        .collect()
}

async fn balance(app: &TestApp, key: &str) -> i64 {
    app.get("/v1/wallet", Some(key)).await.1["data"]["balanceMicroUsd"]
        .as_i64()
        .unwrap()
}

const BRIEF: &str = "As the Court held in Brown v. Board of Education, 347 U.S. 483, 495 (1954), \
separate is not equal. Smith v. Jones, 347 U.S. 490 (1954). Nijhawan v. Holder, 557 U.S. 29, 40 (2009). \
Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019). Marbury v. Madison, 5 U.S. 137 (1803). \
42 U.S.C. § 1983; see also 42 U.S.C. § 1983. Fed. R. Civ. P. 12(b)(6); Fed. R. Civ. P. 99. \
U.S. Const. amend. XIV; U.S. Const. amend. XXX. Id. at 496.";

#[tokio::test]
async fn verify_gives_each_citation_an_honest_status() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let (status, body) = verify(&app, &key, json!({ "text": BRIEF })).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];

    let brown = by_citation(data, "347 U.S. 483");
    assert_eq!(brown["status"], "verified");
    assert_eq!(
        brown["bluebookCitation"],
        "Brown v. Bd. of Educ., 347 U.S. 483, 495 (1954)"
    );
    assert_eq!(brown["caseStatus"]["caseId"], "scdb-1953-069");
    let link = brown["sourceUrl"].as_str().unwrap();
    assert!(
        link.starts_with(&app.url("/library/cases/")),
        "the bound port, not port 0: {link}"
    );

    let misnamed = by_citation(data, "347 U.S. 490");
    assert_eq!(
        misnamed["status"], "unverified",
        "a real page under another name"
    );
    assert!(misnamed["title"].as_str().unwrap().contains("BROWN"));
    assert_eq!(misnamed["sourceUrl"], Value::Null);

    assert_eq!(
        by_citation(data, "557 U.S. 29")["status"],
        "verified",
        "a bound-volume case"
    );
    let unheld = by_citation(data, "925 F.3d 1339");
    assert_eq!(
        unheld["status"], "unavailable",
        "the library cannot tell: never a guess"
    );
    assert_eq!(
        by_citation(data, "5 U.S. 137")["status"],
        "unavailable",
        "no name held to check"
    );
    assert_eq!(by_citation(data, "42 U.S.C. § 1983")["status"], "verified");
    assert_eq!(
        by_citation(data, "42 U.S.C. § 1983")["contentType"],
        "statute"
    );
    assert_eq!(
        by_citation(data, "Fed. R. Civ. P. 12")["status"],
        "verified"
    );
    assert_eq!(
        by_citation(data, "Fed. R. Civ. P. 99")["status"],
        "unverified",
        "cannot exist"
    );
    assert_eq!(
        by_citation(data, "U.S. Const. amend. XIV")["status"],
        "verified"
    );
    assert_eq!(
        by_citation(data, "U.S. Const. amend. XXX")["status"],
        "unverified"
    );

    let stats = &data["stats"];
    let total = stats["total"].as_u64().unwrap();
    assert_eq!(total as usize, data["citations"].as_array().unwrap().len());
    assert_eq!(
        total,
        stats["verified"].as_u64().unwrap()
            + stats["unverified"].as_u64().unwrap()
            + stats["unavailable"].as_u64().unwrap()
    );
    assert!(
        data["extractedCount"].as_u64().unwrap() > total,
        "the repeated § 1983 counts once"
    );
    assert_eq!(data["truncated"], false);
    assert_eq!(
        balance(&app, &key).await,
        10_000_000 - 15_000 * total as i64,
        "one unit per distinct citation"
    );
}

/// A fabricated name must not hide behind a real one at the same page, nor
/// behind a party word that usually opens a clause ("Case", "The").
#[tokio::test]
async fn every_name_given_at_a_page_is_checked() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "Brown v. Board of Education, 347 U.S. 483 (1954). Later, in Smith v. Jones, \
                347 U.S. 483 (1960), the Court held otherwise. Brown v. Board of Educ., 347 U.S. 483. \
                Fake v. Case, 410 U.S. 113 (1973). Zzz v. The, 384 U.S. 436 (1966).";
    let body = verify_text(&app, &key, text).await;
    assert_eq!(
        statuses(&body),
        [
            ("347 U.S. 483", "verified"),
            ("347 U.S. 483", "unverified"),
            ("410 U.S. 113", "unverified"),
            ("384 U.S. 436", "unverified"),
        ],
        "Brown's abbreviated name is the same claim; Smith's is another"
    );
}

/// A pin page the case cannot have is caught: before its first page, or on
/// a page another case holds (Bolling v. Sharpe starts at 347 U.S. 497),
/// however large its number. A volume or page too large for any reporter
/// (in a short form too) names nothing that could exist.
#[tokio::test]
async fn a_pin_page_outside_the_case_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let mut answers = Vec::new();
    for pin in ["495", "500", "482", "99999999999", "495-4294967297"] {
        let text = format!("Brown v. Board of Education, 347 U.S. 483, {pin} (1954).");
        let body = verify_text(&app, &key, &text).await;
        answers.push(body["data"]["citations"][0].clone());
    }
    let statuses: Vec<&str> = answers
        .iter()
        .map(|a| a["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "verified",
            "unverified",
            "unverified",
            "unverified",
            "unverified"
        ],
        "{answers:?}"
    );
    assert!(
        answers[1]["reason"].as_str().unwrap().contains("BOLLING"),
        "{answers:?}"
    );
    // The title is the case at the pin's page, when the library shows one:
    // the name given is right.
    assert!(
        answers[1]["title"].as_str().unwrap().contains("BOLLING"),
        "{answers:?}"
    );
    assert!(answers[2]["title"].is_null(), "{answers:?}");
    let body = verify_text(
        &app,
        &key,
        "Brown v. Board of Education, 347 U.S. 483 (1954). Id. at 500.",
    )
    .await;
    let answer = &body["data"]["citations"][0];
    assert_eq!(answer["status"], "unavailable", "{body}");
    assert!(answer["title"].is_null(), "{body}");
    let text = "Brown v. Board of Education, 347 U.S. at 99999999999. \
                Brown v. Board of Education, 347 U.S. 99999999999 (1954). \
                Brown v. Board of Education, 99999999999 U.S. 483 (1954).";
    let body = verify_text(&app, &key, text).await;
    for (answer, number) in body["data"]["citations"].as_array().unwrap().iter().zip([
        "page 99999999999",
        "page 99999999999",
        "volume 99999999999",
    ]) {
        assert_eq!(answer["status"], "unverified", "{body}");
        let reason = answer["reason"].as_str().unwrap();
        assert!(
            reason.starts_with(number) && reason.contains("past any"),
            "{body}"
        );
    }
    assert_eq!(
        body["data"]["citations"].as_array().unwrap().len(),
        3,
        "{body}"
    );
}

/// An unpublished order the library holds is verified by its number with
/// the suffix, under its own name only; one it does not hold, and the
/// published decision of the same number, cannot be told.
#[tokio::test]
async fn unpublished_orders_are_checked_by_their_numbers() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "People v. Gilliam, 2020 IL App (4th) 180071-U, ¶ 12. \
                Smith v. Jones, 2020 IL App (4th) 180071-U. \
                People v. Gilliam, 2020 IL App (4th) 180072-U. \
                People v. Gilliam, 2020 IL App (4th) 180071.";
    let body = verify_text(&app, &key, text).await;
    assert_eq!(
        statuses(&body),
        [
            ("2020 IL App (4th) 180071-U", "verified"),
            ("2020 IL App (4th) 180071-U", "unverified"),
            ("2020 IL App (4th) 180072-U", "unavailable"),
            ("2020 IL App (4th) 180071", "unavailable"),
        ],
        "{body}"
    );
    // An order's number is no first page: a pin in it cannot be checked
    // against it. New York's given name may be left out.
    let text = "People v. Romero, 2026 NY Slip Op 50191(U), at 2.";
    let body = verify_text(&app, &key, text).await;
    assert_eq!(
        statuses(&body),
        [("2026 NY Slip Op 50191(U)", "verified")],
        "{body}"
    );
}

/// A case cited again at another pin is checked at that pin too: a wrong
/// second pin makes the claim unverified instead of hiding behind the first.
/// It is still one citation, billed once.
#[tokio::test]
async fn every_pin_of_a_case_cited_twice_is_checked() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let good = "Brown v. Board of Education, 347 U.S. 483, 495 (1954). Again, Brown v. Board \
                of Education, 347 U.S. 483, 494 (1954).";
    let bad = format!("{good} But see Brown v. Board of Education, 347 U.S. 483, 500 (1954).");
    let (status, body) = verify(&app, &key, json!({ "text": good })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(statuses(&body), [("347 U.S. 483", "verified")], "{body}");
    let (status, body) = verify(&app, &key, json!({ "text": bad })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(statuses(&body), [("347 U.S. 483", "unverified")], "{body}");
    let reason = body["data"]["citations"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("page 500") && reason.contains("BOLLING"),
        "{body}"
    );
    assert_eq!(body["data"]["extractedCount"], 3);
    assert_eq!(balance(&app, &key).await, 10_000_000 - 2 * 15_000);
}

/// The early U.S. Reports carry their reporter's volume: a wrong one is caught.
#[tokio::test]
async fn a_wrong_nominative_volume_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "See 5 U.S. (1 Cranch) 137 (1803). \
                Osborn v. Bank of the United States, 22 U.S. (3 Dall.) 738 (1824).";
    let body = verify_text(&app, &key, text).await;
    let checked = body["data"]["citations"].as_array().unwrap();
    assert_eq!(checked[0]["status"], "verified", "{body}");
    assert_eq!(checked[1]["status"], "unverified", "{body}");
    assert!(
        checked[1]["reason"]
            .as_str()
            .unwrap()
            .contains("22 U.S. is 9 Wheat., not 3 Dall."),
        "{body}"
    );
}

/// "1 Cranch 137" is a page of 5 U.S., which the library holds; Cranch's
/// reports of the D.C. circuit court are not.
#[tokio::test]
async fn early_supreme_court_reporters_are_checked_as_the_us_reports() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "See 1 Cranch 137 (1803); 4 Wheat. 316 (1819); 1 Cranch C.C. 137; \
                5 U.S. 137.";
    let body = verify_text(&app, &key, text).await;
    assert_eq!(
        statuses(&body),
        [
            ("1 Cranch 137", "verified"),
            ("4 Wheat. 316", "verified"),
            ("1 Cranch C.C. 137", "unavailable"),
        ],
        "5 U.S. 137 is the page 1 Cranch 137 names: one claim: {body}"
    );
    assert_eq!(balance(&app, &key).await, 10_000_000 - 3 * 15_000);
}

/// Bluebook form gives a case's first page before a page inside it, and
/// "§§" before a range of sections.
#[tokio::test]
async fn bluebook_form_of_pins_and_section_ranges() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "Roe v. Wade, 410 U.S. 150 (1973). 42 U.S.C. §§ 1981-1983.";
    let body = verify_text(&app, &key, text).await;
    let roe = by_citation(&body["data"], "410 U.S. 150");
    assert_eq!(roe["status"], "verified", "{roe}");
    assert_eq!(
        roe["bluebookCitation"],
        "Roe v. Wade, 410 U.S. 113, 150 (1973)"
    );
    let range = &body["data"]["citations"][1];
    assert_eq!(
        range["bluebookCitation"], "42 U.S.C. §§ 1981-1983",
        "{range}"
    );
}

/// A section or clause the Constitution does not have is `unverified`;
/// one it has is `verified`; two clauses of one section are two citations.
#[tokio::test]
async fn constitution_sections_and_clauses_are_checked() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "U.S. Const. art. VII, § 2. U.S. Const. art. III, § 5. U.S. Const. amend. XIV, § 9. \
                U.S. Const. art. I, § 8, cl. 99. U.S. Const. art. I, § 8, cl. 3. \
                U.S. Const. amend. XIV, § 1. U.S. Const. art. VI, cl. 99. U.S. Const. art. VI, cl. 2. \
                U.S. Const. art. I, cl. 3.";
    let body = verify_text(&app, &key, text).await;
    assert_eq!(
        statuses(&body),
        [
            ("U.S. Const. art. VII, § 2", "unverified"),
            ("U.S. Const. art. III, § 5", "unverified"),
            ("U.S. Const. amend. XIV, § 9", "unverified"),
            ("U.S. Const. art. I, § 8, cl. 99", "unverified"),
            ("U.S. Const. art. I, § 8, cl. 3", "verified"),
            ("U.S. Const. amend. XIV, § 1", "verified"),
            ("U.S. Const. art. VI, cl. 99", "unverified"),
            ("U.S. Const. art. VI, cl. 2", "verified"),
            ("U.S. Const. art. I, cl. 3", "unverified"),
        ]
    );
}

/// What PDF and web text does to briefs: words split at line ends, soft
/// hyphens, ligatures, zero-width joiners, section ranges, state codes cited
/// by title and section. None of it may turn a real citation `unverified`.
const PDF_BRIEF: &str = "Neither Ri chardson v. United States, 468 U.S. 317, nor N evada v. United \
States, 463 U.S. 110, applies. Turner v. Sa\u{fb02}ey, 482 U.S. 78 (1987); Johnson v. \u{200d}United \
States, 559 U.S. 133 (2010); Brown v. Board of Edu\u{ad}\ncation, 347 U.S. 483 (1954). \
FELA, 45 U.S.C. \u{a7}\u{a7} 51\u{2013}60, and 42 U.S.C. \u{a7}\u{a7} 1983\u{2013}1985. Title 35, \
section 780-113(a)(30) of the Pennsylvania Consolidated Statutes.";

#[tokio::test]
async fn text_from_pdfs_and_web_pages_is_read_fairly() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let (status, body) = verify(&app, &key, json!({ "text": PDF_BRIEF })).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    for written in [
        "482 U.S. 78",
        "559 U.S. 133",
        "347 U.S. 483",
        "45 U.S.C. \u{a7}\u{a7} 51\u{2013}60",
        "42 U.S.C. \u{a7}\u{a7} 1983\u{2013}1985",
    ] {
        assert_eq!(
            by_citation(data, written)["status"],
            "verified",
            "{written}"
        );
    }
    for written in ["468 U.S. 317", "463 U.S. 110"] {
        let checked = by_citation(data, written);
        assert_ne!(checked["status"], "unverified", "{checked}");
    }
    assert!(
        data["citations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["status"] != "unverified"),
        "the Pennsylvania statute is not a U.S. Code section: {data}"
    );
}

#[tokio::test]
async fn verify_checks_at_most_fifty_and_bills_fifty() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text: String = (1..=60).map(|n| format!("{n} F.3d {n}. ")).collect();
    let body = verify_text(&app, &key, &text).await;
    assert_eq!(body["data"]["citations"].as_array().unwrap().len(), 50);
    assert_eq!(body["data"]["truncated"], true);
    assert_eq!(body["data"]["extractedCount"], 60);
    assert_eq!(balance(&app, &key).await, 10_000_000 - 50 * 15_000);
}

#[tokio::test]
async fn a_document_without_citations_is_not_billed() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = verify(&app, &key, json!({ "text": "No authorities here." })).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["extractedCount"], 0);
    assert_eq!(balance(&app, &key).await, 1_000_000);
}

#[tokio::test]
async fn verify_input_errors() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = verify(&app, &key, json!({})).await;
    assert_error(status, &body, 400, "bad_request");
    let (status, body) = verify(
        &app,
        &key,
        json!({ "text": "x", "url": "https://example.com/a.pdf" }),
    )
    .await;
    assert_error(status, &body, 400, "bad_request");
    let (status, body) = verify(&app, &key, json!({ "text": "x", "country": "UK" })).await;
    assert_error(status, &body, 400, "unsupported_jurisdiction");
    let (status, body) = verify(&app, &key, json!({ "text": "x", "colour": "red" })).await;
    assert_error(status, &body, 400, "bad_request");
    let (status, body) = verify(&app, &key, json!({ "url": "http://example.com/a.pdf" })).await;
    assert_error(status, &body, 400, "invalid_document_url");
    let over = "é".repeat(500_001);
    let (status, body) = verify(&app, &key, json!({ "text": over })).await;
    assert_error(status, &body, 413, "document_too_large");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("500000")
    );
    assert_eq!(
        balance(&app, &key).await,
        1_000_000,
        "errors are never billed"
    );
}

#[tokio::test]
async fn payment_required_and_request_id_reuse_over_http() {
    let app = spawn_app().await;
    let (key_id, key) = app.create_key("0.01").await;
    let send = |request_id: &'static str| {
        app.client
            .post(app.url("/v1/citations/verify"))
            .bearer_auth(&key)
            .header("X-Request-Id", request_id)
            .json(&json!({ "text": "Brown v. Board of Education, 347 U.S. 483 (1954). 42 U.S.C. § 1983." }))
            .send()
    };
    let (status, body) = read(send("brief-1").await.unwrap()).await;
    assert_eq!(status, 200, "a positive balance below the charge completes");
    assert_eq!(body["requestId"], "brief-1");
    assert_eq!(
        balance(&app, &key).await,
        10_000 - 30_000,
        "and goes negative"
    );

    let (status, body) = read(send("brief-1").await.unwrap()).await;
    assert_error(status, &body, 409, "request_id_reused");
    let (status, body) = read(send("brief-2").await.unwrap()).await;
    assert_error(status, &body, 402, "payment_required");

    app.admin(
        Method::POST,
        &format!("/admin/wallets/{key_id}/topup"),
        Some(json!({ "amountUsd": "1" })),
    )
    .await;
    let (status, _) = read(send("brief-2").await.unwrap()).await;
    assert_eq!(status, 200);
    let resolve = app
        .client
        .post(app.url("/v1/citations/resolve"))
        .bearer_auth(&key)
        .header("X-Request-Id", "brief-1")
        .json(&json!({ "citations": ["347 U.S. 483"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        resolve.status(),
        200,
        "the same request id on another endpoint is its own"
    );
}

#[tokio::test]
async fn rate_limited_requests_are_never_billed() {
    let app = spawn_app_with(|config| {
        config.rate_limits.verify = lexstack::ratelimit::BucketLimit {
            per_minute: 1,
            burst: 1,
        };
    })
    .await;
    let (_, key) = app.create_key("1").await;
    let body = json!({ "text": "42 U.S.C. § 1983." });
    assert_eq!(verify(&app, &key, body.clone()).await.0, 200);
    let (status, reply) = verify(&app, &key, body).await;
    assert_error(status, &reply, 429, "rate_limited");
    assert_eq!(balance(&app, &key).await, 1_000_000 - 15_000);
}

#[tokio::test]
async fn resolve_answers_each_string_and_bills_distinct_ones() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let citations = json!([
        "Brown v. Board of Education, 347 U.S. 483 (1954)",
        "347 U.S. 483",
        "347  U.S.  483",
        "42 U.S.C. § 1983",
        "Fed. R. Evid. 403",
        "29 C.F.R. § 1910.1200",
        "Brown v. Board of Education"
    ]);
    let (status, body) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": citations }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let results = body["data"]["citations"].as_array().unwrap();
    assert_eq!(results.len(), 7);
    assert_eq!(results[0]["status"], "verified");
    assert_eq!(results[0]["contentType"], "case");
    assert_eq!(results[0]["caseStatus"]["caseId"], "scdb-1953-069");
    assert_eq!(results[1]["status"], "verified");
    assert_eq!(results[3]["contentType"], "statute");
    assert_eq!(results[4]["contentType"], "rule");
    assert_eq!(results[5]["contentType"], "regulation");
    assert_eq!(
        results[6]["status"], "unavailable",
        "exact mode: a bare name is not a citation"
    );
    assert_eq!(
        balance(&app, &key).await,
        1_000_000 - 6 * 15_000,
        "'347 U.S. 483' twice counts once"
    );

    let (_, lenient) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": ["Brown v. Board of Education"], "searchMode": "lenient" }),
        )
        .await;
    assert_eq!(lenient["data"]["citations"][0]["status"], "verified");
    assert_eq!(
        lenient["data"]["citations"][0]["caseStatus"]["caseId"],
        "scdb-1953-069"
    );
    // A case decided with another and reported under its citation is
    // found by its own name, as that decision.
    let (_, companion) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": ["Vignera v. New York"], "searchMode": "lenient" }),
        )
        .await;
    let answer = &companion["data"]["citations"][0];
    assert_eq!(answer["status"], "verified", "{answer}");
    assert_eq!(answer["caseStatus"]["caseId"], "scdb-1965-122", "{answer}");
    assert!(
        answer["reason"]
            .as_str()
            .unwrap()
            .contains("was decided with MIRANDA"),
        "{answer}"
    );
    // One party that many different cases share names none of them.
    let (_, one_party) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({
                "citations": ["Arizona", "Gideon", "Smith v. United States", "Ex parte Milligan"],
                "searchMode": "lenient"
            }),
        )
        .await;
    let answers = &one_party["data"]["citations"];
    assert_eq!(answers[0]["status"], "unavailable", "{answers}");
    assert!(
        answers[0]["reason"]
            .as_str()
            .unwrap()
            .contains("several cases go by that name"),
        "{answers}"
    );
    assert_eq!(answers[1]["status"], "verified", "{answers}");
    assert!(answers[1]["title"].as_str().unwrap().contains("GIDEON"));
    // Several decisions named alike, none cited more: no pick. A one-party
    // name is not a case with two (Allen v. Milligan).
    assert_eq!(answers[2]["status"], "unavailable", "{answers}");
    assert_ne!(answers[3]["status"], "verified", "{answers}");

    let (_, foreign) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": ["[2020] UKSC 1"], "country": "UK" }),
        )
        .await;
    assert_eq!(foreign["data"]["citations"][0]["status"], "unavailable");
}

#[tokio::test]
async fn overruled_cases_say_so() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let (_, body) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": ["Bowers v. Hardwick, 478 U.S. 186 (1986)"] }),
        )
        .await;
    let status = &body["data"]["citations"][0]["caseStatus"];
    assert_eq!(status["validity"], "overruled");
    assert!(
        status["overruledBy"][0]["name"]
            .as_str()
            .unwrap()
            .contains("Lawrence")
    );
    // The overruling decision by its U.S. Reports citation once the library
    // holds it paged (the table gives Obergefell's S. Ct. citation).
    let (_, body) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": ["Baker v. Nelson, 409 U.S. 810 (1972)"] }),
        )
        .await;
    let by = &body["data"]["citations"][0]["caseStatus"]["overruledBy"][0];
    assert_eq!(by["citation"], "576 U.S. 644", "{body}");

    // Overruled after the Constitution Annotated's table ends (April 2020).
    let (_, body) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": ["Roe v. Wade, 410 U.S. 113 (1973)", "467 U.S. 837"] }),
        )
        .await;
    for (answer, by) in body["data"]["citations"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["Dobbs", "Loper Bright"])
    {
        let status = &answer["caseStatus"];
        assert_eq!(status["validity"], "overruled", "{answer}");
        assert!(
            status["overruledBy"][0]["name"]
                .as_str()
                .unwrap()
                .contains(by)
        );
        assert!(
            status["overruledBy"][0]["caseId"].is_string(),
            "the overruling decision is linked by its S. Ct. cite: {answer}"
        );
    }
}

#[tokio::test]
async fn resolve_input_errors_name_the_item() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let many: Vec<String> = (0..51).map(|n| format!("{n} U.S. 1")).collect();
    for (body, field) in [
        (json!({ "citations": [] }), "citations"),
        (json!({ "citations": many }), "citations"),
        (
            json!({ "citations": ["ok", "x".repeat(2001)] }),
            "citations[1]",
        ),
        (json!({ "citations": ["ok", 5] }), "citations[1]"),
        (
            json!({ "citations": ["ok"], "searchMode": "fuzzy" }),
            "searchMode",
        ),
        (
            json!({ "citations": ["ok"], "searchMode": 1 }),
            "searchMode`: invalid type: integer `1`, expected a string",
        ),
        (
            json!({ "citations": ["ok"], "searchMode": [] }),
            "searchMode",
        ),
    ] {
        let (status, reply) = app.post("/v1/citations/resolve", Some(&key), body).await;
        assert_error(status, &reply, 400, "bad_request");
        assert!(
            reply["error"]["message"].as_str().unwrap().contains(field),
            "{field}: {reply}"
        );
    }
}

#[tokio::test]
async fn case_lookup_by_citation_and_id() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("0").await;
    let lookup = |body: Value| app.post("/v1/cases/lookup", Some(&key), body);
    let (status, found) = lookup(json!({ "citation": "557 U.S. 557" })).await;
    assert_eq!(status, 200, "unbilled: a zero balance is fine");
    assert_eq!(found["data"]["status"], "found");
    let case_id = found["data"]["caseId"].as_str().unwrap().to_string();
    let (_, by_id) = lookup(json!({ "caseId": case_id })).await;
    assert_eq!(by_id["data"]["status"], "found");

    let (_, metadata_only) = lookup(json!({ "citation": "2020 IL 123972" })).await;
    assert_eq!(
        metadata_only["data"]["status"], "not_in_library",
        "{metadata_only}"
    );
    assert!(
        metadata_only["data"]["externalSourceUrl"]
            .as_str()
            .unwrap()
            .starts_with("http")
    );
    let (_, nothing) = lookup(json!({ "citation": "999 F.3d 1" })).await;
    assert_eq!(nothing["data"]["status"], "unresolved");
    // As resolve reads it: a name, year or pin that does not fit the case
    // at that page names no case, rather than the one that is there.
    let (_, miranda) = lookup(json!({ "citation": "384 U.S. 436" })).await;
    let miranda_id = miranda["data"]["caseId"].as_str().unwrap().to_string();
    let (_, named) =
        lookup(json!({ "citation": "Miranda v. Arizona, 384 U.S. 436, 444 (1966)" })).await;
    assert_eq!(named["data"]["caseId"], miranda_id.as_str(), "{named}");
    for miscited in [
        "Roe v. Wade, 384 U.S. 436",
        "Miranda v. Arizona, 384 U.S. 436 (2090)",
        "Miranda v. Arizona, 384 U.S. 436, 900",
        "384 U.S. 436; 999 U.S. 1",
    ] {
        let (_, reply) = lookup(json!({ "citation": miscited })).await;
        assert_eq!(reply["data"]["status"], "unresolved", "{miscited}: {reply}");
        assert!(reply["data"]["caseId"].is_null(), "{miscited}: {reply}");
    }
    let (_, statute) = lookup(json!({ "citation": "42 U.S.C. § 1983" })).await;
    assert_eq!(statute["data"]["status"], "found", "{statute}");
    // The Code's en dash inside a section number names that section.
    let (_, dashed) = lookup(json!({ "citation": "42 U.S.C. § 1962–3" })).await;
    assert_eq!(dashed["data"]["caseId"], "usc/42/1962-3", "{dashed}");
    let (_, no_section) = lookup(json!({ "citation": "42 U.S.C. § 99999" })).await;
    assert_eq!(no_section["data"]["status"], "unresolved", "{no_section}");
    let statute_id = statute["data"]["caseId"].as_str().unwrap().to_string();
    let (_, statute_by_id) = lookup(json!({ "caseId": statute_id })).await;
    assert_eq!(
        statute_by_id["data"], statute["data"],
        "the same answer either way"
    );
    let (_, rule) = lookup(json!({ "caseId": "frcp/56" })).await;
    assert_eq!(rule["data"]["status"], "found");
    let (status, reply) = lookup(json!({})).await;
    assert_error(status, &reply, 400, "bad_request");
    // maxLength counts characters: 200 two-byte ones are allowed, 201 not.
    let (status, reply) = lookup(json!({ "caseId": "é".repeat(200) })).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["data"]["status"], "unresolved");
    let (status, reply) = lookup(json!({ "caseId": "é".repeat(201) })).await;
    assert_error(status, &reply, 400, "bad_request");
}

#[tokio::test]
async fn the_appliance_serves_its_own_case_pages() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/library/cases/scdb-2008-070"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    assert!(html.contains("NIJHAWAN"));
    assert!(!html.contains("<script"), "library text is escaped");
    // The docket and the head matter, where the ruling of an order is.
    let fieger = app
        .client
        .get(app.url("/library/cases/fc-737NW2d768_3New"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(fieger.contains("Docket: "), "{fieger}");
    assert!(fieger.contains("Michigan Supreme Court (mich)"), "{fieger}");
    assert!(fieger.contains("<h2>Head matter</h2>"), "{fieger}");
    assert!(fieger.contains("it is DENIED"), "{fieger}");
    let (status, body) = app.get("/library/cases/nope", None).await;
    assert_error(status, &body, 404, "not_found");
}

#[tokio::test]
async fn concurrent_requests_take_a_wallet_no_further_below_zero_than_one_request() {
    // Rate limits off: the wallet alone decides who is served.
    let app = spawn_app_with(|config| {
        config.rate_limits.resolve.per_minute = 0;
    })
    .await;
    // 0.05 USD; every request resolves three citations (0.045 USD).
    let (_, key) = app.create_key("0.05").await;
    let requests = (0..20).map(|n| {
        let request = app
            .client
            .post(app.url("/v1/citations/resolve"))
            .bearer_auth(&key)
            .header("X-Request-Id", format!("burst-{n}"))
            .json(&json!({ "citations": ["347 U.S. 483", "5 U.S. 137", "557 U.S. 29"] }));
        async move { request.send().await.unwrap().status().as_u16() }
    });
    let statuses = futures_util::future::join_all(requests).await;
    let served = statuses.iter().filter(|&&s| s == 200).count();
    assert!(
        statuses.iter().all(|&s| s == 200 || s == 402),
        "{statuses:?}"
    );
    // The first leaves 0.005 USD, so one more may overrun; none after.
    assert_eq!(served, 2, "{statuses:?}");
    assert_eq!(balance(&app, &key).await, 50_000 - 2 * 45_000);
}

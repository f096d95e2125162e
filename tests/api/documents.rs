//! Verify by URL: a real PDF and a real DOCX served on loopback, unreadable
//! and unreachable documents, and server-side request forgery attempts.

use std::time::{Duration, Instant};

use lexstack::documents::testing::{Reply, brief_docx, brief_pdf, pdf_without_text, serve};
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, spawn_app, spawn_app_with};

async fn document_server() -> String {
    let addr = serve(|path| match path {
        "/brief.pdf" => Reply::Document {
            content_type: "application/pdf",
            body: brief_pdf(),
        },
        "/brief.docx" => Reply::Document {
            content_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            body: brief_docx(),
        },
        "/scan.pdf" => Reply::Document {
            content_type: "application/pdf",
            body: pdf_without_text(2),
        },
        "/page.html" => Reply::Document {
            content_type: "text/html",
            body: b"<html><body>Brown v. Board of Education, 347 U.S. 483</body></html>".to_vec(),
        },
        "/down.pdf" => Reply::Status(503),
        "/to-private.pdf" => Reply::Redirect("http://10.0.0.1/brief.pdf".into()),
        "/to-metadata.pdf" => Reply::Redirect("http://169.254.169.254/latest/meta-data/".into()),
        _ => Reply::Status(404),
    })
    .await;
    format!("http://{addr}")
}

async fn app_reading_loopback() -> TestApp {
    spawn_app_with(|config| {
        config.documents.allow_loopback_http_for_tests = true;
        config.jobs.retry_backoff_ms = 20;
        config.jobs.max_attempts = 2;
    })
    .await
}

/// Submits a URL and waits for the job to finish.
async fn verify_url(app: &TestApp, key: &str, url: &str) -> Value {
    let (status, accepted) = app
        .post("/v1/citations/verify", Some(key), json!({ "url": url }))
        .await;
    assert_eq!(status, 202, "{url}: {accepted}");
    let job_id = accepted["data"]["jobId"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, body) = app.get(&format!("/v1/jobs/{job_id}"), Some(key)).await;
        assert_eq!(status, 200, "{body}");
        if matches!(
            body["data"]["status"].as_str(),
            Some("completed" | "failed")
        ) {
            return body["data"].clone();
        }
        assert!(Instant::now() < deadline, "{url} did not finish");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn status_of<'a>(result: &'a Value, citation: &str) -> &'a Value {
    &result["citations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["citation"] == citation)
        .unwrap_or_else(|| panic!("{citation} not in {result}"))["status"]
}

#[tokio::test]
async fn a_pdf_and_a_docx_by_url_are_read_and_checked() {
    let app = app_reading_loopback().await;
    let (_, key) = app.create_key("10").await;
    let server = document_server().await;
    for url in [
        format!("{server}/brief.pdf"),
        format!("{server}/brief.docx"),
    ] {
        let job = verify_url(&app, &key, &url).await;
        assert_eq!(job["status"], "completed", "{url}: {job}");
        let result = &job["result"];
        assert_eq!(status_of(result, "347 U.S. 483"), "verified", "{url}");
        assert_eq!(status_of(result, "28 U.S.C. § 1331"), "verified", "{url}");
        assert_eq!(status_of(result, "Fed. R. Civ. P. 12"), "verified", "{url}");
    }
}

#[tokio::test]
async fn unreadable_and_unreachable_documents_fail_with_their_codes() {
    let app = app_reading_loopback().await;
    let (_, key) = app.create_key("10").await;
    let server = document_server().await;
    for (path, code) in [
        ("/page.html", "document_unreadable"),
        ("/scan.pdf", "document_unreadable"),
        ("/missing.pdf", "document_unreadable"),
        ("/down.pdf", "document_service_unavailable"),
        ("/to-private.pdf", "invalid_document_url"),
        ("/to-metadata.pdf", "invalid_document_url"),
    ] {
        let job = verify_url(&app, &key, &format!("{server}{path}")).await;
        assert_eq!(job["status"], "failed", "{path}: {job}");
        assert_eq!(job["error"]["code"], code, "{path}: {job}");
    }
    let balance = app.get("/v1/wallet", Some(&key)).await.1["data"]["balanceMicroUsd"].clone();
    assert_eq!(balance, 10_000_000, "failed jobs are not billed");
}

#[tokio::test]
async fn non_public_addresses_are_refused_before_anything_is_queued() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("1").await;
    let server = document_server().await;
    for url in [
        format!("{server}/brief.pdf"),
        "https://127.0.0.1/brief.pdf".to_string(),
        "https://10.0.0.5/brief.pdf".to_string(),
        "https://192.168.1.10/brief.pdf".to_string(),
        "https://100.64.0.1/brief.pdf".to_string(),
        "https://169.254.169.254/latest/meta-data/".to_string(),
        "https://[::1]/brief.pdf".to_string(),
        "https://[::ffff:127.0.0.1]/brief.pdf".to_string(),
        "https://[fd00:ec2::254]/".to_string(),
        "https://localhost/brief.pdf".to_string(),
        "https://2130706433/brief.pdf".to_string(),
        "ftp://example.com/brief.pdf".to_string(),
        "https://user:secret@example.com/brief.pdf".to_string(),
        "not a url".to_string(),
    ] {
        let (status, body) = app
            .post("/v1/citations/verify", Some(&key), json!({ "url": url }))
            .await;
        assert_error(status, &body, 400, "invalid_document_url");
    }
}

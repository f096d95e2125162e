//! Asynchronous verify: 202, polling, results equal to inline, ownership,
//! survival across a kill -9.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{
    TestApp, assert_error, copy_library, lexstack, read, spawn_app, spawn_app_with,
};

const CITATIONS: &str = "Brown v. Board of Education, 347 U.S. 483, 495 (1954). Smith v. Jones, 347 U.S. 490 (1954). \
42 U.S.C. § 1983. Fed. R. Civ. P. 99. Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019).";

/// A document over the inline limit: the citations, then plain prose.
fn long_document(chars: usize) -> String {
    let mut text = String::from(CITATIONS);
    while text.len() < chars {
        text.push_str(" The parties agree on the facts as stated in the record below.");
    }
    text
}

async fn poll(app: &TestApp, key: &str, job_id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let response = app
            .client
            .get(app.url(&format!("/v1/jobs/{job_id}")))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        let retry_after = response.headers().get("retry-after").cloned();
        let (status, body) = read(response).await;
        assert_eq!(status, 200, "{body}");
        match body["data"]["status"].as_str() {
            Some("completed" | "failed") => {
                assert!(retry_after.is_none(), "no polling advice once finished");
                return body["data"].clone();
            }
            Some("queued" | "running") => {
                assert_eq!(retry_after.unwrap(), "2", "every 2 s for the first 30 s");
            }
            other => panic!("unexpected status {other:?}"),
        }
        assert!(Instant::now() < deadline, "job did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn long_text_becomes_a_job_whose_result_equals_the_inline_answer() {
    let app = spawn_app().await;
    let (key_id, key) = app.create_key("10").await;
    let (status, inline) = app
        .post(
            "/v1/citations/verify",
            Some(&key),
            json!({ "text": CITATIONS }),
        )
        .await;
    assert_eq!(status, 200);

    let response = app
        .client
        .post(app.url("/v1/citations/verify"))
        .bearer_auth(&key)
        .header("X-Request-Id", "long-brief")
        .json(&json!({ "text": long_document(150_000) }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["retry-after"], "2");
    let (status, accepted) = read(response).await;
    assert_eq!(status, 202, "{accepted}");
    assert_eq!(accepted["data"]["status"], "queued");
    let job_id = accepted["data"]["jobId"].as_str().unwrap().to_string();

    let done = poll(&app, &key, &job_id).await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["citations"], inline["data"]["citations"]);
    assert_eq!(done["result"]["stats"], inline["data"]["stats"]);

    let charges = app.charges_for(&key_id, "long-brief").await;
    assert_eq!(
        charges.len(),
        1,
        "the job is billed under the request id that started it"
    );
    assert_eq!(charges[0]["units"], inline["data"]["stats"]["total"]);

    let (status, body) = app
        .post(
            "/v1/citations/verify",
            Some(&key),
            json!({ "text": CITATIONS }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let reused = app
        .client
        .post(app.url("/v1/citations/verify"))
        .bearer_auth(&key)
        .header("X-Request-Id", "long-brief")
        .json(&json!({ "text": long_document(150_000) }))
        .send()
        .await
        .unwrap();
    let (status, body) = read(reused).await;
    assert_error(status, &body, 409, "request_id_reused");
}

#[tokio::test]
async fn only_the_key_that_created_a_job_can_read_it() {
    let app = spawn_app().await;
    let (_, owner) = app.create_key("10").await;
    let (_, other) = app.create_key("10").await;
    let (_, accepted) = app
        .post(
            "/v1/citations/verify",
            Some(&owner),
            json!({ "text": long_document(120_000) }),
        )
        .await;
    let job_id = accepted["data"]["jobId"].as_str().unwrap();
    let (status, body) = app.get(&format!("/v1/jobs/{job_id}"), Some(&other)).await;
    assert_error(status, &body, 404, "not_found");
    let (status, body) = app.get("/v1/jobs/job_missing", Some(&owner)).await;
    assert_error(status, &body, 404, "not_found");
    let (status, body) = app.get(&format!("/v1/jobs/{job_id}"), None).await;
    assert_error(status, &body, 401, "unauthorized");
    poll(&app, &owner, job_id).await;
}

#[tokio::test]
async fn job_polling_has_its_own_bucket() {
    let app = spawn_app_with(|config| {
        config.rate_limits.verify = lexstack::ratelimit::BucketLimit {
            per_minute: 1,
            burst: 1,
        };
    })
    .await;
    let (_, key) = app.create_key("10").await;
    let (_, accepted) = app
        .post(
            "/v1/citations/verify",
            Some(&key),
            json!({ "text": long_document(120_000) }),
        )
        .await;
    let job_id = accepted["data"]["jobId"].as_str().unwrap();
    let (status, _) = app
        .post("/v1/citations/verify", Some(&key), json!({ "text": "x" }))
        .await;
    assert_eq!(status, 429, "the verify bucket is empty");
    assert_eq!(
        poll(&app, &key, job_id).await["status"],
        "completed",
        "polling still answers"
    );
}

#[tokio::test]
async fn a_disabled_queue_answers_503() {
    let app = spawn_app_with(|config| config.jobs.enabled = false).await;
    let (_, key) = app.create_key("1").await;
    let (status, body) = app
        .post(
            "/v1/citations/verify",
            Some(&key),
            json!({ "text": long_document(120_000) }),
        )
        .await;
    assert_error(status, &body, 503, "async_unavailable");
    let (status, body) = app
        .post(
            "/v1/citations/verify",
            Some(&key),
            json!({ "url": "https://example.com/brief.pdf" }),
        )
        .await;
    assert_error(status, &body, 503, "async_unavailable");
    let (status, _) = app
        .post(
            "/v1/citations/verify",
            Some(&key),
            json!({ "text": CITATIONS }),
        )
        .await;
    assert_eq!(status, 200, "inline verify does not need the queue");
}

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// The child is owned by `Server`, whose Drop waits for it.
#[allow(clippy::zombie_processes)]
fn start_server(data: &Path) -> Server {
    let _ = std::fs::remove_file(data.join("server.json"));
    let child = lexstack()
        .arg("--data")
        .arg(data)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(text) = std::fs::read_to_string(data.join("server.json"))
            && let Ok(info) = serde_json::from_str::<Value>(&text)
        {
            return Server {
                child,
                addr: info["addr"].as_str().unwrap().to_string(),
            };
        }
        assert!(Instant::now() < deadline, "server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test]
async fn queued_and_running_jobs_survive_a_kill_and_run_after_restart() {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let data = dir.path().to_path_buf();
    let key = tokio::task::spawn_blocking(move || {
        let output = lexstack()
            .arg("--data")
            .arg(&data)
            .args(["keys", "create", "--balance", "10"])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    })
    .await
    .unwrap();

    let mut server = start_server(dir.path());
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let document = long_document(400_000);
    let mut jobs = Vec::new();
    for n in 0..4 {
        let response = client
            .post(format!("http://{}/v1/citations/verify", server.addr))
            .bearer_auth(&key)
            .header("X-Request-Id", format!("job-{n}"))
            .json(&json!({ "text": document }))
            .send()
            .await
            .unwrap();
        let (status, body) = read(response).await;
        assert_eq!(status, 202, "{body}");
        jobs.push(body["data"]["jobId"].as_str().unwrap().to_string());
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let server = start_server(dir.path());
    let app_url = format!("http://{}", server.addr);
    for job_id in &jobs {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let response = client
                .get(format!("{app_url}/v1/jobs/{job_id}"))
                .bearer_auth(&key)
                .send()
                .await
                .unwrap();
            let (status, body) = read(response).await;
            assert_eq!(status, 200, "{body}");
            if body["data"]["status"] == "completed" {
                break;
            }
            assert_ne!(body["data"]["status"], "failed", "{body}");
            assert!(
                Instant::now() < deadline,
                "{job_id} did not finish after the restart"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let (_, wallet) = read(
        client
            .get(format!("{app_url}/v1/wallet?limit=20"))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap(),
    )
    .await;
    let charges: Vec<&Value> = wallet["data"]["ledger"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "charge")
        .collect();
    assert_eq!(charges.len(), 4, "each job billed exactly once: {wallet}");
}

#[test]
fn finished_jobs_are_swept_after_their_retention() {
    use lexstack::jobs::Jobs;
    use lexstack::jobs::queue::{self, JobWork};
    let dir = tempfile::tempdir().unwrap();
    let store = lexstack::store::Store::open(dir.path()).unwrap();
    let jobs = Jobs::new(store.clone(), lexstack::jobs::JobSettings::default());
    let work = JobWork::Verify {
        url: None,
        country: "US".into(),
    };
    let job = jobs
        .submit("key_1", "r1", work.clone(), Some("text"))
        .unwrap()
        .unwrap();
    let pending = jobs
        .submit("key_1", "r2", work, Some("text"))
        .unwrap()
        .unwrap();
    queue::finish(&store, &job.id, 0, Ok(json!({}))).unwrap();
    assert_eq!(jobs.sweep().unwrap(), 1, "finished long ago");
    assert!(jobs.get_for(&job.id, "key_1").unwrap().is_none());
    assert!(
        jobs.get_for(&pending.id, "key_1").unwrap().is_some(),
        "queued jobs are kept"
    );
}

#[tokio::test]
async fn requests_sent_at_once_with_one_request_id_start_one_job() {
    let app = spawn_app().await;
    let (key_id, key) = app.create_key("10").await;
    let body = json!({ "text": long_document(150_000) });
    let sends = (0..8).map(|_| {
        app.client
            .post(app.url("/v1/citations/verify"))
            .bearer_auth(&key)
            .header("X-Request-Id", "same-brief")
            .json(&body)
            .send()
    });
    let mut accepted = Vec::new();
    for response in futures_util::future::join_all(sends).await {
        let (status, body) = read(response.unwrap()).await;
        if status == 202 {
            accepted.push(body["data"]["jobId"].as_str().unwrap().to_string());
        } else {
            assert_error(status, &body, 409, "request_id_reused");
        }
    }
    assert_eq!(accepted.len(), 1, "one job for one request id");
    assert_eq!(poll(&app, &key, &accepted[0]).await["status"], "completed");
    assert_eq!(app.charges_for(&key_id, "same-brief").await.len(), 1);
}

/// The end state of an inline verify and a job sent at once with one request
/// id, the inline one billed first: the job must not complete unbilled.
#[tokio::test]
async fn a_job_whose_request_id_another_request_billed_fails_without_its_result() {
    use lexstack::billing::{BilledItem, Billing, Charge};
    use lexstack::jobs::queue::JobWork;
    use lexstack::jobs::{JobSettings, Jobs};

    let app = spawn_app().await;
    let (key_id, key) = app.create_key("10").await;
    let dir = app.stop().await;
    let job = {
        let store = lexstack::store::Store::open(dir.path()).unwrap();
        let work = JobWork::Verify {
            url: None,
            country: "US".into(),
        };
        let job = Jobs::new(store.clone(), JobSettings::default())
            .submit(&key_id, "raced", work, Some(&long_document(150_000)))
            .unwrap()
            .unwrap();
        let billing = Billing::start(store);
        billing
            .charge(Charge {
                key_id: key_id.clone(),
                endpoint: lexstack::jobs::worker::VERIFY_ENDPOINT.into(),
                request_id: "raced".into(),
                item: BilledItem::CitationsVerify,
                units: 2,
            })
            .await
            .unwrap();
        billing.shutdown();
        job
    };

    let app = crate::helpers::spawn_app_in(dir, |_| {}).await;
    let done = poll(&app, &key, &job.id).await;
    assert_eq!(done["status"], "failed", "{done}");
    assert_eq!(done["error"]["code"], "request_id_reused");
    assert!(done.get("result").is_none_or(Value::is_null), "{done}");
    let charges = app.charges_for(&key_id, "raced").await;
    assert_eq!(charges.len(), 1, "{charges:?}");
    assert_eq!(charges[0]["units"], 2, "only the inline request's charge");
}

use std::path::Path;

use serde_json::json;

use crate::helpers::{
    TestApp, assert_error, copy_library, cut_short, read, spawn_app, spawn_app_in, test_config,
    zero_pages,
};

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

/// Supreme Court citations across the default library's volumes.
const SPREAD: [(u32, u32); 21] = [
    (347, 483),
    (410, 113),
    (384, 436),
    (376, 254),
    (531, 98),
    (539, 558),
    (554, 570),
    (576, 644),
    (597, 215),
    (300, 379),
    (323, 214),
    (367, 1),
    (393, 503),
    (418, 683),
    (442, 200),
    (467, 886),
    (505, 833),
    (530, 914),
    (551, 393),
    (558, 310),
    (570, 555),
];

/// Resolves each citation in a request of its own (ids `tag`-0, `tag`-1,
/// …); every answer is 200 or 503 `service_unavailable`, never a 500.
/// Returns the request ids of the 503s, after checking that none was
/// charged.
async fn resolve_each(
    app: &TestApp,
    key: (&str, &str),
    tag: &str,
    citations: &[String],
) -> Vec<String> {
    resolve_each_in_mode(app, key, tag, citations, "exact").await
}

/// [`resolve_each`] in a search mode ("lenient" also looks up bare case
/// names in the search index).
async fn resolve_each_in_mode(
    app: &TestApp,
    (key_id, key): (&str, &str),
    tag: &str,
    citations: &[String],
    search_mode: &str,
) -> Vec<String> {
    let mut unavailable = Vec::new();
    for (n, citation) in citations.iter().enumerate() {
        let request_id = format!("{tag}-{n}");
        let response = app
            .client
            .post(app.url("/v1/citations/resolve"))
            .bearer_auth(key)
            .header("X-Request-Id", &request_id)
            .json(&json!({ "citations": [citation], "searchMode": search_mode }))
            .send()
            .await
            .unwrap();
        let (status, body) = read(response).await;
        if status != 200 {
            assert_error(status, &body, 503, "service_unavailable");
            unavailable.push(request_id);
        }
    }
    for request_id in &unavailable {
        assert!(app.charges_for(key_id, request_id).await.is_empty());
    }
    unavailable
}

fn spread() -> Vec<String> {
    SPREAD
        .iter()
        .map(|(volume, page)| format!("{volume} U.S. {page}"))
        .collect()
}

/// A library file damaged on disk after the server opened it: redb panics on
/// a page that does not hold what it wrote. Every request that meets such a
/// page is 503 `service_unavailable`, never a 500, charges nothing, and
/// readiness then says the library is not usable.
#[tokio::test]
async fn a_library_damaged_on_disk_is_unavailable_not_an_internal_error() {
    let app = spawn_app().await;
    let (key_id, key) = app.create_key("10").await;
    // Past the pages opening read, so no lookup finds its pages in redb's
    // cache.
    zero_pages(&app.data_dir().join("library.redb"), 0.05, 1.0);

    let unavailable = resolve_each(&app, (&key_id, &key), "zeroed", &spread()).await;
    assert!(!unavailable.is_empty(), "no lookup met a zeroed page");
    let (status, body) = app.get("/v1/health/ready", None).await;
    assert_error(status, &body, 503, "not_ready");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("library")
    );
}

/// Applies `damage` to each file of the running server's search index
/// whose name ends in `.extension`.
fn damage_index_files(app: &TestApp, extension: &str, damage: impl Fn(&Path)) {
    for entry in std::fs::read_dir(app.data_dir().join("index")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == extension) {
            damage(&path);
        }
    }
}

/// A search index damaged on disk after the server opened it: tantivy
/// panics on some postings that do not hold what it wrote and reports
/// others as I/O errors. A check that searches names answers 503
/// `service_unavailable` on either, never a 500, charges nothing, and
/// readiness then says the library is not usable.
#[tokio::test]
async fn a_search_index_damaged_on_disk_is_unavailable_not_an_internal_error() {
    let app = spawn_app().await;
    let (key_id, key) = app.create_key("10").await;
    let (status, _) = app.get("/v1/health/ready", None).await;
    assert_eq!(status, 200);
    damage_index_files(&app, "idx", |file| zero_pages(file, 0.0, 1.0));

    let names: Vec<String> = [
        "Miranda v. Arizona",
        "Marbury v. Madison",
        "Gideon v. Wainwright",
        "Mapp v. Ohio",
    ]
    .map(String::from)
    .to_vec();
    let unavailable = resolve_each_in_mode(&app, (&key_id, &key), "index", &names, "lenient").await;
    assert!(!unavailable.is_empty(), "no search met a zeroed posting");
    let (status, body) = app.get("/v1/health/ready", None).await;
    assert_error(status, &body, 503, "not_ready");
}

/// A search index file cut short under a running server (a search that
/// read past its new end would kill the process: SIGBUS on the mapped
/// file), or written over with zeros (its terms would read as none, every
/// name search finding nothing): searches check the files first and answer
/// 503.
#[tokio::test]
async fn a_search_index_file_cut_short_or_zeroed_is_unavailable_not_a_crash() {
    let cut: fn(&Path) = |file| cut_short(file, 1_000_000);
    let zeroed: fn(&Path) = |file| zero_pages(file, 0.0, 1.0);
    for damage in [cut, zeroed] {
        let app = spawn_app().await;
        let (key_id, key) = app.create_key("10").await;
        damage_index_files(&app, "term", damage);
        // Past the interval at which searches check, so the next one does.
        tokio::time::sleep(2 * lexstack::library::index::MAPPED_FILES_CHECKED_EVERY).await;

        let names = vec!["Miranda v. Arizona".to_string()];
        let unavailable =
            resolve_each_in_mode(&app, (&key_id, &key), "damaged", &names, "lenient").await;
        assert_eq!(unavailable.len(), 1);
        let (status, body) = app.get("/v1/health/ready", None).await;
        assert_error(status, &body, 503, "not_ready");
    }
}

/// A record whose bytes were changed on disk so that it no longer decodes
/// (readiness then says so), and a file cut short under the server (after
/// which redb refuses every read until the file is opened again): 503,
/// never a 500.
#[tokio::test]
async fn a_record_that_does_not_decode_and_a_file_cut_short_are_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    let store = dir.path().join("library.redb");
    let mut bytes = std::fs::read(&store).unwrap();
    let name = b"ROE et al. v. WADE";
    let at = bytes
        .windows(name.len())
        .position(|window| window == name)
        .expect("Roe v. Wade's record");
    bytes[at + 1] = 0xff;
    std::fs::write(&store, bytes).unwrap();
    let app = spawn_app_in(dir, |_| {}).await;
    let (key_id, key) = app.create_key("10").await;
    let roe_cite = "410 U.S. 113".to_string();
    let roe = resolve_each(
        &app,
        (&key_id, &key),
        "roe",
        std::slice::from_ref(&roe_cite),
    )
    .await;
    assert_eq!(roe.len(), 1, "Roe's record decoded");
    let (status, body) = app.get("/v1/health/ready", None).await;
    assert_error(status, &body, 503, "not_ready");

    // Roe's record left out, so that only the cut can make a 503.
    cut_short(&store, 4);
    let others: Vec<String> = spread().into_iter().filter(|c| *c != roe_cite).collect();
    let unavailable = resolve_each(&app, (&key_id, &key), "cut", &others).await;
    assert!(!unavailable.is_empty(), "no lookup read past the cut");
}

/// A library damaged before the server starts stops the start with what to
/// do, whether redb reports the damage or panics on it while opening.
#[tokio::test]
async fn a_library_damaged_before_start_is_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    copy_library(dir.path());
    zero_pages(&dir.path().join("library.redb"), 0.02, 1.0);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let error = lexstack::app::App::build(test_config(dir.path()), listener)
        .await
        .err()
        .expect("a damaged library");
    let message = error.to_string();
    assert!(message.contains("library.redb is damaged"), "{message}");
    assert!(message.contains("lexstack library build"), "{message}");
}

//! The test harness: a real server on 127.0.0.1:0 over a real store in a
//! temporary directory, talked to over HTTP.

use std::io::{Seek, SeekFrom, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use lexstack::app::App;
use lexstack::config::Config;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    pub dir: TempDir,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
}

/// The embedded default library, built once per build of the tests and
/// copied into each test's data directory. It lives under cargo's target
/// directory, named after the test binary: a temporary directory held in a
/// static is never dropped, so one per run was left behind in /tmp.
fn library_template() -> &'static Path {
    static TEMPLATE: OnceLock<PathBuf> = OnceLock::new();
    TEMPLATE.get_or_init(build_library_template)
}

fn build_library_template() -> PathBuf {
    const PREFIX: &str = "library-template-";
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let template = root.join(format!("{PREFIX}{}", test_build_id()));
    if template.join("library.redb").exists() {
        return template;
    }
    let staging = tempfile::tempdir_in(root).expect("temp dir");
    lexstack::library::Library::open_with_default(staging.path()).expect("default library builds");
    // Renamed whole, so a template that exists is complete; another run
    // that got there first leaves this copy to be dropped.
    if std::fs::rename(staging.path(), &template).is_ok() {
        let _ = staging.keep();
    }
    for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let stale = name.to_string_lossy().starts_with(PREFIX) && entry.path() != template;
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    template
}

/// Tells builds of the test binary apart: its size and modification time.
fn test_build_id() -> String {
    let exe = std::env::current_exe().expect("test binary");
    let meta = std::fs::metadata(exe).expect("test binary metadata");
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{:x}-{modified:x}", meta.len())
}

/// Gives a data directory a copy of the default library.
pub fn copy_library(into: &Path) {
    let template = library_template();
    std::fs::create_dir_all(into.join("index")).expect("index dir");
    std::fs::copy(template.join("library.redb"), into.join("library.redb")).expect("copy library");
    for entry in std::fs::read_dir(template.join("index")).expect("template index") {
        let entry = entry.expect("index entry");
        std::fs::copy(entry.path(), into.join("index").join(entry.file_name()))
            .expect("copy index");
    }
}

/// Settings every test server shares: cheap password hashing.
pub fn test_config(data_dir: &Path) -> Config {
    let mut config = Config::for_data_dir(data_dir);
    config.passwords.memory_kib = 1024;
    config.passwords.iterations = 1;
    config
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    spawn_app_in(dir, adjust).await
}

/// Starts a server over an existing data directory (to test restarts).
pub async fn spawn_app_in(dir: TempDir, adjust: impl FnOnce(&mut Config)) -> TestApp {
    if !dir.path().join("library.redb").exists() {
        copy_library(dir.path());
    }
    let mut config = test_config(dir.path());
    adjust(&mut config);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let app = App::build(config, listener).await.expect("app builds");
    let addr = app.local_addr();
    let (shutdown, stop) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        app.run(async {
            let _ = stop.await;
        })
        .await
        .expect("server runs");
    });
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    TestApp {
        addr,
        client,
        dir,
        shutdown: Some(shutdown),
        server: Some(server),
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    fn admin_token_path(&self) -> PathBuf {
        self.dir.path().join("admin.token")
    }

    /// Stops the server gracefully and hands back its data directory.
    pub async fn stop(mut self) -> TempDir {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(server) = self.server.take() {
            server.await.expect("server task");
        }
        let dir = tempfile::tempdir().expect("temp dir");
        std::mem::replace(&mut self.dir, dir)
    }

    /// Creates an API key through the admin endpoint; returns (key id, secret).
    pub async fn create_key(&self, balance_usd: &str) -> (String, String) {
        let body = self
            .admin(
                Method::POST,
                "/admin/keys",
                Some(json!({ "balanceUsd": balance_usd })),
            )
            .await;
        (
            body["apiKey"]["keyId"]
                .as_str()
                .expect("key id")
                .to_string(),
            body["key"].as_str().expect("secret").to_string(),
        )
    }

    /// Calls an admin endpoint with the token the server wrote; asserts 2xx.
    pub async fn admin(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        let token = std::fs::read_to_string(self.admin_token_path()).expect("admin token");
        let mut request = self
            .client
            .request(method, self.url(path))
            .bearer_auth(token.trim());
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("admin request");
        let status = response.status();
        let body: Value = response.json().await.expect("json");
        assert!(
            status.is_success(),
            "admin call {path} failed: {status} {body}"
        );
        body
    }

    /// A key's wallet and its newest ledger entries, as the operator sees them.
    pub async fn wallet(&self, key_id: &str) -> Value {
        self.admin(Method::GET, &format!("/admin/wallets/{key_id}"), None)
            .await
    }

    /// The ledger entries billed under one request id.
    pub async fn charges_for(&self, key_id: &str, request_id: &str) -> Vec<Value> {
        let wallet = self.wallet(key_id).await;
        wallet["ledger"]
            .as_array()
            .expect("ledger")
            .iter()
            .filter(|e| e["requestId"] == request_id)
            .cloned()
            .collect()
    }

    pub async fn get(&self, path: &str, key: Option<&str>) -> (StatusCode, Value) {
        let mut request = self.client.get(self.url(path));
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        read(request.send().await.expect("request")).await
    }

    pub async fn post(&self, path: &str, key: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut request = self.client.post(self.url(path)).json(&body);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        read(request.send().await.expect("request")).await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

pub async fn read(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, body)
}

/// Asserts the error envelope: status, code, and a request id.
pub fn assert_error(status: StatusCode, body: &Value, want_status: u16, want_code: &str) {
    assert_eq!(status.as_u16(), want_status, "body: {body}");
    assert_eq!(body["error"]["code"], want_code, "body: {body}");
    assert!(
        body["error"]["requestId"]
            .as_str()
            .is_some_and(|id| !id.is_empty()),
        "error without requestId: {body}"
    );
    assert!(
        body["error"]["message"].is_string(),
        "error without message: {body}"
    );
}

/// The compiled binary, for CLI and crash tests.
pub fn lexstack() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lexstack"));
    command
        .env_remove("LEXSTACK_DATA")
        .env_remove("LEXSTACK_CONFIG");
    command
}

/// The CLI on the data directory `data`.
pub fn lexstack_on(data: &Path) -> Command {
    let mut command = lexstack();
    command.arg("--data").arg(data);
    command
}

/// Writes zeros over the pages between two fractions of a file.
pub fn zero_pages(path: &Path, from: f64, to: f64) {
    const PAGE: u64 = 4096;
    let size = std::fs::metadata(path).unwrap().len() as f64;
    let start = (size * from) as u64 / PAGE * PAGE;
    let end = (size * to) as u64 / PAGE * PAGE;
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start(start)).unwrap();
    file.write_all(&vec![0; (end - start) as usize]).unwrap();
    file.sync_all().unwrap();
}

/// Cuts a file short to its length divided by `divisor`.
pub fn cut_short(path: &Path, divisor: u64) {
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_len(file.metadata().unwrap().len() / divisor)
        .unwrap();
}

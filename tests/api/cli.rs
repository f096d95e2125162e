//! The operator CLI against a stopped store and against a running server.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::helpers::{lexstack, lexstack_on, read, spawn_app};

fn run(data: &Path, args: &[&str]) -> Output {
    let output = lexstack_on(data).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "lexstack {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn keys_json(data: &Path) -> Vec<Value> {
    serde_json::from_str(&stdout(&run(data, &["keys", "list", "--json"]))).unwrap()
}

#[test]
fn key_and_wallet_commands_work_on_a_stopped_store() {
    let dir = tempfile::tempdir().unwrap();
    let created = run(
        dir.path(),
        &["keys", "create", "--balance", "5", "--label", "firm"],
    );
    let secret = stdout(&created);
    assert!(secret.starts_with("lsk_") && secret.ends_with('\n'));
    assert_eq!(
        secret.lines().count(),
        1,
        "only the key on stdout: {secret:?}"
    );

    let keys = keys_json(dir.path());
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["label"], "firm");
    assert_eq!(keys[0]["balanceUsd"], "5.000000");
    let key_id = keys[0]["keyId"].as_str().unwrap().to_string();

    let topped = stdout(&run(dir.path(), &["wallet", "topup", &key_id, "1.5"]));
    assert!(topped.contains("6.500000"), "{topped}");
    let wallet: Value = serde_json::from_str(&stdout(&run(
        dir.path(),
        &["wallet", "show", &key_id, "--json"],
    )))
    .unwrap();
    assert_eq!(wallet["balanceMicroUsd"], 6_500_000);
    assert_eq!(wallet["ledger"].as_array().unwrap().len(), 2);

    run(dir.path(), &["keys", "revoke", &key_id]);
    assert_eq!(keys_json(dir.path())[0]["active"], false);
    let table = stdout(&run(dir.path(), &["keys", "list"]));
    assert!(table.contains("revoked"), "{table}");
}

/// Pages of the store of keys and wallets zeroed (redb panics on them):
/// the key commands and the server name the file, with what to do, where
/// they printed a panic.
#[test]
fn a_damaged_store_of_keys_is_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let key = stdout(&run(dir.path(), &["keys", "create", "--balance", "5"]));
    assert!(key.starts_with("lsk_"), "{key}");
    // The pages after the header, as `dd bs=4096 seek=1 count=8` zeroes
    // them.
    let mut store = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.path().join("lexstack.redb"))
        .unwrap();
    std::io::Seek::seek(&mut store, std::io::SeekFrom::Start(4096)).unwrap();
    std::io::Write::write_all(&mut store, &[0; 8 * 4096]).unwrap();
    for args in [
        &["keys", "list"][..],
        &["wallet", "show", "lsk_none"],
        &["serve", "--addr", "127.0.0.1:0"],
    ] {
        let output = lexstack_on(dir.path()).args(args).output().unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {said}");
        assert!(
            said.contains("lexstack.redb is damaged: restore it from a backup"),
            "{args:?}: {said}"
        );
    }
}

/// A missing search index or a store file cut short is named, with what
/// to do, not left as a bare I/O error.
#[test]
fn a_damaged_library_is_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let fails = |args: &[&str]| {
        let output = lexstack_on(dir.path()).args(args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let index = dir.path().join("index");
    let aside = dir.path().join("index-aside");
    std::fs::rename(&index, &aside).unwrap();
    // Each command it names acts on this data directory when pasted.
    let build_here = format!("`lexstack library build --data {}`", dir.path().display());
    let said = fails(&["library", "search", "Miranda"]);
    assert!(
        said.contains("there is no search index in") && said.contains(&build_here),
        "{said}"
    );
    std::fs::rename(&aside, &index).unwrap();

    let store = dir.path().join("library.redb");
    crate::helpers::cut_short(&store, 2);
    for command in [
        &["library", "status"][..],
        &["serve", "--addr", "127.0.0.1:0"],
    ] {
        let said = fails(command);
        assert!(
            said.contains("library.redb is damaged: move it aside and run")
                && said.contains(&build_here),
            "{command:?}: {said}"
        );
    }

    // Pages zeroed in the middle, where redb panics rather than errs.
    std::fs::remove_file(&store).unwrap();
    crate::helpers::copy_library(dir.path());
    crate::helpers::zero_pages(&store, 0.3, 0.6);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/courtlistener");
    let said = fails(&["import", "courtlistener", fixtures.to_str().unwrap()]);
    assert!(
        said.contains("library.redb is damaged: move it aside"),
        "{said}"
    );
}

#[test]
fn cli_errors_are_reported_not_panicked() {
    let dir = tempfile::tempdir().unwrap();
    let missing = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["wallet", "show", "key_nope"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no lexstack store"));

    // A mistyped import path is reported before anything is built.
    let fresh = dir.path().join("fresh");
    let mistyped = lexstack()
        .arg("--data")
        .arg(&fresh)
        .args(["import", "cap", "/no/such/cap/dir"])
        .output()
        .unwrap();
    assert!(!mistyped.status.success());
    let stderr = String::from_utf8_lossy(&mistyped.stderr);
    assert!(stderr.contains("/no/such/cap/dir"), "{stderr}");
    assert!(!fresh.exists(), "no library was built for it");

    // A data directory that is a file is named as such.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let output = lexstack()
        .arg("--data")
        .arg(&file)
        .args(["library", "status"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is a file, not a directory"), "{stderr}");

    run(dir.path(), &["keys", "create"]);
    for args in [
        vec!["wallet", "show", "key_nope"],
        vec!["wallet", "topup", "key_nope", "1"],
        vec!["keys", "revoke", "key_nope"],
        vec!["keys", "create", "--balance", "ten"],
        vec!["library", "search", "x", "--kind", "bogus"],
    ] {
        let output = lexstack()
            .arg("--data")
            .arg(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?} should fail");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[tokio::test]
async fn key_commands_go_through_a_running_server() {
    let app = spawn_app().await;
    let data = app.data_dir();
    let secret = tokio::task::spawn_blocking({
        let data = data.clone();
        move || stdout(&run(&data, &["keys", "create", "--balance", "2"]))
    })
    .await
    .unwrap();
    let (status, body) = app.get("/v1/wallet", Some(secret.trim())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["balanceMicroUsd"], 2_000_000);
    let key_id = body["data"]["keyId"].as_str().unwrap().to_string();

    let shown = tokio::task::spawn_blocking({
        let data = data.clone();
        let key_id = key_id.clone();
        move || {
            run(&data, &["wallet", "topup", &key_id, "3"]);
            run(&data, &["keys", "revoke", &key_id]);
            stdout(&run(&data, &["wallet", "show", &key_id]))
        }
    })
    .await
    .unwrap();
    assert!(shown.contains("5.000000"), "{shown}");
    let (status, _) = app.get("/v1/wallet", Some(secret.trim())).await;
    assert_eq!(status, 401, "revoked through the server");

    // The operator's verify links to the running server's case pages.
    let brief = data.join("brief.txt");
    std::fs::write(&brief, "Brown v. Board of Education, 347 U.S. 483 (1954).").unwrap();
    let verified = tokio::task::spawn_blocking(move || {
        stdout(&run(&data, &["library", "verify", brief.to_str().unwrap()]))
    })
    .await
    .unwrap();
    assert!(
        verified.contains(&format!("http://{}/library/cases/", app.addr)),
        "{verified}"
    );
}

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    /// Kills the server and returns what it logged.
    fn stop_and_read_log(&mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut log = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            stderr.read_to_string(&mut log).unwrap();
        }
        log
    }
}

/// A failing test must not leave a server running.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `lexstack serve` on a free port with a copy of the default
/// library, and waits for its `server.json`.
fn start_server(data: &Path) -> Server {
    crate::helpers::copy_library(data);
    serve_on(data)
}

/// Starts `lexstack serve` on the library `data` holds.
// The child is owned by `Server`, whose Drop waits for it.
#[allow(clippy::zombie_processes)]
fn serve_on(data: &Path) -> Server {
    let child = lexstack()
        .arg("--data")
        .arg(data)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(text) = std::fs::read_to_string(data.join("server.json"))
            && let Ok(info) = serde_json::from_str::<Value>(&text)
        {
            let addr = info["addr"].as_str().unwrap().to_string();
            return Server { child, addr };
        }
        if Instant::now() > deadline {
            drop(Server {
                child,
                addr: String::new(),
            });
            panic!("server did not start");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A server started while an import holds the library (this test's own
/// process stands in for it) waits, and serves once the library is free.
#[test]
fn serve_waits_for_an_import_that_holds_the_library() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let held = lexstack::library::Library::open(dir.path()).unwrap();
    let started = Instant::now();
    let releases = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1_500));
        drop(held);
    });
    let mut server = serve_on(dir.path());
    releases.join().unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(1_500),
        "server.json is written once the library is open"
    );
    let log = server.stop_and_read_log();
    assert!(
        log.contains("is open in another lexstack process (an import or a library build); waiting for it to finish"),
        "{log}"
    );
}

/// A server started on a library an import did not finish says so in its
/// log: it serves what the import stored, not the rest.
#[test]
fn serve_warns_of_an_unfinished_import() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let legacy = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cap/legacy.jsonl");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &std::fs::read(legacy).unwrap().repeat(20)).unwrap();
    let whole = gz.finish().unwrap();
    let input = tempfile::tempdir().unwrap();
    let cut = input.path().join("cases.jsonl.gz");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let stopped = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["import", "cap", "--partial"])
        .arg(&cut)
        .output()
        .unwrap();
    assert!(!stopped.status.success());

    let mut server = serve_on(dir.path());
    let log = server.stop_and_read_log();
    assert!(
        log.contains("an import of the library did not finish") && log.contains("cases.jsonl.gz"),
        "{log}"
    );
}

/// Waits for the file a server writes while it waits for the library of
/// `data`; returns its path.
fn wait_until_a_server_waits(data: &Path) -> std::path::PathBuf {
    let waiting = data.join("server-waiting.json");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !waiting.exists() {
        assert!(
            Instant::now() < deadline,
            "the server did not start waiting"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    waiting
}

/// While a server waits for an import, it holds its store: the key
/// commands say so at once, where they waited a minute for an answer and
/// then blamed `server.json`. Once the library is free, they reach it.
#[test]
fn key_commands_say_a_server_waits_for_an_import() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let held = lexstack::library::Library::open(dir.path()).unwrap();
    let server = std::thread::spawn({
        let data = dir.path().to_path_buf();
        move || serve_on(&data)
    });
    let waiting = wait_until_a_server_waits(dir.path());
    let refused = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["keys", "list"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("that is waiting for an import or a library build to finish"),
        "{stderr}"
    );

    drop(held);
    let _server = server.join().unwrap();
    assert!(!waiting.exists());
    stdout(&run(dir.path(), &["keys", "list"]));
}

/// While a server opens its library (here held by another process, as an
/// import holds it), it answers every request 503 `not_ready` at once, with
/// Retry-After, rather than leave the client on a queued connection; then
/// it serves.
#[tokio::test]
async fn a_server_waiting_for_its_library_answers_not_ready_at_once() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let held = lexstack::library::Library::open(dir.path()).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = lexstack_on(dir.path())
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server {
        child,
        addr: format!("127.0.0.1:{port}"),
    };
    wait_until_a_server_waits(dir.path());
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let health = format!("http://{}/v1/health", server.addr);
    let response = client.get(&health).send().await.unwrap();
    assert_eq!(response.headers()["retry-after"], "5");
    let (status, body) = read(response).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "not_ready", "{body}");
    let response = client
        .post(format!("http://{}/v1/citations/verify", server.addr))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);

    drop(held);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let response = client.get(&health).send().await.unwrap();
        if response.status() == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn serve_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = start_server(dir.path());
    let data = dir.path().to_path_buf();
    let secret = tokio::task::spawn_blocking(move || {
        stdout(&run(&data, &["keys", "create", "--balance", "1"]))
    })
    .await
    .unwrap();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let response = client
        .get(format!("http://{}/v1/wallet", server.addr))
        .bearer_auth(secret.trim())
        .send()
        .await
        .unwrap();
    let (status, _) = read(response).await;
    assert_eq!(status, 200);

    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "exit status {status}");
    let mut log = String::new();
    for line in BufReader::new(server.child.stderr.take().unwrap()).lines() {
        log.push_str(&line.unwrap());
        log.push('\n');
    }
    assert!(log.contains("listening on http://127.0.0.1:"), "{log}");
    assert!(log.contains("lexstack keys create"), "{log}");
    assert!(log.contains("store closed"), "{log}");
    assert!(!dir.path().join("server.json").exists());
    assert!(!dir.path().join("admin.token").exists());
    assert_eq!(keys_json(dir.path()).len(), 1, "the store opens again");
}

#[test]
fn a_killed_server_leaves_the_cli_working() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = start_server(dir.path());
    run(dir.path(), &["keys", "create", "--label", "before"]);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    assert!(
        dir.path().join("server.json").exists(),
        "left behind by kill -9"
    );
    let keys = keys_json(dir.path());
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["label"], "before");

    // Another directory's server now answers at the address the killed one
    // left: its file's process is gone, so this directory's store is opened.
    let other = tempfile::tempdir().unwrap();
    let other_server = start_server(other.path());
    let info_path = dir.path().join("server.json");
    let mut info: Value =
        serde_json::from_str(&std::fs::read_to_string(&info_path).unwrap()).unwrap();
    info["addr"] = Value::String(other_server.addr.clone());
    std::fs::write(&info_path, info.to_string()).unwrap();
    assert_eq!(keys_json(dir.path()).len(), 1);

    // When the file's process id is alive again (here: this test's), the
    // other server is asked, and its refusal says what happened.
    info["pid"] = Value::from(std::process::id());
    std::fs::write(&info_path, info.to_string()).unwrap();
    let output = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["keys", "list"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("not this data directory's server") && stderr.contains("server.json"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn the_admin_token_is_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    let app = spawn_app().await;
    let mode = std::fs::metadata(app.data_dir().join("admin.token"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn the_data_directory_comes_from_env_or_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let from_env = dir.path().join("env");
    let output = lexstack()
        .env("LEXSTACK_DATA", &from_env)
        .args(["keys", "create"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(from_env.join("lexstack.redb").exists());

    let from_file = dir.path().join("file");
    let config = dir.path().join("lexstack.toml");
    std::fs::write(
        &config,
        format!("data = {:?}\n", from_file.to_str().unwrap()),
    )
    .unwrap();
    let output = lexstack()
        .arg("--config")
        .arg(&config)
        .args(["keys", "create"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(from_file.join("lexstack.redb").exists());
}

#[test]
fn a_jsonl_line_that_is_not_utf8_is_named() {
    let mut child = lexstack()
        .args(["cite", "extract", "--jsonl"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        b"{\"id\":1,\"text\":\"347 U.S. 483\"}\n{\"id\":2,\"text\":\"\xff\"}\n",
    )
    .unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 2"), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("\"id\":1"));
}

#[test]
fn library_build_rebuilds_a_removed_search_index() {
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    std::fs::remove_dir_all(dir.path().join("index")).unwrap();
    let built = stdout(&run(dir.path(), &["library", "build"]));
    assert!(built.contains("indexed"), "{built}");
    let found = stdout(&run(
        dir.path(),
        &["library", "search", "Brown v. Board", "--limit", "1"],
    ));
    assert!(found.contains("scdb-1953-069"), "{found}");
    // Hits are in their order; a relevance beside it would contradict it.
    assert!(!found.contains("\"score\""), "{found}");
    // A citation starting with a dash is a citation, not an option.
    let odd = stdout(&run(dir.path(), &["library", "lookup", "-1 U.S. 5"]));
    assert!(odd.contains("\"query\": \"-1 U.S. 5\""), "{odd}");
    // Typed without quotes, the words are one citation or query, and the
    // options after them are still options.
    let unquoted = stdout(&run(
        dir.path(),
        &["library", "lookup", "347", "U.S.", "483"],
    ));
    assert!(
        unquoted.contains("\"query\": \"347 U.S. 483\""),
        "{unquoted}"
    );
    assert!(unquoted.contains("scdb-1953-069"), "{unquoted}");
    let found = stdout(&run(
        dir.path(),
        &["library", "search", "Brown", "v.", "Board", "--limit", "1"],
    ));
    assert!(found.contains("scdb-1953-069"), "{found}");
    for empty in [["lookup", " "], ["search", ""]] {
        let output = lexstack_on(dir.path())
            .arg("library")
            .args(empty)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{empty:?}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains("is empty"), "{said}");
    }
}

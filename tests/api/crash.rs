//! kill -9 during concurrent charges: every acknowledged charge survives and
//! the ledger sums exactly to the balance change.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

use lexstack::billing::Billing;
use lexstack::billing::ledger::EntryKind;
use lexstack::store::Store;

use crate::helpers::lexstack;

const OPENING_MICROS: i64 = 1_000_000_000;

#[test]
fn acknowledged_charges_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let created = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args(["keys", "create", "--balance", "1000"])
        .output()
        .unwrap();
    assert!(created.status.success());
    let key_id = {
        let store = Store::open(dir.path()).unwrap();
        lexstack::accounts::keys::list(&store, None).unwrap()[0]
            .key_id
            .clone()
    };

    let mut child = lexstack()
        .arg("--data")
        .arg(dir.path())
        .args([
            "dev",
            "billing-stress",
            "--key-id",
            &key_id,
            "--workers",
            "16",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut acknowledged = HashSet::new();
    while acknowledged.len() < 400 {
        let line = lines.next().expect("the stress run ended early").unwrap();
        acknowledged.insert(line.split_whitespace().nth(1).unwrap().to_string());
    }
    child.kill().unwrap();
    child.wait().unwrap();
    for line in lines {
        let Ok(line) = line else { break };
        if let Some(request_id) = line.split_whitespace().nth(1) {
            acknowledged.insert(request_id.to_string());
        }
    }

    let billing = Billing::start(Store::open(dir.path()).unwrap());
    let balance = billing.balance(&key_id).unwrap().unwrap();
    let entries = billing.recent(&key_id, usize::MAX).unwrap();
    let charged: HashSet<String> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Charge)
        .filter_map(|e| e.request_id.clone())
        .collect();
    let missing: Vec<_> = acknowledged.difference(&charged).collect();
    assert!(missing.is_empty(), "acknowledged but lost: {missing:?}");
    let charges: i64 = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Charge)
        .map(|e| e.amount_micros)
        .sum();
    assert_eq!(
        OPENING_MICROS + charges,
        balance,
        "ledger sums to the balance change"
    );
    let all: i64 = entries.iter().map(|e| e.amount_micros).sum();
    assert_eq!(all, balance);
    assert!(charged.len() >= acknowledged.len());
}

/// The same guarantee over HTTP: a server killed while clients are being
/// billed for resolve keeps every charge it answered 200 for.
#[tokio::test]
async fn answered_requests_are_billed_after_a_server_kill() {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use tokio::sync::Mutex;

    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_library(dir.path());
    let data = dir.path().to_path_buf();
    let created = tokio::task::spawn_blocking(move || {
        lexstack()
            .arg("--data")
            .arg(&data)
            .args(["keys", "create", "--balance", "1000"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let key = String::from_utf8(created.stdout)
        .unwrap()
        .trim()
        .to_string();
    let config = dir.path().join("lexstack.toml");
    std::fs::write(
        &config,
        "[rate_limits.resolve]\nper_minute = 0\nburst = 1\n",
    )
    .unwrap();
    let mut child = lexstack()
        .arg("--data")
        .arg(dir.path())
        .arg("--config")
        .arg(&config)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let addr = loop {
        if let Ok(text) = std::fs::read_to_string(dir.path().join("server.json"))
            && let Ok(info) = serde_json::from_str::<serde_json::Value>(&text)
        {
            break info["addr"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "server did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };

    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let acknowledged = Arc::new(Mutex::new(HashSet::new()));
    let mut workers = Vec::new();
    for worker in 0..8 {
        let (client, key, addr, acknowledged) = (
            client.clone(),
            key.clone(),
            addr.clone(),
            acknowledged.clone(),
        );
        workers.push(tokio::spawn(async move {
            for n in 0.. {
                let request_id = format!("http-{worker}-{n}");
                let sent = client
                    .post(format!("http://{addr}/v1/citations/resolve"))
                    .bearer_auth(&key)
                    .header("X-Request-Id", &request_id)
                    .json(&serde_json::json!({ "citations": ["347 U.S. 483", "42 U.S.C. § 1983"] }))
                    .send()
                    .await;
                match sent {
                    Ok(response) if response.status() == 200 => {
                        acknowledged.lock().await.insert(request_id);
                    }
                    _ => break,
                }
            }
        }));
    }
    while acknowledged.lock().await.len() < 200 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    for worker in workers {
        worker.await.unwrap();
    }

    let store = Store::open(dir.path()).unwrap();
    let key_id = lexstack::accounts::keys::list(&store, None).unwrap()[0]
        .key_id
        .clone();
    let billing = Billing::start(store);
    let entries = billing.recent(&key_id, usize::MAX).unwrap();
    let billed: HashSet<String> = entries
        .iter()
        .filter_map(|e| e.request_id.clone())
        .collect();
    let acknowledged = acknowledged.lock().await;
    let lost: Vec<_> = acknowledged.difference(&billed).collect();
    assert!(lost.is_empty(), "answered 200 but not billed: {lost:?}");
    let balance = billing.balance(&key_id).unwrap().unwrap();
    assert_eq!(
        entries.iter().map(|e| e.amount_micros).sum::<i64>(),
        balance
    );
    assert!(
        entries
            .iter()
            .filter(|e| e.kind == EntryKind::Charge)
            .all(|e| e.amount_micros == -30_000)
    );
}

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

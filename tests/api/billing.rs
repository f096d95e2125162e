//! The billing layer over a real store: integer arithmetic, going negative,
//! 402 before work, request-id reuse per key and endpoint.
//! (The first billed endpoints arrive with the citation issues; these tests
//! then also run over HTTP.)

use lexstack::accounts::keys::{self, NewKey};
use lexstack::billing::{BilledItem, Billing, BillingError, Charge, Hold};
use lexstack::store::Store;

fn open() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    (dir, store)
}

fn new_key(store: &Store, balance_micros: i64) -> String {
    keys::issue(
        store,
        NewKey {
            initial_balance_micros: balance_micros,
            ..NewKey::default()
        },
    )
    .unwrap()
    .record
    .id
}

/// The admission of work that may cost up to 50 citations.
async fn admit(
    billing: &Billing,
    key_id: &str,
    endpoint: &str,
    request_id: &str,
) -> Result<Hold, BillingError> {
    billing
        .admit(
            key_id,
            endpoint,
            request_id,
            BilledItem::CitationsVerify,
            50,
        )
        .await
}

fn charge(key_id: &str, endpoint: &str, request_id: &str, units: u64) -> Charge {
    Charge {
        key_id: key_id.into(),
        endpoint: endpoint.into(),
        request_id: request_id.into(),
        item: BilledItem::CitationsVerify,
        units,
    }
}

#[tokio::test]
async fn a_charge_is_units_times_price_in_micro_usd() {
    let (_dir, store) = open();
    let key = new_key(&store, 1_000_000);
    let billing = Billing::start(store);
    let entry = billing
        .charge(charge(&key, "citations/verify", "r1", 3))
        .await
        .unwrap();
    assert_eq!(entry.amount_micros, -45_000);
    assert_eq!(entry.balance_after_micros, 955_000);
    assert_eq!(billing.balance(&key).unwrap(), Some(955_000));
}

#[tokio::test]
async fn a_positive_balance_below_the_charge_completes_and_goes_negative() {
    let (_dir, store) = open();
    let key = new_key(&store, 10_000);
    let billing = Billing::start(store);
    let hold = admit(&billing, &key, "citations/verify", "r1")
        .await
        .unwrap();
    let entry = billing
        .charge(charge(&key, "citations/verify", "r1", 50))
        .await
        .unwrap();
    assert_eq!(entry.balance_after_micros, 10_000 - 750_000);
    drop(hold);
    assert!(matches!(
        admit(&billing, &key, "citations/verify", "r2").await,
        Err(BillingError::PaymentRequired)
    ));
}

#[tokio::test]
async fn zero_balance_is_payment_required_before_work() {
    let (_dir, store) = open();
    let key = new_key(&store, 0);
    let billing = Billing::start(store);
    assert!(matches!(
        admit(&billing, &key, "citations/resolve", "r1").await,
        Err(BillingError::PaymentRequired)
    ));
}

#[tokio::test]
async fn a_request_id_is_billed_once_per_key_and_endpoint() {
    let (_dir, store) = open();
    let key = new_key(&store, 5_000_000);
    let other = new_key(&store, 5_000_000);
    let billing = Billing::start(store);
    billing
        .charge(charge(&key, "citations/verify", "same", 1))
        .await
        .unwrap();
    assert!(matches!(
        admit(&billing, &key, "citations/verify", "same").await,
        Err(BillingError::RequestIdReused)
    ));
    assert!(matches!(
        billing
            .charge(charge(&key, "citations/verify", "same", 1))
            .await,
        Err(BillingError::RequestIdReused)
    ));
    billing
        .charge(charge(&key, "citations/resolve", "same", 1))
        .await
        .unwrap();
    billing
        .charge(charge(&other, "citations/verify", "same", 1))
        .await
        .unwrap();
    assert_eq!(billing.balance(&key).unwrap(), Some(5_000_000 - 30_000));
    assert_eq!(billing.balance(&other).unwrap(), Some(5_000_000 - 15_000));
}

#[tokio::test]
async fn concurrent_charges_with_one_request_id_bill_once() {
    let (_dir, store) = open();
    let key = new_key(&store, 5_000_000);
    let billing = std::sync::Arc::new(Billing::start(store));
    let attempts: Vec<_> = (0..32)
        .map(|_| {
            let billing = billing.clone();
            let key = key.clone();
            tokio::spawn(async move {
                billing
                    .charge(charge(&key, "citations/verify", "race", 2))
                    .await
            })
        })
        .collect();
    let mut billed = 0;
    for attempt in attempts {
        match attempt.await.unwrap() {
            Ok(_) => billed += 1,
            Err(BillingError::RequestIdReused) => {}
            Err(other) => panic!("unexpected {other}"),
        }
    }
    assert_eq!(billed, 1);
    assert_eq!(billing.balance(&key).unwrap(), Some(5_000_000 - 30_000));
}

#[tokio::test]
async fn the_ledger_sums_to_the_balance() {
    let (_dir, store) = open();
    let key = new_key(&store, 2_000_000);
    let billing = Billing::start(store);
    for n in 0..25u64 {
        billing
            .charge(charge(&key, "citations/resolve", &format!("r{n}"), n % 4))
            .await
            .unwrap();
    }
    billing.top_up(&key, 300_000).await.unwrap();
    let entries = billing.recent(&key, 1000).unwrap();
    let sum: i64 = entries.iter().map(|e| e.amount_micros).sum();
    assert_eq!(Some(sum), billing.balance(&key).unwrap());
    assert_eq!(entries.len(), 27);
}

#[test]
fn charges_to_an_unknown_wallet_are_refused() {
    let (_dir, store) = open();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let billing = Billing::start(store);
    let result = runtime.block_on(billing.charge(charge("key_none", "citations/verify", "r", 1)));
    assert!(matches!(result, Err(BillingError::NoWallet(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_work_overruns_a_wallet_by_one_request_at_most() {
    let (_dir, store) = open();
    let key = new_key(&store, 50_000);
    let billing = std::sync::Arc::new(Billing::start(store));
    let tasks = (0..64).map(|n| {
        let (billing, key) = (billing.clone(), key.clone());
        tokio::spawn(async move {
            let request_id = format!("r{n}");
            let hold = admit(&billing, &key, "citations/verify", &request_id)
                .await
                .ok()?;
            tokio::task::yield_now().await;
            let charged = billing
                .charge(charge(&key, "citations/verify", &request_id, 3))
                .await
                .unwrap();
            drop(hold);
            Some(charged)
        })
    });
    let served = futures_util::future::join_all(tasks)
        .await
        .into_iter()
        .filter(|task| task.as_ref().unwrap().is_some())
        .count();
    // 0.05 USD pays one request of 0.045 and lets the next overrun; none
    // after, however the charges and the admissions interleave.
    assert_eq!(served, 2);
    assert_eq!(billing.balance(&key).unwrap(), Some(50_000 - 2 * 45_000));
}

/// Work that finds the rest of the balance held waits for it only so long,
/// then is refused; once the hold is released, work is admitted again.
#[tokio::test]
async fn work_waits_for_a_held_balance_only_so_long() {
    let (_dir, store) = open();
    let key = new_key(&store, 10_000);
    let billing = Billing::start(store).with_admission_wait(std::time::Duration::from_millis(200));
    let first = admit(&billing, &key, "citations/verify", "r1")
        .await
        .unwrap();
    let refused = admit(&billing, &key, "citations/verify", "r2").await;
    assert!(
        matches!(refused, Err(BillingError::BalanceHeld)),
        "{:?}",
        refused.err()
    );
    drop(first);
    assert!(
        admit(&billing, &key, "citations/verify", "r3")
            .await
            .is_ok()
    );
}

//! The prepaid wallet: pre-checks, charges and top-ups.
//!
//! Requests' charges and top-ups go through one writer thread that commits
//! them in groups: every posting waiting when a transaction starts shares
//! its one durable commit, and each caller is answered only after that
//! commit. This keeps the ledger exact under a kill -9 while one fsync
//! serves many requests. A job's charge is instead written in the
//! transaction that records its result.

pub mod ledger;
pub mod prices;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use redb::WriteTransaction;
use tokio::sync::{mpsc, oneshot};

use crate::store::{Store, StoreError, now_millis};
use ledger::{EntryKind, LedgerEntry, Posting, PostingError};
pub use prices::BilledItem;

/// How many postings one commit may carry.
const MAX_GROUP: usize = 512;

#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    #[error("request id already billed on this endpoint")]
    RequestIdReused,
    #[error("wallet balance is zero or negative")]
    PaymentRequired,
    #[error("no wallet for key {0}")]
    NoWallet(String),
    #[error("charge out of range")]
    Overflow,
    #[error("the billing writer has stopped")]
    Closed,
    #[error("billing commit failed: {0}")]
    CommitFailed(String),
    /// The commit met a store that refuses work until it is repaired or
    /// its disk has room ([`StoreError::is_unavailable`]).
    #[error("billing commit failed, the store unavailable: {0}")]
    StoreUnavailable(String),
    #[error("the rest of the wallet balance stayed held by this key's work in flight")]
    BalanceHeld,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<PostingError> for BillingError {
    fn from(err: PostingError) -> Self {
        match err {
            PostingError::RequestIdReused => BillingError::RequestIdReused,
            PostingError::NoWallet(key) => BillingError::NoWallet(key),
            PostingError::Overflow => BillingError::Overflow,
            PostingError::Store(err) => BillingError::Store(err),
        }
    }
}

/// A billable request, as its endpoint declares it.
#[derive(Debug, Clone)]
pub struct Charge {
    pub key_id: String,
    pub endpoint: String,
    pub request_id: String,
    pub item: BilledItem,
    pub units: u64,
}

impl Charge {
    fn posting(self) -> Result<Posting, BillingError> {
        let amount = self
            .item
            .charge_micros(self.units)
            .ok_or(BillingError::Overflow)?;
        Ok(Posting {
            key_id: self.key_id,
            kind: EntryKind::Charge,
            endpoint: Some(self.endpoint),
            request_id: Some(self.request_id),
            item: Some(self.item),
            units: self.units,
            amount_micros: -amount,
        })
    }
}

type Reply = oneshot::Sender<Result<LedgerEntry, BillingError>>;

pub struct Billing {
    store: Store,
    sender: Mutex<Option<mpsc::Sender<(Posting, Reply)>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    holds: Arc<Holds>,
    admission_wait: Duration,
}

/// How long billed work waits for the key's work in flight to release the
/// balance it holds before it is refused ([`BillingError::BalanceHeld`]):
/// a request must not wait without end, holding its connection.
pub const ADMISSION_WAIT: Duration = Duration::from_secs(30);

/// Money promised to billed work in flight, per key: the most each piece
/// of work may be charged. Work is admitted while the balance less the
/// holds is above zero, or when the key has no work in flight (the one
/// request a positive balance lets overrun, public-api.md §8); otherwise it
/// waits for work in flight to finish. So concurrent requests cannot take a
/// wallet further below zero than one request can.
#[derive(Default)]
struct Holds {
    keys: Mutex<HashMap<String, KeyHolds>>,
}

/// One key's holds. A key's entry stays once made (a firm has a handful of
/// keys): its count of releases must not start again.
#[derive(Default)]
struct KeyHolds {
    /// Micro-USD held by the key's work in flight.
    held: i64,
    /// Holds released so far. A hold is released after its work's charge
    /// is committed, so a balance read before a release may not show that
    /// charge: admission reads the count before the balance and, when it
    /// has moved by the time it holds, reads the balance again.
    releases: u64,
    /// Wakes the key's waiting work when one of its holds is released.
    released: Arc<tokio::sync::Notify>,
}

/// What [`Billing::try_hold`] found.
enum Admission {
    Held(Hold),
    /// Work in flight holds the rest of the balance.
    Full,
    /// A hold was released since the balance was read: read it again.
    Stale,
}

/// A hold on a key's balance for one piece of billed work; released when
/// dropped (after the work's charge is committed, or when it fails).
pub struct Hold {
    holds: Arc<Holds>,
    key_id: String,
    amount: i64,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut keys = self.holds.keys.lock().unwrap_or_else(|e| e.into_inner());
        let key = keys.entry(self.key_id.clone()).or_default();
        key.held -= self.amount;
        key.releases += 1;
        key.released.notify_waiters();
    }
}

impl Billing {
    /// Starts the writer thread on `store`.
    pub fn start(store: Store) -> Self {
        let (sender, receiver) = mpsc::channel(4 * MAX_GROUP);
        let writer_store = store.clone();
        let writer = std::thread::Builder::new()
            .name("billing-writer".into())
            .spawn(move || run_writer(writer_store, receiver))
            .expect("the billing writer thread starts");
        Self {
            store,
            sender: Mutex::new(Some(sender)),
            writer: Mutex::new(Some(writer)),
            holds: Arc::default(),
            admission_wait: ADMISSION_WAIT,
        }
    }

    /// The same billing, refusing work that waited `wait` for the balance.
    pub fn with_admission_wait(mut self, wait: Duration) -> Self {
        self.admission_wait = wait;
        self
    }

    /// Admits billed work for `key_id` ([`Holds`]). Before any work: 409
    /// when this request id was already billed on this endpoint, 402 when
    /// the balance is zero or less. Then it holds what `most_units` of
    /// `item` cost, the most the work can be charged, waiting while work in
    /// flight holds the rest of the balance. The hold lasts until the
    /// returned [`Hold`] is dropped.
    pub async fn admit(
        &self,
        key_id: &str,
        endpoint: &str,
        request_id: &str,
        item: BilledItem,
        most_units: u64,
    ) -> Result<Hold, BillingError> {
        let most = item
            .charge_micros(most_units)
            .ok_or(BillingError::Overflow)?;
        let deadline = tokio::time::Instant::now() + self.admission_wait;
        loop {
            let (releases_seen, released) = self.releases(key_id);
            // Listening before the hold is tried: a release after that is
            // not missed (one before it makes the try stale).
            let released = released.notified_owned();
            let mut released = std::pin::pin!(released);
            released.as_mut().enable();
            let (store, key, name, id) = (
                self.store.clone(),
                key_id.to_string(),
                endpoint.to_string(),
                request_id.to_string(),
            );
            let balance = tokio::task::spawn_blocking(move || precheck(&store, &key, &name, &id))
                .await
                .map_err(|e| BillingError::CommitFailed(format!("billing task: {e}")))??;
            match self.try_hold(key_id, balance, most, releases_seen) {
                Admission::Held(hold) => return Ok(hold),
                Admission::Full => {
                    if tokio::time::timeout_at(deadline, released).await.is_err() {
                        return Err(BillingError::BalanceHeld);
                    }
                }
                Admission::Stale => {}
            }
        }
    }

    /// How many of the key's holds were released so far, and what wakes
    /// its waiting work on the next release.
    fn releases(&self, key_id: &str) -> (u64, Arc<tokio::sync::Notify>) {
        let mut keys = self.holds.keys.lock().unwrap_or_else(|e| e.into_inner());
        let key = keys.entry(key_id.to_string()).or_default();
        (key.releases, key.released.clone())
    }

    /// A hold of `amount` on a key whose balance was `balance` when
    /// `releases_seen` of its holds were released, if there is room for it
    /// ([`Holds`]).
    fn try_hold(&self, key_id: &str, balance: i64, amount: i64, releases_seen: u64) -> Admission {
        let mut keys = self.holds.keys.lock().unwrap_or_else(|e| e.into_inner());
        let key = keys.entry(key_id.to_string()).or_default();
        if key.releases != releases_seen {
            return Admission::Stale;
        }
        if key.held > 0 && balance.saturating_sub(key.held) <= 0 {
            return Admission::Full;
        }
        key.held += amount;
        Admission::Held(Hold {
            holds: self.holds.clone(),
            key_id: key_id.to_string(),
            amount,
        })
    }

    /// Charges a completed request. The full charge applies even when it
    /// takes the balance below zero (public-api.md §8 rule 2).
    pub async fn charge(&self, charge: Charge) -> Result<LedgerEntry, BillingError> {
        self.submit(charge.posting()?).await
    }

    /// Charges finished work together with `record`, which writes what the
    /// charge paid for, in one transaction of its own: the two commit
    /// together or not at all. For a job's result, so a job that was billed
    /// is never run again and one whose request id another request billed is
    /// never completed free. Blocking.
    pub fn charge_with(
        &self,
        charge: Charge,
        record: impl FnOnce(&WriteTransaction) -> Result<(), StoreError>,
    ) -> Result<LedgerEntry, BillingError> {
        let posting = charge.posting()?;
        self.store.write(|txn| {
            let entry = ledger::post(txn, posting, now_millis())?;
            record(txn)?;
            Ok(entry)
        })
    }

    /// Adds money to a wallet.
    pub async fn top_up(
        &self,
        key_id: &str,
        amount_micros: i64,
    ) -> Result<LedgerEntry, BillingError> {
        self.submit(Posting::top_up(key_id, amount_micros)).await
    }

    pub fn balance(&self, key_id: &str) -> Result<Option<i64>, StoreError> {
        self.store.read(|txn| ledger::balance(txn, key_id))
    }

    pub fn recent(&self, key_id: &str, limit: usize) -> Result<Vec<LedgerEntry>, StoreError> {
        self.store.read(|txn| ledger::recent(txn, key_id, limit))
    }

    async fn submit(&self, posting: Posting) -> Result<LedgerEntry, BillingError> {
        let sender = self
            .sender
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or(BillingError::Closed)?;
        let (reply, answer) = oneshot::channel();
        sender
            .send((posting, reply))
            .await
            .map_err(|_| BillingError::Closed)?;
        answer.await.map_err(|_| BillingError::Closed)?
    }

    /// Lets queued postings commit, then stops the writer.
    pub fn shutdown(&self) {
        self.sender.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(writer) = self.writer.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = writer.join();
        }
    }
}

impl Drop for Billing {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The checks of [`Billing::admit`] before any work; the balance.
fn precheck(
    store: &Store,
    key_id: &str,
    endpoint: &str,
    request_id: &str,
) -> Result<i64, BillingError> {
    store.read(|txn| {
        if ledger::is_billed(txn, key_id, endpoint, request_id)? {
            return Err(BillingError::RequestIdReused);
        }
        match ledger::balance(txn, key_id)? {
            Some(balance) if balance > 0 => Ok(balance),
            Some(_) => Err(BillingError::PaymentRequired),
            None => Err(BillingError::NoWallet(key_id.to_string())),
        }
    })
}

fn run_writer(store: Store, mut receiver: mpsc::Receiver<(Posting, Reply)>) {
    while let Some(first) = receiver.blocking_recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match receiver.try_recv() {
                Ok(next) => group.push(next),
                Err(_) => break,
            }
        }
        commit_group(&store, group);
    }
}

/// Posts a group in one transaction. A posting refused on its own (a reused
/// request id, a missing wallet) wrote nothing and is answered with its
/// error; a store failure aborts the whole group and every caller hears so.
fn commit_group(store: &Store, group: Vec<(Posting, Reply)>) {
    let at = now_millis();
    let outcome = store.write(|txn| -> Result<Vec<_>, StoreError> {
        let mut results = Vec::with_capacity(group.len());
        for (posting, _) in &group {
            match ledger::post(txn, posting.clone(), at) {
                Err(PostingError::Store(err)) => return Err(err),
                other => results.push(other.map_err(BillingError::from)),
            }
        }
        Ok(results)
    });
    match outcome {
        Ok(results) => {
            for ((_, reply), result) in group.into_iter().zip(results) {
                let _ = reply.send(result);
            }
        }
        Err(err) => {
            tracing::error!(error = %err, postings = group.len(), "billing commit failed");
            let message = err.to_string();
            let unavailable = err.is_unavailable();
            for (_, reply) in group {
                let failed = match unavailable {
                    true => BillingError::StoreUnavailable(message.clone()),
                    false => BillingError::CommitFailed(message.clone()),
                };
                let _ = reply.send(Err(failed));
            }
        }
    }
}

//! What every handler needs, built once at start-up and shared.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::accounts::Accounts;
use crate::billing::Billing;
use crate::config::Config;
use crate::documents::{FetchLimits, Fetcher, UrlPolicy};
use crate::error::ApiError;
use crate::jobs::Jobs;
use crate::library::Library;
use crate::ratelimit::RateLimiter;
use crate::store::Store;

pub struct AppContext {
    pub config: Arc<Config>,
    pub store: Store,
    pub library: Arc<Library>,
    pub billing: Billing,
    pub limiter: RateLimiter,
    pub accounts: Accounts,
    pub jobs: Jobs,
    /// What document URLs may point at, checked before a job is queued.
    pub url_policy: UrlPolicy,
    /// Fetches documents given by URL (each hop checked by `url_policy`).
    pub fetcher: Fetcher,
    /// Hash of the token in `DATA/admin.token` that the CLI presents.
    pub admin_token_hash: [u8; 32],
    /// Password hashing at once: one per core. Each takes 19 MiB and a core
    /// for tens of milliseconds; unbounded, a flood of failed sign-ins took
    /// every blocking thread (3.3 GB, 526 threads) and stalled every other
    /// request behind them for seconds.
    password_slots: tokio::sync::Semaphore,
    /// Whether the last library probe failed: its causes and the repair
    /// advice are logged when probes start failing, not at every probe an
    /// orchestrator sends.
    library_failing: AtomicBool,
}

pub type Ctx = Arc<AppContext>;

impl AppContext {
    pub fn new(
        config: Arc<Config>,
        store: Store,
        library: Arc<Library>,
        admin_token_hash: [u8; 32],
    ) -> Self {
        let session_ttl = Duration::from_secs(config.sessions.ttl_hours * 3600);
        Self {
            billing: Billing::start(store.clone()),
            limiter: RateLimiter::new(config.rate_limits.clone()),
            accounts: Accounts::new(store.clone(), &config.passwords, session_ttl),
            jobs: Jobs::new(store.clone(), config.jobs.clone()),
            url_policy: url_policy(&config),
            fetcher: Fetcher::new(url_policy(&config), FetchLimits::default()),
            config,
            store,
            library,
            admin_token_hash,
            password_slots: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            ),
            library_failing: AtomicBool::new(false),
        }
    }
}

fn url_policy(config: &Config) -> UrlPolicy {
    UrlPolicy {
        allow_loopback_http: config.documents.allow_loopback_http_for_tests,
    }
}

/// Runs blocking work (redb, argon2) off the async runtime.
pub async fn blocking<T, F>(ctx: &Ctx, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&AppContext) -> Result<T, ApiError> + Send + 'static,
{
    let ctx = ctx.clone();
    tokio::task::spawn_blocking(move || work(&ctx)).await?
}

/// Runs blocking work that hashes a password ([`blocking`]) once one of the
/// password slots is free: callers past the slots wait here, holding no
/// thread, so the rest of the server is not queued behind them.
pub async fn password_work<T, F>(ctx: &Ctx, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&AppContext) -> Result<T, ApiError> + Send + 'static,
{
    let _slot = ctx
        .password_slots
        .acquire()
        .await
        .map_err(|closed| ApiError::internal(&closed))?;
    blocking(ctx, work).await
}

/// Whether the store takes a real write and read right now (health probes).
pub async fn store_usable(ctx: &Ctx) -> bool {
    let probe = blocking(ctx, |ctx| Ok(ctx.store.probe())).await;
    match probe {
        Ok(Ok(())) => true,
        Ok(Err(err)) => {
            tracing::error!(error = %err, "store probe failed");
            false
        }
        Err(_) => false,
    }
}

/// Whether the library answers: a read of its store and a real search.
pub async fn library_usable(ctx: &Ctx) -> bool {
    let probe = blocking(ctx, |ctx| {
        let status = ctx.library.store.probe_read();
        let search = ctx.library.index.probe();
        Ok((status, search))
    })
    .await;
    match probe {
        Ok((Ok(()), Ok(()))) => {
            if ctx.library_failing.swap(false, Ordering::Relaxed) {
                tracing::info!("library probe succeeds again");
            }
            true
        }
        Ok((status, search)) => {
            if ctx.library_failing.swap(true, Ordering::Relaxed) {
                tracing::debug!(store = ?status.as_ref().err(), index = ?search.err(), "library probe failed");
                return false;
            }
            tracing::error!(store = ?status.as_ref().err(), index = ?search.err(), "library probe failed");
            if status.is_err_and(|err| err.is_damaged_file()) {
                let file = ctx.config.data_dir.join(crate::store::LIBRARY_FILE);
                tracing::error!("{}", crate::library::repair_advice(&file));
            }
            false
        }
        Err(_) => false,
    }
}

//! What every handler needs, built once at start-up and shared.

use std::sync::Arc;
use std::time::Duration;

use crate::accounts::Accounts;
use crate::billing::Billing;
use crate::config::Config;
use crate::error::ApiError;
use crate::ratelimit::RateLimiter;
use crate::store::Store;

pub struct AppContext {
    pub config: Arc<Config>,
    pub store: Store,
    pub billing: Billing,
    pub limiter: RateLimiter,
    pub accounts: Accounts,
    /// Hash of the token in `DATA/admin.token` that the CLI presents.
    pub admin_token_hash: [u8; 32],
}

pub type Ctx = Arc<AppContext>;

impl AppContext {
    pub fn new(config: Arc<Config>, store: Store, admin_token_hash: [u8; 32]) -> Self {
        let session_ttl = Duration::from_secs(config.sessions.ttl_hours * 3600);
        Self {
            billing: Billing::start(store.clone()),
            limiter: RateLimiter::new(config.rate_limits.clone()),
            accounts: Accounts::new(store.clone(), &config.passwords, session_ttl),
            config,
            store,
            admin_token_hash,
        }
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

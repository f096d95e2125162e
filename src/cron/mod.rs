//! The embedded scheduler: one table of sweeps, each on a cron schedule
//! from the config (an empty schedule disables it).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tokio_cron_scheduler::{Job, JobScheduler, JobSchedulerError};

use crate::context::Ctx;

type Sweep = fn(Ctx) -> Pin<Box<dyn Future<Output = ()> + Send>>;

pub struct Cron {
    scheduler: JobScheduler,
}

impl Cron {
    pub async fn start(ctx: Ctx) -> Result<Self, JobSchedulerError> {
        let sweeps = &ctx.config.sweeps;
        let table: [(&str, &str, Sweep); 4] = [
            ("expired_sessions", &sweeps.expired_sessions, |ctx| {
                Box::pin(expired_sessions(ctx))
            }),
            ("rate_limit_buckets", &sweeps.rate_limit_buckets, |ctx| {
                Box::pin(rate_limit_buckets(ctx))
            }),
            ("finished_jobs", &sweeps.finished_jobs, |ctx| {
                Box::pin(finished_jobs(ctx))
            }),
            ("index_checksums", &sweeps.index_checksums, |ctx| {
                Box::pin(index_checksums(ctx))
            }),
        ];
        let scheduler = JobScheduler::new().await?;
        for (name, schedule, sweep) in table {
            if schedule.trim().is_empty() {
                tracing::info!(sweep = name, "sweep disabled");
                continue;
            }
            // The scheduler keeps its jobs after shutdown; a weak handle lets
            // the store close when the server stops.
            let job_ctx = Arc::downgrade(&ctx);
            let job = Job::new_async(schedule, move |_, _| match job_ctx.upgrade() {
                Some(ctx) => sweep(ctx),
                None => Box::pin(async {}),
            })?;
            scheduler.add(job).await?;
        }
        scheduler.start().await?;
        Ok(Self { scheduler })
    }

    pub async fn stop(mut self) {
        if let Err(err) = self.scheduler.shutdown().await {
            tracing::warn!(error = %err, "cron scheduler did not stop cleanly");
        }
    }
}

async fn expired_sessions(ctx: Ctx) {
    let result = tokio::task::spawn_blocking(move || ctx.accounts.sweep_expired_sessions()).await;
    match result {
        Ok(Ok(removed)) => tracing::info!(removed, "swept expired sessions"),
        Ok(Err(err)) => tracing::error!(error = %err, "session sweep failed"),
        Err(err) => tracing::error!(error = %err, "session sweep panicked"),
    }
}

async fn rate_limit_buckets(ctx: Ctx) {
    let removed = ctx.limiter.sweep();
    tracing::debug!(removed, "swept idle rate-limit buckets");
}

async fn finished_jobs(ctx: Ctx) {
    match tokio::task::spawn_blocking(move || ctx.jobs.sweep()).await {
        Ok(Ok(removed)) => tracing::info!(removed, "swept finished jobs"),
        Ok(Err(err)) => tracing::error!(error = %err, "job sweep failed"),
        Err(err) => tracing::error!(error = %err, "job sweep panicked"),
    }
}

async fn index_checksums(ctx: Ctx) {
    match tokio::task::spawn_blocking(move || ctx.library.index.check_files()).await {
        Ok(Ok(())) => tracing::info!("the search index's files match their checksums"),
        Ok(Err(err)) => tracing::error!(error = %err, "search index check failed"),
        Err(err) => tracing::error!(error = %err, "search index check panicked"),
    }
}

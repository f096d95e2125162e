//! `lexstack serve`.

use anyhow::Context;
use clap::Args;

use super::GlobalArgs;
use crate::app::{App, shutdown_signal};
use crate::config::{Config, LogFormat};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (default 127.0.0.1:8080; port 0 picks a free one).
    #[arg(long, env = "LEXSTACK_ADDR", value_name = "HOST:PORT")]
    pub addr: Option<String>,
    /// Log format.
    #[arg(long, env = "LEXSTACK_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
}

pub async fn run(global: &GlobalArgs, args: ServeArgs) -> anyhow::Result<()> {
    let mut overrides = global.overrides();
    overrides.addr = args.addr;
    overrides.log_format = args.log_format;
    let config = Config::load(&overrides)?;
    crate::telemetry::init(config.log_format, &config.log_filter);

    let listener = std::net::TcpListener::bind(config.addr)
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let data_dir = config.data_dir.clone();
    let app = App::build(config, listener).await.map_err(|err| {
        let err = anyhow::Error::new(err);
        let denied =
            super::caused_by_io(&err, std::io::ErrorKind::PermissionDenied, "(os error 13)");
        let advice = match denied {
            true => format!(
                "cannot start with data directory {}: permission denied; run lexstack as the \
                 user that owns the directory and its files",
                data_dir.display()
            ),
            false => format!("cannot start with data directory {}", data_dir.display()),
        };
        err.context(advice)
    })?;
    let addr = app.local_addr();
    tracing::info!(
        "lexstack {} listening on http://{addr} (public API /v1, application API /api)",
        env!("CARGO_PKG_VERSION")
    );
    tracing::info!(
        "create an API key with: lexstack keys create --data {} --balance 10",
        data_dir.display()
    );
    app.run(shutdown_signal()).await?;
    Ok(())
}

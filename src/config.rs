//! Configuration: an optional TOML file, then `LEXSTACK_*` environment
//! variables, then command-line flags (later wins). Resolved and validated
//! once into [`Config`], which is passed around as `Arc<Config>`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::ratelimit::RateLimits;

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATA_DIR: &str = "./lexstack-data";
/// The scheduler crate narrates every start at info; keep it to warnings.
pub const DEFAULT_LOG_FILTER: &str = "info,tokio_cron_scheduler=warn";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Human,
    Json,
}

/// The resolved configuration of one process.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    pub log_format: LogFormat,
    /// A tracing filter directive such as `info` or `lexstack=debug,warn`.
    pub log_filter: String,
    pub rate_limits: RateLimits,
    pub sessions: SessionSettings,
    pub passwords: PasswordSettings,
    pub sweeps: SweepSettings,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SessionSettings {
    /// How long a sign-in lasts.
    pub ttl_hours: u64,
    /// Marks the session cookie `Secure`; turn on when served over https.
    pub cookie_secure: bool,
}

impl Default for SessionSettings {
    fn default() -> Self {
        Self {
            ttl_hours: 24 * 30,
            cookie_secure: false,
        }
    }
}

/// argon2id parameters for new password hashes (existing hashes carry their own).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PasswordSettings {
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for PasswordSettings {
    fn default() -> Self {
        // OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane).
        Self {
            memory_kib: 19 * 1024,
            iterations: 2,
            parallelism: 1,
        }
    }
}

/// Cron schedules (six fields, seconds first); an empty string disables a sweep.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SweepSettings {
    pub expired_sessions: String,
    pub rate_limit_buckets: String,
}

impl Default for SweepSettings {
    fn default() -> Self {
        Self {
            expired_sessions: "0 17 * * * *".into(),
            rate_limit_buckets: "0 */5 * * * *".into(),
        }
    }
}

/// The TOML file, every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    addr: Option<String>,
    data: Option<PathBuf>,
    log_format: Option<LogFormat>,
    log: Option<String>,
    #[serde(default)]
    rate_limits: RateLimits,
    #[serde(default)]
    sessions: SessionSettings,
    #[serde(default)]
    passwords: PasswordSettings,
    #[serde(default)]
    sweeps: SweepSettings,
}

/// What flags and environment variables said (clap merges the two).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub config_file: Option<PathBuf>,
    pub data_dir: Option<PathBuf>,
    pub addr: Option<String>,
    pub log_format: Option<LogFormat>,
    pub log_filter: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {path} is not valid")]
    Parse {
        path: PathBuf,
        #[source]
        source: Box<toml::de::Error>,
    },
    #[error("invalid listen address {0:?} (expected host:port, e.g. 127.0.0.1:8080)")]
    Addr(String),
    #[error("invalid setting {0}")]
    Invalid(String),
}

impl Config {
    /// The defaults, with the store in `data_dir`.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            addr: DEFAULT_ADDR.parse().expect("the default address parses"),
            data_dir: data_dir.into(),
            log_format: LogFormat::Human,
            log_filter: DEFAULT_LOG_FILTER.into(),
            rate_limits: RateLimits::default(),
            sessions: SessionSettings::default(),
            passwords: PasswordSettings::default(),
            sweeps: SweepSettings::default(),
        }
    }

    /// File < environment < flags.
    pub fn load(overrides: &Overrides) -> Result<Self, ConfigError> {
        let file = match &overrides.config_file {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        let data_dir = overrides
            .data_dir
            .clone()
            .or(file.data)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR));
        let addr_text = overrides
            .addr
            .clone()
            .or(file.addr)
            .unwrap_or_else(|| DEFAULT_ADDR.to_string());
        let addr = addr_text
            .parse()
            .map_err(|_| ConfigError::Addr(addr_text.clone()))?;
        let config = Self {
            addr,
            data_dir,
            log_format: overrides
                .log_format
                .or(file.log_format)
                .unwrap_or(LogFormat::Human),
            log_filter: overrides
                .log_filter
                .clone()
                .or(file.log)
                .unwrap_or_else(|| DEFAULT_LOG_FILTER.into()),
            rate_limits: file.rate_limits,
            sessions: file.sessions,
            passwords: file.passwords,
            sweeps: file.sweeps,
        };
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if self.sessions.ttl_hours == 0 {
            return Err(ConfigError::Invalid(
                "sessions.ttl_hours must be at least 1".into(),
            ));
        }
        let p = &self.passwords;
        argon2::Params::new(p.memory_kib, p.iterations, p.parallelism, None)
            .map_err(|err| ConfigError::Invalid(format!("passwords: {err}")))?;
        self.rate_limits.validate().map_err(ConfigError::Invalid)?;
        Ok(())
    }
}

fn read_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|source| ConfigError::Parse {
        path: path.to_path_buf(),
        source: Box::new(source),
    })
}

//! Configuration: an optional TOML file, then `LEXSTACK_*` environment
//! variables, then command-line flags (later wins). Resolved and validated
//! once into [`Config`], which is passed around as `Arc<Config>`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::jobs::JobSettings;
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
    pub jobs: JobSettings,
    pub documents: DocumentSettings,
    pub http: HttpSettings,
    /// How clients reach this server (links to its own case pages);
    /// `http://<addr>` unless set.
    pub public_url: Option<String>,
}

/// Limits on connections (`[http]`), against clients that hold them open
/// without sending a request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpSettings {
    /// Seconds a client has to send a request's line and headers, counted
    /// from when the server waits for them (an idle keep-alive connection
    /// is closed after as long).
    pub header_read_timeout_secs: u64,
    /// Seconds a client has to send a request's body.
    pub body_read_timeout_secs: u64,
    /// Connections open at once; past it the server accepts no more until
    /// one closes.
    pub max_connections: usize,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            header_read_timeout_secs: 30,
            body_read_timeout_secs: 60,
            max_connections: 4_096,
        }
    }
}

/// Fetching documents given by URL (`[documents]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DocumentSettings {
    /// Accept `http://127.0.0.1:PORT` document URLs. For the test suite's
    /// local document server only: on a real install loopback is the
    /// appliance itself, so this stays off.
    pub allow_loopback_http_for_tests: bool,
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
    /// Deletes finished jobs older than `jobs.retention_hours`.
    pub finished_jobs: String,
    /// Checks the search index's files against their checksums: damage
    /// that leaves a file's end as it was is found only so, or by a search
    /// that fails on it.
    pub index_checksums: String,
}

impl Default for SweepSettings {
    fn default() -> Self {
        Self {
            expired_sessions: "0 17 * * * *".into(),
            rate_limit_buckets: "0 */5 * * * *".into(),
            finished_jobs: "0 41 * * * *".into(),
            index_checksums: "0 53 * * * *".into(),
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
    #[serde(default)]
    jobs: JobSettings,
    #[serde(default)]
    documents: DocumentSettings,
    #[serde(default)]
    http: HttpSettings,
    public_url: Option<String>,
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
    #[error(
        "the data directory {0} is a file, not a directory: give `--data` a directory (it is created when missing)"
    )]
    DataNotADirectory(PathBuf),
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
            jobs: JobSettings::default(),
            documents: DocumentSettings::default(),
            http: HttpSettings::default(),
            public_url: None,
        }
    }

    /// The base URL of this server for links it hands out.
    pub fn public_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.addr))
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
        if data_dir.exists() && !data_dir.is_dir() {
            return Err(ConfigError::DataNotADirectory(data_dir));
        }
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
            jobs: file.jobs,
            documents: file.documents,
            http: file.http,
            public_url: file.public_url,
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
        let http = &self.http;
        if http.header_read_timeout_secs == 0
            || http.body_read_timeout_secs == 0
            || http.max_connections == 0
        {
            return Err(ConfigError::Invalid(
                "http.header_read_timeout_secs, http.body_read_timeout_secs and \
                 http.max_connections must be at least 1"
                    .into(),
            ));
        }
        if self.jobs.workers == 0 || self.jobs.max_attempts == 0 {
            return Err(ConfigError::Invalid(
                "jobs.workers and jobs.max_attempts must be at least 1".into(),
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn write_config(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lexstack.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn defaults_apply_without_a_file() {
        let config = Config::load(&Overrides::default()).unwrap();
        assert_eq!(config.addr.to_string(), DEFAULT_ADDR);
        assert_eq!(config.data_dir, PathBuf::from(DEFAULT_DATA_DIR));
        assert_eq!(config.rate_limits.jobs.per_minute, 600);
    }

    #[test]
    fn flags_and_environment_override_the_file() {
        let (_dir, path) = write_config(
            r#"
            addr = "0.0.0.0:9000"
            data = "/srv/from-file"
            log_format = "json"
            [rate_limits.verify]
            per_minute = 10
            burst = 2
            [sessions]
            ttl_hours = 1
            "#,
        );
        let from_file = Config::load(&Overrides {
            config_file: Some(path.clone()),
            ..Overrides::default()
        })
        .unwrap();
        assert_eq!(from_file.addr.to_string(), "0.0.0.0:9000");
        assert_eq!(from_file.data_dir, PathBuf::from("/srv/from-file"));
        assert_eq!(from_file.log_format, LogFormat::Json);
        assert_eq!(from_file.rate_limits.verify.per_minute, 10);
        assert_eq!(
            from_file.rate_limits.resolve.per_minute, 1200,
            "untouched buckets keep defaults"
        );
        assert_eq!(from_file.sessions.ttl_hours, 1);

        let overridden = Config::load(&Overrides {
            config_file: Some(path),
            data_dir: Some(PathBuf::from("/srv/from-flag")),
            addr: Some("127.0.0.1:9001".into()),
            log_format: Some(LogFormat::Human),
            log_filter: None,
        })
        .unwrap();
        assert_eq!(overridden.addr.to_string(), "127.0.0.1:9001");
        assert_eq!(overridden.data_dir, PathBuf::from("/srv/from-flag"));
        assert_eq!(overridden.log_format, LogFormat::Human);
    }

    #[test]
    fn bad_settings_are_refused_with_a_reason() {
        let (_dir, path) = write_config("unknown_setting = 1");
        let err = Config::load(&Overrides {
            config_file: Some(path),
            ..Overrides::default()
        })
        .unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }));

        let (_dir, path) = write_config("[rate_limits.review]\nper_minute = 5\nburst = 0");
        let err = Config::load(&Overrides {
            config_file: Some(path),
            ..Overrides::default()
        })
        .unwrap_err();
        assert!(err.to_string().contains("burst"), "{err}");

        let err = Config::load(&Overrides {
            addr: Some("localhost".into()),
            ..Overrides::default()
        })
        .unwrap_err();
        assert!(matches!(err, ConfigError::Addr(_)));
    }

    #[test]
    fn the_packaged_example_file_is_valid() {
        let text = include_str!("../packaging/lexstack.example.toml");
        let (_dir, path) = write_config(text);
        let config = Config::load(&Overrides {
            config_file: Some(path),
            ..Overrides::default()
        })
        .unwrap();
        assert_eq!(config.data_dir, PathBuf::from("/var/lib/lexstack"));
    }
}

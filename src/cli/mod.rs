//! The command line: `serve`, the operator's key and wallet commands, and
//! developer tools. Logs go to stderr so stdout carries only results.

mod bench;
mod cite;
mod dev;
mod keys;
mod library;
mod remote;
mod review;
mod serve;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::{LogFormat, Overrides};

#[derive(Debug, Parser)]
#[command(
    name = "lexstack",
    version,
    about = "Self-hosted legal research appliance"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Data directory (store, indexes, uploads).
    #[arg(
        long = "data",
        global = true,
        env = "LEXSTACK_DATA",
        value_name = "DIR"
    )]
    pub data_dir: Option<PathBuf>,
    /// TOML configuration file (lowest precedence: file < env < flags).
    #[arg(long, global = true, env = "LEXSTACK_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Log filter, e.g. `info` or `lexstack=debug,warn`.
    #[arg(
        long = "log",
        global = true,
        env = "LEXSTACK_LOG",
        value_name = "FILTER"
    )]
    pub log_filter: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the public API (/v1) and the application API (/api).
    Serve(serve::ServeArgs),
    /// Create, list and revoke API keys.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
    /// Top up and inspect a key's prepaid wallet.
    #[command(subcommand)]
    Wallet(keys::WalletCommand),
    /// Inspect and build the case-law library.
    #[command(subcommand)]
    Library(library::LibraryCommand),
    /// Import bulk case-law data (CourtListener, CAP, SCDB).
    #[command(subcommand)]
    Import(library::ImportCommand),
    /// Find legal citations in text.
    #[command(subcommand)]
    Cite(cite::CiteCommand),
    /// Contract review on the command line (no server needed).
    #[command(subcommand)]
    Review(review::ReviewCommand),
    /// Developer tools (stress tests, generators).
    #[command(subcommand, hide = true)]
    Dev(dev::DevCommand),
}

impl GlobalArgs {
    pub fn overrides(&self) -> Overrides {
        Overrides {
            config_file: self.config.clone(),
            data_dir: self.data_dir.clone(),
            addr: None,
            log_format: None,
            log_filter: self.log_filter.clone(),
        }
    }
}

/// Runs the parsed command; the process exit code follows the result.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve::run(&cli.global, args).await,
        Command::Keys(command) => keys::run_keys(&cli.global, command).await,
        Command::Wallet(command) => keys::run_wallet(&cli.global, command).await,
        Command::Library(command) => library::run_library(&cli.global, command).await,
        Command::Import(command) => library::run_import(&cli.global, command).await,
        Command::Cite(command) => cite::run(command),
        Command::Review(command) => {
            init_quiet_logging(&cli.global);
            review::run(command)
        }
        Command::Dev(command) => dev::run(&cli.global, command).await,
    }
}

/// For commands other than `serve`: quiet logs unless asked.
fn init_quiet_logging(global: &GlobalArgs) {
    let filter = global.log_filter.as_deref().unwrap_or("warn");
    crate::telemetry::init(LogFormat::Human, filter);
}

/// Prints one line of results. A reader that went away (`| head`) ends the
/// output quietly instead of a panic.
pub fn out(text: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// Whether `err` comes, however deep in its causes, of an I/O error of
/// `kind`. The search index passes its I/O errors on only as text, so the
/// system's words for it are looked for too (`os_error`, as Linux prints
/// it: "(os error 28)" for a full disk).
fn caused_by_io(err: &anyhow::Error, kind: std::io::ErrorKind, os_error: &str) -> bool {
    err.chain().any(|cause| {
        let io = cause
            .downcast_ref::<std::io::Error>()
            .or_else(|| match cause.downcast_ref::<crate::store::StoreError>() {
                Some(crate::store::StoreError::Redb(redb::Error::Io(io))) => Some(io),
                _ => None,
            });
        io.is_some_and(|io| io.kind() == kind) || cause.to_string().contains(os_error)
    })
}

#[cfg(test)]
mod tests {
    use super::caused_by_io;
    use std::io::ErrorKind;

    #[test]
    fn an_io_cause_is_found_as_an_error_or_as_the_text_the_index_passes_on() {
        let denied = anyhow::Error::new(std::io::Error::from(ErrorKind::PermissionDenied))
            .context("cannot start");
        assert!(caused_by_io(
            &denied,
            ErrorKind::PermissionDenied,
            "(os error 13)"
        ));
        assert!(!caused_by_io(
            &denied,
            ErrorKind::StorageFull,
            "(os error 28)"
        ));
        let in_words = anyhow::anyhow!(
            "search index directory commit: Internal error: 'No space left on device (os error 28)'"
        );
        assert!(caused_by_io(
            &in_words,
            ErrorKind::StorageFull,
            "(os error 28)"
        ));
    }
}

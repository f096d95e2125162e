//! Building and running the server. Tests bind `127.0.0.1:0` themselves and
//! hand the listener to [`App::build`], so there is no port race.

use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::context::{AppContext, Ctx};
use crate::cron::Cron;
use crate::ids::{random_hex, secret_hash};
use crate::jobs::worker::Workers;
use crate::library::import::ImportReport;
use crate::library::{Library, LibraryError};
use crate::store::{LIBRARY_FILE, STORE_FILE, Store, StoreError, now_millis, rfc3339};

/// Written to the data directory while the server runs, for the CLI.
pub const SERVER_FILE: &str = "server.json";
/// The admin token of the running server (mode 0600).
pub const ADMIN_TOKEN_FILE: &str = "admin.token";
/// Written by a server that holds its store and waits for an import or a
/// library build to free the library, holding its process id: the
/// operator commands tell the user at once rather than wait for an answer
/// that comes only when the import ends.
pub const SERVER_WAITING_FILE: &str = "server-waiting.json";

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("listener: {0}")]
    Listener(#[source] std::io::Error),
    #[error("cannot write {path}")]
    File {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error("{advice}")]
    DamagedLibrary {
        advice: String,
        source: LibraryError,
    },
    #[error("{advice}")]
    DamagedStore { advice: String, source: StoreError },
    #[error("scheduler: {0}")]
    Cron(#[from] tokio_cron_scheduler::JobSchedulerError),
    #[error("start-up task failed: {0}")]
    Join(#[from] tokio::task::JoinError),
    #[error(
        "the store refused all work after a write failed (a full disk?); lexstack stopped so \
         that it can be started again on the file as it is on disk"
    )]
    StoreRefusesWork,
}

/// What the CLI reads to find a running server.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerInfo {
    pub addr: SocketAddr,
    pub pid: u32,
    pub started_at: String,
    pub version: String,
}

/// A server waiting for the library ([`SERVER_WAITING_FILE`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WaitingServer {
    pub pid: u32,
}

impl WaitingServer {
    /// The server of `data_dir` waiting for the library, if one still runs.
    pub fn read(data_dir: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(data_dir.join(SERVER_WAITING_FILE)).ok()?;
        let waiting: Self = serde_json::from_str(&text).ok()?;
        process_lives(waiting.pid).then_some(waiting)
    }
}

impl ServerInfo {
    /// The file a server of `data_dir` wrote, if there is a readable one and
    /// its process still runs (a server killed without cleanup leaves its
    /// file, and another server may listen on its port since).
    pub fn read(data_dir: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(data_dir.join(SERVER_FILE)).ok()?;
        let info: Self = serde_json::from_str(&text).ok()?;
        process_lives(info.pid).then_some(info)
    }
}

/// Whether a process with this id runs (true where that cannot be asked).
fn process_lives(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// How often a starting server tries again a library an import holds.
const LIBRARY_HELD_RETRY: Duration = Duration::from_secs(1);

/// Opens the library, waiting while an import or a library build holds it
/// (the server's own store is opened first, so another server is refused
/// before this): a server started during an import, by its service manager
/// say, serves once the import ends rather than failing in a loop.
async fn open_library_when_free(
    data_dir: &Path,
) -> Result<(Library, Option<Vec<ImportReport>>), StartError> {
    let mut waiting = false;
    loop {
        let dir = data_dir.to_path_buf();
        let opened = tokio::task::spawn_blocking(move || {
            let opened = Library::open_with_default(&dir)?;
            // What a killed import or an index rebuild left to index.
            opened.0.index_pending()?;
            Ok::<_, LibraryError>(opened)
        })
        .await?;
        match opened {
            Err(LibraryError::Store(StoreError::Locked)) => {
                if !waiting {
                    tracing::warn!(
                        "the library in {} is open in another lexstack process (an import or a \
                         library build); waiting for it to finish",
                        data_dir.display()
                    );
                    let waiting_server = WaitingServer {
                        pid: std::process::id(),
                    };
                    write_private(
                        &data_dir.join(SERVER_WAITING_FILE),
                        &serde_json::to_string(&waiting_server).unwrap_or_default(),
                    )?;
                    waiting = true;
                }
                tokio::time::sleep(LIBRARY_HELD_RETRY).await;
            }
            opened => {
                if waiting {
                    remove_quietly(&data_dir.join(SERVER_WAITING_FILE));
                    tracing::info!("the library is free; starting");
                }
                return opened.map_err(|err| match err.is_damaged_file() {
                    true => StartError::DamagedLibrary {
                        advice: crate::library::repair_advice(&data_dir.join(LIBRARY_FILE)),
                        source: err,
                    },
                    false => StartError::Library(err),
                });
            }
        }
    }
}

/// A killed import's rows are served, but not what it had yet to read:
/// the operator learns it here, not from answers that miss it.
fn warn_of_unfinished_imports(library: &Library, data_dir: &Path) {
    let unfinished = library
        .store
        .read(crate::library::import::unfinished_imports);
    for import in unfinished.unwrap_or_default() {
        tracing::warn!(
            file = %import.file,
            kind = %import.kind,
            rows_committed = import.rows_committed,
            "an import of the library did not finish; what it stored is served, the rest is \
             not: stop the server and run the same `lexstack --data {} import …` command again \
             to go on",
            data_dir.display()
        );
    }
}

pub struct App {
    ctx: Ctx,
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
}

impl App {
    /// Opens the store, writes `server.json` and the admin token, and
    /// prepares everything the server needs. While the library opens, every
    /// request is answered 503 `not_ready`; then connections queue on the
    /// bound listener until [`App::run`] serves them.
    pub async fn build(
        mut config: Config,
        listener: std::net::TcpListener,
    ) -> Result<Self, StartError> {
        listener
            .set_nonblocking(true)
            .map_err(StartError::Listener)?;
        let addr = listener.local_addr().map_err(StartError::Listener)?;
        // Links the server hands out name the port it is bound to (port 0
        // picks one).
        config.addr = addr;
        let listener = tokio::net::TcpListener::from_std(listener).map_err(StartError::Listener)?;
        let data_dir = config.data_dir.clone();
        let store = tokio::task::spawn_blocking(move || Store::open(&data_dir))
            .await?
            .map_err(|err| match err.is_damaged_file() {
                true => StartError::DamagedStore {
                    advice: crate::store::main_store_advice(&config.data_dir.join(STORE_FILE)),
                    source: err,
                },
                false => StartError::Store(err),
            })?;
        let library = crate::http::server::serve_while(
            crate::http::starting_router(),
            &listener,
            &config.http,
            open_library_when_free(&config.data_dir),
        )
        .await?;
        if let Some(reports) = &library.1 {
            let stored: u64 = reports.iter().map(|r| r.stored).sum();
            tracing::info!(records = stored, "built the embedded default library");
        }
        warn_of_unfinished_imports(&library.0, &config.data_dir);
        let data_dir = config.data_dir.clone();
        let admin_token = format!("lsa_{}", random_hex(32));
        write_private(&data_dir.join(ADMIN_TOKEN_FILE), &admin_token)?;
        let info = ServerInfo {
            addr,
            pid: std::process::id(),
            started_at: rfc3339(now_millis()),
            version: env!("CARGO_PKG_VERSION").to_string(),
        };
        let info_json = serde_json::to_string_pretty(&info).unwrap_or_default();
        write_private(&data_dir.join(SERVER_FILE), &info_json)?;
        let ctx = Arc::new(AppContext::new(
            Arc::new(config),
            store,
            Arc::new(library.0),
            secret_hash(&admin_token),
        ));
        Ok(Self {
            ctx,
            listener,
            addr,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` resolves, lets in-flight requests finish,
    /// stops the scheduler and the billing writer, and closes the store. It
    /// stops the same way, with [`StartError::StoreRefusesWork`], when the
    /// store refuses all work: a process that stays up then only answers
    /// errors, while one that exits is restarted by its service manager.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), StartError> {
        let data_dir = self.ctx.config.data_dir.clone();
        let cron = Cron::start(self.ctx.clone()).await?;
        let workers = Workers::start(self.ctx.clone())?;
        let store = self.ctx.store.clone();
        let (refused_tx, refused_rx) = tokio::sync::oneshot::channel();
        let stop = async move {
            tokio::select! {
                () = shutdown => {}
                () = until_store_refuses_work(store) => {
                    let _ = refused_tx.send(());
                }
            }
        };
        crate::http::server::serve(
            crate::http::router(self.ctx.clone()),
            self.listener,
            &self.ctx.config.http,
            stop,
        )
        .await;
        tracing::info!("stopped accepting requests; finishing background work");
        workers.stop().await;
        cron.stop().await;
        self.ctx.billing.shutdown();
        // Connection tasks and blocking work may still hold the context for a
        // moment after the last response; the store closes with the last one.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while Arc::strong_count(&self.ctx) > 1 && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }

        remove_quietly(&data_dir.join(SERVER_FILE));
        remove_quietly(&data_dir.join(ADMIN_TOKEN_FILE));
        if refused_rx.await.is_ok() {
            return Err(StartError::StoreRefusesWork);
        }
        tracing::info!("store closed; bye");
        Ok(())
    }
}

/// How often the running server asks whether its store still works.
const STORE_CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Resolves once the store refuses all work ([`Store::refuses_work`]).
async fn until_store_refuses_work(store: Store) {
    let mut every = tokio::time::interval(STORE_CHECK_EVERY);
    loop {
        every.tick().await;
        let store = store.clone();
        if tokio::task::spawn_blocking(move || store.refuses_work())
            .await
            .unwrap_or(false)
        {
            tracing::error!("the store refuses all work after a failed write; stopping");
            return;
        }
    }
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
    tracing::info!("shutdown signal received");
}

/// Writes a file readable only by its owner, replacing any previous one.
fn write_private(path: &Path, contents: &str) -> Result<(), StartError> {
    let err = |source| StartError::File {
        path: path.to_path_buf(),
        source,
    };
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let written = options.open(&tmp).and_then(|mut file| {
        file.write_all(contents.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    });
    // A full disk leaves no half-written file behind.
    if written.is_err() {
        remove_quietly(&tmp);
    }
    written.map_err(err)
}

fn remove_quietly(path: &Path) {
    if let Err(err) = std::fs::remove_file(path)
        && err.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!(path = %path.display(), error = %err, "could not remove file");
    }
}

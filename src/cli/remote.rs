//! How the operator commands reach the store: through the running server's
//! loopback admin endpoints when `DATA/server.json` names a server that
//! answers, else by opening the store directly.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use serde_json::Value;

use crate::app::{ADMIN_TOKEN_FILE, SERVER_FILE, ServerInfo, WaitingServer};
use crate::store::{STORE_FILE, Store, StoreError, main_store_advice};

pub enum Target {
    Remote(RemoteAdmin),
    Local(Store),
}

impl Target {
    /// `done`, with what to do about the store file when a failure of it
    /// met damage in the store opened here.
    pub fn advise<T>(&self, data_dir: &Path, done: anyhow::Result<T>) -> anyhow::Result<T> {
        match self {
            Target::Local(store) if store.is_damaged() => {
                done.context(main_store_advice(&data_dir.join(STORE_FILE)))
            }
            _ => done,
        }
    }
}

pub struct RemoteAdmin {
    base: String,
    token: String,
    client: reqwest::Client,
}

/// How long a command waits for a server that holds the store but does not
/// answer yet: one starting up opens the store before it serves (building
/// the default library, or indexing what a killed import left).
const STARTING_SERVER_WAIT: Duration = Duration::from_secs(60);

/// Finds the running server, or opens the store. `create` allows creating
/// an empty store (for commands that write, such as `keys create`).
pub async fn connect(data_dir: &Path, create: bool) -> anyhow::Result<Target> {
    let deadline = tokio::time::Instant::now() + STARTING_SERVER_WAIT;
    let mut told = false;
    loop {
        if let Some(remote) = running_server(data_dir).await? {
            return Ok(Target::Remote(remote));
        }
        if !create && !data_dir.join(STORE_FILE).exists() {
            bail!(
                "no lexstack store in {} (start `lexstack serve --data {0}` or create a key first)",
                data_dir.display()
            );
        }
        match Store::open(data_dir) {
            Ok(store) => return Ok(Target::Local(store)),
            // It answers only once the import ends, maybe hours from now.
            Err(StoreError::Locked) if let Some(waiting) = WaitingServer::read(data_dir) => bail!(
                "the store in {} is held by a lexstack server (process {}) that is waiting for \
                 an import or a library build to finish with the library; it answers these \
                 commands once that ends: wait for it, or stop that server to use them now",
                data_dir.display(),
                waiting.pid
            ),
            // Only a server (or another of these commands) holds this file.
            Err(StoreError::Locked) if tokio::time::Instant::now() < deadline => {
                if !told {
                    eprintln!(
                        "waiting for the lexstack server of {} to answer…",
                        data_dir.display()
                    );
                    told = true;
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(StoreError::Locked) => bail!(
                "the store in {} is held by a lexstack server that did not answer on its admin \
                 endpoint within {} s; check {SERVER_FILE} and the server's log",
                data_dir.display(),
                STARTING_SERVER_WAIT.as_secs()
            ),
            Err(err) if err.is_damaged_file() => {
                return Err(err).context(main_store_advice(&data_dir.join(STORE_FILE)));
            }
            Err(err) if err.is_permission_denied() => {
                return Err(err).with_context(|| {
                    format!(
                        "cannot open the store in {}: permission denied; run this as the user \
                         that owns {}",
                        data_dir.display(),
                        data_dir.join(STORE_FILE).display()
                    )
                });
            }
            Err(err) => {
                return Err(err)
                    .with_context(|| format!("cannot open the store in {}", data_dir.display()));
            }
        }
    }
}

async fn running_server(data_dir: &Path) -> anyhow::Result<Option<RemoteAdmin>> {
    let Some(info) = ServerInfo::read(data_dir) else {
        return Ok(None);
    };
    let token = std::fs::read_to_string(data_dir.join(ADMIN_TOKEN_FILE)).with_context(|| {
        format!(
            "a server runs for {} but its admin token cannot be read",
            data_dir.display()
        )
    })?;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .connect_timeout(Duration::from_secs(2))
        .no_proxy()
        .build()?;
    let base = format!("http://{}", loopback(info.addr));
    let alive = client
        .get(format!("{base}/health"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success());
    if !alive {
        // A server killed without cleanup leaves its file behind.
        return Ok(None);
    }
    Ok(Some(RemoteAdmin {
        base,
        token: token.trim().to_string(),
        client,
    }))
}

/// A server listening on every interface is reached on loopback.
fn loopback(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}

impl RemoteAdmin {
    pub async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let request = self.client.get(format!("{}{path}", self.base));
        self.send(request).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> anyhow::Result<Value> {
        let request = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_string());
        self.send(request).await
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> anyhow::Result<Value> {
        let response = request.bearer_auth(&self.token).send().await?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(body);
        }
        let message = body["error"]["message"].as_str().unwrap_or("no message");
        if status == reqwest::StatusCode::UNAUTHORIZED {
            // The address came from the data directory's server.json: a
            // server listening there that refuses its token is another's.
            bail!(
                "the server at {} refused this data directory's admin token ({message}): it is not this data directory's server (one that stopped left its address in server.json, and another took the port); stop that server, or delete server.json from the data directory if no lexstack server of it runs",
                self.base
            );
        }
        Err(anyhow!("the server refused: {message} ({status})"))
    }
}

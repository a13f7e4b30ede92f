//! One tokio runtime per process, one hdfs-native client per (scheme, authority, user),
//! and the time bounds that keep a dead NameNode from hanging TensorFlow.
//!
//! hdfs-native retries a refused NameNode for minutes by default
//! (dfs.client.failover.max.attempts=15 with exponential sleeps up to 15 s) and its
//! NameNode TCP connect has no timeout of its own. We therefore (1) probe the NameNode
//! port with a bounded TCP connect before building a client, (2) lower the failover
//! retries, and (3) bound every metadata call with an overall deadline.

use std::collections::HashMap;
use std::future::Future;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use hdfs_native::{Client, ClientBuilder};
use tokio::runtime::Runtime;

use crate::abi::*;
use crate::errors::{endpoint, from_hdfs, PluginError, PluginResult};
use crate::paths::HdfsUri;

/// Bound on reaching the NameNode (TCP connect), seconds.
pub const CONNECT_TIMEOUT_ENV: &str = "TF1COMPAT_HDFS_CONNECT_TIMEOUT_S";
/// Bound on one metadata call (stat, list, open, mkdir, ...), seconds.
pub const RPC_TIMEOUT_ENV: &str = "TF1COMPAT_HDFS_RPC_TIMEOUT_S";
/// NameNode failovers/retries hdfs-native makes before giving up.
pub const FAILOVER_ATTEMPTS_ENV: &str = "TF1COMPAT_HDFS_FAILOVER_ATTEMPTS";
/// Size of one read-ahead window for random-access files, MiB.
pub const READAHEAD_ENV: &str = "TF1COMPAT_HDFS_READAHEAD_MB";

fn env_f64(name: &str, default: f64) -> f64 {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).filter(|v: &f64| *v > 0.0).unwrap_or(default)
}

pub fn connect_timeout() -> Duration {
    Duration::from_secs_f64(env_f64(CONNECT_TIMEOUT_ENV, 10.0))
}

pub fn rpc_timeout() -> Duration {
    Duration::from_secs_f64(env_f64(RPC_TIMEOUT_ENV, 60.0))
}

pub fn readahead_bytes() -> usize {
    (env_f64(READAHEAD_ENV, 8.0) * 1024.0 * 1024.0) as usize
}

/// The process-wide runtime all HDFS I/O runs on. TensorFlow calls us from its own
/// threads (never tokio ones), so `block_on` from those threads is safe.
pub fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).clamp(2, 8);
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .thread_name("tf1compat-hdfs")
            .enable_all()
            .build()
            .expect("tf1compat hdfs plugin: cannot start its tokio runtime")
    })
}

type ClientKey = (String, String, String);

fn clients() -> &'static Mutex<HashMap<ClientKey, Client>> {
    static CLIENTS: OnceLock<Mutex<HashMap<ClientKey, Client>>> = OnceLock::new();
    CLIENTS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Drops cached clients (TF's `flush_caches`): the next call reconnects.
pub fn forget_clients() {
    clients().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The cached client for the cluster `uri` is on, building (and probing) it if needed.
pub fn client_for(uri: &HdfsUri) -> PluginResult<Client> {
    // The user is part of the key: HADOOP_USER_NAME may change between calls in one process.
    let user = std::env::var("HADOOP_USER_NAME").unwrap_or_default();
    let key = (uri.scheme.clone(), uri.authority.clone(), user.clone());
    if let Some(c) = clients().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(c.clone());
    }
    if let Some((host, port)) = uri.host_port() {
        probe_namenode(uri, &host, port)?;
    }
    let attempts = std::env::var(FAILOVER_ATTEMPTS_ENV).unwrap_or_else(|_| "2".into());
    let mut builder = ClientBuilder::new()
        .with_config(vec![
            ("dfs.client.failover.max.attempts", attempts.as_str()),
            ("dfs.client.failover.sleep.base.millis", "100"),
            ("dfs.client.failover.sleep.max.millis", "1000"),
        ])
        .with_io_runtime(runtime().handle().clone());
    if !uri.authority.is_empty() {
        builder = builder.with_url(uri.cluster_url());
    }
    if !user.is_empty() {
        builder = builder.with_user(user);
    }
    let client = builder.build().map_err(|e| from_hdfs("connect to", uri, e))?;
    clients().lock().unwrap_or_else(|e| e.into_inner()).insert(key, client.clone());
    Ok(client)
}

/// A bounded TCP connect to the NameNode: fails within the connect timeout, naming
/// host and port, instead of hdfs-native's minutes of retries.
fn probe_namenode(uri: &HdfsUri, host: &str, port: u16) -> PluginResult<()> {
    let limit = connect_timeout();
    let start = Instant::now();
    let unreachable = |why: String| {
        PluginError::new(
            TF_UNAVAILABLE,
            format!(
                "cannot connect to the HDFS NameNode at {host}:{port} (for {}): {why}, after {:.1}s \
                 (limit {:.0}s, set {CONNECT_TIMEOUT_ENV}); check that the NameNode is running \
                 and that the host and port in the URL are right",
                uri.display(),
                start.elapsed().as_secs_f64(),
                limit.as_secs_f64()
            ),
        )
    };
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|e| unreachable(format!("cannot resolve {host:?}: {e}")))?
        .collect();
    let mut last = String::from("no address");
    for addr in addrs {
        let left = limit.saturating_sub(start.elapsed());
        if left.is_zero() {
            break;
        }
        match TcpStream::connect_timeout(&addr, left) {
            Ok(_) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
    }
    Err(unreachable(last))
}

/// Runs one NameNode call for `op` on `uri` to completion, within the RPC deadline.
pub fn call<T, F>(op: &str, uri: &HdfsUri, fut: F) -> PluginResult<T>
where
    F: Future<Output = hdfs_native::Result<T>>,
{
    let limit = rpc_timeout();
    // The timer must be created inside the runtime, hence the async block.
    match runtime().block_on(async { tokio::time::timeout(limit, fut).await }) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(from_hdfs(op, uri, e)),
        Err(_) => Err(PluginError::new(
            TF_DEADLINE_EXCEEDED,
            format!(
                "{op} {}: no answer from HDFS at {} within {:.0}s (set {RPC_TIMEOUT_ENV} to wait longer)",
                uri.display(),
                endpoint(uri),
                limit.as_secs_f64()
            ),
        )),
    }
}

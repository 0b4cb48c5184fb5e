//! A TCP proxy in front of the API server that a test can cut, to put one client (a
//! manager) behind a network partition or an API server that keeps going away while the
//! server itself stays up for the test's own checks.
//!
//! Two ways to fail: [`Proxy::blackhole`] (packets vanish: connections stay open and
//! nothing answers, as in a partition — only timeouts notice) and [`Proxy::refuse`]
//! (every connection reset and new ones refused, as when the server process dies).
//! [`Proxy::heal`] ends either: held connections are closed and new ones pass again.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering::SeqCst};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

const PASS: u8 = 0;
const BLACKHOLE: u8 = 1;
const REFUSE: u8 = 2;

pub struct Proxy {
    pub addr: SocketAddr,
    state: Arc<AtomicU8>,
    /// Bumped on every cut and heal: a connection from an earlier epoch is closed.
    epoch: Arc<std::sync::atomic::AtomicU64>,
    accept: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens on 127.0.0.1 and forwards to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the proxy");
        let addr = listener.local_addr().expect("proxy address");
        let state = Arc::new(AtomicU8::new(PASS));
        let epoch = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let (s, e) = (state.clone(), epoch.clone());
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (state, epoch) = (s.clone(), e.clone());
                tokio::spawn(async move {
                    let born = epoch.load(SeqCst);
                    match state.load(SeqCst) {
                        REFUSE => return,
                        // Accepted and never answered, until healed.
                        BLACKHOLE => {
                            hold(&epoch, born).await;
                            return;
                        }
                        _ => {}
                    }
                    let Ok(server) = TcpStream::connect(upstream).await else { return };
                    let (cr, cw) = client.into_split();
                    let (sr, sw) = server.into_split();
                    tokio::select! {
                        _ = pump(cr, sw, &state, &epoch, born) => {}
                        _ = pump(sr, cw, &state, &epoch, born) => {}
                    }
                });
            }
        });
        Proxy { addr, state, epoch, accept }
    }

    /// A client of the API server through this proxy, with the test's kubeconfig.
    pub async fn client(&self) -> kube::Client {
        let kubeconfig = kube::config::Kubeconfig::read_from(crate::cluster::kubeconfig()).expect("read kubeconfig");
        let mut config =
            kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await.expect("kubeconfig");
        config.cluster_url = format!("https://{}", self.addr).parse().expect("proxy URL");
        // A partitioned client notices by its own timeouts, as in a cluster.
        config.read_timeout = Some(Duration::from_secs(30));
        kube::Client::try_from(config).expect("client")
    }

    /// The API server's address, from the test's kubeconfig.
    pub fn upstream() -> SocketAddr {
        let kubeconfig = kube::config::Kubeconfig::read_from(crate::cluster::kubeconfig()).expect("read kubeconfig");
        let server = kubeconfig.clusters.first().and_then(|c| c.cluster.as_ref()?.server.clone()).expect("a server");
        let authority = server.trim_start_matches("https://").trim_end_matches('/');
        std::net::ToSocketAddrs::to_socket_addrs(authority).expect("server address").next().expect("an address")
    }

    /// Packets vanish from now on: open connections hang, new ones are accepted and hang.
    pub fn blackhole(&self) {
        self.state.store(BLACKHOLE, SeqCst);
    }

    /// Every connection is reset and new ones refused, as when the server process dies.
    pub fn refuse(&self) {
        self.state.store(REFUSE, SeqCst);
        self.epoch.fetch_add(1, SeqCst);
    }

    /// Traffic passes again; connections held by a cut are closed.
    pub fn heal(&self) {
        self.state.store(PASS, SeqCst);
        self.epoch.fetch_add(1, SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.heal();
    }
}

/// Waits until the epoch moves on (a heal or another cut).
async fn hold(epoch: &std::sync::atomic::AtomicU64, born: u64) {
    while epoch.load(SeqCst) == born {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Copies one direction until either side closes, the proxy refuses, or a blackhole is
/// healed (a blackholed chunk is dropped and the connection held).
async fn pump(
    from: tokio::net::tcp::OwnedReadHalf,
    to: tokio::net::tcp::OwnedWriteHalf,
    state: &AtomicU8,
    epoch: &std::sync::atomic::AtomicU64,
    born: u64,
) {
    let mut buf = vec![0u8; 32 * 1024];
    loop {
        let read = tokio::select! {
            read = read(&from, &mut buf) => read,
            _ = hold(epoch, born) => return,
        };
        let n = match read {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        match state.load(SeqCst) {
            BLACKHOLE => {
                hold(epoch, born).await;
                return;
            }
            REFUSE => return,
            _ => {}
        }
        if write_all(&to, &buf[..n]).await.is_err() {
            return;
        }
    }
}

// tokio's readiness API (its io-util extension traits are not among the workspace's
// features, and enabling them would rebuild every crate that uses tokio).
async fn read(from: &tokio::net::tcp::OwnedReadHalf, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        from.readable().await?;
        match from.try_read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            read => return read,
        }
    }
}

async fn write_all(to: &tokio::net::tcp::OwnedWriteHalf, mut buf: &[u8]) -> std::io::Result<()> {
    while !buf.is_empty() {
        to.writable().await?;
        match to.try_write(buf) {
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

//! `/healthz`, `/readyz` and `/metrics` on one address, as a controller-runtime
//! manager serves them: alive while the process runs; ready once every controller's
//! cache has synced, or while this replica stands by for the lease (a follower that is
//! never ready would stall every rolling update of a Deployment with two replicas).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Request, Response, StatusCode};
use tokio::net::TcpListener;

use super::metrics::Metrics;

/// What the probes report.
#[derive(Default)]
pub struct Health {
    /// Controllers whose caches have not synced yet.
    pub(crate) unsynced: AtomicUsize,
    pub(crate) started: AtomicBool,
    /// Waiting for the lease: healthy, and ready to take over.
    pub(crate) standby: AtomicBool,
    pub leader: AtomicBool,
}

impl Health {
    pub fn ready(&self) -> bool {
        self.standby.load(Ordering::SeqCst)
            || (self.started.load(Ordering::SeqCst) && self.unsynced.load(Ordering::SeqCst) == 0)
    }
}

fn respond(status: StatusCode, content_type: &str, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    if let Ok(v) = content_type.parse() {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    r
}

/// What one listener answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Routes {
    pub probes: bool,
    pub metrics: bool,
}

/// Binds `addr` and serves `routes` until the task is dropped; returns the bound
/// address (port 0 picks a free one).
pub(crate) async fn serve(
    addr: SocketAddr,
    routes: Routes,
    health: Arc<Health>,
    metrics: Arc<Metrics>,
) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let (health, metrics) = (health.clone(), metrics.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                    let (health, metrics) = (health.clone(), metrics.clone());
                    async move {
                        let text = "text/plain; charset=utf-8";
                        Ok::<_, Infallible>(match req.uri().path() {
                            "/healthz" | "/livez" if routes.probes => respond(StatusCode::OK, text, "ok".into()),
                            "/readyz" if routes.probes && health.ready() => respond(StatusCode::OK, text, "ok".into()),
                            "/readyz" if routes.probes => {
                                respond(StatusCode::SERVICE_UNAVAILABLE, text, "caches not synced".into())
                            }
                            "/metrics" if routes.metrics => respond(
                                StatusCode::OK,
                                "application/openmetrics-text; version=1.0.0; charset=utf-8",
                                metrics.encode(),
                            ),
                            _ => respond(StatusCode::NOT_FOUND, text, "not found".into()),
                        })
                    }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
            });
        }
    });
    Ok(bound)
}

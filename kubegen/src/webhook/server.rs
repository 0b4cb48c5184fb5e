//! The HTTPS server: one route per validator or defaulter, AdmissionReview v1 in and
//! out, HTTP/1.1 only (as controller-runtime's server by default), a body limit, and a
//! panic in user code answered as a denial.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use kube_core::Resource;
use kube_core::admission::AdmissionResponse;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use super::admission::{self, Defaulter, Defaulting, Handler, Validating, Validator};
use super::certs::CertStore;
use super::conversion::{self, Conversion, Converter};

/// The largest AdmissionReview read: an object and its old version, each up to the API
/// server's request limit (3 MiB), and the review around them.
pub const BODY_LIMIT: usize = 8 * 1024 * 1024;

/// The request bodies held in memory at once, across connections: a body takes its
/// share (its Content-Length, else [`BODY_LIMIT`]) when its first bytes arrive and keeps it
/// until its review is answered, so a burst of large reviews waits rather than take the
/// process's memory, and a client that announces a body and sends nothing holds nothing.
/// Bodies of up to [`SMALL_BODY`] bytes — the API server's usual reviews — draw on a pool
/// of their own ([`SMALL_BODIES_IN_FLIGHT`]), so large ones never hold them up. A review
/// being answered takes a few times its body besides (parsed, typed, answered).
pub const BODIES_IN_FLIGHT: usize = 64 * 1024 * 1024;
/// The largest body counted in the small pool.
pub const SMALL_BODY: usize = 256 * 1024;
/// The small bodies' pool.
pub const SMALL_BODIES_IN_FLIGHT: usize = 32 * 1024 * 1024;
const _: () = assert!(BODY_LIMIT <= BODIES_IN_FLIGHT && SMALL_BODY <= SMALL_BODIES_IN_FLIGHT);

/// How long a request waits for its share of memory before it is told the server is busy
/// (503): well inside the API server's default webhook timeout (10 s), so the API server
/// gets an answer and applies the webhook's failure policy.
const BUDGET_WAIT: Duration = Duration::from_secs(5);

/// How long a kept-alive connection may sit before the next request's headers: longer
/// than the API server keeps an idle connection (90 s), so it never reuses one this
/// server is about to close (Go does not retry such a POST).
const HEADER_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a body may take to arrive: the API server gives a webhook call at most 30 s.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a body may pause between two chunks.
const BODY_STALL: Duration = Duration::from_secs(10);

/// The two pools of memory for bodies, in KiB permits.
#[derive(Clone)]
struct Budget {
    small: Arc<tokio::sync::Semaphore>,
    large: Arc<tokio::sync::Semaphore>,
}

impl Budget {
    fn new() -> Self {
        Budget {
            small: Arc::new(tokio::sync::Semaphore::new(SMALL_BODIES_IN_FLIGHT / 1024)),
            large: Arc::new(tokio::sync::Semaphore::new(BODIES_IN_FLIGHT / 1024)),
        }
    }
}

/// kubebuilder's path for a kind's validating webhook: `/validate-<group with dashes>-<version>-<kind>`.
pub fn validate_path<K: Resource<DynamicType = ()>>() -> String {
    path::<K>("validate")
}

/// kubebuilder's path for a kind's defaulting (mutating) webhook: `/mutate-<group with dashes>-<version>-<kind>`.
pub fn mutate_path<K: Resource<DynamicType = ()>>() -> String {
    path::<K>("mutate")
}

fn path<K: Resource<DynamicType = ()>>(what: &str) -> String {
    format!("/{what}-{}-{}-{}", K::group(&()).replace('.', "-"), K::version(&()), K::kind(&()).to_lowercase())
}

/// What a path serves.
#[derive(Clone)]
enum Route {
    Admission(Arc<dyn Handler>),
    Conversion(Arc<dyn Converter>),
}

/// The admission and conversion webhooks of any number of kinds, by path.
#[derive(Clone)]
pub struct Webhooks {
    routes: Arc<BTreeMap<String, Route>>,
}

impl std::fmt::Debug for Webhooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhooks").field("paths", &self.routes.keys().collect::<Vec<_>>()).finish()
    }
}

impl Default for Webhooks {
    fn default() -> Self {
        Self::new()
    }
}

impl Webhooks {
    pub fn new() -> Self {
        Webhooks { routes: Arc::default() }
    }

    /// Serves `validator` for `K` at [`validate_path`].
    pub fn validate<K>(self, validator: impl Validator<K>) -> Self
    where
        K: Resource<DynamicType = ()> + DeserializeOwned + Send + Sync + 'static,
    {
        self.validate_at(&validate_path::<K>(), validator)
    }

    /// Serves `validator` for `K` at `path` (a `+kubebuilder:webhook:path=...` of your own).
    pub fn validate_at<K>(mut self, path: &str, validator: impl Validator<K>) -> Self
    where
        K: DeserializeOwned + Send + Sync + 'static,
    {
        let handler = Arc::new(Validating { validator, kind: PhantomData::<fn() -> K> });
        Arc::make_mut(&mut self.routes).insert(path.to_string(), Route::Admission(handler));
        self
    }

    /// Serves `defaulter` for `K` at [`mutate_path`].
    pub fn default<K>(self, defaulter: impl Defaulter<K>) -> Self
    where
        K: Resource<DynamicType = ()> + DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        self.default_at(&mutate_path::<K>(), defaulter)
    }

    /// Serves `defaulter` for `K` at `path`.
    pub fn default_at<K>(mut self, path: &str, defaulter: impl Defaulter<K>) -> Self
    where
        K: DeserializeOwned + Serialize + Send + Sync + 'static,
    {
        let handler = Arc::new(Defaulting { defaulter, kind: PhantomData::<fn() -> K> });
        Arc::make_mut(&mut self.routes).insert(path.to_string(), Route::Admission(handler));
        self
    }

    /// Serves `conversion` at `/convert`, the path kubebuilder's CRD patches name.
    pub fn convert<H>(self, conversion: Conversion<H>) -> Self
    where
        H: Resource<DynamicType = ()> + Serialize + DeserializeOwned + 'static,
    {
        self.convert_at("/convert", conversion)
    }

    /// Serves `conversion` at `path` (one per kind when several kinds convert).
    pub fn convert_at<H>(mut self, path: &str, conversion: Conversion<H>) -> Self
    where
        H: Resource<DynamicType = ()> + Serialize + DeserializeOwned + 'static,
    {
        Arc::make_mut(&mut self.routes).insert(path.to_string(), Route::Conversion(Arc::new(conversion)));
        self
    }

    /// The paths served, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.routes.keys().map(String::as_str)
    }

    /// Answers one AdmissionReview (or ConversionReview) body as the server does, with the review to send back;
    /// `None` when no webhook is served at `path`. For a webhook's own unit tests.
    pub async fn review(&self, path: &str, body: &[u8]) -> Option<Vec<u8>> {
        let handler = match self.routes.get(path)? {
            Route::Conversion(converter) => return Some(conversion::review(converter.as_ref(), body)),
            Route::Admission(handler) => handler.clone(),
        };
        let started = Instant::now();
        let response = match admission::read_review(body) {
            Err(invalid) => invalid,
            Ok((request, raw)) => {
                let fallback = AdmissionResponse::from(&request);
                let uid = request.uid.clone();
                let about = admission::Subject::of(&request);
                let mut response = admission::unwinding(handler.admit(request, raw), fallback).await;
                about.name_in(&mut response);
                tracing::debug!(%path, %uid, allowed = response.allowed, elapsed = ?started.elapsed(), "admission");
                response
            }
        };
        Some(admission::review_json(response))
    }

    /// Binds `addr` (port 0 picks a free one) and serves over TLS with the certificate
    /// `certs` holds at each handshake, until the returned server is dropped or shut down.
    pub async fn serve(self, addr: SocketAddr, certs: CertStore) -> std::io::Result<WebhookServer> {
        // ring, as kube's client uses: newer rustls releases deprecate its provider (no
        // post-quantum key exchange), which a user's fresh Cargo.lock resolves to; the
        // warning would be printed by every build of an operator.
        #[allow(deprecated)]
        let mut config =
            rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(std::io::Error::other)?
                .with_no_client_auth()
                .with_cert_resolver(Arc::new(certs));
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let webhooks = self;
        // Stopping the server ends its open connections too (the API server keeps them
        // alive between calls): each finishes the request it is serving, then closes.
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let budget = Budget::new();
        let task = tokio::spawn(async move {
            let mut backoff = Duration::from_millis(5);
            loop {
                let (tcp, peer) = match listener.accept().await {
                    Ok(accepted) => accepted,
                    // Out of file descriptors, say: wait for connections to close rather
                    // than spin (as Go's net/http does, 5 ms doubling to 1 s).
                    Err(e) => {
                        tracing::warn!(error = %e, retry_in = ?backoff, "webhook server: cannot accept a connection");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(1));
                        continue;
                    }
                };
                backoff = Duration::from_millis(5);
                let (acceptor, webhooks, stopped, budget) =
                    (acceptor.clone(), webhooks.clone(), stopped.clone(), budget.clone());
                tokio::spawn(async move {
                    let tls = match tokio::time::timeout(Duration::from_secs(10), acceptor.accept(tcp)).await {
                        Ok(Ok(tls)) => tls,
                        Ok(Err(e)) => return tracing::debug!(%peer, "webhook TLS handshake failed: {e}"),
                        Err(_) => return tracing::debug!(%peer, "webhook TLS handshake timed out"),
                    };
                    let service = hyper::service::service_fn(move |req| answer(webhooks.clone(), budget.clone(), req));
                    let conn = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(HEADER_TIMEOUT)
                        .serve_connection(TokioIo::new(tls), service);
                    tokio::pin!(conn);
                    let served = tokio::select! {
                        served = conn.as_mut() => served,
                        () = until_stopped(stopped) => {
                            conn.as_mut().graceful_shutdown();
                            conn.await
                        }
                    };
                    if let Err(e) = served {
                        tracing::debug!(%peer, "webhook connection: {e}");
                    }
                });
            }
        });
        Ok(WebhookServer { local_addr, task, stop, keeper: None })
    }
}

/// A running webhook server; dropping it stops it.
#[derive(Debug)]
pub struct WebhookServer {
    local_addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
    stop: tokio::sync::watch::Sender<bool>,
    /// What keeps its certificates current (`--webhook-cert-secret`), stopped with it.
    keeper: Option<tokio::task::JoinHandle<()>>,
}

impl WebhookServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The server, stopping `keeper` (the task that keeps its certificates) with it.
    pub(crate) fn keeping(mut self, keeper: tokio::task::JoinHandle<()>) -> Self {
        self.keeper = Some(keeper);
        self
    }
}

impl Drop for WebhookServer {
    fn drop(&mut self) {
        self.task.abort();
        if let Some(keeper) = &self.keeper {
            keeper.abort();
        }
        let _ = self.stop.send(true);
    }
}

/// Returns once the server is stopped (or dropped).
async fn until_stopped(mut stopped: tokio::sync::watch::Receiver<bool>) {
    loop {
        if *stopped.borrow_and_update() {
            return;
        }
        if stopped.changed().await.is_err() {
            return;
        }
    }
}

fn reply(status: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    if let Ok(v) = content_type.parse() {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    r
}

async fn answer(
    webhooks: Webhooks,
    budget: Budget,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let text = "text/plain; charset=utf-8";
    let path = req.uri().path().to_string();
    if !webhooks.routes.contains_key(&path) {
        let known = webhooks.paths().collect::<Vec<_>>().join(", ");
        return Ok(reply(StatusCode::NOT_FOUND, text, format!("no webhook at {path}; this server has {known}\n")));
    }
    if req.method() != Method::POST {
        return Ok(reply(StatusCode::METHOD_NOT_ALLOWED, text, "webhooks take POST\n"));
    }
    let refuse = |status: StatusCode, message: &str| {
        Ok(reply(status, "application/json", admission::review_json(AdmissionResponse::invalid(message))))
    };
    let too_large = format!("the AdmissionReview is larger than {BODY_LIMIT} bytes");
    let declared =
        req.headers().get(hyper::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if let Some(declared) = declared.filter(|n| *n > BODY_LIMIT) {
        // Read and dropped as it comes (nothing held), so the client, still sending, reads
        // the refusal rather than a broken connection; past four limits it is cut off.
        if declared <= 4 * BODY_LIMIT {
            let mut body = req.into_body();
            let _ = tokio::time::timeout(BODY_TIMEOUT, async { while let Some(Ok(_)) = body.frame().await {} }).await;
        }
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, &too_large);
    }
    // The body's share of the memory, held until the review is answered.
    let size = declared.unwrap_or(BODY_LIMIT);
    let (body, _held) = match tokio::time::timeout(BODY_TIMEOUT, read_body(req.into_body(), size, &budget)).await {
        Ok(Ok(read)) => read,
        Ok(Err(BodyError::TooLarge)) => return refuse(StatusCode::PAYLOAD_TOO_LARGE, &too_large),
        Ok(Err(BodyError::Busy)) => {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the webhook server holds as many bytes of reviews as it takes ({BODIES_IN_FLIGHT}); try again"
                ),
            );
        }
        Ok(Err(BodyError::Stalled)) => {
            return refuse(StatusCode::REQUEST_TIMEOUT, &format!("the body paused for longer than {BODY_STALL:?}"));
        }
        Ok(Err(BodyError::Read(e))) => {
            return refuse(StatusCode::BAD_REQUEST, &format!("the body could not be read: {e}"));
        }
        Err(_) => {
            return refuse(
                StatusCode::REQUEST_TIMEOUT,
                &format!("the body took longer than {BODY_TIMEOUT:?} to arrive"),
            );
        }
    };
    let review = webhooks.review(&path, &body).await.unwrap_or_default();
    Ok(reply(StatusCode::OK, "application/json", review))
}

enum BodyError {
    TooLarge,
    Busy,
    Stalled,
    Read(hyper::Error),
}

/// Reads a body of at most `size` bytes (its Content-Length, or the limit). Its share of
/// `budget` is taken whole when its first chunk arrives (taking it bit by bit, bodies
/// arriving together could each hold part and none get the rest).
async fn read_body(
    mut body: Incoming,
    size: usize,
    budget: &Budget,
) -> Result<(Bytes, Option<tokio::sync::OwnedSemaphorePermit>), BodyError> {
    let mut bytes: Option<Vec<u8>> = None;
    let mut held = None;
    loop {
        let frame = match tokio::time::timeout(BODY_STALL, body.frame()).await {
            Err(_) => return Err(BodyError::Stalled),
            Ok(None) => break,
            Ok(Some(frame)) => frame.map_err(BodyError::Read)?,
        };
        let Ok(data) = frame.into_data() else { continue };
        if bytes.is_none() {
            let pool = if size <= SMALL_BODY { &budget.small } else { &budget.large };
            let permits = u32::try_from(size.div_ceil(1024).max(1)).unwrap_or(u32::MAX);
            let permit = tokio::time::timeout(BUDGET_WAIT, pool.clone().acquire_many_owned(permits))
                .await
                .map_err(|_| BodyError::Busy)?
                .map_err(|_| BodyError::Busy)?;
            held = Some(permit);
            // Its Content-Length up front; a body without one grows as it arrives.
            bytes = Some(Vec::with_capacity(if size < BODY_LIMIT { size } else { 64 * 1024 }));
        }
        let buffer = bytes.get_or_insert_default();
        if buffer.len() + data.len() > size.min(BODY_LIMIT) {
            return Err(BodyError::TooLarge);
        }
        buffer.extend_from_slice(&data);
    }
    Ok((Bytes::from(bytes.unwrap_or_default()), held))
}

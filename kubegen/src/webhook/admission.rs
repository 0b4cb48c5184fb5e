//! Admission: what a validator and a defaulter see and say, and the AdmissionReview v1
//! exchange around them (controller-runtime's `admission.Validator`/`Defaulter`, typed).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use futures::FutureExt;
use kube_core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview, Operation};
use kube_core::response::{StatusCause, StatusDetails};
use kube_core::{DynamicObject, Status};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use k8s_openapi::api::authentication::v1::UserInfo;

/// What a validator or defaulter knows of the request besides the object.
#[derive(Debug, Clone)]
pub struct Request {
    pub operation: Operation,
    /// Nothing the request changes will be stored (`kubectl --dry-run=server`): a webhook
    /// with side effects must not act on it.
    pub dry_run: bool,
    pub user_info: UserInfo,
    pub name: String,
    pub namespace: Option<String>,
    /// The subresource (`status`, `scale`), if any.
    pub sub_resource: Option<String>,
    /// The request's id, for logs.
    pub uid: String,
}

/// One field's problem, as the API server lists it in a denial's causes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field's path, as Kubernetes prints it (`spec.replicas`, `spec.ports[1].name`).
    pub field: String,
    pub message: String,
    /// `FieldValueInvalid` unless said otherwise (`FieldValueRequired`, `FieldValueForbidden`, ...).
    pub reason: String,
}

impl FieldError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into(), reason: "FieldValueInvalid".into() }
    }

    pub fn required(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into(), reason: "FieldValueRequired".into() }
    }

    pub fn forbidden(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into(), reason: "FieldValueForbidden".into() }
    }
}

/// A refused request: what the user reads, the fields at fault, and warnings to show
/// beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    pub message: String,
    pub fields: Vec<FieldError>,
    /// The HTTP status the API server answers with: 403 (Forbidden) unless said otherwise;
    /// 422 (Invalid) for a denial made of field errors, as `apierrors.NewInvalid` does.
    pub code: u16,
    pub warnings: Vec<String>,
}

impl Denial {
    /// A denial with a message alone.
    pub fn new(message: impl Into<String>) -> Self {
        Denial { message: message.into(), fields: Vec::new(), code: 403, warnings: Vec::new() }
    }

    /// The object is invalid: each field's problem, worded as the API server words
    /// validation errors (`spec.replicas: Invalid value: ...`).
    pub fn invalid(fields: Vec<FieldError>) -> Self {
        let message = fields.iter().map(|f| format!("{}: {}", f.field, f.message)).collect::<Vec<_>>().join(", ");
        Denial { message, fields, code: 422, warnings: Vec::new() }
    }

    pub fn with_warnings(mut self, warnings: Vec<String>) -> Self {
        self.warnings = warnings;
        self
    }
}

/// What a validator answers: allowed with warnings (often none), or denied.
pub type Verdict = Result<Vec<String>, Denial>;

/// Checks objects of kind `K` on create, update and delete; each method allows by
/// default. Implement the operations the webhook's rules register for.
pub trait Validator<K>: Send + Sync + 'static {
    fn validate_create(&self, object: &K, request: &Request) -> impl Future<Output = Verdict> + Send {
        let _ = (object, request);
        async { Ok(Vec::new()) }
    }

    fn validate_update(&self, old: &K, new: &K, request: &Request) -> impl Future<Output = Verdict> + Send {
        let _ = (old, new, request);
        async { Ok(Vec::new()) }
    }

    fn validate_delete(&self, object: &K, request: &Request) -> impl Future<Output = Verdict> + Send {
        let _ = (object, request);
        async { Ok(Vec::new()) }
    }
}

/// Fills in objects of kind `K` before they are stored. The webhook answers with the
/// JSONPatch from the object as sent to the object as defaulted; fields `K` does not
/// know are never touched by it.
pub trait Defaulter<K>: Send + Sync + 'static {
    fn default(&self, object: &mut K, request: &Request) -> impl Future<Output = Result<(), Denial>> + Send;
}

/// The ready-made validator: the kind's own schema and CEL rules (`Validate`), applied
/// as the API server applies them — for a server whose CEL is older than a rule, or a
/// check the server cannot make (rules the webhook adds to the kind's).
pub struct SchemaValidator;

impl<K: crate::Validate + Send + Sync> Validator<K> for SchemaValidator {
    fn validate_create(&self, object: &K, _: &Request) -> impl Future<Output = Verdict> + Send {
        let verdict = object.validate().map(|()| Vec::new()).map_err(violations);
        async { verdict }
    }

    fn validate_update(&self, old: &K, new: &K, _: &Request) -> impl Future<Output = Verdict> + Send {
        let verdict = new.validate_update(old).map(|()| Vec::new()).map_err(violations);
        async { verdict }
    }
}

fn violations(v: crate::Violations) -> Denial {
    Denial::invalid(
        v.0.into_iter()
            .map(|v| {
                let message = v.message.strip_prefix(&format!("{}: ", v.path)).unwrap_or(&v.message).to_string();
                FieldError::invalid(v.path, message)
            })
            .collect(),
    )
}

pub(crate) type Reply = Pin<Box<dyn Future<Output = AdmissionResponse> + Send>>;

/// One route's admission, whatever its kind: the server's view of a validator or a
/// defaulter.
pub(crate) trait Handler: Send + Sync {
    fn admit(self: Arc<Self>, request: AdmissionRequest<DynamicObject>, raw: Raw) -> Reply;
}

/// The request's objects as the API server sent them.
pub(crate) struct Raw {
    pub object: Option<Value>,
    pub old_object: Option<Value>,
}

fn context(r: &AdmissionRequest<DynamicObject>) -> Request {
    Request {
        operation: r.operation.clone(),
        dry_run: r.dry_run,
        user_info: serde_json::to_value(&r.user_info)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default(),
        name: r.name.clone(),
        namespace: r.namespace.clone(),
        sub_resource: r.sub_resource.clone(),
        uid: r.uid.clone(),
    }
}

fn typed<K: DeserializeOwned>(value: Option<&Value>, what: &str) -> Result<K, Denial> {
    let value = value.ok_or_else(|| Denial { code: 400, ..Denial::new(format!("the request has no {what}")) })?;
    serde_json::from_value(value.clone())
        .map_err(|e| Denial { code: 400, ..Denial::new(format!("the {what} does not read as this kind: {e}")) })
}

pub(crate) fn respond(response: AdmissionResponse, verdict: Verdict) -> AdmissionResponse {
    match verdict {
        Ok(warnings) => {
            let mut response = response;
            response.warnings = non_empty(warnings);
            response
        }
        Err(denial) => deny(response, denial),
    }
}

fn non_empty(warnings: Vec<String>) -> Option<Vec<String>> {
    if warnings.is_empty() { None } else { Some(warnings) }
}

/// The object a review is about, for its denial's `StatusDetails`.
pub(crate) struct Subject {
    group: String,
    kind: String,
    name: String,
}

impl Subject {
    pub(crate) fn of(request: &AdmissionRequest<DynamicObject>) -> Self {
        // On a create with generateName the name is not known yet: the object's own says it.
        let name = if request.name.is_empty() {
            request.object.as_ref().and_then(|o| o.metadata.name.clone()).unwrap_or_default()
        } else {
            request.name.clone()
        };
        Subject { group: request.kind.group.clone(), kind: request.kind.kind.clone(), name }
    }

    /// A denial's details name the object as controller-runtime's do (group, kind, name),
    /// and a denial with field causes reads as the API server's own validation errors
    /// (`Memcached.cache.example.com "wh1" is invalid: spec.size: ...`), so kubectl prints
    /// `The Memcached "wh1" is invalid` instead of `The request is invalid`.
    pub(crate) fn name_in(&self, response: &mut AdmissionResponse) {
        if response.allowed {
            return;
        }
        let Some(details) = response.result.details.as_mut() else { return };
        details.group = self.group.clone();
        details.kind = self.kind.clone();
        details.name = self.name.clone();
        if response.result.reason == "Invalid" {
            let kind = if self.group.is_empty() { self.kind.clone() } else { format!("{}.{}", self.kind, self.group) };
            // A create by generateName has no name yet: the API server leaves it out too.
            response.result.message = if self.name.is_empty() {
                format!("{kind} is invalid: {}", response.result.message)
            } else {
                format!("{kind} {:?} is invalid: {}", self.name, response.result.message)
            };
        }
    }
}

pub(crate) fn deny(response: AdmissionResponse, denial: Denial) -> AdmissionResponse {
    let mut response = response.deny(&denial.message);
    response.result = status(&denial);
    response.warnings = non_empty(denial.warnings);
    response
}

fn status(denial: &Denial) -> Status {
    let reason = match denial.code {
        400 => "BadRequest",
        422 => "Invalid",
        _ => "Forbidden",
    };
    let mut status = Status::failure(&denial.message, reason).with_code(denial.code);
    if !denial.fields.is_empty() {
        status.details = Some(StatusDetails {
            causes: denial
                .fields
                .iter()
                .map(|f| StatusCause { reason: f.reason.clone(), message: f.message.clone(), field: f.field.clone() })
                .collect(),
            name: String::new(),
            group: String::new(),
            kind: String::new(),
            uid: String::new(),
            retry_after_seconds: 0,
        });
    }
    status
}

pub(crate) struct Validating<K, V> {
    pub validator: V,
    pub kind: std::marker::PhantomData<fn() -> K>,
}

impl<K, V> Handler for Validating<K, V>
where
    K: DeserializeOwned + Send + Sync + 'static,
    V: Validator<K>,
{
    fn admit(self: Arc<Self>, request: AdmissionRequest<DynamicObject>, raw: Raw) -> Reply {
        Box::pin(async move {
            let response = AdmissionResponse::from(&request);
            let ctx = context(&request);
            let verdict = match request.operation {
                Operation::Create => match typed::<K>(raw.object.as_ref(), "object") {
                    Ok(object) => self.validator.validate_create(&object, &ctx).await,
                    Err(d) => Err(d),
                },
                Operation::Update => {
                    match (typed::<K>(raw.old_object.as_ref(), "oldObject"), typed::<K>(raw.object.as_ref(), "object"))
                    {
                        (Ok(old), Ok(new)) => self.validator.validate_update(&old, &new, &ctx).await,
                        (Err(d), _) | (_, Err(d)) => Err(d),
                    }
                }
                Operation::Delete => match typed::<K>(raw.old_object.as_ref(), "oldObject") {
                    Ok(object) => self.validator.validate_delete(&object, &ctx).await,
                    Err(d) => Err(d),
                },
                Operation::Connect => Ok(Vec::new()),
            };
            respond(response, verdict)
        })
    }
}

pub(crate) struct Defaulting<K, D> {
    pub defaulter: D,
    pub kind: std::marker::PhantomData<fn() -> K>,
}

impl<K, D> Handler for Defaulting<K, D>
where
    K: DeserializeOwned + Serialize + Send + Sync + 'static,
    D: Defaulter<K>,
{
    fn admit(self: Arc<Self>, request: AdmissionRequest<DynamicObject>, raw: Raw) -> Reply {
        Box::pin(async move {
            let response = AdmissionResponse::from(&request);
            if !matches!(request.operation, Operation::Create | Operation::Update) {
                return response;
            }
            let ctx = context(&request);
            let Some(sent) = raw.object else {
                return deny(response, Denial { code: 400, ..Denial::new("the request has no object") });
            };
            // Mutating admission runs before the API server checks the schema: an object
            // the kind's type cannot read (a required field missing, a wrong type) is left
            // as it is, and the schema check that follows refuses it with its own field
            // errors, as it would without the webhook.
            let mut object: K = match typed(Some(&sent), "object") {
                Ok(object) => object,
                Err(d) => {
                    tracing::debug!(message = %d.message, "not defaulted: the API server's schema check refuses it");
                    return response;
                }
            };
            let before = serde_json::to_value(&object).unwrap_or(Value::Null);
            if let Err(denial) = self.defaulter.default(&mut object, &ctx).await {
                return deny(response, denial);
            }
            let after = match serde_json::to_value(&object) {
                Ok(after) => after,
                Err(e) => return deny(response, Denial::new(format!("the defaulted object does not serialize: {e}"))),
            };
            let mut defaulted = sent.clone();
            overlay(&mut defaulted, &before, &after);
            let patch = json_patch::diff(&sent, &defaulted);
            if patch.0.is_empty() {
                return response;
            }
            match response.clone().with_patch(patch) {
                Ok(patched) => patched,
                Err(e) => deny(response, Denial::new(format!("the patch does not serialize: {e}"))),
            }
        })
    }
}

/// Carries the defaulter's changes (`before` → `after`, both as the Rust type writes
/// them) onto the object as it was sent: a value the defaulter did not change stays as
/// sent, and keys the Rust type does not know are never touched.
pub(crate) fn overlay(sent: &mut Value, before: &Value, after: &Value) {
    if before == after {
        return;
    }
    match (sent, before, after) {
        (Value::Object(sent), Value::Object(before), Value::Object(after)) => {
            for (key, now) in after {
                let was = before.get(key).unwrap_or(&Value::Null);
                match sent.get_mut(key) {
                    Some(slot) if was != now => overlay(slot, was, now),
                    Some(_) => {}
                    None if was != now => {
                        sent.insert(key.clone(), now.clone());
                    }
                    None => {}
                }
            }
            for key in before.keys().filter(|k| !after.contains_key(*k)) {
                sent.remove(key);
            }
        }
        // Items of a list the defaulter changed but did not resize: each in turn, so an
        // item keeps its unknown keys.
        (Value::Array(sent), Value::Array(before), Value::Array(after))
            if sent.len() == before.len() && before.len() == after.len() =>
        {
            for ((slot, was), now) in sent.iter_mut().zip(before).zip(after) {
                overlay(slot, was, now);
            }
        }
        (slot, _, now) => *slot = now.clone(),
    }
}

/// Reads an AdmissionReview body; what the server answers if it is not one.
// The answer to a body that is no review is kube's AdmissionResponse, returned as is.
#[allow(clippy::result_large_err)]
pub(crate) fn read_review(body: &[u8]) -> Result<(AdmissionRequest<DynamicObject>, Raw), AdmissionResponse> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| AdmissionResponse::invalid(format!("the body is not JSON: {e}")))?;
    let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    if api_version != "admission.k8s.io/v1" {
        return Err(AdmissionResponse::invalid(format!(
            "expected an AdmissionReview of apiVersion admission.k8s.io/v1, got {api_version:?}; register the webhook with admissionReviewVersions: [v1]"
        )));
    }
    let raw = {
        let request = value.get("request").and_then(Value::as_object);
        let get = |key: &str| request.and_then(|r| r.get(key)).filter(|v| !v.is_null()).cloned();
        Raw { object: get("object"), old_object: get("oldObject") }
    };
    let review: AdmissionReview<DynamicObject> = serde_json::from_value(value)
        .map_err(|e| AdmissionResponse::invalid(format!("the body is not an AdmissionReview: {e}")))?;
    let request: AdmissionRequest<DynamicObject> =
        review.try_into().map_err(|_| AdmissionResponse::invalid("the AdmissionReview has no request"))?;
    Ok((request, raw))
}

/// Runs `reply`, turning a panic in user code into a denial naming it.
pub(crate) async fn unwinding(reply: Reply, response: AdmissionResponse) -> AdmissionResponse {
    match std::panic::AssertUnwindSafe(reply).catch_unwind().await {
        Ok(response) => response,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            deny(response, Denial { code: 500, ..Denial::new(format!("the webhook failed: {what}")) })
        }
    }
}

/// The JSON of an answer to the API server.
pub(crate) fn review_json(response: AdmissionResponse) -> Vec<u8> {
    serde_json::to_vec(&response.into_review()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_defaulters_changes_land_on_the_object_as_sent() {
        // `extra` is unknown to the Rust type; `count` was sent as 1.0, which the type
        // writes as 1; the defaulter set `mode` and an item's `weight`.
        let mut sent = json!({"spec": {"count": 1.0, "extra": {"keep": true}, "items": [{"name": "a", "x": 1}]}});
        let before = json!({"spec": {"count": 1, "items": [{"name": "a"}]}});
        let after = json!({"spec": {"count": 1, "mode": "safe", "items": [{"name": "a", "weight": 5}]}});
        overlay(&mut sent, &before, &after);
        assert_eq!(
            sent,
            json!({"spec": {"count": 1.0, "extra": {"keep": true}, "mode": "safe",
                "items": [{"name": "a", "x": 1, "weight": 5}]}})
        );
    }

    #[test]
    fn a_body_that_is_no_admission_review_is_answered_not_panicked_on() {
        for body in [
            &b"not json"[..],
            br#"{"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview"}"#,
            br#"{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}"#,
            br#"{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": 3}}"#,
        ] {
            let Err(response) = read_review(body) else { panic!("accepted {}", String::from_utf8_lossy(body)) };
            assert!(!response.allowed);
            assert!(!response.result.message.is_empty());
        }
    }
}

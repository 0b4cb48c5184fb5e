//! Conversion webhooks: one kind's versions converted through its hub version, as
//! controller-runtime's `conversion.Hub`/`Convertible` do, with the conversions written
//! as Rust's `From`/`TryFrom` between each spoke and the hub. The API server sends a
//! ConversionReview (apiextensions.k8s.io/v1) with any number of objects, of any served
//! version, and the version it wants; each goes spoke → hub → spoke. A conversion that
//! fails answers `Failure` naming the object, and the API server refuses the request.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::marker::PhantomData;

use kube_core::Resource;
use kube_core::conversion::{ConversionRequest, ConversionResponse, ConversionReview};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The only ConversionReview version served (`conversionReviewVersions: [v1]`).
const REVIEW_API_VERSION: &str = "apiextensions.k8s.io/v1";

type Convert = Box<dyn Fn(Value) -> Result<Value, String> + Send + Sync>;

/// The versions of one kind, converted through the hub `H`.
pub struct Conversion<H> {
    hub: String,
    /// By apiVersion: to the hub, and from it.
    spokes: BTreeMap<String, (Convert, Convert)>,
    kind: PhantomData<fn() -> H>,
}

fn api_version<K: Resource<DynamicType = ()>>() -> String {
    K::api_version(&()).into_owned()
}

fn through<A, B>(value: Value) -> Result<Value, String>
where
    A: DeserializeOwned,
    B: TryFrom<A> + Serialize,
    <B as TryFrom<A>>::Error: Display,
{
    let from: A = serde_json::from_value(value).map_err(|e| format!("does not read as its version: {e}"))?;
    let to = B::try_from(from).map_err(|e| e.to_string())?;
    serde_json::to_value(to).map_err(|e| e.to_string())
}

impl<H> Conversion<H>
where
    H: Resource<DynamicType = ()> + Serialize + DeserializeOwned + 'static,
{
    /// The kind's hub: the version every conversion goes through (often the storage one).
    pub fn hub() -> Self {
        Conversion { hub: api_version::<H>(), spokes: BTreeMap::new(), kind: PhantomData }
    }

    /// A spoke version `S`, converted to the hub by `H: TryFrom<S>` and back by
    /// `S: TryFrom<H>` (a `From` is a `TryFrom` that cannot fail).
    pub fn spoke<S>(mut self) -> Self
    where
        S: Resource<DynamicType = ()> + Serialize + DeserializeOwned + TryFrom<H> + 'static,
        H: TryFrom<S>,
        <H as TryFrom<S>>::Error: Display,
        <S as TryFrom<H>>::Error: Display,
    {
        self.spokes.insert(api_version::<S>(), (Box::new(through::<S, H>), Box::new(through::<H, S>)));
        self
    }

    /// The apiVersions this conversion serves, the hub's first.
    pub fn versions(&self) -> Vec<&str> {
        std::iter::once(self.hub.as_str()).chain(self.spokes.keys().map(String::as_str)).collect()
    }

    /// One object, from whatever version it is in to `desired`.
    pub fn convert(&self, object: Value, desired: &str) -> Result<Value, String> {
        let from = object.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_string();
        if from == desired {
            return Ok(object);
        }
        let known = |v: &str| v == self.hub || self.spokes.contains_key(v);
        for version in [&from, desired] {
            if !known(version) {
                return Err(format!(
                    "{version} is not a version this webhook converts ({})",
                    self.versions().join(", ")
                ));
            }
        }
        let hub = match self.spokes.get(&from) {
            Some((to_hub, _)) => to_hub(object)?,
            None => object,
        };
        let mut out = match self.spokes.get(desired) {
            Some((_, from_hub)) => from_hub(hub)?,
            None => hub,
        };
        if let Some(fields) = out.as_object_mut() {
            fields.insert("apiVersion".into(), desired.into());
        }
        Ok(out)
    }
}

/// The server's view of a conversion, whatever its hub.
pub(crate) trait Converter: Send + Sync {
    fn convert_one(&self, object: Value, desired: &str) -> Result<Value, String>;
}

impl<H> Converter for Conversion<H>
where
    H: Resource<DynamicType = ()> + Serialize + DeserializeOwned + 'static,
{
    fn convert_one(&self, object: Value, desired: &str) -> Result<Value, String> {
        self.convert(object, desired)
    }
}

/// Answers a ConversionReview body: every object converted, or a failure naming the
/// first that could not be.
pub(crate) fn review(converter: &dyn Converter, body: &[u8]) -> Vec<u8> {
    let invalid = |message: String| {
        let status = kube_core::Status::failure(&message, "BadRequest").with_code(400);
        let mut review = ConversionResponse::invalid(status).into_review();
        review.types.api_version = REVIEW_API_VERSION.into();
        review.types.kind = "ConversionReview".into();
        serde_json::to_vec(&review).unwrap_or_default()
    };
    let review: ConversionReview = match serde_json::from_slice(body) {
        Ok(review) => review,
        Err(e) => return invalid(format!("the body is not a ConversionReview: {e}")),
    };
    if review.types.api_version != REVIEW_API_VERSION {
        return invalid(format!(
            "expected a ConversionReview of apiVersion apiextensions.k8s.io/v1, got {:?}; set conversionReviewVersions: [v1]",
            review.types.api_version
        ));
    }
    let request = match ConversionRequest::from_review(review) {
        Ok(request) => request,
        Err(_) => return invalid("the ConversionReview has no request".into()),
    };
    let desired = request.desired_api_version.clone();
    let objects = request.objects.clone();
    let response = ConversionResponse::for_request(request);
    let mut converted = Vec::with_capacity(objects.len());
    for object in objects {
        let named = object_name(&object);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| converter.convert_one(object, &desired))) {
            Ok(Ok(out)) => converted.push(out),
            Ok(Err(why)) => {
                let message = format!("converting {named} to {desired}: {why}");
                return json(response.failure(kube_core::Status::failure(&message, "Conversion")));
            }
            Err(_) => {
                let message = format!("converting {named} to {desired}: the conversion panicked");
                return json(response.failure(kube_core::Status::failure(&message, "Conversion")));
            }
        }
    }
    json(response.success(converted))
}

fn json(response: ConversionResponse) -> Vec<u8> {
    serde_json::to_vec(&response.into_review()).unwrap_or_default()
}

/// `Foo ns/name (zoo.example.com/v1)`, for messages.
fn object_name(object: &Value) -> String {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_string();
    let meta = object.get("metadata");
    let (namespace, name) = (text(meta.and_then(|m| m.get("namespace"))), text(meta.and_then(|m| m.get("name"))));
    let at = if namespace.is_empty() { name } else { format!("{namespace}/{name}") };
    format!("{} {at} ({})", text(object.get("kind")), text(object.get("apiVersion")))
}

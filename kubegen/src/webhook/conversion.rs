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

use crate::Validate;

/// The only ConversionReview version served (`conversionReviewVersions: [v1]`).
const REVIEW_API_VERSION: &str = "apiextensions.k8s.io/v1";

type Convert = Box<dyn Fn(Value) -> Result<Value, String> + Send + Sync>;

/// The versions of one kind, converted through the hub `H`.
pub struct Conversion<H> {
    hub: String,
    /// By apiVersion: to the hub, and from it.
    spokes: BTreeMap<String, Spoke<H>>,
    kind: PhantomData<fn() -> H>,
}

struct Spoke<H> {
    to_hub: Convert,
    from_hub: Convert,
    /// The spoke's round trips, on `cases` arbitrary objects of each side.
    #[cfg(feature = "webhook-testing")]
    round_trips: fn(&Conversion<H>, u32) -> Result<RoundTrip, String>,
    #[cfg(not(feature = "webhook-testing"))]
    round_trips: PhantomData<fn() -> H>,
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
        S: Resource<DynamicType = ()> + Validate + DeserializeOwned + TryFrom<H> + 'static,
        H: TryFrom<S> + Validate,
        <H as TryFrom<S>>::Error: Display,
        <S as TryFrom<H>>::Error: Display,
    {
        let spoke = Spoke {
            to_hub: Box::new(through::<S, H>),
            from_hub: Box::new(through::<H, S>),
            #[cfg(feature = "webhook-testing")]
            round_trips: round_trips::<H, S>,
            #[cfg(not(feature = "webhook-testing"))]
            round_trips: PhantomData,
        };
        self.spokes.insert(api_version::<S>(), spoke);
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
            Some(spoke) => (spoke.to_hub)(object)?,
            None => object,
        };
        let mut out = match self.spokes.get(desired) {
            Some(spoke) => (spoke.from_hub)(hub)?,
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

/// `from` as the version `To`, field by field: every field `To` has is read from the one
/// of the same name and shape, and `apiVersion` becomes `To`'s. What `create webhook
/// --conversion` scaffolds while two versions are alike; fields `To` has no place for
/// are dropped, which `Conversion::check_round_trips` reports.
pub fn by_fields<From, To>(from: From) -> Result<To, String>
where
    From: Resource<DynamicType = ()> + Serialize,
    To: Resource<DynamicType = ()> + DeserializeOwned,
{
    let mut value = serde_json::to_value(from).map_err(|e| e.to_string())?;
    value["apiVersion"] = api_version::<To>().into();
    serde_json::from_value(value)
        .map_err(|e| format!("{} does not read as {}, field by field: {e}", api_version::<From>(), api_version::<To>()))
}

/// The annotation [`stash`] keeps a hub's fields in, on a spoke that cannot hold them.
pub const STASH_ANNOTATION: &str = "conversion.kubegen.dev/stash";

/// Keeps `value` (the hub's fields a spoke has no place for) in an annotation of the
/// spoke object's `metadata`, under `field`, as Kubernetes' own conversions keep fields of
/// newer versions in older ones; [`unstash`] gives it back on the way to the hub. A value
/// equal to its default is not kept, so an object that never had it converts back
/// without the annotation.
pub fn stash<T: Serialize + Default + PartialEq>(
    metadata: &mut kube_core::ObjectMeta,
    field: &str,
    value: &T,
) -> Result<(), String> {
    if *value == T::default() {
        return Ok(());
    }
    let annotations = metadata.annotations.get_or_insert_with(Default::default);
    let mut kept: serde_json::Map<String, Value> =
        annotations.get(STASH_ANNOTATION).and_then(|text| serde_json::from_str(text).ok()).unwrap_or_default();
    kept.insert(field.into(), serde_json::to_value(value).map_err(|e| format!("stashing {field}: {e}"))?);
    let text = serde_json::to_string(&kept).map_err(|e| format!("stashing {field}: {e}"))?;
    annotations.insert(STASH_ANNOTATION.into(), text);
    Ok(())
}

/// The value [`stash`] kept under `field`, taken out of the annotation (which goes when
/// it holds nothing more); the default when there is none. An annotation that does not
/// read is an error naming it.
pub fn unstash<T: DeserializeOwned + Default>(metadata: &mut kube_core::ObjectMeta, field: &str) -> Result<T, String> {
    let Some(annotations) = metadata.annotations.as_mut() else {
        return Ok(T::default());
    };
    let Some(text) = annotations.get(STASH_ANNOTATION) else {
        return Ok(T::default());
    };
    let mut kept: serde_json::Map<String, Value> = serde_json::from_str(text)
        .map_err(|e| format!("the annotation {STASH_ANNOTATION} is not a JSON object: {e}"))?;
    let value = match kept.remove(field) {
        Some(v) => {
            serde_json::from_value(v).map_err(|e| format!("{field} in the annotation {STASH_ANNOTATION}: {e}"))?
        }
        None => T::default(),
    };
    if kept.is_empty() {
        annotations.remove(STASH_ANNOTATION);
        if annotations.is_empty() {
            metadata.annotations = None;
        }
    } else {
        annotations.insert(STASH_ANNOTATION.into(), Value::Object(kept).to_string());
    }
    Ok(value)
}

/// What [`Conversion::check_round_trips`] checked of one spoke.
#[cfg(feature = "webhook-testing")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundTrip {
    /// The spoke's apiVersion.
    pub spoke: String,
    /// Arbitrary spoke objects taken spoke → hub → spoke and found unchanged.
    pub spoke_objects: u32,
    /// Arbitrary hub objects taken hub → spoke → hub and found unchanged.
    pub hub_objects: u32,
}

#[cfg(feature = "webhook-testing")]
impl<H> Conversion<H>
where
    H: Resource<DynamicType = ()> + Validate + DeserializeOwned + 'static,
{
    /// Checks the conversions as the API server will use them: every version of the kind
    /// linked into this program (every `#[derive(CustomResource)]` of its group and kind)
    /// has a conversion path, and for every spoke, `cases` arbitrary valid objects of the
    /// spoke go spoke → hub → spoke, and as many of the hub go hub → spoke → hub, and
    /// come back unchanged. Objects are drawn from each version's schema (types, bounds,
    /// patterns, list types) and kept when the version's `Validate` takes them; proptest
    /// shrinks a failure to a small object, which the error shows with what came back.
    ///
    /// `codegen-cli create webhook --conversion` writes a test that calls this.
    pub fn check_round_trips(&self, cases: u32) -> Result<Vec<RoundTrip>, String> {
        self.check_versions()?;
        self.check_spoke_round_trips(cases)
    }

    /// The round trips of [`Conversion::check_round_trips`], without its check that
    /// every version converts.
    pub fn check_spoke_round_trips(&self, cases: u32) -> Result<Vec<RoundTrip>, String> {
        self.spokes.values().map(|spoke| (spoke.round_trips)(self, cases)).collect()
    }

    /// Every version of `H`'s kind linked into this program converts: it is the hub or a
    /// spoke.
    pub fn check_versions(&self) -> Result<(), String> {
        let hub = H::crd();
        let versions = self.versions();
        let mut missing = Vec::new();
        for registration in crate::kinds::registered() {
            let (crd, _) = (registration.parts)(&Default::default());
            if crd.spec.group != hub.spec.group || crd.spec.names.kind != hub.spec.names.kind {
                continue;
            }
            for version in crd.spec.versions.iter().filter(|v| v.served) {
                let api_version = format!("{}/{}", crd.spec.group, version.name);
                if !versions.contains(&api_version.as_str()) {
                    missing.push(format!("{api_version} ({})", registration.type_path));
                }
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{} converts through its hub {}, but has no conversion for {}: add `.spoke::<Type>()` for each to the Conversion",
            hub.spec.names.kind,
            self.hub,
            missing.join(", ")
        ))
    }
}

/// One spoke's round trips, both ways.
#[cfg(feature = "webhook-testing")]
fn round_trips<H, S>(conversion: &Conversion<H>, cases: u32) -> Result<RoundTrip, String>
where
    H: Resource<DynamicType = ()> + Validate + DeserializeOwned + 'static,
    S: Resource<DynamicType = ()> + Validate + DeserializeOwned + 'static,
{
    let (hub, spoke) = (api_version::<H>(), api_version::<S>());
    let spoke_objects = round_trip::<S>(cases, |object| {
        let there = conversion.convert(object, &hub).map_err(|e| format!("to the hub {hub}: {e}"))?;
        conversion.convert(there, &spoke).map_err(|e| format!("back to {spoke}: {e}"))
    })
    .map_err(|e| format!("{spoke} → {hub} → {spoke}: {e}"))?;
    let hub_objects = round_trip::<H>(cases, |object| {
        let there = conversion.convert(object, &spoke).map_err(|e| format!("to the spoke {spoke}: {e}"))?;
        conversion.convert(there, &hub).map_err(|e| format!("back to {hub}: {e}"))
    })
    .map_err(|e| format!("{hub} → {spoke} → {hub}: {e}"))?;
    Ok(RoundTrip { spoke, spoke_objects, hub_objects })
}

/// `cases` arbitrary valid objects of `K`, each through `there_and_back`, which must
/// give it back as it was (read as `K`, written again). Returns how many were checked.
#[cfg(feature = "webhook-testing")]
fn round_trip<K>(cases: u32, there_and_back: impl Fn(Value) -> Result<Value, String>) -> Result<u32, String>
where
    K: Resource<DynamicType = ()> + Validate + DeserializeOwned,
{
    use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

    let fields = super::arbitrary::object_fields(K::validator().node());
    // Written as `K` writes it: what the round trip must give back.
    let as_written = |object: Value| -> Result<Value, String> {
        let read: K = serde_json::from_value(object).map_err(|e| e.to_string())?;
        serde_json::to_value(&read).map_err(|e| e.to_string())
    };
    // No failure file: the draws are deterministic (the failure prints its shrunk object),
    // and a file proptest would place beside a source it cannot find only makes it warn
    // "FileFailurePersistence::SourceParallel set, but no source file known" (issue 29).
    let config = Config {
        cases,
        max_global_rejects: cases.saturating_mul(20).max(1024),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let checked = std::cell::Cell::new(0u32);
    let result = runner.run(&fields, |fields| {
        let mut object = Value::Object(fields);
        object["apiVersion"] = K::api_version(&()).into();
        object["kind"] = K::kind(&()).into();
        object["metadata"] = serde_json::json!({ "name": "round-trip", "namespace": "default" });
        // A draw the Rust type does not read, or the server would refuse, is no case.
        let Ok(before) = as_written(object) else {
            return Err(TestCaseError::reject("does not read as the Rust type"));
        };
        let Ok(typed) = serde_json::from_value::<K>(before.clone()) else {
            return Err(TestCaseError::reject("does not read as the Rust type"));
        };
        if typed.validate().is_err() {
            return Err(TestCaseError::reject("the API server would refuse it"));
        }
        let back =
            there_and_back(before.clone()).map_err(|e| TestCaseError::fail(format!("{e}\n  object: {before}")))?;
        let back = as_written(back).map_err(|e| TestCaseError::fail(format!("what came back does not read: {e}")))?;
        if back != before {
            return Err(TestCaseError::fail(format!("changed it\n  sent: {before}\n  back: {back}")));
        }
        checked.set(checked.get() + 1);
        Ok(())
    });
    match result {
        Ok(()) => Ok(checked.get()),
        Err(TestError::Fail(why, _)) => Err(why.to_string()),
        Err(TestError::Abort(why)) => Err(format!(
            "too few arbitrary objects were valid ({why}): the schema's CEL rules or patterns refuse most of what its types allow"
        )),
    }
}

//! Time per `crd()` call for the examples and the largest zoo kinds (kept after the first
//! call; the first call's build timed beside it), and what a controller or webhook does
//! per object: `validate()` of zoo kinds with CEL rules and of one holding a pod template,
//! with the kind's kept validator against one built per call, the schema's defaults set
//! on an object holding only what is required, and a conversion between Foo's versions. Prints figures; `cargo bench -p kubegen-tests --bench crd`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kubegen::CustomResourceExt;

type Crd = k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// `crd()` (built once, then kept) against building it each time (`crd_with`).
fn bench<K: kubegen::CustomResourceExt + kubegen::CrdWithOptions>(name: &str) {
    let (built, _) = per_call(Duration::from_millis(500), || K::crd_with(&Default::default()));
    let (kept, calls) = per_call(Duration::from_secs(1), K::crd);
    let yaml = kubegen::to_yaml(&K::crd()).map(|y| y.len()).unwrap_or(0);
    println!("{name:<12} {kept:>12.2?} per crd() call ({calls} calls; building it: {built:.2?}), {yaml} bytes of YAML");
}

/// Time per call of `f`, run for about `how_long` after a warm-up.
fn per_call<T>(how_long: Duration, mut f: impl FnMut() -> T) -> (Duration, u32) {
    for _ in 0..3 {
        black_box(f());
    }
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed() < how_long {
        black_box(f());
        calls += 1;
    }
    (start.elapsed() / calls, calls)
}

fn bench_validate(name: &str, crd: Crd) {
    use kubegen::validate::Validator;
    let object = kubegen::crd::sample_object(&crd);
    let kept = Validator::for_crd(&crd);
    let half = Duration::from_millis(500);
    let (kept_time, _) = per_call(half, || kept.validate(&object, None));
    let (fresh_time, _) = per_call(half, || Validator::for_crd(&crd).validate(&object, None));
    // The object a client writes: what the schema requires, every default left to the
    // server (the sample, pruned to its required fields).
    let mut sparse = object.clone();
    required_only(kept.node(), &mut sparse);
    let (default_time, _) = per_call(half, || {
        let mut o = sparse.clone();
        kept.apply_defaults(&mut o);
        o
    });
    let (clone_time, _) = per_call(half, || sparse.clone());
    println!(
        "{name:<12} {kept_time:>12.2?} per validate() of its sample with the kind's kept validator, {fresh_time:.2?} with one built per call; {:.2?} per apply_defaults() of its required fields ({clone_time:.2?} of it the object's copy)",
        default_time
    );
}

/// Drops from `value` every field its schema does not require (below the root's
/// apiVersion, kind and metadata).
fn required_only(node: &kubegen_core::schema::node::Node, value: &mut serde_json::Value) {
    let (Some(props), serde_json::Value::Object(fields)) = (&node.properties, value) else { return };
    let required = node.required.clone().unwrap_or_default();
    fields.retain(|k, _| required.contains(k) || matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "spec"));
    for (k, v) in fields.iter_mut() {
        if let Some(sub) = props.get(k) {
            required_only(sub, v);
        }
    }
}

/// Foo from its stored version to the other and back, as the conversion webhook does per
/// object.
fn bench_convert() {
    let conversion = foo_controller::webhook::conversion();
    let mut object = kubegen::crd::sample_object(&foo_controller::Foo::crd());
    object["apiVersion"] = "samplecontroller.k8s.io/v1alpha1".into();
    let (there, _) =
        per_call(Duration::from_millis(500), || conversion.convert(object.clone(), "samplecontroller.k8s.io/v1beta1"));
    let converted = conversion.convert(object.clone(), "samplecontroller.k8s.io/v1beta1").expect("converts");
    let (back, _) = per_call(Duration::from_millis(500), || {
        conversion.convert(converted.clone(), "samplecontroller.k8s.io/v1alpha1")
    });
    println!("{:<12} {there:>12.2?} per conversion v1alpha1 -> v1beta1, {back:.2?} back", "Foo");
}

fn main() {
    bench::<foo_controller::Foo>("Foo");
    bench::<sample::Sample>("Sample");
    bench::<kubegen_tests::menagerie::Menagerie>("Menagerie");
    bench::<kubegen_tests::fleet::Fleet>("Fleet");
    bench_validate("Accord", kubegen_tests::accord::Accord::crd());
    bench_validate("Inspection", kubegen_tests::markers::Inspection::crd());
    bench_validate("Fleet", kubegen_tests::fleet::Fleet::crd());
    bench_convert();
}

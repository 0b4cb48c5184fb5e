//! Time per `crd()` call for the examples and the largest zoo kind, and per
//! `validate()` of the zoo kinds with CEL rules, with the kind's kept validator against
//! one built per call. Prints figures;
//! `cargo bench -p kubegen-tests --bench crd`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kubegen::CustomResourceExt;

fn bench(
    name: &str,
    f: fn() -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
) {
    let (per_call, calls) = per_call(Duration::from_secs(1), &f);
    let yaml = kubegen::to_yaml(&f()).map(|y| y.len()).unwrap_or(0);
    println!("{name:<12} {per_call:>12.2?} per crd() call  ({calls} calls, {yaml} bytes of YAML)");
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

fn bench_validate(
    name: &str,
    crd: k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
) {
    use kubegen::validate::Validator;
    let object = kubegen::crd::sample_object(&crd);
    let kept = Validator::for_crd(&crd);
    let half = Duration::from_millis(500);
    let (kept_time, _) = per_call(half, || kept.validate(&object, None));
    let (fresh_time, _) = per_call(half, || Validator::for_crd(&crd).validate(&object, None));
    println!(
        "{name:<12} {kept_time:>12.2?} per validate() of its sample with the kind's kept validator, {fresh_time:.2?} with one built per call"
    );
}

fn main() {
    bench("Foo", foo_controller::Foo::crd);
    bench("Sample", sample::Sample::crd);
    bench("Menagerie", kubegen_tests::menagerie::Menagerie::crd);
    bench_validate("Accord", kubegen_tests::accord::Accord::crd());
    bench_validate("Inspection", kubegen_tests::markers::Inspection::crd());
}

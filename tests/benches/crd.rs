//! Time per `crd()` call for the examples and the largest zoo kind. Prints figures;
//! `cargo bench -p kubegen-tests --bench crd`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kubegen::CustomResourceExt;

fn bench(
    name: &str,
    f: fn() -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
) {
    // Warm up, then run for about a second.
    for _ in 0..10 {
        black_box(f());
    }
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed() < Duration::from_secs(1) {
        black_box(f());
        calls += 1;
    }
    let per_call = start.elapsed() / calls;
    let yaml = kubegen::to_yaml(&f()).map(|y| y.len()).unwrap_or(0);
    println!("{name:<12} {per_call:>12.2?} per crd() call  ({calls} calls, {yaml} bytes of YAML)");
}

fn main() {
    bench("Foo", foo_controller::Foo::crd);
    bench("Sample", sample::Sample::crd);
    bench("Menagerie", kubegen_tests::menagerie::Menagerie::crd);
}

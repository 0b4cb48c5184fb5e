//! Compile-fail tests: every "this must not compile" promise, with the exact message.
//!
//! - `ui/`: the derive's and the attributes' refusals, written by hand.
//! - `marker_examples/`: the examples docs/markers.md shows the derive refusing, generated
//!   from the marker registry by cli/src/reference.rs (edit the registry, not those files).
//!
//! One trybuild run for both, so their dependencies are checked once (CI's longest single
//! step before they moved here: `kubegen-tests`' dependencies, a web server and the CLI
//! among them, checked again for trybuild). `TRYBUILD=overwrite cargo test -p
//! kubegen-compile-fail` regenerates the `.stderr` files; read them before committing.

#[test]
fn compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.compile_fail("marker_examples/*.rs");
}

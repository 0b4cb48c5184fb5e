//! Compile-fail tests: every "this must not compile" promise, with the exact message.
//! `TRYBUILD=overwrite cargo test -p kubegen-tests --test ui` regenerates the `.stderr`
//! files; read them before committing.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}

//! The RBAC verbs live twice: in the proc-macro crate (which cannot depend on kubegen)
//! for `#[kubegen::rbac]`, and in `kubegen::rbac::VERBS` for comment markers. They
//! must agree.

#[test]
fn derive_and_runtime_know_the_same_verbs() {
    let source = include_str!("../../derive/src/rbac.rs");
    let start = source.find("const VERBS: &[&str] = &[").expect("derive's VERBS");
    let list = &source[start..start + source[start..].find("];").expect("end of VERBS")];
    let derive: Vec<&str> = list.split('"').skip(1).step_by(2).collect();
    assert_eq!(derive, kubegen::rbac::VERBS);
}

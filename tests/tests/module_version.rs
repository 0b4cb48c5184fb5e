//! `api/v1beta2/widget.rs` without a version: the kind is `v1beta2`.

#[path = "module_version/v1beta2/widget.rs"]
mod widget;

use kube::Resource;
use kubegen::CustomResourceExt;

#[test]
fn the_version_comes_from_the_module_path() {
    let crd = widget::Widget::crd();
    assert_eq!(crd.spec.versions[0].name, "v1beta2");
    assert_eq!(widget::Widget::api_version(&()), "example.com/v1beta2");
}

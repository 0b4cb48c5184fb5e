//! One validator for a value against a schema node: the derive's check of a default at
//! compile time, `Validate` at run time and the CRD lint all read kubegen-core's, so
//! they cannot disagree with each other — and it reads `multipleOf` as the API server
//! does (kube-openapi: integers exactly, other numbers within a relative 1e-9), so a
//! default the server accepts compiles.

use kubegen::{CustomResource, CustomResourceExt, Validate};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Dial")]
pub struct DialSpec {
    /// 0.3 / 0.1 is 2.9999999999999996 in floats; the API server accepts it.
    #[kube(multiple_of = 0.1, default = 0.3)]
    pub step: Option<f64>,
    /// +kubebuilder:validation:MultipleOf=5
    /// +kubebuilder:default=10
    pub count: Option<i64>,
}

fn dial(step: Option<f64>, count: Option<i64>) -> Dial {
    Dial::new("d", DialSpec { step, count })
}

#[test]
fn a_default_the_server_accepts_compiles_and_validates() {
    let crd = serde_json::to_value(Dial::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(spec["step"]["default"], json!(0.3));
    assert_eq!(spec["step"]["multipleOf"], json!(0.1));
    assert!(kubegen::crd::lint(&Dial::crd()).is_empty());
    assert_eq!(dial(None, None).validate(), Ok(()));
    assert_eq!(dial(Some(0.3), Some(15)).validate(), Ok(()));
}

#[test]
fn what_the_server_refuses_validate_refuses() {
    let err = dial(Some(0.35), Some(12)).validate().expect_err("two violations").to_string();
    assert_eq!(err, "spec.count in body should be a multiple of 5\nspec.step in body should be a multiple of 0.1");
}

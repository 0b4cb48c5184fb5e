//! Kubernetes' declarative-validation spellings that controller-gen v0.23 reads as its
//! kubebuilder markers (`+k8s:minimum`, `+k8s:maximum`, `+k8s:maxItems`): a Go type ported
//! with them gets the same bounds (checked against controller-gen v0.23.0 on a Go twin).

use kubegen::{CustomResource, CustomResourceExt, Validate};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Pool")]
pub struct PoolSpec {
    /// +k8s:minimum=1
    /// +k8s:maximum=10
    pub r: i32,
    /// +k8s:maxItems=3
    pub l: Vec<String>,
}

#[test]
fn declarative_validation_markers_bound_the_schema() {
    let crd = serde_json::to_value(Pool::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!((spec["r"]["minimum"].as_f64(), spec["r"]["maximum"].as_f64()), (Some(1.0), Some(10.0)));
    assert_eq!(spec["l"]["maxItems"], json!(3));
    let pool = |r, n: usize| Pool::new("p", PoolSpec { r, l: vec!["x".into(); n] });
    assert!(pool(5, 3).validate().is_ok());
    assert!(pool(11, 3).validate().is_err());
    assert!(pool(5, 4).validate().is_err());
}

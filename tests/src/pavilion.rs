//! `Pavilion`: kubebuilder style (derive on the root) with the resource-level
//! controller-gen markers written verbatim in doc comments, in two versions.

pub mod v1 {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    /// Pavilion is a cluster-scoped kind described with controller-gen markers.
    /// +kubebuilder:object:root=true
    /// +kubebuilder:resource:path=pavilions,shortName=pav;pvl,categories=kubegen,singular=pavilion,scope=Cluster
    /// +kubebuilder:subresource:status
    /// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
    /// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas",description="Desired replicas"
    /// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=".status.ready",priority=1
    /// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
    /// +kubebuilder:storageversion
    /// +kubebuilder:deprecatedversion:warning="use zoo.kubegen.dev/v2 Pavilion"
    /// +kubebuilder:metadata:annotations="zoo.kubegen.dev/docs=https://example.com/pavilion",labels="zoo.kubegen.dev/tier=test"
    /// +genclient
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "zoo.kubegen.dev", version = "v1", kind = "Pavilion")]
    pub struct Pavilion {
        #[serde(default)]
        pub metadata: ObjectMeta,
        pub spec: PavilionSpec,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub status: Option<PavilionStatus>,
    }

    /// PavilionSpec is the desired state.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct PavilionSpec {
        /// Desired replicas.
        pub replicas: i32,
    }

    /// PavilionStatus is the observed state.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[serde(default)]
    pub struct PavilionStatus {
        pub replicas: i32,
        /// Deprecated: a Ready condition is to come; kept for the printer column.
        pub ready: String,
        pub selector: String,
    }
}

pub mod v1beta1 {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use kubegen::CustomResource;
    use serde::{Deserialize, Serialize};

    /// Pavilion, the older version: still known, no longer served.
    /// +kubebuilder:resource:path=pavilions,shortName=pav;pvl,categories=kubegen,singular=pavilion,scope=Cluster
    /// +kubebuilder:unservedversion
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "zoo.kubegen.dev", version = "v1beta1", kind = "Pavilion", storage = false)]
    pub struct Pavilion {
        #[serde(default)]
        pub metadata: ObjectMeta,
        pub size: i32,
    }
}

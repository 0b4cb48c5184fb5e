// The Go twin of examples/foo-controller/src/v1beta1.rs, for controller-gen (scripts/oracle.sh).

// +groupName=samplecontroller.k8s.io
// +versionName=v1beta1
package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// FooSpec is the spec for a Foo resource.
type FooSpec struct {
	// Name of the Deployment this Foo owns.
	// +kubebuilder:example="example-foo"
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	DeploymentName string `json:"deploymentName"`
	// Number of replicas the Deployment runs.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=1
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Old ReplicaSets the Deployment keeps for a rollback (the Deployment's own default,
	// 10, when unset).
	// +kubebuilder:validation:Minimum=0
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// FooStatus is the status for a Foo resource.
type FooStatus struct {
	// Replicas of the owned Deployment that are available.
	AvailableReplicas int32 `json:"availableReplicas"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=fo
// +kubebuilder:metadata:annotations="api-approved.kubernetes.io=unapproved, experimental-only; please get an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups"
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.availableReplicas
// +kubebuilder:printcolumn:name="Deployment",type=string,JSONPath=".spec.deploymentName"
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"
// +kubebuilder:printcolumn:name="Available",type=integer,JSONPath=".status.availableReplicas"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
type Foo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FooSpec    `json:"spec"`
	Status            *FooStatus `json:"status,omitempty"`
}

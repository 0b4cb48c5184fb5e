package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=foos,singular=foo,scope=Namespaced,shortName=fo
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.availableReplicas
// +kubebuilder:printcolumn:name="Deployment",type=string,JSONPath=".spec.deploymentName"
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"
// +kubebuilder:printcolumn:name="Available",type=integer,JSONPath=".status.availableReplicas"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
// +kubebuilder:metadata:annotations="api-approved.kubernetes.io=unapproved, experimental-only; please get an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups"

type Foo struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec FooSpec `json:"spec"`

	Status *FooStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// FooList contains a list of Foo.
type FooList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Foo `json:"items"`
}

// FooSpec is the spec for a Foo resource.
type FooSpec struct {
	// Name of the Deployment this Foo owns.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:example="example-foo"
	DeploymentName string `json:"deploymentName"`

	// Number of replicas the Deployment runs.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +default=1
	Replicas *int32 `json:"replicas,omitempty"`

	// Old ReplicaSets the Deployment keeps for a rollback (the Deployment's own default,
	// 10, when unset).
	// +optional
	// +kubebuilder:validation:Minimum=0
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// FooStatus is the status for a Foo resource.
type FooStatus struct {
	// Replicas of the owned Deployment that are available.
	// +required
	AvailableReplicas int32 `json:"availableReplicas"`
}

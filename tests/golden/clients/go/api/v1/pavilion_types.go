package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=pavilions,singular=pavilion,scope=Cluster,shortName=pav;pvl,categories=kubegen
// +kubebuilder:storageversion
// +kubebuilder:deprecatedversion:warning="use zoo.kubegen.dev/v2 Pavilion"
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas",description="Desired replicas"
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=".status.ready",priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
// +kubebuilder:metadata:annotations="zoo.kubegen.dev/docs=https://example.com/pavilion"
// +kubebuilder:metadata:labels="zoo.kubegen.dev/tier=test"

// Pavilion is a cluster-scoped kind described with controller-gen markers.
type Pavilion struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PavilionSpec `json:"spec"`

	Status *PavilionStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// PavilionList contains a list of Pavilion.
type PavilionList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Pavilion `json:"items"`
}

// PavilionSpec is the desired state.
type PavilionSpec struct {
	// Desired replicas.
	// +required
	Replicas int32 `json:"replicas"`
}

// PavilionStatus is the observed state.
type PavilionStatus struct {
	// Deprecated: a Ready condition is to come; kept for the printer column.
	// +optional
	Ready *string `json:"ready,omitempty"`

	// +optional
	// +default=0
	Replicas *int32 `json:"replicas,omitempty"`

	// +optional
	Selector *string `json:"selector,omitempty"`
}

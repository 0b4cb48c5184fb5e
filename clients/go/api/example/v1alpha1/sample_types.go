package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=samples,singular=sample,scope=Namespaced
// +kubebuilder:printcolumn:name="Test String",type=string,JSONPath=".testString"

// Sample has no spec: its data sits at the top level.
type Sample struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	// A string the user sets; shown by `kubectl get samples`.
	// +required
	TestString string `json:"testString"`
}

// +kubebuilder:object:root=true

// SampleList contains a list of Sample.
type SampleList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Sample `json:"items"`
}

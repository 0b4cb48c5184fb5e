package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=pavilions,singular=pavilion,scope=Cluster,shortName=pav;pvl,categories=kubegen
// +kubebuilder:unservedversion

// Pavilion, the older version: still known, no longer served.
type Pavilion struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Size int32 `json:"size"`
}

// +kubebuilder:object:root=true

// PavilionList contains a list of Pavilion.
type PavilionList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Pavilion `json:"items"`
}

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=aviaries,singular=aviary,scope=Cluster
// +kubebuilder:selectablefield:JSONPath=".species"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.startsWith('aviary-')"
// +kubebuilder:validation:XValidation:rule="self.capacity >= size(self.birds)",message="too many birds"
// +kubebuilder:validation:XValidation:rule="self.species != 'dodo'",message="extinct",reason=FieldValueForbidden

// The aviary's fields sit at the top level (`no_spec`); the root type is `Birdhouse`.
type Aviary struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	// +default=[]
	Birds []Bird `json:"birds,omitzero"`

	// +required
	Capacity int32 `json:"capacity"`

	// +required
	Species string `json:"species"`
}

// +kubebuilder:object:root=true

// AviaryList contains a list of Aviary.
type AviaryList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Aviary `json:"items"`
}

// +kubebuilder:validation:XValidation:rule="self.name != ''",message="a bird has a name",reason=FieldValueRequired,fieldPath=".name"

// A bird.
type Bird struct {
	// +required
	Name string `json:"name"`
}

{{ header }}// Package {{ package }} contains API Schema definitions for the {{ group }} {{ version }} API group.
// +kubebuilder:object:generate=true
// +groupName={{ group }}
package {{ package }}

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of this package's kinds.
	GroupVersion = schema.GroupVersion{Group: "{{ group }}", Version: "{{ version }}"}

	// SchemeBuilder registers this package's kinds with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds this package's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
{%- for kind in kinds %}
		&{{ kind }}{},
		&{{ kind }}List{},
{%- endfor %}
	)
	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}

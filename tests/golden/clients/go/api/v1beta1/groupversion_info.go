// Package v1beta1 contains API Schema definitions for the zoo.kubegen.dev v1beta1 API group.
// +kubebuilder:object:generate=true
// +groupName=zoo.kubegen.dev
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of this package's kinds.
	GroupVersion = schema.GroupVersion{Group: "zoo.kubegen.dev", Version: "v1beta1"}

	// SchemeBuilder registers this package's kinds with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds this package's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
		&Pavilion{},
		&PavilionList{},
	)
	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}

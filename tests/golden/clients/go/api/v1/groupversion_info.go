// Package v1 contains API Schema definitions for the zoo.kubegen.dev v1 API group.
// +kubebuilder:object:generate=true
// +groupName=zoo.kubegen.dev
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of this package's kinds.
	GroupVersion = schema.GroupVersion{Group: "zoo.kubegen.dev", Version: "v1"}

	// SchemeBuilder registers this package's kinds with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds this package's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
		&Accord{},
		&AccordList{},
		&Aviary{},
		&AviaryList{},
		&Fleet{},
		&FleetList{},
		&Inspection{},
		&InspectionList{},
		&Ledger{},
		&LedgerList{},
		&Menagerie{},
		&MenagerieList{},
		&Pavilion{},
		&PavilionList{},
	)
	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}

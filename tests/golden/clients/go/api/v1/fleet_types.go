package v1

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=fleets,singular=fleet,scope=Namespaced
// +kubebuilder:subresource:status

type Fleet struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec FleetSpec `json:"spec"`

	Status *FleetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// FleetList contains a list of Fleet.
type FleetList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Fleet `json:"items"`
}

// FleetSpec describes the pods and jobs of a fleet.
type FleetSpec struct {
	// Ports of the fleet's service.
	// +optional
	Ports []corev1.ServicePort `json:"ports,omitzero"`

	// +optional
	Provisioner *batchv1.JobTemplateSpec `json:"provisioner,omitempty"`

	// What each member may use.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`

	// The object this fleet serves.
	// +optional
	Target *corev1.ObjectReference `json:"target,omitempty"`

	// The pods every member of the fleet runs.
	// +required
	Template corev1.PodTemplateSpec `json:"template"`
}

// FleetStatus is what the controller observed.
type FleetStatus struct {
	// The latest observations of the fleet's state.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitzero"`
}

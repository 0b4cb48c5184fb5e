// The Go twin of tests/src/fleet.rs, for controller-gen (scripts/oracle.sh).

// +groupName=zoo.kubegen.dev
// +versionName=v1
package v1

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FleetSpec describes the pods and jobs of a fleet.
type FleetSpec struct {
	// The pods every member of the fleet runs.
	Template corev1.PodTemplateSpec `json:"template"`
	// The job that provisions a member.
	// +optional
	Provisioner *batchv1.JobTemplateSpec `json:"provisioner,omitempty"`
	// The object this fleet serves.
	// +optional
	Target *corev1.ObjectReference `json:"target,omitempty"`
	// What each member may use.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// Ports of the fleet's service.
	// +optional
	Ports []corev1.ServicePort `json:"ports,omitempty"`
}

// FleetStatus is what the controller observed.
type FleetStatus struct {
	// The latest observations of the fleet's state.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Fleet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FleetSpec   `json:"spec"`
	Status            FleetStatus `json:"status,omitempty"`
}

// The Go twin of examples/sample/src/lib.rs, for controller-gen (scripts/oracle.sh).

// +groupName=example.com
// +versionName=v1alpha1
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Sample has no spec: its data sits at the top level.
// +kubebuilder:object:root=true
// +kubebuilder:printcolumn:name="Test String",type=string,JSONPath=".testString"
type Sample struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// A string the user sets; shown by `kubectl get samples`.
	TestString string `json:"testString"`
}

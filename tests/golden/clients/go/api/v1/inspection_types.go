package v1

import (
	"encoding/json"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=inspections,singular=inspection,scope=Namespaced

type Inspection struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InspectionSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// InspectionList contains a list of Inspection.
type InspectionList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Inspection `json:"items"`
}

// A check, keyed by name in its list.
type Check struct {
	// +optional
	// +default=true
	Enabled *bool `json:"enabled,omitempty"`

	// +required
	Name string `json:"name"`
}

// +kubebuilder:validation:Enum="shallow";"normal";"deep"

// How deep an inspection looks.
type Depth string

// InspectionSpec exercises the validation markers.
type InspectionSpec struct {
	// +optional
	// +listType=map
	// +listMapKey=name
	Checks []Check `json:"checks,omitzero"`

	// A field serde needs but the API lets clients leave out (kubegen's `Default` fills it).
	// +optional
	Comment *string `json:"comment,omitempty"`

	// +optional
	// +kubebuilder:validation:Format=date-time
	Due *string `json:"due,omitempty"`

	// Schemaless: the server keeps whatever is here.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Extra *runtime.RawExtension `json:"extra,omitempty"`

	// Host names, each a DNS label.
	// +optional
	// +kubebuilder:validation:MaxItems=3
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Hosts []string `json:"hosts,omitzero"`

	// +required
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=12
	// +kubebuilder:validation:Pattern=`^[a-z][a-z0-9-]*$`
	// +kubebuilder:example="inspector-1"
	Inspector string `json:"inspector"`

	// +optional
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=3
	// +mapType=atomic
	Labels map[string]string `json:"labels,omitzero"`

	// Levels are numbers, written as an enum.
	// +optional
	// +kubebuilder:validation:Enum=1;2;3
	Level *int32 `json:"level,omitempty"`

	// +optional
	// +kubebuilder:externalDocs:url="https://kubernetes.io/docs/concepts/policy/limit-range/",description="Limit ranges"
	// +kubebuilder:title="Limits"
	Limits *Limits `json:"limits,omitempty"`

	// +optional
	// +kubebuilder:validation:Enum="fast";"safe";"thorough"
	// +default="safe"
	Mode *string `json:"mode,omitempty"`

	// +optional
	// +nullable
	Note *string `json:"note,omitempty"`

	// Annotations of the inspection, each key owned by the manager that set it.
	// +optional
	// +mapType=granular
	Notes map[string]string `json:"notes,omitzero"`

	// A Window that keeps the keys it does not name (`window` prunes them).
	// +optional
	// +kubebuilder:pruning:PreserveUnknownFields
	OpenWindow *Window `json:"openWindow,omitempty"`

	// +required
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=4
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=65535
	// +listType=set
	Ports []int32 `json:"ports"`

	// How deep a quick inspection may go: the type's values, narrowed by the field.
	// +optional
	// +kubebuilder:validation:Enum="shallow";"normal"
	QuickDepth *Depth `json:"quickDepth,omitempty"`

	// A ratio in (0, 1].
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +kubebuilder:validation:Format=double
	Ratio *float64 `json:"ratio,omitempty"`

	// Kept as sent.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Raw *runtime.RawExtension `json:"raw,omitempty"`

	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +default=3
	Replicas *int32 `json:"replicas,omitempty"`

	// An Option the API insists on.
	// +required
	Reviewer string `json:"reviewer"`

	// In steps of five. (A fractional multipleOf makes 1.20's validator divide by zero
	// on whole numbers: kube-openapi's MultipleOfInt.)
	// +optional
	// +kubebuilder:validation:MultipleOf=5
	Step *int32 `json:"step,omitempty"`

	// A whole Kubernetes object.
	// +optional
	// +kubebuilder:validation:EmbeddedResource
	Subject *runtime.RawExtension `json:"subject,omitempty"`

	// A port by number or name.
	// +optional
	Target *intstr.IntOrString `json:"target,omitempty"`

	// +optional
	// +structType=atomic
	Window *Window `json:"window,omitempty"`
}

// +kubebuilder:validation:MinProperties=1

// Type-level markers apply wherever the type is used.
type Limits struct {
	// +optional
	Cpu *string `json:"cpu,omitempty"`

	// +optional
	Memory *string `json:"memory,omitempty"`
}

// A time window.
type Window struct {
	// +required
	End string `json:"end"`

	// +required
	Start string `json:"start"`

	// The keys the schema does not name, kept as sent (the API server keeps them where a field preserves unknown fields).
	Unknown map[string]runtime.RawExtension `json:"-"`
}

// UnmarshalJSON reads the fields Window names and keeps every other key in Unknown.
func (in *Window) UnmarshalJSON(data []byte) error {
	type named Window
	if err := json.Unmarshal(data, (*named)(in)); err != nil {
		return err
	}
	var all map[string]runtime.RawExtension
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for _, key := range []string{"end", "start"} {
		delete(all, key)
	}
	in.Unknown = nil
	if len(all) > 0 {
		in.Unknown = all
	}
	return nil
}

// MarshalJSON writes the fields Window names and the keys kept in Unknown.
func (in Window) MarshalJSON() ([]byte, error) {
	type named Window
	data, err := json.Marshal(named(in))
	if err != nil || len(in.Unknown) == 0 {
		return data, err
	}
	all := map[string]json.RawMessage{}
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	for key, value := range in.Unknown {
		if _, taken := all[key]; !taken {
			all[key] = value.Raw
		}
	}
	return json.Marshal(all)
}

package v1

import (
	"encoding/json"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=accords,singular=accord,scope=Namespaced

type Accord struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec AccordSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// AccordList contains a list of Accord.
type AccordList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Accord `json:"items"`
}

// +kubebuilder:validation:MaxLength=63
// +kubebuilder:validation:Pattern=`^[a-z0-9-]+$`

// A DNS label.
type AccordLabel string

// AccordSpec holds one field per marker family.
type AccordSpec struct {
	// From 1 up to, not including, 10.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:validation:ExclusiveMaximum=true
	Bounded *int32 `json:"bounded,omitempty"`

	// +optional
	// +kubebuilder:validation:Format=date-time
	Due *string `json:"due,omitempty"`

	// An enum with data.
	// +optional
	Enclosure *Enclosure `json:"enclosure,omitempty"`

	// A label that starts with `web-`: the field's pattern beside the type's.
	// +optional
	// +kubebuilder:validation:Pattern=`^web-`
	Host *AccordLabel `json:"host,omitempty"`

	// +optional
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=2
	Labels map[string]string `json:"labels,omitzero"`

	// An object default, on a field of a named type.
	// +optional
	// +default={"name":"owner"}
	Lead *Member `json:"lead,omitempty"`

	// Counts or percentages by name.
	// +optional
	Limits map[string]intstr.IntOrString `json:"limits,omitzero"`

	// +optional
	// +listType=map
	// +listMapKey=name
	Members []Member `json:"members,omitzero"`

	// +optional
	// +kubebuilder:validation:Enum="fast";"safe"
	Mode *string `json:"mode,omitempty"`

	// +optional
	// +nullable
	Note *string `json:"note,omitempty"`

	// +optional
	Open *Open `json:"open,omitempty"`

	// Resource quantities by name.
	// +optional
	Quota map[string]Quantity `json:"quota,omitzero"`

	// A ratio in (0, 1].
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +kubebuilder:validation:Format=double
	Ratio *float64 `json:"ratio,omitempty"`

	// +optional
	// +default=3
	Replicas *int32 `json:"replicas,omitempty"`

	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=2
	Sizes []int32 `json:"sizes,omitzero"`

	// +optional
	Span *Span `json:"span,omitempty"`

	// In steps of five.
	// +optional
	// +kubebuilder:validation:MultipleOf=5
	Step *int64 `json:"step,omitempty"`

	// A whole Kubernetes object.
	// +optional
	// +kubebuilder:validation:EmbeddedResource
	Subject *runtime.RawExtension `json:"subject,omitempty"`

	// A count or a percentage.
	// +optional
	// String values have the pattern `^[0-9]+%$`.
	Surge *intstr.IntOrString `json:"surge,omitempty"`

	// +optional
	// +listType=set
	Tags []string `json:"tags,omitzero"`

	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=8
	Title *string `json:"title,omitempty"`
}

// A cage.
type Cage struct {
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=4294967295
	Bars int `json:"bars"`
}

// An externally tagged enum: `{"open": {...}}` or `{"closed": {...}}`.
type Enclosure struct {
	// +optional
	Closed *Cage `json:"closed,omitempty"`

	// +optional
	Empty *runtime.RawExtension `json:"empty,omitempty"`

	// +optional
	Open *EnclosureOpen `json:"open,omitempty"`
}

type EnclosureOpen struct {
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=4294967295
	AreaM2 int `json:"area_m2"`
}

// A member, keyed by name in its list.
type Member struct {
	// +required
	Name string `json:"name"`

	// +optional
	Role *string `json:"role,omitempty"`
}

// +kubebuilder:pruning:PreserveUnknownFields

// Open: the server keeps every key it is sent, named or not.
type Open struct {
	// +optional
	Known *string `json:"known,omitempty"`

	// The keys the schema does not name, kept as sent (the API server keeps them too).
	Unknown map[string]runtime.RawExtension `json:"-"`
}

// UnmarshalJSON reads the fields Open names and keeps every other key in Unknown.
func (in *Open) UnmarshalJSON(data []byte) error {
	type named Open
	if err := json.Unmarshal(data, (*named)(in)); err != nil {
		return err
	}
	var all map[string]runtime.RawExtension
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for _, key := range []string{"known"} {
		delete(all, key)
	}
	in.Unknown = nil
	if len(all) > 0 {
		in.Unknown = all
	}
	return nil
}

// MarshalJSON writes the fields Open names and the keys kept in Unknown.
func (in Open) MarshalJSON() ([]byte, error) {
	type named Open
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

// +kubebuilder:validation:XValidation:rule="self.low <= self.high",message="low must not exceed high"

// A range whose ends are in order.
type Span struct {
	// +required
	High int32 `json:"high"`

	// +required
	Low int32 `json:"low"`
}

package v1

import (
	"encoding/json"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=menageries,singular=menagerie,scope=Namespaced,shortName=mng;zoo,categories=all;kubegen
// +kubebuilder:deprecatedversion:warning="zoo.kubegen.dev/v1 Menagerie is a test fixture"
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.count,statuspath=.status.count,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Keeper",type=string,JSONPath=".spec.keeper",description="Who feeds them",priority=0
// +kubebuilder:printcolumn:name="Count",type=integer,JSONPath=".spec.count",format=int32,priority=1
// +kubebuilder:metadata:annotations="zoo.kubegen.dev/owner=kubegen-tests"
// +kubebuilder:metadata:labels="app.kubernetes.io/part-of=kubegen"

// Menagerie is a test kind that uses every resource-level key.
type Menagerie struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec MenagerieSpec `json:"spec"`

	Status *MenagerieStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// MenagerieList contains a list of Menagerie.
type MenagerieList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Menagerie `json:"items"`
}

// An untagged enum of objects: serde picks the first variant that fits.
type Budget struct {
	// +optional
	Amount *int64 `json:"amount,omitempty"`

	// +optional
	Max *int64 `json:"max,omitempty"`

	// +optional
	Min *int64 `json:"min,omitempty"`
}

// +kubebuilder:validation:Enum="Carnivore";"omnivore";"Herbivore"

// What the animals eat: a unit enum is a string enum.
type Diet string

// MenagerieSpec holds one field of every shape serde writes.
type MenagerieSpec struct {
	// +optional
	Budget *Budget `json:"budget,omitempty"`

	// +optional
	City *string `json:"city,omitempty"`

	// A pair of the same type is a two-item array.
	// +optional
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=2
	Coordinates []int64 `json:"coordinates,omitzero"`

	// How many animals there should be.
	// +optional
	// +default=0
	Count *int32 `json:"count,omitempty"`

	// +required
	Diet Diet `json:"diet"`

	// +optional
	Enclosure *Enclosure `json:"enclosure,omitempty"`

	// Defaults to a function's value.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=255
	// +default=2
	FeedingsPerDay *int `json:"feedingsPerDay,omitempty"`

	// Kubernetes types keep their official schemas.
	// +optional
	FoodStock *Quantity `json:"foodStock,omitempty"`

	// +optional
	GatePort *intstr.IntOrString `json:"gatePort,omitempty"`

	// Renamed on the wire.
	// +required
	HabitatName string `json:"habitat-name"`

	// Who looks after the animals.
	// +required
	Keeper string `json:"keeper"`

	// Anything at all.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Notes *runtime.RawExtension `json:"notes,omitempty"`

	// +optional
	OpenedAt *metav1.Time `json:"openedAt,omitempty"`

	// Map of structs.
	// +optional
	Pens map[string]Pen `json:"pens,omitzero"`

	// +optional
	Schedule *Schedule `json:"schedule,omitempty"`

	// +optional
	Selector *V1LabelSelector `json:"selector,omitempty"`

	// An untagged integer-or-string.
	// +optional
	Size *Int64OrString `json:"size,omitempty"`

	// A transparent newtype is its inner type.
	// +optional
	TagLine *TagLine `json:"tagLine,omitempty"`

	// Optional, omitted when empty.
	// +optional
	Tags []string `json:"tags,omitzero"`

	// +optional
	Template *V1PodTemplateSpec `json:"template,omitempty"`

	// +optional
	Transport *Transport `json:"transport,omitempty"`

	// +optional
	Vet *V1ObjectReference `json:"vet,omitempty"`

	// A set of scalars is a list-type set.
	// +optional
	// +listType=set
	Visitors []string `json:"visitors,omitzero"`

	// +optional
	Zone *string `json:"zone,omitempty"`
}

// MenagerieStatus is what the keeper observed.
type MenagerieStatus struct {
	// +optional
	// +default=[]
	Conditions []V1Condition `json:"conditions,omitzero"`

	// +optional
	// +default=0
	Count *int32 `json:"count,omitempty"`

	// +optional
	Selector *string `json:"selector,omitempty"`
}

// +kubebuilder:pruning:PreserveUnknownFields

// A pen, with everything unknown kept.
type Pen struct {
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=65535
	Capacity int `json:"capacity"`

	// The keys the schema does not name, kept as sent (the API server keeps them too).
	Unknown map[string]runtime.RawExtension `json:"-"`
}

// UnmarshalJSON reads the fields Pen names and keeps every other key in Unknown.
func (in *Pen) UnmarshalJSON(data []byte) error {
	type named Pen
	if err := json.Unmarshal(data, (*named)(in)); err != nil {
		return err
	}
	var all map[string]runtime.RawExtension
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for _, key := range []string{"capacity"} {
		delete(all, key)
	}
	in.Unknown = nil
	if len(all) > 0 {
		in.Unknown = all
	}
	return nil
}

// MarshalJSON writes the fields Pen names and the keys kept in Unknown.
func (in Pen) MarshalJSON() ([]byte, error) {
	type named Pen
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

// An internally tagged enum: the tag sits beside the variant's fields.
type Schedule struct {
	// +optional
	Day *string `json:"day,omitempty"`

	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=255
	Hour *int `json:"hour,omitempty"`

	// +required
	// +kubebuilder:validation:Enum="daily";"weekly";"never"
	Kind string `json:"kind"`
}

// A transparent newtype.
type TagLine string

// An adjacently tagged enum: `{"mode": "truck", "details": {...}}`.
type Transport struct {
	// +optional
	Details *TransportDetails `json:"details,omitempty"`

	// +required
	// +kubebuilder:validation:Enum="Truck";"Boat";"Walk"
	Mode string `json:"mode"`
}

type TransportDetails struct {
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=255
	Crew *int `json:"crew,omitempty"`

	// +optional
	Harbour *string `json:"harbour,omitempty"`

	// +optional
	Plate *string `json:"plate,omitempty"`
}

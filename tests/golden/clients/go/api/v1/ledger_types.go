package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=ledgers,singular=ledger,scope=Namespaced

type Ledger struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec LedgerSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// LedgerList contains a list of Ledger.
type LedgerList struct {
	metav1.TypeMeta `json:",inline"`

	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Ledger `json:"items"`
}

// +kubebuilder:validation:XValidation:rule="!has(self.credit) || self.credit <= 1000",message="credit is capped at 1000",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="(has(self.cash)?1:0) + (has(self.card)?1:0) <= 1",message="at most one of the fields in [cash card] may be set"
// +kubebuilder:validation:XValidation:rule="(has(self.owner)?1:0) + (has(self.team)?1:0) == 1",message="exactly one of the fields in [owner team] must be set"
// +kubebuilder:validation:XValidation:rule="has(self.cash) || has(self.card) || has(self.credit)",message="at least one of the fields in [cash card credit] must be set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.opened) || has(self.opened)",message="field opened is immutable once set"

// LedgerSpec exercises the CEL markers.
type LedgerSpec struct {
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="field is immutable"
	Account string `json:"account"`

	// +optional
	Card *int64 `json:"card,omitempty"`

	// +optional
	Cash *int64 `json:"cash,omitempty"`

	// +optional
	Credit *int64 `json:"credit,omitempty"`

	// Bounded, as current servers require of a list that CEL rules walk: their cost
	// estimate refuses the rules below on an unbounded list of unbounded strings (and
	// since 1.37 refuses `string(int)` in a message expression on it).
	// +optional
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="self.all(e, e.size() > 0)",message="entries are not empty"
	// +kubebuilder:validation:XValidation:rule="size(self) <= oldSelf.size() + 10",messageExpression="'at most 10 new entries' + (size(oldSelf) == 0 ? ' to an empty ledger' : '')",optionalOldSelf=false
	Entries []string `json:"entries,omitzero"`

	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="field is immutable"
	Opened *string `json:"opened,omitempty"`

	// +optional
	Owner *string `json:"owner,omitempty"`

	// +optional
	Team *string `json:"team,omitempty"`
}

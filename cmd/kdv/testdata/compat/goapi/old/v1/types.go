// Package v1 is the old version of a gadget API for kdv compat's tests
// of Go packages as inputs.
//
// +groupName=gadgets.kdv.dev
// +versionName=v1
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget is a custom resource.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	// +optional
	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is the spec of a Gadget.
type GadgetSpec struct {
	// Label is a label.
	// +kubebuilder:validation:MaxLength=10
	// +optional
	Label string `json:"label,omitempty"`

	// Color is a color.
	// +kubebuilder:validation:Enum=Red;Blue
	// +optional
	Color string `json:"color,omitempty"`
}

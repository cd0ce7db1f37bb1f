// Package v1 is an API package whose kind has no +kubebuilder:object:root
// marker: kdv gen crd makes no CRD of it, and says so.
//
// +groupName=noroot.kdv.dev
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget is a kind without the root marker.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec `json:"spec"`
}

// GadgetSpec is the spec.
type GadgetSpec struct {
	// +optional
	Size string `json:"size,omitempty"`
}

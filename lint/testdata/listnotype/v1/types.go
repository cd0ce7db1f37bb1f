// Package v1 is a lint test case.
//
// +groupName=listnotype.lint.kdv.dev
// +versionName=v1
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a custom resource.
//
// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state.
	// +optional
	Spec ThingSpec `json:"spec,omitempty"`
}

// ThingSpec is the spec.
type ThingSpec struct {
	// Names are names.
	// +optional
	// +kubebuilder:validation:MaxItems=4
	Names []string `json:"names,omitempty"`
}

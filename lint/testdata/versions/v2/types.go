// Package v2 is a lint test case.
//
// +groupName=versions.lint.kdv.dev
// +versionName=v2
package v2

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
	// Label is a label.
	// +kubebuilder:validation:MaxLength=5
	// +kubebuilder:validation:XValidation:rule="self.size() > 1"
	// +optional
	Label string `json:"label,omitempty"`

	// Color is a color.
	// +kubebuilder:validation:Enum=Red
	// +optional
	Color string `json:"color,omitempty"`

	// Same is the same in both versions.
	// +kubebuilder:validation:MaxLength=3
	// +optional
	Same string `json:"same,omitempty"`
}

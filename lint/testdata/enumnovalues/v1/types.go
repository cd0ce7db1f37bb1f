// Package v1 is a lint test case.
//
// +groupName=enumnovalues.lint.kdv.dev
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

// Mode is an enum with no values.
// +enum
type Mode string

// ThingSpec is the spec.
type ThingSpec struct {
	// Mode is a mode.
	// +optional
	Mode Mode `json:"mode,omitempty"`
}

// Package v1 is a lint test case.
//
// +groupName=requireddefault.lint.kdv.dev
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
	// Size is required and defaulted.
	// +required
	// +default=3
	Size int32 `json:"size"`
}

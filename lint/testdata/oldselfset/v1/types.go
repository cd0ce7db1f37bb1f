// Package v1 is a lint test case.
//
// +groupName=oldselfset.lint.kdv.dev
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

// Port is a port.
type Port struct {
	// Number is the number.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="immutable"
	// +required
	Number int32 `json:"number"`
}

// ThingSpec is the spec.
type ThingSpec struct {
	// Ports are ports.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=4
	Ports []Port `json:"ports,omitempty"`
}

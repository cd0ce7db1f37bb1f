// Package v1 is a lint test case.
//
// +groupName=rulecost.lint.kdv.dev
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
	// Names are names, unbounded, as are their lengths.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:XValidation:rule="self.all(a, self.all(b, a == b || !a.startsWith(b)))",message="no name is a prefix of another"
	Names []string `json:"names,omitempty"`
}

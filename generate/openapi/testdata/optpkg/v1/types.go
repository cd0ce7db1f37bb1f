// Package v1 makes fields optional by default (controller-gen's package
// marker).
//
// +kubebuilder:validation:Optional
// +groupName=opt.kdv.dev
package v1

// Thing has fields without markers.
type Thing struct {
	// A has no marker and no omitempty: optional by the package default.
	A string `json:"a"`
	// B is required explicitly.
	// +required
	B string `json:"b"`
}

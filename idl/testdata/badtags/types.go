package badtags

// T has bad tags.
type T struct {
	// +k8s:minimum=abc
	A int `json:"a"`
	// B has more.
	// +nosuchtag
	// +kubebuilder:validation:Bogus=1
	B int `json:"b"`
}

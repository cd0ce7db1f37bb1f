// Package core mirrors the few internal types of k8s.io/kubernetes
// pkg/apis/core that the apiserver decodes annotation values into
// (helper.GetTolerationsFromPodAnnotations, GetTaintsFromNodeAnnotations).
// encoding/json names the Go type in its errors ("cannot unmarshal string
// into Go value of type []core.Toleration"), so the package is named core
// and the types keep the internal names, fields, Go types and lack of
// json tags (fields match case-insensitively by Go name): decoding into
// them gives the apiserver's error text without importing k8s.io/kubernetes.
package core

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// TolerationOperator is core.TolerationOperator.
type TolerationOperator string

// TaintEffect is core.TaintEffect.
type TaintEffect string

// Toleration is core.Toleration (k8s.io/kubernetes pkg/apis/core/types.go).
type Toleration struct {
	Key               string
	Operator          TolerationOperator
	Value             string
	Effect            TaintEffect
	TolerationSeconds *int64
}

// Taint is core.Taint (k8s.io/kubernetes pkg/apis/core/types.go).
type Taint struct {
	Key       string
	Value     string
	Effect    TaintEffect
	TimeAdded *metav1.Time
}

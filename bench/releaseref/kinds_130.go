//go:build releaseref && (k8s130 || k8s131 || k8s132)

package main

// Kubernetes 1.30 to 1.32 serve no kind of bench's table beyond
// kinds.go's: their IPAddress and ServiceCIDR are networking.k8s.io
// v1alpha1 (1.30) or v1beta1, VolumeAttributesClass storage.k8s.io
// v1alpha1 or v1beta1, resource.k8s.io v1alpha2 to v1beta1,
// ClusterTrustBundle certificates/v1alpha1, all off by default, and
// MutatingAdmissionPolicy is v1alpha1 from 1.32 on.

//go:build releaseref && k8s130

package main

// Kubernetes 1.30 serves no kind of bench's table beyond kinds.go's: its
// IPAddress and ServiceCIDR are networking.k8s.io/v1alpha1,
// VolumeAttributesClass storage.k8s.io/v1alpha1, resource.k8s.io
// v1alpha2 (with other kinds), ClusterTrustBundle certificates/v1alpha1,
// all off by default, and MutatingAdmissionPolicy does not exist yet.

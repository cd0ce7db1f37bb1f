//go:build releaseref && k8s136

package main

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
)

// The kinds Kubernetes 1.36 serves by default beyond 1.35's (kinds_133.go,
// kinds_134.go): admissionregistration.k8s.io/v1 MutatingAdmissionPolicy and
// its binding (GA in 1.36; pkg/registry/admissionregistration/rest serves
// them in v1, which pkg/controlplane/instance.go enables by default).
// ClusterTrustBundle is still certificates.k8s.io/v1beta1, off by default.
// ResourceClaim's strategy takes an authorizer from 1.36 on: nil, as in
// bench's 1.37 reference (builtin_kinds.go).
func init() {
	for gk, k := range map[schema.GroupKind]builtinKind{
		{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:        {resource: "mutatingadmissionpolicies", versions: v1, strategy: mutatingadmissionpolicy.NewStrategy(nil, noResolver)},
		{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}: {resource: "mutatingadmissionpolicybindings", versions: v1, strategy: mutatingadmissionpolicybinding.NewStrategy(nil, nil, noResolver)},
		{Group: "resource.k8s.io", Kind: "ResourceClaim"}:                               {resource: "resourceclaims", versions: v1, strategy: resourceclaim.NewStrategy(unlabelledNamespaces{}, nil)},
	} {
		builtinKinds[gk] = k
	}
}

//go:build releaseref && (k8s134 || k8s135)

package main

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
)

// resource.k8s.io/v1 ResourceClaim on 1.34 and 1.35, whose strategy takes
// only the namespace client (1.36 adds an authorizer: kinds_136.go).
func init() {
	builtinKinds[schema.GroupKind{Group: "resource.k8s.io", Kind: "ResourceClaim"}] = builtinKind{resource: "resourceclaims", versions: v1, strategy: resourceclaim.NewStrategy(unlabelledNamespaces{})}
}

package main

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/builtin"
	"kdv.dev/resource"
)

// useBuiltin makes the registry fall back to kdv's embedded built-in
// schemas of Kubernetes 1.<minor>.
func useBuiltin(reg *resource.Registry, minor int) error {
	return resource.UseBuiltin(reg, minor)
}

// builtinScope reports whether a built-in kind is namespaced, for OpenAPI
// documents that do not say.
func builtinScope(minor int) func(schema.GroupVersionKind) bool {
	return resource.BuiltinScope(minor)
}

// kubernetesMinor resolves 0 (no --kubernetes-version) to the newest
// version kdv embeds, which is what the run validates against.
func kubernetesMinor(minor int) int {
	if v := builtin.Versions(); minor == 0 && len(v) > 0 {
		return v[len(v)-1]
	}
	return minor
}

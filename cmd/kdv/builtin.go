package main

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

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

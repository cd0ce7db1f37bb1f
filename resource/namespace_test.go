package resource

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The create and update handlers clear metadata.namespace of a
// cluster-scoped object before validation (k8s.io/apiserver
// pkg/registry/rest EnsureObjectNamespaceMatchesRequestNamespace): a v1.37
// apiserver accepts a ClusterRole or a cluster-scoped custom resource that
// carries one and stores it without.
func TestClusterScopedNamespaceCleared(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	// A cluster-scoped custom resource: the Widget CRD's schema served as
	// a cluster-scoped kind.
	w, err := widgetRegistry(t).Validator(schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Widget"})
	if err != nil {
		t.Fatal(err)
	}
	s := w.Schema()
	s.Namespaced = false
	clusterWidget, err := Compile(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	role, err := reg.Validator(schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		v    *Validator
		obj  map[string]any
	}{
		{"ClusterRole", role, map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
			"metadata": map[string]any{"name": "reader", "namespace": "team-a"}}},
		{"cluster-scoped Widget", clusterWidget, map[string]any{"apiVersion": "example.kdv.dev/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w", "namespace": "default"}, "spec": map[string]any{"size": "small"}}},
	} {
		for _, update := range []bool{false, true} {
			var old map[string]any
			if update {
				old = tc.obj
			}
			out := tc.v.Validate(context.Background(), tc.obj, old)
			if out.Invalid() {
				t.Errorf("%s (update %v): rejected: %v %v %v", tc.name, update, out.DecodeErr, out.UnknownFields, out.Errors)
				continue
			}
			if ns, ok := out.Object["metadata"].(map[string]any)["namespace"]; ok {
				t.Errorf("%s (update %v): namespace kept: %v", tc.name, update, ns)
			}
		}
	}
	// A malformed namespace is still the decoder's to reject.
	out := role.Validate(context.Background(), map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
		"metadata": map[string]any{"name": "reader", "namespace": int64(3)}}, nil)
	if !out.Invalid() {
		t.Error("a numeric namespace was accepted")
	}
}

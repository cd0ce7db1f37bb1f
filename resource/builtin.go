package resource

import (
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/builtin"
	kdvschema "kdv.dev/schema"
)

// UseBuiltin makes reg fall back to kdv's embedded schemas of the built-in
// kinds of Kubernetes 1.<minor> (0: the newest embedded). It fails for a
// version kdv does not embed, naming those it does. A kind of a deprecated
// API version gets the apiserver's deprecation warning
// (Schema.DeprecationWarning); one of a version the release no longer
// serves is a *RemovedAPIError, and one introduced later a *NoSchemaError
// naming that release (builtin.APILifecycle).
func UseBuiltin(reg *Registry, minor int) error {
	minor, err := builtinMinor(minor)
	if err != nil {
		return err
	}
	source := fmt.Sprintf("built-in schemas of Kubernetes 1.%d", minor)
	// The kind list is decoded on first use, so runs without built-in
	// kinds do not pay for it.
	var (
		once  sync.Once
		kinds map[schema.GroupVersionKind]bool
		kerr  error
	)
	reg.SetFallback(func(gvk schema.GroupVersionKind) (Schema, bool, error) {
		once.Do(func() { kinds, _, kerr = builtinKinds(minor) })
		if kerr != nil {
			return Schema{}, false, kerr
		}
		namespaced, ok := kinds[gvk]
		if !ok {
			// A version this release no longer (or not yet) serves is
			// not a missing schema: say why.
			if err := unservedBuiltin(gvk, minor); err != nil {
				return Schema{}, false, err
			}
			return Schema{}, false, nil
		}
		s, err := builtin.Lookup(minor, kdvschema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind})
		if err != nil {
			return Schema{}, false, err
		}
		// Built-in strategies reset status on create and keep the old one
		// on update for kinds with a status.
		_, hasStatus := s.Properties["status"]
		kgvk := kdvschema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
		defs := func(steps []string) string { return builtin.DefinitionAt(minor, kgvk, steps) }
		goType := func(steps []string) (string, []string, bool) { return builtin.GoType(minor, kgvk, steps) }
		return Schema{GVK: gvk, Structural: s, Namespaced: namespaced, BuiltIn: true, Definitions: defs, GoType: goType, StatusSubresource: hasStatus, StatusOnCreate: statusOnCreate[gvk.GroupKind()], DroppedOnCreate: droppedOnCreate[gvk.GroupKind()], KeptOnUpdate: keptOnUpdate[gvk.GroupKind()], DeprecationWarning: builtinDeprecation(gvk, minor), Source: source}, true, nil
	})
	return nil
}

// statusOnCreate lists the built-in kinds whose strategy keeps the status a
// create sets (Schema.StatusOnCreate): k8s.io/kubernetes
// pkg/registry/core/node strategy.go PrepareForCreate resets no Node status.
var statusOnCreate = map[schema.GroupKind]bool{
	{Kind: "Node"}: true,
}

// droppedOnCreate lists fields that built-in strategies clear on create
// whatever the feature gates (Schema.DroppedOnCreate): the Node strategy's
// dropDisabledFields clears spec.configSource and status.config of a new
// Node (the dynamic kubelet config was removed).
var droppedOnCreate = map[schema.GroupKind][][]string{
	{Kind: "Node"}: {{"spec", "configSource"}, {"status", "config"}},
}

// keptOnUpdate lists the built-in kinds whose strategy's PrepareForUpdate
// copies more than status from the old object (Schema.KeptOnUpdate):
// k8s.io/kubernetes pkg/registry/certificates/certificates strategy.go
// sets a CertificateSigningRequest's spec (and status) to the old ones.
var keptOnUpdate = map[schema.GroupKind][]string{
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}: {"spec"},
}

// builtinMinor resolves 0 to the newest embedded version and fails for a
// version kdv does not embed, naming those it does.
func builtinMinor(minor int) (int, error) {
	versions := builtin.Versions()
	if len(versions) == 0 {
		return 0, fmt.Errorf("kdv was built without built-in schemas")
	}
	if minor == 0 {
		return versions[len(versions)-1], nil
	}
	var have []string
	for _, v := range versions {
		if v == minor {
			return minor, nil
		}
		have = append(have, fmt.Sprintf("1.%d", v))
	}
	return 0, fmt.Errorf("no built-in schemas for Kubernetes 1.%d; kdv embeds %s", minor, strings.Join(have, ", "))
}

// BuiltinScope reports whether a built-in kind of Kubernetes 1.<minor> is
// namespaced; kinds it does not know count as namespaced. OpenAPI documents
// do not carry scope, so --schemas uses this.
func BuiltinScope(minor int) func(schema.GroupVersionKind) bool {
	kinds, _, err := builtinKinds(minor)
	return func(gvk schema.GroupVersionKind) bool {
		if err != nil {
			return true
		}
		if ns, ok := kinds[gvk]; ok {
			return ns
		}
		return true
	}
}

func builtinKinds(minor int) (map[schema.GroupVersionKind]bool, int, error) {
	minor, err := builtinMinor(minor)
	if err != nil {
		return nil, 0, err
	}
	list, err := builtin.Kinds(minor)
	if err != nil {
		return nil, 0, err
	}
	kinds := make(map[schema.GroupVersionKind]bool, len(list))
	for _, k := range list {
		kinds[schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.Namespaced
	}
	return kinds, minor, nil
}

package resource

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"kdv.dev/builtin"
	kdvschema "kdv.dev/schema"
)

// RemovedAPIError says that the Kubernetes release validated against no
// longer serves a built-in kind's API version (builtin.Lifecycle.RemovedIn):
// `extensions/v1beta1 Ingress was removed in v1.22; use networking.k8s.io/v1
// Ingress (no matches for kind "Ingress" in version "extensions/v1beta1")`.
// It is not a missing schema: the apiserver rejects the document whatever
// it holds, so --ignore-missing-schemas does not skip it.
type RemovedAPIError struct {
	Lifecycle builtin.Lifecycle
}

// Error returns builtin.Lifecycle.RemovedMessage.
func (e *RemovedAPIError) Error() string { return e.Lifecycle.RemovedMessage() }

// builtinLifecycle returns the lifecycle of a built-in kind.
func builtinLifecycle(gvk schema.GroupVersionKind) (builtin.Lifecycle, bool) {
	return builtin.APILifecycle(kdvschema.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind})
}

// builtinDeprecation returns the warning the apiserver of Kubernetes
// 1.<minor> sends with every request of a deprecated built-in API version
// (k8s.io/apiserver endpoints/installer.go: deprecation.IsDeprecated, then
// deprecation.WarningMessage), or "".
func builtinDeprecation(gvk schema.GroupVersionKind, minor int) string {
	l, ok := builtinLifecycle(gvk)
	if !ok || !l.DeprecatedIn(minor) {
		return ""
	}
	return l.WarningMessage()
}

// unservedBuiltin explains why Kubernetes 1.<minor> has no kind gvk when
// the lifecycle data knows: a *RemovedAPIError for a version it no longer
// serves, a *NoSchemaError naming the release that introduces a version
// after it; nil otherwise.
func unservedBuiltin(gvk schema.GroupVersionKind, minor int) error {
	l, ok := builtinLifecycle(gvk)
	switch {
	case !ok:
		return nil
	case l.RemovedIn(minor):
		return &RemovedAPIError{Lifecycle: l}
	case l.NotYetIn(minor):
		return &NoSchemaError{GVK: gvk, Reason: fmt.Sprintf("%s %s is introduced in v%s; --kubernetes-version is 1.%d", gvk.GroupVersion(), gvk.Kind, l.Introduced, minor)}
	}
	return nil
}

// crdDeprecation returns the warning the apiextensions-apiserver sends
// with every request of a deprecated CRD version (customresource_handler.go):
// the version's deprecationWarning when set (CRD checks reject an empty
// one; the apiserver would send nothing),
// else "<group>/<version> <Kind> is deprecated", followed by "; use
// <group>/<version> <Kind>" naming the newest served, not deprecated
// version that sorts after it in Kubernetes' version order
// (defaultDeprecationWarning). It is "" for a version not deprecated.
func crdDeprecation(crd *kdvschema.CRD, v *kdvschema.CRDVersion) string {
	if !v.Deprecated {
		return ""
	}
	if v.DeprecationWarning != nil {
		return *v.DeprecationWarning
	}
	msg := fmt.Sprintf("%s/%s %s is deprecated", crd.Spec.Group, v.Name, crd.Spec.Names.Kind)
	var newer []string
	for _, o := range crd.Spec.Versions {
		if o.Served && !o.Deprecated && version.CompareKubeAwareVersionStrings(v.Name, o.Name) < 0 {
			newer = append(newer, o.Name)
		}
	}
	if len(newer) == 0 {
		return msg
	}
	sort.Slice(newer, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(newer[i], newer[j]) > 0 })
	return msg + fmt.Sprintf("; use %s/%s %s", crd.Spec.Group, newer[0], crd.Spec.Names.Kind)
}

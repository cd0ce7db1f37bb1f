// Package validation validates values against structural schemas exactly as
// the kube-apiserver validates custom resources, compiled once and fast.
//
// A Validator reproduces, in the apiserver's order
// (apiextensions-apiserver pkg/registry/customresource strategy.go and
// validator.go):
//
//  1. at a resource root with Options.Kind/APIVersion set, the TypeMeta
//     check (its errors are returned alone, as the apiserver does);
//  2. at a resource root, ObjectMeta validation (create or update rules);
//  3. OpenAPI value validation with kube-openapi's semantics and messages,
//     converted to field errors as kubeOpenAPIResultToFieldErrors does,
//     with ratcheting on update (KEP-4008);
//  4. apiVersion/kind/metadata of x-kubernetes-embedded-resource objects;
//  5. x-kubernetes-list-type set and map uniqueness (skipped on update when
//     the old object already violates it).
//
// CEL rules (x-kubernetes-validations) are evaluated by kdv.dev/cel; see
// Options and the package README for how they combine.
//
// Unknown fields are not reported here (pruning does that), and
// x-kubernetes-preserve-unknown-fields values without a schema are not
// validated, as in the apiserver.
//
// kdv extension: x-kubernetes-validation-errors on a schema node maps a
// keyword (maxLength, minLength, pattern, format, enum, maximum, minimum,
// multipleOf, maxItems, minItems, uniqueItems, maxProperties, minProperties,
// required, type, additionalProperties, allOf, anyOf, oneOf, not) to a
// message and reason; when that keyword fails at that node, the message
// replaces the error's detail and the reason (a field.ErrorType such as
// FieldValueInvalid or FieldValueRequired) its type.
package validation

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
	"kdv.dev/validation/internal/formatcheck"
	"kdv.dev/value"
)

// DefaultKubernetesMinor is the Kubernetes 1.x minor version whose behaviour
// the validator reproduces when Options.KubernetesMinor is 0.
const DefaultKubernetesMinor = 37

// Options configure a Validator.
type Options struct {
	// IsResourceRoot makes the schema's root a Kubernetes resource: its
	// metadata is validated as ObjectMeta (and, with Kind/APIVersion, its
	// TypeMeta).
	IsResourceRoot bool
	// KubernetesMinor selects the 1.x version whose formats apply
	// (k8s-short-name and k8s-long-name exist from 1.34); 0 means
	// DefaultKubernetesMinor.
	KubernetesMinor int
	// Kind and APIVersion ("group/version"), when set at a resource root,
	// must match the object's, as the apiserver checks for the resource it
	// serves.
	Kind, APIVersion string
	// Namespaced says whether the resource is namespaced; metadata.namespace
	// is then required (true) or forbidden (false). nil validates a set
	// namespace and does not require one, for manifests whose namespace
	// comes from the client.
	Namespaced *bool
	// IgnoreResourceVersion drops the update-time error for a missing
	// metadata.resourceVersion, which offline old/new manifests rarely set.
	IgnoreResourceVersion bool
	// FieldPath is the path of the schema's root in reported errors (nil
	// for a resource; e.g. "status" for a status schema).
	FieldPath *field.Path
}

// Validator is a compiled structural schema. It is safe for concurrent use.
type Validator struct {
	opts Options
	root *node
}

// New compiles s. It fails for schemas it cannot compile (nesting beyond
// 10000 levels); invalid regular expressions are reported at validation
// time, as the apiserver does.
func New(s *schema.Structural, opts Options) (*Validator, error) {
	if opts.KubernetesMinor == 0 {
		opts.KubernetesMinor = DefaultKubernetesMinor
	}
	c := &compiler{minor: opts.KubernetesMinor, formats: formatcheck.Default}
	root, err := c.structural(s)
	if err != nil {
		return nil, err
	}
	if root == nil {
		root = &node{}
	}
	return &Validator{opts: opts, root: root}, nil
}

// Validate validates obj, on create when old is nil and on update
// otherwise, and returns the apiserver's errors. obj and old are
// unstructured (map[string]any, as decoded from JSON or YAML) or typed Go
// values (see kdv.dev/value), or value.Value.
func (v *Validator) Validate(ctx context.Context, obj, old any) field.ErrorList {
	errs, _ := v.ValidateWithWarnings(ctx, obj, old)
	return errs
}

// ValidateWithWarnings is Validate that also returns the errors ratcheting
// dropped on update (errors of values unchanged from old), formatted as
// field errors. The apiserver does not report those; kdv shows them as
// warnings.
func (v *Validator) ValidateWithWarnings(ctx context.Context, obj, old any) (field.ErrorList, []string) {
	nv := value.Of(obj)
	update := !isNil(old)
	var ov value.Value
	if update {
		ov = value.Of(old)
	}
	var errs field.ErrorList
	if v.opts.IsResourceRoot {
		if tm := v.typeMeta(nv); len(tm) > 0 {
			return tm, nil
		}
		errs = append(errs, v.rootMeta(ctx, nv, ov, update)...)
	}

	s := v.getState()
	s.visit(v.root, nv, ov, update)
	errs = append(errs, dedup(s.errs)...)
	var warnings []string
	if len(s.warns) > 0 {
		for _, e := range dedup(s.warns) {
			warnings = append(warnings, e.Error())
		}
	}
	putState(s)

	if v.root.metaBelow {
		errs = append(errs, v.embedded(ctx, nv)...)
	}
	if v.root.listBelow {
		if !update || len(v.lists(ov)) == 0 {
			errs = append(errs, v.lists(nv)...)
		}
	}
	return errs, warnings
}

func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch t := x.(type) {
	case map[string]any, []any, string, bool, int64, float64, value.Value:
		return false
	case *value.Value:
		return t == nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

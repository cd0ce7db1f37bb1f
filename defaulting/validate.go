package defaulting

import (
	"context"
	"fmt"
	"reflect"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"kdv.dev/defaulting/internal/objectmeta"
	"kdv.dev/pruning"
	"kdv.dev/schema"
)

// Validators are the value checks ValidateDefaults runs on every default,
// after its own pruning and ObjectMeta coercion checks. They are functions
// so that kdv.dev/validation and kdv.dev/cel, which sit beside this
// package, can be plugged in by their caller.
type Validators struct {
	// EmbeddedMeta validates apiVersion, kind and metadata of the embedded
	// resources in obj (and of obj itself when isResourceRoot), with errors
	// below pth, as the apiserver's objectmeta.Validate. nil uses the
	// package's own implementation of it.
	EmbeddedMeta func(ctx context.Context, pth *field.Path, obj any, s *schema.Structural, isResourceRoot bool) field.ErrorList
	// OpenAPI validates obj against the OpenAPI value validations of s
	// (type, format, enum, bounds, pattern, required, junctors; no list
	// types, no metadata, no CEL) with errors below pth, as the apiserver's
	// ValidateCustomResource(pth, obj, NewSchemaValidator(s)). nil skips
	// OpenAPI validation.
	OpenAPI func(ctx context.Context, pth *field.Path, obj any, s *schema.Structural) field.ErrorList
	// CEL evaluates the x-kubernetes-validations of s and its subtree on
	// obj (oldObj nil: create; transition rules see oldObj otherwise),
	// with errors below pth, spending at most costBudget and returning
	// what remains (negative: exhausted). It returns (nil, costBudget)
	// when s has no rules. It is cel.NewValidator(s, isResourceRoot,
	// PerCallLimit).Validate. nil skips CEL.
	CEL func(ctx context.Context, pth *field.Path, s *schema.Structural, isResourceRoot bool, obj, oldObj any, costBudget int64) (field.ErrorList, int64)
}

// ValidateDefaults checks that every default in s is pruned and valid,
// OpenAPI value validations and CEL rules included, with the Kubernetes 1.37
// behaviour: ValidateDefaultsWith(ctx, pth, s, isResourceRoot,
// requirePrunedDefaults, NewValidators(0)). The apiserver calls it for
// every structural CRD version schema with pth the openAPIV3Schema's path,
// isResourceRoot and requirePrunedDefaults true.
func ValidateDefaults(ctx context.Context, pth *field.Path, s *schema.Structural, isResourceRoot, requirePrunedDefaults bool) (field.ErrorList, error) {
	return ValidateDefaultsWith(ctx, pth, s, isResourceRoot, requirePrunedDefaults, NewValidators(0))
}

// ValidateDefaultsWith checks that every default in s is pruned and valid,
// as the apiserver does when a CRD is created or updated. Per default, at
// `<pth>...properties[a].default`:
//
//   - a default of apiVersion, kind or metadata (or below metadata) of an
//     embedded resource (or of the root when isResourceRoot) is put into a
//     surrounding object {"apiVersion": "validation/v1", "kind":
//     "Validation", "metadata": {...: default}} and must coerce and validate
//     as TypeMeta/ObjectMeta: `Invalid value: ...: must result in valid
//     metadata: <error>`;
//   - any other default must not change when pruned, with requirePrunedDefaults
//     (CRDs of apiextensions.k8s.io/v1): `Invalid value: ...: must not have
//     unknown fields`; then, the first that fails of: ObjectMeta coercion of
//     its embedded resources (`<pth>.default.kind: Invalid value: 42: must
//     be a string`), their validation (`<pth>.default.apiVersion: Required
//     value`), OpenAPI validation, CEL rules (run with oldSelf = the default
//     and again as a create, sharing the apiserver's runtime cost budget).
//
// Defaults below additionalProperties are not visited (the apiserver
// forbids them). Properties are visited in sorted order, so the result is
// deterministic (the apiserver's map order is random). err is an internal
// error (a metadata default whose surrounding object cannot be built).
//
// It mirrors defaulting.ValidateDefaults of k8s.io/apiextensions-apiserver
// (pkg/apiserver/schema/defaulting/validation.go), with the feature gate
// CRDValidationRatcheting on (GA in 1.33).
func ValidateDefaultsWith(ctx context.Context, pth *field.Path, s *schema.Structural, isResourceRoot, requirePrunedDefaults bool, v Validators) (field.ErrorList, error) {
	if v.EmbeddedMeta == nil {
		v.EmbeddedMeta = objectmeta.Validate
	}
	if isResourceRoot {
		if s == nil {
			s = &schema.Structural{}
		}
		if !s.XEmbeddedResource {
			c := *s
			c.XEmbeddedResource = true
			s = &c
		}
	}
	d := defaultsValidator{v: v, requirePruned: requirePrunedDefaults}
	errs, err, _ := d.validate(ctx, pth, s, s, true, rootFunc().withTypeMeta(validationAPIVersion, validationKind), false, celconfig.RuntimeCELCostBudget)
	return errs, err
}

// The TypeMeta of the object a metadata default is checked in.
const (
	validationAPIVersion = "validation/v1"
	validationKind       = "Validation"
)

type defaultsValidator struct {
	v             Validators
	requirePruned bool
}

// validate checks the default of s and recurses into items and properties.
// rootSchema is the closest embedded resource (or the root) and isRoot
// tells whether s is it; insideMeta is true below its apiVersion, kind and
// metadata, where f builds the surrounding object.
func (d *defaultsValidator) validate(ctx context.Context, pth *field.Path, s, rootSchema *schema.Structural, isRoot bool, f surroundingFunc, insideMeta bool, budget int64) (field.ErrorList, error, int64) {
	if s == nil {
		return nil, nil, budget
	}
	if s.XEmbeddedResource {
		insideMeta = false
		f = rootFunc().withTypeMeta(validationAPIVersion, validationKind)
		rootSchema, isRoot = s, true
	}

	var errs field.ErrorList
	if s.Default.Object != nil {
		var err error
		errs, err, budget = d.validateDefault(ctx, pth.Child("default"), s, rootSchema, isRoot, f, insideMeta, budget)
		if err != nil || budget < 0 {
			return errs, err, budget
		}
	}

	// additionalProperties are not followed: defaults are forbidden there.
	if s.Items != nil {
		e, err, b := d.validate(ctx, pth.Child("items"), s.Items, rootSchema, false, f.index(), insideMeta, budget)
		errs, budget = append(errs, e...), b
		if err != nil {
			return nil, err, budget
		}
		if budget < 0 {
			return errs, nil, budget
		}
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub := s.Properties[k]
		subInsideMeta := insideMeta || s.XEmbeddedResource && (k == "metadata" || k == "apiVersion" || k == "kind")
		e, err, b := d.validate(ctx, pth.Child("properties").Key(k), &sub, rootSchema, false, f.child(k), subInsideMeta, budget)
		errs, budget = append(errs, e...), b
		if err != nil {
			return nil, err, budget
		}
		if budget < 0 {
			return errs, nil, budget
		}
	}
	return errs, nil, budget
}

// validateDefault checks s.Default at dpth (the ".default" path).
func (d *defaultsValidator) validateDefault(ctx context.Context, dpth *field.Path, s, rootSchema *schema.Structural, isRoot bool, f surroundingFunc, insideMeta bool, budget int64) (field.ErrorList, error, int64) {
	def := s.Default.Object
	var errs field.ErrorList
	if insideMeta {
		obj, err := f(deepCopyJSON(def))
		if err != nil {
			// Only the root func fails, for a non-object, and a metadata
			// default always has a parent object.
			return nil, fmt.Errorf("failed to validate default value inside metadata: %v", err), budget
		}
		if ferr, _ := pruning.CoerceMeta(nil, obj, rootSchema, true, pruning.MetaOptions{}); ferr != nil {
			return append(errs, field.Invalid(dpth, def, fmt.Sprintf("must result in valid metadata: %v", ferr))), nil, budget
		}
		if merrs := d.v.EmbeddedMeta(ctx, nil, obj, rootSchema, true); len(merrs) > 0 {
			return append(errs, field.Invalid(dpth, def, fmt.Sprintf("must result in valid metadata: %v", merrs.ToAggregate()))), nil, budget
		}
		// The value checks see the default itself, not the surrounding object.
		return d.validateValue(ctx, dpth, s, isRoot, def, errs, budget)
	}

	// The apiserver coerces the schema's default in place; a copy keeps
	// the caller's schema intact and gives the later checks the same
	// value. Errors hold the copy, as the apiserver's hold the mutated
	// default (a "must not have unknown fields" error shows the metadata
	// as coerced).
	coerced := deepCopyJSON(def)
	if d.requirePruned {
		pruned := deepCopyJSON(def)
		pruning.Prune(pruned, s, pruning.Options{IsResourceRoot: s.XEmbeddedResource, DiscardPaths: true})
		if !reflect.DeepEqual(pruned, def) {
			errs = append(errs, field.Invalid(dpth, coerced, "must not have unknown fields"))
		}
	}
	if ferr, _ := pruning.CoerceMeta(dpth, coerced, s, s.XEmbeddedResource, pruning.MetaOptions{}); ferr != nil {
		return append(errs, ferr), nil, budget
	}
	if merrs := d.v.EmbeddedMeta(ctx, dpth, coerced, s, s.XEmbeddedResource); len(merrs) > 0 {
		return append(errs, merrs...), nil, budget
	}
	return d.validateValue(ctx, dpth, s, isRoot, coerced, errs, budget)
}

// validateValue runs OpenAPI validation, then (if it passes) CEL, on the
// default value x.
func (d *defaultsValidator) validateValue(ctx context.Context, dpth *field.Path, s *schema.Structural, isRoot bool, x any, errs field.ErrorList, budget int64) (field.ErrorList, error, int64) {
	if d.v.OpenAPI != nil {
		if oerrs := d.v.OpenAPI(ctx, dpth, x, s); len(oerrs) > 0 {
			return append(errs, oerrs...), nil, budget
		}
	}
	if d.v.CEL == nil {
		return errs, nil, budget
	}
	cerrs, remaining := d.v.CEL(ctx, dpth, s, isRoot, x, x, budget)
	errs = append(errs, cerrs...)
	if len(cerrs) == 0 {
		// Rules using optionalOldSelf must also accept the default on
		// create; keep whichever run left less budget.
		cerrs, r := d.v.CEL(ctx, dpth, s, isRoot, x, nil, budget)
		errs = append(errs, cerrs...)
		remaining = min(remaining, r)
	}
	return errs, nil, remaining
}

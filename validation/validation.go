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
//  3. OpenAPI value validation with kube-openapi's semantics and messages
//     (pkg/validation/validate), converted to field errors as
//     kubeOpenAPIResultToFieldErrors does, with ratcheting on update
//     (KEP-4008, ratcheting.go);
//  4. the scale subresource's replicas and selector (Options.Scale);
//  5. apiVersion/kind/metadata of x-kubernetes-embedded-resource objects;
//  6. x-kubernetes-list-type set and map uniqueness (skipped on update when
//     the old object already violates it);
//  7. x-kubernetes-validations rules through kdv.dev/cel, skipped with a
//     note error when the errors above include a blocking one (NotSupported,
//     Required, TooLong, TooMany, TypeInvalid), as the apiserver does.
//
// Unknown fields are not reported here (pruning does that), and
// x-kubernetes-preserve-unknown-fields values without a schema are not
// validated, as in the apiserver. Values are expected pruned and defaulted,
// as the apiserver validates them.
//
// Where the apiserver's order is random (it iterates Go maps: properties,
// additionalProperties keys), errors come in a fixed order: properties by
// name, keys sorted. Errors are deduplicated by message, as kube-openapi
// does.
//
// Performance: all schema-derived data (types, formats, regular
// expressions, enum sets, junctor clauses, list-type metadata) is compiled
// by New. Validating valid unstructured input allocates nothing (field paths
// and messages are built only for errors; junctor clauses are first
// evaluated without building errors); typed Go values allocate a little for
// reflection. BenchmarkValidate measures real Gateway API and Prometheus
// Operator resources.
//
// kdv extension: x-kubernetes-validation-errors on a schema node maps a
// keyword (maxLength, minLength, pattern, format, enum, maximum, minimum,
// multipleOf, maxItems, minItems, uniqueItems, maxProperties, minProperties,
// required, type, additionalProperties, allOf, anyOf, oneOf, not) to a
// message and reason; when that keyword fails at that node, the message
// replaces the error's detail and the reason (a field.ErrorType such as
// FieldValueInvalid or FieldValueRequired) its type.
//
// kdv extension: ValidateWithWarnings returns the errors ratcheting
// dropped; the apiserver silently drops them.
package validation

import (
	"context"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/cel"
	"kdv.dev/formats"
	"kdv.dev/schema"
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
	// Formats decides which formats are enforced and how; nil means
	// formats.ForVersion(KubernetesMinor), exactly the apiserver's.
	Formats *formats.Registry
	// Scale is the version's scale subresource, whose replicas and label
	// selector paths the apiserver checks after the schema; nil when the
	// version has none.
	Scale *Scale
	// SkipCEL leaves x-kubernetes-validations rules out (for callers that
	// evaluate them separately with kdv.dev/cel).
	SkipCEL bool
	// BuiltIn validates a built-in kind, whose x-kubernetes-validations
	// kdv generated from validation-gen tags and its rule overlay: the
	// apiserver decodes such objects into Go types, so a value of the wrong
	// type never reaches validation, and its hand-written and declarative
	// validation run every check whatever the others found, so the rules
	// run after blocking errors too, with no "some validation rules were
	// not checked" note, and report in the hand-written form
	// (cel.Options.BuiltIn). Formats of Go-typed decoding (byte, date-time)
	// are not checked: the caller decodes first (kdv.dev/resource does).
	BuiltIn bool
	// NameValidation is the ValidateNameFunc the apiserver passes to
	// ValidateObjectMeta for the kind at this resource root: on create it
	// checks metadata.name, and metadata.generateName with prefix true,
	// returning one message per violated rule (each becomes an Invalid
	// error on that field). nil means apimachinery's NameIsDNSSubdomain,
	// the rule for custom resources; many built-in kinds use another one
	// (kdv.dev/builtin NameValidation): RBAC kinds take path segment
	// names, Services DNS-1035 labels, Namespaces DNS-1123 labels, ...
	NameValidation func(name string, prefix bool) []string
	// MetaOnUpdate makes updates run the create-time ObjectMeta validation
	// with NameValidation again, after the update checks, as the update
	// validation of many built-in kinds does (kdv.dev/builtin
	// MetaValidatedOnUpdate).
	MetaOnUpdate bool
	// MetadataRepeats keeps the repeats of metadata errors on every
	// release: the kind's strategy does not end with the filter the
	// k8s.io/kubernetes strategies end with from 1.37 (withoutRepeats;
	// kdv.dev/builtin ErrorsFiltered).
	MetadataRepeats bool
	// NameGeneratedOnCreate accepts an object without name or generateName
	// on create, whose registry names it (kdv.dev/builtin
	// NameGeneratedOnCreate).
	NameGeneratedOnCreate bool
	// UntypedIntOrString makes x-kubernetes-int-or-string add no type
	// check, as when the apiserver validates default values: it converts
	// the schema with Structural.ToKubeOpenAPI, which publishes the
	// extension without type [integer, string] (custom resources are
	// validated through ConvertJSONSchemaProps, which adds the type). So
	// the apiserver accepts `default: {x: 1}` on an int-or-string field.
	UntypedIntOrString bool
}

// Validator is a compiled structural schema. It is safe for concurrent use.
type Validator struct {
	opts Options
	root *node
	cel  *cel.Validator // nil without rules or with SkipCEL
	// reported: the x-kubernetes-reported-at of a built-in resource's
	// properties (nil for custom resources, whose CRDs cannot carry it).
	reported []reportedPath
}

// New compiles s. It fails for schemas it cannot compile (nesting beyond
// 10000 levels); invalid regular expressions are reported at validation
// time, as the apiserver does.
func New(s *schema.Structural, opts Options) (*Validator, error) {
	if opts.KubernetesMinor == 0 {
		opts.KubernetesMinor = DefaultKubernetesMinor
	}
	if opts.Formats == nil {
		opts.Formats = formats.ForVersion(opts.KubernetesMinor)
	}
	c := &compiler{formats: opts.Formats, untypedIntOrString: opts.UntypedIntOrString, builtIn: opts.BuiltIn, ratchets: !opts.BuiltIn}
	root, err := c.structural(s)
	if err != nil {
		return nil, err
	}
	if root == nil {
		root = &node{}
	}
	v := &Validator{opts: opts, root: root}
	if opts.BuiltIn && opts.FieldPath == nil {
		v.reported = reportedPaths(s, "", nil)
	}
	if s != nil && !opts.SkipCEL && hasRules(s) {
		// Compile-time (CRD) errors are schema.Check's business; broken
		// rules are reported at evaluation time, as the apiserver does.
		v.cel, _ = cel.NewValidator(s, opts.IsResourceRoot, cel.Options{KubernetesMinor: opts.KubernetesMinor, SkipCheck: true, BuiltIn: opts.BuiltIn})
	}
	return v, nil
}

// Validate validates obj, on create when old is nil (or a nil pointer, nil
// map or null value.Value) and on update otherwise, and returns the apiserver's errors. obj and old are
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
	var errs, common field.ErrorList
	if v.opts.IsResourceRoot {
		if tm := v.typeMeta(nv); len(tm) > 0 {
			return tm, nil
		}
		var meta field.ErrorList
		common, meta = v.rootMeta(ctx, nv, ov, update)
		errs = append(errs, meta...)
	}

	s := v.getState()
	s.update, s.lp.update = update, update
	s.visit(v.root, nv, ov, update)
	errs = append(errs, dedup(s.errs)...)
	var warnings []string
	if len(s.warns) > 0 {
		warns := dedup(s.warns)
		reportAt(warns, v.reported)
		for _, e := range warns {
			warnings = append(warnings, e.Error())
		}
	}
	errs = append(errs, v.scale(nv)...)
	if v.root.metaBelow {
		errs = append(errs, v.embedded(ctx, nv)...)
	}
	if v.root.listBelow {
		// On update, only when the old object satisfies the list types
		// (strategy.go: ratcheting of list-type validation); the lists of
		// built-in nodes that do not ratchet (x-kubernetes-ratcheting)
		// always, as the hand-written duplicate checks.
		switch {
		case !update || len(v.lists(s, ov)) == 0:
			errs = append(errs, v.lists(s, nv)...)
		case v.opts.BuiltIn:
			s.lp.fixedOnly = true
			errs = append(errs, v.lists(s, nv)...)
			s.lp.fixedOnly = false
		}
	}
	putState(s)
	if v.cel != nil {
		// The apiserver skips a CRD's rules when value validation found a
		// blocking error (strategy.go hasBlockingErr); the hand-written and
		// declarative validation of built-in kinds, whose checks the rules
		// of built-in schemas declare, runs every check.
		if b := cel.BlockingError(errs); b != nil && !v.opts.BuiltIn {
			errs = append(errs, b)
		} else {
			var oldU any
			if update {
				oldU = ov.Unstructured()
			}
			// ValidateObject: the same errors and warnings as the
			// tracked ValidateWithWarnings, evaluated without runtime cost
			// tracking where the cost bounds prove the budget holds.
			celErrs, celWarns := v.cel.ValidateObject(ctx, v.opts.FieldPath, nv.Unstructured(), oldU, cel.RuntimeCELCostBudget)
			errs = append(errs, celErrs...)
			warnings = append(warnings, celWarns...)
		}
	}
	if len(common) > 0 {
		errs = append(common, errs...)
	}
	if len(v.reported) > 0 {
		reportAt(errs, v.reported)
	}
	if v.opts.BuiltIn && len(errs) > 1 {
		// before 1.37 strategies did not filter the list: repeats stay
		m := v.opts.KubernetesMinor
		errs = withoutRepeats(errs, !v.opts.MetadataRepeats && (m == 0 || m >= 37))
	}
	if len(warnings) > 1 {
		// the apiserver's warning recorder drops a warning it already has
		// (k8s.io/apiserver pkg/endpoints/filters/warning.go); a ratcheted
		// error can come both from a keyword and the rule mirroring it
		warnings = uniqueWarnings(warnings)
	}
	return errs, warnings
}

// uniqueWarnings keeps the first of equal warnings, in order.
func uniqueWarnings(ws []string) []string {
	seen := make(map[string]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// withoutRepeats keeps the first of errors that print the same. Every
// built-in strategy embeds rest.DeclarativeValidation, whose last step
// filters the whole error list with field.ErrorList.Filter, which goes
// through ToAggregate and so drops repeated messages (k8s.io/apiserver
// pkg/registry/rest/validate.go ValidateDeclarativelyWithMigrationChecks):
// the labels error that rest.ValidateUpdate's common checks, the kind's
// ObjectMeta update checks and its create-time checks each report is
// reported once.
//
// It also drops an Invalid error without a value (printed null) when
// another error of the same field and detail carries one. That pair is a
// validation-gen check (+k8s:immutable reports field.Invalid(fldPath, nil,
// ...)) and the hand-written check the rule overlay declares with the
// value: k8s.io/api wraps some such tags in +k8s:alpha (StatefulSet's
// immutable fields in 1.37), which does not make them authoritative, so
// under default gates the apiserver reports the hand-written error only.
//
// Before 1.37 the strategies did not end with that filter: releases 1.35
// and 1.36 list a bad label twice on update (k8s.io/kubernetes v1.36.3
// and v1.35.4: rest.ValidateUpdate's common checks, then
// ValidateObjectMetaUpdate), three times when the strategy also runs the
// create validation. With dedupe false the repeats of metadata errors are
// kept; others are still dropped, as they are kdv's own (a published
// k8s.io/api tag and the overlay rule mirroring the same hand-written
// check, where the apiserver of that release reports the hand-written
// one). Measured on the old-release harness, same messages: 1.36 20,279
// (all dropped) or 20,685 (none dropped) to 21,309 of 22,636.
func withoutRepeats(errs field.ErrorList, dedupe bool) field.ErrorList {
	valued := map[string]bool{}
	for _, e := range errs {
		if e.Type == field.ErrorTypeInvalid && e.BadValue != nil {
			valued[e.Field+"\x00"+e.Detail] = true
		}
	}
	seen := make(map[string]bool, len(errs))
	out := errs[:0]
	for _, e := range errs {
		if e.Type == field.ErrorTypeInvalid && e.BadValue == nil && valued[e.Field+"\x00"+e.Detail] {
			continue
		}
		if m := e.Error(); !seen[m] || !dedupe && strings.HasPrefix(e.Field, "metadata") {
			seen[m] = true
			out = append(out, e)
		}
	}
	return out
}

// hasRules reports whether any node of s has x-kubernetes-validations.
func hasRules(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasRules(s.Items) {
		return true
	}
	for k := range s.Properties {
		p := s.Properties[k]
		if hasRules(&p) {
			return true
		}
	}
	if s.AdditionalProperties != nil && hasRules(s.AdditionalProperties.Structural) {
		return true
	}
	if vv := s.ValueValidation; vv != nil {
		for _, j := range [][]schema.NestedValueValidation{vv.AllOf, vv.AnyOf, vv.OneOf} {
			for i := range j {
				if nestedRules(&j[i]) {
					return true
				}
			}
		}
	}
	return false
}

func nestedRules(n *schema.NestedValueValidation) bool {
	if n == nil {
		return false
	}
	if len(n.XValidations) > 0 || nestedRules(n.Items) || nestedRules(n.AdditionalProperties) {
		return true
	}
	for k := range n.Properties {
		p := n.Properties[k]
		if nestedRules(&p) {
			return true
		}
	}
	return false
}

func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch t := x.(type) {
	case map[string]any:
		return t == nil
	case []any, string, bool, int64, float64:
		return false
	case value.Value:
		return t.Kind() == value.KindNull
	case *value.Value:
		return t == nil || t.Kind() == value.KindNull
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

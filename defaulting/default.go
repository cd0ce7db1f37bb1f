// Package defaulting applies the `default` values of a structural schema to
// unstructured values and checks, at CRD creation, that those defaults are
// pruned and valid, the way the kube-apiserver does.
//
// The apiserver defaults a custom resource right after decoding (pruning,
// see kdv.dev/pruning), before validation; defaults of parents are applied
// before those of their children, so a defaulted object gets its fields'
// defaults too.
//
// It mirrors k8s.io/apiextensions-apiserver pkg/apiserver/schema/defaulting.
package defaulting

import (
	"kdv.dev/pruning"
	"kdv.dev/schema"
)

// Default sets, in place, the default of every property of every object in
// x (unstructured JSON: map[string]any, []any, scalars) that is absent, or
// null while its schema is not nullable. additionalProperties values and
// array items that are null on a non-nullable schema get that schema's
// default (the apiserver forbids defaults there, so in a valid CRD such
// nulls stay). Defaults are deep-copied, so x never shares a default value
// with s or with another defaulted field. A parent is defaulted before its
// children: a defaulted object is then walked and its own missing
// properties defaulted. A default of null (JSON null) is never applied.
// Values at the top of x itself are not defaulted (there is no parent).
// kdv's extensions of built-in schemas apply too: the expressions of
// x-kubernetes-default-expression (DefaultExpressionKey) are evaluated
// on the object before its constant defaults, x-kubernetes-default-from
// (DefaultFromKey) copies after them.
//
// It mirrors defaulting.Default of k8s.io/apiextensions-apiserver
// (pkg/apiserver/schema/defaulting/algorithm.go).
func Default(x any, s *schema.Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		StripZero(x, s)
		var cs []computed
		if exprs := expressionsOf(s); exprs != nil {
			cs = computeExpressions(x, exprs)
		}
		for k := range s.Properties {
			d := s.Properties[k].Default.Object
			if d == nil {
				continue
			}
			if v, found := x[k]; !found || v == nil && !s.Properties[k].Nullable {
				x[k] = deepCopyJSON(d)
			}
		}
		for k, p := range s.Properties {
			if from, _ := p.XOther[DefaultFromKey].(string); from != "" {
				defaultFrom(x, k, from)
			}
		}
		setComputed(x, cs)
		// One schema copy per frame: a fresh one per field would be
		// moved to the heap.
		var prop schema.Structural
		for k, v := range x {
			if ps, found := s.Properties[k]; found {
				prop = ps
				Default(v, &prop)
			} else if s.AdditionalProperties != nil {
				ap := s.AdditionalProperties.Structural
				if isNonNullableNull(v, ap) {
					v = deepCopyJSON(ap.Default.Object)
					x[k] = v
				}
				Default(v, ap)
			}
		}
	case []any:
		for i := range x {
			if isNonNullableNull(x[i], s.Items) {
				x[i] = deepCopyJSON(s.Items.Default.Object)
			}
			Default(x[i], s.Items)
		}
	}
}

// DefaultFromKey is kdv's schema extension for a default that is the value
// of a sibling property: `x-kubernetes-default-from: port` on a property
// gives it the value of the object's "port" when it is missing, null or
// its type's zero value (0 or ""), after the constant defaults. It
// declares the Go defaulters that copy a field (SetDefaults_Service: a
// ServicePort's zero targetPort becomes its port), which the apiserver
// applies before validation, so that validation sees (and its errors
// print) the copied value. It is published only with the built-in
// schemas; CRDs cannot declare it.
const DefaultFromKey = schema.XDefaultFrom

// DefaultFrom returns the sibling property s is defaulted from
// (DefaultFromKey), "" when none.
func DefaultFrom(s *schema.Structural) string {
	from, _ := s.XOther[DefaultFromKey].(string)
	return from
}

// defaultFrom sets x[key] to a copy of x[from] when x[key] is missing,
// null, 0 or "" and x[from] is set.
func defaultFrom(x map[string]any, key, from string) {
	src, ok := x[from]
	if !ok || src == nil {
		return
	}
	switch v := x[key].(type) {
	case nil:
	case string:
		if v != "" {
			return
		}
	case int64:
		if v != 0 {
			return
		}
	case float64:
		if v != 0 {
			return
		}
	default:
		return
	}
	x[key] = deepCopyJSON(src)
}

// StripZero removes, in place, the properties of the object x whose schema
// is marked x-kubernetes-strip-zero and whose value is the JSON zero value
// of its schema type: "", 0, false, [] or {} (null is pruned before, see
// PruneNonNullableNullsWithoutDefaults). Default calls it on every object
// before applying defaults, so a stripped field is defaulted like an
// absent one.
//
// It mirrors what Go decoding does to the built-in types (KEP-4153
// "Zero-Valued Primitive Fields"): a non-pointer field decoded from its
// zero value cannot be told from an absent one, so the Go defaulters
// (k8s.io/kubernetes pkg/apis/core/v1 SetDefaults_Container: "if
// obj.ImagePullPolicy == \"\"") and hand-written validation treat it as
// unset.
func StripZero(x map[string]any, s *schema.Structural) {
	for k, v := range x {
		if p, ok := s.Properties[k]; ok && p.XStripZero && isZero(v, p.Type) {
			delete(x, k)
		}
	}
}

// isZero reports whether v is the zero value of the schema type typ: ""
// for string, 0 for integer and number, false for boolean, [] for array,
// {} for object. A value of another type is not (Go decoding rejects it).
func isZero(v any, typ string) bool {
	switch v := v.(type) {
	case string:
		return typ == "string" && v == ""
	case bool:
		return typ == "boolean" && !v
	case int64:
		return (typ == "integer" || typ == "number") && v == 0
	case float64:
		return (typ == "integer" || typ == "number") && v == 0
	case int:
		return (typ == "integer" || typ == "number") && v == 0
	case int32:
		return (typ == "integer" || typ == "number") && v == 0
	case []any:
		return typ == "array" && len(v) == 0
	case map[string]any:
		return typ == "object" && len(v) == 0
	}
	return false
}

// isNonNullableNull reports whether x is null where s does not allow it.
func isNonNullableNull(x any, s *schema.Structural) bool {
	return x == nil && s != nil && !s.Nullable
}

// PruneNonNullableNullsWithoutDefaults removes, in place, object fields
// that are null while their schema is neither nullable nor defaulted; the
// apiserver runs it right after pruning, before defaulting. It is
// pruning.PruneNonNullableNullsWithoutDefaults, here under the name the
// apiserver's package uses.
//
// It mirrors defaulting.PruneNonNullableNullsWithoutDefaults of
// k8s.io/apiextensions-apiserver (pkg/apiserver/schema/defaulting/prunenulls.go).
func PruneNonNullableNullsWithoutDefaults(x any, s *schema.Structural) {
	pruning.PruneNonNullableNullsWithoutDefaults(x, s)
}

// deepCopyJSON copies maps and slices of a JSON value; scalars are
// immutable and returned as they are. Unlike the apiserver's
// runtime.DeepCopyJSONValue it does not panic on non-JSON Go types (a
// hand-built schema may hold an int), it copies them by value.
func deepCopyJSON(x any) any {
	switch x := x.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		c := make(map[string]any, len(x))
		for k, v := range x {
			c[k] = deepCopyJSON(v)
		}
		return c
	case []any:
		if x == nil {
			return x
		}
		c := make([]any, len(x))
		for i, v := range x {
			c[i] = deepCopyJSON(v)
		}
		return c
	default:
		return x
	}
}

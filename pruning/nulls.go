package pruning

import "kdv.dev/schema"

// PruneNonNullableNullsWithoutDefaults removes, in place, object fields
// whose value is null while their schema is not nullable and has no default
// (the defaulter replaces nulls that have a default). Fields without a
// schema are left alone. It does not report what it removed, as the
// apiserver does not.
//
// It mirrors defaulting.PruneNonNullableNullsWithoutDefaults of
// k8s.io/apiextensions-apiserver (pkg/apiserver/schema/defaulting/prunenulls.go).
func PruneNonNullableNullsWithoutDefaults(x any, s *schema.Structural) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			fs := fieldSchema(k, s)
			if v == nil && fs != nil && !fs.Nullable && fs.Default.Object == nil {
				delete(x, k)
			} else {
				PruneNonNullableNullsWithoutDefaults(v, fs)
			}
		}
	case []any:
		var items *schema.Structural
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			PruneNonNullableNullsWithoutDefaults(v, items)
		}
	}
}

// fieldSchema returns the schema of field k of an object with schema s:
// its property, else additionalProperties' schema, else nil.
func fieldSchema(k string, s *schema.Structural) *schema.Structural {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return &p
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}

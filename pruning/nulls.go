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
		// One schema copy per frame: a fresh one per field would be
		// moved to the heap.
		var prop schema.Structural
		for k, v := range x {
			var fs *schema.Structural
			if s != nil {
				if ps, ok := s.Properties[k]; ok {
					prop = ps
					fs = &prop
				} else if s.AdditionalProperties != nil {
					fs = s.AdditionalProperties.Structural
				}
			}
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

package cel

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// ValidFieldPath checks that jsonPath (a rule's fieldPath, e.g.
// ".spec.foo['bar.baz']") is a JSON path of only field and map-key accessors
// valid for s, and returns it as a field.Path with the schema it reaches.
// allowArrayNotation false rejects the ['...'] form (as for
// selectableFields). It is schema.ResolveFieldPath, which mirrors the
// apiserver's cel.ValidFieldPath (schema/cel/validation.go).
func ValidFieldPath(jsonPath string, s *schema.Structural, allowArrayNotation ...bool) (validFieldPath *field.Path, foundSchema *schema.Structural, err error) {
	return schema.ResolveFieldPath(jsonPath, s, len(allowArrayNotation) == 0 || allowArrayNotation[0])
}

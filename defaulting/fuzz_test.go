package defaulting

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/pruning"
	"kdv.dev/schema"
	"kdv.dev/schema/schematest"
)

// FuzzDefault runs Default, PruneNonNullableNullsWithoutDefaults and
// ValidateDefaults on arbitrary schema/value pairs: no panics, and
// defaulting is idempotent.
func FuzzDefault(f *testing.F) {
	f.Add(`{"properties":{"a":{"default":"A"}}}`, `[{"a":null},{}]`)
	f.Add(`{"type":"object","properties":{"spec":{"type":"object","default":{"replicas":2},"properties":{"replicas":{"type":"integer","default":1}}}}}`, `{}`)
	f.Add(`{"type":"object","additionalProperties":{"type":"object","default":{"x":[1]}}}`, `{"k":null}`)
	f.Add(`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","default":{"name":7}},"kind":{"type":"string","default":"%"}},"default":{"kind":1}}}}`, `{"e":{}}`)
	f.Add(`{"type":"array","items":{"type":"string","default":"d","x-kubernetes-validations":[{"rule":"self.size() > 0"}]}}`, `[null,"a"]`)
	f.Fuzz(func(t *testing.T, schemaJSON, valueJSON string) {
		var p schema.Props
		if json.Unmarshal([]byte(schemaJSON), &p) != nil {
			return
		}
		s, err := schema.NewStructural(&p)
		if err != nil {
			return
		}
		var v any
		if utiljson.Unmarshal([]byte(valueJSON), &v) != nil {
			return
		}
		PruneNonNullableNullsWithoutDefaults(v, s)
		// The compiled Defaulter does exactly what Default does.
		c := deepCopyJSON(v)
		NewDefaulter(s).Default(c)
		Default(v, s)
		if !reflect.DeepEqual(c, v) {
			t.Fatalf("Defaulter differs from Default:\n%s\n%s", schematest.Indent(c), schematest.Indent(v))
		}
		once := deepCopyJSON(v)
		Default(v, s)
		if !reflect.DeepEqual(once, v) {
			t.Fatalf("Default not idempotent:\n%s\n%s", schematest.Indent(once), schematest.Indent(v))
		}
		pruning.Prune(v, s, pruning.Options{IsResourceRoot: true})
		_, _ = ValidateDefaults(context.Background(), field.NewPath("s"), s, true, true)
		_, _ = ValidateDefaults(context.Background(), nil, s, false, false)
	})
}

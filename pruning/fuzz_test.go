package pruning

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"kdv.dev/schema"
	"kdv.dev/schema/schematest"
)

// FuzzPrune runs every step of the package on arbitrary schema/value pairs:
// no panics, sorted paths, and pruning is idempotent.
func FuzzPrune(f *testing.F) {
	for _, c := range pruneCases {
		sj := "{}"
		if c.schema != "" {
			sj = schematest.Indent(schematest.Structural(f, c.schema).ToProps())
		}
		f.Add(sj, c.in, c.isResourceRoot)
	}
	f.Add(`{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true}}}`,
		`{"t":{"kind":1,"apiVersion":[],"metadata":{"labels":{"a":1},"x":2}}}`, false)
	f.Add(`{"type":"object","additionalProperties":{"nullable":true,"default":{"a":null}}}`, `{"a":null,"b":[null]}`, true)
	f.Fuzz(func(t *testing.T, schemaJSON, valueJSON string, root bool) {
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
		paths := Prune(v, s, Options{IsResourceRoot: root})
		if !sort.StringsAreSorted(paths) {
			t.Fatalf("paths not sorted: %q", paths)
		}
		if again := Prune(v, s, Options{IsResourceRoot: root}); len(again) > 0 {
			t.Fatalf("second Prune removed %q", again)
		}
		PruneNonNullableNullsWithoutDefaults(v, s)
		_, _ = CoerceMeta(nil, v, s, root, MetaOptions{ReturnUnknownFieldPaths: true})
		_, _ = CoerceMeta(nil, v, s, root, MetaOptions{DropInvalidFields: true})

		var v2 any
		_ = utiljson.Unmarshal([]byte(valueJSON), &v2)
		if m, ok := v2.(map[string]any); ok {
			_, _ = Apply(m, s, ApplyOptions{ReturnUnknownFieldPaths: root})
			_, _ = Apply(m, s, ApplyOptions{DropInvalidMetadata: true, PreserveUnknownFields: root})
		}
	})
}

// TestPruneIsAPrefixOfNoPaths checks DiscardPaths prunes exactly the same.
func TestPruneDiscardPathsSameResult(t *testing.T) {
	for _, c := range pruneCases {
		s := schematest.Structural(t, c.schema)
		a, b := schematest.JSON(t, c.in), schematest.JSON(t, c.in)
		Prune(a, s, Options{IsResourceRoot: c.isResourceRoot})
		Prune(b, s, Options{IsResourceRoot: c.isResourceRoot, DiscardPaths: true})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: results differ", c.name)
		}
	}
}

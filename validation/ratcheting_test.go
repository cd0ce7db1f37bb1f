package validation

import (
	"context"
	"math"
	"testing"
)

const (
	smallInt  = `{"type":"number","maximum":50}`
	mediumInt = `{"type":"number","minimum":50,"maximum":10000}`
	objSchema = `{"type":"object","properties":{"zero":{"type":"number","minimum":0,"maximum":0},"small":` + smallInt + `,"medium":` + mediumInt + `,"large":{"type":"number","minimum":10000}}}`
)

// Ported from apiextensions-apiserver pkg/apiserver/validation/ratcheting_test.go.
func TestRatchetingApiserverCases(t *testing.T) {
	cases := []struct {
		name     string
		schema   string
		obj, old any
		valid    bool
	}{
		{"scalar unchanged", mediumInt, int64(1), int64(1), true},
		{"scalar changed", mediumInt, int64(1), int64(2), false},
		{"object field unchanged", objSchema, map[string]any{"small": 500}, map[string]any{"small": 500}, true},
		{"object field unchanged, other removed", objSchema, map[string]any{"small": 501}, map[string]any{"small": 501, "medium": 500}, true},
		{"object field changed", objSchema, map[string]any{"small": 500}, map[string]any{"small": 501}, false},
		{"nested unchanged", `{"type":"object","properties":{"nested":` + objSchema + `}}`,
			map[string]any{"nested": map[string]any{"small": 500}}, map[string]any{"nested": map[string]any{"small": 500}}, true},
		{"nested unchanged, sibling removed", `{"type":"object","properties":{"nested":` + objSchema + `}}`,
			map[string]any{"nested": map[string]any{"small": 501}}, map[string]any{"nested": map[string]any{"small": 501, "medium": 500}}, true},
		{"nested changed", `{"type":"object","properties":{"nested":` + objSchema + `}}`,
			map[string]any{"nested": map[string]any{"small": 500}}, map[string]any{"nested": map[string]any{"small": 501}}, false},
		{"int32 unchanged", `{"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"unrelated":{"type":"string"}}}`,
			map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 1)}, map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 1)}, true},
		{"int32 unchanged, other field changed", `{"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"unrelated":{"type":"string"}}}`,
			map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 1), "unrelated": "changed"}, map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 1), "unrelated": "original"}, true},
		{"int32 changed", `{"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"unrelated":{"type":"string"}}}`,
			map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 2)}, map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 1)}, false},
		// kdv cases following the correlation rules of k8s.io/apiserver pkg/cel/common/equality.go.
		{"map list item unchanged, moved", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"string","maxLength":1}}}}}}`,
			map[string]any{"l": []any{map[string]any{"k": "b", "v": "ok"}, map[string]any{"k": "a", "v": "toolong"}}},
			map[string]any{"l": []any{map[string]any{"k": "a", "v": "toolong"}}}, false},
		{"atomic list item unchanged but list changed", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","maxLength":1}}}}`,
			map[string]any{"l": []any{"toolong", "b"}}, map[string]any{"l": []any{"toolong"}}, false},
		{"atomic list unchanged", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","maxLength":1}},"x":{"type":"string"}}}`,
			map[string]any{"l": []any{"toolong"}, "x": "new"}, map[string]any{"l": []any{"toolong"}, "x": "old"}, true},
		{"additionalProperties key unchanged", `{"type":"object","additionalProperties":{"type":"string","maxLength":1}}`,
			map[string]any{"a": "toolong", "b": "x"}, map[string]any{"a": "toolong"}, true},
		{"apiVersion at the root never ratchets", `{"type":"object","properties":{"apiVersion":{"type":"string","maxLength":1},"x":{"type":"string"}}}`,
			map[string]any{"apiVersion": "toolong", "x": "a"}, map[string]any{"apiVersion": "toolong", "x": "b"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := mustValidator(t, tc.schema, Options{})
			errs, warns := v.ValidateWithWarnings(context.Background(), tc.obj, tc.old)
			if (len(errs) == 0) != tc.valid {
				t.Errorf("valid = %v, want %v: %v", len(errs) == 0, tc.valid, errs)
			}
			if tc.valid && len(errs) == 0 && len(warns) == 0 && tc.old != nil {
				// Everything valid here was invalid before ratcheting.
				if create := v.Validate(context.Background(), tc.obj, nil); len(create) > 0 && len(warns) == 0 {
					t.Errorf("ratcheted errors %v not returned as warnings", create)
				}
			}
		})
	}
}

func TestRatchetingWarnings(t *testing.T) {
	v := mustValidator(t, objSchema, Options{})
	errs, warns := v.ValidateWithWarnings(context.Background(), map[string]any{"small": int64(501), "medium": int64(1)}, map[string]any{"small": int64(501)})
	want := []string{"medium: Invalid value: 1: medium in body should be greater than or equal to 50"}
	assertSameSet(t, 0, fieldStrings(errs), want)
	assertSameSet(t, 1, warns, []string{"small: Invalid value: 501: small in body should be less than or equal to 50"})
}

func TestTransitionRule(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"field":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}`, Options{})
	assertSameSet(t, 0, errStrings(t, v, map[string]any{"field": "y"}, map[string]any{"field": "x"}), []string{`field: Invalid value: "y": failed rule: self == oldSelf`})
	assertSameSet(t, 1, errStrings(t, v, map[string]any{"field": "x"}, map[string]any{"field": "x"}), nil)

	v = mustValidator(t, `{"type":"object","properties":{"field":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k1","k2"],"items":{"type":"object","properties":{"k1":{"type":"string"},"k2":{"type":"string"},"v1":{"type":"number","x-kubernetes-validations":[{"rule":"self >= oldSelf"}]}}}}}}`, Options{})
	assertSameSet(t, 2, errStrings(t, v,
		map[string]any{"field": []any{map[string]any{"k1": "a", "k2": "b", "v1": 0.9}}},
		map[string]any{"field": []any{map[string]any{"k1": "a", "k2": "b", "v1": 1.0}}}),
		[]string{`field[0].v1: Invalid value: 0.9: failed rule: self >= oldSelf`})
}

func TestCELBlockedByValueErrors(t *testing.T) {
	v := mustValidator(t, `{"type":"object","properties":{"a":{"type":"string","maxLength":1},"b":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'x'"}]}}}`, Options{})
	assertSameSet(t, 0, errStrings(t, v, map[string]any{"a": "long", "b": "y"}, nil), []string{
		`a: Too long: may not be more than 1 byte`,
		`<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
	})
}

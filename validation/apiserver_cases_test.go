package validation

import (
	"math"
	"sort"
	"strings"
	"testing"
)

// failing is an object and the exact errors the apiserver reports for it.
type failing struct {
	obj  any
	errs []string
}

// apiserverCases are ported from apiextensions-apiserver
// pkg/apiserver/validation/validation_test.go (TestValidateCustomResource),
// schemas written as CRD JSON; expectations are the apiserver's strings.
var apiserverCases = []struct {
	name    string
	schema  string
	minor   int
	valid   []any
	failing []failing
}{
	{name: "!nullable",
		schema: `{"type":"object","properties":{"field":{"type":"object"}}}`,
		valid:  []any{map[string]any{}, map[string]any{"field": map[string]any{}}},
		failing: []failing{
			{map[string]any{"field": "foo"}, []string{`field: Invalid value: "string": field in body must be of type object: "string"`}},
			{map[string]any{"field": 42}, []string{`field: Invalid value: "integer": field in body must be of type object: "integer"`}},
			{map[string]any{"field": true}, []string{`field: Invalid value: "boolean": field in body must be of type object: "boolean"`}},
			{map[string]any{"field": 1.2}, []string{`field: Invalid value: "number": field in body must be of type object: "number"`}},
			{map[string]any{"field": []any{}}, []string{`field: Invalid value: "array": field in body must be of type object: "array"`}},
			{map[string]any{"field": nil}, []string{`field: Invalid value: "null": field in body must be of type object: "null"`}},
		}},
	{name: "nullable",
		schema: `{"type":"object","properties":{"field":{"type":"object","nullable":true}}}`,
		valid:  []any{map[string]any{}, map[string]any{"field": map[string]any{}}, map[string]any{"field": nil}},
		failing: []failing{
			{map[string]any{"field": "foo"}, []string{`field: Invalid value: "string": field in body must be of type object: "string"`}},
			{map[string]any{"field": []any{}}, []string{`field: Invalid value: "array": field in body must be of type object: "array"`}},
		}},
	{name: "nullable and no type",
		schema: `{"type":"object","properties":{"field":{"nullable":true}}}`,
		valid: []any{map[string]any{}, map[string]any{"field": map[string]any{}}, map[string]any{"field": nil},
			map[string]any{"field": "foo"}, map[string]any{"field": 42}, map[string]any{"field": true},
			map[string]any{"field": 1.2}, map[string]any{"field": []any{}}}},
	{name: "x-kubernetes-int-or-string",
		schema: `{"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}}`,
		valid:  []any{map[string]any{}, map[string]any{"field": 42}, map[string]any{"field": "foo"}},
		failing: []failing{
			{map[string]any{"field": nil}, []string{`field: Invalid value: "null": field in body must be of type integer,string: "null"`}},
			{map[string]any{"field": true}, []string{`field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"`}},
			{map[string]any{"field": 1.2}, []string{`field: Invalid value: "number": field in body must be of type integer,string: "number"`}},
			{map[string]any{"field": map[string]any{}}, []string{`field: Invalid value: "object": field in body must be of type integer,string: "object"`}},
			{map[string]any{"field": []any{}}, []string{`field: Invalid value: "array": field in body must be of type integer,string: "array"`}},
		}},
	{name: "nullable and x-kubernetes-int-or-string",
		schema: `{"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true,"nullable":true}}}`,
		valid:  []any{map[string]any{}, map[string]any{"field": 42}, map[string]any{"field": "foo"}, map[string]any{"field": nil}},
		failing: []failing{
			{map[string]any{"field": true}, []string{`field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"`}},
		}},
	{name: "nullable, x-kubernetes-int-or-string and user-provided anyOf",
		schema: `{"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true,"nullable":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`,
		valid:  []any{map[string]any{}, map[string]any{"field": nil}, map[string]any{"field": 42}, map[string]any{"field": "foo"}},
		failing: []failing{
			{map[string]any{"field": true}, []string{
				`<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)`,
				`field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"`,
				`field: Invalid value: "boolean": field in body must be of type integer: "boolean"`,
			}},
			{map[string]any{"field": 1.2}, []string{
				`<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)`,
				`field: Invalid value: "number": field in body must be of type integer,string: "number"`,
				`field: Invalid value: "number": field in body must be of type integer: "number"`,
				`<nil>: Invalid value: "": Checked value must be of type integer (default format) in field`,
			}},
			{map[string]any{"field": []any{}}, []string{
				`<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)`,
				`field: Invalid value: "array": field in body must be of type integer,string: "array"`,
				`field: Invalid value: "array": field in body must be of type integer: "array"`,
			}},
		}},
	{name: "nullable, x-kubernetes-int-or-string and user-provider allOf",
		schema: `{"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true,"nullable":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}}`,
		valid:  []any{map[string]any{}, map[string]any{"field": nil}, map[string]any{"field": 42}, map[string]any{"field": "foo"}},
		failing: []failing{
			{map[string]any{"field": true}, []string{
				`<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated`,
				`<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)`,
				`field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"`,
				`field: Invalid value: "boolean": field in body must be of type integer: "boolean"`,
			}},
			{map[string]any{"field": 1.2}, []string{
				`<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated`,
				`<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)`,
				`field: Invalid value: "number": field in body must be of type integer,string: "number"`,
				`field: Invalid value: "number": field in body must be of type integer: "number"`,
				`<nil>: Invalid value: "": Checked value must be of type integer (default format) in field`,
			}},
		}},
	{name: "invalid regex",
		schema: `{"type":"object","properties":{"field":{"type":"string","pattern":"+"}}}`,
		failing: []failing{
			{map[string]any{"field": "foo"}, []string{"field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'"}},
		}},
	{name: "required field",
		schema: `{"type":"object","required":["field"],"properties":{"field":{"type":"object","required":["nested"],"properties":{"nested":{}}}}}`,
		failing: []failing{
			{map[string]any{"test": "a"}, []string{`field: Required value`}},
			{map[string]any{"field": map[string]any{}}, []string{`field.nested: Required value`}},
		}},
	{name: "enum",
		schema: `{"type":"object","properties":{"field":{"type":"object","required":["nestedint","nestedstring"],"properties":{"nestedint":{"type":"integer","enum":[1,2]},"nestedstring":{"type":"string","enum":["a","b"]}}}}}`,
		failing: []failing{
			{map[string]any{"field": map[string]any{}}, []string{`field.nestedint: Required value`, `field.nestedstring: Required value`}},
			{map[string]any{"field": map[string]any{"nestedint": "x", "nestedstring": true}}, []string{
				`field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"`,
				`field.nestedint: Unsupported value: "x": supported values: "1", "2"`,
				`field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"`,
				`field.nestedstring: Unsupported value: true: supported values: "a", "b"`,
			}},
		}},
	{name: "immutability transition rule",
		schema: `{"type":"object","properties":{"field":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}`,
		valid:  []any{map[string]any{"field": "x"}},
		failing: []failing{
			{map[string]any{"field": "y"}, nil}, // only with an old object, see TestTransitionRule
		}},
	{name: "validation rule under non-correlatable field",
		schema: `{"type":"object","properties":{"field":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'x'"}]}}}}}}`,
		valid:  []any{map[string]any{"field": []any{map[string]any{"x": "x"}}}},
		failing: []failing{
			{map[string]any{"field": []any{map[string]any{"x": "y"}}}, []string{`field[0].x: Invalid value: "y": failed rule: self == 'x'`}},
		}},
	{name: "maxProperties",
		schema: `{"type":"object","properties":{"fieldX":{"type":"object","maxProperties":2}}}`,
		failing: []failing{
			{map[string]any{"fieldX": map[string]any{"a": true, "b": true, "c": true}}, []string{`fieldX: Too many: 3: must have at most 2 items`}},
		}},
	{name: "maxItems",
		schema: `{"type":"object","properties":{"fieldX":{"type":"array","maxItems":2}}}`,
		failing: []failing{
			{map[string]any{"fieldX": []any{"a", "b", "c"}}, []string{`fieldX: Too many: 3: must have at most 2 items`}},
		}},
	{name: "maxLength",
		schema: `{"type":"object","properties":{"fieldX":{"type":"string","maxLength":2}}}`,
		failing: []failing{
			{map[string]any{"fieldX": "abc"}, []string{`fieldX: Too long: may not be more than 2 bytes`}},
		}},
	{name: "k8sLongName", minor: 35,
		schema: `{"type":"object","properties":{"fieldX":{"type":"string","format":"k8s-long-name"}}}`,
		failing: []failing{
			{map[string]any{"fieldX": "a.-"}, []string{`fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"`}},
		}},
	{name: "k8sShortName", minor: 35,
		schema: `{"type":"object","properties":{"fieldX":{"type":"string","format":"k8s-short-name"}}}`,
		failing: []failing{
			{map[string]any{"fieldX": "a-"}, []string{`fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"`}},
		}},
	{name: "k8sShortName stripped before compatibility version 1.34", minor: 34,
		schema: `{"type":"object","properties":{"fieldX":{"type":"string","format":"k8s-short-name"}}}`,
		valid:  []any{map[string]any{"fieldX": "a-"}}},
	{name: "numeric formats valid",
		schema: `{"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}}`,
		valid: []any{
			map[string]any{"intThirtyTwo": int64(math.MinInt32), "intSixtyFour": int64(math.MinInt64), "floatThreeTwo": float64(-math.MaxFloat32), "floatSixFour": -math.MaxFloat64},
			map[string]any{"intThirtyTwo": int64(0), "intSixtyFour": int64(0), "floatThreeTwo": float64(0), "floatSixFour": float64(0)},
			map[string]any{"intThirtyTwo": int64(math.MaxInt32), "intSixtyFour": int64(math.MaxInt64), "floatThreeTwo": float64(math.MaxFloat32), "floatSixFour": math.MaxFloat64},
		}},
	{name: "numeric formats invalid",
		schema: `{"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}}`,
		failing: []failing{
			{map[string]any{"intThirtyTwo": int64(math.MaxInt32 + 1)}, []string{`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo`}},
			{map[string]any{"intThirtyTwo": int64(math.MinInt32 - 1)}, []string{`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo`}},
			{map[string]any{"intSixtyFour": float64(math.MaxInt64) * 1.1}, []string{
				`intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"`,
				`<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour`,
			}},
			{map[string]any{"floatThreeTwo": float64(math.MaxFloat32 * 1.1)}, []string{`<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo`}},
			{map[string]any{"floatThreeTwo": float64(-math.MaxFloat32 * 1.1)}, []string{`<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo`}},
		}},
	// TestItemsProperty: values of Go slice types are read like []any.
	{name: "items in object",
		schema: `{"properties":{"spec":{"properties":{"replicas":{"type":"integer"}}}}}`,
		valid:  []any{map[string]any{"spec": map[string]any{"replicas": 1, "items": []string{"1", "2"}}}}},
	{name: "items in array",
		schema: `{"properties":{"secrets":{"type":"array","items":{"type":"string"}}}}`,
		valid:  []any{map[string]any{"secrets": []string{"1", "2"}}}},
}

func TestApiserverCases(t *testing.T) {
	for _, tc := range apiserverCases {
		t.Run(tc.name, func(t *testing.T) {
			v := mustValidator(t, tc.schema, Options{KubernetesMinor: tc.minor})
			for _, obj := range tc.valid {
				if errs := errStrings(t, v, obj, nil); len(errs) > 0 {
					t.Errorf("%v: unexpected errors %q", obj, errs)
				}
			}
			for i, f := range tc.failing {
				if f.errs == nil {
					continue
				}
				got := errStrings(t, v, f.obj, nil)
				assertSameSet(t, i, got, f.errs)
			}
		})
	}
}

// assertSameSet compares errors as sets, as the apiserver's test does (its
// map iteration makes the order random).
func assertSameSet(t *testing.T, i int, got, want []string) {
	t.Helper()
	g := append([]string(nil), got...)
	w := append([]string(nil), want...)
	sort.Strings(g)
	sort.Strings(w)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("%d: got\n\t%s\nwant\n\t%s", i, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

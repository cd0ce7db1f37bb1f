package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	`{"openapi": "3.0.0", "components": {"schemas": {"A": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}, "b": {"allOf": [{"$ref": "#/components/schemas/B"}], "default": {}}}}, "B": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]}}}}`,
	`{"swagger": "2.0", "definitions": {"X": {"type": "array", "items": {"$ref": "#/definitions/X"}}}}`,
	`components: {schemas: {A: {$ref: '#/components/schemas/A'}}}`,
	`{"components": {"schemas": {"A": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/B"}}, "B": {"not": {"$ref": "#/components/schemas/A"}}}}}`,
	`{"components": {"schemas": {"A": {"items": [{"$ref": "#/components/schemas/A"}], "dependencies": {"x": ["y"]}}}}}`,
	`[`,
}

// FuzzLoadOpenAPIDocument: loading and resolving every schema of any input
// never panics and terminates (cycles become stubs, fan-out is bounded).
func FuzzLoadOpenAPIDocument(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"components": {"schemas": {"A": ` + strings.Repeat(`{"items": `, 2000) + `{}` + strings.Repeat(`}`, 2000) + `}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := LoadOpenAPIDocument("fuzz.json", data)
		if err != nil {
			return
		}
		for _, n := range d.Names() {
			s, err := d.Schema(n)
			if err != nil {
				continue
			}
			_ = ValidateStructural(nil, s)
			_ = Skeleton(s)
			_ = Unfold(s)
			_ = ToV2(s)
		}
	})
}

// FuzzCheck: parsing and checking any CRD document never panics.
func FuzzCheck(f *testing.F) {
	for _, tc := range loadCheckCases(f) {
		f.Add([]byte(tc.CRD))
	}
	f.Add([]byte("kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nspec: {versions: [{name: v1, schema: {openAPIV3Schema: {x-kubernetes-validations: [{rule: x, fieldPath: \"['a\"}]}}}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		c, err := ParseCRD(data)
		if err != nil {
			return
		}
		_, _ = Check(c, CheckOptions{})
	})
}

// FuzzLoadSchema: any input either fails to load or loads into Props whose
// encoding is a fixed point (decode(encode(p)) encodes the same), and
// NewStructural/ToProps never panic.
func FuzzLoadSchema(f *testing.F) {
	f.Add([]byte(`{"type": "object", "properties": {"a": {"type": "integer", "maximum": 3, "default": 1.5, "enum": [1, "x", null]}}, "x-kubernetes-foo": {"a": [1]}}`))
	f.Add([]byte("type: array\nitems: [{type: string}]\nadditionalItems: false\ndependencies: {a: [b], c: {required: [d]}}"))
	f.Add([]byte(`{"allOf": [{"$ref": "#/x"}], "not": null, "items": null, "x-kubernetes-validations": [{"rule": "self > 0", "reason": "FieldValueForbidden"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := LoadSchema("fuzz", data)
		if err != nil {
			return
		}
		b1, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		q, err := LoadSchema("again", b1)
		if err != nil {
			t.Fatalf("reload of %s: %v", b1, err)
		}
		b2, _ := json.Marshal(q)
		if string(b1) != string(b2) {
			t.Fatalf("not a fixed point:\n%s\n%s", b1, b2)
		}
		if s, err := NewStructural(p); err == nil {
			_ = s.ToProps()
			_ = ValidateStructural(nil, s)
		}
	})
}

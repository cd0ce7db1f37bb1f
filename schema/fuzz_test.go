package schema

import (
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
	for _, tc := range checkCases {
		f.Add([]byte(tc.crd))
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

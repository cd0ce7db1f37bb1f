package schema

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// k8sOpenAPIDir finds the published OpenAPI v3 documents of built-in types
// that client-go ships as test data (k8s.io/client-go/openapi/openapitest),
// in the module cache; the test is skipped when it is not there.
func k8sOpenAPIDir(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip("go env GOMODCACHE failed")
	}
	matches, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "k8s.io", "client-go@v0.*", "openapi", "openapitest", "testdata"))
	if len(matches) == 0 {
		t.Skip("client-go openapitest testdata not in the module cache")
	}
	return matches[len(matches)-1]
}

func loadDoc(t testing.TB, file string) *Document {
	t.Helper()
	dir := k8sOpenAPIDir(t)
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Skip(err)
	}
	d, err := LoadOpenAPIDocument(file, b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestOpenAPIDocumentBuiltins(t *testing.T) {
	d := loadDoc(t, "apis__apps__v1_openapi.json")
	s, name, err := d.SchemaForGVK(GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	if err != nil {
		t.Fatal(err)
	}
	if name != "io.k8s.api.apps.v1.Deployment" {
		t.Errorf("name %q", name)
	}
	// allOf [{$ref}] with sibling description/default: resolved and merged.
	spec := s.Properties["spec"]
	if spec.Type != "object" || spec.Description != "Specification of the desired behavior of the Deployment." {
		t.Errorf("spec: type %q description %q", spec.Type, spec.Description)
	}
	if m, ok := spec.Default.Object.(map[string]any); !ok || len(m) != 0 {
		t.Errorf("spec default %#v, want {}", spec.Default.Object)
	}
	// Deep chain: spec.template.spec.containers[].ports[].containerPort.
	c := spec.Properties["template"].Properties["spec"].Properties["containers"]
	if c.Type != "array" || c.Items == nil || c.Items.Properties["name"].Type != "string" {
		t.Fatalf("containers not resolved: %+v", c.Generic)
	}
	// IntOrString becomes the structural int-or-string form.
	mu := spec.Properties["strategy"].Properties["rollingUpdate"].Properties["maxUnavailable"]
	if !mu.XIntOrString || !isIntOrStringAnyOfPattern(&mu) {
		t.Errorf("maxUnavailable not int-or-string: %+v %+v", mu.Extensions, mu.ValueValidation)
	}
	// The whole resolved schema is structural except for the known
	// non-structural built-ins (Quantity's oneOf string/number).
	for _, e := range ValidateStructural(nil, s) {
		if !strings.Contains(e.Field, "oneOf") && !strings.Contains(e.Detail, "must not be empty") && e.Field != "properties[metadata]" {
			t.Errorf("unexpected structural error: %v", e)
		}
	}
	if len(d.GVKs()) < 10 {
		t.Errorf("only %d GVKs", len(d.GVKs()))
	}
}

func TestOpenAPIDocumentAllFiles(t *testing.T) {
	dir := k8sOpenAPIDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := LoadOpenAPIDocument(filepath.Base(f), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range d.Names() {
			if _, err := d.Schema(n); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		}
	}
}

func TestOpenAPIRecursion(t *testing.T) {
	doc := `{"openapi": "3.0.0", "components": {"schemas": {
	  "JSONSchemaProps": {"type": "object", "description": "a schema", "properties": {
	    "type": {"type": "string"},
	    "properties": {"type": "object", "additionalProperties": {"allOf": [{"$ref": "#/components/schemas/JSONSchemaProps"}], "default": {}}},
	    "not": {"$ref": "#/components/schemas/JSONSchemaProps"}}},
	  "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
	  "B": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}, "s": {"type": "string"}}}
	}}}`
	d, err := LoadOpenAPIDocument("mem.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Schema("JSONSchemaProps")
	if err != nil {
		t.Fatal(err)
	}
	not := s.Properties["not"]
	if !not.XPreserveUnknownFields || not.Type != "object" || not.Description != "a schema" || not.Properties != nil {
		t.Errorf("recursion stub: %+v", not)
	}
	ap := s.Properties["properties"].AdditionalProperties.Structural
	if !ap.XPreserveUnknownFields || ap.Default.Object == nil {
		t.Errorf("allOf recursion stub with default: %+v", ap)
	}
	a, err := d.Schema("A")
	if err != nil {
		t.Fatal(err)
	}
	b := a.Properties["b"]
	if b.Properties["s"].Type != "string" || !b.Properties["a"].XPreserveUnknownFields {
		t.Errorf("mutual recursion: %+v", b)
	}
	// B resolved on its own expands A once.
	bs, _ := d.Schema("B")
	if bs.Properties["a"].Properties["b"].XPreserveUnknownFields != true {
		t.Errorf("B.a.b should be the stub")
	}
}

func TestOpenAPIErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"malformed", `{"openapi": `, "bad.json: malformed YAML/JSON"},
		{"not object", `[1]`, "bad.json: an OpenAPI document must be an object, got an array"},
		{"no schemas", `{"openapi": "3.0.0"}`, "bad.json: not an OpenAPI document"},
		{"bad schema", `{"components": {"schemas": {"X": {"type": 3}}}}`, `bad.json: components.schemas["X"]: type: cannot decode number into string`},
		{"missing ref", `{"components": {"schemas": {"X": {"type": "object", "properties": {"y": {"$ref": "#/components/schemas/Y"}}}}}}`, `bad.json: components.schemas["X"].properties[y].$ref: reference "#/components/schemas/Y" not found`},
		{"external ref", `{"components": {"schemas": {"X": {"$ref": "other.json#/X"}}}}`, `bad.json: components.schemas["X"].$ref: unsupported reference "other.json#/X"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := LoadOpenAPIDocument("bad.json", []byte(tc.doc))
			if err == nil {
				for _, n := range d.Names() {
					if _, err = d.Schema(n); err != nil {
						break
					}
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestOpenAPIExponentialFanOut(t *testing.T) {
	// S0 -> {a: S1, b: S1}, S1 -> {a: S2, b: S2} ...: 2^40 nodes expanded.
	schemas := map[string]any{}
	for i := 0; i < 40; i++ {
		ref := map[string]any{"$ref": "#/components/schemas/S" + string(rune('A'+i+1))}
		schemas["S"+string(rune('A'+i))] = map[string]any{"type": "object", "properties": map[string]any{"a": ref, "b": ref}}
	}
	schemas["S"+string(rune('A'+40))] = map[string]any{"type": "string"}
	b, _ := json.Marshal(map[string]any{"components": map[string]any{"schemas": schemas}})
	d, err := LoadOpenAPIDocument("fan.json", b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Props("SA"); err == nil || !strings.Contains(err.Error(), "schema nodes after resolving references") {
		t.Errorf("got %v", err)
	}
}

func TestLoadSchemaBadInput(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"type: object\n---\ntype: string\n", "x.yaml: more than one YAML document (the second starts at line 2); expected one"},
		{"a: [\n", "x.yaml: malformed YAML/JSON"},
		{"", "x.yaml: empty document"},
		{"- type: string\n", "x.yaml: a schema must be an object, got an array"},
		{"type: object\nproperties: {a: {maxLength: 1.5}}\n", "x.yaml: properties.a.maxLength: cannot decode number 1.5 into int64"},
		{"type: object\nrequired: a\n", "x.yaml: required: cannot decode string into array of strings"},
	} {
		_, err := LoadSchema("x.yaml", []byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.doc, err, tc.want)
		}
	}
	// A trailing separator or comment-only document is fine.
	if _, err := LoadSchema("x.yaml", []byte("---\ntype: object\n---\n# end\n")); err != nil {
		t.Error(err)
	}
}

// Package schematest builds structural schemas and unstructured values from
// YAML and JSON text, for the tests of the packages that take them
// (pruning, defaulting, cel, ...).
package schematest

import (
	"bytes"
	"encoding/json"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"kdv.dev/schema"
)

// Structural converts a YAML or JSON OpenAPI schema to a structural
// schema, failing t on any error; an empty string is the nil schema.
func Structural(t testing.TB, y string) *schema.Structural {
	t.Helper()
	if y == "" {
		return nil
	}
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("schema YAML: %v\n%s", err, y)
	}
	var p schema.Props
	if err := json.Unmarshal(j, &p); err != nil {
		t.Fatalf("schema: %v", err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatalf("NewStructural: %v", err)
	}
	return s
}

// JSON decodes JSON as the apiserver does (whole numbers as int64),
// failing t on an error.
func JSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := utiljson.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("JSON %q: %v", s, err)
	}
	return v
}

// Indent renders v as indented JSON, for readable failure messages.
func Indent(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.String()
}

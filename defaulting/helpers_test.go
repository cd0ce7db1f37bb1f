package defaulting

import (
	"bytes"
	"encoding/json"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"kdv.dev/schema"
)

// mustSchema converts a YAML/JSON OpenAPI schema to a structural schema; an
// empty string is the nil schema.
func mustSchema(t testing.TB, y string) *schema.Structural {
	t.Helper()
	if y == "" {
		return nil
	}
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("schema YAML: %v", err)
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

// mustJSON decodes JSON as the apiserver does (integers as int64).
func mustJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := utiljson.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("JSON %q: %v", s, err)
	}
	return v
}

func toJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.String()
}

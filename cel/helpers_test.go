package cel

import (
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"kdv.dev/schema"
	"kdv.dev/schema/schematest"
)

// dedent turns a tab-indented YAML snippet (as in the apiserver's tests)
// into space-indented YAML.
func dedent(src string) string {
	lines := strings.Split(strings.Trim(src, "\n"), "\n")
	minTabs := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if minTabs < 0 || n < minTabs {
			minTabs = n
		}
	}
	for i, l := range lines {
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if n >= minTabs && minTabs > 0 {
			n -= minTabs
			l = l[minTabs:]
		}
		lines[i] = strings.Repeat("  ", n) + strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}

// yamlSchema parses a tab-indented YAML OpenAPI schema into a Structural.
func yamlSchema(t testing.TB, src string) *schema.Structural {
	t.Helper()
	return schematest.Structural(t, dedent(src))
}

// yamlObj decodes a tab-indented YAML value with whole numbers as int64.
func yamlObj(t testing.TB, src string) any {
	t.Helper()
	if src == "" {
		return nil
	}
	j, err := yaml.YAMLToJSON([]byte(dedent(src)))
	if err != nil {
		t.Fatalf("object yaml: %v", err)
	}
	var v any
	if err := utiljson.Unmarshal(j, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// withRule returns a copy of s with one rule appended at its root.
func withRule(s *schema.Structural, rule string) *schema.Structural {
	c := *s
	c.XValidations = append(append([]schema.ValidationRule(nil), s.XValidations...), schema.ValidationRule{Rule: rule})
	return &c
}

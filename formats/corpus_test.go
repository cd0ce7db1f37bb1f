package formats

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestCorpusFormatsRecognized walks the schemas of the real CRDs in
// shared/corpus (Gateway API, Prometheus Operator, Cluster API), which the
// apiserver accepts without "unrecognized format" warnings, and checks that
// every format they use is recognized for its node type at 1.37 and, for
// string nodes, enforced by Lookup.
func TestCorpusFormatsRecognized(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	r := ForVersion(37)
	seen := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !bytes.Contains(data, []byte("kind: CustomResourceDefinition")) {
			return nil
		}
		for i, doc := range bytes.Split(data, []byte("\n---")) {
			var crd map[string]any
			if err := yaml.Unmarshal(doc, &crd); err != nil {
				t.Errorf("%s document %d: %v", path, i, err)
				continue
			}
			if crd["kind"] != "CustomResourceDefinition" {
				continue
			}
			spec, _ := crd["spec"].(map[string]any)
			versions, _ := spec["versions"].([]any)
			for _, v := range versions {
				vm, _ := v.(map[string]any)
				schema, _ := vm["schema"].(map[string]any)
				walkSchema(schema["openAPIV3Schema"], func(typ, format string) {
					seen[typ+"/"+format]++
					if !r.Recognized(typ, format) {
						t.Errorf("%s: format %q on type %q not recognized", path, format, typ)
					}
					if typ == "string" {
						if _, ok := r.Lookup(format); !ok {
							t.Errorf("%s: string format %q not enforced", path, format)
						}
					}
				})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen["string/date-time"] == 0 || seen["integer/int32"] == 0 {
		t.Errorf("corpus formats not found: %v", seen)
	}
	t.Logf("formats in corpus CRDs: %v", seen)
}

// walkSchema calls fn for every schema node with a format.
func walkSchema(node any, fn func(typ, format string)) {
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	if f, ok := m["format"].(string); ok && f != "" {
		typ, _ := m["type"].(string)
		fn(typ, f)
	}
	for _, key := range []string{"properties", "patternProperties", "definitions"} {
		if props, ok := m[key].(map[string]any); ok {
			for _, p := range props {
				walkSchema(p, fn)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties", "not"} {
		walkSchema(m[key], fn)
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := m[key].([]any); ok {
			for _, s := range list {
				walkSchema(s, fn)
			}
		}
	}
}

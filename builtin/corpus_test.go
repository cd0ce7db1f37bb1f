package builtin

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kdv.dev/schema"
	"sigs.k8s.io/yaml"
)

// TestCorpusStructure walks every built-in object of the real-world corpus
// (kubernetes/examples, prometheus-operator manifests) against its 1.37
// schema: no field may be unknown and no value of the wrong type, since
// these manifests are accepted by real clusters. Removed API versions
// (extensions/v1beta1, ...) must be absent from the built-in kinds.
func TestCorpusStructure(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus not present")
	}
	kinds, err := Kinds(37)
	if err != nil {
		t.Fatal(err)
	}
	known := map[schema.GroupVersionKind]bool{}
	for _, k := range kinds {
		known[k.GroupVersionKind] = true
	}
	checked, unknownGVK := 0, 0
	var archived []string
	for _, dir := range []string{"kubernetes-examples", "prometheus-operator/example"} {
		filepath.Walk(filepath.Join(root, dir), func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")) {
				return nil
			}
			b, _ := os.ReadFile(path)
			for i, doc := range bytes.Split(b, []byte("\n---")) {
				var obj map[string]any
				if err := yaml.Unmarshal(doc, &obj); err != nil || obj == nil {
					continue
				}
				av, _ := obj["apiVersion"].(string)
				kind, _ := obj["kind"].(string)
				g, v, ok := strings.Cut(av, "/")
				if !ok {
					g, v = "", av
				}
				gvk := schema.GroupVersionKind{Group: g, Version: v, Kind: kind}
				if !known[gvk] {
					unknownGVK++
					continue
				}
				p, err := Props(37, gvk)
				if err != nil {
					t.Errorf("%s#%d: %v", path, i, err)
					continue
				}
				checked++
				errs := walk(p, obj, "")
				if strings.Contains(path, "_archived") {
					// archived examples hold real mistakes the apiserver
					// rejects; check that the known ones are found.
					archived = append(archived, errs...)
					continue
				}
				for _, e := range errs {
					t.Errorf("%s#%d (%s): %s", path, i, gvk, e)
				}
			}
			return nil
		})
	}
	for _, want := range []string{
		`.spec.volumes[0].rbd: unknown field "imageformat"`,            // not a field of RBDVolumeSource
		`.spec.volumes[0].scaleIO: unknown field "protectionDoamin"`,   // typo
		`.spec.volumes[0].fc.lun: want integer, got <ADD LUN ID Here>`, // placeholder
	} {
		found := false
		for _, e := range archived {
			found = found || e == want
		}
		if !found {
			t.Errorf("archived examples: %q not found in %q", want, archived)
		}
	}
	t.Logf("%d built-in objects checked, %d documents of other kinds", checked, unknownGVK)
	if checked < 100 {
		t.Errorf("only %d objects checked", checked)
	}
}

// walk reports unknown fields and type mismatches of v against a resolved
// schema.
func walk(s *schema.Props, v any, path string) []string {
	if v == nil {
		return nil
	}
	if s.XIntOrString {
		switch v.(type) {
		case string, float64, int64:
			return nil
		}
		return []string{fmt.Sprintf("%s: want int or string, got %T", path, v)}
	}
	preserve := s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want object, got %T", path, v)}
		}
		var errs []string
		for k, x := range m {
			if p, ok := s.Properties[k]; ok {
				errs = append(errs, walk(&p, x, path+"."+k)...)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				errs = append(errs, walk(s.AdditionalProperties.Schema, x, path+"."+k)...)
			} else if !preserve {
				errs = append(errs, fmt.Sprintf("%s: unknown field %q", path, k))
			}
		}
		return errs
	case "array":
		l, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want array, got %T", path, v)}
		}
		var errs []string
		for i, x := range l {
			errs = append(errs, walk(s.Items.Schema, x, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	case "string":
		if _, ok := v.(string); !ok {
			return []string{fmt.Sprintf("%s: want string, got %T (%v)", path, v, v)}
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			return []string{fmt.Sprintf("%s: want integer, got %v", path, v)}
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return []string{fmt.Sprintf("%s: want boolean, got %T (%v)", path, v, v)}
		}
	}
	return nil
}

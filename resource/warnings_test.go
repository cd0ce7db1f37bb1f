package resource

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

// TestDecodeWarnings checks that the warnings of decoding (repeated keys, which kubectl
// drops by keeping the last value) reach the results of Run and RunPending, for a valid
// document, an invalid one (validated with the last value), a List item and a CRD in the
// input, and that the document is validated as kubectl would send it.
func TestDecodeWarnings(t *testing.T) {
	crd, err := os.ReadFile(widgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	crdText := strings.Replace(string(crd), "kind: CustomResourceDefinition\n", "kind: CustomResourceDefinition\nkind: CustomResourceDefinition\n", 1)
	crdRepeat := strings.Count(crdText[:strings.Index(crdText, "kind: CustomResourceDefinition\n")], "\n") + 2
	in := crdText + `
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: Bad_Name
  name: good
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: good
  name: Bad_Name
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
    name: b
`
	base := strings.Count(crdText, "\n") + 2 // the line of the "---" after the CRD and a blank line
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	w := func(line int) string {
		return fmt.Sprintf(`line %d: key "name" already set in map; the last value is used, as kubectl sends it`, line)
	}
	want := []struct {
		name     string
		errs     int
		warnings []string
	}{
		{"widgets.example.kdv.dev", 0, []string{fmt.Sprintf(`line %d: key "kind" already set in map; the last value is used, as kubectl sends it`, crdRepeat)}},
		{"good", 0, []string{w(base + 5)}},
		{"Bad_Name", 1, []string{w(base + 11)}},
		{"b", 0, []string{w(base + 20)}},
	}
	check := func(how string, res *report.Result) {
		if len(res.Documents) != len(want) {
			t.Fatalf("%s: %d results, want %d", how, len(res.Documents), len(want))
		}
		for i, w := range want {
			d := res.Documents[i]
			if d.Err != nil || d.Name != w.name || len(d.Errors) != w.errs || !reflect.DeepEqual(d.Warnings, w.warnings) {
				t.Errorf("%s: result %d: err %v, name %q, errors %v, warnings %q; want name %q, %d errors, warnings %q",
					how, i, d.Err, d.Name, d.Errors, d.Warnings, w.name, w.errs, w.warnings)
			}
		}
	}
	registry := func() *Registry {
		reg := NewRegistry(Options{})
		if err := UseBuiltin(reg, 0); err != nil {
			t.Fatal(err)
		}
		return reg
	}
	docs, err := manifest.Read([]string{file}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check("Run", Run(context.Background(), docs, registry(), RunOptions{Jobs: 2}))
	pending, err := manifest.ReadPending([]string{file}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check("RunPending", RunPending(context.Background(), pending, registry(), RunOptions{Jobs: 2}))
}

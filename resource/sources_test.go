package resource

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A bad --crds source does not stop the others: LoadCRDs registers every
// good CRD, returns one error per bad source naming file and line, and the
// kinds left without a schema say why.
func TestLoadCRDsBadSources(t *testing.T) {
	crd, err := os.ReadFile(widgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	head := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.kdv.dev\n"
	files := map[string]string{
		"a-syntax.yaml":   head + "spec: [\n",
		"b-noparse.yaml":  head + "spec:\n  group: example.kdv.dev\n  names: {kind: Gadget}\n  versions: 3\n",
		"c-widgets.yaml":  string(crd),
		"d-noschema.yaml": head + "spec:\n  group: example.kdv.dev\n  names: {kind: Doohickey}\n  versions:\n  - {name: v1, served: true}\n",
		"e-syntax.json":   "{",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notCRD := filepath.Join(dir, "cm.yml")
	if err := os.WriteFile(notCRD, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(Options{})
	n, err := LoadCRDs(reg, []string{dir, filepath.Join(dir, "missing"), notCRD}, nil)
	if n != 1 {
		t.Errorf("registered %d CRDs, want 1 (the widgets)", n)
	}
	var got []string
	eachError(err, func(e error) { got = append(got, strings.ReplaceAll(e.Error(), dir+string(filepath.Separator), "")) })
	want := []string{
		"missing: no such file or directory",
		"a-syntax.yaml:5: yaml: line 5: ",
		"b-noparse.yaml:1: decoding CustomResourceDefinition: ",
		`d-noschema.yaml:1: CustomResourceDefinition gadgets.example.kdv.dev version v1: version "v1" has no schema.openAPIV3Schema`,
		"e-syntax.json:1: ",
		"cm.yml: no CustomResourceDefinition found",
	}
	if len(got) != len(want) {
		t.Fatalf("errors:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("error %d: %q, want %q", i, got[i], want[i])
		}
	}
	if _, err := reg.Validator(schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Widget"}); err != nil {
		t.Errorf("Widget: %v", err)
	}
	for kind, why := range map[string]string{
		"Gadget":    "(the CustomResourceDefinition at " + filepath.Join(dir, "b-noparse.yaml") + ":1 could not be loaded: decoding",
		"Doohickey": "(the CustomResourceDefinition at " + filepath.Join(dir, "d-noschema.yaml") + ":1 could not be loaded: CustomResourceDefinition",
		// A kind no readable CRD names: every failure that may explain it, at most 3.
		"Thing": "(" + filepath.Join(dir, "missing") + " could not be loaded: no such file or directory; " + filepath.Join(dir, "a-syntax.yaml") + ":5 could not be loaded: yaml: line 5: ",
	} {
		_, err := reg.Validator(schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: kind})
		var ns *NoSchemaError
		if !errors.As(err, &ns) || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v\nwant %q", kind, err, why)
		}
		if kind == "Thing" && !strings.HasSuffix(err.Error(), "; and 1 more)") {
			t.Errorf("Thing: %v", err)
		}
	}
}

// --schemas directories are walked as manifests are: through symbolic
// links, with names in any case; a document that does not load is an
// error naming it and the others are registered.
func TestLoadOpenAPIDirSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := `{"openapi":"3.0.0","components":{"schemas":{"com.example.v1.Gizmo":{"type":"object",` +
		`"x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Gizmo"}]}}}}`
	if err := os.WriteFile(filepath.Join(real, "gizmo.JSON"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "bad.json"), []byte("[1]"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	reg := NewRegistry(Options{})
	n, err := LoadOpenAPIDir(reg, link, nil)
	if n != 1 || err == nil || !strings.Contains(err.Error(), filepath.Join(link, "bad.json")+": an OpenAPI document must be an object") {
		t.Errorf("LoadOpenAPIDir = %d, %v", n, err)
	}
	if _, err := reg.Validator(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}); err != nil {
		t.Errorf("Gizmo: %v", err)
	}
}

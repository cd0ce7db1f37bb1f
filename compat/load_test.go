package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openAPIDoc is an OpenAPI v3 document with one kind, apps/v1 Thing, whose
// spec.replicas schema is given, and a shared DeleteOptions listing two
// kinds (not a kind of its own).
func openAPIDoc(replicas string) string {
	return `{"openapi": "3.0.0", "components": {"schemas": {
  "io.example.Thing": {"type": "object",
    "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Thing"}],
    "properties": {"spec": {"$ref": "#/components/schemas/io.example.ThingSpec"}}},
  "io.example.ThingSpec": {"type": "object", "properties": {"replicas": ` + replicas + `}},
  "io.k8s.DeleteOptions": {"type": "object",
    "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "DeleteOptions"}, {"group": "", "version": "v1", "kind": "DeleteOptions"}]}
}}}`
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCompareOpenAPI(t *testing.T) {
	dir := t.TempDir()
	old, err := Load([]string{writeFile(t, dir, "old.json", openAPIDoc(`{"type": "integer", "maximum": 10}`))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Kinds) != 1 {
		t.Fatalf("kinds %v, want only apps/v1 Thing", old.Kinds)
	}
	new, err := Load([]string{writeFile(t, dir, "new.json", openAPIDoc(`{"type": "integer", "maximum": 5}`))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Compare(old, new)
	want := "Thing.apps/v1: spec.replicas: breaks-objects max-tightened: maximum tightened from 10 to 5"
	if len(res.Changes) != 1 || res.Changes[0].String() != want || !strings.HasSuffix(res.Changes[0].File, "new.json") {
		t.Errorf("got:\n%swant:\n  %s", lines(res.Changes), want)
	}
	// A kind gone from NEW.
	res = Compare(old, &API{})
	if len(res.Changes) != 1 || res.Changes[0].String() != "Thing.apps/v1: breaks-objects kind-removed: kind removed" {
		t.Errorf("got:\n%s", lines(res.Changes))
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
	_, err := Load([]string{dir}, nil)
	if err == nil || !strings.Contains(err.Error(), dir+": no CustomResourceDefinition or OpenAPI schema of a kind found") {
		t.Errorf("directory without CRD: %v", err)
	}
	crd := writeFile(t, dir, "crd.yaml", crdYAML+"---\n"+crdYAML+"---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: [\n")
	api, err := Load([]string{crd}, nil)
	if len(api.CRDs) != 1 || err == nil {
		t.Fatalf("CRDs %d, err %v", len(api.CRDs), err)
	}
	for _, w := range []string{"crd.yaml:22: CustomResourceDefinition widgets.example.com already read at " + crd + ":1; this one is ignored", "crd.yaml:45: yaml: line 45"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

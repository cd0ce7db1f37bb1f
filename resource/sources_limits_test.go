package resource

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	kdvschema "kdv.dev/schema"
)

const gizmoDoc = `{"openapi":"3.0.0","components":{"schemas":{"com.example.v1.Gizmo":{"type":"object",` +
	`"x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Gizmo"}]}}}}`

// A --schemas file over MaxOpenAPIFileBytes is refused before it is read,
// with an error naming it and the limit; the other files are loaded.
func TestLoadOpenAPIDirFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gizmo.json"), []byte(gizmoDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: no disk or memory used unless read.
	if err := f.Truncate(MaxOpenAPIFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	reg := NewRegistry(Options{})
	n, err := LoadOpenAPIDir(reg, dir, nil)
	if n != 1 || err == nil || err.Error() != big+": larger than 64 MiB (resource.MaxOpenAPIFileBytes)" {
		t.Errorf("LoadOpenAPIDir = %d, %v", n, err)
	}
	if _, err := reg.Validator(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}); err != nil {
		t.Errorf("Gizmo: %v", err)
	}
	_, err = reg.Validator(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Other"})
	var ns *NoSchemaError
	if !errors.As(err, &ns) || !strings.Contains(err.Error(), "big.json could not be loaded: larger than 64 MiB") {
		t.Errorf("Other: %v", err)
	}
	// Exactly at the limit is read (and then fails to decode: zeros).
	if err := os.Truncate(big, MaxOpenAPIFileBytes); err != nil {
		t.Fatal(err)
	}
	if data, err := readOpenAPIFile(big); err != nil || len(data) != MaxOpenAPIFileBytes {
		t.Errorf("readOpenAPIFile at the limit: %d bytes, %v", len(data), err)
	}
}

// fanOutDoc is an OpenAPI document whose definition D0 expands to
// about 2^(levels+2) nodes (each Di has two properties referring to D(i+1)),
// and kinds K0..K(kinds-1), each an object with D0 and D1 as properties:
// a few KB, but each kind converts to all of their nodes.
func fanOutDoc(levels, kinds int) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.0","components":{"schemas":{`)
	for i := range levels {
		fmt.Fprintf(&b, `"D%d":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/D%d"},"b":{"$ref":"#/components/schemas/D%d"}}},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"D%d":{"type":"string"}`, levels)
	for k := range kinds {
		fmt.Fprintf(&b, `,"K%d":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/D0"},"b":{"$ref":"#/components/schemas/D1"}},"x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"K%d"}]}`, k, k)
	}
	b.WriteString("}}}\n")
	return b.String()
}

// Each kind of a document is within schema.MaxResolvedNodes, but together
// they are not: AddOpenAPI registers kinds until the document's budget
// and says which are left out, instead of converting them all.
func TestAddOpenAPIDocumentNodeBudget(t *testing.T) {
	doc, err := kdvschema.LoadOpenAPIDocument("fan.json", []byte(fanOutDoc(15, 5)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := doc.ResolvedNodes("K0")
	if err != nil || n > kdvschema.MaxResolvedNodes || 2*n > MaxOpenAPIDocumentNodes || 3*n <= MaxOpenAPIDocumentNodes {
		t.Fatalf("K0 has %d nodes (%v): want under schema.MaxResolvedNodes, 2 within the document's budget and 3 over", n, err)
	}
	reg := NewRegistry(Options{})
	err = reg.AddOpenAPI(doc, nil)
	want := `fan.json: schema K2 of example.com/v1, Kind=K2: the document's kinds have more than 400000 schema nodes together after resolving references (resource.MaxOpenAPIDocumentNodes); this and 2 more kinds of the document are not registered`
	if err == nil || err.Error() != want {
		t.Fatalf("AddOpenAPI: %v\nwant %s", err, want)
	}
	var kinds []string
	for _, g := range reg.Kinds() {
		kinds = append(kinds, g.Kind)
	}
	if strings.Join(kinds, ",") != "K0,K1" {
		t.Errorf("registered %v, want K0 and K1", kinds)
	}
}

// Errors of AddOpenAPI name the file once, and the kind's schema when the
// problem is in another schema it refers to.
func TestAddOpenAPIErrorNamesFileOnce(t *testing.T) {
	for _, tc := range []struct {
		doc, want string
	}{
		{`{"openapi":"3.0.0","components":{"schemas":{"A":{"type":"object","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"A"}],` +
			`"properties":{"x":{"$ref":"#/components/schemas/Missing"}}}}}}`,
			`bad.json: components.schemas["A"].properties[x].$ref: reference "#/components/schemas/Missing" not found`},
		{`{"openapi":"3.0.0","components":{"schemas":{"A":{"type":"object","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"A"}],` +
			`"properties":{"x":{"$ref":"#/components/schemas/B"}}},"B":{"type":"object","properties":{"y":{"$ref":"#/components/schemas/Missing"}}}}}}`,
			`bad.json: components.schemas["B"].properties[y].$ref: reference "#/components/schemas/Missing" not found (resolving schema A of example.com/v1, Kind=A)`},
		{`{"openapi":"3.0.0","components":{"schemas":{"A":{"type":"object","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"A"}],` +
			`"properties":{"x":{"type":"object","patternProperties":{"a":{"type":"string"}}}}}}}}`,
			`bad.json: components.schemas["A"]: `},
	} {
		doc, err := kdvschema.LoadOpenAPIDocument("bad.json", []byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		err = NewRegistry(Options{}).AddOpenAPI(doc, nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Count(err.Error(), "bad.json") != 1 {
			t.Errorf("AddOpenAPI: %v\nwant %s", err, tc.want)
		}
	}
}

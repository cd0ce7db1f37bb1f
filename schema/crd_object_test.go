package schema

import (
	"reflect"
	"testing"

	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// unstructured decodes a YAML document as kdv.dev/manifest does.
func unstructured(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// ParseCRDObject's direct path must give exactly what decoding the CRD's
// JSON gives (ParseCRD), for every corpus CRD.
func TestParseCRDObjectDirectCorpus(t *testing.T) {
	n := 0
	for name, doc := range corpusCRDs(t) {
		want, err := ParseCRD(doc)
		if err != nil {
			continue // not a v1 CRD; the JSON path reports it
		}
		got, ok := parseCRDObjectDirect(unstructured(t, doc))
		if !ok {
			t.Errorf("%s: direct path declined a valid CRD", name)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: direct path differs from the JSON path", name)
		}
		n++
	}
	if n < 50 {
		t.Errorf("only %d corpus CRDs compared", n)
	}
	t.Logf("%d CRDs", n)
}

func TestParseCRDObjectDirectEdges(t *testing.T) {
	const head = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
`
	for _, c := range []struct {
		name, versionTail string
		direct            bool
	}{
		{"numbers", `    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: number, minimum: 1.5, maximum: 1e21, multipleOf: 0.000001, default: 2.0}
          b: {type: integer, maximum: 9007199254740993, enum: [1, 2], default: 1}
          c: {type: object, default: {x: [1, 2.5, {y: null}]}, x-kubernetes-preserve-unknown-fields: true}
`, true},
		{"no schema", "", true},
		{"null schema", "    schema: {openAPIV3Schema: null}\n", true},
		{"unknown keys", `    schema:
      openAPIV3Schema: {type: object, x-unknown: 1, properties: {a: {type: string, bogus: true}}}
`, true},
		{"type error", `    schema:
      openAPIV3Schema: {type: object, properties: {a: {type: string, maxLength: "x"}}}
`, false},
	} {
		doc := []byte(head + c.versionTail)
		obj := unstructured(t, doc)
		got, ok := parseCRDObjectDirect(obj)
		if ok != c.direct {
			t.Errorf("%s: direct %v, want %v", c.name, ok, c.direct)
		}
		want, werr := ParseCRD(doc)
		pub, perr := ParseCRDObject(obj)
		if (werr == nil) != (perr == nil) || (werr != nil && werr.Error() != perr.Error()) {
			t.Errorf("%s: ParseCRDObject error %v, ParseCRD error %v", c.name, perr, werr)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: direct path differs from the JSON path:\n%#v\n%#v", c.name, got.Spec.Versions[0].Schema, want.Spec.Versions[0].Schema)
		}
		if werr == nil && !reflect.DeepEqual(pub, want) {
			t.Errorf("%s: ParseCRDObject differs from ParseCRD", c.name)
		}
	}
	// invalid UTF-8 would be replaced by JSON encoding: not taken directly
	obj := unstructured(t, []byte(head+"    schema: {openAPIV3Schema: {type: object, description: x}}\n"))
	obj["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["description"] = "bad\xff"
	if _, ok := parseCRDObjectDirect(obj); ok {
		t.Error("direct path took a schema with invalid UTF-8")
	}
}

package schema

import "testing"

// Field names match case-sensitively, as in the apiserver's decoder:
// "messAge" is an unknown field, not the rule's message (found by the
// bench module's differential fuzzing).
func TestParseCRDCaseSensitive(t *testing.T) {
	doc := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  Scope: Cluster
  names: {kind: Thing, plural: things}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "true"
          messAge: hello
`)
	c, err := ParseCRD(doc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Spec.Scope != "" {
		t.Errorf("Scope matched scope: %q", c.Spec.Scope)
	}
	r := c.Spec.Versions[0].Schema.OpenAPIV3Schema.XValidations
	if len(r) != 1 || r[0].Message != "" {
		t.Errorf("messAge matched message: %+v", r)
	}
}

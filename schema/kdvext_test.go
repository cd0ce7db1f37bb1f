package schema

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// A CRD cannot declare the built-in schemas' extensions: its structural
// schema keeps neither x-kubernetes-default-from nor
// x-kubernetes-skip-update-validation nor x-kubernetes-reported-at, at
// any depth.
func TestCRDDropsBuiltInExtensions(t *testing.T) {
	var p Props
	if err := yaml.Unmarshal([]byte(`
type: object
properties:
  spec:
    type: object
    x-kubernetes-skip-update-validation: true
    properties:
      port: {type: integer}
      targetPort: {type: integer, x-kubernetes-default-from: port}
      taints: {type: array, items: {type: string}, x-kubernetes-reported-at: metadata.taints}
`), &p); err != nil {
		t.Fatal(err)
	}
	plain, err := NewStructural(&p)
	if err != nil {
		t.Fatal(err)
	}
	if sp := plain.Properties["spec"]; !sp.SkipsUpdateValidation() || sp.Properties["targetPort"].XOther[XDefaultFrom] != "port" || sp.Properties["taints"].XOther[XReportedAt] != "metadata.taints" {
		t.Fatal("NewStructural should keep the extensions (the built-in path)")
	}
	v := &CRDVersion{Name: "v1", Schema: &CRDValidation{OpenAPIV3Schema: &p}}
	s, err := v.Structural()
	if err != nil {
		t.Fatal(err)
	}
	spec := s.Properties["spec"]
	if spec.SkipsUpdateValidation() {
		t.Error("CRD spec keeps x-kubernetes-skip-update-validation")
	}
	if _, ok := spec.Properties["targetPort"].XOther[XDefaultFrom]; ok {
		t.Error("CRD targetPort keeps x-kubernetes-default-from")
	}
	if r, ok := spec.Properties["taints"].XOther[XReportedAt]; ok {
		t.Errorf("CRD taints keeps x-kubernetes-reported-at %v", r)
	}
}

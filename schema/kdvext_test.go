package schema

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// A CRD cannot declare the built-in schemas' extensions: its structural
// schema keeps neither x-kubernetes-default-from nor
// x-kubernetes-skip-update-validation nor x-kubernetes-reported-at, at
// any depth, nor a rule's x-kubernetes-diff.
func TestCRDDropsBuiltInExtensions(t *testing.T) {
	var p Props
	if err := yaml.Unmarshal([]byte(`
type: object
properties:
  spec:
    type: object
    x-kubernetes-skip-update-validation: true
    x-kubernetes-skip-update-validation-if-old-invalid: spec
    x-kubernetes-validations:
    - rule: self == oldSelf
      x-kubernetes-diff: {path: .port, keep: [.x]}
    properties:
      port: {type: integer}
      targetPort: {type: integer, x-kubernetes-default-from: port}
      policy: {type: string, x-kubernetes-default-expression: "'Always'"}
      taints: {type: array, items: {type: string}, x-kubernetes-reported-at: metadata.taints}
`), &p); err != nil {
		t.Fatal(err)
	}
	plain, err := NewStructural(&p)
	if err != nil {
		t.Fatal(err)
	}
	if sp := plain.Properties["spec"]; !sp.SkipsUpdateValidation() || sp.SkipsUpdateValidationIfOldInvalid() != "spec" || sp.Properties["targetPort"].XOther[XDefaultFrom] != "port" || sp.Properties["taints"].XOther[XReportedAt] != "metadata.taints" ||
		len(sp.XValidations) != 1 || sp.XValidations[0].Diff == nil || sp.XValidations[0].Diff.Path != ".port" {
		t.Fatal("NewStructural should keep the extensions (the built-in path)")
	}
	if got := plain.Properties["spec"].Properties["policy"].XOther[XDefaultExpression]; got != "'Always'" {
		t.Fatalf("NewStructural: %s = %v, want 'Always'", XDefaultExpression, got)
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
	if spec.SkipsUpdateValidationIfOldInvalid() != "" {
		t.Error("CRD spec keeps x-kubernetes-skip-update-validation-if-old-invalid")
	}
	if _, ok := spec.Properties["targetPort"].XOther[XDefaultFrom]; ok {
		t.Error("CRD targetPort keeps x-kubernetes-default-from")
	}
	if _, ok := spec.Properties["policy"].XOther[XDefaultExpression]; ok {
		t.Error("CRD policy keeps x-kubernetes-default-expression")
	}
	if len(spec.XValidations) != 1 || spec.XValidations[0].Diff != nil {
		t.Errorf("CRD rules: %+v, want the rule without x-kubernetes-diff", spec.XValidations)
	}
	if p.Properties["spec"].XValidations[0].Diff == nil {
		t.Error("the CRD's Props lost x-kubernetes-diff (shared slice changed)")
	}
	if r, ok := spec.Properties["taints"].XOther[XReportedAt]; ok {
		t.Errorf("CRD taints keeps x-kubernetes-reported-at %v", r)
	}
}

// DeepCopy copies a rule's x-kubernetes-diff; the apiserver's view of a
// schema (its decoder drops unknown keys) has none, and leaves the
// original's alone.
func TestRuleDiffCopies(t *testing.T) {
	p := &Props{Type: "object", XValidations: []ValidationRule{{Rule: "self == oldSelf", Diff: &RuleDiff{Path: ".a", Keep: []string{".b"}}}}}
	c := p.DeepCopy()
	c.XValidations[0].Diff.Keep[0] = ".changed"
	if p.XValidations[0].Diff.Keep[0] != ".b" {
		t.Error("DeepCopy shares the diff's keep list")
	}
	if v := apiserverView(p); v.XValidations[0].Diff != nil {
		t.Error("apiserverView keeps x-kubernetes-diff")
	}
	if p.XValidations[0].Diff == nil {
		t.Error("apiserverView changed the original")
	}
}

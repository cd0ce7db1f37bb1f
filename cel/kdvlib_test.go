package cel

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// TestKdvFormatErrors: built-in rules call kdv's named formats with
// kdv.formatErrors; CRD rules cannot (it is not the apiserver's).
func TestKdvFormatErrors(t *testing.T) {
	invalid := "FieldValueInvalid"
	rule := schema.ValidationRule{
		Rule:              "size(kdv.formatErrors('k8s-taints-annotation', self.?v.orValue(''))) == 0",
		MessageExpression: "kdv.formatErrors('k8s-taints-annotation', self.v)[0]",
		Reason:            &invalid,
		FieldPath:         "'k' as .v",
	}
	s := yamlSchema(t, `{type: object, properties: {v: {type: string}}}`)
	s.XValidations = []schema.ValidationRule{rule}
	v, errs := NewValidator(s, false, Options{BuiltIn: true, SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct{ obj, want string }{
		{`{}`, ""},
		{`{v: '[{"key": "a", "effect": "NoSchedule"}]'}`, ""},
		{`{v: '{}'}`, `x.v: Invalid value: "k": json: cannot unmarshal object into Go value of type []core.Taint`},
		{`{v: 'x'}`, `x.v: Invalid value: "k": invalid character 'x' looking for beginning of value`},
	} {
		got, _ := v.ValidateObject(context.Background(), field.NewPath("x"), yamlObj(t, c.obj), nil, RuntimeCELCostBudget)
		var lines []string
		for _, e := range got {
			lines = append(lines, e.Error())
		}
		if g := strings.Join(lines, "\n"); g != c.want {
			t.Errorf("%s: got %q, want %q", c.obj, g, c.want)
		}
	}

	// A CRD rule (not BuiltIn) does not compile.
	crd := yamlSchema(t, `{type: object, properties: {v: {type: string}}}`)
	crd.XValidations = []schema.ValidationRule{{Rule: "size(kdv.formatErrors('k8s-taints-annotation', self.?v.orValue(''))) == 0"}}
	cv, errs := NewValidator(crd, false, Options{SkipCheck: true})
	if len(errs) == 0 {
		got, _ := cv.ValidateObject(context.Background(), field.NewPath("x"), yamlObj(t, `{v: x}`), nil, RuntimeCELCostBudget)
		if len(got) != 1 || !strings.Contains(got[0].Detail, "undeclared reference to 'kdv'") {
			t.Errorf("a CRD rule calling kdv.formatErrors: got %v, want a compile error", got)
		}
	}
}

package cel

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Built-in rules are unmetered (Options.BuiltIn): their programs track no
// cost, so Validate, which otherwise evaluates with cost tracking, must
// evaluate them as ValidateObject does. It reported "runtime cost could
// not be calculated" for every rule the prover leaves to CEL (here an
// equality of optional objects, as StatefulSet rules compare their old
// template).
func TestBuiltInValidateMatchesValidateObject(t *testing.T) {
	s := yamlSchema(t, `
type: object
properties:
  template:
    type: object
    properties:
      spec:
        type: object
        properties:
          devs:
            type: array
            items: {type: object, properties: {name: {type: string}}}
          vols:
            type: array
            items: {type: object, properties: {name: {type: string}}}
`)
	s = withRule(s, "self.template.spec.devs.all(d, self.template.spec.vols.exists(v, v.name == d.name)) || oldSelf.hasValue() && oldSelf.value().?template == self.?template")
	tr := true
	s.XValidations[0].OptionalOldSelf = &tr
	s.XValidations[0].Message = "Not found"
	v, errs := NewValidator(s, false, Options{SkipCheck: true, BuiltIn: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	bad := `{template: {spec: {devs: [{name: a}, {name: b}], vols: [{name: a}]}}}`
	for _, c := range []struct {
		name, obj, old string
		want           int
	}{
		{"unchanged", bad, bad, 0},
		{"changed", bad, `{template: {spec: {devs: [{name: a}], vols: [{name: a}]}}}`, 1},
		{"create", bad, "", 1},
	} {
		obj := yamlObj(t, c.obj)
		var old any
		if c.old != "" {
			old = yamlObj(t, c.old)
		}
		got, _ := v.Validate(context.Background(), field.NewPath("root"), obj, old, RuntimeCELCostBudget)
		want, _ := v.ValidateObject(context.Background(), field.NewPath("root"), obj, old, RuntimeCELCostBudget)
		if len(got) != c.want || len(want) != c.want {
			t.Errorf("%s: Validate %v, ValidateObject %v, want %d errors", c.name, got, want, c.want)
		}
	}
}

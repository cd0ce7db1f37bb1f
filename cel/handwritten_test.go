package cel

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
)

// TestHandwrittenAbsentValue: a built-in rule whose fieldPath names a
// missing field reports the value the hand-written code sees there. For a
// scalar marked x-kubernetes-strip-zero (a Go field neither a pointer nor
// required) that is its zero value: events.k8s.io's ValidateEventCreate
// reports field.Invalid(fldPath.Child("reportingController"),
// event.ReportingController, ...), printed `""` for a missing controller
// (bench/cmd/builtin-verdict, Kubernetes 1.37). A pointer (no strip-zero)
// and a struct still print null, as a nil pointer does; the wildcard
// fieldPath of each.go does the same per item.
func TestHandwrittenAbsentValue(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
		  action: {type: string, x-kubernetes-strip-zero: true}
		  count: {type: integer, x-kubernetes-strip-zero: true}
		  ratio: {type: number, x-kubernetes-strip-zero: true}
		  enabled: {type: boolean, x-kubernetes-strip-zero: true}
		  class: {type: string}
		  ref: {type: object, properties: {name: {type: string}}}
		  labels: {type: object, additionalProperties: {type: string, x-kubernetes-strip-zero: true}}
		  items:
		    type: array
		    items:
		      type: object
		      properties:
		        name: {type: string, x-kubernetes-strip-zero: true}
	`)
	reason := "FieldValueInvalid"
	rule := func(fp string) schema.ValidationRule {
		return schema.ValidationRule{Rule: "false", Message: "bad", Reason: &reason, FieldPath: fp}
	}
	s.XValidations = []schema.ValidationRule{
		rule(".action"), rule(".count"), rule(".ratio"), rule(".enabled"),
		rule(".class"), rule(".ref"), rule(".labels.app"), rule(".items[*].name"),
	}
	v, errs := NewValidator(s, false, Options{BuiltIn: true, SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		name, obj string
		want      []string
	}{
		{"absent", `
			labels: {}
			items: [{}]`, []string{
			`spec.action: Invalid value: "": bad`,
			`spec.count: Invalid value: 0: bad`,
			`spec.ratio: Invalid value: 0: bad`,
			`spec.enabled: Invalid value: false: bad`,
			`spec.class: Invalid value: null: bad`,
			`spec.ref: Invalid value: null: bad`,
			`spec.labels[app]: Invalid value: "": bad`,
			`spec.items[0].name: Invalid value: "": bad`,
		}},
		{"present", `
			action: x
			count: 2
			ratio: 0.5
			enabled: true
			class: c
			ref: {name: nm}
			labels: {app: a}
			items: [{name: i}]`, []string{
			`spec.action: Invalid value: "x": bad`,
			`spec.count: Invalid value: 2: bad`,
			`spec.ratio: Invalid value: 0.5: bad`,
			`spec.enabled: Invalid value: true: bad`,
			`spec.class: Invalid value: "c": bad`,
			`spec.ref: Invalid value: {"name":"nm"}: bad`,
			`spec.labels[app]: Invalid value: "a": bad`,
			`spec.items[0].name: Invalid value: "i": bad`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _ := v.ValidateObject(context.Background(), field.NewPath("spec"), yamlObj(t, c.obj), nil, RuntimeCELCostBudget)
			var lines []string
			for _, e := range got {
				lines = append(lines, e.Error())
			}
			if strings.Join(lines, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestHandwrittenOmittedValue: a built-in rule whose fieldPath's value
// path is "-" reports no value, as the hand-written field.Invalid(path,
// field.OmitValueType{}, ...) does (batch validatePodFailurePolicyRule:
// `spec.podFailurePolicy.rules[1]: Invalid value: specifying one of
// OnExitCodes and OnPodConditions is required`), at self ("-") or at the
// reported path ("- as .x"); other reasons print as they do with a value.
func TestHandwrittenOmittedValue(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
		  action: {type: string}
		  conditions: {type: array, items: {type: string}}
	`)
	invalid, required := "FieldValueInvalid", "FieldValueRequired"
	s.XValidations = []schema.ValidationRule{
		{Rule: "false", Message: "specifying one is required", Reason: &invalid, FieldPath: "-"},
		{Rule: "false", Message: "cannot set both", Reason: &invalid, FieldPath: "- as .conditions"},
		{Rule: "false", Message: "Required value", Reason: &required, FieldPath: "- as .action"},
		{Rule: "false", Message: "with a value", Reason: &invalid, FieldPath: ".action"},
	}
	v, errs := NewValidator(s, false, Options{BuiltIn: true, SkipCheck: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got, _ := v.ValidateObject(context.Background(), field.NewPath("spec"), yamlObj(t, `{action: x, conditions: [a]}`), nil, RuntimeCELCostBudget)
	var lines []string
	for _, e := range got {
		lines = append(lines, e.Error())
	}
	want := []string{
		`spec: Invalid value: specifying one is required`,
		`spec.conditions: Invalid value: cannot set both`,
		`spec.action: Required value`,
		`spec.action: Invalid value: "x": with a value`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

package defaulting

import (
	"context"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"kdv.dev/schema/schematest"
)

// matchErrors compares errors by "Type path", order-insensitive.
func matchErrors(t *testing.T, errs field.ErrorList, want []string) {
	t.Helper()
	var got []string
	for _, e := range errs {
		got = append(got, string(e.Type)+" "+e.Field)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s\nerrors: %v", strings.Join(got, "\n"), strings.Join(want, "\n"), errs.ToAggregate())
	}
}

// TestValidateDefaultsStructural holds the apiserver's CRD validation case
// "invalid defaults with enabled feature gate, structural schema"
// (pkg/apis/apiextensions/validation/validation_test.go).
func TestValidateDefaultsStructural(t *testing.T) {
	s := schematest.Structural(t, `
type: object
properties:
  a: {type: object, properties: {foo: {type: string}}, default: {foo: abc, bar: 42}}
  b: {type: object, properties: {foo: {type: string}}, default: {foo: abc}}
  c: {type: object, properties: {foo: {type: string}}, default: {foo: 42}}
  d: {type: object, properties: {good: {type: string, pattern: a}, bad: {type: string, pattern: b}}, default: {good: a, bad: a}}
  e:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    properties:
      preserveUnknownFields: {type: object, default: {foo: abc, bar: 42}}
      nestedProperties: {type: object, properties: {foo: {type: string}}, default: {foo: abc, bar: 42}}
  embedded-fine:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {foo: {type: string}}
    default: {foo: abc, apiVersion: foo/v1, kind: v1, metadata: {name: foo}}
  embedded-preserve:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties: {foo: {type: string}}
    default: {foo: abc, apiVersion: foo/v1, kind: v1, metadata: {name: foo}, bar: 42}
  embedded-preserve-unpruned-objectmeta:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties: {foo: {type: string}}
    default: {foo: abc, apiVersion: foo/v1, kind: v1, metadata: {name: foo, unspecified: bar}, bar: 42}
`)
	errs, err := ValidateDefaults(context.Background(), field.NewPath("spec", "validation", "openAPIV3Schema"), s, true, true)
	if err != nil {
		t.Fatal(err)
	}
	p := "spec.validation.openAPIV3Schema."
	matchErrors(t, errs, []string{
		"FieldValueInvalid " + p + "properties[a].default",
		"FieldValueTypeInvalid " + p + "properties[c].default.foo",
		"FieldValueInvalid " + p + "properties[d].default.bad",
		"FieldValueInvalid " + p + "properties[e].properties[preserveUnknownFields].default",
		"FieldValueInvalid " + p + "properties[e].properties[nestedProperties].default",
	})
	// kube-openapi names the field relative to the validated default.
	for _, e := range errs {
		if e.Field == p+"properties[c].default.foo" && e.Error() != p+`properties[c].default.foo: Invalid value: "integer": foo in body must be of type string: "integer"` {
			t.Errorf("message: %s", e.Error())
		}
	}
}

// constraintsSchema holds the OpenAPI-dependent properties of the
// apiserver's "defaults with enum constraints" CRD validation case.
const constraintsSchema = `
type: object
properties:
  in-object-defaults-with-valid-constraints:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      apiVersion: {type: string, default: foo/v1, enum: [foo/v1]}
      kind: {type: string, default: Foo, enum: [Foo]}
      metadata:
        type: object
        properties:
          name: {type: string, default: foo, enum: [foo]}
          labels: {type: object, additionalProperties: {type: string, enum: [foo]}, default: {foo: foo}}
  metadata-defaults-with-valid-constraints:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      metadata:
        type: object
        properties:
          name: {type: string, enum: [foo]}
          labels: {type: object, additionalProperties: {type: string, enum: [foo]}}
        default: {name: foo, labels: {foo: foo}}
  object-defaults-with-valid-constraints:
    type: object
    x-kubernetes-embedded-resource: true
    properties: &constrained
      apiVersion: {type: string, enum: [foo/v1]}
      kind: {type: string, enum: [Foo]}
      metadata:
        type: object
        properties:
          name: {type: string, enum: [foo]}
          labels: {type: object, additionalProperties: {type: string, enum: [foo]}}
    default: {apiVersion: foo/v1, kind: Foo, metadata: {name: foo, labels: {foo: foo}}}
  spanning-defaults-with-valid-constraints:
    type: object
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, properties: *constrained}
    default: {embedded: {apiVersion: foo/v1, kind: Foo, metadata: {name: foo, labels: {foo: foo}}}}
  in-object-defaults-with-invalid-constraints:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      apiVersion: {type: string, description: BREAK, default: bar/v1, enum: [foo/v1]}
      kind: {type: string, default: Bar, enum: [Foo]}
      metadata:
        type: object
        properties:
          name: {type: string, default: bar, enum: [foo]}
          labels: {type: object, additionalProperties: {type: string, enum: [foo]}, default: {foo: bar}}
  metadata-defaults-with-invalid-constraints-name:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      metadata:
        type: object
        properties:
          name: {type: string, enum: [foo]}
          labels: {type: object, additionalProperties: {type: string, enum: [foo]}}
        default: {name: bar}
  metadata-defaults-with-invalid-constraints-labels:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      metadata:
        type: object
        properties:
          name: {type: string, enum: [foo]}
          labels: {type: object, additionalProperties: {type: string, enum: [foo]}}
        default: {name: foo, labels: {foo: bar}}
  object-defaults-with-invalid-constraints-name:
    type: object
    x-kubernetes-embedded-resource: true
    properties: *constrained
    default: {apiVersion: foo/v1, kind: Foo, metadata: {name: bar}}
  object-defaults-with-invalid-constraints-labels:
    type: object
    x-kubernetes-embedded-resource: true
    properties: *constrained
    default: {apiVersion: foo/v1, kind: Foo, metadata: {name: foo, labels: {foo: bar}}}
  object-defaults-with-invalid-constraints-apiVersion:
    type: object
    x-kubernetes-embedded-resource: true
    properties: *constrained
    default: {apiVersion: bar/v1, kind: Foo, metadata: {name: foo}}
  object-defaults-with-invalid-constraints-kind:
    type: object
    x-kubernetes-embedded-resource: true
    properties: *constrained
    default: {apiVersion: foo/v1, kind: Bar, metadata: {name: foo}}
  spanning-defaults-with-invalid-constraints-kind:
    type: object
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, properties: *constrained}
    default: {embedded: {apiVersion: foo/v1, kind: Bar, metadata: {name: foo}}}
  spanning-defaults-with-invalid-constraints-labels:
    type: object
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, properties: *constrained}
    default: {embedded: {apiVersion: foo/v1, kind: Foo, metadata: {name: foo, labels: {foo: bar}}}}
  spanning-defaults-with-invalid-constraints-apiVersion:
    type: object
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, properties: *constrained}
    default: {embedded: {apiVersion: bar/v1, kind: Foo, metadata: {name: foo}}}
  spanning-defaults-with-invalid-constraints-name:
    type: object
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, properties: *constrained}
    default: {embedded: {apiVersion: foo/v1, kind: Foo, metadata: {name: bar}}}
`

// TestValidateDefaultsConstraints checks the "unsupported" (enum) errors of
// the apiserver's "defaults with enum constraints" case.
func TestValidateDefaultsConstraints(t *testing.T) {
	s := schematest.Structural(t, constraintsSchema)
	errs, err := ValidateDefaults(context.Background(), field.NewPath("spec", "validation", "openAPIV3Schema"), s, true, true)
	if err != nil {
		t.Fatal(err)
	}
	p := "spec.validation.openAPIV3Schema."
	matchErrors(t, errs, []string{
		"FieldValueNotSupported " + p + "properties[in-object-defaults-with-invalid-constraints].properties[apiVersion].default",
		"FieldValueNotSupported " + p + "properties[in-object-defaults-with-invalid-constraints].properties[kind].default",
		"FieldValueNotSupported " + p + "properties[in-object-defaults-with-invalid-constraints].properties[metadata].properties[name].default",
		"FieldValueNotSupported " + p + "properties[in-object-defaults-with-invalid-constraints].properties[metadata].properties[labels].default.foo",
		"FieldValueNotSupported " + p + "properties[metadata-defaults-with-invalid-constraints-name].properties[metadata].default.name",
		"FieldValueNotSupported " + p + "properties[metadata-defaults-with-invalid-constraints-labels].properties[metadata].default.labels.foo",
		"FieldValueNotSupported " + p + "properties[object-defaults-with-invalid-constraints-name].default.metadata.name",
		"FieldValueNotSupported " + p + "properties[object-defaults-with-invalid-constraints-labels].default.metadata.labels.foo",
		"FieldValueNotSupported " + p + "properties[object-defaults-with-invalid-constraints-apiVersion].default.apiVersion",
		"FieldValueNotSupported " + p + "properties[object-defaults-with-invalid-constraints-kind].default.kind",
		"FieldValueNotSupported " + p + "properties[spanning-defaults-with-invalid-constraints-kind].default.embedded.kind",
		"FieldValueNotSupported " + p + "properties[spanning-defaults-with-invalid-constraints-labels].default.embedded.metadata.labels.foo",
		"FieldValueNotSupported " + p + "properties[spanning-defaults-with-invalid-constraints-apiVersion].default.embedded.apiVersion",
		"FieldValueNotSupported " + p + "properties[spanning-defaults-with-invalid-constraints-name].default.embedded.metadata.name",
	})
}

// TestValidateDefaultsCEL holds the apiserver's
// TestDefaultValidationWithOptionalOldSelf and, for the cost budget,
// TestDefaultValidationWithCostBudget (defaulting/validation_test.go).
func TestValidateDefaultsCEL(t *testing.T) {
	ctx := context.Background()
	t.Run(`"invalid default" (optionalOldSelf)`, func(t *testing.T) {
		s := schematest.Structural(t, `{type: object, properties: {defaultFailsRatcheting: {type: string, default: default, x-kubernetes-validations: [{rule: "oldSelf.hasValue()", optionalOldSelf: true, message: foobarErrorMessage}]}}}`)
		errs, err := ValidateDefaults(ctx, field.NewPath("test"), s, false, false)
		if err != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "foobarErrorMessage") {
			t.Fatalf("got %v, %v", errs, err)
		}
		if errs[0].Field != "test.properties[defaultFailsRatcheting].default" {
			t.Errorf("path %s", errs[0].Field)
		}
	})
	t.Run(`"valid default" (optionalOldSelf)`, func(t *testing.T) {
		s := schematest.Structural(t, `{type: object, properties: {defaultFailsRatcheting: {type: string, default: default, x-kubernetes-validations: [{rule: "oldSelf.orValue(self) == self", optionalOldSelf: true, message: foobarErrorMessage}]}}}`)
		if errs, err := ValidateDefaults(ctx, field.NewPath("test"), s, false, false); err != nil || len(errs) != 0 {
			t.Fatalf("got %v, %v", errs, err)
		}
	})
	costSchema := schematest.Structural(t, `
type: object
properties:
  embedded:
    type: object
    properties:
      metadata:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          name: {type: string, x-kubernetes-validations: [{rule: "self == 'singleton'"}], default: singleton}
  value: {type: string, x-kubernetes-validations: [{rule: "self.startsWith('kube-everyt')"}], default: kube-everything}
  object:
    type: object
    properties: {field1: {type: integer}, field2: {type: integer}}
    x-kubernetes-validations: [{rule: "self.field1 < self.field2"}]
    default: {field1: 1, field2: 2}
`)
	budgetErrs := func(budget int64) (field.ErrorList, int) {
		d := defaultsValidator{v: NewValidators(0)}
		errs, err, _ := d.validate(ctx, field.NewPath("test"), costSchema, costSchema, true, rootFunc().withTypeMeta(validationAPIVersion, validationKind), false, budget)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range errs {
			if e.Type == field.ErrorTypeInvalid && strings.Contains(e.Error(), "validation failed due to running out of cost budget, no further validation rules will be run") {
				n++
			}
		}
		return errs, n
	}
	// "cost budget is large enough to pass all validation rules"
	if errs, _ := budgetErrs(10); len(errs) != 0 {
		t.Errorf("budget 10: %v", errs)
	}
	// "cost budget exceeded for the first validation rule" and "for the last"
	for _, b := range []int64{0, 9} {
		if _, n := budgetErrs(b); n != 1 {
			t.Errorf("budget %d: %d budget errors, want 1", b, n)
		}
	}
}

// Defaults of int-or-string fields are not type-checked: the apiserver
// validates defaults against Structural.ToKubeOpenAPI, which publishes
// x-kubernetes-int-or-string without type [integer, string]. The expected
// lines are the apiserver's (bench.CheckCRD, the real
// ValidateCustomResourceDefinition, on the same schema in a CRD).
func TestValidateDefaultsIntOrStringUntyped(t *testing.T) {
	s := schematest.Structural(t, `
type: object
properties:
  a: {x-kubernetes-int-or-string: true, default: {x: 1}}
  b:
    x-kubernetes-int-or-string: true
    anyOf: [{type: integer}, {type: string}]
    default: {x: 1}
  c: {x-kubernetes-int-or-string: true, default: 1.5}
  d: {x-kubernetes-int-or-string: true, default: 80}
`)
	errs, err := ValidateDefaults(context.Background(), field.NewPath("spec", "validation", "openAPIV3Schema"), s, true, true)
	if err != nil {
		t.Fatal(err)
	}
	p := "spec.validation.openAPIV3Schema.properties"
	want := []string{
		p + `[a].default: Invalid value: {"x":1}: must not have unknown fields`,
		p + `[b].default: Invalid value: {"x":1}: must not have unknown fields`,
		p + `[b].default: Invalid value: "": "" must validate at least one schema (anyOf)`,
		p + `[b].default: Invalid value: "object":  in body must be of type integer: "object"`,
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

package defaulting

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"kdv.dev/schema"
	"kdv.dev/schema/schematest"
)

// defaultsSchema holds the properties of the apiserver's CRD validation
// test "defaults with enum constraints" / "embedded metadata defaults"
// (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/
// validation_test.go TestValidateCustomResourceDefinition) whose errors do
// not need OpenAPI or CEL validation. Property names are the apiserver's.
const defaultsSchema = `
type: object
properties:
  allowed-in-object-defaults:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      apiVersion: {type: string, default: v1}
      kind: {type: string, default: Pod}
      metadata:
        type: object
        properties:
          name: {type: string, default: foo}
        default: {unknown: 42}
  allowed-object-defaults:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      something: {type: string}
    default: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}}
  allowed-spanning-object-defaults:
    type: object
    properties:
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          something: {type: string}
    default: {embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}}}
  unknown-field-object-defaults:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      something: {type: string}
    default: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}, unknown: 42}
  unknown-field-spanning-object-defaults:
    type: object
    properties:
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          something: {type: string}
    default: {embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}, unknown: 42}, unknown: 42}
  x-preserve-unknown-fields-unknown-field-object-defaults:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    default: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}, unknown: 42}
  x-preserve-unknown-fields-unknown-field-spanning-object-defaults:
    type: object
    properties:
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
    default: {embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}, unknown: 42}}
  x-preserve-unknown-fields-unknown-field-outside:
    type: object
    properties:
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
    default: {embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, unknown: 42}, unknown: 42}, unknown: 42}
  wrongly-typed-in-object-defaults:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      apiVersion: {type: string, default: 42}
      kind: {type: string, default: 42}
      metadata:
        type: object
        properties:
          name: {type: string, default: 42}
          annotations: {type: object, additionalProperties: {type: string}, default: 42}
  wrongly-typed-object-defaults-apiVersion:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {apiVersion: 42}
  wrongly-typed-object-defaults-kind:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {kind: 42}
  wrongly-typed-object-defaults-name:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {metadata: {name: 42}}
  wrongly-typed-object-defaults-labels:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {metadata: {labels: {foo: 42}}}
  wrongly-typed-object-defaults-annotations:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {metadata: {annotations: 42}}
  wrongly-typed-object-defaults-metadata:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {metadata: 42}
  wrongly-typed-spanning-object-defaults-apiVersion:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {apiVersion: 42}}
  wrongly-typed-spanning-object-defaults-kind:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {kind: 42}}
  wrongly-typed-spanning-object-defaults-name:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {metadata: {name: 42}}}
  wrongly-typed-spanning-object-defaults-labels:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {metadata: {labels: {foo: 42}}}}
  wrongly-typed-spanning-object-defaults-annotations:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {metadata: {annotations: 42}}}
  wrongly-typed-spanning-object-defaults-metadata:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {metadata: 42}}
  invalid-in-object-defaults:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      kind: {type: string, default: "%"}
      metadata:
        type: object
        properties:
          name: {type: string, default: "%"}
          labels: {type: object, additionalProperties: {type: string}, default: {foo: "x y"}}
  invalid-object-defaults-kind:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {apiVersion: foo/v1, kind: "%"}
  invalid-object-defaults-name:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {apiVersion: foo/v1, kind: Foo, metadata: {name: "%"}}
  invalid-object-defaults-labels:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {something: {type: string}}
    default: {apiVersion: foo/v1, kind: Foo, metadata: {labels: {foo: "x y"}}}
  invalid-spanning-object-defaults-kind:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {apiVersion: foo/v1, kind: "%"}}
  invalid-spanning-object-defaults-name:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {apiVersion: foo/v1, kind: Foo, metadata: {name: "%"}}}
  invalid-spanning-object-defaults-labels:
    type: object
    properties: {embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {something: {type: string}}}}
    default: {embedded: {apiVersion: foo/v1, kind: Foo, metadata: {labels: {foo: "x y"}}}}
  object-defaults-with-missing-typemeta:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      apiVersion: {type: string, enum: [foo/v1]}
      kind: {type: string, enum: [Foo]}
    default: {metadata: {name: bar}}
  spanning-defaults-with-missing-typemeta:
    type: object
    properties:
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          apiVersion: {type: string, enum: [foo/v1]}
          kind: {type: string, enum: [Foo]}
    default: {embedded: {metadata: {name: bar}}}
`

// TestValidateDefaults checks the apiserver's expected error types and
// paths for defaultsSchema (the validationMatch list of the test above).
func TestValidateDefaults(t *testing.T) {
	s := schematest.Structural(t, defaultsSchema)
	errs, err := ValidateDefaults(context.Background(), field.NewPath("spec", "validation", "openAPIV3Schema"), s, true, true)
	if err != nil {
		t.Fatal(err)
	}
	p := "spec.validation.openAPIV3Schema."
	want := []string{
		"FieldValueInvalid " + p + "properties[unknown-field-object-defaults].default",
		"FieldValueInvalid " + p + "properties[unknown-field-spanning-object-defaults].default",
		"FieldValueInvalid " + p + "properties[x-preserve-unknown-fields-unknown-field-outside].default",
		"FieldValueInvalid " + p + "properties[wrongly-typed-in-object-defaults].properties[kind].default",
		"FieldValueInvalid " + p + "properties[wrongly-typed-in-object-defaults].properties[apiVersion].default",
		"FieldValueInvalid " + p + "properties[wrongly-typed-in-object-defaults].properties[metadata].properties[name].default",
		"FieldValueInvalid " + p + "properties[wrongly-typed-in-object-defaults].properties[metadata].properties[annotations].default",
		"FieldValueInvalid " + p + "properties[wrongly-typed-object-defaults-metadata].default.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-object-defaults-apiVersion].default.apiVersion",
		"FieldValueInvalid " + p + "properties[wrongly-typed-object-defaults-kind].default.kind",
		"FieldValueInvalid " + p + "properties[wrongly-typed-object-defaults-name].default.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-object-defaults-labels].default.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-object-defaults-annotations].default.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-spanning-object-defaults-metadata].default.embedded.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-spanning-object-defaults-apiVersion].default.embedded.apiVersion",
		"FieldValueInvalid " + p + "properties[wrongly-typed-spanning-object-defaults-kind].default.embedded.kind",
		"FieldValueInvalid " + p + "properties[wrongly-typed-spanning-object-defaults-name].default.embedded.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-spanning-object-defaults-labels].default.embedded.metadata",
		"FieldValueInvalid " + p + "properties[wrongly-typed-spanning-object-defaults-annotations].default.embedded.metadata",
		"FieldValueInvalid " + p + "properties[invalid-in-object-defaults].properties[metadata].properties[name].default",
		"FieldValueInvalid " + p + "properties[invalid-in-object-defaults].properties[metadata].properties[labels].default",
		"FieldValueInvalid " + p + "properties[invalid-in-object-defaults].properties[kind].default",
		"FieldValueInvalid " + p + "properties[invalid-object-defaults-kind].default.kind",
		"FieldValueInvalid " + p + "properties[invalid-object-defaults-name].default.metadata.name",
		"FieldValueInvalid " + p + "properties[invalid-object-defaults-labels].default.metadata.labels",
		"FieldValueInvalid " + p + "properties[invalid-spanning-object-defaults-kind].default.embedded.kind",
		"FieldValueInvalid " + p + "properties[invalid-spanning-object-defaults-name].default.embedded.metadata.name",
		"FieldValueInvalid " + p + "properties[invalid-spanning-object-defaults-labels].default.embedded.metadata.labels",
		"FieldValueRequired " + p + "properties[object-defaults-with-missing-typemeta].default.apiVersion",
		"FieldValueRequired " + p + "properties[object-defaults-with-missing-typemeta].default.kind",
		"FieldValueRequired " + p + "properties[spanning-defaults-with-missing-typemeta].default.embedded.apiVersion",
		"FieldValueRequired " + p + "properties[spanning-defaults-with-missing-typemeta].default.embedded.kind",
	}
	var got []string
	for _, e := range errs {
		got = append(got, string(e.Type)+" "+e.Field)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s\nerrors:\n%v", strings.Join(got, "\n"), strings.Join(want, "\n"), errs.ToAggregate())
	}
}

// TestValidateDefaultsMessages checks the apiserver's messages for one
// error of each kind.
func TestValidateDefaultsMessages(t *testing.T) {
	tests := []struct {
		name, schema string
		root         bool
		want         string
	}{
		{"unknown fields", `{type: object, properties: {a: {type: object, properties: {b: {type: string}}, default: {b: x, c: 1}}}}`, true,
			`p.properties[a].default: Invalid value: {"b":"x","c":1}: must not have unknown fields`},
		{"unknown fields error shows the coerced default, as the apiserver's (it coerces in place)",
			`{type: object, properties: {a: {type: object, x-kubernetes-embedded-resource: true, properties: {spec: {type: object}}, default: {apiVersion: v1, kind: K, metadata: {name: x, bogus: 1}, extra: 1}}}}`, true,
			`p.properties[a].default: Invalid value: {"apiVersion":"v1","extra":1,"kind":"K","metadata":{"name":"x"}}: must not have unknown fields`},
		{"embedded kind not a string", `{type: object, properties: {a: {type: object, x-kubernetes-embedded-resource: true, default: {apiVersion: v1, kind: 1}}}}`, true,
			`p.properties[a].default.kind: Invalid value: 1: must be a string`},
		{"metadata default", `{type: object, properties: {a: {type: object, x-kubernetes-embedded-resource: true, properties: {kind: {type: string, default: "%"}}}}}`, true,
			`p.properties[a].properties[kind].default: Invalid value: "%": must result in valid metadata: kind: Invalid value: "%": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`},
		{"root metadata name default, not a resource root: nothing is metadata", `{type: object, properties: {metadata: {type: object, properties: {name: {type: string, default: "%"}}}}}`, false,
			``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, err := ValidateDefaults(context.Background(), field.NewPath("p"), schematest.Structural(t, tt.schema), tt.root, true)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(errs) > 0 {
				got = errs.ToAggregate().Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// call records one call of a fake validator.
type call struct {
	kind, path string
	old        bool
}

// TestValidateDefaultsWithPlumbing checks how ValidateDefaultsWith calls the
// plugged validators: OpenAPI only after the ObjectMeta checks pass, CEL
// only after OpenAPI passes, CEL twice (oldSelf = default, then create),
// the surrounding object's default for metadata defaults, and the cost
// budget stopping the walk.
func TestValidateDefaultsWithPlumbing(t *testing.T) {
	s := schematest.Structural(t, `
type: object
properties:
  a: {type: string, default: good}
  b: {type: string, default: bad-openapi}
  c: {type: string, default: bad-cel}
  e:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      metadata:
        type: object
        properties:
          name: {type: string, default: nm}
      kind: {type: string, default: "1"}
`)
	var calls []call
	v := Validators{
		OpenAPI: func(ctx context.Context, pth *field.Path, obj any, s *schema.Structural) field.ErrorList {
			calls = append(calls, call{"openapi", pth.String(), false})
			if obj == "bad-openapi" {
				return field.ErrorList{field.Invalid(pth, obj, "openapi")}
			}
			return nil
		},
		CEL: func(ctx context.Context, pth *field.Path, s *schema.Structural, isRoot bool, obj, old any, budget int64) (field.ErrorList, int64) {
			calls = append(calls, call{"cel", pth.String(), old != nil})
			if obj == "bad-cel" {
				return field.ErrorList{field.Invalid(pth, obj, "cel")}, budget - 1
			}
			return nil, budget - 1
		},
	}
	errs, err := ValidateDefaultsWith(context.Background(), field.NewPath("s"), s, true, true, v)
	if err != nil {
		t.Fatal(err)
	}
	wantErrs := `[s.properties[b].default: Invalid value: "bad-openapi": openapi, s.properties[c].default: Invalid value: "bad-cel": cel, s.properties[e].properties[kind].default: Invalid value: "1": must result in valid metadata: kind: Invalid value: "1": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')]`
	if got := errs.ToAggregate().Error(); got != wantErrs {
		t.Errorf("errors:\n%s\nwant:\n%s", got, wantErrs)
	}
	wantCalls := []call{
		{"openapi", "s.properties[a].default", false},
		{"cel", "s.properties[a].default", true},
		{"cel", "s.properties[a].default", false},
		{"openapi", "s.properties[b].default", false},
		{"openapi", "s.properties[c].default", false},
		{"cel", "s.properties[c].default", true},
		{"openapi", "s.properties[e].properties[metadata].properties[name].default", false},
		{"cel", "s.properties[e].properties[metadata].properties[name].default", true},
		{"cel", "s.properties[e].properties[metadata].properties[name].default", false},
	}
	if fmt.Sprint(calls) != fmt.Sprint(wantCalls) {
		t.Errorf("calls:\n%v\nwant:\n%v", calls, wantCalls)
	}

	// An exhausted budget stops the walk after the first default.
	calls = nil
	v.CEL = func(ctx context.Context, pth *field.Path, s *schema.Structural, isRoot bool, obj, old any, budget int64) (field.ErrorList, int64) {
		calls = append(calls, call{"cel", pth.String(), old != nil})
		return nil, -1
	}
	if _, err := ValidateDefaultsWith(context.Background(), field.NewPath("s"), s, true, true, v); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 {
		t.Errorf("calls after exhaustion: %v", calls)
	}
}

// TestValidateDefaultsDoesNotMutateSchema: the apiserver coerces defaults
// in place; kdv must leave the caller's schema alone.
func TestValidateDefaultsDoesNotMutateSchema(t *testing.T) {
	s := schematest.Structural(t, `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, default: {apiVersion: v1, kind: K, metadata: {name: nm, unknown: 1}}}}}`)
	before := schematest.Indent(s.Properties["e"].Default.Object)
	errs, err := ValidateDefaults(context.Background(), nil, s, true, true)
	if err != nil || len(errs) > 0 {
		t.Fatalf("%v %v", errs, err)
	}
	if after := schematest.Indent(s.Properties["e"].Default.Object); after != before || s.XEmbeddedResource {
		t.Errorf("schema changed: %s -> %s", before, after)
	}
}

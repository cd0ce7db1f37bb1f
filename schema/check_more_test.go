package schema

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

const crdHead = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
`

func TestCheckDocumentBadInput(t *testing.T) {
	for _, tc := range []struct{ name, doc, wantErr, wantField string }{
		{"malformed", "kind: [", "in.yaml: ", ""},
		{"not a CRD", "apiVersion: v1\nkind: ConfigMap\n", `in.yaml: not a CustomResourceDefinition: apiVersion "v1", kind "ConfigMap"`, ""},
		{"v1beta1", "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n", "in.yaml: apiextensions.k8s.io/v1beta1 CustomResourceDefinitions are not supported", ""},
		{"wrong type", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {versions: 3}\n", "in.yaml: decoding CustomResourceDefinition", ""},
		{"no schema", strings.TrimSuffix(crdHead, "    schema:\n      openAPIV3Schema:\n"), "", "spec.versions[0].schema.openAPIV3Schema: Required value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, _, err := CheckDocument("in.yaml", []byte(tc.doc), CheckOptions{})
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want prefix %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(errs) != 1 || errs[0].Error() != tc.wantField {
				t.Errorf("got %v %v, want %q", errs, err, tc.wantField)
			}
		})
	}
}

// TestCheckWarnings: the CRD strategy's WarningsOnCreate texts
// (apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go)
// and unknown schema keys with strict-decoding paths, sorted as the
// apiserver's strict decoder sorts them.
func TestCheckWarnings(t *testing.T) {
	doc := crdHead + `        type: object
        x-kubernetes-foo: 1
        properties:
          a: {type: string, format: bogus}
          b: {type: string, format: date-time}
          c: {type: integer, format: int-or-string}
          d: {type: string, format: bogus}
          e:
            type: array
            x-kubernetes-list-type: set
            items: {type: object, x-kubernetes-map-type: atomic, x-kubernetes-strip-zero: true}
`
	errs, warnings, err := CheckDocument("w.yaml", []byte(doc), CheckOptions{})
	if err != nil || len(errs) != 0 {
		t.Fatalf("%v %v", err, errs)
	}
	want := []string{
		`unknown field "spec.versions[0].schema.openAPIV3Schema.properties.e.items.x-kubernetes-strip-zero"`,
		`unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-foo"`,
		`unrecognized format "bogus"`,
		`unrecognized format "int-or-string"`,
		`x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules`,
	}
	if !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings\n%q\nwant\n%q", warnings, want)
	}
	errs, warnings, _ = CheckDocument("w.yaml", []byte(doc), CheckOptions{StrictUnknownFields: true})
	if len(errs) != 2 || !strings.Contains(errs[1].Error(), `strict decoding error: unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-foo"`) || len(warnings) != 0 {
		t.Errorf("strict: %v %q", errs, warnings)
	}
}

// TestCheckHooks: ValidateDefaults and ValidateSchema run only on
// structural schemas, with the openAPIV3Schema path, in the apiserver's
// order (defaults first; CEL only when defaults pass and no schema error).
func TestCheckHooks(t *testing.T) {
	var calls []string
	opts := CheckOptions{
		ValidateDefaults: func(s *Structural, p *field.Path) field.ErrorList {
			calls = append(calls, "defaults "+p.String())
			if _, ok := s.Properties["baddefault"]; ok {
				return field.ErrorList{field.Invalid(p.Child("properties").Key("baddefault").Child("default"), 1, "bad")}
			}
			return nil
		},
		ValidateSchema: func(s *Structural, p *field.Path) field.ErrorList {
			calls = append(calls, "cel "+p.String())
			return field.ErrorList{field.Invalid(p.Child("x-kubernetes-validations").Index(0).Child("rule"), "x", "compile error")}
		},
	}
	for _, tc := range []struct {
		name, schema string
		calls        []string
		errs         int
	}{
		{"structural", "        type: object\n", []string{"defaults spec.validation.openAPIV3Schema", "cel spec.validation.openAPIV3Schema"}, 1},
		{"non-structural", "        type: object\n        properties: {a: {}}\n", nil, 1},
		{"bad default", "        type: object\n        properties: {baddefault: {type: integer, default: 1}}\n", []string{"defaults spec.validation.openAPIV3Schema"}, 1},
		{"schema error", "        type: object\n        properties: {a: {type: string, uniqueItems: true}}\n", []string{"defaults spec.validation.openAPIV3Schema", "cel spec.validation.openAPIV3Schema"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls = nil
			errs, _, err := CheckDocument("h.yaml", []byte(crdHead+tc.schema), opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(calls, tc.calls) || len(errs) != tc.errs {
				t.Errorf("calls %q errs %v", calls, errs)
			}
		})
	}
}

// TestUnrecognizedFormatAt follows supportedVersionedFormats
// (apiextensions-apiserver pkg/apiserver/validation/formats.go).
func TestUnrecognizedFormatAt(t *testing.T) {
	for _, tc := range []struct {
		minor        int
		typ, format  string
		unrecognized bool
	}{
		{0, "string", "date-time", false},
		{0, "", "uuid4", false},
		{0, "string", "k8s-short-name", false},
		{33, "string", "k8s-short-name", true},
		{34, "string", "k8s-long-name", false},
		{0, "integer", "int32", false},
		{0, "integer", "int16", true},
		{0, "number", "double", false},
		{0, "number", "decimal", true},
		{0, "boolean", "x", true},
		{0, "string", "ipv4", false},
		{0, "string", "ip", true},
	} {
		if got := UnrecognizedFormatAt(tc.minor, tc.typ, tc.format); got != tc.unrecognized {
			t.Errorf("%d %s %s: %v", tc.minor, tc.typ, tc.format, got)
		}
	}
}

// TestUnknownFieldsMatchStrictDecoding: the unknown fields of a CRD
// document, as the apiserver's strict decoder (apimachinery json serializer
// with EnableStrict) reported them for this document:
// strict decoding error: unknown field "metadata.bogus", unknown field ...
func TestUnknownFieldsMatchStrictDecoding(t *testing.T) {
	doc := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
  bogus: 1
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo, kinds: x}
  versions:
  - name: v1
    served: true
    serverd: true
    storage: true
    additionalPrinterColumns: [{name: a, type: string, jsonPath: .a, JSONPath: x}]
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-foo: 1
        properties:
          a: {type: string, x-kubernetes-bar: 2}
        x-kubernetes-validations: [{rule: "self.a", foo: 1}]
`
	want := []string{
		`unknown field "metadata.bogus"`,
		`unknown field "spec.names.kinds"`,
		`unknown field "spec.versions[0].additionalPrinterColumns[0].JSONPath"`,
		`unknown field "spec.versions[0].schema.openAPIV3Schema.properties.a.x-kubernetes-bar"`,
		`unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-foo"`,
		`unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].foo"`,
		`unknown field "spec.versions[0].serverd"`,
	}
	_, warnings, err := CheckDocument("s.yaml", []byte(doc), CheckOptions{})
	if err != nil || !reflect.DeepEqual(warnings, want) {
		t.Errorf("%v\n%q\nwant\n%q", err, warnings, want)
	}
	errs, warnings, _ := CheckDocument("s.yaml", []byte(doc), CheckOptions{StrictUnknownFields: true})
	if len(errs) != len(want) || warnings != nil || errs[0].Error() != `metadata.bogus: Forbidden: strict decoding error: unknown field "metadata.bogus"` {
		t.Errorf("strict: %v %q", errs, warnings)
	}
}

// TestCheckSkipsRulesOnNodesWithSchemaErrors holds the apiserver cases
// "skip CEL expression validation when OpenAPIv3 schema is an invalid
// structural schema at level below", "do not skip when ... in a separate
// part of the schema tree" and "... at level above" of
// TestValidateCustomResourceDefinitionValidation, with a hook that fails
// every rule as an invalid CEL rule would.
func TestCheckSkipsRulesOnNodesWithSchemaErrors(t *testing.T) {
	failAll := func(s *Structural, p *field.Path) field.ErrorList {
		var errs field.ErrorList
		var walk func(s *Structural, p *field.Path)
		walk = func(s *Structural, p *field.Path) {
			for i := range s.XValidations {
				errs = append(errs, field.Invalid(p.Child("x-kubernetes-validations").Index(i).Child("rule"), s.XValidations[i].Rule, "compile error"))
			}
			for _, k := range sortedKeys(s.Properties) {
				v := s.Properties[k]
				walk(&v, p.Child("properties").Key(k))
			}
		}
		walk(s, p)
		return errs
	}
	bad := "{type: object, properties: {field: {type: integer}}, additionalProperties: {type: string}}"
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"level below", "        type: object\n        properties: {field: " + bad + "}\n        x-kubernetes-validations: [{rule: self.invalidFieldName > 50}]\n",
			[]string{"spec.validation.openAPIV3Schema.properties[field].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"}},
		{"separate part", "        type: object\n        properties:\n          a: " + bad + "\n          b: {type: object, properties: {field: {type: integer}}, x-kubernetes-validations: [{rule: self.invalidFieldName > 50}]}\n",
			[]string{"spec.validation.openAPIV3Schema.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
				`spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[0].rule: Invalid value: "self.invalidFieldName > 50": compile error`}},
		{"level above", "        type: object\n        properties:\n          a: {type: object, properties: {b: {type: integer, x-kubernetes-validations: [{rule: \"self == 'abc'\"}]}}, additionalProperties: {type: string}}\n",
			[]string{"spec.validation.openAPIV3Schema.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
				`spec.validation.openAPIV3Schema.properties[a].properties[b].x-kubernetes-validations[0].rule: Invalid value: "self == 'abc'": compile error`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, _, err := CheckDocument("c.yaml", []byte(crdHead+tc.schema), CheckOptions{ValidateSchema: failAll})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestCheckWarningsOnlyWhenValid: the strategy's WarningsOnCreate runs only
// after validation passed (k8s.io/apiserver pkg/registry/rest BeforeCreate),
// decoding warnings always; a namespace on the cluster-scoped CRD is cleared
// before validation (EnsureObjectNamespaceMatchesRequestNamespace).
func TestCheckWarningsOnlyWhenValid(t *testing.T) {
	doc := strings.Replace(crdHead, "  name: foos.example.com\n", "  name: foos.example.com\n  namespace: default\n", 1) +
		"        type: object\n        x-kubernetes-foo: 1\n        properties: {a: {type: string, format: bogus}, b: {}}\n"
	errs, warnings, err := CheckDocument("w.yaml", []byte(doc), CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`unknown field "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-foo"`}
	if len(errs) != 1 || errs[0].Field != "spec.validation.openAPIV3Schema.properties[b].type" || !reflect.DeepEqual(warnings, want) {
		t.Errorf("errs %v warnings %q", errs, warnings)
	}
}

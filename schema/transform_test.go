package schema

import (
	"encoding/json"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

func mustStructural(t *testing.T, y string) *Structural {
	t.Helper()
	p, err := LoadSchema("test.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStructural(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameJSON compares a structural schema with the expected schema YAML.
func sameJSON(t *testing.T, got *Structural, want string) {
	t.Helper()
	gb, _ := json.Marshal(got.ToProps())
	wb, err := yaml.YAMLToJSON([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	_ = json.Unmarshal(gb, &g)
	_ = json.Unmarshal(wb, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", gb, wb)
	}
}

func TestToV2(t *testing.T) {
	// Cases from apiextensions-apiserver pkg/controller/openapi/v2
	// conversion_test.go Test_ConvertJSONSchemaPropsToOpenAPIv2SchemaByType.
	for _, tc := range []struct{ name, in, want string }{
		{"nullable", "type: object\nnullable: true", "{}"},
		{"nullable required", "type: object\nproperties:\n  a: {type: string, nullable: true}\n  b: {type: string, nullable: true}\n  c: {type: string}\nrequired: [a, c]",
			"type: object\nproperties:\n  a: {}\n  b: {}\n  c: {type: string}\nrequired: [c]"},
		{"nullable required additionalProperties", "type: object\nadditionalProperties: {type: string, nullable: true}\nrequired: [a, c]",
			"type: object\nadditionalProperties: {}"},
		{"anyOf", "anyOf:\n- type: string\n- type: integer", "{}"},
		{"nested logic", "type: object\nproperties:\n  a:\n    type: string\n    allOf: [{pattern: x}]\n    oneOf: [{minLength: 1}]\n    not: {maxLength: 2}", "type: object\nproperties:\n  a: {type: string}"},
		{"preserve-unknown-fields in arrays", "type: array\nx-kubernetes-preserve-unknown-fields: true\nitems: {type: string}", "x-kubernetes-preserve-unknown-fields: true"},
		{"preserve-unknown-fields in objects", "type: object\nx-kubernetes-preserve-unknown-fields: true\nproperties:\n  foo: {type: string}", "x-kubernetes-preserve-unknown-fields: true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustStructural(t, tc.in)
			before, _ := json.Marshal(s.ToProps())
			sameJSON(t, ToV2(s), tc.want)
			after, _ := json.Marshal(s.ToProps())
			if string(before) != string(after) {
				t.Errorf("ToV2 modified its input")
			}
		})
	}
}

func TestUnfold(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		// apiserver unfold.go: plain int-or-string gets the anyOf pattern.
		{"int-or-string", "x-kubernetes-int-or-string: true",
			"x-kubernetes-int-or-string: true\nanyOf: [{type: integer}, {type: string}]"},
		// anyOf taken: prepended to allOf.
		{"int-or-string with anyOf", "x-kubernetes-int-or-string: true\nanyOf: [{pattern: a}]",
			"x-kubernetes-int-or-string: true\nanyOf: [{pattern: a}]\nallOf: [{anyOf: [{type: integer}, {type: string}]}]"},
		// already unfolded: unchanged.
		{"int-or-string pattern", "x-kubernetes-int-or-string: true\nallOf: [{anyOf: [{type: integer}, {type: string}]}, {pattern: x}]",
			"x-kubernetes-int-or-string: true\nallOf: [{anyOf: [{type: integer}, {type: string}]}, {pattern: x}]"},
		{"embedded resource", "type: object\nproperties:\n  e:\n    type: object\n    x-kubernetes-embedded-resource: true\n    x-kubernetes-preserve-unknown-fields: true",
			"type: object\nproperties:\n  e:\n    type: object\n    x-kubernetes-embedded-resource: true\n    x-kubernetes-preserve-unknown-fields: true\n    required: [kind, apiVersion]\n    properties:\n      apiVersion: {type: string, description: \"" + embeddedAPIVersionDescription + "\"}\n      kind: {type: string, description: \"" + embeddedKindDescription + "\"}\n      metadata: {type: object, description: \"" + embeddedMetadataDescription + "\"}"},
		{"union with discriminator", "type: object\nproperties:\n  type: {type: string}\n  a: {type: string}\n  b: {type: integer}\nx-kubernetes-unions:\n- discriminator: type\n  fields-to-discriminateBy: {a: A, b: B}",
			"type: object\nproperties:\n  type: {type: string, enum: [A, B]}\n  a: {type: string}\n  b: {type: integer}\nx-kubernetes-unions:\n- discriminator: type\n  fields-to-discriminateBy: {a: A, b: B}\nallOf:\n- oneOf:\n  - required: [a]\n    properties: {type: {enum: [A]}}\n  - required: [b]\n    properties: {type: {enum: [B]}}"},
		{"zero or one of", "type: object\nproperties:\n  a: {type: string}\n  b: {type: string}\nx-kubernetes-unions:\n- fields-to-discriminateBy: {a: '', b: ''}\n  zeroOrOneOf: true",
			"type: object\nproperties:\n  a: {type: string}\n  b: {type: string}\nx-kubernetes-unions:\n- fields-to-discriminateBy: {a: '', b: ''}\n  zeroOrOneOf: true\nallOf:\n- oneOf:\n  - required: [a]\n  - required: [b]\n  - not: {anyOf: [{required: [a]}, {required: [b]}]}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := Unfold(mustStructural(t, tc.in))
			sameJSON(t, u, tc.want)
			if errs := ValidateStructural(nil, u); len(errs) > 0 && tc.name != "int-or-string with anyOf" {
				t.Errorf("unfolded schema not structural: %v", errs)
			}
		})
	}
}

func TestSkeleton(t *testing.T) {
	in := "type: object\nproperties:\n  a:\n    type: string\n    pattern: x\n    x-kubernetes-validations: [{rule: 'self != \"\"'}]\n  b:\n    type: array\n    maxItems: 3\n    items: {type: integer, minimum: 1}\nrequired: [a]\nanyOf:\n- properties:\n    c: {minLength: 1}\n- properties:\n    a: {maxLength: 2}"
	want := "type: object\nproperties:\n  a:\n    type: string\n    x-kubernetes-validations: [{rule: 'self != \"\"'}]\n  b:\n    type: array\n    items: {type: integer}\n  c: {}"
	sameJSON(t, Skeleton(mustStructural(t, in)), want)
}

// TestTransformsCorpus: on every corpus schema, the skeleton has no value
// validation left and keeps the property tree; Unfold leaves the schema
// structural; ToV2 leaves no junctor.
func TestTransformsCorpus(t *testing.T) {
	for name, c := range parsedCorpusCRDs(t) {
		for _, v := range c.Spec.Versions {
			s, err := v.Structural()
			if err != nil {
				t.Fatal(err)
			}
			sk := Skeleton(s)
			if countNodes(sk) != countNodes(s) {
				t.Errorf("%s %s: skeleton has %d nodes, schema %d", name, v.Name, countNodes(sk), countNodes(s))
			}
			visit(sk, func(n *Structural) {
				if n.ValueValidation != nil {
					t.Errorf("%s %s: value validation left in skeleton", name, v.Name)
				}
			})
			if errs := ValidateStructural(nil, Unfold(s)); len(errs) > 0 {
				t.Errorf("%s %s: unfolded not structural: %v", name, v.Name, errs)
			}
			visit(ToV2(s), func(n *Structural) {
				if vv := n.ValueValidation; vv != nil && (vv.AllOf != nil || vv.AnyOf != nil || vv.OneOf != nil || vv.Not != nil) {
					t.Errorf("%s %s: junctor left by ToV2", name, v.Name)
				}
			})
		}
	}
}

func countNodes(s *Structural) int {
	n := 0
	visit(s, func(*Structural) { n++ })
	return n
}

// TestCorpusRawRoundTrip: raw YAML -> Props -> JSON is the raw document's
// schema, semantically (numbers compared as JSON numbers).
func TestCorpusRawRoundTrip(t *testing.T) {
	for name, doc := range corpusCRDs(t) {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Spec struct {
				Versions []struct {
					Schema struct {
						OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
					} `json:"schema"`
				} `json:"versions"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(j, &raw); err != nil {
			t.Fatal(err)
		}
		for i, v := range raw.Spec.Versions {
			p, err := LoadSchema(name, v.Schema.OpenAPIV3Schema)
			if err != nil {
				t.Fatal(err)
			}
			back, _ := json.Marshal(p)
			var a, b any
			_ = json.Unmarshal(v.Schema.OpenAPIV3Schema, &a)
			_ = json.Unmarshal(back, &b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s versions[%d]: raw -> Props -> JSON differs", name, i)
			}
		}
	}
}

func TestPropsDeepCopyCorpus(t *testing.T) {
	for name, c := range parsedCorpusCRDs(t) {
		p := c.Spec.Versions[0].Schema.OpenAPIV3Schema
		a, _ := json.Marshal(p)
		cp := p.DeepCopy()
		b, _ := json.Marshal(cp)
		if string(a) != string(b) {
			t.Errorf("%s: DeepCopy differs", name)
		}
		walkProps(cp, func(s *Props) { s.Description = "changed"; s.Required = nil })
		if a2, _ := json.Marshal(p); string(a2) != string(a) {
			t.Errorf("%s: DeepCopy shares state with the original", name)
		}
	}
}

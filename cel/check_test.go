package cel

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// match is the apiserver's validationMatch: an error type at a path.
type match struct {
	typ  field.ErrorType
	path string
}

func forbidden(p string) match { return match{field.ErrorTypeForbidden, p} }
func invalid(p string) match   { return match{field.ErrorTypeInvalid, p} }

// TestCheckSchema mirrors the CEL cases of the apiserver's
// TestValidateCustomResourceDefinitionValidation
// (pkg/apis/apiextensions/validation/validation_test.go, case names kept).
func TestCheckSchema(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		want   []match
	}{
		{name: "invalid rule in x-kubernetes-validations",
			schema: `
				type: object
				properties:
					subRoot:
						type: string
						x-kubernetes-validations:
						- {rule: "self == true", message: "subRoot should be true."}
						- {rule: "self.endsWith('s')", message: "subRoot should end with 's'."}
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[subRoot].x-kubernetes-validations[0].rule")},
		},
		{name: "forbid transition rule on element of list of type atomic",
			schema: `
				type: object
				properties:
					value:
						type: array
						x-kubernetes-list-type: atomic
						items:
							type: string
							maxLength: 10
							x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule")},
		},
		{name: "forbid transition rule on element of list defaulting to type atomic",
			schema: `
				type: object
				properties:
					value:
						type: array
						items:
							type: string
							maxLength: 10
							x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule")},
		},
		{name: "allow transition rule on list of type atomic",
			schema: `
				type: object
				properties:
					value:
						type: array
						x-kubernetes-list-type: atomic
						maxItems: 10
						items: {type: string, maxLength: 10}
						x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
		},
		{name: "forbid transition rule on element of list of type set",
			schema: `
				type: object
				properties:
					value:
						type: array
						x-kubernetes-list-type: set
						maxItems: 10
						items:
							type: string
							maxLength: 10
							x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule")},
		},
		{name: "allow transition rule on element of list of type map",
			schema: `
				type: object
				properties:
					value:
						type: array
						x-kubernetes-list-type: map
						x-kubernetes-list-map-keys: [name]
						maxItems: 10
						items:
							type: object
							required: [name]
							properties:
								name: {type: string, maxLength: 5}
							x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
		},
		{name: "allow transition rule on element of map of type granular",
			schema: `
				type: object
				properties:
					value:
						type: object
						x-kubernetes-map-type: granular
						properties:
							subfield:
								type: string
								maxLength: 10
								x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
		},
		{name: "allow transition rule on element of map of type atomic",
			schema: `
				type: object
				properties:
					value:
						type: object
						x-kubernetes-map-type: atomic
						properties:
							subfield:
								type: object
								x-kubernetes-validations: [{rule: "self == oldSelf"}]
				`,
		},
		{name: "forbid double-nested rule with no limit set",
			schema: `
				type: object
				properties:
					value:
						type: array
						items:
							type: object
							additionalProperties:
								type: object
								required: [key]
								properties:
									key: {type: string}
						x-kubernetes-validations: [{rule: "self.all(x, x.all(y, x[y].key == x[y].key))"}]
				`,
			want: []match{
				forbidden("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema"),
			},
		},
		{name: "forbid double-nested rule with one limit set",
			schema: `
				type: object
				properties:
					value:
						type: array
						items:
							type: object
							additionalProperties:
								type: object
								required: [key]
								properties:
									key: {type: string, maxLength: 10}
						x-kubernetes-validations: [{rule: "self.all(x, x.all(y, x[y].key == x[y].key))"}]
				`,
			want: []match{
				forbidden("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema"),
			},
		},
		{name: "allow double-nested rule with three limits set",
			schema: `
				type: object
				properties:
					value:
						type: array
						maxItems: 10
						items:
							type: object
							maxProperties: 10
							additionalProperties:
								type: object
								required: [key]
								properties:
									key: {type: string, maxLength: 10}
						x-kubernetes-validations: [{rule: "self.all(x, x.all(y, x[y].key == x[y].key))"}]
				`,
		},
		{name: "allow double-nested rule with one limit set on outermost array",
			schema: `
				type: object
				properties:
					value:
						type: array
						maxItems: 4
						items:
							type: object
							additionalProperties:
								type: object
								required: [key]
								properties:
									key: {type: number}
						x-kubernetes-validations: [{rule: "self.all(x, x.all(y, x[y].key == x[y].key))"}]
				`,
		},
		{name: "check for cardinality of 1 under root object",
			schema: `
				type: object
				properties:
					value: {type: integer, x-kubernetes-validations: [{rule: "self < 1024"}]}
				`,
		},
		{name: "forbid validation rules where cost total exceeds total limit",
			schema: `
				type: object
				properties:
					list:
						type: array
						maxItems: 100000
						items:
							type: string
							maxLength: 5000
							x-kubernetes-validations: [{rule: "self.contains('keyword')"}]
					map:
						type: object
						maxProperties: 1000
						additionalProperties:
							type: string
							maxLength: 5000
							x-kubernetes-validations: [{rule: "self.contains('keyword')"}]
					field:
						type: integer
						x-kubernetes-validations: [{rule: "self > 50 && self < 100"}]
				`,
			want: []match{
				forbidden("spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema.properties[map].additionalProperties.x-kubernetes-validations[0].rule"),
				forbidden("spec.validation.openAPIV3Schema"),
			},
		},
		{name: "x-kubernetes-validations rule validated for escaped property name",
			schema: `
				type: object
				properties:
					"f/2": {type: string}
				x-kubernetes-validations: [{rule: "self.f__slash__2 == 1"}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule")},
		},
		{name: "x-kubernetes-validations rule validated under array items",
			schema: `
				type: object
				properties:
					a:
						type: array
						items: {type: string, x-kubernetes-validations: [{rule: "self == 1"}]}
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[a].items.x-kubernetes-validations[0].rule")},
		},
		{name: "x-kubernetes-validations rule validated under unescapable property name",
			schema: `
				type: object
				properties:
					"f@2": {type: string, x-kubernetes-validations: [{rule: "self == 1"}]}
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[f@2].x-kubernetes-validations[0].rule")},
		},
		{name: "x-kubernetes-validations rule invalidated by messageExpression syntax error",
			schema: `
				type: object
				properties:
					f: {type: string, x-kubernetes-validations: [{rule: "self == \"string value\"", messageExpression: "\"hello\" + "}]}
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression")},
		},
		{name: "x-kubernetes-validations rule invalidated by messageExpression not returning a string",
			schema: `
				type: object
				properties:
					f: {type: string, x-kubernetes-validations: [{rule: "self == \"string value\"", messageExpression: "1 + 1"}]}
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression")},
		},
		{name: "x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit",
			schema: `
				type: object
				properties:
					f:
						type: array
						items: {type: string}
						x-kubernetes-validations: [{rule: "true", messageExpression: "self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]"}]
				`,
			want: []match{forbidden("spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression")},
		},
		{name: "x-kubernetes-validations rule with lowerAscii check should be within estimated cost limit",
			schema: `
				type: object
				properties:
					f:
						type: array
						maxItems: 5
						items: {type: string, maxLength: 5}
						x-kubernetes-validations: [{rule: "self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))"}]
				`,
		},
		{name: "x-kubernetes-validations rule referencing metadata.name and generateName is within estimated cost limit",
			schema: `
				type: object
				x-kubernetes-validations: [{rule: "self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)"}]
				`,
		},
		{name: "x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit",
			schema: `
				type: object
				properties:
					f:
						type: array
						items: {type: string}
						x-kubernetes-validations: [{rule: "true", messageExpression: "string(self[0]) + string(self[1]) + string(self[2])"}]
				`,
			want: []match{
				forbidden("spec.validation.openAPIV3Schema"),
				forbidden("spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression"),
				forbidden("spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression"),
			},
		},
		{name: "forbid transition rule on element of list of type atomic when optionalOldSelf is set",
			schema: `
				type: object
				properties:
					value:
						type: array
						x-kubernetes-list-type: atomic
						items:
							type: string
							maxLength: 10
							x-kubernetes-validations: [{rule: "self == oldSelf.orValue(\"\")", optionalOldSelf: true}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule")},
		},
		{name: "forbid setting optionalOldSelf to true if oldSelf is not used",
			schema: `
				type: object
				properties:
					value:
						type: string
						maxLength: 10
						x-kubernetes-validations: [{rule: "self == \"foo\"", optionalOldSelf: true}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].optionalOldSelf")},
		},
		{name: "forbid setting optionalOldSelf to false if oldSelf is not used",
			schema: `
				type: object
				properties:
					value:
						type: string
						maxLength: 10
						x-kubernetes-validations: [{rule: "self == \"foo\"", optionalOldSelf: false}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].optionalOldSelf")},
		},
		{name: "rules under allOf are not compiled (x-kubernetes-validations is forbidden there by structural checks)",
			schema: `
				type: object
				allOf:
				- x-kubernetes-validations: [{rule: "self == 1"}]
				properties:
					a: {type: string}
				`,
		},
		// Not an apiserver test case: its verdict, checked with the real
		// ValidateCustomResourceDefinition (bench.CheckCRD): schema errors
		// of a node (additionalProperties with properties, uniqueItems)
		// keep the rules of the node and its ancestors from compiling,
		// but not a sibling's.
		{name: "schema errors suppress the rules of the node and its ancestors",
			schema: `
				type: object
				x-kubernetes-validations: [{rule: "self.nope == 1"}]
				properties:
					m:
						type: object
						properties: {a: {type: string}}
						additionalProperties: {type: string}
						x-kubernetes-validations: [{rule: "self.nope == 1"}]
					u:
						type: array
						uniqueItems: true
						items: {type: string}
					other:
						type: string
						x-kubernetes-validations: [{rule: "self.nope == 1"}]
				`,
			want: []match{invalid("spec.validation.openAPIV3Schema.properties[other].x-kubernetes-validations[0].rule")},
		},
	}
	root := field.NewPath("spec", "validation", "openAPIV3Schema")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := CheckSchema(yamlSchema(t, c.schema), root, Options{})
			var got, want []string
			for _, e := range errs {
				got = append(got, fmt.Sprintf("%s %s", e.Type, e.Field))
			}
			for _, m := range c.want {
				want = append(want, fmt.Sprintf("%s %s", m.typ, m.path))
			}
			sort.Strings(got)
			sort.Strings(want)
			if !equalStrings(got, want) {
				t.Errorf("got  %q\nwant %q\n%v", got, want, errs)
			}
		})
	}
}

// TestCheckSchemaMessages checks exact messages of CRD-time errors against
// the apiserver's formats (validation.go getCostErrorMessage, the oldSelf
// and optionalOldSelf messages, cel.Compile's details).
func TestCheckSchemaMessages(t *testing.T) {
	root := field.NewPath("spec", "validation", "openAPIV3Schema")
	s := yamlSchema(t, `
		type: object
		properties:
			value:
				type: array
				items:
					type: string
					maxLength: 10
					x-kubernetes-validations: [{rule: "self == oldSelf"}]
			b:
				type: string
				x-kubernetes-validations: [{rule: "self"}, {rule: "self == 'x'", optionalOldSelf: true}, {rule: "true", messageExpression: "1"}]
		`)
	got := errStrings(CheckSchema(s, root, Options{}))
	want := sorted([]string{
		`spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[value]`,
		`spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: cel expression must evaluate to a bool`,
		`spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[1].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
		`spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[2].messageExpression: Invalid value: {"Rule":"true","Message":"","MessageExpression":"1","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
	})
	if !equalStrings(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// the cost message: factor with one decimal between 1.5 and 100, six
	// below 1.5, "more than 100x" above
	for _, c := range []struct {
		cost uint64
		want string
	}{
		{32000000, "estimated rule cost exceeds budget by factor of 3.2x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
		{12000000, "estimated rule cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
		{1000000001, "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
	} {
		if got := getCostErrorMessage("estimated rule cost", c.cost, StaticEstimatedCostLimit); got != c.want {
			t.Errorf("%d: %s", c.cost, got)
		}
	}
}

// TestCostInfo mirrors the apiserver's TestCostInfo: the cardinality of a
// leaf below nested lists and maps.
func TestCostInfo(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		want   uint64 // 0: unbounded
	}{
		{"object", `{type: object, properties: {l: {type: string}}}`, 1},
		{"array", `{type: array, maxItems: 5, items: {type: string}}`, 5},
		{"unbounded array", `{type: array, items: {type: string}}`, 0},
		{"map", `{type: object, maxProperties: 10, additionalProperties: {type: string}}`, 10},
		{"array inside map", `{type: object, maxProperties: 5, additionalProperties: {type: array, maxItems: 5, items: {type: string}}}`, 25},
		{"unbounded array inside bounded map", `{type: object, maxProperties: 5, additionalProperties: {type: array, items: {type: string}}}`, 0},
		{"map inside object inside array", `{type: array, maxItems: 2, items: {type: object, properties: {m: {type: object, maxProperties: 4, additionalProperties: {type: string}}}}}`, 8},
	}
	for _, c := range cases {
		s := yamlSchema(t, c.schema)
		one := uint64(1)
		ctx := &checkContext{schema: s, maxCardinality: &one}
		cur := s
		for {
			if cur.Items != nil {
				ctx, cur = ctx.child(cur.Items, nil), cur.Items
			} else if cur.AdditionalProperties != nil && cur.AdditionalProperties.Structural != nil {
				ctx, cur = ctx.child(cur.AdditionalProperties.Structural, nil), cur.AdditionalProperties.Structural
			} else if len(cur.Properties) == 1 {
				for _, p := range cur.Properties {
					p := p
					ctx, cur = ctx.child(&p, nil), &p
				}
			} else {
				break
			}
		}
		var got uint64
		if ctx.maxCardinality != nil {
			got = *ctx.maxCardinality
		}
		if got != c.want {
			t.Errorf("%s: cardinality %d, want %d", c.name, got, c.want)
		}
	}
}

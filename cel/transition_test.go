package cel

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestTransitionCorrelation: oldSelf is bound to the old value correlated
// by property name, map key, and list-map key (whatever the item order);
// items of atomic lists and sets have no old value, so their transition
// rules are skipped (apiserver validation.go validateMap/validateArray,
// common.MakeMapList).
func TestTransitionCorrelation(t *testing.T) {
	cases := []struct {
		name, schema, obj, old string
		want                   []string
	}{
		{name: "property",
			schema: `{type: object, properties: {v: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf", message: immutable}]}}}`,
			obj:    `{v: b}`, old: `{v: a}`,
			want: []string{`root.v: Invalid value: "b": immutable`}},
		{name: "property added on update has no old value",
			schema: `{type: object, properties: {v: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf", message: immutable}]}}}`,
			obj:    `{v: b}`, old: `{}`},
		{name: "map key",
			schema: `{type: object, additionalProperties: {type: integer, x-kubernetes-validations: [{rule: "self >= oldSelf", message: may not decrease}]}}`,
			obj:    `{a: 1, b: 5, c: 0}`, old: `{a: 2, b: 4}`,
			want: []string{`root[a]: Invalid value: 1: may not decrease`}},
		{name: "list-map key, reordered",
			schema: `
				type: array
				x-kubernetes-list-type: map
				x-kubernetes-list-map-keys: [name]
				items:
					type: object
					properties:
						name: {type: string}
						port: {type: integer}
					x-kubernetes-validations: [{rule: "self.port == oldSelf.port", message: port is immutable}]
				`,
			obj: `[{name: b, port: 2}, {name: a, port: 10}, {name: c, port: 3}]`, old: `[{name: a, port: 1}, {name: b, port: 2}]`,
			want: []string{`root[1]: Invalid value: port is immutable`}},
		{name: "list-map with two keys",
			schema: `
				type: array
				x-kubernetes-list-type: map
				x-kubernetes-list-map-keys: [name, protocol]
				items:
					type: object
					properties:
						name: {type: string}
						protocol: {type: string}
						port: {type: integer, x-kubernetes-validations: [{rule: "self == oldSelf", message: port is immutable}]}
				`,
			obj: `[{name: a, protocol: UDP, port: 2}, {name: a, protocol: TCP, port: 1}]`, old: `[{name: a, protocol: TCP, port: 1}, {name: a, protocol: UDP, port: 1}]`,
			want: []string{`root[0].port: Invalid value: 2: port is immutable`}},
		{name: "set items are not correlated",
			schema: `{type: array, x-kubernetes-list-type: set, items: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf"}]}}`,
			obj:    `[a, b]`, old: `[b, c]`},
		{name: "atomic list items are not correlated",
			schema: `{type: array, items: {type: object, properties: {x: {type: integer}}, x-kubernetes-validations: [{rule: "self.x == oldSelf.x"}]}}`,
			obj:    `[{x: 1}]`, old: `[{x: 2}]`},
		{name: "rule on atomic list itself",
			schema: `{type: array, items: {type: string}, x-kubernetes-validations: [{rule: "size(self) >= size(oldSelf)", message: may not shrink}]}`,
			obj:    `[a]`, old: `[a, b]`,
			want: []string{`root: Invalid value: may not shrink`}},
		{name: "mixed rules: oldSelf skipped on create, others run",
			schema: `{type: object, properties: {v: {type: string}}, x-kubernetes-validations: [{rule: "self.v == oldSelf.v"}, {rule: "self.v != 'x'"}]}`,
			obj:    `{v: x}`,
			want:   []string{`root: Invalid value: failed rule: self.v != 'x'`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := yamlSchema(t, c.schema)
			v, _ := NewValidator(s, false, Options{SkipCheck: true})
			errs, _ := v.Validate(context.Background(), field.NewPath("root"), yamlObj(t, c.obj), yamlObj(t, c.old), RuntimeCELCostBudget)
			assertSameAsTracked(t, c.name, v, field.NewPath("root"), yamlObj(t, c.obj), yamlObj(t, c.old), RuntimeCELCostBudget)
			if got := errStrings(errs); !equalStrings(got, sorted(c.want)) {
				t.Errorf("got  %q\nwant %q", got, sorted(c.want))
			}
		})
	}
}

// TestOptionalOldSelfIsOptionalType mirrors the apiserver's test of the
// same name: with optionalOldSelf, oldSelf is optional_type(T).
func TestOptionalOldSelfIsOptionalType(t *testing.T) {
	cases := []struct{ name, schema, rule, obj, want string }{
		{"forbid direct usage of optional integer", `{type: integer}`, `oldSelf + self > 5`, `5`, "no matching overload for '_+_' applied to '(optional_type(int), int)"},
		{"forbid direct usage of optional string", `{type: string}`, `oldSelf == "foo"`, `bar`, "no matching overload for '_==_' applied to '(optional_type(string), string)"},
		{"forbid direct usage of optional array", `{type: array, items: {type: string}}`, `oldSelf.all(x, x == x)`, `[bar]`, "expression of type 'optional_type(list(string))' cannot be range of a comprehension"},
		{"forbid direct usage of optional struct", `{type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [key], items: {type: object, properties: {key: {type: string}, value: {type: string}}}}`, `oldSelf.key == "foo"`, `[{key: bar, value: baz}]`, "does not support field selection"},
	}
	tr := true
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := withRule(yamlSchema(t, c.schema), c.rule)
			s.XValidations[0].OptionalOldSelf = &tr
			v, _ := NewValidator(s, false, Options{SkipCheck: true})
			obj := yamlObj(t, c.obj)
			errs, _ := v.Validate(context.Background(), field.NewPath("root"), obj, obj, RuntimeCELCostBudget)
			if len(errs) != 1 || errs[0].Type != field.ErrorTypeInvalid || !strings.Contains(errs[0].Error(), c.want) {
				t.Errorf("got %v, want %q", errs, c.want)
			}
		})
	}
}

// TestRatchetingFeatureGate: before 1.30 CRDValidationRatcheting is off by
// default: unchanged invalid values fail and optionalOldSelf rules are
// skipped when there is no old value (apiserver validation.go).
func TestRatchetingFeatureGate(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
			foo:
				type: string
				x-kubernetes-validations:
				- {rule: self == "bar", message: gotta be bar}
				- {rule: "oldSelf.hasValue()", optionalOldSelf: true, message: needs old}
		`)
	obj := map[string]any{"foo": "baz"}
	for _, c := range []struct {
		minor          int
		create, update []string
	}{
		{37, []string{`root.foo: Invalid value: "baz": gotta be bar`, `root.foo: Invalid value: "baz": needs old`}, nil},
		{30, []string{`root.foo: Invalid value: "baz": gotta be bar`, `root.foo: Invalid value: "baz": needs old`}, nil},
		{29, []string{`root.foo: Invalid value: "baz": gotta be bar`}, []string{`root.foo: Invalid value: "baz": gotta be bar`}},
	} {
		v, _ := NewValidator(s, true, Options{SkipCheck: true, KubernetesMinor: c.minor})
		errs, _ := v.Validate(context.Background(), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
		if got := errStrings(errs); !equalStrings(got, sorted(c.create)) {
			t.Errorf("1.%d create: %q", c.minor, got)
		}
		errs, _ = v.Validate(context.Background(), field.NewPath("root"), obj, obj, RuntimeCELCostBudget)
		if got := errStrings(errs); !equalStrings(got, sorted(c.update)) {
			t.Errorf("1.%d update: %q", c.minor, got)
		}
	}
}

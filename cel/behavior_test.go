package cel

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func errStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	sort.Strings(out)
	return out
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRatcheting mirrors the apiserver's TestRatcheting (validation_test.go):
// errors of rules without oldSelf on values equal to their correlated old
// value become warnings; expectations are the apiserver's exact strings.
func TestRatcheting(t *testing.T) {
	cases := []struct {
		name             string
		schema           string
		oldObj, newObj   string
		errors, warnings []string
		budget           int64
	}{
		{name: "normal CEL expression",
			schema: `
				type: object
				properties:
					foo:
						type: string
						x-kubernetes-validations:
						- rule: self == "bar"
						  message: "gotta be bar"
				`,
			oldObj:   `foo: baz`,
			newObj:   `foo: baz`,
			warnings: []string{`root.foo: Invalid value: "baz": gotta be bar`},
		},
		{name: "normal CEL expression thats a descendent of an atomic array whose parent is totally unchanged",
			schema: `
				type: array
				x-kubernetes-list-type: atomic
				items:
					type: object
					properties:
						bar:
							type: string
							x-kubernetes-validations:
							- rule: self == "baz"
							  message: "gotta be baz"
				`,
			oldObj:   `[{bar: bar}]`,
			newObj:   `[{bar: bar}]`,
			warnings: []string{`root[0].bar: Invalid value: "bar": gotta be baz`},
		},
		{name: "normal CEL expression thats a descendent of a set and one of its siblings has changed",
			schema: `
				type: object
				properties:
					stringField:
						type: string
					setArray:
						type: array
						x-kubernetes-list-type: set
						items:
							type: number
							x-kubernetes-validations:
							- rule: int(self) % 2 == 1
							  message: "gotta be odd"
				`,
			oldObj:   `{stringField: foo, setArray: [1, 3, 2]}`,
			newObj:   `{stringField: changed but ratcheted, setArray: [1, 3, 2]}`,
			warnings: []string{`root.setArray[2]: Invalid value: 2: gotta be odd`},
		},
		{name: "descendent of a map list whose siblings have changed",
			schema: `
				type: array
				x-kubernetes-list-type: map
				x-kubernetes-list-map-keys: ["key"]
				items:
					type: object
					properties:
						key:
							type: string
						value:
							type: string
							x-kubernetes-validations:
							- rule: self == "baz"
							  message: "gotta be baz"
				`,
			oldObj:   `[{key: foo, value: notbaz}, {key: bar, value: notbaz}]`,
			newObj:   `[{key: foo, value: baz}, {key: bar, value: notbaz}]`,
			warnings: []string{`root[1].value: Invalid value: "notbaz": gotta be baz`},
		},
		{name: "descendent of a map whose siblings have changed",
			schema: `
				type: object
				properties:
					stringField:
						type: string
					mapField:
						type: object
						properties:
							foo:
								type: string
								x-kubernetes-validations:
								- rule: self == "baz"
								  message: "gotta be baz"
							mapField:
								type: object
								properties:
									bar:
										type: string
										x-kubernetes-validations:
										- rule: self == "baz"
										  message: "gotta be baz"
									otherBar:
										type: string
										x-kubernetes-validations:
										- rule: self == "otherBaz"
										  message: "gotta be otherBaz"
				`,
			oldObj:   `{stringField: foo, mapField: {foo: baz, mapField: {bar: notbaz, otherBar: nototherBaz}}}`,
			newObj:   `{stringField: foo, mapField: {foo: notbaz, mapField: {bar: notbaz, otherBar: otherBaz}}}`,
			errors:   []string{`root.mapField.foo: Invalid value: "notbaz": gotta be baz`},
			warnings: []string{`root.mapField.mapField.bar: Invalid value: "notbaz": gotta be baz`},
		},
		{name: "we can't ratchet a normal CEL expression from an uncorrelatable part of the schema whose parent nodes has changed",
			schema: `
				type: array
				x-kubernetes-list-type: atomic
				items:
					type: object
					properties:
						bar:
							type: string
							x-kubernetes-validations:
							- rule: self == "baz"
							  message: "gotta be baz"
				`,
			oldObj: `[{bar: bar}]`,
			newObj: `[{bar: bar}, {bar: baz}]`,
			errors: []string{`root[0].bar: Invalid value: "bar": gotta be baz`},
		},
		{name: "transition rules never ratchet for correlatable schemas",
			schema: `
				type: object
				properties:
					foo:
						type: string
						x-kubernetes-validations:
						- rule: oldSelf != "bar" && self == "baz"
						  message: gotta be baz
				`,
			oldObj: `foo: bar`,
			newObj: `foo: bar`,
			errors: []string{`root.foo: Invalid value: "bar": gotta be baz`},
		},
		{name: "changing field path does not change ratcheting logic",
			schema: `
				type: object
				x-kubernetes-validations:
				- rule: self.foo == "baz"
				  message: gotta be baz
				  fieldPath: ".foo"
				properties:
					bar:
						type: string
					foo:
						type: string
				`,
			oldObj: `foo: bar`,
			newObj: `{foo: bar, bar: invalid}`,
			errors: []string{`root.foo: Invalid value: gotta be baz`},
		},
		{name: "cost budget errors are not ratcheted",
			schema: `
				type: string
				minLength: 5
				x-kubernetes-validations:
				- rule: self == "baz"
				  message: gotta be baz
				`,
			oldObj: `unchanged`,
			newObj: `unchanged`,
			budget: 1,
			errors: []string{`root: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run`},
		},
		{name: "compile errors are not ratcheted",
			schema: `
				type: string
				x-kubernetes-validations:
				- rule: asdausidyhASDNJm
				  message: gotta be baz
				`,
			oldObj: `unchanged`,
			newObj: `unchanged`,
			errors: []string{"root: Invalid value: \"string\": rule compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'asdausidyhASDNJm' (in container '')\n | asdausidyhASDNJm\n | ^"},
		},
		{name: "typemeta fields are not ratcheted",
			schema: `
				type: object
				properties:
					apiVersion:
						type: string
						x-kubernetes-validations:
						- rule: self == "v1"
					kind:
						type: string
						x-kubernetes-validations:
						- rule: self == "Pod"
				`,
			oldObj: `{apiVersion: v2, kind: Baz}`,
			newObj: `{apiVersion: v2, kind: Baz}`,
			errors: []string{
				`root.apiVersion: Invalid value: "v2": failed rule: self == "v1"`,
				`root.kind: Invalid value: "Baz": failed rule: self == "Pod"`,
			},
		},
		{name: "nested typemeta fields may still be ratcheted",
			schema: `
				type: object
				properties:
					subField:
						type: object
						properties:
							apiVersion:
								type: string
								x-kubernetes-validations:
								- rule: self == "v1"
							otherField:
								type: string
				`,
			oldObj:   `{subField: {apiVersion: v2}}`,
			newObj:   `{subField: {apiVersion: v2, otherField: newValue}}`,
			warnings: []string{`root.subField.apiVersion: Invalid value: "v2": failed rule: self == "v1"`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := yamlSchema(t, c.schema)
			v, _ := NewValidator(s, false, Options{SkipCheck: true})
			budget := c.budget
			if budget == 0 {
				budget = RuntimeCELCostBudget
			}
			errs, warnings, _ := v.ValidateWithWarnings(context.Background(), field.NewPath("root"), yamlObj(t, c.newObj), yamlObj(t, c.oldObj), budget)
			if got := errStrings(errs); !equalStrings(got, sorted(c.errors)) {
				t.Errorf("errors:\n got %q\nwant %q", got, sorted(c.errors))
			}
			if got := sorted(warnings); !equalStrings(got, sorted(c.warnings)) {
				t.Errorf("warnings:\n got %q\nwant %q", got, sorted(c.warnings))
			}
			// Validate drops the ratcheted errors
			errs2, _ := v.Validate(context.Background(), field.NewPath("root"), yamlObj(t, c.newObj), yamlObj(t, c.oldObj), budget)
			if len(errs2) != len(errs) {
				t.Errorf("Validate returned %d errors, ValidateWithWarnings %d", len(errs2), len(errs))
			}
			assertSameAsTracked(t, c.name, v, field.NewPath("root"), yamlObj(t, c.newObj), yamlObj(t, c.oldObj), budget)
		})
	}
}

// TestMessageExpression mirrors the apiserver's TestMessageExpression: rule
// "false" on {str: "a string"} with the given message and messageExpression.
func TestMessageExpression(t *testing.T) {
	cases := []struct {
		name              string
		message           string
		messageExpression string
		budget            int64
		perCallLimit      uint64
		want              string
		wantRemaining     int64
	}{
		{name: "no cost error expected", messageExpression: `"static string"`, budget: 300, want: "root: Invalid value: static string", wantRemaining: 300},
		{name: "messageExpression takes precedence over message", message: "invisible", messageExpression: `"this is messageExpression"`, want: "root: Invalid value: this is messageExpression"},
		{name: "default rule message used if messageExpression does not eval to string", messageExpression: `true`, want: "root: Invalid value: failed rule: false", wantRemaining: RuntimeCELCostBudget},
		{name: "limit exceeded", messageExpression: `"string 1" + "string 2" + "string 3"`, budget: 1, want: "root: Invalid value: \"object\": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run", wantRemaining: -1},
		{name: "messageExpression budget (str concat)", messageExpression: `"str1 " + self.str`, budget: 50, want: "root: Invalid value: str1 a string", wantRemaining: 46},
		{name: "runtime cost preserved if messageExpression fails during evaluation", message: "message not messageExpression", messageExpression: `"str1 " + ["a", "b", "c", "d"][4]`, budget: 50, want: "root: Invalid value: message not messageExpression", wantRemaining: 47},
		{name: "runtime cost preserved if messageExpression fails during evaluation (no message set)", messageExpression: `"str1 " + ["a", "b", "c", "d"][4]`, budget: 50, want: "root: Invalid value: failed rule: false", wantRemaining: 47},
		{name: "per-call limit exceeded during messageExpression execution", messageExpression: `"string 1" + "string 2" + "string 3"`, perCallLimit: 1, want: `root: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "\"string 1\" + \"string 2\" + \"string 3\""`, wantRemaining: -1},
		{name: "messageExpression is not allowed to generate a string with newlines", message: "message not messageExpression", messageExpression: `"str with \na newline"`, want: "root: Invalid value: message not messageExpression"},
		{name: "messageExpression is not allowed to generate messages >5000 characters", message: "message not messageExpression", messageExpression: `"` + strings.Repeat("a", 5121) + `"`, want: "root: Invalid value: message not messageExpression"},
		{name: "messageExpression is not allowed to generate an empty string", message: "message not messageExpression", messageExpression: `string("")`, want: "root: Invalid value: message not messageExpression"},
		{name: "messageExpression is not allowed to generate a string with only spaces", message: "message not messageExpression", messageExpression: `string("     ")`, want: "root: Invalid value: message not messageExpression"},
	}
	base := yamlSchema(t, `{type: object, properties: {str: {type: string}}}`)
	obj := map[string]any{"str": "a string"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := withRule(base, "false")
			s.XValidations[0].Message = c.message
			s.XValidations[0].MessageExpression = c.messageExpression
			v, _ := NewValidator(s, false, Options{SkipCheck: true, PerCallLimit: c.perCallLimit})
			budget := c.budget
			if budget == 0 {
				budget = RuntimeCELCostBudget
			}
			errs, rem := v.Validate(context.Background(), field.NewPath("root"), obj, nil, budget)
			assertSameAsTracked(t, c.name, v, field.NewPath("root"), obj, nil, budget)
			if len(errs) != 1 {
				t.Fatalf("want 1 error, got %v", errs)
			}
			if errs[0].Error() != c.want {
				t.Errorf("got  %q\nwant %q", errs[0].Error(), c.want)
			}
			if c.wantRemaining != 0 && rem != c.wantRemaining {
				t.Errorf("remaining %d, want %d", rem, c.wantRemaining)
			}
		})
	}
}

// TestReasonAndFieldPath mirrors the apiserver's TestReasonAndFldPath and
// TestValidateFieldPath: reason selects the error type, fieldPath the path.
func TestReasonAndFieldPath(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
			field1: {type: string}
			field2: {type: string}
			field3: {type: string}
			f:
				type: object
				properties:
					m: {type: integer}
				x-kubernetes-validations:
				- rule: self.m == 2
				  reason: FieldValueForbidden
				  fieldPath: .m
			"a.b":
				type: object
				additionalProperties: {type: string}
		x-kubernetes-validations:
		- rule: self.field2 != "value2"
		  reason: FieldValueDuplicate
		  fieldPath: .field2
		- rule: self.field3 != "value3"
		  reason: FieldValueRequired
		  fieldPath: .field3
		- rule: self.field1 != "value1"
		  reason: FieldValueForbidden
		  fieldPath: .field1
		- rule: self.field1 != "value1"
		  message: field1 must not be value1
		  fieldPath: "['field1']"
		- rule: "!('k' in self.a__dot__b)"
		  fieldPath: "['a.b'].k"
		`)
	v, cerrs := NewValidator(s, true, Options{})
	if len(cerrs) > 0 {
		t.Fatal(cerrs)
	}
	obj := yamlObj(t, `{field1: value1, field2: value2, field3: value3, f: {m: 1}, "a.b": {k: v}}`)
	errs, _ := v.Validate(context.Background(), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
	want := sorted([]string{
		`root.field2: Duplicate value`,
		`root.field3: Required value: failed rule: self.field3 != "value3"`,
		`root.field1: Forbidden: failed rule: self.field1 != "value1"`,
		`root.field1: Invalid value: field1 must not be value1`,
		`root.a.b[k]: Invalid value: failed rule: !('k' in self.a__dot__b)`,
		`root.f.m: Forbidden: failed rule: self.m == 2`,
	})
	got := errStrings(errs)
	if !equalStrings(got, sorted(want)) {
		t.Errorf("got  %q\nwant %q", got, sorted(want))
	}
}

// TestValidFieldPath mirrors cases of the apiserver's TestValidateFieldPath.
func TestValidFieldPath(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
			foo:
				type: object
				properties:
					subAdd: {type: object, additionalProperties: {type: string}}
					"foo.bar": {type: string}
					"a'b": {type: string}
			list: {type: array, items: {type: string}}
		`)
	cases := []struct{ path, want, err string }{
		{path: ".foo", want: "foo"},
		{path: ".foo.subAdd.a", want: "foo.subAdd[a]"},
		{path: ".foo['foo.bar']", want: "foo.foo.bar"},
		{path: `.foo['a\'b']`, want: "foo.a'b"},
		{path: "['foo']['subAdd']['x.y']", want: "foo.subAdd[x.y]"},
		{path: ".foo.notExist", err: "does not refer to a valid field"},
		{path: "foo", err: "expected [ or . but got: foo"},
		{path: ".list[0]", err: "expected single quoted string but got 0"},
		{path: ".foo[", err: "unexpected end of JSON path"},
		{path: ".foo['bar'", err: "does not refer to a valid field"},
		{path: `.foo['\x']`, err: `invalid string literal: invalid escape char \x`},
		{path: ".list.a", err: "does not refer to a valid field"},
		{path: ".", err: "unexpected end of JSON path"},
		{path: ".foo..b", err: "does not refer to a valid field"},
		{path: ".foo['subAdd'", err: "unexpected end of JSON path"},
	}
	for _, c := range cases {
		p, _, err := ValidFieldPath(c.path, s)
		switch {
		case c.err != "":
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: err %v, want %q", c.path, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.path, err)
		case p.String() != c.want:
			t.Errorf("%s: %s, want %s", c.path, p, c.want)
		}
	}
}

// TestOptionalOldSelf mirrors the apiserver's TestOptionalOldSelf: rules
// with optionalOldSelf run on create with oldSelf = optional.none().
func TestOptionalOldSelf(t *testing.T) {
	cases := []struct {
		name        string
		schema      string
		rule        string
		obj, oldObj string
		wantErr     bool
	}{
		{name: "allow new value if old value is null", schema: `{type: object, properties: {foo: {type: string}}}`, rule: "self.foo == 'not bar' || !oldSelf.hasValue()", obj: `{foo: bar}`},
		{name: "block new value if old value is not null", schema: `{type: object, properties: {foo: {type: string}}}`, rule: "self.foo == 'valid' || !oldSelf.hasValue()", obj: `{foo: invalid}`, oldObj: `{foo: bar}`, wantErr: true},
		{name: "allow invalid new value if old value is also invalid with chained optionals", schema: `{type: object, properties: {foo: {type: string}}}`, rule: "self.foo == 'valid' || oldSelf.foo.orValue('') != 'valid'", obj: `{foo: invalid again}`, oldObj: `{foo: invalid}`},
		{name: "block create: new min or allow higher than oldValue", schema: `{type: integer}`, rule: "self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)", obj: `9`, wantErr: true},
		{name: "ratchet update: new min or allow higher than oldValue", schema: `{type: integer}`, rule: "self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)", obj: `9`, oldObj: `5`},
		{name: "block update: new min or allow higher than oldValue", schema: `{type: integer}`, rule: "self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)", obj: `4`, oldObj: `5`, wantErr: true},
		// TestOptionalOldSelfCheckForNull
		{name: "array - conditional index", schema: `{type: array, items: {type: string}}`, rule: `self.size() > 0 || oldSelf[?0].orValue("baz") == "baz"`, obj: `[]`, oldObj: `[baz]`},
		{name: "map-array", schema: `{type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [key], items: {type: object, properties: {key: {type: string}, value: {type: string}}}}`, rule: `!oldSelf.hasValue() || self[0].value == "bar"`, obj: `[{key: foo, value: bar}]`, oldObj: `[{key: foo, value: baz}]`},
	}
	tr := true
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := withRule(yamlSchema(t, c.schema), c.rule)
			s.XValidations[0].OptionalOldSelf = &tr
			v, _ := NewValidator(s, false, Options{SkipCheck: true})
			errs, _ := v.Validate(context.Background(), field.NewPath("root"), yamlObj(t, c.obj), yamlObj(t, c.oldObj), math.MaxInt64)
			if c.wantErr != (len(errs) > 0) {
				t.Fatalf("errors %v, want error %v", errs, c.wantErr)
			}
			for _, e := range errs {
				if e.Type != field.ErrorTypeInvalid || !strings.Contains(e.Error(), "failed rule") {
					t.Errorf("unexpected %v", e)
				}
			}
		})
	}
}

// TestCELValidationLimit mirrors the apiserver's TestCELValidationLimit and
// TestCELValidationContextCancellation.
func TestCELValidationLimit(t *testing.T) {
	s := withRule(yamlSchema(t, `{type: object, properties: {val1: {type: integer}}}`), "self.val1 > 0")
	obj := map[string]any{"val1": int64(math.MaxInt64)}
	v, _ := NewValidator(s, false, Options{SkipCheck: true})
	errs, rem := v.Validate(context.Background(), field.NewPath("root"), obj, nil, 0)
	if got := errStrings(errs); len(got) != 1 || got[0] != "root: Invalid value: \"object\": validation failed due to running out of cost budget, no further validation rules will be run" || rem != -1 {
		t.Errorf("budget 0: %q %d", got, rem)
	}
	v, _ = NewValidator(s, true, Options{SkipCheck: true, PerCallLimit: 1})
	errs, rem = v.Validate(context.Background(), field.NewPath("root"), obj, nil, RuntimeCELCostBudget)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "no further validation rules will be run due to call cost exceeds limit for rule: self.val1 > 0") || rem != -1 {
		t.Errorf("per-call limit: %v %d", errs, rem)
	}

	items := make([]any, 1000)
	for i := range items {
		items[i] = int64(i)
	}
	cs := withRule(yamlSchema(t, `{type: object, properties: {array: {type: array, items: {type: integer}}}}`), "self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)")
	cv, _ := NewValidator(cs, true, Options{SkipCheck: true})
	cobj := map[string]any{"array": items}
	if errs, _ := cv.Validate(context.Background(), field.NewPath("root"), cobj, nil, RuntimeCELCostBudget); len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Microsecond)
	cancel()
	errs, _ = cv.Validate(ctx, field.NewPath("root"), cobj, nil, RuntimeCELCostBudget)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "operation interrupted") {
		t.Errorf("cancelled: %v", errs)
	}
	// the untracked program is interruptible too
	ferrs, _, ok := cv.validateFast(ctx, field.NewPath("root"), cobj, nil, RuntimeCELCostBudget)
	if !ok || !equalStrings(errList(ferrs), errList(errs)) {
		t.Errorf("cancelled, fast (completed %v): %v", ok, ferrs)
	}
}

// TestValidationExpressionsAtSchemaLevels mirrors the apiserver's test of
// the same name: rules below items, additionalProperties and escaped or
// unescapable property names are compiled against their own types.
func TestValidationExpressionsAtSchemaLevels(t *testing.T) {
	cases := []struct {
		name, schema, obj string
		want              string
	}{
		{"invalid rule under array items", `{type: object, properties: {f: {type: array, items: {type: integer, x-kubernetes-validations: [{rule: "self == 'abc'"}]}}}}`, `{f: [1]}`, "found no matching overload for '_==_' applied to '(int, string)"},
		{"invalid rule under additionalProperties, parent has rule", `{type: object, properties: {f: {type: object, x-kubernetes-validations: [{rule: "1 == 1"}], additionalProperties: {type: integer, x-kubernetes-validations: [{rule: "self == 'abc'"}]}}}}`, `{f: {k: 1}}`, "found no matching overload for '_==_' applied to '(int, string)"},
		{"failing rule under escaped field name", `{type: object, properties: {"f/2": {type: object, properties: {m: {type: integer}}, x-kubernetes-validations: [{rule: "self.m == 2"}]}}}`, `{"f/2": {m: 1}}`, "root.f/2: Invalid value: failed rule: self.m == 2"},
		{"invalid rule under unescapable field name, parent has rule", `{type: object, x-kubernetes-validations: [{rule: "1 == 1"}], properties: {"f@2": {type: object, properties: {m: {type: integer}}, x-kubernetes-validations: [{rule: "self.m == 'abc'"}]}}}`, `{"f@2": {m: 1}}`, "found no matching overload for '_==_' applied to '(int, string)"},
		{"failing rule under unescapable field name", `{type: object, properties: {"a@b": {type: object, properties: {m: {type: integer}}, x-kubernetes-validations: [{rule: "self.m == 2"}]}}}`, `{"a@b": {m: 1}}`, "root.a@b: Invalid value: failed rule: self.m == 2"},
		{"matchExpressions - 'values' must be specified when 'operator' is 'In' or 'NotIn'", `
			type: object
			properties:
				matchExpressions:
					type: array
					items:
						type: object
						properties:
							key: {type: string}
							operator: {type: string}
							values: {type: array, items: {type: string}}
			x-kubernetes-validations:
			- rule: self.matchExpressions.all(rule, (rule.operator != "In" && rule.operator != "NotIn") || ((has(rule.values) && size(rule.values) > 0)))
			`, `{matchExpressions: [{key: tier, operator: In, values: []}]}`, "failed rule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, _ := NewValidator(yamlSchema(t, c.schema), true, Options{SkipCheck: true})
			errs, _ := v.Validate(context.Background(), field.NewPath("root"), yamlObj(t, c.obj), nil, RuntimeCELCostBudget)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want) {
				t.Errorf("got %v, want one error containing %q", errs, c.want)
			}
		})
	}
}

// TestBlockingError mirrors strategy.go hasBlockingErr.
func TestBlockingError(t *testing.T) {
	p := field.NewPath("spec", "x")
	for _, c := range []struct {
		err  *field.Error
		want bool
	}{
		{field.Required(p, ""), true},
		{field.NotSupported(p, "a", []string{"b"}), true},
		{field.TooLong(p, "", 1), true},
		{field.TooMany(p, 2, 1), true},
		{field.TypeInvalid(p, 1, "x"), true},
		{field.Invalid(p, 1, "x"), false},
		{field.Forbidden(p, "x"), false},
		{field.Duplicate(p, 1), false},
	} {
		if got := BlockingError(field.ErrorList{c.err}) != nil; got != c.want {
			t.Errorf("%v: blocking %v, want %v", c.err, got, c.want)
		}
	}
	s := withRule(yamlSchema(t, `{type: object, properties: {a: {type: integer}}}`), "self.a > 0")
	v, _ := NewValidator(s, true, Options{SkipCheck: true})
	got := v.ValidateAfter(context.Background(), map[string]any{"a": int64(0)}, nil, field.ErrorList{field.Required(p, "")})
	if len(got) != 1 || got[0].Error() != "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation" {
		t.Errorf("blocked: %q", errStrings(got))
	}
	got = v.ValidateAfter(context.Background(), map[string]any{"a": int64(0)}, nil, field.ErrorList{field.Invalid(p, 1, "x")})
	if len(got) != 1 || got[0].Error() != "<nil>: Invalid value: failed rule: self.a > 0" {
		t.Errorf("not blocked: %q", errStrings(got))
	}
}

// TestDeterministicOrder: errors come in sorted key order (the apiserver's
// order is Go map order, i.e. random), so output is reproducible.
func TestDeterministicOrder(t *testing.T) {
	s := yamlSchema(t, `
		type: object
		properties:
			m:
				type: object
				additionalProperties: {type: integer, x-kubernetes-validations: [{rule: "self > 0", message: "must be positive"}]}
			z: {type: integer, x-kubernetes-validations: [{rule: "self > 0"}]}
			a: {type: integer, x-kubernetes-validations: [{rule: "self > 0"}]}
		`)
	v, _ := NewValidator(s, true, Options{SkipCheck: true})
	obj := yamlObj(t, `{z: 0, a: 0, m: {c: 0, a: 0, b: 0}}`)
	want := []string{
		"a: Invalid value: 0: failed rule: self > 0",
		"m[a]: Invalid value: 0: must be positive",
		"m[b]: Invalid value: 0: must be positive",
		"m[c]: Invalid value: 0: must be positive",
		"z: Invalid value: 0: failed rule: self > 0",
	}
	for i := 0; i < 5; i++ {
		errs, _ := v.Validate(context.Background(), nil, obj, nil, RuntimeCELCostBudget)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %q", got)
		}
	}
}

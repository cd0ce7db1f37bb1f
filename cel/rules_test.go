package cel

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ruleListCase is one case of the apiserver's TestValidationExpressions
// (k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go,
// case name in name): every rule in valid passes on obj, every rule in
// errors fails with an Invalid error containing the given text.
type ruleListCase struct {
	name          string
	schema        string // YAML, tab indented
	obj, oldObj   string // YAML
	isRoot        bool
	valid         []string
	errors        map[string]string
	expectSkipped bool  // valid rules cost nothing (transition rules without old value)
	expectedCost  int64 // exact cost of each valid rule, when non-zero
}

var ruleListCases = []ruleListCase{
	{name: "integers",
		schema: `
			type: object
			properties:
				val1: {type: integer}
				val2: {type: integer}
				val3: {type: integer, format: int32}
			`,
		obj: `{val1: 9223372036854775807, val2: 9223372036854775807, val3: 2147483647}`,
		valid: []string{
			"self.val1 == self.val2",
			"self.val1 == 9223372036854775807",
			"type(self.val1) == int",
			"self.val3 + 1 == 2147483647 + 1",
			"type(self.val3) == int",
		},
		errors: map[string]string{
			"self.val1 + 1 == 0": "integer overflow",
			"1 / 0 == 1 / 0":     "division by zero",
		},
	},
	{name: "escaped strings",
		schema: `
			type: object
			properties:
				val1: {type: string}
			`,
		obj:   `{val1: "l1\nl2"}`,
		valid: []string{"self.val1 == 'l1\\nl2'", "self.val1 == '''l1\nl2'''"},
	},
	{name: "bytes",
		schema: `
			type: object
			properties:
				val1: {type: string, format: byte}
			`,
		obj:   `{val1: "QUI="}`,
		valid: []string{"self.val1 == b'AB'", "self.val1 == bytes('AB')", "type(self.val1) == bytes", "size(self.val1) == 2"},
	},
	{name: "duration format",
		schema: `
			type: object
			properties:
				val1: {type: string, format: duration}
			`,
		obj: `{val1: 1h2m3s4ms}`,
		valid: []string{
			"self.val1 == duration('1h2m') + duration('3s4ms')",
			"self.val1.getMinutes() == 62",
			"type(self.val1) == google.protobuf.Duration",
		},
		errors: map[string]string{
			"duration('1d')": "compilation failed: ERROR: <input>:1:10: invalid duration argument",
		},
	},
	{name: "date format",
		schema: `
			type: object
			properties:
				val1: {type: string, format: date}
			`,
		obj:   `{val1: "1997-07-16"}`,
		valid: []string{"self.val1 == timestamp('1997-07-16T00:00:00.000Z')", "self.val1.getMonth() == 06", "type(self.val1) == google.protobuf.Timestamp"},
	},
	{name: "date-time format",
		schema: `
			type: object
			properties:
				val1: {type: string, format: date-time}
			`,
		obj: `{val1: "2011-08-18T19:03:37.010000000+01:00"}`,
		valid: []string{
			"self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
			"self.val1.getHours('UTC') == 18",
		},
		errors: map[string]string{
			"timestamp('1000-00-00T00:00:00Z')": "compilation failed: ERROR: <input>:1:11: invalid timestamp",
		},
	},
	{name: "listSets",
		schema: `
			type: object
			properties:
				val1: {type: array, x-kubernetes-list-type: set, items: {type: string}}
				val2: {type: array, x-kubernetes-list-type: set, items: {type: string}}
			`,
		obj: `{val1: [a, b, c], val2: [a, c, b]}`,
		valid: []string{
			"self.val1 == ['c', 'b', 'a']",
			"self.val1 == self.val2",
			"self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']",
			"self.val1.join('-') == 'a-b-c'",
			"sets.contains(['a', 'b'], ['b'])",
			"sets.equivalent(['c', 'b', 'a'], ['b', 'c', 'a'])",
			"!sets.intersects(['a', 'b'], ['c', 'd'])",
		},
	},
	{name: "listMaps",
		schema: `
			type: object
			properties:
				objs:
					type: array
					items:
						type: array
						x-kubernetes-list-type: map
						x-kubernetes-list-map-keys: [k]
						items:
							type: object
							properties:
								k: {type: string}
								v: {type: string}
			`,
		obj: `{objs: [[{k: a, v: "1"}, {k: b, v: "2"}], [{k: b, v: "2"}, {k: a, v: "1"}], [{k: b, v: "3"}, {k: a, v: "1"}], [{k: c, v: "4"}]]}`,
		valid: []string{
			"self.objs[0] == self.objs[1]",
			"self.objs[0] + self.objs[2] == self.objs[2]",
			"size(self.objs[0] + [self.objs[3][0]]) == 3",
		},
		errors: map[string]string{
			"self.objs[0] == {'k': 'a', 'v': '1'}": "no matching overload for '_==_'",
		},
	},
	{name: "maps",
		schema: `
			type: object
			properties:
				val1: {type: object, additionalProperties: {type: string}}
			`,
		obj:   `{val1: {k1: a, k2: b}}`,
		valid: []string{"'k1' in self.val1", "self.val1 == {'k1': 'a', 'k2': 'b'}"},
		errors: map[string]string{
			"{'k1': 'a', 'k2': 1, 'k2': false}": "expected type 'string' but found 'int'",
		},
	},
	{name: "typemeta and objectmeta access specified",
		schema: `
			type: object
			properties:
				kind: {type: string}
				apiVersion: {type: string}
				metadata:
					type: object
					properties:
						name: {type: string}
						generateName: {type: string}
			`,
		obj:   `{apiVersion: v1, kind: Pod, metadata: {name: foo, generateName: pickItForMe, namespace: xyz}}`,
		valid: []string{"self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'"},
		errors: map[string]string{
			"has(self.metadata.namespace)": "undefined field 'namespace'",
		},
	},
	{name: "typemeta and objectmeta access not specified",
		isRoot: true,
		schema: `
			type: object
			properties:
				spec:
					type: object
					properties:
						field1: {type: string}
			`,
		obj:   `{apiVersion: v1, kind: Pod, metadata: {name: foo, generateName: pickItForMe, namespace: xyz}, spec: {field1: a}}`,
		valid: []string{"self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'", "self.spec.field1 == 'a'"},
		errors: map[string]string{
			"has(self.metadata.namespace)": "undefined field 'namespace'",
		},
	},
	{name: "embedded object",
		schema: `
			type: object
			properties:
				embedded: {type: object, x-kubernetes-embedded-resource: true}
			`,
		obj:   `{embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, generateName: pickItForMe, namespace: xyz}, spec: {field1: a}}}`,
		valid: []string{"self.embedded.kind == 'Pod'", "self.embedded.apiVersion == 'v1'", "self.embedded.metadata.name == 'foo'", "self.embedded.metadata.generateName == 'pickItForMe'"},
		errors: map[string]string{
			"has(self.embedded.metadata.namespace)": "undefined field 'namespace'",
			"has(self.embedded.spec)":               "undefined field 'spec'",
		},
	},
	{name: "embedded object with usage of reserved keywords",
		schema: `
			type: object
			properties:
				embedded:
					type: object
					x-kubernetes-embedded-resource: true
					properties:
						kind: {type: string}
						apiVersion: {type: string}
						metadata:
							type: object
							properties:
								name: {type: string}
								generateName: {type: string}
								namespace: {type: string}
						spec:
							type: object
							properties:
								if: {type: string}
			`,
		obj:   `{embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, generateName: pickItForMe, namespace: reserved_keyword_namespace}, spec: {if: reserved_keyword_if}}}`,
		valid: []string{"self.embedded.metadata.namespace == 'reserved_keyword_namespace'", "has(self.embedded.spec.if)", "self.embedded.spec.if == 'reserved_keyword_if'"},
	},
	{name: "embedded object with preserve unknown",
		schema: `
			type: object
			properties:
				embedded: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
			`,
		obj:   `{embedded: {apiVersion: v1, kind: Pod, metadata: {name: foo, generateName: pickItForMe}, spec: {field1: a}}}`,
		valid: []string{"self.embedded.kind == 'Pod'", "has(self.embedded)"},
		errors: map[string]string{
			"has(self.embedded.spec)": "undefined field 'spec'",
		},
	},
	{name: "string in intOrString",
		schema: `
			type: object
			properties:
				something: {x-kubernetes-int-or-string: true}
			`,
		obj: `{something: 25%}`,
		valid: []string{
			"self.something == '25%'",
			"self.something != 1",
			"type(self.something) == string && self.something == '25%'",
			"type(self.something) == int ? self.something == 1 : self.something == '25%'",
			"self.something != ['anything']",
		},
	},
	{name: "int in intOrString",
		schema: `
			type: object
			properties:
				something: {x-kubernetes-int-or-string: true}
			`,
		obj:   `{something: 1}`,
		valid: []string{"self.something == 1", "self.something != 'some string'", "type(self.something) == int && self.something == 1"},
	},
	{name: "null in intOrString",
		schema: `
			type: object
			properties:
				something: {x-kubernetes-int-or-string: true, nullable: true}
			`,
		obj:   `{something: null}`,
		valid: []string{"!has(self.something)"},
		errors: map[string]string{
			"type(self.something) == int": "no such key",
		},
	},
	{name: "percent comparison using intOrString",
		schema: `
			type: object
			properties:
				min: {x-kubernetes-int-or-string: true}
				current: {type: integer}
				available: {type: integer}
			`,
		obj: `{min: 50%, current: 5, available: 10}`,
		valid: []string{
			`type(self.min) == string && self.min.matches(r'(\d+(\.\d+)?%)')`,
			"type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
		},
	},
	{name: "preserve unknown fields",
		schema: `
			type: object
			properties:
				withUnknown: {type: object, x-kubernetes-preserve-unknown-fields: true}
				withUnknownList: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
				withUnknownFieldList:
					type: array
					items:
						type: object
						properties:
							fieldOfUnknownType: {x-kubernetes-preserve-unknown-fields: true}
				anyvalList: {type: array, items: {x-kubernetes-preserve-unknown-fields: true}}
				anyvalMap: {type: object, additionalProperties: {x-kubernetes-preserve-unknown-fields: true}}
				anyvalField1: {x-kubernetes-preserve-unknown-fields: true}
			`,
		obj: `{withUnknown: {field1: a, field2: b}, withUnknownList: [{field1: a, field2: b}, {field1: x, field2: y}, {field1: x, field2: y}, {}, {}], withUnknownFieldList: [{fieldOfUnknownType: a}, {fieldOfUnknownType: 1}, {fieldOfUnknownType: 1}], anyvalList: [a, 2], anyvalMap: {k: "1"}, anyvalField1: 1}`,
		valid: []string{
			"has(self.withUnknown)",
			"self.withUnknownList.size() == 5",
			"self.withUnknownList[0] != self.withUnknownList[1]",
			"self.withUnknownList[1] == self.withUnknownList[2]",
			"self.withUnknownList[3] == self.withUnknownList[4]",
			"self.withUnknownFieldList[0] != self.withUnknownFieldList[1]",
			"self.withUnknownFieldList[1] == self.withUnknownFieldList[2]",
		},
		errors: map[string]string{
			"has(self.withUnknown.field1)": "undefined field 'field1'",
			"has(self.anyvalList)":         "undefined field 'anyvalList'",
			"has(self.anyvalMap)":          "undefined field 'anyvalMap'",
			"has(self.anyvalField1)":       "undefined field 'anyvalField1'",
		},
	},
	{name: "known and unknown fields",
		schema: `
			type: object
			properties:
				withUnknown: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {known: {type: integer}}}
				withUnknownList: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {known: {type: integer}}}}
			`,
		obj: `{withUnknown: {known: 1, unknown: a}, withUnknownList: [{known: 1, unknown: a}, {known: 1, unknown: b}, {known: 1, unknown: b}, {known: 1}, {known: 1}, {known: 2}]}`,
		valid: []string{
			"self.withUnknown.known == 1",
			"self.withUnknownList[1] == self.withUnknownList[2]",
			"self.withUnknownList[0] != self.withUnknownList[3]",
			"self.withUnknownList[3] == self.withUnknownList[4]",
			"self.withUnknownList[4] != self.withUnknownList[5]",
		},
		errors: map[string]string{
			"has(self.withUnknown.unknown)": "undefined field 'unknown'",
		},
	},
	{name: "field nullability",
		schema: `
			type: object
			properties:
				unsetPlainStr: {type: string}
				unsetDefaultedStr: {type: string, default: default value}
				unsetNullableStr: {type: string, nullable: true}
				setPlainStr: {type: string}
				setNullableStr: {type: string, nullable: true}
				setToNullNullableStr: {type: string, nullable: true}
			`,
		obj: `{setPlainStr: v1, setNullableStr: v3, setToNullNullableStr: null, unsetDefaultedStr: default value}`,
		valid: []string{
			"!has(self.unsetPlainStr)",
			"has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'",
			"!has(self.unsetNullableStr)",
			"has(self.setNullableStr) && self.setNullableStr == 'v3'",
			"type(self.setNullableStr) != null_type",
			"!has(self.setToNullNullableStr)",
		},
		errors: map[string]string{
			"self.unsetPlainStr == null":  "no matching overload for '_==_' applied to '(string, null)",
			"self.setNullableStr != null": "no matching overload for '_!=_' applied to '(string, null)",
		},
	},
	{name: "null values in container types",
		schema: `
			type: object
			properties:
				m: {type: object, additionalProperties: {type: string, nullable: true}}
				l: {type: array, items: {type: string, nullable: true}}
				s: {type: array, x-kubernetes-list-type: set, items: {type: string, nullable: true}}
			`,
		obj: `{m: {a: null, b: not-nil}, l: [null, not-nil], s: [null, not-nil]}`,
		valid: []string{
			"self.m.size() == 2",
			"'a' in self.m",
			"type(self.m['a']) == null_type",
			"type(self.l[0]) == null_type",
			"type(self.s[0]) == null_type",
		},
	},
	{name: "escaping",
		schema: `
			type: object
			properties:
				"true": {type: integer}
				"in": {type: integer}
				"namespace": {type: integer}
				"if": {type: integer}
				"int": {type: integer}
				"self": {type: integer}
				"all": {type: integer}
				"size": {type: string}
				"_true": {type: integer}
				"dot.dot": {type: integer}
				"dash-dash": {type: integer}
				"slash/slash": {type: integer}
				"underscore_underscore": {type: integer}
				"doubleunderscore__doubleunderscore": {type: integer}
			`,
		obj: `{"true": 1, "in": 4, "namespace": 17, "if": 12, "int": 101, "self": 201, "all": 203, "size": "204", "_true": 301, "dot.dot": 401, "dash-dash": 402, "slash/slash": 403, "underscore_underscore": 404, "doubleunderscore__doubleunderscore": 405}`,
		valid: []string{
			"self.__true__ == 1", "self.__in__ == 4", "self.__namespace__ == 17", "self.__if__ == 12",
			"self.int == 101",
			"self.self == 201",
			"self.all == 203",
			"self.size == '204'",
			"self._true == 301",
			"self.__true__ != 301",
			"self.dot__dot__dot == 401",
			"self.dash__dash__dash == 402",
			"self.slash__slash__slash == 403",
			"self.underscore_underscore == 404",
			"self.doubleunderscore__underscores__doubleunderscore == 405",
		},
		errors: map[string]string{
			"self.true == 1":          "mismatched input 'true' expecting IDENTIFIER",
			"self == 201":             "found no matching overload for '_==_'",
			"self.__illegal__ == 301": "undefined field '__illegal__'",
		},
	},
	{name: "map keys are not escaped",
		schema: `
			type: object
			properties:
				m: {type: object, additionalProperties: {type: integer}}
			`,
		obj:   `{m: {"@": 1, "9": 2, "int": 3, "./-": 4}}`,
		valid: []string{"self.m['@'] == 1", "self.m['9'] == 2", "self.m['int'] == 3", "self.m['./-'] == 4"},
	},
	{name: "listMaps with unsupported identity characters in property names",
		schema: `
			type: object
			properties:
				objs:
					type: array
					items:
						type: array
						x-kubernetes-list-type: map
						x-kubernetes-list-map-keys: ["k!", "k."]
						items:
							type: object
							properties:
								"k!": {type: string}
								"k.": {type: string}
			`,
		obj: `{objs: [[{"k!": a, "k.": "1"}, {"k!": b, "k.": "2"}], [{"k!": b, "k.": "2"}, {"k!": a, "k.": "1"}], [{"k!": b, "k.": "2"}, {"k!": c, "k.": "1"}]]}`,
		valid: []string{
			"self.objs[0] == self.objs[1]",
			"self.objs[0][0].k__dot__ == '1'",
			"self.objs[0] != self.objs[2]",
		},
		errors: map[string]string{
			"self.objs[0][0].k! == '1'": "Syntax error: mismatched input '!' expecting",
		},
	},
	{name: "transition rules",
		schema: `
			type: object
			properties:
				v: {type: string}
			`,
		obj:    `{v: new}`,
		oldObj: `{v: old}`,
		valid:  []string{"oldSelf.v != self.v", "oldSelf.v == 'old' && self.v == 'new'"},
	},
	{name: "skipped transition rule for nil old primitive",
		schema:        `{type: string}`,
		obj:           `exists`,
		expectSkipped: true,
		valid:         []string{"oldSelf == self"},
	},
	{name: "skipped transition rule for nil old array",
		schema:        `{type: array, items: {type: string}}`,
		obj:           `[]`,
		expectSkipped: true,
		valid:         []string{"oldSelf == self"},
	},
	{name: "skipped transition rule for nil old object",
		schema:        `{type: object, properties: {f: {type: string}}}`,
		obj:           `{f: exists}`,
		expectSkipped: true,
		valid:         []string{"oldSelf.f == self.f"},
	},
	{name: "authorizer is not supported for CRD Validation Rules",
		schema: `{type: object}`,
		obj:    `[]`, oldObj: `[]`,
		errors: map[string]string{
			"authorizer.path('/healthz').check('get').allowed()": "undeclared reference to 'authorizer'",
		},
	},
	{name: "optionals",
		schema: `
			type: object
			properties:
				presentObj: {type: object, properties: {presentStr: {type: string}}}
				absentObj: {type: object, properties: {absentStr: {type: string}}}
				m: {type: object, additionalProperties: {type: string}}
				l: {type: array, items: {type: string}}
			`,
		obj: `{presentObj: {presentStr: value}, m: {k: v}, l: [a]}`,
		valid: []string{
			"self.?presentObj.?presentStr == optional.of('value')",
			"self.?absentObj.?absentStr.orValue('nope') == 'nope'",
			"self.m[?'k'] == optional.of('v')",
			"self.l[?1] == optional.none()",
			"['a', ?optional.none(), 'c'] == ['a', 'c']",
		},
		errors: map[string]string{
			"self.absentObj.?absentStr == optional.none()": "no such key: absentObj",
		},
	},
	{name: "quantity",
		schema: `{type: object, properties: {val1: {type: string}, val2: {type: string}}}`,
		obj:    `{val1: "20", val2: 200M}`,
		valid: []string{
			"isQuantity(self.val1)",
			`quantity(self.val2) == quantity("0.2G") && quantity("0.2G") == quantity("200M")`,
			`quantity("50k").add(quantity(self.val1)) == quantity("50.02k")`,
		},
	},
	{name: "cost for extended lib calculated correctly: isSorted",
		schema:       `{type: object, properties: {val1: {type: string}}}`,
		obj:          `{val1: "20"}`,
		valid:        []string{"[1,2,3,4].isSorted()"},
		expectedCost: 4,
	},
	{name: "cost for extended lib calculated correctly: split",
		schema:       `{type: object, properties: {val1: {type: string}}}`,
		obj:          `{val1: "20"}`,
		valid:        []string{"size('abc 123 def 123'.split(' ')) > 0"},
		expectedCost: 5,
	},
	{name: "cost for extended lib calculated correctly: join",
		schema:       `{type: object, properties: {val1: {type: string}}}`,
		obj:          `{val1: "20"}`,
		valid:        []string{"size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0"},
		expectedCost: 7,
	},
	{name: "IP and CIDR",
		schema: `{type: object, properties: {val1: {type: string}}}`,
		obj:    `{val1: "20"}`,
		valid: []string{
			`isIP("192.168.0.1")`,
			`ip("127.0.0.1").isLoopback()`,
			`cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))`,
			`cidr('192.168.0.0/16').prefixLength() == 16`,
		},
	},
	{name: "format",
		schema: `{type: object, properties: {val1: {type: string}}}`,
		obj:    `{val1: "20"}`,
		valid: []string{
			`format.dns1123Label().validate("my-label-name") == optional.none()`,
			`format.uuid().validate("123e4567-e89b-12d3-a456-426614174000") == optional.none()`,
			`!format.named("unknown").hasValue()`,
		},
	},
}

// TestValidationExpressions runs ruleListCases the way the apiserver's
// TestValidationExpressions does: valid rules with the case's isRoot,
// error rules on a resource-root validator.
func TestValidationExpressions(t *testing.T) {
	ctx := context.Background()
	total := 0
	for _, tc := range ruleListCases {
		s := yamlSchema(t, tc.schema)
		obj, old := yamlObj(t, tc.obj), yamlObj(t, tc.oldObj)
		for _, rule := range tc.valid {
			total++
			t.Run(tc.name+"/"+rule, func(t *testing.T) {
				rs := withRule(s, rule)
				v, cerrs := NewValidator(rs, tc.isRoot, Options{SkipCheck: true})
				if cerrs != nil || v.root == nil {
					t.Fatalf("validator: %v", cerrs)
				}
				errs, rem := v.Validate(ctx, field.NewPath("root"), obj, old, RuntimeCELCostBudget)
				assertSameAsTracked(t, rule, v, field.NewPath("root"), obj, old, RuntimeCELCostBudget)
				for _, err := range errs {
					t.Errorf("unexpected error: %v", err)
				}
				if tc.expectedCost != 0 && RuntimeCELCostBudget-rem != tc.expectedCost {
					t.Errorf("cost %d, want %d", RuntimeCELCostBudget-rem, tc.expectedCost)
				}
				if tc.expectSkipped && rem != RuntimeCELCostBudget {
					t.Errorf("skipped rule cost %d", RuntimeCELCostBudget-rem)
				}
			})
		}
		for rule, want := range tc.errors {
			total++
			t.Run(tc.name+"/"+rule, func(t *testing.T) {
				rs := withRule(s, rule)
				v, _ := NewValidator(rs, true, Options{SkipCheck: true})
				errs, _ := v.Validate(ctx, field.NewPath("root"), obj, old, RuntimeCELCostBudget)
				assertSameAsTracked(t, rule, v, field.NewPath("root"), obj, old, RuntimeCELCostBudget)
				if len(errs) == 0 {
					t.Fatal("expected validation errors but got none")
				}
				for _, err := range errs {
					if err.Type != field.ErrorTypeInvalid || !strings.Contains(err.Error(), want) {
						t.Errorf("expected error to contain %q, got: %v", want, err)
					}
				}
			})
		}
	}
	if total < 60 {
		t.Errorf("only %d rules", total)
	}
}

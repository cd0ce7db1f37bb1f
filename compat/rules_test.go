package compat

import (
	"strings"
	"testing"

	"kdv.dev/schema"
)

func mustSchema(t *testing.T, y string) *schema.Structural {
	t.Helper()
	p, err := schema.LoadSchema("test", []byte(y))
	if err != nil {
		t.Fatalf("loading schema: %v\n%s", err, y)
	}
	s, err := schema.NewStructural(p)
	if err != nil {
		t.Fatalf("structural: %v\n%s", err, y)
	}
	return s
}

// obj wraps property YAML (indented by 2) in an object schema.
func obj(props string, extra ...string) string {
	return "type: object\n" + strings.Join(extra, "\n") + "\nproperties:\n" + props
}

// TestRules is the table test of every rule kdv compat claims: for each,
// an OLD/NEW pair that breaks it, with the expected report line, and an
// OLD/NEW pair that does not (no change at ratcheted or above).
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name       string
		old        string
		breaking   string
		want       string // the report line of the breaking pair
		compatible string
	}{{
		name:       "field removed",
		old:        obj("  a: {type: string}\n  b: {type: string}"),
		breaking:   obj("  a: {type: string}"),
		want:       "w/v1: b: breaks-objects field-removed: field removed: its values are pruned from stored objects and rejected or dropped on write",
		compatible: obj("  a: {type: string}\n  b: {type: string}\n  c: {type: integer}"),
	}, {
		name:       "field removed below preserve-unknown-fields",
		old:        obj("  a: {type: string}\n  b: {type: string}"),
		breaking:   obj("  a: {type: string}", "x-kubernetes-preserve-unknown-fields: true"),
		want:       "w/v1: b: breaks-clients field-removed: field removed from the schema; kept in stored objects as an unknown field (x-kubernetes-preserve-unknown-fields)",
		compatible: obj("  a: {type: string}\n  b: {type: string, description: now documented}"),
	}, {
		name:       "type changed",
		old:        obj("  a: {type: string}"),
		breaking:   obj("  a: {type: integer}"),
		want:       `w/v1: a: breaks-objects type-changed: type "string" changed to "integer"`,
		compatible: obj("  a: {type: string, description: a new description}"),
	}, {
		name:       "int-or-string dropped",
		old:        obj("  a: {x-kubernetes-int-or-string: true}"),
		breaking:   obj("  a: {type: integer}"),
		want:       `w/v1: a: breaks-objects type-changed: type int-or-string changed to "integer"`,
		compatible: obj("  a: {x-kubernetes-int-or-string: true, description: port}"),
	}, {
		name:       "required added",
		old:        obj("  a: {type: string}"),
		breaking:   obj("  a: {type: string}", "required: [a]"),
		want:       "w/v1: a: breaks-objects required-added: field became required: objects without it are rejected",
		compatible: obj("  a: {type: string}\n  b: {type: string, default: x}", "required: [b]"),
	}, {
		name:       "new required field",
		old:        obj("  a: {type: string}"),
		breaking:   obj("  a: {type: string}\n  b: {type: string}", "required: [b]"),
		want:       "w/v1: b: breaks-objects required-added: required field added: objects without it are rejected",
		compatible: obj("  a: {type: string}\n  b: {type: string}"),
	}, {
		name:       "enum value removed",
		old:        obj("  a: {type: string, enum: [x, z]}"),
		breaking:   obj("  a: {type: string, enum: [x]}"),
		want:       `w/v1: a: breaks-objects enum-value-removed: enum value "z" removed`,
		compatible: obj("  a: {type: string, enum: [x, z], description: z is deprecated but still accepted.}"),
	}, {
		name:       "enum value added",
		old:        obj("  a: {type: string, enum: [x], description: Size.}"),
		breaking:   obj("  a: {type: string, enum: [x, z], description: Size. Values may be added to this enum.}"),
		want:       `w/v1: a: breaks-clients enum-value-added: enum value "z" added`,
		compatible: obj("  a: {type: string, enum: [x], description: The size.}"),
	}, {
		name:       "enum value added to an open enum",
		old:        obj("  a: {type: string, enum: [x], description: \"Note that values may be added to this enum, implementations must ensure that unknown values will not cause a crash.\"}"),
		breaking:   obj("  a: {type: string, enum: [z]}"),
		want:       `w/v1: a: breaks-objects enum-value-removed: enum value "x" removed`,
		compatible: obj("  a: {type: string, enum: [x, z], description: \"Note that values may be added to this enum, implementations must ensure that unknown values will not cause a crash.\"}"),
	}, {
		name:       "enum added to a free field",
		old:        obj("  a: {type: string}"),
		breaking:   obj("  a: {type: string, enum: [x]}"),
		want:       `w/v1: a: breaks-objects enum-added: restricted to the values ["x"]`,
		compatible: obj("  a: {type: string, description: now documented}"),
	}, {
		name:       "maximum tightened",
		old:        obj("  a: {type: integer, maximum: 10}"),
		breaking:   obj("  a: {type: integer, maximum: 5}"),
		want:       "w/v1: a: breaks-objects max-tightened: maximum tightened from 10 to 5",
		compatible: obj("  a: {type: integer, maximum: 20}"),
	}, {
		name:       "maximum made exclusive",
		old:        obj("  a: {type: integer, maximum: 10}"),
		breaking:   obj("  a: {type: integer, maximum: 10, exclusiveMaximum: true}"),
		want:       "w/v1: a: breaks-objects max-tightened: maximum tightened from 10 to 10 (exclusive)",
		compatible: obj("  a: {type: integer}"),
	}, {
		name:       "minimum added",
		old:        obj("  a: {type: integer}"),
		breaking:   obj("  a: {type: integer, minimum: 1}"),
		want:       "w/v1: a: breaks-objects min-tightened: minimum 1 added",
		compatible: obj("  a: {type: integer}\n  b: {type: integer, minimum: 1}"),
	}, {
		name:       "minLength tightened",
		old:        obj("  a: {type: string, minLength: 1}"),
		breaking:   obj("  a: {type: string, minLength: 3}"),
		want:       "w/v1: a: breaks-objects min-tightened: minLength tightened from 1 to 3",
		compatible: obj("  a: {type: string, minLength: 0}"),
	}, {
		name:       "maxItems added",
		old:        obj("  a: {type: array, items: {type: string}}"),
		breaking:   obj("  a: {type: array, maxItems: 8, items: {type: string}}"),
		want:       "w/v1: a: breaks-objects max-tightened: maxItems 8 added",
		compatible: obj("  a: {type: array, minItems: 0, items: {type: string}}"),
	}, {
		name:       "maxProperties tightened",
		old:        obj("  a: {type: object, maxProperties: 16, additionalProperties: {type: string}}"),
		breaking:   obj("  a: {type: object, maxProperties: 8, additionalProperties: {type: string}}"),
		want:       "w/v1: a: breaks-objects max-tightened: maxProperties tightened from 16 to 8",
		compatible: obj("  a: {type: object, maxProperties: 32, additionalProperties: {type: string}}"),
	}, {
		name:       "pattern added",
		old:        obj("  a: {type: string}"),
		breaking:   obj("  a: {type: string, pattern: '^[a-z]+$'}"),
		want:       `w/v1: a: breaks-objects pattern-changed: pattern "^[a-z]+$" added`,
		compatible: obj("  a: {type: string}") + "\n",
	}, {
		name:       "pattern replacing an enum that it accepts",
		old:        obj("  a: {type: string, enum: [System]}"),
		breaking:   obj("  a: {type: string, pattern: '^[a-z]+$'}"),
		want:       `w/v1: a: breaks-objects pattern-changed: pattern "^[a-z]+$" added`,
		compatible: obj("  a: {type: string, maxLength: 253, pattern: '^(System|[a-z]+/[a-z]+)$'}"),
	}, {
		name:       "format added",
		old:        obj("  a: {type: string}"),
		breaking:   obj("  a: {type: string, format: date-time}"),
		want:       `w/v1: a: breaks-objects format-changed: format "date-time" added`,
		compatible: obj("  a: {type: string}") + "\n",
	}, {
		name:       "format changed",
		old:        obj("  a: {type: string, format: hostname}"),
		breaking:   obj("  a: {type: string, format: ipv4}"),
		want:       `w/v1: a: breaks-objects format-changed: format changed from "hostname" to "ipv4"`,
		compatible: obj("  a: {type: string}"),
	}, {
		name:       "multipleOf",
		old:        obj("  a: {type: integer, multipleOf: 4}"),
		breaking:   obj("  a: {type: integer, multipleOf: 3}"),
		want:       "w/v1: a: breaks-objects multiple-of-changed: multipleOf changed from 4 to 3",
		compatible: obj("  a: {type: integer, multipleOf: 2}"),
	}, {
		name:       "list type atomic to set",
		old:        obj("  a: {type: array, items: {type: string}, x-kubernetes-list-type: atomic}"),
		breaking:   obj("  a: {type: array, items: {type: string}, x-kubernetes-list-type: set}"),
		want:       "w/v1: a: breaks-objects list-type-changed: x-kubernetes-list-type changed from atomic to set",
		compatible: obj("  a: {type: array, items: {type: string}}"), // unset is atomic
	}, {
		name:       "list-map keys changed",
		old:        obj("  a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name], items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer, default: 80}}}}"),
		breaking:   obj("  a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name, port], items: {type: object, required: [name, port], properties: {name: {type: string}, port: {type: integer, default: 80}}}}"),
		want:       `w/v1: a: breaks-objects map-keys-changed: x-kubernetes-list-map-keys changed from ["name"] to ["name","port"]`,
		compatible: obj("  a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name], items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer, default: 80}, host: {type: string}}}}"),
	}, {
		name:       "map type changed",
		old:        obj("  a: {type: object, additionalProperties: {type: string}}"),
		breaking:   obj("  a: {type: object, x-kubernetes-map-type: atomic, additionalProperties: {type: string}}"),
		want:       "w/v1: a: breaks-clients map-type-changed: x-kubernetes-map-type changed from granular to atomic",
		compatible: obj("  a: {type: object, x-kubernetes-map-type: granular, additionalProperties: {type: string}}"),
	}, {
		name:       "map values removed",
		old:        obj("  a: {type: object, additionalProperties: {type: string}}"),
		breaking:   obj("  a: {type: object}"),
		want:       "w/v1: a{*}: breaks-objects field-removed: map values (additionalProperties) removed: stored entries are pruned",
		compatible: obj("  a: {type: object, x-kubernetes-preserve-unknown-fields: true}") + "\n# the values are kept, no longer validated",
	}, {
		name:       "map value tightened",
		old:        obj("  a: {type: object, additionalProperties: {type: string}}"),
		breaking:   obj("  a: {type: object, additionalProperties: {type: string, maxLength: 63}}"),
		want:       "w/v1: a{*}: breaks-objects max-tightened: maxLength 63 added",
		compatible: obj("  a: {type: object, additionalProperties: {type: string, description: x}}"),
	}, {
		name:       "list item tightened",
		old:        obj("  a: {type: array, items: {type: object, properties: {p: {type: integer}}}}"),
		breaking:   obj("  a: {type: array, items: {type: object, properties: {p: {type: integer, maximum: 65535}}}}"),
		want:       "w/v1: a[*].p: breaks-objects max-tightened: maximum 65535 added",
		compatible: obj("  a: {type: array, items: {type: object, properties: {p: {type: integer}, q: {type: string}}}}"),
	}, {
		name:       "preserve-unknown-fields removed",
		old:        obj("  a: {type: object, x-kubernetes-preserve-unknown-fields: true}"),
		breaking:   obj("  a: {type: object}"),
		want:       "w/v1: a: breaks-objects preserve-unknown-changed: no longer preserves unknown fields: fields not in the schema are pruned from stored objects",
		compatible: obj("  a: {type: object, x-kubernetes-preserve-unknown-fields: true, description: anything}"),
	}, {
		name:       "embedded resource",
		old:        obj("  a: {type: object, x-kubernetes-preserve-unknown-fields: true}"),
		breaking:   obj("  a: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-embedded-resource: true}"),
		want:       "w/v1: a: breaks-objects embedded-resource-changed: x-kubernetes-embedded-resource changed from false to true",
		compatible: obj("  a: {type: object, x-kubernetes-preserve-unknown-fields: true}") + "\n",
	}, {
		name:       "nullable removed",
		old:        obj("  a: {type: string, nullable: true}"),
		breaking:   obj("  a: {type: string}"),
		want:       "w/v1: a: breaks-objects nullable-changed: no longer nullable: stored null values become invalid",
		compatible: obj("  a: {type: string, nullable: true, description: x}"),
	}, {
		name:       "default changed",
		old:        obj("  a: {type: integer, default: 1}"),
		breaking:   obj("  a: {type: integer, default: 2}"),
		want:       "w/v1: a: breaks-clients default-changed: default changed from 1 to 2",
		compatible: obj("  a: {type: integer, default: 1, description: replicas}"),
	}, {
		name:       "default removed",
		old:        obj("  a: {type: integer, default: 1}"),
		breaking:   obj("  a: {type: integer}"),
		want:       "w/v1: a: breaks-clients default-removed: default 1 removed: new objects that leave it unset no longer get it",
		compatible: obj("  a: {type: integer, default: 1, description: x}"),
	}, {
		name:       "rule added (ratcheted)",
		old:        obj("  a: {type: integer}"),
		breaking:   obj("  a: {type: integer}", "x-kubernetes-validations: [{rule: 'self.a > 0'}]"),
		want:       `w/v1: ratcheted rule-added: rule "self.a > 0" added`,
		compatible: obj("  a: {type: integer}") + "\n",
	}, {
		name:       "transition rule added (not ratcheted)",
		old:        obj("  a: {type: integer}"),
		breaking:   obj("  a: {type: integer}", "x-kubernetes-validations: [{rule: 'self.a >= oldSelf.a', message: a may only grow}]"),
		want:       `w/v1: breaks-objects rule-added: transition rule "self.a >= oldSelf.a" added`,
		compatible: obj("  a: {type: integer}") + "\n",
	}, {
		name:       "rule changed",
		old:        obj("  a: {type: integer}", "x-kubernetes-validations: [{rule: 'self.a > 0', message: a must be positive}]"),
		breaking:   obj("  a: {type: integer}", "x-kubernetes-validations: [{rule: 'self.a > 1', message: a must be positive}]"),
		want:       `w/v1: ratcheted rule-changed: rule changed from "self.a > 0" to "self.a > 1"`,
		compatible: obj("  a: {type: integer}", "x-kubernetes-validations: [{rule: 'self.a > 0', message: a must be greater than zero}]"),
	}, {
		name:       "rule removed is safe, string mentioning oldSelf is not a transition",
		old:        obj("  a: {type: string}", "x-kubernetes-validations: [{rule: 'self.a != \"x\"'}]"),
		breaking:   obj("  a: {type: string}", "x-kubernetes-validations: [{rule: 'self.a != \"oldSelf\"'}]"),
		want:       `w/v1: ratcheted rule-added: rule "self.a != \"oldSelf\"" added`,
		compatible: obj("  a: {type: string}"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			old := mustSchema(t, tc.old)
			got := CompareSchemas("w", "v1", old, mustSchema(t, tc.breaking))
			found := false
			for _, c := range got {
				if c.String() == tc.want {
					found = true
				}
			}
			if !found {
				t.Errorf("breaking pair: want line\n  %s\ngot:\n%s", tc.want, lines(got))
			}
			for _, c := range CompareSchemas("w", "v1", old, mustSchema(t, tc.compatible)) {
				if c.Severity > Safe {
					t.Errorf("compatible pair reported %s", c)
				}
			}
		})
	}
}

func lines(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("  " + c.String() + "\n")
	}
	return b.String()
}

// TestNoFalseBreaks: adding an optional field, changing a description and
// loosening bounds together report only safe changes, and identical
// schemas report nothing.
func TestNoFalseBreaks(t *testing.T) {
	old := mustSchema(t, obj("  a: {type: string, maxLength: 10, description: old}\n  num: {type: integer, minimum: 1, maximum: 10}\n  l: {type: array, maxItems: 4, items: {type: string}}", "description: before"))
	new := mustSchema(t, obj("  a: {type: string, maxLength: 20, description: new}\n  num: {type: integer, minimum: 0}\n  l: {type: array, maxItems: 8, items: {type: string}}\n  b: {type: object, properties: {c: {type: string}}}", "description: after"))
	got := CompareSchemas("w", "v1", old, new)
	if worst, _ := Worst(got); worst != Safe {
		t.Errorf("worst severity %s, want safe:\n%s", worst, lines(got))
	}
	want := []string{
		"w/v1: a: safe max-loosened: maxLength loosened from 10 to 20",
		"w/v1: b: safe field-added: optional field added",
		"w/v1: l: safe max-loosened: maxItems loosened from 4 to 8",
		"w/v1: num: safe max-loosened: maximum 10 removed",
		"w/v1: num: safe min-loosened: minimum loosened from 1 to 0",
	}
	if g := strings.TrimSpace(lines(got)); g != "  "+strings.Join(want, "\n  ") && g != strings.Join(want, "\n  ") {
		t.Errorf("got:\n%s\nwant:\n  %s", lines(got), strings.Join(want, "\n  "))
	}
	if got := CompareSchemas("w", "v1", old, old); len(got) != 0 {
		t.Errorf("identical schemas: %s", lines(got))
	}
}

func TestUsesOldSelf(t *testing.T) {
	for expr, want := range map[string]bool{
		"self == oldSelf":                       true,
		"!has(oldSelf.x) || has(self.x)":        true,
		"self.all(x, x.a == oldSelf.a)":         true,
		`self.a != "oldSelf"`:                   false,
		"self.oldSelf > 0":                      false, // a field named oldSelf
		"self.a > 0":                            false,
		"this does not parse oldSelf ((":        true, // by name
		"self.x.exists(e, e == 'oldSelfValue')": false,
	} {
		if got := usesOldSelf(expr); got != want {
			t.Errorf("usesOldSelf(%q) = %t, want %t", expr, got, want)
		}
	}
}

// Tightenings of fields that k8s.io/api marks as declaring hand-written
// checks (x-kubernetes-api-lifecycle "declarative-validation"), and rules
// about fields NEW adds, are safe: they reject nothing that was accepted.
func TestDeclaredAndNewFieldRules(t *testing.T) {
	old := mustSchema(t, obj("  uid: {type: string}\n  gen: {type: integer}"))
	declaredNew := mustSchema(t, obj(`  uid: {type: string, x-kubernetes-api-lifecycle: {declarative-validation: {minVersion: v1.37, status: alpha}}, x-kubernetes-validations: [{rule: "self == oldSelf"}]}
  gen: {type: integer, minimum: 0, x-kubernetes-api-lifecycle: {declarative-validation: {minVersion: v1.37, status: alpha}}}`,
		`x-kubernetes-validations: [{rule: "has(self.uid) == has(oldSelf.uid)"}]`))
	for _, c := range CompareSchemas("x", "v1", old, declaredNew) {
		if c.Severity != Safe || c.Rule != ruleDeclared {
			t.Errorf("declared: %s (rule %s), want safe as declared", c, c.Rule)
		}
	}
	newFields := mustSchema(t, obj("  uid: {type: string}\n  gen: {type: integer}\n  a: {type: string}\n  b: {type: string}",
		`x-kubernetes-validations: [{rule: "!has(self.a) || !has(self.b)"}]`))
	var rule *Change
	for _, c := range CompareSchemas("x", "v1", old, newFields) {
		if c.Kind == "rule-added" {
			c := c
			rule = &c
		}
	}
	if rule == nil || rule.Severity != Safe || rule.Rule != ruleNewFieldsRule {
		t.Errorf("rule on new fields: %+v, want safe", rule)
	}
	// a rule that holds whenever a new field is absent (dependentForbidden)
	guarded := mustSchema(t, obj("  uid: {type: string}\n  gen: {type: integer}\n  a: {type: string}",
		`x-kubernetes-validations: [{rule: "!has(self.a) || !has(self.uid)"}]`))
	for _, c := range CompareSchemas("x", "v1", old, guarded) {
		if c.Kind == "rule-added" && c.Severity != Safe {
			t.Errorf("rule guarded by a new field: %s, want safe", c)
		}
	}
	// the same rule on existing fields only is still a tightening
	mixed := mustSchema(t, obj("  uid: {type: string}\n  gen: {type: integer}\n  a: {type: string}",
		`x-kubernetes-validations: [{rule: "!has(self.uid) || !has(self.gen)"}]`))
	for _, c := range CompareSchemas("x", "v1", old, mixed) {
		if c.Kind == "rule-added" && c.Severity != Ratcheted {
			t.Errorf("rule on old fields: %s, want ratcheted", c)
		}
	}
}

package gendata

import (
	"strings"
	"testing"

	"kdv.dev/builtin/internal/datafile"
	"kdv.dev/schema"
)

// A rule that reads a field the release's type lacks is dropped with a
// note; the rules that compile, at the definition and on a nested
// property, stay, and so do the rules of a referenced definition.
func TestDropUncompilable(t *testing.T) {
	str := schema.Props{Type: "string"}
	ref := "#/components/schemas/io.example.Spec"
	d := &datafile.Data{
		Kinds: []datafile.Kind{{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "Thing"}, Definition: "io.example.Thing"}},
		Schemas: map[string]*schema.Props{
			"io.example.Thing": {
				Type: "object",
				Properties: map[string]schema.Props{
					"a": str,
					"spec": {
						AllOf: []schema.Props{{Ref: &ref}},
					},
					"nested": {
						Type:       "object",
						Properties: map[string]schema.Props{"x": str},
						XValidations: []schema.ValidationRule{
							{Rule: "self.x != 'bad'"},
							{Rule: "!has(self.y)"},
						},
					},
				},
				XValidations: []schema.ValidationRule{
					{Rule: "self.a != ''"},
					{Rule: "!has(self.newField)"},
				},
			},
			"io.example.Spec": {
				Type:         "object",
				Properties:   map[string]schema.Props{"b": str},
				XValidations: []schema.ValidationRule{{Rule: "self.b != 'x'"}},
			},
		},
	}
	notes, err := dropUncompilable(d, 30)
	if err != nil {
		t.Fatal(err)
	}
	rules := func(rs []schema.ValidationRule) (out []string) {
		for _, r := range rs {
			out = append(out, r.Rule)
		}
		return out
	}
	thing := d.Schemas["io.example.Thing"]
	if got := strings.Join(rules(thing.XValidations), "; "); got != "self.a != ''" {
		t.Errorf("Thing rules: %s", got)
	}
	if got := strings.Join(rules(thing.Properties["nested"].XValidations), "; "); got != "self.x != 'bad'" {
		t.Errorf("nested rules: %s", got)
	}
	if got := strings.Join(rules(d.Schemas["io.example.Spec"].XValidations), "; "); got != "self.b != 'x'" {
		t.Errorf("Spec rules: %s", got)
	}
	want := []string{
		`io.example.Thing: rule "!has(self.newField)" dropped: it does not compile against 1.30's types`,
		`io.example.Thing.nested: rule "!has(self.y)" dropped: it does not compile against 1.30's types`,
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}

// A rule's x-kubernetes-diff with Since is kept, Since cleared, from that
// release on, dropped before it (with a note); the rules given are not
// changed (the overlay's schemas may be shared between releases).
func TestDiffsSince(t *testing.T) {
	rules := []schema.ValidationRule{
		{Rule: "a", Diff: &schema.RuleDiff{Path: ".spec", Since: "1.34"}},
		{Rule: "b", Diff: &schema.RuleDiff{Path: ".spec"}},
		{Rule: "c"},
		{Rule: "d", Diff: &schema.RuleDiff{Path: ".spec", Since: "one"}},
	}
	for _, tc := range []struct {
		minor int
		keepA bool
	}{{33, false}, {34, true}, {37, true}} {
		c := ruleChecker{minor: tc.minor, def: "D"}
		got := c.diffsSince(rules, ".x")
		if (got[0].Diff != nil) != tc.keepA || got[0].Diff != nil && got[0].Diff.Since != "" {
			t.Errorf("1.%d: rule a diff %+v", tc.minor, got[0].Diff)
		}
		if got[1].Diff == nil || got[2].Diff != nil || got[3].Diff != nil {
			t.Errorf("1.%d: %+v", tc.minor, got)
		}
		if wantNotes := map[bool]int{true: 1, false: 2}[tc.keepA]; len(c.notes) != wantNotes {
			t.Errorf("1.%d: notes %q", tc.minor, c.notes)
		}
	}
	if rules[0].Diff.Since != "1.34" || rules[3].Diff == nil {
		t.Error("diffsSince changed its argument")
	}
}

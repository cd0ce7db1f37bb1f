package idl

import (
	"strings"
	"testing"
)

func loadWidgets(t *testing.T) *Universe {
	t.Helper()
	u, err := Load(Options{}, "./testdata/widgets")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func tagNames(tags []*Tag) []string {
	var out []string
	for _, t := range tags {
		out = append(out, t.String())
	}
	return out
}

func TestLoadWidgets(t *testing.T) {
	u := loadWidgets(t)
	if len(u.Packages) != 1 {
		t.Fatalf("packages: %d", len(u.Packages))
	}
	p := u.Packages[0]
	if got := strings.Join(tagNames(p.Tags), " "); got != "groupName=widgets.example.com versionName=v1" {
		t.Errorf("package tags: %s", got)
	}
	var names []string
	for _, ty := range p.Types {
		names = append(names, ty.Name)
	}
	if got := strings.Join(names, ","); got != "Component,Identifier,Inner,Part,PartID,Phase,Widget" {
		t.Errorf("types: %s", got)
	}
	w := u.Lookup(p.Path, "Widget")
	if w.Doc != "Widget is a widget.\n\nIt has two paragraphs." {
		t.Errorf("doc: %q", w.Doc)
	}
	// +genclient from the second-closest comment block; deepcopy ignored.
	if got := strings.Join(tagNames(w.Tags), " "); got != "genclient" {
		t.Errorf("widget tags: %s", got)
	}
	fields := map[string]*Field{}
	for _, f := range w.Fields() {
		fields[f.Name] = f
	}
	if f := fields["Name"]; f.JSONName != "name" || f.OmitEmpty || f.Doc != "Name of the widget." || tagNames(f.Tags)[0] != "required" {
		t.Errorf("Name field: %+v", f)
	}
	if f := fields["Inner"]; !f.Inline || !f.Embedded {
		t.Errorf("Inner: %+v", f)
	}
	if !fields["ignored"].Skip || !fields["Skipped"].Skip {
		t.Errorf("skips wrong")
	}
	if got := strings.Join(tagNames(fields["Parts"].Tags), " | "); got != `listType=map | listMapKey=name | beta(since: "1.37")=+maxItems=16 | eachVal=+immutable` {
		t.Errorf("parts tags: %s", got)
	}
	if f := fields["Phase"]; f.Type.Kind != Pointer || f.Type.Elem.Named.Name != "Phase" {
		t.Errorf("phase type: %+v", f.Type)
	}
	ph := u.Lookup(p.Path, "Phase")
	if len(ph.Consts) != 2 || ph.Consts[0].Value != "Pending" || ph.Consts[1].Doc != "PhaseRunning means running." {
		t.Errorf("consts: %+v", ph.Consts)
	}
	// Component -> PartID (alias) -> Identifier: the chain is kept so every
	// declaration's tags apply (KEP-4153 example).
	c := u.Lookup(p.Path, "Component")
	var chain []string
	for ty := c; ty != nil; {
		chain = append(chain, ty.Name+":"+strings.Join(tagNames(ty.Tags), ","))
		if ty.Underlying.Kind != Named {
			break
		}
		ty = ty.Underlying.Named
	}
	want := []string{
		`Component:validationRule(rule: "self != 'none'", message: "none is reserved")`,
		`PartID:validationRule(rule: "!self.startsWith('x-')", message: "must not start with x-")`,
		`Identifier:format=k8s-short-name,maxLength=63`,
	}
	if strings.Join(chain, "\n") != strings.Join(want, "\n") {
		t.Errorf("chain:\n%s\nwant:\n%s", strings.Join(chain, "\n"), strings.Join(want, "\n"))
	}
	if !u.Lookup(p.Path, "PartID").Alias {
		t.Errorf("PartID not an alias")
	}
	if u.Const(p.Path, "PhasePending") == nil {
		t.Errorf("Const lookup failed")
	}
}

func TestLoadTagErrors(t *testing.T) {
	_, err := Load(Options{}, "./testdata/badtags")
	if err == nil {
		t.Fatal("want error")
	}
	msg := err.Error()
	for _, want := range []string{
		"badtags/types.go:5: tag \"+k8s:minimum=abc\"",
		"badtags/types.go:8: tag \"+nosuchtag\": unknown tag +nosuchtag",
		"badtags/types.go:9: tag \"+kubebuilder:validation:Bogus=1\": unknown marker",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

func TestLoadDependencyTagsAreWarnings(t *testing.T) {
	u, err := Load(Options{}, "./testdata/usesbad")
	if err != nil {
		t.Fatalf("dependency tags must not fail the load: %v", err)
	}
	if len(u.Warnings()) != 3 {
		t.Errorf("warnings: %v", u.Warnings())
	}
	if f := u.Lookup("kdv.dev/idl/testdata/badtags", "T").Fields(); len(f) != 2 || f[0].JSONName != "a" {
		t.Errorf("dependency type not converted: %+v", f)
	}
}

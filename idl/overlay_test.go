package idl

import (
	"strings"
	"testing"
)

func TestParseOverlayErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no package", "source x\nWidget.name +minLength=1\n", "o.tags:2: an entry before the package line"},
		{"no source", "package p\nWidget.name +minLength=1\n", "o.tags:2: an entry without a source line naming the code it mirrors"},
		{"no tag", "package p\nsource x\nWidget.name\n", `o.tags:3: want <Type>[.<field>] <tag>, got "Widget.name"`},
		{"bad tag", "package p\nsource x\nWidget.name +nosuchtag=1\n", `o.tags:3: tag "+nosuchtag=1": unknown tag +nosuchtag`},
		{"no meaning", "package p\nsource x\nWidget +k8s:deepcopy-gen=true\n", `o.tags:3: "+k8s:deepcopy-gen=true" carries no schema meaning`},
		{"empty", "# nothing\n", "o.tags: no package line"},
		{"two packages", "package p\npackage q\n", "o.tags:2: second package line"},
	} {
		_, err := ParseOverlay("o.tags", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Overlay tags are merged after the comment tags of the type or field they
// name, keep their position and source, and entries that match nothing are
// warnings.
func TestOverlayMerged(t *testing.T) {
	o, err := ParseOverlay("widgets.tags", []byte(`package kdv.dev/idl/testdata/widgets

# comments and blank lines are ignored
source example.com/defaults.go SetDefaults_Widget
Widget.component +default="engine"
Widget +validationRule="self.name != 'x'"
Part.name +maxLength=63

source example.com/validation.go ValidateWidget
Widget.nosuchfield +minLength=1
`))
	if err != nil {
		t.Fatal(err)
	}
	u, err := Load(Options{Overlays: []*Overlay{o}}, "./testdata/widgets")
	if err != nil {
		t.Fatal(err)
	}
	var widget, part *Type
	for _, ty := range u.Packages[0].Types {
		switch ty.Name {
		case "Widget":
			widget = ty
		case "Part":
			part = ty
		}
	}
	last := func(tags []*Tag) *Tag { return tags[len(tags)-1] }
	if tg := last(widget.Tags); tg.Name != "validationRule" || tg.Source != "example.com/defaults.go SetDefaults_Widget" || tg.Pos.String() != "widgets.tags:6" {
		t.Errorf("Widget: %v %q %v", tg, tg.Source, tg.Pos)
	}
	for _, f := range widget.Underlying.Fields {
		if f.JSONName == "component" {
			if tg := last(f.Tags); tg.Name != "default" || tg.Value != `"engine"` {
				t.Errorf("Widget.component: %v", tagNames(f.Tags))
			}
		}
	}
	for _, f := range part.Underlying.Fields {
		if f.JSONName == "name" {
			if tg := last(f.Tags); tg.Name != "maxLength" || tg.Value != "63" {
				t.Errorf("Part.name: %v", tagNames(f.Tags))
			}
		}
	}
	var warnings []string
	for _, w := range u.Warnings() {
		warnings = append(warnings, w.Error())
	}
	want := "widgets.tags:10: overlay entry for kdv.dev/idl/testdata/widgets.Widget.nosuchfield matches no type or field: +minLength=1"
	if strings.Join(warnings, "\n") != want {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(warnings, "\n"), want)
	}
}

// "releases" limits the entries below it, up to the next source line, to
// a range of Kubernetes releases; ForRelease selects them.
func TestOverlayReleases(t *testing.T) {
	o, err := ParseOverlay("x.tags", []byte(`package example.com/v1
source a
releases -1.33
T.a +optional
source b
T.b +optional
releases 1.34-
T.c +optional
releases 1.31-1.32
T.d +optional
`))
	if err != nil {
		t.Fatal(err)
	}
	fields := func(minor int) (out string) {
		for _, e := range o.ForRelease(minor).Entries() {
			out += e.Field
		}
		return out
	}
	for minor, want := range map[int]string{30: "ab", 31: "abd", 33: "ab", 34: "bc", 37: "bc"} {
		if got := fields(minor); got != want {
			t.Errorf("1.%d: fields %q, want %q", minor, got, want)
		}
	}
	for _, bad := range []string{"releases 1.34", "releases -", "releases 1.35-1.30", "releases 2-3", "releases 1.x-"} {
		if _, err := ParseOverlay("x.tags", []byte("package p\nsource s\n"+bad+"\nT.a +optional\n")); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

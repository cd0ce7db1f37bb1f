package gendata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	lcDoc = `// +k8s:prerelease-lifecycle-gen=true
// +groupName=x.example

package v1beta1
`
	lcRegister = "package v1beta1\n\nconst GroupName = \"x.example\"\n"
	lcTypes    = `package v1beta1

// +k8s:prerelease-lifecycle-gen:introduced=1.20
// +k8s:prerelease-lifecycle-gen:replacement=x.example,v1,Foo

// Foo is a kind.
type Foo struct{}

// Bar has no tags.
type Bar struct{}
`
	lcGenerated = `package v1beta1

import schema "k8s.io/apimachinery/pkg/runtime/schema"

func (in *Foo) APILifecycleIntroduced() (major, minor int) { return 1, 20 }

func (in *Foo) APILifecycleDeprecated() (major, minor int) { return 1, 23 }

func (in *Foo) APILifecycleReplacement() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "x.example", Version: "v1", Kind: "Foo"}
}

func (in *Foo) APILifecycleRemoved() (major, minor int) { return 1, 26 }
`
)

// buildOne writes one package x/v1beta1 with the given files and runs
// BuildLifecycle on it.
func buildOne(t *testing.T, files map[string]string) (string, error) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "x", "v1beta1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := BuildLifecycle([]LifecycleSource{{Module: "example.com/api@v0.1.0", Root: root, Pattern: "*/*"}})
	return string(b), err
}

func TestBuildLifecycle(t *testing.T) {
	base := map[string]string{"doc.go": lcDoc, "register.go": lcRegister, "types.go": lcTypes, "zz_generated.prerelease-lifecycle.go": lcGenerated}
	with := func(name, text string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		if text == "" {
			delete(m, name)
		} else {
			m[name] = text
		}
		return m
	}
	got, err := buildOne(t, base)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"source":"example.com/api v0.1.0","kinds":[
{"group":"x.example","version":"v1beta1","kind":"Foo","introduced":"1.20","deprecated":"1.23","removed":"1.26","replacement":{"group":"x.example","version":"v1","kind":"Foo"}}
]}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Without the package tag, nothing.
	if got, err := buildOne(t, with("doc.go", "package v1beta1\n")); err != nil || strings.Contains(got, "Foo") {
		t.Errorf("not enabled: %v\n%s", err, got)
	}
	// A method written by hand completes the generated ones.
	files := with("zz_generated.prerelease-lifecycle.go", strings.Replace(lcGenerated, "func (in *Foo) APILifecycleDeprecated() (major, minor int) { return 1, 23 }", "", 1))
	files["lifecycle.go"] = "package v1beta1\n\nfunc (in *Foo) APILifecycleDeprecated() (major, minor int) { return 1, 21 }\n"
	if got, err := buildOne(t, files); err != nil || !strings.Contains(got, `"introduced":"1.20","deprecated":"1.21","removed":"1.26"`) {
		t.Errorf("hand-written: %v\n%s", err, got)
	}

	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"generated disagrees", with("zz_generated.prerelease-lifecycle.go", strings.Replace(lcGenerated, "return 1, 23", "return 1, 24", 1)),
			"x/v1beta1: type Foo: the tags give"},
		{"bad release", with("types.go", strings.Replace(lcTypes, "introduced=1.20", "introduced=1.x", 1)),
			`type Foo: release "1.x" is not major.minor`},
		{"bad replacement", with("types.go", strings.Replace(lcTypes, "replacement=x.example,v1,Foo", "replacement=x.example/v1", 1)),
			`type Foo: replacement "x.example/v1" is not group,version,kind`},
		{"unknown tag", with("types.go", strings.Replace(lcTypes, "replacement=", "replaced=", 1)),
			"unknown tag +k8s:prerelease-lifecycle-gen:replaced"},
		{"no introduced", with("types.go", strings.Replace(lcTypes, "// +k8s:prerelease-lifecycle-gen:introduced=1.20\n", "", 1)),
			"+k8s:prerelease-lifecycle-gen:introduced is missing"},
		{"hand-written method not a constant", with("lifecycle.go", "package v1beta1\n\nfunc (in *Bar) APILifecycleDeprecated() (major, minor int) {\n\tx := 1\n\treturn x, 2\n}\n"),
			"Bar.APILifecycleDeprecated: not a single return"},
		{"hand-written and generated", with("lifecycle.go", "package v1beta1\n\nfunc (in *Foo) APILifecycleDeprecated() (major, minor int) { return 1, 21 }\n"),
			"type Foo: a method both generated and written by hand"},
		{"generated without tags", with("zz_generated.prerelease-lifecycle.go", lcGenerated+"\nfunc (in *Bar) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n"),
			"type Bar: in zz_generated.prerelease-lifecycle.go without tags"},
		{"no generated file", with("zz_generated.prerelease-lifecycle.go", ""), "no zz_generated.prerelease-lifecycle.go"},
		{"no group", with("register.go", "package v1beta1\n"), "no GroupName constant"},
	} {
		_, err := buildOne(t, tc.files)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		dir, want     bool
	}{
		{"vendor/", "vendor", true, true},
		{"vendor/", "vendor", false, false}, // a file called vendor
		{"vendor/", "a/vendor", true, true}, // no "/" but the trailing one: any depth
		{"vendor", "a/b/vendor", false, true},
		{"/vendor", "vendor", true, true},
		{"/vendor", "a/vendor", true, false}, // anchored to the file's directory
		{"./vendor", "a/vendor", true, false},
		{"./deploy/*.yaml", "deploy/a.yaml", false, true},
		{"deploy/*.yaml", "deploy/x/a.yaml", false, false},
		{"*.tmpl.yaml", "charts/x/a.tmpl.yaml", false, true},
		{"*.tmpl.yaml", "a.yaml", false, false},
		{"**/testdata/**", "testdata/a.yaml", false, true},
		{"**/testdata/**", "a/b/testdata/c/d.yaml", false, true},
		{"**/testdata/**", "a/testdata", true, true}, // "**" matches no segment too
		{"charts/**/tests/*.yaml", "charts/a/b/tests/t.yaml", false, true},
		{"charts/**/tests/*.yaml", "charts/tests/t.yaml", false, true},
		{"charts/**/tests/*.yaml", "charts/a/tests/x/t.yaml", false, false},
		{"**", "anything/at/all", false, true},
		{"a/**/**/b", "a/b", false, true},
		{"[ab]?.yaml", "x/b1.yaml", false, true},
	}
	for _, tc := range tests {
		if got := Match(tc.pattern, tc.name, tc.dir); got != tc.want {
			t.Errorf("Match(%q, %q, dir=%v) = %v, want %v", tc.pattern, tc.name, tc.dir, got, tc.want)
		}
	}
}

// Many "**" against a deep path: the table keeps the cost at
// len(pattern) × len(name) steps, where backtracking would take about
// len(name)^40 and never finish (the test binary's timeout would fail it).
func TestMatchManyStars(t *testing.T) {
	pattern := strings.Repeat("**/a/", 40) + "b"
	name := strings.Repeat("a/", 200) + "c"
	if Match(pattern, name, false) {
		t.Error("matched")
	}
	if !Match(pattern, strings.Repeat("a/", 200)+"b", false) {
		t.Error("did not match")
	}
}

func TestIgnorer(t *testing.T) {
	root := write(t, map[string]string{"repo/x": ""})
	repo := filepath.Join(root, "repo")
	f := &File{Path: ".kdv.yaml", Dir: repo, Ignore: []string{"vendor/", "**/*.tmpl.yaml"}}
	ig, err := NewIgnorer([]string{"crd", `^deploy/.*\.json$`}, f)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	tests := []struct {
		path string
		dir  bool
		want string
	}{
		{"deploy/app.yaml", false, ""},
		{"deploy/crds.yaml", false, `matches --ignore-filename-pattern "crd"`},
		{"crds", true, ""}, // the regular expressions match files only, as kubeconform's
		{"deploy/x.json", false, `matches --ignore-filename-pattern "^deploy/.*\.json$"`},
		{"./deploy/x.json", false, ""}, // matched against the path as walked
		{"vendor", true, `matches "vendor/" (ignore in .kdv.yaml)`},
		{"vendor/a/b.yaml", false, `matches "vendor/" (ignore in .kdv.yaml)`}, // given by name, under an ignored directory
		{"charts/a.tmpl.yaml", false, `matches "**/*.tmpl.yaml" (ignore in .kdv.yaml)`},
		{filepath.Join(repo, "vendor"), true, `matches "vendor/" (ignore in .kdv.yaml)`},
		{"../vendor", true, ""}, // outside the configuration's directory
		{".", true, ""},
	}
	var want []Ignored
	for _, tc := range tests {
		got := ig.Ignore(tc.path, tc.dir)
		if got != (tc.want != "") {
			t.Errorf("Ignore(%q, %v) = %v, want %v", tc.path, tc.dir, got, !got)
		}
		if tc.want != "" {
			want = append(want, Ignored{tc.path, tc.want})
		}
	}
	if !reflect.DeepEqual(ig.Ignored(), want) {
		t.Errorf("Ignored() =\n%q\nwant\n%q", ig.Ignored(), want)
	}
	if _, err := NewIgnorer([]string{"a("}, nil); err == nil || !strings.HasPrefix(err.Error(), `invalid --ignore-filename-pattern "a(": error parsing regexp`) {
		t.Errorf("bad regexp: %v", err)
	}
	if (*Ignorer)(nil).Active() || (&Ignorer{file: &File{}}).Active() || !ig.Active() {
		t.Error("Active")
	}
}

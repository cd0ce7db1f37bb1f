package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var keys = []string{"crds", "kubernetes-version", "skip", "summary", "jobs", "reject", "ignore-filename-pattern"}

// write creates files (content by relative path) under a fresh directory.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		settings []Setting
		ignore   []string
		err      string // "" for none; else every line of the error, joined by "|"
	}{
		{"empty", "", nil, nil, ""},
		{"comments only", "# nothing yet\n", nil, nil, ""},
		{"null document", "~\n", nil, nil, ""},
		{"scalars and lists", "kubernetes-version: 1.35\nsummary: false\njobs: 2\ncrds: [a/, b.yaml]\nskip: Secret,ConfigMap\nignore:\n- vendor/\n- '**/testdata/**'\n",
			[]Setting{
				{Name: "kubernetes-version", Values: []string{"1.35"}, Line: 1},
				{Name: "summary", Values: []string{"false"}, Line: 2},
				{Name: "jobs", Values: []string{"2"}, Line: 3},
				{Name: "crds", Values: []string{"a/", "b.yaml"}, List: true, Line: 4},
				{Name: "skip", Values: []string{"Secret,ConfigMap"}, Line: 5},
			}, []string{"vendor/", "**/testdata/**"}, ""},
		{"empty list", "crds: []\n", []Setting{{Name: "crds", Values: []string{}, List: true, Line: 1}}, nil, ""},
		{"unknown key, with a suggestion", "kubernets-version: 1.35\nverbos: true\nfrobnicate: 1\nignores: [x]\n", nil, nil,
			`F:1: unknown key "kubernets-version": not a flag of kdv validate or kdv check (did you mean "kubernetes-version"?)` +
				`|F:2: unknown key "verbos": not a flag of kdv validate or kdv check` +
				`|F:3: unknown key "frobnicate": not a flag of kdv validate or kdv check` +
				`|F:4: unknown key "ignores": not a flag of kdv validate or kdv check (did you mean "ignore"?)`},
		{"repeated key", "skip: [a]\nskip: [b]\n", nil, nil, `F:2: key "skip" repeated (first at line 1)`},
		{"null value", "skip:\n", nil, nil, "F:1: skip: no value (write the value, or leave the key out)"},
		{"mapping value", "skip: {a: 1}\n", nil, nil, "F:1: skip: want a value or a list of values, found a mapping"},
		{"nested list", "crds:\n- [a]\n", nil, nil, "F:2: crds: line 2: want a string, number or boolean as list item, found a list"},
		{"alias", "skip: &s Secret\nreject: *s\n", nil, nil, "F:2: reject: want a value or a list of values, found an alias (*s)"},
		{"not a mapping", "- skip\n", nil, nil, "F:1: want a mapping of flag names to values, found a list"},
		{"two documents", "skip: [a]\n---\nreject: [b]\n", nil, nil, "F:2: more than one YAML document; a configuration is one mapping"},
		{"syntax error", "skip: [a\n", nil, nil, "F: line 1: did not find expected ',' or ']'"},
		{"bad glob", "ignore: ['[a-', '']\n", nil, nil, `F:1: ignore: "[a-": malformed glob: syntax error in pattern|F:1: ignore: "": empty pattern`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{Name: tc.text})
			p := filepath.Join(dir, Name)
			f, err := Load(p, keys)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("no error, want %q", tc.err)
				}
				got := strings.ReplaceAll(strings.ReplaceAll(err.Error(), p, "F"), "\n", "|")
				if got != tc.err {
					t.Errorf("error\n got %s\nwant %s", got, tc.err)
				}
				if f != nil {
					t.Error("a File with an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.Settings, tc.settings) || !reflect.DeepEqual(f.Ignore, tc.ignore) {
				t.Errorf("got %+v ignore %q\nwant %+v ignore %q", f.Settings, f.Ignore, tc.settings, tc.ignore)
			}
			if f.Dir != dir || f.Path != p {
				t.Errorf("Dir %q Path %q, want %q %q", f.Dir, f.Path, dir, p)
			}
		})
	}
}

func TestLoadBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("skip: ["+strings.Repeat("a,", MaxBytes/2)+"a]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big, keys); err == nil || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
		t.Errorf("oversized file: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml"), keys); err == nil || err.Error() != filepath.Join(dir, "missing.yaml")+": no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
}

// Find looks in the directory and its parents, nearest first, up to the
// root; a directory called .kdv.yaml is an error.
func TestFind(t *testing.T) {
	root := write(t, map[string]string{
		"repo/" + Name:         "",
		"repo/a/b/c/":          "",
		"repo/a/" + Name + "/": "",
		"other/":               "",
	})
	tests := []struct {
		start, want, err string
	}{
		{"repo", "repo/" + Name, ""},
		{"repo/a/b/c", "", "repo/a/.kdv.yaml is a directory"},
		{"other", "", ""},
	}
	for _, tc := range tests {
		got, err := Find(filepath.Join(root, tc.start))
		want := ""
		if tc.want != "" {
			want = filepath.Join(root, tc.want)
		}
		if got != want {
			t.Errorf("Find(%s) = %q, want %q", tc.start, got, want)
		}
		wantErr := ""
		if tc.err != "" {
			wantErr = filepath.Join(root, "repo/a", Name) + ": not a regular file"
		}
		if (err == nil) != (wantErr == "") || err != nil && err.Error() != wantErr {
			t.Errorf("Find(%s) error %v, want %q", tc.start, err, wantErr)
		}
	}
	// Nearest first: below repo/a/b, a file in b wins over repo's.
	os.WriteFile(filepath.Join(root, "repo/a/b", Name), nil, 0o644)
	if got, _ := Find(filepath.Join(root, "repo/a/b/c")); got != filepath.Join(root, "repo/a/b", Name) {
		t.Errorf("nearest: %q", got)
	}
}

func TestResolve(t *testing.T) {
	root := write(t, map[string]string{"repo/sub/": ""})
	f := &File{Path: filepath.Join(root, "repo", Name), Dir: filepath.Join(root, "repo")}
	t.Chdir(filepath.Join(root, "repo", "sub"))
	for in, want := range map[string]string{
		"crds/":           "../crds",
		"sub/x.yaml":      "x.yaml",
		"-":               "-",
		"/abs/crds":       "/abs/crds",
		"../outside.yaml": "../../outside.yaml",
	} {
		if got := f.Resolve(in); got != filepath.FromSlash(want) {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

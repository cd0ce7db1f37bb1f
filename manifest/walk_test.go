package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree builds files (content by relative path; a value starting with "->" makes a symbolic
// link to the rest) under a fresh directory and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasPrefix(content, "->"):
			err = os.Symlink(strings.TrimPrefix(content, "->"), p)
		case strings.HasSuffix(rel, "/"):
			err = os.MkdirAll(p, 0o755)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Skipf("cannot build the tree here: %v", err) // symbolic links need privileges on Windows
		}
	}
	return dir
}

// rel returns paths relative to dir, with "/" separators.
func rel(dir string, paths []string) []string {
	out := []string{}
	for _, p := range paths {
		r, err := filepath.Rel(dir, p)
		if err != nil || p == "-" {
			r = p
		}
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

// errorsOf lists the messages of the *Errors joined in err, relative to dir.
func errorsOf(dir string, err error) []string {
	out := []string{}
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var e *Error
		if errors.As(err, &e) {
			out = append(out, filepath.ToSlash(strings.ReplaceAll(e.Error(), dir+string(filepath.Separator), "")))
			return
		}
		out = append(out, "not an *Error: "+err.Error())
	}
	if err != nil {
		walk(err)
	}
	return out
}

const cmYAML = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"

// The path cases of kdv's inputs (validate, check, prune, default, --crds, --schemas, --old
// all read through walk): what is read and what is reported.
func TestWalkPaths(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		args  []string // relative to the tree; "-" is stdin
		want  []string // files read, relative
		errs  []string // each error's text, relative; substrings
	}{
		{
			name:  "a symlink to a directory given as a path is walked",
			files: map[string]string{"real/a.yaml": cmYAML, "real/sub/b.yml": cmYAML, "link": "->real"},
			args:  []string{"link"},
			want:  []string{"link/a.yaml", "link/sub/b.yml"},
		},
		{
			name:  "with a trailing slash too",
			files: map[string]string{"real/a.yaml": cmYAML, "link": "->real"},
			args:  []string{"link/"},
			want:  []string{"link/a.yaml"},
		},
		{
			name:  "a symlink to a directory inside a walked directory is walked, in lexical order",
			files: map[string]string{"other/c.json": "{}", "dir/a.yaml": cmYAML, "dir/b": "->../other", "dir/d.yaml": cmYAML},
			args:  []string{"dir"},
			want:  []string{"dir/a.yaml", "dir/b/c.json", "dir/d.yaml"},
		},
		{
			name:  "a symlink to a file is read, by the link's name and extension",
			files: map[string]string{"x.txt": cmYAML, "dir/a.yaml": "->../x.txt", "dir/b.txt": "->../x.txt"},
			args:  []string{"dir"},
			want:  []string{"dir/a.yaml"},
		},
		{
			name:  "a symlink to a file given by name is read",
			files: map[string]string{"x.txt": cmYAML, "l": "->x.txt"},
			args:  []string{"l"},
			want:  []string{"l"},
		},
		{
			name:  "a symlink loop is reported once and the walk goes on",
			files: map[string]string{"dir/a.yaml": cmYAML, "dir/self": "->.", "dir/z.yaml": cmYAML},
			args:  []string{"dir"},
			want:  []string{"dir/a.yaml", "dir/z.yaml"},
			errs:  []string{"dir/self: file system loop detected: dir/self is the same directory as dir; not walked again"},
		},
		{
			name:  "a loop through a parent is found at the first directory seen twice",
			files: map[string]string{"top/dir/a.yaml": cmYAML, "top/dir/up": "->.."},
			args:  []string{"top"},
			want:  []string{"top/dir/a.yaml"},
			errs:  []string{"top/dir/up: file system loop detected: top/dir/up is the same directory as top; not walked again"},
		},
		{
			name:  "two links to the same directory are both walked, as find -L does (not a loop)",
			files: map[string]string{"base/a.yaml": cmYAML, "o/dev/base": "->../../base", "o/prod/base": "->../../base"},
			args:  []string{"o"},
			want:  []string{"o/dev/base/a.yaml", "o/prod/base/a.yaml"},
		},
		{
			name:  "a dangling link with a manifest's name is an error, other dangling links are ignored",
			files: map[string]string{"dir/a.yaml": cmYAML, "dir/gone.yaml": "->nowhere", "dir/gone": "->nowhere"},
			args:  []string{"dir"},
			want:  []string{"dir/a.yaml"},
			errs:  []string{"dir/gone.yaml: no such file or directory"},
		},
		{
			name:  "a missing path is an error naming it, the others are read",
			files: map[string]string{"a.yaml": cmYAML},
			args:  []string{"missing.yaml", "a.yaml", "missing/"},
			want:  []string{"a.yaml"},
			errs:  []string{"missing.yaml: no such file or directory", "missing/: no such file or directory"},
		},
		{
			name:  "a symlink to a missing directory given as a path",
			files: map[string]string{"link": "->missing"},
			args:  []string{"link"},
			want:  []string{},
			errs:  []string{"link: no such file or directory"},
		},
		{
			name:  "an empty directory is an error",
			files: map[string]string{"empty/": ""},
			args:  []string{"empty"},
			want:  []string{},
			errs:  []string{"empty: no .json, .yaml, .yml file in this directory or below"},
		},
		{
			name:  "a directory without manifests is an error",
			files: map[string]string{"docs/README.md": "x", "docs/sub/notes.txt": "x", "docs/e.YAML": cmYAML},
			args:  []string{"docs"},
			want:  []string{},
			errs:  []string{"docs: no .json, .yaml, .yml file in this directory or below"},
		},
		{
			name:  "a directory with manifests only below is fine, and so are empty subdirectories",
			files: map[string]string{"d/x/y/a.yaml": "", "d/empty/": ""},
			args:  []string{"d"},
			want:  []string{"d/x/y/a.yaml"},
		},
		{
			name:  "files whose documents are all empty are read without error",
			files: map[string]string{"e.yaml": "---\n# nothing\n---\n", "z.json": ""},
			args:  []string{"e.yaml", "z.json"},
			want:  []string{"e.yaml", "z.json"},
		},
		{
			name:  "stdin",
			files: map[string]string{"a.yaml": cmYAML},
			args:  []string{"-", "a.yaml"},
			want:  []string{"-", "a.yaml"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, tt.files)
			var args []string
			for _, a := range tt.args {
				if a != "-" {
					a = filepath.Join(dir, a)
					if strings.HasSuffix(tt.args[len(args)], "/") {
						a += string(filepath.Separator)
					}
				}
				args = append(args, a)
			}
			files, err := Files(args)
			if got := rel(dir, files); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("files %q, want %q", got, tt.want)
			}
			got := errorsOf(dir, err)
			if len(got) != len(tt.errs) {
				t.Fatalf("errors %q, want %q", got, tt.errs)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.errs[i]) {
					t.Errorf("error %d: %q, want %q", i, got[i], tt.errs[i])
				}
			}
			// Read reads the same files and reports the same problems.
			docs, rerr := Read(args, strings.NewReader(cmYAML), Options{})
			if rg := errorsOf(dir, rerr); !reflect.DeepEqual(rg, got) {
				t.Errorf("Read errors %q, Files errors %q", rg, got)
			}
			seen := map[string]bool{}
			for _, d := range docs {
				seen[d.File] = true
				if d.Err != nil {
					t.Errorf("%s: %v", d.File, d.Err)
				}
			}
			for _, f := range files {
				if data, _ := os.ReadFile(f); strings.Contains(string(data), "kind") && !seen[f] && f != "-" {
					t.Errorf("Read did not read %s", f)
				}
			}
		})
	}
}

// FilesMatching takes the files match accepts under directories (here case-insensitively,
// as --schemas does), and still every file given by name.
func TestFilesMatching(t *testing.T) {
	dir := tree(t, map[string]string{"s/a.JSON": "{}", "s/b.yaml": "", "s/c.txt": "", "s/l": "->../t", "t/d.Json": "{}", "x.txt": ""})
	match := func(name string) bool {
		switch strings.ToLower(filepath.Ext(name)) {
		case ".json", ".yaml", ".yml":
			return true
		}
		return false
	}
	files, err := FilesMatching([]string{filepath.Join(dir, "s"), filepath.Join(dir, "x.txt")}, match)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(dir, files), []string{"s/a.JSON", "s/b.yaml", "s/l/d.Json", "x.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}

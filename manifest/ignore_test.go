package manifest

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Options.Ignore: ignored files are not read, ignored directories neither built nor walked,
// and a directory whose files are all ignored is not reported as holding none.
func TestReadIgnore(t *testing.T) {
	dir := tree(t, map[string]string{
		"a.yaml":                  cmYAML,
		"skip.yaml":               "{not yaml",
		"notes.txt":               "never asked about: not a manifest's name",
		"vendor/v.yaml":           "{not yaml",
		"vendor/deep/w.yaml":      cmYAML,
		"kust/kustomization.yaml": "resources: []\n",
		"only/ignored.yaml":       cmYAML,
	})
	var asked []string
	built := 0
	opts := Options{
		Ignore: func(p string, isDir bool) bool {
			r, _ := filepath.Rel(dir, p)
			r = filepath.ToSlash(r)
			if isDir {
				r += "/"
			}
			asked = append(asked, r)
			return r == "skip.yaml" || r == "vendor/" || r == "kust/" || strings.HasPrefix(r, "only/")
		},
		Build: func(d string) (bool, []Built, error) {
			if filepath.Base(d) == "kust" {
				built++
				return true, nil, nil
			}
			return false, nil, nil
		},
	}
	docs, err := Read([]string{dir, filepath.Join(dir, "only")}, nil, opts)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	var files []string
	for _, d := range docs {
		if d.Err != nil {
			t.Errorf("%s: %v", d.File, d.Err)
		}
		files = append(files, rel(dir, []string{d.File})...)
	}
	if want := []string{"a.yaml"}; !reflect.DeepEqual(files, want) {
		t.Errorf("read %q, want %q", files, want)
	}
	if built != 0 {
		t.Errorf("an ignored kustomization directory was built")
	}
	want := []string{"./", "a.yaml", "kust/", "only/", "skip.yaml", "vendor/", "only/"}
	if !reflect.DeepEqual(asked, want) {
		t.Errorf("Ignore asked about %q, want %q", asked, want)
	}
}

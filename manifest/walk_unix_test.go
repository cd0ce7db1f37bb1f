//go:build unix

package manifest

import (
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// A named pipe in a walked directory would block the read forever: it is reported and not
// read. Given by name (as bash's <(...) gives one) it is read.
func TestWalkNamedPipe(t *testing.T) {
	dir := tree(t, map[string]string{"d/a.yaml": cmYAML})
	if err := syscall.Mkfifo(filepath.Join(dir, "d", "p.yaml"), 0o644); err != nil {
		t.Skip(err)
	}
	files, err := Files([]string{filepath.Join(dir, "d")})
	if got, want := rel(dir, files), []string{"d/a.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	errs := errorsOf(dir, err)
	if len(errs) != 1 || !strings.Contains(errs[0], "d/p.yaml: not a regular file (named pipe)") {
		t.Errorf("errors %q", errs)
	}
	files, err = Files([]string{filepath.Join(dir, "d", "p.yaml")})
	if err != nil || len(files) != 1 {
		t.Errorf("by name: %q, %v", files, err)
	}
}

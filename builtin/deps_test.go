package builtin

import (
	"os/exec"
	"strings"
	"testing"
)

// runtimePackages are the packages that validate: they must not link the
// generator side of kdv.
var runtimePackages = []string{
	"kdv.dev/builtin", "kdv.dev/resource", "kdv.dev/validation", "kdv.dev/manifest",
	"kdv.dev/report", "kdv.dev/schema", "kdv.dev/schema/refs", "kdv.dev/cel",
	"kdv.dev/defaulting", "kdv.dev/pruning", "kdv.dev/formats", "kdv.dev/value",
}

// forbiddenPrefixes are the generator's packages (the IDL, the OpenAPI and
// CRD generator, the builder of builtin's data files) and go/packages with
// the rest of golang.org/x/tools that they bring: loading Go source has no
// place in validating, and linking it makes every validating program
// larger and slower to start.
var forbiddenPrefixes = []string{
	"kdv.dev/idl", "kdv.dev/generate/", "kdv.dev/builtin/internal/gendata", "golang.org/x/tools/",
}

func forbidden(pkg string) bool {
	for _, f := range forbiddenPrefixes {
		if pkg == strings.TrimSuffix(f, "/") || strings.HasPrefix(pkg, f) {
			return true
		}
	}
	return false
}

// TestRuntimeDependencies fails when a runtime package depends, directly or
// not, on a forbidden package, and names the chain of imports that leads
// there.
func TestRuntimeDependencies(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found:", err)
	}
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}, runtimePackages...)
	out, err := exec.Command(gobin, args...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, msg)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			imports[f[0]] = f[1:]
		}
	}
	if len(imports) < len(runtimePackages) {
		t.Fatalf("go list printed %d packages, want at least %d:\n%s", len(imports), len(runtimePackages), out)
	}
	for _, root := range runtimePackages {
		if _, ok := imports[root]; !ok {
			t.Errorf("go list did not list %s", root)
			continue
		}
		// breadth first, so the chain reported is a shortest one
		from := map[string]string{root: ""}
		queue := []string{root}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if forbidden(p) {
				chain := []string{p}
				for q := from[p]; q != ""; q = from[q] {
					chain = append([]string{q}, chain...)
				}
				t.Errorf("%s depends on %s: %s", root, p, strings.Join(chain, " -> "))
				break
			}
			for _, q := range imports[p] {
				if _, seen := from[q]; !seen {
					from[q] = p
					queue = append(queue, q)
				}
			}
		}
	}
}

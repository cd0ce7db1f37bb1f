package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gadgetDoc has no schema unless a --crds file defines Gadget; widgetDoc
// validates against examples/crd/widgets.crd.yaml.
const (
	gadgetDoc = "apiVersion: example.kdv.dev/v1\nkind: Gadget\nmetadata:\n  name: g\n"
	widgetDoc = "apiVersion: example.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: small\n"
	gizmoDoc  = "apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  count: x\n"
	gizmoAPI  = `{"openapi":"3.0.0","components":{"schemas":{"com.example.v1.Gizmo":{"type":"object",` +
		`"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},` +
		`"spec":{"type":"object","properties":{"count":{"type":"integer"}}}},` +
		`"x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Gizmo"}]}}}}`
	gadgetCRDHead = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.kdv.dev\n"
	oldWidget     = "apiVersion: example.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: large\n"
)

// pathTree builds a directory for a CLI test: content by relative path, a
// value "->target" makes a symbolic link, "@file" copies a file of the
// repository, a path ending in "/" is an empty directory.
func pathTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasSuffix(rel, "/"):
			err = os.MkdirAll(p, 0o755)
		case strings.HasPrefix(content, "->"):
			if err = os.Symlink(strings.TrimPrefix(content, "->"), p); err != nil {
				t.Skipf("symbolic links: %v", err)
			}
		case strings.HasPrefix(content, "@"):
			var b []byte
			if b, err = os.ReadFile(content[1:]); err == nil {
				err = os.WriteFile(p, b, 0o644)
			}
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every path input (arguments of validate, check, prune and default,
// --crds, --schemas, --old) reads directories as find -L does, and a
// missing path, a directory without manifests, a symlink loop or a bad
// schema source is reported by name with exit 2, while the rest is still
// read and validated.
func TestPathInputs(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		args   []string // "{}/" is replaced by the tree's directory
		code   int
		out    []string // substrings of stdout
		errOut []string // substrings of stderr
		not    []string // substrings of neither
	}{
		{
			name:  "validate a symlink to a directory",
			files: map[string]string{"real/crd.yaml": "@" + widgetCRD, "real/w.yaml": widgetDoc + "  colour: red\n", "link": "->real"},
			args:  []string{"validate", "{}/link"},
			code:  exitInvalid,
			out:   []string{`link/w.yaml:7: example.kdv.dev/Widget default/w: unknown field "spec.colour"`, "2 documents in 2 files: 1 valid, 1 invalid"},
		},
		{
			name:  "validate a directory holding a symlink to a directory",
			files: map[string]string{"real/crd.yaml": "@" + widgetCRD, "real/w.yaml": widgetDoc, "top/a": "->../real"},
			args:  []string{"validate", "{}/top"},
			code:  exitValid,
			out:   []string{"2 documents in 2 files: 2 valid"},
		},
		{
			name:  "check a symlink to a directory",
			files: map[string]string{"real/crd.yaml": "@" + widgetCRD, "link": "->real"},
			args:  []string{"check", "{}/link"},
			code:  exitValid,
			out:   []string{"1 document in 1 file: 1 valid"},
		},
		{
			name:  "--crds a symlink to a directory",
			files: map[string]string{"real/crd.yaml": "@" + widgetCRD, "link": "->real", "w.yaml": widgetDoc},
			args:  []string{"validate", "--crds", "{}/link", "{}/w.yaml"},
			code:  exitValid,
			out:   []string{"1 document in 1 file: 1 valid"},
		},
		{
			name:  "--schemas a symlink to a directory",
			files: map[string]string{"oa/gizmo.json": gizmoAPI, "link": "->oa", "g.yaml": gizmoDoc},
			args:  []string{"validate", "--schemas", "{}/link", "{}/g.yaml"},
			code:  exitInvalid,
			out:   []string{"spec.count: Invalid value", "1 document in 1 file: 0 valid, 1 invalid"},
		},
		{
			name:  "--old a symlink to a directory",
			files: map[string]string{"old/w.yaml": oldWidget, "link": "->old", "w.yaml": widgetDoc},
			args:  []string{"validate", "--crds", widgetCRD, "--old", "{}/link", "{}/w.yaml"},
			code:  exitInvalid,
			out:   []string{"spec: Invalid value: size is immutable"},
		},
		{
			name:   "prune a symlink to a directory",
			files:  map[string]string{"real/w.yaml": widgetDoc + "  colour: red\n", "link": "->real"},
			args:   []string{"prune", "--crds", widgetCRD, "{}/link"},
			code:   exitValid,
			out:    []string{"name: w"},
			errOut: []string{`link/w.yaml:1: unknown field "spec.colour"`},
		},
		{
			name:   "a symlink loop is reported once, the rest is validated",
			files:  map[string]string{"d/w.yaml": widgetDoc, "d/loop": "->.", "d/crd.yaml": "@" + widgetCRD},
			args:   []string{"validate", "{}/d"},
			code:   exitUsage,
			out:    []string{"2 documents in 2 files: 2 valid"},
			errOut: []string{"kdv: {}/d/loop: file system loop detected: {}/d/loop is the same directory as {}/d; not walked again"},
		},
		{
			name:   "a missing path",
			files:  map[string]string{"w.yaml": widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "{}/missing.yaml", "{}/w.yaml"},
			code:   exitUsage,
			out:    []string{"1 document in 1 file: 1 valid"},
			errOut: []string{"kdv: {}/missing.yaml: no such file or directory"},
		},
		{
			name:   "check: a missing path",
			args:   []string{"check", "{}/missing"},
			code:   exitUsage,
			out:    []string{"0 documents in 0 files"},
			errOut: []string{"kdv: {}/missing: no such file or directory"},
		},
		{
			name:   "an empty directory",
			files:  map[string]string{"empty/": ""},
			args:   []string{"validate", "{}/empty"},
			code:   exitUsage,
			out:    []string{"0 documents in 0 files"},
			errOut: []string{"kdv: {}/empty: no .json, .yaml, .yml file in this directory or below"},
		},
		{
			name:   "a directory without manifests",
			files:  map[string]string{"docs/README.md": "# x\n", "docs/chart/values.txt": "a: b\n"},
			args:   []string{"check", "{}/docs"},
			code:   exitUsage,
			errOut: []string{"kdv: {}/docs: no .json, .yaml, .yml file in this directory or below"},
		},
		{
			name:  "files whose documents are all empty are fine",
			files: map[string]string{"e.yaml": "---\n# only a comment\n---\n", "z.yaml": ""},
			args:  []string{"validate", "{}/e.yaml", "{}/z.yaml"},
			code:  exitValid,
			out:   []string{"0 documents in 0 files: 0 valid, 0 invalid, 0 failed, 0 skipped"},
		},
		{
			name:  "files whose documents are all skipped are fine",
			files: map[string]string{"s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n"},
			args:  []string{"validate", "--skip", "Secret", "{}/s.yaml"},
			code:  exitValid,
			out:   []string{"1 document in 1 file: 0 valid, 0 invalid, 0 failed, 1 skipped"},
		},
		{
			name:   "--crds: a YAML syntax error fails only the kinds left without a schema",
			files:  map[string]string{"crds/bad.yaml": gadgetCRDHead + "spec: {group: [\n", "crds/w.yaml": "@" + widgetCRD, "in.yaml": gadgetDoc + "---\n" + widgetDoc},
			args:   []string{"validate", "--crds", "{}/crds", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{"in.yaml:1: no schema for example.kdv.dev/v1, Kind=Gadget ({}/crds/bad.yaml:5 could not be loaded: yaml: line 5: ", "2 documents in 1 file: 1 valid, 0 invalid, 1 failed"},
			errOut: []string{"kdv: --crds: {}/crds/bad.yaml:5: yaml: line 5: "},
		},
		{
			name:   "--crds: a CRD that does not parse rejects its kind",
			files:  map[string]string{"bad.yaml": gadgetCRDHead + "spec:\n  group: example.kdv.dev\n  names: {kind: Gadget, plural: gadgets}\n  versions: 3\n", "in.yaml": gadgetDoc + "---\n" + widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "--crds", "{}/bad.yaml", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{"in.yaml:1: no schema for example.kdv.dev/v1, Kind=Gadget (the CustomResourceDefinition at {}/bad.yaml:1 could not be loaded: ", "1 valid, 0 invalid, 1 failed"},
			errOut: []string{"kdv: --crds: {}/bad.yaml:1: "},
		},
		{
			name:   "--crds: a CRD whose version has no schema rejects its kind",
			files:  map[string]string{"bad.yaml": gadgetCRDHead + "spec:\n  group: example.kdv.dev\n  scope: Namespaced\n  names: {kind: Gadget, plural: gadgets}\n  versions:\n  - {name: v1, served: true, storage: true}\n", "in.yaml": gadgetDoc + "---\n" + widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "--crds", "{}/bad.yaml", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{`no schema for example.kdv.dev/v1, Kind=Gadget (the CustomResourceDefinition at {}/bad.yaml:1 could not be loaded: CustomResourceDefinition gadgets.example.kdv.dev version v1: version "v1" has no schema.openAPIV3Schema)`, "1 valid, 0 invalid, 1 failed"},
			errOut: []string{`kdv: --crds: {}/bad.yaml:1: CustomResourceDefinition gadgets.example.kdv.dev version v1: version "v1" has no schema.openAPIV3Schema`},
		},
		{
			name:   "--crds: a file holding no CRD",
			files:  map[string]string{"notcrd.yaml": gadgetDoc, "in.yaml": gadgetDoc + "---\n" + widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "--crds", "{}/notcrd.yaml", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{"no schema for example.kdv.dev/v1, Kind=Gadget ({}/notcrd.yaml holds no CustomResourceDefinition)", "1 valid, 0 invalid, 1 failed"},
			errOut: []string{"kdv: --crds: {}/notcrd.yaml: no CustomResourceDefinition found"},
		},
		{
			name:   "--crds: an unreadable file (a dangling link)",
			files:  map[string]string{"crds/gone.yaml": "->nowhere", "crds/w.yaml": "@" + widgetCRD, "in.yaml": gadgetDoc + "---\n" + widgetDoc},
			args:   []string{"validate", "--crds", "{}/crds", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{"no schema for example.kdv.dev/v1, Kind=Gadget ({}/crds/gone.yaml could not be loaded: no such file or directory)", "1 valid, 0 invalid, 1 failed"},
			errOut: []string{"kdv: --crds: {}/crds/gone.yaml: no such file or directory"},
		},
		{
			name:   "--crds: a missing path does not stop the run",
			files:  map[string]string{"in.yaml": widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "--crds", "{}/missing", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{"1 document in 1 file: 1 valid"},
			errOut: []string{"kdv: --crds: {}/missing: no such file or directory"},
			not:    []string{"no CustomResourceDefinition found"},
		},
		{
			name:   "--crds: a bad file is reported by prune too, which goes on",
			files:  map[string]string{"bad.yaml": "a: [\n", "in.yaml": widgetDoc},
			args:   []string{"prune", "--crds", widgetCRD, "--crds", "{}/bad.yaml", "{}/in.yaml"},
			code:   exitUsage,
			out:    []string{"name: w"},
			errOut: []string{"kdv: --crds: {}/bad.yaml:1: "},
		},
		{
			name:   "--schemas: a missing directory does not stop the run",
			files:  map[string]string{"g.yaml": gizmoDoc},
			args:   []string{"validate", "--schemas", "{}/missing", "{}/g.yaml"},
			code:   exitUsage,
			out:    []string{"no schema for example.com/v1, Kind=Gizmo ({}/missing could not be loaded: no such file or directory)"},
			errOut: []string{"kdv: --schemas: {}/missing: no such file or directory"},
		},
		{
			name:   "--old: a document that does not decode is reported",
			files:  map[string]string{"old.yaml": "a: [\n---\n" + oldWidget, "w.yaml": widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "--old", "{}/old.yaml", "{}/w.yaml"},
			code:   exitUsage,
			out:    []string{"size is immutable"},
			errOut: []string{"kdv: --old: {}/old.yaml:1: "},
		},
		{
			name:   "--old: a missing path does not stop the run",
			files:  map[string]string{"w.yaml": widgetDoc},
			args:   []string{"validate", "--crds", widgetCRD, "--old", "{}/missing", "{}/w.yaml"},
			code:   exitUsage,
			out:    []string{"1 document in 1 file: 1 valid"},
			errOut: []string{"kdv: --old: {}/missing: no such file or directory"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := pathTree(t, tt.files)
			sub := func(s string) string { return strings.ReplaceAll(s, "{}", dir) }
			var args []string
			for _, a := range tt.args {
				args = append(args, sub(a))
			}
			code, out, errOut := kdv(t, "", args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			for _, w := range tt.out {
				if !strings.Contains(out, sub(w)) {
					t.Errorf("stdout lacks %q", sub(w))
				}
			}
			for _, w := range tt.errOut {
				if !strings.Contains(errOut, sub(w)) {
					t.Errorf("stderr lacks %q", sub(w))
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out+errOut, sub(w)) {
					t.Errorf("output has %q", sub(w))
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", out, errOut)
			}
		})
	}
}

// kdv gen says which packages produced nothing and why: warnings when
// others produced something, exit 2 when nothing at all was produced.
func TestGenReportsWhatProducedNothing(t *testing.T) {
	sample := "../../generate/openapi/testdata/sample/..."
	tests := []struct {
		name   string
		args   []string
		code   int
		errOut []string
	}{
		{
			name: "a package that is not an API package",
			args: []string{"gen", "crd", "kdv.dev/report"},
			code: exitUsage,
			errOut: []string{"kdv: kdv.dev/report: nothing generated: not an API package: no +groupName tag and no GroupName constant",
				"kdv: gen: nothing generated from kdv.dev/report"},
		},
		{
			name:   "the same for openapi",
			args:   []string{"gen", "openapi", "kdv.dev/report"},
			code:   exitUsage,
			errOut: []string{"kdv: gen: nothing generated from kdv.dev/report"},
		},
		{
			name:   "an API package without a root kind",
			args:   []string{"gen", "crd", "./testdata/noroot/..."},
			code:   exitUsage,
			errOut: []string{"kdv: kdv.dev/cmd/kdv/testdata/noroot/v1: nothing generated: no kind is marked +kubebuilder:object:root=true"},
		},
		{
			name:   "a pattern matching no package",
			args:   []string{"gen", "openapi", "kdv.dev/nosuch/..."},
			code:   exitUsage,
			errOut: []string{"kdv: gen: no Go package matches kdv.dev/nosuch/..."},
		},
		{
			name:   "a package that does not load",
			args:   []string{"gen", "openapi", "./testdata"},
			code:   exitUsage,
			errOut: []string{"kdv: ./testdata: no Go files in "},
		},
		{
			name: "warnings when something else was produced",
			args: []string{"gen", "crd", "--out", "OUT", sample, "kdv.dev/report", "kdv.dev/nosuch/...", "./testdata/noroot/..."},
			code: exitValid,
			errOut: []string{"kdv: warning: kdv.dev/report: nothing generated: not an API package",
				"kdv: warning: gen: pattern kdv.dev/nosuch/... matches no Go package",
				"kdv: warning: kdv.dev/cmd/kdv/testdata/noroot/v1: nothing generated: no kind is marked +kubebuilder:object:root=true"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			var args []string
			for _, a := range tt.args {
				args = append(args, strings.ReplaceAll(a, "OUT", out))
			}
			code, _, errOut := kdv(t, "", args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			for _, w := range tt.errOut {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q", w)
				}
			}
			if strings.Contains(errOut, ": -: ") {
				t.Errorf("stderr has go/packages' empty position %q", "-:")
			}
			if t.Failed() {
				t.Logf("stderr:\n%s", errOut)
			}
		})
	}
}

// Outside a Go module go list fails without a package to blame, and
// go/packages returns none: kdv says where the problem is.
func TestGenOutsideModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\ntype A struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, _, errOut := kdv(t, "", "gen", "openapi", ".")
	if code != exitUsage || !strings.Contains(errOut, "the current directory is not in a Go module") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

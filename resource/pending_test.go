package resource

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

// RunPending (decode next to validation, objects dropped) must report
// exactly what Run (everything decoded first) reports: the same documents,
// indexes, lines, errors and order, in every output format.
func TestRunPendingMatchesRun(t *testing.T) {
	dir := t.TempDir()
	// Objects before the CRD that defines them, a List, empty, comment-only
	// and null documents, a broken document and an unknown kind, across
	// two files so that indexes restart.
	crd, err := os.ReadFile(widgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	first := `# leading comment
---
apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: early, namespace: team}
spec: {size: huge}
---
---
# only a comment
---
null
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: Bad_Name}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: good}
  data: {a: 1}
---
apiVersion: v1
kind: List
items: []
---
kind: Service
apiVersion: v1
metadata: {name: svc
---
apiVersion: nope.example/v1
kind: Nothing
metadata: {name: x}
`
	second := string(crd) + `
---
apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: late}
spec: {size: small, unknownField: 1}
`
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := [][]string{{dir}, {"../examples"}, {"../cmd/kdv/testdata"}}
	if _, err := os.Stat(corpus); err == nil {
		inputs = append(inputs,
			[]string{corpus + "/gateway-api/config/crd/experimental", corpus + "/gateway-api/examples"},
			[]string{corpus + "/kubernetes-examples"})
	}
	for _, paths := range inputs {
		docs, err1 := manifest.Read(paths, nil, manifest.Options{})
		pending, err2 := manifest.ReadPending(paths, nil, manifest.Options{})
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%v: read errors differ: %v vs %v", paths, err1, err2)
		}
		run := func(f func(reg *Registry) *report.Result) *report.Result {
			reg := NewRegistry(Options{})
			if err := UseBuiltin(reg, 0); err != nil {
				t.Fatal(err)
			}
			return f(reg)
		}
		want := run(func(reg *Registry) *report.Result {
			return Run(context.Background(), docs, reg, RunOptions{Jobs: 2})
		})
		calls := 0
		got := run(func(reg *Registry) *report.Result {
			return RunPending(context.Background(), pending, reg, RunOptions{Jobs: 3, Progress: func(int) { calls++ }})
		})
		// Run gets decoded documents, in which empty ones are gone already;
		// RunPending lists them as Empty results for the JSON format.
		got.Documents = slices.DeleteFunc(got.Documents, func(d report.DocumentResult) bool { return d.Empty })
		if calls != len(pending) {
			t.Errorf("%v: progress called %d times for %d pending documents", paths, calls, len(pending))
		}
		if len(want.Documents) == 0 {
			t.Fatalf("%v: no documents", paths)
		}
		if len(got.Documents) != len(want.Documents) {
			t.Fatalf("%v: %d results, want %d", paths, len(got.Documents), len(want.Documents))
		}
		for i := range want.Documents {
			if w, g := resultKey(&want.Documents[i]), resultKey(&got.Documents[i]); w != g {
				t.Errorf("%v: result %d:\n got %s\nwant %s", paths, i, g, w)
			}
		}
		if hasMapOrderErrors(want) {
			continue // output order of those errors is random; compared above
		}
		for _, format := range report.Formats() {
			var w, g bytes.Buffer
			if err := report.Write(&w, format, want, report.Options{}); err != nil {
				t.Fatal(err)
			}
			if err := report.Write(&g, format, got, report.Options{}); err != nil {
				t.Fatal(err)
			}
			if w.String() != g.String() {
				t.Errorf("%v -o %s differs:\nRun:\n%s\nRunPending:\n%s", paths, format, w.String(), g.String())
			}
		}
		t.Logf("%v: %s", paths, got.Summary())
	}
}

// resultKey renders every field of a result, positions of errors included.
func resultKey(r *report.DocumentResult) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s #%d line %d %v %s/%s err=%v kind=%v skipped=%v %q unknown=%q warnings=%q",
		r.File, r.Index, r.Line, r.GVK, r.Namespace, r.Name, r.Err, r.ErrKind, r.Skipped, r.SkipReason, r.UnknownFields, r.Warnings)
	// ObjectMeta's labels and annotations are checked by apimachinery in Go
	// map order (random, in the apiserver too), so their errors are
	// compared as a set.
	var mapErrs []string
	for _, e := range r.Errors {
		line, col := r.ErrorPos(e)
		s := fmt.Sprintf(" [%d:%d %s]", line, col, e.Error())
		if strings.HasSuffix(e.Field, "metadata.labels") || strings.HasSuffix(e.Field, "metadata.annotations") {
			mapErrs = append(mapErrs, s)
			continue
		}
		b.WriteString(s)
	}
	sort.Strings(mapErrs)
	b.WriteString(strings.Join(mapErrs, ""))
	return b.String()
}

func hasMapOrderErrors(res *report.Result) bool {
	for _, d := range res.Documents {
		n := 0
		for _, e := range d.Errors {
			if strings.HasSuffix(e.Field, "metadata.labels") || strings.HasSuffix(e.Field, "metadata.annotations") {
				n++
			}
		}
		if n > 1 {
			return true
		}
	}
	return false
}

package resource

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

// RejectKinds (kubeconform's -reject): a document of a listed kind, by Kind
// or Kind.group in any case, is invalid with one error at its kind line and
// is not validated further; SkipKinds wins; a rejected CRD is still checked
// and registered, so its custom resources are validated.
func TestRejectKinds(t *testing.T) {
	crd, err := os.ReadFile(widgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	input := string(crd) + `
---
apiVersion: v1
kind: Secret
metadata: {name: db}
type: Opaque
stringData: {password: x}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: Bad_Name}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {replicas: -1}
---
apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: w}
spec: {size: huge}
`
	type want struct {
		outcome report.Outcome
		errs    []string
		line    int // of the first error
	}
	const crdErr = "kind: Forbidden: prohibited resource kind CustomResourceDefinition (--reject customresourcedefinition.apiextensions.k8s.io)"
	tests := []struct {
		name         string
		reject, skip []string
		want         map[string]want // by kind; kinds not listed are as without RejectKinds
	}{
		{"by Kind", []string{"Secret", " configmap"}, nil, map[string]want{
			"Secret":    {report.Invalid, []string{"kind: Forbidden: prohibited resource kind Secret (--reject Secret)"}, 0},
			"ConfigMap": {report.Invalid, []string{"kind: Forbidden: prohibited resource kind ConfigMap (--reject configmap)"}, 0},
		}},
		{"by Kind.group", []string{"Deployment.apps", "Secret.apps"}, nil, map[string]want{
			"Deployment": {report.Invalid, []string{"kind: Forbidden: prohibited resource kind Deployment (--reject Deployment.apps)"}, 0},
		}},
		{"skip wins", []string{"Secret"}, []string{"Secret"}, map[string]want{
			"Secret": {report.Skipped, nil, 0},
		}},
		{"CRD rejected, still registered", []string{"customresourcedefinition.apiextensions.k8s.io"}, nil, map[string]want{
			"CustomResourceDefinition": {report.Invalid, []string{crdErr}, 0},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(opts RunOptions) *report.Result {
				pending, err := manifest.ReadPending([]string{"-"}, strings.NewReader(input), manifest.Options{})
				if err != nil {
					t.Fatal(err)
				}
				reg := NewRegistry(Options{})
				if err := UseBuiltin(reg, 0); err != nil {
					t.Fatal(err)
				}
				return RunPending(context.Background(), pending, reg, opts)
			}
			plain := run(RunOptions{Jobs: 2})
			got := run(RunOptions{Jobs: 2, RejectKinds: tc.reject, SkipKinds: tc.skip})
			if len(got.Documents) != len(plain.Documents) {
				t.Fatalf("%d results, want %d", len(got.Documents), len(plain.Documents))
			}
			for i := range got.Documents {
				g, p := &got.Documents[i], &plain.Documents[i]
				w, listed := tc.want[g.GVK.Kind]
				if !listed {
					if resultKey(g)+fmt.Sprint(g.Errors) != resultKey(p)+fmt.Sprint(p.Errors) {
						t.Errorf("%s changed by RejectKinds:\n got %s %v\nwant %s %v", g.GVK.Kind, resultKey(g), g.Errors, resultKey(p), p.Errors)
					}
					continue
				}
				if g.Outcome() != w.outcome {
					t.Errorf("%s: outcome %v, want %v", g.GVK.Kind, g.Outcome(), w.outcome)
				}
				if len(g.Errors) < len(w.errs) {
					t.Fatalf("%s: errors %v, want %q first", g.GVK.Kind, g.Errors, w.errs)
				}
				for j, e := range w.errs {
					if g.Errors[j].Error() != e {
						t.Errorf("%s: error %d = %q, want %q", g.GVK.Kind, j, g.Errors[j].Error(), e)
					}
				}
				if g.GVK.Kind != "CustomResourceDefinition" && w.outcome == report.Invalid && len(g.Errors) != 1 {
					t.Errorf("%s: %d errors, want only the rejection: %v", g.GVK.Kind, len(g.Errors), g.Errors)
				}
				if w.outcome == report.Invalid && g.GVK.Kind != "CustomResourceDefinition" && g.Namespace != "default" {
					t.Errorf("%s: namespace %q, want default, as validated documents are named", g.GVK.Kind, g.Namespace)
				}
				if len(w.errs) > 0 {
					// The error points at the document's kind line.
					line, _ := g.ErrorPos(g.Errors[0])
					if line != g.Line+1 {
						t.Errorf("%s: error at line %d, want the kind line %d", g.GVK.Kind, line, g.Line+1)
					}
				}
			}
			if got.ExitCode() != report.ExitInvalid {
				t.Errorf("exit code %d, want %d", got.ExitCode(), report.ExitInvalid)
			}
		})
	}
}

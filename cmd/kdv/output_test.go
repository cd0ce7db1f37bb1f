package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var updateOutput = flag.Bool("update-output", false, "rewrite testdata/output/*.golden from kdv's output")

// The CI formats on real inputs, against goldens reviewed by hand: the
// shipped examples (every kind of finding kdv has there) and a file with
// empty documents and a repeated key (a warning).
func TestOutputFormatsGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		code   int
		args   []string
	}{
		{"examples.github", exitInvalid, []string{"-o", "github", "../../examples"}},
		{"examples.tap", exitInvalid, []string{"-o", "tap", "../../examples"}},
		{"mixed.github", exitInvalid, []string{"-o", "github", "testdata/output/mixed.yaml"}},
		{"mixed.tap", exitInvalid, []string{"-o", "tap", "testdata/output/mixed.yaml"}},
		{"mixed.json", exitInvalid, []string{"-o", "json", "testdata/output/mixed.yaml"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errOut := kdv(t, "", append([]string{"validate"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, errOut)
			}
			golden := filepath.Join("testdata/output", tc.golden+".golden")
			if *updateOutput {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("kdv validate %s differs from %s (go test -run TestOutputFormatsGolden -update-output rewrites it):\n%s", strings.Join(tc.args, " "), golden, out)
			}
		})
	}
}

// -o json lists one status per document as kubectl-validate does, empty
// ones included, and a document's warnings beside its Status; the statuses
// decode as metav1.Status.
func TestOutputJSONEmptyAndWarnings(t *testing.T) {
	_, out, _ := kdv(t, "", "validate", "-o", "json", "testdata/output/mixed.yaml")
	var statuses map[string][]metav1.Status
	if err := json.Unmarshal([]byte(out), &statuses); err != nil {
		t.Fatal(err)
	}
	st := statuses["testdata/output/mixed.yaml"]
	// comment-only, ConfigMap, blank, Deployment, null.
	want := []string{metav1.StatusSuccess, metav1.StatusSuccess, metav1.StatusSuccess, metav1.StatusFailure, metav1.StatusSuccess}
	if len(st) != len(want) {
		t.Fatalf("%d statuses, want %d:\n%s", len(st), len(want), out)
	}
	for i := range want {
		if st[i].Status != want[i] {
			t.Errorf("status %d = %s, want %s", i, st[i].Status, want[i])
		}
	}
	if st[3].Code != 422 || st[3].Details == nil || st[3].Details.Causes[0].Field != "spec.replicas" {
		t.Errorf("Deployment status = %+v", st[3])
	}
	var withWarnings map[string][]struct{ Warnings []string }
	json.Unmarshal([]byte(out), &withWarnings)
	ws := withWarnings["testdata/output/mixed.yaml"]
	if len(ws[1].Warnings) != 1 || !strings.Contains(ws[1].Warnings[0], `line 8: key "name" already set in map`) {
		t.Errorf("ConfigMap warnings = %q", ws[1].Warnings)
	}
	for _, i := range []int{0, 2, 3, 4} {
		if ws[i].Warnings != nil {
			t.Errorf("status %d has warnings %q", i, ws[i].Warnings)
		}
	}
}

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLint runs kdv lint on k8s.io/api autoscaling v1 and v2: three
// differences (exit 1), all silenced by the committed exception file
// (exit 0); a bad exception file is a usage error.
func TestLint(t *testing.T) {
	const v1, v2 = "k8s.io/api/autoscaling/v1", "k8s.io/api/autoscaling/v2"
	code, out, errOut := kdv(t, "", "lint", v1, v2)
	if code != exitInvalid {
		t.Errorf("exit %d, want %d; stderr %s", code, exitInvalid, errOut)
	}
	wantLines(t, out,
		"autoscaling/v1/types.go:45, ",
		"autoscaling/v2/types.go:56: autoscaling/HorizontalPodAutoscaler v1→v2 spec.scaleTargetRef: differs:map-type-changed: x-kubernetes-map-type changed from atomic to granular",
		"autoscaling/HorizontalPodAutoscaler v1→v2 status.currentReplicas: differs:required-removed: field no longer required",
		"3 findings: 3 failing, 0 excepted (3 differs)\n",
	)
	const ex = "../../lint/testdata/autoscaling.exceptions"
	if code, out, errOut := kdv(t, "", "lint", "--exceptions", ex, v1, v2); code != exitValid || out != "3 findings: 0 failing, 3 excepted\n" {
		t.Errorf("with exceptions: exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = kdv(t, "", "lint", "-o", "json", "--exceptions", ex, v1, v2)
	var doc struct {
		Findings []struct{ Check, Excepted string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Findings) != 3 || doc.Findings[0].Excepted == "" {
		t.Errorf("json: %v\n%s", err, out)
	}
	if code, _, errOut := kdv(t, "", "lint", "--exceptions", "testdata/broken.yaml", v1, v2); code != exitUsage || !strings.Contains(errOut, "--exceptions: testdata/broken.yaml:") {
		t.Errorf("bad exception file: exit %d, %s", code, errOut)
	}
}

func TestLintChecks(t *testing.T) {
	code, out, _ := kdv(t, "", "lint", "../../lint/testdata/maplistnokeys/v1")
	if code != exitInvalid || !strings.Contains(out, "types.go:34: maplistnokeys.lint.kdv.dev/Thing v1 spec.ports: map-list-no-keys:") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

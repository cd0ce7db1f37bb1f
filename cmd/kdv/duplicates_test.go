package main

import (
	"os"
	"strings"
	"testing"
)

// A repeated key is a warning, not a failure: kubectl sends the last value, which is what
// is validated (and what makes the document valid or invalid).
func TestValidateRepeatedKeys(t *testing.T) {
	in := `apiVersion: v1
kind: ConfigMap
metadata:
  name: Bad_Name
  name: good
data:
  a: "1"
`
	code, out, _ := kdv(t, in, "validate", "-")
	if code != exitValid {
		t.Errorf("exit %d, want %d\n%s", code, exitValid, out)
	}
	wantLines(t, out, `-:1: warning: ConfigMap default/good: line 5: key "name" already set in map; the last value is used, as kubectl sends it`,
		"1 document in 1 file: 1 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 1 warning)")

	code, out, _ = kdv(t, strings.Replace(in, "  name: good\n", "  name: good\n  name: Bad_Name\n", 1), "validate", "-")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d\n%s", code, exitInvalid, out)
	}
	wantLines(t, out, `metadata.name: Invalid value: "Bad_Name"`, `line 6: key "name" already set in map`)
}

func TestCheckRepeatedKeys(t *testing.T) {
	crd, err := os.ReadFile(widgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Replace(string(crd), "kind: CustomResourceDefinition\n", "kind: CustomResourceDefinition\nkind: CustomResourceDefinition\n", 1)
	code, out, _ := kdv(t, in, "check", "-")
	if code != exitValid {
		t.Errorf("exit %d, want %d\n%s", code, exitValid, out)
	}
	wantLines(t, out, `warning: apiextensions.k8s.io/CustomResourceDefinition widgets.example.kdv.dev: line 5: key "kind" already set in map; the last value is used, as kubectl sends it`)
}

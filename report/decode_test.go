package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A built-in object the apiserver's decoder rejects is invalid (exit 1),
// rendered at its field's line, and its JSON status is the apiserver's 400.
func TestDecodeError(t *testing.T) {
	msg := `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`
	r := &Result{Documents: []DocumentResult{{
		File: "d.yaml", Line: 1, GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		Name: "api", Namespace: "default", DecodeError: msg, DecodeErrorField: "spec.replicas",
		ErrorPos: func(e *field.Error) (int, int) {
			if e.Field == "spec.replicas" {
				return 6, 13
			}
			return 0, 0
		},
	}}}
	if o := r.Documents[0].Outcome(); o != Invalid || r.ExitCode() != ExitInvalid {
		t.Errorf("outcome %v, exit %d", o, r.ExitCode())
	}
	if s := r.Summary(); s.Invalid != 1 || s.Errors != 1 {
		t.Errorf("summary %+v", s)
	}
	var text bytes.Buffer
	if err := WriteText(&text, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "d.yaml:6: apps/Deployment default/api: " + msg + "\n"; !strings.HasPrefix(text.String(), want) {
		t.Errorf("text:\n%s\nwant prefix\n%s", text.String(), want)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var out map[string][]map[string]any
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	st := out["d.yaml"][0]
	if st["code"] != float64(400) || st["reason"] != "BadRequest" || st["message"] != msg {
		t.Errorf("status %v", st)
	}
	for _, format := range []string{"junit", "sarif"} {
		var b bytes.Buffer
		if err := Write(&b, format, r, Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "DeploymentSpec.spec.replicas") {
			t.Errorf("%s output lacks the decode error:\n%s", format, b.String())
		}
	}
}

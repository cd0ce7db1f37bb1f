package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestWriteJSON(t *testing.T) {
	r := fixture()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}

	// Built the way kubectl-validate builds it (pkg/cmd/validate.go): a map
	// of file to statuses, MarshalIndent with four spaces, Fprintln.
	d := r.Documents
	want := map[string][]metav1.Status{
		"manifests/app.yaml": {
			{Status: metav1.StatusSuccess},
			apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "bad", invalidErrs()).ErrStatus,
			apierrors.NewBadRequest("no schema for extensions/v1beta1, Kind=Deployment").ErrStatus,
		},
		"crs/widget.yaml": {
			{Status: metav1.StatusSuccess, Message: "skipped: " + d[3].SkipReason},
		},
		"more.yaml": {
			{Status: metav1.StatusSuccess},
			apierrors.NewBadRequest(d[5].Err.Error()).ErrStatus,
		},
		"-": {
			apierrors.NewInvalid(schema.GroupKind{Kind: "Namespace"}, "Team_A", d[6].Errors).ErrStatus,
		},
	}
	wantBytes, err := json.MarshalIndent(want, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	// The one document with a warning gets a "warnings" member after the
	// Status's own; everything else is kubectl-validate's bytes.
	wantBytes = bytes.Replace(wantBytes, []byte(`
        {
            "metadata": {},
            "status": "Success"
        },
        {
            "metadata": {},
            "status": "Failure",
            "message": "error converting`), []byte(`
        {
            "metadata": {},
            "status": "Success",
            "warnings": [
                "unknown field \"data.extra\""
            ]
        },
        {
            "metadata": {},
            "status": "Failure",
            "message": "error converting`), 1)
	if got := buf.String(); got != string(wantBytes)+"\n" {
		t.Errorf("JSON output differs:\n got: %s\nwant: %s", got, wantBytes)
	}
	// A kubectl-validate consumer decoding into metav1.Status, strictly
	// typed, still reads every status as kubectl-validate writes it.
	var statuses map[string][]metav1.Status
	if err := json.Unmarshal(buf.Bytes(), &statuses); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(statuses)
	wantCompact, _ := json.Marshal(want)
	if string(again) != string(wantCompact) {
		t.Errorf("decoded as metav1.Status:\n got %s\nwant %s", again, wantCompact)
	}

	// The apiserver's 422 body, independently of NewInvalid: literal fields.
	var parsed map[string][]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	inv := parsed["manifests/app.yaml"][1]
	wantMsg := `Deployment.apps "bad" is invalid: [` + strings.Join(expectedErrLines, ", ") + `]`
	for k, v := range map[string]any{"status": "Failure", "reason": "Invalid", "code": 422.0, "message": wantMsg} {
		if inv[k] != v {
			t.Errorf("invalid status %s = %v, want %v", k, inv[k], v)
		}
	}
	details := inv["details"].(map[string]any)
	if details["group"] != "apps" || details["kind"] != "Deployment" || details["name"] != "bad" {
		t.Errorf("details = %v", details)
	}
	causes := details["causes"].([]any)
	if len(causes) != len(expectedErrLines) {
		t.Fatalf("%d causes, want %d", len(causes), len(expectedErrLines))
	}
	c0 := causes[0].(map[string]any)
	if c0["reason"] != "FieldValueInvalid" || c0["field"] != "spec.replicas" ||
		c0["message"] != "Invalid value: -1: spec.replicas in body should be greater than or equal to 0" {
		t.Errorf("cause 0 = %v", c0)
	}
	if c1 := causes[1].(map[string]any); c1["reason"] != "FieldValueRequired" || c1["field"] != "spec.selector" {
		t.Errorf("cause 1 = %v", c1)
	}
	// Core group: no ".group" suffix, as the apiserver writes it.
	if m := parsed["-"][0]["message"]; m != `Namespace "Team_A" is invalid: metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'` {
		t.Errorf("core message = %v", m)
	}
	bad := parsed["more.yaml"][1]
	if bad["reason"] != "BadRequest" || bad["code"] != 400.0 || bad["status"] != "Failure" {
		t.Errorf("parse error status = %v", bad)
	}

	// kubectl-validate's exact text for a valid document and its indentation.
	var compact bytes.Buffer
	json.Compact(&compact, buf.Bytes())
	if !strings.HasPrefix(compact.String(), `{"-":[`) ||
		!strings.Contains(compact.String(), `"more.yaml":[{"metadata":{},"status":"Success","warnings":["unknown field \"data.extra\""]},`) {
		t.Errorf("unexpected compact JSON: %s", compact.String())
	}
	if !strings.Contains(buf.String(), "\n    \"crs/widget.yaml\": [\n        {\n            \"metadata\": {},") {
		t.Errorf("not indented with four spaces:\n%s", buf.String())
	}
	// Files are sorted by name (encoding/json map order).
	last := -1
	for _, f := range []string{`"-"`, `"crs/widget.yaml"`, `"manifests/app.yaml"`, `"more.yaml"`} {
		pos := strings.Index(buf.String(), f+": [")
		if pos <= last {
			t.Errorf("file %s at %d, not after %d: not sorted", f, pos, last)
		}
		last = pos
	}
}

func TestStatusFailures(t *testing.T) {
	cause := errors.New("boom")
	wrappedStatus := fmt.Errorf("loading: %w", apierrors.NewInvalid(schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}, "x",
		field.ErrorList{field.Required(field.NewPath("spec", "group"), "")}))
	for _, tc := range []struct {
		name string
		d    DocumentResult
		want metav1.Status
	}{
		{"internal", DocumentResult{Err: cause, ErrKind: ErrInternal}, apierrors.NewInternalError(cause).ErrStatus},
		{"schema", DocumentResult{Err: cause, ErrKind: ErrSchema}, apierrors.NewBadRequest("boom").ErrStatus},
		{"unclassified", DocumentResult{Err: cause}, apierrors.NewBadRequest("boom").ErrStatus},
		{"wrapped StatusError passes through", DocumentResult{Err: wrappedStatus, ErrKind: ErrSchema},
			apierrors.NewInvalid(schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}, "x",
				field.ErrorList{field.Required(field.NewPath("spec", "group"), "")}).ErrStatus},
		{"skipped without reason", DocumentResult{Skipped: true}, metav1.Status{Status: metav1.StatusSuccess, Message: "skipped"}},
	} {
		got, _ := json.Marshal(tc.d.Status())
		want, _ := json.Marshal(tc.want)
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
	internal, _ := json.Marshal((&DocumentResult{Err: cause, ErrKind: ErrInternal}).Status())
	if string(internal) != `{"metadata":{},"status":"Failure","message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500}` {
		t.Errorf("internal status = %s", internal)
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, &Result{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "{}\n" {
		t.Errorf("empty result = %q", buf.String())
	}
}

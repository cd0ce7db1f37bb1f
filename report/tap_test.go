package report

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

const tapFixture = `TAP version 14
1..7
ok 1 - manifests/app.yaml apps/Deployment default/ok
not ok 2 - manifests/app.yaml apps/Deployment default/bad
  ---
  message: "6 errors"
  severity: fail
  file: "manifests/app.yaml"
  line: 20
  errors:
    - rule: "FieldValueInvalid"
      line: 26
      column: 3
      message: "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"
    - rule: "FieldValueRequired"
      line: 20
      message: "spec.selector: Required value"
    - rule: "FieldValueNotSupported"
      line: 29
      column: 5
      message: "spec.strategy.type: Unsupported value: \"Sideways\": supported values: \"Recreate\", \"RollingUpdate\""
    - rule: "FieldValueTooLong"
      line: 24
      column: 5
      message: "metadata.labels[app]: Too long: may not be more than 63 bytes"
    - rule: "FieldValueDuplicate"
      line: 35
      message: "spec.template.spec.containers[1].name: Duplicate value: \"web\""
    - rule: "FieldValueForbidden"
      line: 20
      message: "spec.template.spec.hostNetwork: Forbidden: must be < 10 & \"quoted\""
  ...
not ok 3 - manifests/app.yaml extensions/Deployment default/old
  ---
  message: "no schema for extensions/v1beta1, Kind=Deployment"
  severity: fail
  file: "manifests/app.yaml"
  line: 40
  errors:
    - rule: "NoSchema"
      line: 40
      message: "no schema for extensions/v1beta1, Kind=Deployment"
  ...
ok 4 - crs/widget.yaml example.com/Widget w1 # SKIP no schema for example.com/v1, Kind=Widget
ok 5 - more.yaml ConfigMap kube-system/cfg
  ---
  message: "1 warning"
  severity: comment
  file: "more.yaml"
  line: 3
  warnings:
    - rule: "Warning"
      line: 3
      message: "unknown field \"data.extra\""
  ...
not ok 6 - more.yaml document 2
  ---
  message: "error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context"
  severity: fail
  file: "more.yaml"
  line: 9
  errors:
    - rule: "ParseError"
      line: 9
      message: "error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context"
  ...
not ok 7 - - Namespace Team_A
  ---
  message: "1 error"
  severity: fail
  file: "-"
  errors:
    - rule: "FieldValueInvalid"
      message: "metadata.name: Invalid value: \"Team_A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'"
  ...
# 7 documents in 4 files: 2 valid, 2 invalid, 2 failed, 1 skipped (7 errors, 1 warning)
`

func TestWriteTAP(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTAP(&buf, fixture(), Options{}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != tapFixture {
		t.Errorf("TAP output differs:\n got:\n%s\nwant:\n%s", buf.String(), tapFixture)
	}
	checkTAP(t, buf.String(), 7)
}

// Empty documents are no test points; a description's "#" and "\" are
// escaped and its line breaks become spaces; a not-manifest file is a SKIP.
func TestWriteTAPEdges(t *testing.T) {
	r := &Result{Documents: []DocumentResult{
		{File: "a.yaml", Index: -1, Empty: true},
		{File: `odd #1 \ dir/x` + "\n" + `ok 9 - fake.yaml`, Line: 2, GVK: cmGVK, Name: "c"},
		{File: "values.yaml", Skipped: true, NotManifest: true, SkipReason: "not a manifest: Helm values file"},
		{File: "b.yaml", Line: 1, GVK: cmGVK, Name: "d", Errors: field.ErrorList{field.Invalid(field.NewPath("data"), "x", "a\n  ...\nnot ok 5\u2028\x7f\ufeff")}},
	}}
	var buf bytes.Buffer
	if err := WriteTAP(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	want := `TAP version 14
1..3
ok 1 - odd \#1 \\ dir/x ok 9 - fake.yaml ConfigMap c
ok 2 - values.yaml file # SKIP not a manifest: Helm values file
not ok 3 - b.yaml ConfigMap d
  ---
  message: "1 error"
  severity: fail
  file: "b.yaml"
  line: 1
  errors:
    - rule: "FieldValueInvalid"
      line: 1
      message: "data: Invalid value: \"x\": a\n  ...\nnot ok 5\u2028\u007F\uFEFF"
  ...
# 2 documents in 2 files: 1 valid, 1 invalid, 0 failed, 0 skipped (1 error, 0 warnings); 1 non-manifest skipped
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
	checkTAP(t, buf.String(), 3)
	blocks := tapBlocks(t, buf.String())
	if msg := blocks[0]["errors"].([]any)[0].(map[string]any)["message"]; msg != `data: Invalid value: "x": a`+"\n  ...\nnot ok 5\u2028\x7f\ufeff" {
		t.Errorf("message read back as %q", msg)
	}
}

// checkTAP checks the structure TAP 14 consumers rely on: the version line,
// the plan, n test points numbered 1..n, each a single line, and YAML
// blocks that parse.
func checkTAP(t *testing.T, out string, n int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "TAP version 14" {
		t.Errorf("first line %q", lines[0])
	}
	if lines[1] != "1.."+strconv.Itoa(n) {
		t.Errorf("plan %q, want 1..%d", lines[1], n)
	}
	next := 1
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "not ok ") {
			num := strings.TrimPrefix(strings.TrimPrefix(l, "not "), "ok ")
			if !strings.HasPrefix(num, strconv.Itoa(next)+" - ") {
				t.Errorf("test point %q, want number %d", l, next)
			}
			next++
			continue
		}
		if !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "# ") {
			t.Errorf("line %q is neither a test point, a block line nor a comment", l)
		}
	}
	if next != n+1 {
		t.Errorf("%d test points, want %d", next-1, n)
	}
	tapBlocks(t, out)
}

// tapBlocks parses every YAML diagnostic block of out.
func tapBlocks(t *testing.T, out string) []map[string]any {
	t.Helper()
	var blocks []map[string]any
	var cur *strings.Builder
	for l := range strings.SplitSeq(out, "\n") {
		switch {
		case l == "  ---":
			cur = &strings.Builder{}
		case l == "  ..." && cur != nil:
			var m map[string]any
			if err := yaml.Unmarshal([]byte(cur.String()), &m); err != nil {
				t.Fatalf("block is not YAML: %v\n%s", err, cur.String())
			}
			if m["severity"] == nil || m["message"] == nil {
				t.Errorf("block without severity or message: %v", m)
			}
			blocks = append(blocks, m)
			cur = nil
		case cur != nil:
			if !strings.HasPrefix(l, "  ") {
				t.Fatalf("block line %q not indented", l)
			}
			cur.WriteString(l[2:] + "\n")
		}
	}
	if cur != nil {
		t.Fatal("unterminated block")
	}
	return blocks
}

// A failed document's block names its error even when it is long and
// multi-line; its description stays one line.
func TestWriteTAPFailedMultiline(t *testing.T) {
	r := &Result{Documents: []DocumentResult{{File: "x.yaml", Line: 3, Err: errors.New("first\nsecond"), ErrKind: ErrParse}}}
	var buf bytes.Buffer
	WriteTAP(&buf, r, Options{})
	if !strings.Contains(buf.String(), "not ok 1 - x.yaml document 1\n") || !strings.Contains(buf.String(), `message: "first\nsecond"`) {
		t.Errorf("got:\n%s", buf.String())
	}
	checkTAP(t, buf.String(), 1)
}

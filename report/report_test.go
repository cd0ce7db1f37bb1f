package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	deployGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	nsGVK     = schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	cmGVK     = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
)

// invalidErrs are errors of several types, as the apiserver's validators
// build them; expectedErrLines are their exact (*field.Error).Error() texts,
// in the apiserver's message format (apimachinery field/errors.go).
func invalidErrs() field.ErrorList {
	return field.ErrorList{
		field.Invalid(field.NewPath("spec", "replicas"), int64(-1), "spec.replicas in body should be greater than or equal to 0"),
		field.Required(field.NewPath("spec", "selector"), ""),
		field.NotSupported(field.NewPath("spec", "strategy", "type"), "Sideways", []string{"Recreate", "RollingUpdate"}),
		field.TooLong(field.NewPath("metadata", "labels").Key("app"), "", 63),
		field.Duplicate(field.NewPath("spec", "template", "spec", "containers").Index(1).Child("name"), "web"),
		field.Forbidden(field.NewPath("spec", "template", "spec", "hostNetwork"), `must be < 10 & "quoted"`),
	}
}

var expectedErrLines = []string{
	`spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0`,
	`spec.selector: Required value`,
	`spec.strategy.type: Unsupported value: "Sideways": supported values: "Recreate", "RollingUpdate"`,
	`metadata.labels[app]: Too long: may not be more than 63 bytes`,
	`spec.template.spec.containers[1].name: Duplicate value: "web"`,
	`spec.template.spec.hostNetwork: Forbidden: must be < 10 & "quoted"`,
}

// errLines are the line and column of the invalid Deployment's fields;
// selector and hostNetwork are unknown (0) and fall back to the document
// start (20); containers[1].name has a line but no column.
var errLines = map[string][2]int{
	"spec.replicas":                         {26, 3},
	"spec.strategy.type":                    {29, 5},
	"metadata.labels[app]":                  {24, 5},
	"spec.template.spec.containers[1].name": {35, 0},
}

// fixture is a run over four inputs: a valid, an invalid and an unvalidatable
// Deployment in one file, a skipped custom resource, a valid ConfigMap with
// a warning and a parse error, and an invalid cluster-scoped Namespace read
// from stdin without line information.
func fixture() *Result {
	return &Result{Documents: []DocumentResult{
		{File: "manifests/app.yaml", Index: 0, Line: 1, GVK: deployGVK, Namespace: "default", Name: "ok"},
		{File: "manifests/app.yaml", Index: 1, Line: 20, GVK: deployGVK, Namespace: "default", Name: "bad",
			Errors:   invalidErrs(),
			ErrorPos: func(e *field.Error) (int, int) { p := errLines[e.Field]; return p[0], p[1] }},
		{File: "manifests/app.yaml", Index: 2, Line: 40,
			GVK: schema.GroupVersionKind{Group: "extensions", Version: "v1beta1", Kind: "Deployment"}, Namespace: "default", Name: "old",
			Err: errors.New("no schema for extensions/v1beta1, Kind=Deployment"), ErrKind: ErrNoSchema},
		{File: "crs/widget.yaml", Index: 0, Line: 1, GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, Name: "w1",
			Skipped: true, SkipReason: "no schema for example.com/v1, Kind=Widget"},
		{File: "more.yaml", Index: 0, Line: 3, GVK: cmGVK, Namespace: "kube-system", Name: "cfg",
			Warnings: []string{`unknown field "data.extra"`}},
		{File: "more.yaml", Index: 1, Line: 9,
			Err: errors.New("error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context"), ErrKind: ErrParse},
		{File: "-", Index: 0, GVK: nsGVK, Name: "Team_A",
			Errors: field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), "Team_A", "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'")}},
	}}
}

func TestWriteText(t *testing.T) {
	want := []string{
		"manifests/app.yaml:26: apps/Deployment default/bad: " + expectedErrLines[0],
		"manifests/app.yaml:20: apps/Deployment default/bad: " + expectedErrLines[1],
		"manifests/app.yaml:29: apps/Deployment default/bad: " + expectedErrLines[2],
		"manifests/app.yaml:24: apps/Deployment default/bad: " + expectedErrLines[3],
		"manifests/app.yaml:35: apps/Deployment default/bad: " + expectedErrLines[4],
		"manifests/app.yaml:20: apps/Deployment default/bad: " + expectedErrLines[5],
		"manifests/app.yaml:40: no schema for extensions/v1beta1, Kind=Deployment",
		"crs/widget.yaml:1: skipped: example.com/Widget w1: no schema for example.com/v1, Kind=Widget",
		`more.yaml:3: warning: ConfigMap kube-system/cfg: unknown field "data.extra"`,
		"more.yaml:9: error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context",
		`-: Namespace Team_A: metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'`,
		"7 documents in 4 files: 2 valid, 2 invalid, 2 failed, 1 skipped (7 errors, 1 warning)",
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, fixture(), Options{}); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), buf.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got: %s\nwant: %s", i+1, got[i], want[i])
		}
	}
	if !strings.HasSuffix(buf.String(), "\n") {
		t.Error("output does not end with a newline")
	}
	if strings.Contains(buf.String(), "\x1b") {
		t.Error("colour escape without Options.Color")
	}
}

func TestWriteTextColor(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, fixture(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	for _, want := range []struct {
		line int
		text string
	}{
		{0, ansiBold + "manifests/app.yaml:26:" + ansiReset + " " + ansiRed + "apps/Deployment default/bad: " + expectedErrLines[0] + ansiReset},
		{8, ansiBold + "more.yaml:3:" + ansiReset + " " + ansiYellow + "warning: " + ansiReset + `ConfigMap kube-system/cfg: unknown field "data.extra"`},
		{11, ansiBold + ansiRed + "7 documents in 4 files: 2 valid, 2 invalid, 2 failed, 1 skipped (7 errors, 1 warning)" + ansiReset},
	} {
		if lines[want.line] != want.text {
			t.Errorf("line %d:\n got: %q\nwant: %q", want.line+1, lines[want.line], want.text)
		}
	}
	// Stripping the escapes gives the plain output.
	var plain bytes.Buffer
	WriteText(&plain, fixture(), Options{})
	stripped := buf.String()
	for _, c := range []string{ansiReset, ansiBold, ansiRed, ansiGreen, ansiYellow, ansiCyan} {
		stripped = strings.ReplaceAll(stripped, c, "")
	}
	if stripped != plain.String() {
		t.Errorf("coloured output differs from plain output beyond escapes:\n%s", stripped)
	}
}

func TestWriteTextAllValid(t *testing.T) {
	r := &Result{Documents: []DocumentResult{{File: "a.yaml", Line: 1, GVK: cmGVK, Name: "x"}}}
	var buf bytes.Buffer
	if err := WriteText(&buf, r, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	want := ansiBold + ansiGreen + "1 document in 1 file: 1 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings)" + ansiReset + "\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestIdentity(t *testing.T) {
	for _, tc := range []struct {
		d    DocumentResult
		want string
	}{
		{DocumentResult{GVK: deployGVK, Namespace: "ns", Name: "n"}, "apps/Deployment ns/n"},
		{DocumentResult{GVK: cmGVK, Namespace: "ns", Name: "n"}, "ConfigMap ns/n"},
		{DocumentResult{GVK: nsGVK, Name: "n"}, "Namespace n"},
		{DocumentResult{GVK: deployGVK}, "apps/Deployment"},
		{DocumentResult{GVK: deployGVK, Namespace: "ns"}, "apps/Deployment"},
		{DocumentResult{Name: "n"}, "n"},
		{DocumentResult{}, ""},
	} {
		if got := tc.d.Identity(); got != tc.want {
			t.Errorf("%+v: Identity() = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got := (&DocumentResult{Index: 4}).displayName(); got != "document 5" {
		t.Errorf("displayName = %q, want document 5", got)
	}
}

func TestOutcomeAndExitCode(t *testing.T) {
	valid := DocumentResult{File: "a"}
	warned := DocumentResult{File: "a", Warnings: []string{"w"}}
	invalid := DocumentResult{File: "a", Errors: field.ErrorList{field.Required(field.NewPath("x"), "")}}
	skipped := DocumentResult{File: "a", Skipped: true}
	parse := DocumentResult{File: "a", Err: errors.New("bad yaml"), ErrKind: ErrParse}
	noSchema := DocumentResult{File: "a", Err: errors.New("no schema"), ErrKind: ErrNoSchema}
	unclassified := DocumentResult{File: "a", Err: errors.New("x")}
	internal := DocumentResult{File: "a", Err: errors.New("bug"), ErrKind: ErrInternal}
	removed := DocumentResult{File: "a", Err: errors.New("extensions/v1beta1 Ingress was removed in v1.22"), ErrKind: ErrRemovedAPI}
	// A document-level error wins over Skipped and Errors.
	both := DocumentResult{File: "a", Err: errors.New("x"), Skipped: true, Errors: invalid.Errors}
	skippedWithErrs := DocumentResult{File: "a", Skipped: true, Errors: invalid.Errors}

	for _, tc := range []struct {
		d    DocumentResult
		want Outcome
	}{
		{valid, Valid}, {warned, Valid}, {invalid, Invalid}, {skipped, Skipped},
		{parse, Failed}, {internal, Failed}, {both, Failed}, {skippedWithErrs, Skipped},
	} {
		if got := tc.d.Outcome(); got != tc.want {
			t.Errorf("%+v: Outcome() = %v, want %v", tc.d, got, tc.want)
		}
	}

	for _, tc := range []struct {
		name string
		docs []DocumentResult
		want int
	}{
		{"empty", nil, 0},
		{"valid", []DocumentResult{valid}, 0},
		{"warnings only", []DocumentResult{valid, warned}, 0},
		{"skipped only", []DocumentResult{skipped}, 0},
		{"invalid", []DocumentResult{valid, invalid, skipped}, 1},
		{"parse error", []DocumentResult{valid, parse}, 2},
		{"no schema", []DocumentResult{noSchema}, 2},
		{"removed API version: as invalid", []DocumentResult{valid, removed}, 1},
		{"no schema beats removed", []DocumentResult{removed, noSchema}, 2},
		{"unclassified document error", []DocumentResult{unclassified}, 2},
		{"parse error beats invalid", []DocumentResult{invalid, parse, invalid}, 2},
		{"internal", []DocumentResult{internal}, 3},
		{"internal beats everything", []DocumentResult{invalid, internal, parse}, 3},
		{"fixture", fixture().Documents, 2},
	} {
		r := &Result{Documents: tc.docs}
		if got := r.ExitCode(); got != tc.want {
			t.Errorf("%s: ExitCode() = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSummary(t *testing.T) {
	got := fixture().Summary()
	want := Summary{Files: 4, Documents: 7, Valid: 2, Invalid: 2, Failed: 2, Skipped: 1, Errors: 7, Warnings: 1}
	if got != want {
		t.Errorf("Summary() = %+v, want %+v", got, want)
	}
	if s := (Summary{}).String(); s != "0 documents in 0 files: 0 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings)" {
		t.Errorf("empty summary = %q", s)
	}
}

func TestWriteDispatch(t *testing.T) {
	r := fixture()
	for _, f := range Formats() {
		var viaWrite, direct bytes.Buffer
		if err := Write(&viaWrite, f, r, Options{}); err != nil {
			t.Fatalf("Write(%q): %v", f, err)
		}
		var err error
		switch f {
		case "text":
			err = WriteText(&direct, r, Options{})
		case "json":
			err = WriteJSON(&direct, r, Options{})
		case "junit":
			err = WriteJUnit(&direct, r, Options{})
		case "sarif":
			err = WriteSARIF(&direct, r, Options{})
		case "github":
			err = WriteGitHub(&direct, r, Options{})
		case "tap":
			err = WriteTAP(&direct, r, Options{})
		default:
			t.Fatalf("untested format %q", f)
		}
		if err != nil {
			t.Fatal(err)
		}
		if viaWrite.String() != direct.String() {
			t.Errorf("Write(%q) differs from its writer", f)
		}
		// Deterministic: a second run gives the same bytes.
		var again bytes.Buffer
		Write(&again, f, fixture(), Options{})
		if again.String() != viaWrite.String() {
			t.Errorf("format %q is not deterministic", f)
		}
	}
	if got := strings.Join(Formats(), ","); got != "text,json,junit,sarif,github,tap" {
		t.Errorf("Formats() = %s", got)
	}
	var buf bytes.Buffer
	err := Write(&buf, "yaml", r, Options{})
	if err == nil || err.Error() != `unknown output format "yaml": must be one of text, json, junit, sarif, github, tap` {
		t.Errorf("Write(yaml) error = %v", err)
	}
	if buf.Len() != 0 {
		t.Error("unknown format wrote output")
	}
	if _, err := Lookup("yaml"); err == nil {
		t.Error("Lookup(yaml) found a renderer")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorsPropagate(t *testing.T) {
	for _, f := range Formats() {
		if err := Write(failWriter{}, f, fixture(), Options{}); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("format %s: error = %v, want disk full", f, err)
		}
	}
}

// manifest's errors already carry "file:line: " (or "file: document N: ");
// writers must not repeat the location.
func TestLocatedDocumentError(t *testing.T) {
	r := &Result{Documents: []DocumentResult{
		{File: "a.yaml", Index: 1, Line: 7, Err: errors.New("a.yaml:9: yaml: mapping values are not allowed in this context"), ErrKind: ErrParse},
		{File: "a.yaml", Index: 2, Err: errors.New("a.yaml: document 2: document is too large"), ErrKind: ErrParse},
		{File: "b.yaml", Line: 3, Err: errors.New("a.yaml:1: not ours"), ErrKind: ErrParse},
	}}
	var buf bytes.Buffer
	if err := WriteText(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "a.yaml:9: yaml: mapping values are not allowed in this context\n" +
		"a.yaml: document 2: document is too large\n" +
		"b.yaml:3: a.yaml:1: not ours\n" +
		"3 documents in 2 files: 0 valid, 0 invalid, 3 failed, 0 skipped (0 errors, 0 warnings)\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	if err := WriteText(&buf, r, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(buf.String(), "\n", 2)[0]; first != ansiRed+"a.yaml:9: yaml: mapping values are not allowed in this context"+ansiReset {
		t.Errorf("coloured located error = %q", first)
	}
	buf.Reset()
	if err := WriteJUnit(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), ">a.yaml:9: yaml: mapping values are not allowed in this context&#xA;</error>") ||
		!strings.Contains(buf.String(), ">b.yaml:3: a.yaml:1: not ours&#xA;</error>") {
		t.Errorf("JUnit error texts:\n%s", buf.String())
	}
}

// Inputs that are not manifests are counted apart, and said in every
// format; the summary line is unchanged when there are none.
func TestNotManifests(t *testing.T) {
	r := &Result{Documents: []DocumentResult{
		{File: "cm.yaml", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Name: "a"},
		{File: "chart/values.yaml", Skipped: true, NotManifest: true, SkipReason: "not a manifest: Helm values file"},
		{File: "ci.yaml", Line: 3, Skipped: true, NotManifest: true, SkipReason: "not a manifest: neither apiVersion nor kind"},
	}}
	s := r.Summary()
	if s.NotManifests != 2 || s.Documents != 1 || s.Files != 1 || s.Skipped != 0 {
		t.Errorf("summary %+v", s)
	}
	if r.ExitCode() != ExitValid {
		t.Errorf("exit code %d", r.ExitCode())
	}
	want := map[string][]string{
		"text": {"chart/values.yaml: skipped: not a manifest: Helm values file\n",
			"ci.yaml:3: skipped: not a manifest: neither apiVersion nor kind\n",
			"1 document in 1 file: 1 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 2 non-manifests skipped\n"},
		"json":  {`"message": "skipped: not a manifest: Helm values file"`},
		"junit": {`<testcase name="file" classname="chart/values.yaml"`, `<skipped message="not a manifest: Helm values file">`},
		"sarif": {`"text": "file: skipped: not a manifest: Helm values file"`, `"text": "document 1: skipped: not a manifest: neither apiVersion nor kind"`},
	}
	for format, lines := range want {
		var b bytes.Buffer
		if err := Write(&b, format, r, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if !strings.Contains(b.String(), l) {
				t.Errorf("%s lacks %q:\n%s", format, l, b.String())
			}
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const widgetCRD = "../../examples/crd/widgets.crd.yaml"

// kdv runs the CLI in-process and returns its exit code, stdout and stderr.
func kdv(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func wantLines(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q; got:\n%s", w, got)
		}
	}
}

// The CRD example's expectations are the apiserver's own output for the
// same objects (bench/cmd/apiserver-verdict on examples/crd), in its order.
func TestValidateExamplesCRD(t *testing.T) {
	code, out, _ := kdv(t, "", "validate", "../../examples/crd")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out,
		`examples/crd/widgets.yaml:31: example.kdv.dev/Widget default/inverted: spec.ports[0].port: Invalid value: 70000: spec.ports[0].port in body should be less than or equal to 65535
../../examples/crd/widgets.yaml:32: example.kdv.dev/Widget default/inverted: spec.ports[1]: Duplicate value: {"name":"http"}
../../examples/crd/widgets.yaml:25: example.kdv.dev/Widget default/inverted: spec: Invalid value: minReplicas must not exceed maxReplicas
`,
		`widgets.yaml:42: example.kdv.dev/Widget default/Bad_Name: unknown field "spec.colour"`,
		`metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of`,
		`spec.size: Unsupported value: "huge": supported values: "small", "medium", "large"`,
		`<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
		"4 documents in 2 files: 2 valid, 2 invalid, 0 failed, 0 skipped")
	if strings.Contains(out, "good-widget") {
		t.Errorf("the valid widget is reported:\n%s", out)
	}
}

func TestValidateStdin(t *testing.T) {
	data, err := os.ReadFile("../../examples/crd/widgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := kdv(t, string(data), "validate", "--crds", widgetCRD, "-")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out, `-:31: example.kdv.dev/Widget default/inverted: spec.ports[0].port: Invalid value: 70000`,
		"3 documents in 1 file: 1 valid, 2 invalid")
}

func TestValidateList(t *testing.T) {
	code, out, _ := kdv(t, "", "validate", "--crds", widgetCRD, "testdata/list.yaml")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out, `testdata/list.yaml:15: example.kdv.dev/Widget default/listed-bad: spec: Invalid value: minReplicas must not exceed maxReplicas`,
		"2 documents in 1 file: 1 valid, 1 invalid")
}

// A YAML syntax error fails its document only; the others are validated.
func TestValidateBrokenYAMLAmongGood(t *testing.T) {
	code, out, _ := kdv(t, "", "validate", "--crds", widgetCRD, "testdata/broken.yaml")
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	wantLines(t, out, "testdata/broken.yaml:", "3 documents in 1 file: 2 valid, 0 invalid, 1 failed")
}

func TestValidateUnknownKind(t *testing.T) {
	code, out, _ := kdv(t, "", "validate", "--crds", widgetCRD, "testdata/unknown-kind.yaml")
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	wantLines(t, out, "testdata/unknown-kind.yaml:1: no schema for example.kdv.dev/v1, Kind=Gadget", "1 valid")

	code, out, _ = kdv(t, "", "validate", "--ignore-missing-schemas", "--crds", widgetCRD, "testdata/unknown-kind.yaml")
	if code != exitValid {
		t.Errorf("with --ignore-missing-schemas: exit %d, want 0\n%s", code, out)
	}
	code, _, _ = kdv(t, "", "validate", "--skip", "Gadget.example.kdv.dev", "--crds", widgetCRD, "testdata/unknown-kind.yaml")
	if code != exitValid {
		t.Errorf("with --skip: exit %d, want 0", code)
	}
}

// An update that changes an immutable field (a transition rule) is refused
// as the apiserver refuses it; the same object validates as a create.
func TestValidateUpdate(t *testing.T) {
	code, out, _ := kdv(t, "", "validate", "--crds", widgetCRD, "--old", "testdata/old-widget.yaml", "testdata/new-widget.yaml")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out, `example.kdv.dev/Widget default/resized: spec: Invalid value: size is immutable`)
	if code, _, _ := kdv(t, "", "validate", "--crds", widgetCRD, "testdata/new-widget.yaml"); code != exitValid {
		t.Errorf("as a create: exit %d, want 0", code)
	}
}

func TestValidateOutputFormats(t *testing.T) {
	args := []string{"validate", "--crds", widgetCRD, "../../examples/crd/widgets.yaml", "-o"}
	code, out, _ := kdv(t, "", append(args, "json")...)
	if code != exitInvalid {
		t.Errorf("json: exit %d", code)
	}
	var statuses map[string][]map[string]any
	if err := json.Unmarshal([]byte(out), &statuses); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	docs := statuses["../../examples/crd/widgets.yaml"]
	if len(docs) != 3 || docs[0]["status"] != "Success" || docs[1]["reason"] != "Invalid" || docs[1]["code"] != float64(422) {
		t.Errorf("json statuses: %v", docs)
	}
	// Unknown fields fail decoding in the apiserver: 400 with the strict decoding error.
	if docs[2]["reason"] != "BadRequest" || docs[2]["message"] != `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"` {
		t.Errorf("json status of a document with an unknown field: %v", docs[2])
	}

	_, out, _ = kdv(t, "", append(args, "junit")...)
	var suites struct {
		Suites []struct {
			Cases []struct {
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &suites); err != nil || len(suites.Suites) != 1 || len(suites.Suites[0].Cases) != 3 || suites.Suites[0].Cases[1].Failure == nil {
		t.Errorf("junit: %v %+v\n%s", err, suites, out)
	}

	_, out, _ = kdv(t, "", append(args, "sarif")...)
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Physical struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 {
		t.Fatalf("sarif: %v\n%s", err, out)
	}
	res := sarif.Runs[0].Results
	if len(res) < 6 || res[0].RuleID != "FieldValueInvalid" || res[0].Locations[0].Physical.Region.StartLine != 31 {
		t.Errorf("sarif results: %+v", res)
	}

	if code, _, errOut := kdv(t, "", append(args, "yaml")...); code != exitUsage || !strings.Contains(errOut, "unknown output format") {
		t.Errorf("-o yaml: exit %d, stderr %q", code, errOut)
	}
}

func TestCheck(t *testing.T) {
	code, out, _ := kdv(t, "", "check", widgetCRD)
	if code != exitValid {
		t.Errorf("exit %d, want 0\n%s", code, out)
	}
	bad := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {}
---
kind: Kustomization
`
	code, out, _ = kdv(t, bad, "check", "-")
	if code != exitInvalid {
		t.Errorf("exit %d, want 1\n%s", code, out)
	}
	// The apiserver's message for a property without a type; with one
	// version, its internal form moves the schema to spec.validation.
	wantLines(t, out, "-:5: apiextensions.k8s.io/CustomResourceDefinition things.example.com: spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields",
		"skipped: ", "not a CustomResourceDefinition")
}

func TestPruneAndDefault(t *testing.T) {
	code, out, errOut := kdv(t, "", "prune", "--crds", widgetCRD, "../../examples/crd/widgets.yaml")
	if code != exitValid {
		t.Errorf("prune: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "colour") || !strings.Contains(errOut, `widgets.yaml:36: unknown field "spec.colour"`) {
		t.Errorf("prune: stdout\n%s\nstderr\n%s", out, errOut)
	}
	if strings.Count(out, "---\n") != 2 {
		t.Errorf("prune: want 3 YAML documents:\n%s", out)
	}
	_, out, _ = kdv(t, `{"apiVersion":"example.kdv.dev/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"small"}}`, "default", "--crds", widgetCRD, "-")
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("default: JSON in must give JSON out: %v\n%s", err, out)
	}
	spec := obj["spec"].(map[string]any)
	if spec["minReplicas"] != float64(1) || spec["maxReplicas"] != float64(10) {
		t.Errorf("default: spec = %v", spec)
	}
}

// kdv gen crd on the sample API package gives CRDs that kdv check accepts.
func TestGenCRDPassesCheck(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := kdv(t, "", "gen", "crd", "--out", dir, "../../generate/openapi/testdata/sample/...")
	if code != exitValid {
		t.Fatalf("gen: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(errOut, "customValidation") {
		t.Errorf("the generation report does not list the unpublished customValidation tag:\n%s", errOut)
	}
	code, out, _ := kdv(t, "", "check", dir)
	if code != exitValid || !strings.Contains(out, "1 document in 1 file: 1 valid") {
		t.Errorf("check of the generated CRD: exit %d\n%s", code, out)
	}
	if code, _, errOut := kdv(t, "", "gen", "yaml", "./..."); code != exitUsage || !strings.Contains(errOut, "want openapi or crd") {
		t.Errorf("gen yaml: exit %d %s", code, errOut)
	}
}

// Built-in schemas carry k8s.io/api's validation-gen tags as CEL rules with
// validation-gen's messages: +k8s:immutable, +k8s:update=NoSet and a
// +k8s:unionMember union on scheduling.k8s.io/v1beta1 PodGroup
// (apimachinery pkg/api/validate immutable.go, update.go, union.go).
func TestValidateBuiltInTransitionsAndUnions(t *testing.T) {
	code, out, _ := kdv(t, "", "validate", "--old", "testdata/podgroup-old.yaml", "testdata/podgroup-new.yaml")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out,
		// validate.Immutable and validate.Update report field.Invalid(fldPath, nil, ...)
		"podgroup-new.yaml:6: scheduling.k8s.io/PodGroup default/pg: spec.schedulingPolicy.basic: Invalid value: null: field is immutable",
		"podgroup-new.yaml:7: scheduling.k8s.io/PodGroup default/pg: spec.schedulingPolicy.gang: Invalid value: null: field cannot be set once created",
		// validate.Union reports the members set as the value, "{basic, gang}";
		// kdv reports null (a known difference in the value only)
		"podgroup-new.yaml:15: scheduling.k8s.io/PodGroup default/both: spec.schedulingPolicy: Invalid value: null: must specify exactly one of: `basic`, `gang`")
	// As creates, the policy change is fine; the union is not.
	_, out, _ = kdv(t, "", "validate", "testdata/podgroup-new.yaml")
	if strings.Contains(out, "immutable") || !strings.Contains(out, "must specify exactly one of") {
		t.Errorf("as creates:\n%s", out)
	}
}

// kdv gen applies kdv's rule overlay for k8s.io/api (the Go defaulters'
// defaults) unless --builtin-overlay=false, and --overlay files of one's
// own.
func TestGenOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("loads k8s.io/api/rbac/v1")
	}
	code, out, errOut := kdv(t, "", "gen", "openapi", "k8s.io/api/rbac/v1")
	if code != exitValid || !strings.Contains(out, `"default": "rbac.authorization.k8s.io"`) {
		t.Errorf("with the built-in overlay: exit %d, RoleRef.apiGroup default missing\n%s", code, errOut)
	}
	code, out, _ = kdv(t, "", "gen", "openapi", "--builtin-overlay=false", "k8s.io/api/rbac/v1")
	if code != exitValid || strings.Contains(out, `"default": "rbac.authorization.k8s.io"`) {
		t.Errorf("without the built-in overlay: exit %d, default present", code)
	}
	f := filepath.Join(t.TempDir(), "rbac.tags")
	if err := os.WriteFile(f, []byte("package k8s.io/api/rbac/v1\nsource my policy\nPolicyRule.verbs +minItems=1\nPolicyRule.nosuch +minItems=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = kdv(t, "", "gen", "openapi", "--overlay", f, "k8s.io/api/rbac/v1")
	if code != exitValid || !strings.Contains(out, `"minItems": 1`) || !strings.Contains(errOut, "rbac.tags:4: overlay entry for k8s.io/api/rbac/v1.PolicyRule.nosuch matches no type or field") {
		t.Errorf("--overlay: exit %d\n%s", code, errOut)
	}
	code, _, errOut = kdv(t, "", "gen", "openapi", "--overlay", filepath.Join(t.TempDir(), "none.tags"), "k8s.io/api/rbac/v1")
	if code != exitUsage || !strings.Contains(errOut, "--overlay: open ") {
		t.Errorf("missing --overlay: exit %d\n%s", code, errOut)
	}
}

// moduleCacheDir returns the last directory (the newest version, in name
// order) matching pattern below the Go module cache (go env GOMODCACHE),
// for tests that read files written by others from modules kdv does not
// require (.ci/run fetches them); the test is skipped when there is none.
func moduleCacheDir(t *testing.T, pattern string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), pattern))
	if len(dirs) == 0 {
		t.Skipf("%s: not in the module cache", pattern)
	}
	return dirs[len(dirs)-1]
}

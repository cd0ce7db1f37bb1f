package report

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"
)

// checkSARIF asserts the properties SARIF 2.1.0 requires of what kdv writes
// (sarifLog §3.13: version, runs; run §3.14: tool; toolComponent §3.19: name;
// reportingDescriptor §3.49: id; result §3.27: message with text; region
// §3.30: startLine >= 1) and kdv's own invariants (unique rule ids,
// ruleIndex pointing at ruleId). It returns the parsed run.
func checkSARIF(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if log["$schema"] != "https://json.schemastore.org/sarif-2.1.0.json" || log["version"] != "2.1.0" {
		t.Errorf("$schema/version = %v %v", log["$schema"], log["version"])
	}
	runs, ok := log["runs"].([]any)
	if !ok || len(runs) != 1 {
		t.Fatalf("runs = %v", log["runs"])
	}
	run := runs[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] != "kdv" || driver["informationUri"] != "https://kdv.dev" {
		t.Errorf("driver = %v %v", driver["name"], driver["informationUri"])
	}
	rules := driver["rules"].([]any)
	seen := map[string]bool{}
	for _, r := range rules {
		id, _ := r.(map[string]any)["id"].(string)
		if id == "" || seen[id] {
			t.Errorf("rule id %q empty or duplicate", id)
		}
		seen[id] = true
		if r.(map[string]any)["shortDescription"].(map[string]any)["text"] == "" {
			t.Errorf("rule %s without description", id)
		}
	}
	results, ok := run["results"].([]any)
	if !ok {
		t.Fatalf("results missing or not an array: %v", run["results"])
	}
	for i, x := range results {
		res := x.(map[string]any)
		id := res["ruleId"].(string)
		idx := int(res["ruleIndex"].(float64))
		if idx < 0 || idx >= len(rules) || rules[idx].(map[string]any)["id"] != id {
			t.Errorf("result %d: ruleIndex %d does not point at rule %s", i, idx, id)
		}
		switch res["level"] {
		case "error", "warning", "note":
		default:
			t.Errorf("result %d: level %v", i, res["level"])
		}
		if text, _ := res["message"].(map[string]any)["text"].(string); text == "" {
			t.Errorf("result %d: empty message", i)
		}
		locs := res["locations"].([]any)
		if len(locs) != 1 {
			t.Fatalf("result %d: %d locations", i, len(locs))
		}
		pl := locs[0].(map[string]any)["physicalLocation"].(map[string]any)
		if uri, _ := pl["artifactLocation"].(map[string]any)["uri"].(string); uri == "" {
			t.Errorf("result %d: empty uri", i)
		}
		if reg, ok := pl["region"].(map[string]any); ok {
			if reg["startLine"].(float64) < 1 {
				t.Errorf("result %d: startLine %v", i, reg["startLine"])
			}
			if c, ok := reg["startColumn"]; ok && c.(float64) < 1 {
				t.Errorf("result %d: startColumn %v", i, c)
			}
		}
	}
	return run
}

type sarifWant struct {
	rule, level, text, uri string
	line, col              int // 0: no region / no startColumn
}

func TestWriteSARIF(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, fixture(), Options{ToolVersion: "v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	run := checkSARIF(t, buf.Bytes())
	if v := run["tool"].(map[string]any)["driver"].(map[string]any)["version"]; v != "v1.2.3" {
		t.Errorf("driver version = %v", v)
	}
	const bad = "apps/Deployment default/bad: "
	want := []sarifWant{
		{"FieldValueInvalid", "error", bad + expectedErrLines[0], "manifests/app.yaml", 26, 3},
		{"FieldValueRequired", "error", bad + expectedErrLines[1], "manifests/app.yaml", 20, 0},
		{"FieldValueNotSupported", "error", bad + expectedErrLines[2], "manifests/app.yaml", 29, 5},
		{"FieldValueTooLong", "error", bad + expectedErrLines[3], "manifests/app.yaml", 24, 5},
		{"FieldValueDuplicate", "error", bad + expectedErrLines[4], "manifests/app.yaml", 35, 0},
		{"FieldValueForbidden", "error", bad + expectedErrLines[5], "manifests/app.yaml", 20, 0},
		{"NoSchema", "error", "extensions/Deployment default/old: no schema for extensions/v1beta1, Kind=Deployment", "manifests/app.yaml", 40, 0},
		{"Skipped", "note", "example.com/Widget w1: skipped: no schema for example.com/v1, Kind=Widget", "crs/widget.yaml", 1, 0},
		{"Warning", "warning", `ConfigMap kube-system/cfg: unknown field "data.extra"`, "more.yaml", 3, 0},
		{"ParseError", "error", "error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context", "more.yaml", 9, 0},
		{"FieldValueInvalid", "error", `Namespace Team_A: metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'`, "-", 0, 0},
	}
	results := run["results"].([]any)
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	for i, w := range want {
		res := results[i].(map[string]any)
		pl := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		got := sarifWant{
			rule:  res["ruleId"].(string),
			level: res["level"].(string),
			text:  res["message"].(map[string]any)["text"].(string),
			uri:   pl["artifactLocation"].(map[string]any)["uri"].(string),
		}
		if reg, ok := pl["region"].(map[string]any); ok {
			got.line = int(reg["startLine"].(float64))
			if c, ok := reg["startColumn"]; ok {
				got.col = int(c.(float64))
			}
		}
		if got != w {
			t.Errorf("result %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
}

func TestWriteSARIFEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, &Result{}, Options{}); err != nil {
		t.Fatal(err)
	}
	run := checkSARIF(t, buf.Bytes())
	// An empty array, not null: "no problems found" (SARIF §3.14.23).
	if r, ok := run["results"].([]any); !ok || len(r) != 0 {
		t.Errorf("results = %#v", run["results"])
	}
	if _, ok := run["tool"].(map[string]any)["driver"].(map[string]any)["version"]; ok {
		t.Error("empty ToolVersion written")
	}
}

func TestFileURI(t *testing.T) {
	cases := map[string]string{
		"a.yaml":               "a.yaml",
		"dir/sub/a.yaml":       "dir/sub/a.yaml",
		"./dir/a.yaml":         "./dir/a.yaml",
		"../up/a.yaml":         "../up/a.yaml",
		"dir/a b#1%.yaml":      "dir/a%20b%231%25.yaml",
		"c:d.yaml":             "./c:d.yaml", // a colon in the first segment must not read as a scheme
		"/abs/path/a.yaml":     "file:///abs/path/a.yaml",
		"/abs/with space.yaml": "file:///abs/with%20space.yaml",
		"-":                    "-",
	}
	if runtime.GOOS == "windows" {
		cases[`dir\a.yaml`] = "dir/a.yaml"
		cases[`C:\x\a.yaml`] = "file:///C:/x/a.yaml"
	}
	for in, want := range cases {
		if got := fileURI(in); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}

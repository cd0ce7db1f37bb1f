package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const widgetsNew = "testdata/compat/widgets-new.crd.yaml"

func TestCompat(t *testing.T) {
	code, out, errOut := kdv(t, "", "compat", widgetCRD, widgetsNew)
	if code != exitInvalid {
		t.Errorf("exit %d, want %d; stderr %s", code, exitInvalid, errOut)
	}
	wantLines(t, out,
		`widgets.example.kdv.dev/v1: spec.size: breaks-objects enum-value-removed: enum value "large" removed`,
		`widgets.example.kdv.dev/v1: spec.size: breaks-clients enum-value-added: enum value "huge" added`,
		`widgets.example.kdv.dev/v1: spec.owner: breaks-objects field-removed:`,
		`widgets.example.kdv.dev/v1: spec.ports: breaks-objects max-tightened: maxItems tightened from 16 to 8`,
		`widgets.example.kdv.dev/v1: spec: ratcheted rule-added: rule "!has(self.ports) || self.ports.all(p, p.port != 22)" added`,
		`widgets.example.kdv.dev/v1: spec: breaks-objects rule-added: transition rule "self.maxReplicas >= oldSelf.maxReplicas" added`,
		`widgets.example.kdv.dev/v1: spec.colour: safe field-added: optional field added`,
		`widgets.example.kdv.dev/v1: spec.maxReplicas: safe max-loosened: maximum loosened from 100 to 1000`,
		"8 changes: 4 breaks-objects, 1 breaks-clients, 1 ratcheted, 2 safe\n",
	)
	// The description added to spec.size is not a change.
	if strings.Contains(out, "spec.size: safe") {
		t.Errorf("a description change is reported:\n%s", out)
	}
}

func TestCompatIdentical(t *testing.T) {
	code, out, _ := kdv(t, "", "compat", widgetCRD, widgetCRD)
	if code != exitValid || out != "0 changes: 0 breaks-objects, 0 breaks-clients, 0 ratcheted, 0 safe\n" {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestCompatFailOn(t *testing.T) {
	// Only safe changes and a ratcheted rule: new to old is not; old to
	// new with --fail-on safe fails, --min-severity hides the safe ones.
	if code, _, _ := kdv(t, "", "compat", "--fail-on", "safe", widgetCRD, widgetsNew); code != exitInvalid {
		t.Errorf("--fail-on safe: exit %d", code)
	}
	code, out, _ := kdv(t, "", "compat", "--min-severity", "breaks-objects", widgetCRD, widgetsNew)
	if code != exitInvalid || strings.Contains(out, " safe ") || strings.Contains(out, "breaks-clients enum") {
		t.Errorf("--min-severity breaks-objects: exit %d\n%s", code, out)
	}
	if code, _, errOut := kdv(t, "", "compat", "--fail-on", "bad", widgetCRD, widgetsNew); code != exitUsage || !strings.Contains(errOut, `unknown severity "bad"`) {
		t.Errorf("--fail-on bad: exit %d, %s", code, errOut)
	}
}

func TestCompatJSONAndSARIF(t *testing.T) {
	_, out, _ := kdv(t, "", "compat", "-o", "json", widgetCRD, widgetsNew)
	var doc struct {
		Changes []struct {
			Object, Version, Path, Kind, Severity, Rule string
			Old, New                                    any
			File                                        string
			Line                                        int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Changes) != 8 {
		t.Fatalf("%d changes, want 8", len(doc.Changes))
	}
	c := doc.Changes[6] // enum-value-removed; line 5 is the CRD document's first
	if c.Kind != "enum-value-removed" || c.Severity != "breaks-objects" || c.Path != "spec.size" || c.Old != "large" || c.File != widgetsNew || c.Line != 5 || c.Rule == "" {
		t.Errorf("change: %+v", c)
	}
	_, out, _ = kdv(t, "", "compat", "-o", "sarif", widgetCRD, widgetsNew)
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID, Level string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil {
		t.Fatal(err)
	}
	levels := map[string]int{}
	for _, r := range sarif.Runs[0].Results {
		levels[r.Level]++
	}
	if levels["error"] != 5 || levels["warning"] != 1 || levels["note"] != 2 {
		t.Errorf("SARIF levels %v, want 5 error, 1 warning, 2 note", levels)
	}
}

func TestCompatBadInput(t *testing.T) {
	code, _, errOut := kdv(t, "", "compat", widgetCRD, "testdata/does-not-exist")
	if code != exitUsage || !strings.Contains(errOut, "does-not-exist") {
		t.Errorf("missing NEW: exit %d, %s", code, errOut)
	}
	code, _, errOut = kdv(t, "", "compat", widgetCRD, "testdata/broken.yaml")
	if code != exitUsage || !strings.Contains(errOut, "kdv: NEW: testdata/broken.yaml") {
		t.Errorf("NEW without CRD: exit %d, %s", code, errOut)
	}
	if code, _, _ := kdv(t, "", "compat", widgetCRD); code != exitUsage {
		t.Errorf("one argument: exit %d", code)
	}
}

// TestCompatGoPackagesAndObjects compares two Go API packages (generated
// as kdv gen crd would, in memory) and checks existing objects against
// them: the blue gadget with an 8-byte label is valid under the old
// package and rejected on create by the new one (enum value removed,
// maxLength 10 to 5); ratcheting lets its unchanged update through.
func TestCompatGoPackagesAndObjects(t *testing.T) {
	const old, new = "testdata/compat/goapi/old/v1", "testdata/compat/goapi/new/v1"
	code, out, errOut := kdv(t, "", "compat", "--objects", "testdata/compat/gadgets.yaml", old, new)
	if code != exitInvalid {
		t.Errorf("exit %d, want %d; stderr %s", code, exitInvalid, errOut)
	}
	wantLines(t, out,
		`gadgets.gadgets.kdv.dev/v1: spec.color: breaks-objects enum-value-removed: enum value "Blue" removed`,
		`gadgets.gadgets.kdv.dev/v1: spec.label: breaks-objects max-tightened: maxLength tightened from 10 to 5`,
		`gadgets.gadgets.kdv.dev/v1: spec.shape: safe field-added: optional field added`,
		"testdata/compat/gadgets.yaml:6: Gadget default/long-blue: stranded (NEW rejects it on create)",
		`    create: spec.color: Unsupported value: "Blue": supported values: "Red"`,
		"    create: spec.label: Too long: may not be more than 5 bytes",
		"    ratcheted on update: spec.label: Too long: may not be more than 5 bytes",
		"testdata/compat/gadgets.yaml:11: ConfigMap default/unrelated: skipped: neither OLD nor NEW defines ConfigMap",
		"3 objects: 1 stranded, 1 ok, 0 invalid under OLD, 1 skipped, 0 unreadable",
	)

	// --fail-on above every change: the stranded object alone fails the run.
	if code, _, _ := kdv(t, "", "compat", "--fail-on", "breaks-objects", "--min-severity", "breaks-objects", "--objects", "testdata/compat/gadgets.yaml", new, new); code != exitValid {
		t.Errorf("NEW against itself: exit %d", code)
	}

	_, out, _ = kdv(t, "", "compat", "-o", "json", "--objects", "testdata/compat/gadgets.yaml", old, new)
	var doc struct {
		Changes []any
		Objects []struct{ Name, Status string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Changes) != 3 || len(doc.Objects) != 3 || doc.Objects[1].Status != "stranded" {
		t.Errorf("json: %v\n%s", err, out)
	}
	_, out, _ = kdv(t, "", "compat", "-o", "sarif", "--objects", "testdata/compat/gadgets.yaml", old, new)
	if !strings.Contains(out, `"ruleId": "object-stranded"`) || !strings.Contains(out, `"startLine": 6`) {
		t.Errorf("sarif lacks the stranded object:\n%s", out)
	}
}

// TestCompatGoPackageErrors: a pattern matching no package is a usage
// error naming it.
func TestCompatGoPackageErrors(t *testing.T) {
	code, _, errOut := kdv(t, "", "compat", "kdv.dev/no/such/package", widgetCRD)
	if code != exitUsage || !strings.Contains(errOut, "OLD: ") || !strings.Contains(errOut, "no/such/package") {
		t.Errorf("exit %d, stderr %s", code, errOut)
	}
}

// --config: a policy file's severities and ignores apply, and its failOn
// replaces the default unless --fail-on is given.
func TestCompatConfig(t *testing.T) {
	cfg := "../../compat/testdata/config/policy.yaml"
	code, out, _ := kdv(t, "", "compat", "--config", cfg, widgetCRD, "testdata/compat/widgets-new.crd.yaml")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out, `widgets.example.kdv.dev/v1: spec.size: safe enum-value-added: enum value "huge" added`,
		"7 changes: 3 breaks-objects, 0 breaks-clients, 1 ratcheted, 3 safe")
	if strings.Contains(out, "spec.owner") {
		t.Errorf("the ignored change is reported:\n%s", out)
	}
	// failOn breaks-objects lets the breaks-clients change left pass, unless
	// --fail-on says otherwise
	lenient := filepath.Join(t.TempDir(), "lenient.yaml")
	if err := os.WriteFile(lenient, []byte("failOn: breaks-objects\nignore:\n- {kind: rule-added, reason: r}\n- {kind: max-tightened, reason: r}\n- {kind: enum-value-removed, reason: r}\n- {kind: field-removed, reason: r}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := kdv(t, "", "compat", "--config", lenient, widgetCRD, "testdata/compat/widgets-new.crd.yaml"); code != exitValid || !strings.Contains(out, "0 breaks-objects, 1 breaks-clients") {
		t.Errorf("lenient policy: exit %d\n%s", code, out)
	}
	if code, _, _ := kdv(t, "", "compat", "--config", lenient, "--fail-on", "breaks-clients", widgetCRD, "testdata/compat/widgets-new.crd.yaml"); code != exitInvalid {
		t.Errorf("--fail-on over the policy: exit %d, want %d", code, exitInvalid)
	}
	if code, _, errOut := kdv(t, "", "compat", "--config", "testdata/compat/missing.yaml", widgetCRD, widgetCRD); code != exitUsage || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("missing config: exit %d %s", code, errOut)
	}
}

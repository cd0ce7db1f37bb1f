package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A policy file sets severities per change kind, drops intended changes
// and says from which severity the run fails; bad files are errors
// naming the file.
func TestConfig(t *testing.T) {
	c, err := LoadConfig("testdata/config/policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.FailOn == nil || *c.FailOn != BreaksObjects {
		t.Errorf("failOn %v, want breaks-objects", c.FailOn)
	}
	in := []Change{
		{Object: "widgets.example.kdv.dev", Path: "spec.size", Kind: "enum-value-added", Severity: BreaksClients},
		{Object: "widgets.example.kdv.dev", Path: "spec.owner", Kind: "field-removed", Severity: BreaksObjects},
		{Object: "widgets.example.kdv.dev", Path: "spec.other", Kind: "field-removed", Severity: BreaksObjects},
	}
	got := c.Apply(in)
	if len(got) != 2 || got[0].Severity != Safe || got[1].Path != "spec.other" || got[1].Severity != BreaksObjects {
		t.Errorf("applied: %+v", got)
	}
	if in[0].Severity != BreaksClients {
		t.Error("Apply changed its input")
	}
	var none *Config
	if len(none.Apply(in)) != 3 {
		t.Error("a nil Config must keep every change")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"unknown key":      "failOn: safe\nfailOnn: safe\n",
		"unknown severity": "severities: {enum-value-added: harmless}\n",
		"no reason":        "ignore: [{path: spec.x}]\n",
		"bad pattern":      "ignore: [{path: '[', reason: r}]\n",
	} {
		f := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml")
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadConfig(f); err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%s: error %v, want one naming %s", name, err, f)
		}
	}
}

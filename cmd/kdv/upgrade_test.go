package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const upgradeData = "../../upgrade/testdata/releases/"

// kdv upgrade-check's text output, exit codes and defaults (--from the
// oldest embedded release, --to the newest). The verdicts are checked
// against their sources in kdv.dev/upgrade's tests.
func TestUpgradeCheck(t *testing.T) {
	code, out, errOut := kdv(t, "", "upgrade-check", upgradeData+"service-digit-name.yaml", upgradeData+"volumeattributesclass-v1beta1.yaml", upgradeData+"deployment-invalid.yaml", upgradeData+"deployment.yaml")
	if code != exitInvalid {
		t.Errorf("exit %d, want 1 (a removed version)\n%s%s", code, out, errOut)
	}
	want := upgradeData + `service-digit-name.yaml:8: Service default/1abc: newly accepted by 1.37 (rejected by 1.30): metadata.name: Invalid value: "1abc": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
` + upgradeData + `volumeattributesclass-v1beta1.yaml:3: storage.k8s.io/VolumeAttributesClass gold: removed: storage.k8s.io/v1beta1 VolumeAttributesClass was removed in v1.37; use storage.k8s.io/v1 VolumeAttributesClass
4 documents in 4 files, 1.30 -> 1.37: 1 removed, 0 newly rejected, 0 deprecated, 0 with warnings changed, 1 newly accepted, 1 invalid at both, 0 failed, 0 skipped, 1 unaffected
`
	if out != want || errOut != "" {
		t.Errorf("output:\n%s\nstderr:\n%s\nwant:\n%s", out, errOut, want)
	}

	// --show-unchanged lists the documents invalid at both releases.
	_, out, _ = kdv(t, "", "upgrade-check", "--show-unchanged", upgradeData+"deployment-invalid.yaml")
	wantLines(t, out, upgradeData+"deployment-invalid.yaml:7: apps/Deployment default/broken: invalid at 1.30 and 1.37: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n")

	// Nothing breaks: exit 0, even with problems that stay.
	if code, out, _ := kdv(t, "", "upgrade-check", upgradeData+"deployment-invalid.yaml", upgradeData+"storageversionmigration-v1beta1.yaml"); code != exitValid {
		t.Errorf("exit %d, want 0\n%s", code, out)
	}

	// A rollback: newly rejected, exit 1, with what stored objects meet.
	code, out, _ = kdv(t, "", "upgrade-check", "--from", "1.37", "--to", "v1.35", upgradeData+"service-digit-name.yaml")
	if code != exitInvalid {
		t.Errorf("rollback: exit %d, want 1", code)
	}
	wantLines(t, out,
		`service-digit-name.yaml:8: Service default/1abc: newly rejected by 1.35: metadata.name: Invalid value: "1abc": a DNS-1035 label`,
		"service-digit-name.yaml:5: Service default/1abc: newly rejected by 1.35: objects stored at 1.37 still pass an unchanged update at 1.35\n")
}

func TestUpgradeCheckUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"upgrade-check", "--from", "1.20", upgradeData}, "kdv: --from 1.20: kdv embeds Kubernetes 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37\n"},
		{[]string{"upgrade-check", "--to", "2.1", upgradeData}, "kdv: invalid --to \"2.1\": want 1.<minor>, e.g. 1.37\n"},
		{[]string{"upgrade-check", "-o", "sarif", upgradeData}, "kdv: unknown output format \"sarif\": must be one of text, json\n"},
		{[]string{"upgrade-check", "--crds", "-", "-"}, "kdv: stdin (-) can be read only once\n"},
	} {
		code, out, errOut := kdv(t, "", tc.args...)
		if code != exitUsage || out != "" || errOut != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, %q", tc.args, code, out, errOut, tc.want)
		}
	}
	// An unreadable path: the rest is still checked, exit 2.
	code, out, errOut := kdv(t, "", "upgrade-check", "no-such-file.yaml", upgradeData+"deployment.yaml")
	if code != exitUsage || !strings.Contains(errOut, "no-such-file.yaml") || !strings.Contains(out, "1 document in 1 file") {
		t.Errorf("missing file: exit %d\n%s%s", code, out, errOut)
	}
}

// The input is read as kdv validate reads it: stdin, and --crds (here
// from stdin, which every release's registry reads).
func TestUpgradeCheckInputs(t *testing.T) {
	crd, err := os.ReadFile(filepath.Join(upgradeData, "..", "hook", "crd-new.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := kdv(t, string(crd), "upgrade-check", "-o", "json", "--crds", "-", upgradeData+"../hook/widgets.yaml")
	if code != exitValid {
		t.Errorf("exit %d, want 0\n%s%s", code, out, errOut)
	}
	var res struct {
		Documents []struct {
			Class    string
			Verdicts map[string]string
		}
		Summary map[string]int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The same CRD at both releases: "large" is invalid at both.
	if len(res.Documents) != 4 || res.Documents[0].Class != "unchanged" || res.Documents[1].Class != "unaffected" || res.Summary["unchanged"] != 2 {
		t.Errorf("%s", out)
	}
	if _, ok := res.Documents[2].Verdicts["toUpdate"]; ok {
		t.Errorf("documents of the same name compared as updates: %v", res.Documents[2].Verdicts)
	}

	deployment, err := os.ReadFile(filepath.Join(upgradeData, "deployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ = kdv(t, string(deployment), "upgrade-check", "--summary=false", "-")
	if code != exitValid || out != "" {
		t.Errorf("stdin: exit %d, output %q", code, out)
	}
	_, out, _ = kdv(t, string(deployment), "upgrade-check", "--summary=false", "-v", "--no-config", "-")
	if want := "-:2: apps/Deployment default/web: valid at 1.30 and 1.37\n"; out != want {
		t.Errorf("-v: output %q, want %q", out, want)
	}
}

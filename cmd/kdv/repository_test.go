package main

import (
	"strings"
	"testing"
)

// A repository as it is (issue 17): plain manifests next to a Helm chart
// (rendered, its files not read), Kustomize files, CI workflows, a Compose
// file, application settings and an Ansible playbook. Every manifest is valid, so the run
// exits 0 and lists what it skipped; --strict-inputs reads every file as
// kubectl does and fails them.
func TestValidateRepositoryTree(t *testing.T) {
	code, out, errOut := kdv(t, "", "validate", "testdata/repo")
	if code != exitValid {
		t.Errorf("exit %d, want 0; stderr %s", code, errOut)
	}
	want := []string{
		"testdata/repo/.github/workflows/ci.yaml: skipped: not a manifest: GitHub configuration (under .github/)",
		"testdata/repo/.gitlab-ci.yml: skipped: not a manifest: GitLab CI configuration",
		"testdata/repo/ansible/playbook.yml:1: skipped: not a manifest: a list, neither apiVersion nor kind",
		"testdata/repo/config/settings.yaml:2: skipped: not a manifest: neither apiVersion nor kind",
		"testdata/repo/docker-compose.yml: skipped: not a manifest: Docker Compose file",
		// base/ and overlays/prod are built: their ConfigMap is validated
		// twice, in base and with the overlay's namespace; chart/ is
		// rendered (its Deployment is the fourth file), its files not read.
		"6 documents in 4 files: 6 valid, 0 invalid, 0 failed, 0 skipped (0 errors, 0 warnings); 5 non-manifests skipped",
	}
	wantLines(t, out, want...)
	if n := strings.Count(out, "\n"); n != len(want) {
		t.Errorf("%d lines, want %d:\n%s", n, len(want), out)
	}

	code, out, _ = kdv(t, "", "validate", "--strict-inputs", "testdata/repo")
	if code != exitUsage {
		t.Errorf("--strict-inputs: exit %d, want %d", code, exitUsage)
	}
	wantLines(t, out, "testdata/repo/chart/values.yaml:1: Object 'Kind' is missing",
		"testdata/repo/base/kustomization.yaml:1: no schema for kustomize.config.k8s.io/v1beta1, Kind=Kustomization",
		"11 failed")
	if strings.Contains(out, "not a manifest") {
		t.Errorf("--strict-inputs skipped something:\n%s", out)
	}

	for format, line := range map[string]string{
		"json":  `"message": "skipped: not a manifest: Docker Compose file"`,
		"junit": `<skipped message="not a manifest: Docker Compose file">`,
		"sarif": `"text": "file: skipped: not a manifest: GitHub configuration (under .github/)"`,
	} {
		code, out, _ := kdv(t, "", "validate", "-o", format, "testdata/repo")
		if code != exitValid {
			t.Errorf("-o %s: exit %d", format, code)
		}
		wantLines(t, out, line)
	}
}

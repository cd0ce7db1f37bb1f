package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kustomization directory is built and its output validated, not its
// files: each error names the kustomization and the source file of the
// object, at the field's line there when the build left the field as
// written (the port), else at the object's first line (the replicas the
// overlay's patch set).
func TestValidateKustomization(t *testing.T) {
	code, out, errOut := kdv(t, "", "validate", "testdata/kustomize/overlay")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d; stderr %s", code, exitInvalid, errOut)
	}
	wantLines(t, out,
		"testdata/kustomize/base/deployment.yaml:1: apps/Deployment prod/prod-web (built by testdata/kustomize/overlay/kustomization.yaml): spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
		"testdata/kustomize/base/deployment.yaml:19: apps/Deployment prod/prod-web (built by testdata/kustomize/overlay/kustomization.yaml): spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 80800: must be between 1 and 65535, inclusive\n",
		"1 document in 1 file: 0 valid, 1 invalid")
}

// Found while walking, every kustomization is built (the base alone and
// through the overlay); the remote one fails offline with a clear error.
func TestValidateKustomizationsWalked(t *testing.T) {
	code, out, errOut := kdv(t, "", "validate", "testdata/kustomize")
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	wantLines(t, out,
		"testdata/kustomize/base/deployment.yaml:19: apps/Deployment default/web (built by testdata/kustomize/base/kustomization.yaml): spec.template.spec.containers[0].ports[0].containerPort",
		"2 documents in 1 file: 0 valid, 2 invalid")
	wantLines(t, errOut, `kdv: testdata/kustomize/remote: resources[1]: "https://github.com/kubernetes-sigs/gateway-api/config/crd?ref=v1.6.0" is remote; kdv builds kustomizations offline: vendor it and refer to the local copy`)
}

// --strict-inputs reads the files of a kustomization directory as they
// are, as kubectl -f does.
func TestValidateKustomizationStrictInputs(t *testing.T) {
	_, out, _ := kdv(t, "", "validate", "--strict-inputs", "testdata/kustomize/base")
	wantLines(t, out, "no schema for kustomize.config.k8s.io/v1beta1, Kind=Kustomization",
		"testdata/kustomize/base/deployment.yaml:19: apps/Deployment default/web: spec.template")
}

// The Gateway API's config/crd kustomization, from its Go module: it
// builds offline and its CRDs check clean, as the files do.
func TestValidateGatewayAPIKustomization(t *testing.T) {
	dir := moduleCacheDir(t, "sigs.k8s.io/gateway-api@v1.*/config/crd")
	code, out, errOut := kdv(t, "", "validate", dir)
	if code != exitValid || !strings.Contains(out, "(0 errors") {
		t.Errorf("%s: exit %d\n%s%s", dir, code, out, errOut)
	}
	_, files, _ := kdv(t, "", "validate", "--strict-inputs", filepath.Join(dir, "standard"))
	if sum := lastLine(out); sum != lastLine(files) {
		t.Errorf("built %q, files %q", sum, lastLine(files))
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// `helm template chart/ | kdv validate -`: each error names the template
// of its document (the "# Source:" comment helm writes), at the line of the
// rendered output.
func TestValidateHelmTemplateOutput(t *testing.T) {
	data, err := os.ReadFile("testdata/helm/rendered.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := kdv(t, string(data), "validate", "-")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	wantLines(t, out, "-:20: apps/Deployment default/release-app (template app/templates/deployment.yaml): spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
		"2 documents in 1 file: 1 valid, 1 invalid")
}

package main

import (
	"strings"
	"testing"
)

// stopSignalDeployment sets Lifecycle.stopSignal, a field of the alpha
// ContainerStopSignals feature (off by default), to a value its
// validation rejects (spec.os is set: without it any stop signal is
// forbidden).
const stopSignalDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      os: {name: linux}
      containers:
      - name: c
        image: i
        lifecycle: {stopSignal: SIGBOGUS}
`

// --feature-gates models the cluster: by default the gated field is
// dropped with a warning (exit 0), turned on it is validated (exit 1); an
// unknown or locked gate and a bad --lifecycle-warnings are usage errors
// naming them.
func TestValidateFeatureGates(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"validate", "-"}, 0, "stopSignal: dropped: feature gate ContainerStopSignals is alpha, off by default in Kubernetes 1.37", ""},
		{[]string{"validate", "--feature-gates", "ContainerStopSignals=true", "-"}, 1, `stopSignal: Unsupported value: "SIGBOGUS"`, ""},
		{[]string{"validate", "--feature-gates", "AllAlpha=true", "--lifecycle-warnings", "none", "-"}, 1, "(1 error, 0 warnings)", ""},
		{[]string{"validate", "--feature-gates", "ContainerStopSignals=true", "-"}, 1, "stopSignal: alpha field (feature gate ContainerStopSignals)", ""},
		{[]string{"validate", "--feature-gates", "NoSuchGate=true", "-"}, 2, "", "--feature-gates: unrecognized feature gate: NoSuchGate"},
		{[]string{"validate", "--feature-gates", "InPlacePodVerticalScaling=false", "-"}, 2, "", "feature is locked to true"},
		{[]string{"validate", "--lifecycle-warnings", "gamma", "-"}, 2, "", `--lifecycle-warnings "gamma": must be alpha, beta or none`},
	} {
		code, out, errOut := kdv(t, stopSignalDeployment, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, %q, %q", tc.args, code, out, errOut, tc.code, tc.out, tc.err)
		}
	}
}

// kdv gen openapi publishes the lifecycle of k8s.io/api's gated fields as
// the embedded schemas carry it: status and minVersion from the gate, and
// entries for fields whose description names their gate.
func TestGenOpenAPIFieldLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("loads k8s.io/api/core/v1")
	}
	code, out, errOut := kdv(t, "", "gen", "openapi", "k8s.io/api/core/v1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		// +featureGate=ContainerStopSignals
		`"stopSignal": {`,
		`"x-kubernetes-api-lifecycle": {"kubernetes": {"minVersion": "v1.33", "status": "alpha", "featureGate": "ContainerStopSignals"}}`,
		// "This field is alpha and requires EmptyDirVolumeMode featuregate to be enabled."
		`"featureGate": "EmptyDirVolumeMode"`,
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), ""), strings.Join(strings.Fields(want), "")) {
			t.Errorf("output lacks %s", want)
		}
	}
	if !strings.Contains(errOut, "kdv: warning: gen: io.k8s.api.core.v1.VolumeProjection.podCertificate: feature gate PodCertificateProjection (tag) is not in k8s.io/kubernetes@v1.37.2") {
		t.Errorf("stderr lacks the note about PodCertificateProjection: %s", errOut)
	}
}

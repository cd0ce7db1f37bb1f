package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The runs against a real kube-apiserver are in kdv.dev/bench
// (cluster_test.go); these check how kdv fails without one.

const unreachableKubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: https://127.0.0.1:1
users:
- name: u
  user:
    token: t
contexts:
- name: here
  context: {cluster: c, user: u}
current-context: here
`

func TestClusterFailures(t *testing.T) {
	dir := t.TempDir()
	kc := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kc, []byte(unreachableKubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", dir)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing kubeconfig", []string{"validate", "--cluster", "--kubeconfig", filepath.Join(dir, "none"), "../../examples/crd"}, "kdv: kubeconfig: stat " + filepath.Join(dir, "none") + ": no such file or directory"},
		{"unknown context", []string{"audit", "--kubeconfig", kc, "--context", "there"}, `kdv: kubeconfig: context "there" does not exist`},
		{"unreachable, version asked", []string{"validate", "--cluster", "--kubeconfig", kc, "../../examples/crd"}, "kdv: https://127.0.0.1:1: reading /version: "},
		{"unreachable, version given", []string{"audit", "--kubeconfig", kc, "--kubernetes-version", "1.37"}, "https://127.0.0.1:1"},
		{"bad version", []string{"audit", "--kubeconfig", kc, "--kubernetes-version", "2.0"}, `invalid --kubernetes-version "2.0"`},
		{"bad format", []string{"audit", "--kubeconfig", kc, "-o", "xml"}, `unknown output format "xml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := kdv(t, "", tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stdout:\n%s", code, exitUsage, out)
			}
			wantLines(t, errOut, tc.want)
		})
	}
}

package upgrade

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/resource"
)

// The kubernetes/examples corpus (its _archived folder keeps manifests of
// long-removed API versions): every document of a removed version is
// reported as removed, with its replacement, counted per version and kind.
// policy/v1beta1 PodSecurityPolicy (removed in 1.25) and
// admissionregistration.k8s.io/v1alpha1 InitializerConfiguration (removed
// in 1.14) are not among them: k8s.io/api no longer carries their types,
// so kdv's lifecycle data does not know them and they fail as kinds
// without a schema, counted here too.
func TestCorpusKubernetesExamples(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "kubernetes-examples")
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus not present")
	}
	pending, err := manifest.ReadPending([]string{root}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), Decode(pending), Options{From: 35, To: 37, Registry: builtinRegistry, Run: resource.RunOptions{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	removed := map[string]int{}
	failed := map[string]int{}
	deprecated := map[string]int{}
	for i := range res.Documents {
		d := &res.Documents[i]
		gvk := d.ToCreate.GVK.GroupVersion().String() + " " + d.ToCreate.GVK.Kind
		for _, f := range d.Findings {
			switch f.Category {
			case Removed:
				removed[gvk+" -> "+f.Replacement+" (v"+f.RemovedIn+")"]++
				if f.Replacement == "" {
					t.Errorf("%s:%d: removed without a replacement: %s", d.ToCreate.File, d.ToCreate.Line, f.Message)
				}
			case Deprecated:
				deprecated[f.Message]++
			case Failed:
				if d.ToCreate.ErrKind == "NoSchema" {
					failed[gvk]++
				}
			}
		}
	}
	wantRemoved := map[string]int{
		"extensions/v1beta1 DaemonSet -> apps/v1 DaemonSet (v1.16)":                     2,
		"policy/v1beta1 PodDisruptionBudget -> policy/v1 PodDisruptionBudget (v1.25)":   1,
		"storage.k8s.io/v1beta1 StorageClass -> storage.k8s.io/v1 StorageClass (v1.22)": 6,
	}
	if !maps.Equal(removed, wantRemoved) {
		t.Errorf("removed versions:\n%v\nwant:\n%v", sorted(removed), sorted(wantRemoved))
	}
	// v1 Endpoints, deprecated in 1.33 (k8s.io/api core/v1 types.go
	// +k8s:prerelease-lifecycle-gen:deprecated=1.33).
	wantDeprecated := map[string]int{"v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice": 2}
	if !maps.Equal(deprecated, wantDeprecated) {
		t.Errorf("deprecated versions:\n%v\nwant:\n%v", sorted(deprecated), sorted(wantDeprecated))
	}
	wantFailed := map[string]int{
		"policy/v1beta1 PodSecurityPolicy":                               2,
		"admissionregistration.k8s.io/v1alpha1 InitializerConfiguration": 1,
		"v1 Policy": 2, // a kube-scheduler policy file, no API object
		"monitoring.coreos.com/v1 ServiceMonitor": 3, // custom resources without their CRDs
		"monitoring.coreos.com/v1 PrometheusRule": 1,
	}
	if !maps.Equal(failed, wantFailed) {
		t.Errorf("kinds without a schema:\n%v\nwant:\n%v", sorted(failed), sorted(wantFailed))
	}
}

func sorted(m map[string]int) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s: %d", k, m[k]))
	}
	return out
}

package resource

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

const corpus = "../../shared/corpus"

func needCorpus(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("shared corpus not present")
	}
}

// runCorpus validates the documents under paths with the CRDs under crds
// and returns the results by outcome.
func runCorpus(t *testing.T, crds []string, paths ...string) *report.Result {
	t.Helper()
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCRDs(reg, crds, nil); err != nil {
		t.Fatal(err)
	}
	docs, err := manifest.Read(paths, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), docs, reg, RunOptions{})
}

// Every Gateway API example validates clean against the experimental CRDs
// (issue: kdv validate acceptance).
func TestCorpusGatewayAPIExamples(t *testing.T) {
	needCorpus(t)
	res := runCorpus(t, []string{corpus + "/gateway-api/config/crd/experimental"}, corpus+"/gateway-api/examples")
	for _, d := range res.Documents {
		if d.Outcome() != report.Valid {
			t.Errorf("%s:%d %s: %v %v %v", d.File, d.Line, d.Identity(), d.Err, d.UnknownFields, d.Errors)
		}
	}
	t.Logf("%s", res.Summary())
}

// The Prometheus Operator examples, built-in kinds and custom resources in
// one run, validate clean except where the apiserver rejects them too or
// the file is not a Kubernetes manifest.
func TestCorpusPrometheusOperatorExamples(t *testing.T) {
	needCorpus(t)
	root := corpus + "/prometheus-operator/example"
	res := runCorpus(t, []string{root + "/prometheus-operator-crd-full"}, root)
	expected := map[string]string{
		// Not Kubernetes manifests, and recognized as such: a Prometheus
		// scrape config (a YAML array), Prometheus alerting rules and an
		// Alertmanager config (kubectl: "Object 'Kind' is missing").
		"additional-scrape-configs/prometheus-additional.yaml": "not a manifest: a list, neither apiVersion nor kind",
		"mixin/alerts.yaml":                      "not a manifest: neither apiVersion nor kind",
		"user-guides/alerting/alertmanager.yaml": "not a manifest: neither apiVersion nor kind",
		// Documentation fragments the apiserver rejects as well: no
		// metadata.name, and no spec.selector, which the CRDs require.
		"user-guides/scrapeclass/scrapeclass-example-definition.yaml":     "metadata.name: Required value: name or generateName is required",
		"user-guides/scrapeclass/scrapeclass-example-podmonitor.yaml":     "spec.selector: Required value",
		"user-guides/scrapeclass/scrapeclass-example-servicemonitor.yaml": "spec.selector: Required value",
	}
	checkCorpus(t, res, root+"/", expected)
}

// checkCorpus fails for every document that is not valid unless expected
// maps its file (relative to prefix) to a substring of its problems, and
// for every expectation that did not happen.
func checkCorpus(t *testing.T, res *report.Result, prefix string, expected map[string]string) {
	t.Helper()
	seen := map[string]bool{}
	for _, d := range res.Documents {
		if d.Outcome() == report.Valid {
			continue
		}
		rel := strings.TrimPrefix(d.File, prefix)
		problems := fmt.Sprint(d.Err, d.UnknownFields, d.Errors, d.SkipReason)
		if want, ok := expected[rel]; ok && strings.Contains(problems, want) {
			seen[rel] = true
			continue
		}
		t.Errorf("%s:%d %s: %s", d.File, d.Line, d.Identity(), problems)
	}
	for f := range expected {
		if !seen[f] {
			t.Errorf("%s: expected %q, but it was not reported", f, expected[f])
		}
	}
	t.Logf("%s", res.Summary())
}

// kubernetes/examples: manifests of current API versions validate; the
// archived ones that use removed API versions get the removal error with
// the replacement (issue 14), listed by API version and kind, except the
// versions k8s.io/api no longer carries, which stay without a schema.
func TestCorpusKubernetesExamples(t *testing.T) {
	needCorpus(t)
	root := corpus + "/kubernetes-examples"
	res := runCorpus(t, nil, root)
	current := &report.Result{}
	removed := map[string]int{}  // "group/version Kind -> replacement": documents
	noSchema := map[string]int{} // "group/version Kind": documents
	for _, d := range res.Documents {
		if strings.Contains(d.File, "/_archived/") {
			var re *RemovedAPIError
			var ns *NoSchemaError
			switch {
			case errors.As(d.Err, &re):
				l := re.Lifecycle
				key := fmt.Sprintf("%s (removed in %s)", groupVersionKind(l.GVK.Group, l.GVK.Version, l.GVK.Kind), l.Removed)
				if l.Replacement.Kind == "" || !strings.Contains(d.Err.Error(), "; use "+groupVersionKind(l.Replacement.Group, l.Replacement.Version, l.Replacement.Kind)) {
					t.Errorf("%s:%d: %v: no replacement", d.File, d.Line, d.Err)
				}
				if d.ErrKind != report.ErrRemovedAPI {
					t.Errorf("%s:%d: error kind %q", d.File, d.Line, d.ErrKind)
				}
				removed[key+" -> "+groupVersionKind(l.Replacement.Group, l.Replacement.Version, l.Replacement.Kind)]++
			case errors.As(d.Err, &ns):
				noSchema[ns.GVK.GroupVersion().String()+" "+ns.GVK.Kind]++
			}
			continue
		}
		current.Documents = append(current.Documents, d)
	}
	checkCorpus(t, current, root+"/", map[string]string{
		// Custom resources of the Prometheus Operator, whose CRDs are
		// not part of the example.
		"AI/vllm-deployment/hpa/gpu-service-monitor-generic.yaml": "no schema for monitoring.coreos.com/v1, Kind=ServiceMonitor",
		"AI/vllm-deployment/hpa/gpu-service-monitor-gke.yaml":     "no schema for monitoring.coreos.com/v1, Kind=ServiceMonitor",
		"AI/vllm-deployment/hpa/vllm-service-monitor.yaml":        "no schema for monitoring.coreos.com/v1, Kind=ServiceMonitor",
		"AI/vllm-deployment/hpa/prometheus-rule.yaml":             "no schema for monitoring.coreos.com/v1, Kind=PrometheusRule",
		// Cassandra's own configuration files, recognized as not
		// Kubernetes manifests.
		"databases/cassandra/image/files/cassandra.yaml":             "not a manifest: neither apiVersion nor kind",
		"databases/cassandra/java/src/test/resources/cassandra.yaml": "not a manifest: neither apiVersion nor kind",
	})
	total := 0
	for _, k := range slices.Sorted(maps.Keys(removed)) {
		t.Logf("archived, removed: %3d documents of %s", removed[k], k)
		total += removed[k]
	}
	for _, k := range slices.Sorted(maps.Keys(noSchema)) {
		t.Logf("archived, no schema: %3d documents of %s", noSchema[k], k)
	}
	t.Logf("archived: %d documents of removed API versions, %d of kinds without a schema", total, len(noSchema))
	for _, gone := range []string{
		"extensions/v1beta1 DaemonSet (removed in 1.16) -> apps/v1 DaemonSet",
		"policy/v1beta1 PodDisruptionBudget (removed in 1.25) -> policy/v1 PodDisruptionBudget",
		"storage.k8s.io/v1beta1 StorageClass (removed in 1.22) -> storage.k8s.io/v1 StorageClass",
	} {
		if removed[gone] == 0 {
			t.Errorf("no archived document of %s got the removal error", gone)
		}
	}
	// Not in k8s.io/api any more: PodSecurityPolicy (deleted in v0.25)
	// and InitializerConfiguration (removed in 1.14), and a kind that
	// never was built-in (v1 Policy is the old scheduler's configuration
	// file format).
	for k := range noSchema {
		if _, ok := map[string]bool{"policy/v1beta1 PodSecurityPolicy": true, "v1 Policy": true, "admissionregistration.k8s.io/v1alpha1 InitializerConfiguration": true}[k]; !ok {
			t.Errorf("archived %s: no schema, and not a removed version", k)
		}
	}
}

// groupVersionKind renders "group/version Kind" ("version Kind" for the
// core group).
func groupVersionKind(group, version, kind string) string {
	if group == "" {
		return version + " " + kind
	}
	return group + "/" + version + " " + kind
}

package resource

import (
	"context"
	"errors"
	"fmt"
	"os"
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
// archived ones that use removed API versions get the no-schema error.
func TestCorpusKubernetesExamples(t *testing.T) {
	needCorpus(t)
	root := corpus + "/kubernetes-examples"
	res := runCorpus(t, nil, root)
	current := &report.Result{}
	removed := map[string]int{}
	for _, d := range res.Documents {
		if strings.Contains(d.File, "/_archived/") {
			var ns *NoSchemaError
			if errors.As(d.Err, &ns) {
				removed[ns.GVK.GroupVersion().String()+" "+ns.GVK.Kind]++
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
	for gv, n := range removed {
		t.Logf("archived: %d documents of removed %s", n, gv)
	}
	for _, gone := range []string{"extensions/v1beta1 DaemonSet", "policy/v1beta1 PodSecurityPolicy", "storage.k8s.io/v1beta1 StorageClass"} {
		if removed[gone] == 0 {
			t.Errorf("no archived document of removed %s got the no-schema error", gone)
		}
	}
}

package builtin

import (
	"bytes"
	"os"
	"testing"

	"kdv.dev/builtin/internal/gendata"
	"kdv.dev/schema"
)

// A sample of the data against the sources: the tags, generated and
// hand-written lifecycle methods of k8s.io/api (v0.35.10 for autoscaling/v2beta2, which later
// modules deleted) and kube-aggregator, and the warnings the apiserver
// writes from them.
func TestAPILifecycleSample(t *testing.T) {
	gvk := func(g, v, k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	for _, tc := range []struct {
		gvk                             schema.GroupVersionKind
		introduced, deprecated, removed string
		replacement                     schema.GroupVersionKind
		warning                         string
	}{
		{gvk("extensions", "v1beta1", "Ingress"), "1.1", "1.14", "1.22", gvk("networking.k8s.io", "v1", "Ingress"),
			"extensions/v1beta1 Ingress is deprecated in v1.14+, unavailable in v1.22+; use networking.k8s.io/v1 Ingress"},
		{gvk("extensions", "v1beta1", "Deployment"), "1.1", "1.8", "1.16", gvk("apps", "v1", "Deployment"),
			"extensions/v1beta1 Deployment is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 Deployment"},
		{gvk("batch", "v1beta1", "CronJob"), "1.8", "1.21", "1.25", gvk("batch", "v1", "CronJob"),
			"batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"},
		{gvk("policy", "v1beta1", "PodDisruptionBudget"), "1.5", "1.21", "1.25", gvk("policy", "v1", "PodDisruptionBudget"),
			"policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget"},
		{gvk("autoscaling", "v2beta2", "HorizontalPodAutoscaler"), "1.12", "1.23", "1.26", gvk("autoscaling", "v2", "HorizontalPodAutoscaler"),
			"autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler"},
		// introduced 1.26, deprecated and removed by default (+3, +3).
		{gvk("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema"), "1.26", "1.29", "1.32", gvk("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"),
			"flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
		{gvk("apiregistration.k8s.io", "v1beta1", "APIService"), "1.7", "1.19", "1.22", gvk("apiregistration.k8s.io", "v1", "APIService"),
			"apiregistration.k8s.io/v1beta1 APIService is deprecated in v1.19+, unavailable in v1.22+; use apiregistration.k8s.io/v1 APIService"},
		// GA, deprecated by methods written by hand (core/v1 lifecycle.go).
		{gvk("", "v1", "Endpoints"), "1.0", "1.33", "", gvk("discovery.k8s.io", "v1", "EndpointSlice"),
			"v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"},
		{gvk("", "v1", "ComponentStatus"), "1.0", "1.19", "", schema.GroupVersionKind{},
			"v1 ComponentStatus is deprecated in v1.19+"},
		// GA: introduced only.
		{gvk("", "v1", "Pod"), "1.0", "", "", schema.GroupVersionKind{}, ""},
		{gvk("networking.k8s.io", "v1", "Ingress"), "1.19", "", "", schema.GroupVersionKind{}, ""},
	} {
		l, ok := APILifecycle(tc.gvk)
		if !ok {
			t.Errorf("%s: no lifecycle", tc.gvk)
			continue
		}
		if l.Introduced.String() != tc.introduced || l.Deprecated.String() != tc.deprecated || l.Removed.String() != tc.removed || l.Replacement != tc.replacement {
			t.Errorf("%s: got %s %s %s %v, want %s %s %s %v", tc.gvk, l.Introduced, l.Deprecated, l.Removed, l.Replacement, tc.introduced, tc.deprecated, tc.removed, tc.replacement)
		}
		if got := l.WarningMessage(); got != tc.warning {
			t.Errorf("%s: warning %q, want %q", tc.gvk, got, tc.warning)
		}
	}
	l, _ := APILifecycle(gvk("extensions", "v1beta1", "Ingress"))
	if got, want := l.RemovedMessage(), `extensions/v1beta1 Ingress was removed in v1.22; use networking.k8s.io/v1 Ingress (no matches for kind "Ingress" in version "extensions/v1beta1")`; got != want {
		t.Errorf("removed message %q, want %q", got, want)
	}
	// Not tagged, or no longer in k8s.io/api: unknown.
	for _, g := range []schema.GroupVersionKind{gvk("rbac.authorization.k8s.io", "v1alpha1", "Role"), gvk("policy", "v1beta1", "PodSecurityPolicy"), gvk("example.com", "v1", "Widget")} {
		if _, ok := APILifecycle(g); ok {
			t.Errorf("%s: unexpected lifecycle", g)
		}
	}
}

func TestLifecycleVerdicts(t *testing.T) {
	r := func(minor int) Release { return Release{1, minor} }
	l := Lifecycle{Introduced: r(32), Deprecated: r(35), Removed: r(38)}
	for _, tc := range []struct {
		minor                       int
		notYet, deprecated, removed bool
	}{
		{31, true, false, false},
		{32, false, false, false},
		{34, false, false, false},
		{35, false, true, false},
		{37, false, true, false},
		{38, false, true, true},
	} {
		if got := l.NotYetIn(tc.minor); got != tc.notYet {
			t.Errorf("1.%d: NotYetIn %v", tc.minor, got)
		}
		if got := l.DeprecatedIn(tc.minor); got != tc.deprecated {
			t.Errorf("1.%d: DeprecatedIn %v", tc.minor, got)
		}
		if got := l.RemovedIn(tc.minor); got != tc.removed {
			t.Errorf("1.%d: RemovedIn %v", tc.minor, got)
		}
	}
	ga := Lifecycle{Introduced: r(0)}
	if ga.DeprecatedIn(37) || ga.RemovedIn(99) || ga.NotYetIn(0) {
		t.Error("a GA kind is never deprecated or removed")
	}
	if (Lifecycle{Deprecated: Release{2, 0}}).DeprecatedIn(99) {
		t.Error("2.0 is after 1.99")
	}
}

// The embedded schemas and the lifecycle data agree: no embedded kind of a
// release is removed or not yet introduced in it, and every kind the
// lifecycle says a release serves has a schema in it.
func TestLifecycleMatchesSchemas(t *testing.T) {
	all, err := APILifecycles()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 300 {
		t.Fatalf("only %d lifecycles", len(all))
	}
	for _, minor := range Versions() {
		kinds, err := Kinds(minor)
		if err != nil {
			t.Fatal(err)
		}
		embedded := map[schema.GroupVersionKind]bool{}
		for _, k := range kinds {
			embedded[k.GroupVersionKind] = true
			if l, ok := APILifecycle(k.GroupVersionKind); ok && (l.RemovedIn(minor) || l.NotYetIn(minor)) {
				t.Errorf("1.%d embeds %s, whose lifecycle is %+v", minor, k.GroupVersionKind, l)
			}
		}
		for _, l := range all {
			if !l.RemovedIn(minor) && !l.NotYetIn(minor) && !embedded[l.GVK] {
				t.Errorf("1.%d serves %s (%+v) but embeds no schema for it", minor, l.GVK, l)
			}
		}
	}
}

// TestLifecycleDataUpToDate fails when regenerating data/lifecycle.json
// would change it (run go generate ./builtin/); it skips when the module
// cache lacks the k8s.io/api versions and cannot download them.
func TestLifecycleDataUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates from k8s.io/api")
	}
	sources, err := gendata.LifecycleSources(gendata.APIVersions)
	if err != nil {
		t.Skipf("k8s.io/api not available: %v", err)
	}
	got, err := gendata.BuildLifecycle(sources)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("data/lifecycle.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("data/lifecycle.json is stale: run go generate ./builtin/")
	}
}

package builtin

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"kdv.dev/builtin/internal/gendata"
	"kdv.dev/schema"
)

func TestVersions(t *testing.T) {
	vs := Versions()
	if len(vs) != 8 || vs[0] != 30 || vs[7] != 37 {
		t.Fatalf("versions %v", vs)
	}
	if _, err := Lookup(12, schema.GroupVersionKind{Version: "v1", Kind: "Pod"}); err == nil {
		t.Error("1.12 should be unknown")
	}
}

func TestKindsAndScope(t *testing.T) {
	kinds, err := Kinds(37)
	if err != nil {
		t.Fatal(err)
	}
	// k8s.io/api v0.37.2 has 344 kinds; 116 belong to prerelease versions
	// the 1.37 apiserver no longer serves (extensions/v1beta1, ...).
	if len(kinds) < 220 {
		t.Errorf("only %d kinds", len(kinds))
	}
	for _, k := range kinds {
		if k.Group == "extensions" || (k.Group == "apps" && k.Version != "v1") || (k.Group == "policy" && k.Version == "v1beta1") {
			t.Errorf("%v is no longer served by Kubernetes 1.37", k.GroupVersionKind)
		}
	}
	scope := map[schema.GroupVersionKind]bool{}
	for _, k := range kinds {
		scope[k.GroupVersionKind] = k.Namespaced
	}
	// Scopes as the apiserver serves them (kubectl api-resources).
	for _, c := range []struct {
		g, v, k    string
		namespaced bool
		removed    bool
	}{
		// API versions the 1.37 apiserver no longer serves
		// (+k8s:prerelease-lifecycle-gen:removed).
		{g: "extensions", v: "v1beta1", k: "Ingress", removed: true},
		{g: "policy", v: "v1beta1", k: "PodDisruptionBudget", removed: true},
		{g: "batch", v: "v1beta1", k: "CronJob", removed: true},
		{g: "apps", v: "v1beta2", k: "Deployment", removed: true},
		{g: "", v: "v1", k: "Pod", namespaced: true}, {g: "", v: "v1", k: "PodList", namespaced: true}, {g: "", v: "v1", k: "ConfigMap", namespaced: true},
		{g: "", v: "v1", k: "Node", namespaced: false}, {g: "", v: "v1", k: "Namespace", namespaced: false}, {g: "", v: "v1", k: "PersistentVolume", namespaced: false},
		{g: "", v: "v1", k: "NamespaceList", namespaced: false}, {g: "apps", v: "v1", k: "Deployment", namespaced: true},
		{g: "rbac.authorization.k8s.io", v: "v1", k: "ClusterRole", namespaced: false}, {g: "rbac.authorization.k8s.io", v: "v1", k: "Role", namespaced: true},
		{g: "storage.k8s.io", v: "v1", k: "StorageClass", namespaced: false}, {g: "admissionregistration.k8s.io", v: "v1", k: "ValidatingWebhookConfiguration", namespaced: false},
		{g: "networking.k8s.io", v: "v1", k: "IngressClass", namespaced: false}, {g: "networking.k8s.io", v: "v1", k: "Ingress", namespaced: true},
		{g: "scheduling.k8s.io", v: "v1", k: "PriorityClass", namespaced: false}, {g: "certificates.k8s.io", v: "v1", k: "CertificateSigningRequest", namespaced: false},
		{g: "batch", v: "v1", k: "CronJob", namespaced: true}, {g: "coordination.k8s.io", v: "v1", k: "Lease", namespaced: true},
	} {
		gvk := schema.GroupVersionKind{Group: c.g, Version: c.v, Kind: c.k}
		ns, ok := scope[gvk]
		if c.removed {
			if ok {
				t.Errorf("%s is removed in 1.37 but listed", gvk)
			}
			continue
		}
		if !ok {
			t.Errorf("%s missing", gvk)
			continue
		}
		if ns != c.namespaced {
			t.Errorf("%s namespaced=%v, want %v", gvk, ns, c.namespaced)
		}
	}
}

func TestLookupStructural(t *testing.T) {
	s, err := Lookup(37, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	if err != nil {
		t.Fatal(err)
	}
	md := s.Properties["metadata"]
	if md.Type != "object" || md.Properties["name"].Type != "string" || md.Properties["labels"].AdditionalProperties == nil {
		t.Errorf("metadata is not ObjectMeta: %+v", md.Generic)
	}
	spec := s.Properties["spec"]
	if spec.Properties["replicas"].Type != "integer" {
		t.Errorf("spec.replicas: %+v", spec.Properties["replicas"].Generic)
	}
	tmpl := spec.Properties["template"].Properties["spec"].Properties["containers"]
	if tmpl.Items == nil || tmpl.XListType == nil || *tmpl.XListType != "map" {
		t.Errorf("containers: %+v", tmpl.Extensions)
	}
	res := tmpl.Items.Properties["resources"].Properties["limits"].AdditionalProperties.Structural
	if res.Type != "" || !res.XIntOrString || res.ValueValidation == nil || res.ValueValidation.Pattern == "" {
		t.Errorf("Quantity: %+v", res)
	}
	port := tmpl.Items.Properties["ports"].Items.Properties["containerPort"]
	if port.Type != "integer" {
		t.Errorf("containerPort %+v", port.Generic)
	}
	strat := spec.Properties["strategy"].Properties["rollingUpdate"].Properties["maxSurge"]
	if !strat.XIntOrString || strat.ValueValidation == nil || len(strat.ValueValidation.AnyOf) != 2 {
		t.Errorf("IntOrString: %+v", strat)
	}
	// every kind converts to a structural schema
	kinds, _ := Kinds(37)
	for _, k := range kinds {
		if _, err := Lookup(37, k.GroupVersionKind); err != nil {
			t.Errorf("%s: %v", k.GroupVersionKind, err)
		}
	}
}

// TestDataUpToDate fails when regenerating data/v1.37.json from the
// k8s.io/api in go.mod would change it (run go generate ./builtin/). With
// KDV_BUILTIN_REGEN_ALL=1 it also regenerates 1.30 to 1.36 in scratch
// modules (gendata.APIVersions; slow, needs those modules).
func TestDataUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates from k8s.io/api")
	}
	check := func(t *testing.T, dir string, minor int, base string) {
		got, err := gendata.Build(dir, minor, base)
		if err != nil {
			t.Fatal(err)
		}
		file := fmt.Sprintf("data/v1.%d.json", minor)
		if minor != 37 {
			file += ".gz"
		}
		want, err := gendata.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./builtin/", file)
		}
	}
	check(t, "", 37, "")
	if os.Getenv("KDV_BUILTIN_REGEN_ALL") == "" {
		return
	}
	for _, api := range gendata.APIVersions[1:] {
		var minor int
		fmt.Sscanf(api, "v0.%d.", &minor)
		dir, err := gendata.ScratchModule(api)
		if err != nil {
			t.Skipf("k8s.io/api %s not available: %v", api, err)
		}
		check(t, dir, minor, "data/v1.37.json")
		os.RemoveAll(dir)
	}
}

func TestOlderVersions(t *testing.T) {
	for _, minor := range []int{35, 36} {
		for _, gvk := range []schema.GroupVersionKind{{Version: "v1", Kind: "Pod"}, {Group: "apps", Version: "v1", Kind: "StatefulSet"}, {Group: "batch", Version: "v1", Kind: "Job"}} {
			s, err := Lookup(minor, gvk)
			if err != nil {
				t.Errorf("1.%d %s: %v", minor, gvk, err)
				continue
			}
			if s.Properties["metadata"].Properties["name"].Type != "string" {
				t.Errorf("1.%d %s: metadata", minor, gvk)
			}
		}
	}
}

func BenchmarkLookupPod(b *testing.B) {
	for i := 0; i < b.N; i++ {
		v := &version{}
		versions[37] = v
		if _, err := Lookup(37, schema.GroupVersionKind{Version: "v1", Kind: "Pod"}); err != nil {
			b.Fatal(err)
		}
	}
}

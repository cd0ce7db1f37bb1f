package cluster

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/rest"

	"kdv.dev/builtin"
	"kdv.dev/resource"
)

func outcome(errs field.ErrorList) resource.Outcome { return resource.Outcome{Errors: errs} }

func restConfig(host string) *rest.Config { return &rest.Config{Host: host, Timeout: 5e9} }

// The tests against a real kube-apiserver are in kdv.dev/bench
// (cluster_test.go): this module must not depend on k8s.io/kubernetes.

func TestChooseMinor(t *testing.T) {
	versions := builtin.Versions()
	lo, hi := versions[0], versions[len(versions)-1]
	for _, tc := range []struct {
		server string
		want   int
		note   string
	}{
		{"v1.37.2", 37, "the cluster runs v1.37.2: validating against 1.37"},
		{"v1.36.4-eks-1234", 36, "validating against 1.36"},
		{"v1.35+", 35, "validating against 1.35"},
		{"v1.20.0", lo, "older than the oldest release kdv embeds"},
		{"v1.99.1", hi, "newer than the newest release kdv embeds"},
	} {
		got, note, err := ChooseMinor(tc.server)
		if err != nil || got != tc.want || !strings.Contains(note, tc.note) {
			t.Errorf("ChooseMinor(%q) = %d, %q, %v; want %d, %q", tc.server, got, note, err, tc.want, tc.note)
		}
	}
	for _, v := range []string{"v2.0.0", "v0.0.0-master+$Format:%H$", ""} {
		if got, note, err := ChooseMinor(v); err != nil || got != hi || !strings.Contains(note, "not 1.<minor>") {
			t.Errorf("ChooseMinor(%q) = %d, %q, %v; want the newest, %d, with a note", v, got, note, err, hi)
		}
	}
}

func TestGroupVersionOf(t *testing.T) {
	for key, want := range map[string]string{
		"api/v1":                           "v1",
		"apis/apps/v1":                     "apps/v1",
		"apis/metrics.k8s.io/v1beta1":      "metrics.k8s.io/v1beta1",
		"apis":                             "",
		"version":                          "",
		".well-known/openid-configuration": "",
		"openid/v1/jwks":                   "",
	} {
		gv, ok := groupVersionOf(key)
		if got := gv.String(); ok != (want != "") || (ok && got != want) {
			t.Errorf("groupVersionOf(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}

// A create must not carry what the server sets (the apiserver refuses a
// resourceVersion on create); the stored object is left as it was.
func TestForCreate(t *testing.T) {
	stored := map[string]any{
		"kind": "ConfigMap",
		"metadata": map[string]any{
			"name": "a", "namespace": "ns", "labels": map[string]any{"x": "y"},
			"resourceVersion": "12", "uid": "u", "creationTimestamp": "2026-01-01T00:00:00Z",
			"generation": int64(3), "managedFields": []any{},
		},
	}
	got := forCreate(stored)
	md := got["metadata"].(map[string]any)
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"} {
		if _, ok := md[f]; ok {
			t.Errorf("metadata.%s kept for create", f)
		}
		if _, ok := stored["metadata"].(map[string]any)[f]; !ok {
			t.Errorf("metadata.%s removed from the stored object", f)
		}
	}
	if md["name"] != "a" || md["namespace"] != "ns" || md["labels"] == nil {
		t.Errorf("identity or labels lost: %v", md)
	}
}

// A Secret's values never reach the report.
func TestVerdictRedactsSecrets(t *testing.T) {
	errs := field.ErrorList{field.Invalid(field.NewPath("data").Key("k"), "hunter2", "bad")}
	k := Kind{Resource: "secrets"}
	k.GVK.Version, k.GVK.Kind = "v1", "Secret"
	r := verdict(outcome(errs), k, "create", 0, map[string]any{"metadata": map[string]any{"name": "s", "namespace": "ns"}})
	if got := r.Errors.ToAggregate().Error(); strings.Contains(got, "hunter2") {
		t.Errorf("Secret value printed: %s", got)
	}
	if errs[0].BadValue != "hunter2" {
		t.Error("the validator's error list was modified")
	}
	if r.File != "v1 secrets (as create)" || r.Name != "s" || r.Namespace != "ns" {
		t.Errorf("result named %q %s/%s", r.File, r.Namespace, r.Name)
	}
	k.GVK.Kind, k.Resource = "ConfigMap", "configmaps"
	r = verdict(outcome(errs), k, "update", 0, nil)
	if got := r.Errors.ToAggregate().Error(); !strings.Contains(got, "hunter2") {
		t.Errorf("a ConfigMap's value is redacted: %s", got)
	}
}

func TestCache(t *testing.T) {
	c := &cache{dir: t.TempDir()}
	if c.read("openapi/x.json") != nil {
		t.Fatal("empty cache returned data")
	}
	if err := c.write("openapi/x.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if got := string(c.read("openapi/x.json")); got != "{}" {
		t.Errorf("read back %q", got)
	}
	var none *cache
	if none.read("a") != nil || none.write("a", nil) != nil {
		t.Error("a nil cache is not a no-op")
	}
	if hostKey("https://a:6443") != hostKey("https://a:6443/") || hostKey("https://a:6443") == hostKey("https://b:6443") {
		t.Error("hostKey does not tell servers apart, or tells one apart from itself")
	}
}

// LoadSchemas and Audit fail with the server named when it cannot be
// reached, instead of hanging or panicking.
func TestUnreachable(t *testing.T) {
	_, err := ServerVersion(context.Background(), restConfig("https://127.0.0.1:1"))
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("ServerVersion: %v", err)
	}
	_, err = NewPlan(context.Background(), restConfig("https://127.0.0.1:1"))
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("NewPlan: %v", err)
	}
}

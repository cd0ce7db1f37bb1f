package main

import (
	"strings"
	"testing"
)

func TestRetag(t *testing.T) {
	for in, want := range map[string]string{
		"nginx":                       "nginx:1.7.0",
		"nginx:1.27":                  "nginx:1.7.0",
		"registry:5000/team/app:v2":   "registry:5000/team/app:1.7.0",
		"registry:5000/team/app":      "registry:5000/team/app:1.7.0",
		"app@sha256:0123456789abcdef": "app@sha256:0123456789abcdef",
	} {
		if got := retag(in, 7); got != want {
			t.Errorf("retag(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVary(t *testing.T) {
	svc := seed{kind: "Service", name: strings.Repeat("s", 63), obj: map[string]any{
		"metadata": map[string]any{"name": strings.Repeat("s", 63)},
		"spec": map[string]any{"ports": []any{
			map[string]any{"port": float64(80)}, map[string]any{"port": float64(65500)},
		}},
	}}
	got := vary(svc, 42)
	name := got["metadata"].(map[string]any)["name"].(string)
	if len(name) > 63 || !strings.HasSuffix(name, "-00042") {
		t.Errorf("name %q: want at most 63 characters ending in -00042", name)
	}
	// 65500+42 is not a port: no port of this Service moves.
	if p := got["spec"].(map[string]any)["ports"].([]any)[0].(map[string]any)["port"]; p != float64(80) {
		t.Errorf("port = %v, want 80 (unshifted)", p)
	}
	if svc.obj["metadata"].(map[string]any)["name"] != strings.Repeat("s", 63) {
		t.Error("vary modified the seed")
	}

	// an APIService's name is version.group: the copy gets its own group
	as := seed{kind: "APIService", name: "v1beta1.metrics.k8s.io", obj: map[string]any{
		"metadata": map[string]any{"name": "v1beta1.metrics.k8s.io"},
		"spec":     map[string]any{"group": "metrics.k8s.io", "version": "v1beta1"},
	}}
	got = vary(as, 7)
	if n, g := got["metadata"].(map[string]any)["name"], got["spec"].(map[string]any)["group"]; n != "v1beta1.g00007.metrics.k8s.io" || g != "g00007.metrics.k8s.io" {
		t.Errorf("APIService name %v, group %v: want v1beta1.g00007.metrics.k8s.io and g00007.metrics.k8s.io", n, g)
	}

	dep := seed{kind: "Deployment", name: "web", obj: map[string]any{
		"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec": map[string]any{"containers": []any{map[string]any{
				"image": "nginx:1.27",
				"ports": []any{map[string]any{"containerPort": float64(80)}, map[string]any{"containerPort": float64(81), "hostPort": float64(81)}},
			}}},
		}},
	}}
	got = vary(dep, 5)
	tmpl := got["spec"].(map[string]any)["template"].(map[string]any)
	if l := tmpl["metadata"].(map[string]any)["labels"].(map[string]any); l["app"] != "web" || l["app.kubernetes.io/instance"] != "web-00005" {
		t.Errorf("template labels = %v", l)
	}
	c := tmpl["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	ports := c["ports"].([]any)
	if c["image"] != "nginx:1.5.5" || ports[0].(map[string]any)["containerPort"] != float64(85) || ports[1].(map[string]any)["containerPort"] != float64(81) {
		t.Errorf("container = %v", c)
	}
}

// The mixed input's seeds are the objects of the groups a kube-apiserver
// serves, not custom resources.
func TestBuiltinGroup(t *testing.T) {
	for av, want := range map[string]bool{
		"v1": true, "apps/v1": true, "batch/v1": true, "policy/v1": true, "autoscaling/v2": true,
		"rbac.authorization.k8s.io/v1": true, "networking.k8s.io/v1": true, "apiregistration.k8s.io/v1": true,
		"extensions/v1beta1":              true, // left to the check of the seeds (not served)
		"monitoring.coreos.com/v1":        false,
		"gateway.networking.x-k8s.io/v1a": false,
		"":                                false,
	} {
		if got := builtinGroup(av); got != want {
			t.Errorf("builtinGroup(%q) = %v, want %v", av, got, want)
		}
	}
}

package builtin

import (
	"encoding/json"
	"strings"
	"testing"

	"kdv.dev/schema"
)

func keys(g *schema.GoStruct) string {
	var out []string
	for _, f := range g.Fields {
		if f.Splice {
			out = append(out, "<"+f.JSON+">")
			continue
		}
		out = append(out, f.Key)
	}
	return strings.Join(out, ",")
}

// TestGoLayouts checks the internal Go layouts of the embedded data, where
// they follow k8s.io/kubernetes's internal types rather than k8s.io/api's
// (gendata internalDiffs; bench/cmd/internal-layout lists the differences)
// and how Lookup attaches them to schema nodes.
func TestGoLayouts(t *testing.T) {
	for _, minor := range Versions() {
		v, err := get(minor)
		if err != nil {
			t.Fatal(err)
		}
		v.mu.Lock()
		layout := func(def string) *schema.GoStruct {
			g, err := v.layoutLocked(def)
			if err != nil {
				t.Fatalf("1.%d %s: %v", minor, def, err)
			}
			return g
		}
		for def, want := range map[string]string{
			"io.k8s.api.apps.v1.DeploymentSpec":  "Replicas,Selector,Template,Strategy,MinReadySeconds,RevisionHistoryLimit,Paused,RollbackTo,ProgressDeadlineSeconds",
			"io.k8s.api.core.v1.ServicePort":     "Name,Protocol,AppProtocol,Port,TargetPort,NodePort",
			"io.k8s.api.core.v1.PodTemplateSpec": "<metadata>,Spec",
			"io.k8s.api.rbac.v1.RoleRef":         "APIGroup,Kind,Name",
		} {
			if g := layout(def); g == nil || keys(g) != want {
				t.Errorf("1.%d %s: %v, want %s", minor, def, g, want)
			}
		}
		if g := layout("io.k8s.api.apps.v1.DaemonSetSpec"); g == nil || !strings.Contains(keys(g), "MinReadySeconds,TemplateGeneration,") {
			t.Errorf("1.%d DaemonSetSpec: %v", minor, g)
		}
		if g := layout("io.k8s.api.core.v1.Secret"); g == nil || strings.Contains(keys(g), "StringData") {
			t.Errorf("1.%d Secret: %v", minor, g)
		}
		if g := layout("io.k8s.api.core.v1.NodeSpec"); g == nil || strings.Contains(keys(g), "PodCIDR,") {
			t.Errorf("1.%d NodeSpec: %v", minor, g)
		}
		// the internal type is autoscaling/v2's: no layout, the versioned
		// JSON is printed
		if g := layout("io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec"); g != nil {
			t.Errorf("1.%d autoscaling/v1 HorizontalPodAutoscalerSpec has a layout", minor)
		}
		// an embedded API struct is flattened with Go names
		if g := layout("io.k8s.api.core.v1.Volume"); g == nil || !strings.HasPrefix(keys(g), "Name,HostPath,EmptyDir,GCEPersistentDisk,") {
			t.Errorf("1.%d Volume: %v", minor, g)
		}
		v.mu.Unlock()

		s, err := Lookup(minor, schema.GroupVersionKind{Version: "v1", Kind: "Service"})
		if err != nil {
			t.Fatal(err)
		}
		ports := s.Properties["spec"].Properties["ports"]
		if ports.Items == nil || ports.Items.Go == nil {
			t.Fatalf("1.%d Service spec.ports items: no layout", minor)
		}
		got := schema.GoValue(&ports, []any{map[string]any{"port": int64(80), "protocol": "TCP"}})
		if j, _ := json.Marshal(got); string(j) != `[{"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}]` {
			t.Errorf("1.%d Service ports: %s", minor, j)
		}
		if s.Properties["metadata"].Go == nil || s.Go == nil {
			t.Errorf("1.%d Service: root or metadata without a layout", minor)
		}
	}
}

package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kdv.dev/cluster"
	"kdv.dev/manifest"
	"kdv.dev/report"
	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// TestClusterAudit audits a real kube-apiserver: every object it stores
// (its bootstrap objects and the test's Widgets) is validated as a create
// and as an unchanged update. The big Widget is invalid as a create (the
// rule added after it) and valid as an unchanged update (ratcheting), as
// the apiserver itself decides; every object the apiserver wrote itself
// must be valid both ways.
func TestClusterAudit(t *testing.T) {
	cfg := startAPIServer(t)
	ruleError := seedCluster(t, cfg)
	ctx := t.Context()

	reg := resource.NewRegistry(resource.Options{KubernetesMinor: 37})
	if err := resource.UseBuiltin(reg, 37); err != nil {
		t.Fatal(err)
	}
	stats, err := cluster.LoadSchemas(ctx, cfg, reg, cluster.SchemaOptions{KubernetesMinor: 37, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if stats.CRDs != 1 {
		t.Errorf("LoadSchemas registered %d CRDs, want 1 (%s)", stats.CRDs, stats)
	}
	plan, err := cluster.NewPlan(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Problems {
		t.Errorf("plan: %v", p)
	}
	res, err := cluster.Audit(ctx, cfg, plan, cluster.AuditOptions{Registry: reg, KubernetesMinor: 37, PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[k8sschema.GroupVersionKind]cluster.KindAudit{}
	total := 0
	for _, k := range res.Kinds {
		kinds[k.GVK] = k
		total += k.Objects
		if k.NotAudited != "" {
			t.Errorf("%s not audited: %s", k.GVK, k.NotAudited)
		}
		if k.GVK != widgetGVK && k.GVK.Kind != "APIService" && (k.InvalidCreate > 0 || k.InvalidUpdate > 0) {
			t.Errorf("%s: %d of %d objects the apiserver wrote are invalid as create, %d as update", k.GVK, k.InvalidCreate, k.Objects, k.InvalidUpdate)
		}
	}
	w := kinds[widgetGVK]
	if w.Objects != 2 || w.InvalidCreate != 1 || w.InvalidUpdate != 0 {
		t.Errorf("Widgets: %d objects, %d invalid as create, %d as update; want 2, 1, 0", w.Objects, w.InvalidCreate, w.InvalidUpdate)
	}
	for _, gvk := range []k8sschema.GroupVersionKind{
		{Version: "v1", Kind: "Namespace"},
		{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
		{Group: "apps", Version: "v1", Kind: "Deployment"},
		{Version: "v1", Kind: "Secret"},
		{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
	} {
		if kinds[gvk].Objects == 0 {
			t.Errorf("no %s audited", gvk)
		}
	}
	for _, k := range res.Kinds {
		if k.Objects > 0 {
			t.Logf("%s: %d", k.GVK, k.Objects)
		}
	}
	t.Logf("audited %d objects of %d kinds (%d not listable)", total, len(res.Kinds), len(plan.NotListable))

	var found bool
	for _, d := range res.Report.Documents {
		if why := knownDisagreements[d.Identity()]; why != "" {
			t.Logf("known disagreement: %s %s: %s", d.File, d.Identity(), why)
			continue
		}
		if d.Outcome() == report.Invalid && d.GVK != widgetGVK {
			t.Errorf("%s %s: %v %v %s", d.File, d.Identity(), d.Errors, d.UnknownFields, d.DecodeError)
		}
		if d.GVK == widgetGVK && d.Name == "big" && strings.HasSuffix(d.File, "(as create)") {
			found = true
			if got := d.Errors.ToAggregate().Error(); got != ruleError {
				t.Errorf("the big Widget's error is %q; the apiserver's is %q", got, ruleError)
			}
		}
	}
	if !found {
		t.Errorf("the big Widget's create is not among the findings")
	}

	// Against 1.35, the Service named "1web" is invalid as a create (a
	// DNS-1035 label then) and valid as an unchanged update (the name is
	// not validated again), as an audit before a downgrade finds.
	reg35 := resource.NewRegistry(resource.Options{KubernetesMinor: 35})
	if err := resource.UseBuiltin(reg35, 35); err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.LoadSchemas(ctx, cfg, reg35, cluster.SchemaOptions{KubernetesMinor: 35, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	res35, err := cluster.Audit(ctx, cfg, plan, cluster.AuditOptions{Registry: reg35, KubernetesMinor: 35})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range res35.Kinds {
		if k.GVK.Kind == "Service" && (k.Objects != 3 || k.InvalidCreate != 1 || k.InvalidUpdate != 0) {
			t.Errorf("Services at 1.35: %d objects, %d invalid as create, %d as update; want 3, 1, 0", k.Objects, k.InvalidCreate, k.InvalidUpdate)
		}
	}
	found = false
	for _, d := range res35.Report.Documents {
		if d.GVK.Kind == "Service" && d.Name == "1web" && d.Outcome() == report.Invalid {
			found = true
			if got := d.Errors.ToAggregate().Error(); !strings.Contains(got, `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters`) {
				t.Errorf("Service 1web at 1.35: %s", got)
			}
		}
	}
	if !found {
		t.Error("Service 1web is not invalid at 1.35")
	}
}

// TestClusterSchemas takes schemas from a real kube-apiserver, as kdv
// validate --cluster does, and checks the on-disk cache: a second run
// fetches nothing, and a changed CRD is fetched again alone.
func TestClusterSchemas(t *testing.T) {
	cfg := startAPIServer(t)
	seedCluster(t, cfg)
	ctx := t.Context()
	cacheDir := t.TempDir()

	// Against 1.35's embedded schemas, group-versions served by the 1.37
	// server that 1.35 does not have come from /openapi/v3.
	load := func(minor int) (*resource.Registry, cluster.SchemaStats) {
		t.Helper()
		reg := resource.NewRegistry(resource.Options{KubernetesMinor: minor})
		if err := resource.UseBuiltin(reg, minor); err != nil {
			t.Fatal(err)
		}
		stats, err := cluster.LoadSchemas(ctx, cfg, reg, cluster.SchemaOptions{KubernetesMinor: minor, CacheDir: cacheDir})
		if err != nil {
			t.Fatal(err)
		}
		return reg, stats
	}
	reg, first := load(35)
	if first.CRDs != 1 || first.CRDsFetched != 1 || first.GroupVersions == 0 || first.GroupVersionsFetched != first.GroupVersions {
		t.Errorf("first run: %s; want 1 CRD and some group-versions, all fetched", first)
	}
	t.Logf("first run: %s; kinds from /openapi/v3: %v", first, first.Kinds)
	for _, gvk := range first.Kinds {
		if _, err := reg.Validator(gvk); err != nil {
			t.Errorf("%s from /openapi/v3 does not compile: %v", gvk, err)
		}
	}
	_, second := load(35)
	if second.CRDs != first.CRDs || second.GroupVersions != first.GroupVersions || second.CRDsFetched != 0 || second.GroupVersionsFetched != 0 {
		t.Errorf("second run: %s; want the same schemas, none fetched", second)
	}

	// A changed CRD has a new resourceVersion: it alone is fetched.
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	crd, err := dyn.Resource(crdGVR).Get(ctx, "widgets.example.kdv.dev", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	crd.SetLabels(map[string]string{"changed": "yes"})
	if _, err := dyn.Resource(crdGVR).Update(ctx, crd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	reg, third := load(37)
	if third.CRDs != 1 || third.CRDsFetched != 1 {
		t.Errorf("after changing the CRD: %s; want it fetched again", third)
	}

	// A kind the registry already has (kdv validate --crds: the
	// repository's CRD, here without the rule) is kept.
	local := resource.NewRegistry(resource.Options{KubernetesMinor: 37})
	crdObj, err := kdvschema.ParseCRDObject(widgetCRD(false).Object)
	if err != nil {
		t.Fatal(err)
	}
	if err := local.AddCRD(crdObj, "local"); err != nil {
		t.Fatal(err)
	}
	kept, err := cluster.LoadSchemas(ctx, cfg, local, cluster.SchemaOptions{KubernetesMinor: 37, CacheDir: cacheDir,
		Keep: func(gk k8sschema.GroupKind) bool { return gk == widgetGVK.GroupKind() }})
	if err != nil || kept.CRDs != 0 {
		t.Errorf("with the Widget kept: %s, %v; want no CRD registered", kept, err)
	}
	v, err := local.Validator(widgetGVK)
	if err != nil {
		t.Fatal(err)
	}
	if out := v.Validate(ctx, widget("w", 20).Object, nil); out.Invalid() {
		t.Errorf("the local Widget CRD (no rule) was replaced by the cluster's: %v", out.Errors)
	}

	// Manifests validated against the cluster's CRD, as kdv validate
	// --cluster does.
	dir := t.TempDir()
	file := dir + "/widgets.yaml"
	writeFile(t, file, "apiVersion: example.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: ok\nspec:\n  size: 5\n---\napiVersion: example.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: too-big\nspec:\n  size: 20\n")
	docs, err := manifest.Read([]string{file}, nil, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := resource.Run(ctx, docs, reg, resource.RunOptions{})
	if len(res.Documents) != 2 || res.Documents[0].Outcome() != report.Valid || res.Documents[1].Outcome() != report.Invalid {
		t.Fatalf("outcomes: %+v", res.Documents)
	}
	if got := res.Documents[1].Errors.ToAggregate().Error(); !strings.Contains(got, "size must be at most 10") {
		t.Errorf("too-big: %s", got)
	}
}

// TestClusterCLI runs the kdv binary's audit and validate --cluster
// against a real kube-apiserver, through a kubeconfig and --context as a
// user would.
func TestClusterCLI(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is needed to build kdv")
	}
	cfg := startAPIServer(t)
	ruleError := seedCluster(t, cfg)
	kubeconfig := writeKubeconfig(t, cfg)

	bin := t.TempDir() + "/kdv"
	build := exec.Command(goTool, "build", "-o", bin, "./cmd/kdv")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building kdv: %v\n%s", err, out)
	}
	cache := t.TempDir()
	kdv := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "KUBECONFIG=/nonexistent", "NO_COLOR=1")
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), code
	}

	out, errOut, code := kdv("audit", "--kubeconfig", kubeconfig, "--context", "test", "--kubernetes-version", "1.37", "--page-size", "3")
	t.Logf("kdv audit:\n%s%s", out, errOut)
	if code != 1 {
		t.Errorf("kdv audit: exit %d, want 1 (the big Widget is invalid as a create)", code)
	}
	for _, want := range []string{
		"example.kdv.dev/Widget                                   v1       2        1                  0\n",
		"example.kdv.dev/v1 widgets (as create): example.kdv.dev/Widget default/big: " + ruleError + "\n",
		"against Kubernetes 1.37: 1 invalid as create, 0 invalid as update",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kdv audit output lacks %q", want)
		}
	}

	// -o json: kdv's report format (kubectl-validate's shape, keyed by
	// kind and mode), the per-kind table on stderr.
	out, errOut, code = kdv("audit", "--kubeconfig", kubeconfig, "--kubernetes-version", "1.37", "-o", "json")
	var byFile map[string][]struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &byFile); err != nil {
		t.Fatalf("kdv audit -o json: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	widgets := byFile["example.kdv.dev/v1 widgets (as create)"]
	if code != 1 || len(widgets) != 1 || widgets[0].Status != "Failure" || !strings.Contains(widgets[0].Message, "size must be at most 10") {
		t.Errorf("kdv audit -o json: exit %d, Widgets as create: %+v", code, widgets)
	}
	if !strings.Contains(errOut, "example.kdv.dev/Widget") {
		t.Errorf("kdv audit -o json: the per-kind table is not on stderr:\n%s", errOut)
	}

	dir := t.TempDir()
	writeFile(t, dir+"/widget.yaml", "apiVersion: example.kdv.dev/v1\nkind: Widget\nmetadata:\n  name: too-big\nspec:\n  size: 20\n")
	out, errOut, code = kdv("validate", "--cluster", "--kubeconfig", kubeconfig, "--context", "test", dir+"/widget.yaml")
	t.Logf("kdv validate --cluster:\n%s%s", out, errOut)
	if code != 1 || !strings.Contains(out, "size must be at most 10") {
		t.Errorf("kdv validate --cluster: exit %d, want 1 with the rule's message", code)
	}
	// The test server is built without a version (v0.0.0-master): kdv
	// says so and takes the newest release it embeds.
	if !strings.Contains(errOut, "validating against 1.") || !strings.Contains(errOut, "1 CustomResourceDefinition (0 fetched, 1 cached)") {
		t.Errorf("kdv validate --cluster: stderr does not say which release it validates against, or the CRD was not cached:\n%s", errOut)
	}
	// Without --cluster the kind is unknown: the schema came from the cluster.
	if _, _, code := kdv("validate", dir+"/widget.yaml"); code != 2 {
		t.Errorf("kdv validate without --cluster: exit %d, want 2 (no schema)", code)
	}
}

// BenchmarkCluster measures, against a real kube-apiserver holding the
// Gateway API's standard CRDs and the prometheus-operator's (from the shared
// corpus) and 600 built-in objects: LoadSchemas without a cache, with a
// warm cache (only a metadata list of CRDs and /openapi/v3's index are
// read), and a whole audit.
//
//	cd bench && go test -run '^$' -bench BenchmarkCluster -benchtime 5x .
func BenchmarkCluster(b *testing.B) {
	dirs := []string{
		"../../shared/corpus/gateway-api/config/crd/standard",
		"../../shared/corpus/prometheus-operator/example/prometheus-operator-crd-full",
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			b.Skip("shared corpus not present")
		}
	}
	cfg := startAPIServer(b)
	ctx := b.Context()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	docs, err := manifest.Read(dirs, nil, manifest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	crds := 0
	for _, d := range docs {
		if d.Object == nil || d.Object["kind"] != "CustomResourceDefinition" {
			continue
		}
		if _, err := dyn.Resource(crdGVR).Create(ctx, &unstructured.Unstructured{Object: d.Object}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		crds++
	}
	cms := dyn.Resource(k8sschema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	deps := dyn.Resource(k8sschema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}).Namespace("default")
	for i := range 500 {
		cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprintf("cm-%d", i)}, "data": map[string]any{"k": "v"}}}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 100 {
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(fmt.Appendf(nil, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web-%d"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.29","ports":[{"containerPort":80}]}]}}}}`, i)); err != nil {
			b.Fatal(err)
		}
		if _, err := deps.Create(ctx, &u, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("%d CRDs, 600 built-in objects", crds)
	load := func(b *testing.B, cacheDir string) cluster.SchemaStats {
		reg := resource.NewRegistry(resource.Options{KubernetesMinor: 37})
		if err := resource.UseBuiltin(reg, 37); err != nil {
			b.Fatal(err)
		}
		stats, err := cluster.LoadSchemas(ctx, cfg, reg, cluster.SchemaOptions{KubernetesMinor: 37, CacheDir: cacheDir})
		if err != nil {
			b.Fatal(err)
		}
		return stats
	}
	b.Run("schemas-cold", func(b *testing.B) {
		for b.Loop() {
			if s := load(b, b.TempDir()); s.CRDsFetched != crds {
				b.Fatalf("%s", s)
			}
		}
	})
	b.Run("schemas-warm", func(b *testing.B) {
		dir := b.TempDir()
		load(b, dir)
		for b.Loop() {
			if s := load(b, dir); s.CRDsFetched != 0 || s.GroupVersionsFetched != 0 {
				b.Fatalf("%s", s)
			}
		}
	})
	b.Run("audit", func(b *testing.B) {
		reg := resource.NewRegistry(resource.Options{KubernetesMinor: 37})
		if err := resource.UseBuiltin(reg, 37); err != nil {
			b.Fatal(err)
		}
		if _, err := cluster.LoadSchemas(ctx, cfg, reg, cluster.SchemaOptions{KubernetesMinor: 37, NoCache: true}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			plan, err := cluster.NewPlan(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			res, err := cluster.Audit(ctx, cfg, plan, cluster.AuditOptions{Registry: reg, KubernetesMinor: 37})
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for _, k := range res.Kinds {
				n += k.Objects
			}
			b.ReportMetric(float64(n), "objects/op")
		}
	})
}

// TestClusterAuditForbidden audits as a user RBAC lets list only
// ConfigMaps and Widgets: those are audited, every other kind with objects
// is reported as not audited with the apiserver's reason, and listing the
// CRDs for schemas fails with a clear error instead of stopping the audit:
// the Widgets' schema comes from /openapi/v3 then.
func TestClusterAuditForbidden(t *testing.T) {
	admin := startAPIServer(t)
	seedCluster(t, admin)
	ctx := t.Context()
	dyn, err := dynamic.NewForConfig(admin)
	if err != nil {
		t.Fatal(err)
	}
	role := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
		"metadata": map[string]any{"name": "auditor"},
		"rules": []any{
			map[string]any{"apiGroups": []any{""}, "resources": []any{"configmaps"}, "verbs": []any{"list"}},
			map[string]any{"apiGroups": []any{"example.kdv.dev"}, "resources": []any{"widgets"}, "verbs": []any{"list"}},
		},
	}}
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
		"metadata": map[string]any{"name": "auditor"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "auditor"},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "auditor"}},
	}}
	for _, o := range []struct {
		res string
		obj *unstructured.Unstructured
	}{{"clusterroles", role}, {"clusterrolebindings", binding}} {
		gvr := k8sschema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: o.res}
		if _, err := dyn.Resource(gvr).Create(ctx, o.obj, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	auditor := rest.CopyConfig(admin)
	auditor.Impersonate = rest.ImpersonationConfig{UserName: "auditor", Groups: []string{"system:authenticated"}}

	reg := resource.NewRegistry(resource.Options{KubernetesMinor: 37})
	if err := resource.UseBuiltin(reg, 37); err != nil {
		t.Fatal(err)
	}
	_, err = cluster.LoadSchemas(ctx, auditor, reg, cluster.SchemaOptions{KubernetesMinor: 37, NoCache: true})
	if err == nil || !strings.Contains(err.Error(), "listing CustomResourceDefinitions") || !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("LoadSchemas as the auditor: %v; want the list of CRDs forbidden", err)
	}
	plan, err := cluster.NewPlan(ctx, auditor)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Audit(ctx, auditor, plan, cluster.AuditOptions{Registry: reg, KubernetesMinor: 37})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Incomplete() {
		t.Error("the audit is not marked incomplete")
	}
	for _, k := range res.Kinds {
		switch k.GVK.Kind {
		case "ConfigMap":
			if k.Objects == 0 || k.NotAudited != "" {
				t.Errorf("ConfigMaps: %d objects, not audited: %q", k.Objects, k.NotAudited)
			}
		case "Widget":
			// Without the CRD, its schema comes from /openapi/v3, with
			// the CEL rule.
			if k.Objects != 2 || k.InvalidCreate != 1 || k.InvalidUpdate != 0 || k.NotAudited != "" {
				t.Errorf("Widgets: %d objects, %d invalid as create, %d as update, not audited: %q; want 2, 1, 0", k.Objects, k.InvalidCreate, k.InvalidUpdate, k.NotAudited)
			}
		case "Namespace":
			if !strings.Contains(k.NotAudited, `namespaces is forbidden: User "auditor" cannot list resource "namespaces"`) {
				t.Errorf("Namespaces: not audited: %q; want the apiserver's forbidden", k.NotAudited)
			}
		}
	}
}

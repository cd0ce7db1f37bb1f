package bench

import (
	"net"
	"net/url"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap/zapcore"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	apiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
)

// freeURL reserves a loopback port and returns it as an http URL; the
// listener is closed so etcd can bind it (a race no other test here runs).
func freeURL(t testing.TB) url.URL {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cluster tests: no loopback port: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return url.URL{Scheme: "http", Host: addr}
}

// startEtcd runs etcd in-process (go.etcd.io/etcd/server/v3/embed): the
// kube-apiserver test server needs an etcd endpoint, and k8s.io/kubernetes's
// own helpers start an etcd binary this module cannot assume.
func startEtcd(t testing.TB) string {
	t.Helper()
	cfg := embed.NewConfig()
	cfg.Dir = t.TempDir()
	client, peer := freeURL(t), freeURL(t)
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
	cfg.InitialCluster = cfg.Name + "=" + peer.String()
	cfg.LogLevel = zapcore.ErrorLevel.String()
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		t.Skipf("cluster tests: embedded etcd does not start here: %v", err)
	}
	t.Cleanup(e.Close)
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		t.Skip("cluster tests: embedded etcd not ready within 60s")
	}
	return client.String()
}

// startAPIServer starts a real kube-apiserver (k8s.io/kubernetes's test
// server) on an embedded etcd and returns a client config for it.
func startAPIServer(t testing.TB) *rest.Config {
	t.Helper()
	if testing.Short() {
		t.Skip("cluster tests start a kube-apiserver: not in -short")
	}
	etcdURL := startEtcd(t)
	storage := storagebackend.NewDefaultConfig(path.Join("kdv-test", "registry"), nil)
	storage.Transport.ServerList = []string{etcdURL}
	flags := []string{
		"--endpoint-reconciler-type=none",
		"--disable-admission-plugins=ServiceAccount",
		// RBAC's bootstrap roles and bindings are objects to audit too.
		"--authorization-mode=RBAC",
	}
	opts := apiservertesting.NewDefaultTestServerOptions()
	// The server's own metric invariants are upstream's to keep: with CI
	// set, apiserver_validation_declarative_validation_mismatch_total (a
	// disagreement inside k8s.io/kubernetes between its hand-written and
	// declarative validation of an object the test creates) fails the
	// teardown, which says nothing about kdv.
	opts.DisableInvariantChecks = true
	server, err := apiservertesting.StartTestServer(t, opts, flags, storage)
	if err != nil {
		t.Skipf("cluster tests: kube-apiserver test server does not start here: %v", err)
	}
	t.Cleanup(server.TearDownFn)
	return rest.CopyConfig(server.ClientConfig)
}

var (
	crdGVR    = k8sschema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	widgetGVR = k8sschema.GroupVersionResource{Group: "example.kdv.dev", Version: "v1", Resource: "widgets"}
	widgetGVK = widgetGVR.GroupVersion().WithKind("Widget")
)

// widgetCRD is a namespaced CRD; with rule, spec carries a CEL rule.
func widgetCRD(rule bool) *unstructured.Unstructured {
	spec := map[string]any{
		"type":       "object",
		"properties": map[string]any{"size": map[string]any{"type": "integer"}},
	}
	if rule {
		spec["x-kubernetes-validations"] = []any{map[string]any{"rule": "self.size <= 10", "message": "size must be at most 10"}}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "widgets.example.kdv.dev"},
		"spec": map[string]any{
			"group": "example.kdv.dev",
			"scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type":       "object",
					"properties": map[string]any{"spec": spec},
				}},
			}},
		},
	}}
}

func widget(name string, size int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.kdv.dev/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": name, "namespace": "default"},
		"spec":       map[string]any{"size": size},
	}}
}

// seedCluster creates the Widget CRD without a rule, a Widget the rule
// will reject ("big"), then adds the rule to the CRD and creates a valid
// Widget ("small"): the cluster holds an object it accepted that the
// rules it now enforces reject, as an upgrade leaves behind.
//
// It returns the apiserver's own error for a Widget the rule rejects
// (without the "<kind> <name> is invalid: " prefix), to compare kdv's with.
func seedCluster(t *testing.T, cfg *rest.Config) (ruleError string) {
	t.Helper()
	ctx := t.Context()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	crds := dyn.Resource(crdGVR)
	if _, err := crds.Create(ctx, widgetCRD(false), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	widgets := dyn.Resource(widgetGVR).Namespace("default")
	// The CRD is served once established: retry the create until then.
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := widgets.Create(ctx, widget("big", 50), metav1.CreateOptions{})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("creating a Widget: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	cur, err := crds.Get(ctx, "widgets.example.kdv.dev", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	updated := widgetCRD(true)
	updated.SetResourceVersion(cur.GetResourceVersion())
	if _, err := crds.Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The apiserver enforces the rule once its handler has the new
	// schema: wait until it refuses another big Widget.
	for {
		_, err := widgets.Create(ctx, widget("probe", 50), metav1.CreateOptions{})
		if err != nil && strings.Contains(err.Error(), "size must be at most 10") {
			_, ruleError, _ = strings.Cut(err.Error(), `"probe" is invalid: `)
			break
		}
		if err == nil {
			_ = widgets.Delete(ctx, "probe", metav1.DeleteOptions{})
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rule is not enforced: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, err := widgets.Create(ctx, widget("small", 3), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Built-in objects as an application leaves them (the apiserver
	// defaults them: kdv must find the stored form valid).
	builtins := []struct {
		gvr k8sschema.GroupVersionResource
		obj string
	}{
		{k8sschema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.29","ports":[{"containerPort":80}]}]}}}}`},
		{k8sschema.GroupVersionResource{Version: "v1", Resource: "services"},
			`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}`},
		// Valid from 1.36 (RelaxedServiceNameValidation), not in 1.35.
		{k8sschema.GroupVersionResource{Version: "v1", Resource: "services"},
			`{"apiVersion":"v1","kind":"Service","metadata":{"name":"1web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}`},
		{k8sschema.GroupVersionResource{Version: "v1", Resource: "secrets"},
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"web"},"stringData":{"password":"hunter2"}}`},
		{k8sschema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"},
			`{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"nightly"},"spec":{"schedule":"0 3 * * *","timeZone":"Europe/Berlin","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"job","image":"busybox"}]}}}}}}`},
	}
	for _, b := range builtins {
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON([]byte(b.obj)); err != nil {
			t.Fatal(err)
		}
		if _, err := dyn.Resource(b.gvr).Namespace("default").Create(ctx, &u, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s: %v", b.gvr, err)
		}
	}
	return ruleError
}

// knownDisagreements are objects the apiserver stores that kdv finds
// invalid, with why; the audit test reports them without failing.
// knownDisagreements are objects the apiserver stores that kdv refuses,
// by identity, with the reason (empty: none known).
var knownDisagreements = map[string]string{}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeKubeconfig writes a kubeconfig for cfg with one context, "test",
// the current one.
func writeKubeconfig(t *testing.T, cfg *rest.Config) string {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.CAData,
		InsecureSkipTLSVerify:    cfg.Insecure,
		TLSServerName:            cfg.ServerName,
	}
	kc.AuthInfos["test"] = &clientcmdapi.AuthInfo{
		Token:                 cfg.BearerToken,
		ClientCertificateData: cfg.CertData,
		ClientKeyData:         cfg.KeyData,
	}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "test"}
	kc.CurrentContext = "test"
	name := t.TempDir() + "/kubeconfig"
	if err := clientcmd.WriteToFile(*kc, name); err != nil {
		t.Fatal(err)
	}
	return name
}

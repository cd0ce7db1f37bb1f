package resource

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kdv.dev/manifest"
	"kdv.dev/report"
)

const widgetCRD = "../examples/crd/widgets.crd.yaml"

func widgetRegistry(t *testing.T) *Registry {
	t.Helper()
	reg := NewRegistry(Options{})
	n, err := LoadCRDs(reg, []string{widgetCRD}, nil)
	if err != nil || n != 1 {
		t.Fatalf("LoadCRDs: %d, %v", n, err)
	}
	return reg
}

func TestRegistryNoSchema(t *testing.T) {
	reg := widgetRegistry(t)
	for _, tc := range []struct {
		gvk  schema.GroupVersionKind
		want string
	}{
		{schema.GroupVersionKind{Group: "extensions", Version: "v1beta1", Kind: "Deployment"}, "no schema for extensions/v1beta1, Kind=Deployment"},
		{schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, "no schema for v1, Kind=Pod"},
		// Unserved or unknown versions of a known CRD have no schema either.
		{schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v2", Kind: "Widget"}, "no schema for example.kdv.dev/v2, Kind=Widget"},
	} {
		_, err := reg.Validator(tc.gvk)
		var ns *NoSchemaError
		if !errors.As(err, &ns) || err.Error() != tc.want {
			t.Errorf("%v: got %v, want %q", tc.gvk, err, tc.want)
		}
	}
	reg.Reject(schema.GroupKind{Group: "example.com", Kind: "Thing"}, "its CustomResourceDefinition is invalid")
	_, err := reg.Validator(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Thing"})
	if err == nil || err.Error() != "no schema for example.com/v1, Kind=Thing (its CustomResourceDefinition is invalid)" {
		t.Errorf("rejected CRD: %v", err)
	}
}

func TestRegistryFallbackCompiledOnce(t *testing.T) {
	reg := widgetRegistry(t)
	calls := 0
	w := schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Widget"}
	wv, err := reg.Validator(w)
	if err != nil {
		t.Fatal(err)
	}
	reg.SetFallback(func(gvk schema.GroupVersionKind) (Schema, bool, error) {
		calls++
		if gvk.Kind != "Gizmo" {
			return Schema{}, false, nil
		}
		s := wv.Schema()
		s.GVK = gvk
		return s, true, nil
	})
	g := schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Gizmo"}
	a, err1 := reg.Validator(g)
	b, err2 := reg.Validator(g)
	if err1 != nil || err2 != nil || a != b || calls != 1 {
		t.Errorf("fallback: %v %v, same validator %v, %d calls", err1, err2, a == b, calls)
	}
	// Explicit schemas win over the fallback.
	if v, _ := reg.Validator(w); v != wv {
		t.Error("the CRD's validator was replaced")
	}
}

func TestValidatorDecodeOrder(t *testing.T) {
	reg := widgetRegistry(t)
	v, err := reg.Validator(schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Widget"})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{
		"apiVersion": "example.kdv.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "bogus": "x"},
		"spec":     map[string]any{"size": "small", "extra": 1, "minReplicas": nil},
	}
	out := v.Validate(context.Background(), obj, nil)
	// Pruning runs before defaulting and validation: unknown fields are
	// reported, the null of a non-nullable field with a default is
	// defaulted, and the input is not modified.
	if got := strings.Join(out.UnknownFields, ", "); got != `unknown field "metadata.bogus", unknown field "spec.extra"` {
		t.Errorf("unknown fields: %s", got)
	}
	if len(out.Errors) != 0 || out.DecodeErr != nil {
		t.Errorf("errors: %v %v", out.Errors, out.DecodeErr)
	}
	spec := out.Object["spec"].(map[string]any)
	if spec["minReplicas"] != int64(1) || spec["maxReplicas"] != int64(10) {
		t.Errorf("defaults: %v", spec)
	}
	if out.Object["metadata"].(map[string]any)["namespace"] != "default" {
		t.Errorf("namespace: %v", out.Object["metadata"])
	}
	if _, ok := obj["spec"].(map[string]any)["extra"]; !ok {
		t.Error("Validate modified its input")
	}
	// apiVersion must be a string: the apiserver fails decoding.
	out = v.Validate(context.Background(), map[string]any{"apiVersion": int64(1), "kind": "Widget"}, nil)
	if out.DecodeErr == nil || !out.Invalid() {
		t.Errorf("non-string apiVersion: %+v", out)
	}
}

func TestRunCRDInInputAndUpdates(t *testing.T) {
	crd, err := os.ReadFile(widgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	input := string(crd) + `
---
apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: a, namespace: team}
spec: {size: large}
---
apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: b}
spec: {size: small}
`
	old := `apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: a, namespace: team}
spec: {size: small}
---
apiVersion: example.kdv.dev/v1
kind: Widget
metadata: {name: b, namespace: default}
spec: {size: medium}
`
	docs := manifest.Parse("in.yaml", []byte(input), manifest.Options{})
	olds := manifest.Parse("old.yaml", []byte(old), manifest.Options{})
	res := Run(context.Background(), docs, NewRegistry(Options{}), RunOptions{Jobs: 2, Old: olds})
	if len(res.Documents) != 3 {
		t.Fatalf("%d results", len(res.Documents))
	}
	if o := res.Documents[0].Outcome(); o != report.Valid {
		t.Errorf("CRD: %v %v", o, res.Documents[0].Errors)
	}
	for i, name := range []string{"a", "b"} {
		d := res.Documents[i+1]
		if d.Name != name || len(d.Errors) != 1 || d.Errors[0].Error() != "spec: Invalid value: size is immutable" {
			t.Errorf("%s: %v %v", name, d.Err, d.Errors)
		}
	}
	if res.Documents[2].Namespace != "default" {
		t.Errorf("namespace of b: %q", res.Documents[2].Namespace)
	}
}

// Built-in kinds: a value of the wrong type is the decoder's 400 (the
// body cannot be decoded into the Go type), nothing else is reported, and
// the CRD-only note about skipped rules does not appear.
func TestBuiltInNoSkippedRulesNote(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	v, err := reg.Validator(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"})
	if err != nil {
		t.Fatal(err)
	}
	out := v.Validate(context.Background(), map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c"},
		"data":     map[string]any{"retries": int64(3)},
	}, nil)
	want := `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string`
	if len(out.Errors) != 0 || out.DecodeError != want || !out.Invalid() {
		t.Errorf("errors: %v, decode error %q", out.Errors, out.DecodeError)
	}
}

// With a status subresource, a create cannot set status (the apiserver
// drops it before validating) and an update keeps the old status.
func TestStatusSubresource(t *testing.T) {
	reg := widgetRegistry(t)
	v, err := reg.Validator(schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Widget"})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{
		"apiVersion": "example.kdv.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"},
		"spec":     map[string]any{"size": "small"},
		"status":   "not an object",
	}
	if out := v.Validate(context.Background(), obj, nil); out.Invalid() {
		t.Errorf("create: %v %v", out.UnknownFields, out.Errors)
	}
	old := map[string]any{
		"apiVersion": "example.kdv.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"},
		"spec":     map[string]any{"size": "small"},
		"status":   map[string]any{"ready": true},
	}
	out := v.Validate(context.Background(), obj, old)
	if out.Invalid() || out.Object["status"].(map[string]any)["ready"] != true {
		t.Errorf("update: %v %v, status %v", out.UnknownFields, out.Errors, out.Object["status"])
	}
}

// A CertificateSigningRequest's strategy keeps the old spec on update
// (PrepareForUpdate), so an update with an invalid spec is accepted, as the
// apiserver accepts it; the same spec is rejected on create.
func TestKeptOnUpdate(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	v, err := reg.Validator(schema.GroupVersionKind{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequest"})
	if err != nil {
		t.Fatal(err)
	}
	csr := func(usage string) map[string]any {
		return map[string]any{
			"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
			"metadata": map[string]any{"name": "c"},
			"spec": map[string]any{
				"request":    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIdk1JR1dBZ0VBTURReEd6QVpCZ05WQkFNTUVuTjVjM1JsYlRwdWIyUmxPbTV2WkdVdE1URVZNQk1HQTFVRQpDZ3dNYzNsemRHVnRPbTV2WkdWek1Ga3dFd1lIS29aSXpqMENBUVlJS29aSXpqMERBUWNEUWdBRVR6b3ZYMmxMCmx0N20rc1dNaEJkK2ZLaitXM3FiVG41L2lOSkhTNjJwUEpxcllvS1F4MHJXa1JRQTFiS2xqeHJzMGJuNGtZc0QKR0xyUUJPNkRBQkNzb0tBQU1Bb0dDQ3FHU000OUJBTUNBMGdBTUVVQ0lRQ2k2QlRLcVVKM3pHZCtrNkN0eWJQQgozM01laDBVdUhQd1c3M2NaVHdKZWlBSWdSZzhYV1g5SjFXYTJQV1ltRHlmZm5JdUNzNlJoZDlLTkFzUlVPY2RjCi9HZz0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==",
				"signerName": "example.com/signer",
				"usages":     []any{usage},
			},
		}
	}
	if out := v.Validate(context.Background(), csr("not a usage"), nil); !out.Invalid() {
		t.Errorf("create with a bad usage accepted")
	}
	out := v.Validate(context.Background(), csr("not a usage"), csr("client auth"))
	if out.Invalid() {
		t.Errorf("update: %v", out.Errors)
	}
	if u := out.Object["spec"].(map[string]any)["usages"].([]any)[0]; u != "client auth" {
		t.Errorf("update validated usage %v, want the old spec's", u)
	}
}

// A malformed namespace is a decode error, as in the apiserver, not
// replaced by the default namespace.
func TestMalformedNamespace(t *testing.T) {
	reg := widgetRegistry(t)
	v, err := reg.Validator(schema.GroupVersionKind{Group: "example.kdv.dev", Version: "v1", Kind: "Widget"})
	if err != nil {
		t.Fatal(err)
	}
	out := v.Validate(context.Background(), map[string]any{
		"apiVersion": "example.kdv.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": []any{}},
		"spec":     map[string]any{"size": "small"},
	}, nil)
	if out.DecodeErr == nil {
		t.Errorf("no decode error: %+v", out)
	}
}

// APIService (kube-aggregator, not in k8s.io/api) is a built-in kind: the
// metrics-server registration validates, and type errors and unknown
// fields are found.
func TestAPIServiceBuiltIn(t *testing.T) {
	input := `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  service: {name: metrics-server, namespace: kube-system}
  group: metrics.k8s.io
  version: v1beta1
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 100
  versionPriority: 100
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.custom.metrics.k8s.io}
spec:
  service: {name: adapter, namespace: monitoring, port: "443"}
  group: custom.metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  bogus: 1
`
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), manifest.Parse("in.yaml", []byte(input), manifest.Options{}), reg, RunOptions{})
	if len(res.Documents) != 2 {
		t.Fatalf("%d results", len(res.Documents))
	}
	if d := res.Documents[0]; d.Outcome() != report.Valid {
		t.Errorf("metrics-server APIService: %v %v", d.Err, d.Errors)
	}
	d := res.Documents[1]
	var got []string
	for _, e := range d.Errors {
		got = append(got, e.Error())
	}
	// The decoder's type error comes first: nothing else is reported.
	want := `APIService in version "v1" cannot be handled as a APIService: json: cannot unmarshal string into Go struct field ServiceReference.spec.service.port of type int32`
	if d.Err != nil || len(got) != 0 || d.DecodeError != want || len(d.UnknownFields) != 0 {
		t.Errorf("invalid APIService: err=%v errors=%q decode=%q unknown=%q", d.Err, got, d.DecodeError, d.UnknownFields)
	}
}

// What is not a Kubernetes object is skipped as not a manifest; a document
// with one of apiVersion and kind is an error still, as the apiserver
// answers; StrictInputs fails them all as kubectl does.
func TestRunNotManifests(t *testing.T) {
	input := `logLevel: debug
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [a.yaml]
---
kind: ConfigMap
metadata: {name: a}
---
apiVersion: v1
metadata: {name: b}
`
	docs := manifest.Parse("in.yaml", []byte(input), manifest.Options{})
	res := Run(context.Background(), docs, NewRegistry(Options{}), RunOptions{Jobs: 1})
	var got []string
	for _, d := range res.Documents {
		msg := d.SkipReason
		if d.Err != nil {
			msg = "error: " + d.Err.Error()
		}
		got = append(got, fmt.Sprintf("%v %v %s", d.Outcome(), d.NotManifest, msg))
	}
	want := []string{
		"skipped true not a manifest: neither apiVersion nor kind",
		"skipped true not a manifest: Kustomize configuration (kustomize.config.k8s.io/v1beta1 Kustomization)",
		"failed false error: Object 'apiVersion' is missing",
		"failed false error: Object 'Kind' is missing",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := res.Summary(); s.NotManifests != 2 || s.Documents != 2 || s.Failed != 2 {
		t.Errorf("summary %+v", s)
	}
	strict := Run(context.Background(), docs, NewRegistry(Options{}), RunOptions{Jobs: 1, StrictInputs: true})
	for i, d := range strict.Documents {
		if d.Outcome() != report.Failed || d.NotManifest {
			t.Errorf("StrictInputs: document %d: %v %v", i, d.Outcome(), d.SkipReason)
		}
	}
}

// The Node strategy keeps the status a create sets (StatusOnCreate), so a
// negative capacity is rejected on create, while status.config (dropped by
// the strategy) and the fields k8s.io/api publishes as required in
// nodeInfo are not checked; an update still keeps the old status.
func TestStatusOnCreate(t *testing.T) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 37); err != nil {
		t.Fatal(err)
	}
	v, err := reg.Validator(schema.GroupVersionKind{Version: "v1", Kind: "Node"})
	if err != nil {
		t.Fatal(err)
	}
	node := func(cpu string) map[string]any {
		return map[string]any{
			"apiVersion": "v1", "kind": "Node",
			"metadata": map[string]any{"name": "n"},
			"status": map[string]any{
				"capacity": map[string]any{"cpu": cpu},
				"nodeInfo": map[string]any{"kubeletVersion": "v1.37.0"},
				"config":   map[string]any{"active": map[string]any{"configMap": map[string]any{"name": "x"}}},
			},
		}
	}
	if out := v.Validate(context.Background(), node("1"), nil); out.Invalid() {
		t.Errorf("create with a valid status: %v %v", out.UnknownFields, out.Errors)
	}
	out := v.Validate(context.Background(), node("-1"), nil)
	if len(out.Errors) != 1 || out.Errors[0].Field != "status.capacity.cpu" {
		t.Errorf("create with a negative capacity: %v", out.Errors)
	}
	if st, _ := out.Object["status"].(map[string]any); st["config"] != nil {
		t.Errorf("status.config kept on create: %v", out.Object["status"])
	}
	if out := v.Validate(context.Background(), node("-1"), node("1")); out.Invalid() {
		t.Errorf("update keeping the old status: %v %v", out.UnknownFields, out.Errors)
	}
}

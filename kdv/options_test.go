package kdv_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"kdv.dev/kdv"
	"kdv.dev/resource"
)

// invalidCRD's error is the apiserver's (bench/cmd/apiserver-verdict on
// testdata/invalid.crd.yaml): it stops at the structural error, before
// compiling the CEL rule.
const invalidCRD = `CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// New reports every problem of its options, each naming where it is.
func TestNewErrors(t *testing.T) {
	noCRD := writeFile(t, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
	broken := writeFile(t, "broken.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: [\n")
	for _, tc := range []struct {
		name string
		opts []kdv.Option
		want []string
	}{
		{"invalid CRD", []kdv.Option{kdv.WithCRDFiles("testdata/invalid.crd.yaml")},
			[]string{"testdata/invalid.crd.yaml:3: " + invalidCRD}},
		{"all problems", []kdv.Option{kdv.WithCRDFiles("testdata/invalid.crd.yaml", "testdata/missing", noCRD, broken, gatewayClassCRD)},
			[]string{"testdata/invalid.crd.yaml:3: " + invalidCRD, "testdata/missing: no such file or directory",
				noCRD + ": no CustomResourceDefinition found", broken + ":2: "}},
		{"not a CRD", []kdv.Option{kdv.WithCRDs(map[string]any{"apiVersion": "v1", "kind": "ConfigMap"})},
			[]string{"kdv.WithCRDs argument 0: apiVersion v1, kind ConfigMap: not a CustomResourceDefinition"}},
		{"unsupported CRD value", []kdv.Option{kdv.WithCRDs("crd.yaml")},
			[]string{"kdv.WithCRDs argument 0: kdv: cannot validate a string"}},
		{"release", []kdv.Option{kdv.WithBuiltins("1.99")},
			[]string{`kdv.WithBuiltins("1.99"): no built-in schemas for Kubernetes 1.99; kdv embeds `}},
		{"release syntax", []kdv.Option{kdv.WithBuiltins("37")}, []string{`kdv.WithBuiltins("37"): want 1.<minor>`}},
		{"field validation", []kdv.Option{kdv.WithFieldValidation("strict")},
			[]string{`kdv.WithFieldValidation("strict"): want "Strict", "Warn" or "Ignore"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := kdv.New(tc.opts...)
			if err == nil || v != nil {
				t.Fatalf("New = %v, %v", v, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nwants %q", err, w)
				}
			}
		})
	}
	// The checks can be left out: the invalid CRD is then registered.
	if _, err := kdv.New(kdv.WithCRDFiles("testdata/invalid.crd.yaml"), kdv.WithoutCRDChecks()); err != nil {
		t.Errorf("WithoutCRDChecks: %v", err)
	}
}

// WithCRDs takes a typed CRD (with or without TypeMeta), an unstructured
// one or a map.
func TestWithCRDs(t *testing.T) {
	data, err := os.ReadFile(gatewayClassCRD)
	if err != nil {
		t.Fatal(err)
	}
	var typed apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &typed); err != nil {
		t.Fatal(err)
	}
	bare := typed.DeepCopy()
	bare.TypeMeta = metav1.TypeMeta{}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for name, crd := range map[string]any{"typed": &typed, "no TypeMeta": bare, "unstructured": &unstructured.Unstructured{Object: m}, "map": m} {
		v, err := kdv.New(kdv.WithCRDs(crd))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r, err := v.Validate(ctx, gatewayClass("bad name", nil))
		if err != nil || len(r.Errors) != 1 || r.Errors[0].Error() != patternError {
			t.Errorf("%s: %v %v", name, err, r)
		}
	}
}

// myGatewayClass stands for an operator's own Go type.
type myGatewayClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		ControllerName string `json:"controllerName"`
	} `json:"spec"`
}

func (g *myGatewayClass) DeepCopyObject() runtime.Object {
	c := *g
	g.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// An operator's typed object finds its kind in the operator's scheme.
func TestWithScheme(t *testing.T) {
	obj := &myGatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "eg"}}
	obj.Spec.ControllerName = "bad name"
	v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD))
	if _, err := v.Validate(ctx, obj); err == nil || !strings.Contains(err.Error(), "has no apiVersion and kind: set its TypeMeta, or give its scheme with kdv.WithScheme") {
		t.Errorf("without a scheme: %v", err)
	}
	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(schema.GroupVersionKind{Group: "gateway.networking.k8s.io", Version: "v1", Kind: "GatewayClass"}, &myGatewayClass{})
	v = newValidator(t, kdv.WithCRDFiles(gatewayClassCRD), kdv.WithScheme(scheme))
	r, err := v.Validate(ctx, obj)
	if err != nil || len(r.Errors) != 1 || r.Errors[0].Error() != patternError {
		t.Errorf("with a scheme: %v %v", err, r)
	}
}

// What cannot be validated at all is an error, not a Result.
func TestValidateErrors(t *testing.T) {
	v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD))
	var nilDeployment *appsv1.Deployment
	for _, tc := range []struct {
		name     string
		obj, old any
		want     string
	}{
		{"nil", nil, nil, "kdv: the object is nil"},
		{"nil map", map[string]any(nil), nil, "kdv: the object is nil"},
		{"nil pointer", nilDeployment, nil, "kdv: the object is a nil *v1.Deployment"},
		{"unsupported", "kind: Pod", nil, "kdv: cannot validate a string: want *unstructured.Unstructured, map[string]any or a typed runtime.Object"},
		{"list", &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List"}}, nil, "kdv: *unstructured.UnstructuredList is a list: validate each item"},
		{"no kind", map[string]any{"apiVersion": "v1"}, nil, "Object 'Kind' is missing"},
		{"no apiVersion", map[string]any{"kind": "Pod"}, nil, "Object 'apiVersion' is missing"},
		{"no schema", map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget"}, nil, "no schema for example.com/v1, Kind=Gadget"},
		{"not JSON", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": make(chan int)}}, nil,
			"kdv: the object cannot be encoded as JSON, as a client would send it: json: unsupported type: chan int"},
		{"update changes kind", gatewayClass("example.com/gc", nil), map[string]any{"apiVersion": "v1", "kind": "ConfigMap"},
			"kdv: the object is a gateway.networking.k8s.io/v1 GatewayClass and the old object a v1 ConfigMap: an update keeps apiVersion and kind"},
		{"old unsupported", gatewayClass("example.com/gc", nil), 5, "old object: kdv: cannot validate a int"},
	} {
		var err error
		if tc.old != nil {
			_, err = v.ValidateUpdate(ctx, tc.obj, tc.old)
		} else {
			_, err = v.Validate(ctx, tc.obj)
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	_, err := v.Validate(ctx, map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget"})
	var ns *resource.NoSchemaError
	if !errors.As(err, &ns) || ns.GVK.Kind != "Gadget" {
		t.Errorf("no schema: %#v", err)
	}
}

// ValidateYAML validates every object of a stream, Lists item by item,
// and reports the documents it cannot validate with their lines.
func TestValidateYAML(t *testing.T) {
	v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD))
	crd, err := os.ReadFile("testdata/invalid.crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a}
  data: {n: 1}
- apiVersion: gateway.networking.k8s.io/v1
  kind: GatewayClass
  metadata: {name: eg}
  spec: {controllerName: example.com/gc}
---
# empty
---
apiVersion: example.com/v1
kind: Gadget
---
kind: [
---
` + string(crd)
	results, err := v.ValidateYAML(ctx, "in.yaml", []byte(in))
	want := []struct {
		line  int
		kind  string
		error string
	}{
		{4, "ConfigMap", `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string`},
		{8, "GatewayClass", ""},
		{22, "CustomResourceDefinition", invalidCRD},
	}
	if len(results) != len(want) {
		t.Fatalf("%d results: %+v", len(results), results)
	}
	for i, w := range want {
		r := &results[i]
		got := ""
		if r.Err() != nil {
			got = r.Err().Error()
		}
		if r.Line != w.line || r.GVK.Kind != w.kind || got != w.error {
			t.Errorf("result %d: line %d %s %q; want line %d %s %q", i, r.Line, r.GVK.Kind, got, w.line, w.kind, w.error)
		}
	}
	for _, w := range []string{"in.yaml:15: no schema for example.com/v1, Kind=Gadget", "in.yaml:18: "} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v: wants %q", err, w)
		}
	}
}

// WithOpenAPI adds the kinds of OpenAPI v3 documents.
func TestWithOpenAPI(t *testing.T) {
	doc := `{"openapi":"3.0.0","components":{"schemas":{"com.example.v1.Gizmo":{"type":"object",` +
		`"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"size":{"type":"integer","maximum":3}},` +
		`"x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Gizmo"}]}}}}`
	dir := filepath.Dir(writeFile(t, "gizmo.json", doc))
	gizmo := map[string]any{"apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": map[string]any{"name": "g"}, "size": int64(4)}
	if _, err := newValidator(t).Validate(ctx, gizmo); err == nil {
		t.Error("Gizmo validated without its schema")
	}
	r, err := newValidator(t, kdv.WithOpenAPI(dir)).Validate(ctx, gizmo)
	if err != nil || len(r.Errors) != 1 || r.Errors[0].Error() != "size: Invalid value: 4: size in body should be less than or equal to 3" {
		t.Errorf("%v %+v", err, r)
	}
	if _, err := kdv.New(kdv.WithOpenAPI(filepath.Join(dir, "missing"))); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing dir: %v", err)
	}
}

// WithBuiltins chooses the release.
func TestWithBuiltins(t *testing.T) {
	for in, want := range map[string]string{"1.35": "1.35", "v1.36.4": "1.36"} {
		if got := newValidator(t, kdv.WithBuiltins(in)).KubernetesVersion(); got != want {
			t.Errorf("%s: %s", in, got)
		}
	}
}

// One Validator serves goroutines at once, compiling each kind once on
// first use, and gives each the verdict it gives alone.
func TestConcurrent(t *testing.T) {
	v := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD))
	objs := []any{deployment(), gatewayClass("bad name", nil), gatewayClass("example.com/gc", map[string]any{"colour": "x"}),
		map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "Bad_Name"}}}
	want := make([]string, len(objs))
	for i, o := range objs {
		r, err := newValidator(t, kdv.WithCRDFiles(gatewayClassCRD)).Validate(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = errString(r.Err())
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 40 {
				i := (g + k) % len(objs)
				r, err := v.Validate(ctx, objs[i])
				if err != nil || errString(r.Err()) != want[i] {
					t.Errorf("object %d: %v %q, want %q", i, err, errString(r.Err()), want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// New keeps the warnings of its CRD checks: the apiserver's for an
// unrecognized format is `unrecognized format "<name>"`
// (k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition
// strategy.go WarningsOnCreate).
func TestNewWarnings(t *testing.T) {
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "gadgets.example.com"},
		"spec": map[string]any{
			"group": "example.com",
			"scope": "Namespaced",
			"names": map[string]any{"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type":       "object",
					"properties": map[string]any{"id": map[string]any{"type": "string", "format": "gadget-id"}},
				}},
			}},
		},
	}
	v := newValidator(t, kdv.WithCRDs(crd))
	if w := v.Warnings(); len(w) != 1 || w[0] != `kdv.WithCRDs argument 0: unrecognized format "gadget-id"` {
		t.Errorf("Warnings = %q", w)
	}
}

// WithFeatureGates models the cluster's gates: an alpha field is dropped
// with a warning by default and validated once its gate is on; an unknown
// gate is an error of New naming it.
func TestWithFeatureGates(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: i, lifecycle: {stopSignal: SIGBOGUS}}\n"
	for _, tc := range []struct {
		gates        string
		errs, warned bool
	}{
		{"", false, true},
		{"ContainerStopSignals=true", true, true},
	} {
		v := newValidator(t, kdv.WithFeatureGates(tc.gates))
		results, err := v.ValidateYAML(ctx, "p.yaml", []byte(pod))
		if err != nil || len(results) != 1 {
			t.Fatalf("%q: %v %+v", tc.gates, err, results)
		}
		r := results[0]
		warned := len(r.Warnings) == 1 && strings.Contains(r.Warnings[0], "lifecycle.stopSignal")
		if (len(r.Errors) > 0) != tc.errs || warned != tc.warned {
			t.Errorf("%q: errors %v, warnings %q", tc.gates, r.Errors, r.Warnings)
		}
	}
	if _, err := kdv.New(kdv.WithFeatureGates("NoSuchGate=true")); err == nil || !strings.Contains(err.Error(), `kdv.WithFeatureGates("NoSuchGate=true"): unrecognized feature gate: NoSuchGate`) {
		t.Errorf("unknown gate: %v", err)
	}
}

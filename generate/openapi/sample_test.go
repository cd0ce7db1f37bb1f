package openapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"kdv.dev/cel"
	"kdv.dev/idl"
	"kdv.dev/schema"
	"kdv.dev/schema/refs"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file; run go test -update and review the diff.\ngot:\n%s", name, got)
	}
}

func loadSample(t *testing.T) *idl.Universe {
	t.Helper()
	u, err := idl.Load(idl.Options{}, "./testdata/sample/v1")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSampleOpenAPI(t *testing.T) {
	res, err := Generate(loadSample(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 1 || res.Documents[0].GroupVersion() != "sample.kdv.dev/v1" {
		t.Fatalf("documents: %+v", res.Documents)
	}
	b, err := json.MarshalIndent(res.Documents[0], "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.kdv.dev_v1.openapi.json", append(b, '\n'))
	var sb bytes.Buffer
	res.Report.Write(&sb)
	res.Report.WriteDetails(&sb)
	golden(t, "sample.report.txt", sb.Bytes())
}

func TestSampleCRD(t *testing.T) {
	crds, _, err := CRDs(loadSample(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(crds) != 1 {
		t.Fatalf("got %d CRDs", len(crds))
	}
	c := crds[0]
	b, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.kdv.dev_widgets.yaml", b)
	// The CRD round-trips through the schema package and passes the
	// apiserver's CRD create checks.
	parsed, err := schema.ParseCRD(b)
	if err != nil {
		t.Fatal(err)
	}
	// CEL compile and cost checks as the apiserver runs them on create.
	errs, warnings := schema.Check(parsed, schema.CheckOptions{ValidateSchema: func(s *schema.Structural, fldPath *field.Path) field.ErrorList {
		return cel.CheckSchema(s, fldPath, cel.Options{KubernetesMinor: 37})
	}})
	for _, e := range errs {
		t.Errorf("Check: %v", e)
	}
	for _, w := range warnings {
		t.Logf("Check warning: %s", w)
	}
	if _, err := parsed.Spec.Versions[0].Structural(); err != nil {
		t.Errorf("Structural: %v", err)
	}
}

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	files, rep, err := WriteFiles(ModeCRD, "", []string{"./testdata/sample/v1"}, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || filepath.Base(files[0]) != "sample.kdv.dev_widgets.yaml" || rep == nil {
		t.Fatalf("files %v", files)
	}
	files, _, err = WriteFiles(ModeOpenAPI, "", []string{"./testdata/sample/v1"}, dir, Options{})
	if err != nil || len(files) != 1 || filepath.Base(files[0]) != "apis__sample.kdv.dev__v1_openapi.json" {
		t.Fatalf("files %v %v", files, err)
	}
	if _, _, err := WriteFiles(ModeOpenAPI, "", []string{"../../idl/testdata/badtags"}, dir, Options{}); err == nil || !strings.Contains(err.Error(), "types.go:8") {
		t.Errorf("bad tags: %v", err)
	}
}

// TestSampleSemantics asserts the tag model's meaning on the sample API,
// independent of the golden files.
func TestSampleSemantics(t *testing.T) {
	res, err := Generate(loadSample(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Documents[0]
	s, err := refs.Resolve(d.Schemas, "dev.kdv.generate.openapi.testdata.sample.v1.Widget")
	if err != nil {
		t.Fatal(err)
	}
	spec := s.Properties["spec"]
	comp := spec.Properties["component"]
	// KEP-4153: Component -> PartID -> Identifier: all three rules.
	if len(comp.XValidations) != 2 || comp.Format != "k8s-short-name" || comp.MaxLength == nil || *comp.MaxLength != 63 {
		t.Errorf("component: %+v", comp)
	}
	if r := spec.Properties["replicas"]; r.Minimum == nil || *r.Minimum != 0 || r.Maximum == nil || *r.Maximum != 100 || r.Default == nil || r.Default.Object != int64(1) {
		t.Errorf("replicas: %+v", r)
	}
	if c := spec.Properties["color"]; c.Default == nil || c.Default.Object != "Red" || len(c.Enum) != 2 {
		t.Errorf("color: %+v", c)
	}
	if m := spec.Properties["minReplicas"]; m.Maximum == nil || *m.Maximum != 50 || !m.ExclusiveMaximum {
		t.Errorf("minReplicas: %+v", m)
	}
	if tg := spec.Properties["tags"]; tg.Items.Schema.MaxLength == nil || *tg.Items.Schema.MaxLength != 32 {
		t.Errorf("tags items: %+v", tg.Items.Schema)
	}
	if l := spec.Properties["labels"]; l.AdditionalProperties.Schema.MaxLength == nil {
		t.Errorf("labels eachVal: %+v", l.AdditionalProperties.Schema)
	}
	g := spec.Properties["gated"]
	if lc := g.XAPILifecycle["kubernetes"]; lc.FeatureGate != "WidgetGates" || lc.Status != "beta" || lc.MinVersion != "v1.36" {
		t.Errorf("gated lifecycle: %+v", g.XAPILifecycle)
	}
	if lc := g.XAPILifecycle["declarative-validation"]; lc.Status != "beta" || lc.MinVersion != "v1.37" || g.Format != "k8s-long-name" {
		t.Errorf("gated beta: %+v", g)
	}
	var msgs []string
	for _, r := range spec.XValidations {
		msgs = append(msgs, r.Message)
	}
	want := "field is immutable|field cannot be set once created|exactly one of the fields in [small large] must be set|at most one of the fields in [left right] may be set|replicas below minimum"
	if strings.Join(msgs, "|") != want {
		t.Errorf("spec rules: %q", msgs)
	}
	if len(spec.Properties["routing"].XUnions) != 1 || spec.Properties["routing"].XUnions[0].Discriminator != "type" {
		t.Errorf("routing unions: %+v", spec.Properties["routing"].XUnions)
	}
	// StandardOnly drops the lifecycle extension and reports the tags.
	res2, _ := Generate(loadSample(t), Options{StandardOnly: true})
	s2, _ := refs.Resolve(res2.Documents[0].Schemas, "dev.kdv.generate.openapi.testdata.sample.v1.Widget")
	if len(s2.Properties["spec"].Properties["gated"].XAPILifecycle) != 0 || res2.Report.Tags["lifecycle"].Reported != 1 {
		t.Errorf("StandardOnly kept lifecycle")
	}
}

func TestPackageOptional(t *testing.T) {
	u, err := idl.Load(idl.Options{}, "./testdata/optpkg/v1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(u, Options{CRD: true})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Definition("dev.kdv.generate.openapi.testdata.optpkg.v1.Thing")
	if d == nil || strings.Join(d.Required, ",") != "b" {
		t.Errorf("required: %+v", d)
	}
}

// TestConditionMatchesControllerGen compares the metav1.Condition schema in
// the sample CRD with controller-gen's rendering of the same type in a
// Gateway API CRD of the corpus: identical, descriptions included.
func TestConditionMatchesControllerGen(t *testing.T) {
	ref := filepath.Join("..", "..", "..", "shared", "corpus", "gateway-api", "config", "crd", "experimental", "gateway.networking.k8s.io_udproutes.yaml")
	b, err := os.ReadFile(ref)
	if err != nil {
		t.Skip("corpus not present")
	}
	var want, got map[string]any
	if err := yaml.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	crds, _, err := CRDs(loadSample(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := yaml.Marshal(crds[0])
	if err := yaml.Unmarshal(gb, &got); err != nil {
		t.Fatal(err)
	}
	w, g := findCondition(want), findCondition(got)
	if w == nil || g == nil {
		t.Fatalf("condition schema not found (corpus %v, sample %v)", w != nil, g != nil)
	}
	wj, _ := json.MarshalIndent(w, "", " ")
	gj, _ := json.MarshalIndent(g, "", " ")
	if string(wj) != string(gj) {
		t.Errorf("metav1.Condition differs from controller-gen:\nwant %s\ngot  %s", wj, gj)
	}
}

// findCondition finds the first object schema with lastTransitionTime and
// observedGeneration properties (metav1.Condition).
func findCondition(n any) any {
	switch n := n.(type) {
	case map[string]any:
		if p, ok := n["properties"].(map[string]any); ok && p["lastTransitionTime"] != nil && p["observedGeneration"] != nil {
			return n
		}
		keys := make([]string, 0, len(n))
		for k := range n {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if r := findCondition(n[k]); r != nil {
				return r
			}
		}
	case []any:
		for _, x := range n {
			if r := findCondition(x); r != nil {
				return r
			}
		}
	}
	return nil
}

package openapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"kdv.dev/idl"
	"kdv.dev/schema"
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
	errs, warnings := schema.Check(parsed, schema.CheckOptions{})
	for _, e := range errs {
		t.Errorf("Check: %v", e)
	}
	for _, w := range warnings {
		t.Logf("Check warning: %s", w)
	}
	if _, err := parsed.Spec.Versions[0].Structural(); err != nil {
		t.Errorf("Structural: %v", err)
	}
	_ = field.NewPath
}

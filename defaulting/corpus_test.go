package defaulting

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"kdv.dev/pruning"
	"kdv.dev/schema"
)

const corpusDir = "../../shared/corpus"

// crdSchemas maps "group/version Kind" to the version's structural schema.
type crdSchemas map[string]*schema.Structural

var crdCache sync.Map // strings.Join(dirs) -> crdSchemas

// loadCRDs reads every CRD under the given corpus directories (cached: the
// Gateway API CRDs take seconds to decode).
func loadCRDs(t testing.TB, dirs ...string) crdSchemas {
	t.Helper()
	key := strings.Join(dirs, "\x00")
	if c, ok := crdCache.Load(key); ok {
		return c.(crdSchemas)
	}
	out := crdSchemas{}
	defer func() { crdCache.Store(key, out) }()
	for _, dir := range dirs {
		for _, doc := range readDocs(t, filepath.Join(corpusDir, dir)) {
			var head struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal(doc.raw, &head); err != nil || !schema.IsCRD(head.APIVersion, head.Kind) {
				continue
			}
			crd, err := schema.ParseCRD(doc.raw)
			if err != nil {
				t.Fatalf("%s: %v", doc.file, err)
			}
			for i := range crd.Spec.Versions {
				v := &crd.Spec.Versions[i]
				s, err := v.Structural()
				if err != nil {
					t.Fatalf("%s %s: %v", doc.file, v.Name, err)
				}
				out[crd.Spec.Group+"/"+v.Name+" "+crd.Spec.Names.Kind] = s
			}
		}
	}
	return out
}

type corpusDoc struct {
	file string
	raw  []byte
}

// readDocs returns every YAML document of every .yaml/.yml/.json file under
// dir; it skips the test when the corpus is absent.
func readDocs(t testing.TB, dir string) []corpusDoc {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	var docs []corpusDoc
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if len(bytes.TrimSpace(doc)) > 0 {
				docs = append(docs, corpusDoc{file: p, raw: doc})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// decode turns a YAML document into unstructured JSON with int64 integers,
// as the apiserver decodes a request body. Lists are flattened.
func decode(doc []byte) ([]map[string]any, error) {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	var v any
	if err := utiljson.Unmarshal(j, &v); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil
	}
	if k, _ := m["kind"].(string); strings.HasSuffix(k, "List") {
		var out []map[string]any
		items, _ := m["items"].([]any)
		for _, it := range items {
			if im, ok := it.(map[string]any); ok {
				out = append(out, im)
			}
		}
		return out, nil
	}
	return []map[string]any{m}, nil
}

type corpusObject struct {
	file   string
	obj    map[string]any
	schema *schema.Structural
}

// corpusObjects returns every object under exampleDirs whose kind has a CRD
// in crdDirs, skipping the CRD directories themselves.
func corpusObjects(t testing.TB, crdDirs []string, exampleDirs ...string) []corpusObject {
	crds := loadCRDs(t, crdDirs...)
	var out []corpusObject
	for _, dir := range exampleDirs {
		for _, doc := range readDocs(t, filepath.Join(corpusDir, dir)) {
			if strings.Contains(doc.file, "-crd") {
				continue
			}
			objs, err := decode(doc.raw)
			if err != nil {
				t.Fatalf("%s: %v", doc.file, err)
			}
			for _, o := range objs {
				av, _ := o["apiVersion"].(string)
				k, _ := o["kind"].(string)
				if s, ok := crds[av+" "+k]; ok {
					out = append(out, corpusObject{file: doc.file, obj: o, schema: s})
				}
			}
		}
	}
	return out
}

var (
	gatewayCRDs    = []string{"gateway-api/config/crd/experimental"}
	prometheusCRDs = []string{"prometheus-operator/example/prometheus-operator-crd-full"}
)

// TestCorpusPruneRemovesNothing runs the apiserver's decode steps (strict
// field validation) and defaulting on every Gateway API and Prometheus
// Operator example whose kind has a CRD: valid examples have no unknown
// fields, and pruning after defaulting removes nothing either (CRD defaults
// are pruned, which the apiserver requires of v1 CRDs).
func TestCorpusPruneRemovesNothing(t *testing.T) {
	sets := []struct {
		crds     []string
		examples string
	}{
		{gatewayCRDs, "gateway-api/examples"},
		{prometheusCRDs, "prometheus-operator/example"},
	}
	total := 0
	for _, set := range sets {
		objs := corpusObjects(t, set.crds, set.examples)
		if len(objs) == 0 {
			t.Errorf("%s: no example has a CRD", set.examples)
		}
		total += len(objs)
		// The walk must be able to fail: an unknown spec field is reported.
		probe := deepCopyJSON(objs[0].obj).(map[string]any)
		probe["spec"].(map[string]any)["kdvBogus"] = int64(1)
		if unknown, err := pruning.Apply(probe, objs[0].schema, pruning.ApplyOptions{ReturnUnknownFieldPaths: true}); err != nil || !reflect.DeepEqual(unknown, []string{"spec.kdvBogus"}) {
			t.Errorf("%s: probe got %q, %v", objs[0].file, unknown, err)
		}
		for _, o := range objs {
			name := o.file + " " + o.obj["kind"].(string)
			unknown, err := pruning.Apply(o.obj, o.schema, pruning.ApplyOptions{ReturnUnknownFieldPaths: true})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if len(unknown) > 0 {
				t.Errorf("%s: unknown fields %q", name, unknown)
			}
			compiled := deepCopyJSON(o.obj)
			NewDefaulter(o.schema).Default(compiled)
			Default(o.obj, o.schema)
			if !reflect.DeepEqual(compiled, any(o.obj)) {
				t.Errorf("%s: Defaulter differs from Default", name)
			}
			before := deepCopyJSON(o.obj)
			if p := pruning.Prune(o.obj, o.schema, pruning.Options{IsResourceRoot: true}); len(p) > 0 {
				t.Errorf("%s: pruning after defaulting removed %q", name, p)
			}
			Default(o.obj, o.schema)
			if !reflect.DeepEqual(before, any(o.obj)) {
				t.Errorf("%s: defaulting is not idempotent", name)
			}
		}
	}
	t.Logf("%d custom resources pruned and defaulted", total)
}

// prometheusObject returns the largest Prometheus example of the corpus
// (by JSON size) with its CRD schema.
func prometheusObject(t testing.TB) corpusObject {
	var best corpusObject
	bestSize := 0
	for _, o := range corpusObjects(t, prometheusCRDs, "prometheus-operator/example") {
		if o.obj["kind"] != "Prometheus" {
			continue
		}
		b, _ := utiljson.Marshal(o.obj)
		if len(b) > bestSize {
			best, bestSize = o, len(b)
		}
	}
	if best.obj == nil {
		t.Skip("no Prometheus example in the corpus")
	}
	return best
}

func TestCorpusKinds(t *testing.T) {
	// Guards the corpus walk itself: the Prometheus CRD examples are found.
	objs := corpusObjects(t, prometheusCRDs, "prometheus-operator/example")
	kinds := map[string]bool{}
	for _, o := range objs {
		kinds[o.obj["kind"].(string)] = true
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if !kinds["Prometheus"] || !kinds["ServiceMonitor"] {
		t.Errorf("kinds found: %v", ks)
	}
}

// TestCorpusValidateDefaults: the defaults of every Gateway API and
// Prometheus Operator CRD version are valid, as the apiserver accepted
// these CRDs.
func TestCorpusValidateDefaults(t *testing.T) {
	n := 0
	for _, dirs := range [][]string{gatewayCRDs, prometheusCRDs} {
		for gvk, s := range loadCRDs(t, dirs...) {
			errs, err := ValidateDefaults(context.Background(), field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), s, true, true)
			if err != nil || len(errs) > 0 {
				t.Errorf("%s: %v %v", gvk, errs, err)
			}
			n++
		}
	}
	t.Logf("%d CRD versions", n)
}

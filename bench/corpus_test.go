package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"kdv.dev/resource"
	kdvschema "kdv.dev/schema"
)

// corpusDir is the shared real-world corpus (see its README.md), a sibling
// of the repository.
const corpusDir = "../../shared/corpus"

// crdDirs are the CRDs the object examples are validated against.
var crdDirs = []string{
	"gateway-api/config/crd/experimental",
	"prometheus-operator/example/prometheus-operator-crd-full",
}

// exampleDirs hold the example objects; files under CRD folders are skipped.
var exampleDirs = []string{
	"gateway-api/examples",
	"prometheus-operator/example",
}

// corpusCRD is one CRD document of the corpus.
type corpusCRD struct {
	File string
	JSON []byte // the document as JSON, for both sides
	KDV  *kdvschema.CRD
}

// example is one object document of the corpus.
type example struct {
	Name string // file#index
	Obj  map[string]any
	Kind *kindPair
}

// kindPair is one served group/version/kind compiled on both sides.
type kindPair struct {
	GVK k8sschema.GroupVersionKind
	Ref *APIServer
	KDV *resource.Validator
}

// corpus is everything the differential tests and benchmarks read, loaded
// once.
type corpus struct {
	CRDs     []corpusCRD
	Examples []example
	Kinds    map[k8sschema.GroupVersionKind]*kindPair
}

var (
	corpusOnce sync.Once
	corpusVal  *corpus
	corpusErr  error
)

// loadCorpus loads and compiles the corpus, skipping the test when the
// corpus is absent.
func loadCorpus(tb testing.TB) *corpus {
	tb.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		tb.Skipf("corpus %s absent: %v", corpusDir, err)
	}
	corpusOnce.Do(func() { corpusVal, corpusErr = readCorpus() })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpusVal
}

func readCorpus() (*corpus, error) {
	c := &corpus{Kinds: map[k8sschema.GroupVersionKind]*kindPair{}}
	byGK := map[k8sschema.GroupKind]*corpusCRD{}
	for _, dir := range crdDirs {
		files, err := filepath.Glob(filepath.Join(corpusDir, dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			docs, err := readDocs(f)
			if err != nil {
				return nil, err
			}
			for _, d := range docs {
				if d["kind"] != "CustomResourceDefinition" {
					continue
				}
				j, err := utiljson.Marshal(d)
				if err != nil {
					return nil, err
				}
				k, err := kdvschema.ParseCRD(j)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
				c.CRDs = append(c.CRDs, corpusCRD{File: f, JSON: j, KDV: k})
			}
		}
	}
	for i := range c.CRDs {
		k := c.CRDs[i].KDV
		byGK[k8sschema.GroupKind{Group: k.Spec.Group, Kind: k.Spec.Names.Kind}] = &c.CRDs[i]
	}
	for _, dir := range exampleDirs {
		err := filepath.WalkDir(filepath.Join(corpusDir, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) || strings.Contains(p, "prometheus-operator-crd") {
				return nil
			}
			docs, err := readDocs(p)
			if err != nil {
				return nil // not ours to judge; other tests cover manifests
			}
			for i, obj := range docs {
				apiVersion, _ := obj["apiVersion"].(string)
				kind, _ := obj["kind"].(string)
				gv, err := k8sschema.ParseGroupVersion(apiVersion)
				if err != nil {
					continue
				}
				gvk := gv.WithKind(kind)
				crd := byGK[gvk.GroupKind()]
				if crd == nil {
					continue
				}
				kp, err := c.kind(crd, gvk)
				if err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
				if kp == nil {
					continue
				}
				rel, _ := filepath.Rel(corpusDir, p)
				c.Examples = append(c.Examples, example{Name: fmt.Sprintf("%s#%d", rel, i), Obj: obj, Kind: kp})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// kind compiles gvk on both sides once; nil when the CRD does not serve it.
func (c *corpus) kind(crd *corpusCRD, gvk k8sschema.GroupVersionKind) (*kindPair, error) {
	if kp, ok := c.Kinds[gvk]; ok {
		return kp, nil
	}
	v := crd.KDV.Version(gvk.Version)
	if v == nil {
		c.Kinds[gvk] = nil
		return nil, nil
	}
	ref, err := NewAPIServer(crd.JSON, gvk.Version)
	if err != nil {
		return nil, err
	}
	// The CLI's path: a registry fed the CRD (scope, subresources,
	// preserveUnknownFields come from it).
	reg := resource.NewRegistry(resource.Options{})
	if err := reg.AddCRD(crd.KDV, crd.File); err != nil {
		return nil, err
	}
	kv, err := reg.Validator(gvk)
	if err != nil {
		return nil, err
	}
	kp := &kindPair{GVK: gvk, Ref: ref, KDV: kv}
	c.Kinds[gvk] = kp
	return kp, nil
}

// byKind returns the first example of the given kind.
func (c *corpus) byKind(kind string) *example {
	for i := range c.Examples {
		if c.Examples[i].Kind.GVK.Kind == kind {
			return &c.Examples[i]
		}
	}
	return nil
}

// readDocs reads every YAML document of a file as unstructured JSON values
// (int64 and float64 numbers, as the apiserver's decoder produces).
func readDocs(path string) ([]map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out []map[string]any
	for {
		d, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		j, err := yaml.YAMLToJSON(d)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := utiljson.Unmarshal(j, &m); err != nil {
			return nil, err
		}
		if m != nil {
			out = append(out, m)
		}
	}
}

// verdict is one side's answer on an object, rendered for comparison.
type verdict struct {
	DecodeErr string
	Unknown   []string
	Errors    []string
}

func (v verdict) String() string {
	var b strings.Builder
	if v.DecodeErr != "" {
		fmt.Fprintf(&b, "  decode error: %s\n", v.DecodeErr)
	}
	for _, u := range v.Unknown {
		fmt.Fprintf(&b, "  %s\n", u)
	}
	for _, e := range v.Errors {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	if b.Len() == 0 {
		return "  (valid)\n"
	}
	return b.String()
}

func (v verdict) equal(o verdict) bool {
	return v.DecodeErr == o.DecodeErr && equalStrings(v.Unknown, o.Unknown) && equalStrings(canonical(v.Errors), canonical(o.Errors))
}

// canonical sorts runs of consecutive errors on the same metadata field:
// the apiserver validates labels, annotations and finalizers by ranging over
// Go maps, so their relative order differs from run to run.
func canonical(errs []string) []string {
	out := append([]string(nil), errs...)
	fieldOf := func(e string) string {
		if i := strings.Index(e, ": "); i >= 0 {
			return e[:i]
		}
		return e
	}
	for i := 0; i < len(out); {
		j := i + 1
		f := fieldOf(out[i])
		for j < len(out) && fieldOf(out[j]) == f {
			j++
		}
		if strings.HasPrefix(f, "metadata.") {
			sort.Strings(out[i:j])
		}
		i = j
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// refVerdict runs the apiserver's decode and validation on copies of obj
// and old (old == nil: create). Updates carry a resourceVersion, as every
// real update does.
func refVerdict(kp *kindPair, obj, old map[string]any) verdict {
	obj = runtime.DeepCopyJSON(obj)
	var v verdict
	unknown, err := kp.Ref.Decode(obj)
	if err != nil {
		v.DecodeErr = "malformed"
		return v
	}
	for _, u := range unknown {
		// As schemaCoercingDecoder.Decode renders them (%s, not %q).
		v.Unknown = append(v.Unknown, fmt.Sprintf(`unknown field "%s"`, u))
	}
	if old != nil {
		old = runtime.DeepCopyJSON(old)
		if _, err := kp.Ref.Decode(old); err != nil {
			old = nil
		}
		setResourceVersion(obj)
		if old != nil {
			setResourceVersion(old)
		}
	}
	for _, e := range kp.Ref.Validate(obj, old) {
		v.Errors = append(v.Errors, e.Error())
	}
	return v
}

// kdvVerdict runs kdv's pipeline (kdv.dev/resource) on obj and old.
func kdvVerdict(kp *kindPair, obj, old map[string]any) verdict {
	out := kp.KDV.Validate(context.Background(), obj, old)
	var v verdict
	if out.DecodeErr != nil {
		v.DecodeErr = "malformed"
		return v
	}
	for _, u := range out.UnknownFields {
		// pruning.Apply returns the apiserver's strict-decoding messages;
		// resource documents bare paths. Compare the rendered message.
		if !strings.HasPrefix(u, "unknown field ") {
			u = fmt.Sprintf(`unknown field "%s"`, u)
		}
		v.Unknown = append(v.Unknown, u)
	}
	for _, e := range out.Errors {
		v.Errors = append(v.Errors, e.Error())
	}
	return v
}

func setResourceVersion(obj map[string]any) {
	if obj["metadata"] == nil {
		obj["metadata"] = map[string]any{}
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		if _, ok := md["resourceVersion"]; !ok {
			md["resourceVersion"] = "1"
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

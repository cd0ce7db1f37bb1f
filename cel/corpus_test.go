package cel

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"kdv.dev/schema"
)

const corpusRoot = "../../shared/corpus"

var docSeparator = regexp.MustCompile(`(?m)^---\s*$`)

// splitDocs splits a multi-document YAML file on --- lines.
func splitDocs(b []byte) [][]byte {
	var out [][]byte
	for _, d := range docSeparator.Split(string(b), -1) {
		if strings.TrimSpace(d) != "" {
			out = append(out, []byte(d))
		}
	}
	return out
}

// decodeYAML decodes a YAML document to unstructured form with whole
// numbers as int64, as the apiserver's decoder does.
func decodeYAML(t testing.TB, doc []byte) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(j, &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

type corpusCRD struct {
	file string
	crd  *schema.CRD
}

// corpusCRDs returns every CRD below dir of the corpus, skipping the test
// when the corpus is absent.
func corpusCRDs(t testing.TB, dirs ...string) []corpusCRD {
	t.Helper()
	if _, err := os.Stat(corpusRoot); err != nil {
		t.Skip("shared corpus not present")
	}
	var out []corpusCRD
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(corpusRoot, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, doc := range splitDocs(b) {
				if !bytes.Contains(doc, []byte("kind: CustomResourceDefinition")) {
					continue
				}
				crd, err := schema.ParseCRD(doc)
				if err != nil {
					if strings.Contains(err.Error(), "not a CustomResourceDefinition") {
						continue // e.g. a document that only mentions the kind
					}
					t.Errorf("%s: %v", path, err)
					continue
				}
				out = append(out, corpusCRD{file: path, crd: crd})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func countRules(s *schema.Structural) int {
	if s == nil {
		return 0
	}
	n := len(s.XValidations) + countRules(s.Items)
	if s.AdditionalProperties != nil {
		n += countRules(s.AdditionalProperties.Structural)
	}
	for _, p := range s.Properties {
		n += countRules(&p)
	}
	return n
}

// TestCorpusRulesCompile: every rule of every CRD version of the corpus
// (Gateway API standard and experimental, Prometheus Operator, Cluster API)
// compiles within the apiserver's cost limits, as these CRDs are accepted by
// real apiservers.
func TestCorpusRulesCompile(t *testing.T) {
	crds := corpusCRDs(t, "gateway-api/config/crd", "prometheus-operator", "cluster-api")
	if len(crds) == 0 {
		t.Fatal("no CRDs found in corpus")
	}
	rules, versions := 0, 0
	for _, c := range crds {
		for i, v := range c.crd.Spec.Versions {
			s, err := v.Structural()
			if err != nil {
				t.Errorf("%s %s: %v", c.file, v.Name, err)
				continue
			}
			versions++
			rules += countRules(s)
			fp := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
			if errs := CheckSchema(s, fp, Options{}); len(errs) > 0 {
				t.Errorf("%s %s: %v", c.file, c.crd.Metadata.Name, errs.ToAggregate())
			}
		}
	}
	t.Logf("compiled %d rules in %d versions of %d CRDs", rules, versions, len(crds))
	if rules < 100 {
		t.Errorf("only %d rules found; corpus changed?", rules)
	}
}

type gvk struct{ group, version, kind string }

// experimentalSchemas returns the Gateway API experimental CRD schemas by
// group/version/kind.
func experimentalSchemas(t testing.TB) map[gvk]*schema.Structural {
	t.Helper()
	out := map[gvk]*schema.Structural{}
	for _, c := range corpusCRDs(t, "gateway-api/config/crd/experimental") {
		for _, v := range c.crd.Spec.Versions {
			s, err := v.Structural()
			if err != nil {
				t.Fatal(err)
			}
			out[gvk{c.crd.Spec.Group, v.Name, c.crd.Spec.Names.Kind}] = s
		}
	}
	return out
}

func gvkOf(obj map[string]any) gvk {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version, ok := strings.Cut(av, "/")
	if !ok {
		group, version = "", av
	}
	return gvk{group, version, kind}
}

type exampleDoc struct {
	name string
	obj  map[string]any
}

func gatewayExamples(t testing.TB) []exampleDoc {
	t.Helper()
	var out []exampleDoc
	root := filepath.Join(corpusRoot, "gateway-api/examples")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, doc := range splitDocs(b) {
			obj := decodeYAML(t, doc)
			if obj != nil {
				out = append(out, exampleDoc{name: path + "#" + string(rune('0'+i)), obj: obj})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// TestGatewayExamplesPass: every Gateway API example passes the CEL rules of
// its experimental CRD, after defaulting (the apiserver defaults before
// validating), on create and as an update from itself.
func TestGatewayExamplesPass(t *testing.T) {
	schemas := experimentalSchemas(t)
	validators := map[gvk]*Validator{}
	checked := 0
	for _, ex := range gatewayExamples(t) {
		k := gvkOf(ex.obj)
		s, ok := schemas[k]
		if !ok {
			continue // built-in kinds (Service, Deployment, ...)
		}
		v := validators[k]
		if v == nil {
			var errs field.ErrorList
			v, errs = NewValidator(s, true, Options{SkipCheck: true})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			validators[k] = v
		}
		applyDefaults(ex.obj, s)
		errs, rem := v.Validate(context.Background(), nil, ex.obj, nil, RuntimeCELCostBudget)
		if len(errs) > 0 {
			t.Errorf("%s (%v): %v", ex.name, k, errs.ToAggregate())
		}
		if rem <= 0 || rem > RuntimeCELCostBudget {
			t.Errorf("%s: remaining budget %d", ex.name, rem)
		}
		if errs, _ := v.Validate(context.Background(), nil, ex.obj, ex.obj, RuntimeCELCostBudget); len(errs) > 0 {
			t.Errorf("%s update: %v", ex.name, errs.ToAggregate())
		}
		checked++
	}
	t.Logf("validated %d Gateway API example objects", checked)
	if checked < 40 {
		t.Errorf("only %d examples validated", checked)
	}
}

// applyDefaults is a minimal structural defaulting for the examples (the
// apiserver defaults before validating; kdv.dev/defaulting imports this
// package, so tests cannot use it): missing properties with a default get
// a deep copy of it, recursively through properties, additionalProperties
// and items, as apiextensions-apiserver schema/defaulting.Default.
func applyDefaults(x any, s *schema.Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, prop := range s.Properties {
			if _, found := x[k]; !found && prop.Default.Object != nil {
				x[k] = deepCopy(prop.Default.Object)
			}
		}
		for k, v := range x {
			if prop, ok := s.Properties[k]; ok {
				applyDefaults(v, &prop)
			} else if s.AdditionalProperties != nil {
				applyDefaults(v, s.AdditionalProperties.Structural)
			}
		}
	case []any:
		for _, v := range x {
			applyDefaults(v, s.Items)
		}
	}
}

func deepCopy(x any) any {
	switch x := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = deepCopy(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = deepCopy(v)
		}
		return out
	}
	return x
}

// TestGatewayHTTPRouteInvalid: real HTTPRoute rules reject a bad path with
// their messages at the apiserver's paths, and an unchanged bad value is
// ratcheted on update.
func TestGatewayHTTPRouteInvalid(t *testing.T) {
	s := experimentalSchemas(t)[gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}]
	v, errs := NewValidator(s, true, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	obj := decodeYAML(t, []byte(`
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}]
  rules:
  - matches:
    - path: {type: PathPrefix, value: "foo//bar"}
`))
	applyDefaults(obj, s)
	errs, _ = v.Validate(context.Background(), nil, obj, nil, RuntimeCELCostBudget)
	want := []string{
		"spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
		"spec.rules[0].matches[0].path: Invalid value: must not contain '//' when type one of ['Exact', 'PathPrefix']",
	}
	if got := errStrings(errs); !equalStrings(got, sorted(want)) {
		t.Errorf("create:\n got %q\nwant %q", got, sorted(want))
	}
	errs, warnings, _ := v.ValidateWithWarnings(context.Background(), nil, obj, deepCopy(obj), RuntimeCELCostBudget)
	if len(errs) != 0 || !equalStrings(sorted(warnings), sorted(want)) {
		t.Errorf("unchanged update: errors %v, warnings %q", errs, warnings)
	}
}

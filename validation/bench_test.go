package validation_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"kdv.dev/schema"
	"kdv.dev/validation"
)

// benchCases are real resources from the corpus with their CRDs.
var benchCases = []struct {
	name, crd, file string
	doc             int
}{
	{"HTTPRoute", "gateway-api/config/crd/standard/gateway.networking.k8s.io_httproutes.yaml", "gateway-api/examples/standard/http-redirect.yaml", 4},
	{"Gateway", "gateway-api/config/crd/standard/gateway.networking.k8s.io_gateways.yaml", "gateway-api/examples/standard/http-redirect.yaml", 2},
	{"Prometheus", "prometheus-operator/example/prometheus-operator-crd-full/monitoring.coreos.com_prometheuses.yaml", "prometheus-operator/example/user-guides/alerting/prometheus-example-rule-namespace-selector.yaml", 0},
	{"ServiceMonitor", "prometheus-operator/example/prometheus-operator-crd-full/monitoring.coreos.com_servicemonitors.yaml", "prometheus-operator/example/rbac/prometheus-operator/prometheus-operator-service-monitor.yaml", 0},
}

// benchSetup compiles the CRD version of the object and returns the
// object pruned and defaulted, as the apiserver validates it.
func benchSetup(b *testing.B, crdFile, objFile string, doc int, skipCEL bool) (*validation.Validator, map[string]any) {
	b.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		b.Skip("corpus not available")
	}
	docs := yamlDocs(b, filepath.Join(corpusDir, objFile))
	obj := decode(b, docs[doc])
	crd, err := schema.ParseCRD(yamlDocs(b, filepath.Join(corpusDir, crdFile))[0])
	if err != nil {
		b.Fatal(err)
	}
	for i := range crd.Spec.Versions {
		ver := &crd.Spec.Versions[i]
		if crd.Spec.Group+"/"+ver.Name != obj["apiVersion"] {
			continue
		}
		s, err := ver.Structural()
		if err != nil {
			b.Fatal(err)
		}
		corpusEntry{s: s}.prepare(b, obj)
		v, err := validation.New(s, validation.Options{IsResourceRoot: true, Kind: crd.Spec.Names.Kind, APIVersion: crd.Spec.Group + "/" + ver.Name, IgnoreResourceVersion: true, SkipCEL: skipCEL})
		if err != nil {
			b.Fatal(err)
		}
		if errs := v.Validate(context.Background(), obj, nil); len(errs) > 0 {
			b.Fatalf("benchmark object invalid: %v", errs)
		}
		return v, obj
	}
	b.Fatalf("no version of %s for %v", crdFile, obj["apiVersion"])
	return nil, nil
}

// BenchmarkValidate measures create and update validation of real custom
// resources, with CEL rules ("full") and without ("schema": ObjectMeta,
// OpenAPI value validation, list types).
func BenchmarkValidate(b *testing.B) {
	ctx := context.Background()
	for _, bc := range benchCases {
		for _, mode := range []string{"schema", "full"} {
			b.Run(bc.name+"/"+mode, func(b *testing.B) {
				v, obj := benchSetup(b, bc.crd, bc.file, bc.doc, mode == "schema")
				old := deepCopyJSON(obj)
				b.Run("create", func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						_ = v.Validate(ctx, obj, nil)
					}
				})
				b.Run("update", func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						_ = v.Validate(ctx, obj, old)
					}
				})
			})
		}
	}
}

func deepCopyJSON(x any) any {
	switch t := x.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			m[k] = deepCopyJSON(v)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, v := range t {
			l[i] = deepCopyJSON(v)
		}
		return l
	}
	return x
}

package kdv_test

import (
	"os"
	"testing"

	"kdv.dev/kdv"
)

// corpus is the shared collection of real third-party manifests, present
// in kdv's development checkout; benchmarks on it are skipped elsewhere.
const corpus = "../../shared/corpus/gateway-api"

// httpRoute is the HTTPRoute of the Gateway API's examples/standard/basic-http.yaml.
var httpRoute = map[string]any{
	"apiVersion": "gateway.networking.k8s.io/v1",
	"kind":       "HTTPRoute",
	"metadata":   map[string]any{"name": "http-app-1"},
	"spec": map[string]any{
		"parentRefs": []any{map[string]any{"name": "my-gateway"}},
		"hostnames":  []any{"foo.com"},
		"rules": []any{
			map[string]any{
				"matches":     []any{map[string]any{"path": map[string]any{"type": "PathPrefix", "value": "/bar"}}},
				"backendRefs": []any{map[string]any{"name": "my-service1", "port": int64(8080)}},
			},
			map[string]any{
				"matches": []any{map[string]any{
					"headers":     []any{map[string]any{"type": "Exact", "name": "magic", "value": "foo"}},
					"queryParams": []any{map[string]any{"type": "Exact", "name": "great", "value": "example"}},
					"path":        map[string]any{"type": "PathPrefix", "value": "/some/thing"},
					"method":      "GET",
				}},
				"backendRefs": []any{map[string]any{"name": "my-service2", "port": int64(8080)}},
			},
		},
	},
}

func benchmarkValidate(b *testing.B, v *kdv.Validator, obj any) {
	b.Helper()
	r, err := v.Validate(ctx, obj) // compiles the kind: not measured
	if err != nil || !r.Valid() {
		b.Fatal(err, r.Err())
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Validate(ctx, obj); err != nil {
			b.Fatal(err)
		}
	}
}

// One HTTPRoute against the Gateway API's standard HTTPRoute CRD (CEL
// rules, list-map keys, defaults).
func BenchmarkValidateHTTPRoute(b *testing.B) {
	crd := corpus + "/config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"
	if _, err := os.Stat(crd); err != nil {
		b.Skip("shared corpus not present")
	}
	benchmarkValidate(b, newValidator(b, kdv.WithCRDFiles(crd)), httpRoute)
}

func BenchmarkValidateGatewayClass(b *testing.B) {
	benchmarkValidate(b, newValidator(b, kdv.WithCRDFiles(gatewayClassCRD)), gatewayClass("example.com/gateway", nil))
}

// A typed Deployment (converted to unstructured on each call, as a test
// would pass it).
func BenchmarkValidateDeploymentTyped(b *testing.B) {
	benchmarkValidate(b, newValidator(b), deployment())
}

// Building a Validator with the 11 standard Gateway API CRDs, checking
// them as the apiserver does on create, and without the checks.
func BenchmarkNewGatewayAPI(b *testing.B) {
	dir := corpus + "/config/crd/standard"
	if _, err := os.Stat(dir); err != nil {
		b.Skip("shared corpus not present")
	}
	for _, bc := range []struct {
		name string
		opts []kdv.Option
	}{
		{"checked", []kdv.Option{kdv.WithCRDFiles(dir)}},
		{"unchecked", []kdv.Option{kdv.WithCRDFiles(dir), kdv.WithoutCRDChecks()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				newValidator(b, bc.opts...)
			}
		})
	}
}

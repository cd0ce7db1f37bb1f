package cel

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// benchObjects returns the Gateway API example objects of one kind with
// their experimental CRD schema.
func benchObjects(b *testing.B, kind string) (*Validator, []map[string]any) {
	b.Helper()
	schemas := experimentalSchemas(b)
	var v *Validator
	var objs []map[string]any
	for _, ex := range gatewayExamples(b) {
		k := gvkOf(ex.obj)
		if k.kind != kind || k.version != "v1" {
			continue
		}
		s := schemas[k]
		if v == nil {
			v, _ = NewValidator(s, true, Options{SkipCheck: true})
		}
		applyDefaults(ex.obj, s)
		objs = append(objs, ex.obj)
	}
	if len(objs) == 0 {
		b.Skip("no examples")
	}
	return v, objs
}

func benchValidate(b *testing.B, kind string, update, fast bool) {
	v, objs := benchObjects(b, kind)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o := objs[i%len(objs)]
		var old any
		if update {
			old = o
		}
		if fast {
			if errs, _ := v.ValidateObject(ctx, nil, o, old, RuntimeCELCostBudget); len(errs) > 0 {
				b.Fatal(errs)
			}
		} else if errs, _ := v.Validate(ctx, nil, o, old, RuntimeCELCostBudget); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkValidateHTTPRoute evaluates the experimental HTTPRoute CRD's
// rules on the Gateway API HTTPRoute examples (create), with cost tracking
// (Validate).
func BenchmarkValidateHTTPRoute(b *testing.B) { benchValidate(b, "HTTPRoute", false, false) }

// BenchmarkValidateHTTPRouteUpdate is the same as an update from an equal
// object (transition rules and ratcheting correlation).
func BenchmarkValidateHTTPRouteUpdate(b *testing.B) { benchValidate(b, "HTTPRoute", true, false) }

// BenchmarkValidateGateway evaluates the experimental Gateway CRD's rules
// on the Gateway examples.
func BenchmarkValidateGateway(b *testing.B) { benchValidate(b, "Gateway", false, false) }

// BenchmarkValidateObjectHTTPRoute is BenchmarkValidateHTTPRoute through
// ValidateObject (the untracked fast path).
func BenchmarkValidateObjectHTTPRoute(b *testing.B) { benchValidate(b, "HTTPRoute", false, true) }

// BenchmarkValidateObjectHTTPRouteUpdate is BenchmarkValidateHTTPRouteUpdate
// through ValidateObject.
func BenchmarkValidateObjectHTTPRouteUpdate(b *testing.B) { benchValidate(b, "HTTPRoute", true, true) }

// BenchmarkValidateObjectGateway is BenchmarkValidateGateway through
// ValidateObject.
func BenchmarkValidateObjectGateway(b *testing.B) { benchValidate(b, "Gateway", false, true) }

// BenchmarkNewValidatorHTTPRoute builds the validator of the experimental
// HTTPRoute v1 schema with SkipCheck, which compiles no rule yet.
func BenchmarkNewValidatorHTTPRoute(b *testing.B) {
	s := experimentalSchemas(b)[gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NewValidator(s, true, Options{SkipCheck: true})
	}
}

// BenchmarkNewValidatorHTTPRouteEager compiles every rule of the
// experimental HTTPRoute v1 schema up front (what NewValidator with
// SkipCheck did before compiling lazily).
func BenchmarkNewValidatorHTTPRouteEager(b *testing.B) {
	s := experimentalSchemas(b)[gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		newValidator(s, true, Options{}, false)
	}
}

// benchFirstDocument builds a validator and validates one HTTPRoute
// example with it: the start-up cost of a one-document run.
func benchFirstDocument(b *testing.B, lazy bool) {
	s := experimentalSchemas(b)[gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}]
	_, objs := benchObjects(b, "HTTPRoute")
	obj := objs[0]
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	var compiled int64
	for i := 0; i < b.N; i++ {
		v := newValidator(s, true, Options{}, lazy)
		if errs, _ := v.ValidateObject(ctx, nil, obj, nil, RuntimeCELCostBudget); len(errs) > 0 {
			b.Fatal(errs)
		}
		compiled = v.builder.compiles.Load()
	}
	b.ReportMetric(float64(compiled), "nodes-compiled")
}

// BenchmarkFirstDocumentHTTPRoute builds the lazily compiling HTTPRoute
// validator and validates one example (compiling the rules it reaches).
func BenchmarkFirstDocumentHTTPRoute(b *testing.B) { benchFirstDocument(b, true) }

// BenchmarkFirstDocumentHTTPRouteEager is BenchmarkFirstDocumentHTTPRoute
// with every rule compiled up front.
func BenchmarkFirstDocumentHTTPRouteEager(b *testing.B) { benchFirstDocument(b, false) }

// BenchmarkCheckSchemaHTTPRoute runs the CRD-time checks (compile and cost
// estimation) of the experimental HTTPRoute v1 schema.
func BenchmarkCheckSchemaHTTPRoute(b *testing.B) {
	s := experimentalSchemas(b)[gvk{"gateway.networking.k8s.io", "v1", "HTTPRoute"}]
	fp := field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := CheckSchema(s, fp, Options{}); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

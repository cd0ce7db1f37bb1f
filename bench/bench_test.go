package bench

import (
	"context"
	"testing"

	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apiserver/pkg/endpoints/request"

	"kdv.dev/defaulting"
	"kdv.dev/pruning"
	"kdv.dev/validation"
)

// benchKinds are the kinds benchmarked, each with its largest corpus
// example.
var benchKinds = []string{"HTTPRoute", "Gateway", "Prometheus", "ServiceMonitor"}

// benchObject is one decoded (pruned, defaulted) example and its schemas.
type benchObject struct {
	Kind string
	Pair *kindPair
	Obj  map[string]any // after the apiserver's decode steps
	Raw  map[string]any // as written
}

func benchObjects(b *testing.B) []benchObject {
	c := loadCorpus(b)
	var out []benchObject
	for _, k := range benchKinds {
		var best *example
		size := 0
		for i := range c.Examples {
			ex := &c.Examples[i]
			if ex.Kind.GVK.Kind != k {
				continue
			}
			j, _ := utiljson.Marshal(ex.Obj)
			if len(j) > size {
				best, size = ex, len(j)
			}
		}
		if best == nil {
			b.Fatalf("no %s example in the corpus", k)
		}
		obj := runtime.DeepCopyJSON(best.Obj)
		if _, err := best.Kind.Ref.Decode(obj); err != nil {
			b.Fatal(err)
		}
		defaultNamespace(obj)
		if errs := best.Kind.Ref.Validate(runtime.DeepCopyJSON(obj), nil); len(errs) > 0 {
			b.Fatalf("%s: benchmark object is invalid: %v", best.Name, errs)
		}
		out = append(out, benchObject{Kind: k, Pair: best.Kind, Obj: obj, Raw: best.Obj})
	}
	return out
}

// kdvValidator compiles kdv's validator for o's kind: value-only (no CEL,
// not a resource root, as ValidateCustomResource) or full.
func kdvValidator(b *testing.B, o benchObject, full bool) *validation.Validator {
	s := o.Pair.KDV.Schema().Structural
	ns := o.Pair.Ref.Namespaced
	opts := validation.Options{SkipCEL: true}
	if full {
		opts = validation.Options{
			IsResourceRoot:        true,
			Kind:                  o.Pair.GVK.Kind,
			APIVersion:            o.Pair.GVK.GroupVersion().String(),
			Namespaced:            &ns,
			IgnoreResourceVersion: true,
		}
	}
	v, err := validation.New(s, opts)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// BenchmarkValueValidation compares OpenAPI value validation alone:
// kdv's validator with SkipCEL against the apiserver's
// ValidateCustomResource / ValidateCustomResourceUpdate (ratcheting), on
// objects already pruned and defaulted. Updates leave the object unchanged.
func BenchmarkValueValidation(b *testing.B) {
	ctx := context.Background()
	for _, o := range benchObjects(b) {
		kv := kdvValidator(b, o, false)
		old := runtime.DeepCopyJSON(o.Obj)
		sv := o.Pair.Ref.Validator
		if errs := kv.Validate(ctx, o.Obj, nil); len(errs) > 0 {
			b.Fatalf("%s: kdv rejects the benchmark object: %v", o.Kind, errs)
		}
		b.Run(o.Kind+"/create/kdv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				kv.Validate(ctx, o.Obj, nil)
			}
		})
		b.Run(o.Kind+"/create/apiserver", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				apiservervalidation.ValidateCustomResource(nil, o.Obj, sv)
			}
		})
		b.Run(o.Kind+"/update/kdv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				kv.Validate(ctx, o.Obj, old)
			}
		})
		b.Run(o.Kind+"/update/apiserver", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				apiservervalidation.ValidateCustomResourceUpdate(nil, o.Obj, old, sv)
			}
		})
	}
}

// BenchmarkValidate compares full validation (TypeMeta, ObjectMeta, value
// validation, embedded resources, list types, CEL rules): kdv's validator
// against the apiserver's customresource strategy Validate / ValidateUpdate.
func BenchmarkValidate(b *testing.B) {
	for _, o := range benchObjects(b) {
		kv := kdvValidator(b, o, true)
		old := runtime.DeepCopyJSON(o.Obj)
		ctx := context.Background()
		if o.Pair.Ref.Namespaced {
			ctx = request.WithNamespace(ctx, defaultNamespace(o.Obj))
		}
		st := o.Pair.Ref.strategy
		u := &unstructured.Unstructured{Object: o.Obj}
		uold := &unstructured.Unstructured{Object: old}
		if errs := kv.Validate(ctx, o.Obj, nil); len(errs) > 0 {
			b.Fatalf("%s: kdv rejects the benchmark object: %v", o.Kind, errs)
		}
		b.Run(o.Kind+"/create/kdv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				kv.Validate(ctx, o.Obj, nil)
			}
		})
		b.Run(o.Kind+"/create/apiserver", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st.Validate(ctx, u)
			}
		})
		b.Run(o.Kind+"/update/kdv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				kv.Validate(ctx, o.Obj, old)
			}
		})
		b.Run(o.Kind+"/update/apiserver", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st.ValidateUpdate(ctx, u, uold)
			}
		})
	}
}

// BenchmarkDecode compares the decode-time steps (ObjectMeta decoding,
// pruning with unknown-field paths, null pruning, coercion, defaulting) on
// the Prometheus example as written, including one deep copy per iteration
// on both sides.
func BenchmarkDecode(b *testing.B) {
	for _, o := range benchObjects(b) {
		if o.Kind != "Prometheus" {
			continue
		}
		s := o.Pair.KDV.Schema().Structural
		b.Run(o.Kind+"/kdv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				obj := runtime.DeepCopyJSON(o.Raw)
				if _, err := pruning.Apply(obj, s, pruning.ApplyOptions{ReturnUnknownFieldPaths: true}); err != nil {
					b.Fatal(err)
				}
				defaulting.Default(obj, s)
			}
		})
		b.Run(o.Kind+"/apiserver", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				obj := runtime.DeepCopyJSON(o.Raw)
				if _, err := o.Pair.Ref.Decode(obj); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

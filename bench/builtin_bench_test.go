package bench

import (
	"context"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"kdv.dev/manifest"
)

// BenchmarkBuiltin compares validating a built-in object with every rule:
// kdv's validator (typed-decoding check, prune, strip-zero and defaults,
// then every schema rule: value validations, formats, unique keys, CEL)
// against k8s.io/kubernetes v1.37.2 on the same object decoded once into
// its internal Go type:
//
//   - handwritten: the registry strategy's Validate (the hand-written
//     validation, with the validation options the strategy computes);
//   - apiserver: rest.ValidateCreate (the generic ObjectMeta checks, the
//     strategy's Validate and the declarative validation of validation-gen,
//     as the apiserver runs them).
//
// kdv's figure includes work the others skip (the decode check, pruning
// and defaulting, and for kdv, not kdv-in-place, a deep copy of the
// object), so the ratio is conservative.
// Run: cd bench && go test -run '^$' -bench Builtin -benchmem .
func BenchmarkBuiltin(b *testing.B) {
	for _, name := range []string{"pod", "deployment"} {
		doc, err := os.ReadFile("testdata/bench/" + name + ".yaml")
		if err != nil {
			b.Fatal(err)
		}
		k, gvk, j, err := lookupBuiltin(doc)
		if err != nil {
			b.Fatal(err)
		}
		obj, err := decodeBuiltin(j, gvk)
		if err != nil {
			b.Fatal(err)
		}
		ctx := request.WithNamespace(context.Background(), "shop")
		ctx = request.WithRequestInfo(ctx, &request.RequestInfo{IsResourceRequest: true, Verb: "create", APIGroup: gvk.Group, APIVersion: gvk.Version, Resource: k.resource, Namespace: "shop"})
		k.strategy.PrepareForCreate(ctx, obj)
		if errs := rest.ValidateCreate(ctx, obj, k.strategy); len(errs) > 0 {
			b.Fatalf("%s: the apiserver rejects the benchmark object: %v", name, errs)
		}
		reg, err := kdvRegistry()
		if err != nil {
			b.Fatal(err)
		}
		docs := manifest.Parse(name+".yaml", doc, manifest.Options{})
		v, err := reg.Validator(docs[0].GVK())
		if err != nil {
			b.Fatal(err)
		}
		u := docs[0].Object
		if out := v.Validate(ctx, u, nil); out.Invalid() {
			b.Fatalf("%s: kdv rejects the benchmark object: %v %v", name, out.Errors, out.DecodeError)
		}
		b.Run(gvk.Kind+"/kdv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.Validate(ctx, u, nil)
			}
		})
		// kdv on an object it may change, as the CLI validates the
		// objects it decodes (ValidateInPlace): the copies are made with
		// the timer stopped, a batch at a time, as the hand-written
		// validation is given an object decoded before its timer.
		b.Run(gvk.Kind+"/kdv-in-place", func(b *testing.B) {
			b.ReportAllocs()
			const batch = 256
			copies := make([]map[string]any, batch)
			for i := 0; i < b.N; i++ {
				if i%batch == 0 {
					b.StopTimer()
					for j := range copies {
						copies[j] = runtime.DeepCopyJSON(u)
					}
					b.StartTimer()
				}
				v.ValidateInPlace(ctx, copies[i%batch], nil)
			}
		})
		b.Run(gvk.Kind+"/handwritten", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				k.strategy.Validate(ctx, obj)
			}
		})
		b.Run(gvk.Kind+"/apiserver", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rest.ValidateCreate(ctx, obj, k.strategy)
			}
		})
	}
}

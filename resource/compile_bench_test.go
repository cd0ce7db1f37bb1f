package resource

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// BenchmarkCompileBuiltin measures compiling the validator of a built-in
// kind from its (already looked up) schema: the start-up cost a run pays
// once per kind, before its first document.
// Run: go test -run '^$' -bench CompileBuiltin -benchmem ./resource/
func BenchmarkCompileBuiltin(b *testing.B) {
	reg := NewRegistry(Options{})
	if err := UseBuiltin(reg, 0); err != nil {
		b.Fatal(err)
	}
	for _, gvk := range []schema.GroupVersionKind{{Version: "v1", Kind: "Pod"}, {Group: "apps", Version: "v1", Kind: "Deployment"}, {Group: "apps", Version: "v1", Kind: "StatefulSet"}} {
		s, found, err := reg.fallback(gvk)
		if err != nil || !found {
			b.Fatal(gvk, found, err)
		}
		b.Run(gvk.Kind, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(s, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

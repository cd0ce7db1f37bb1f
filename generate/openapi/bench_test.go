package openapi

import (
	"testing"

	"kdv.dev/idl"
)

// BenchmarkLoadK8sAPI measures idl.Load of all of k8s.io/api.
func BenchmarkLoadK8sAPI(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := idl.Load(idl.Options{}, "k8s.io/api/..."); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateK8sAPI measures Generate on an already loaded k8s.io/api.
func BenchmarkGenerateK8sAPI(b *testing.B) {
	u, err := idl.Load(idl.Options{}, "k8s.io/api/...")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Generate(u, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

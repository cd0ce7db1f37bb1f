package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// largestCorpusCRD returns the biggest corpus CRD document.
func largestCorpusCRD(b *testing.B) []byte {
	var best []byte
	for _, doc := range corpusCRDs(b) {
		if len(doc) > len(best) {
			best = doc
		}
	}
	return best
}

func BenchmarkParseCRD(b *testing.B) {
	doc := largestCorpusCRD(b)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := ParseCRD(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	c, err := ParseCRD(largestCorpusCRD(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if errs, _ := Check(c, CheckOptions{}); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func BenchmarkOpenAPIDocumentPod(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(k8sOpenAPIDir(b), "api__v1_openapi.json"))
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d, err := LoadOpenAPIDocument("api__v1_openapi.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Schema("io.k8s.api.core.v1.Pod"); err != nil {
			b.Fatal(err)
		}
	}
}

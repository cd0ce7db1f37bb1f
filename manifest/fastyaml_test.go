package manifest

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kdv.dev/manifest/internal/fastyaml"
	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// slowYAML is the apiserver's strict YAML decoding, which is decodeYAML without the fast path
// wherever it succeeds (they differ on repeated keys only: strict decoding rejects them,
// decodeYAML keeps the last value, and the fast path must not take them at all).
func slowYAML(raw []byte) (any, error) {
	j, err := sigsyaml.YAMLToJSONStrict(raw)
	if err != nil {
		return nil, err
	}
	var v any
	err = kjson.UnmarshalCaseSensitivePreserveInts(j, &v)
	return v, err
}

// yamlChunks returns the YAML documents (with content) of every .yaml and .yml file under
// the roots that exist, split as Parse splits them.
func yamlChunks(t testing.TB, roots ...string) (chunks []chunk, names []string) {
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			split(data, func(c chunk) bool {
				if !c.json && c.err == "" && firstContentLine(c) != 0 {
					chunks = append(chunks, c)
					names = append(names, p)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return chunks, names
}

// TestFastYAMLCorpus decodes every YAML document of the shared corpus and the examples both
// ways: wherever the fast path answers, its value must be the slow path's, and it must answer
// for nearly all of them.
func TestFastYAMLCorpus(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("corpus not present")
	}
	chunks, names := yamlChunks(t, corpus, filepath.Join("..", "examples"))
	fast, fastBytes, total := 0, 0, 0
	for i, c := range chunks {
		total += len(c.raw)
		got, ok := fastyaml.Decode(c.raw)
		want, err := slowYAML(c.raw)
		if !ok {
			if testing.Verbose() && err == nil {
				t.Logf("slow path: %s:%d", names[i], c.line)
			}
			continue
		}
		fast++
		fastBytes += len(c.raw)
		if err != nil {
			t.Errorf("%s:%d: fast path decodes a document the slow path rejects: %v", names[i], c.line, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:%d: fast path differs from the slow path", names[i], c.line)
		}
	}
	share := float64(fast) / float64(len(chunks))
	t.Logf("fast path: %d of %d documents (%.1f%%), %.1f%% of %d bytes", fast, len(chunks), 100*share, 100*float64(fastBytes)/float64(total), total)
	if share < 0.9 {
		t.Errorf("fast path handles only %.1f%% of the corpus documents, want at least 90%%", 100*share)
	}
}

// BenchmarkDecodeYAML decodes the documents of the Gateway API examples and of its largest
// CRD (HTTPRoute, experimental channel) with the full decoder ("slow") and with the fast
// path that decodeYAML takes first, falling back to the full decoder ("fast").
func BenchmarkDecodeYAML(b *testing.B) {
	gw := filepath.Join("..", "..", "shared", "corpus", "gateway-api")
	if _, err := os.Stat(gw); err != nil {
		b.Skip("corpus not present")
	}
	examples, _ := yamlChunks(b, filepath.Join(gw, "examples"))
	crd, _ := yamlChunks(b, filepath.Join(gw, "config", "crd", "experimental", "gateway.networking.k8s.io_httproutes.yaml"))
	for _, set := range []struct {
		name   string
		chunks []chunk
	}{{"examples", examples}, {"httproute-crd", crd}} {
		size := 0
		for _, c := range set.chunks {
			size += len(c.raw)
		}
		b.Run(set.name+"/slow", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range set.chunks {
					if _, err := slowYAML(c.raw); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(set.name+"/fast", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range set.chunks {
					if _, ok := fastyaml.Decode(c.raw); !ok {
						if _, err := slowYAML(c.raw); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

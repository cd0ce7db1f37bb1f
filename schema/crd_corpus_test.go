package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// corpusCRDs returns every CRD document in ../../shared/corpus, skipping the
// test when the corpus is absent.
func corpusCRDs(t testing.TB) map[string][]byte {
	t.Helper()
	root := "../../shared/corpus"
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared corpus not present")
	}
	docs := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, doc := range bytes.Split(b, []byte("\n---")) {
			if bytes.Contains(doc, []byte("kind: CustomResourceDefinition")) {
				docs[path+"#"+string(rune('0'+i))] = doc
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

var (
	corpusOnce   sync.Once
	corpusParsed map[string]*CRD
	corpusErr    error
)

// parsedCorpusCRDs parses the corpus CRDs once for all tests; the CRDs must
// not be modified.
func parsedCorpusCRDs(t testing.TB) map[string]*CRD {
	t.Helper()
	docs := corpusCRDs(t)
	corpusOnce.Do(func() {
		corpusParsed = map[string]*CRD{}
		for name, doc := range docs {
			c, err := ParseCRD(doc)
			if err != nil {
				corpusErr = fmt.Errorf("%s: %w", name, err)
				return
			}
			corpusParsed[name] = c
		}
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusParsed
}

func TestCorpusCRDsConvertAndRoundTrip(t *testing.T) {
	docs := parsedCorpusCRDs(t)
	if len(docs) < 50 {
		t.Fatalf("found only %d CRDs in the corpus", len(docs))
	}
	versions := 0
	for name, c := range docs {
		for _, v := range c.Spec.Versions {
			s, err := v.Structural()
			if err != nil {
				t.Errorf("%s %s: %v", name, v.Name, err)
				continue
			}
			versions++
			// Props -> JSON -> Props and Props -> Structural -> Props agree.
			orig, err := json.Marshal(v.Schema.OpenAPIV3Schema)
			if err != nil {
				t.Fatal(err)
			}
			back, err := json.Marshal(s.ToProps())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(orig, back) {
				t.Errorf("%s %s: structural round trip differs", name, v.Name)
			}
			var again Props
			if err := json.Unmarshal(orig, &again); err != nil {
				t.Fatal(err)
			}
			b2, _ := json.Marshal(&again)
			if !bytes.Equal(orig, b2) {
				t.Errorf("%s %s: JSON round trip differs", name, v.Name)
			}
		}
	}
	t.Logf("%d CRDs, %d versions converted", len(docs), versions)
}

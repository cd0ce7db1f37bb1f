// Command geninput writes the benchmark inputs of bench/peers/run.sh: real
// Gateway API objects (HTTPRoute and Gateway, gateway.networking.k8s.io/v1)
// taken from the Gateway API examples, repeated with a distinct
// metadata.name each, so every tool validates the same objects of the same
// CRD kinds.
//
// Usage:
//
//	geninput -seeds DIR -out DIR [-docs 10000] [-files 1000] [-per-file 10]
//
// It writes DIR/seeds.yaml (every seed object once), DIR/one-file.yaml
// (-docs documents in one file) and DIR/many-files/NNNN.yaml (-files files
// of -per-file documents each), and prints the seed count and kinds.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// kinds are the seed kinds: the two most common in the examples; all of
// gateway.networking.k8s.io/v1, whose CRDs every tool loads.
var kinds = map[string]bool{"HTTPRoute": true, "Gateway": true}

const apiVersion = "gateway.networking.k8s.io/v1"

func main() {
	seedDir := flag.String("seeds", "", "directory of Gateway API example manifests")
	out := flag.String("out", "", "output directory")
	docs := flag.Int("docs", 10000, "documents in one-file.yaml")
	files := flag.Int("files", 1000, "files in many-files/")
	perFile := flag.Int("per-file", 10, "documents per file in many-files/")
	exclude := flag.String("exclude", "", "comma-separated seed names (kind/name) to leave out")
	flag.Parse()
	if *seedDir == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	skip := map[string]bool{}
	for _, s := range strings.Split(*exclude, ",") {
		if s != "" {
			skip[s] = true
		}
	}
	seeds, err := readSeeds(*seedDir, skip)
	if err != nil {
		fmt.Fprintln(os.Stderr, "geninput:", err)
		os.Exit(1)
	}
	if len(seeds) == 0 {
		fmt.Fprintln(os.Stderr, "geninput: no seeds found in", *seedDir)
		os.Exit(1)
	}
	if err := os.MkdirAll(filepath.Join(*out, "many-files"), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "geninput:", err)
		os.Exit(1)
	}
	must(write(filepath.Join(*out, "seeds.yaml"), seeds, 0, len(seeds), false))
	must(write(filepath.Join(*out, "one-file.yaml"), seeds, 0, *docs, true))
	for f := 0; f < *files; f++ {
		name := filepath.Join(*out, "many-files", fmt.Sprintf("%04d.yaml", f))
		must(write(name, seeds, f**perFile, *perFile, true))
	}
	count := map[string]int{}
	for _, s := range seeds {
		count[s.kind]++
	}
	fmt.Printf("geninput: %d seeds (%d HTTPRoute, %d Gateway); %d docs in one-file.yaml; %d files x %d docs in many-files/\n",
		len(seeds), count["HTTPRoute"], count["Gateway"], *docs, *files, *perFile)
}

type seed struct {
	kind, name, source string
	obj                map[string]any
}

// readSeeds returns the HTTPRoute and Gateway objects of the YAML files
// under dir, in path order.
func readSeeds(dir string, skip map[string]bool) ([]seed, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var seeds []seed
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		for i, doc := range splitDocs(data) {
			var obj map[string]any
			if err := yaml.Unmarshal(doc, &obj); err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", p, i, err)
			}
			kind, _ := obj["kind"].(string)
			if obj == nil || !kinds[kind] || obj["apiVersion"] != apiVersion {
				continue
			}
			meta, _ := obj["metadata"].(map[string]any)
			name, _ := meta["name"].(string)
			if name == "" || skip[kind+"/"+name] {
				continue
			}
			seeds = append(seeds, seed{kind: kind, name: name, source: p, obj: obj})
		}
	}
	return seeds, nil
}

// splitDocs splits a YAML stream at "---" lines.
func splitDocs(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		t := bytes.TrimRight(line, " \t\r\n")
		if bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- ")) {
			docs = append(docs, bytes.Clone(cur.Bytes()))
			cur.Reset()
			continue
		}
		cur.Write(line)
	}
	return append(docs, cur.Bytes())
}

// write writes n documents starting at the start-th (cycling through the
// seeds) to name; rename gives each a name unique across all inputs.
func write(name string, seeds []seed, start, n int, rename bool) error {
	var buf bytes.Buffer
	for i := start; i < start+n; i++ {
		s := seeds[i%len(seeds)]
		obj := s.obj
		if rename {
			obj = withName(s.obj, fmt.Sprintf("%s-%05d", s.name, i))
		}
		data, err := yaml.Marshal(obj)
		if err != nil {
			return fmt.Errorf("%s: %w", s.source, err)
		}
		buf.WriteString("---\n")
		buf.Write(data)
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// withName returns a shallow copy of obj whose metadata.name is name.
func withName(obj map[string]any, name string) map[string]any {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	meta := map[string]any{}
	if m, ok := obj["metadata"].(map[string]any); ok {
		for k, v := range m {
			meta[k] = v
		}
	}
	meta["name"] = name
	c["metadata"] = meta
	return c
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "geninput:", err)
		os.Exit(1)
	}
}

package manifest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	big := good + "data:\n  k: \"" + strings.Repeat("x", DefaultMaxDocumentBytes) + "\"\n"
	// Billion laughs: nine levels of ten aliases each, 10^9 strings once expanded.
	var bomb strings.Builder
	bomb.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i, c := range "bcdefghi" {
		prev := string(rune('a' + i))
		fmt.Fprintf(&bomb, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	// Aliases of one large value stay under go-yaml's alias ratio yet expand to 1000 MiB.
	var wide strings.Builder
	wide.WriteString("big: &big \"" + strings.Repeat("y", 1<<20) + "\"\nrefs:\n")
	for range 1000 {
		wide.WriteString("- *big\n")
	}
	for i := range 10000 {
		fmt.Fprintf(&wide, "k%d: v\n", i)
	}
	// Many aliases of a list of small scalars: few bytes, many nodes once expanded.
	var nodes strings.Builder
	nodes.WriteString("l: &l [" + strings.Repeat("a,", 999) + "a]\nrefs:\n")
	for range 5000 {
		nodes.WriteString("- *l\n")
	}
	deepFlow := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	deepBlock := strings.Repeat("- ", 10001) + "x\n"
	okDeep := "a: " + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "\n"

	tests := []struct {
		name string
		in   string
		opts Options
		want []want
	}{
		{"3 MiB document", good + "---\n" + big + "---\n" + good, Options{},
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, nil, "f.yaml:6: Request entity too large: limit is 3145728", 6}, {2, -1, 13, cm("a"), "", 0}}},
		{"limit option", good, Options{MaxDocumentBytes: 10},
			[]want{{0, -1, 1, nil, "f.yaml:1: Request entity too large: limit is 10 (document is 51 bytes)", 1}}},
		{"no limit", big, Options{MaxDocumentBytes: -1},
			[]want{{0, -1, 1, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"},
				"data": map[string]any{"k": strings.Repeat("x", DefaultMaxDocumentBytes)}}, "", 0}}},
		{"billion laughs", good + "---\n" + bomb.String() + "---\n" + good, Options{},
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, nil, "f.yaml:6: yaml: document contains excessive aliasing", 6}, {2, -1, 16, cm("a"), "", 0}}},
		{"billion laughs, go-yaml's own check", bomb.String(), Options{MaxExpandedBytes: -1},
			[]want{{0, -1, 1, nil, "f.yaml:1: yaml: document contains excessive aliasing", 1}}},
		{"aliases of a large value", wide.String(), Options{},
			[]want{{0, -1, 1, nil, "f.yaml:1: yaml: document contains excessive aliasing: expands to more than 67108864 bytes", 1}}},
		{"aliases of a list of small scalars", nodes.String(), Options{},
			[]want{{0, -1, 1, nil, "f.yaml:1: yaml: document contains excessive aliasing: expands to more than 67108864 bytes", 1}}},
		{"aliases under the bound are fine", "l: &l [a, b]\nm: [*l, *l]\n", Options{},
			[]want{{0, -1, 1, map[string]any{"l": []any{"a", "b"}, "m": []any{[]any{"a", "b"}, []any{"a", "b"}}}, "", 0}}},
		{"deep flow nesting", deepFlow, Options{},
			[]want{{0, -1, 1, nil, "exceeded max depth of 10000", 1}}},
		{"deep block nesting", deepBlock, Options{},
			[]want{{0, -1, 1, nil, "exceeded max depth of 10000", 1}}},
		// Cases of go-yaml's limit_test.go, which the YAML decoder under YAMLToJSON rejects.
		{"go-yaml: 1000kb of maps with 100 aliases", `{a: &a [{a}` + strings.Repeat(`,{a}`, 1000*1024/4-100) + `], b: &b [*a` + strings.Repeat(`,*a`, 99) + `]}`,
			Options{}, []want{{0, -1, 1, nil, "f.yaml:1: yaml: document contains excessive aliasing", 1}}},
		{"go-yaml: 1000kb of deeply nested maps", "x: " + strings.Repeat(`{`, 1000*1024), Options{},
			[]want{{0, -1, 1, nil, "f.yaml:1: yaml: exceeded max depth of 10000", 1}}},
		{"deeply nested JSON", strings.Repeat(`{"a":`, 20000), Options{},
			[]want{{0, -1, 1, nil, "f.yaml:1: yaml: exceeded max depth of 10000", 1}}},
		{"moderate nesting is fine", okDeep, Options{},
			[]want{{0, -1, 1, map[string]any{"a": nest(500)}, "", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			check(t, Parse("f.yaml", []byte(tt.in), tt.opts), tt.want)
			t.Logf("took %v", time.Since(start))
		})
	}
}

func nest(n int) any {
	v := []any{}
	for range n - 1 {
		v = []any{v}
	}
	return v
}

// TestCorpus reads every manifest of the shared corpus: no panics, only the known errors and
// warnings, documents counted, and every top-level field resolves to a line inside its document.
func TestCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus not present")
	}
	docs, err := Read([]string{root}, nil, Options{StrictInputs: true}) // every file decoded
	if err != nil {
		t.Fatal(err)
	}
	// The corpus's only undecodable documents, with what the apiserver's decoding says.
	wantErrs := map[string]string{
		"kubernetes-examples/_archived/newrelic/newrelic-config-template.yaml":                "yaml: invalid map key",
		"kubernetes-examples/_archived/newrelic-infrastructure/newrelic-config-template.yaml": "yaml: invalid map key",
		"kubernetes-examples/_archived/storage/vitess/etcd-controller-template.yaml":          "yaml: invalid map key",
		"kubernetes-examples/_archived/storage/vitess/etcd-service-template.yaml":             "yaml: invalid map key",
		"kubernetes-examples/_archived/storage/vitess/vtgate-controller-template.yaml":        "yaml: invalid map key",
		"prometheus-operator/example/additional-scrape-configs/prometheus-additional.yaml":    "json: cannot unmarshal array into Go value of type map[string]interface {}",
	}
	// The corpus's only repeated keys: each document decodes to the last value, as kubectl
	// sends it, with a warning at the repeated key.
	wantWarnings := map[string][]string{
		"kubernetes-examples/_archived/openshift-origin/etcd-controller.yaml":                            {dupWarning(12, `"selector"`)},
		"kubernetes-examples/_archived/openshift-origin/etcd-discovery-controller.yaml":                  {dupWarning(12, `"selector"`)},
		"kubernetes-examples/_archived/openshift-origin/openshift-controller.yaml":                       {dupWarning(12, `"selector"`)},
		"kubernetes-examples/_archived/persistent-volume-provisioning/quobyte/quobyte-admin-secret.yaml": {dupWarning(9, `"type"`)},
		"kubernetes-examples/_archived/volumes/scaleio/sc-pvc.yaml":                                      {dupWarning(12, `"storageClassName"`)},
	}
	files := map[string]bool{}
	var errs, lists, warned int
	for i := range docs {
		d := &docs[i]
		files[d.File] = true
		if d.Err != nil {
			errs++
			rel, _ := filepath.Rel(root, d.File)
			if want, ok := wantErrs[filepath.ToSlash(rel)]; !ok || !strings.Contains(d.Err.Error(), want) {
				t.Errorf("unexpected error %v", d.Err)
			}
			continue
		}
		if d.Item >= 0 {
			lists++
		}
		if d.Warnings != nil {
			warned++
			rel, _ := filepath.Rel(root, d.File)
			if want := wantWarnings[filepath.ToSlash(rel)]; !reflect.DeepEqual(d.Warnings, want) {
				t.Errorf("%s document %d: warnings %q, want %q", d.File, d.Index, d.Warnings, want)
			}
		}
		for k := range d.Object {
			if l := d.LineOf(k); l < d.Line || l > d.Line+bytes.Count(d.Raw, []byte("\n")) {
				t.Errorf("%s document %d: %s at line %d, outside the document starting at %d", d.File, d.Index, k, l, d.Line)
			}
		}
	}
	if errs != len(wantErrs) {
		t.Errorf("%d errors, want %d", errs, len(wantErrs))
	}
	if warned != len(wantWarnings) {
		t.Errorf("%d documents with warnings, want %d", warned, len(wantWarnings))
	}
	t.Logf("%d files, %d documents (%d List items), %d errors, %d with warnings", len(files), len(docs), lists, errs, warned)
	var n int
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && hasExtension(p) {
			n++
		}
		return nil
	})
	if len(docs) < n/2 {
		t.Errorf("only %d documents from %d files", len(docs), n)
	}
}

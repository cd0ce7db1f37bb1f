package manifest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func FuzzReadStream(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\nkind: B\n",
		"# c\n---\n\n---\nnull\n",
		"a: 1\na: 2\n",
		"kind: [\n",
		"--- x\n",
		"{\"a\": 1}{\"b\": [1, 2]}\n[3]",
		"{\"a\": 1, \"a\": 2}",
		"{\"a\": {\"b\": 1, \"b\": 2},\n\"a\": {\"b\": 3}}",
		"apiVersion: v1\nkind: List\nkind: List\nitems:\n- a: 1\n  a: 2\n- b: 1\n",
		"a:\n  b: 1\na:\n  c: 1\n  c: 2\n",
		"a: 1\u2028b: 1\u0085a: 2\n",
		"apiVersion: v1\nkind: List\nitems:\n- kind: A\n- 1\n- null\n",
		"a: &a [*a]\n",
		"a: &a x\nb: [*a, *a]\n",
		"\uFEFFa: 1\r\n---\r\nb: 2\r\n",
		"a: 1\n...\nb: 2\n",
		"- a\n",
		"\t- a\n",
	} {
		f.Add([]byte(s))
	}
	paths := []string{"", "a", "kind", "metadata.name", "items[0]", "a[0]", "b[1].c", "[x]", "a.[", "a[", "a[-1]", "a[99999999999999999999]"}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := ReadStream("fuzz", bytes.NewReader(data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		// go-yaml also breaks lines at a lone CR, NEL, LS and PS, and numbers lines so
		// (a known imprecision of the lines in messages for such input).
		lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) + bytes.Count(data, []byte("\u0085")) +
			bytes.Count(data, []byte("\u2028")) + bytes.Count(data, []byte("\u2029")) + 1
		last := -1
		for _, d := range docs {
			if d.Index < last || (d.Index == last && d.Item < 0) {
				t.Fatalf("index %d after %d", d.Index, last)
			}
			last = d.Index
			if d.Line < 1 {
				t.Fatalf("line %d", d.Line)
			}
			if (d.Err == nil && d.NotManifest == "") == (d.Object == nil) {
				t.Fatalf("err %v with object %v", d.Err, d.Object)
			}
			if d.Err != nil && d.Warnings != nil {
				t.Fatalf("warnings %q with error %v", d.Warnings, d.Err)
			}
			for _, w := range d.Warnings {
				var line int
				if _, err := fmt.Sscanf(w, "line %d: ", &line); err != nil || line < 1 || line > lines {
					t.Fatalf("warning %q: not at a line of the input (%d lines)", w, lines)
				}
			}
			if d.Err != nil {
				e, ok := d.Err.(*Error)
				if !ok || !strings.HasPrefix(e.Error(), "fuzz") || e.Index != d.Index {
					t.Fatalf("bad error %#v", d.Err)
				}
			}
			for _, p := range paths {
				if l := d.LineOf(p); l < 1 {
					t.Fatalf("LineOf(%q) = %d", p, l)
				}
			}
		}
	})
}

// BenchmarkParse10k reads one file of 10,000 small Deployments.
func BenchmarkParse10k(b *testing.B) {
	var buf bytes.Buffer
	for i := range 10000 {
		fmt.Fprintf(&buf, `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-%d
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
`, i)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		docs := Parse("bench.yaml", data, Options{})
		if len(docs) != 10000 || docs[9999].Err != nil {
			b.Fatalf("%d docs", len(docs))
		}
	}
}

// BenchmarkLineOf measures the first (parsing) and later line lookups of one document.
func BenchmarkLineOf(b *testing.B) {
	data := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n")
	for b.Loop() {
		docs := Parse("bench.yaml", data, Options{})
		if docs[0].LineOf("spec.template.spec.containers[0].image") != 10 {
			b.Fatal("wrong line")
		}
	}
}

// TestParallelMatchesSequential checks that Parse, which decodes large inputs on several
// goroutines, numbers and orders documents exactly as the sequential Documents iterator.
func TestParallelMatchesSequential(t *testing.T) {
	parts := []string{
		"kind: A\nmetadata:\n  name: a%d\n",
		"# comment only %d\n",
		"null\n# %d\n",
		"a: %d\na: 2\n",
		"kind: [%d\n",
		"apiVersion: v1\nkind: List\nitems:\n- kind: B\n  n: %d\n- 7\n",
		"apiVersion: v1\nkind: List\nitems: [] # %d\n",
		"- %d\n",
	}
	var buf bytes.Buffer
	for i := range 400 {
		fmt.Fprintf(&buf, "---\n"+parts[(i*7)%len(parts)], i)
	}
	par := Parse("p.yaml", buf.Bytes(), Options{})
	var seq []Document
	for d := range Documents("p.yaml", buf.Bytes(), Options{}) {
		seq = append(seq, d)
	}
	if len(par) != len(seq) || len(par) < 300 {
		t.Fatalf("parallel %d documents, sequential %d", len(par), len(seq))
	}
	for i := range par {
		p, s := par[i], seq[i]
		if p.Index != s.Index || p.Item != s.Item || p.Line != s.Line || fmt.Sprint(p.Object) != fmt.Sprint(s.Object) || fmt.Sprint(p.Err) != fmt.Sprint(s.Err) {
			t.Fatalf("document %d differs:\nparallel   %d/%d/%d %v %v\nsequential %d/%d/%d %v %v", i,
				p.Index, p.Item, p.Line, p.Object, p.Err, s.Index, s.Item, s.Line, s.Object, s.Err)
		}
	}
	if last := par[len(par)-1]; last.Index != 299 {
		// 400 parts, of which every part kind recurs 50 times; comment-only and null ones
		// (100) are skipped; the empty List takes an index without a document.
		t.Errorf("last index %d, want 299", last.Index)
	}
}

// TestLineOfConcurrent looks up lines of List items, which share one lazily parsed source,
// from several goroutines (run with -race).
func TestLineOfConcurrent(t *testing.T) {
	docs := Parse("l.yaml", []byte("kind: List\nitems:\n- kind: A\n  metadata: {name: a}\n- kind: B\n  metadata: {name: b}\n"), Options{})
	done := make(chan int)
	for i := range 8 {
		go func() { done <- docs[i%2].LineOf("metadata.name") }()
	}
	for i := range 8 {
		if got := <-done; got != 4 && got != 6 {
			t.Errorf("lookup %d: line %d", i, got)
		}
	}
}

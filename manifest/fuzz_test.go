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
		last := -1
		for _, d := range docs {
			if d.Index < last || (d.Index == last && d.Item < 0) {
				t.Fatalf("index %d after %d", d.Index, last)
			}
			last = d.Index
			if d.Line < 1 {
				t.Fatalf("line %d", d.Line)
			}
			if (d.Err == nil) == (d.Object == nil) {
				t.Fatalf("err %v with object %v", d.Err, d.Object)
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

package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// want describes one expected document: its position, and either its object or a substring
// of its error.
type want struct {
	index, item, line int
	obj               map[string]any
	err               string // substring of Err.Error(); "" means no error
	errLine           int    // Err's line when err != ""
}

func check(t *testing.T, docs []Document, wants []want) {
	t.Helper()
	if len(docs) != len(wants) {
		for _, d := range docs {
			t.Logf("got index=%d item=%d line=%d obj=%v err=%v", d.Index, d.Item, d.Line, d.Object, d.Err)
		}
		t.Fatalf("got %d documents, want %d", len(docs), len(wants))
	}
	for i, w := range wants {
		d := docs[i]
		if d.Index != w.index || d.Item != w.item || d.Line != w.line {
			t.Errorf("doc %d: index/item/line = %d/%d/%d, want %d/%d/%d", i, d.Index, d.Item, d.Line, w.index, w.item, w.line)
		}
		if w.err == "" {
			if d.Err != nil {
				t.Errorf("doc %d: unexpected error %v", i, d.Err)
			} else if !reflect.DeepEqual(d.Object, w.obj) {
				t.Errorf("doc %d: object\n got %#v\nwant %#v", i, d.Object, w.obj)
			}
			continue
		}
		if d.Err == nil {
			t.Errorf("doc %d: no error, want %q", i, w.err)
			continue
		}
		if !strings.Contains(d.Err.Error(), w.err) {
			t.Errorf("doc %d: error %q does not contain %q", i, d.Err, w.err)
		}
		var e *Error
		if !errors.As(d.Err, &e) {
			t.Errorf("doc %d: error %T is not *Error", i, d.Err)
		} else if e.Line != w.errLine || e.Index != w.index {
			t.Errorf("doc %d: error line/index %d/%d, want %d/%d", i, e.Line, e.Index, w.errLine, w.index)
		}
		if d.Object != nil {
			t.Errorf("doc %d: object %v alongside error", i, d.Object)
		}
	}
}

func cm(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}}
}

func TestParse(t *testing.T) {
	const a = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	const b = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"
	tests := []struct {
		name string
		in   string
		want []want
	}{
		{"single", a, []want{{0, -1, 1, cm("a"), "", 0}}},
		{"multi", a + "---\n" + b, []want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, cm("b"), "", 0}}},
		{"leading separator and comments", "# header\n---\n# about a\n" + a + "--- # next\n" + b + "---\n",
			[]want{{0, -1, 4, cm("a"), "", 0}, {1, -1, 9, cm("b"), "", 0}}},
		{"empty, comment-only and null documents are skipped and not counted",
			"---\n---\n# only a comment\n---\n\n\n---\nnull\n---\n~\n---\n" + a + "---\n  \n---\n" + b,
			[]want{{0, -1, 12, cm("a"), "", 0}, {1, -1, 19, cm("b"), "", 0}}},
		{"empty input", "", nil},
		{"only comments", "# nothing\n# here\n", nil},
		{"CRLF", strings.ReplaceAll(a+"---\n"+b, "\n", "\r\n"), []want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, cm("b"), "", 0}}},
		{"BOM", "\uFEFF" + a, []want{{0, -1, 1, cm("a"), "", 0}}},
		{"document end marker", a + "...\n---\n" + b, []want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 7, cm("b"), "", 0}}},
		{"no final newline", strings.TrimSuffix(a, "\n"), []want{{0, -1, 1, cm("a"), "", 0}}},
		{"tabs inside values are fine", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: \"a\\tb\"\n  l: x\ty\n",
			[]want{{0, -1, 1, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"},
				"data": map[string]any{"k": "a\tb", "l": "x\ty"}}, "", 0}}},
		{"tab indentation is a syntax error at its line", a + "---\nkind: X\nmetadata:\n\tname: x\n---\n" + b,
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, nil, "f.yaml:8: yaml: line 8: found character that cannot start any token", 8}, {2, -1, 10, cm("b"), "", 0}}},
		{"syntax error among good documents", a + "---\nkind: [\n---\n" + b,
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, nil, "f.yaml:6: yaml: line 6: did not find expected node content", 6}, {2, -1, 8, cm("b"), "", 0}}},
		// Repeated keys keep their last value, as kubectl sends them (TestDuplicates).
		{"duplicate key", a + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  name: z\n---\n" + b,
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 6, cm("z"), "", 0}, {2, -1, 12, cm("b"), "", 0}}},
		{"two duplicate keys", "a: 1\nb: 2\na: 3\nb: 4\n",
			[]want{{0, -1, 1, map[string]any{"a": int64(3), "b": int64(4)}, "", 0}}},
		{"invalid separator", a + "--- foo: bar\n" + b,
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 5, nil, "f.yaml:5: invalid Yaml document separator: foo: bar", 5}, {2, -1, 6, cm("b"), "", 0}}},
		{"top-level array", "- a\n- b\n---\n" + a,
			[]want{{0, -1, 1, nil, "f.yaml:1: json: cannot unmarshal array into Go value of type map[string]interface {}", 1}, {1, -1, 4, cm("a"), "", 0}}},
		{"top-level scalar", "hello\n", []want{{0, -1, 1, nil, "cannot unmarshal string into Go value of type map[string]interface {}", 1}}},
		// sigs.k8s.io/yaml's YAMLToJSON quirks, which the apiserver shares.
		{"NaN cannot become JSON", "a: .nan\n", []want{{0, -1, 1, nil, "f.yaml:1: json: unsupported value: NaN", 1}}},
		{"null key", "a: 1\nnull: 1\n", []want{{0, -1, 1, nil, "f.yaml:1: unsupported map key of type: %!s(<nil>)", 1}}},
		{"complex key", "? [a]\n: 1\n", []want{{0, -1, 1, nil, "f.yaml:1: yaml: invalid map key", 1}}},
		{"binary, underscores, YAML 1.1 octal", "a: !!binary aGVsbG8=\nb: 1_000\nc: 012\nd: !!str 1\n",
			[]want{{0, -1, 1, map[string]any{"a": "hello", "b": int64(1000), "c": int64(10), "d": "1"}, "", 0}}},
		{"text after a document end marker is ignored", "a: 1\n...\nb: 2\n", []want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}}},
		{"flow mapping is YAML, not JSON", "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n", []want{{0, -1, 1, cm("a"), "", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// StrictInputs: decoding as kubectl does, top-level arrays included
			// (TestNotManifestValues covers the default).
			check(t, Parse("f.yaml", []byte(tt.in), Options{StrictInputs: true}), tt.want)
		})
	}
}

// TestValues checks that scalars decode as the apiserver decodes YAML: go-yaml v2 (YAML 1.1)
// to JSON, then JSON with integers preserved as int64.
func TestValues(t *testing.T) {
	in := `i: 3
neg: -7
f: 1.5
whole: 1.0
exp: 1e3
big: 9223372036854775807
huge: 18446744073709551616
oct: 0777
hex: 0x1F
yes: yes
off: off
t: true
nul: null
tilde: ~
s: "3"
str: hello
date: 2024-01-02
1: one
list: [1, "a", 2.5]
`
	docs := Parse("v.yaml", []byte(in), Options{})
	if len(docs) != 1 || docs[0].Err != nil {
		t.Fatalf("docs = %+v", docs)
	}
	want := map[string]any{
		"i": int64(3), "neg": int64(-7), "f": 1.5,
		"whole": int64(1), // YAML 1.0 is a float, but YAMLToJSON writes it as 1
		"exp":   int64(1000),
		"big":   int64(9223372036854775807),
		"huge":  1.8446744073709552e19,
		"oct":   int64(511), "hex": int64(31),
		"true": true, "false": false, // YAML 1.1: yes/off are booleans, as keys too
		"t": true, "nul": nil, "tilde": nil, "s": "3", "str": "hello",
		"date": "2024-01-02",
		"1":    "one",
		"list": []any{int64(1), "a", 2.5},
	}
	if !reflect.DeepEqual(docs[0].Object, want) {
		t.Errorf("got  %#v\nwant %#v", docs[0].Object, want)
	}
}

func TestJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []want
	}{
		{"object", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}`, []want{{0, -1, 1, cm("a"), "", 0}}},
		{"numbers", `{"i": 3, "f": 1.5, "whole": 1.0, "e": 1e3}`,
			// JSON keeps 1.0 a float: only YAML goes through YAMLToJSON's re-encoding.
			[]want{{0, -1, 1, map[string]any{"i": int64(3), "f": 1.5, "whole": 1.0, "e": 1000.0}, "", 0}}},
		{"stream", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}\n\n" +
			"{\"apiVersion\": \"v1\",\n \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}",
			[]want{{0, -1, 1, cm("a"), "", 0}, {1, -1, 3, cm("b"), "", 0}}},
		{"null values in a stream are skipped", "{\"a\": 1}\nnull\n{\"b\": 2}",
			[]want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}, {1, -1, 3, map[string]any{"b": int64(2)}, "", 0}}},
		{"duplicate field", "{\"metadata\": {\"name\": \"a\",\n \"name\": \"b\"}}",
			[]want{{0, -1, 1, map[string]any{"metadata": map[string]any{"name": "b"}}, "", 0}}},
		{"array in stream", "{\"a\": 1}\n[1, 2]\n",
			[]want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}, {1, -1, 2, nil, "cannot unmarshal array into Go value", 2}}},
		{"syntax error after two values ends the stream", "{\"a\": 1}\n{\"b\": 2}\n{\"c\": }\n{\"d\": 4}",
			[]want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}, {1, -1, 2, map[string]any{"b": int64(2)}, "", 0}, {2, -1, 3, nil, "f.json:3: json: invalid character '}'", 3}}},
		// After one JSON value the stream is still ambiguous: the rest is YAML, whose
		// decoder (like kubectl's) reads only the first of the flow mappings.
		{"second value invalid as JSON is read as YAML", "{\"a\": 1}\n{\"b\": }\n{\"c\": 3}",
			[]want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}, {1, -1, 2, map[string]any{"b": nil}, "", 0}}},
		{"one JSON value, then YAML documents", "{\"a\": 1}\n---\nb: 2\n---\nc: 3\n",
			[]want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}, {1, -1, 3, map[string]any{"b": int64(2)}, "", 0}, {2, -1, 5, map[string]any{"c": int64(3)}, "", 0}}},
		{"one JSON value, then YAML on the same line", "{\"a\": 1} b: 2\nc: 3\n",
			[]want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}, {1, -1, 1, map[string]any{"b": int64(2), "c": int64(3)}, "", 0}}},
		{"invalid first value falls back to YAML", "{\"a\": 1, b: 2}\n",
			[]want{{0, -1, 1, map[string]any{"a": int64(1), "b": int64(2)}, "", 0}}},
		{"tab indented JSON", "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}\n", []want{{0, -1, 1, map[string]any{"a": map[string]any{"b": int64(1)}}, "", 0}}},
		{"BOM", "\uFEFF{\"a\": 1}", []want{{0, -1, 1, map[string]any{"a": int64(1)}, "", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, Parse("f.json", []byte(tt.in), Options{StrictInputs: true}), tt.want)
		})
	}
}

func TestLists(t *testing.T) {
	pod := func(name string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name}}
	}
	in := `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: p0
- apiVersion: v1
  kind: Pod
  metadata:
    name: p1
- 42
---
apiVersion: v1
kind: PodList
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: p2}
---
apiVersion: v1
kind: List
items: []
---
apiVersion: example.com/v1
kind: Checklist
items: not-a-list
`
	docs := Parse("l.yaml", []byte(in), Options{})
	check(t, docs, []want{
		{0, 0, 4, pod("p0"), "", 0},
		{0, 1, 8, pod("p1"), "", 0},
		{0, 2, 12, nil, "l.yaml:12: items[2]: json: cannot unmarshal number", 12},
		{1, 0, 17, pod("p2"), "", 0},
		// the empty List yields nothing, as kubectl sends nothing; it still takes index 2
		{3, -1, 25, map[string]any{"apiVersion": "example.com/v1", "kind": "Checklist", "items": "not-a-list"}, "", 0},
	})
	// Line lookups are relative to the item.
	if got := docs[1].LineOf("metadata.name"); got != 11 {
		t.Errorf("items[1] metadata.name line = %d, want 11", got)
	}
	if got := docs[3].LineOf("metadata.name"); got != 19 {
		t.Errorf("items[0] of PodList metadata.name line = %d, want 19", got)
	}
	if got := docs[0].LineOf("spec.nothing"); got != 4 {
		t.Errorf("missing field of an item: line %d, want the item's 4", got)
	}
	if gvk := docs[3].GVK(); gvk.Kind != "Pod" || gvk.Version != "v1" || gvk.Group != "" {
		t.Errorf("GVK = %v", gvk)
	}
	if gvk := docs[4].GVK(); gvk.Group != "example.com" || gvk.Version != "v1" || gvk.Kind != "Checklist" {
		t.Errorf("GVK = %v", gvk)
	}
}

func TestLineOf(t *testing.T) {
	in := `# leading comment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
    "quoted key": x
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: a
        image: nginx
        ports:
        - containerPort: 80
      - name: b
        image: envoy
        env: &env
          - name: X
            value: "1"
      initContainers:
      - name: c
        env: *env
`
	docs := Parse("d.yaml", []byte("---\n"+in), Options{})
	if len(docs) != 1 || docs[0].Err != nil {
		t.Fatalf("docs = %+v", docs)
	}
	d := &docs[0]
	tests := []struct {
		path      string
		line, col int
	}{
		{"", 3, 1},
		{"apiVersion", 3, 1},
		{"metadata.name", 6, 3},
		{"metadata.labels[app.kubernetes.io/name]", 8, 5},
		{"metadata.labels[quoted key]", 9, 5},
		{"metadata.labels[missing]", 7, 3},
		{"spec.replicas", 11, 3},
		{"spec.template.spec.containers[0]", 15, 9},
		{"spec.template.spec.containers[0].image", 16, 9},
		{"spec.template.spec.containers[0].ports[0].containerPort", 18, 11},
		{"spec.template.spec.containers[1].image", 20, 9},
		{"spec.template.spec.containers[1].env[0].value", 23, 13},
		{"spec.template.spec.containers[7].image", 14, 7}, // index out of range: the list's key
		{"spec.template.spec.initContainers[0].env[0].value", 23, 13},
		{"spec.nothing.deeper", 10, 1},
		{"nothing", 3, 1},
	}
	for _, tt := range tests {
		line, col := d.Position(tt.path)
		if line != tt.line || col != tt.col {
			t.Errorf("Position(%q) = %d:%d, want %d:%d", tt.path, line, col, tt.line, tt.col)
		}
		if got := d.LineOf(tt.path); got != tt.line {
			t.Errorf("LineOf(%q) = %d, want %d", tt.path, got, tt.line)
		}
	}
	// Dotted field names (CRD properties may contain dots) resolve by longest match.
	docs = Parse("x.yaml", []byte("a:\n  b.c:\n    d: 1\n  b:\n    c: 2\n"), Options{})
	if got := docs[0].LineOf("a.b.c.d"); got != 3 {
		t.Errorf("dotted key: line %d, want 3", got)
	}
	// Merge keys: a merged field is found in the mapping it comes from.
	docs = Parse("m.yaml", []byte("base: &b\n  p: 1\n  q: 2\nother: &o\n  r: 3\nc:\n  <<: [*b, *o]\n  s: 4\n"), Options{})
	if got := docs[0].Object["c"]; !reflect.DeepEqual(got, map[string]any{"p": int64(1), "q": int64(2), "r": int64(3), "s": int64(4)}) {
		t.Errorf("merged object %v", got)
	}
	for path, want := range map[string]int{"c.p": 2, "c.q": 3, "c.r": 5, "c.s": 8, "c.w": 6} {
		if got := docs[0].LineOf(path); got != want {
			t.Errorf("merge: LineOf(%q) = %d, want %d", path, got, want)
		}
	}
	// JSON positions, including columns of values sharing a line.
	docs = Parse("x.json", []byte("{\"a\": 1}  {\"b\": {\"c\": [1, {\"d\": 2}]}}"), Options{})
	if line, col := docs[1].Position("b.c[1].d"); line != 1 || col != 28 {
		t.Errorf("JSON Position = %d:%d, want 1:28", line, col)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.yaml", "kind: B\n")
	write("a.yml", "kind: A1\n---\nkind: A2\n")
	write("sub/c.json", `{"kind": "C"}`)
	write("sub/deeper/d.yaml", "kind: D\n")
	write("README.md", "kind: Ignored\n")
	write("notes.txt", "kind: Ignored\n")
	write("sub/e.YAML", "kind: IgnoredUpperCase\n")
	write("explicit.txt", "kind: Explicit\n")

	stdin := strings.NewReader("kind: Stdin\n")
	docs, err := Read([]string{dir, "-", filepath.Join(dir, "explicit.txt"), filepath.Join(dir, "missing.yaml")}, stdin, Options{})
	var kinds, files []string
	for _, d := range docs {
		kinds = append(kinds, d.Object["kind"].(string))
		rel, _ := filepath.Rel(dir, d.File)
		if d.File == "-" {
			rel = "-"
		}
		files = append(files, rel)
	}
	wantKinds := []string{"A1", "A2", "B", "C", "D", "Stdin", "Explicit"}
	wantFiles := []string{"a.yml", "a.yml", "b.yaml", "sub/c.json", "sub/deeper/d.yaml", "-", "explicit.txt"}
	if !reflect.DeepEqual(kinds, wantKinds) || !reflect.DeepEqual(files, wantFiles) {
		t.Errorf("kinds %v files %v\nwant  %v files %v", kinds, files, wantKinds, wantFiles)
	}
	if docs[1].Index != 1 || docs[1].Line != 3 {
		t.Errorf("a.yml second doc index/line = %d/%d", docs[1].Index, docs[1].Line)
	}
	var e *Error
	if err == nil || !errors.As(err, &e) || e.File != filepath.Join(dir, "missing.yaml") || e.Index != -1 {
		t.Fatalf("missing path error = %v", err)
	}
	if !strings.Contains(err.Error(), "missing.yaml: no such file or directory") {
		t.Errorf("error %q", err)
	}

	files, err = Files([]string{dir})
	if err != nil || len(files) != 4 {
		t.Errorf("Files = %v, %v", files, err)
	}
}

func TestReadStream(t *testing.T) {
	docs, err := ReadStream("-", strings.NewReader("kind: A\n---\nkind: B\n"), Options{})
	if err != nil || len(docs) != 2 || docs[1].File != "-" || docs[1].Object["kind"] != "B" {
		t.Fatalf("docs %+v err %v", docs, err)
	}
	_, err = ReadStream("-", errReader{}, Options{})
	if err == nil || err.Error() != "-: boom" {
		t.Errorf("read error = %v", err)
	}
	// The iterator stops when asked.
	n := 0
	for range Documents("x", []byte("a: 1\n---\na: 2\n---\na: 3\n"), Options{}) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("iterated %d", n)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("boom") }

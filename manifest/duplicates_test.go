package manifest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// dupWarning is the warning for a repeated YAML key at line.
func dupWarning(line int, key string) string {
	return fmt.Sprintf("line %d: key %s already set in map; the last value is used, as kubectl sends it", line, key)
}

// TestDuplicates checks repeated keys: the apiserver's strict decoding rejects them (go-yaml
// v2's `key "x" already set in map`, sigs.k8s.io/json's `duplicate field "x"`), but kubectl
// decodes the file itself and sends JSON holding the last value only, so the document
// decodes to that value with one warning per repeat, at the repeated key, sorted by line.
func TestDuplicates(t *testing.T) {
	tests := []struct {
		name, file, in string
		want           map[string]any
		warnings       []string
	}{
		{"top level", "d.yaml", "a: 1\nb: [1]\na: 2\nb:\n- 2\n",
			map[string]any{"a": int64(2), "b": []any{int64(2)}},
			[]string{`line 3: key "a" already set in map; the last value is used, as kubectl sends it`, dupWarning(4, `"b"`)}},
		{"nested block value", "d.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  selector:\n    matchLabels:\n      a: b\n  replicas: 3\n  selector:\n    matchLabels:\n      c: d\n",
			map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": int64(3),
				"selector": map[string]any{"matchLabels": map[string]any{"c": "d"}}}},
			[]string{dupWarning(8, `"selector"`)}},
		{"in a list item", "d.yaml", "spec:\n  containers:\n  - name: a\n    image: x\n    name: b\n",
			map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "b", "image": "x"}}}},
			[]string{dupWarning(5, `"name"`)}},
		{"three times", "d.yaml", "a: 1\na: 2\na: 3\n",
			map[string]any{"a": int64(3)},
			[]string{dupWarning(2, `"a"`), dupWarning(3, `"a"`)}},
		// go-yaml reports the repeat inside the repeated value (line 6) before the repeated
		// key (line 4): the warnings are sorted by line.
		{"several, sorted by line", "d.yaml", "a:\n  x: 1\nb: 1\na:\n  z: 1\n  z: 2\nb: 2\n",
			map[string]any{"a": map[string]any{"z": int64(2)}, "b": int64(2)},
			[]string{dupWarning(4, `"a"`), dupWarning(6, `"z"`), dupWarning(7, `"b"`)}},
		// YAML 1.1: n and off are both the boolean false, so they collide as keys.
		{"YAML 1.1 booleans", "d.yaml", "x:\n  n: 1\n  off: 2\n",
			map[string]any{"x": map[string]any{"false": int64(2)}},
			[]string{dupWarning(3, "false")}},
		{"after a comment header", "d.yaml", "# c\n---\n# d\na: 1\nb:\n  c: 1\n  c: 2\n",
			map[string]any{"a": int64(1), "b": map[string]any{"c": int64(2)}},
			[]string{dupWarning(7, `"c"`)}},
		// go-yaml v2 counts a key that overrides a merged one as repeated; the explicit key
		// comes last here, so its value is kept.
		{"override of a merge key", "d.yaml", "base: &b\n  p: 1\nc:\n  <<: *b\n  p: 2\n",
			map[string]any{"base": map[string]any{"p": int64(1)}, "c": map[string]any{"p": int64(2)}},
			[]string{dupWarning(5, `"p"`)}},
		{"CRLF", "d.yaml", "a: 1\r\nb: 2\r\na: 3\r\n",
			map[string]any{"a": int64(3), "b": int64(2)},
			[]string{dupWarning(3, `"a"`)}},
		{"JSON", "d.json", "{\"spec\": {\"ports\": [{\"name\": \"a\",\n  \"name\": \"b\"}]}}",
			map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"name": "b"}}}},
			[]string{`line 2: duplicate field "spec.ports[0].name"; the last value is used, as kubectl sends it`}},
		// sigs.k8s.io/json names a repeated path once; every repeat is warned about, at its key.
		{"JSON, repeats inside repeats", "d.json", "{\"a\": {\"x\": 1, \"x\": 2},\n \"a\": {\"x\": 3,\n \"x\": 4,\n \"x\": 5}}",
			map[string]any{"a": map[string]any{"x": int64(5)}},
			[]string{
				`line 1: duplicate field "a.x"; the last value is used, as kubectl sends it`,
				`line 2: duplicate field "a"; the last value is used, as kubectl sends it`,
				`line 3: duplicate field "a.x"; the last value is used, as kubectl sends it`,
				`line 4: duplicate field "a.x"; the last value is used, as kubectl sends it`,
			}},
		{"JSON stream, second value", "d.json", "{\"a\": 1}\n{\"b\": 1,\n \"b\": 2}\n",
			map[string]any{"b": int64(2)},
			[]string{`line 3: duplicate field "b"; the last value is used, as kubectl sends it`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs := Parse(tt.file, []byte(tt.in), Options{})
			d := docs[len(docs)-1]
			if d.Err != nil {
				t.Fatalf("error %v", d.Err)
			}
			if !reflect.DeepEqual(d.Object, tt.want) {
				t.Errorf("object\n got %#v\nwant %#v", d.Object, tt.want)
			}
			if !reflect.DeepEqual(d.Warnings, tt.warnings) {
				t.Errorf("warnings\n got %q\nwant %q", d.Warnings, tt.warnings)
			}
			for i := range docs[:len(docs)-1] {
				if docs[i].Warnings != nil {
					t.Errorf("document %d: warnings %q", i, docs[i].Warnings)
				}
			}
		})
	}
}

// TestDuplicatesInList checks that a List item carries the warnings inside it and those
// outside every item, and that documents without repeats carry none.
func TestDuplicatesInList(t *testing.T) {
	in := "apiVersion: v1\nkind: List\nkind: List\nitems:\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: x\n    name: b\n" +
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	docs := Parse("l.yaml", []byte(in), Options{})
	want := []struct {
		obj      map[string]any
		warnings []string
	}{
		{cm("a"), []string{dupWarning(3, `"kind"`)}},
		{cm("b"), []string{dupWarning(3, `"kind"`), dupWarning(13, `"name"`)}},
		{cm("c"), nil},
	}
	if len(docs) != len(want) {
		t.Fatalf("got %d documents, want %d", len(docs), len(want))
	}
	for i, w := range want {
		if docs[i].Err != nil || !reflect.DeepEqual(docs[i].Object, w.obj) || !reflect.DeepEqual(docs[i].Warnings, w.warnings) {
			t.Errorf("document %d: err %v, object %v, warnings %q; want object %v, warnings %q", i, docs[i].Err, docs[i].Object, docs[i].Warnings, w.obj, w.warnings)
		}
	}
}

// TestManyDuplicates checks that a document repeating a key many times gets maxWarnings
// warnings and one that counts the rest, and still decodes.
func TestManyDuplicates(t *testing.T) {
	in := strings.Repeat("a: 1\n", 5000) + "a: 2\n"
	docs := Parse("m.yaml", []byte(in), Options{})
	if len(docs) != 1 || docs[0].Err != nil || !reflect.DeepEqual(docs[0].Object, map[string]any{"a": int64(2)}) {
		t.Fatalf("got %+v", docs)
	}
	ws := docs[0].Warnings
	if len(ws) != maxWarnings+1 || ws[0] != dupWarning(2, `"a"`) || ws[maxWarnings-1] != dupWarning(maxWarnings+1, `"a"`) {
		t.Fatalf("got %d warnings, first %q", len(ws), ws[:min(len(ws), 2)])
	}
	if want := "line 102: 4900 more repeated keys from here on, not listed; the last value is used, as kubectl sends it"; ws[maxWarnings] != want {
		t.Errorf("last warning %q, want %q", ws[maxWarnings], want)
	}
}

// TestDuplicatesAndErrors checks that a repeated key does not hide a real error: the
// document is the error alone.
func TestDuplicatesAndErrors(t *testing.T) {
	for _, in := range []string{"a: 1\na: 2\nb: [\n", "a: 1\na: 2\nb: .nan\n"} {
		docs := Parse("e.yaml", []byte(in), Options{})
		if len(docs) != 1 || docs[0].Err == nil || docs[0].Warnings != nil || docs[0].Object != nil {
			t.Errorf("%q: got %+v, want one error document", in, docs)
		}
	}
}

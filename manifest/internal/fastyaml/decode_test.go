package fastyaml

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// slow is the decoding Decode must reproduce: the apiserver's strict YAML decoding.
func slow(raw []byte) (any, error) {
	j, err := sigsyaml.YAMLToJSONStrict(raw)
	if err != nil {
		return nil, err
	}
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// cases are documents with the scalars and layouts where YAML 1.1, go-yaml v2 and the JSON
// round trip surprise; fast marks the ones Decode must handle itself (the rest may fall back).
var cases = []struct {
	in   string
	fast bool
}{
	{"a: yes\nb: no\nc: on\nd: off\ne: y\nf: N\ng: True\nh: FALSE\ni: Yes\nj: OFF\n", true},
	{"a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: \"\"\ng: ''\n", true},
	{"a: 0777\nb: 0x1F\nc: 1_000\nd: 0b101\ne: 0o17\nf: -0b11\ng: 0b-1\n", true},
	{"a: 1e3\nb: 1.0\nc: -0\nd: +1\ne: 1.5\nf: .5\ng: -.5e-3\nh: 1e21\ni: 1e20\nj: 1e999\nk: 0.1e1\n", true},
	{"a: 9223372036854775807\nb: 9223372036854775808\nc: -9223372036854775808\nd: -9223372036854775809\ne: 18446744073709551616\nf: 18446744073709551615\n", true},
	{"a: .inf\n", false},
	{"a: -.Inf\n", false},
	{"a: .nan\n", false},
	{"a: 2001-12-14\n", false},
	{"a: 2001-12-14t21:59:43.10-05:00\n", false},
	{"a: 1.2.3\nb: 1-2\nc: -foo\nd: +x\ne: .foo\nf: 12abc\ng: 0x\nh: '0777'\ni: \"1e3\"\n", true},
	{"1: a\ntrue: b\nno: c\n1.5: d\n1e3: e\n0x10: f\n-1: g\nnull-ish: h\n", true},
	{"true: a\nyes: b\n", false},
	{"1: a\n01: b\n", false},
	{"1: a\n\"1\": b\n", false},
	{"~: a\n", false},
	{"9223372036854775808: a\n", false},
	{".inf: a\n", false},
	{"1e70: a\n-1e70: b\n1e-70: c\n3.4028235e38: d\n0.1: e\n", true},
	{"a: 1\na: 2\n", false},
	{"key: value # comment\nother: \"a # b\"\nthird: 'it''s'\nurl: http://x:80/\nhash: a#b\n", true},
	{"- - nested\n  - x\n- - y\n", true},
	{"- a\n-\n- - b\n  -\n", true},
	{"a:\n- x\n- y: 1\n  z: 2\nb: 3\n", true},
	{"a:\n  - x\n  -   y: 1\n      z: [1, two, \"three\", 'four']\n", true},
	{"a: |\n  line1\n\n  line3\n\n\nb: |-\n  x\n   y\n\nc: |+\n  k\n\n\nd: 1\n", true},
	{"a: |\n  x\n", true},
	{"a: |\n  x", true},
	{"a: |+\n  x\n\n", true},
	{"a: |-\n  x\n  \n   \n", true},
	{"a: |\n\n  x\n", true},
	{"a: |\n   \n  x\n", false},
	{"a: |\nb: 1\n", true},
	{"a: |+\n\n   \n\nb: |+\nc: |-\n\n", true},
	{"a: |+\n\n  ", true},
	{"a: |\n  x\n    ", true},
	{"a:\n  |\n  x\nb:\n  'c\n   d'\nc:\n   e\n  f\nd:\n - 0777\n -\n   0x10\n", true},
	{"- |\n  x\n  y\n- |-\n  z\n", true},
	{"a:\n  b: |\n      deep\n    shallow\n", false},
	{"a: |  # comment\n  x\n# after\nb: 2\n", true},
	{"a: |2\n   x\n", false},
	{"a: >\n  folded\n  text\n", true},
	{"a: >-\n  a\n  b\n\n  c\n   d\n  e\n\n\n   f\n  g\n  \th\n  i\nb: >+\n\n  x\n  y\n\n", true},
	{"- >\n  a\n   \n  b\n- >\n\n   \n  c\n", false},
	{"- >\n  a\n  \n  b\n- >\n\n\n  c\n", true},
	{"a: [] # empty\nb: {}\nc: [ ]\nd: { }\n", true},
	{"a: [a, b]\nb: [1, 2.5, true, null, ~]\nc: ['x', \"y\"]\n", true},
	{"a: [a, [b]]\n", true},
	{"a: {b: 1, 'c': [d, {e: f}], \"g\": \"h\", yes: ~, 1: 0x1F}\nb: {path: /dev/log}\n", true},
	{"- {key: app, operator: In, values: [node-exporter, example-app]}\n", true},
	{"a: {b: 1, b: 2}\n", false},
	{"a: {yes: 1, true: 2}\n", false},
	{"a: {b}\n", false},
	{"a: {b:c}\n", false},
	{"a: {b: }\n", false},
	{"a: {b: 1,}\n", false},
	{"a: {\"b\":1}\n", false},
	{"a: {b: 1\n  , c: 2}\n", false},
	{"a: [b, c\n  ]\n", false},
	{"a: [b: c]\n", false},
	{"a: [b, , c]\n", false},
	{"a: [-1, - 1]\n", false},
	{"a: [a b , c  ]  # x\n", true},
	{"a: [a #b]\n", false},
	{"a: [a#b, {c: d#e}]\n", true},
	{"a: {<<: {b: 1}}\n", false},
	{"a: {~: 1}\n", false},
	{"a: [b]c\n", false},
	{"a: 1\r\nb: |\r\n  x\r\n\r\n  y\r\nc: 'd\r\n  e'\r\n", true},
	{"a: 1\rb: 2\n", false},
	{"a: 1\r", false},
	{"a: [a,]\n", false},
	{"a: [a: b]\n", false},
	{"a: &x 1\nb: *x\n", false},
	{"a: !!str 1\n", false},
	{"<<: {a: 1}\n", false},
	{"\"<<\": 1\n", true},
	{"a: b: c\n", false},
	{"a: b\n  c\n", true},
	{"a: 'b\n  c'\n", true},
	{"a: b  \n   c  d  \n\n\n  e\n  # end\nf: 1\n", true},
	{"a: b\n  c # end\n  d\n", false},
	{"a: b\n  - c\n  [d] *e &f !g |h >i 'j' \"k\" %l @m\n", true},
	{"a: b\n  c: d\n", false},
	{"a: b\n  c:\n", false},
	{"a: 1\n  2\n", true},
	{"a: true\n  false\n", true},
	{"a: 'b  \n\n   c''d  \n  e  '  # x\nf: \"g\\n\n  h \\\" \"\n", true},
	{"a: 'b\nc'\n", false},
	{"- 'a\n  b'\n- \"c\n\n  d\"\n", true},
	{"a: 'b\n  c' d\n", false},
	{"a: \"b\\\n  c\"\n", true},
	{"a: 'b\n\n", false},
	{"a: 'b\n  ", false},
	{"- a: b\n    c\n  d: e\n", true},
	{"- a: b\n  c\n", false},
	{"? a\n: b\n", false},
	{"a:\tb\n", false},
	{"a: b\r\n", true},
	{"%YAML 1.1\n---\na: 1\n", false},
	{"---\na: 1\n", true},
	{"--- # header\na: 1\n", true},
	{"--- a\n", false},
	{"a: 1\n...\n", false},
	{"a: \"\\\"q\\\" \\\\ \\' \\n \\t \\u00e9 \\u263A\"\n", true},
	{"a: \"\\x41\\x7f\\xe9 \\0\\a\\b\\v\\f\\r\\e \\N\\_\\L\\P \\U0001F600 \\ x\"\n", true},
	{"a: \"\\U00110000\"\n", false},
	{"a: \"\\xZZ\"\n", false},
	{"a: \"\\q\"\n", false},
	{"a: \"x \\\n    y\\\n\n   \\ z \\\n  \"\n", true},
	{"a: \"\\/\"\n", false},
	{"a: \"\\ud800\"\n", false},
	{"a: \"b\\\n  c\"\n", true},
	{"a: 'unterminated\n", false},
	{"  a: 1\n  b:\n    c: 2\n", true},
	{"a:\n  b: 1\n c: 2\n", false},
	{"a: 1\n- b\n", false},
	{"- a\n b\n", true},
	{"-  a\n b\n", true},
	{"a:\n- b\n c\n", true},
	{"a:\n  - b\n  c: 1\n", false},
	{"hello\n", false},
	{"# only a comment\n", true},
	{"", true},
	{"a: -\n", false},
	{"a: - b\n", false},
	{"- -1\n- -x\n- ?x\n- :x\n", true},
	{"a: x:y\nb: x::y\nc: 'x': y\n", false},
	{"a: x:y\nb: x::y\n", true},
	{"a b: c d\n\"k\": v\n'k2': v\n", true},
	{"a : b\n", true},
	{"a: \u00e9\u4e16\U0001F600\n", true},
	{"a: \u0085\n", false},
	{"a: \ufeff\n", false},
	{"a: @x\n", false},
	{"a: `x\n", false},
	{"a: %x\n", false},
	{"a: 'x' y\n", false},
	{"a: 'x'#y\n", false},
	{"a: <br>\n", true},
	{"a: b # c: d\n", true},
	{"a: \"x\" # c\n", true},
	{"- a: 1\n  b: 2\n- c: 3\n", true},
	{"a:\n  # comment\n  b: 1\n", true},
	{"a:\n# comment\n  b: 1\n", true},
	{"key: " + strings.Repeat("k", 2000) + "\n", true},
	{strings.Repeat("k", 1100) + ": v\n", false},
	{"a:\n  - x\n  -\n  - z\n", true},
	{"a: 0.\nb: 1.\nc: -1.\nd: 1e+3\ne: 1E3\nf: +.5\ng: 00\nh: 08\ni: 0_1\n", true},
	// Repeated keys, and keys that become the same string, are left to the full decoder,
	// which keeps the last value and warns (strict and non-strict decoding differ there).
	{"a: 1\nb: 2\na: 3\n", false},
	{"a:\n- x: 1\n  x: 2\n", false},
	{"a: {x: 1, x: 2}\n", false},
	{"1: a\n\"1\": b\n", false},
}

func TestDecodeTable(t *testing.T) {
	for _, tt := range cases {
		got, ok := Decode([]byte(tt.in))
		want, err := slow([]byte(tt.in))
		if ok != tt.fast {
			t.Errorf("Decode(%q): ok %v, want %v (slow: %#v, %v)", tt.in, ok, tt.fast, want, err)
		}
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("Decode(%q) = %#v, but the slow path fails: %v", tt.in, got, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%q)\n got %#v\nwant %#v", tt.in, got, want)
		}
	}
}

// FuzzFastYAML checks that whenever Decode handles a document, the apiserver's decoding
// accepts it and produces the same value.
func FuzzFastYAML(f *testing.F) {
	for _, tt := range cases {
		f.Add([]byte(tt.in))
	}
	// Real manifests, for mutations of realistic layouts.
	examples, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "shared", "corpus", "gateway-api", "examples", "standard", "*.yaml"))
	for _, e := range examples {
		data, _ := os.ReadFile(e)
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			if len(doc) < 4096 {
				f.Add(doc)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := Decode(data)
		if !ok {
			return
		}
		want, err := slow(data)
		if err != nil {
			t.Fatalf("Decode(%q) = %#v, but the slow path fails: %v", data, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q)\n got %#v\nwant %#v", data, got, want)
		}
	})
}

// TestClean checks the characters Decode leaves to go-yaml's reader, at every offset of
// the word-at-a-time scan.
func TestClean(t *testing.T) {
	for _, tt := range []struct {
		c    string
		want bool
	}{
		{"a", true}, {"\n", true}, {"\t", true}, {"~", true}, {" ", true},
		{"\x00", false}, {"\x1f", false}, {"\r", false}, {"\x7f", false}, {"\x80", false},
		{"\u0085", false}, {"\u00a0", true}, {"\u2028", false}, {"\u2029", false}, {"\ufeff", false},
		{"\ufffd", true}, {"\ufffe", false}, {"\U0001F600", true}, {"\xed\xa0\x80", false}, {"\xff", false},
	} {
		for pad := range 17 {
			in := strings.Repeat("x", pad) + tt.c + strings.Repeat("y", 16-pad)
			if got := clean([]byte(in)); got != tt.want {
				t.Errorf("clean(%q) = %v, want %v", in, got, tt.want)
			}
		}
	}
}
